/* radix.h - chapter 05: LSD radix sort, from the 1-bit split to a single-pass sort.
 *
 * Every step sorts n keys, or n (key, value) pairs, by bits [begin_bit, end_bit) of the
 * order-preserving image of the key, and is stable: keys whose bits in that range are
 * equal keep their input order (and so do their values).  The output keys are the input
 * keys (their own bit patterns), only reordered.
 *
 * Key types and their order (the image is what the digits are cut from):
 *   RADIX_U32  unsigned 32-bit, image = key
 *   RADIX_I32  signed 32-bit (two's complement), image = key ^ 0x80000000
 *   RADIX_F32  IEEE-754 binary32, image = key ^ (sign ? 0xFFFFFFFF : 0x80000000): the order
 *              of the real numbers, with -0.0 before +0.0 (distinct images), -inf first
 *              among numbers and +inf last; NaNs by their bits: those with the sign bit set
 *              before -inf, the others after +inf.  Our steps (s0 .. s12 and their tuning
 *              variants) sort by this image: -0.0 before +0.0.
 *   RADIX_U64  unsigned 64-bit (the 64-bit problem only), image = key
 * Values are 32-bit words carried with their key.
 *
 * The yardsticks' float order.  CUB's DeviceRadixSort treats -0.0 and +0.0 as EQUAL keys
 * (its documentation says so): it reads -0.0 as +0.0, also when it sorts a bit range (the
 * digits of -0.0 are those of +0.0), so the two keep their input order among themselves;
 * everything else is ordered as above.  thrust_sort sorts in CUB's order
 * too (its full-key sort is CUB's; its bit-range comparator reads -0.0 as +0.0).  So the
 * yardsticks are not checked against our order: their table entries carry KIT_OWN_ORDER, and
 * the problem's compare() (steps.c) checks them against the CPU reference of a copy of the keys
 * with -0.0 read as +0.0 (the same stable sort, the same bit range), which puts the original
 * keys, -0.0 and +0.0 in input order, where CUB puts them; they must equal it byte for byte.
 * For u32, i32 and u64 keys, and floats without -0.0, both orders are the same.
 *
 * The call (every step, the tuning variants and the yardsticks):
 *   cudaError_t step(const void *keys_in, void *keys_out, const uint32_t *vals_in,
 *                    uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
 *                    void *scratch, cudaStream_t s);
 *   size_t scratch_bytes(size_t n, int type, int pairs);
 * vals_in == NULL: keys only (vals_out ignored).  keys_in and vals_in are left unchanged;
 * keys_out and vals_out must not overlap the inputs.  Asynchronous on s; our steps and
 * cub_radix_sort neither allocate nor synchronize (CUB gets its temporary storage from the
 * scratch).  thrust_sort is what a user's Thrust call does instead: after copying keys (and
 * values) to the outputs with cudaMemcpyAsync on s, thrust::stable_sort(_by_key) allocates its
 * own temporary storage (cudaMalloc, freed with cudaFree before it returns, which waits for the
 * device) and synchronizes the stream (thrust::cuda::par.on(s) is the synchronous policy), so
 * it returns only when the sort is done; its scratch_bytes is 0.
 *
 * Contract:
 *   alignment  keys at any address aligned to the key (4 bytes, 8 for u64), values at any
 *              4-byte address, independently; scratch 256-byte aligned (as cudaMalloc
 *              returns it).  Otherwise cudaErrorMisalignedAddress before any launch.
 *   scratch    scratch_bytes(n, type, pairs) bytes are enough for every bit range and
 *              pointer alignment; nothing past them is written.
 *   bits       0 <= begin_bit <= end_bit <= key bits, else cudaErrorInvalidValue;
 *              begin_bit == end_bit copies the input.  A type the step does not take
 *              (radix_step.types): cudaErrorInvalidValue.
 *   pointers   n > 0 with keys_in, keys_out NULL, or vals_in given with vals_out NULL:
 *              cudaErrorInvalidValue.  cub_radix_sort with n > 0, end_bit > begin_bit and
 *              NULL scratch: cudaErrorInvalidValue (CUB would take it for a size query), and
 *              likewise when CUB would want more than scratch_bytes(n, type, pairs) for the call.
 *   size       n = 0 does nothing.  n <= the step's max_n (the step table's max_n; 0 there
 *              means RADIX_MAX_N = 2^32 - 1, and every step and tuning variant of this chapter
 *              has 0: counts and positions are 32-bit), else cudaErrorInvalidValue before any
 *              launch.  (s0, s1, s3 and s4 also refuse a grid of more than 2^31 - 1 blocks with
 *              cudaErrorInvalidValue: a guard that cannot fire for n <= RADIX_MAX_N.)
 *   other      s5_onesweep to s11_msd_hybrid (and their variants):
 *              cudaErrorInvalidConfiguration when the device's multiprocessor count cannot be
 *              read (kit_sm_count() = 0).  thrust_sort: the CUDA error that Thrust throws
 *              (it reports CUDA errors as exceptions; cudaErrorMemoryAllocation for its
 *              std::bad_alloc, cudaErrorUnknown for anything else), also when the device
 *              faults during the sort (reference/kit_thrust.cuh): returned, never thrown.
 * Every check above is made before any launch, in this order: type, bits, size, alignment,
 * pointers (radix_check), then a step's own (the SM count of s5 to s11, CUB's scratch). */
#ifndef KIT_RADIX_H
#define KIT_RADIX_H

#include "kit.h"
#include "radix_types.h" /* the key types: RADIX_U32, RADIX_I32, RADIX_F32, RADIX_U64 */

#ifdef __cplusplus
extern "C" {
#endif

/* 32-bit digit and tile counts throughout */
#define RADIX_MAX_N ((size_t)0xFFFFFFFFu)

static inline int radix_key_bytes(int type) { return type == RADIX_U64 ? 8 : 4; }
static inline int radix_key_bits(int type) { return 8 * radix_key_bytes(type); }

/* the order-preserving images (host side; radix_keys.cuh has the device ones) */
static inline uint32_t radix_image32(uint32_t k, int type)
{
    if (type == RADIX_I32) return k ^ 0x80000000u;
    if (type == RADIX_F32) return k ^ ((k & 0x80000000u) ? 0xFFFFFFFFu : 0x80000000u);
    return k;
}
static inline uint32_t radix_unimage32(uint32_t t, int type)
{
    if (type == RADIX_I32) return t ^ 0x80000000u;
    if (type == RADIX_F32) return t ^ ((t & 0x80000000u) ? 0x80000000u : 0xFFFFFFFFu);
    return t;
}

typedef cudaError_t (*radix_sort_fn)(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                     uint32_t *vals_out, size_t n, int type, int begin_bit,
                                     int end_bit, void *scratch, cudaStream_t s);
typedef size_t (*radix_scratch_fn)(size_t n, int type, int pairs);

typedef struct radix_step {
    kit_step_info info;
    radix_scratch_fn scratch_bytes;
    radix_sort_fn run;
    unsigned types;      /* bit t set: takes key type t */
    int digit_bits;      /* bits per pass (for the tables and the traffic model; 0: n/a) */
} radix_step;

/* The checks every step makes before any launch (type, bit range, n, alignment, NULL pointers),
 * in that order, with the codes above.  max_n: the step table's max_n (0: RADIX_MAX_N). */
cudaError_t radix_check(const void *keys_in, const void *keys_out, const uint32_t *vals_in,
                        const uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                        const void *scratch, unsigned types, size_t max_n);

/* ------------------------------------------------------- CPU baselines */

/* LSD counting sort with `digit_bits`-bit digits (4 or 8: Brown's Fig. 9.1-9.2, corrected),
 * keys and optional values, stable; tmp_keys / tmp_vals: n elements each (ping-pong). */
void radix_cpu_lsd(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                   size_t n, int type, int begin_bit, int end_bit, int digit_bits, void *tmp_keys,
                   uint32_t *tmp_vals);
/* The same sort with each pass split over `threads` chunks (1 .. KIT_HOST_MAX_THREADS) counted
 * and distributed in parallel (kit_host_parallel): the same output for any thread count.  Not a
 * baseline (those are one core): the reference answer at the contract's 2^31 + 5 keys, which one
 * core needs a minute for. */
void radix_cpu_lsd_mt(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                      size_t n, int type, int begin_bit, int end_bit, int digit_bits, void *tmp_keys,
                      uint32_t *tmp_vals, int threads);
/* what a C programmer would call: qsort over (image bits, input index) records, which makes
 * it stable; allocates its records. Returns 0, or -1 when out of memory. */
int radix_cpu_qsort(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                    size_t n, int type, int begin_bit, int end_bit);

/* ------------------------------------------------------------- inputs */

/* The named inputs (radix_inputs.c); arg is a radix_input_kind.  Values are the input
 * index (vals[i] = i), so a stable sort's values are exactly predictable. */
typedef enum radix_input_kind {
    RADIX_IN_UNIFORM = 0, /* uniform over all bit patterns */
    RADIX_IN_RANGE8,      /* uniform in 0..255 (image): one effective digit of 8 bits */
    RADIX_IN_RANGE16,     /* uniform in 0..65535 (image) */
    RADIX_IN_IDENTICAL,   /* every key the same */
    RADIX_IN_SORTED,      /* ascending in the key type's order, with repeats */
    RADIX_IN_REVERSE,     /* descending */
    RADIX_IN_LOWENT,      /* AND of three uniform words: bits 1 with probability 1/8 */
    RADIX_IN_FNORMAL,     /* normally distributed floats (for f32; the bit patterns otherwise),
                             with -0.0, +0.0, +-inf and NaNs of both signs sprinkled in */
    RADIX_IN_GAPS,        /* uniform in bytes 0, 2, 4, 6 of the image, the odd bytes zero: constant
                             digits between digits that vary (s6 skips passes between passes) */
    RADIX_IN_TWINS        /* uniform, the image's second byte from the top equal to its top byte:
                             two top digits that move together (s11's estimate of its groups, from
                             each digit's counts alone, takes their 256 large groups for 65536) */
} radix_input_kind;
#define RADIX_NINPUTS 10
extern const kit_input radix_inputs[RADIX_NINPUTS];

/* ------------------------------------------------------------ the steps */

#define RADIX_STEP_DECL(NAME)                                                                   \
    cudaError_t radix_##NAME(const void *keys_in, void *keys_out, const uint32_t *vals_in,      \
                             uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit, \
                             void *scratch, cudaStream_t s);                                     \
    size_t radix_##NAME##_scratch(size_t n, int type, int pairs)

RADIX_STEP_DECL(s0_split1);   /* 1-bit split per bit, ballot block scans */
RADIX_STEP_DECL(s1_satish);   /* 4-bit: local sort, histograms, scan, scatter */
RADIX_STEP_DECL(s2_srts);     /* Merrill & Grimshaw: upsweep, top scan, downsweep */
RADIX_STEP_DECL(s3_rowdask);  /* Brown: CountKeys, ScanRuns, DistributeKeys */
RADIX_STEP_DECL(s4_match8);   /* 8-bit digits, warp-match ranking, three kernels */
RADIX_STEP_DECL(s5_onesweep); /* one histogram kernel, then one kernel per pass */
RADIX_STEP_DECL(s6_skip_digits); /* s5, the passes of constant digits skipped (decided on the GPU) */
RADIX_STEP_DECL(s7_lookback_first); /* s6, keys alone look back before they rank */
RADIX_STEP_DECL(s8_reserve_first); /* s7, the first pass of keys alone on all bits reserves by atomics */
RADIX_STEP_DECL(s9_lop3_ballots); /* s8, keys alone AND their ballots three at a time */
RADIX_STEP_DECL(s10_wide_tile); /* s9, keys alone in 384 x 28 where three such blocks fit an SM */
RADIX_STEP_DECL(s11_msd_hybrid); /* s10, or its two top passes and 65536 groups sorted on chip (on the GPU) */
RADIX_STEP_DECL(s12_small_sort); /* one block, or one cooperative grid, for small n; s5, then s11, past them */
RADIX_STEP_DECL(s13_sort_network); /* keys alone on every bit, n <= 4096: a bitonic network; else s12 */
RADIX_STEP_DECL(s14_cluster_network); /* s13's network over a cluster of blocks (sm_90+), keys and pairs; else s13 */
RADIX_STEP_DECL(msd_hybrid);  /* onesweep table: s5 on bits 16..31, then 65536 groups sorted on chip */
RADIX_STEP_DECL(yard_cub);    /* cub::DeviceRadixSort::SortKeys / SortPairs */
RADIX_STEP_DECL(yard_thrust); /* thrust::stable_sort_by_key / thrust::sort as a user calls it */

cudaError_t radix_s0_describe(kit_kernel_desc *d);
cudaError_t radix_s1_describe(kit_kernel_desc *d);
cudaError_t radix_s2_describe(kit_kernel_desc *d);
cudaError_t radix_s3_describe(kit_kernel_desc *d);
cudaError_t radix_s4_describe(kit_kernel_desc *d);
cudaError_t radix_s5_describe(kit_kernel_desc *d);
cudaError_t radix_s6_describe(kit_kernel_desc *d);
cudaError_t radix_s7_describe(kit_kernel_desc *d);
cudaError_t radix_s8_describe(kit_kernel_desc *d);
cudaError_t radix_s9_describe(kit_kernel_desc *d);
cudaError_t radix_s10_describe(kit_kernel_desc *d);
cudaError_t radix_s11_describe(kit_kernel_desc *d);
cudaError_t radix_s12_describe(kit_kernel_desc *d);
cudaError_t radix_s13_describe(kit_kernel_desc *d);
cudaError_t radix_s14_describe(kit_kernel_desc *d);
cudaError_t radix_msd_hybrid_describe(kit_kernel_desc *d);
extern const char radix_s6_param[], radix_s8_param[], radix_s9_param[];
/* the labels written from the steps' policies when the program starts */
#define RADIX_PARAM_LEN 256
extern char radix_s2_param[RADIX_PARAM_LEN], radix_s3_param[RADIX_PARAM_LEN], radix_s4_param[RADIX_PARAM_LEN],
    radix_s5_param[RADIX_PARAM_LEN], radix_s7_param[RADIX_PARAM_LEN], radix_s10_param[RADIX_PARAM_LEN],
    radix_s11_param[RADIX_PARAM_LEN], radix_s12_param[RADIX_PARAM_LEN], radix_s13_param[RADIX_PARAM_LEN],
    radix_s14_param[RADIX_PARAM_LEN];
#ifdef __cplusplus
/* in a step's .cu: its label, written by snprintf(FORMAT, ...) from the step's knobs before main()
 * runs (the ladder's C table holds the array's address) */
#define RADIX_PARAM_DEF(name, ...)                                                                     \
    char name[RADIX_PARAM_LEN];                                                                        \
    [[maybe_unused]] static const int name##_written = snprintf(name, sizeof name, __VA_ARGS__)
#endif

/* The ladder's fastest step for large n, named here once: a step that sorts small arrays its own
 * way hands every other sort to it (same arguments and scratch contract as any step above). */
#define radix_large_sort radix_s11_msd_hybrid
#define radix_large_sort_scratch radix_s11_msd_hybrid_scratch

/* s12's paths on this device, in the order it tries them: one block of 1024, of 2048, of 4096 keys, a
 * cooperative grid of 2048-key tiles, of 4096-key tiles, s5 (mid sizes), the ladder's best step.
 * radix_s12_limit(type, pairs, path): the largest n that path takes (the smallest path that takes n
 * runs; 0: that path does not fit this device; RADIX_S12_LARGE: 0, it takes the rest).  Asks the
 * device (for tests, after they know there is one). */
enum {
    RADIX_S12_ONE_1K = 0,
    RADIX_S12_ONE_2K,
    RADIX_S12_ONE_4K,
    RADIX_S12_GRID_2K,
    RADIX_S12_GRID_4K,
    RADIX_S12_MID,
    RADIX_S12_LARGE
};
size_t radix_s12_limit(int type, int pairs, int path);

/* s13's paths: a network of 1024, 2048 or 4096 keys (keys alone on every bit), else s12.
 * radix_s13_limit(type, path): the largest n that network path takes for that key type (0: none, it
 * does not fit this device or the key width stops below it).  Asks the device. */
enum { RADIX_S13_NET_1K = 0, RADIX_S13_NET_2K, RADIX_S13_NET_4K, RADIX_S13_S12 };
size_t radix_s13_limit(int type, int path);

/* s14's paths: a cluster of blocks sorting up to 2048 pairs, up to 4096 keys or pairs (every bit of
 * 32-bit keys alone or with values, or of 64-bit keys alone), else s13.
 * radix_s14_limit(type, pairs, path): the largest n that path takes (0: none, it does not fit this
 * device, which needs sm_90 or later, or that sort never takes it).  Asks the device. */
enum { RADIX_S14_NET_2K = 0, RADIX_S14_NET_4K, RADIX_S14_S13 };
size_t radix_s14_limit(int type, int pairs, int path);

/* tuning tables: s2's digit bits 1..5 (the "bathtub"), s3's nWarps x nWork, s5's digit
 * bits and tile shapes, s12's one-block tiles and grids (32-bit and 64-bit keys), s13's networks,
 * s14's clusters */
#define RADIX_SRTS_NVARIANTS 5
#define RADIX_ROWDASK_NVARIANTS 12
#define RADIX_ONESWEEP_NVARIANTS 44
#define RADIX_ONESWEEP64_NVARIANTS 10 /* s5's kernels on 64-bit keys */
#define RADIX_SMALL_NVARIANTS 16
#define RADIX_NETWORK_NVARIANTS 13
#define RADIX_CLUSTER_NVARIANTS 10
extern const radix_step radix_srts_variants[RADIX_SRTS_NVARIANTS];
extern const radix_step radix_rowdask_variants[RADIX_ROWDASK_NVARIANTS];
extern const radix_step radix_onesweep_variants[RADIX_ONESWEEP_NVARIANTS];
extern const radix_step radix_onesweep64_variants[RADIX_ONESWEEP64_NVARIANTS];
extern const radix_step radix_small_variants[RADIX_SMALL_NVARIANTS];
extern const radix_step radix_network_variants[RADIX_NETWORK_NVARIANTS];
extern const radix_step radix_cluster_variants[RADIX_CLUSTER_NVARIANTS];

#define RADIX_NSTEPS 17
extern const radix_step radix_steps[RADIX_NSTEPS];

/* the problems: 32-bit keys (axes type, pairs, begin_bit, end_bit) and 64-bit keys (pairs,
 * begin_bit, end_bit); the ladders over them */
extern const kit_problem radix_problem32, radix_problem64;
#define RADIX_NLADDERS 12
#define RADIX_NMAIN 2 /* the 32-bit and 64-bit ladders come first */
extern const kit_ladder *const radix_ladders[RADIX_NLADDERS];

#ifdef __cplusplus
}
#endif

#endif
