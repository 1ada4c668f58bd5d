/* micro.cu - the per-block experiments: a primitive on register-resident data, many
 * blocks in one launch, so that the time is the primitive's and not DRAM's.
 *
 * Every block reads the same small input tile (thread t: words tile[k * TBS + t], k <
 * BITS; L1/L2 hits after the first blocks), then calls the primitive BALLOT_ITER times,
 * call `it` on value it of the thread (bits [it*BITS, it*BITS + BITS) of its words, one
 * funnel shift and one AND), and folds the results into one word per thread
 * (acc = acc * BALLOT_TOTAL_MUL + r: one IMAD).  The variants of one table differ only in
 * the primitive: same block size, same data, same extraction and folding work. */
#include "ballot.h"
#include "blocks/ballot_block.cuh"
#include "kit_cuda.cuh"
#include "redux_gate.cuh"

template <int BITS>
static __device__ __forceinline__ unsigned micro_value(const uint32_t (&w)[BITS], int it)
{
    const int bit = it * BITS, k = bit >> 5, sh = bit & 31;
    uint32_t hi = 0;
    if (k + 1 < BITS) hi = w[k + 1];
    return __funnelshift_r(w[k], hi, sh) & ((1u << BITS) - 1u);
}

template <int OP, int TBS, int BITS>
__global__ void __launch_bounds__(TBS) micro_kernel(const uint32_t *__restrict__ tile,
                                                    uint32_t *__restrict__ out)
{
    __shared__ unsigned s_wbuf[OP == BALLOT_MW_SMEM ? TBS / 32 * WARP_SCAN_SMEM_WORDS : 1];
    const unsigned t = threadIdx.x;
    uint32_t w[BITS];
    unsigned acc = 0;
#pragma unroll
    for (int k = 0; k < BITS; k++) w[k] = tile[k * TBS + t];
#pragma unroll
    for (int it = 0; it < BALLOT_ITER; it++) {
        const unsigned v = micro_value<BITS>(w, it);
        unsigned r, tot;
        if constexpr (OP == BALLOT_MR_COUNT) r = __syncthreads_count(v);
        else if constexpr (OP == BALLOT_MR_SMEM) r = block_reduce32_smem<TBS>(v);
        else if constexpr (OP == BALLOT_MR_SHFL) r = block_reduce32_warp<TBS, WR_SHFL>(v);
        else if constexpr (OP == BALLOT_MR_REDUX) r = block_reduce32_warp<TBS, WR_REDUX>(v);
        else if constexpr (OP == BALLOT_MS_32SMEM) r = block_scan32_excl<TBS, WS_SMEM>(v, &tot);
        else if constexpr (OP == BALLOT_MS_BINSMEM) r = block_bin_scan_excl<TBS, BT_SMEM>(v, &tot);
        else if constexpr (OP == BALLOT_MS_32SHFL) r = block_scan32_excl<TBS, WS_SHFL>(v, &tot);
        else if constexpr (OP == BALLOT_MS_BINSHFL) r = block_bin_scan_excl<TBS, BT_SHFL>(v, &tot);
        else if constexpr (OP == BALLOT_MS_BINBP) r = block_bin_scan_excl<TBS, BT_BITPLANE>(v, &tot);
        else if constexpr (OP == BALLOT_MW_BITPLANE) r = warp_bitplane_excl<BITS>(v, nullptr);
        else if constexpr (OP == BALLOT_MW_SHFL) r = warp_scan_shfl_incl(v) - v;
        else r = warp_scan_smem_incl(v, s_wbuf + (t >> 5) * WARP_SCAN_SMEM_WORDS) - v;
        (void)tot;
        acc = acc * BALLOT_TOTAL_MUL + r;
    }
    out[(size_t)blockIdx.x * TBS + t] = acc;
}

template <int OP, int TBS, int BITS>
static cudaError_t run_micro(const uint32_t *tile, uint32_t *out, unsigned grid, cudaStream_t s)
{
    if constexpr (OP == BALLOT_MR_REDUX) KIT_TRY(redux_gate(micro_kernel<OP, TBS, BITS>));
    if (grid == 0) return cudaSuccess;
    micro_kernel<OP, TBS, BITS><<<grid, TBS, 0, s>>>(tile, out);
    return cudaGetLastError();
}

template <int OP, int TBS, int BITS>
static cudaError_t describe_micro(kit_kernel_desc *d)
{
    d->func = (const void *)micro_kernel<OP, TBS, BITS>;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

#define MICRO(NAME, PARAM, WHAT, FILE, OP, T, B)                                                \
    {{NAME, PARAM, WHAT, FILE, NULL, KIT_STEP_GPU, describe_micro<OP, T, B>},                    \
     run_micro<OP, T, B>, OP, T, B}
#define BLK_FILE "reference/blocks/ballot_block.cuh"
#define WARP_FILE "reference/blocks/ballot_warp.cuh"

/* Fig. 3.1: block reduce of 1-bit values, 512 threads */
extern "C" const ballot_micro ballot_mreduce_variants[] = {
    MICRO("count_syncthreads", "tbs=512", "__syncthreads_count: one barrier, no smem", BLK_FILE,
          BALLOT_MR_COUNT, 512, 1),
    MICRO("reduce32_smem", "tbs=512", "32-bit shared-memory tree (Harris)", BLK_FILE,
          BALLOT_MR_SMEM, 512, 1),
    MICRO("reduce32_shfl", "tbs=512", "32-bit warp shuffles + one warp", BLK_FILE,
          BALLOT_MR_SHFL, 512, 1),
    MICRO("reduce32_redux", "tbs=512", "32-bit __reduce_add_sync + one warp", BLK_FILE,
          BALLOT_MR_REDUX, 512, 1),
};

/* Fig. 3.2: block exclusive scan of 1-bit values, 512 threads */
extern "C" const ballot_micro ballot_mscan_variants[] = {
    MICRO("scan32_smem", "tbs=512", "32-bit smem warp scans (Listing 3.6 with warp_scan)",
          BLK_FILE, BALLOT_MS_32SMEM, 512, 1),
    MICRO("bin_scan_smem", "tbs=512", "ballot warps, totals by smem warp scan (Listing 3.6)",
          BLK_FILE, BALLOT_MS_BINSMEM, 512, 1),
    MICRO("scan32_shfl", "tbs=512", "32-bit shuffle warp scans", BLK_FILE, BALLOT_MS_32SHFL,
          512, 1),
    MICRO("bin_scan_shfl", "tbs=512", "ballot warps, totals by shuffle warp scan", BLK_FILE,
          BALLOT_MS_BINSHFL, 512, 1),
    MICRO("bin_scan_bp", "tbs=512", "ballot warps, totals by 6 bit planes (poster 000)",
          BLK_FILE, BALLOT_MS_BINBP, 512, 1),
};

/* bit planes vs generic warp scans for values of 1..8 bits, 256 threads */
#define MBITS(B)                                                                                 \
    MICRO("warp_bitplane", "bits=" #B " tbs=256", "one ballot per bit", WARP_FILE,               \
          BALLOT_MW_BITPLANE, 256, B),                                                           \
        MICRO("warp_shfl", "bits=" #B " tbs=256", "5-step shuffle scan", WARP_FILE,              \
              BALLOT_MW_SHFL, 256, B),                                                           \
        MICRO("warp_smem", "bits=" #B " tbs=256", "5-step padded smem scan", WARP_FILE,          \
              BALLOT_MW_SMEM, 256, B)

extern "C" const ballot_micro ballot_mbits_variants[] = {
    MBITS(1), MBITS(2), MBITS(3), MBITS(4), MBITS(5), MBITS(6), MBITS(7), MBITS(8),
};

static_assert(sizeof ballot_mreduce_variants / sizeof ballot_mreduce_variants[0] ==
                  BALLOT_MREDUCE_NVARIANTS, "BALLOT_MREDUCE_NVARIANTS");
static_assert(sizeof ballot_mscan_variants / sizeof ballot_mscan_variants[0] ==
                  BALLOT_MSCAN_NVARIANTS, "BALLOT_MSCAN_NVARIANTS");
static_assert(sizeof ballot_mbits_variants / sizeof ballot_mbits_variants[0] ==
                  BALLOT_MBITS_NVARIANTS, "BALLOT_MBITS_NVARIANTS");
