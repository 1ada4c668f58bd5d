/* bench.c - chapter 02's program: its experiments, on the kit's command line
 * (steps, bench, demo, sanitize, profile; see `ch02 help`). */
#include "reduce_scan.h"

#define N20 ((size_t)1 << 20)

/* The size of the single-size experiments: the document's n = 2^28 (2^24 quick). */
static size_t point_n(const kit_bench *b)
{
    return b->quick ? (size_t)1 << 24 : (size_t)1 << b->max_log2;
}

/* L vs n = 2^10 .. 2^hi on uniform words, with the serial CPU loop when with_cpu. */
static cudaError_t sweep(kit_bench *b, const kit_ladder *L, int hi, int with_cpu)
{
    return kit_ladder_sweep(b, L, 10, hi, "uniform", with_cpu, 0);
}

/* Every step of L at n, on uniform words (tuning tables). */
static cudaError_t point(kit_bench *b, const kit_ladder *L, size_t n)
{
    const kit_shape sh = kit_bench_shape(b, L->P, n);
    return kit_ladder_point(b, L, &sh, "uniform");
}

/* Fig. 6.4 (our ladder): every reduce step, CUB and the CPU vs n. */
static cudaError_t exp_reduce(kit_bench *b) { return sweep(b, &rs_reduce_ladder, b->max_log2, 1); }

/* Every scan step (uint32, exclusive), CUB and the CPU vs n. */
static cudaError_t exp_scan(kit_bench *b) { return sweep(b, &rs_scan_ladder, b->max_log2, 1); }

/* The reduce ladder on floats (same steps, a tolerance instead of equality). */
static cudaError_t exp_float(kit_bench *b) { return sweep(b, &rs_reduce_f32_ladder, b->max_log2, 1); }

/* The scan ladder on 8-byte affine maps (non-commutative), exclusive. */
static cudaError_t exp_affine(kit_bench *b)
{
    return sweep(b, &rs_scan_affine_ladder, b->max_log2 - 1, 1);
}

/* Tables 6.13-6.15: all 64 (nWarps, nWork) pairs of Brown's reduce and scan at
 * one size; the TLP (nWork = 1) and ILP (nWarps = 1) tables are its edges. */
static cudaError_t exp_pairs(kit_bench *b)
{
    KIT_TRY(point(b, &rs_reduce_pairs_ladder, point_n(b)));
    return point(b, &rs_scan_pairs_ladder, point_n(b));
}

/* Table 6.16 and Fig. 6.18: the bank-conflict strategies vs n. */
static cudaError_t exp_bank(kit_bench *b)
{
    KIT_TRY(sweep(b, &rs_reduce_bank_ladder, b->max_log2, 0));
    return sweep(b, &rs_scan_bank_ladder, b->max_log2, 0);
}

/* Fig. 6.5: baseline, ILP-focused, TLP-focused, mitigates, avoids vs n. */
static cudaError_t exp_curves(kit_bench *b)
{
    KIT_TRY(sweep(b, &rs_reduce_curves_ladder, b->max_log2, 0));
    return sweep(b, &rs_scan_curves_ladder, b->max_log2, 0);
}

/* The best steps' knobs beside CUB, at 2^20 and at the large size: pick R8_* and
 * S4_* (the ladder's best steps) from it. */
static cudaError_t exp_tune(kit_bench *b)
{
    const size_t sizes[2] = {N20, point_n(b)};
    int k;
    for (k = 0; k < 2; k++) {
        KIT_TRY(point(b, &rs_r8_ladder, sizes[k]));
        KIT_TRY(point(b, &rs_reduce_best_ladder, sizes[k]));
        KIT_TRY(point(b, &rs_s4_ladder, sizes[k]));
        KIT_TRY(point(b, &rs_scan_best_ladder, sizes[k]));
    }
    return cudaSuccess;
}

static const kit_experiment experiments[] = {
    {"reduce", "reduce ladder + CUB + CPU vs n, uint32 (Fig. 6.4, our ladder)", exp_reduce},
    {"scan", "scan ladder + CUB + CPU vs n, uint32 exclusive", exp_scan},
    {"float", "reduce ladder on floats vs n", exp_float},
    {"affine", "scan ladder on affine maps (8 bytes, non-commutative) vs n", exp_affine},
    {"pairs", "Brown's reduce and scan, 64 (nWarps, nWork) pairs at 2^28 (Tables 6.13-6.15)", exp_pairs},
    {"bank", "bank-conflict strategies vs n (Table 6.16, Fig. 6.18)", exp_bank},
    {"curves", "baseline / ILP / TLP / mitigates / avoids vs n (Fig. 6.5)", exp_curves},
    {"tune", "r8 and s4 knobs beside CUB at 2^20 and 2^28", exp_tune},
};

/* the two ladders first (nmain = 2: demo, README tables, sanitize at full sizes),
 * then the other types and modes and the tuning tables */
static const kit_chapter chapter = {
    "02", "02-reduce-scan", "reduce and scan", rs_ladders, RS_NLADDERS,
    experiments, sizeof experiments / sizeof *experiments, (size_t)1 << 24, RS_NMAIN,
};

int main(int argc, char **argv)
{
    return kit_chapter_main(&chapter, argc, argv);
}
