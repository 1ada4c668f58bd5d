/* s3 - per-thread histograms of 16-bit counters (Nugteren's method, "NUG").
 * Changed versus s2: no atomics at all.  Every thread owns a private
 * histogram: 256 16-bit counters packed two per 32-bit word, 128 words.  The
 * block's 32 histograms are interleaved in shared memory as 128 rows x 32
 * columns (row = bin / 2, column = thread), so thread t always hits bank t:
 * no two lanes of a warp ever touch the same bank, whatever the data.  Before a
 * counter could pass 65535 (16383 words per thread) and at the end, the block
 * adds its columns into 32-bit sums (8 bins per thread) and zeroes them
 * ("flush"); blocks write partial histograms, hist_finish adds them.
 * Why it is better: speed no longer depends on the data, and results are
 * exact without atomics.
 * What still limits it: a 256-bin histogram of 16-bit counters takes 512 bytes
 * per thread, so a 32-thread block needs 16 KB: only 13 blocks (416 threads)
 * fit on an SM, and each thread has one 4-byte load and one chain of
 * dependent shared-memory updates in flight. */
#include "hist_common.cuh"

#define S3_TBS 32
#define S3_ROWS (HIST_BINS / 2)
#define S3_FLUSH 16383 /* words per thread between flushes: 4 x 16383 <= 65535 */

/* Thread t adds rows 4t .. 4t+3 (bins 8t .. 8t+7) over the 32 columns, starting
 * at its own column so the 32 lanes read 32 different banks, and zeroes them. */
__device__ __forceinline__ void s3_flush(uint32_t (*h)[S3_TBS], uint32_t sum[8])
{
    const unsigned t = threadIdx.x;
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 4; r++) {
        uint32_t *row = h[4 * t + r];
        uint32_t lo = 0, hi = 0;
#pragma unroll 8
        for (unsigned j = 0; j < S3_TBS; j++) {
            const unsigned c = (t + j) & (S3_TBS - 1);
            const uint32_t w = row[c];
            row[c] = 0;
            lo += w & 0xFFFFu;
            hi += w >> 16;
        }
        sum[2 * r] += lo;
        sum[2 * r + 1] += hi;
    }
    __syncthreads();
}

__global__ void __launch_bounds__(S3_TBS)
    hist_thread16_kernel(const uint32_t *__restrict__ words, size_t nwords,
                         uint32_t *__restrict__ partials)
{
    __shared__ uint32_t h[S3_ROWS][S3_TBS];
    const unsigned t = threadIdx.x;
    const size_t ndb = (nwords + S3_TBS - 1) / S3_TBS; /* data blocks of one word per thread */
    uint32_t sum[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned since = 0;
    for (int r = 0; r < S3_ROWS; r++) h[r][t] = 0;
    for (size_t db = blockIdx.x; db < ndb; db += gridDim.x) { /* same trip count for the block */
        const size_t i = db * S3_TBS + t;
        if (i < nwords) {
            const uint32_t w = words[i];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                const uint32_t b = (w >> (8 * k)) & 0xFFu;
                h[b >> 1][t] += 1u << ((b & 1u) << 4);
            }
        }
        if (++since == S3_FLUSH) {
            s3_flush(h, sum);
            since = 0;
        }
    }
    s3_flush(h, sum);
    uint4 *out = (uint4 *)(partials + (size_t)blockIdx.x * HIST_BINS + 8 * t);
    out[0] = make_uint4(sum[0], sum[1], sum[2], sum[3]);
    out[1] = make_uint4(sum[4], sum[5], sum[6], sum[7]);
}

extern "C" cudaError_t hist_s3_thread16(const uint8_t *in, size_t n, uint32_t *bins,
                                        void *scratch, cudaStream_t s)
{
    static unsigned resident;
    static size_t smem;
    KIT_TRY(hist_check_args(n, bins)); /* before the occupancy queries */
    if (!resident)
        KIT_TRY(hist_configure((const void *)hist_thread16_kernel, S3_TBS, 0, 0, &resident, &smem));
    return hist_count_and_finish(hist_thread16_kernel, S3_TBS, smem, resident, S3_TBS, in, n, bins,
                                 scratch, s);
}

KIT_DESCRIBE(hist_s3_describe, hist_thread16_kernel, S3_TBS, 0)
