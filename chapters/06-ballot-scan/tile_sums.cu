/* tile_sums.cu - the middle pass of the reduce-then-scan steps s0..s2: an exclusive scan,
 * in place, of the per-tile counts, by one block that walks them 4096 at a time with a
 * running carry (block scan from shuffle warp scans).  It reads and writes 8 bytes per
 * tile: at 4096 flags per tile, against 24576 bytes in the other two passes. */
#include "ballot.h"
#include "blocks/ballot_block.cuh"
#include "kit_cuda.cuh"

#define TS_TBS 1024
#define TS_ITEMS 4

__global__ void __launch_bounds__(TS_TBS) tile_sums_kernel(uint32_t *sums, size_t m)
{
    unsigned carry = 0;
    for (size_t base = 0; base < m; base += (size_t)TS_TBS * TS_ITEMS) {
        const size_t i0 = base + (size_t)threadIdx.x * TS_ITEMS;
        unsigned v[TS_ITEMS], s = 0, tot;
#pragma unroll
        for (int j = 0; j < TS_ITEMS; j++) v[j] = i0 + j < m ? sums[i0 + j] : 0u;
#pragma unroll
        for (int j = 0; j < TS_ITEMS; j++) { /* serial exclusive scan of the thread's items */
            const unsigned x = v[j];
            v[j] = s;
            s += x;
        }
        const unsigned ex = block_scan32_excl<TS_TBS, WS_SHFL>(s, &tot);
#pragma unroll
        for (int j = 0; j < TS_ITEMS; j++)
            if (i0 + j < m) sums[i0 + j] = carry + ex + v[j];
        carry += tot;
    }
}

extern "C" cudaError_t ballot_scan_tile_sums(uint32_t *sums, size_t m, cudaStream_t s)
{
    if (m == 0) return cudaSuccess;
    tile_sums_kernel<<<1, TS_TBS, 0, s>>>(sums, m);
    return cudaGetLastError();
}
