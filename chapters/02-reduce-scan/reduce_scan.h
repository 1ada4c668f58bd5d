/* reduce_scan.h - chapter 02: reduce and scan.
 *
 * Two ladders, two step tables:
 *   reduce: out[0] = in[0] + in[1] + ... + in[n-1]     (uint32 wrap-around, and float)
 *   scan:   out[i] = in[0] (+) ... (+) in[i]            (inclusive)
 *           out[i] = I (+) in[0] (+) ... (+) in[i-1]    (exclusive)
 *           for uint32 wrap-around addition and for the composition of affine
 *           maps, an associative operator that is NOT commutative.
 * Every run is asynchronous on its stream, never allocates and never
 * synchronizes; scratch (scratch_bytes(n), enough for every type and mode of
 * the step) is allocated by the caller, outside the timed region.
 *
 * Contract of every step, its tuning-table variants and the CUB yardsticks:
 *   alignment  in and out at any address aligned to their element (4 bytes for
 *              uint32 and float, 8 for rs_affine), independently of each other.
 *              The 16-byte vector steps choose per launch: r8_hopper reads a
 *              misaligned in from its first 16-byte boundary after 1..3 head
 *              values; s4_lookback shifts its tile grid so that whole tiles load
 *              16-byte vectors, storing vectors too when out is misaligned like in
 *              and through shared memory (coalesced element stores) when not.
 *              r8 and s4 refuse an address not aligned to its element with
 *              cudaErrorMisalignedAddress before any launch; the others do not
 *              check it.  out of a reduce: one element, element-aligned.
 *   scratch    scratch_bytes(n) bytes at a cudaMalloc'd address (256-byte
 *              aligned) are enough for every type, mode and pointer alignment;
 *              nothing past them is written.  The CUB yardsticks refuse NULL
 *              scratch when n > 0 (CUB would take it for a size query) and,
 *              should CUB ever want more than scratch_bytes(n) for a call, return
 *              cudaErrorInvalidValue before any launch.
 *   size       n = 0: a reduce writes 0 to out, a scan does nothing.  No index
 *              overflows for any n that fits in memory.  Each step takes every n up
 *              to its largest, the step table's max_n (RS_MAX_N_<step> below; 0: no
 *              limit but memory), and refuses every n past it with
 *              cudaErrorInvalidValue before any launch, whatever the pointers (all
 *              far beyond any GPU's memory).  The steps whose grid covers the input
 *              once, one block per PER_BLOCK elements, stop where the grid would pass
 *              2^31 - 1 blocks: r0, r1, r2: 256 x (2^31 - 1); r3, r4, s0, s1:
 *              512 x (2^31 - 1); s2: 1024 x (2^31 - 1).  s4 lays tiles of tbs x items
 *              elements (8192 uint32, 4096 affine for the ladder step) on a grid
 *              shifted by lo = in's misalignment in elements (0 .. 16 / element
 *              bytes - 1), so it needs ceil((n + lo) / tile) <= 2^31 - 1 tiles; its limit is
 *              the smallest over element types and alignments: 4096 x (2^31 - 1) - 1
 *              for the ladder step (affine, lo = 1), tile x (2^31 - 1) - 3 for each
 *              tuning variant (uint32 only, lo = 3).  r5, r6, r7, r8, s3, their tuning
 *              tables and CUB (64-bit counts past INT_MAX) have none.
 *   other      The tuning tables are uint32 only (run_affine / run_f32 NULL; the
 *              ladder adaptor in steps.c answers cudaErrorNotSupported for such a
 *              call), and their scans (rs_brown_scan_*, rs_s4_variants) exclusive
 *              only: an inclusive call returns cudaErrorNotSupported before any
 *              launch. */
#ifndef RS_REDUCE_SCAN_H
#define RS_REDUCE_SCAN_H

#include "kit.h"
#include "rs_affine.h" /* the non-commutative operator: rs_affine, rs_affine_then */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ size limits */

/* The largest n of each ladder step (its step table's max_n; 0: no limit but memory), the one
 * definition that steps.c's table and the step's own refusal read; each .cu checks it against
 * its kernel's knobs at compile time. */
#define RS_GRID_MAX ((size_t)0x7FFFFFFF) /* blocks in a grid: 2^31 - 1 */
#define RS_MAX_N_r0 ((size_t)256 * RS_GRID_MAX)  /* 256 elements per block */
#define RS_MAX_N_r1 ((size_t)256 * RS_GRID_MAX)
#define RS_MAX_N_r2 ((size_t)256 * RS_GRID_MAX)
#define RS_MAX_N_r3 ((size_t)512 * RS_GRID_MAX)  /* 256 threads x 2 */
#define RS_MAX_N_r4 ((size_t)512 * RS_GRID_MAX)
#define RS_MAX_N_r5 0
#define RS_MAX_N_r6 0
#define RS_MAX_N_r7 0
#define RS_MAX_N_r8 0
#define RS_MAX_N_s0 ((size_t)512 * RS_GRID_MAX)  /* 512 threads x 1 */
#define RS_MAX_N_s1 ((size_t)512 * RS_GRID_MAX)  /* 256 threads x 2 */
#define RS_MAX_N_s2 ((size_t)1024 * RS_GRID_MAX) /* 256 threads x 4 */
/* the shapes of the exercise steps r6 and s2: their kernels (the exercises' device-only files,
 * $(IMPL)/02-reduce-scan/r6_warp_shuffle.cu and s2_warp_scan.cu) and their launchers (the kit's
 * r6_launch.cu and s2_launch.cu) agree on them through these */
#define RS_R6_TBS 256
#define RS_R6_MIN_PER_THREAD 8
#define RS_S2_TBS 256
#define RS_S2_ITEMS 4
#define RS_MAX_N_s3 0
#define RS_MAX_N_s4 ((size_t)4096 * RS_GRID_MAX - 1) /* affine tiles of 4096, lo <= 1 */

/* ---------------------------------------------------------------- the steps */

typedef cudaError_t (*rs_reduce_u32_fn)(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                        cudaStream_t s);
typedef cudaError_t (*rs_reduce_f32_fn)(const float *in, float *out, size_t n, void *scratch,
                                        cudaStream_t s);
typedef cudaError_t (*rs_scan_u32_fn)(const uint32_t *in, uint32_t *out, size_t n, int exclusive,
                                      void *scratch, cudaStream_t s);
typedef cudaError_t (*rs_scan_affine_fn)(const rs_affine *in, rs_affine *out, size_t n,
                                         int exclusive, void *scratch, cudaStream_t s);

typedef struct rs_reduce_step {
    kit_step_info info;
    size_t (*scratch_bytes)(size_t n); /* NULL: no scratch */
    rs_reduce_u32_fn run_u32;
    rs_reduce_f32_fn run_f32;          /* NULL in tuning tables (uint32 only) */
} rs_reduce_step;

typedef struct rs_scan_step {
    kit_step_info info;
    size_t (*scratch_bytes)(size_t n); /* NULL: no scratch */
    rs_scan_u32_fn run_u32;
    rs_scan_affine_fn run_affine;      /* NULL in tuning tables (uint32 only) */
} rs_scan_step;

/* The four functions each ladder step file defines (steps.c lists them). */
#define RS_DECLARE_REDUCE_STEP(id)                                                              \
    size_t rs_##id##_scratch(size_t n);                                                         \
    cudaError_t rs_##id##_u32(const uint32_t *in, uint32_t *out, size_t n, void *scratch,       \
                              cudaStream_t s);                                                  \
    cudaError_t rs_##id##_f32(const float *in, float *out, size_t n, void *scratch,             \
                              cudaStream_t s);                                                  \
    cudaError_t rs_##id##_describe(kit_kernel_desc *d)
#define RS_DECLARE_SCAN_STEP(id)                                                                \
    size_t rs_##id##_scratch(size_t n);                                                         \
    cudaError_t rs_##id##_u32(const uint32_t *in, uint32_t *out, size_t n, int exclusive,       \
                              void *scratch, cudaStream_t s);                                   \
    cudaError_t rs_##id##_affine(const rs_affine *in, rs_affine *out, size_t n, int exclusive,  \
                                 void *scratch, cudaStream_t s);                                \
    cudaError_t rs_##id##_describe(kit_kernel_desc *d)

/* reduce ladder (one file per step) */
RS_DECLARE_REDUCE_STEP(r0);  /* r0_interleaved.cu */
RS_DECLARE_REDUCE_STEP(r1);  /* r1_strided.cu */
RS_DECLARE_REDUCE_STEP(r2);  /* r2_sequential.cu */
RS_DECLARE_REDUCE_STEP(r3);  /* r3_first_add.cu */
RS_DECLARE_REDUCE_STEP(r4);  /* r4_warp_unroll.cu */
RS_DECLARE_REDUCE_STEP(r5);  /* r5_many_items.cu */
RS_DECLARE_REDUCE_STEP(r6);  /* $(IMPL)/02-reduce-scan/r6_warp_shuffle.cu (exercise ex02_warp_reduce) */
RS_DECLARE_REDUCE_STEP(r7);  /* r7_row_dask.cu */
RS_DECLARE_REDUCE_STEP(r8);  /* r8_hopper.cu */
/* scan ladder */
RS_DECLARE_SCAN_STEP(s0);    /* s0_hillis_steele.cu */
RS_DECLARE_SCAN_STEP(s1);    /* s1_blelloch.cu */
RS_DECLARE_SCAN_STEP(s2);    /* $(IMPL)/02-reduce-scan/s2_warp_scan.cu (exercise ex02_block_scan) */
RS_DECLARE_SCAN_STEP(s3);    /* s3_row_dask.cu */
RS_DECLARE_SCAN_STEP(s4);    /* s4_lookback.cu */

/* yardsticks (chapters/02-reduce-scan/yardsticks.cu): CUB, two-phase temporary storage */
size_t rs_yard_cub_reduce_scratch(size_t n);
cudaError_t rs_yard_cub_reduce_u32(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                  cudaStream_t s);
cudaError_t rs_yard_cub_reduce_f32(const float *in, float *out, size_t n, void *scratch,
                                  cudaStream_t s);
size_t rs_yard_cub_scan_scratch(size_t n);
cudaError_t rs_yard_cub_scan_u32(const uint32_t *in, uint32_t *out, size_t n, int exclusive,
                                void *scratch, cudaStream_t s);
cudaError_t rs_yard_cub_scan_affine(const rs_affine *in, rs_affine *out, size_t n, int exclusive,
                                   void *scratch, cudaStream_t s);

/* ---------------------------------------------- CPU baselines (rs_cpu.c) */

uint32_t rs_cpu_reduce_u32(const uint32_t *in, size_t n);
float rs_cpu_reduce_f32(const float *in, size_t n);   /* serial, in float: the baseline */
double rs_cpu_reduce_f64(const float *in, size_t n);  /* in double: the reference */
void rs_cpu_scan_u32(const uint32_t *in, uint32_t *out, size_t n, int exclusive);
void rs_cpu_scan_affine(const rs_affine *in, rs_affine *out, size_t n, int exclusive);
/* Inputs of the other types, from the kit's word patterns: floats in [0, 1)
 * (24 random bits; linear gives 0, 1, 2, ...), affine maps with odd a (so
 * products of a never collapse to 0 and every input still matters). */
void rs_fill_f32(float *a, size_t n, kit_pattern p, uint64_t seed);
void rs_fill_affine(rs_affine *a, size_t n, kit_pattern p, uint64_t seed);
/* Relative tolerance for a float sum of n non-negative values against the
 * double-precision sum: eps32 * (32 + 2*sqrt(n)) (see rs_cpu.c). */
double rs_f32_tolerance(size_t n);

/* ----------------------------------------------------------- step tables */

#define RS_REDUCE_NSTEPS 10 /* r0..r8 + CUB */
#define RS_SCAN_NSTEPS 6    /* s0..s4 + CUB */
extern const rs_reduce_step rs_reduce_steps[RS_REDUCE_NSTEPS];
extern const rs_scan_step rs_scan_steps[RS_SCAN_NSTEPS];
#define RS_REDUCE_BEST 8    /* r8_hopper */
#define RS_SCAN_BEST 4      /* s4_lookback */

/* Tuning tables, beside their templates:
 * Brown's Row DASk (r7_row_dask.cu, s3_row_dask.cu): nWarps x nWork = 1..8 x 1..8
 * with his bank-conflict rule (pad & rake for power-of-two runs), index
 * (nWarps-1)*8 + (nWork-1); the five bank-conflict strategies of Table 6.16 and
 * the five curves of Fig. 6.5; the best steps' knobs (r8_hopper.cu, s4_lookback.cu). */
#define RS_PAIRS 64
#define RS_BANK_NVARIANTS 5
#define RS_CURVES_NVARIANTS 5
extern const rs_reduce_step rs_brown_reduce_pairs[RS_PAIRS];
extern const rs_scan_step rs_brown_scan_pairs[RS_PAIRS];
extern const rs_reduce_step rs_brown_reduce_bank[RS_BANK_NVARIANTS];
extern const rs_scan_step rs_brown_scan_bank[RS_BANK_NVARIANTS];
extern const rs_reduce_step rs_brown_reduce_curves[RS_CURVES_NVARIANTS];
extern const rs_scan_step rs_brown_scan_curves[RS_CURVES_NVARIANTS];
#define RS_R8_NVARIANTS 12
#define RS_S4_NVARIANTS 18
extern const rs_reduce_step rs_r8_variants[RS_R8_NVARIANTS];
extern const rs_scan_step rs_s4_variants[RS_S4_NVARIANTS];

/* ----------------------------------------- problems and ladders (steps.c) */

/* One problem per element type and scan mode: in (n elements) -> out (1 element for a
 * reduce, n for a scan); inputs: the kit's word patterns (kit_pattern_inputs; floats and
 * affine maps are made from the pattern's words by rs_fill_f32 / rs_fill_affine); one
 * CPU baseline, "serial".  The float sum is compared within rs_f32_tolerance of the
 * double-precision sum. */
extern const kit_problem rs_reduce_u32_problem, rs_reduce_f32_problem;
extern const kit_problem rs_scan_u32_problem, rs_scan_u32_incl_problem;       /* exclusive, inclusive */
extern const kit_problem rs_scan_affine_problem, rs_scan_affine_incl_problem; /* exclusive, inclusive */

extern const kit_ladder rs_reduce_ladder;      /* uint32 sum: every reduce step + CUB */
extern const kit_ladder rs_reduce_f32_ladder;  /* float sum, same steps */
extern const kit_ladder rs_scan_ladder;        /* uint32 exclusive sum: every scan step + CUB */
extern const kit_ladder rs_scan_incl_ladder;   /* uint32 inclusive sum */
extern const kit_ladder rs_scan_affine_ladder; /* affine maps, exclusive */
extern const kit_ladder rs_scan_affine_incl_ladder;
/* tuning tables as ladders (uint32; scans exclusive) */
extern const kit_ladder rs_reduce_pairs_ladder, rs_scan_pairs_ladder;
extern const kit_ladder rs_reduce_bank_ladder, rs_scan_bank_ladder;
extern const kit_ladder rs_reduce_curves_ladder, rs_scan_curves_ladder;
extern const kit_ladder rs_r8_ladder, rs_s4_ladder;
/* the best step and CUB only (the last two entries of each main table) */
extern const kit_ladder rs_reduce_best_ladder, rs_scan_best_ladder;

/* every ladder but the best-steps ones (their steps are in the main ladders): the two
 * main ladders (reduce, scan) first, then the other types and modes, then the tuning tables */
#define RS_NLADDERS 14
#define RS_NMAIN 2
extern const kit_ladder *const rs_ladders[RS_NLADDERS];

#ifdef __cplusplus
}
#endif
#endif
