/* msd_split.cuh - the on-chip half of a most-significant-digit split (after Stehle & Jacobsen's hybrid),
 * shared by the onesweep table's msd_hybrid row and s11_msd_hybrid: once 32-bit keys are grouped by
 * their top 16 image bits (each group contiguous, groups in order), find where each group starts and
 * sort each on its low 16 bits in one block's shared memory; the lesson is in s11_msd_hybrid.cu. */
#ifndef MSD_SPLIT_CUH
#define MSD_SPLIT_CUH

#include "blocks/prefetch.cuh"
#include "kit_cuda.cuh"
#include "radix_rank.cuh"

#define MH_GROUP_BITS 16
#define MH_GROUPS (1u << MH_GROUP_BITS)
#define MH_TBS 256
#define MH_KPT 18

/* The sample that guards s11's split against keys whose top digits move together (the route's
 * estimate takes them as independent): MH_SAMPLES keys, evenly spaced, counted by their top
 * MH_SAMPLE_BITS image bits in one block; *ok = 0 when some such bin holds more than MH_SAMPLE_MAX of
 * them (a share of about 1/700 of the keys: 400 K keys and more at 2^28, where uniform keys give
 * half a sample a bin, 6 or so at most, and a false veto has odds under 1e-9), else 1.  One block
 * of scattered loads: a small share of the sort (Nsight Compute), halved by taking 8192 keys, not
 * 16384. */
#define MH_SAMPLE_TBS 1024
#define MH_SAMPLE_KPT 8
#define MH_SAMPLES (MH_SAMPLE_TBS * MH_SAMPLE_KPT)
#define MH_SAMPLE_BITS 14
#define MH_SAMPLE_MAX 12
template <int KT>
__global__ void __launch_bounds__(MH_SAMPLE_TBS) mh_sample_kernel(const uint32_t *__restrict__ a, size_t n, unsigned *ok)
{
    /* two 16-bit counts a word: at most MH_SAMPLES (8192) samples fall in one bin */
    __shared__ unsigned s_bin[(1u << MH_SAMPLE_BITS) / 2];
    __shared__ unsigned s_over;
    const size_t step = n / MH_SAMPLES;
    uint32_t k[MH_SAMPLE_KPT];
    unsigned over = 0;
#pragma unroll
    for (int i = 0; i < MH_SAMPLE_KPT; i++) k[i] = a[(size_t)(i * MH_SAMPLE_TBS + threadIdx.x) * step + step / 2];
    for (unsigned j = threadIdx.x; j < (1u << MH_SAMPLE_BITS) / 2; j += MH_SAMPLE_TBS) s_bin[j] = 0;
    if (threadIdx.x == 0) s_over = 0;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < MH_SAMPLE_KPT; i++) {
        const unsigned b = radix_image<KT>(k[i]) >> (32 - MH_SAMPLE_BITS);
        atomicAdd(s_bin + (b >> 1), 1u << ((b & 1u) * 16));
    }
    __syncthreads();
    for (unsigned j = threadIdx.x; j < (1u << MH_SAMPLE_BITS) / 2; j += MH_SAMPLE_TBS)
        over |= (s_bin[j] & 0xFFFFu) > MH_SAMPLE_MAX || (s_bin[j] >> 16) > MH_SAMPLE_MAX;
    if (__any_sync(0xFFFFFFFFu, over) && (threadIdx.x & 31u) == 0) s_over = 1;
    __syncthreads();
    if (threadIdx.x == 0) *ok = !s_over;
}

/* off[g] = the first position whose key's top 16 image bits are >= g, g = 0 .. MH_GROUPS (n) */
template <int KT>
__global__ void mh_bounds_kernel(const uint32_t *__restrict__ a, size_t n, unsigned *__restrict__ off,
                                 const unsigned *run)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    size_t lo = 0, hi = n;
    if (g > MH_GROUPS || (run && !*run)) return;
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
        rk_rank_exchange<KT, false, KPT, RK_MATCH_LOP3, 8>(k, none, shift, 8, s_cnt + warp * RADIX, s_keys, nullptr);
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

/* The groups larger than the tile, a block each: block b of a grid of G looks at groups b, b + G,
 * b + 2G, ... (TBS of them, a thread each, so G = MH_GROUPS / TBS: neighbours go to different blocks),
 * then sorts the large ones among them in turn, two block passes a -> out -> a and a copy to out. */
template <int KT, int TBS, int KPT>
__global__ void __launch_bounds__(TBS)
    mh_big_kernel(uint32_t *a, uint32_t *out, const unsigned *__restrict__ off, const unsigned *run)
{
    constexpr int NW = TBS / 32, RADIX = 256;
    constexpr unsigned TILE = TBS * KPT;
    __shared__ uint32_t s_keys[TILE];
    __shared__ unsigned s_cnt[NW * RADIX], s_run[RADIX], s_goff[RADIX], s_big[NW];
    if (run && !*run) return;
    {
        const unsigned g = blockIdx.x + threadIdx.x * gridDim.x;
        const bool big = g < MH_GROUPS && off[g + 1] - off[g] > TILE;
        const unsigned b = __ballot_sync(0xFFFFFFFFu, big);
        if ((threadIdx.x & 31u) == 0) s_big[threadIdx.x >> 5] = b;
    }
    __syncthreads();
    for (int w = 0; w < NW; w++)
        for (unsigned b = s_big[w]; b; b &= b - 1) {
            const unsigned g = blockIdx.x + (w * 32u + (unsigned)__ffs(b) - 1u) * gridDim.x;
            const unsigned start = off[g], cnt = off[g + 1] - start;
            mh_block_pass<KT, TBS, KPT>(a + start, out + start, cnt, 0, s_keys, s_cnt, s_run, s_goff);
            mh_block_pass<KT, TBS, KPT>(out + start, a + start, cnt, 8, s_keys, s_cnt, s_run, s_goff);
            for (size_t j = threadIdx.x; j < cnt; j += TBS) out[start + j] = rk_ld_plain(a + start + j);
            __syncthreads();
        }
}

/* Group g of a (positions off[g] .. off[g + 1]) sorted on its low 16 image bits into out by one
 * block, when it fits the tile (mh_big_kernel takes the others); any grid: block b takes groups b,
 * b + grid, ... mh_sort_groups launches a block per two groups (level with a block per group where
 * the split runs, less where it does not and the blocks only leave; four groups a block were slower
 * on uniform keys, and a resident grid that loops much slower).  Four blocks an SM for the
 * registers: 5, 6 and 8 measured no better.
 *
 * Two rankings: bits 0 .. LOW-1 unordered (a shared atomic a key on 2^LOW block counters), then
 * bits LOW .. 15 stable (s5's ranking: per-warp counters, a ballot per bit, the ballots ANDed three
 * at a time as s9's keys rank, RK_MATCH_LOP3).  The ballots are most of the instructions, so the
 * wider the first ranking, the fewer: LOW = 12 (4096 counters, four ballots a key) issued fewer warp
 * instructions than LOW = 8 (Nsight Compute), and s11 was level with LOW = 12, 11 and 10.
 * MH_LOW = 11: 2048 counters for the first ranking and 32 a warp for the second make a block of
 * 27.9 KB, about what LOW = 8 takes (256, and 256 a warp: 27.7 KB), where LOW = 12's 35.5 KB held
 * fewer blocks on GPUs of 64 or 100 KB an SM (they took 8 bits by a choice at run time until 11
 * was measured level with 12): one kernel for every GPU.  The counters are zeroed once, and by
 * each group after its last use of them, under the barrier that ends it. */
#define MH_LOW 11
template <int KT, int TBS, int KPT, int LOW>
__global__ void __launch_bounds__(TBS, 4)
    mh_local_kernel(const uint32_t *__restrict__ a, uint32_t *__restrict__ out, const unsigned *__restrict__ off,
                    const unsigned *run)
{
    constexpr int NW = TBS / 32, HIGH = MH_GROUP_BITS - LOW, R1 = 1 << LOW, R2 = 1 << HIGH;
    constexpr int B1 = R1 > TBS ? R1 / TBS : 1; /* the first ranking's counters a thread scans */
    constexpr unsigned TILE = TBS * KPT;
    static_assert(R1 <= TBS || R1 % TBS == 0, "a thread per counter, or as many each");
    static_assert(R2 <= TBS, "a thread per digit of the second ranking");
    __shared__ uint32_t s_keys[TILE];
    __shared__ unsigned s_cnt[NW * R2], s_run[R1 + R1 / 32];
    const unsigned warp = threadIdx.x >> 5, first = warp * (KPT * 32u) + (threadIdx.x & 31u);
    const bool owns = B1 > 1 || threadIdx.x < (unsigned)R1;
    const uint32_t none[1] = {0};
    uint32_t k[KPT];
    unsigned all;
    if (run && !*run) return;
    /* the counters start at zero, and each group leaves them so */
    for (int j = threadIdx.x; j < R1 + R1 / 32; j += TBS) s_run[j] = 0;
    for (int j = threadIdx.x; j < NW * R2; j += TBS) s_cnt[j] = 0;
    __syncthreads();
    for (unsigned g = blockIdx.x; g < MH_GROUPS; g += gridDim.x) {
        const unsigned start = off[g], cnt = off[g + 1] - start, wbase = warp * (KPT * 32u);
        /* the warp's items that hold a key (pads only after them): the stable ranking leaves the
         * others out, so a group of a few hundred keys costs a few hundred keys' ranking, not a tile's */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1200
        /* every item: ptxas of CUDA 13.0 fails on this kernel for sm_120 ("Register allocation failed
         * with register count of 7") with a run-time bound, as with the one below */
        constexpr int items = KPT;
        (void)wbase;
#else
        const int items = cnt > wbase ? (int)min((unsigned)KPT, (cnt - wbase + 31u) / 32u) : 0;
#endif
        /* the block's next group asked of L2 now, so that its load finds it there */
        if (g + gridDim.x < MH_GROUPS && threadIdx.x < 64) {
            const unsigned ps = off[g + gridDim.x], pe = off[g + gridDim.x + 1];
            if (pe - ps <= TILE) prefetch_l2_lines<64>(a + ps, pe - ps);
        }
        if (cnt == 0 || cnt > TILE) continue;
        rk_load<KPT>(a + start, cnt, cnt == TILE, radix_pad_key<KT>(), k);
        /* bits 0 .. LOW-1, in no particular order among equal digits: one shared atomic a key; the
         * pads keep their own places after the group, so that the stable ranking below still sees
         * them last */
#pragma unroll
        for (int i = 0; i < KPT; i++)
            if (first + i * 32u < cnt) atomicAdd(s_run + mh_ci(radix_digit<KT>(k[i], 0, LOW)), 1u);
        __syncthreads();
        {
            /* the thread's counters are read twice (held in no register across the block scan) */
            unsigned sum = 0;
#pragma unroll
            for (int j = 0; j < B1; j++) sum += owns ? s_run[mh_ci(threadIdx.x * B1 + j)] : 0u;
            unsigned st = block_scan32_excl<TBS, WS_SHFL>(sum, &all);
#pragma unroll
            for (int j = 0; j < B1; j++)
                if (owns) {
                    const unsigned c = s_run[mh_ci(threadIdx.x * B1 + j)];
                    s_run[mh_ci(threadIdx.x * B1 + j)] = st;
                    st += c;
                }
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < KPT; i++) {
            const unsigned pos = first + i * 32u;
            s_keys[rk_slot<true>(pos < cnt ? atomicAdd(s_run + mh_ci(radix_digit<KT>(k[i], 0, LOW)), 1u) : pos)] = k[i];
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < KPT; i++) k[i] = s_keys[rk_slot<true>(first + i * 32u)];
        /* bits LOW .. 15, stable: s5's ranking (per-warp counters, counted first) */
        rk_count_warp<KT, KPT>(k, LOW, HIGH, s_cnt + warp * R2, items);
        __syncthreads();
        {
            const unsigned tot = rk_column_scan<NW, R2>(s_cnt);
            const unsigned st = block_scan32_excl<TBS, WS_SHFL>(tot, &all);
            rk_column_add<NW, R2>(s_cnt, st);
        }
        __syncthreads();
        rk_rank_exchange<KT, false, KPT, RK_MATCH_LOP3, HIGH, false, true>(k, none, LOW, HIGH, s_cnt + warp * R2,
                                                                           s_keys, nullptr, nullptr, items);
        __syncthreads();
        /* the counters' last use is behind the barrier: zero them for the next group */
        for (int j = threadIdx.x; j < R1 + R1 / 32; j += TBS) s_run[j] = 0;
        for (int j = threadIdx.x; j < NW * R2; j += TBS) s_cnt[j] = 0;
#pragma unroll
        for (int i = 0; i < KPT; i++) {
            const unsigned p = i * TBS + threadIdx.x;
            if (p < cnt) out[start + p] = s_keys[rk_slot<true>(p)];
        }
        __syncthreads(); /* the next group's ranking rewrites s_keys */
    }
}

/* the groups' kernel this GPU runs (for the steps' describe functions) */
static inline cudaError_t mh_describe(kit_kernel_desc *d)
{
    d->func = (const void *)mh_local_kernel<RADIX_U32, MH_TBS, MH_KPT, MH_LOW>;
    d->block_threads = MH_TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

static inline size_t mh_round(size_t b)
{
    return (b + 255) & ~(size_t)255;
}

/* The on-chip half, after the keys are grouped by their top 16 image bits in `grouped` (n keys):
 * where each group starts (off: MH_GROUPS + 1 words), the groups that fit a block sorted into out by
 * mh_local_kernel (a block per two groups), the others by mh_big_kernel (which uses `grouped` as
 * its second buffer).  run: NULL, or a word on the GPU that the kernels read first (0: they leave
 * at once). */
template <int KT>
static cudaError_t mh_sort_groups(uint32_t *grouped, uint32_t *out, size_t n, unsigned *off, const unsigned *run,
                                  cudaStream_t s)
{
    mh_bounds_kernel<KT><<<(MH_GROUPS + 1 + 255) / 256, 256, 0, s>>>(grouped, n, off, run);
    KIT_TRY(cudaGetLastError());
    mh_local_kernel<KT, MH_TBS, MH_KPT, MH_LOW><<<MH_GROUPS / 2, MH_TBS, 0, s>>>(grouped, out, off, run);
    KIT_TRY(cudaGetLastError());
    mh_big_kernel<KT, MH_TBS, MH_KPT><<<MH_GROUPS / MH_TBS, MH_TBS, 0, s>>>(grouped, out, off, run);
    return cudaGetLastError();
}

#endif
