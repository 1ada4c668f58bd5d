/* sort.cu - block-local radix sort, one bit per pass, one key per thread (poster 000):
 * each of the 32 passes is a stable split of the block's keys by one bit, from a block
 * scan of that bit.  The three variants differ only in the scan:
 *   ballot        block_bin_scan_excl (ballot/popc warps, totals by a shuffle warp scan)
 *   scan32_shfl   block_scan32_excl on 0/1 words, shuffle warp scans
 *   scan32_smem   block_scan32_excl with padded shared-memory warp scans (the 2011 way)
 * Keys past n are 0xFFFFFFFF and sort after every real key (the split is stable and they
 * come last), so partial tiles need no special case.  Two key buffers in shared memory
 * alternate between passes: with the scan's own barriers, one barrier per pass suffices. */
#include "ballot.h"
#include "blocks/ballot_block.cuh"
#include "kit_cuda.cuh"

template <int TBS, int SC>
__global__ void __launch_bounds__(TBS) block_sort_kernel(const uint32_t *__restrict__ in,
                                                         uint32_t *__restrict__ out, size_t n)
{
    __shared__ uint32_t s_keys[2][TBS];
    const unsigned t = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * TBS + t;
    uint32_t key = i < n ? in[i] : 0xFFFFFFFFu;
#pragma unroll 1
    for (int bit = 0; bit < 32; bit += 2) {
        s_keys[0][block_split_rank<TBS, SC>((key >> bit) & 1u)] = key;
        __syncthreads();
        key = s_keys[0][t];
        s_keys[1][block_split_rank<TBS, SC>((key >> (bit + 1)) & 1u)] = key;
        __syncthreads();
        key = s_keys[1][t];
    }
    if (i < n) out[i] = key;
}

/* the largest n of a sort variant (its table entry's max_n): one block per TBS keys */
#define SORT_MAX_N(TBS) ((size_t)(TBS) * (size_t)INT_MAX)

template <int TBS, int SC>
static cudaError_t run_sort(const ballot_probe_in *in, uint32_t *out, size_t n, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    if (n > SORT_MAX_N(TBS)) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    block_sort_kernel<TBS, SC><<<kit_blocks_for(n, TBS), TBS, 0, s>>>(in->vals, out, n);
    return cudaGetLastError();
}

template <int TBS, int SC>
static cudaError_t describe_sort(kit_kernel_desc *d)
{
    d->func = (const void *)block_sort_kernel<TBS, SC>;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

#define SORT(NAME, SC, T, WHAT)                                                                 \
    {{NAME, "tbs=" #T " keys/thread=1", WHAT, "chapters/06-ballot-scan/sort.cu", NULL,           \
      KIT_STEP_GPU, describe_sort<T, SC>, 0, SORT_MAX_N(T)},                                     \
     run_sort<T, SC>, BALLOT_OP_SORT, T, 0}
#define SORT3(T)                                                                                \
    SORT("sort_ballot", SC_BALLOT, T, "32 splits, binary block scan (ballot/popc)"),             \
        SORT("sort_scan32_shfl", SC_32SHFL, T, "32 splits, 32-bit block scan (shuffles)"),       \
        SORT("sort_scan32_smem", SC_32SMEM, T, "32 splits, 32-bit block scan (smem warp scans)")

extern "C" const ballot_probe ballot_sort_variants[] = {
    SORT3(128), SORT3(256), SORT3(512), SORT3(1024),
};

static_assert(sizeof ballot_sort_variants / sizeof ballot_sort_variants[0] == BALLOT_SORT_NVARIANTS,
              "BALLOT_SORT_NVARIANTS");
