/* ex05_rank_dev.cu - the kernel of exercise ex05_tile_rank: one block per tile of
 * EX05_RANK_TILE keys, warp-striped loads, the exercise's tr_rank_tile
 * ($(IMPL)/05-radix-sort/radix_tile_rank.cuh), warp-striped stores of the ranks.  Device code
 * only (the Makefile compiles *_dev.cu with nvcc -fatbin, reference/kit_dev.h): the student's
 * header reaches no host code; the launcher is ex05_rank.c. */
#include "ex05_rank.h"
#include "radix_tile_rank.cuh"

extern "C" __global__ void __launch_bounds__(EX05_RANK_TBS)
    ex05_rank_tiles_kernel(const uint32_t *__restrict__ keys, uint32_t *__restrict__ rank, size_t n,
                           int shift, int bits)
{
    __shared__ tr_smem<EX05_RANK_TBS> sm;
    const size_t tile0 = (size_t)blockIdx.x * EX05_RANK_TILE;
    const unsigned m = n - tile0 < (size_t)EX05_RANK_TILE ? (unsigned)(n - tile0) : (unsigned)EX05_RANK_TILE;
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    uint32_t key[EX05_RANK_ITEMS], r[EX05_RANK_ITEMS];
#pragma unroll
    for (int j = 0; j < EX05_RANK_ITEMS; j++) { /* item j, lane l of warp w: position w*32*ITEMS + 32j + l */
        const unsigned pos = warp * 32u * EX05_RANK_ITEMS + 32u * j + lane;
        key[j] = pos < m ? keys[tile0 + pos] : 0u;
    }
    tr_rank_tile<EX05_RANK_TBS, EX05_RANK_ITEMS>(key, m, shift, bits, sm, r);
#pragma unroll
    for (int j = 0; j < EX05_RANK_ITEMS; j++) {
        const unsigned pos = warp * 32u * EX05_RANK_ITEMS + 32u * j + lane;
        if (pos < m) rank[tile0 + pos] = r[j];
    }
}
