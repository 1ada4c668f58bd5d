/* ex05_rank.cu - the launcher of exercise ex05_tile_rank: one block per tile of
 * EX05_RANK_TILE keys, warp-striped loads, the exercise's tr_rank_tile (radix_tile_rank.cuh),
 * warp-striped stores of the ranks.  Plumbing only: nothing to write here. */
#include "ex05_rank.h"
#include "kit_cuda.cuh"
#include "radix_tile_rank.cuh"

__global__ void __launch_bounds__(EX05_RANK_TBS)
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

extern "C" cudaError_t ex05_rank_tiles(const uint32_t *keys, uint32_t *rank, size_t n, int shift, int bits,
                                       cudaStream_t s)
{
    unsigned grid;
    if (bits < 1 || bits > 8 || shift < 0 || shift + bits > 32) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    if (!(grid = kit_blocks_for(n, EX05_RANK_TILE))) return cudaErrorInvalidValue;
    ex05_rank_tiles_kernel<<<grid, EX05_RANK_TBS, 0, s>>>(keys, rank, n, shift, bits);
    return cudaGetLastError();
}
