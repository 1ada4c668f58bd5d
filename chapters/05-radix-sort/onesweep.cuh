/* onesweep.cuh - chapter 05's Onesweep machinery (device and host templates), shared by s5 to s11
 * (s5's lesson is at the top of s5_onesweep.cu): the tile policies, the histogram kernel of every
 * pass, the scan of its rows, the route, the look-back, one pass's kernel, the scratch plan, the
 * host driver.  A tile (os_tile and its os_with_* variants) picks the knobs at compile time; the
 * route (s6) is a one-block kernel after the histograms that decides on the GPU which passes run and
 * between which buffers, the pass kernels of a skipped pass returning at once (s6_skip_digits.cu);
 * for keys alone on all their bits it can also have the first pass that runs reserve its places
 * instead of looking back (os_reserve, s8). */
#ifndef ONESWEEP_CUH
#define ONESWEEP_CUH

#include <type_traits>

#include "blocks/lookback.cuh"
#include "blocks/prefetch.cuh"
#include "kit_arch.cuh"
#include "radix_rank.cuh"

#define OS_HIST_LANES 32 /* the histogram kernel's copies of each counter: one per lane (os_hist_kernel) */

/* where a pairs sort's values wait while their keys are ranked (os_tile::values) */
enum { OS_VALUES_WITH_KEYS = 0, OS_VALUES_LATE = 1, OS_VALUES_STAGED = 2 };
/* the route (os_tile::route): none (s5); a pass whose digit every key shares is skipped, decided on
 * the GPU (os_route_kernel, s6); the same, the blocks of a skipped pass leaving before they take a
 * tile (s11, two of whose four passes are skipped wherever its split runs) */
enum { OS_ROUTE_NONE = 0, OS_ROUTE_SKIP = 1, OS_ROUTE_SKIP_LEAVE = 2 };

/* One pass's tile, every knob by name, set at compile time.  os_tile is s5's tile of 4-byte keys;
 * a step's tiles derive from it and change what differs, one knob a step (s5_onesweep.cu,
 * skip_digits.cuh), and each tuning row changes one knob of its step's tile (os_with_* below). */
struct os_tile {
    static constexpr int threads = 384;
    static constexpr int keys_per_thread = 20; /* for 4-byte keys; 8-byte keys 3/4 as many (os_kpt) */
    static constexpr int digit_bits = 8;
    static constexpr int peers = RK_MATCH_BALLOT; /* how a key finds its warp's peers (radix_rank.cuh) */
    /* the tile's digits counted before the ranking, on counters that then rank ("early counts"), or
     * after it as in s4 */
    static constexpr bool counts_first = true;
    static constexpr int lookback_window = 4; /* descriptors read a round trip (os_lookback) */
    static constexpr int blocks_per_sm = 0;   /* the blocks the registers are budgeted for; 0: os_minb */
    /* persistent blocks (a resident grid, each block loops over tiles): the next tile's keys are
     * loaded while the current tile looks back and scatters (chapter 07's s7 applied to a pass) */
    static constexpr bool persistent = false;
    static constexpr int route = OS_ROUTE_NONE;
    static constexpr int memory = RK_LD_NC | RK_ST_GEN; /* the keys' and values' path (RK_LD_*, RK_ST_*) */
    /* the histogram kernel's copies of each counter: OS_HIST_LANES (a copy per lane, where the GPU
     * holds that table), 1 (one table a block: CUB's way) */
    static constexpr int hist_copies = OS_HIST_LANES;
    /* >= 1: a pass block asks L2 for the keys (and values) of the tile a residency / prefetch ahead
     * (1: the tile whose block starts about when this one ends), so that DRAM keeps streaming while
     * the resident blocks rank, wait on the look-back and scatter (kit_prefetch_tiles) */
    static constexpr int prefetch = 0;
    /* pairs, OS_VALUES_WITH_KEYS: the values loaded with the keys into registers.  OS_VALUES_LATE:
     * loaded after the keys are ranked and in shared memory (in flight during the look-back), each
     * key's rank kept in 16 bits meanwhile: the ranking holds a key's registers only, so a block takes
     * the keys' register budget.  OS_VALUES_STAGED: as late, but the values are copied into the
     * values' exchange buffer by cp.async when the tile's keys are loaded (in flight during the
     * ranking, in no register), and read back from there once the keys are ranked (before sm_80,
     * which has no cp.async: loaded and stored to that buffer by the thread, then ranked) */
    static constexpr int values = OS_VALUES_WITH_KEYS;
    static constexpr bool swizzle = false; /* the exchange's slots: a key's bank XOR-ed by its row (rk_slot) */
    /* keys alone (pairs ignore it): a tile looks back as soon as its digit starts are in the counters,
     * before its keys are ranked, not after, so that its inclusive prefixes (what the tiles behind it
     * wait for) are published a ranking earlier; the ranking then waits for the look-back (s7).
     * Earlier still, before the block scan, the scan's barriers would wait for the look-back */
    static constexpr bool lookback_first = false;
    /* with lookback_first: 0, the owner of each digit walks back for it (32 digits a warp); n, the
     * block's last n warps walk for all of them, RADIX / 32n digits a lane, from the counts the owners
     * leave in shared memory, while the others rank */
    static constexpr int walk_warps = 0;
    /* with lookback_first and the route, keys alone sorted on all their bits: the first pass that runs
     * takes its places by atomics on a cursor per digit instead of looking back (os_reserve, s8) */
    static constexpr bool reserve = false;
};

/* whether tile C's passes follow the route (os_route_kernel) */
template <class C>
constexpr bool os_routed = C::route != OS_ROUTE_NONE;

/* Tile B with one knob changed (the tuning rows, and each step's tile from the step before) */
template <class B, int THREADS, int KEYS>
struct os_with_shape : B {
    static constexpr int threads = THREADS, keys_per_thread = KEYS;
};
template <class B, int BITS>
struct os_with_digits : B {
    static constexpr int digit_bits = BITS;
};
template <class B, int PEERS>
struct os_with_peers : B {
    static constexpr int peers = PEERS;
};
template <class B>
struct os_with_counts_last : B {
    static constexpr bool counts_first = false;
};
template <class B, int WINDOW>
struct os_with_window : B {
    static constexpr int lookback_window = WINDOW;
};
template <class B, int BLOCKS>
struct os_with_blocks : B {
    static constexpr int blocks_per_sm = BLOCKS;
};
template <class B>
struct os_with_persistence : B {
    static constexpr bool persistent = true;
};
template <class B, int ROUTE>
struct os_with_route : B {
    static constexpr int route = ROUTE;
};
template <class B, int MEMORY>
struct os_with_memory : B {
    static constexpr int memory = MEMORY;
};
template <class B, int COPIES>
struct os_with_hist : B {
    static constexpr int hist_copies = COPIES;
};
template <class B, int AHEAD>
struct os_with_prefetch : B {
    static constexpr int prefetch = AHEAD;
};
template <class B, int VALUES>
struct os_with_values : B {
    static constexpr int values = VALUES;
};
template <class B>
struct os_with_swizzle : B {
    static constexpr bool swizzle = true;
};
template <class B, int WALK_WARPS>
struct os_with_lookback_first : B {
    static constexpr bool lookback_first = true;
    static constexpr int walk_warps = WALK_WARPS;
};
template <class B>
struct os_with_reserve : B {
    static_assert(B::route != OS_ROUTE_NONE && B::lookback_first,
                  "the reserving pass: the route's cursors, the look-back first");
    static constexpr bool reserve = true;
};

/* s5's tiles (s5_onesweep.cu says why each), from which the later steps' tiles derive: 4-byte keys
 * (os_tile), their fallback where a block gets less shared memory than that tile needs, 4-byte
 * pairs (384 x 31, the values staged), the pairs' tile where an SM cannot hold two of those, 8-byte
 * keys (512 threads x 12) */
typedef os_tile s5_keys_tile;
typedef os_with_shape<os_tile, 384, 10> s5_small_tile;
typedef os_with_window<os_with_shape<os_tile, 384, 23>, 1> s5_pairs23_tile;
typedef os_with_values<os_with_window<os_with_shape<os_tile, 384, 31>, 1>, OS_VALUES_STAGED> s5_pairs_tile;
typedef os_with_shape<os_tile, 512, 16> s5_keys64_tile;

/* words between two digits' cursors (os_reserve): a 32-byte sector each; side by side, the 256
 * cursors would put every tile's atomics on a few L2 slices (README: s8) */
#define OS_CURSOR_STRIDE 8

/* One pass's route (a routed tile): whether it runs, where it reads and writes, its epoch (the parity of its
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
 * (HC = 32) lane l always hits bank l: one pass on every input (chapter 04's s7_runs).  With one
 * copy the four atomics a key at 3.2 passes each are the bound (Nsight Compute; the tuning table's
 * hist=1 row).  A copy per lane makes the table
 * 32 times larger (128 KB for 4-byte keys' four digits): one block of 1024 threads an SM; where that
 * does not fit (8-byte keys' eight digits; GPUs of 100 or 64 KB a block), half as many copies, down to
 * 8 (lanes l, l + 8, l + 16, l + 24 share a copy), else one (os_histogram). */
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

/* The route: one block of RADIX threads.  Pass p is trivial when one digit holds all n keys: a stable
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
    /* s11 (split given: 32-bit keys alone on all bits, four 8-bit passes): the largest counts of the
     * two top digits */
    if (split) {
        atomicMax(s_top + 0, hist[(passes - 2) * RADIX + threadIdx.x]);
        atomicMax(s_top + 1, hist[(passes - 1) * RADIX + threadIdx.x]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int m = 0, take = 0;
        for (int p = 0; p < passes; p++) m += (int)s_runs[p];
        /* s11's split: when the word at split allows it (s11's sample of the keys' top bits), every
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

/* The route, after the passes: when none ran, the keys (and values) are copied to the output */
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
 * ceil(R / (W d)) of them: for CUB's one at a time about ten under load, for 16 at once about one.
 * The ~R/d descriptors must be read anyway, so the extra
 * reads cost little (at most W - 1 words per digit, from L2), and the registers are free by then
 * (the keys are in shared memory; a tile that looks back first (lookback_first) holds its keys and the
 * window's words together, without spilling in 56 registers: with one digit a lane, or two when
 * four warps walk; one warp with eight digits a lane spills 180 bytes, two with four 20).
 * Measured, the middle wins: 4 beats 16 and CUB's 1 (the tuning table; each wider read waits for the
 * slowest of its W descriptors, and 16 also spends more L2 requests).  The pause after a read that
 * found nothing new (a nanosleep of 32 ns, doubled up to 1 us) is not what makes a tile
 * wait: a constant pause or none at all measured level, too little for a walk that takes issue
 * slots from the warps that rank. */
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
 * instructions a descriptor and issued far more warp instructions a pass (Nsight Compute).  One digit
 * a thread keeps os_lookback, whose instructions the ladder's kernels were measured with. */
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
using os_shape = rk_shape<KT, C::threads, os_kpt(C::keys_per_thread, KT), C::digit_bits>;

/* shared memory: the keys' exchange, the values' exchange, the rank counters, the digits' global
 * offsets for the tile, with RK_MATCH_OR the warps' peer-mask rows (as large as the counters), and
 * for walk warps (walk_warps) the tile's digit counts */
template <int KT, bool PAIRS, class C>
static constexpr size_t os_smem()
{
    typedef os_shape<KT, C> S;
    return S::EXCH_BYTES + (PAIRS ? (size_t)S::TILE * 4 : 0) + S::CNT_BYTES + (size_t)S::RADIX * 4 +
           (C::peers == RK_MATCH_OR ? S::CNT_BYTES : 0) +
           (C::lookback_first && C::walk_warps && !PAIRS ? (size_t)S::RADIX * 4 : 0);
}

/* Blocks per SM the register budget (__launch_bounds__) is set for (at most what the target's SM
 * holds: kit_min_blocks; Turing holds two blocks of 384): the arrays a thread holds at
 * the peak (keys, and values or ranks: KPT words each) plus ~36 for the rest, rounded up to 8, then
 * as many blocks as 64 K registers hold, from 2 (1 for 1024 threads) to 4.  The ladder step, 384 x 20
 * 4-byte keys, gets three blocks (56 registers); pairs, 8-byte keys, more keys or late counts two
 * (s10's 384 x 28 keys tile overrides it, blocks_per_sm = 3: its keys leave their registers item by item, so
 * 56 registers hold it without spilling: skip_digits.cuh).
 * Pairs whose values are loaded late (os_tile::values) hold no value through the ranking: the keys' budget. */
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
    return kit_min_blocks(C::threads, C::blocks_per_sm
                                          ? C::blocks_per_sm
                                          : os_minb(C::threads, os_kpt(C::keys_per_thread, KT), KT == RADIX_U64 ? 2 : 1,
                                                    PAIRS, C::counts_first, C::values != OS_VALUES_WITH_KEYS));
}

/* One pass over one portion of the keys, [base, base + len) of kin, as the phases a tile goes
 * through; os_pass_kernel below runs them in order (CUB's onesweep agent has the same shape):
 *   enter         the block takes a tile, clears its counters, fetches its digits' starts and, on a
 *                 routed pass, its buffers (or leaves: the pass is skipped, or no tile is left)
 *   load          the tile's keys, and the values that travel with them, into registers
 *   count         each warp's digit counts (early counts), or its keys ranked within the warp (late)
 *   publish       the counts scanned across the warps; the tile's counts published for the tiles
 *                 after it; each digit's start in the tile
 *   one digit     a full tile whose keys all share one digit goes unchanged to its place
 *   digit starts  otherwise each warp's counters turned into its keys' first places in the tile
 *   look back     each digit's place in the output from the tiles before this one (or reserved by
 *                 atomics); before the ranking with lookback_first, else after it
 *   rank          the keys (and values) ranked in the tile and exchanged through shared memory
 *   scatter       the exchanged keys (and values) stored at their places
 * desc: the portion's descriptors (tiles x RADIX), counter: its tile counter, starts: the digits'
 * global starts for the portion, starts_next: where the last tile leaves them for the next portion
 * (NULL for the last portion). */
template <int KT, bool PAIRS, class C>
struct os_pass {
    typedef os_shape<KT, C> S;
    typedef typename S::key K;
    static constexpr int TBS = C::threads, KPT = os_kpt(C::keys_per_thread, KT), NW = S::NW, RADIX = S::RADIX,
                         DBITS = C::digit_bits;
    static constexpr int MATCH = C::peers, WINDOW = C::lookback_window, DPT = S::DPT;
    static constexpr bool COUNTS_FIRST = C::counts_first, PERSISTENT = C::persistent, PACK = S::PACK;
    static_assert(!PACK || (COUNTS_FIRST && MATCH != RK_MATCH_OR), "wide digits: early counts, ballot or match peers");
    static_assert(!PERSISTENT || COUNTS_FIRST,
                  "the persistent loop prefetches keys and values together (early counts)");
    static constexpr bool VALUES_LATE =
        PAIRS && C::values != OS_VALUES_WITH_KEYS; /* values in no register through the ranking */
    static constexpr bool VALUES_STAGED =
        PAIRS && C::values == OS_VALUES_STAGED; /* ... but staged in shared memory meanwhile */
    static_assert(!C::values || (COUNTS_FIRST && !PERSISTENT), "late values: early counts, one tile a block");
    static_assert(!VALUES_LATE || S::TILE <= 0x10000, "late values: a rank in 16 bits");
    static constexpr bool LOOK_BACK_FIRST = C::lookback_first && !PAIRS; /* the look-back before the ranking */
    static constexpr int WALK_WARPS =
        LOOK_BACK_FIRST ? C::walk_warps : 0; /* ... by the last WALK_WARPS warps, else by the owners */
    static_assert(!WALK_WARPS || (DPT == 1 && WALK_WARPS < NW && !PERSISTENT),
                  "walk warps: a digit an owner, warps that rank");
    static_assert(!C::swizzle || COUNTS_FIRST, "swizzled slots: early counts");
    static constexpr unsigned TILE = S::TILE;

    /* the pass (a routed pass takes its buffers and epoch from the route) */
    const K *kin;
    K *kout;
    const uint32_t *vin;
    uint32_t *vout;
    const size_t base;
    const unsigned len;
    const int shift, bits;
    unsigned epoch;
    unsigned *const desc;
    const unsigned *const starts;
    unsigned *const starts_next;
    /* shared memory: the exchanges, the warps' counters, the digits' offsets, the walk warps'
     * counts, the tile's number, the next tile's, and the digit of a one-digit tile (else -1) */
    K *const s_keys;
    uint32_t *const s_vals;
    unsigned *const s_cnt, *const s_goff, *const s_mine;
    unsigned *const s_tile, *const s_next;
    int *const s_single;
    /* this thread: its warp's counter row (and peer-mask row), the digits it owns in the per-digit
     * work, d0 .. d0 + DPT - 1 (one, d0 = tid, unless the digits are wider than the block), their
     * global starts, and the route's cursors where this pass reserves its places (os_reserve) */
    const unsigned tid, warp, lane, ntiles;
    unsigned *const my_cnt, *const my_masks;
    unsigned d0;
    bool owner;
    unsigned (&start)[DPT];
    unsigned *cur = nullptr;
    /* the tile: its number, first key (t0 < len < 2^29), keys, whether it is full and the portion's
     * last, its first key in the arrays; the next tile (persistent blocks) */
    unsigned tile, t0, tile_n;
    bool full, last;
    size_t g0;
    unsigned next, n0, next_n;
    bool more;
    /* The registers a thread holds through a tile, each array declared by os_pass_kernel as an
     * object of its own (as separate objects, not one, the compiler keeps each in registers as soon
     * as it can).  Early counts: the values are loaded with the keys (in flight while counting and
     * ranking) and stored as soon as their ranks are known; late counts hold ranks instead of values
     * until the keys are stored, then load the values (in flight during the look-back) */
    typedef K keys_t[KPT];
    typedef uint32_t values_t[PAIRS ? KPT : 1];
    typedef unsigned ranks_t[COUNTS_FIRST ? 1 : KPT];
    typedef unsigned packed_t[VALUES_LATE ? (KPT + 1) / 2 : 1];
    typedef unsigned digits_t[DPT];
    keys_t &k;
    values_t &v;
    ranks_t &r;
    packed_t &rp; /* VALUES_LATE: the keys' ranks, two to a word */
    /* the tile's count of each owned digit, less the pads, and its start in the tile */
    digits_t &total, &mine, &tstart;

    __device__ __forceinline__ os_pass(const K *kin_, K *kout_, const uint32_t *vin_, uint32_t *vout_, size_t base_,
                                       unsigned len_, int shift_, int bits_, unsigned epoch_, unsigned *desc_,
                                       const unsigned *starts_, unsigned *starts_next_, unsigned char *smem,
                                       unsigned *s_tile_, unsigned *s_next_, int *s_single_, unsigned tid_, unsigned warp_,
                                       unsigned lane_,
                                       unsigned *my_cnt_, unsigned *my_masks_, digits_t &start_,
                                       keys_t &k_, values_t &v_, ranks_t &r_, packed_t &rp_, digits_t &total_,
                                       digits_t &mine_, digits_t &tstart_)
        : kin(kin_), kout(kout_), vin(vin_), vout(vout_), base(base_), len(len_), shift(shift_), bits(bits_),
          epoch(epoch_), desc(desc_), starts(starts_), starts_next(starts_next_), s_keys(reinterpret_cast<K *>(smem)),
          s_vals(reinterpret_cast<uint32_t *>(smem + S::EXCH_BYTES)),
          s_cnt(reinterpret_cast<unsigned *>(smem + S::EXCH_BYTES + (PAIRS ? TILE * 4 : 0))),
          s_goff(s_cnt + NW * S::CROW), s_mine(s_goff + RADIX + (MATCH == RK_MATCH_OR ? NW * S::CROW : 0)),
          s_tile(s_tile_), s_next(s_next_), s_single(s_single_), tid(tid_), warp(warp_),
          lane(lane_), ntiles((len_ + TILE - 1) / TILE), my_cnt(my_cnt_),
          my_masks(my_masks_),
          start(start_), k(k_), v(v_), r(r_), rp(rp_), total(total_), mine(mine_), tstart(tstart_)
    {
    }

    /* enter: false when the block leaves (a skipped pass, or a resident grid larger than the portion).
     * On a routed pass the route is read first and used last, so that its round trip overlaps the
     * tile counter's and the starts' (harmless in a skipped pass: its counters and starts are its
     * own); OS_ROUTE_SKIP_LEAVE: a skipped pass's blocks leave before the tile counter */
    __device__ __forceinline__ bool enter(unsigned *counter, const os_hop *hop)
    {
        [[maybe_unused]] const os_hop h = os_routed<C> ? *hop : os_hop{};
        if constexpr (C::route == OS_ROUTE_SKIP_LEAVE) {
            if (!h.run) return false;
        }
        if (tid == 0) {
            *s_tile = atomicAdd(counter, 1u);
            *s_single = -1;
        }
#pragma unroll
        for (int j = lane; j < S::CROW; j += 32) {
            my_cnt[j] = 0;
            if constexpr (MATCH == RK_MATCH_OR) my_masks[j] = 0; /* and zero again after every item */
        }
        d0 = tid * DPT;
        owner = d0 < (unsigned)RADIX;
#pragma unroll
        for (int j = 0; j < DPT; j++) start[j] = owner ? starts[d0 + j] : 0u; /* fetched early */
        if constexpr (os_routed<C>) { /* the route decides: a skipped pass's blocks leave at once */
            if (!h.run) return false;
            if constexpr (LOOK_BACK_FIRST && C::reserve)
                cur = h.cursor; /* os_sort gives cursors to these kernels only */
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
        if constexpr ((C::memory & RK_LD_MASK) == RK_LD_GEN) { /* generic loads (radix_rank.cuh) */
            kin = rk_opaque(kin);
            if constexpr (PAIRS) vin = rk_opaque(vin);
        }
        if constexpr ((C::memory & RK_ST_GEN) != 0) { /* generic stores */
            kout = rk_opaque(kout);
            if constexpr (PAIRS) vout = rk_opaque(vout);
        }
        __syncthreads();
        tile = *s_tile;
        return !(PERSISTENT && tile >= ntiles);
    }

    /* load: the keys [t, t + m) of the portion, and the values that travel with them */
    __device__ __forceinline__ void load(unsigned t, unsigned m)
    {
        rk_load<KPT, C::memory>(kin + base + t, m, m == TILE, radix_pad_key<KT>(), k);
        if constexpr (COUNTS_FIRST && PAIRS && !VALUES_LATE)
            rk_load<KPT, C::memory>(vin + base + t, m, m == TILE, 0u, v);
    }

    /* load the block's first tile; staged values go to shared memory (no register), and the tile pf
     * ahead is asked of L2, one prefetch per 128-byte line (blocks/prefetch.cuh) */
    __device__ __forceinline__ void load_first(unsigned pf)
    {
        const unsigned t = tile * TILE, m = len - t < TILE ? len - t : TILE;
        load(t, m);
        if constexpr (VALUES_STAGED) rk_stage<KPT>(s_vals, vin + base + t, m, m == TILE);
        if constexpr (C::prefetch >= 1) {
            if (pf && tile + pf < ntiles) {
                const unsigned p0 = (tile + pf) * TILE, p_n = len - p0 < TILE ? len - p0 : TILE;
                prefetch_l2_lines<TBS>(kin + base + p0, p_n);
                if constexpr (PAIRS) prefetch_l2_lines<TBS>(vin + base + p0, p_n);
            }
        }
    }

    /* count: where the tile lies; a persistent block asks for its next tile (read after the
     * barriers of publish); the warps' counts, or their warp-local packed ranks */
    __device__ __forceinline__ void count(unsigned *counter)
    {
        t0 = tile * TILE;
        tile_n = len - t0 < TILE ? len - t0 : TILE;
        full = tile_n == TILE;
        last = t0 + TILE >= len;
        g0 = base + t0;
        if (PERSISTENT && tid == 0) *s_next = atomicAdd(counter, 1u);
        if constexpr (COUNTS_FIRST) rk_count_warp<KT, KPT, PACK>(k, shift, bits, my_cnt);
        else rk_rank_warp<KT, KPT, MATCH, DBITS>(k, shift, bits, my_cnt, r, my_masks);
        __syncthreads(); /* every warp's counts */
    }

    /* publish: thread t's digits' counts in the tile, published at once (tile 0 knows its inclusive
     * prefix), a full tile of one digit noted, each digit's start in the tile by a block scan */
    __device__ __forceinline__ void publish()
    {
        unsigned sum = 0;
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
                if (full && total[j] == TILE) *s_single = (int)(d0 + j);
        }
        unsigned all;
        tstart[0] = block_scan32_excl<TBS, WS_SHFL>(sum, &all); /* its barriers publish s_single */
#pragma unroll
        for (int j = 1; j < DPT; j++) tstart[j] = tstart[j - 1] + total[j - 1];
        next = PERSISTENT ? *s_next : ntiles;
        more = next < ntiles;
        n0 = next * TILE;
        next_n = more ? (len - n0 < TILE ? len - n0 : TILE) : 0u;
    }

    /* the digit every key of a full tile shares, else -1 (publish) */
    __device__ __forceinline__ int one_digit() const { return *s_single; }

    /* one digit (its tile start is 0): the tile goes unchanged to its place */
    __device__ __forceinline__ void store_one_digit()
    {
        if (owner) {
            unsigned excl[DPT];
            os_resolve<RADIX, WINDOW, DPT>(desc, tile, epoch, mine, start, last, starts_next, excl, cur);
#pragma unroll
            for (int j = 0; j < DPT; j++) s_goff[d0 + j] = start[j] + excl[j];
        }
        __syncthreads();
        const unsigned g = s_goff[*s_single] + warp * S::WARP_KEYS + lane;
        if constexpr (VALUES_STAGED) rk_unstage<KPT>(s_vals, v); /* this thread's own copies: no barrier */
        else if constexpr (PAIRS && (!COUNTS_FIRST || VALUES_LATE))
            rk_load<KPT, C::memory>(vin + g0, TILE, true, 0u, v);
#pragma unroll
        for (int i = 0; i < KPT; i++) {
            rk_st<C::memory>(kout + g + i * 32u, k[i]);
            if constexpr (PAIRS) rk_st<C::memory>(vout + g + i * 32u, v[i]);
        }
    }

    /* digit starts: each warp's counters hold (the digit's start in the tile + the warps before it);
     * for the walk warps the owners leave their digits' counts and starts (the last tile's owners
     * walk themselves: its starts_next) */
    __device__ __forceinline__ void digit_starts()
    {
        if constexpr (PACK) rk_column_add_packed<NW, RADIX, DPT>(s_cnt, tstart);
        else rk_column_add<NW, RADIX>(s_cnt, tstart[0]);
        if constexpr (WALK_WARPS > 0) {
            const bool for_walk = owner && !last; /* the last tile's owners walk themselves */
            if (for_walk) {
                s_goff[d0] = start[0] - tstart[0];
                s_mine[d0] = mine[0];
            }
        }
        __syncthreads();
    }

    /* look back: each digit's place in the output less its start in the tile, in s_goff for the
     * scatter (read after the exchange's barrier), by the owners or the walk warps */
    __device__ __forceinline__ void look_back()
    {
        if constexpr (LOOK_BACK_FIRST) {
            if (WALK_WARPS == 0 || last)
                os_offsets<RADIX, WINDOW, DPT>(owner, desc, tile, epoch, mine, start, last, starts_next, tstart,
                                               s_goff, cur);
            else if constexpr (WALK_WARPS > 0) {
                if (warp >= (unsigned)(NW - WALK_WARPS))
                    os_walk<RADIX, WINDOW, WALK_WARPS>(warp - (NW - WALK_WARPS), lane, desc, tile, epoch, s_mine,
                                                       s_goff, cur);
            }
#if __CUDA_ARCH__ >= 1200
            /* the warp whole again after its lanes' walks, before the ranking's ballots: without
             * it CUDA 13.0's ptxas fails this kernel for sm_120 and sm_121 ("Register allocation
             * failed"); every other target assembles it as it is (sm_75 .. sm_110 checked) */
            __syncwarp();
#endif
        } else {
            os_offsets<RADIX, WINDOW, DPT>(owner, desc, tile, epoch, mine, start, last, starts_next, tstart, s_goff,
                                           cur);
        }
    }

    /* rank: the keys ranked in the tile and exchanged into s_keys (late values: the ranks kept, the
     * values asked for; late counts: the warp-local ranks fixed up); a persistent block then loads
     * its next tile, keys and values being in shared memory */
    __device__ __forceinline__ void rank()
    {
        if constexpr (VALUES_LATE) {
            rk_rank_exchange_keep<KT, KPT, MATCH, DBITS, PACK, C::swizzle>(k, shift, bits, my_cnt, s_keys, rp,
                                                                           my_masks);
            if constexpr (VALUES_STAGED) rk_unstage<KPT>(s_vals, v); /* written over below, after a barrier */
            else rk_load<KPT, C::memory>(vin + g0, tile_n, full, 0u, v);
        } else if constexpr (COUNTS_FIRST) {
            rk_rank_exchange<KT, PAIRS, KPT, MATCH, DBITS, PACK, C::swizzle>(k, v, shift, bits, my_cnt, s_keys, s_vals,
                                                                             my_masks);
        } else {
            rk_fixup_exchange<KPT>(k, r, my_cnt, s_keys);
            if constexpr (PAIRS) rk_load<KPT, C::memory>(vin + g0, tile_n, full, 0u, v);
        }
    }

    /* the values that were not exchanged with their keys go to their slots in s_vals */
    __device__ __forceinline__ void exchange_values()
    {
        if constexpr (PAIRS && !COUNTS_FIRST) rk_exchange<KPT>(s_vals, r, v);
        if constexpr (VALUES_STAGED) __syncthreads(); /* every thread has read its staged values */
        if constexpr (VALUES_LATE) rk_exchange_packed<KPT>(s_vals, rp, v);
        __syncthreads(); /* the exchange and the offsets complete */
    }

    /* scatter: the exchanged keys (and values) to their places in the output */
    __device__ __forceinline__ void scatter()
    {
        rk_scatter_out<KT, PAIRS, TBS, KPT, C::memory, C::swizzle>(s_keys, s_vals, s_goff, tile_n, full, shift, bits,
                                                                   kout, vout);
    }

    /* the next tile (persistent blocks): everyone is done with this one's shared memory before it
     * is cleared (the mask rows are zero after every item) */
    __device__ __forceinline__ void next_tile()
    {
        __syncthreads();
        if (tid == 0) *s_single = -1;
#pragma unroll
        for (int j = lane; j < S::CROW; j += 32) my_cnt[j] = 0;
        __syncthreads();
        tile = next;
    }
};

template <int KT, bool PAIRS, class C>
__global__ void __launch_bounds__(C::threads, (os_blocks<KT, PAIRS, C>()))
    os_pass_kernel(const typename radix_key_t<KT>::type *__restrict__ kin,
                   typename radix_key_t<KT>::type *__restrict__ kout, const uint32_t *__restrict__ vin,
                   uint32_t *__restrict__ vout, size_t base, unsigned len, int shift, int bits, unsigned epoch,
                   unsigned *desc, unsigned *counter, const unsigned *__restrict__ starts,
                   unsigned *__restrict__ starts_next, const os_hop *__restrict__ hop, unsigned pf)
{
    extern __shared__ __align__(16) unsigned char os_smem_raw[];
    __shared__ unsigned s_tile, s_next;
    __shared__ int s_single;
    typedef os_pass<KT, PAIRS, C> P;
    typename P::digits_t start;
    typename P::keys_t k;
    typename P::values_t v;
    typename P::ranks_t r;
    typename P::packed_t rp;
    typename P::digits_t total, mine, tstart;
    /* the thread's place and its warp's counter (and peer-mask) rows, here rather than in os_pass's
     * constructor: so the compiler orders their address arithmetic as it did in the one-function
     * kernel (the same machine code) */
    typedef typename P::S S;
    unsigned *s_cnt = reinterpret_cast<unsigned *>(os_smem_raw + S::EXCH_BYTES + (PAIRS ? S::TILE * 4 : 0));
    unsigned *s_goff = s_cnt + S::NW * S::CROW;
    const unsigned tid = threadIdx.x, warp = tid >> 5, lane = tid & 31u;
    unsigned *my_cnt = s_cnt + warp * S::CROW;
    unsigned *my_masks = C::peers == RK_MATCH_OR ? s_goff + S::RADIX + warp * S::RADIX : nullptr;
    P p(kin, kout, vin, vout, base, len, shift, bits, epoch, desc, starts, starts_next, os_smem_raw, &s_tile, &s_next,
        &s_single, tid, warp, lane, my_cnt, my_masks, start, k, v, r, rp, total, mine, tstart);
    if (!p.enter(counter, hop)) return;
    p.load_first(pf);
    for (;;) {
        p.count(counter);
        p.publish();
        if (p.one_digit() >= 0) {
            p.store_one_digit();
            if constexpr (P::PERSISTENT) { /* the registers are free: the next tile's loads */
                if (p.more) p.load(p.n0, p.next_n);
            }
        } else {
            p.digit_starts();
            if constexpr (P::LOOK_BACK_FIRST) p.look_back();
            p.rank();
            if constexpr (P::PERSISTENT) { /* keys and values are in shared memory: the next tile's loads */
                if (p.more) p.load(p.n0, p.next_n);
            }
            if constexpr (!P::LOOK_BACK_FIRST) p.look_back();
            p.exchange_values();
            p.scatter();
        }
        if (!p.more) return;
        p.next_tile();
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
    static constexpr int MAXP = os_maxp<KT, C::digit_bits>();
    static constexpr size_t PORTION = (size_t)(OS_PORTION_MAX / S::TILE) * S::TILE;
    size_t tiles, portions;
    unsigned *starts, *hist, *counters, *desc;
    os_route<MAXP> *route; /* routed tiles only (written whole by os_route_kernel every sort) */
    unsigned *cursor;      /* routed tiles only: RADIX cursors OS_CURSOR_STRIDE words apart (os_route_kernel) */
    size_t clear_bytes, used;

    os_plan(size_t n, int pairs, void *scratch)
    {
        radix_carve c = {(char *)scratch, radix_alt_bytes(n, KT, pairs)};
        tiles = (n + S::TILE - 1) / S::TILE;
        portions = (n + PORTION - 1) / PORTION;
        starts = (unsigned *)radix_take(&c, (size_t)MAXP * portions * RADIX * 4);
        route = os_routed<C> ? (os_route<MAXP> *)radix_take(&c, sizeof(os_route<MAXP>)) : NULL;
        cursor = os_routed<C> ? (unsigned *)radix_take(&c, (size_t)RADIX * OS_CURSOR_STRIDE * 4) : NULL;
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

/* 1 when tile C's pass kernel fits this GPU (else a step with a fallback takes it) */
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

/* The tile a sort of key type KT, keys only or pairs, runs: PairsTile for 4-byte keys with values (a
 * tile of their own), Keys64Tile for 8-byte keys (keys only and pairs), KeysTile otherwise; and
 * Fallback where that one's block does not fit this GPU (Fallback = KeysTile: no fallback, the
 * launch is refused with the reason).  A second tile for 4-byte keys, KeysTile2 for keys alone and
 * PairsTile2 for pairs, other than KeysTile or PairsTile, is the one for GPUs whose SM cannot hold
 * the first one's blocks at the occupancy its registers are budgeted for (a large tile with fewer
 * blocks on an SM is slower than the smaller one). */
template <int KT, bool PAIRS, class KeysTile, class PairsTile, class Keys64Tile = KeysTile>
using os_pick = typename std::conditional<KT == RADIX_U64, Keys64Tile,
                                          typename std::conditional<PAIRS, PairsTile, KeysTile>::type>::type;

/* the second tile of 4-byte keys (keys alone: KeysTile2, pairs: PairsTile2), where there is one */
template <bool PAIRS, class KeysTile2, class PairsTile2>
using os_pick2 = typename std::conditional<PAIRS, PairsTile2, KeysTile2>::type;
template <int KT, bool PAIRS, class KeysTile, class PairsTile, class KeysTile2, class PairsTile2>
constexpr bool os_has_2 = KT != RADIX_U64 && (PAIRS ? !std::is_same<PairsTile, PairsTile2>::value
                                                    : !std::is_same<KeysTile, KeysTile2>::value);

enum { OS_PICK, OS_PICK_SECOND, OS_PICK_FALLBACK }; /* os_choice: os_pick's tile, the second tile, the fallback */
template <int KT, bool PAIRS, class KeysTile, class Fallback, class PairsTile, class Keys64Tile, class PairsTile2,
          class KeysTile2 = KeysTile>
static int os_choice()
{
    typedef os_pick<KT, PAIRS, KeysTile, PairsTile, Keys64Tile> Tile;
    typedef os_pick2<PAIRS, KeysTile2, PairsTile2> Second;
    constexpr bool NO_FALLBACK =
        std::is_same<KeysTile, Fallback>::value; /* no fallback: the launch reports what does not fit */
    if constexpr (os_has_2<KT, PAIRS, KeysTile, PairsTile, KeysTile2, PairsTile2>) {
        if (os_fits_blocks<KT, PAIRS, Tile>()) return OS_PICK;
        return NO_FALLBACK || os_fits<KT, PAIRS, Second>() ? OS_PICK_SECOND : OS_PICK_FALLBACK;
    }
    return NO_FALLBACK || os_fits<KT, PAIRS, Tile>() ? OS_PICK : OS_PICK_FALLBACK;
}

template <int KT, bool PAIRS, class KeysTile, class Fallback, class PairsTile, class Keys64Tile, class PairsTile2,
          class KeysTile2>
static size_t os_scratch_pick(size_t n)
{
    typedef os_pick<KT, PAIRS, KeysTile, PairsTile, Keys64Tile> Tile;
    typedef os_pick2<PAIRS, KeysTile2, PairsTile2> Second;
    const int c = os_choice<KT, PAIRS, KeysTile, Fallback, PairsTile, Keys64Tile, PairsTile2, KeysTile2>();
    if (c == OS_PICK) return os_scratch_t<KT, Tile>(n, PAIRS);
    if constexpr (os_has_2<KT, PAIRS, KeysTile, PairsTile, KeysTile2, PairsTile2>)
        if (c == OS_PICK_SECOND) return os_scratch_t<KT, Second>(n, PAIRS);
    return os_scratch_t<KT, Fallback>(n, PAIRS);
}

template <class KeysTile, class Fallback = KeysTile, class PairsTile = KeysTile, class Keys64Tile = KeysTile,
          class PairsTile2 = PairsTile, class KeysTile2 = KeysTile>
static size_t os_scratch(size_t n, int type, int pairs)
{
    return radix_on_type<RADIX_TYPES_ALL>(type, (size_t)0, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        return pairs ? os_scratch_pick<KT, true, KeysTile, Fallback, PairsTile, Keys64Tile, PairsTile2, KeysTile2>(n)
                     : os_scratch_pick<KT, false, KeysTile, Fallback, PairsTile, Keys64Tile, PairsTile2, KeysTile2>(n);
    });
}

/* split (s11 only, routed, keys alone on all 32 bits): a word on the GPU, 0 (the split vetoed) or not
 * when the sort starts, that the route kernel sets to 1 when it takes s11's split (split_max: the
 * largest group estimate it takes), the top two passes then writing the alternate buffer, else to 0 */
template <int KT, bool PAIRS, class C>
static cudaError_t os_sort(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int begin_bit, int end_bit, void *scratch, cudaStream_t s,
                           unsigned *split = NULL, unsigned split_max = 0)
{
    typedef os_plan<KT, C> P;
    typedef typename P::S::key K;
    constexpr int RADIX = P::RADIX, DBITS = C::digit_bits;
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
    if constexpr (C::prefetch >= 1) /* a residency / PF ahead (kit_prefetch_tiles) */
        KIT_TRY(kit_prefetch_tiles((const void *)os_pass_kernel<KT, PAIRS, C>, C::threads, smem,
                                   (size_t)P::S::TILE * (sizeof(K) + (PAIRS ? 4u : 0u)), C::prefetch, &pf));
    unsigned resident = 0; /* PERSIST: the grid that fits at once (any grid of one block or more is correct) */
    if constexpr (C::persistent)
        KIT_TRY(kit_resident_grid((const void *)os_pass_kernel<KT, PAIRS, C>, C::threads, smem, &resident));
    radix_make_plan(&rp, keys_in, keys_out, alt_keys, vals_in, vals_out, alt_vals, begin_bit, end_bit, DBITS);

    KIT_TRY(cudaMemsetAsync(pl.hist, 0, pl.clear_bytes, s));
    KIT_TRY((os_histogram<KT, DBITS, C::hist_copies>((const K *)keys_in, n, begin_bit, end_bit, pl.hist, s)));
    os_scan_kernel<DBITS><<<rp.passes, os_digit_threads(DBITS), 0, s>>>(pl.hist, pl.starts, pl.portions * RADIX);
    KIT_TRY(cudaGetLastError());
    if constexpr (os_routed<C>) {
        /* keys alone on all their bits: keys of one digit need no order in the first pass (equal keys
         * are the same bits; the passes after it order them by their other digits), so its tiles
         * reserve their places instead of looking back (os_tile::reserve, s8).  Taken where the
         * look-back comes before the ranking (lookback_first), whose wait it removes; where the
         * look-back follows the ranking (64-bit keys) its wait is hidden behind the ranking, and
         * reserving gained nothing measurable */
        const bool unordered =
            C::reserve && C::lookback_first && !PAIRS && begin_bit == 0 && end_bit == (int)(8 * sizeof(K));
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
            const unsigned grid = C::persistent && resident < tiles ? resident : tiles;
            os_pass_kernel<KT, PAIRS, C><<<grid, C::threads, smem, s>>>(
                (const K *)rp.src_keys[p], (K *)rp.dst_keys[p], rp.src_vals[p], rp.dst_vals[p], base, len,
                rp.shift[p], rp.bits[p], (unsigned)p & 1u, pl.desc + (base / P::S::TILE) * RADIX,
                pl.counters + (size_t)p * pl.portions + q, st, q + 1 < pl.portions ? st + RADIX : NULL,
                os_routed<C> ? (const os_hop *)pl.route + p : NULL, pf); /* hop[] opens the route */
            KIT_TRY(cudaGetLastError());
        }
    }
    if constexpr (os_routed<C>) { /* no pass ran: the copy (its blocks leave at once otherwise) */
        const size_t blocks = (n + 255) / 256, most = (size_t)sms * 8;
        os_copy_kernel<K><<<(unsigned)(blocks < most ? blocks : most), 256, 0, s>>>(
            &pl.route->copy, (const K *)keys_in, (K *)keys_out, vals_in, vals_out, n);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

template <class KeysTile, class Fallback = KeysTile, class PairsTile = KeysTile, class Keys64Tile = KeysTile,
          class PairsTile2 = PairsTile, class KeysTile2 = KeysTile>
static cudaError_t os_run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out, size_t n,
                          int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    return radix_dispatch<RADIX_TYPES_ALL>(type, vals_in != NULL, [&](auto kt, auto pairs) {
        constexpr int KT = decltype(kt)::value;
        constexpr bool PAIRS = decltype(pairs)::value;
        typedef os_pick<KT, PAIRS, KeysTile, PairsTile, Keys64Tile> Tile;
        typedef os_pick2<PAIRS, KeysTile2, PairsTile2> Second;
        const int c = os_choice<KT, PAIRS, KeysTile, Fallback, PairsTile, Keys64Tile, PairsTile2, KeysTile2>();
        if (c == OS_PICK)
            return os_sort<KT, PAIRS, Tile>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, scratch, s);
        if constexpr (os_has_2<KT, PAIRS, KeysTile, PairsTile, KeysTile2, PairsTile2>)
            if (c == OS_PICK_SECOND)
                return os_sort<KT, PAIRS, Second>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, scratch,
                                                  s);
        return os_sort<KT, PAIRS, Fallback>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, scratch, s);
    });
}

/* the main kernel as it runs on this GPU: one pass over u32 keys (u64 keys for the 64-bit table's
 * rows), keys only (its shared memory limit raised too, for the occupancy the caller computes, where
 * it passes 48 KB); KeysTile2: the keys' second tile, as os_choice takes it */
template <class KeysTile, class Fallback = KeysTile, int KT = RADIX_U32, class KeysTile2 = KeysTile>
static cudaError_t os_describe(kit_kernel_desc *d)
{
    if constexpr (!std::is_same<KeysTile, KeysTile2>::value || !std::is_same<KeysTile, Fallback>::value) {
        const int c = os_choice<KT, false, KeysTile, Fallback, KeysTile, KeysTile, KeysTile,
                                KeysTile2>(); /* the tile os_run takes for keys alone */
        if (c == OS_PICK_SECOND) return os_describe<KeysTile2, Fallback, KT>(d);
        if (c == OS_PICK_FALLBACK) return os_describe<Fallback, Fallback, KT>(d);
    }
    static int attr_dev = 0;
    constexpr size_t smem = os_smem<KT, false, KeysTile>();
    KIT_TRY(radix_smem_attr(os_pass_kernel<KT, false, KeysTile>, smem, &attr_dev));
    d->func = (const void *)os_pass_kernel<KT, false, KeysTile>;
    d->block_threads = KeysTile::threads;
    d->dyn_smem = smem;
    return cudaSuccess;
}


#endif
