/* steps.c - chapter 04's step tables (the only list of its ladder), the histogram
 * problem (n bytes in, 256 bins out; its named inputs, CPU reference and baselines) and
 * the ladders the kit's harness drives (bench, demo, sanitize, tests, contract). */
#include <limits.h>

#include "histogram.h"

#define F(x) "chapters/04-histogram/" x

/* the compile-time knobs of s4 .. s7, spelled out by their own files */
extern const char hist_s4_param[], hist_s5_param[], hist_s6_param[], hist_s7_param[];

const hist_step hist_steps[HIST_NSTEPS] = {
    {{"s0_global_atomics", "tbs=256 grid=SMs*resident",
      "global atomicAdd of every byte into the 256 bins (after a memset)", F("s0_global_atomics.cu"),
      NULL, KIT_STEP_GPU, hist_s0_describe},
     NULL, hist_s0_global_atomics},
    {{"s1_block_atomics", "tbs=256 4-byte loads",
      "privatized: one shared-memory histogram per block, shared atomics, global atomics to merge",
      F("s1_block_atomics.cu"), NULL, KIT_STEP_GPU, hist_s1_describe},
     NULL, hist_s1_block_atomics},
    {{"s2_warp_atomics", "tbs=192 (6 warps) 4-byte loads",
      "per-warp sub-histograms (SDK histogram256 / POD); partials + block-sum kernel",
      F("s2_warp_atomics.cu"), NULL, KIT_STEP_GPU, hist_s2_describe},
     hist_partials_scratch, hist_s2_warp_atomics},
    {{"s3_thread16", "tbs=32 16-bit counters 4-byte loads",
      "per-thread 16-bit counters (NUG): no atomics, conflict-free table, flush before overflow",
      F("s3_thread16.cu"), NULL, KIT_STEP_GPU, hist_s3_describe},
     hist_partials_scratch, hist_s3_thread16},
    {{"s4_trish", hist_s4_param,
      "TRISH: packed 8-bit counters, k words per thread, staggered pair row-sums, Column DASk",
      F("s4_trish.cu"), "ex04_bin_word+ex04_rowsum", KIT_STEP_GPU, hist_s4_describe},
     hist_partials_scratch, hist_s4_trish},
    {{"s5_trish_hopper", hist_s5_param,
      "Hopper TRISH: 16-byte loads with prefetch, byte-wide updates, 16-byte row-sums, retuned",
      F("s5_trish_hopper.cu"), NULL, KIT_STEP_GPU, hist_s5_describe},
     hist_partials_scratch, hist_s5_trish_hopper},
    {{"s6_wide_ilp", hist_s6_param,
      "16-bit counters with s5's machinery: no row-sums, two updates in flight with a fix-up",
      F("s6_wide_ilp.cu"), NULL, KIT_STEP_GPU, hist_s6_describe},
     hist_partials_scratch, hist_s6_wide_ilp},
    {{"s7_runs", hist_s7_param,
      "shared atomics again (data-dependent, like CUB): a copy per lane, one pass per atomic; runs merged",
      F("s7_runs.cu"), NULL, KIT_STEP_GPU, hist_s7_describe},
     hist_partials_scratch, hist_s7_runs},
    {{"cub_histogram_even", "257 levels [0,256) uint8->uint32",
      "yardstick: cub::DeviceHistogram::HistogramEven (privatized shared-memory atomics)",
      "chapters/04-histogram/yardsticks.cu", NULL, KIT_STEP_YARDSTICK, NULL},
     hist_yard_cub_scratch, hist_yard_cub},
};

/* the row-sum cost: s4 and s5 with and without their periodic row-sums (the "off"
 * variants count wrong as soon as an 8-bit counter passes 255: timing only) */
const hist_step hist_rowsum_variants[HIST_ROWSUM_NVARIANTS] = {
    {{"s4_trish", "rowsum=on", "periodic row-sums (the step)", F("s4_trish.cu"),
      "ex04_bin_word+ex04_rowsum", KIT_STEP_GPU, hist_s4_describe},
     hist_partials_scratch, hist_s4_trish},
    {{"s4_trish", "rowsum=off", "no periodic row-sum: counts wrap past 255", F("s4_trish.cu"),
      "ex04_bin_word+ex04_rowsum", KIT_STEP_GPU, hist_s4_norowsum_describe,
      .flags = KIT_TIMING_ONLY},
     hist_partials_scratch, hist_s4_norowsum},
    {{"s5_trish_hopper", "rowsum=on", "periodic row-sums (the step)", F("s5_trish_hopper.cu"), NULL,
      KIT_STEP_GPU, hist_s5_describe},
     hist_partials_scratch, hist_s5_trish_hopper},
    {{"s5_trish_hopper", "rowsum=off", "no periodic row-sum: counts wrap past 255",
      F("s5_trish_hopper.cu"), NULL, KIT_STEP_GPU, hist_s5_norowsum_describe,
      .flags = KIT_TIMING_ONLY},
     hist_partials_scratch, hist_s5_norowsum},
};

/* ------------------------------------------------------- the histogram problem */

/* The document's data sets: uniform random, all zeros (worst case for atomics), linear
 * (no two lanes of a warp collide), low entropy; its photographs are replaced by the
 * synthetic images of images.c.  This order is the order of the bench's rows. */
const kit_input hist_inputs[HIST_NINPUTS] = {
    {"uniform", "random bytes", KIT_UNIFORM, 0},
    {"zeros", "all zero: one bin (the worst case for atomics and counters)", KIT_ZEROS, 0},
    {"linear", "0, 1, ..., 255, 0, ...: no two lanes of a warp collide", KIT_LINEAR, 0},
    {"low-entropy", "bytes of the AND of three random words (0 is 34%)", KIT_LOW_ENTROPY, 0},
    {"image-gradient", "grey image: smooth diagonal ramp and shading + noise", HIST_IMAGE_GRADIENT, 1},
    {"image-dark", "grey image: dark noisy background, bright blobs (MRI-like)", HIST_IMAGE_DARK, 1},
    {"image-rgba0", "RGBA image: colour gradients + noise, alpha 0", HIST_IMAGE_RGBA0, 4},
};

static size_t bins_count(const kit_shape *sh)
{
    (void)sh;
    return HIST_BINS;
}

static const kit_buffer hist_bufs[] = {{"in", KIT_IN, 1, NULL}, {"bins", KIT_OUT, 4, bins_count}};

/* an image when the input carries its bytes per pixel, else a kit byte pattern */
static void hist_fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                      uint64_t seed)
{
    if (in->value > 0) hist_fill_image_u8((uint8_t *)h->buf[0], sh->n, (hist_image)in->arg, seed);
    else kit_fill_patterns(P, h, sh, in, seed);
}

static void cpu_simple(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    hist_cpu_simple((const uint8_t *)h->buf[0], sh->n, (uint32_t *)h->buf[1]);
}

/* the reference: equals hist_cpu_simple (ch04_cpu tests), faster on runs of equal bytes */
static void cpu_unroll4(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    hist_cpu_unroll4((const uint8_t *)h->buf[0], sh->n, (uint32_t *)h->buf[1]);
}

static const kit_cpu hist_cpus[] = {{"simple", cpu_simple}, {"unroll4", cpu_unroll4}};

const kit_problem hist_problem = {
    "histogram", hist_bufs, 2, hist_inputs, HIST_NINPUTS, NULL, 0, "bytes", NULL,
    {NULL}, HIST_MAX_N, hist_fill, cpu_unroll4, NULL, hist_cpus, 2, NULL,
};

/* ------------------------------------------------------------- the ladders */

static const kit_step_info *hist_info(const kit_ladder *L, size_t i)
{
    return &((const hist_step *)L->table)[i].info;
}

static double hist_bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)L;
    (void)i;
    return (double)sh->n + HIST_BINS * sizeof(uint32_t); /* read n bytes, write the bins */
}

static size_t hist_scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const hist_step *st = &((const hist_step *)L->table)[i];
    return st->scratch_bytes ? st->scratch_bytes(sh->n) : 0;
}

/* What histogram.h refuses beyond the harness's default call, beside the step table: the
 * contract suite tries each case on every step (kit_arg_case).  in at any byte address is the
 * contract's own offset. */
enum { HIST_CASE_BINS_MIS = 0, HIST_NCASES };
static const kit_arg_case hist_cases[HIST_NCASES] = {
    [HIST_CASE_BINS_MIS] = {"bins + 2 bytes", "histogram.h: bins at a 4-byte aligned address",
                            cudaErrorMisalignedAddress, NULL, NULL},
};

static cudaError_t hist_run_case(const kit_ladder *L, size_t i, int c, int ph, void *const *dev,
                                 const kit_shape *sh, void *scratch, cudaStream_t s)
{
    char *bins = (char *)dev[1] + (c == HIST_CASE_BINS_MIS ? 2 : 0);
    (void)ph;
    return ((const hist_step *)L->table)[i].run((const uint8_t *)dev[0], sh->n, (uint32_t *)(void *)bins,
                                                scratch, s);
}

static cudaError_t hist_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                            const kit_shape *sh, void *scratch, cudaStream_t s)
{
    return hist_run_case(L, i, -1, ph, dev, sh, scratch, s);
}

/* The bench skips a step whose run would take longer than 40 ms (global atomics on
 * degenerate data at 2^30 bytes), estimated from a run on a 2^20-byte prefix. */
#define HIST_BUDGET_MS 40.0

#define HIST_LADDER(ID, TITLE, TABLE, COUNT)                                                   \
    {ID, TITLE, COUNT, TABLE, &hist_problem, hist_info, hist_bytes, hist_scratch, hist_run,    \
     NULL, HIST_BUDGET_MS, NULL, NULL, NULL, hist_cases, HIST_NCASES, hist_run_case}

const kit_ladder hist_ladder =
    HIST_LADDER("histogram", "256-bin histogram ladder", hist_steps, HIST_NSTEPS);
const kit_ladder hist_trish_k_ladder = HIST_LADDER(
    "hist-trish-k", "s4 kernel, k = 1..63 words per thread", hist_trish_k_variants,
    HIST_TRISH_K_NVARIANTS);
const kit_ladder hist_trish_res_ladder =
    HIST_LADDER("hist-trish-res", "s4 kernel, forced resident blocks per SM 1..13",
                hist_trish_res_variants, HIST_TRISH_RES_NVARIANTS);
const kit_ladder hist_rowsum_ladder =
    HIST_LADDER("hist-rowsum", "s4 and s5 with / without periodic row-sums (off: timing only)",
                hist_rowsum_variants, HIST_ROWSUM_NVARIANTS);
const kit_ladder hist_hopper_ladder =
    HIST_LADDER("hist-hopper", "s5 kernel, threads x k x batch x update x blocks per SM",
                hist_hopper_variants, HIST_HOPPER_NVARIANTS);
const kit_ladder hist_wide_ladder =
    HIST_LADDER("hist-wide", "s6 kernel, threads x k x batch x updates in flight",
                hist_wide_variants, HIST_WIDE_NVARIANTS);
const kit_ladder hist_runs_ladder =
    HIST_LADDER("hist-runs", "s7 kernel, threads x k x batch x copies x runs x layout",
                hist_runs_variants, HIST_RUNS_NVARIANTS);
const kit_ladder hist_s7_cub_ladder =
    HIST_LADDER("histogram", "the ladder's s7_runs and CUB", hist_steps + HIST_NSTEPS - 2, 2);

const kit_ladder *const hist_ladders[HIST_NLADDERS] = {
    &hist_ladder,         &hist_hopper_ladder,    &hist_wide_ladder,   &hist_runs_ladder,
    &hist_trish_k_ladder, &hist_trish_res_ladder, &hist_rowsum_ladder,
};
