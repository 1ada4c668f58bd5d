/* histogram.h - chapter 04: the 256-bin histogram of 8-bit samples.
 *
 * Every step counts the n bytes at in into bins[0..256) (32-bit counts; the
 * bins are written, never accumulated into), asynchronously on a stream, with
 * no allocation and no synchronization.  Steps that need scratch get
 * scratch_bytes(n) bytes from the caller.  in may have any alignment; n must be
 * below 2^32 (a count must fit its 32-bit bin), else cudaErrorInvalidValue.
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
 *              need more returns cudaErrorInvalidValue before any launch. */
#ifndef KIT_HISTOGRAM_H
#define KIT_HISTOGRAM_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HIST_BINS 256

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

/* ---- inputs: the kit's byte patterns (kit_fill_u8) and its synthetic images
 * (kit_fill_image_u8) in one number space: 0 .. KIT_PATTERN_COUNT-1 are
 * patterns, HIST_IMAGE(k) is image k. */
#define HIST_IMAGE(k) ((int)KIT_PATTERN_COUNT + (int)(k))
#define HIST_NINPUTS 7
extern const int hist_inputs[HIST_NINPUTS]; /* what the chapter tests and benches */
const char *hist_input_name(int input);
int hist_input_parse(const char *name, int *input);
void hist_fill(uint8_t *a, size_t n, int input, uint64_t seed);

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
/* s4 and s5 without their periodic row-sums: TIMING ONLY (see HIST_TIMING_ONLY) */
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

/* A step whose param contains this word skips the periodic row-sums: its counts
 * are wrong whenever an 8-bit counter passes 255.  Timing only: the tests never
 * run it, the bench marks its rows "timing-only" instead of verifying them. */
#define HIST_TIMING_ONLY "TIMING-ONLY"

/* ---- a verified, timed context over one table (steps.c) */
typedef struct hist_ctx {
    const hist_step *steps;
    size_t count;
    size_t n;
    int input;
    int rot;                  /* input copies rotated through (0: host only) */
    uint8_t *h_in;
    uint32_t want[HIST_BINS]; /* the CPU histogram */
    uint32_t *h_out;          /* HIST_BINS + guard words */
    void **d_in, **d_out;
    void *scratch;
    size_t scratch_bytes;     /* size of scratch */
} hist_ctx;

/* the largest scratch_bytes(n) of steps[0..count) */
size_t hist_table_scratch(const hist_step *steps, size_t count, size_t n);

cudaError_t hist_ctx_new(const hist_step *steps, size_t count, size_t n, int input, uint64_t seed,
                         int rot, hist_ctx **out);
/* poison the output and its guard, run step i once, compare all 256 bins */
cudaError_t hist_ctx_check(hist_ctx *c, size_t i, cudaStream_t s, int *ok, char *msg, size_t len);
/* step i on the first m <= n bytes of rotation r (the bench's cost probe) */
cudaError_t hist_ctx_run(hist_ctx *c, size_t i, int r, size_t m, cudaStream_t s);
void hist_ctx_free(hist_ctx *c);

/* ---- ladders for the kit's harness (steps, demo, sanitize, tests: an input
 * number of hist_inputs passes as the kit_pattern of setup and
 * kit_ladder_verify) */
extern const kit_ladder hist_ladder;
extern const kit_ladder hist_trish_k_ladder;
extern const kit_ladder hist_trish_res_ladder;
extern const kit_ladder hist_rowsum_ladder;
extern const kit_ladder hist_hopper_ladder;
extern const kit_ladder hist_wide_ladder;
extern const kit_ladder hist_runs_ladder;

/* ---- exercise probes (trish_probe.cu): one block of 64 threads runs an
 * exercise function on a 64 x 64 table of packed counters (row r, thread t at
 * table[r * 64 + t]).
 * bin: the table starts at zero; thread t bins words[t * per_thread + j],
 *      j < per_thread (at most 63), into its column; the table is copied out.
 * rowsum: `rounds` times, the table is loaded and every thread row-sums it
 *      into the same sums (sums[4t .. 4t+3]: bins 4t .. 4t+3 over the 64
 *      columns, times rounds); the table left afterwards is copied back. */
cudaError_t trish_probe_bin(const uint32_t *words, unsigned per_thread, uint32_t *table,
                            cudaStream_t s);
cudaError_t trish_probe_rowsum(uint32_t *table, uint32_t *sums, unsigned rounds, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
