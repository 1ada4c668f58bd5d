/* radix_tile_rank.cuh - exercise ex05_tile_rank (GPU): the heart of one pass of a GPU radix
 * sort, for one tile of keys: cut each key's digit and find its rank in the tile, the position
 * it takes when the tile's keys are sorted stably by digit:
 *     rank(i) = #{ keys of the tile with a smaller digit }
 *             + #{ keys of the tile BEFORE key i with the same digit }
 * (i.e. the order of (digit, position in the tile)).  A sort adds the tile's global base of
 * that digit to it (ex05_offsets) and scatters; here the ranks themselves are the output.
 *
 * Layout: a block of TBS threads (TBS / 32 warps) ranks one tile of TBS * ITEMS keys.  The keys
 * are WARP-STRIPED: warp w owns the tile's keys [w * 32 * ITEMS, (w + 1) * 32 * ITEMS), and its
 * item j, lane l holds the tile's key
 *     pos = w * 32 * ITEMS + 32 * j + l
 * So the loads are coalesced (item j of a warp reads 32 consecutive words), and within a warp
 * the order of positions is the order of (item j, lane l): a warp that ranks item 0, then item
 * 1, ... and, within an item, counts the lanes below it, walks its keys in tile order.  A key
 * past the end of the array (the last tile is partial) does not exist: its digit is TR_NONE.
 *
 * The ranking, in three steps (tr_rank_tile below does them in order):
 *   1. tr_digit: the digit of a key, bits [shift, shift + bits) of the u32 key (bits 1..8).
 *   2. tr_warp_rank: each warp, alone, with its own row of R = 2^bits digit counters in shared
 *      memory (zero at the start): for each item j in order, the lanes holding the same digit
 *      find each other with __match_any_sync; a key's rank in its warp is the counter of its
 *      digit (keys of that digit in the warp's earlier items) plus the same-digit lanes below
 *      it; one lane per digit (the group's leader) then adds the group's size to the counter.
 *      After the loop, the warp's row holds the warp's count of every digit.
 *   3. tr_block_offsets: turn the TBS / 32 rows of counts into offsets, in place: the counter
 *      of (warp w, digit d) becomes the number of the tile's keys that come before warp w's
 *      keys of digit d = (keys of smaller digits, all warps) + (keys of digit d, warps < w).
 *      That is an exclusive scan of the counts in digit-major order, the same as the scatter
 *      bases of ex05_offsets with warps for tiles.
 * Then rank = offset[warp][digit] + rank in the warp.
 *
 * Helpers given: tr_lanemask_lt (the lanes below mine), tr_block_exclusive_sum (a block-wide
 * exclusive sum of one value per thread).  TBS must be a multiple of 32 and at least
 * TR_MAX_DIGITS (one thread per digit in step 3). */
#ifndef RADIX_TILE_RANK_CUH
#define RADIX_TILE_RANK_CUH

#include <stdint.h>

#define TR_MAX_DIGITS 256      /* 8-bit digits at most */
#define TR_NONE 0xFFFFFFFFu    /* the "digit" of a key past the end of the array */

/* the shared memory of one block */
template <int TBS>
struct tr_smem {
    uint32_t cnt[TBS / 32][TR_MAX_DIGITS]; /* per warp: digit counters, then offsets */
    uint32_t warp_sums[TBS / 32];          /* tr_block_exclusive_sum's */
};

/* ------------------------------------------------------------------ helpers */

/* bit i set for the lanes i below mine (1D blocks: lane = threadIdx.x % 32) */
static __device__ __forceinline__ unsigned tr_lanemask_lt()
{
    return (1u << (threadIdx.x & 31u)) - 1u;
}

/* Exclusive sum over the block of v (thread order = threadIdx.x): thread i gets
 * v(0) + ... + v(i - 1).  Every thread of the block must call it (it synchronizes). */
template <int TBS>
static __device__ __forceinline__ uint32_t tr_block_exclusive_sum(uint32_t v, uint32_t *warp_sums)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    uint32_t x = v;
#pragma unroll
    for (unsigned o = 1; o < 32; o <<= 1) { /* inclusive scan within the warp */
        const uint32_t y = __shfl_up_sync(0xFFFFFFFFu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) { /* exclusive scan of the warp totals */
        const uint32_t w = lane < TBS / 32 ? warp_sums[lane] : 0u;
        uint32_t s = w;
#pragma unroll
        for (unsigned o = 1; o < 32; o <<= 1) {
            const uint32_t y = __shfl_up_sync(0xFFFFFFFFu, s, o);
            if (lane >= o) s += y;
        }
        if (lane < TBS / 32) warp_sums[lane] = s - w;
    }
    __syncthreads();
    const uint32_t r = warp_sums[warp] + x - v;
    __syncthreads(); /* warp_sums may be reused by the caller */
    return r;
}

/* ------------------------------------------------------------- the exercise */

/* 1. the digit of key: bits [shift, shift + bits) (1 <= bits <= 8, shift + bits <= 32) */
static __device__ __forceinline__ unsigned tr_digit(uint32_t key, int shift, int bits)
{
    // BEGIN SOLUTION
    // TODO: shift the key right by `shift`, keep the low `bits` bits (a mask of bits ones).
    // STUB: (void)key; (void)shift; (void)bits; return 0;
    return (key >> shift) & ((1u << bits) - 1u);
    // END SOLUTION
}

/* 2. One warp ranks its 32 * ITEMS keys among themselves.  digit[j]: the digit of this lane's
 * item j (TR_NONE: no key); wcnt: the warp's R digit counters in shared memory, zero on entry.
 * Out: local[j] = the number of the warp's keys of the same digit before item j of this lane
 * (earlier items, or the same item in a lower lane); wcnt[d] = the warp's number of keys of
 * digit d.  All 32 lanes call it. */
template <int ITEMS>
static __device__ __forceinline__ void tr_warp_rank(const unsigned (&digit)[ITEMS], uint32_t *wcnt,
                                                    unsigned (&local)[ITEMS])
{
    // BEGIN SOLUTION
    // TODO: for j = 0 .. ITEMS-1, in order:
    // TODO:   peers = __match_any_sync(0xFFFFFFFFu, digit[j]): the lanes with my digit (every
    // TODO:     lane must take part, TR_NONE included: those lanes just match each other).
    // TODO:     (Or build peers from `bits` ballots, one per digit bit: same result.)
    // TODO:   leader = the lowest lane of peers (__ffs(peers) - 1).
    // TODO:   The leader of a real digit reads wcnt[digit], adds __popc(peers) to it, and hands
    // TODO:   the old value to its peers (__shfl_sync from the leader: all lanes call it).
    // TODO:   local[j] = old value + __popc(peers & tr_lanemask_lt()).
    // TODO:   __syncwarp() before the next item (the next leader may be another lane).
    // STUB: (void)digit; (void)wcnt;
    // STUB: for (int j = 0; j < ITEMS; j++) local[j] = 0;
    const unsigned lane = threadIdx.x & 31u, lt = tr_lanemask_lt();
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const unsigned d = digit[j];
        const unsigned peers = __match_any_sync(0xFFFFFFFFu, d);
        const int leader = __ffs(peers) - 1;
        unsigned before = 0;
        if ((int)lane == leader && d != TR_NONE) {
            before = wcnt[d];
            wcnt[d] = before + (unsigned)__popc(peers);
        }
        before = __shfl_sync(0xFFFFFFFFu, before, leader);
        local[j] = before + (unsigned)__popc(peers & lt);
        __syncwarp();
    }
    // END SOLUTION
}

/* 3. The counts of every warp (sm.cnt[w][d], d < ndigits) become the tile offsets, in place:
 * sm.cnt[w][d] = (keys of digits < d in the tile) + (keys of digit d in warps < w).  Every
 * thread of the block calls it, after a __syncthreads that follows step 2; it ends with one
 * too, so the offsets can be read on return. */
template <int TBS>
static __device__ __forceinline__ void tr_block_offsets(tr_smem<TBS> &sm, unsigned ndigits)
{
    // BEGIN SOLUTION
    // TODO: thread d (< ndigits) owns digit d: walk the warps in order, replacing cnt[w][d] by
    // TODO: the running sum of the warps before w (an exclusive scan down the column), and
    // TODO: keep the digit's total.  Then the digits' starts: tr_block_exclusive_sum of the
    // TODO: totals (every thread calls it; threads >= ndigits give 0; pass sm.warp_sums).
    // TODO: Add thread d's start to its column, then __syncthreads().
    // STUB: (void)sm; (void)ndigits;
    const unsigned d = threadIdx.x;
    uint32_t total = 0;
    if (d < ndigits)
        for (int w = 0; w < TBS / 32; w++) {
            const uint32_t c = sm.cnt[w][d];
            sm.cnt[w][d] = total;
            total += c;
        }
    const uint32_t start = tr_block_exclusive_sum<TBS>(total, sm.warp_sums);
    if (d < ndigits)
        for (int w = 0; w < TBS / 32; w++) sm.cnt[w][d] += start;
    __syncthreads();
    // END SOLUTION
}

/* ------------------------------------------------------------------ the tile */

/* Rank one tile: this thread's keys key[j] (warp-striped, see above), m = the number of keys
 * of the tile that exist (positions >= m do not).  rank[j] = the key's rank in the tile
 * (TR_NONE for a key that does not exist).  Every thread of the block calls it. */
template <int TBS, int ITEMS>
static __device__ __forceinline__ void tr_rank_tile(const uint32_t (&key)[ITEMS], unsigned m, int shift,
                                                    int bits, tr_smem<TBS> &sm, uint32_t (&rank)[ITEMS])
{
    static_assert(TBS % 32 == 0 && TBS >= TR_MAX_DIGITS, "one thread per digit in tr_block_offsets");
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u, ndigits = 1u << bits;
    unsigned digit[ITEMS], local[ITEMS];
    for (unsigned i = threadIdx.x; i < (TBS / 32) * TR_MAX_DIGITS; i += TBS) (&sm.cnt[0][0])[i] = 0;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const unsigned pos = warp * 32u * ITEMS + 32u * j + lane;
        digit[j] = pos < m ? tr_digit(key[j], shift, bits) : TR_NONE;
    }
    tr_warp_rank<ITEMS>(digit, sm.cnt[warp], local);
    __syncthreads();
    tr_block_offsets<TBS>(sm, ndigits);
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
        rank[j] = digit[j] == TR_NONE ? TR_NONE : sm.cnt[warp][digit[j] & (TR_MAX_DIGITS - 1)] + local[j];
}

#endif
