/* bench.c - chapter 05's program: its experiments, on the kit's command line
 * (steps, bench, demo, sanitize; see `ch05 help`). */
#include <stdio.h>

#include "radix.h"
#include "radix_problem.h"

/* Run fn with extra axis settings after the user's --AXIS ones (the harness takes the
 * first setting of an axis, so the user's win). */
static cudaError_t with_axes(kit_bench *b, const char *extra, cudaError_t (*fn)(kit_bench *))
{
    char buf[512];
    const char *saved = b->axes;
    cudaError_t e;
    snprintf(buf, sizeof buf, "%s%s%s", saved ? saved : "", saved ? " " : "", extra);
    b->axes = buf;
    e = fn(b);
    b->axes = saved;
    return e;
}

static cudaError_t sweep(kit_bench *b)
{
    return kit_ladder_sweep(b, &radix_ladder, 10, b->max_log2, "uniform", 1, (size_t)1 << 24);
}

/* keys/s vs n, 2^10 .. 2^28: every step, CUB, Thrust, the CPU baselines (to 2^24) */
static cudaError_t exp_keys(kit_bench *b) { return with_axes(b, "pairs=0", sweep); }
static cudaError_t exp_pairs(kit_bench *b) { return with_axes(b, "pairs=1", sweep); }

/* every named input at the largest n (--quick: 2^20, a smoke run) */
static cudaError_t inputs_at_max(kit_bench *b)
{
    const kit_shape sh = kit_bench_shape(b, &radix_problem32, (size_t)1 << kit_bench_point_log2(b));
    size_t k;
    for (k = 0; k < RADIX_NINPUTS; k++) KIT_TRY(kit_ladder_point(b, &radix_ladder, &sh, radix_inputs[k].name));
    return cudaSuccess;
}
static cudaError_t exp_inputs(kit_bench *b)
{
    KIT_TRY(with_axes(b, "pairs=0", inputs_at_max));
    return with_axes(b, "pairs=1", inputs_at_max);
}

/* u32, i32, f32 keys at the largest n (f32 on its own input as well) */
static cudaError_t exp_types(kit_bench *b)
{
    static const char *const set[] = {"type=0", "type=1", "type=2"};
    size_t t;
    for (t = 0; t < 3; t++) KIT_TRY(with_axes(b, set[t], inputs_at_max));
    return cudaSuccess;
}

/* 64-bit keys vs n */
static cudaError_t exp_keys64(kit_bench *b)
{
    return kit_ladder_sweep(b, &radix_ladder64, 10, b->max_log2 - 1, "uniform", 0, 0);
}

/* tuning table T at 2^log2, then main ladder M in the same run (for the ratios): on uniform keys, or
 * on the first input --input names (NULL: the problem's first input unless --input says) */
static cudaError_t table_then(kit_bench *b, const kit_ladder *T, const kit_ladder *M, int log2)
{
    const kit_shape sh = kit_bench_shape(b, T->P, (size_t)1 << log2);
    cudaError_t e;
    b->param_occupancy = 1;
    e = kit_ladder_point(b, T, &sh, NULL);
    b->param_occupancy = 0;
    if (e != cudaSuccess) return e;
    return kit_ladder_point(b, M, &sh, NULL);
}
static cudaError_t table_then_ladder(kit_bench *b, const kit_ladder *T)
{
    return table_then(b, T, &radix_ladder, b->max_log2);
}
static cudaError_t exp_srts(kit_bench *b) { return table_then_ladder(b, &radix_srts_ladder); }
static cudaError_t exp_rowdask(kit_bench *b) { return table_then_ladder(b, &radix_rowdask_ladder); }
static cudaError_t exp_onesweep(kit_bench *b) { return table_then_ladder(b, &radix_onesweep_ladder); }
/* 64-bit keys at the u64 ladder's largest n (keys64: 2^27 u64 keys are 2^28 u32 keys' gigabyte) */
static cudaError_t exp_onesweep64(kit_bench *b)
{
    return table_then(b, &radix_onesweep64_ladder, &radix_ladder64, b->max_log2 - 1);
}

/* s12's tuning table vs n (a one-block row forces its tile up to its size, a grid row its tiles up to
 * 2^18; both hand larger n to s12): keys, pairs, 64-bit keys; the ladder's s12 and CUB in the
 * sort_keys, sort_pairs and keys64 sweeps */
static cudaError_t small_sweep(kit_bench *b)
{
    return kit_ladder_sweep(b, &radix_small_ladder, 10, 18, "uniform", 0, 0);
}
static cudaError_t exp_small(kit_bench *b)
{
    KIT_TRY(with_axes(b, "pairs=0", small_sweep));
    KIT_TRY(with_axes(b, "pairs=1", small_sweep));
    return kit_ladder_sweep(b, &radix_small64_ladder, 10, 17, "uniform", 0, 0);
}

/* s13's networks in other tiles and s14's in other clusters vs n = 2^10..2^13: keys alone (32-bit and
 * 64-bit), and pairs by the (key, position) rows; each followed by its ladder at the same sizes in the
 * same run (s13 and s14 against s12 and CUB) */
static cudaError_t network_sweep(kit_bench *b)
{
    KIT_TRY(kit_ladder_sweep(b, &radix_network_ladder, 10, 13, "uniform", 0, 0));
    KIT_TRY(kit_ladder_sweep(b, &radix_cluster_ladder, 10, 13, "uniform", 0, 0));
    return kit_ladder_sweep(b, &radix_ladder, 10, 13, "uniform", 0, 0);
}
static cudaError_t exp_network(kit_bench *b)
{
    KIT_TRY(with_axes(b, "pairs=0", network_sweep));
    KIT_TRY(with_axes(b, "pairs=1", network_sweep));
    KIT_TRY(kit_ladder_sweep(b, &radix_network64_ladder, 10, 13, "uniform", 0, 0));
    KIT_TRY(kit_ladder_sweep(b, &radix_cluster64_ladder, 10, 13, "uniform", 0, 0));
    return kit_ladder_sweep(b, &radix_ladder64, 10, 13, "uniform", 0, 0);
}

static const kit_experiment experiments[] = {
    {"sort_keys", "keys/s vs n = 2^10..2^28, u32 keys: every step, CUB, Thrust, CPU", exp_keys},
    {"sort_pairs", "pairs/s vs n = 2^10..2^28, u32 keys + u32 values", exp_pairs},
    {"inputs", "every named input at the largest n, keys and pairs", exp_inputs},
    {"types", "u32, i32 and f32 keys, every input, at the largest n", exp_types},
    {"keys64", "u64 keys vs n: the steps that take them, CUB, Thrust", exp_keys64},
    {"srts_bits", "s2 (SRTS) with 1..5-bit digits: Merrill & Grimshaw's bathtub", exp_srts},
    {"rowdask", "s3 (Row-DASk) nWarps x nWork (Brown's Tables 9.10-9.11)", exp_rowdask},
    {"onesweep", "s5 (Onesweep) tile shapes and digit widths (uniform keys; --input: another)", exp_onesweep},
    {"onesweep64", "s5 (Onesweep) kernels on u64 keys at 2^27: prefetch, look-back window, tiles", exp_onesweep64},
    {"small", "s12's one-block tiles and grids vs n = 2^10..2^18: keys, pairs, 64-bit keys", exp_small},
    {"network",
     "s13's networks in other tiles, s14's in other clusters vs n = 2^10..2^13: keys, pairs, 64-bit keys; "
     "and the ladders",
     exp_network},
};

static const kit_chapter chapter = {
    "05", "05-radix-sort", "LSD radix sort", radix_ladders, RADIX_NLADDERS,
    experiments, sizeof experiments / sizeof *experiments, (size_t)1 << 24, RADIX_NMAIN,
};

int main(int argc, char **argv)
{
    return kit_chapter_main(&chapter, argc, argv);
}
