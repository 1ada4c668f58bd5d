/* ballot_rts.cuh - the reduce-then-scan skeleton of steps s0 and s1 (device and launch code).
 *
 * A block owns a tile of SUB sub-tiles of TBS flags, one flag per thread per sub-tile (the
 * documents' one-element-per-thread primitives, called SUB times in a row):
 *   count kernel    tile count = sum of SUB block reductions
 *   ballot_scan_tile_sums   exclusive scan of the tile counts (tile_sums.cu)
 *   offsets kernel  SUB block exclusive scans with a running carry, + the tile's offset
 * PRIM picks the primitives, and is the only difference between s0 and s1:
 *   PRIM_32BIT   Harris' shared-memory tree reduce; block scan from 32-bit smem warp scans
 *   PRIM_BALLOT  __syncthreads_count; Listing 3.6's binary block scan (ballot/popc warps,
 *                warp counts through one 32-bit smem warp scan) */
#ifndef BALLOT_RTS_CUH
#define BALLOT_RTS_CUH

#include "ballot.h"
#include "blocks/ballot_block.cuh"
#include "kit_cuda.cuh"

enum { PRIM_32BIT = 0, PRIM_BALLOT = 1 };

template <int TBS, int SUB>
static __device__ __forceinline__ void rts_load(const uint8_t *__restrict__ flags, size_t n,
                                                unsigned (&f)[SUB])
{
    const size_t base = (size_t)blockIdx.x * (TBS * SUB) + threadIdx.x;
#pragma unroll
    for (int k = 0; k < SUB; k++) f[k] = base + k * TBS < n ? flags[base + k * TBS] : 0u;
}

template <int TBS, int SUB, int PRIM>
__global__ void __launch_bounds__(TBS) rts_count_kernel(const uint8_t *__restrict__ flags,
                                                        uint32_t *__restrict__ sums, size_t n)
{
    unsigned f[SUB], count = 0;
    rts_load<TBS, SUB>(flags, n, f);
#pragma unroll
    for (int k = 0; k < SUB; k++) {
        if constexpr (PRIM == PRIM_BALLOT) count += __syncthreads_count(f[k]);
        else count += block_reduce32_smem<TBS>(f[k]);
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = count;
}

template <int TBS, int SUB, int PRIM>
__global__ void __launch_bounds__(TBS) rts_offsets_kernel(const uint8_t *__restrict__ flags,
                                                          const uint32_t *__restrict__ sums,
                                                          uint32_t *__restrict__ out, size_t n)
{
    const size_t base = (size_t)blockIdx.x * (TBS * SUB) + threadIdx.x;
    unsigned f[SUB], carry = sums[blockIdx.x];
    rts_load<TBS, SUB>(flags, n, f);
#pragma unroll
    for (int k = 0; k < SUB; k++) {
        unsigned tot, ex;
        if constexpr (PRIM == PRIM_BALLOT) ex = block_bin_scan_excl<TBS, BT_SMEM>(f[k] != 0u, &tot);
        else ex = block_scan32_excl<TBS, WS_SMEM>(f[k], &tot);
        if (base + k * TBS < n) out[base + k * TBS] = carry + ex;
        carry += tot;
    }
}

template <int TBS, int SUB>
static size_t rts_scratch(size_t n)
{
    return ((n + TBS * SUB - 1) / (TBS * SUB)) * sizeof(uint32_t);
}

template <int TBS, int SUB, int PRIM>
static cudaError_t rts_run(const uint8_t *flags, uint32_t *offsets, size_t n, void *scratch,
                           cudaStream_t s)
{
    const unsigned tiles = kit_blocks_for(n, (size_t)TBS * SUB);
    uint32_t *sums = (uint32_t *)scratch;
    KIT_TRY(ballot_check_args(flags, offsets, n, 0));
    if (n == 0) return cudaSuccess;
    if (!tiles) return cudaErrorInvalidValue;
    rts_count_kernel<TBS, SUB, PRIM><<<tiles, TBS, 0, s>>>(flags, sums, n);
    KIT_TRY(cudaGetLastError());
    KIT_TRY(ballot_scan_tile_sums(sums, tiles, s));
    rts_offsets_kernel<TBS, SUB, PRIM><<<tiles, TBS, 0, s>>>(flags, sums, offsets, n);
    return cudaGetLastError();
}

#endif
