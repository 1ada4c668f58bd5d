/* scan_u32.cuh - a device-wide exclusive sum of 32-bit unsigned values (wrapping), one
 * pass with decoupled look-back (blocks/lookback.cuh): chapter 06's s3 technique for
 * plain words.  For the count tables of the multi-kernel radix sorts (chapter 05) and
 * the count / scan / scatter compaction (chapter 07): tables of per-tile counts, small
 * next to the data, so the kernel favours simplicity over the last percent.
 *
 *   size_t blk_scan_u32_scratch(size_t n)                        exact bytes of scratch
 *   cudaError_t blk_scan_u32_excl(in, out, n, scratch, stream)   out[i] = in[0] + .. + in[i-1]
 *
 * in and out are 4-byte aligned and may be the same array (each tile reads its own
 * elements before it writes them, and no tile reads another's).  n < 2^32 * TILE. */
#ifndef BLOCKS_SCAN_U32_CUH
#define BLOCKS_SCAN_U32_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "blocks/ballot_block.cuh"
#include "blocks/lookback.cuh"

#define BLK_SCAN_TBS 256
#define BLK_SCAN_ITEMS 8
#define BLK_SCAN_TILE (BLK_SCAN_TBS * BLK_SCAN_ITEMS)

/* element i of the tile in shared memory: one padding word every 32 keeps a thread's
 * ITEMS consecutive words in different banks from its neighbours' */
static __device__ __forceinline__ unsigned blk_scan_pad(unsigned i) { return i + (i >> 5); }

static __global__ void __launch_bounds__(BLK_SCAN_TBS)
    blk_scan_u32_kernel(const uint32_t *in, uint32_t *out, size_t n, unsigned *counter,
                        unsigned long long *desc)
{
    __shared__ uint32_t s[BLK_SCAN_TILE + BLK_SCAN_TILE / 32];
    __shared__ unsigned s_tile, s_excl;
    if (threadIdx.x == 0) s_tile = atomicAdd(counter, 1u);
    __syncthreads();
    const unsigned tile = s_tile;
    const size_t base = (size_t)tile * BLK_SCAN_TILE;
    const size_t left = n - base; /* > 0: there are exactly as many tiles as blocks */
#pragma unroll
    for (int k = 0; k < BLK_SCAN_ITEMS; k++) { /* coalesced */
        const unsigned j = k * BLK_SCAN_TBS + threadIdx.x;
        s[blk_scan_pad(j)] = j < left ? in[base + j] : 0u;
    }
    __syncthreads();
    uint32_t v[BLK_SCAN_ITEMS], sum = 0;
#pragma unroll
    for (int k = 0; k < BLK_SCAN_ITEMS; k++) {
        v[k] = s[blk_scan_pad(threadIdx.x * BLK_SCAN_ITEMS + k)];
        sum += v[k];
    }
    unsigned agg;
    const unsigned pre = block_scan32_excl<BLK_SCAN_TBS, WS_SHFL>(sum, &agg);
    if (threadIdx.x < 32) {
        const unsigned ex = lookback_warp_u32(desc, tile, agg);
        if (threadIdx.x == 0) s_excl = ex;
    }
    __syncthreads(); /* also: every thread has read its words of s */
    unsigned run = s_excl + pre;
#pragma unroll
    for (int k = 0; k < BLK_SCAN_ITEMS; k++) {
        s[blk_scan_pad(threadIdx.x * BLK_SCAN_ITEMS + k)] = run;
        run += v[k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLK_SCAN_ITEMS; k++) {
        const unsigned j = k * BLK_SCAN_TBS + threadIdx.x;
        if (j < left) out[base + j] = s[blk_scan_pad(j)];
    }
}

static inline size_t blk_scan_u32_tiles(size_t n) { return (n + BLK_SCAN_TILE - 1) / BLK_SCAN_TILE; }

/* one descriptor per tile and the tile counter */
static inline size_t blk_scan_u32_scratch(size_t n)
{
    return n ? (blk_scan_u32_tiles(n) + 1) * sizeof(unsigned long long) : 0;
}

static inline cudaError_t blk_scan_u32_excl(const uint32_t *in, uint32_t *out, size_t n,
                                            void *scratch, cudaStream_t s)
{
    const size_t tiles = blk_scan_u32_tiles(n);
    unsigned long long *desc = (unsigned long long *)scratch;
    cudaError_t e;
    if (n == 0) return cudaSuccess;
    if (tiles > 0x7FFFFFFFu) return cudaErrorInvalidValue;
    if ((e = cudaMemsetAsync(scratch, 0, blk_scan_u32_scratch(n), s)) != cudaSuccess) return e;
    blk_scan_u32_kernel<<<(unsigned)tiles, BLK_SCAN_TBS, 0, s>>>(in, out, n, (unsigned *)(desc + tiles),
                                                                  desc);
    return cudaGetLastError();
}

#endif
