/* bench.c - chapter 04's program: its experiments on the kit's command line
 * (steps, bench, demo, profile, sanitize; see `ch04 help`).
 *
 * Sizes are in bytes (8-bit samples).  The sweeps go up to 2^(max_log2 + 2)
 * bytes, the data volume of the word-based chapters' largest size: 2^30 bytes
 * by default, 2^28 with --quick.  Every CSV row's param starts with
 * "input=<kind>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"

#define SEED 0x4157u
#define PROBE_BYTES ((size_t)1 << 20) /* cost probe on a prefix of the input */
#define RUN_BUDGET_MS 40.0            /* skip a step whose run would take longer */
#define CPU_MAX_BYTES ((size_t)1 << 26)

static int top_log2(const kit_bench *b)
{
    return b->max_log2 + 2;
}

/* ------------------------------------------------------------ contexts */

/* One context kept between experiments: generating 2^30 bytes and their CPU
 * histogram takes about a second, so the same (n, input) is reused. */
static hist_ctx *g_ctx;

static const hist_step *const g_tables[] = {hist_steps, hist_trish_k_variants,
                                            hist_trish_res_variants, hist_rowsum_variants,
                                            hist_hopper_variants, hist_wide_variants,
                                            hist_runs_variants};
static const size_t g_counts[] = {HIST_NSTEPS, HIST_TRISH_K_NVARIANTS, HIST_TRISH_RES_NVARIANTS,
                                  HIST_ROWSUM_NVARIANTS, HIST_HOPPER_NVARIANTS,
                                  HIST_WIDE_NVARIANTS, HIST_RUNS_NVARIANTS};

static size_t scratch_all(size_t n)
{
    size_t t, most = 0;
    for (t = 0; t < sizeof g_counts / sizeof *g_counts; t++) {
        const size_t b = hist_table_scratch(g_tables[t], g_counts[t], n);
        if (b > most) most = b;
    }
    return most;
}

/* a context for (n, input) whose scratch serves every table; steps/count set */
static cudaError_t ctx_get(const hist_step *steps, size_t count, size_t n, int input, hist_ctx **out)
{
    if (!g_ctx || g_ctx->n != n || g_ctx->input != input) {
        hist_ctx *c = NULL;
        cudaError_t e;
        hist_ctx_free(g_ctx);
        g_ctx = NULL;
        e = hist_ctx_new(steps, count, n, input, SEED + (uint64_t)input,
                         kit_rotations(hist_ladder.bytes(&hist_ladder, 0, n)), &c);
        if (e == cudaSuccess) { /* scratch for every table, not only this one */
            const size_t want = scratch_all(n);
            if (want > c->scratch_bytes) {
                cudaFree(c->scratch);
                c->scratch = NULL;
                c->scratch_bytes = 0;
                e = cudaMalloc(&c->scratch, want);
                if (e == cudaSuccess) c->scratch_bytes = want;
            }
        }
        if (e != cudaSuccess) {
            hist_ctx_free(c);
            return e;
        }
        g_ctx = c;
    }
    g_ctx->steps = steps;
    g_ctx->count = count;
    *out = g_ctx;
    return cudaSuccess;
}

static void ctx_release(void)
{
    hist_ctx_free(g_ctx);
    g_ctx = NULL;
}

/* ------------------------------------------------------------- timing */

typedef struct run_arg {
    hist_ctx *c;
    size_t i, m;
} run_arg;

static cudaError_t run_rot(void *a, int rep, cudaStream_t s)
{
    run_arg *r = (run_arg *)a;
    return hist_ctx_run(r->c, r->i, rep % r->c->rot, r->m, s);
}

static int timing_only(const hist_step *st)
{
    return strstr(st->info.param, HIST_TIMING_ONLY) != NULL;
}

/* "input=<kind> <param>[ blocks/SM=R]" */
static const char *row_param(const hist_ctx *c, const hist_step *st, int occupancy, char *buf,
                             size_t len)
{
    const int per_sm = occupancy ? kit_step_blocks_per_sm(&st->info) : 0;
    snprintf(buf, len, "input=%s %s", hist_input_name(c->input), st->info.param);
    if (per_sm) {
        size_t k = strlen(buf);
        snprintf(buf + k, len - k, " blocks/SM=%d", per_sm);
    }
    return buf;
}

/* Verify step i, then time it; one CSV row.  A step whose run on the whole
 * input would exceed RUN_BUDGET_MS (estimated from a run on a 1 MB prefix:
 * atomics on degenerate data) is written as "skipped" and not run.
 * *gbps gets the throughput (0 when skipped or failed). */
static cudaError_t time_one(kit_bench *b, hist_ctx *c, size_t i, int occupancy, double *gbps)
{
    const hist_step *st = &c->steps[i];
    const double bytes = hist_ladder.bytes(&hist_ladder, i, c->n);
    char msg[KIT_MSG], param[512], verified[64] = "ok";
    kit_timing t;
    run_arg ra;
    int ok = 0, warmup = b->warmup, reps = b->reps;
    cudaError_t e = cudaSuccess;
    *gbps = 0;
    ra.c = c;
    ra.i = i;
    ra.m = c->n;
    row_param(c, st, occupancy, param, sizeof param);
    if (c->n > PROBE_BYTES) {
        run_arg pa = ra;
        kit_timing pt;
        double est;
        pa.m = PROBE_BYTES;
        e = kit_time_gpu(run_rot, &pa, b->stream, 1, 1, &pt);
        if (e != cudaSuccess) goto fail;
        est = pt.ms_median * (double)c->n / (double)PROBE_BYTES;
        if (est > RUN_BUDGET_MS) {
            fprintf(stderr, "\n%s %s n=%zu: skipped, a run would take about %.0f ms\n", st->info.name,
                    param, c->n, est);
            kit_bench_row(b, st->info.name, param, c->n, bytes, (double)c->n, NULL, "skipped");
            return cudaSuccess;
        }
        if (est > 5.0) { /* long runs: fewer repetitions */
            warmup = 1;
            reps = reps < 5 ? reps : 5;
        }
    }
    e = hist_ctx_check(c, i, b->stream, &ok, msg, sizeof msg);
    if (e != cudaSuccess) goto fail;
    if (timing_only(st))
        snprintf(verified, sizeof verified, "timing-only:%s", ok ? "counts-ok" : "counts-wrong");
    else if (!ok) {
        snprintf(verified, sizeof verified, "FAILED");
        fprintf(stderr, "\n%s %s n=%zu: FAILED verification: %s\n", st->info.name, param, c->n, msg);
    }
    e = kit_time_gpu(run_rot, &ra, b->stream, warmup, reps, &t);
    if (e != cudaSuccess) goto fail;
    kit_bench_row(b, st->info.name, param, c->n, bytes, (double)c->n, &t, verified);
    if (ok && !timing_only(st)) *gbps = bytes / (t.ms_median * 1e6);
    return cudaSuccess;
fail:
    fprintf(stderr, "\n%s %s n=%zu: CUDA error: %s\n", st->info.name, param, c->n,
            cudaGetErrorString(e));
    kit_bench_row(b, st->info.name, param, c->n, bytes, (double)c->n, NULL, "ERROR");
    if (!kit_recover()) return e; /* sticky: give up */
    return cudaSuccess;
}

/* every step of a table on (n, input); gbps[i] per step when not NULL */
static cudaError_t time_table(kit_bench *b, const hist_step *steps, size_t count, size_t n,
                              int input, int occupancy, double *gbps)
{
    hist_ctx *c;
    size_t i;
    char sz[32];
    kit_progress(b, "%s n=%s", hist_input_name(input), kit_size_str(n, sz, sizeof sz));
    KIT_TRY(ctx_get(steps, count, n, input, &c));
    for (i = 0; i < count; i++) {
        double g;
        KIT_TRY(time_one(b, c, i, occupancy, &g));
        if (gbps) gbps[i] = g;
    }
    return cudaSuccess;
}

static void time_cpu(kit_bench *b, hist_ctx *c)
{
    char name[64], param[128];
    int v;
    snprintf(param, sizeof param, "input=%s serial CPU baseline", hist_input_name(c->input));
    for (v = 0; hist_ladder.cpu_names[v]; v++) {
        kit_timing t;
        kit_ladder_time_cpu(&hist_ladder, c, v, b->quick ? 2 : 5, 0.5, &t);
        snprintf(name, sizeof name, "cpu-%s", hist_ladder.cpu_names[v]);
        kit_bench_row(b, name, param, c->n, hist_ladder.bytes(&hist_ladder, 0, c->n), (double)c->n,
                      &t, "ok");
    }
}

/* ---------------------------------------------------------- experiments */

/* Fig. 8.9: throughput against n on the three synthetic data sets, every step,
 * CUB, and the CPU up to 2^26 bytes. */
static cudaError_t exp_sweep(kit_bench *b)
{
    static const int inputs[] = {KIT_UNIFORM, KIT_ZEROS, KIT_LINEAR};
    int k, x;
    for (x = 0; x < 3; x++)
        for (k = 13; k <= top_log2(b); k++) {
            const size_t n = (size_t)1 << k;
            KIT_TRY(time_table(b, hist_steps, HIST_NSTEPS, n, inputs[x], 0, NULL));
            if (n <= CPU_MAX_BYTES) time_cpu(b, g_ctx);
        }
    kit_progress_done(b);
    return cudaSuccess;
}

/* Figs. 8.10-8.11: the synthetic images at 256^2 .. 4096^2 bytes (RGBA: the
 * same byte counts). */
static cudaError_t exp_images(kit_bench *b)
{
    int img, k;
    for (img = 0; img < KIT_IMAGE_COUNT; img++)
        for (k = 16; k <= 24; k += 2)
            KIT_TRY(time_table(b, hist_steps, HIST_NSTEPS, (size_t)1 << k, HIST_IMAGE(img), 0, NULL));
    kit_progress_done(b);
    return cudaSuccess;
}

/* The chapter's bar: every step and CUB at the largest size on every input
 * kind; a summary on stderr (best step vs CUB, spread of each atomic-free
 * step across the inputs). */
static cudaError_t exp_inputs(kit_bench *b)
{
    double g[HIST_NINPUTS][HIST_NSTEPS];
    const size_t n = (size_t)1 << top_log2(b);
    char sz[32];
    int x;
    size_t i, cub = HIST_NSTEPS - 1;
    for (x = 0; x < HIST_NINPUTS; x++)
        KIT_TRY(time_table(b, hist_steps, HIST_NSTEPS, n, hist_inputs[x], 0, g[x]));
    kit_progress_done(b);
    fprintf(stderr, "\nch04 inputs at n = %s bytes on %s (GB/s of input):\n", kit_size_str(n, sz, sizeof sz),
            b->gpu_name);
    fprintf(stderr, "  %-16s %18s %9s %9s %7s\n", "input", "best step", "GB/s", "CUB", "x CUB");
    for (x = 0; x < HIST_NINPUTS; x++) {
        size_t best = 0;
        for (i = 0; i < cub; i++)
            if (g[x][i] > g[x][best]) best = i;
        fprintf(stderr, "  %-16s %18s %9.1f %9.1f %7.2f\n", hist_input_name(hist_inputs[x]),
                hist_steps[best].info.name, g[x][best], g[x][cub],
                g[x][cub] > 0 ? g[x][best] / g[x][cub] : 0.0);
    }
    fprintf(stderr, "  spread across inputs, (max - min) / max:");
    for (i = 0; i < HIST_NSTEPS; i++) {
        double lo = 1e30, hi = 0;
        for (x = 0; x < HIST_NINPUTS; x++) {
            if (g[x][i] < lo) lo = g[x][i];
            if (g[x][i] > hi) hi = g[x][i];
        }
        fprintf(stderr, "%s %s %.1f%%", i ? "," : "", hist_steps[i].info.name,
                hi > 0 ? 100.0 * (hi - lo) / hi : 100.0);
    }
    fprintf(stderr, "\n");
    return cudaSuccess;
}

/* Fig. 8.7: s4's k = 1..63 (the floor(63/k) k / 63 row-sum efficiency) */
static cudaError_t exp_k(kit_bench *b)
{
    KIT_TRY(time_table(b, hist_trish_k_variants, HIST_TRISH_K_NVARIANTS,
                       (size_t)1 << (top_log2(b) - 2), KIT_UNIFORM, 0, NULL));
    kit_progress_done(b);
    return cudaSuccess;
}

/* TLP: s4 with 1..13 resident blocks per SM (the document: 3 / 2 / 1) */
static cudaError_t exp_tlp(kit_bench *b)
{
    KIT_TRY(time_table(b, hist_trish_res_variants, HIST_TRISH_RES_NVARIANTS,
                       (size_t)1 << (top_log2(b) - 2), KIT_UNIFORM, 1, NULL));
    kit_progress_done(b);
    return cudaSuccess;
}

/* the row-sum cost (the document's degraded test): the timing-only variants
 * are never verified as correct; on zeros their counts are wrong */
static cudaError_t exp_rowsum(kit_bench *b)
{
    const size_t n = (size_t)1 << (top_log2(b) - 2);
    KIT_TRY(time_table(b, hist_rowsum_variants, HIST_ROWSUM_NVARIANTS, n, KIT_UNIFORM, 0, NULL));
    KIT_TRY(time_table(b, hist_rowsum_variants, HIST_ROWSUM_NVARIANTS, n, KIT_ZEROS, 0, NULL));
    kit_progress_done(b);
    return cudaSuccess;
}

/* the s5 design space, at 2^28 bytes and at the largest size */
static cudaError_t exp_hopper(kit_bench *b)
{
    KIT_TRY(time_table(b, hist_hopper_variants, HIST_HOPPER_NVARIANTS,
                       (size_t)1 << (top_log2(b) - 2), KIT_UNIFORM, 1, NULL));
    if (!b->quick)
        KIT_TRY(time_table(b, hist_hopper_variants, HIST_HOPPER_NVARIANTS,
                           (size_t)1 << top_log2(b), KIT_UNIFORM, 1, NULL));
    kit_progress_done(b);
    return cudaSuccess;
}

/* the s6 design space (largest size first: `hopper` left its input in the cache) */
static cudaError_t exp_wide(kit_bench *b)
{
    if (!b->quick)
        KIT_TRY(time_table(b, hist_wide_variants, HIST_WIDE_NVARIANTS, (size_t)1 << top_log2(b),
                           KIT_UNIFORM, 1, NULL));
    KIT_TRY(time_table(b, hist_wide_variants, HIST_WIDE_NVARIANTS,
                       (size_t)1 << (top_log2(b) - 2), KIT_UNIFORM, 1, NULL));
    kit_progress_done(b);
    return cudaSuccess;
}

/* the s7 design space on every input kind (s7 is data-dependent by design) at
 * the largest size, with the ladder's s7 and CUB on the same inputs, then the
 * variants at a quarter of it; a summary on stderr per input at the largest
 * size: the ladder's s7, the best variant, CUB. */
static cudaError_t exp_runs(kit_bench *b)
{
    double g[HIST_NINPUTS][HIST_RUNS_NVARIANTS];
    double ref[HIST_NINPUTS][2]; /* the ladder's s7, CUB */
    const hist_step *s7 = &hist_steps[HIST_NSTEPS - 2];
    const size_t top = (size_t)1 << top_log2(b);
    char sz[32];
    int x;
    size_t i;
    for (x = 0; x < HIST_NINPUTS; x++) {
        KIT_TRY(time_table(b, hist_runs_variants, HIST_RUNS_NVARIANTS, top, hist_inputs[x], 1, g[x]));
        KIT_TRY(time_table(b, s7, 2, top, hist_inputs[x], 1, ref[x]));
        KIT_TRY(time_table(b, hist_runs_variants, HIST_RUNS_NVARIANTS, top / 4, hist_inputs[x], 1, NULL));
    }
    kit_progress_done(b);
    fprintf(stderr, "\nch04 runs at n = %s bytes on %s (GB/s of input; s7 = the ladder's %s):\n",
            kit_size_str(top, sz, sizeof sz), b->gpu_name, s7->info.param);
    fprintf(stderr, "  %-16s %9s %9s %9s %7s  %s\n", "input", "s7", "best", "CUB", "s7/CUB", "best variant");
    for (x = 0; x < HIST_NINPUTS; x++) {
        size_t best = 0;
        for (i = 1; i < HIST_RUNS_NVARIANTS; i++)
            if (g[x][i] > g[x][best]) best = i;
        fprintf(stderr, "  %-16s %9.1f %9.1f %9.1f %7.2f  %s\n", hist_input_name(hist_inputs[x]), ref[x][0],
                g[x][best], ref[x][1], ref[x][1] > 0 ? ref[x][0] / ref[x][1] : 0.0,
                hist_runs_variants[best].info.param);
    }
    return cudaSuccess;
}

/* the CPU rows only, when there is no GPU (time_table needs one) */
static cudaError_t exp_cpu_only(kit_bench *b)
{
    int k;
    for (k = 13; k <= 26; k++) {
        hist_ctx *c = NULL;
        KIT_TRY(hist_ctx_new(hist_steps, HIST_NSTEPS, (size_t)1 << k, KIT_UNIFORM, SEED, 0, &c));
        time_cpu(b, c);
        hist_ctx_free(c);
    }
    return cudaSuccess;
}

#define GPU_ONLY(name)                                                                           \
    static cudaError_t name##_any(kit_bench *b)                                                  \
    {                                                                                            \
        return b->gpu ? name(b) : cudaSuccess;                                                   \
    }
GPU_ONLY(exp_images)
GPU_ONLY(exp_inputs)
GPU_ONLY(exp_k)
GPU_ONLY(exp_tlp)
GPU_ONLY(exp_rowsum)
GPU_ONLY(exp_hopper)
GPU_ONLY(exp_wide)
GPU_ONLY(exp_runs)

static cudaError_t exp_sweep_any(kit_bench *b)
{
    return b->gpu ? exp_sweep(b) : exp_cpu_only(b);
}

static const kit_experiment experiments[] = {
    {"sweep", "throughput vs n (2^13..2^30 bytes), zeros/linear/uniform, every step + CUB + CPU (Fig. 8.9)",
     exp_sweep_any},
    {"images", "synthetic images 256^2..4096^2, every step + CUB (Figs. 8.10-8.11)", exp_images_any},
    {"inputs", "every step + CUB at 2^30 bytes on all 7 input kinds (the chapter's bar)", exp_inputs_any},
    {"k", "s4 kernel, k = 1..63 words per thread at 2^28 bytes (Fig. 8.7)", exp_k_any},
    {"tlp", "s4 kernel, forced resident blocks per SM 1..13 at 2^28 bytes", exp_tlp_any},
    {"rowsum", "s4, s5 with / without periodic row-sums (timing only) at 2^28 bytes", exp_rowsum_any},
    {"hopper", "s5 variants: threads x k x batch x update x blocks/SM at 2^28 and 2^30", exp_hopper_any},
    {"wide", "s6 variants: threads x k x batch x updates in flight at 2^28 and 2^30", exp_wide_any},
    {"runs", "s7 variants: threads x k x batch x copies x runs x layout at 2^28 and 2^30, all 7 inputs",
     exp_runs_any},
};

static const kit_ladder *const ladders[] = {
    &hist_ladder,         &hist_hopper_ladder,    &hist_wide_ladder, &hist_runs_ladder,
    &hist_trish_k_ladder, &hist_trish_res_ladder,
};

static const kit_chapter chapter = {
    "04", "04-histogram", "256-bin histogram (atomics, per-thread, TRISH)", ladders,
    sizeof ladders / sizeof *ladders, experiments, sizeof experiments / sizeof *experiments,
    (size_t)1 << 26, 1,
};

int main(int argc, char **argv)
{
    int st = kit_chapter_main(&chapter, argc, argv);
    ctx_release();
    return st;
}
