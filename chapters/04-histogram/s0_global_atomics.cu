/* s0 - global atomics: the CPU loop `bins[v]++` with atomicAdd.
 * Changed: nothing, this is the starting point.  The 256 bins are zeroed
 * (cudaMemsetAsync), then a resident grid strides over the bytes, one byte per
 * thread per iteration, and adds 1 to bins[v] in global memory.
 * Why it works at all: atomicAdd makes concurrent increments of one bin safe;
 * the byte loads are coalesced (a warp reads 32 consecutive bytes).
 * What limits it: every byte is a read-modify-write performed in L2 on one of
 * only 256 addresses.  Uniform data spreads them over the 256 addresses; equal
 * bytes (all zeros, flat image regions) queue on one address and one L2 slice,
 * so the speed depends on the data by orders of magnitude. */
#include "hist_common.cuh"

#define S0_TBS 256

__global__ void __launch_bounds__(S0_TBS)
    hist_global_kernel(const uint8_t *__restrict__ in, size_t n, uint32_t *__restrict__ bins)
{
    const size_t stride = (size_t)gridDim.x * S0_TBS;
    for (size_t i = (size_t)blockIdx.x * S0_TBS + threadIdx.x; i < n; i += stride)
        atomicAdd(&bins[in[i]], 1u);
}

extern "C" cudaError_t hist_s0_global_atomics(const uint8_t *in, size_t n, uint32_t *bins,
                                              void *scratch, cudaStream_t s)
{
    static unsigned resident;
    (void)scratch;
    KIT_TRY(hist_check_args(n, bins));
    KIT_TRY(cudaMemsetAsync(bins, 0, HIST_BINS * sizeof(uint32_t), s));
    if (n == 0) return cudaSuccess;
    if (!resident) KIT_TRY(hist_resident((const void *)hist_global_kernel, S0_TBS, 0, &resident));
    hist_global_kernel<<<hist_grid(resident, kit_blocks_for(n, S0_TBS)), S0_TBS, 0, s>>>(in, n, bins);
    return cudaGetLastError();
}

KIT_DESCRIBE(hist_s0_describe, hist_global_kernel, S0_TBS, 0)
