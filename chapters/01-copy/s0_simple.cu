/* s0 - simple copy: one word per thread, 32 threads per block, a range check on
 * every word.
 * Changed: nothing, this is the starting point.
 * Why it works at all: consecutive threads touch consecutive words, so each
 * warp's load and store are coalesced into 128-byte transactions.
 * What limits it: a block is a single warp, and an SM holds at most 32 blocks,
 * so only half of Hopper's 64 warp slots can be filled; each thread has one
 * 4-byte load in flight and pays the index arithmetic and the range check for
 * a single word. Too few bytes are in flight to cover DRAM latency. */
#include "copy.h"
#include "kit_cuda.cuh"

#define S0_TBS 32

__global__ void __launch_bounds__(S0_TBS) copy_simple_kernel(const uint32_t *in, uint32_t *out,
                                                             size_t n)
{
    const size_t i = (size_t)blockIdx.x * S0_TBS + threadIdx.x;
    if (i < n) out[i] = in[i];
}

static_assert(COPY_S0_MAX_N == COPY_BLOCKS_MAX_N(S0_TBS), "copy.h's COPY_S0_MAX_N: one word per thread");

extern "C" cudaError_t copy_s0_simple(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                      cudaStream_t s)
{
    (void)scratch;
    if (n == 0) return cudaSuccess;
    if (n > COPY_S0_MAX_N) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    copy_simple_kernel<<<kit_blocks_for(n, S0_TBS), S0_TBS, 0, s>>>(in, out, n);
    return cudaGetLastError();
}

KIT_DESCRIBE(copy_s0_describe, copy_simple_kernel, S0_TBS, 0)
