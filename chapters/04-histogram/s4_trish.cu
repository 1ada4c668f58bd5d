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
 * plus a write, and row-sums add a quarter to that.
 * The count kernel bins with the exercises' functions, so it is device code only, in
 * s4_trish_dev.cu (nvcc -fatbin, reference/kit_dev.h): this file is its launcher and includes no
 * student file. */
#include <stdio.h>

#include "hist_common.cuh"
#include "kit_dev.h"

#define S4_TBS HIST_TRISH_COLS /* 64 threads, 64 columns */
#define S4_ROWS (HIST_BINS / 4)
#define S4_K 31
#define S4_BATCH 4

/* trish_count_kernel<K, ROWSUM> of s4_trish_dev.cu, by its mangled name, loaded at first use */
extern "C" const unsigned char KIT_DEV_IMAGE(04_histogram, s4_trish_dev)[];
template <int K, bool ROWSUM>
static cudaError_t trish_kernel(const void **kernel)
{
    static char name[64];
    static kit_dev_fn fn = {KIT_DEV_IMAGE(04_histogram, s4_trish_dev), name, 0};
    if (!name[0]) snprintf(name, sizeof name, "_Z18trish_count_kernelILi%dELb%dEEvPKjmPj", K, ROWSUM ? 1 : 0);
    return kit_dev_get(&fn, kernel);
}

/* R > 0: pad the dynamic shared memory so exactly R blocks fit on an SM */
template <int K, bool ROWSUM, int R>
static cudaError_t trish_config(unsigned *resident, size_t *pad)
{
    static unsigned res;
    static size_t bytes;
    const void *kernel;
    KIT_TRY((trish_kernel<K, ROWSUM>(&kernel)));
    if (!res) KIT_TRY(hist_configure(kernel, S4_TBS, 0, R, &res, &bytes));
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
    const void *kernel;
    KIT_TRY(hist_check_args(n, bins)); /* before the occupancy queries */
    KIT_TRY((trish_config<K, ROWSUM, R>(&resident, &pad)));
    KIT_TRY((trish_kernel<K, ROWSUM>(&kernel)));
    return hist_count_and_finish_dev<uint32_t>(kernel, S4_TBS, pad, resident, (size_t)S4_TBS * K, in, n, bins,
                                               scratch, s);
}

template <int K, bool ROWSUM, int R>
static cudaError_t describe_trish(kit_kernel_desc *d)
{
    unsigned resident;
    KIT_TRY((trish_kernel<K, ROWSUM>(&d->func)));
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
