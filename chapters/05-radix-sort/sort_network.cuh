/* sort_network.cuh - s13's device half (s13_sort_network.cu has the lesson and the host's choice): one
 * block sorts up to TBS x KPT keys with a bitonic sorting network, most of its stages in registers.
 *
 * The network: element e (0 .. TILE - 1) is item e % KPT of lane (e / KPT) % 32 of warp e / (32 KPT),
 * so a thread's KPT items are consecutive elements and a warp's 32 KPT items a consecutive run.  For
 * k = 2, 4, .., TILE the sorted runs of k / 2 become runs of k: first e against its mirror e ^ (k - 1)
 * in the run (the lower keeps the smaller key), then half-cleaners e against e + j, j = k / 4 .. 1 (the
 * lower keeps the smaller).  Every comparison keeps the smaller key at the lower element, so no stage
 * needs a direction.  Where the partner is:
 *   j < KPT          the same thread: two registers (sn_stage_lane)
 *   j < 32 KPT       another lane of the warp: __shfl_xor_sync on the lane's bits (sn_stage_shfl)
 *   j >= 32 KPT      another warp: shared memory, a barrier between stages (sn_stage_block)
 * The keys are images (radix_keys.cuh), compared as unsigned integers, and the pads past n are all
 * ones: they sort after every key, and the block stores only the first n.  The network is not stable,
 * which only keys alone over every bit allow (equal images are equal keys). */
#ifndef SORT_NETWORK_CUH
#define SORT_NETWORK_CUH

#include "small_sort.cuh"

/* a tile: TBS threads x KPT keys a thread, both powers of two */
template <int TBS_, int KPT_>
struct sn_tile {
    static constexpr int TBS = TBS_;
    static constexpr int KPT = KPT_;
    static constexpr int WARP_ITEMS = 32 * KPT; /* a warp's run: the strides below it need no barrier */
    static constexpr unsigned TILE = (unsigned)TBS * KPT;
    static_assert(TBS % 32 == 0 && TBS <= 1024 && (TBS & (TBS - 1)) == 0, "whole warps, a power of two");
    static_assert(KPT >= 2 && (KPT & (KPT - 1)) == 0, "a power of two keys a thread");
};

template <class K>
static __device__ __forceinline__ void sn_cas(K &lo, K &hi)
{
    const K a = lo, b = hi;
    lo = a < b ? a : b;
    hi = a < b ? b : a;
}

/* the stage of merge K on stride J between a thread's own items: the mirror stage (e ^ (K - 1)) when
 * MIRROR, else the half-cleaner (e + J) */
template <int KPT, int K, int J, bool MIRROR, class T>
static __device__ __forceinline__ void sn_stage_lane(T (&x)[KPT])
{
#pragma unroll
    for (int i = 0; i < KPT; i++)
        if ((i & J) == 0) sn_cas(x[i], x[MIRROR ? i ^ (K - 1) : i | J]);
}

/* the same between lanes: the partner's item, from the lane whose index differs in the bits of the
 * stride (and, MIRROR, in every lane bit below the run's, from its mirrored item); the lower lane
 * keeps the smaller key */
template <int KPT, int K, int J, bool MIRROR, class T>
static __device__ __forceinline__ void sn_stage_shfl(T (&x)[KPT], unsigned lane)
{
    constexpr int LB = __builtin_ctz(KPT);
    constexpr unsigned LANES = MIRROR ? (unsigned)(K - 1) >> LB : (unsigned)J >> LB, HIGH = (unsigned)J >> LB;
    const bool lower = (lane & HIGH) == 0;
    T y[KPT];
#pragma unroll
    for (int i = 0; i < KPT; i++) y[i] = __shfl_xor_sync(0xffffffffu, x[MIRROR ? i ^ (KPT - 1) : i], LANES);
#pragma unroll
    for (int i = 0; i < KPT; i++) x[i] = lower == (x[i] < y[i]) ? x[i] : y[i];
}

template <int KPT, int K, int J, bool MIRROR, class T>
static __device__ __forceinline__ void sn_stage_warp(T (&x)[KPT], unsigned lane)
{
    if constexpr (MIRROR ? K <= KPT : J < KPT) sn_stage_lane<KPT, K, J, MIRROR>(x);
    else sn_stage_shfl<KPT, K, J, MIRROR>(x, lane);
}

/* the half-cleaners of strides J .. 1 */
template <int KPT, int K, int J, class T>
static __device__ __forceinline__ void sn_clean_warp(T (&x)[KPT], unsigned lane)
{
    if constexpr (J >= 1) {
        sn_stage_warp<KPT, K, J, false>(x, lane);
        sn_clean_warp<KPT, K, J / 2>(x, lane);
    }
}

/* merges K, 2K, .. up to the warp's run, in registers and shuffles */
template <int KPT, int K, class T>
static __device__ __forceinline__ void sn_sort_warp(T (&x)[KPT], unsigned lane)
{
    sn_stage_warp<KPT, K, K / 2, true>(x, lane);
    sn_clean_warp<KPT, K, K / 4>(x, lane);
    if constexpr (2 * K <= 32 * KPT) sn_sort_warp<KPT, 2 * K>(x, lane);
}

/* a stage of merge k on stride j >= the warp's run, in shared memory: pair m of the thread is q =
 * t + m TBS, its lower element q with a zero bit inserted at j's place, the upper that plus j (or,
 * the mirror stage, its mirror in the run of k) */
template <class P, class T>
static __device__ __forceinline__ void sn_stage_block(T *s, unsigned k, unsigned j)
{
#pragma unroll
    for (int m = 0; m < (int)P::TILE / 2 / P::TBS; m++) {
        const unsigned q = threadIdx.x + m * P::TBS;
        const unsigned a = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        const unsigned b = j == k / 2 ? a ^ (k - 1) : a + j;
        T lo = s[a], hi = s[b];
        sn_cas(lo, hi);
        s[a] = lo;
        s[b] = hi;
    }
}

/* the thread's items x sorted with the block's: on return s[e] is element e of the sorted tile (and a
 * barrier since) */
template <class P, class T>
static __device__ __forceinline__ void sn_sort_block(T (&x)[P::KPT], T *s)
{
    constexpr int KPT = P::KPT;
    const unsigned lane = threadIdx.x & 31u, mine = (threadIdx.x >> 5) * P::WARP_ITEMS + lane * KPT;
    sn_sort_warp<KPT, 2>(x, lane);
#pragma unroll 1
    for (unsigned k = 2 * P::WARP_ITEMS; k <= P::TILE; k *= 2) {
#pragma unroll
        for (int i = 0; i < KPT; i++) s[mine + i] = x[i];
        __syncthreads();
        for (unsigned j = k / 2; j >= (unsigned)P::WARP_ITEMS; j /= 2) {
            sn_stage_block<P>(s, k, j);
            __syncthreads();
        }
#pragma unroll
        for (int i = 0; i < KPT; i++) x[i] = s[mine + i];
        sn_clean_warp<KPT, 0, 16 * KPT>(x, lane);
        __syncthreads(); /* every thread has its items before the next merge overwrites s */
    }
#pragma unroll
    for (int i = 0; i < KPT; i++) s[mine + i] = x[i];
    __syncthreads();
}

/* n <= TILE keys of type type sorted by one block, keys_in -> keys_out */
template <class P, int KT>
__global__ void __launch_bounds__(P::TBS)
    sn_block_kernel(const typename ss_width<KT>::key *keys_in, typename ss_width<KT>::key *keys_out, unsigned n,
                    int type)
{
    typedef typename ss_width<KT>::key K;
    __shared__ __align__(16) K s[P::TILE];
    K x[P::KPT];
    /* the loads warp-striped (each instruction 32 consecutive keys): which element a key starts as does
     * not matter to a sorting network */
    const unsigned first = (threadIdx.x >> 5) * P::WARP_ITEMS + (threadIdx.x & 31u);
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = first + i * 32u;
        x[i] = p < n ? ss_image(keys_in[p], type) : ~(K)0;
    }
    sn_sort_block<P>(x, s);
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = i * P::TBS + threadIdx.x;
        if (p < n) keys_out[p] = ss_unimage(s[p], type);
    }
}

/* n <= TILE pairs of 32-bit keys and values, stable: each key's image and its position as one 64-bit
 * word, so that equal keys keep their order, and the values fetched by position at the end.  A tuning
 * row only: twice the bits a compare and a shuffle, and a gather */
template <class P>
__global__ void __launch_bounds__(P::TBS)
    sn_pairs_kernel(const uint32_t *keys_in, uint32_t *keys_out, const uint32_t *__restrict__ vals_in,
                    uint32_t *vals_out, unsigned n, int type)
{
    typedef unsigned long long W;
    __shared__ __align__(16) W s[P::TILE];
    W x[P::KPT];
    const unsigned first = (threadIdx.x >> 5) * P::WARP_ITEMS + (threadIdx.x & 31u);
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = first + i * 32u;
        x[i] = p < n ? (W)ss_image(keys_in[p], type) << 32 | p : ~(W)0;
    }
    sn_sort_block<P>(x, s);
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = i * P::TBS + threadIdx.x;
        if (p < n) {
            const W w = s[p];
            keys_out[p] = ss_unimage((uint32_t)(w >> 32), type);
            vals_out[p] = vals_in[(uint32_t)w];
        }
    }
}

#endif
