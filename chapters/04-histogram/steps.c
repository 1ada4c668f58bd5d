/* steps.c - chapter 04's step table (the only list of its ladder), the
 * verified/timed context every table is driven through, and the kit_ladder
 * adaptors for the harness (steps, demo, sanitize). */
#include <stdlib.h>
#include <string.h>

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

/* the row-sum cost: s4 and s5 with and without their periodic row-sums */
const hist_step hist_rowsum_variants[HIST_ROWSUM_NVARIANTS] = {
    {{"s4_trish", "rowsum=on", "periodic row-sums (the step)", F("s4_trish.cu"),
      "ex04_bin_word+ex04_rowsum", KIT_STEP_GPU, hist_s4_describe},
     hist_partials_scratch, hist_s4_trish},
    {{"s4_trish", "rowsum=off " HIST_TIMING_ONLY, "no periodic row-sum: counts wrap past 255",
      F("s4_trish.cu"), "ex04_bin_word+ex04_rowsum", KIT_STEP_GPU, hist_s4_norowsum_describe},
     hist_partials_scratch, hist_s4_norowsum},
    {{"s5_trish_hopper", "rowsum=on", "periodic row-sums (the step)", F("s5_trish_hopper.cu"), NULL,
      KIT_STEP_GPU, hist_s5_describe},
     hist_partials_scratch, hist_s5_trish_hopper},
    {{"s5_trish_hopper", "rowsum=off " HIST_TIMING_ONLY, "no periodic row-sum: counts wrap past 255",
      F("s5_trish_hopper.cu"), NULL, KIT_STEP_GPU, hist_s5_norowsum_describe},
     hist_partials_scratch, hist_s5_norowsum},
};

/* ------------------------------------------------------------- the context */

#define HIST_GUARD 256 /* poisoned words after the 256 bins, checked untouched */
#define OUT_WORDS (HIST_BINS + HIST_GUARD)

size_t hist_table_scratch(const hist_step *steps, size_t count, size_t n)
{
    size_t i, most = 0;
    for (i = 0; i < count; i++)
        if (steps[i].scratch_bytes && steps[i].scratch_bytes(n) > most)
            most = steps[i].scratch_bytes(n);
    return most;
}

void hist_ctx_free(hist_ctx *c)
{
    if (!c) return;
    kit_dev_free_copies(c->d_in, c->rot);
    kit_dev_free_copies(c->d_out, c->rot);
    cudaFree(c->scratch);
    free(c->h_in);
    free(c->h_out);
    free(c);
}

cudaError_t hist_ctx_new(const hist_step *steps, size_t count, size_t n, int input, uint64_t seed,
                         int rot, hist_ctx **out)
{
    hist_ctx *c = (hist_ctx *)calloc(1, sizeof *c);
    size_t scratch;
    *out = c;
    if (!c) return cudaErrorMemoryAllocation;
    c->steps = steps;
    c->count = count;
    c->n = n;
    c->input = input;
    c->h_in = (uint8_t *)malloc(n ? n : 1);
    c->h_out = (uint32_t *)malloc(OUT_WORDS * sizeof(uint32_t));
    if (!c->h_in || !c->h_out) return cudaErrorMemoryAllocation;
    hist_fill(c->h_in, n, input, seed);
    hist_cpu_unroll4(c->h_in, n, c->want); /* equals hist_cpu_simple (ch04_cpu tests) */
    if (rot == 0) return cudaSuccess;      /* host only */
    c->rot = rot;
    KIT_TRY(kit_dev_copies(&c->d_in, rot, c->h_in, n, n));
    KIT_TRY(kit_dev_copies(&c->d_out, rot, NULL, 0, OUT_WORDS * sizeof(uint32_t)));
    scratch = hist_table_scratch(steps, count, n);
    if (scratch) KIT_TRY(cudaMalloc(&c->scratch, scratch));
    c->scratch_bytes = scratch;
    return cudaSuccess;
}

cudaError_t hist_ctx_run(hist_ctx *c, size_t i, int r, size_t m, cudaStream_t s)
{
    if (i >= c->count || r < 0 || r >= c->rot || m > c->n) return cudaErrorInvalidValue;
    return c->steps[i].run((const uint8_t *)c->d_in[r], m, (uint32_t *)c->d_out[r], c->scratch, s);
}

cudaError_t hist_ctx_check(hist_ctx *c, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    *ok = 0;
    if (c->rot < 1) return cudaErrorInvalidValue;
    KIT_TRY(kit_poison(c->d_out[0], OUT_WORDS * sizeof(uint32_t), s));
    KIT_TRY(hist_ctx_run(c, i, 0, c->n, s));
    KIT_TRY(kit_fetch(c->h_out, c->d_out[0], OUT_WORDS * sizeof(uint32_t), s));
    *ok = kit_cmp_u32(c->h_out, c->want, HIST_BINS, msg, len) &&
          kit_all_poison_u32(c->h_out + HIST_BINS, HIST_GUARD, msg, len);
    return cudaSuccess;
}

/* ------------------------------------------------------- ladder adaptors */

static const kit_step_info *hl_info(const kit_ladder *L, size_t i)
{
    return &((const hist_step *)L->table)[i].info;
}

static double hl_bytes(const kit_ladder *L, size_t i, size_t n)
{
    (void)L;
    (void)i;
    return (double)n + HIST_BINS * sizeof(uint32_t); /* read n bytes, write the bins */
}

static double hl_elems(const kit_ladder *L, size_t n)
{
    (void)L;
    return (double)n;
}

static cudaError_t hl_setup(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed, int rot,
                            void **ctx)
{
    hist_ctx *c = NULL;
    cudaError_t e = hist_ctx_new((const hist_step *)L->table, L->count, n, (int)p, seed, rot, &c);
    *ctx = c;
    return e;
}

static cudaError_t hl_launch(void *ctx, size_t i, int rep, cudaStream_t s)
{
    hist_ctx *c = (hist_ctx *)ctx;
    return hist_ctx_run(c, i, rep % c->rot, c->n, s);
}

static cudaError_t hl_check(void *ctx, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    return hist_ctx_check((hist_ctx *)ctx, i, s, ok, msg, len);
}

static void hl_cpu(void *ctx, int v)
{
    hist_ctx *c = (hist_ctx *)ctx;
    if (v == 0) hist_cpu_simple(c->h_in, c->n, c->h_out);
    else hist_cpu_unroll4(c->h_in, c->n, c->h_out);
}

static void hl_teardown(void *ctx)
{
    hist_ctx_free((hist_ctx *)ctx);
}

#define HIST_LADDER(ID, TITLE, TABLE, COUNT)                                                   \
    {ID,       TITLE,     COUNT,    TABLE,     hl_info, hl_bytes,                     hl_elems, \
     hl_setup, hl_launch, hl_check, hl_cpu,    {"simple", "unroll4", NULL}, hl_teardown}

const kit_ladder hist_ladder =
    HIST_LADDER("histogram", "256-bin histogram ladder", hist_steps, HIST_NSTEPS);
const kit_ladder hist_trish_k_ladder = HIST_LADDER(
    "hist-trish-k", "s4 kernel, k = 1..63 words per thread", hist_trish_k_variants,
    HIST_TRISH_K_NVARIANTS);
const kit_ladder hist_trish_res_ladder =
    HIST_LADDER("hist-trish-res", "s4 kernel, forced resident blocks per SM 1..13",
                hist_trish_res_variants, HIST_TRISH_RES_NVARIANTS);
const kit_ladder hist_rowsum_ladder =
    HIST_LADDER("hist-rowsum", "s4 and s5 with / without periodic row-sums (timing only)",
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
