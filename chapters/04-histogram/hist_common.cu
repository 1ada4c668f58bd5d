/* hist_common.cu - the block-sum kernel and the launch helpers every
 * partial-histogram step (s2 .. s7) shares; see hist_common.cuh. */
#include "hist_common.cuh"

unsigned hist_grid_limit;

extern "C" void hist_set_grid_limit(unsigned blocks)
{
    hist_grid_limit = blocks;
}

#define MAX_BLOCKS_PER_SM 32 /* Hopper's (and every CUDA GPU's so far) ceiling */

extern "C" size_t hist_partials_scratch(size_t n)
{
    (void)n;
    return (size_t)kit_sm_count() * MAX_BLOCKS_PER_SM * HIST_BINS * sizeof(uint32_t);
}

cudaError_t hist_resident(const void *kernel, int threads, size_t dyn_smem, unsigned *grid)
{
    const unsigned most = (unsigned)kit_sm_count() * MAX_BLOCKS_PER_SM; /* the scratch's room */
    KIT_TRY(kit_resident_grid(kernel, threads, dyn_smem, grid));
    if (*grid > most) *grid = most;
    return cudaSuccess;
}

/* Let kernel use the whole shared memory of an SM (carveout) and up to
 * dyn_smem bytes of dynamic shared memory per block. */
static cudaError_t hist_prefer_smem(const void *kernel, size_t dyn_smem)
{
    KIT_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                 (int)cudaSharedmemCarveoutMaxShared));
    KIT_TRY(kit_smem_optin(kernel, dyn_smem));
    return cudaSuccess;
}

cudaError_t hist_configure(const void *kernel, int threads, size_t need, int R, unsigned *resident,
                           size_t *smem)
{
    size_t bytes = need;
    unsigned grid = 0;
    KIT_TRY(hist_prefer_smem(kernel, need));
    if (R > 0) KIT_TRY(kit_force_residency(kernel, threads, need, R, &bytes));
    KIT_TRY(hist_resident(kernel, threads, bytes, &grid));
    *resident = grid;
    *smem = bytes;
    return cudaSuccess;
}

/* ------------------------------------------------------------ block sum */

#define FIN_BINS 32                   /* bins per block: one per lane */
#define FIN_WARPS 32                  /* partials are shared out over 32 warps */
#define FIN_THREADS (32 * FIN_WARPS)

/* Block b sums bins 32b .. 32b+31: lane l of warp w adds partials w, w+32, ...
 * of bin 32b + l (each warp reads 128 contiguous bytes per partial), then warp 0
 * adds the 32 warps' sums in order and the loose bytes. */
__global__ void __launch_bounds__(FIN_THREADS)
    hist_finish_kernel(const uint32_t *__restrict__ partials, unsigned nparts,
                       const uint8_t *__restrict__ in, size_t head, size_t tail, size_t n,
                       uint32_t *__restrict__ bins)
{
    __shared__ uint32_t warp_sum[FIN_WARPS][FIN_BINS + 1];
    const unsigned lane = threadIdx.x & 31u, w = threadIdx.x >> 5;
    const unsigned bin = blockIdx.x * FIN_BINS + lane;
    uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    unsigned p = w;
    for (; p + 3 * FIN_WARPS < nparts; p += 4 * FIN_WARPS) { /* 4 loads in flight */
        s0 += partials[(size_t)p * HIST_BINS + bin];
        s1 += partials[(size_t)(p + FIN_WARPS) * HIST_BINS + bin];
        s2 += partials[(size_t)(p + 2 * FIN_WARPS) * HIST_BINS + bin];
        s3 += partials[(size_t)(p + 3 * FIN_WARPS) * HIST_BINS + bin];
    }
    for (; p < nparts; p += FIN_WARPS) s0 += partials[(size_t)p * HIST_BINS + bin];
    warp_sum[w][lane] = (s0 + s1) + (s2 + s3);
    __syncthreads();
    if (w == 0) {
        uint32_t t = 0;
        size_t i;
        for (i = 0; i < FIN_WARPS; i++) t += warp_sum[i][lane];
        for (i = 0; i < head; i++) t += in[i] == bin;
        for (i = tail; i < n; i++) t += in[i] == bin;
        bins[bin] = t;
    }
}

cudaError_t hist_finish(const uint32_t *partials, unsigned nparts, const uint8_t *in,
                        const hist_split &sp, size_t n, uint32_t *bins, cudaStream_t s)
{
    hist_finish_kernel<<<HIST_BINS / FIN_BINS, FIN_THREADS, 0, s>>>(partials, nparts, in, sp.head,
                                                                     sp.tail, n, bins);
    return cudaGetLastError();
}
