/* small_sort.cuh - s12's device half (s12_small_sort.cu has the lesson and the host's choice): one block
 * that sorts a whole array in its shared memory, and one cooperative grid of such tiles whose passes are
 * separated by grid-wide barriers instead of kernel launches.
 *
 * The pieces:
 *   ss_tile          a policy: block size, keys a thread, digit bits, ranking; the tile they make.
 *   ss_load          a tile of keys from global memory to registers, warp-striped as rk_load, each key
 *                    turned into its order-preserving image (radix_keys.cuh) on the way in, the pads
 *                    past n all ones (they rank after every real key in every pass).
 *   ss_rank_pass     one stable counting pass of the tile on bits [shift, shift + bits), on chip: each
 *                    warp ranks its keys on its own counters (rk_rank_warp), the counters' columns and
 *                    the digits' totals are scanned in one (ss_scan_counters), and every key (and
 *                    value) goes to its place in the tile in shared memory (rk_fixup_exchange).  The
 *                    tile order in shared memory is then the (digit, previous tile order) order: stable.
 *   ss_block_kernel  n <= TILE: load, one ss_rank_pass per digit (each thread reading its items back from
 *                    shared memory between passes), store.  No global pass, one launch.
 *   ss_grid_kernel   n <= G x TILE with all G blocks resident (a cooperative launch): per digit, each
 *                    block ranks its tile, publishes its digit counts to a [digit][block] table, waits at
 *                    the grid barrier, sums the counts of the blocks before it (and of all blocks, for
 *                    the digits' starts), scatters, and waits at the barrier again.  No look-back and no
 *                    histogram kernel: the table read after the barrier is the whole prefix. */
#ifndef SMALL_SORT_CUH
#define SMALL_SORT_CUH

#include <cooperative_groups.h>

#include "radix_rank.cuh"

/* a tile: TBS threads x KPT keys, ranked DIGIT_BITS at a time, each warp finding a key's peers by
 * MATCH (radix_rank.cuh: ballots ANDed by LOP3, or a shared-memory OR, which takes a row of RADIX mask
 * words a warp); registers budgeted for MIN_BLOCKS blocks an SM */
template <int TBS_, int KPT_, int MIN_BLOCKS_ = 1, int MATCH_ = RK_MATCH_LOP3>
struct ss_tile {
    static constexpr int TBS = TBS_;
    static constexpr int KPT = KPT_;
    static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
    static constexpr int DIGIT_BITS = 8;
    static constexpr int RADIX = 1 << DIGIT_BITS;
    static constexpr int MATCH = MATCH_;
    static constexpr int NW = TBS / 32;
    static constexpr unsigned TILE = (unsigned)TBS * KPT;
    static_assert(TBS % 32 == 0 && TBS <= 1024 && TBS % RADIX == 0, "a thread per digit at least");
    static_assert(MATCH == RK_MATCH_LOP3 || MATCH == RK_MATCH_OR, "ballots, or a shared-memory OR");
};

/* the same tile, its peers found by the shared-memory OR */
template <class P>
using ss_with_or_peers = ss_tile<P::TBS, P::KPT, P::MIN_BLOCKS, RK_MATCH_OR>;

/* the width a key is sorted as once it is an image: u32 for the 32-bit types, u64 for u64 */
template <int KT>
struct ss_width {
    static constexpr int W = KT == RADIX_U64 ? RADIX_U64 : RADIX_U32;
    typedef typename radix_key_t<W>::type key;
};

/* f(kt) on the width a key is sorted as: the 32-bit types share their kernels (their images are sorted
 * as u32) */
template <class R, class F>
static R ss_on_width(int type, R other, F f)
{
    return radix_on_type<(1u << RADIX_U32) | (1u << RADIX_U64)>(type == RADIX_U64 ? RADIX_U64 : RADIX_U32, other, f);
}

template <class K>
static __device__ __forceinline__ K ss_image(K k, int type)
{
    if constexpr (sizeof(K) == 8) return (void)type, k;
    else return radix_image_rt(k, type);
}
template <class K>
static __device__ __forceinline__ K ss_unimage(K t, int type)
{
    if constexpr (sizeof(K) == 8) return (void)type, t;
    else return radix_unimage_rt(t, type);
}

/* the dynamic shared memory of a tile: keys, values (pairs), the warps' counters, their mask rows
 * (MATCH = RK_MATCH_OR) */
template <class P, int KT, bool PAIRS>
__host__ __device__ static constexpr size_t ss_smem()
{
    return (size_t)P::TILE * sizeof(typename ss_width<KT>::key) + (PAIRS ? (size_t)P::TILE * 4 : 0) +
           (size_t)(P::MATCH == RK_MATCH_OR ? 2 : 1) * P::NW * P::RADIX * 4;
}

template <class P, class K, bool PAIRS>
struct ss_shared {
    K *keys;
    uint32_t *vals;
    unsigned *cnt;
    unsigned *masks; /* RK_MATCH_OR: a row of RADIX words a warp, zero between items; else NULL */
};

template <class P, class K, bool PAIRS>
static __device__ __forceinline__ ss_shared<P, K, PAIRS> ss_carve(unsigned char *base)
{
    ss_shared<P, K, PAIRS> s;
    s.keys = (K *)base;
    s.vals = (uint32_t *)(s.keys + P::TILE);
    s.cnt = s.vals + (PAIRS ? P::TILE : 0);
    s.masks = P::MATCH == RK_MATCH_OR ? s.cnt + P::NW * P::RADIX : NULL;
    return s;
}

/* this thread's items of the tile at src (tile_n valid), warp-striped; IMAGE: turn keys into images.
 * COHERENT: the loads go to L2 (ld.global.cg): the grid kernel reads what other blocks wrote in it */
template <class P, bool PAIRS, bool IMAGE, bool COHERENT, class K>
static __device__ __forceinline__ void ss_load(const K *src, const uint32_t *vsrc, unsigned tile_n, int type,
                                               K (&k)[P::KPT], uint32_t (&v)[PAIRS ? P::KPT : 1])
{
    const unsigned first = (threadIdx.x >> 5) * (P::KPT * 32u) + (threadIdx.x & 31u);
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = first + i * 32u;
        if (p < tile_n) {
            const K x = COHERENT ? __ldcg(src + p) : src[p];
            k[i] = IMAGE ? ss_image(x, type) : x;
            if constexpr (PAIRS) v[i] = COHERENT ? __ldcg(vsrc + p) : vsrc[p];
        } else {
            k[i] = ~(K)0;
            if constexpr (PAIRS) v[i] = 0;
        }
    }
}

/* this thread's items back from the tile in shared memory (after ss_rank_pass), as ss_load left them */
template <class P, bool PAIRS, class K>
static __device__ __forceinline__ void ss_reload(const ss_shared<P, K, PAIRS> &s, K (&k)[P::KPT],
                                                 uint32_t (&v)[PAIRS ? P::KPT : 1])
{
    const unsigned first = (threadIdx.x >> 5) * (P::KPT * 32u) + (threadIdx.x & 31u);
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        k[i] = s.keys[first + i * 32u];
        if constexpr (PAIRS) v[i] = s.vals[first + i * 32u];
    }
}

template <class P>
static __device__ __forceinline__ void ss_zero_counters(unsigned *cnt)
{
    for (int j = threadIdx.x; j < P::NW * P::RADIX; j += P::TBS) cnt[j] = 0;
}

/* the counters' columns and the digits' starts in one scan: thread d < RADIX loads column d (its
 * warps' counts of digit d), the digit totals are scanned across the first RADIX / 32 warps with one
 * barrier (each of those threads adds the totals of the warps before its own), and the column is
 * written back as digit start + warp prefix.  Returns digit d's count; *start its first position in
 * the tile.  Needs a barrier before (all counts done); every thread must call it. */
template <class P>
static __device__ __forceinline__ unsigned ss_scan_counters(unsigned *cnt, unsigned *start)
{
    constexpr int NW = P::NW, R = P::RADIX, RW = R / 32;
    __shared__ unsigned s_warp_tot[RW];
    const unsigned t = threadIdx.x, lane = t & 31u;
    unsigned c[NW], tot = 0, incl = 0, st = 0;
    if (t < (unsigned)R) {
#pragma unroll
        for (int w = 0; w < NW; w++) {
            c[w] = cnt[w * R + t];
            tot += c[w];
        }
        incl = warp_scan_incl<WS_SHFL>(tot, NULL);
        if (lane == 31u) s_warp_tot[t >> 5] = incl;
    }
    __syncthreads();
    if (t < (unsigned)R) {
        unsigned before = 0;
#pragma unroll
        for (int w = 0; w < RW; w++) before += (unsigned)w < (t >> 5) ? s_warp_tot[w] : 0u;
        st = before + incl - tot;
        unsigned run = st;
#pragma unroll
        for (int w = 0; w < NW; w++) {
            cnt[w * R + t] = run;
            run += c[w];
        }
    }
    *start = st;
    return tot;
}

/* One stable pass on bits [shift, shift + bits) of the images: the counters zero before (and a barrier
 * since), the tile in shared memory in the new order after (and a barrier since; the counters then hold
 * each warp's digit starts).  Thread d < RADIX gets the digit's count in the tile and, in *start, the
 * digit's first position in the tile.  ONE_SCAN: columns and digits in one scan (ss_scan_counters, one
 * barrier fewer, NW more registers live); else the column scan, a block scan and the column add. */
template <class P, int W, bool PAIRS, bool ONE_SCAN, class K>
static __device__ __forceinline__ unsigned ss_rank_pass(const ss_shared<P, K, PAIRS> &s, const K (&k)[P::KPT],
                                                        const uint32_t (&v)[PAIRS ? P::KPT : 1], int shift,
                                                        int bits, unsigned *start)
{
    const unsigned warp = threadIdx.x >> 5;
    unsigned *row = s.cnt + warp * P::RADIX;
    unsigned r[P::KPT], st;
    rk_rank_warp<W, P::KPT, P::MATCH, P::DIGIT_BITS>(k, shift, bits, row, r,
                                                     s.masks ? s.masks + warp * P::RADIX : NULL);
    __syncthreads();
    unsigned tot;
    if constexpr (ONE_SCAN) tot = ss_scan_counters<P>(s.cnt, &st);
    else { /* fewer registers live: the grid's budget */
        unsigned all;
        tot = rk_column_scan<P::NW, P::RADIX>(s.cnt);
        st = block_scan32_excl<P::TBS, WS_SHFL>(tot, &all);
        rk_column_add<P::NW, P::RADIX>(s.cnt, st);
    }
    __syncthreads();
    rk_fixup_exchange(k, r, row, s.keys);
    if constexpr (PAIRS) rk_exchange(s.vals, r, v);
    __syncthreads();
    *start = st;
    return tot;
}

/* n <= TILE keys (values) sorted on [begin, end) by one block, keys_in -> keys_out; begin < end */
template <class P, int KT, bool PAIRS>
__global__ void __launch_bounds__(P::TBS)
    ss_block_kernel(const typename ss_width<KT>::key *__restrict__ keys_in, typename ss_width<KT>::key *keys_out,
                    const uint32_t *__restrict__ vals_in, uint32_t *vals_out, unsigned n, int type, int begin,
                    int end)
{
    typedef typename ss_width<KT>::key K;
    extern __shared__ __align__(16) unsigned char ss_dyn[];
    const ss_shared<P, K, PAIRS> s = ss_carve<P, K, PAIRS>(ss_dyn);
    K k[P::KPT];
    uint32_t v[PAIRS ? P::KPT : 1];
    unsigned start;
    ss_load<P, PAIRS, true, false>(keys_in, vals_in, n, type, k, v);
    ss_zero_counters<P>(s.cnt);
    if (s.masks) ss_zero_counters<P>(s.masks); /* and zero between items from then on */
    __syncthreads();
    for (int shift = begin;;) {
        const int bits = end - shift < P::DIGIT_BITS ? end - shift : P::DIGIT_BITS;
        (void)ss_rank_pass<P, ss_width<KT>::W, PAIRS, true>(s, k, v, shift, bits, &start);
        shift += bits;
        if (shift >= end) break;
        ss_reload(s, k, v);
        ss_zero_counters<P>(s.cnt);
        __syncthreads();
    }
    /* position p = i TBS + t: each store instruction writes TBS consecutive keys */
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = i * P::TBS + threadIdx.x;
        if (p < n) {
            keys_out[p] = ss_unimage(s.keys[p], type);
            if constexpr (PAIRS) vals_out[p] = s.vals[p];
        }
    }
}

/* the grid kernel's shared memory past the tile's: per digit, the counts of the blocks before this one
 * and of all blocks, then the digit's offset */
template <class P>
__host__ __device__ static constexpr size_t ss_grid_extra()
{
    return (size_t)P::RADIX * 4 * 3;
}

/* a grid of fewer blocks than a warp has lanes: thread d < RADIX walks digit d's row alone (its G loads
 * independent, so several in flight), and no warp waits on lanes that have nothing to read */
static constexpr unsigned SS_SUM_BY_WARP_MIN_G = 32;

/* the grid's counts of this pass complete (after the grid barrier): for each digit d, the counts of the
 * blocks before b and of all G blocks, row[d G .. d G + G), to s_before[d] and s_total[d].  From
 * SS_SUM_BY_WARP_MIN_G blocks, warp w takes the digits w, w + NW, ...: its lanes read a digit's counts
 * side by side (one coalesced load a warp for 32 blocks), U digits at a time (U loads in flight a
 * lane), and the warp adds its lanes' sums; below it, a thread a digit. */
template <class P>
static __device__ __forceinline__ void ss_grid_sum_row(const unsigned *row, unsigned G, unsigned b,
                                                       unsigned *s_before, unsigned *s_total)
{
    constexpr int NW = P::NW, DPW = P::RADIX / NW, U = DPW < 8 ? DPW : 8;
    static_assert(P::RADIX % NW == 0 && DPW % U == 0, "every warp takes the same number of digits");
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    if (G < SS_SUM_BY_WARP_MIN_G) { /* the same branch for the whole grid */
        if (threadIdx.x < (unsigned)P::RADIX) {
            const unsigned *c = row + (size_t)threadIdx.x * G;
            unsigned before = 0, total = 0;
#pragma unroll 4
            for (unsigned j = 0; j < G; j++) {
                const unsigned x = __ldcg(c + j);
                total += x;
                before += j < b ? x : 0u;
            }
            s_before[threadIdx.x] = before;
            s_total[threadIdx.x] = total;
        }
        return;
    }
#pragma unroll 1
    for (int i0 = 0; i0 < DPW; i0 += U) {
        unsigned before[U], total[U];
#pragma unroll
        for (int u = 0; u < U; u++) before[u] = total[u] = 0;
        for (unsigned j = lane; j < G; j += 32) {
#pragma unroll
            for (int u = 0; u < U; u++) {
                const unsigned x = __ldcg(row + (size_t)(warp + (i0 + u) * NW) * G + j);
                total[u] += x;
                before[u] += j < b ? x : 0u;
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) {
                before[u] += __shfl_xor_sync(0xffffffffu, before[u], o);
                total[u] += __shfl_xor_sync(0xffffffffu, total[u], o);
            }
            if (lane == 0) {
                s_before[warp + (i0 + u) * NW] = before[u];
                s_total[warp + (i0 + u) * NW] = total[u];
            }
        }
    }
}

/* n keys (values), G = gridDim.x tiles of TILE, one a block, all resident (a cooperative launch), sorted
 * on [begin, end): the passes alternate between alt and out so that the last writes out; the images
 * travel between passes, the keys' own bits are written by the last.  table: (end - begin + 7) / 8
 * rows of RADIX x G counts. */
template <class P, int KT, bool PAIRS>
__global__ void __launch_bounds__(P::TBS, P::MIN_BLOCKS)
    ss_grid_kernel(const typename ss_width<KT>::key *__restrict__ keys_in, typename ss_width<KT>::key *keys_out,
                   typename ss_width<KT>::key *alt_keys, const uint32_t *__restrict__ vals_in, uint32_t *vals_out,
                   uint32_t *alt_vals, unsigned *table, unsigned n, int type, int begin, int end)
{
    typedef typename ss_width<KT>::key K;
    constexpr int R = P::RADIX;
    extern __shared__ __align__(16) unsigned char ss_dyn[];
    const ss_shared<P, K, PAIRS> s = ss_carve<P, K, PAIRS>(ss_dyn);
    unsigned *s_before = (unsigned *)(ss_dyn + ss_smem<P, KT, PAIRS>()), *s_total = s_before + R,
             *s_goff = s_total + R;
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    const unsigned G = gridDim.x, b = blockIdx.x, base = b * P::TILE;
    const unsigned tile_n = n - base < P::TILE ? n - base : P::TILE;
    const int passes = (end - begin + P::DIGIT_BITS - 1) / P::DIGIT_BITS;
    K k[P::KPT];
    uint32_t v[PAIRS ? P::KPT : 1];
    const K *src = keys_in;
    const uint32_t *vsrc = vals_in;
    ss_zero_counters<P>(s.cnt);
    if (s.masks) ss_zero_counters<P>(s.masks);
    __syncthreads();
    for (int p = 0; p < passes; p++) {
        const int shift = begin + p * P::DIGIT_BITS;
        const int bits = end - shift < P::DIGIT_BITS ? end - shift : P::DIGIT_BITS;
        const bool last = p == passes - 1;
        K *dst = ((passes - 1 - p) & 1) == 0 ? keys_out : alt_keys;
        uint32_t *vdst = ((passes - 1 - p) & 1) == 0 ? vals_out : alt_vals;
        unsigned *row = table + (size_t)p * R * G;
        unsigned start;
        if (p == 0) ss_load<P, PAIRS, true, false>(src + base, vsrc + (PAIRS ? base : 0), tile_n, type, k, v);
        else ss_load<P, PAIRS, false, true>(src + base, vsrc + (PAIRS ? base : 0), tile_n, type, k, v);
        const unsigned tot = ss_rank_pass<P, ss_width<KT>::W, PAIRS, false>(s, k, v, shift, bits, &start);
        if (threadIdx.x < (unsigned)R) row[threadIdx.x * G + b] = tot;
        grid.sync();
        ss_grid_sum_row<P>(row, G, b, s_before, s_total);
        __syncthreads();
        {
            unsigned before = 0, total = 0, all;
            if (threadIdx.x < (unsigned)R) {
                before = s_before[threadIdx.x];
                total = s_total[threadIdx.x];
            }
            const unsigned dstart = block_scan32_excl<P::TBS, WS_SHFL>(total, &all);
            /* the digit's global start for this tile minus its start in the tile (modulo 2^32) */
            if (threadIdx.x < (unsigned)R) s_goff[threadIdx.x] = dstart + before - start;
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < P::KPT; i++) {
            const unsigned q = i * P::TBS + threadIdx.x;
            if (q < tile_n) {
                const K key = s.keys[q];
                const unsigned g = s_goff[radix_digit<ss_width<KT>::W>(key, shift, bits)] + q;
                dst[g] = last ? ss_unimage(key, type) : key;
                if constexpr (PAIRS) vdst[g] = s.vals[q];
            }
        }
        if (last) break;
        ss_zero_counters<P>(s.cnt);
        src = dst;
        vsrc = vdst;
        grid.sync(); /* every key of this pass in place before any tile of the next is loaded */
    }
}

#endif
