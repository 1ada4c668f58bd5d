/* compact.h - chapter 07: stream compaction (select, partition, unique), from a global
 * atomic counter to a single-pass order-preserving select with decoupled look-back.
 *
 * The selection.  Element i of in[0..n) is selected when
 *   COMPACT_IF       in[i] < threshold   (threshold is 64-bit: 0 selects nothing and
 *                                          2^32 selects everything, whatever the data)
 *   COMPACT_FLAGGED  flags[i] != 0       (one byte per element; threshold ignored)
 * and the output is, per selected element,
 *   COMPACT_INDEX    its index i (as the paper's kernels write)
 *   COMPACT_VALUE    its value in[i]     (CUB's DeviceSelect::If / Flagged)
 * mode = one of the first pair | one of the second pair.
 *
 * The calls (every step of a ladder and its yardsticks have the same signature):
 *   select    out[0..c) = the selected elements, c = *count (a device word).  Order-keeping
 *             steps write them in input order; steps flagged KIT_UNORDERED (the atomic ones)
 *             write the same multiset in any order.  out[c..n) is not written.
 *   partition out[0..n): the selected elements in input order, then the rejected ones in
 *             REVERSE input order from out[n-1] down (one pass writes both ends, as CUB's
 *             DevicePartition::If does); *count = the number selected.
 *   unique    out[0..c) = the elements that differ from their predecessor (in[0] always
 *             kept when n > 0), in input order; *count = c.  threshold/flags ignored;
 *             mode: COMPACT_VALUE or COMPACT_INDEX (indices of the kept elements).
 *
 *   cudaError_t step(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
 *                    uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
 *                    cudaStream_t s);
 *   size_t scratch_bytes(size_t n);
 *
 * Contract (every public step):
 *   alignment  in, out and count at any 4-byte-aligned address, flags at any address,
 *              independently; scratch 256-byte aligned (as cudaMalloc returns it); else
 *              cudaErrorMisalignedAddress before any launch.
 *   buffers    in (and flags when flagged) are read only; out must not overlap them;
 *              flags may be NULL unless the mode is COMPACT_FLAGGED.  *count is always
 *              written (0 when n = 0).
 *   scratch    scratch_bytes(n) bytes are enough for every mode and alignment; nothing past
 *              them is written.  Asynchronous on s; no allocation, no synchronization.
 *   size       n <= COMPACT_MAX_N (indices and the count are 32-bit words), else
 *              cudaErrorInvalidValue before any launch; a bad mode likewise.
 */
#ifndef KIT_COMPACT_H
#define KIT_COMPACT_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    COMPACT_IF = 0,      /* in[i] < threshold */
    COMPACT_FLAGGED = 1, /* flags[i] != 0 */
    COMPACT_INDEX = 0,   /* write i */
    COMPACT_VALUE = 2    /* write in[i] */
};
#define COMPACT_PRED_MASK 1
#define COMPACT_OUT_MASK 2
#define COMPACT_MODE_MAX 3

/* indices and the count are 32-bit: n <= 2^32 - 1 */
#define COMPACT_MAX_N ((size_t)0xFFFFFFFFu)

/* the host-side predicate, for CPU code and tests */
static inline int compact_selected(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                   size_t i, int mode)
{
    return (mode & COMPACT_PRED_MASK) == COMPACT_FLAGGED ? flags[i] != 0 : (uint64_t)in[i] < threshold;
}

typedef cudaError_t (*compact_fn)(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                  uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                  cudaStream_t s);
typedef size_t (*compact_scratch_fn)(size_t n);

typedef struct compact_step {
    kit_step_info info;       /* flags KIT_UNORDERED for the steps that do not keep order */
    compact_scratch_fn scratch_bytes;
    compact_fn run;
} compact_step;

/* The checks every step makes before any launch (mode, n, alignment, NULLs). */
cudaError_t compact_check(const uint32_t *in, const uint8_t *flags, const uint32_t *out,
                          const uint32_t *count, size_t n, int mode, const void *scratch);

/* ------------------------------------------------------------ the steps */

#define COMPACT_STEP_DECL(NAME)                                                                  \
    cudaError_t compact_##NAME(const uint32_t *in, const uint8_t *flags, uint64_t threshold,     \
                               uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch, \
                               cudaStream_t s);                                                   \
    size_t compact_##NAME##_scratch(size_t n)

/* select ladder */
COMPACT_STEP_DECL(s0_atomic_global); /* one atomicAdd on a global counter per selected element */
COMPACT_STEP_DECL(s1_atomic_block);  /* shared counter per block, one global atomic per block */
COMPACT_STEP_DECL(s2_warp_atomic);   /* warp-aggregated: ballot + popc, one atomic per warp */
COMPACT_STEP_DECL(s3_ballot_rank);   /* ballot list ranking per warp (previous work [12]) */
COMPACT_STEP_DECL(s4_three_phase);   /* the paper: masks + counts, scan, shuffle offsets + write */
COMPACT_STEP_DECL(s5_count_scan);    /* tile counts, shared u32 scan, scatter (order-keeping) */
COMPACT_STEP_DECL(s6_single_pass);   /* one kernel, decoupled look-back of tile counts */
COMPACT_STEP_DECL(yard_cub_select);  /* cub::DeviceSelect::If / Flagged */
COMPACT_STEP_DECL(yard_thrust_copy_if); /* thrust::copy_if as a user calls it */
/* partition and unique on the single-pass machinery, and their yardsticks */
COMPACT_STEP_DECL(partition_single_pass);
COMPACT_STEP_DECL(yard_cub_partition); /* cub::DevicePartition::If / Flagged */
COMPACT_STEP_DECL(unique_single_pass);
COMPACT_STEP_DECL(yard_cub_unique);    /* cub::DeviceSelect::Unique */

cudaError_t compact_s0_describe(kit_kernel_desc *d);
cudaError_t compact_s1_describe(kit_kernel_desc *d);
cudaError_t compact_s2_describe(kit_kernel_desc *d);
cudaError_t compact_s3_describe(kit_kernel_desc *d);
cudaError_t compact_s4_describe(kit_kernel_desc *d);
cudaError_t compact_s5_describe(kit_kernel_desc *d);
cudaError_t compact_s6_describe(kit_kernel_desc *d);
cudaError_t compact_partition_describe(kit_kernel_desc *d);
cudaError_t compact_unique_describe(kit_kernel_desc *d);
/* compile-time knobs of the ladder steps, "tbs=128 items=16 ..." */
extern const char compact_s4_param[], compact_s5_param[], compact_s6_param[];

/* tuning tables (template instantiations with other knobs): the three-phase step over
 * threads per block (the paper's Fig. 10), the single pass over block size x items/thread */
#define COMPACT_TPB_NVARIANTS 6
#define COMPACT_SP_NVARIANTS 6
extern const compact_step compact_tpb_variants[COMPACT_TPB_NVARIANTS];
extern const compact_step compact_sp_variants[COMPACT_SP_NVARIANTS];

#ifdef __cplusplus
}
#endif

#endif
