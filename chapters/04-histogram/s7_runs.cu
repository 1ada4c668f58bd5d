/* s7 - runs and lane copies: shared-memory atomics, CUB's method done better (beyond the document).
 * Changed versus s6: back to privatized shared-memory atomics (s1's idea, CUB's method), kept
 * with s6's input side (16-byte loads, B vectors in flight per thread, Column DASk over data
 * blocks: hist_stream.cuh), and three knobs on what the atomics cost:
 *   - runs: a thread walks its bytes in order keeping (bin, run length) and issues one
 *     atomicAdd(bin, run) per run of equal bytes instead of one per byte (runs=byte,
 *     branch-free: a predicated reduction and a select per byte); the run is carried across the
 *     thread's vectors and flushed at the end.  runs=vec (the ladder's) is the cheap form: when
 *     each of a warp's 32 vectors is 16 equal bytes (one vote per vector), the warp skips its 16
 *     atomics and each thread adds 16 to its run.  runs=off: one atomic per byte;
 *   - lane copies: the block's histogram has C copies interleaved by thread (copy t % C, bin b
 *     of copy c at word b*C + c).  With C = 32 lane l always hits bank l, so every warp atomic
 *     is one shared-memory pass whatever the data; with one copy (s1, CUB) uniform bytes take
 *     3.15 passes on average, images 1.3 to 1.9 (copies=N/warp gives groups of warps their own
 *     256 contiguous counters instead: it separates warps, not lanes);
 *   - layout: a thread's 16-byte vectors 512 bytes apart (layout=strided, s5/s6's: a warp reads
 *     512 contiguous bytes per access) or consecutive in memory (layout=chunk: lane l owns K
 *     consecutive vectors, so runs continue along memory order).
 * The block adds its copies into one partial histogram and hist_finish adds the partials:
 * integer sums, exact and the same whatever order the atomics ran in.
 * Why it is faster: on Hopper a warp's shared-memory atomic costs one pass per distinct address
 * in the busiest bank (equal addresses merge), which is why CUB is slower on uniform bytes
 * than on images and zeros (README, "The bars").  With lane copies every atomic is one pass on
 * every input, images and uniform alike (32 bytes per SM clock, twice s6's ceiling), the loads
 * are 16 bytes with several in flight (CUB loads 4 bytes at a time), and flat data (zeros, flat image
 * regions) needs no atomics at all.  On the synthetic images runs are short (their pixels carry
 * noise: about one byte in ten equals its predecessor), so there the copies do the work.
 * Not atomic-free, and data-dependent by design like CUB: how many atomics a warp issues depends
 * on the runs in the data, and with fewer copies so do the bank conflicts.  The atomic-free
 * steps s3 .. s6 remain the data-independent ones.
 * What still limits it: DRAM, then instruction issue: about 2 integer instructions and one
 * atomic per byte (runs=off or vec), 4 more with runs=byte on data without runs, on an integer
 * pipe of 64 lanes per SM clock; 64 registers for 1024 threads per SM; 32 KB of table per block. */
#include "hist_common.cuh"
#include "hist_stream.cuh"

enum { RUN_off = 0, RUN_byte = 1, RUN_vec = 2 };
enum { BY_lane = 0, BY_warp = 1 };
enum { LAY_strided = 0, LAY_chunk = 1 };

#define RUNS_NO_PERIOD 0x7FFFFFFF /* hist_stream's periodic(): never (32-bit counters) */

__host__ __device__ constexpr int runs_log2(int x)
{
    return x <= 1 ? 0 : 1 + runs_log2(x / 2);
}

/* C copies of the 256 counters of a block, T threads.  Thread t counts bin b
 * into the word at byte address (b << SH) | lp of the table:
 *   by lane: SH = log2(4C), lp = 4 (t % C): bin b of copy c is word b*C + c;
 *   by warp: SH = 2, lp = 1024 (warp % C): copy c is words c*256 .. c*256+255. */
template <int T, int C, int BY, int RUN>
struct runs_body {
    static_assert(C >= 1 && C <= 64 && (C & (C - 1)) == 0, "copies: a power of two up to 64");
    static_assert(BY == BY_lane || (C <= T / 32), "copies by warp: at most one per warp");
    static_assert(T % 256 == 0 && T <= 1024, "256, 512 or 1024 threads");
    static constexpr int SH = BY == BY_lane ? runs_log2(4 * C) : 2;
    uint8_t *table;
    uint32_t sbase; /* the table's shared-memory address (for PTX) */
    uint32_t lp;    /* this thread's copy, OR-ed into every address */
    uint32_t last; /* runs: address of the current run's bin */
    uint32_t run;  /* runs: its length so far (bytes not yet added) */

    __device__ __forceinline__ void init(uint32_t *smem)
    {
        const unsigned t = threadIdx.x;
        table = (uint8_t *)smem;
        sbase = (uint32_t)__cvta_generic_to_shared(smem);
        lp = BY == BY_lane ? 4u * (t % C) : 1024u * ((t >> 5) % C);
        last = lp; /* bin 0, with nothing counted yet */
        run = 0;
        for (unsigned i = t; i < 64u * C; i += T) ((uint4 *)smem)[i] = make_uint4(0, 0, 0, 0);
        __syncthreads();
    }

    /* the address of byte k of w in this thread's copy */
    __device__ __forceinline__ uint32_t addr(uint32_t w, int k) const
    {
        return (((w >> (8 * k)) & 0xFFu) << SH) | lp;
    }

    __device__ __forceinline__ void add(uint32_t a, uint32_t count)
    {
        atomicAdd((uint32_t *)(table + a), count);
    }

    /* one atomic per byte */
    __device__ __forceinline__ void bin_plain(const uint4 &v)
    {
        const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int k = 0; k < 4; k++) add(addr(w[j], k), 1u);
    }

    /* One atomic per run of equal bytes; the pending run enters as `run` bytes
     * of bin `last` and leaves the same way.  With the run's start s <= 0 kept
     * as ns = -s, the run ending before byte p has p + ns bytes.  Branch-free
     * (a predicated reduction and a select per byte), so lanes never diverge:
     *   if (a != prev) { atomicAdd(prev, p + ns); ns = -p; } */
    template <int P>
    __device__ __forceinline__ void run_step(uint32_t a, uint32_t prev, int &ns)
    {
        asm volatile("{\n\t.reg .pred q;\n\t"
                     "setp.ne.u32 q, %1, %2;\n\t"
                     "@q red.shared.add.u32 [%3], %4;\n\t"
                     "selp.b32 %0, %5, %0, q;\n\t}"
                     : "+r"(ns)
                     : "r"(a), "r"(prev), "r"(sbase + prev), "r"(P + ns), "n"(-P)
                     : "memory");
    }

    __device__ __forceinline__ void bin_runs(const uint4 &v)
    {
        const uint32_t w[4] = {v.x, v.y, v.z, v.w};
        uint32_t a[16];
        int ns = (int)run;
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int k = 0; k < 4; k++) a[4 * j + k] = addr(w[j], k);
        run_step<0>(a[0], last, ns);
        run_step<1>(a[1], a[0], ns);
        run_step<2>(a[2], a[1], ns);
        run_step<3>(a[3], a[2], ns);
        run_step<4>(a[4], a[3], ns);
        run_step<5>(a[5], a[4], ns);
        run_step<6>(a[6], a[5], ns);
        run_step<7>(a[7], a[6], ns);
        run_step<8>(a[8], a[7], ns);
        run_step<9>(a[9], a[8], ns);
        run_step<10>(a[10], a[9], ns);
        run_step<11>(a[11], a[10], ns);
        run_step<12>(a[12], a[11], ns);
        run_step<13>(a[13], a[12], ns);
        run_step<14>(a[14], a[13], ns);
        run_step<15>(a[15], a[14], ns);
        last = a[15];
        run = (uint32_t)(16 + ns);
    }

    /* a vector of 16 equal bytes joins the run (or starts one) */
    __device__ __forceinline__ void join_run(uint32_t a)
    {
        if (a != last) {
            if (run) add(last, run);
            last = a;
            run = 0;
        }
        run += 16;
    }

    /* converged warps only (hist_stream's main loop) */
    __device__ __forceinline__ void bin(uint4 v)
    {
        if (RUN == RUN_byte) {
            bin_runs(v);
        } else if (RUN == RUN_vec) {
            const bool flat = v.x == v.y && v.x == v.z && v.x == v.w && v.x == __byte_perm(v.x, 0, 0);
            if (__all_sync(0xFFFFFFFFu, flat)) join_run(addr(v.x, 0));
            else bin_plain(v);
        } else {
            bin_plain(v);
        }
    }

    /* the partial data block: lanes diverge, so no vote */
    __device__ __forceinline__ void bin_tail(uint4 v)
    {
        if (RUN == RUN_byte) bin_runs(v);
        else bin_plain(v);
    }

    __device__ __forceinline__ void periodic() {}

    /* flush the run, then the block's partial histogram: the sum of the C
     * copies of each bin.  G groups of 256 threads share the copies (thread
     * (g, b) adds copies g, g+G, ... of bin b, staggered by b so that the 32
     * lanes of a warp read different banks), then thread b adds the groups. */
    __device__ __forceinline__ void write(uint32_t *partial)
    {
        constexpr int G = T / 256 < C ? T / 256 : C;
        constexpr int PER_G = C / G;
        const unsigned t = threadIdx.x, b = t & 255u, g = t >> 8;
        uint32_t *words = (uint32_t *)table, s = 0;
        if (RUN != RUN_off && run) add(last, run);
        __syncthreads();
        if (g < (unsigned)G) {
#pragma unroll 4
            for (int i = 0; i < PER_G; i++) {
                const unsigned c = g + G * ((i + b) % PER_G);
                s += words[BY == BY_lane ? b * C + c : c * HIST_BINS + b];
            }
        }
        if (G > 1) {
            __syncthreads(); /* every copy read: the table is free */
            if (g < (unsigned)G) words[g * HIST_BINS + b] = s;
            __syncthreads();
            if (t < HIST_BINS) {
                s = 0;
#pragma unroll
                for (int k = 0; k < G; k++) s += words[k * HIST_BINS + t];
            }
        }
        if (t < HIST_BINS) partial[t] = s;
    }
};

template <int T, int K, int B, int C, int BY, int RUN, int LAY>
__global__ void __launch_bounds__(T, T >= 1024 ? 1 : 1024 / T)
    runs_kernel(const uint4 *__restrict__ in, size_t nvec, uint32_t *__restrict__ partials)
{
    static_assert(K >= 1 && B >= 1 && B <= K, "k vectors per data block, batch <= k");
    extern __shared__ uint4 runs_smem[];
    runs_body<T, C, BY, RUN> body;
    body.init((uint32_t *)runs_smem);
    hist_stream<T, K, B, RUNS_NO_PERIOD, LAY == LAY_chunk>(in, nvec, body);
    body.write(partials + (size_t)blockIdx.x * HIST_BINS);
}

template <int T, int K, int B, int C, int BY, int RUN, int LAY>
static cudaError_t runs_config(unsigned *resident, size_t *smem)
{
    static unsigned res;
    static size_t bytes;
    if (!res)
        KIT_TRY(hist_configure((const void *)runs_kernel<T, K, B, C, BY, RUN, LAY>, T,
                               (size_t)C * HIST_BINS * sizeof(uint32_t), 0, &res, &bytes));
    *resident = res;
    *smem = bytes;
    return cudaSuccess;
}

template <int T, int K, int B, int C, int BY, int RUN, int LAY>
static cudaError_t run_runs(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                            cudaStream_t s)
{
    unsigned resident;
    size_t smem;
    KIT_TRY(hist_check_args(n, bins)); /* before the occupancy queries */
    KIT_TRY((runs_config<T, K, B, C, BY, RUN, LAY>(&resident, &smem)));
    return hist_count_and_finish(runs_kernel<T, K, B, C, BY, RUN, LAY>, T, smem, resident,
                                 (size_t)T * K, in, n, bins, scratch, s);
}

template <int T, int K, int B, int C, int BY, int RUN, int LAY>
static cudaError_t describe_runs(kit_kernel_desc *d)
{
    unsigned resident;
    d->func = (const void *)runs_kernel<T, K, B, C, BY, RUN, LAY>;
    d->block_threads = T;
    return runs_config<T, K, B, C, BY, RUN, LAY>(&resident, &d->dyn_smem);
}

/* ---- the ladder step (to be confirmed by the `runs` experiment) */
#define S7_T 512
#define S7_K 8
#define S7_B 4
#define S7_C 32
#define S7_BY lane
#define S7_RUN vec
#define S7_LAY strided
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(x) #x
#define STR(x) STR_(x)
#define S7_ARGS S7_T, S7_K, S7_B, S7_C, CAT(BY_, S7_BY), CAT(RUN_, S7_RUN), CAT(LAY_, S7_LAY)
extern "C" const char hist_s7_param[] = "tbs=" STR(S7_T) " k=" STR(S7_K) "x16B batch=" STR(S7_B)
                                        " copies=" STR(S7_C) "/" STR(S7_BY) " runs=" STR(S7_RUN)
                                        " layout=" STR(S7_LAY);

extern "C" cudaError_t hist_s7_runs(const uint8_t *in, size_t n, uint32_t *bins, void *scratch,
                                    cudaStream_t s)
{
    return run_runs<S7_ARGS>(in, n, bins, scratch, s);
}

extern "C" cudaError_t hist_s7_describe(kit_kernel_desc *d)
{
    return describe_runs<S7_ARGS>(d);
}

/* ---- the `runs` experiment: threads x k x batch x copies x runs x layout */
#define RV(T, K, B, C, BY, RUN, LAY)                                                             \
    {{"s7_runs",                                                                                 \
      "tbs=" #T " k=" #K " batch=" #B " copies=" #C "/" #BY " runs=" #RUN " layout=" #LAY,       \
      "run-length merging, lane-copy variants", "chapters/04-histogram/s7_runs.cu", NULL,         \
      KIT_STEP_GPU, describe_runs<T, K, B, C, BY_##BY, RUN_##RUN, LAY_##LAY>},                   \
     hist_partials_scratch, run_runs<T, K, B, C, BY_##BY, RUN_##RUN, LAY_##LAY>}

extern "C" const hist_step hist_runs_variants[HIST_RUNS_NVARIANTS] = {
    /* the brief's design, one atomic per run of equal bytes, against copies by lane (1 = one
     * block histogram, s1's and CUB's; 32 = one bank per lane; 64 = two warps per copy) */
    RV(512, 8, 4, 1, lane, byte, strided), RV(512, 8, 4, 2, lane, byte, strided),
    RV(512, 8, 4, 4, lane, byte, strided), RV(512, 8, 4, 8, lane, byte, strided),
    RV(512, 8, 4, 16, lane, byte, strided), RV(512, 8, 4, 32, lane, byte, strided),
    RV(512, 8, 4, 64, lane, byte, strided),
    /* ... and copies by warp (the 16 warps of a block in 2 or 4 groups) */
    RV(512, 8, 4, 2, warp, byte, strided), RV(512, 8, 4, 4, warp, byte, strided),
    /* runs: off (an atomic per byte), per vector (warp vote) at 1, 32, 64 copies */
    RV(512, 8, 4, 1, lane, off, strided), RV(512, 8, 4, 1, lane, vec, strided),
    RV(512, 8, 4, 32, lane, off, strided), RV(512, 8, 4, 32, lane, vec, strided),
    RV(512, 8, 4, 64, lane, off, strided), RV(512, 8, 4, 64, lane, vec, strided),
    /* layout: each thread's k vectors consecutive in memory (runs along memory order) */
    RV(512, 4, 4, 32, lane, byte, chunk), RV(512, 8, 4, 32, lane, byte, chunk),
    RV(512, 16, 4, 32, lane, byte, chunk), RV(512, 8, 4, 1, lane, byte, chunk),
    RV(512, 8, 4, 32, lane, vec, chunk), RV(512, 8, 4, 32, lane, off, chunk),
    /* threads per block */
    RV(256, 8, 4, 32, lane, vec, strided), RV(1024, 8, 4, 32, lane, vec, strided),
    RV(256, 8, 4, 32, lane, off, strided), RV(1024, 8, 4, 32, lane, off, strided),
    /* vectors in flight (batch) and per data block (k); batch 8 would spill at 64 registers */
    RV(512, 8, 1, 32, lane, vec, strided), RV(512, 8, 2, 32, lane, vec, strided),
    RV(512, 4, 4, 32, lane, vec, strided), RV(512, 16, 4, 32, lane, vec, strided),
    RV(512, 4, 2, 32, lane, vec, strided), RV(512, 2, 2, 32, lane, vec, strided),
    RV(512, 1, 1, 32, lane, vec, strided),
};
