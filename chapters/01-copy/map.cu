/* map.cu - the MAP primitives around copy: fill (no input), gather
 * (out[i] = in[idx[i]]) and scatter (out[idx[i]] = in[i]).
 * Same skeleton as s3 (Block DASk, Warp-by-Warp, batches of 4); the lesson is
 * the index map: with the identity every stream is coalesced, with a random
 * permutation one of the three streams (the reads of gather, the writes of
 * scatter) touches a different 32-byte sector for every word, so DRAM moves
 * 8x the useful bytes on that stream. */
#include "copy.h"
#include "kit_cuda.cuh"

#define MAP_TBS 256
#define MAP_NWORK 4
#define MAP_DBS ((size_t)MAP_TBS * MAP_NWORK)
static_assert(COPY_MAP_MAX_N == COPY_BLOCKS_MAX_N(MAP_DBS), "copy.h's COPY_MAP_MAX_N: one block per data block");

__device__ __forceinline__ size_t map_first_item()
{
    return (size_t)blockIdx.x * MAP_DBS + (threadIdx.x >> 5) * (32u * MAP_NWORK) + (threadIdx.x & 31u);
}

__global__ void __launch_bounds__(MAP_TBS) map_fill_kernel(uint32_t *out, uint32_t value, size_t n)
{
    const size_t i0 = map_first_item();
#pragma unroll
    for (int k = 0; k < MAP_NWORK; k++)
        if (i0 + 32 * k < n) out[i0 + 32 * k] = value;
}

/* SCATTER == false: gather; true: scatter */
template <bool SCATTER>
__global__ void __launch_bounds__(MAP_TBS)
    map_index_kernel(const uint32_t *__restrict__ in, const uint32_t *__restrict__ idx,
                     uint32_t *__restrict__ out, size_t n)
{
    const size_t i0 = map_first_item();
    uint32_t j[MAP_NWORK], v[MAP_NWORK];
#pragma unroll
    for (int k = 0; k < MAP_NWORK; k++)
        if (i0 + 32 * k < n) j[k] = idx[i0 + 32 * k];
#pragma unroll
    for (int k = 0; k < MAP_NWORK; k++)
        if (i0 + 32 * k < n) v[k] = in[SCATTER ? i0 + 32 * k : j[k]];
#pragma unroll
    for (int k = 0; k < MAP_NWORK; k++)
        if (i0 + 32 * k < n) out[SCATTER ? j[k] : i0 + 32 * k] = v[k];
}

extern "C" cudaError_t map_fill(uint32_t *out, uint32_t value, size_t n, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    if (n > COPY_MAP_MAX_N) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    map_fill_kernel<<<kit_blocks_for(n, MAP_DBS), MAP_TBS, 0, s>>>(out, value, n);
    return cudaGetLastError();
}

extern "C" cudaError_t map_gather(const uint32_t *in, const uint32_t *idx, uint32_t *out, size_t n,
                                  cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    if (n > COPY_MAP_MAX_N) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    map_index_kernel<false><<<kit_blocks_for(n, MAP_DBS), MAP_TBS, 0, s>>>(in, idx, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t map_scatter(const uint32_t *in, const uint32_t *idx, uint32_t *out,
                                   size_t n, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    if (n > COPY_MAP_MAX_N) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    map_index_kernel<true><<<kit_blocks_for(n, MAP_DBS), MAP_TBS, 0, s>>>(in, idx, out, n);
    return cudaGetLastError();
}

KIT_DESCRIBE(map_fill_describe, map_fill_kernel, MAP_TBS, 0)
KIT_DESCRIBE(map_gather_describe, map_index_kernel<false>, MAP_TBS, 0)
KIT_DESCRIBE(map_scatter_describe, map_index_kernel<true>, MAP_TBS, 0)
