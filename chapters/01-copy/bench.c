/* bench.c - chapter 01's program: its experiments, on the kit's command line
 * (steps, bench, demo, sanitize; see `ch01 help`). */
#include "copy.h"

#define N24 ((size_t)1 << 24)

/* Fig. 5.1: throughput against n for every step, cudaMemcpy and the CPU. */
static cudaError_t exp_sweep(kit_bench *b)
{
    return kit_ladder_sweep(b, &copy_ladder, 10, b->max_log2, NULL, 1, 0);
}

/* A tuning table at n (the default input) */
static cudaError_t point(kit_bench *b, const kit_ladder *L, size_t n)
{
    const kit_shape sh = kit_bench_shape(b, L->P, n);
    return kit_ladder_point(b, L, &sh, NULL);
}

/* Fig. 5.8: nWork 1..16 x interleaved / batches of 2, 4, 8, 16 at n = 2^24. */
static cudaError_t exp_ilp(kit_bench *b)
{
    return point(b, &copy_ilp_ladder, N24);
}

/* A tuning table at 2^24, each row's param carrying its resident blocks per SM. */
static cudaError_t point_with_occupancy(kit_bench *b, const kit_ladder *L)
{
    cudaError_t e;
    b->param_occupancy = 1;
    e = point(b, L, N24);
    b->param_occupancy = 0;
    return e;
}

/* Fig. 5.10: block size 32..1024 with the resident blocks per SM it allows. */
static cudaError_t exp_blocksize(kit_bench *b) { return point_with_occupancy(b, &copy_tbs_ladder); }

/* Fig. 5.11: 1..16 resident blocks per SM, forced by unused shared memory. */
static cudaError_t exp_residency(kit_bench *b) { return point_with_occupancy(b, &copy_res_ladder); }

/* The s6 design space, at 2^24 and at the sweep's largest size. */
static cudaError_t exp_hopper(kit_bench *b)
{
    KIT_TRY(point(b, &copy_hopper_ladder, N24));
    if (b->quick) return cudaSuccess;
    return point(b, &copy_hopper_ladder, (size_t)1 << b->max_log2);
}

/* MAP primitives: the cost of one uncoalesced stream.  Up to 2^26: larger
 * sizes show nothing new and spend their time shuffling a permutation on the CPU. */
static cudaError_t exp_map(kit_bench *b)
{
    return kit_ladder_sweep(b, &copy_map_ladder, 10, b->max_log2 < 26 ? b->max_log2 : 26, NULL, 0, 0);
}

static const kit_experiment experiments[] = {
    {"sweep", "throughput vs n, every step + cudaMemcpy + CPU (Fig. 5.1)", exp_sweep},
    {"ilp", "nWork 1..16 x interleaved/batch 2,4,8,16 at n=2^24 (Fig. 5.8)", exp_ilp},
    {"blocksize", "block size 32..1024 with resident blocks/SM at n=2^24 (Fig. 5.10)", exp_blocksize},
    {"residency", "forced resident blocks per SM 1..16 at n=2^24 (Fig. 5.11)", exp_residency},
    {"hopper", "s6 variants: block size x 16-byte vectors per thread x cache hint", exp_hopper},
    {"map", "fill, copy, gather, scatter with identity and random index maps, n up to 2^26", exp_map},
};

static const kit_chapter chapter = {
    "01", "01-copy", "copy and data access skeletons", copy_ladders, COPY_NLADDERS,
    experiments, sizeof experiments / sizeof *experiments, N24, 1,
};

int main(int argc, char **argv)
{
    return kit_chapter_main(&chapter, argc, argv);
}
