/* s4 - 8-bit digits and warp-match ranking, still three kernels per pass.
 * Changed versus s3: digits of 8 bits instead of 4, so 32-bit keys take 4 passes instead of 8 (64-bit
 * keys 8 instead of 16), and the local sort that makes this affordable: 256 digits are too many for
 * per-thread packed counters or a split per bit, so a tile is ranked with warp matches.  Per pass:
 *   1. count: one block per tile loads its keys (coalesced) and counts digits in per-warp
 *      sub-histograms in shared memory (shared atomics, a warp's own row: no contention between
 *      warps); thread d sums column d into counts[d * tiles + tile] (digit-major: one scan of
 *      the table gives every (digit, tile) its global start);
 *   2. scan: blk_scan_u32_excl over the whole table turns it into each (digit, tile)'s global start;
 *   3. scatter: each block loads its tile again, warp-striped (warp w owns the contiguous keys
 *      w*KPT*32 .. +KPT*32, item i of lane l is key w*KPT*32 + i*32 + l); per item,
 *      __match_any_sync on the digit gives the lanes with the same digit, and the rank inside the
 *      warp is the warp's counter for the digit plus the peers in lower lanes (the highest peer adds
 *      the peer count, one shared atomic per distinct digit); an exclusive scan over (digit, warp)
 *      (a column scan per digit, then a block scan over the 256 digit totals) makes the rank the
 *      key's position in the tile sorted by (digit, warp, item, lane) = stable; the keys (then the
 *      values) go to those positions in shared memory and are written out coalesced:
 *      out[start[digit][tile] + (position - tile_digit_start[digit])].
 * Why it is faster: half the passes, so half of everything (3n key traffic per pass, 3n + 2n for
 * pairs); the ranking is a fixed handful of instructions per key whatever the digit width; the
 * tile's 7680 keys make the count table 1 KB per 30 KB of keys.
 * What still limits it: every key is read twice per pass (count, then scatter): 3n, not the 2n a
 * copy moves; three launches per pass, with the table written, scanned and read between them; a
 * tile's 256 output runs average 30 keys (120 bytes), so the stores are partly sector-wasted.
 * Alignment and limits (radix.h): keys at any 4-byte (u64: 8-byte) address, values at any 4-byte
 * address, scalar accesses only; all four key types; n <= RADIX_MAX_N (positions and counts are
 * 32-bit, global positions < 2^32 are exact in 32-bit arithmetic, pointers are offset in 64 bits). */
#include "blocks/scan_u32.cuh"
#include "radix_rank.cuh"

/* the step's knobs: 384 threads x 20 keys (15 for 8-byte keys, the same registers), 8-bit digits,
 * __match_any_sync peers, ranks made tile-wide after the warp ranking.  The scatter kernel's block
 * then needs up to 80.5 KB of shared memory (64-bit keys with values); where the GPU grants less per
 * block (Turing: 64 KB), the tile is 384 x 10 keys (u64: 7), at most 46 KB: within the 48 KB every
 * CUDA GPU grants without opting in.  The choice is made per key type and pairs at run time
 * (radix_block_fits), the same one for the scratch size and the run. */
#define S4_TBS 384
#define S4_KPT4 20
#define S4_KPT4_SMALL 10
#define S4_DBITS 8

static constexpr __host__ __device__ int s4_kpt(int kpt4, int kt)
{
    return kt == RADIX_U64 ? kpt4 * 3 / 4 : kpt4;
}

template <int KT, int KPT4>
using s4_shape = rk_shape<KT, S4_TBS, s4_kpt(KPT4, KT), S4_DBITS>;

/* 1. per-tile digit counts, digit-major: counts[d * tiles + tile] */
template <int KT, int KPT4>
__global__ void __launch_bounds__(S4_TBS)
    s4_count_kernel(const typename radix_key_t<KT>::type *__restrict__ keys, size_t n, int shift, int bits,
                    unsigned tiles, uint32_t *__restrict__ counts)
{
    typedef s4_shape<KT, KPT4> S;
    typedef typename S::key K;
    constexpr int KPT = s4_kpt(KPT4, KT);
    __shared__ unsigned s_cnt[S::NW * S::RADIX];
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    unsigned *my_cnt = s_cnt + warp * S::RADIX;
#pragma unroll
    for (int j = lane; j < S::RADIX; j += 32) my_cnt[j] = 0;
    __syncwarp(); /* the row is the warp's own until the barrier below */
    const unsigned tile = blockIdx.x;
    const size_t t0 = (size_t)tile * S::TILE;
    const unsigned tile_n = n - t0 < S::TILE ? (unsigned)(n - t0) : S::TILE;
    K k[KPT];
    rk_load<KPT>(keys + t0, tile_n, tile_n == S::TILE, radix_pad_key<KT>(), k);
    rk_count_warp<KT, KPT>(k, shift, bits, my_cnt);
    __syncthreads();
    if (threadIdx.x < (unsigned)S::RADIX) {
        unsigned c = 0;
#pragma unroll
        for (int w = 0; w < S::NW; w++) c += s_cnt[w * S::RADIX + threadIdx.x];
        /* the pads all have the pass's largest digit */
        if (threadIdx.x == (1u << bits) - 1u) c -= S::TILE - tile_n;
        counts[(size_t)threadIdx.x * tiles + tile] = c;
    }
}

/* shared memory of the scatter kernel: the keys' exchange, the values' exchange, the rank counters,
 * the per-digit global offsets */
template <int KT, bool PAIRS, int KPT4>
static constexpr size_t s4_smem()
{
    typedef s4_shape<KT, KPT4> S;
    return S::EXCH_BYTES + (PAIRS ? (size_t)S::TILE * 4 : 0) + S::CNT_BYTES + S::RADIX * 4;
}

/* the step's label, from its knobs */
RADIX_PARAM_DEF(radix_s4_param,
    "tbs=%d kpt=%d (u64: %d; kpt=%d where a block gets < %zu KB) bits=%d match=any 3 kernels/pass",
    S4_TBS, S4_KPT4, s4_kpt(S4_KPT4, RADIX_U64), S4_KPT4_SMALL, (s4_smem<RADIX_U64, true, S4_KPT4>() + 1023) / 1024,
    S4_DBITS);

/* 3. rank, exchange, scatter; start: the scanned table */
template <int KT, bool PAIRS, int KPT4>
__global__ void __launch_bounds__(S4_TBS, 2)
    s4_scatter_kernel(const typename radix_key_t<KT>::type *__restrict__ kin,
                      typename radix_key_t<KT>::type *__restrict__ kout, const uint32_t *__restrict__ vin,
                      uint32_t *__restrict__ vout, size_t n, int shift, int bits, unsigned tiles,
                      const uint32_t *__restrict__ start)
{
    typedef s4_shape<KT, KPT4> S;
    typedef typename S::key K;
    constexpr int KPT = s4_kpt(KPT4, KT), NW = S::NW, RADIX = S::RADIX;
    extern __shared__ __align__(16) unsigned char s4_smem_raw[];
    K *s_keys = reinterpret_cast<K *>(s4_smem_raw);
    uint32_t *s_vals = reinterpret_cast<uint32_t *>(s4_smem_raw + S::EXCH_BYTES);
    unsigned *s_cnt = reinterpret_cast<unsigned *>(s4_smem_raw + S::EXCH_BYTES + (PAIRS ? S::TILE * 4 : 0));
    unsigned *s_goff = s_cnt + NW * RADIX;
    const unsigned tid = threadIdx.x, warp = tid >> 5, lane = tid & 31u;
    unsigned *my_cnt = s_cnt + warp * RADIX;
    const unsigned tile = blockIdx.x;
    const size_t t0 = (size_t)tile * S::TILE;
    const unsigned tile_n = n - t0 < S::TILE ? (unsigned)(n - t0) : S::TILE;
    const bool full = tile_n == S::TILE;
    /* the digit's global start for this tile, fetched early */
    const unsigned gstart = tid < (unsigned)RADIX ? start[(size_t)tid * tiles + tile] : 0u;
#pragma unroll
    for (int j = lane; j < RADIX; j += 32) my_cnt[j] = 0;
    __syncwarp(); /* the row is the warp's own until the barrier below */
    K k[KPT];
    uint32_t v[PAIRS ? KPT : 1];
    rk_load<KPT>(kin + t0, tile_n, full, radix_pad_key<KT>(), k);
    if constexpr (PAIRS) rk_load<KPT>(vin + t0, tile_n, full, 0u, v);
    unsigned r[KPT];
    rk_rank_warp<KT, KPT, RK_MATCH_ANY, S4_DBITS>(k, shift, bits, my_cnt, r); /* warp-local, packed */
    __syncthreads();                                                          /* every warp's counts */
    const unsigned total = rk_column_scan<NW, RADIX>(s_cnt);
    unsigned all;
    const unsigned tstart = block_scan32_excl<S4_TBS, WS_SHFL>(total, &all);
    rk_column_add<NW, RADIX>(s_cnt, tstart);
    if (tid < (unsigned)RADIX) s_goff[tid] = gstart - tstart;
    __syncthreads(); /* the counters hold (digit start + warp prefix) */
    rk_fixup_exchange<KPT>(k, r, my_cnt, s_keys);
    if constexpr (PAIRS) rk_exchange<KPT>(s_vals, r, v);
    __syncthreads();
    rk_scatter_out<KT, PAIRS, S4_TBS, KPT>(s_keys, s_vals, s_goff, tile_n, full, shift, bits, kout, vout);
}

/* ------------------------------------------------------------------ host */

template <int KT, int KPT4>
static size_t s4_tiles(size_t n)
{
    return (n + s4_shape<KT, KPT4>::TILE - 1) / s4_shape<KT, KPT4>::TILE;
}

/* the Hopper tile when its scatter block fits this GPU, else the small one */
template <int KT, bool PAIRS>
static bool s4_big_fits()
{
    static int memo = 0;
    return radix_block_fits(s4_scatter_kernel<KT, PAIRS, S4_KPT4>, s4_smem<KT, PAIRS, S4_KPT4>(), &memo);
}

/* scratch: alternate keys (and values), the count table, the table scan's descriptors */
template <int KT, int KPT4>
static size_t s4_scratch_t(size_t n, int pairs)
{
    const size_t entries = s4_tiles<KT, KPT4>(n) * s4_shape<KT, KPT4>::RADIX;
    return radix_alt_bytes(n, KT, pairs) + radix_round256(entries * 4) +
           radix_round256(blk_scan_u32_scratch(entries));
}

extern "C" size_t radix_s4_match8_scratch(size_t n, int type, int pairs)
{
    return radix_on_type<RADIX_TYPES_ALL>(type, (size_t)0, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        const bool big = pairs ? s4_big_fits<KT, true>() : s4_big_fits<KT, false>();
        return big ? s4_scratch_t<KT, S4_KPT4>(n, pairs) : s4_scratch_t<KT, S4_KPT4_SMALL>(n, pairs);
    });
}

template <int KT, bool PAIRS, int KPT4>
static cudaError_t s4_sort(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    typedef typename radix_key_t<KT>::type K;
    typedef s4_shape<KT, KPT4> S;
    static int attr_dev = 0;
    const size_t tiles = s4_tiles<KT, KPT4>(n), entries = tiles * S::RADIX;
    const unsigned grid = kit_blocks_for(n, S::TILE);
    constexpr size_t smem = s4_smem<KT, PAIRS, KPT4>();
    radix_carve c = {(char *)scratch, 0};
    void *alt_keys = radix_take(&c, n * sizeof(K));
    uint32_t *alt_vals = PAIRS ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    uint32_t *table = (uint32_t *)radix_take(&c, entries * 4);
    void *scan_scratch = radix_take(&c, blk_scan_u32_scratch(entries));
    radix_plan pl;
    if (!grid) return cudaErrorInvalidValue;
    KIT_TRY(radix_smem_attr(s4_scatter_kernel<KT, PAIRS, KPT4>, smem, &attr_dev));
    radix_make_plan(&pl, keys_in, keys_out, alt_keys, vals_in, vals_out, alt_vals, begin_bit, end_bit,
                    S4_DBITS);
    for (int p = 0; p < pl.passes; p++) {
        const K *src = (const K *)pl.src_keys[p];
        s4_count_kernel<KT, KPT4><<<grid, S4_TBS, 0, s>>>(src, n, pl.shift[p], pl.bits[p], (unsigned)tiles, table);
        KIT_TRY(cudaGetLastError());
        KIT_TRY(blk_scan_u32_excl(table, table, entries, scan_scratch, s));
        s4_scatter_kernel<KT, PAIRS, KPT4><<<grid, S4_TBS, smem, s>>>(src, (K *)pl.dst_keys[p], pl.src_vals[p],
                                                                      pl.dst_vals[p], n, pl.shift[p], pl.bits[p],
                                                                      (unsigned)tiles, table);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

extern "C" cudaError_t radix_s4_match8(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                       uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                       void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    return radix_dispatch<RADIX_TYPES_ALL>(type, vals_in != NULL, [&](auto kt, auto pairs) {
        constexpr int KT = decltype(kt)::value;
        constexpr bool PAIRS = decltype(pairs)::value;
        if (s4_big_fits<KT, PAIRS>())
            return s4_sort<KT, PAIRS, S4_KPT4>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, scratch, s);
        return s4_sort<KT, PAIRS, S4_KPT4_SMALL>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit,
                                                 scratch, s);
    });
}

/* the main kernel as it runs on this GPU: the scatter kernel, u32 keys only */
extern "C" cudaError_t radix_s4_describe(kit_kernel_desc *d)
{
    const bool big = s4_big_fits<RADIX_U32, false>();
    d->func = big ? (const void *)s4_scatter_kernel<RADIX_U32, false, S4_KPT4>
                  : (const void *)s4_scatter_kernel<RADIX_U32, false, S4_KPT4_SMALL>;
    d->block_threads = S4_TBS;
    d->dyn_smem = big ? s4_smem<RADIX_U32, false, S4_KPT4>() : s4_smem<RADIX_U32, false, S4_KPT4_SMALL>();
    return cudaSuccess;
}
