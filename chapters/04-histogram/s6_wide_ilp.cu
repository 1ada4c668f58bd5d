/* s6 - wide counters, two increments in flight (beyond the document).
 * Changed versus s5: the per-thread counters are 16-bit again (s3's width,
 * 512 bytes per thread) but with s5's machinery (16-byte loads, prefetched
 * batches, Column DASk, packed address arithmetic, 16-byte flush accesses),
 * and each thread updates two counters at once: it loads both, adds 1 to
 * each, adds 1 more to the second when both bytes hit the same counter (the
 * second load then read the value the first store is about to replace), and
 * stores both in order, so the last store to a counter is always right.
 * Why it is faster: 16-bit counters overflow after 65535 increments instead of
 * 255, so the periodic row-sum, a quarter of s5's shared-memory traffic,
 * becomes a flush every 64 KB per thread (never, at 2^30 bytes over a full
 * grid): every byte costs exactly one shared-memory load and one store.  Half
 * the threads fit on an SM (416 of 2048), so latency is hidden by two
 * independent read-modify-write chains per thread instead of by occupancy.
 * Still atomic-free, deterministic and data independent.
 * What still limits it: the two shared-memory slots per byte (at most 16 bytes
 * per SM clock, close to what HBM delivers), and the fix-up instructions. */
#include "hist_common.cuh"
#include "hist_stream.cuh"

/* The table of T threads: 128 rows x T columns of words; the 16-bit counter of
 * bin b for thread t is half b % 2 of word (b / 2) * T + t, i.e. byte address
 * (b / 2) * 4T + 4t + 2 (b % 2) = (b & 0xFE) * (2T - 2) + 2b + 4t. */
template <int T, int ILP>
struct wide_body {
    static_assert(T == 32 || T == 64 || T == 128, "byte addresses must fit 16-bit halves");
    static constexpr int NB = HIST_BINS / T; /* bins per thread in the flush (8, 4, 2) */
    static constexpr int ROWS = NB / 2;      /* rows per thread */
    uint8_t *table;
    uint32_t col2; /* 4t in both halves */
    uint32_t sum[NB];

    __device__ __forceinline__ void init(uint32_t *smem)
    {
        table = (uint8_t *)smem;
        col2 = 4u * threadIdx.x * 0x00010001u;
#pragma unroll
        for (int i = 0; i < NB; i++) sum[i] = 0;
        for (int r = 0; r < HIST_BINS / 2; r++) smem[r * T + threadIdx.x] = 0;
    }

    __device__ __forceinline__ uint16_t *at(uint32_t a)
    {
        return (uint16_t *)(table + a);
    }

    /* two counters, possibly the same one, both + 1 */
    __device__ __forceinline__ void inc2(uint32_t a, uint32_t b)
    {
        uint16_t *pa = at(a), *pb = at(b);
        const uint16_t ca = *pa, cb = *pb;
        *pa = (uint16_t)(ca + 1);
        *pb = (uint16_t)(cb + 1 + (a == b));
    }

    __device__ __forceinline__ void inc4(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3)
    {
        uint16_t *p0 = at(a0), *p1 = at(a1), *p2 = at(a2), *p3 = at(a3);
        const uint16_t c0 = *p0, c1 = *p1, c2 = *p2, c3 = *p3;
        *p0 = (uint16_t)(c0 + 1);
        *p1 = (uint16_t)(c1 + 1 + (a0 == a1));
        *p2 = (uint16_t)(c2 + 1 + (a0 == a2) + (a1 == a2));
        *p3 = (uint16_t)(c3 + 1 + (a0 == a3) + (a1 == a3) + (a2 == a3));
    }

    __device__ __forceinline__ void bin_word(uint32_t w)
    {
        const uint32_t e = w & 0x00FF00FFu;        /* bytes 0 and 2 */
        const uint32_t o = (w >> 8) & 0x00FF00FFu; /* bytes 1 and 3 */
        const uint32_t ae = (e & 0x00FE00FEu) * (2u * T - 2u) + (e << 1) + col2;
        const uint32_t ao = (o & 0x00FE00FEu) * (2u * T - 2u) + (o << 1) + col2;
        const uint32_t a0 = ae & 0xFFFFu, a1 = ao & 0xFFFFu, a2 = ae >> 16, a3 = ao >> 16;
        if (ILP == 4) {
            inc4(a0, a1, a2, a3);
        } else if (ILP == 2) {
            inc2(a0, a1);
            inc2(a2, a3);
        } else {
            ++*at(a0);
            ++*at(a1);
            ++*at(a2);
            ++*at(a3);
        }
    }

    __device__ __forceinline__ void bin(uint4 v)
    {
        bin_word(v.x);
        bin_word(v.y);
        bin_word(v.z);
        bin_word(v.w);
    }

    /* Flush: thread t adds rows ROWS*t .. ROWS*t+ROWS-1 (bins NB*t ..) over the
     * T columns, 4 at a time from its own quad on (8 consecutive lanes read 8
     * different groups of banks), into 32-bit sums, and zeroes them. */
    __device__ __forceinline__ void flush()
    {
        const unsigned t = threadIdx.x;
        __syncthreads();
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            uint4 *quads = (uint4 *)(table + 4 * ((ROWS * t + r) * T));
            uint32_t lo = 0, hi = 0;
#pragma unroll 8
            for (unsigned j = 0; j < T / 4; j++) {
                const unsigned q = (t + j) & (T / 4 - 1);
                const uint4 v = quads[q];
                quads[q] = make_uint4(0, 0, 0, 0);
                lo += (v.x & 0xFFFFu) + (v.y & 0xFFFFu) + (v.z & 0xFFFFu) + (v.w & 0xFFFFu);
                hi += (v.x >> 16) + (v.y >> 16) + (v.z >> 16) + (v.w >> 16);
            }
            sum[2 * r] += lo;
            sum[2 * r + 1] += hi;
        }
        __syncthreads();
    }

    __device__ __forceinline__ void periodic()
    {
        flush();
    }

    __device__ __forceinline__ void write(uint32_t *partial)
    {
        flush();
#pragma unroll
        for (int i = 0; i < NB; i += 2) /* NB consecutive bins per thread */
            *(uint2 *)(partial + NB * threadIdx.x + i) = make_uint2(sum[i], sum[i + 1]);
    }
};

template <int T, int K, int B, int ILP>
__global__ void __launch_bounds__(T, hist_blocks_by_smem(512 * T))
    wide_kernel(const uint4 *__restrict__ in, size_t nvec, uint32_t *__restrict__ partials)
{
    /* a 16-bit counter takes 65535 increments: 4095 vectors of 16 bytes per thread */
    static_assert(K >= 1 && K <= 4095, "k vectors per data block");
    extern __shared__ uint4 wide_smem[];
    wide_body<T, ILP> body;
    body.init((uint32_t *)wide_smem);
    hist_stream<T, K, B, 4095 / K>(in, nvec, body);
    body.write(partials + (size_t)blockIdx.x * HIST_BINS);
}

template <int T, int K, int B, int ILP>
static cudaError_t wide_config(unsigned *resident, size_t *smem)
{
    static unsigned res;
    static size_t bytes;
    if (!res)
        KIT_TRY(hist_configure((const void *)wide_kernel<T, K, B, ILP>, T, 512 * T, 0, &res, &bytes));
    *resident = res;
    *smem = bytes;
    return cudaSuccess;
}

template <int T, int K, int B, int ILP>
static cudaError_t run_wide(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                            cudaStream_t s)
{
    unsigned resident;
    size_t smem;
    KIT_TRY(hist_check_args(n, bins)); /* before the occupancy queries */
    KIT_TRY((wide_config<T, K, B, ILP>(&resident, &smem)));
    return hist_count_and_finish(wide_kernel<T, K, B, ILP>, T, smem, resident, (size_t)T * K, in,
                                 n, bins, scratch, s);
}

template <int T, int K, int B, int ILP>
static cudaError_t describe_wide(kit_kernel_desc *d)
{
    unsigned resident;
    d->func = (const void *)wide_kernel<T, K, B, ILP>;
    d->block_threads = T;
    return wide_config<T, K, B, ILP>(&resident, &d->dyn_smem);
}

/* ---- the ladder step (to be confirmed by the `wide` experiment) */
#define S6_T 32
#define S6_K 8
#define S6_B 4
#define S6_ILP 2
#define STR_(x) #x
#define STR(x) STR_(x)
extern "C" const char hist_s6_param[] = "tbs=" STR(S6_T) " k=" STR(S6_K) "x16B batch=" STR(S6_B)
                                        " ilp=" STR(S6_ILP);

extern "C" cudaError_t hist_s6_wide_ilp(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                                        cudaStream_t s)
{
    return run_wide<S6_T, S6_K, S6_B, S6_ILP>(in, n, bins, scratch, s);
}

extern "C" cudaError_t hist_s6_describe(kit_kernel_desc *d)
{
    return describe_wide<S6_T, S6_K, S6_B, S6_ILP>(d);
}

/* ---- the `wide` experiment: threads x k x batch x increments in flight */
#define WV(T, K, B, I)                                                                           \
    {{"s6_wide_ilp", "tbs=" #T " k=" #K " batch=" #B " ilp=" #I, "16-bit counter variants",      \
      "chapters/04-histogram/s6_wide_ilp.cu", NULL, KIT_STEP_GPU, describe_wide<T, K, B, I>},    \
     hist_partials_scratch, run_wide<T, K, B, I>}

extern "C" const hist_step hist_wide_variants[HIST_WIDE_NVARIANTS] = {
    /* increments in flight per thread: 1 (s5's serial chain), 2, 4 */
    WV(32, 8, 4, 1), WV(32, 8, 4, 2), WV(32, 8, 4, 4),
    WV(64, 8, 4, 1), WV(64, 8, 4, 2), WV(64, 8, 4, 4),
    WV(128, 8, 4, 1), WV(128, 8, 4, 2), WV(128, 8, 4, 4),
    /* vectors in flight (batch) and per data block (k) at 32 threads, ilp 2 */
    WV(32, 8, 1, 2), WV(32, 8, 2, 2), WV(32, 8, 8, 2), WV(32, 4, 2, 2), WV(32, 4, 4, 2),
    WV(32, 16, 4, 2), WV(32, 16, 8, 2), WV(32, 2, 2, 2), WV(32, 1, 1, 2),
    /* the same at 64 threads */
    WV(64, 8, 2, 2), WV(64, 8, 8, 2), WV(64, 4, 4, 2), WV(64, 16, 4, 2), WV(64, 2, 2, 2),
    WV(64, 16, 8, 4),
};
