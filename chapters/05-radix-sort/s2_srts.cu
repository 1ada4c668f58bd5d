/* s2 - Merrill & Grimshaw's SRTS radix sort ("Revisiting sorting for GPGPU stream
 * architectures"): a reduce-then-scan over the digit counts with the binning fused into
 * the reduction and the scatter fused into the scan.  4-bit digits, 8 passes for 32 bits.
 * Changed versus s1: no locally sorted tile goes through global memory.  A pass is three
 * kernels over a fixed grid of G blocks (G = the downsweep's resident grid, at most one
 * per tile); block c owns a contiguous run of whole tiles (even share: the first
 * tiles % G blocks take one tile more), so only the very last tile is partial:
 *   1  srts_upsweep: each block reads its run and counts its digits ("visiting logic":
 *      the binning replaces the reduction's gather): 8-bit counters in shared memory,
 *      one private column of packed bytes per thread, folded into 32-bit per-warp totals
 *      every 31 tiles; the next tile's loads fly while a tile is counted; writes
 *      counts[digit * G + c];
 *   2  srts_top_scan: one block scans the 2^b x G table, digit-major, so that
 *      table[d * G + c] becomes where block c's first key of digit d goes;
 *   3  srts_downsweep: each block reads its run again, tile by tile (2048 keys), ranks
 *      every key within the tile with one composite "multi-scan" of packed digit flags,
 *      exchanges the tile in shared memory into digit order, and writes it coalesced to
 *      base[d] + (j - tile_start[d]), carrying the 2^b running bases from tile to tile.
 * The multi-scan: the 2^b flag vectors are packed as 8-bit counters, four per 32-bit
 * word, ceil(2^b / 4) words per thread (1 word for b <= 2, 4 for b = 4, 8 for b = 5), so
 * one 32-bit add advances four digits' prefix sums at once.  Each thread holds 8
 * consecutive keys of the tile and counts them in its private bytes (its local prefix
 * per key comes out of the same read-modify-write); one shuffle scan per packed word
 * across the warp gives each lane the counts of the lanes below it; the warps' totals
 * (16-bit halves) and one 32-bit block scan over the 2^b x 8 (digit, warp) pairs,
 * digit-major, give each (digit, warp) its start in the tile.  rank = start(digit, warp)
 * + lanes below (packed byte) + keys before in the thread.
 * No 8-bit overflow: a thread's byte counts at most its 8 keys; the warp scan scans the
 * lane counts shifted up one lane, so every partial sum it forms counts at most the 31
 * lanes below the top one, 31 x 8 = 248 < 256; the warp's total (up to 256) is formed
 * in 16-bit halves (bytes 0 and 2, bytes 1 and 3 apart), and all sums across warps are
 * 32-bit.  In the upsweep a thread adds at most 31 tiles x 8 keys = 248 to a byte before
 * the bytes are folded (the warp's sum of a byte lane, at most 32 x 248, fits the 16-bit
 * halves the REDUX adds).
 * Stable: a tile's rank order is (digit, tile position) - thread t holds positions 8t ..
 * 8t + 7, warps and lanes are scanned in position order - the tiles of a block follow each
 * other through the running bases, and the blocks' runs through the digit-major table.
 * Why it is faster: 3n key accesses per pass (read to count, read to rank, write once;
 * pairs: 5n) instead of s1's 4n plus the values' (read, write the sorted tile, read it
 * back, scatter; ~5n with its histogram traffic in Satish's model), and the keys cross
 * shared memory once per pass (one exchange) where s1's local sort moved them once per
 * bit of the digit.
 * What still limits it: the keys are read twice per pass; the downsweep should be bound
 * by instructions, latency and barriers rather than by DRAM on Hopper (seven barriers per
 * tile, no prefetch of the next tile, a byte read-modify-write chain per key, the packed
 * scan, a random-bank exchange); the one-block top scan is latency per pass.  The
 * digit size is a trade (the tuning table: the paper's Fig. 10 "bathtub"): each extra bit
 * saves passes but doubles the counters to scan; 4 bits need 8 passes of 3n.
 * Keeps (radix.h): 32-bit keys (u32, i32, f32), keys and values at any 4-byte address
 * (scalar, warp-contiguous global loads and stores only), n up to RADIX_MAX_N (positions
 * and counts are 32-bit, global indices size_t), every bit range (a last pass of fewer
 * bits masks fewer bits and leaves the upper counters zero), stable. */
#include "blocks/ballot_block.cuh"
#include "radix_keys.cuh"

#define S2_TBS 256
#define S2_ITEMS 8 /* keys per thread per tile: 31 lanes x 8 = 248 keeps the packed bytes in range */
#define S2_TILE (S2_TBS * S2_ITEMS)
#define S2_NW (S2_TBS / 32)
#define S2_DIGIT_BITS 4          /* the ladder step */
#define S2_MAX_GRID 2048u        /* blocks per pass at most (scratch holds 2^b x this many counts) */
#define S2_FOLD (255 / S2_ITEMS) /* upsweep tiles between two folds of the byte counters */
#define S2_TOP_TBS 1024
#define S2_TOP_ITEMS 8
#define S2_TOP_CHUNK (S2_TOP_TBS * S2_TOP_ITEMS)

/* the step's label, from its knobs */
RADIX_PARAM_DEF(radix_s2_param,
    "bits=%d tbs=%d keys/thread=%d grid=resident (3 kernels x %d passes)",
    S2_DIGIT_BITS, S2_TBS, S2_ITEMS, 32 / S2_DIGIT_BITS);

static_assert(S2_ITEMS * 31 <= 255, "the warp scan's partial sums must fit a byte");
static_assert(S2_FOLD * S2_ITEMS <= 255, "the upsweep's bytes must not overflow between folds");

/* one padding word every 32: a thread's 8 consecutive tile words fall in 8 distinct banks
 * and the 32 lanes of a warp reading item i hit 32 distinct banks */
static __device__ __forceinline__ unsigned srts_pad(unsigned i) { return i + (i >> 5); }

/* this block's run of tiles [*t0, *t1): even share, the first tiles % G blocks get one more */
static __device__ __forceinline__ void srts_share(size_t tiles, size_t *t0, size_t *t1)
{
    const size_t g = gridDim.x, c = blockIdx.x, q = tiles / g, r = tiles % g;
    *t0 = c * q + (c < r ? c : r);
    *t1 = *t0 + q + (c < r ? 1 : 0);
}

/* byte of the packed counter of digit d in thread tid's private column: word d / 4 of the
 * column (words W x TBS, column-major by thread: every lane of a warp in its own bank),
 * byte d % 4 of the word */
template <int TBS>
static __device__ __forceinline__ unsigned srts_cnt_byte(unsigned d, unsigned tid)
{
    return ((d >> 2) * TBS + tid) * 4u + (d & 3u);
}

/* the keys of the tile at `base`, coalesced (position i * TBS + tid), 0 past n */
template <int TBS, int ITEMS>
static __device__ __forceinline__ void srts_load_striped(const uint32_t *__restrict__ keys, size_t n,
                                                         size_t base, unsigned tid, uint32_t (&k)[ITEMS])
{
    const size_t left = n - base;
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const unsigned j = i * TBS + tid;
        k[i] = j < left ? keys[base + j] : 0u;
    }
}

/* ------------------------------------------------------------- 1: upsweep */

template <int KT, int BITS>
static __global__ void __launch_bounds__(S2_TBS)
    srts_upsweep(const uint32_t *__restrict__ keys, size_t n, uint32_t *__restrict__ counts, int shift,
                 int bits)
{
    constexpr int R = 1 << BITS, W = (R + 3) / 4, NW = S2_NW, TBS = S2_TBS;
    __shared__ uint32_t s_cnt[W * TBS];
    __shared__ uint32_t s_wacc[NW * R];
    uint8_t *const c8 = reinterpret_cast<uint8_t *>(s_cnt);
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const size_t tiles = (n + S2_TILE - 1) / S2_TILE;
    size_t t, t0, t1;
    srts_share(tiles, &t0, &t1);
    uint32_t acc = 0; /* lane l: the warp's count of digit l (l < 4W) */
    uint32_t k[S2_ITEMS];
    unsigned since_fold = 0;
#pragma unroll
    for (int w = 0; w < W; w++) s_cnt[w * TBS + tid] = 0u;
    srts_load_striped<TBS, S2_ITEMS>(keys, n, t0 * S2_TILE, tid, k);
    for (t = t0; t < t1; t++) { /* block-uniform loop */
        const size_t left = n - t * S2_TILE;
        uint32_t next[S2_ITEMS] = {}; /* the next tile's loads fly while this one is counted */
        if (t + 1 < t1) srts_load_striped<TBS, S2_ITEMS>(keys, n, (t + 1) * S2_TILE, tid, next);
#pragma unroll
        for (int i = 0; i < S2_ITEMS; i++) {
            if (i * TBS + tid < left) {
                const unsigned a = srts_cnt_byte<TBS>(radix_digit<KT>(k[i], shift, bits), tid);
                c8[a] = (uint8_t)(c8[a] + 1u);
            }
            k[i] = next[i];
        }
        if (++since_fold < S2_FOLD && t + 1 < t1) continue;
        /* fold: the warp sums each packed word in two 16-bit halves (even bytes, odd
         * bytes: a lane's byte is <= 248, 32 lanes <= 7936), lane l keeps digit l */
        since_fold = 0;
        const unsigned lw = lane >> 2, ls = lane & 3u;
#pragma unroll
        for (int w = 0; w < W; w++) {
            const uint32_t v = s_cnt[w * TBS + tid];
            s_cnt[w * TBS + tid] = 0u;
            const uint32_t even = warp_reduce<WR_REDUX>(v & 0x00FF00FFu);
            const uint32_t odd = warp_reduce<WR_REDUX>((v >> 8) & 0x00FF00FFu);
            if (lw == (unsigned)w) acc += ((ls & 1u ? odd : even) >> (16u * (ls >> 1))) & 0xFFFFu;
        }
    }
    if (lane < (unsigned)R) s_wacc[warp * R + lane] = acc;
    __syncthreads();
    if (tid < (unsigned)R) {
        uint32_t sum = 0;
#pragma unroll
        for (int k = 0; k < NW; k++) sum += s_wacc[k * R + tid];
        counts[(size_t)tid * gridDim.x + blockIdx.x] = sum;
    }
}

/* ----------------------------------------------------------- 2: top scan */

/* One block, exclusive scan of the m-word table in place, in chunks of 8192 words:
 * staged through shared memory (coalesced), 8 consecutive words per thread, a block scan
 * of the thread sums, the running total carried from chunk to chunk. */
static __global__ void __launch_bounds__(S2_TOP_TBS) srts_top_scan(uint32_t *table, unsigned m)
{
    __shared__ uint32_t s[S2_TOP_CHUNK + S2_TOP_CHUNK / 32];
    const unsigned tid = threadIdx.x;
    uint32_t carry = 0;
    for (unsigned base = 0; base < m; base += S2_TOP_CHUNK) {
        const unsigned left = m - base;
        uint32_t v[S2_TOP_ITEMS], sum = 0, total;
#pragma unroll
        for (int i = 0; i < S2_TOP_ITEMS; i++) {
            const unsigned j = i * S2_TOP_TBS + tid;
            s[srts_pad(j)] = j < left ? table[base + j] : 0u;
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < S2_TOP_ITEMS; i++) {
            v[i] = s[srts_pad(tid * S2_TOP_ITEMS + i)];
            sum += v[i];
        }
        /* its first barrier also orders every thread's reads above before the writes below */
        uint32_t run = carry + block_scan32_excl<S2_TOP_TBS, WS_SHFL>(sum, &total);
#pragma unroll
        for (int i = 0; i < S2_TOP_ITEMS; i++) {
            s[srts_pad(tid * S2_TOP_ITEMS + i)] = run;
            run += v[i];
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < S2_TOP_ITEMS; i++) {
            const unsigned j = i * S2_TOP_TBS + tid;
            if (j < left) table[base + j] = s[srts_pad(j)];
        }
        carry += total;
        __syncthreads(); /* the next chunk overwrites s */
    }
}

/* ---------------------------------------------------------- 3: downsweep */

template <int KT, int BITS, bool PAIRS>
static __global__ void __launch_bounds__(S2_TBS, 4)
    srts_downsweep(const uint32_t *__restrict__ keys_in, uint32_t *__restrict__ keys_out,
                   const uint32_t *__restrict__ vals_in, uint32_t *__restrict__ vals_out, size_t n,
                   const uint32_t *__restrict__ bases, int shift, int bits)
{
    constexpr int R = 1 << BITS, W = (R + 3) / 4, NW = S2_NW, TBS = S2_TBS, ITEMS = S2_ITEMS;
    constexpr int TILE = S2_TILE, TPAD = TILE + TILE / 32;
    static_assert(R * NW <= TBS, "one (digit, warp) pair per thread in the block scan");
    __shared__ uint32_t s_keys[TPAD];
    __shared__ uint32_t s_vals[PAIRS ? TPAD : 1];
    __shared__ uint32_t s_cnt[W * TBS];    /* private packed byte counters, a column per thread */
    __shared__ uint32_t s_wtot[NW * 2 * W]; /* warp totals: per word, even and odd bytes as 16-bit halves */
    __shared__ uint32_t s_base[R * (NW + 1)]; /* start of (digit d, warp k) in the tile at d * (NW+1) + k */
    __shared__ uint32_t s_off[R];             /* global base of digit d minus its tile start */
    uint8_t *const c8 = reinterpret_cast<uint8_t *>(s_cnt);
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const size_t tiles = (n + TILE - 1) / TILE;
    size_t t, t0, t1;
    srts_share(tiles, &t0, &t1);
    /* thread d < R carries digit d's next global position across the block's tiles */
    uint32_t run_base = tid < (unsigned)R ? bases[(size_t)tid * gridDim.x + blockIdx.x] : 0u;

    for (t = t0; t < t1; t++) {
        const size_t base = t * TILE;
        const unsigned valid = n - base < (size_t)TILE ? (unsigned)(n - base) : (unsigned)TILE;
        uint32_t key[ITEMS], val[ITEMS];
        /* load coalesced (position i * TBS + tid), padding past n as 0 */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const unsigned j = i * TBS + tid;
            key[i] = j < valid ? keys_in[base + j] : 0u;
            if (PAIRS) val[i] = j < valid ? vals_in[base + j] : 0u;
        }
        __syncthreads(); /* the previous tile's last reads of s_keys / s_vals are done */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const unsigned j = i * TBS + tid;
            s_keys[srts_pad(j)] = key[i];
            if (PAIRS) s_vals[srts_pad(j)] = val[i];
        }
        __syncthreads();
        /* blocked: thread tid holds tile positions tid * ITEMS + i, in order */
        unsigned dig[ITEMS], lp[ITEMS];
#pragma unroll
        for (int w = 0; w < W; w++) s_cnt[w * TBS + tid] = 0u; /* own column: no barrier */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const unsigned p = tid * ITEMS + i;
            key[i] = s_keys[srts_pad(p)];
            if (PAIRS) val[i] = s_vals[srts_pad(p)];
            dig[i] = radix_digit<KT>(key[i], shift, bits);
            lp[i] = 0;
            if (p < valid) { /* keys before it in this thread with its digit; count it */
                const unsigned a = srts_cnt_byte<TBS>(dig[i], tid);
                lp[i] = c8[a];
                c8[a] = (uint8_t)(lp[i] + 1u);
            }
        }
        /* warp multi-scan: per packed word, the counts of the lanes below (scanned shifted
         * up one lane: partial sums <= 31 x 8); lane 31 adds its own count in 16-bit halves */
#pragma unroll
        for (int w = 0; w < W; w++) {
            const uint32_t v = s_cnt[w * TBS + tid];
            uint32_t x = __shfl_up_sync(BALLOT_FULL, v, 1);
            if (lane == 0) x = 0u;
            const uint32_t excl = warp_scan_shfl_incl(x);
            s_cnt[w * TBS + tid] = excl;
            if (lane == 31) {
                s_wtot[warp * 2 * W + 2 * w] = (excl & 0x00FF00FFu) + (v & 0x00FF00FFu);
                s_wtot[warp * 2 * W + 2 * w + 1] = ((excl >> 8) & 0x00FF00FFu) + ((v >> 8) & 0x00FF00FFu);
            }
        }
        __syncthreads(); /* warp totals visible; every thread has read its keys from s_keys */
        /* block scan of the (digit, warp) counts, digit-major: thread j = d * NW + k */
        uint32_t cnt = 0, total;
        if (tid < (unsigned)(R * NW)) {
            const unsigned d = tid / NW, k = tid % NW, s = d & 3u, w = d >> 2;
            cnt = (s_wtot[k * 2 * W + 2 * w + (s & 1u)] >> (16u * (s >> 1))) & 0xFFFFu;
        }
        const uint32_t start = block_scan32_excl<TBS, WS_SHFL>(cnt, &total); /* total == valid */
        if (tid < (unsigned)(R * NW)) s_base[(tid / NW) * (NW + 1) + tid % NW] = start;
        __syncthreads();
        if (tid < (unsigned)R) { /* this tile's offsets; the bases move past its keys */
            const uint32_t first = s_base[tid * (NW + 1)];
            const uint32_t next = tid + 1 < (unsigned)R ? s_base[(tid + 1) * (NW + 1)] : total;
            s_off[tid] = run_base - first; /* wraps; base + j - first is < n */
            run_base += next - first;
        }
        /* local exchange into digit order */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            if (tid * ITEMS + i < valid) {
                const unsigned rank =
                    s_base[dig[i] * (NW + 1) + warp] + c8[srts_cnt_byte<TBS>(dig[i], tid)] + lp[i];
                s_keys[srts_pad(rank)] = key[i];
                if (PAIRS) s_vals[srts_pad(rank)] = val[i];
            }
        }
        __syncthreads();
        /* coalesced scatter: consecutive threads, consecutive ranks, runs of one digit */
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const unsigned j = i * TBS + tid;
            if (j < valid) {
                const uint32_t k = s_keys[srts_pad(j)];
                const size_t pos = (size_t)(s_off[radix_digit<KT>(k, shift, bits)] + j);
                keys_out[pos] = k;
                if (PAIRS) vals_out[pos] = s_vals[srts_pad(j)];
            }
        }
    }
}

/* ----------------------------------------------------------------- host */

/* the counts table: 2^b words per block, at most one block per tile */
template <int BITS>
static size_t srts_table_words(size_t n)
{
    const size_t tiles = (n + S2_TILE - 1) / S2_TILE;
    return ((size_t)1 << BITS) * (tiles < S2_MAX_GRID ? tiles : (size_t)S2_MAX_GRID);
}

template <int BITS>
static size_t srts_scratch(size_t n, int type, int pairs)
{
    return radix_alt_bytes(n, type, pairs) + radix_round256(srts_table_words<BITS>(n) * 4);
}

template <int KT, int BITS, bool PAIRS>
static cudaError_t srts_sort(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                             uint32_t *vals_out, size_t n, int begin_bit, int end_bit, void *scratch,
                             cudaStream_t s)
{
    constexpr unsigned R = 1u << BITS;
    static unsigned resident = 0; /* the downsweep's resident grid, queried once */
    const size_t tiles = (n + S2_TILE - 1) / S2_TILE;
    radix_carve c = {(char *)scratch, 0};
    radix_plan pl;
    unsigned grid;
    int p;
    if (!resident)
        KIT_TRY(kit_resident_grid((const void *)srts_downsweep<KT, BITS, PAIRS>, S2_TBS, 0, &resident));
    grid = resident < S2_MAX_GRID ? resident : S2_MAX_GRID;
    if (tiles < grid) grid = (unsigned)tiles;
    void *alt_keys = radix_take(&c, n * 4);
    uint32_t *alt_vals = PAIRS ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    uint32_t *table = (uint32_t *)radix_take(&c, (size_t)R * grid * 4);
    radix_make_plan(&pl, keys_in, keys_out, alt_keys, vals_in, vals_out, alt_vals, begin_bit, end_bit, BITS);
    for (p = 0; p < pl.passes; p++) {
        const uint32_t *src = (const uint32_t *)pl.src_keys[p];
        srts_upsweep<KT, BITS><<<grid, S2_TBS, 0, s>>>(src, n, table, pl.shift[p], pl.bits[p]);
        KIT_TRY(cudaGetLastError());
        srts_top_scan<<<1, S2_TOP_TBS, 0, s>>>(table, R * grid);
        KIT_TRY(cudaGetLastError());
        srts_downsweep<KT, BITS, PAIRS><<<grid, S2_TBS, 0, s>>>(src, (uint32_t *)pl.dst_keys[p],
                                                                 pl.src_vals[p], pl.dst_vals[p], n, table,
                                                                 pl.shift[p], pl.bits[p]);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

template <int BITS>
static cudaError_t srts_run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                            size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES32, 0, s, &work));
    if (!work) return cudaSuccess;
    return radix_dispatch<RADIX_TYPES32>(type, vals_in != NULL, [&](auto kt, auto pairs) {
        return srts_sort<decltype(kt)::value, BITS, decltype(pairs)::value>(keys_in, keys_out, vals_in, vals_out,
                                                                             n, begin_bit, end_bit, scratch, s);
    });
}

template <int BITS>
static cudaError_t srts_describe(kit_kernel_desc *d)
{
    d->func = (const void *)srts_downsweep<RADIX_U32, BITS, false>;
    d->block_threads = S2_TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

extern "C" cudaError_t radix_s2_srts(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                     uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                     void *scratch, cudaStream_t s)
{
    return srts_run<S2_DIGIT_BITS>(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                                   s);
}

extern "C" size_t radix_s2_srts_scratch(size_t n, int type, int pairs)
{
    return srts_scratch<S2_DIGIT_BITS>(n, type, pairs);
}

KIT_DESCRIBE(radix_s2_describe, (srts_downsweep<RADIX_U32, S2_DIGIT_BITS, false>), S2_TBS, 0)

/* ---- tuning table: digit bits 1..5 (Merrill & Grimshaw's Fig. 10, the "bathtub") */
#define S2_FILE "chapters/05-radix-sort/s2_srts.cu"
#define S2_VARIANT(B, PASSES)                                                                             \
    {{"s2_srts", "bits=" #B " tbs=256 keys/thread=8 (3 kernels x " #PASSES " passes)",                    \
      "SRTS: upsweep counts, top scan, downsweep multi-scan + exchange", S2_FILE, NULL, KIT_STEP_GPU,      \
      srts_describe<B>, 0, 0},                                                                            \
     srts_scratch<B>, srts_run<B>, RADIX_TYPES32, B}

extern "C" const radix_step radix_srts_variants[RADIX_SRTS_NVARIANTS] = {
    S2_VARIANT(1, 32), S2_VARIANT(2, 16), S2_VARIANT(3, 11), S2_VARIANT(4, 8), S2_VARIANT(5, 7),
};
