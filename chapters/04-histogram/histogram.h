/* histogram.h - chapter 04: the 256-bin histogram of 8-bit samples.
 *
 * Every step counts the n bytes at in into bins[0..256) (32-bit counts; the
 * bins are written, never accumulated into), asynchronously on a stream, with
 * no allocation and no synchronization.  Steps that need scratch get
 * scratch_bytes(n) bytes from the caller.  in may have any alignment; n must be
 * at most HIST_MAX_N = 2^32 - 1 (a count must fit its 32-bit bin), else
 * cudaErrorInvalidValue: the problem's max_n, which every step and tuning-table
 * entry takes (their table max_n is 0).
 *
 * Contract of every step, its tuning-table variants and the CUB yardstick:
 *   in         any byte address, any n in [0, 2^32): the steps that read words or
 *              16-byte vectors (s1: 4 bytes; s2 .. s7: 4 or 16) read only whole
 *              units inside [in, in + n); the loose bytes before the first aligned
 *              unit and after the last (fewer than 2 x 16) are counted one by one
 *              (hist_finish, or block 0 in s1).  Nothing outside [in, in + n) is read.
 *   bins       256 uint32 at a 4-byte aligned address, else
 *              cudaErrorMisalignedAddress; n >= 2^32: cudaErrorInvalidValue; both
 *              checked before any launch.  n = 0 writes 256 zeros.
 *   scratch    scratch_bytes(n) bytes at a cudaMalloc'd address.  CUB: up to INT_MAX
 *              samples an int count, above it a 64-bit count; scratch_bytes(n) is
 *              the largest need over pointer alignments, and a run whose call would
 *              need more returns cudaErrorInvalidValue before any launch, as does a
 *              run with NULL scratch (CUB would take it for a size query).
 * The checks are made in this order: n, bins, then the yardstick's scratch. */
#ifndef KIT_HISTOGRAM_H
#define KIT_HISTOGRAM_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HIST_BINS 256
/* the columns (threads) of a TRISH table, s4's block size: the kit's launchers (s4_trish.cu,
 * trish_probe.cu) use this; the kernels, device code with the exercises' headers, check that
 * the exercise's TRISH_COLS (trish_rowsum.cuh) is the same */
#define HIST_TRISH_COLS 64

typedef cudaError_t (*hist_run_fn)(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                                   cudaStream_t s);

typedef struct hist_step {
    kit_step_info info;
    size_t (*scratch_bytes)(size_t n); /* NULL: no scratch */
    hist_run_fn run;
} hist_step;

/* ---- CPU baselines (histogram_cpu.c): the ground truth */
void hist_cpu_simple(const uint8_t *in, size_t n, uint32_t *bins);  /* bins[v]++ */
void hist_cpu_unroll4(const uint8_t *in, size_t n, uint32_t *bins); /* 4 sub-histograms */

/* ---- inputs (steps.c): the kit's byte patterns and the synthetic images, as the
 * problem's named inputs.  arg: a kit_pattern (kit_fill_u8) when value is 0; a hist_image
 * (hist_fill_image_u8) when value is its bytes per pixel (1 grey, 4 RGBA). */
#define HIST_NINPUTS 7
extern const kit_input hist_inputs[HIST_NINPUTS]; /* uniform first: the default */

/* Synthetic 8-bit images (images.c), stand-ins for the document's photographs.  A base
 * image (1024x1024 grey pixels, or 512x512 RGBA pixels) is generated from the seed and
 * tiled into a raster of n bytes whose width in pixels is the smallest power of two w with
 * w*w pixels >= n bytes (a 2^16-byte grey image is a 256x256 crop, a 2^24-byte one
 * 4096x4096 = 4x4 tiles); the last row may be partial.  Pixels are stored row by row, RGBA
 * as 4 bytes R,G,B,A.  Same seed, same image. */
typedef enum hist_image {
    HIST_IMAGE_GRADIENT = 0, /* grey: smooth diagonal gradient and shading + noise: broad histogram */
    HIST_IMAGE_DARK,         /* grey: dark noisy background, smooth bright blobs (MRI-like): peaked */
    HIST_IMAGE_RGBA0,        /* RGBA: colour gradients + noise, alpha 0 in every pixel */
    HIST_IMAGE_COUNT
} hist_image;
void hist_fill_image_u8(uint8_t *a, size_t n, hist_image k, uint64_t seed);

/* ---- the ladder, one file per step */
cudaError_t hist_s0_global_atomics(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s0_describe(kit_kernel_desc *d);
cudaError_t hist_s1_block_atomics(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s1_describe(kit_kernel_desc *d);
cudaError_t hist_s2_warp_atomics(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s2_describe(kit_kernel_desc *d);
cudaError_t hist_s3_thread16(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s3_describe(kit_kernel_desc *d);
cudaError_t hist_s4_trish(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s4_describe(kit_kernel_desc *d);
cudaError_t hist_s5_trish_hopper(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s5_describe(kit_kernel_desc *d);
cudaError_t hist_s6_wide_ilp(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s6_describe(kit_kernel_desc *d);
cudaError_t hist_s7_runs(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s7_describe(kit_kernel_desc *d);
/* s4 and s5 without their periodic row-sums: KIT_TIMING_ONLY (counts wrap past 255) */
cudaError_t hist_s4_norowsum(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s4_norowsum_describe(kit_kernel_desc *d);
cudaError_t hist_s5_norowsum(const uint8_t *in, size_t n, uint32_t *bins, void *scratch, cudaStream_t s);
cudaError_t hist_s5_norowsum_describe(kit_kernel_desc *d);

/* Scratch of the steps that write one partial histogram per thread block and
 * sum them in a second kernel (s2 .. s7): room for 32 blocks per SM. */
size_t hist_partials_scratch(size_t n);

/* Test hook: at most `blocks` thread blocks in every grid-strided or Column
 * DASk count kernel (0: no limit).  Fewer threads means more bytes per thread,
 * which is how the tests reach the counter-overflow paths (row-sums, flushes)
 * at test sizes.  Never set by the bench. */
void hist_set_grid_limit(unsigned blocks);

/* ---- yardstick (chapters/04-histogram/yardsticks.cu): cub::DeviceHistogram::HistogramEven,
 * 257 levels over [0, 256), uint8 samples, uint32 counters. */
size_t hist_yard_cub_scratch(size_t n);
cudaError_t hist_yard_cub(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                               cudaStream_t s);

/* ---- step tables (steps.c, and the tuning tables beside their kernels) */
#define HIST_NSTEPS 9
#define HIST_TRISH_K_NVARIANTS 63   /* s4 kernel: k = 1..63 words per thread per data block */
#define HIST_TRISH_RES_NVARIANTS 13 /* s4 kernel: forced resident blocks per SM 1..13 */
#define HIST_ROWSUM_NVARIANTS 4     /* s4, s5: periodic row-sums on / off (timing only) */
#define HIST_HOPPER_NVARIANTS 48    /* s5 kernel: threads x k x batch x update x blocks/SM */
#define HIST_WIDE_NVARIANTS 24      /* s6 kernel: threads x k x batch x increments in flight */
#define HIST_RUNS_NVARIANTS 32      /* s7 kernel: threads x k x batch x copies x runs x layout */
extern const hist_step hist_steps[HIST_NSTEPS];
extern const hist_step hist_trish_k_variants[HIST_TRISH_K_NVARIANTS];
extern const hist_step hist_trish_res_variants[HIST_TRISH_RES_NVARIANTS];
extern const hist_step hist_rowsum_variants[HIST_ROWSUM_NVARIANTS];
extern const hist_step hist_hopper_variants[HIST_HOPPER_NVARIANTS];
extern const hist_step hist_wide_variants[HIST_WIDE_NVARIANTS];
extern const hist_step hist_runs_variants[HIST_RUNS_NVARIANTS];

/* ---- the problem and its ladders for the harness (steps.c): n bytes in -> 256 bins */
#define HIST_MAX_N 0xFFFFFFFFu /* a count must fit its 32-bit bin */
extern const kit_problem hist_problem;
extern const kit_ladder hist_ladder;           /* the main ladder + CUB */
extern const kit_ladder hist_hopper_ladder;
extern const kit_ladder hist_wide_ladder;
extern const kit_ladder hist_runs_ladder;
extern const kit_ladder hist_trish_k_ladder;
extern const kit_ladder hist_trish_res_ladder;
extern const kit_ladder hist_rowsum_ladder;    /* its rowsum=off steps are KIT_TIMING_ONLY */
/* the main ladder's s7_runs and CUB only (the `runs` experiment's references); not in
 * hist_ladders: its steps are the main ladder's */
extern const kit_ladder hist_s7_cub_ladder;
#define HIST_NLADDERS 7
extern const kit_ladder *const hist_ladders[HIST_NLADDERS]; /* all of them, the main one first */

/* ---- exercise probes (trish_probe.cu): one block of 64 threads runs an
 * exercise function on a 64 x 64 table of packed counters (row r, thread t at
 * table[r * 64 + t]).
 * bin: the table starts at zero; thread t bins words[t * per_thread + j],
 *      j < per_thread (at most 63, else cudaErrorInvalidValue before the
 *      launch: 4 x 63 = 252, so no 8-bit counter can pass 255), into its
 *      column; the table is copied out.
 * rowsum: `rounds` times (at least 1, else cudaErrorInvalidValue before the
 *      launch), the table is loaded and every thread row-sums it
 *      into the same sums (sums[4t .. 4t+3]: bins 4t .. 4t+3 over the 64
 *      columns, times rounds); the table left afterwards is copied back. */
cudaError_t trish_probe_bin(const uint32_t *words, unsigned per_thread, uint32_t *table,
                            cudaStream_t s);
cudaError_t trish_probe_rowsum(uint32_t *table, uint32_t *sums, unsigned rounds, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
