/* radix_rank.cuh - chapter 05's tile machinery, shared by s4_match8 and s5_onesweep (device code only).
 *
 * A tile is TBS threads x KPT keys.  The pieces, in the order a pass uses them:
 *   rk_load          warp-striped loads: item i of lane l of warp w is key w*KPT*32 + i*32 + l of the
 *                    tile, so every load instruction reads 32 consecutive keys (coalesced, scalar: any
 *                    element-aligned address) and each warp owns one contiguous segment of the tile.
 *                    A partial tile is padded with the type's largest key (image all ones: its digit
 *                    is the largest of every pass, so the pads rank after every real key of the tile).
 *   rk_stage         the same items of 4-byte values copied into shared memory by cp.async (in flight
 *   rk_unstage       in no register), and read back by the thread that copied them.
 *   rk_peers         the lanes whose digit equals mine: __match_any_sync, or DBITS ballots (one per
 *                    bit, complemented where my bit is 0, ANDed; RK_MATCH_LOP3 ANDs three at a
 *                    time): the same mask, other instructions;
 *                    or (RK_MATCH_OR, in rk_rank_item) a shared-memory OR into a row of RADIX mask
 *                    words per warp, all zero between items.
 *   rk_rank_item     one item: rank = the warp's counter for the digit before the item + the peers in
 *                    lower lanes; the highest peer adds the number of peers (one shared atomic per
 *                    distinct digit per item).  Items in order, lanes in order: the (item, lane)
 *                    order, which is the tile order inside a warp's segment.
 *   rk_count_warp    only the warp's digit counts (one shared atomic per key), to rank later.
 *   rk_column_scan   the counters are NW rows of RADIX words (row w: warp w).  Thread d turns column
 *   rk_column_add    d into exclusive prefixes over the warps and returns the digit's tile count;
 *                    after a block scan of those counts it adds the digit's start in the tile.
 *                    Counter + warp-local rank is then the key's position in the tile sorted by
 *                    (digit, warp, item, lane) = (digit, tile order): stable.
 *                    Digits wider than the block (2048 of 11 bits): PACK, 16-bit counters two to a
 *                    word, and rk_column_scan_packed / rk_column_add_packed, thread t for digits
 *                    t DPT .. t DPT + DPT - 1.
 *   rk_rank_exchange ranking on counters that already hold (digit start + warp prefix): each rank is
 *                    final when it is made, so the key (and value) goes to shared memory at once and
 *                    no rank is kept (the counters have their own words, not the exchange buffer's).
 *   rk_fixup_exchange  ranking done first on zeroed counters: warp-local rank + counter, then store.
 *   rk_exchange      values to ranks already final.
 *   rk_rank_exchange_keep, rk_exchange_packed  the keys stored as rk_rank_exchange does, their ranks
 *                    kept 16 bits each; the values, loaded meanwhile, stored to those ranks later.
 *   rk_slot          where the exchange keeps position p: p, or p with its bank XOR-ed by its row.
 *   rk_scatter_out   position p = i*TBS + t of the sorted tile is read by thread t (conflict-free)
 *                    and written to out[goff[digit] + p], where goff[d] = the digit's global start
 *                    for this tile minus its start in the tile.  Consecutive threads hold consecutive
 *                    keys of one digit run, so the stores coalesce within runs.
 *
 * The ordering argument for the ranking without __syncwarp: the counters of warp w are touched by
 * warp w only, a leader's atomic returns before the __shfl_sync that hands its result to the peers can
 * run, and no lane leaves that full-warp shuffle before every lane reached it; so the atomics of item
 * i are all complete before any of item i + 1 is issued, and within an item the leaders' digits
 * differ.
 *
 * Global positions are below n <= 2^32 - 1, so they are exact in 32-bit unsigned arithmetic; pointers
 * are offset by them after widening. */
#ifndef RADIX_RANK_CUH
#define RADIX_RANK_CUH

#include "blocks/ballot_block.cuh"
#include "radix_keys.cuh"

/* how a lane finds its peers: __match_any_sync, DBITS ballots, or a shared-memory OR (each lane ORs
 * its bit into its digit's word of the warp's mask row, reads the word back, and the highest peer
 * clears it: about half the instructions of the ballots for 8-bit digits, CUB's WARP_MATCH_ATOMIC_OR);
 * RK_MATCH_LOP3 (s9 on): the ballots with fewer instructions around them, see rk_vote_and3 and
 * rk_rank_item */
enum { RK_MATCH_ANY = 0, RK_MATCH_BALLOT = 1, RK_MATCH_OR = 2, RK_MATCH_LOP3 = 3 };

/* the largest key of each type: image all ones */
template <int KT>
static __device__ __forceinline__ typename radix_key_t<KT>::type radix_pad_key()
{
    if constexpr (KT == RADIX_U64) return ~0ull;
    else if constexpr (KT == RADIX_U32) return 0xFFFFFFFFu;
    else return 0x7FFFFFFFu; /* i32 and f32: image 0xFFFFFFFF */
}

template <int KT, int TBS, int KPT, int DBITS>
struct rk_shape {
    typedef typename radix_key_t<KT>::type key;
    static constexpr int RADIX = 1 << DBITS;
    static constexpr int NW = TBS / 32;
    static constexpr unsigned WARP_KEYS = KPT * 32u;
    static constexpr unsigned TILE = TBS * KPT;
    /* digits a thread owns in the per-digit work (column scan, descriptors, look-back, offsets):
     * one where the block has a thread per digit; RADIX / TBS consecutive ones for wider digits */
    static constexpr int DPT = TBS >= RADIX ? 1 : RADIX / TBS;
    /* wider digits than threads: 16-bit counters, two to a word (a warp row of 2048 digits takes 4
     * KB instead of 8); every count and rank in a tile is below TILE < 2^16 */
    static constexpr bool PACK = DPT > 1;
    static constexpr int CROW = PACK ? RADIX / 2 : RADIX;           /* counter words per warp row */
    static constexpr size_t EXCH_BYTES = (size_t)TILE * sizeof(key); /* the keys' exchange */
    static constexpr size_t CNT_BYTES = (size_t)NW * CROW * 4;       /* the rank counters */
    static_assert(TBS % 32 == 0 && TBS <= 1024, "block size");
    static_assert(TBS >= RADIX || (RADIX % TBS == 0 && DPT % 4 == 0), "a thread per digit, or 4k digits each");
    static_assert(!PACK || TILE < 0x10000, "16-bit counters");
};

/* ------------------------------------------------------------- loads */

/* The memory path of the streaming loads and stores (a tuning knob, one RK_LD_* | one RK_ST_*): the
 * loads by the compiler's choice for a const __restrict__ source (ld.global.nc, the read-only path),
 * by a plain weak ld.global, as streaming (.cs: evict first), or generic (the kernel makes the pointer
 * opaque, rk_opaque: the compiler no longer knows it is a global one and emits generic LD); the
 * stores by st.global, st.global.cs or generic ST. */
enum : int {
    RK_LD_NC = 0, RK_LD_PLAIN = 1, RK_LD_CS = 2, RK_LD_GEN = 4, RK_LD_MASK = 7,
    RK_ST_CS = 8, RK_ST_GEN = 16
};

/* p, with what the compiler knows of it (its address space, restrict) forgotten */
template <class T>
static __device__ __forceinline__ T *rk_opaque(T *p)
{
    asm("" : "+l"(p));
    return p;
}

static __device__ __forceinline__ uint32_t rk_ld_plain(const uint32_t *p)
{
    uint32_t v;
    asm("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
static __device__ __forceinline__ unsigned long long rk_ld_plain(const unsigned long long *p)
{
    unsigned long long v;
    asm("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
}

template <int MEM, class T>
static __device__ __forceinline__ T rk_ld(const T *p)
{
    if constexpr ((MEM & RK_LD_MASK) == RK_LD_PLAIN) return rk_ld_plain(p);
    else if constexpr ((MEM & RK_LD_MASK) == RK_LD_CS) return __ldcs(p);
    else return *p; /* NC, and GEN through an opaque pointer */
}

template <int MEM, class T>
static __device__ __forceinline__ void rk_st(T *p, T v)
{
    if constexpr ((MEM & RK_ST_CS) != 0) __stcs(p, v);
    else *p = v; /* st.global, and GEN through an opaque pointer */
}

/* src: the tile's first element; tile_n: its valid elements (TILE when full) */
template <int KPT, int MEM = RK_LD_NC, class T>
static __device__ __forceinline__ void rk_load(const T *__restrict__ src, unsigned tile_n, bool full, T pad,
                                               T (&v)[KPT])
{
    const unsigned first = (threadIdx.x >> 5) * (KPT * 32u) + (threadIdx.x & 31u);
    const T *__restrict__ p = src + first; /* then constant offsets: one address for all items */
    if (full) {
#pragma unroll
        for (int i = 0; i < KPT; i++) v[i] = rk_ld<MEM>(p + i * 32);
    } else {
#pragma unroll
        for (int i = 0; i < KPT; i++) v[i] = first + i * 32u < tile_n ? rk_ld<MEM>(p + i * 32) : pad;
    }
}

/* The tile's values copied into shared memory (s: the tile's buffer, in tile order) by cp.async:
 * the copies are in flight while the keys are ranked and hold no register.  Each thread copies the
 * items rk_load would give it and reads back only those (rk_unstage), so no barrier is needed between
 * the two.  Items past tile_n are zero-filled (nothing read).  Before sm_80 (no cp.async) the thread
 * loads and stores them itself. */
template <int KPT>
static __device__ __forceinline__ void rk_stage(uint32_t *s, const uint32_t *src, unsigned tile_n, bool full)
{
    const unsigned first = (threadIdx.x >> 5) * (KPT * 32u) + (threadIdx.x & 31u);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned dst = (unsigned)__cvta_generic_to_shared(s + first);
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        const bool in = full || first + i * 32u < tile_n;
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst + i * 128u),
                     "l"(in ? src + first + i * 32u : src), "r"(in ? 4u : 0u)
                     : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
#else
#pragma unroll
    for (int i = 0; i < KPT; i++)
        s[first + i * 32u] = full || first + i * 32u < tile_n ? src[first + i * 32u] : 0u;
#endif
}

/* this thread's staged items back, in rk_load's order */
template <int KPT>
static __device__ __forceinline__ void rk_unstage(const uint32_t *s, uint32_t (&v)[KPT])
{
    const unsigned first = (threadIdx.x >> 5) * (KPT * 32u) + (threadIdx.x & 31u);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
#pragma unroll
    for (int i = 0; i < KPT; i++) v[i] = s[first + i * 32u];
}

/* ------------------------------------------------------------ ranking */

/* The ballot form in PTX, so that each bit is exactly: test (to a predicate), vote, complement where
 * the bit is 0, and - four instructions (written in C, the compiler tests each bit twice and selects
 * a mask: about twice as many). */
template <int B>
static __device__ __forceinline__ unsigned rk_vote_bit(unsigned d)
{
    unsigned v;
    asm("{\n\t.reg .pred p;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 p, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t}"
        : "=r"(v)
        : "r"(d), "n"(1u << B));
    return v; /* the lanes whose bit B equals mine */
}

template <int B, int DBITS>
static __device__ __forceinline__ unsigned rk_vote_bits(unsigned d)
{
    if constexpr (B + 1 == DBITS) return rk_vote_bit<B>(d);
    else return rk_vote_bit<B>(d) & rk_vote_bits<B + 1, DBITS>(d);
}

/* RK_MATCH_LOP3: the same DBITS ballots, ANDed three at a time (one LOP3 for two ballots): written
 * as a chain of two-input ANDs, each after its ballot's complement, ptxas keeps one LOP3 per AND (7
 * for 8-bit digits; these take 4) */
template <int B, int DBITS>
static __device__ __forceinline__ void rk_vote_fill(unsigned d, unsigned (&m)[DBITS])
{
    m[B] = rk_vote_bit<B>(d);
    if constexpr (B + 1 < DBITS) rk_vote_fill<B + 1, DBITS>(d, m);
}

static __device__ __forceinline__ unsigned rk_and3(unsigned a, unsigned b, unsigned c)
{
    unsigned r;
    asm("lop3.b32 %0, %1, %2, %3, 0x80;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); /* a & b & c */
    return r;
}

template <int DBITS>
static __device__ __forceinline__ unsigned rk_vote_and3(unsigned d)
{
    unsigned m[DBITS];
    rk_vote_fill<0, DBITS>(d, m);
    unsigned acc = m[0];
#pragma unroll
    for (int b = 1; b < DBITS; b += 2) acc = b + 1 < DBITS ? rk_and3(acc, m[b], m[b + 1]) : acc & m[b];
    return acc;
}

template <int MATCH, int DBITS>
static __device__ __forceinline__ unsigned rk_peers(unsigned d)
{
    if constexpr (MATCH == RK_MATCH_ANY) return __match_any_sync(BALLOT_FULL, d);
    else if constexpr (MATCH == RK_MATCH_LOP3) return rk_vote_and3<DBITS>(d);
    else return rk_vote_bits<0, DBITS>(d);
}

/* the rank of key k: the warp's counter for its digit before this item + its peers in lower lanes;
 * the counter grows by the number of peers (cnt: this warp's RADIX counters).  The leader's atomic
 * is one predicated instruction (PTX), its address computed by every lane: written in C, the
 * compiler moves the digit, mask and address arithmetic into a divergent branch around it. */
template <int KT, int MATCH, int DBITS, bool PACK = false>
static __device__ __forceinline__ unsigned rk_rank_item(typename radix_key_t<KT>::type k, int shift, int bits,
                                                        unsigned *cnt, unsigned *masks)
{
    const unsigned lane = threadIdx.x & 31u;
    const unsigned d = radix_digit<KT>(k, shift, bits);
    /* PACK: digit d's counter is half (d & 1) of word d / 2 */
    const unsigned addr = (unsigned)__cvta_generic_to_shared(cnt + (PACK ? d >> 1 : d));
    [[maybe_unused]] const unsigned half = PACK ? (d & 1u) * 16u : 0u;
    unsigned peers;
    if constexpr (MATCH == RK_MATCH_OR) {
        /* every lane sets its bit in its digit's word, then reads the word: its peers.  The
         * barriers: all ORs before any read, all reads before the leader clears the word, and the
         * clear before the next item's ORs (the __syncwarp after the leader's atomic below). */
        volatile unsigned *mp = masks + d;
        atomicOr(masks + d, 1u << lane);
        __syncwarp();
        peers = *mp;
        __syncwarp();
        if (lane == 31u - __clz(peers)) *mp = 0u;
    } else {
        (void)masks;
        peers = rk_peers<MATCH, DBITS>(d);
    }
    const unsigned leader = 31u - __clz(peers);
    unsigned before = 0;
    /* the peers in lower lanes; RK_MATCH_LOP3 counts them first, so that the leader, the highest
     * peer, which has every other peer below it, adds that count + 1 instead of a second POPC */
    unsigned below = 0;
    if constexpr (MATCH == RK_MATCH_LOP3) below = __popc(peers & ptx_lanemask_lt());
    const unsigned inc = MATCH == RK_MATCH_LOP3 ? below + 1u : (unsigned)__popc(peers);
    /* volatile: the atomics of successive items stay in order (the shuffle below orders them in
     * time, see the top of the file) */
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.eq.u32 p, %1, %2;\n\t"
                 "@p atom.shared.add.u32 %0, [%3], %4;\n\t}"
                 : "+r"(before)
                 : "r"(lane), "r"(leader), "r"(addr), "r"(inc << half)
                 : "memory");
    if constexpr (MATCH == RK_MATCH_OR) __syncwarp(); /* the mask word's clear before the next ORs */
    before = __shfl_sync(BALLOT_FULL, before, leader);
    if constexpr (PACK) before = (before >> half) & 0xFFFFu;
    if constexpr (MATCH != RK_MATCH_LOP3) below = __popc(peers & ptx_lanemask_lt());
    return before + below;
}

/* warp-local ranks of the thread's keys (on zeroed counters, which end as the warp's digit counts),
 * each packed with its digit: rank | digit << 16, so that the fix-up needs neither the keys' digits
 * kept in registers nor computed again */
template <int KT, int KPT, int MATCH, int DBITS>
static __device__ __forceinline__ void rk_rank_warp(const typename radix_key_t<KT>::type (&k)[KPT], int shift,
                                                    int bits, unsigned *cnt, unsigned (&r)[KPT],
                                                    unsigned *masks = nullptr)
{
    static_assert(KPT * 32 <= 0x10000, "a warp-local rank fits in 16 bits");
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        const unsigned d = radix_digit<KT>(k[i], shift, bits);
        r[i] = rk_rank_item<KT, MATCH, DBITS>(k[i], shift, bits, cnt, masks) | d << 16;
    }
}

/* Where the exchange keeps tile position r: r itself, or (SWZ) r with its bank (r mod 32) XOR-ed by
 * its row of 32 words.  A row's words stay in distinct banks, so the scatter's reads (32 consecutive
 * positions a warp) stay conflict-free, while runs of ranks that start a multiple of 32 words apart
 * (few digits spread evenly over a tile whose TILE / 8 is such a multiple: sorted keys) no longer
 * store into the same banks. */
template <bool SWZ>
static __device__ __forceinline__ unsigned rk_slot(unsigned r)
{
    return SWZ ? r ^ ((r >> 5) & 31u) : r;
}

/* final ranks (counters = digit start + warp prefix), each key (and value) stored as it is ranked;
 * items: the warp's first items that are ranked (the same for every lane: the ballots are the
 * warp's), the others left out, as rk_count_warp must leave them out */
template <int KT, bool PAIRS, int KPT, int MATCH, int DBITS, bool PACK = false, bool SWZ = false>
static __device__ __forceinline__ void rk_rank_exchange(const typename radix_key_t<KT>::type (&k)[KPT],
                                                        const uint32_t (&v)[PAIRS ? KPT : 1], int shift,
                                                        int bits, unsigned *cnt,
                                                        typename radix_key_t<KT>::type *s_keys,
                                                        uint32_t *s_vals, unsigned *masks = nullptr,
                                                        int items = KPT)
{
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        if (i >= items) break;
        const unsigned r = rk_slot<SWZ>(rk_rank_item<KT, MATCH, DBITS, PACK>(k[i], shift, bits, cnt, masks));
        s_keys[r] = k[i];
        if constexpr (PAIRS) s_vals[r] = v[i];
    }
}

/* rk_rank_exchange for the keys only: each key stored at its final rank, the rank (its slot) kept in
 * 16 bits, two to a word (rp[i / 2], item i in half i & 1), for values that arrive later
 * (rk_exchange_packed) */
template <int KT, int KPT, int MATCH, int DBITS, bool PACK = false, bool SWZ = false>
static __device__ __forceinline__ void rk_rank_exchange_keep(const typename radix_key_t<KT>::type (&k)[KPT],
                                                             int shift, int bits, unsigned *cnt,
                                                             typename radix_key_t<KT>::type *s_keys,
                                                             unsigned (&rp)[(KPT + 1) / 2],
                                                             unsigned *masks = nullptr)
{
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        const unsigned r = rk_slot<SWZ>(rk_rank_item<KT, MATCH, DBITS, PACK>(k[i], shift, bits, cnt, masks));
        s_keys[r] = k[i];
        if (i & 1) rp[i / 2] |= r << 16;
        else rp[i / 2] = r;
    }
}

/* the values to the ranks rk_rank_exchange_keep kept */
template <int KPT>
static __device__ __forceinline__ void rk_exchange_packed(uint32_t *s, const unsigned (&rp)[(KPT + 1) / 2],
                                                          const uint32_t (&v)[KPT])
{
#pragma unroll
    for (int i = 0; i < KPT; i++) s[(i & 1) ? rp[i / 2] >> 16 : rp[i / 2] & 0xFFFFu] = v[i];
}

/* the packed warp-local ranks made tile-wide (counters = digit start + warp prefix) and the keys
 * stored; r[i] becomes the final rank, for the values */
template <int KPT, class T>
static __device__ __forceinline__ void rk_fixup_exchange(const T (&k)[KPT], unsigned (&r)[KPT],
                                                         const unsigned *cnt, T *s_keys)
{
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        r[i] = (r[i] & 0xFFFFu) + cnt[r[i] >> 16];
        s_keys[r[i]] = k[i];
    }
}

template <int KPT, class T>
static __device__ __forceinline__ void rk_exchange(T *s, const unsigned (&r)[KPT], const T (&v)[KPT])
{
#pragma unroll
    for (int i = 0; i < KPT; i++) s[r[i]] = v[i];
}

/* the warp's digit counts only (of its first `items` items) */
template <int KT, int KPT, bool PACK = false>
static __device__ __forceinline__ void rk_count_warp(const typename radix_key_t<KT>::type (&k)[KPT],
                                                     int shift, int bits, unsigned *cnt, int items = KPT)
{
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        if (i >= items) break;
        const unsigned d = radix_digit<KT>(k[i], shift, bits);
        if constexpr (PACK) atomicAdd(cnt + (d >> 1), 1u << (d & 1u) * 16u);
        else atomicAdd(cnt + d, 1u);
    }
}

/* thread d < RADIX: column d of the NW x RADIX counters becomes its exclusive prefixes over the
 * warps; returns the digit's count in the tile (0 for threads >= RADIX).  Needs a barrier before
 * (all counts done); touches column d only. */
template <int NW, int RADIX>
static __device__ __forceinline__ unsigned rk_column_scan(unsigned *cnt)
{
    unsigned run = 0;
    if (threadIdx.x < (unsigned)RADIX) {
        unsigned c[NW];
#pragma unroll
        for (int w = 0; w < NW; w++) c[w] = cnt[w * RADIX + threadIdx.x];
#pragma unroll
        for (int w = 0; w < NW; w++) {
            cnt[w * RADIX + threadIdx.x] = run;
            run += c[w];
        }
    }
    return run;
}

template <int NW, int RADIX>
static __device__ __forceinline__ void rk_column_add(unsigned *cnt, unsigned start)
{
    if (threadIdx.x < (unsigned)RADIX) {
#pragma unroll
        for (int w = 0; w < NW; w++) cnt[w * RADIX + threadIdx.x] += start;
    }
}

/* The same for 16-bit counters (PACK) and DPT digits a thread: thread t owns digits t DPT ..
 * t DPT + DPT - 1, the DPT / 2 consecutive words from t DPT / 2 of every warp row, and scans both
 * halves of a word with one add.  tot[j]: digit t DPT + j's count in the tile. */
template <int NW, int RADIX, int DPT>
static __device__ __forceinline__ void rk_column_scan_packed(unsigned *cnt, unsigned (&tot)[DPT])
{
    constexpr int ROW = RADIX / 2, WPT = DPT / 2; /* words a row, words a thread */
    unsigned run[WPT]; /* two 16-bit running sums a word: no carry crosses halves (sums <= TILE < 2^16) */
#pragma unroll
    for (int q = 0; q < WPT; q++) run[q] = 0;
    if (threadIdx.x * DPT < (unsigned)RADIX) {
        unsigned *col = cnt + threadIdx.x * WPT;
#pragma unroll
        for (int w = 0; w < NW; w++) {
            unsigned c[WPT];
#pragma unroll
            for (int q = 0; q < WPT; q++) c[q] = col[w * ROW + q];
#pragma unroll
            for (int q = 0; q < WPT; q++) {
                col[w * ROW + q] = run[q];
                run[q] += c[q];
            }
        }
    }
#pragma unroll
    for (int q = 0; q < WPT; q++) {
        tot[2 * q] = run[q] & 0xFFFFu;
        tot[2 * q + 1] = run[q] >> 16;
    }
}

/* adds each owned digit's start in the tile to its counters (every value stays below 2^16) */
template <int NW, int RADIX, int DPT>
static __device__ __forceinline__ void rk_column_add_packed(unsigned *cnt, const unsigned (&start)[DPT])
{
    constexpr int ROW = RADIX / 2, WPT = DPT / 2;
    unsigned both[WPT];
#pragma unroll
    for (int q = 0; q < WPT; q++) both[q] = start[2 * q] | start[2 * q + 1] << 16;
    if (threadIdx.x * DPT < (unsigned)RADIX) {
        unsigned *col = cnt + threadIdx.x * WPT;
#pragma unroll
        for (int w = 0; w < NW; w++) {
#pragma unroll
            for (int q = 0; q < WPT; q++) col[w * ROW + q] += both[q];
        }
    }
}

/* ----------------------------------------------------------- exchange */

/* position p = i*TBS + t of the sorted tile goes to out[goff[digit] + p]; positions >= tile_n are the
 * pads (all on the largest digit, after its real keys) and are not stored */
template <int KT, bool PAIRS, int TBS, int KPT, int MEM = RK_LD_NC, bool SWZ = false>
static __device__ __forceinline__ void rk_scatter_out(const typename radix_key_t<KT>::type *s_keys,
                                                      const uint32_t *s_vals, const unsigned *goff,
                                                      unsigned tile_n, bool full, int shift, int bits,
                                                      typename radix_key_t<KT>::type *out, uint32_t *vout)
{
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        const unsigned p = i * TBS + threadIdx.x;
        if (full || p < tile_n) {
            const unsigned q = rk_slot<SWZ>(p);
            const typename radix_key_t<KT>::type key = s_keys[q];
            const unsigned g = goff[radix_digit<KT>(key, shift, bits)] + p;
            rk_st<MEM>(out + g, key);
            if constexpr (PAIRS) rk_st<MEM>(vout + g, s_vals[q]);
        }
    }
}

#endif
