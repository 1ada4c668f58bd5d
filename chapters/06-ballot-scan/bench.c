/* bench.c - chapter 06's program: its experiments, on the kit's command line
 * (steps, bench, demo, sanitize; see `ch06 help`). */
#include "ballot.h"

/* Every step of L at n on one input. */
static cudaError_t point(kit_bench *b, const kit_ladder *L, size_t n, const char *input)
{
    const kit_shape sh = kit_bench_shape(b, L->P, n);
    return kit_ladder_point(b, L, &sh, input);
}

/* flags -> offsets against n: every step, CUB and the two CPU baselines */
static cudaError_t exp_sweep(kit_bench *b)
{
    return kit_ladder_sweep(b, &ballot_ladder, 10, b->max_log2, "random", 1, 0);
}

/* the s3 design space at the largest n, with the resident blocks per SM of each variant,
 * then the main ladder (CUB included) at the same n in the same run, for the ratios */
static cudaError_t exp_lookback(kit_bench *b)
{
    const size_t n = (size_t)1 << b->max_log2;
    cudaError_t e;
    b->param_occupancy = 1;
    e = point(b, &ballot_lookback_ladder, n, "random");
    b->param_occupancy = 0;
    if (e != cudaSuccess) return e;
    return point(b, &ballot_ladder, n, "random");
}

/* Fig. 3.1 and 3.2: one launch of 1 .. 65536 blocks of 512 threads, 32 calls per thread;
 * n = primitive calls = blocks x 512 x 32 */
static cudaError_t exp_reduce(kit_bench *b)
{
    return kit_ladder_sweep(b, &ballot_mreduce_ladder, 14, b->quick ? 26 : 30, "uniform", 0, 0);
}

static cudaError_t exp_blockscan(kit_bench *b)
{
    return kit_ladder_sweep(b, &ballot_mscan_ladder, 14, b->quick ? 26 : 30, "uniform", 0, 0);
}

/* the bit-plane crossover: 8192 (quick: 2048) blocks of 256 threads, 32 scans per thread */
static cudaError_t exp_bitplane(kit_bench *b)
{
    return point(b, &ballot_mbits_ladder, (size_t)1 << (b->quick ? 24 : 26), "uniform");
}

/* poster 000: the block radix sort, by ballot or by a 32-bit scan, every block size */
static cudaError_t exp_radixsort(kit_bench *b)
{
    return kit_ladder_sweep(b, &ballot_sort_ladder, 14, b->quick ? 22 : 24, "uniform", 0, 0);
}

static const kit_experiment experiments[] = {
    {"sweep", "flags -> offsets vs n = 2^10..2^28: every step, CUB, CPU", exp_sweep},
    {"lookback", "s3 variants at the largest n: block x rows x row scan x store", exp_lookback},
    {"reduce", "1-bit block reduce: __syncthreads_count vs 32-bit, 1..65536 blocks (Fig. 3.1)",
     exp_reduce},
    {"blockscan", "1-bit block scan: ballot vs 32-bit warp scans, 1..65536 blocks (Fig. 3.2)",
     exp_blockscan},
    {"bitplane", "warp scan of 1..8-bit values: bit planes vs shuffle vs smem scans",
     exp_bitplane},
    {"radixsort", "block radix sort, 1 bit per pass: ballot vs 32-bit scans, blocks 128..1024",
     exp_radixsort},
};

static const kit_chapter chapter = {
    "06", "06-ballot-scan", "ballot-based binary scan", ballot_ladders, BALLOT_NLADDERS,
    experiments, sizeof experiments / sizeof *experiments, (size_t)1 << 24, 1,
};

int main(int argc, char **argv)
{
    return kit_chapter_main(&chapter, argc, argv);
}
