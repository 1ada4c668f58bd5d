/* bench.c - chapter 04's program: its experiments on the kit's command line
 * (steps, bench, demo, profile, sanitize; see `ch04 help`).
 *
 * Sizes are in bytes (8-bit samples).  The sweeps go up to 2^(max_log2 + 2) bytes, the
 * data volume of the word-based chapters' largest size: 2^30 bytes by default, 2^28 with
 * --quick.  Every row names its input in the CSV's input column; the best step against
 * CUB per input comes from the CSV (tools/ratios, make ratios). */
#include "histogram.h"

#define CPU_MAX_BYTES ((size_t)1 << 26)
#define IMAGES "image-gradient,image-dark,image-rgba0"

static int top_log2(const kit_bench *b)
{
    return b->max_log2 + 2;
}

/* "uniform,zeros,...": every input of the problem, in declaration order */
static const char *all_inputs(void)
{
    static char list[256];
    size_t x, k = 0;
    for (x = 0; x < HIST_NINPUTS && k < sizeof list; x++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", x ? "," : "", hist_inputs[x].name);
    return list;
}

/* Every step of L at 2^lg bytes on each input of the list (--input overrides), each
 * row's param with its resident blocks per SM when occupancy is set. */
static cudaError_t at(kit_bench *b, const kit_ladder *L, int lg, const char *inputs, int occupancy)
{
    cudaError_t e;
    b->param_occupancy = occupancy;
    e = kit_ladder_sweep(b, L, lg, lg, inputs, 0, 0);
    b->param_occupancy = 0;
    return e;
}

/* Fig. 8.9: throughput against n on the three synthetic data sets, every step, CUB, and
 * the CPU up to 2^26 bytes (the CPU rows alone without a GPU). */
static cudaError_t exp_sweep(kit_bench *b)
{
    return kit_ladder_sweep(b, &hist_ladder, 13, top_log2(b), "uniform,zeros,linear", 1,
                            CPU_MAX_BYTES);
}

/* Figs. 8.10-8.11: the synthetic images at 256^2 .. 4096^2 bytes (RGBA: the same byte
 * counts). */
static cudaError_t exp_images(kit_bench *b)
{
    int k;
    for (k = 16; k <= 24; k += 2) KIT_TRY(at(b, &hist_ladder, k, IMAGES, 0));
    return cudaSuccess;
}

/* The chapter's bar: every step and CUB at the largest size on every input. */
static cudaError_t exp_inputs(kit_bench *b)
{
    return at(b, &hist_ladder, top_log2(b), all_inputs(), 0);
}

/* Fig. 8.7: s4's k = 1..63 (the floor(63/k) k / 63 row-sum efficiency) */
static cudaError_t exp_k(kit_bench *b)
{
    return at(b, &hist_trish_k_ladder, top_log2(b) - 2, "uniform", 0);
}

/* TLP: s4 with 1..13 resident blocks per SM (the document: 3 / 2 / 1) */
static cudaError_t exp_tlp(kit_bench *b)
{
    return at(b, &hist_trish_res_ladder, top_log2(b) - 2, "uniform", 1);
}

/* the row-sum cost (the document's degraded test): the rowsum=off variants are
 * KIT_TIMING_ONLY (verified "timing-only:ok|wrong"); on zeros their counts are wrong */
static cudaError_t exp_rowsum(kit_bench *b)
{
    return at(b, &hist_rowsum_ladder, top_log2(b) - 2, "uniform,zeros", 0);
}

/* the s5 design space, at 2^28 bytes and at the largest size */
static cudaError_t exp_hopper(kit_bench *b)
{
    KIT_TRY(at(b, &hist_hopper_ladder, top_log2(b) - 2, "uniform", 1));
    return b->quick ? cudaSuccess : at(b, &hist_hopper_ladder, top_log2(b), "uniform", 1);
}

/* the s6 design space (largest size first: `hopper` left its input in the bench's cache) */
static cudaError_t exp_wide(kit_bench *b)
{
    if (!b->quick) KIT_TRY(at(b, &hist_wide_ladder, top_log2(b), "uniform", 1));
    return at(b, &hist_wide_ladder, top_log2(b) - 2, "uniform", 1);
}

/* the s7 design space on every input (s7 is data-dependent by design) at the largest
 * size, the ladder's s7 and CUB on the same inputs, then the variants at a quarter of it */
static cudaError_t exp_runs(kit_bench *b)
{
    KIT_TRY(at(b, &hist_runs_ladder, top_log2(b), all_inputs(), 1));
    KIT_TRY(at(b, &hist_s7_cub_ladder, top_log2(b), all_inputs(), 1));
    return at(b, &hist_runs_ladder, top_log2(b) - 2, all_inputs(), 1);
}

static const kit_experiment experiments[] = {
    {"sweep", "throughput vs n (2^13..2^30 bytes), uniform/zeros/linear, every step + CUB + CPU (Fig. 8.9)",
     exp_sweep},
    {"images", "synthetic images 256^2..4096^2, every step + CUB (Figs. 8.10-8.11)", exp_images},
    {"inputs", "every step + CUB at 2^30 bytes on all 7 inputs (the chapter's bar)", exp_inputs},
    {"k", "s4 kernel, k = 1..63 words per thread at 2^28 bytes (Fig. 8.7)", exp_k},
    {"tlp", "s4 kernel, forced resident blocks per SM 1..13 at 2^28 bytes", exp_tlp},
    {"rowsum", "s4, s5 with / without periodic row-sums (off: timing only) at 2^28 bytes", exp_rowsum},
    {"hopper", "s5 variants: threads x k x batch x update x blocks/SM at 2^28 and 2^30", exp_hopper},
    {"wide", "s6 variants: threads x k x batch x updates in flight at 2^28 and 2^30", exp_wide},
    {"runs", "s7 variants: threads x k x batch x copies x runs x layout at 2^28 and 2^30, all 7 inputs",
     exp_runs},
};

static const kit_chapter chapter = {
    "04", "04-histogram", "256-bin histogram (atomics, per-thread, TRISH)", hist_ladders,
    HIST_NLADDERS, experiments, sizeof experiments / sizeof *experiments, (size_t)1 << 26, 1,
};

int main(int argc, char **argv)
{
    return kit_chapter_main(&chapter, argc, argv);
}
