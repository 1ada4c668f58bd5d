/* msd_hybrid.cu - a row of the onesweep tuning table (issue 30): fewer passes over memory by a split
 * on the most significant bits (after Stehle & Jacobsen's hybrid), for 32-bit keys without values
 * sorted on all their bits.
 *
 * What changed versus s5: s5 sorts the keys on bits 16..31 only (its histogram kernel and two
 * passes), which leaves them in 65536 groups of equal top halves, each contiguous; a binary search
 * per group finds where each starts; then one block per group loads it, sorts it on bits 0..15 in
 * shared memory (two 8-bit rankings) and writes it back in order.  Three reads and writes of the keys
 * instead of four (plus the histogram read): 28 bytes a key instead of 36.
 *
 * Why the on-chip pass costs less than the two passes it replaces: no look-back and no scattered
 * stores (a group is written back contiguously), and its first ranking needs no order: for keys
 * alone on all their bits, two keys that share the first digit but differ in the second are put in
 * order by the second (stable) ranking, and keys that share both digits and the top half are equal.
 * So that ranking is a shared-memory atomic a key instead of eight ballots.
 *
 * What limits it: the groups must fit a block (4608 keys).  Uniform keys at 2^28 make groups of
 * about 4096; skewed keys (low-entropy, normal floats) make groups of millions, which one block
 * sorts here through global memory, correct and slow: a real step needs a further split of those
 * groups (Stehle & Jacobsen's recursion).  Pairs, bit ranges and 64-bit keys run s5 as it is. */
#include "radix_rank.cuh"

#define MH_GROUP_BITS 16
#define MH_GROUPS (1u << MH_GROUP_BITS)
#define MH_TBS 256
#define MH_KPT 18
#define MH_BIG_BLOCKS 1024 /* the big-group kernel's blocks, each looping over MH_GROUPS / 1024 groups */

/* off[g] = the first position whose key's top 16 image bits are >= g, g = 0 .. MH_GROUPS (n) */
template <int KT>
__global__ void mh_bounds_kernel(const uint32_t *__restrict__ a, size_t n, unsigned *__restrict__ off)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    size_t lo = 0, hi = n;
    if (g > MH_GROUPS) return;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((radix_image<KT>(a[mid]) >> (32 - MH_GROUP_BITS)) < g) lo = mid + 1;
        else hi = mid;
    }
    off[g] = (unsigned)lo;
}

/* One stable 8-bit counting pass of a whole block over a group larger than its tile: src[0 .. cnt)
 * to dst, tile by tile in order (s4's three phases inside one block: counts, starts, scatter).  The
 * loads are plain (coherent): the second pass reads what the first wrote in this kernel. */
template <int KT, int TBS, int KPT>
static __device__ void mh_block_pass(const uint32_t *src, uint32_t *dst, unsigned cnt, int shift, uint32_t *s_keys,
                                     unsigned *s_cnt, unsigned *s_run, unsigned *s_goff)
{
    constexpr int NW = TBS / 32, RADIX = 256;
    constexpr unsigned TILE = TBS * KPT;
    const unsigned warp = threadIdx.x >> 5;
    const uint32_t none[1] = {0};
    uint32_t k[KPT];
    unsigned base, all;
    if (threadIdx.x < RADIX) s_run[threadIdx.x] = 0;
    __syncthreads();
    /* base advances by the tile's count, never past cnt: no wrap for groups near 2^32 keys */
    for (base = 0; base < cnt;) {
        const unsigned tn = cnt - base < TILE ? cnt - base : TILE;
        for (unsigned j = threadIdx.x; j < tn; j += TBS)
            atomicAdd(s_run + radix_digit<KT>(rk_ld_plain(src + base + j), shift, 8), 1u);
        base += tn;
    }
    __syncthreads();
    {
        const unsigned c = threadIdx.x < RADIX ? s_run[threadIdx.x] : 0u;
        const unsigned st = block_scan32_excl<TBS, WS_SHFL>(c, &all);
        if (threadIdx.x < RADIX) s_run[threadIdx.x] = st;
    }
    for (base = 0; base < cnt;) {
        const unsigned tn = cnt - base < TILE ? cnt - base : TILE;
        rk_load<KPT, RK_LD_PLAIN>(src + base, tn, tn == TILE, radix_pad_key<KT>(), k);
        for (int j = threadIdx.x; j < NW * RADIX; j += TBS) s_cnt[j] = 0;
        __syncthreads();
        rk_count_warp<KT, KPT>(k, shift, 8, s_cnt + warp * RADIX);
        __syncthreads();
        const unsigned tot = rk_column_scan<NW, RADIX>(s_cnt);
        const unsigned st = block_scan32_excl<TBS, WS_SHFL>(tot, &all);
        rk_column_add<NW, RADIX>(s_cnt, st);
        if (threadIdx.x < RADIX) s_goff[threadIdx.x] = s_run[threadIdx.x] - st;
        __syncthreads();
        rk_rank_exchange<KT, false, KPT, RK_MATCH_BALLOT, 8>(k, none, shift, 8, s_cnt + warp * RADIX, s_keys, nullptr);
        __syncthreads();
        rk_scatter_out<KT, false, TBS, KPT>(s_keys, nullptr, s_goff, tn, tn == TILE, shift, 8, dst, nullptr);
        __syncthreads();
        if (threadIdx.x < RADIX) s_run[threadIdx.x] += tot; /* the pads count on the last tile only */
        base += tn;
    }
    __syncthreads();
}

/* The unordered ranking's counter of digit d: a word skipped every 32, so that digits 16 apart (the
 * lanes of a warp on sorted keys) fall in distinct banks; the exchange's slots are swizzled
 * (rk_slot) for the same reason. */
static __device__ __forceinline__ unsigned mh_ci(unsigned d)
{
    return d + (d >> 5);
}

/* The groups larger than the tile, a block each (grid-stride over the groups): two block passes
 * a -> out -> a, then a copy to out. */
template <int KT, int TBS, int KPT>
__global__ void __launch_bounds__(TBS) mh_big_kernel(uint32_t *a, uint32_t *out, const unsigned *__restrict__ off)
{
    constexpr int NW = TBS / 32, RADIX = 256;
    constexpr unsigned TILE = TBS * KPT;
    __shared__ uint32_t s_keys[TILE];
    __shared__ unsigned s_cnt[NW * RADIX], s_run[RADIX], s_goff[RADIX];
    for (unsigned g = blockIdx.x; g < MH_GROUPS; g += gridDim.x) {
        const unsigned start = off[g], cnt = off[g + 1] - start;
        if (cnt <= TILE) continue;
        mh_block_pass<KT, TBS, KPT>(a + start, out + start, cnt, 0, s_keys, s_cnt, s_run, s_goff);
        mh_block_pass<KT, TBS, KPT>(out + start, a + start, cnt, 8, s_keys, s_cnt, s_run, s_goff);
        for (size_t j = threadIdx.x; j < cnt; j += TBS) out[start + j] = rk_ld_plain(a + start + j);
        __syncthreads();
    }
}

/* Block g sorts group g of a (positions off[g] .. off[g + 1]) on its low 16 image bits into out, when
 * it fits the tile (mh_big_kernel takes the others). */
template <int KT, int TBS, int KPT>
__global__ void __launch_bounds__(TBS, 4)
    mh_local_kernel(const uint32_t *__restrict__ a, uint32_t *__restrict__ out, const unsigned *__restrict__ off)
{
    constexpr int NW = TBS / 32, RADIX = 256;
    constexpr unsigned TILE = TBS * KPT;
    static_assert(TBS >= RADIX, "a thread per digit");
    __shared__ uint32_t s_keys[TILE];
    __shared__ unsigned s_cnt[NW * RADIX], s_run[RADIX + RADIX / 32];
    const unsigned start = off[blockIdx.x], cnt = off[blockIdx.x + 1] - start;
    const unsigned warp = threadIdx.x >> 5, first = warp * (KPT * 32u) + (threadIdx.x & 31u);
    const uint32_t none[1] = {0};
    uint32_t k[KPT];
    unsigned all;
    if (cnt == 0 || cnt > TILE) return;
    rk_load<KPT>(a + start, cnt, cnt == TILE, radix_pad_key<KT>(), k);
    /* bits 0..7, in no particular order among equal digits: one shared atomic a key; the pads keep
     * their own places after the group, so that the stable ranking below still sees them last */
    if (threadIdx.x < RADIX) s_run[mh_ci(threadIdx.x)] = 0;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < KPT; i++)
        if (first + i * 32u < cnt) atomicAdd(s_run + mh_ci(radix_digit<KT>(k[i], 0, 8)), 1u);
    __syncthreads();
    {
        const unsigned c = threadIdx.x < RADIX ? s_run[mh_ci(threadIdx.x)] : 0u;
        const unsigned st = block_scan32_excl<TBS, WS_SHFL>(c, &all);
        if (threadIdx.x < RADIX) s_run[mh_ci(threadIdx.x)] = st;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        const unsigned pos = first + i * 32u;
        s_keys[rk_slot<true>(pos < cnt ? atomicAdd(s_run + mh_ci(radix_digit<KT>(k[i], 0, 8)), 1u) : pos)] = k[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < KPT; i++) k[i] = s_keys[rk_slot<true>(first + i * 32u)];
    /* bits 8..15, stable: s5's ranking (per-warp counters, counted first) */
    for (int j = threadIdx.x; j < NW * RADIX; j += TBS) s_cnt[j] = 0;
    __syncthreads();
    rk_count_warp<KT, KPT>(k, 8, 8, s_cnt + warp * RADIX);
    __syncthreads();
    {
        const unsigned tot = rk_column_scan<NW, RADIX>(s_cnt);
        const unsigned st = block_scan32_excl<TBS, WS_SHFL>(tot, &all);
        rk_column_add<NW, RADIX>(s_cnt, st);
    }
    __syncthreads();
    rk_rank_exchange<KT, false, KPT, RK_MATCH_BALLOT, 8, false, true>(k, none, 8, 8, s_cnt + warp * RADIX, s_keys,
                                                                      nullptr);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < KPT; i++) {
        const unsigned p = i * TBS + threadIdx.x;
        if (p < cnt) out[start + p] = s_keys[rk_slot<true>(p)];
    }
}

static size_t mh_round(size_t b)
{
    return (b + 255) & ~(size_t)255;
}

/* where the hybrid runs: 32-bit keys alone, all 32 bits; anything else is s5's */
static bool mh_takes(const uint32_t *vals_in, int type, int begin_bit, int end_bit)
{
    return vals_in == NULL && type != RADIX_U64 && begin_bit == 0 && end_bit == 32;
}

extern "C" size_t radix_msd_hybrid_scratch(size_t n, int type, int pairs)
{
    const size_t s5 = radix_s5_onesweep_scratch(n, type, pairs);
    if (pairs || type == RADIX_U64) return s5;
    return mh_round(s5) + mh_round(n * sizeof(uint32_t)) + (MH_GROUPS + 1) * sizeof(unsigned);
}

extern "C" cudaError_t radix_msd_hybrid(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                        uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                        void *scratch, cudaStream_t s)
{
    int work;
    if (!mh_takes(vals_in, type, begin_bit, end_bit))
        return radix_s5_onesweep(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    uint32_t *grouped = (uint32_t *)((char *)scratch + mh_round(radix_s5_onesweep_scratch(n, type, 0)));
    unsigned *off = (unsigned *)((char *)grouped + mh_round(n * sizeof(uint32_t)));
    KIT_TRY(radix_s5_onesweep(keys_in, grouped, NULL, NULL, n, type, 32 - MH_GROUP_BITS, 32, scratch, s));
    return radix_dispatch_type<RADIX_TYPES32>(type, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        mh_bounds_kernel<KT><<<(MH_GROUPS + 1 + 255) / 256, 256, 0, s>>>(grouped, n, off);
        KIT_TRY(cudaGetLastError());
        mh_local_kernel<KT, MH_TBS, MH_KPT><<<MH_GROUPS, MH_TBS, 0, s>>>(grouped, (uint32_t *)keys_out, off);
        KIT_TRY(cudaGetLastError());
        mh_big_kernel<KT, MH_TBS, MH_KPT><<<MH_BIG_BLOCKS, MH_TBS, 0, s>>>(grouped, (uint32_t *)keys_out, off);
        return cudaGetLastError();
    });
}

extern "C" cudaError_t radix_msd_hybrid_describe(kit_kernel_desc *d)
{
    d->func = (const void *)mh_local_kernel<RADIX_U32, MH_TBS, MH_KPT>;
    d->block_threads = MH_TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}
