/* bench.c - chapter 07's program: its experiments, on the kit's command line
 * (steps, bench, demo, sanitize; see `ch07 help`). */
#include <stdio.h>

#include "compact.h"
#include "compact_problem.h"

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

/* the p inputs in order of p */
static const char *const p_inputs[] = {"p=0.00", "p=0.10", "p=0.20", "p=0.30", "p=0.40", "p=0.50",
                                       "p=0.60", "p=0.70", "p=0.80", "p=0.90", "p=1.00"};
#define NP (sizeof p_inputs / sizeof *p_inputs)

/* the paper's n (2^26) and the largest (2^28 unless --quick) */
static int paper_log2(const kit_bench *b) { return b->max_log2 < 26 ? b->max_log2 : 26; }

/* Fig. 11: every step at every p at shape log2n (--quick: p = 0, 0.5 and 1) */
static cudaError_t p_sweep_at(kit_bench *b, int log2n)
{
    const kit_shape sh = kit_bench_shape(b, &compact_select_problem, (size_t)1 << log2n);
    size_t x;
    for (x = 0; x < NP; x += b->quick ? NP / 2 : 1) KIT_TRY(kit_ladder_point(b, &compact_select_ladder, &sh, p_inputs[x]));
    return cudaSuccess;
}
/* indices (the paper's output) at 2^26 and the largest n */
static cudaError_t p_sweep_indices(kit_bench *b)
{
    if (paper_log2(b) < b->max_log2) KIT_TRY(p_sweep_at(b, paper_log2(b)));
    return p_sweep_at(b, b->max_log2);
}
/* values (CUB's output) at the largest n only: the atomic steps' set check sorts them on the
 * host, which is most of this experiment's time */
static cudaError_t p_sweep_values(kit_bench *b) { return p_sweep_at(b, b->max_log2); }
static cudaError_t exp_select_p(kit_bench *b)
{
    KIT_TRY(with_axes(b, "output=0", p_sweep_indices));
    return with_axes(b, "output=1", p_sweep_values);
}

/* Fig. 12: elements/s vs n at p = 0.5, the CPU baselines up to 2^24 */
static cudaError_t n_sweep(kit_bench *b)
{
    return kit_ladder_sweep(b, &compact_select_ladder, 16, b->max_log2, "p=0.50", 1, (size_t)1 << 24);
}
static cudaError_t exp_select_n(kit_bench *b)
{
    KIT_TRY(with_axes(b, "output=0", n_sweep));
    return with_axes(b, "output=1", n_sweep);
}

/* the pattern inputs and the flags at the largest n (values out) */
static cudaError_t inputs_at_max(kit_bench *b)
{
    const kit_shape sh = kit_bench_shape(b, &compact_select_problem, (size_t)1 << kit_bench_point_log2(b));
    size_t k;
    for (k = 0; k < COMPACT_NINPUTS; k++)
        KIT_TRY(kit_ladder_point(b, &compact_select_ladder, &sh, compact_inputs[k].name));
    return cudaSuccess;
}
static cudaError_t exp_select_inputs(kit_bench *b)
{
    KIT_TRY(with_axes(b, "pred=0 output=1", inputs_at_max));
    return with_axes(b, "pred=1 output=1", inputs_at_max);
}

/* partition and unique vs n (values out) */
static cudaError_t partition_sweep(kit_bench *b)
{
    return kit_ladder_sweep(b, &compact_partition_ladder, 16, b->max_log2, "p=0.50", 1, (size_t)1 << 24);
}
static cudaError_t exp_partition(kit_bench *b) { return with_axes(b, "output=1", partition_sweep); }
static cudaError_t exp_unique(kit_bench *b)
{
    return kit_ladder_sweep(b, &compact_unique_ladder, 16, b->max_log2, "dups,p=0.50", 1, (size_t)1 << 24);
}

/* Fig. 13: the multi-kernel steps' kernels timed one at a time (CSV phase column), indices
 * out as in the paper, at 2^26 and the largest n */
static cudaError_t exp_phases(kit_bench *b)
{
    const int sizes[2] = {paper_log2(b), b->max_log2};
    size_t k;
    for (k = 0; k < 2; k++) {
        const kit_shape sh = kit_bench_shape(b, &compact_phases_problem, (size_t)1 << sizes[k]);
        if (k == 1 && sizes[1] == sizes[0]) break;
        KIT_TRY(kit_ladder_point(b, &compact_phases_ladder, &sh, "p=0.50"));
    }
    return cudaSuccess;
}

/* a tuning table at 2^log2n and one p, each row's resident blocks per SM in its param */
static cudaError_t table_point(kit_bench *b, const kit_ladder *T, int log2n, const char *p)
{
    const kit_shape sh = kit_bench_shape(b, T->P, (size_t)1 << log2n);
    cudaError_t e;
    b->param_occupancy = 1;
    e = kit_ladder_point(b, T, &sh, p);
    b->param_occupancy = 0;
    return e;
}
/* a tuning table, then the select ladder in the same run (for the ratios), at one p */
static cudaError_t table_then_ladder(kit_bench *b, const kit_ladder *T, int log2n, const char *p)
{
    const kit_shape sh = kit_bench_shape(b, &compact_select_problem, (size_t)1 << log2n);
    KIT_TRY(table_point(b, T, log2n, p));
    return kit_ladder_point(b, &compact_select_ladder, &sh, p);
}
/* Fig. 10: threads per block of the three-phase step at the paper's n */
static cudaError_t exp_tpb(kit_bench *b) { return table_then_ladder(b, &compact_tpb_ladder, paper_log2(b), "p=0.50"); }
/* s6's table, the ladder, s7's table, at the ends of the p range, its middle, and p = 0.1 (nothing
 * written, everything written, half, and the first writes, where s8 trailed CUB for values) */
static cudaError_t sp_at_max(kit_bench *b)
{
    static const char *const ps[] = {"p=0.00", "p=0.10", "p=0.50", "p=1.00"};
    size_t k;
    for (k = 0; k < sizeof ps / sizeof *ps; k++) {
        KIT_TRY(table_then_ladder(b, &compact_sp_ladder, kit_bench_point_log2(b), ps[k]));
        KIT_TRY(table_point(b, &compact_pp_ladder, kit_bench_point_log2(b), ps[k]));
    }
    return cudaSuccess;
}
/* values and indices: value output keeps its elements in registers longer, so its best shape may
 * differ (values first: they are where the margin over CUB is thinnest) */
static cudaError_t exp_single_pass(kit_bench *b)
{
    KIT_TRY(with_axes(b, "output=1", sp_at_max));
    return with_axes(b, "output=0", sp_at_max);
}

static const kit_experiment experiments[] = {
    {"select_p", "time and elements/s vs p = 0..1: indices at n = 2^26 and 2^28, values at 2^28 (Fig. 11)",
     exp_select_p},
    {"select_n", "elements/s vs n = 2^16..2^28 at p = 0.5, indices and values, CPU to 2^24 (Fig. 12)",
     exp_select_n},
    {"select_inputs", "every named input at the largest n, If and Flagged, values out", exp_select_inputs},
    {"partition", "partition: elements/s vs n at p = 0.5, values out", exp_partition},
    {"unique", "unique: elements/s vs n on runs of 1..8 equal values and on distinct ones", exp_unique},
    {"phases", "the multi-kernel steps' kernels one at a time at 2^26 and 2^28 (Fig. 13)", exp_phases},
    {"tpb", "the three-phase step over threads per block at 2^26 (Fig. 10), then the ladder", exp_tpb},
    {"single_pass", "the single passes (s6, s7) over their knobs at 2^28 and p = 0, 0.1, 0.5, 1, then the ladder, indices and values",
     exp_single_pass},
};

int main(int argc, char **argv)
{
    kit_chapter chapter = {
        "07", "07-compaction", "stream compaction (select, partition, unique)", compact_ladders, 0,
        experiments, sizeof experiments / sizeof *experiments, (size_t)1 << 24, COMPACT_NMAIN,
    };
    chapter.nladders = compact_nladders;
    return kit_chapter_main(&chapter, argc, argv);
}
