/* s4_trish_dev.cu - the count kernel of s4_trish (s4_trish.cu, its launcher): it bins with the
 * exercises' trish_bin_word and trish_rowsum ($(IMPL)/04-histogram/trish_bin.cuh and
 * trish_rowsum.cuh, exercises ex04_bin_word and ex04_rowsum), so it is device code only (the
 * Makefile compiles *_dev.cu with nvcc -fatbin, reference/kit_dev.h).  The kernel template is
 * instantiated below for every k the step runs (1 .. 63 with row-sums, 31 without); the launcher
 * finds each by its mangled name (the Itanium C++ ABI's, fixed by the signature). */
#include "hist_common.cuh"
#include "trish_bin.cuh"
#include "trish_rowsum.cuh"

static_assert(TRISH_COLS == HIST_TRISH_COLS, "trish_rowsum.cuh's TRISH_COLS is the launchers' HIST_TRISH_COLS (64)");

#define S4_TBS TRISH_COLS /* 64 threads, 64 columns */
#define S4_ROWS (HIST_BINS / 4)
#define S4_K 31
#define S4_BATCH 4

template <int K, bool ROWSUM>
__global__ void __launch_bounds__(S4_TBS)
    trish_count_kernel(const uint32_t *__restrict__ words, size_t nwords,
                       uint32_t *__restrict__ partials)
{
    constexpr int PER = 63 / K; /* data blocks between two row-sums */
    constexpr size_t DBS = (size_t)S4_TBS * K;
    __shared__ uint32_t table[S4_ROWS * S4_TBS];
    const unsigned t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    const size_t full = nwords / DBS;
    const size_t off = (size_t)warp * 32 * K + lane; /* Warp-by-Warp: 32 consecutive words per access */
    uint32_t *col = table + t;
    uint32_t sum[4] = {0, 0, 0, 0}; /* bins 4t .. 4t+3 of this block (a register array) */
    int since = 0;
    size_t db = blockIdx.x;
    for (int r = 0; r < S4_ROWS; r++) col[r * S4_TBS] = 0;
    for (; db < full; db += gridDim.x) { /* main loop: whole data blocks, no range checks */
        const uint32_t *p = words + db * DBS + off;
#pragma unroll
        for (int j = 0; j < K; j += S4_BATCH) {
            uint32_t v[S4_BATCH];
#pragma unroll
            for (int u = 0; u < S4_BATCH; u++)
                if (j + u < K) v[u] = p[32 * (j + u)];
#pragma unroll
            for (int u = 0; u < S4_BATCH; u++)
                if (j + u < K) trish_bin_word<S4_TBS>(col, v[u]);
        }
        if (ROWSUM && ++since == PER) {
            __syncthreads();
            trish_rowsum(table, t, sum);
            __syncthreads();
            since = 0;
        }
    }
    if (db == full && nwords > full * DBS) { /* the partial data block: one block gets it */
        const size_t base = full * DBS + off;  /* since < PER: one more data block still fits */
        for (int j = 0; j < K; j++)
            if (base + 32u * j < nwords) trish_bin_word<S4_TBS>(col, words[base + 32u * j]);
    }
    __syncthreads();
    trish_rowsum(table, t, sum);
    *(uint4 *)(partials + (size_t)blockIdx.x * HIST_BINS + 4 * t) =
        make_uint4(sum[0], sum[1], sum[2], sum[3]);
}

#define S4_INST(K, ROWSUM)                                                                      \
    template __global__ void trish_count_kernel<K, ROWSUM>(const uint32_t *__restrict__ words, size_t nwords, \
                                                           uint32_t *__restrict__ partials);
#define S4_INST9(A)                                                                             \
    S4_INST(A##1, true) S4_INST(A##2, true) S4_INST(A##3, true) S4_INST(A##4, true) S4_INST(A##5, true) \
    S4_INST(A##6, true) S4_INST(A##7, true) S4_INST(A##8, true) S4_INST(A##9, true)
S4_INST(1, true) S4_INST(2, true) S4_INST(3, true) S4_INST(4, true) S4_INST(5, true)
S4_INST(6, true) S4_INST(7, true) S4_INST(8, true) S4_INST(9, true)
S4_INST(10, true) S4_INST9(1) S4_INST(20, true) S4_INST9(2) S4_INST(30, true) S4_INST9(3)
S4_INST(40, true) S4_INST9(4) S4_INST(50, true) S4_INST9(5) S4_INST(60, true)
S4_INST(61, true) S4_INST(62, true) S4_INST(63, true)
S4_INST(S4_K, false)
