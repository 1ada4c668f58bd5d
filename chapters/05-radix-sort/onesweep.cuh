/* onesweep.cuh - chapter 05's Onesweep machinery (device and host templates), shared by s5_onesweep
 * (its lesson is at the top of s5_onesweep.cu) and s6_skip_digits: the histogram kernel of every
 * pass, the scan of its rows, the look-back, one pass's kernel, the scratch plan, the host driver.
 * A configuration (os_cfg) picks the knobs at compile time; SKIP (s6) adds the route: a one-block
 * kernel after the histograms decides on the GPU which passes run and between which buffers, and
 * the pass kernels of a skipped pass return at once (see s6_skip_digits.cu); for keys alone on all
 * their bits it also has the first pass that runs reserve its places instead of looking back
 * (os_reserve). */
#ifndef ONESWEEP_CUH
#define ONESWEEP_CUH

#include <type_traits>

#include "blocks/lookback.cuh"
#include "blocks/prefetch.cuh"
#include "kit_arch.cuh"
#include "radix_rank.cuh"

enum { OS_VEARLY = 0, OS_VLATE = 1, OS_VSTAGE = 2 }; /* os_cfg's VLATE: where pairs' values wait */
#define OS_HIST_LANES 32 /* the histogram kernel's copies of each counter: one per lane (os_hist_kernel) */

/* The knobs (compile time): threads, keys per thread for 4-byte keys (8-byte keys: 3/4 as many), digit
 * bits, peer finding, counts before or after the ranking, look-back window, blocks per SM the
 * registers are budgeted for (0: from os_minb). */
template <int TBS_, int KPT4_, int DBITS_, int MATCH_, bool EARLY_, int LBW_, int MINB_, bool PERSIST_ = false,
          int SKIP_ = 0, int MEM_ = RK_LD_NC, int HIST_ = OS_HIST_LANES, int PF_ = 0, int VLATE_ = 0,
          bool SWZ_ = false, bool LBFIRST_ = false, int LBWARPS_ = 0, bool RESERVE_ = false>
struct os_cfg {
    static constexpr int TBS = TBS_, KPT4 = KPT4_, DBITS = DBITS_, MATCH = MATCH_, LBW = LBW_, MINB = MINB_;
    /* the histogram kernel's copies of each counter: OS_HIST_LANES (a copy per lane, where the GPU
     * holds that table), 1 (one table a block: CUB's way) */
    static constexpr int HIST = HIST_;
    static constexpr bool EARLY = EARLY_;
    /* persistent blocks (a resident grid, each block loops over tiles): the next tile's keys are
     * loaded while the current tile looks back and scatters (chapter 07's s7 applied to a pass) */
    static constexpr bool PERSIST = PERSIST_;
    /* s6 (OS_SKIP): a pass whose digit every key shares is skipped, decided on the GPU
     * (os_route_kernel).  s7 (OS_SKIP_LEAVE): the same, but a pass block reads its hop before it
     * takes a tile, so that the blocks of a skipped pass leave without the tile counter's atomic
     * (H200, 2^28: 23 us a skipped pass instead of 47; a pass that runs, whose atomic waits on the
     * hop, takes 7-17 us more, 0.7-2 %, by Nsight Compute on f32-normal keys: 0.3 % before the
     * passes looked back first) */
    static constexpr bool SKIP = SKIP_ != 0, LEAVE = SKIP_ == 2;
    /* the keys' and values' memory path (radix_rank.cuh, RK_LD_* | RK_ST_*) */
    static constexpr int MEM = MEM_;
    /* >= 1: a pass block asks L2 for the keys (and values) of the tile a residency / PF ahead (1: the
     * tile whose block starts about when this one ends), so that DRAM keeps streaming while the resident blocks
     * rank, wait on the look-back and scatter (the distance from kit_prefetch_tiles) */
    static constexpr int PF = PF_;
    /* pairs, 0: the values loaded with the keys into registers.  OS_VLATE: loaded after the keys are
     * ranked and in shared memory (in flight during the look-back), each key's rank kept in 16 bits
     * meanwhile: the ranking holds a key's registers only, so a block takes the keys' register
     * budget.  OS_VSTAGE: as OS_VLATE, but the values are copied into the values' exchange buffer by
     * cp.async when the tile's keys are loaded (in flight during the ranking, in no register), and
     * read back from there once the keys are ranked (before sm_80, which has no cp.async: loaded and
     * stored to that buffer by the thread, then ranked) */
    static constexpr int VLATE = VLATE_;
    /* the exchange's slots swizzled (radix_rank.cuh, rk_slot): a key's bank XOR-ed by its row */
    static constexpr bool SWZ = SWZ_;
    /* keys alone (pairs ignore it): a tile looks back as soon as its digit starts are in the counters,
     * before its keys are ranked, not after, so that its inclusive prefixes (what the tiles behind it
     * wait for) are published a ranking earlier; the ranking then waits for the look-back (H200, 2^28
     * 32-bit keys: 2-3 % faster on every four-pass input; pairs 8 % slower, their values waiting
     * longer in registers or shared memory.  Earlier still, right after the counts are published and
     * before the block scan, was 11 % slower: the scan's barriers then wait for the look-back) */
    static constexpr bool LBFIRST = LBFIRST_;
    /* with LBFIRST: 0, the owner of each digit walks back for it (32 digits a warp); n, the block's
     * last n warps walk for all of them, RADIX / 32n digits a lane, from the counts the owners leave
     * in shared memory (H200, 2^28 32-bit keys, four warps of 384 threads: 1 % faster than the owners'
     * eight warps, which all wait for the walk before they rank) */
    static constexpr int LBWARPS = LBWARPS_;
    /* with LBFIRST, keys alone sorted on all their bits: the first pass that runs takes its places by
     * atomics on a cursor per digit instead of looking back (os_reserve; the route kernel starts each
     * cursor at its digit's start): equal keys are the same bits, and the later stable passes order
     * the others, so that pass needs no order among keys of one digit */
    static constexpr bool RESERVE = RESERVE_;
    static_assert(!RESERVE_ || (SKIP_ != 0 && LBFIRST_), "the reserving pass: the route's cursors, the look-back first");
};

#define OS_SKIP 1
#define OS_SKIP_LEAVE 2
/* words between two digits' cursors (os_reserve): a 32-byte sector each.  H200, 2^28 keys: next to
 * each other (256 in 1 KB, a few L2 slices taking every tile's atomics) the reserving pass made s6 2 %
 * slower on uniform keys than the look-back; a sector each (8 KB) or a 128-byte line each (32 KB) made
 * it 1.8 % and 1.6 % faster */
#define OS_CURSOR_STRIDE 8

/* configuration C with its route set to SKIP2, every other knob kept (s7 runs s6's tiles with
 * OS_SKIP_LEAVE, so that the two cannot drift apart: s7 sizes its scratch and picks its tile by s6's) */
template <class C, int SKIP2>
struct os_reroute;
template <int T, int K, int D, int M, bool E, int L, int MB, bool P, int S, int ME, int H, int PF, int VL, bool SW,
          bool LF, int LW, bool RS, int SKIP2>
struct os_reroute<os_cfg<T, K, D, M, E, L, MB, P, S, ME, H, PF, VL, SW, LF, LW, RS>, SKIP2> {
    typedef os_cfg<T, K, D, M, E, L, MB, P, SKIP2, ME, H, PF, VL, SW, LF, LW, RS> type;
};

/* One pass's route (SKIP): whether it runs, where it reads and writes, its epoch (the parity of its
 * place among the passes that run, so that a reader never takes the descriptors of the pass before
 * the one that ran last for published ones). */
struct os_hop {
    const void *src_keys;
    void *dst_keys;
    const uint32_t *src_vals;
    uint32_t *dst_vals;
    /* not NULL: the pass's tiles take their places by atomics on these cursors (one per digit, from
     * the digits' starts), not by the look-back (os_reserve) */
    unsigned *cursor;
    unsigned run, epoch;
};
/* the route of a sort: a hop per pass, and copy = 1 when no pass runs (the input goes to the output) */
template <int MAXP>
struct os_route {
    os_hop hop[MAXP];
    unsigned copy;
};


#define OS_HIST_TBS 256        /* the histogram kernel: threads, keys per thread, blocks per SM */
#define OS_HIST_KPT4 16        /* (8-byte keys: half as many) */
#define OS_HIST_BPS 4
#define OS_VALUE_BITS 29
#define OS_VALUE_MASK ((1u << OS_VALUE_BITS) - 1u)
#define OS_PORTION_MAX OS_VALUE_MASK /* keys per portion: every count fits in 29 bits */

enum : unsigned { OS_AGG = 1, OS_INCL = 2 };

/* keys per thread: 8-byte keys take 3/4 as many (the same key registers, half again the bytes) */
static constexpr __host__ __device__ int os_kpt(int kpt4, int kt)
{
    return kt == RADIX_U64 ? kpt4 * 3 / 4 : kpt4;
}

static __device__ __forceinline__ unsigned os_pack(unsigned kind, unsigned epoch, unsigned value)
{
    return kind << 30 | epoch << 29 | value;
}

/* ------------------------------------------------------- histogram */

/* The digit counts of every pass: block-private shared histograms over a grid-stride range of chunks,
 * added to hist[pass][digit] at the end (hist zeroed by the host).  HC copies of every counter,
 * interleaved (copy c of counter j is word j HC + c): thread t counts into copy t mod HC.  With one
 * copy (CUB's histogram) a warp's shared-memory atomic takes one pass per distinct address in its
 * busiest bank: about 3.2 on uniform keys, up to 32 on few distinct keys; with a copy per lane
 * (HC = 32) lane l always hits bank l: one pass on every input (chapter 04's s7_runs).  Nsight
 * Compute, 2^28 uniform u32 keys, one copy: 0.47 ms on the H100 and on the H200 alike, 162 M warp
 * instructions at 1.34 IPC for 1 GB read (2.3 TB/s): the four atomics a key at 3.2 passes each are
 * the bound (2^30 x 3.2 / 32 warp passes / 132 SMs = 0.8 M clocks).  A copy per lane makes the table
 * 32 times larger (128 KB for 4-byte keys' four digits): one block of 1024 threads an SM; where that
 * does not fit (8-byte keys' eight digits; GPUs of 100 or 64 KB a block), half as many copies, down to
 * 8 (lanes l, l + 8, l + 16, l + 24 share a copy), else one (os_histogram).  Measured the same way on
 * the H100 with 32 copies: 0.373 ms (2.9 TB/s), bank conflicts 72 M -> 0.7 M; 64-bit keys, 16 copies:
 * 0.711 ms (CUB's histogram kernel: 0.454 and 0.892). */
/* digit places of a KT key at DBITS bits a digit: the most passes a sort takes */
template <int KT, int DBITS>
static constexpr __host__ __device__ int os_maxp()
{
    return (int)(8 * sizeof(typename radix_key_t<KT>::type) + DBITS - 1) / DBITS;
}

static constexpr __host__ __device__ int os_hist_kpt(int kt)
{
    return kt == RADIX_U64 ? OS_HIST_KPT4 / 2 : OS_HIST_KPT4;
}

static constexpr __host__ __device__ int os_hist_tbs(int hc)
{
    return hc > 1 ? 1024 : OS_HIST_TBS;
}

/* the shared table's bytes: every pass's counters, HC copies each */
template <int KT, int DBITS, int HC>
static constexpr __host__ __device__ size_t os_hist_smem()
{
    return (size_t)os_maxp<KT, DBITS>() * ((size_t)1 << DBITS) * HC * 4;
}

template <int KT, int DBITS, int HC, bool FULL>
static __device__ __forceinline__ void os_hist_chunk(const typename radix_key_t<KT>::type *__restrict__ keys,
                                                     size_t c0, size_t n, int begin_bit, int end_bit,
                                                     int passes, unsigned *s_h)
{
    constexpr int RADIX = 1 << DBITS, TBS = os_hist_tbs(HC);
    constexpr int MAXP = os_maxp<KT, DBITS>();
    constexpr int HKPT = os_hist_kpt(KT);
    typename radix_key_t<KT>::type k[HKPT];
    unsigned *mine = s_h + threadIdx.x % HC; /* this thread's copy */
#pragma unroll
    for (int i = 0; i < HKPT; i++) { /* block-striped: coalesced */
        const size_t j = c0 + (size_t)i * TBS + threadIdx.x;
        if (FULL || j < n) k[i] = keys[j];
    }
#pragma unroll
    for (int p = 0; p < MAXP; p++) {
        if (p < passes) {
            const int shift = begin_bit + p * DBITS;
            const int bits = end_bit - shift < DBITS ? end_bit - shift : DBITS;
#pragma unroll
            for (int i = 0; i < HKPT; i++) {
                if (FULL || c0 + (size_t)i * TBS + threadIdx.x < n)
                    atomicAdd(mine + (p * RADIX + radix_digit<KT>(k[i], shift, bits)) * HC, 1u);
            }
        }
    }
}

template <int KT, int DBITS, int HC>
__global__ void __launch_bounds__(os_hist_tbs(HC), HC > 1 ? 1 : OS_HIST_BPS)
    os_hist_kernel(const typename radix_key_t<KT>::type *__restrict__ keys, size_t n, int begin_bit,
                   int end_bit, unsigned *__restrict__ hist)
{
    static_assert(HC == 1 || (HC <= 32 && 32 % HC == 0), "one copy, or copies that divide a warp");
    constexpr int RADIX = 1 << DBITS, TBS = os_hist_tbs(HC);
    constexpr size_t CHUNK = (size_t)TBS * os_hist_kpt(KT);
    constexpr int WORDS = (int)(os_hist_smem<KT, DBITS, HC>() / 4);
    extern __shared__ __align__(16) unsigned os_hist_table[];
    unsigned *s_h = os_hist_table;
    const int passes = (end_bit - begin_bit + DBITS - 1) / DBITS;
    for (int j = threadIdx.x; j < WORDS; j += TBS) s_h[j] = 0;
    __syncthreads();
    for (size_t c0 = (size_t)blockIdx.x * CHUNK; c0 < n; c0 += (size_t)gridDim.x * CHUNK) {
        if (n - c0 >= CHUNK) os_hist_chunk<KT, DBITS, HC, true>(keys, c0, n, begin_bit, end_bit, passes, s_h);
        else os_hist_chunk<KT, DBITS, HC, false>(keys, c0, n, begin_bit, end_bit, passes, s_h);
    }
    __syncthreads();
    if constexpr (HC == 1) {
        for (int j = threadIdx.x; j < passes * RADIX; j += TBS)
            if (s_h[j]) atomicAdd(hist + j, s_h[j]);
    } else { /* a warp per counter: lane c reads copy c (a bank each), the warp adds them */
        const unsigned lane = threadIdx.x & 31u;
        for (int j = (int)(threadIdx.x >> 5); j < passes * RADIX; j += TBS / 32) {
            const unsigned v = warp_reduce_redux(lane < (unsigned)HC ? s_h[j * HC + lane] : 0u);
            if (lane == 0 && v) atomicAdd(hist + j, v);
        }
    }
}

/* The histogram kernel with HC copies where its block fits this GPU (or the KIT_DEVICE profile),
 * else with HC / 2 .. 8, else with one, and with one where the keys are fewer than a chunk per block
 * of the resident grid (copies: blocks of 1024; one copy: OS_HIST_BPS blocks of OS_HIST_TBS an SM,
 * no more than the chunks). */
template <int KT, int DBITS, int HC>
static cudaError_t os_histogram(const typename radix_key_t<KT>::type *keys, size_t n, int begin_bit, int end_bit,
                                unsigned *hist, cudaStream_t s)
{
    constexpr size_t smem = os_hist_smem<KT, DBITS, HC>(), chunk = (size_t)os_hist_tbs(HC) * os_hist_kpt(KT);
    const size_t chunks = (n + chunk - 1) / chunk;
    unsigned grid = 0;
    if constexpr (HC > 1) {
        static int memo = 0, attr_dev = 0;
        if (!radix_block_fits(os_hist_kernel<KT, DBITS, HC>, smem, &memo))
            return os_histogram<KT, DBITS, (HC > 8 ? HC / 2 : 1)>(keys, n, begin_bit, end_bit, hist, s);
        KIT_TRY(radix_smem_attr(os_hist_kernel<KT, DBITS, HC>, smem, &attr_dev));
        KIT_TRY(kit_resident_grid((const void *)os_hist_kernel<KT, DBITS, HC>, os_hist_tbs(HC), smem, &grid));
        /* fewer chunks than blocks: the small table (clearing and adding 32 times the counters
         * would cost a small sort more than the bank conflicts it saves) */
        if (chunks < grid) return os_histogram<KT, DBITS, 1>(keys, n, begin_bit, end_bit, hist, s);
    } else {
        const int sms = kit_sm_count();
        if (sms <= 0) return cudaErrorInvalidConfiguration;
        grid = (unsigned)sms * OS_HIST_BPS;
    }
    if (chunks < grid) grid = (unsigned)chunks;
    os_hist_kernel<KT, DBITS, HC><<<grid, os_hist_tbs(HC), smem, s>>>(keys, n, begin_bit, end_bit, hist);
    return cudaGetLastError();
}

/* the scan of a pass's digits: a thread per digit up to 1024 digits, then RADIX / 1024 consecutive
 * digits a thread */
static constexpr __host__ __device__ int os_digit_threads(int dbits)
{
    return dbits > 10 ? 1024 : 1 << dbits;
}

/* block p: the exclusive scan of pass p's histogram = the digits' global starts (portion 0's row) */
template <int DBITS>
__global__ void __launch_bounds__(os_digit_threads(DBITS))
    os_scan_kernel(const unsigned *__restrict__ hist, unsigned *__restrict__ starts, size_t pass_stride)
{
    constexpr int RADIX = 1 << DBITS, T = os_digit_threads(DBITS), DPT = RADIX / T;
    unsigned all;
    if constexpr (DPT == 1) {
        const unsigned e = block_scan32_excl<RADIX, WS_SHFL>(hist[blockIdx.x * RADIX + threadIdx.x], &all);
        starts[blockIdx.x * pass_stride + threadIdx.x] = e;
    } else {
        const unsigned d0 = threadIdx.x * DPT;
        unsigned c[DPT], sum = 0;
#pragma unroll
        for (int j = 0; j < DPT; j++) sum += c[j] = hist[blockIdx.x * RADIX + d0 + j];
        unsigned e = block_scan32_excl<T, WS_SHFL>(sum, &all);
#pragma unroll
        for (int j = 0; j < DPT; j++) {
            starts[blockIdx.x * pass_stride + d0 + j] = e;
            e += c[j];
        }
    }
}

/* SKIP: one block of RADIX threads.  Pass p is trivial when one digit holds all n keys: a stable
 * sort by a digit every key shares moves no key, so the pass is skipped.  The m passes that run
 * alternate between the alternate buffer and the output so that the last of them writes the output,
 * the first reads the input (as radix_make_plan does for all passes); m = 0 leaves the copy to
 * os_copy_kernel.  Written on the GPU, read by the pass kernels: the host never waits.
 * cursor (not NULL where the sort needs no order among equal digits in its first pass: keys alone on
 * all their bits, whose equal keys are the same bits): the first pass that runs takes its places by
 * atomics on it (os_reserve), each digit's cursor starting at the digit's start. */
template <int DBITS, int MAXP>
__global__ void __launch_bounds__(1 << DBITS)
    os_route_kernel(const unsigned *__restrict__ hist, unsigned n, int passes, const void *keys_in,
                    void *keys_out, void *alt_keys, const uint32_t *vals_in, uint32_t *vals_out,
                    uint32_t *alt_vals, os_route<MAXP> *route, unsigned *split, unsigned split_max,
                    const unsigned *__restrict__ starts, size_t pass_stride, unsigned *cursor)
{
    constexpr int RADIX = 1 << DBITS;
    /* no step skips passes of digits wider than a block (the 11-bit rows are s5's, without the route) */
    static_assert(DBITS <= 10, "a thread per digit");
    __shared__ unsigned s_runs[MAXP], s_top[2];
    __shared__ int s_first; /* the pass that reserves its places on the cursors, else -1 */
    if (threadIdx.x < 2) s_top[threadIdx.x] = 0;
    for (int p = 0; p < passes; p++) {
        const int trivial = __syncthreads_or(hist[p * RADIX + threadIdx.x] == n);
        if (threadIdx.x == 0) s_runs[p] = !trivial;
    }
    /* s7 (split given: 32-bit keys alone on all bits, four 8-bit passes): the largest counts of the
     * two top digits */
    if (split) {
        atomicMax(s_top + 0, hist[(passes - 2) * RADIX + threadIdx.x]);
        atomicMax(s_top + 1, hist[(passes - 1) * RADIX + threadIdx.x]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int m = 0, take = 0;
        for (int p = 0; p < passes; p++) m += (int)s_runs[p];
        /* s7's split: when the word at split allows it (s7's sample of the keys' top bits), every
         * pass would run and the largest group of equal top halves, estimated as n x (the top digit's
         * largest share) x (the next digit's), is at most split_max keys, only the two top passes run,
         * into the alternate buffer (the groups' sort reads it there) */
        if (split) {
            take = *split != 0 && m == passes &&
                   (unsigned long long)s_top[0] * s_top[1] <= (unsigned long long)split_max * n;
            *split = (unsigned)take;
            if (take) {
                for (int p = 0; p < passes - 2; p++) s_runs[p] = 0;
                m = 2;
            }
        }
        void *const last = take ? alt_keys : keys_out, *const other = take ? keys_out : alt_keys;
        const void *src_k = keys_in;
        const uint32_t *src_v = vals_in;
        int i = 0; /* the place among the passes that run */
        s_first = -1;
        for (int p = 0; p < passes; p++) {
            os_hop h = {src_k, NULL, src_v, NULL, NULL, s_runs[p], (unsigned)i & 1u};
            if (h.run) {
                const bool to_out = (m - 1 - i) % 2 == 0;
                h.dst_keys = to_out ? last : other;
                h.dst_vals = vals_in ? (to_out ? vals_out : alt_vals) : NULL;
                if (i == 0 && cursor) {
                    h.cursor = cursor;
                    s_first = p;
                }
                src_k = h.dst_keys;
                src_v = h.dst_vals;
                i++;
            }
            route->hop[p] = h;
        }
        route->copy = m == 0;
    }
    __syncthreads();
    if (s_first >= 0) cursor[threadIdx.x * OS_CURSOR_STRIDE] = starts[(size_t)s_first * pass_stride + threadIdx.x];
}

/* SKIP, after the passes: when none ran, the keys (and values) are copied to the output */
template <class K>
__global__ void __launch_bounds__(256)
    os_copy_kernel(const unsigned *copy, const K *__restrict__ keys_in, K *__restrict__ keys_out,
                   const uint32_t *__restrict__ vals_in, uint32_t *__restrict__ vals_out, size_t n)
{
    if (!*copy) return;
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x) {
        keys_out[j] = keys_in[j];
        if (vals_in) vals_out[j] = vals_in[j];
    }
}

/* ------------------------------------------------------- look-back */

/* Thread d of the block owning `tile`: the sum of digit d's counts over the tiles before it.  col:
 * digit d's descriptor of tile 0; tiles are RADIX words apart.  Each round trip reads W predecessors
 * at once (nearest first) and adds them up to the first INCLUSIVE one (done) or to the first one not
 * yet published in this epoch (re-read from there after a pause).  Tile 0 is always INCLUSIVE, so the
 * walk ends; the reads below tile 0 are never made (they stand in as an inclusive 0).
 * The window W: if tiles reach their look-back about d apart and an L2 round trip takes R, the
 * nearest inclusive prefix is about R/d tiles back, and a walk reading W per round trip needs about
 * ceil(R / (W d)) of them: CUB's one at a time ~10 on an H100 (d ~ 30-50 ns per 7680-key tile, R ~
 * 0.3-0.6 us under load), 16 at once ~1.  The ~R/d descriptors must be read anyway, so the extra
 * reads cost little (at most W - 1 words per digit, from L2), and the registers are free by then
 * (the keys are in shared memory; a tile that looks back first, LBFIRST, holds its keys and the
 * window's words together, without spilling in s6's 56 registers: with one digit a lane, or two when
 * four warps walk; one warp with eight digits a lane spills 180 bytes, two with four 20).
 * Measured, the middle wins: 4 beats 16 by 9% and CUB's 1 by 2% (each wider read waits for the
 * slowest of its W descriptors; 16 also spends more L2 requests).  The pause after a read that
 * found nothing new (32 ns, doubled up to 1 us) is not what makes a tile wait: on the H200 a constant
 * 32 ns was level and none at all 0.3-0.8 % faster (s6's keys, 2^28), too little for a walk that
 * takes issue slots from the warps that rank. */
template <int RADIX, int W>
static __device__ __forceinline__ unsigned os_lookback(const unsigned *col, unsigned tile, unsigned epoch)
{
    unsigned excl = 0, pause = 32;
    int j = (int)tile - 1; /* the nearest tile not yet added */
    for (;;) {
        unsigned v[W];
#pragma unroll
        for (int q = 0; q < W; q++)
            v[q] = j - q >= 0 ? lb_load32(col + (size_t)(j - q) * RADIX) : os_pack(OS_INCL, epoch, 0u);
        int used = 0;
        bool stop = false, done = false;
#pragma unroll
        for (int q = 0; q < W; q++) {
            /* kind ^ epoch: 2 = aggregate, 4 = inclusive of this pass; else nothing yet (0 or 1: a
             * cleared word, 3 or 5: the previous pass's) */
            const unsigned x = (v[q] >> 29) ^ epoch;
            if (!stop) {
                if (x == 2u || x == 4u) {
                    excl += v[q] & OS_VALUE_MASK;
                    used++;
                    done = x == 4u;
                    stop = done;
                } else {
                    stop = true;
                }
            }
        }
        if (done) return excl;
        j -= used;
        if (!used) {
            __nanosleep(pause);
            if (pause < 1024) pause *= 2;
        }
    }
}

/* DPT (1, 2 or a multiple of 4) consecutive descriptors, up to 16 bytes at a time (each word is one
 * descriptor: relaxed, like lb_load32 and lb_store32, single-copy atomic per word) */
template <int DPT>
static __device__ __forceinline__ void os_load_n(const unsigned *p, unsigned (&v)[DPT])
{
    static_assert(DPT == 1 || DPT == 2 || DPT % 4 == 0, "1, 2 or 4n descriptors");
    if constexpr (DPT == 1) {
        v[0] = lb_load32(p);
    } else if constexpr (DPT == 2) {
        asm volatile("ld.relaxed.gpu.v2.u32 {%0, %1}, [%2];" : "=r"(v[0]), "=r"(v[1]) : "l"(p) : "memory");
    } else {
#pragma unroll
        for (int c = 0; c < DPT; c += 4)
            asm volatile("ld.relaxed.gpu.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v[c]), "=r"(v[c + 1]), "=r"(v[c + 2]), "=r"(v[c + 3])
                         : "l"(p + c)
                         : "memory");
    }
}

template <int DPT>
static __device__ __forceinline__ void os_store_n(unsigned *p, const unsigned (&v)[DPT])
{
    if constexpr (DPT == 1) {
        lb_store32(p, v[0]);
    } else if constexpr (DPT == 2) {
        asm volatile("st.relaxed.gpu.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v[0]), "r"(v[1]) : "memory");
    } else {
#pragma unroll
        for (int c = 0; c < DPT; c += 4)
            asm volatile("st.relaxed.gpu.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p + c), "r"(v[c]), "r"(v[c + 1]),
                         "r"(v[c + 2]), "r"(v[c + 3])
                         : "memory");
    }
}

/* os_lookback for DPT consecutive digits a thread (digits wider than the block, or a few warps walking
 * for all the digits: os_walk): the W predecessors'
 * DPT descriptors are read together, and the walk steps back over a tile only when every digit not
 * yet done has its descriptor there (each digit's sum still stops at its own nearest inclusive one).
 * The digits not yet done are the bits of a mask, so that a descriptor costs a few instructions: a
 * first version that kept a flag per digit and a stop flag per window compiled to ~40 PTX
 * instructions a descriptor, and one 11-bit pass over 2^26 keys ran 416 M warp instructions; with the
 * mask 315 M (Nsight Compute, H100; an 8-bit pass: 179 M).  One digit a thread keeps os_lookback,
 * whose instructions the ladder's kernels were measured with. */
template <int RADIX, int W, int DPT>
static __device__ __forceinline__ void os_lookback_n(const unsigned *col, unsigned tile, unsigned epoch,
                                                     unsigned (&excl)[DPT])
{
    static_assert(DPT <= 32, "a bit per digit");
    const unsigned em = epoch << 29; /* a descriptor ^ em: bits 31:29 = 2 aggregate, 4 inclusive, of this pass */
    unsigned pending = DPT == 32 ? ~0u : (1u << DPT) - 1u, pause = 32;
    int j = (int)tile - 1; /* the nearest tile not yet added */
    for (;;) {
        unsigned v[W][DPT];
#pragma unroll
        for (int q = 0; q < W; q++) {
            if (j - q >= 0) {
                os_load_n<DPT>(col + (size_t)(j - q) * RADIX, v[q]);
            } else {
#pragma unroll
                for (int c = 0; c < DPT; c++) v[q][c] = os_pack(OS_INCL, epoch, 0u);
            }
        }
        const int j0 = j;
#pragma unroll
        for (int q = 0; q < W; q++) {
            unsigned ready = 0, incl = 0;
#pragma unroll
            for (int c = 0; c < DPT; c++) {
                const unsigned x = (v[q][c] ^ em) >> 29;
                ready |= (unsigned)(x == 2u || x == 4u) << c;
                incl |= (unsigned)(x == 4u) << c;
            }
            if (pending & ~ready) break; /* a digit still to add has nothing here yet */
#pragma unroll
            for (int c = 0; c < DPT; c++)
                if (pending >> c & 1u) excl[c] += v[q][c] & OS_VALUE_MASK;
            pending &= ~incl;
            j--;
            if (!pending) return;
        }
        if (j == j0) {
            __nanosleep(pause);
            if (pause < 1024) pause *= 2;
        }
    }
}

/* A pass that needs no order among the keys of a digit (os_route_kernel's cursor): a tile's place for
 * each of its DPT digits d0 .. d0 + DPT - 1 is taken by an atomic on the digit's cursor, which starts
 * at the digit's start, so that no tile waits on the tiles before it (the place is the output's, the
 * same in every portion: start is taken as 0) */
template <int DPT>
static __device__ __forceinline__ void os_reserve(unsigned *cursor, unsigned d0, const unsigned *mine,
                                                  unsigned (&excl)[DPT])
{
#pragma unroll
    for (int c = 0; c < DPT; c++)
        excl[c] = mine[c] ? atomicAdd(cursor + (d0 + c) * OS_CURSOR_STRIDE, mine[c]) : 0u;
}

/* Thread t owning digits d = t DPT .. t DPT + DPT - 1 (d < RADIX), once the tile's digit counts are
 * published: the exclusive prefix of each digit over the portion's tiles before this one (look-back),
 * then the tile's inclusive prefixes published, and the next portion's starts of the digits left by
 * the portion's last tile; with a cursor, the tile's places reserved instead (os_reserve). */
template <int RADIX, int W, int DPT>
static __device__ __forceinline__ void os_resolve(unsigned *desc, unsigned tile, unsigned epoch,
                                                  const unsigned (&mine)[DPT], const unsigned (&start)[DPT],
                                                  bool last, unsigned *starts_next, unsigned (&excl)[DPT],
                                                  unsigned *cursor)
{
    const unsigned d0 = threadIdx.x * DPT;
    if (cursor) {
        os_reserve<DPT>(cursor, d0, mine, excl);
        return;
    }
#pragma unroll
    for (int c = 0; c < DPT; c++) excl[c] = 0;
    if (tile != 0) { /* tile 0 published its inclusive prefix with its counts */
        if constexpr (DPT == 1) excl[0] = os_lookback<RADIX, W>(desc + d0, tile, epoch);
        else os_lookback_n<RADIX, W, DPT>(desc + d0, tile, epoch, excl);
        unsigned inc[DPT];
#pragma unroll
        for (int c = 0; c < DPT; c++) inc[c] = os_pack(OS_INCL, epoch, excl[c] + mine[c]);
        os_store_n<DPT>(desc + (size_t)tile * RADIX + d0, inc);
    }
    if (starts_next && last) {
#pragma unroll
        for (int c = 0; c < DPT; c++) starts_next[d0 + c] = start[c] + excl[c] + mine[c];
    }
}

/* The owners' part of the offsets of a tile of several digits: each digit's place in the output
 * less its start in the tile (tstart), in s_goff, for the scatter */
template <int RADIX, int W, int DPT>
static __device__ __forceinline__ void os_offsets(bool owner, unsigned *desc, unsigned tile, unsigned epoch,
                                                  const unsigned (&mine)[DPT], const unsigned (&start)[DPT],
                                                  bool last, unsigned *starts_next, const unsigned (&tstart)[DPT],
                                                  unsigned *s_goff, unsigned *cursor)
{
    if (!owner) return;
    unsigned excl[DPT];
    os_resolve<RADIX, W, DPT>(desc, tile, epoch, mine, start, last, starts_next, excl, cursor);
    const unsigned d0 = threadIdx.x * DPT;
#pragma unroll
    for (int j = 0; j < DPT; j++) s_goff[d0 + j] = start[j] + excl[j] - tstart[j];
}

/* The look-back by the block's last LW warps (wl: this warp's place among them), DPT = RADIX / 32 LW
 * digits a lane, from what the owners left in shared memory: each digit's count in the tile (s_mine)
 * and its start less its start in the tile (s_goff).  Publishes the tile's inclusive prefixes and
 * completes s_goff for the scatter; the other warps rank meanwhile. */
template <int RADIX, int W, int LW>
static __device__ __forceinline__ void os_walk(unsigned wl, unsigned lane, unsigned *desc, unsigned tile,
                                               unsigned epoch, const unsigned *s_mine, unsigned *s_goff,
                                               unsigned *cursor)
{
    constexpr int DPT = RADIX / (32 * LW);
    static_assert(DPT >= 1 && DPT * 32 * LW == RADIX, "the walk warps cover the digits");
    const unsigned d0 = (wl * 32u + lane) * DPT;
    unsigned excl[DPT];
    if (cursor) { /* no walk: the places reserved */
        os_reserve<DPT>(cursor, d0, s_mine + d0, excl);
#pragma unroll
        for (int c = 0; c < DPT; c++) s_goff[d0 + c] += excl[c];
        return;
    }
    if (tile == 0) return; /* tile 0 published its inclusive prefixes with its counts */
#pragma unroll
    for (int c = 0; c < DPT; c++) excl[c] = 0;
    if constexpr (DPT == 1) excl[0] = os_lookback<RADIX, W>(desc + d0, tile, epoch);
    else os_lookback_n<RADIX, W, DPT>(desc + d0, tile, epoch, excl);
    unsigned inc[DPT];
#pragma unroll
    for (int c = 0; c < DPT; c++) inc[c] = os_pack(OS_INCL, epoch, excl[c] + s_mine[d0 + c]);
    os_store_n<DPT>(desc + (size_t)tile * RADIX + d0, inc);
#pragma unroll
    for (int c = 0; c < DPT; c++) s_goff[d0 + c] += excl[c];
}

/* ------------------------------------------------------- one pass */

template <int KT, class C>
using os_shape = rk_shape<KT, C::TBS, os_kpt(C::KPT4, KT), C::DBITS>;

/* shared memory: the keys' exchange, the values' exchange, the rank counters, the digits' global
 * offsets for the tile, with RK_MATCH_OR the warps' peer-mask rows (as large as the counters), and
 * for walk warps (LBWARPS) the tile's digit counts */
template <int KT, bool PAIRS, class C>
static constexpr size_t os_smem()
{
    typedef os_shape<KT, C> S;
    return S::EXCH_BYTES + (PAIRS ? (size_t)S::TILE * 4 : 0) + S::CNT_BYTES + (size_t)S::RADIX * 4 +
           (C::MATCH == RK_MATCH_OR ? S::CNT_BYTES : 0) +
           (C::LBFIRST && C::LBWARPS && !PAIRS ? (size_t)S::RADIX * 4 : 0);
}

/* Blocks per SM the register budget (__launch_bounds__) is set for (at most what the target's SM
 * holds: kit_min_blocks; Turing holds two blocks of 384): the arrays a thread holds at
 * the peak (keys, and values or ranks: KPT words each) plus ~36 for the rest, rounded up to 8, then
 * as many blocks as 64 K registers hold, from 2 (1 for 1024 threads) to 4.  The ladder step, 384 x 20
 * 4-byte keys, gets three blocks (56 registers); pairs, 8-byte keys, more keys or late counts two
 * (s6's 384 x 28 keys tile overrides it, MINB = 3: its keys leave their registers item by item, so
 * 56 registers hold it without spilling: skip_digits.cuh).
 * Pairs whose values are loaded late (VLATE) hold no value through the ranking: the keys' budget. */
static constexpr __host__ __device__ int os_minb(int tbs, int kpt, int key_words, bool pairs, bool early,
                                                 bool vlate = false)
{
    const int need = (kpt * (key_words + ((pairs && !vlate) || !early ? 1 : 0)) + 36 + 7) / 8 * 8;
    const int fit = 65536 / (tbs * need), least = tbs > 512 ? 1 : 2;
    return fit < least ? least : fit > 4 ? 4 : fit;
}

template <int KT, bool PAIRS, class C>
static constexpr __host__ __device__ int os_blocks()
{
    return kit_min_blocks(C::TBS, C::MINB ? C::MINB
                                          : os_minb(C::TBS, os_kpt(C::KPT4, KT), KT == RADIX_U64 ? 2 : 1, PAIRS, C::EARLY,
                                                                  C::VLATE != OS_VEARLY));
}

/* One portion of one pass: keys [base, base + len) of kin.  desc: the portion's descriptors
 * (tiles x RADIX), counter: its tile counter, starts: the digits' global starts for the portion,
 * starts_next: where the last tile leaves them for the next portion (NULL for the last portion). */
template <int KT, bool PAIRS, class C>
__global__ void __launch_bounds__(C::TBS, (os_blocks<KT, PAIRS, C>()))
    os_pass_kernel(const typename radix_key_t<KT>::type *__restrict__ kin,
                   typename radix_key_t<KT>::type *__restrict__ kout, const uint32_t *__restrict__ vin,
                   uint32_t *__restrict__ vout, size_t base, unsigned len, int shift, int bits,
                   unsigned epoch, unsigned *desc, unsigned *counter, const unsigned *__restrict__ starts,
                   unsigned *__restrict__ starts_next, const os_hop *__restrict__ hop, unsigned pf)
{
    typedef os_shape<KT, C> S;
    typedef typename S::key K;
    constexpr int TBS = C::TBS, KPT = os_kpt(C::KPT4, KT), NW = S::NW, RADIX = S::RADIX, DBITS = C::DBITS;
    constexpr int MATCH = C::MATCH, LBW = C::LBW, DPT = S::DPT;
    constexpr bool EARLY = C::EARLY, PERSIST = C::PERSIST, PACK = S::PACK;
    static_assert(!PACK || (EARLY && MATCH != RK_MATCH_OR), "wide digits: early counts, ballot or match peers");
    static_assert(!PERSIST || EARLY, "the persistent loop prefetches keys and values together (early counts)");
    constexpr bool VL = PAIRS && C::VLATE != OS_VEARLY; /* values in no register through the ranking */
    constexpr bool VS = PAIRS && C::VLATE == OS_VSTAGE;  /* ... but staged in shared memory meanwhile */
    static_assert(!C::VLATE || (EARLY && !PERSIST), "late values: early counts, one tile a block");
    static_assert(!VL || S::TILE <= 0x10000, "late values: a rank in 16 bits");
    constexpr bool LBF = C::LBFIRST && !PAIRS; /* the look-back before the ranking */
    constexpr int LWW = LBF ? C::LBWARPS : 0;  /* ... by the last LWW warps, else by the owners */
    static_assert(!LWW || (DPT == 1 && LWW < NW && !PERSIST), "walk warps: a digit an owner, warps that rank");
    static_assert(!C::SWZ || EARLY, "swizzled slots: early counts");
    constexpr unsigned TILE = S::TILE;
    extern __shared__ __align__(16) unsigned char os_smem_raw[];
    K *s_keys = reinterpret_cast<K *>(os_smem_raw);
    uint32_t *s_vals = reinterpret_cast<uint32_t *>(os_smem_raw + S::EXCH_BYTES);
    unsigned *s_cnt = reinterpret_cast<unsigned *>(os_smem_raw + S::EXCH_BYTES + (PAIRS ? TILE * 4 : 0));
    unsigned *s_goff = s_cnt + NW * S::CROW;
    unsigned *s_mine = s_goff + RADIX + (MATCH == RK_MATCH_OR ? NW * S::CROW : 0); /* LWW: the tile's counts */
    __shared__ unsigned s_tile, s_next;
    __shared__ int s_single; /* the digit of a full tile whose keys all have it, else -1 */

    const unsigned tid = threadIdx.x, warp = tid >> 5, lane = tid & 31u;
    const unsigned ntiles = (len + TILE - 1) / TILE;
    unsigned *my_cnt = s_cnt + warp * S::CROW;
    unsigned *my_masks = MATCH == RK_MATCH_OR ? s_goff + RADIX + warp * RADIX : nullptr;
    /* SKIP: the route is read first and used last, so that its round trip overlaps the tile
     * counter's and the starts' (harmless in a skipped pass: its counters and starts are its own);
     * LEAVE: a skipped pass's blocks leave before the tile counter */
    [[maybe_unused]] const os_hop h = C::SKIP ? *hop : os_hop{};
    if constexpr (C::LEAVE) {
        if (!h.run) return;
    }
    if (tid == 0) {
        s_tile = atomicAdd(counter, 1u);
        s_single = -1;
    }
#pragma unroll
    for (int j = lane; j < S::CROW; j += 32) {
        my_cnt[j] = 0;
        if constexpr (MATCH == RK_MATCH_OR) my_masks[j] = 0; /* and zero again after every item */
    }
    /* the digits this thread owns in the per-digit work: d0 .. d0 + DPT - 1 (one, d0 = tid, unless
     * the digits are wider than the block) */
    const unsigned d0 = tid * DPT;
    const bool owner = d0 < (unsigned)RADIX;
    unsigned start[DPT];
#pragma unroll
    for (int j = 0; j < DPT; j++) start[j] = owner ? starts[d0 + j] : 0u; /* fetched early */
    unsigned *cur = nullptr; /* the route's cursors: this pass reserves its places (os_reserve) */
    if constexpr (C::SKIP) { /* the route decides: a skipped pass's blocks leave at once */
        if (!h.run) return;
        if constexpr (LBF && C::RESERVE) cur = h.cursor; /* os_sort gives cursors to these kernels only */
        if (cur) {
#pragma unroll
            for (int j = 0; j < DPT; j++) start[j] = 0; /* the cursors are places in the output */
        }
        kin = (const K *)h.src_keys;
        kout = (K *)h.dst_keys;
        if constexpr (PAIRS) {
            vin = h.src_vals;
            vout = h.dst_vals;
        }
        epoch = h.epoch;
    }
    if constexpr ((C::MEM & RK_LD_MASK) == RK_LD_GEN) { /* generic loads (radix_rank.cuh) */
        kin = rk_opaque(kin);
        if constexpr (PAIRS) vin = rk_opaque(vin);
    }
    if constexpr ((C::MEM & RK_ST_GEN) != 0) { /* generic stores */
        kout = rk_opaque(kout);
        if constexpr (PAIRS) vout = rk_opaque(vout);
    }
    __syncthreads();
    unsigned tile = s_tile;
    if (PERSIST && tile >= ntiles) return; /* a resident grid larger than the portion */

    /* early counts: the values are loaded with the keys (in flight while counting and ranking) and
     * stored as soon as their ranks are known; late counts hold ranks instead of values until the
     * keys are stored, then load the values (in flight during the look-back) */
    K k[KPT];
    uint32_t v[PAIRS ? KPT : 1];
    unsigned r[EARLY ? 1 : KPT];
    unsigned rp[VL ? (KPT + 1) / 2 : 1]; /* VL: the keys' ranks, two to a word */
    {
        const unsigned t0 = tile * TILE, tile_n = len - t0 < TILE ? len - t0 : TILE;
        rk_load<KPT, C::MEM>(kin + base + t0, tile_n, tile_n == TILE, radix_pad_key<KT>(), k);
        if constexpr (EARLY && PAIRS && !VL) rk_load<KPT, C::MEM>(vin + base + t0, tile_n, tile_n == TILE, 0u, v);
        if constexpr (VS) rk_stage<KPT>(s_vals, vin + base + t0, tile_n, tile_n == TILE); /* no register */
        if constexpr (C::PF >= 1) { /* the tile pf ahead, one prefetch per 128-byte line (blocks/prefetch.cuh) */
            if (pf && tile + pf < ntiles) {
                const unsigned p0 = (tile + pf) * TILE, p_n = len - p0 < TILE ? len - p0 : TILE;
                prefetch_l2_lines<TBS>(kin + base + p0, p_n);
                if constexpr (PAIRS) prefetch_l2_lines<TBS>(vin + base + p0, p_n);
            }
        }
    }
    for (;;) {
        const unsigned t0 = tile * TILE; /* t0 < len < 2^29 */
        const unsigned tile_n = len - t0 < TILE ? len - t0 : TILE;
        const bool full = tile_n == TILE, last = t0 + TILE >= len;
        const size_t g0 = base + t0; /* the tile's first key in the arrays */
        if (PERSIST && tid == 0) s_next = atomicAdd(counter, 1u); /* read after the barriers below */

        if constexpr (EARLY) rk_count_warp<KT, KPT, PACK>(k, shift, bits, my_cnt);
        else rk_rank_warp<KT, KPT, MATCH, DBITS>(k, shift, bits, my_cnt, r, my_masks); /* warp-local, packed */
        __syncthreads(); /* every warp's counts */

        /* thread t: the counts in the tile of its digits d0 .. d0 + DPT - 1, published at once (tile 0
         * knows its inclusive prefix) */
        unsigned total[DPT], mine[DPT], sum = 0;
        if constexpr (PACK) rk_column_scan_packed<NW, RADIX, DPT>(s_cnt, total);
        else total[0] = rk_column_scan<NW, RADIX>(s_cnt);
#pragma unroll
        for (int j = 0; j < DPT; j++) {
            mine[j] = total[j] - (d0 + j == (1u << bits) - 1u ? TILE - tile_n : 0u); /* less the pads */
            sum += total[j];
        }
        if (owner && !cur) {
            unsigned agg[DPT];
#pragma unroll
            for (int j = 0; j < DPT; j++) agg[j] = os_pack(tile == 0 ? OS_INCL : OS_AGG, epoch, mine[j]);
            os_store_n<DPT>(desc + (size_t)tile * RADIX + d0, agg);
#pragma unroll
            for (int j = 0; j < DPT; j++)
                if (full && total[j] == TILE) s_single = (int)(d0 + j);
        }
        unsigned all, tstart[DPT];
        tstart[0] = block_scan32_excl<TBS, WS_SHFL>(sum, &all); /* its barriers publish s_single */
#pragma unroll
        for (int j = 1; j < DPT; j++) tstart[j] = tstart[j - 1] + total[j - 1];
        const unsigned next = PERSIST ? s_next : ntiles;
        const bool more = next < ntiles;
        const unsigned n0 = next * TILE, next_n = more ? (len - n0 < TILE ? len - n0 : TILE) : 0u;

        if (s_single >= 0) {
            /* one digit (its tile start is 0): the tile goes unchanged to its place */
            if (owner) {
                unsigned excl[DPT];
                os_resolve<RADIX, LBW, DPT>(desc, tile, epoch, mine, start, last, starts_next, excl, cur);
#pragma unroll
                for (int j = 0; j < DPT; j++) s_goff[d0 + j] = start[j] + excl[j];
            }
            __syncthreads();
            const unsigned g = s_goff[s_single] + warp * S::WARP_KEYS + lane;
            if constexpr (VS) rk_unstage<KPT>(s_vals, v); /* this thread's own copies: no barrier */
            else if constexpr (PAIRS && (!EARLY || VL)) rk_load<KPT, C::MEM>(vin + g0, TILE, true, 0u, v);
#pragma unroll
            for (int i = 0; i < KPT; i++) {
                rk_st<C::MEM>(kout + g + i * 32u, k[i]);
                if constexpr (PAIRS) rk_st<C::MEM>(vout + g + i * 32u, v[i]);
            }
            if constexpr (PERSIST) { /* the registers are free: the next tile's loads */
                if (more) {
                    rk_load<KPT, C::MEM>(kin + base + n0, next_n, next_n == TILE, radix_pad_key<KT>(), k);
                    if constexpr (PAIRS) rk_load<KPT, C::MEM>(vin + base + n0, next_n, next_n == TILE, 0u, v);
                }
            }
        } else {
            if constexpr (PACK) rk_column_add_packed<NW, RADIX, DPT>(s_cnt, tstart);
            else rk_column_add<NW, RADIX>(s_cnt, tstart[0]);
            if constexpr (LWW > 0) { /* for the walk warps (the last tile's owners walk: its starts_next) */
                if (owner && !last) {
                    s_goff[d0] = start[0] - tstart[0];
                    s_mine[d0] = mine[0];
                }
            }
            __syncthreads(); /* the counters hold (digit start + warp prefix) */
            if constexpr (LBF) { /* the look-back first: s_goff is read after the exchange's barrier */
                if (LWW == 0 || last)
                    os_offsets<RADIX, LBW, DPT>(owner, desc, tile, epoch, mine, start, last, starts_next, tstart,
                                                s_goff, cur);
                else if constexpr (LWW > 0) {
                    if (warp >= (unsigned)(NW - LWW))
                        os_walk<RADIX, LBW, LWW>(warp - (NW - LWW), lane, desc, tile, epoch, s_mine, s_goff, cur);
                }
#if __CUDA_ARCH__ >= 1200
                /* the warp whole again after its lanes' walks, before the ranking's ballots: without
                 * it CUDA 13.0's ptxas fails this kernel for sm_120 and sm_121 ("Register allocation
                 * failed"); every other target assembles it as it is (sm_75 .. sm_110 checked) */
                __syncwarp();
#endif
            }
            if constexpr (VL) { /* the keys go, their ranks stay; the values are asked for */
                rk_rank_exchange_keep<KT, KPT, MATCH, DBITS, PACK, C::SWZ>(k, shift, bits, my_cnt, s_keys, rp,
                                                                           my_masks);
                if constexpr (VS) rk_unstage<KPT>(s_vals, v); /* written over below, after a barrier */
                else rk_load<KPT, C::MEM>(vin + g0, tile_n, full, 0u, v);
            } else if constexpr (EARLY) {
                rk_rank_exchange<KT, PAIRS, KPT, MATCH, DBITS, PACK, C::SWZ>(k, v, shift, bits, my_cnt, s_keys,
                                                                              s_vals, my_masks);
            } else {
                rk_fixup_exchange<KPT>(k, r, my_cnt, s_keys);
                if constexpr (PAIRS) rk_load<KPT, C::MEM>(vin + g0, tile_n, full, 0u, v);
            }
            if constexpr (PERSIST) { /* keys and values are in shared memory: the next tile's loads */
                if (more) {
                    rk_load<KPT, C::MEM>(kin + base + n0, next_n, next_n == TILE, radix_pad_key<KT>(), k);
                    if constexpr (PAIRS) rk_load<KPT, C::MEM>(vin + base + n0, next_n, next_n == TILE, 0u, v);
                }
            }
            if constexpr (!LBF)
                os_offsets<RADIX, LBW, DPT>(owner, desc, tile, epoch, mine, start, last, starts_next, tstart, s_goff,
                                            cur);
            if constexpr (PAIRS && !EARLY) rk_exchange<KPT>(s_vals, r, v);
            if constexpr (VS) __syncthreads(); /* every thread has read its staged values */
            if constexpr (VL) rk_exchange_packed<KPT>(s_vals, rp, v);
            __syncthreads(); /* the exchange and the offsets complete */
            rk_scatter_out<KT, PAIRS, TBS, KPT, C::MEM, C::SWZ>(s_keys, s_vals, s_goff, tile_n, full, shift, bits,
                                                                kout, vout);
        }
        if (!more) return;
        /* the next tile: everyone is done with this one's shared memory before it is cleared */
        __syncthreads();
        if (tid == 0) s_single = -1;
#pragma unroll
        for (int j = lane; j < S::CROW; j += 32) my_cnt[j] = 0; /* the mask rows are zero after every item */
        __syncthreads();
        tile = next;
    }
}

/* ------------------------------------------------------------ host */

/* scratch, in order: alternate keys (and values); the starts [MAXP][portions][RADIX]; then the part
 * cleared once per sort: histogram [MAXP][RADIX], tile counters [MAXP][portions], descriptors
 * [tiles][RADIX] (each portion's tiles in turn) */
template <int KT, class C>
struct os_plan {
    typedef os_shape<KT, C> S;
    static constexpr int RADIX = S::RADIX;
    static constexpr int MAXP = os_maxp<KT, C::DBITS>();
    static constexpr size_t PORTION = (size_t)(OS_PORTION_MAX / S::TILE) * S::TILE;
    size_t tiles, portions;
    unsigned *starts, *hist, *counters, *desc;
    os_route<MAXP> *route; /* SKIP only (written whole by os_route_kernel every sort) */
    unsigned *cursor;      /* SKIP only: RADIX cursors OS_CURSOR_STRIDE words apart (os_route_kernel) */
    size_t clear_bytes, used;

    os_plan(size_t n, int pairs, void *scratch)
    {
        radix_carve c = {(char *)scratch, radix_alt_bytes(n, KT, pairs)};
        tiles = (n + S::TILE - 1) / S::TILE;
        portions = (n + PORTION - 1) / PORTION;
        starts = (unsigned *)radix_take(&c, (size_t)MAXP * portions * RADIX * 4);
        route = C::SKIP ? (os_route<MAXP> *)radix_take(&c, sizeof(os_route<MAXP>)) : NULL;
        cursor = C::SKIP ? (unsigned *)radix_take(&c, (size_t)RADIX * OS_CURSOR_STRIDE * 4) : NULL;
        const size_t clear_from = c.used;
        hist = (unsigned *)radix_take(&c, (size_t)MAXP * RADIX * 4);
        counters = (unsigned *)radix_take(&c, (size_t)MAXP * portions * 4);
        desc = (unsigned *)radix_take(&c, tiles * RADIX * 4);
        clear_bytes = c.used - clear_from;
        used = c.used;
    }
};

template <int KT, class C>
static size_t os_scratch_t(size_t n, int pairs)
{
    return os_plan<KT, C>(n, pairs, NULL).used;
}

/* 1 when configuration C's pass kernel fits this GPU (else a step with a fallback F takes F) */
template <int KT, bool PAIRS, class C>
static bool os_fits()
{
    static int memo = 0;
    return radix_block_fits(os_pass_kernel<KT, PAIRS, C>, os_smem<KT, PAIRS, C>(), &memo);
}

/* 1 when C's pass kernel gets on this GPU the blocks per SM its registers are budgeted for (os_blocks) */
template <int KT, bool PAIRS, class C>
static bool os_fits_blocks()
{
    static int memo = 0;
    return radix_block_fits(os_pass_kernel<KT, PAIRS, C>, os_smem<KT, PAIRS, C>(), &memo, os_blocks<KT, PAIRS, C>());
}

/* The configuration a sort of key type KT, keys only or pairs, runs: CP for 4-byte keys with values
 * (a tile of their own), C8 for 8-byte keys (keys only and pairs), C otherwise; and F where that
 * one's block does not fit this GPU (F = C: no fallback, the launch is refused with the reason).
 * A second tile for 4-byte keys, C2 for keys alone and CP2 for pairs, other than C or CP, is the one
 * for GPUs whose SM cannot hold C's or CP's blocks at the occupancy its registers are budgeted for
 * (a large tile with fewer blocks on an SM is slower than the smaller one). */
template <int KT, bool PAIRS, class C, class CP, class C8 = C>
using os_pick = typename std::conditional<KT == RADIX_U64, C8,
                                          typename std::conditional<PAIRS, CP, C>::type>::type;

/* the second tile of 4-byte keys (keys alone: C2, pairs: CP2), where there is one */
template <bool PAIRS, class C2, class CP2>
using os_pick2 = typename std::conditional<PAIRS, CP2, C2>::type;
template <int KT, bool PAIRS, class C, class CP, class C2, class CP2>
constexpr bool os_has_2 = KT != RADIX_U64 && (PAIRS ? !std::is_same<CP, CP2>::value : !std::is_same<C, C2>::value);

enum { OS_PICK, OS_PICK_2, OS_PICK_F }; /* os_choice: os_pick's configuration, the second tile, F */
template <int KT, bool PAIRS, class C, class F, class CP, class C8, class CP2, class C2 = C>
static int os_choice()
{
    typedef os_pick<KT, PAIRS, C, CP, C8> U;
    typedef os_pick2<PAIRS, C2, CP2> U2;
    constexpr bool NOF = std::is_same<C, F>::value; /* no fallback: the launch reports what does not fit */
    if constexpr (os_has_2<KT, PAIRS, C, CP, C2, CP2>) {
        if (os_fits_blocks<KT, PAIRS, U>()) return OS_PICK;
        return NOF || os_fits<KT, PAIRS, U2>() ? OS_PICK_2 : OS_PICK_F;
    }
    return NOF || os_fits<KT, PAIRS, U>() ? OS_PICK : OS_PICK_F;
}

template <int KT, bool PAIRS, class C, class F, class CP, class C8, class CP2, class C2>
static size_t os_scratch_pick(size_t n)
{
    typedef os_pick<KT, PAIRS, C, CP, C8> U;
    typedef os_pick2<PAIRS, C2, CP2> U2;
    const int c = os_choice<KT, PAIRS, C, F, CP, C8, CP2, C2>();
    if (c == OS_PICK) return os_scratch_t<KT, U>(n, PAIRS);
    if constexpr (os_has_2<KT, PAIRS, C, CP, C2, CP2>)
        if (c == OS_PICK_2) return os_scratch_t<KT, U2>(n, PAIRS);
    return os_scratch_t<KT, F>(n, PAIRS);
}

template <class C, class F = C, class CP = C, class C8 = C, class CP2 = CP, class C2 = C>
static size_t os_scratch(size_t n, int type, int pairs)
{
    return radix_on_type<RADIX_TYPES_ALL>(type, (size_t)0, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        return pairs ? os_scratch_pick<KT, true, C, F, CP, C8, CP2, C2>(n)
                     : os_scratch_pick<KT, false, C, F, CP, C8, CP2, C2>(n);
    });
}

/* split (s7 only, SKIP, keys alone on all 32 bits): a word on the GPU, 0 (the split vetoed) or not
 * when the sort starts, that the route kernel sets to 1 when it takes s7's split (split_max: the
 * largest group estimate it takes), the top two passes then writing the alternate buffer, else to 0 */
template <int KT, bool PAIRS, class C>
static cudaError_t os_sort(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int begin_bit, int end_bit, void *scratch, cudaStream_t s,
                           unsigned *split = NULL, unsigned split_max = 0)
{
    typedef os_plan<KT, C> P;
    typedef typename P::S::key K;
    constexpr int RADIX = P::RADIX, DBITS = C::DBITS;
    constexpr size_t smem = os_smem<KT, PAIRS, C>();
    static int attr_dev = 0;
    const P pl(n, PAIRS, scratch);
    radix_carve c = {(char *)scratch, 0};
    void *alt_keys = radix_take(&c, n * sizeof(K));
    uint32_t *alt_vals = PAIRS ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    const int sms = kit_sm_count();
    radix_plan rp;
    if (sms <= 0) return cudaErrorInvalidConfiguration;
    KIT_TRY(radix_smem_attr(os_pass_kernel<KT, PAIRS, C>, smem, &attr_dev));
    unsigned pf = 0; /* PF: how many tiles ahead a block prefetches */
    if constexpr (C::PF >= 1) /* a residency / PF ahead (kit_prefetch_tiles) */
        KIT_TRY(kit_prefetch_tiles((const void *)os_pass_kernel<KT, PAIRS, C>, C::TBS, smem,
                                   (size_t)P::S::TILE * (sizeof(K) + (PAIRS ? 4u : 0u)), C::PF, &pf));
    unsigned resident = 0; /* PERSIST: the grid that fits at once (any grid of one block or more is correct) */
    if constexpr (C::PERSIST) KIT_TRY(kit_resident_grid((const void *)os_pass_kernel<KT, PAIRS, C>, C::TBS, smem, &resident));
    radix_make_plan(&rp, keys_in, keys_out, alt_keys, vals_in, vals_out, alt_vals, begin_bit, end_bit, DBITS);

    KIT_TRY(cudaMemsetAsync(pl.hist, 0, pl.clear_bytes, s));
    KIT_TRY((os_histogram<KT, DBITS, C::HIST>((const K *)keys_in, n, begin_bit, end_bit, pl.hist, s)));
    os_scan_kernel<DBITS><<<rp.passes, os_digit_threads(DBITS), 0, s>>>(pl.hist, pl.starts, pl.portions * RADIX);
    KIT_TRY(cudaGetLastError());
    if constexpr (C::SKIP) {
        /* keys alone on all their bits: keys of one digit need no order in the first pass (equal keys
         * are the same bits; the passes after it order them by their other digits), so its tiles
         * reserve their places instead of looking back.  Taken where the look-back comes before the
         * ranking (LBFIRST), whose wait it removes (H200, 2^28: s6 1.6-2.8 % faster on the four-pass
         * inputs); where the look-back follows the ranking (64-bit keys, s6_cfg64) its wait is hidden
         * behind the ranking, and reserving gained nothing measurable (H200, 2^26 and 2^27: s6 / s5
         * 1.011-1.027 reserving, 1.007-1.016 in two runs without) */
        const bool unordered = C::RESERVE && C::LBFIRST && !PAIRS && begin_bit == 0 && end_bit == (int)(8 * sizeof(K));
        os_route_kernel<DBITS, P::MAXP><<<1, RADIX, 0, s>>>(pl.hist, (unsigned)n, rp.passes, keys_in, keys_out,
                                                            alt_keys, vals_in, vals_out, alt_vals, pl.route, split,
                                                            split_max, pl.starts, pl.portions * RADIX,
                                                            unordered ? pl.cursor : NULL);
        KIT_TRY(cudaGetLastError());
    }
    for (int p = 0; p < rp.passes; p++) {
        for (size_t q = 0; q < pl.portions; q++) {
            const size_t base = q * P::PORTION;
            const unsigned len = (unsigned)(n - base < P::PORTION ? n - base : P::PORTION);
            const unsigned tiles = (len + P::S::TILE - 1) / P::S::TILE;
            unsigned *st = pl.starts + ((size_t)p * pl.portions + q) * RADIX;
            os_pass_kernel<KT, PAIRS, C><<<C::PERSIST && resident < tiles ? resident : tiles, C::TBS, smem, s>>>(
                (const K *)rp.src_keys[p], (K *)rp.dst_keys[p], rp.src_vals[p], rp.dst_vals[p], base, len,
                rp.shift[p], rp.bits[p], (unsigned)p & 1u, pl.desc + (base / P::S::TILE) * RADIX,
                pl.counters + (size_t)p * pl.portions + q, st, q + 1 < pl.portions ? st + RADIX : NULL,
                C::SKIP ? (const os_hop *)pl.route + p : NULL, pf); /* hop[] opens the route */
            KIT_TRY(cudaGetLastError());
        }
    }
    if constexpr (C::SKIP) { /* no pass ran: the copy (its blocks leave at once otherwise) */
        const size_t blocks = (n + 255) / 256, most = (size_t)sms * 8;
        os_copy_kernel<K><<<(unsigned)(blocks < most ? blocks : most), 256, 0, s>>>(
            &pl.route->copy, (const K *)keys_in, (K *)keys_out, vals_in, vals_out, n);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

template <class C, class F = C, class CP = C, class C8 = C, class CP2 = CP, class C2 = C>
static cudaError_t os_run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                          size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    return radix_dispatch<RADIX_TYPES_ALL>(type, vals_in != NULL, [&](auto kt, auto pairs) {
        constexpr int KT = decltype(kt)::value;
        constexpr bool PAIRS = decltype(pairs)::value;
        typedef os_pick<KT, PAIRS, C, CP, C8> U;
        typedef os_pick2<PAIRS, C2, CP2> U2;
        const int c = os_choice<KT, PAIRS, C, F, CP, C8, CP2, C2>();
        if (c == OS_PICK)
            return os_sort<KT, PAIRS, U>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, scratch, s);
        if constexpr (os_has_2<KT, PAIRS, C, CP, C2, CP2>)
            if (c == OS_PICK_2)
                return os_sort<KT, PAIRS, U2>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, scratch,
                                              s);
        return os_sort<KT, PAIRS, F>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, scratch, s);
    });
}

/* the main kernel as it runs on this GPU: one pass over u32 keys (u64 keys for the 64-bit table's
 * rows), keys only (its shared memory limit raised too, for the occupancy the caller computes, where
 * it passes 48 KB); C2: the keys' second tile, as os_choice takes it */
template <class C, class F = C, int KT = RADIX_U32, class C2 = C>
static cudaError_t os_describe(kit_kernel_desc *d)
{
    if constexpr (!std::is_same<C, C2>::value || !std::is_same<C, F>::value) {
        const int c = os_choice<KT, false, C, F, C, C, C, C2>(); /* the tile os_run takes for keys alone */
        if (c == OS_PICK_2) return os_describe<C2, F, KT>(d);
        if (c == OS_PICK_F) return os_describe<F, F, KT>(d);
    }
    static int attr_dev = 0;
    constexpr size_t smem = os_smem<KT, false, C>();
    KIT_TRY(radix_smem_attr(os_pass_kernel<KT, false, C>, smem, &attr_dev));
    d->func = (const void *)os_pass_kernel<KT, false, C>;
    d->block_threads = C::TBS;
    d->dyn_smem = smem;
    return cudaSuccess;
}


#endif
