/* ballot_bitplane.h - exercise ex06_bitplane (graded on the CPU): a scan of multi-bit
 * values decomposed into bit planes, the way a warp does it with one ballot per bit.
 *
 * A warp holds 32 values v[0..31] of `bits` bits (1..32).  __ballot_sync(~0u, (v >> k) & 1)
 * would give every lane the same word: bit j set when bit k of lane j's value is set.  Call
 * that word planes[k].  From the planes alone, any lane can rebuild its prefix sum:
 *     sum over k of  popc(planes[k] & mask) << k,
 * mask selecting the lanes below it (exclusive) or up to it (inclusive).  Sums wrap at 2^32.
 *
 * The same code runs on the host (the tests) and in a kernel (the chapter's probe gets
 * planes[] from real ballots and calls bitplane_prefix). */
#ifndef BALLOT_BITPLANE_H
#define BALLOT_BITPLANE_H

#include <stdint.h>

#include "kit.h"

/* population count on either side */
static inline KIT_HD unsigned bp_popc(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return (unsigned)__popc(x);
#else
    return (unsigned)__builtin_popcount(x);
#endif
}

/* planes[k] for k < bits, from the 32 values of a warp (what the ballots would return) */
static inline KIT_HD void bitplane_split(const uint32_t v[32], int bits, uint32_t *planes)
{
    // BEGIN SOLUTION
    // TODO: for each plane k < bits: bit j of planes[k] = bit k of v[j], for j = 0..31.
    // STUB: int k; for (k = 0; k < bits; k++) planes[k] = 0; (void)v;
    int k, j;
    for (k = 0; k < bits; k++) {
        uint32_t w = 0;
        for (j = 0; j < 32; j++) w |= ((v[j] >> k) & 1u) << j;
        planes[k] = w;
    }
    // END SOLUTION
}

/* lane's prefix sum (exclusive, or inclusive when inclusive != 0) from the planes */
static inline KIT_HD uint32_t bitplane_prefix(const uint32_t *planes, int bits, unsigned lane,
                                              int inclusive)
{
    // BEGIN SOLUTION
    // TODO: mask = the lanes below `lane` (exclusive) or up to it (inclusive): careful with
    // TODO: lane 31 and shifts by 32.  Then add popc(planes[k] & mask) << k over k < bits
    // TODO: (bp_popc), in 32-bit unsigned arithmetic.
    // STUB: (void)planes; (void)bits; (void)lane; (void)inclusive; return 0;
    const uint32_t lt = (1u << lane) - 1u;
    const uint32_t mask = inclusive ? (lt | (1u << lane)) : lt;
    uint32_t s = 0;
    int k;
    for (k = 0; k < bits; k++) s += bp_popc(planes[k] & mask) << k;
    return s;
    // END SOLUTION
}

#endif
