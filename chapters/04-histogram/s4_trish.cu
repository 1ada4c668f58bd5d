/* s4 - TRISH as the document designs it (Brown, ch. 8).
 * Changed versus s3: 8-bit counters packed four per word, so a thread's 256
 * counters take 64 words (256 bytes) and a 64-thread block 16 KB: twice the
 * threads of s3 per SM.  The block's table is 64 rows x 64 columns (row =
 * bin / 4, column = thread), so binning is bank-conflict free for any data.
 *   - Binning (ex04_bin_word): one 32-bit word = 4 bytes, with masks and one
 *     multiply per two bytes instead of per-byte arithmetic (bit-level
 *     parallelism); the four increments stay serial.
 *   - Row-sum (ex04_rowsum): before a counter can pass 255, i.e. after at most
 *     63 words per thread, thread t adds row t (bins 4t .. 4t+3) over the 64
 *     columns into 32-bit sums kept in registers and zeroes it; the start is
 *     staggered (thread t starts at column t) so a warp reads 32 banks, and the
 *     bytes are added as two 16-bit pairs (mask 0x00FF00FF).
 *   - ILP: k words per thread per data block (k = 31: two data blocks of 31
 *     words fit in the 63-word budget, so a row-sum follows every 62 words;
 *     the efficiency is floor(63/k) * k / 63), loaded in batches of 4 and
 *     binned after each batch.
 *   - Column DASk count kernel over a grid of SMs x resident blocks; only the
 *     one partial data block checks ranges; a second kernel adds the per-block
 *     histograms (hist_finish).
 * Why it is faster: no atomics, no bank conflicts, data-independent speed,
 * twice s3's occupancy, several loads in flight per thread.
 * What still limits it on Hopper: 4-byte loads; a batch of 4 words is loaded
 * only after the previous one is binned, so a thread waits for DRAM every 16
 * bytes; 13 blocks of 64 threads per SM (the 16 KB table) leave most of the
 * SM's 228 KB and 2048 thread slots unused; every byte is a shared-memory read
 * plus a write, and row-sums add a quarter to that. */
#include "hist_common.cuh"
#include "trish_bin.cuh"
#include "trish_rowsum.cuh"

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

/* R > 0: pad the dynamic shared memory so exactly R blocks fit on an SM */
template <int K, bool ROWSUM, int R>
static cudaError_t trish_config(unsigned *resident, size_t *pad)
{
    static unsigned res;
    static size_t bytes;
    if (!res) KIT_TRY(hist_configure((const void *)trish_count_kernel<K, ROWSUM>, S4_TBS, 0, R, &res, &bytes));
    *resident = res;
    *pad = bytes;
    return cudaSuccess;
}

template <int K, bool ROWSUM, int R>
static cudaError_t run_trish(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                             cudaStream_t s)
{
    unsigned resident;
    size_t pad;
    KIT_TRY(hist_check_args(n, bins)); /* before the occupancy queries */
    KIT_TRY((trish_config<K, ROWSUM, R>(&resident, &pad)));
    return hist_count_and_finish(trish_count_kernel<K, ROWSUM>, S4_TBS, pad, resident,
                                 (size_t)S4_TBS * K, in, n, bins, scratch, s);
}

template <int K, bool ROWSUM, int R>
static cudaError_t describe_trish(kit_kernel_desc *d)
{
    unsigned resident;
    d->func = (const void *)trish_count_kernel<K, ROWSUM>;
    d->block_threads = S4_TBS;
    return trish_config<K, ROWSUM, R>(&resident, &d->dyn_smem);
}

/* ---- the ladder step: the document's recommendation, k = 31 */
#define STR_(x) #x
#define STR(x) STR_(x)
extern "C" const char hist_s4_param[] = "tbs=" STR(S4_TBS) " k=" STR(S4_K) " batch=" STR(S4_BATCH);

extern "C" cudaError_t hist_s4_trish(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                                     cudaStream_t s)
{
    return run_trish<S4_K, true, 0>(in, n, bins, scratch, s);
}

extern "C" cudaError_t hist_s4_describe(kit_kernel_desc *d)
{
    return describe_trish<S4_K, true, 0>(d);
}

#define S4_FILE "chapters/04-histogram/s4_trish.cu"
#define S4_EX "ex04_bin_word+ex04_rowsum"

/* ---- Fig. 8.7: k = 1..63 words per thread per data block */
#define KV(K)                                                                                    \
    {{"s4_trish", "k=" #K, "k sweep (row-sum every floor(63/k) data blocks)", S4_FILE, S4_EX,    \
      KIT_STEP_GPU, describe_trish<K, true, 0>},                                                 \
     hist_partials_scratch, run_trish<K, true, 0>}
#define KV9(A) KV(A##1), KV(A##2), KV(A##3), KV(A##4), KV(A##5), KV(A##6), KV(A##7), KV(A##8), KV(A##9)

extern "C" const hist_step hist_trish_k_variants[HIST_TRISH_K_NVARIANTS] = {
    KV(1), KV(2), KV(3), KV(4), KV(5), KV(6), KV(7), KV(8), KV(9), KV(10),
    KV9(1), KV(20), KV9(2), KV(30), KV9(3), KV(40), KV9(4), KV(50), KV9(5), KV(60),
    KV(61), KV(62), KV(63),
};

/* ---- TLP: forced resident blocks per SM (the document's 3 / 2 / 1 on Fermi) */
#define RV(R)                                                                                    \
    {{"s4_trish", "k=31 forced=" #R, "forced resident blocks per SM", S4_FILE, S4_EX,           \
      KIT_STEP_GPU, describe_trish<S4_K, true, R>},                                              \
     hist_partials_scratch, run_trish<S4_K, true, R>}

extern "C" const hist_step hist_trish_res_variants[HIST_TRISH_RES_NVARIANTS] = {
    RV(1), RV(2), RV(3), RV(4), RV(5), RV(6), RV(7), RV(8), RV(9), RV(10), RV(11), RV(12), RV(13),
};

/* ---- the row-sum cost: the same kernel without its periodic row-sums (timing only) */
extern "C" cudaError_t hist_s4_norowsum(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                                        cudaStream_t s)
{
    return run_trish<S4_K, false, 0>(in, n, bins, scratch, s);
}

extern "C" cudaError_t hist_s4_norowsum_describe(kit_kernel_desc *d)
{
    return describe_trish<S4_K, false, 0>(d);
}
