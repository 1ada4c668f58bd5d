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
 * mode = one of the first pair | one of the second pair (0 .. COMPACT_MODE_MAX = 3).
 *
 * The calls (every step of a ladder and its yardsticks have the same signature):
 *   select    out[0..c) = the selected elements, c = *count (a device word).  Order-keeping
 *             steps write them in input order; steps flagged KIT_UNORDERED (the atomic ones)
 *             write the same multiset in any order.  out[c..n) is not written.
 *   partition out[0..n): the selected elements in input order, then the rejected ones in
 *             REVERSE input order from out[n-1] down (one pass writes both ends, as CUB's
 *             DevicePartition::If does); *count = the number selected.
 *   unique    out[0..c) = the elements that differ from their predecessor (in[0] always
 *             kept when n > 0), in input order; *count = c.  There is no predicate: threshold,
 *             flags and the mode's predicate bit are ignored, so any mode 0 .. 3 is accepted
 *             and flags may be NULL whatever the mode; the output bit picks the kept values
 *             (COMPACT_VALUE) or their indices (COMPACT_INDEX).  (compact_check_unique.)
 *
 *   cudaError_t step(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
 *                    uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
 *                    cudaStream_t s);
 *   size_t scratch_bytes(size_t n);
 *
 * Contract (every public step, tuning variant and yardstick):
 *   alignment  in, out and count at any 4-byte-aligned address, flags at any address,
 *              independently; scratch 256-byte aligned (as cudaMalloc returns it); else
 *              cudaErrorMisalignedAddress before any launch.
 *   buffers    in (and flags when flagged) are read only; out must not overlap them.
 *              count must not be NULL, whatever n (cudaErrorInvalidValue): *count is always
 *              written (0 when n = 0).  With n > 0: in and out must not be NULL, nor flags in
 *              a select or partition whose mode is COMPACT_FLAGGED (else cudaErrorInvalidValue);
 *              flags may be NULL in every other call (If modes; unique, whatever the mode).
 *              With n = 0 only count is needed.
 *   scratch    scratch_bytes(n) bytes are enough for every mode and alignment; nothing past
 *              them is written.  s3_ballot_rank (and its phases) and the CUB yardsticks refuse
 *              NULL scratch when n > 0 (cudaErrorInvalidValue; CUB would take it for a size
 *              query), and a CUB yardstick refuses likewise when CUB would want more than
 *              scratch_bytes(n) for the call.
 *   stream     Asynchronous on s.  The steps and the CUB yardsticks never allocate and never
 *              synchronize.  thrust_copy_if does both, as a user's thrust::copy_if does: Thrust
 *              allocates its temporary storage (cudaMalloc, freed with cudaFree, which waits for
 *              the device), synchronizes the stream and copies the selected count back to the
 *              host (it returns the output's end); the run then stores that count to *count with
 *              a one-thread kernel on s.  So it returns only once Thrust's selection is done (the
 *              count's store still queued on s), and its scratch_bytes is 0.
 *   size       n <= COMPACT_MAX_N = 2^32 - 1 (indices and the count are 32-bit words): the
 *              problems' max_n, which every step and tuning-table entry takes (max_n 0 or
 *              COMPACT_MAX_N in the tables); past it cudaErrorInvalidValue before any launch.
 *              (The steps' own grid checks, cudaErrorInvalidValue past 2^31 - 1 blocks, are
 *              guards that cannot fire below it.)
 *   mode       outside 0 .. COMPACT_MODE_MAX: cudaErrorInvalidValue before any launch.
 *   errors     thrust_copy_if: the CUDA error that Thrust throws (it reports CUDA errors as
 *              exceptions; cudaErrorMemoryAllocation for its std::bad_alloc, cudaErrorUnknown
 *              for anything else), also when the device faults during the call
 *              (reference/kit_thrust.cuh): returned, never thrown.  The checks are made in
 *              this order: mode, n, alignment, count, in and out, flags (compact_check), then
 *              a step's own (scratch).
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

/* The checks every step makes before any launch (mode, n, alignment, NULLs), with the codes of
 * the contract above. */
cudaError_t compact_check(const uint32_t *in, const uint8_t *flags, const uint32_t *out,
                          const uint32_t *count, size_t n, int mode, const void *scratch);
/* The same for the unique steps, which have no predicate: mode 0 .. COMPACT_MODE_MAX (else
 * cudaErrorInvalidValue), its predicate bit ignored and no flags read (they may be NULL whatever
 * the mode): compact_check of the output bit alone, without flags. */
cudaError_t compact_check_unique(const uint32_t *in, const uint32_t *out, const uint32_t *count, size_t n,
                                 int mode, const void *scratch);

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
/* s2's shape: its kernels (s2_warp_atomic_dev.cu, device code: they include the exercise's
 * compact_warp_atomic.cuh) and its launcher (s2_warp_atomic.cu) agree on it through these */
#define COMPACT_S2_TBS 256
#define COMPACT_S2_ITEMS 4
COMPACT_STEP_DECL(s3_ballot_rank);   /* ballot list ranking per warp (previous work [12]) */
COMPACT_STEP_DECL(s4_three_phase);   /* the paper: masks + counts, scan, shuffle offsets + write */
COMPACT_STEP_DECL(s5_count_scan);    /* tile counts, shared u32 scan, scatter (order-keeping) */
COMPACT_STEP_DECL(s6_single_pass);   /* one kernel, decoupled look-back of tile counts */
COMPACT_STEP_DECL(s7_persistent);    /* s6 with persistent blocks: next tile loaded during the look-back */
COMPACT_STEP_DECL(s8_block_order);   /* s6 with the tile from blockIdx, 256 x 24, 6 blocks per SM */
COMPACT_STEP_DECL(s9_prefetch);      /* s8 + L2 prefetch a third of a residency ahead + a look-back warp */
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
cudaError_t compact_s7_describe(kit_kernel_desc *d);
cudaError_t compact_s8_describe(kit_kernel_desc *d);
cudaError_t compact_s9_describe(kit_kernel_desc *d);
cudaError_t compact_partition_describe(kit_kernel_desc *d);
cudaError_t compact_unique_describe(kit_kernel_desc *d);
/* compile-time knobs of the ladder steps, "tbs=128 items=16 ..." */
extern const char compact_s4_param[], compact_s5_param[], compact_s6_param[], compact_s7_param[],
    compact_s8_param[], compact_s9_param[];
extern const char compact_s0_param[], compact_s1_param[], compact_s2_param[], compact_s3_param[];

/* tuning tables (template instantiations with other knobs): the three-phase step over
 * threads per block (the paper's Fig. 10), the single pass over block size x items/thread */
#define COMPACT_TPB_NVARIANTS 6
#define COMPACT_SP_NVARIANTS 39
#define COMPACT_PP_NVARIANTS 8
extern const compact_step compact_tpb_variants[COMPACT_TPB_NVARIANTS];
extern const compact_step compact_sp_variants[COMPACT_SP_NVARIANTS];
/* s7 (persistent blocks) over block size x items per thread x resident blocks per SM */
extern const compact_step compact_pp_variants[COMPACT_PP_NVARIANTS];

/* s3's and s4's kernels one at a time, for the phase breakdown (the paper's Fig. 13):
 * phase 0 counts, 1 scans the counts, 2 writes; phases 0, 1, 2 run in that order on the same
 * scratch (scratch_bytes of the step) do exactly what the step does, with the same checks.
 * A phase outside 0 .. COMPACT_NPHASES - 1: cudaErrorInvalidValue before any launch.
 * compact_s3_phase and compact_s4_phase are written with their steps (s3_ballot_rank.cu,
 * s4_three_phase.cu); the phase ladder (select-phases, the `phases` experiment) calls them. */
#define COMPACT_PHASE_DECL(NAME)                                                                   \
    cudaError_t compact_##NAME##_phase(int phase, const uint32_t *in, const uint8_t *flags,         \
                                       uint64_t threshold, uint32_t *out, uint32_t *count, size_t n, \
                                       int mode, void *scratch, cudaStream_t s)
#define COMPACT_NPHASES 3
COMPACT_PHASE_DECL(s3);
COMPACT_PHASE_DECL(s4);

/* ------------------------------------------------------- CPU baselines */

/* All return c, the number of elements written to out[0..c) (select, unique) or selected
 * (partition); mode as the steps take it.  Nothing past what they return is written, except
 * by the partition, which writes all of out[0..n). */

/* the obvious loop: test each element, append it when it passes */
size_t compact_cpu_serial(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                          uint32_t *out, size_t n, int mode);
/* the GPU's shape on one core: count the selected elements of each chunk of
 * COMPACT_CPU_CHUNK, scan the counts, then write each chunk from its offset with branch-free
 * stores (every element is stored, the slot advances only for selected ones).  Allocates the
 * counts (n / COMPACT_CPU_CHUNK words); falls back to the serial loop without memory. */
#define COMPACT_CPU_CHUNK 4096
size_t compact_cpu_two_pass(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                            uint32_t *out, size_t n, int mode);
/* selected elements in input order from out[0], rejected ones in reverse input order from
 * out[n - 1] down (compact.h's partition); returns the number selected */
size_t compact_cpu_partition(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                             uint32_t *out, size_t n, int mode);
/* the elements that differ from their predecessor (in[0] when n > 0), as values or indices
 * (mode & COMPACT_OUT_MASK; the predicate bit is ignored) */
size_t compact_cpu_unique(const uint32_t *in, uint32_t *out, size_t n, int mode);

/* ------------------------------------------------------------- inputs */

/* The ladders' predicate: COMPACT_IF with this threshold.  Every input makes its selected
 * elements < 2^31 and its rejected ones >= 2^31, and flags[i] = (in[i] < 2^31), so IF and
 * FLAGGED select the same elements. */
#define COMPACT_THRESHOLD ((uint64_t)1 << 31)

/* the named inputs' generators (kit_input.arg; kit_input.value is the parameter) */
typedef enum compact_input_kind {
    COMPACT_IN_P = 0,     /* each element selected with probability value: selected values
                             uniform in [0, 2^31), rejected ones in [2^31, 2^32) */
    COMPACT_IN_ONE,       /* exactly one selected element, at a random position ("p=1/n") */
    COMPACT_IN_RUNS,      /* alternating runs of selected and rejected elements, lengths
                             uniform in [1, 2L - 1] with means L = 512 value and 512 (1 - value) */
    COMPACT_IN_SORTED,    /* ascending, each value twice: the selection is a prefix (about half) */
    COMPACT_IN_DUPS,      /* runs of one random value, lengths uniform in [1, value] */
    COMPACT_IN_IDENTICAL  /* one random value repeated */
} compact_input_kind;

/* select and partition: "p=0.50" (the default), "p=0.00" .. "p=1.00" in steps of 0.1,
 * "p=1/n", "runs-0.50", "sorted", "dups" */
#define COMPACT_NINPUTS 15
extern const kit_input compact_inputs[COMPACT_NINPUTS];
/* unique: "dups" (the default), "dups-long", "identical", "sorted", "p=0.50" (hardly any
 * equal neighbours) */
#define COMPACT_UNIQUE_NINPUTS 5
extern const kit_input compact_unique_inputs[COMPACT_UNIQUE_NINPUTS];

/* in[0..n) (and flags[0..n) when flags is not NULL) for input kind with parameter value */
void compact_generate(uint32_t *in, uint8_t *flags, size_t n, int kind, double value, uint64_t seed);

/* ---------------------------------------------------- problems, ladders */

/* select (axes pred = if | flagged, out = index | value), partition (the same axes), unique
 * (axis out), and select split into its three kernels (s3, s4: the phase breakdown) */
extern const kit_problem compact_select_problem, compact_partition_problem, compact_unique_problem,
    compact_phases_problem;
/* the main ladders first: select, partition, unique; then the phase ladder and the tuning tables
 * (tpb, single pass, persistent), all always built */
#define COMPACT_NMAIN 3
extern const kit_ladder *const compact_ladders[];
extern const size_t compact_nladders;

#ifdef __cplusplus
}
#endif

#endif
