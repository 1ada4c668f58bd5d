/* s5 - TRISH retuned for Hopper.
 * Changed versus s4, keeping TRISH's design (per-thread packed 8-bit
 * counters, interleaved conflict-free table, row-sums before overflow,
 * deterministic, no atomics):
 *   - 16-byte loads (a warp moves 512 bytes per load), k vectors per thread
 *     per data block, and the next batch of B vectors is loaded before the
 *     current one is binned (hist_stream.cuh): DRAM latency is hidden by
 *     loads in flight instead of by waiting threads;
 *   - with 16 bytes per item the overflow budget is 15 vectors (240 bytes) per
 *     row-sum: the document's floor(63/k) becomes floor(15/k);
 *   - byte-wide updates: a counter is incremented with an 8-bit shared-memory
 *     load, add and store (LDS.U8 / STS.U8) at the byte address
 *     row * 4T + 4t + lane, so the increment is always 1 and no shift is
 *     computed; bytes never carry into their neighbours.  Two byte addresses
 *     come out of one shift, one 3-input logic op and one OR (the thread's
 *     column), in the two 16-bit halves of a register (bit-level parallelism);
 *     the document's word update (1 << 8 * lane) is the upd=word knob;
 *   - the row-sum reads and zeroes 16 bytes per access (4 columns), with the
 *     same staggered start and byte pairs;
 *   - block size, k, batch and blocks per SM are compile-time knobs (the
 *     `hopper` experiment) instead of Fermi's 64 threads x 3 blocks.
 * Why it is faster: the shared-memory pipe (32 lanes per clock per SM) is the
 * bottleneck of any per-thread histogram, and everything else is cut to fit
 * beside it: roughly 6 instructions per byte (PTX), two of them shared-memory accesses.
 * What still limits it: each byte costs a shared-memory load and a store (two
 * lane slots), and the row-sums add another 0.5 slot per byte (64 words read
 * and 64 zeroed per 240 bytes binned): at most ~12.7 bytes per SM clock. */
#include "hist_common.cuh"
#include "hist_stream.cuh"

enum { UPD_byte = 0, UPD_word = 1 };

template <int T>
__host__ __device__ constexpr int log2_of()
{
    return T == 64 ? 6 : T == 128 ? 7 : T == 256 ? 8 : -1;
}

/* The packed table of T threads: 64 rows x T columns of words; the counter of
 * bin b for thread t is byte b % 4 of word (b / 4) * T + t, i.e. byte address
 * (b / 4) * 4T + 4t + b % 4.  The block's 32-bit sums live in registers: thread
 * t keeps bins 4r .. 4r+3 (r = t % 64) of column group t / 64. */
template <int T, int UPD, bool ROWSUM>
struct trish_h_body {
    static constexpr int L = log2_of<T>();
    static_assert(L > 0, "T must be 64, 128 or 256");
    /* in each 16-bit half: the row bits of (b << L) and the lane bits of b */
    static constexpr uint32_t ADDR_MASK = ((0x3Fu << (L + 2)) | 3u) * 0x00010001u;
    uint8_t *table;
    uint32_t col2; /* 4t in both 16-bit halves */
    uint32_t sum[4];

    __device__ __forceinline__ void init(uint32_t *smem)
    {
        table = (uint8_t *)smem;
        col2 = 4u * threadIdx.x * 0x00010001u;
        sum[0] = sum[1] = sum[2] = sum[3] = 0;
        for (int r = 0; r < 64; r++) smem[r * T + threadIdx.x] = 0;
    }

    __device__ __forceinline__ void bin_word(uint32_t w)
    {
        const uint32_t e = w & 0x00FF00FFu;        /* bytes 0 and 2 */
        const uint32_t o = (w >> 8) & 0x00FF00FFu; /* bytes 1 and 3 */
        if (UPD == UPD_byte) {
            const uint32_t ae = (((e << L) | e) & ADDR_MASK) | col2;
            const uint32_t ao = (((o << L) | o) & ADDR_MASK) | col2;
            table[ae & 0xFFFFu]++; /* serial: two bytes may share a counter */
            table[ao & 0xFFFFu]++;
            table[ae >> 16]++;
            table[ao >> 16]++;
        } else {
            const uint32_t sh = (w & 0x03030303u) << 3;
            const uint32_t ae = ((e & 0x00FC00FCu) << L) | col2;
            const uint32_t ao = ((o & 0x00FC00FCu) << L) | col2;
            *(uint32_t *)(table + (ae & 0xFFFFu)) += 1u << (sh & 0xFFu);
            *(uint32_t *)(table + (ao & 0xFFFFu)) += 1u << ((sh >> 8) & 0xFFu);
            *(uint32_t *)(table + (ae >> 16)) += 1u << ((sh >> 16) & 0xFFu);
            *(uint32_t *)(table + (ao >> 16)) += 1u << (sh >> 24);
        }
    }

    __device__ __forceinline__ void bin(uint4 v)
    {
        bin_word(v.x);
        bin_word(v.y);
        bin_word(v.z);
        bin_word(v.w);
    }

    /* Row-sum: thread t adds row t % 64 over its 64 columns, 4 at a time,
     * starting at its own quad (8 consecutive lanes read 8 different groups of
     * 4 banks), and zeroes them. */
    __device__ __forceinline__ void rowsum()
    {
        const unsigned t = threadIdx.x;
        uint4 *quads = (uint4 *)(table + 4 * ((t & 63u) * T + (t >> 6) * 64));
        uint32_t even = 0, odd = 0;
        __syncthreads();
#pragma unroll
        for (unsigned j = 0; j < 16; j++) {
            const unsigned q = (t + j) & 15u;
            const uint4 v = quads[q];
            quads[q] = make_uint4(0, 0, 0, 0);
            even += (v.x & 0x00FF00FFu) + (v.y & 0x00FF00FFu) + (v.z & 0x00FF00FFu) + (v.w & 0x00FF00FFu);
            odd += ((v.x >> 8) & 0x00FF00FFu) + ((v.y >> 8) & 0x00FF00FFu) +
                   ((v.z >> 8) & 0x00FF00FFu) + ((v.w >> 8) & 0x00FF00FFu);
        }
        sum[0] += even & 0xFFFFu;
        sum[1] += odd & 0xFFFFu;
        sum[2] += even >> 16;
        sum[3] += odd >> 16;
        __syncthreads();
    }

    __device__ __forceinline__ void periodic()
    {
        if (ROWSUM) rowsum();
    }

    /* the block's histogram: add the T / 64 column groups, write 256 counts */
    __device__ __forceinline__ void write(uint32_t *partial)
    {
        const unsigned t = threadIdx.x;
        uint32_t *part = (uint32_t *)table; /* the table is all zero now: reuse it */
        rowsum();
        *(uint4 *)(part + (t >> 6) * HIST_BINS + 4 * (t & 63u)) = make_uint4(sum[0], sum[1], sum[2], sum[3]);
        __syncthreads();
        for (unsigned b = t; b < HIST_BINS; b += T) {
            uint32_t s = 0;
#pragma unroll
            for (int g = 0; g < T / 64; g++) s += part[g * HIST_BINS + b];
            partial[b] = s;
        }
    }
};

template <int T, int K, int B, int UPD, bool ROWSUM>
__global__ void __launch_bounds__(T, hist_blocks_by_smem(256 * T))
    trish_h_kernel(const uint4 *__restrict__ in, size_t nvec, uint32_t *__restrict__ partials)
{
    static_assert(K >= 1 && K <= 15, "16 x K bytes per data block must fit a row-sum period");
    extern __shared__ uint4 trish_h_smem[];
    trish_h_body<T, UPD, ROWSUM> body;
    body.init((uint32_t *)trish_h_smem);
    hist_stream<T, K, B, 15 / K>(in, nvec, body);
    body.write(partials + (size_t)blockIdx.x * HIST_BINS);
}

template <int T, int K, int B, int UPD, bool ROWSUM, int R>
static cudaError_t trish_h_config(unsigned *resident, size_t *smem)
{
    static unsigned res;
    static size_t bytes;
    if (!res)
        KIT_TRY(hist_configure((const void *)trish_h_kernel<T, K, B, UPD, ROWSUM>, T, 256 * T, R,
                               &res, &bytes));
    *resident = res;
    *smem = bytes;
    return cudaSuccess;
}

template <int T, int K, int B, int UPD, bool ROWSUM, int R>
static cudaError_t run_trish_h(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                               cudaStream_t s)
{
    unsigned resident;
    size_t smem;
    KIT_TRY(hist_check_args(n, bins)); /* before the occupancy queries */
    KIT_TRY((trish_h_config<T, K, B, UPD, ROWSUM, R>(&resident, &smem)));
    return hist_count_and_finish(trish_h_kernel<T, K, B, UPD, ROWSUM>, T, smem, resident,
                                 (size_t)T * K, in, n, bins, scratch, s);
}

template <int T, int K, int B, int UPD, bool ROWSUM, int R>
static cudaError_t describe_trish_h(kit_kernel_desc *d)
{
    unsigned resident;
    d->func = (const void *)trish_h_kernel<T, K, B, UPD, ROWSUM>;
    d->block_threads = T;
    return trish_h_config<T, K, B, UPD, ROWSUM, R>(&resident, &d->dyn_smem);
}

/* ---- the ladder step (to be confirmed by the `hopper` experiment) */
#define S5_T 64
#define S5_K 15
#define S5_B 3
#define S5_UPD_NAME byte
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define S5_UPD CAT(UPD_, S5_UPD_NAME)
#define STR_(x) #x
#define STR(x) STR_(x)
extern "C" const char hist_s5_param[] = "tbs=" STR(S5_T) " k=" STR(S5_K) "x16B batch=" STR(S5_B)
                                        " upd=" STR(S5_UPD_NAME);

extern "C" cudaError_t hist_s5_trish_hopper(const uint8_t *in, size_t n, uint32_t *bins,
                                            void *scratch, cudaStream_t s)
{
    return run_trish_h<S5_T, S5_K, S5_B, S5_UPD, true, 0>(in, n, bins, scratch, s);
}

extern "C" cudaError_t hist_s5_describe(kit_kernel_desc *d)
{
    return describe_trish_h<S5_T, S5_K, S5_B, S5_UPD, true, 0>(d);
}

extern "C" cudaError_t hist_s5_norowsum(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                                        cudaStream_t s)
{
    return run_trish_h<S5_T, S5_K, S5_B, S5_UPD, false, 0>(in, n, bins, scratch, s);
}

extern "C" cudaError_t hist_s5_norowsum_describe(kit_kernel_desc *d)
{
    return describe_trish_h<S5_T, S5_K, S5_B, S5_UPD, false, 0>(d);
}

/* ---- the `hopper` experiment: threads x k x batch x update x forced blocks per SM */
#define S5_FILE "chapters/04-histogram/s5_trish_hopper.cu"
#define HV(T, K, B, U, R)                                                                        \
    {{"s5_trish_hopper", "tbs=" #T " k=" #K " batch=" #B " upd=" #U " forced=" #R,                \
      "Hopper TRISH variants", S5_FILE, NULL, KIT_STEP_GPU,                                      \
      describe_trish_h<T, K, B, UPD_##U, true, R>},                                              \
     hist_partials_scratch, run_trish_h<T, K, B, UPD_##U, true, R>}

extern "C" const hist_step hist_hopper_variants[HIST_HOPPER_NVARIANTS] = {
    /* k: the 15/k effect (64 threads, batch 3 or what divides k, byte updates) */
    HV(64, 1, 1, byte, 0), HV(64, 2, 2, byte, 0), HV(64, 3, 3, byte, 0), HV(64, 4, 4, byte, 0),
    HV(64, 5, 5, byte, 0), HV(64, 7, 4, byte, 0), HV(64, 8, 4, byte, 0), HV(64, 15, 3, byte, 0),
    /* batch (vectors in flight per thread) at k = 15 and k = 5 */
    HV(64, 15, 1, byte, 0), HV(64, 15, 2, byte, 0), HV(64, 15, 4, byte, 0), HV(64, 15, 5, byte, 0),
    HV(64, 5, 1, byte, 0), HV(64, 5, 2, byte, 0), HV(64, 5, 3, byte, 0), HV(64, 3, 1, byte, 0),
    /* the document's word update (1 << 8 * lane) */
    HV(64, 15, 3, word, 0), HV(64, 5, 5, word, 0), HV(128, 15, 3, word, 0), HV(64, 3, 3, word, 0),
    /* block size */
    HV(128, 15, 3, byte, 0), HV(128, 5, 5, byte, 0), HV(128, 3, 3, byte, 0), HV(128, 15, 1, byte, 0),
    HV(256, 15, 3, byte, 0), HV(256, 5, 5, byte, 0), HV(256, 3, 3, byte, 0), HV(256, 15, 1, byte, 0),
    /* TLP: forced blocks per SM at 64 threads (13 is the most 16 KB tables allow) */
    HV(64, 15, 3, byte, 1), HV(64, 15, 3, byte, 2), HV(64, 15, 3, byte, 3), HV(64, 15, 3, byte, 4),
    HV(64, 15, 3, byte, 6), HV(64, 15, 3, byte, 8), HV(64, 15, 3, byte, 10), HV(64, 15, 3, byte, 12),
    HV(64, 5, 5, byte, 4), HV(64, 5, 5, byte, 8), HV(64, 5, 5, byte, 10), HV(64, 5, 5, byte, 12),
    /* ... and at 128 threads (6 fit) */
    HV(128, 15, 3, byte, 2), HV(128, 15, 3, byte, 3), HV(128, 15, 3, byte, 4), HV(128, 15, 3, byte, 5),
    HV(128, 5, 5, byte, 2), HV(128, 5, 5, byte, 3), HV(128, 5, 5, byte, 4), HV(128, 5, 5, byte, 5),
};
