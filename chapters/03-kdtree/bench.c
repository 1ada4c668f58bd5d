/* bench.c - chapter 03's program: its experiments, on the kit's command line (steps, bench, demo,
 * sanitize; see `ch03 help`).  Sizes are powers of ten like the document's figures (10^3 ..
 * 10^7).  The CPU baselines are timed up to n = 10^6: one core needs tens of seconds per run of
 * 10^7 queries, and the bars compare at 10^6.  The CPU builds are timed to 10^7 (build, bars).
 * --quick (a smoke run of every experiment in seconds): 3D only, 10^3 .. 10^5, the single-size
 * experiments at 10^5 (fewer k, uniform bars), the CPU rows to 10^5. */
#include <stdio.h>
#include <string.h>

#include "knn.h"
#include "knn_problem.h"

/* Run fn with extra axis settings after the user's --AXIS ones (the harness takes the first
 * setting of an axis, so the user's win), timing only `phase` ("query" or "build"): a
 * search experiment does not time the build it shares with every other experiment (the
 * CPU-built trees of s2 .. s5 take seconds at 10^7; `build` and `bars` time the builds), and
 * the build experiments do not time their few thousand queries.  cpus: the CPU rows to time
 * (NULL: every one of that phase). */
static cudaError_t with_axes(kit_bench *b, const char *extra, const char *phase, const char *cpus,
                             cudaError_t (*fn)(kit_bench *))
{
    char buf[512];
    const char *saved = b->axes, *saved_phase = b->phase, *saved_cpus = b->cpus;
    cudaError_t e;
    snprintf(buf, sizeof buf, "%s%s%s", saved ? saved : "", saved ? " " : "", extra);
    b->axes = buf;
    b->phase = phase;
    b->cpus = cpus;
    e = fn(b);
    b->axes = saved;
    b->phase = saved_phase;
    b->cpus = saved_cpus;
    return e;
}

#define CPU_MAX_N ((size_t)1000000)
/* the sweeps' CPU rows: to 10^6, or 10^5 with --quick */
static size_t cpu_max(const kit_bench *b) { return b->quick ? CPU_MAX_N / 10 : CPU_MAX_N; }

/* 10^3 .. 10^7 (10^5 with --quick, never past 2^max_log2) */
static size_t ten_powers(const kit_bench *b, size_t *sizes)
{
    const size_t top = b->quick ? 100000 : 10000000;
    size_t n = 1000, k = 0;
    for (; n <= top && n <= ((size_t)1 << b->max_log2); n *= 10) sizes[k++] = n;
    return k;
}

static cudaError_t sweep_n(kit_bench *b)
{
    size_t sizes[8];
    const size_t ns = ten_powers(b, sizes);
    return kit_ladder_sweep_sizes(b, &knn_ladder, sizes, ns, "uniform", 1, cpu_max(b));
}

/* one problem (mode) vs n in 2, 3 and 4 dimensions, m = n */
static cudaError_t dims_sweep(kit_bench *b, const char *mode)
{
    static const char *const dims[] = {"dim=2", "dim=3", "dim=4"};
    char buf[256];
    int d;
    for (d = b->quick ? 1 : 0; d < (b->quick ? 2 : 3); d++) {
        snprintf(buf, sizeof buf, "%s queries=0 %s", mode, dims[d]);
        KIT_TRY(with_axes(b, buf, "query", NULL, sweep_n));
    }
    return cudaSuccess;
}
static cudaError_t exp_qnn(kit_bench *b) { return dims_sweep(b, "k=1 all=0"); }
static cudaError_t exp_allnn(kit_bench *b) { return dims_sweep(b, "k=1 all=1"); }
static cudaError_t exp_knn8(kit_bench *b) { return dims_sweep(b, "k=8 all=0"); }
static cudaError_t exp_knn32(kit_bench *b) { return dims_sweep(b, "k=32 all=0"); }
static cudaError_t exp_allknn(kit_bench *b) { return dims_sweep(b, "k=8 all=1"); }

/* the chapter's bars: 10^6 points and 10^6 queries in 3D, QNN and kNN k=8, uniform and clustered
 * points (uniform queries), with the CPU rows (nanoflann on one core); then the build of 10^7
 * points (GPU build vs the CPU build rows) */
static const size_t hundred_k[] = {100000}, million[] = {1000000}, ten_million[] = {10000000};
/* the single-size experiments' size: 10^6 (--quick: 10^5) */
static const size_t *point_n(const kit_bench *b) { return b->quick ? hundred_k : million; }
static cudaError_t bars_point(kit_bench *b)
{
    return kit_ladder_sweep_sizes(b, &knn_ladder, point_n(b), 1,
                                  b->quick ? "uniform" : "uniform,clustered", 1, CPU_MAX_N);
}
static cudaError_t bars_build(kit_bench *b)
{
    return kit_ladder_sweep_sizes(b, &knn_ladder, b->quick ? hundred_k : ten_million, 1, "uniform", 1,
                                  (size_t)10000000);
}
static cudaError_t exp_bars(kit_bench *b)
{
    KIT_TRY(with_axes(b, "k=1 all=0 queries=0 dim=3", "query", NULL, bars_point));
    KIT_TRY(with_axes(b, "k=8 all=0 queries=0 dim=3", "query", NULL, bars_point));
    return with_axes(b, "k=1 all=0 queries=4099 dim=3", "build", NULL, bars_build);
}

/* every named input at 10^6 (kNN k=8, 3D); the real clouds only from their package files.  The
 * one-core baseline is nanoflann's (the bars'): the document's tree, a row of every other
 * experiment, takes 40-90 s per run on blobs (its median splits, see the bars) */
static cudaError_t inputs_point(kit_bench *b)
{
    char list[512] = "uniform,clustered,surface,duplicates,collinear,lattice";
    size_t i;
    for (i = 0; i < KNN_NINPUTS; i++) {
        const kit_input *in = &knn_inputs[i];
        size_t count;
        int full = 0;
        const char *where = "";
        if (in->arg != KNN_IN_CLOUD) continue;
        knn_cloud_points((knn_cloud)(int)in->value, &count, &full, &where);
        if (full) {
            fprintf(stderr, "ch03 bench inputs: %s from %s (%zu points)\n", in->name, where, count);
            strncat(list, ",", sizeof list - strlen(list) - 1);
            strncat(list, in->name, sizeof list - strlen(list) - 1);
        } else {
            fprintf(stderr, "ch03 bench inputs: %s skipped: %s\n", in->name, where);
        }
    }
    return kit_ladder_sweep_sizes(b, &knn_ladder, point_n(b), 1, list, 1, cpu_max(b));
}
static cudaError_t exp_inputs(kit_bench *b)
{
    return with_axes(b, "k=8 all=0 queries=0 dim=3", "query", "nanoflann,nanoflann-mt", inputs_point);
}

/* k = 1, 2, 4 .. 32 at 10^6 (the document's Fig. 7.7 e-f; --quick: k = 1, 8, 32 at 10^5) */
static cudaError_t k_point(kit_bench *b)
{
    return kit_ladder_sweep_sizes(b, &knn_ladder, point_n(b), 1, "uniform", 1, cpu_max(b));
}
static cudaError_t exp_k(kit_bench *b)
{
    static const int ks[] = {1, 2, 4, 8, 16, 32};
    char buf[128];
    size_t i;
    for (i = 0; i < sizeof ks / sizeof *ks; i++) {
        if (b->quick && ks[i] != 1 && ks[i] != 8 && ks[i] != 32) continue;
        snprintf(buf, sizeof buf, "k=%d all=0 queries=0 dim=3", ks[i]);
        KIT_TRY(with_axes(b, buf, "query", NULL, k_point));
    }
    return cudaSuccess;
}

/* build time vs n: every step's build phase and the CPU builds (a few queries only) */
static cudaError_t build_sweep(kit_bench *b)
{
    size_t sizes[8];
    const size_t ns = ten_powers(b, sizes);
    return kit_ladder_sweep_sizes(b, &knn_ladder, sizes, ns, "uniform", 1, (size_t)10000000);
}
static cudaError_t exp_build(kit_bench *b)
{
    return with_axes(b, "k=1 all=0 queries=4099 dim=3", "build", NULL, build_sweep);
}

/* s2's threads per block at 10^6 (--quick: 10^5), QNN and kNN k=8, then the main ladder in the same run */
static cudaError_t tpb_point(kit_bench *b)
{
    const kit_shape sh = kit_bench_shape(b, &knn_problem, point_n(b)[0]);
    cudaError_t e;
    b->param_occupancy = 1;
    e = kit_ladder_point(b, &knn_s2_tpb_ladder, &sh, "uniform");
    b->param_occupancy = 0;
    if (e != cudaSuccess) return e;
    return kit_ladder_point(b, &knn_ladder, &sh, "uniform");
}
static cudaError_t exp_tpb(kit_bench *b)
{
    KIT_TRY(with_axes(b, "k=1 all=0 queries=0 dim=3", "query", NULL, tpb_point));
    return with_axes(b, "k=8 all=0 queries=0 dim=3", "query", NULL, tpb_point);
}

static const kit_experiment experiments[] = {
    {"qnn", "QNN (k=1) vs n = 10^3..10^7, m = n, 2D/3D/4D, uniform: every step and the CPU rows", exp_qnn},
    {"allnn", "All-NN vs n, 2D/3D/4D", exp_allnn},
    {"knn8", "kNN k=8 vs n, 2D/3D/4D", exp_knn8},
    {"knn32", "kNN k=32 vs n, 2D/3D/4D", exp_knn32},
    {"allknn", "All-kNN k=8 vs n, 2D/3D/4D", exp_allknn},
    {"bars", "the chapter's bars: 10^6 3D QNN and kNN k=8 on uniform and clustered points vs nanoflann; "
             "build of 10^7 points",
     exp_bars},
    {"inputs", "every named input at 10^6, kNN k=8, 3D (real clouds when installed), nanoflann's CPU rows",
     exp_inputs},
    {"k", "k = 1, 2, 4 .. 32 at n = m = 10^6, 3D uniform", exp_k},
    {"build", "build time vs n = 10^3..10^7 (GPU steps' build phase, CPU builds), 3D uniform", exp_build},
    {"tpb", "s2's threads per block at 10^6, QNN and kNN k=8 (the document's Fig. 7.7 a-c)", exp_tpb},
};

static const kit_chapter chapter = {
    "03", "03-kdtree", "kd-tree nearest neighbours", knn_ladders, KNN_NLADDERS,
    experiments, sizeof experiments / sizeof *experiments, (size_t)1 << 20, KNN_NMAIN,
};

int main(int argc, char **argv)
{
    return kit_chapter_main(&chapter, argc, argv);
}
