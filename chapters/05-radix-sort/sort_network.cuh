/* sort_network.cuh - s13's and s14's device half (their .cu files have the lessons and the host's
 * choices): one block, or a cluster of blocks, sorts a tile of TBS x KPT keys a block with a bitonic
 * sorting network, most of its stages in registers.
 *
 * The network: element e (0 .. TILE - 1) is item e % KPT of lane (e / KPT) % 32 of warp e / (32 KPT),
 * so a thread's KPT items are consecutive elements and a warp's 32 KPT items a consecutive run.  For
 * k = 2, 4, .., TILE the sorted runs of k / 2 become runs of k: first e against its mirror e ^ (k - 1)
 * in the run (the lower keeps the smaller key), then half-cleaners e against e + j, j = k / 4 .. 1 (the
 * lower keeps the smaller).  Every comparison keeps the smaller key at the lower element, so no stage
 * needs a direction.  Where the partner is:
 *   j < KPT          the same thread: two registers (sn_stage_lane)
 *   j < 32 KPT       another lane of the warp: __shfl_xor_sync on the lane's bits (sn_stage_shfl)
 *   j >= 32 KPT      another warp: shared memory, log2 KPT stages a barrier (sn_merge_round; the
 *                    first form, a stage a barrier, is sn_stage_block, kept for the tuning table)
 *   j >= TILE        another block of the cluster: its shared memory (sn_sort_cluster)
 * The keys are images (radix_keys.cuh), compared as unsigned integers, and the pads past n are all
 * ones: they sort after every key, and the block stores only the first n.  The network is not stable,
 * which only keys alone over every bit allow (equal images are equal keys); pairs sort (key image,
 * position) words, which are all distinct. */
#ifndef SORT_NETWORK_CUH
#define SORT_NETWORK_CUH

#include "small_sort.cuh"

/* how a merge does its strides past a warp's run: one stage at a time in shared memory, a barrier
 * each (SN_MERGE_STAGES), or log2 KPT stages a round, a thread's KPT items regrouped so that they are
 * the elements those stages compare (SN_MERGE_GROUPS, sn_merge_groups) */
enum sn_merge { SN_MERGE_STAGES, SN_MERGE_GROUPS };

/* a tile: TBS threads x KPT keys a thread, both powers of two; BUFS tiles of shared memory for the
 * grouped merge (2: each round writes the other one, so that no barrier is needed before the next
 * merge overwrites the one just read; taken where two fit the static 48 KiB) */
template <int TBS_, int KPT_, sn_merge MERGE_ = SN_MERGE_STAGES, int BUFS_ = 1>
struct sn_tile {
    static constexpr int TBS = TBS_;
    static constexpr int KPT = KPT_;
    static constexpr sn_merge MERGE = MERGE_;
    static constexpr int BUFS = BUFS_;
    static constexpr int WARP_ITEMS = 32 * KPT; /* a warp's run: the strides below it need no barrier */
    static constexpr unsigned TILE = (unsigned)TBS * KPT;
    static_assert(TBS % 32 == 0 && TBS <= 1024 && (TBS & (TBS - 1)) == 0, "whole warps, a power of two");
    static_assert(KPT >= 2 && (KPT & (KPT - 1)) == 0, "a power of two keys a thread");
    static_assert(BUFS == 1 || (BUFS == 2 && MERGE == SN_MERGE_GROUPS), "two buffers for the grouped merge");
};

/* the shared-memory tiles a block of tile P sorting words of B bytes takes, with EXTRA bytes beside */
template <class P, int B, int EXTRA = 0>
static constexpr __host__ __device__ int sn_bufs()
{
    return P::BUFS == 2 && 2 * P::TILE * B + EXTRA <= 48 * 1024 ? 2 : 1;
}

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

/* the half-cleaners of item strides J .. 1 in registers */
template <int KPT, int J, class T>
static __device__ __forceinline__ void sn_clean_lane(T (&x)[KPT])
{
    if constexpr (J >= 1) {
        sn_stage_lane<KPT, 0, J, false>(x);
        sn_clean_lane<KPT, J / 2>(x);
    }
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
template <int KPT, int J, class T>
static __device__ __forceinline__ void sn_clean_warp(T (&x)[KPT], unsigned lane)
{
    if constexpr (J >= 1) {
        sn_stage_warp<KPT, 0, J, false>(x, lane);
        sn_clean_warp<KPT, J / 2>(x, lane);
    }
}

/* merges K, 2K, .. up to the warp's run, in registers and shuffles */
template <int KPT, int K, class T>
static __device__ __forceinline__ void sn_sort_warp(T (&x)[KPT], unsigned lane)
{
    sn_stage_warp<KPT, K, K / 2, true>(x, lane);
    sn_clean_warp<KPT, K / 4>(x, lane);
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

/* A round of merge K in shared memory on the strides JH .. JL = 2 JH / KPT, each thread's KPT items
 * the elements those strides compare, so the round's log2 KPT stages run in registers (sn_stage_lane
 * on the item index).  The mirror round (JH = K / 2): the thread of offset b in its run of K holds
 * b + m JL for m < KPT / 2 and its mirror group's (JL - 1 - b) + m JL for m >= KPT / 2, so that item
 * m's mirror e ^ (K - 1) is item KPT - 1 - m; a half-cleaner round: the thread holds b + m JL in its
 * segment of KPT JL.  Consecutive threads take consecutive offsets: no bank conflict for JL >= 32. */
template <class P, unsigned K, unsigned JH, class T>
static __device__ __forceinline__ void sn_merge_round(const T *src, T *dst)
{
    constexpr int KPT = P::KPT;
    constexpr bool MIRROR = JH == K / 2;
    constexpr unsigned JL = 2 * JH / KPT, SEG = KPT * JL;
    const unsigned t = threadIdx.x, b = t % JL, base = t / JL * SEG;
    unsigned a[KPT];
    T x[KPT];
#pragma unroll
    for (int m = 0; m < KPT; m++) a[m] = base + (MIRROR && m >= KPT / 2 ? JL - 1 - b : b) + m * JL;
#pragma unroll
    for (int m = 0; m < KPT; m++) x[m] = src[a[m]];
    if constexpr (MIRROR) sn_stage_lane<KPT, KPT, KPT / 2, true>(x);
    else sn_stage_lane<KPT, 0, KPT / 2, false>(x);
    sn_clean_lane<KPT, KPT / 4>(x);
#pragma unroll
    for (int m = 0; m < KPT; m++) dst[a[m]] = x[m];
}

/* 1 when a round of top stride JH runs in shared memory: while the strides are past the warp's run,
 * and then while the round's lowest stride is at least 32 (bank-conflict free) */
template <class P>
static constexpr __host__ __device__ bool sn_round_in_smem(unsigned jh)
{
    return jh >= (unsigned)P::WARP_ITEMS || 2 * jh / P::KPT >= 32;
}

/* strides JH .. 1 of merge K (K = 0: half-cleaners only), the elements in tile cur: rounds in shared
 * memory, each into the other tile oth where there are two (then cur and oth swap), then the strides
 * left in the warp; x in the warp layout after, read from cur */
template <class P, unsigned K, unsigned JH, class T>
static __device__ __forceinline__ void sn_merge_rounds(T (&x)[P::KPT], T *&cur, T *&oth, unsigned lane,
                                                       unsigned mine)
{
    constexpr int KPT = P::KPT;
    if constexpr (sn_round_in_smem<P>(JH)) {
        sn_merge_round<P, K, JH>(cur, oth);
        __syncthreads();
        T *t = cur;
        cur = oth;
        oth = t;
        sn_merge_rounds<P, K, JH / KPT>(x, cur, oth, lane, mine);
    } else {
#pragma unroll
        for (int i = 0; i < KPT; i++) x[i] = cur[mine + i];
        if constexpr (JH >= 1) sn_clean_warp<KPT, JH>(x, lane);
        /* one tile: every thread has its items before the next merge overwrites it */
        if (cur == oth) __syncthreads();
    }
}

/* x stored to the tile not read last (oth), which becomes cur; a barrier since */
template <class P, class T>
static __device__ __forceinline__ void sn_put(const T (&x)[P::KPT], T *&cur, T *&oth, unsigned mine)
{
    T *t = oth;
    oth = cur;
    cur = t;
#pragma unroll
    for (int i = 0; i < P::KPT; i++) cur[mine + i] = x[i];
    __syncthreads();
}

/* merges K, 2K, .. TILE by rounds; on return cur holds the sorted tile */
template <class P, unsigned K, class T>
static __device__ __forceinline__ void sn_merge_groups(T (&x)[P::KPT], T *&cur, T *&oth, unsigned lane, unsigned mine)
{
    sn_put<P>(x, cur, oth, mine);
    if constexpr (K <= P::TILE) {
        sn_merge_rounds<P, K, K / 2>(x, cur, oth, lane, mine);
        sn_merge_groups<P, 2 * K>(x, cur, oth, lane, mine);
    }
}

/* merges 2 WARP_ITEMS .. TILE one stage at a time: x in the warp layout before and after */
template <class P, class T>
static __device__ __forceinline__ void sn_merge_stages(T (&x)[P::KPT], T *s, unsigned lane, unsigned mine)
{
    constexpr int KPT = P::KPT;
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
        sn_clean_warp<KPT, 16 * KPT>(x, lane);
        __syncthreads(); /* every thread has its items before the next merge overwrites s */
    }
}

/* the thread's items x sorted with the block's, s holding BUFS tiles: returns the tile that holds
 * the sorted elements (and a barrier since) */
template <class P, int BUFS, class T>
static __device__ __forceinline__ T *sn_sort_block(T (&x)[P::KPT], T *s)
{
    constexpr int KPT = P::KPT;
    const unsigned lane = threadIdx.x & 31u, mine = (threadIdx.x >> 5) * P::WARP_ITEMS + lane * KPT;
    T *cur = s, *oth = s + (BUFS - 1) * P::TILE;
    sn_sort_warp<KPT, 2>(x, lane);
    if constexpr (P::MERGE == SN_MERGE_GROUPS) {
        sn_merge_groups<P, 2 * P::WARP_ITEMS>(x, cur, oth, lane, mine);
        return cur;
    }
    sn_merge_stages<P>(x, s, lane, mine);
#pragma unroll
    for (int i = 0; i < KPT; i++) s[mine + i] = x[i];
    __syncthreads();
    return s;
}

/* a block's KPT items a thread from elements base .. base + TILE - 1, warp-striped (each instruction
 * 32 consecutive elements: which element a key starts as does not matter to a sorting network): key
 * images, or (PAIRS) image and position words; the pads past n all ones */
template <class P, bool PAIRS, class K, class W>
static __device__ __forceinline__ void sn_load(W (&x)[P::KPT], const K *keys_in, unsigned n, int type, unsigned base)
{
    const unsigned first = base + (threadIdx.x >> 5) * P::WARP_ITEMS + (threadIdx.x & 31u);
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = first + i * 32u;
        if constexpr (PAIRS) x[i] = p < n ? (W)ss_image(keys_in[p], type) << 32 | p : ~(W)0;
        else x[i] = p < n ? ss_image(keys_in[p], type) : ~(W)0;
    }
}

/* the sorted tile r of elements base .. back to global memory, coalesced: keys, or (PAIRS) keys and
 * the values fetched by position */
template <class P, bool PAIRS, class K, class W>
static __device__ __forceinline__ void sn_store(const W *r, K *keys_out, const uint32_t *__restrict__ vals_in,
                                                uint32_t *vals_out, unsigned n, int type, unsigned base)
{
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = base + i * P::TBS + threadIdx.x;
        if (p < n) {
            const W w = r[p - base];
            if constexpr (PAIRS) {
                keys_out[p] = ss_unimage((uint32_t)(w >> 32), type);
                vals_out[p] = vals_in[(uint32_t)w];
            } else {
                keys_out[p] = ss_unimage(w, type);
            }
        }
    }
}

/* n <= TILE keys of type type sorted by one block, keys_in -> keys_out */
template <class P, int KT>
__global__ void __launch_bounds__(P::TBS)
    sn_block_kernel(const typename ss_width<KT>::key *keys_in, typename ss_width<KT>::key *keys_out, unsigned n,
                    int type)
{
    typedef typename ss_width<KT>::key K;
    constexpr int BUFS = sn_bufs<P, sizeof(K)>();
    __shared__ __align__(16) K s[BUFS * P::TILE];
    K x[P::KPT];
    sn_load<P, false>(x, keys_in, n, type, 0);
    sn_store<P, false>(sn_sort_block<P, BUFS>(x, s), keys_out, (const uint32_t *)NULL, (uint32_t *)NULL, n, type, 0);
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
    constexpr int BUFS = sn_bufs<P, sizeof(W)>();
    __shared__ __align__(16) W s[BUFS * P::TILE];
    W x[P::KPT];
    sn_load<P, true>(x, keys_in, n, type, 0);
    sn_store<P, true>(sn_sort_block<P, BUFS>(x, s), keys_out, vals_in, vals_out, n, type, 0);
}

/* ---- a cluster of CL blocks (sm_90 and later): block r sorts elements r TILE .. (r + 1) TILE - 1 of
 * the network as above, then the merges of runs of 2, 4, .. CL tiles.  A merge's strides of a tile and
 * more pair element e of block r with element e (or, the mirror stage, TILE - 1 - e) of block r ^ (its
 * block bits): each block reads its partner's tile through distributed shared memory and writes what it
 * keeps to its own other tile, a cluster barrier between stages; the strides below a tile are the
 * block's own rounds.  Two tiles a block: a stage reads one and writes the other, so one barrier a
 * stage orders both the partner's writes before the reads and the reads before the next writes. */

/* how the blocks of a cluster wait for each other between stages across tiles.  SN_SYNC_CLUSTER:
 * cooperative groups' cluster.sync(), whose arrive releases every earlier write of the thread to the
 * whole cluster, global memory included: on sm_90 a GPU-wide memory barrier at every stage.
 * SN_SYNC_SHARED: a release fence restricted to the block's own shared memory (all a stage publishes
 * is its tile), then a relaxed arrive and the wait, which acquires as cluster.sync()'s does. */
enum sn_sync { SN_SYNC_CLUSTER, SN_SYNC_SHARED };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <sn_sync SYNC>
static __device__ __forceinline__ void sn_cluster_wait(cooperative_groups::cluster_group &cl)
{
    if constexpr (SYNC == SN_SYNC_SHARED) {
        asm volatile("fence.release.sync_restrict::shared::cta.cluster;" ::: "memory");
        asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    } else {
        cl.sync();
    }
}

/* word i of a tile at shared::cluster address far (mapa), as ld.shared::cluster: the window is
 * known, so no generic-address check */
template <class T>
static __device__ __forceinline__ T sn_far_load(uint32_t far, unsigned i)
{
    const uint32_t a = far + (uint32_t)(i * sizeof(T));
    if constexpr (sizeof(T) == 8) {
        unsigned long long v;
        asm volatile("ld.shared::cluster.u64 %0, [%1];" : "=l"(v) : "r"(a) : "memory");
        return (T)v;
    } else {
        uint32_t v;
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
        return (T)v;
    }
}

/* a stage across tiles: every partner item first, then the block's own, then the kept halves
 * stored.  Interleaved item by item, each partner load would wait for the one before it: the
 * compiler cannot tell the partner's tile from the one being written, so it keeps every store ahead
 * of the next load, and a store needs the last load's data. */
template <class P, class T>
static __device__ __forceinline__ void sn_stage_cluster(const T *cur, T *oth, unsigned partner, bool mirror,
                                                        bool lower)
{
    uint32_t far;
    const uint32_t mine = (uint32_t)__cvta_generic_to_shared(cur);
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(far) : "r"(mine), "r"(partner));
    T a[P::KPT], b[P::KPT];
#pragma unroll
    for (int i = 0; i < P::KPT; i++) {
        const unsigned p = i * P::TBS + threadIdx.x;
        b[i] = sn_far_load<T>(far, mirror ? P::TILE - 1 - p : p);
    }
#pragma unroll
    for (int i = 0; i < P::KPT; i++) a[i] = cur[i * P::TBS + threadIdx.x];
#pragma unroll
    for (int i = 0; i < P::KPT; i++) oth[i * P::TBS + threadIdx.x] = lower == (a[i] < b[i]) ? a[i] : b[i];
}
#endif

template <class P, int CL, sn_sync SYNC, class T>
static __device__ __forceinline__ T *sn_sort_cluster(T (&x)[P::KPT], T *s)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    const unsigned r = cl.block_rank(), lane = threadIdx.x & 31u;
    const unsigned mine = (threadIdx.x >> 5) * P::WARP_ITEMS + lane * P::KPT;
    T *cur = sn_sort_block<P, 2>(x, s);
    T *oth = cur == s ? s + P::TILE : s;
#pragma unroll 1
    for (unsigned kb = 2; kb <= (unsigned)CL; kb *= 2) {
        if (kb > 2) {
#pragma unroll
            for (int i = 0; i < P::KPT; i++) oth[mine + i] = x[i];
            T *t = cur;
            cur = oth;
            oth = t;
        }
#pragma unroll 1
        for (unsigned jb = kb / 2; jb >= 1; jb /= 2) {
            const bool mirror = jb == kb / 2;
            const unsigned partner = mirror ? r ^ (kb - 1) : r ^ jb;
            sn_cluster_wait<SYNC>(cl); /* the partner's tile written; every read of the tile written below done */
            sn_stage_cluster<P>(cur, oth, partner, mirror, r < partner);
            T *t = cur;
            cur = oth;
            oth = t;
        }
        sn_cluster_wait<SYNC>(cl); /* the last stage's writes seen, and no block reads this one's tiles any more */
        sn_merge_rounds<P, 0, P::TILE / 2>(x, cur, oth, lane, mine);
    }
    sn_put<P>(x, cur, oth, mine);
    return cur;
#else
    (void)x;
    __trap();
    return s;
#endif
}

/* n <= CL TILE keys sorted by a cluster of CL blocks (launched by radix_launch_cluster) */
template <class P, int CL, sn_sync SYNC, int KT>
__global__ void __launch_bounds__(P::TBS)
    sn_cluster_kernel(const typename ss_width<KT>::key *keys_in, typename ss_width<KT>::key *keys_out, unsigned n,
                      int type)
{
    typedef typename ss_width<KT>::key K;
    __shared__ __align__(16) K s[2 * P::TILE];
    K x[P::KPT];
    sn_load<P, false>(x, keys_in, n, type, blockIdx.x * P::TILE);
    sn_store<P, false>(sn_sort_cluster<P, CL, SYNC>(x, s), keys_out, (const uint32_t *)NULL, (uint32_t *)NULL, n, type,
                       blockIdx.x * P::TILE);
}

/* the same for pairs of 32-bit keys, stable, by (key, position) words */
template <class P, int CL, sn_sync SYNC>
__global__ void __launch_bounds__(P::TBS)
    sn_cluster_pairs_kernel(const uint32_t *keys_in, uint32_t *keys_out, const uint32_t *__restrict__ vals_in,
                            uint32_t *vals_out, unsigned n, int type)
{
    typedef unsigned long long W;
    __shared__ __align__(16) W s[2 * P::TILE];
    W x[P::KPT];
    sn_load<P, true>(x, keys_in, n, type, blockIdx.x * P::TILE);
    sn_store<P, true>(sn_sort_cluster<P, CL, SYNC>(x, s), keys_out, vals_in, vals_out, n, type, blockIdx.x * P::TILE);
}

#endif
