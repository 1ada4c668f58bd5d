/* compact_phase3.h - exercise ex07_phase3 (graded on the CPU): the output offsets of phase 3
 * of the paper's three-phase select (s4), worked out the way one warp does it, with the 32
 * lanes of the warp written as a loop in C.
 *
 * Phase 1 left, for every group of 1024 elements (one warp's share), 32 ballot masks:
 * mask[l] has bit j set when element 32 l + j of the group is selected.  Phase 2 gave the
 * group's base: the selected elements of all the groups before it.  In phase 3, lane l of the
 * warp loads mask[l] and counts it (popc); a shuffle scan over the lanes turns the 32 counts
 * into each subgroup's offset inside the group; then, for each subgroup l in turn, the warp
 * broadcasts mask[l] and that offset, and the lane j whose bit is set writes its element at
 *     base + (selected elements of subgroups 0 .. l - 1) + popc(mask[l] & lanemask_lt(j))
 * where lanemask_lt(j) has the bits of the lanes below j.  These three functions are that
 * arithmetic; the tests check them against a plain count over the elements.
 *
 * All run on the host (the tests) and could run on the device (KIT_HD). */
#ifndef COMPACT_PHASE3_H
#define COMPACT_PHASE3_H

#include <stdint.h>

#include "kit.h"

/* bits set in x (given: one instruction on the GPU, a builtin on the host) */
static inline KIT_HD unsigned ex07_popc(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return (unsigned)__popc(x);
#else
    return (unsigned)__builtin_popcount(x);
#endif
}

/* Lane `lane` (0..31) of a subgroup whose ballot is mask: the selected lanes below it, i.e.
 * its element's offset among the subgroup's selected elements when it is selected. */
static inline KIT_HD unsigned ex07_lane_offset(uint32_t mask, unsigned lane)
{
    // BEGIN SOLUTION
    // TODO: popc of mask restricted to the bits below `lane` (lanemask_lt: (1 << lane) - 1,
    // TODO: computed in 32-bit unsigned arithmetic; lane 0 has no lanes below it).
    // STUB: (void)mask; (void)lane; return 0;
    return ex07_popc(mask & ((1u << lane) - 1u));
    // END SOLUTION
}

/* Phase 3b for one group: lane l holds mask[l].  Writes excl[l] = the selected elements of
 * subgroups 0 .. l - 1 (an exclusive scan of the 32 popcounts; the warp does it with
 * __shfl_up_sync) and returns the group's total. */
static inline KIT_HD unsigned ex07_subgroup_offsets(const uint32_t mask[32], unsigned excl[32])
{
    // BEGIN SOLUTION
    // TODO: a running sum over the lanes: excl[l] = sum of popc(mask[k]) for k < l;
    // TODO: return the sum over all 32.
    // STUB: (void)mask; (void)excl; return 0;
    unsigned l, run = 0;
    for (l = 0; l < 32; l++) {
        excl[l] = run;
        run += ex07_popc(mask[l]);
    }
    return run;
    // END SOLUTION
}

/* Phase 3c for one group: for every selected element e = 32 l + j of the group (bit j of
 * mask[l]), dst[e] = base + (selected elements of subgroups before l) + (selected lanes
 * below j in subgroup l).  dst[e] of an element that is not selected is left as it was.
 * Returns base + the group's total (the next group's base). */
static inline KIT_HD uint32_t ex07_group_positions(const uint32_t mask[32], uint32_t base, uint32_t dst[1024])
{
    // BEGIN SOLUTION
    // TODO: ex07_subgroup_offsets gives every subgroup's offset; then for each subgroup l and
    // TODO: each lane j whose bit is set: base + excl[l] + ex07_lane_offset(mask[l], j).
    // STUB: (void)mask; (void)base; (void)dst; return 0;
    unsigned excl[32], l, j;
    const unsigned total = ex07_subgroup_offsets(mask, excl);
    for (l = 0; l < 32; l++)
        for (j = 0; j < 32; j++)
            if (mask[l] >> j & 1u) dst[32 * l + j] = base + excl[l] + ex07_lane_offset(mask[l], j);
    return base + total;
    // END SOLUTION
}

#endif
