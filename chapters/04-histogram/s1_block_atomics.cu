/* s1 - privatized per block: shared-memory atomics.
 * Changed versus s0: each thread block counts into its own 256 counters in
 * shared memory (atomicAdd on shared memory), reading 4 bytes per load; at the
 * end it adds its nonzero counters to the global bins with one atomicAdd each.
 * Why it is faster: the increments happen in the SM's shared memory instead of
 * L2, and only 256 global atomics per block remain.
 * What still limits it: all 8 warps of the block (and the 32 lanes of a warp)
 * compete for the same 256 counters.  Lanes hitting different counters in the
 * same bank are serialized (bank conflicts), so speed still depends on the
 * data; the result still needs a zeroing memset and global atomics. */
#include "hist_common.cuh"

#define S1_TBS 256

__device__ __forceinline__ void s1_count_word(uint32_t *h, uint32_t w)
{
    atomicAdd(&h[w & 0xFFu], 1u);
    atomicAdd(&h[(w >> 8) & 0xFFu], 1u);
    atomicAdd(&h[(w >> 16) & 0xFFu], 1u);
    atomicAdd(&h[w >> 24], 1u);
}

__global__ void __launch_bounds__(S1_TBS)
    hist_block_kernel(const uint8_t *__restrict__ in, size_t n, hist_split sp,
                      uint32_t *__restrict__ bins)
{
    __shared__ uint32_t h[HIST_BINS];
    const uint32_t *words = (const uint32_t *)(in + sp.head);
    const size_t stride = (size_t)gridDim.x * S1_TBS;
    h[threadIdx.x] = 0; /* S1_TBS == HIST_BINS */
    __syncthreads();
    for (size_t i = (size_t)blockIdx.x * S1_TBS + threadIdx.x; i < sp.units; i += stride)
        s1_count_word(h, words[i]);
    if (blockIdx.x == 0) { /* the loose bytes before and after the whole words */
        if (threadIdx.x < sp.head) atomicAdd(&h[in[threadIdx.x]], 1u);
        if (sp.tail + threadIdx.x < n) atomicAdd(&h[in[sp.tail + threadIdx.x]], 1u);
    }
    __syncthreads();
    if (h[threadIdx.x]) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

extern "C" cudaError_t hist_s1_block_atomics(const uint8_t *in, size_t n, uint32_t *bins,
                                             void *scratch, cudaStream_t s)
{
    static unsigned resident;
    const hist_split sp = hist_split_of<4>(in, n);
    (void)scratch;
    KIT_TRY(hist_check_args(n, bins));
    KIT_TRY(cudaMemsetAsync(bins, 0, HIST_BINS * sizeof(uint32_t), s));
    if (n == 0) return cudaSuccess;
    if (!resident) KIT_TRY(hist_resident((const void *)hist_block_kernel, S1_TBS, 0, &resident));
    hist_block_kernel<<<hist_grid(resident, kit_blocks_for(sp.units, S1_TBS)), S1_TBS, 0, s>>>(
        in, n, sp, bins);
    return cudaGetLastError();
}

KIT_DESCRIBE(hist_s1_describe, hist_block_kernel, S1_TBS, 0)
