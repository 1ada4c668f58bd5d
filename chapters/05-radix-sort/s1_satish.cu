/* s1 - Satish, Harris & Garland's radix sort (CUDPP): 4-bit digits, each tile sorted
 * locally before it is scattered.
 * Changed versus s0: a pass sorts by a 4-bit digit (8 passes for 32 bits instead of 32),
 * in three launches:
 *   1  s1_local_sort_kernel: each block loads its tile of TBS x ITEMS keys (coalesced),
 *      sorts it by the digit with 4 stable 1-bit splits in shared memory (the split of
 *      s0, now inside the block: ballot/popc warp counts, one warp scans the counts of
 *      all ITEMS x TBS/32 warp rows at once, so a split costs three barriers whatever
 *      ITEMS is), writes the locally sorted tile (keys, values) to a temporary buffer and
 *      the tile's 16 digit counts column-major: hist[digit * nblocks + block], found as
 *      the boundaries of the digit runs of the sorted tile (no atomics);
 *   2  blk_scan_u32_excl (reference/blocks/scan_u32.cuh) over the 16 x nblocks table:
 *      column-major, so scanned[d * nblocks + b] is where the keys of digit d of tile b go
 *      (every smaller digit, then digit d of the tiles before b);
 *   3  s1_scatter_kernel: each block reads its sorted tile back (coalesced), rebuilds the
 *      tile's digit starts local_start[d] from its 16 counts, and writes the key at sorted
 *      position j (digit d) to scanned[d * nblocks + b] + (j - local_start[d]).
 * Stable: the splits are stable, the padding past n sorts last (it takes the largest
 * digit and comes last), and the tiles keep their order within each digit.
 * Why it is faster: 8 passes instead of 32, and the scatter writes each digit's keys of
 * a tile as one contiguous run (about 64 keys per run for uniform digits), so a warp's
 * stores fall in a few runs rather than in 32 random places: Satish's point.
 * What still limits it: each pass moves the keys four times (read, write the sorted
 * tile, read it back, scatter) plus the values; the local sort is 4 splits of 3 barriers
 * each; and the 16-bin table is 16 words per 1024 keys (a scan of n/64 words per pass).
 * Merrill & Grimshaw (s2) remove the temporary tile and fuse the work into fewer trips.
 * Keeps (radix.h): 32-bit keys (u32, i32, f32), keys and values at any 4-byte address
 * (scalar, warp-contiguous loads and stores only), n up to RADIX_MAX_N (4M tiles of 1024
 * keys; a 64M-word table), every bit range (a pass of fewer bits takes fewer splits),
 * stable. */
#include "blocks/ballot_block.cuh"
#include "blocks/scan_u32.cuh"
#include "radix_keys.cuh"

#define S1_TBS 256
#define S1_ITEMS 4 /* keys per thread: the tile is S1_ITEMS sub-tiles of S1_TBS keys */
#define S1_TILE (S1_TBS * S1_ITEMS)
#define S1_DIGIT_BITS 4
#define S1_RADIX (1 << S1_DIGIT_BITS)

/* Ranks for a stable split of the whole tile at once.  Element k of thread t is tile
 * position k * TBS + t; one[k] is its bit.  below[k] gets the ones before it in the tile;
 * returns the tile's ones.  The warp counts of the ITEMS x NW warp rows, in tile order
 * (row k * NW + warp), are scanned by one warp: Listing 3.6's binary block scan for
 * ITEMS sub-tiles with two barriers in all.  Back-to-back calls are safe: s_cnt is only
 * read before the second barrier, s_pre only written after the first. */
template <int TBS, int ITEMS>
static __device__ __forceinline__ unsigned s1_split_scan(const bool (&one)[ITEMS], unsigned (&below)[ITEMS])
{
    constexpr int NW = TBS / 32, NR = ITEMS * NW;
    static_assert(TBS % 32 == 0 && NR <= 32, "one warp scans the row counts");
    __shared__ unsigned s_cnt[NR], s_pre[NR + 1];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned votes[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        votes[k] = __ballot_sync(BALLOT_FULL, one[k]);
        if (lane == 0) s_cnt[k * NW + warp] = __popc(votes[k]);
    }
    __syncthreads();
    if (warp == 0) {
        const unsigned v = lane < (unsigned)NR ? s_cnt[lane] : 0u;
        const unsigned vi = warp_scan_incl<WS_SHFL>(v, NULL);
        if (lane < (unsigned)NR) s_pre[lane] = vi - v;
        if (lane == 31) s_pre[NR] = vi;
    }
    __syncthreads();
    const unsigned lt = ptx_lanemask_lt();
#pragma unroll
    for (int k = 0; k < ITEMS; k++) below[k] = s_pre[k * NW + warp] + __popc(votes[k] & lt);
    return s_pre[NR];
}

/* 1: sort the tile by bits [shift, shift + bits) of the image; write it to tmp and its
 * digit counts to hist[d * gridDim.x + blockIdx.x] (16 rows whatever `bits`). */
template <int KT, bool PAIRS>
static __global__ void __launch_bounds__(S1_TBS)
    s1_local_sort_kernel(const uint32_t *__restrict__ keys_in, const uint32_t *__restrict__ vals_in,
                         uint32_t *__restrict__ tmp_keys, uint32_t *__restrict__ tmp_vals,
                         uint32_t *__restrict__ hist, size_t n, int shift, int bits)
{
    __shared__ uint32_t s_keys[S1_TILE];
    __shared__ uint32_t s_vals[PAIRS ? S1_TILE : 1];
    __shared__ unsigned s_start[S1_RADIX], s_end[S1_RADIX];
    const unsigned t = threadIdx.x;
    const size_t tile_start = (size_t)blockIdx.x * S1_TILE;
    const size_t left = n - tile_start; /* > 0: every block has keys */
    const unsigned valid = left < S1_TILE ? (unsigned)left : S1_TILE;
    const unsigned pad_digit = (1u << bits) - 1u; /* the padding sorts last */
    if (t < S1_RADIX) s_start[t] = s_end[t] = 0u; /* read after the splits' barriers */
    uint32_t key[S1_ITEMS], val[S1_ITEMS];
#pragma unroll
    for (int k = 0; k < S1_ITEMS; k++) {
        const unsigned j = k * S1_TBS + t;
        key[k] = j < valid ? keys_in[tile_start + j] : 0u;
        if constexpr (PAIRS) val[k] = j < valid ? vals_in[tile_start + j] : 0u;
    }
    /* Invariant: after each split the padding (digit pad_digit, last in the input, so
     * last among the ones of every bit) fills positions valid .. TILE-1. */
    for (int b = 0; b < bits; b++) {
        bool one[S1_ITEMS];
        unsigned below[S1_ITEMS];
#pragma unroll
        for (int k = 0; k < S1_ITEMS; k++) {
            const unsigned j = k * S1_TBS + t;
            const unsigned d = j < valid ? radix_digit<KT>(key[k], shift, bits) : pad_digit;
            one[k] = (d >> b) & 1u;
        }
        /* its first barrier also orders the reads of s_keys of the previous split before
         * the writes below */
        const unsigned zeros = S1_TILE - s1_split_scan<S1_TBS, S1_ITEMS>(one, below);
#pragma unroll
        for (int k = 0; k < S1_ITEMS; k++) {
            const unsigned j = k * S1_TBS + t;
            const unsigned pos = one[k] ? zeros + below[k] : j - below[k];
            s_keys[pos] = key[k];
            if constexpr (PAIRS) s_vals[pos] = val[k];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < S1_ITEMS; k++) {
            const unsigned j = k * S1_TBS + t;
            key[k] = s_keys[j];
            if constexpr (PAIRS) val[k] = s_vals[j];
        }
    }
    /* The tile is sorted (s_keys holds it too).  A digit's count is the length of its run:
     * the first key of a run records its start, the last its end; absent digits keep 0, 0. */
#pragma unroll
    for (int k = 0; k < S1_ITEMS; k++) {
        const unsigned j = k * S1_TBS + t;
        if (j < valid) {
            const unsigned d = radix_digit<KT>(key[k], shift, bits);
            if (j == 0 || radix_digit<KT>(s_keys[j - 1], shift, bits) != d) s_start[d] = j;
            if (j == valid - 1 || radix_digit<KT>(s_keys[j + 1], shift, bits) != d) s_end[d] = j + 1;
            tmp_keys[tile_start + j] = key[k];
            if constexpr (PAIRS) tmp_vals[tile_start + j] = val[k];
        }
    }
    __syncthreads();
    if (t < S1_RADIX) hist[(size_t)t * gridDim.x + blockIdx.x] = s_end[t] - s_start[t];
}

/* 3: the locally sorted tile to its places.  hist: the counts (column-major), scanned:
 * their exclusive scan. */
template <int KT, bool PAIRS>
static __global__ void __launch_bounds__(S1_TBS)
    s1_scatter_kernel(const uint32_t *__restrict__ tmp_keys, const uint32_t *__restrict__ tmp_vals,
                      uint32_t *__restrict__ keys_out, uint32_t *__restrict__ vals_out,
                      const uint32_t *__restrict__ hist, const uint32_t *__restrict__ scanned, size_t n,
                      int shift, int bits)
{
    __shared__ unsigned s_local[S1_RADIX], s_global[S1_RADIX];
    const unsigned t = threadIdx.x;
    const size_t tile_start = (size_t)blockIdx.x * S1_TILE;
    const size_t left = n - tile_start;
    const unsigned valid = left < S1_TILE ? (unsigned)left : S1_TILE;
    uint32_t key[S1_ITEMS], val[S1_ITEMS];
#pragma unroll
    for (int k = 0; k < S1_ITEMS; k++) {
        const unsigned j = k * S1_TBS + t;
        key[k] = j < valid ? tmp_keys[tile_start + j] : 0u;
        if constexpr (PAIRS) val[k] = j < valid ? tmp_vals[tile_start + j] : 0u;
    }
    if (t < 32) { /* warp 0: the tile's digit starts from its counts, and the global ones */
        const size_t at = (size_t)t * gridDim.x + blockIdx.x;
        const unsigned c = t < S1_RADIX ? hist[at] : 0u;
        const unsigned ci = warp_scan_incl<WS_SHFL>(c, NULL);
        if (t < S1_RADIX) {
            s_local[t] = ci - c;
            s_global[t] = scanned[at];
        }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < S1_ITEMS; k++) {
        const unsigned j = k * S1_TBS + t;
        if (j < valid) {
            const unsigned d = radix_digit<KT>(key[k], shift, bits);
            const size_t dst = (size_t)s_global[d] + (j - s_local[d]); /* j >= s_local[d] */
            keys_out[dst] = key[k];
            if constexpr (PAIRS) vals_out[dst] = val[k];
        }
    }
}

/* ---------------------------------------------------------------- host side */

struct s1_layout {
    void *alt_keys;
    uint32_t *alt_vals;
    uint32_t *tmp_keys, *tmp_vals; /* the locally sorted tiles */
    uint32_t *hist, *scanned;      /* S1_RADIX x nblocks each, column-major */
    void *scan;                    /* blk_scan_u32_excl's scratch */
};

/* carve scratch (base may be NULL: sizes only); returns the bytes used */
static size_t s1_carve(void *scratch, size_t n, int type, int pairs, s1_layout *L)
{
    radix_carve c = {(char *)scratch, 0};
    const size_t table = S1_RADIX * ((n + S1_TILE - 1) / S1_TILE);
    L->alt_keys = radix_take(&c, n * (size_t)radix_key_bytes(type));
    L->alt_vals = pairs ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    L->tmp_keys = (uint32_t *)radix_take(&c, n * 4);
    L->tmp_vals = pairs ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    L->hist = (uint32_t *)radix_take(&c, table * 4);
    L->scanned = (uint32_t *)radix_take(&c, table * 4);
    L->scan = radix_take(&c, blk_scan_u32_scratch(table));
    return c.used;
}

extern "C" size_t radix_s1_satish_scratch(size_t n, int type, int pairs)
{
    s1_layout L;
    return n ? s1_carve(NULL, n, type, pairs, &L) : 0;
}

template <int KT>
static cudaError_t s1_run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                          size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    const unsigned nb = kit_blocks_for(n, S1_TILE);
    s1_layout L;
    radix_plan pl;
    int p;
    if (!nb) return cudaErrorInvalidValue;
    s1_carve(scratch, n, type, vals_in != NULL, &L);
    radix_make_plan(&pl, keys_in, keys_out, L.alt_keys, vals_in, vals_out, L.alt_vals, begin_bit, end_bit,
                    S1_DIGIT_BITS);
    for (p = 0; p < pl.passes; p++) {
        const uint32_t *src = (const uint32_t *)pl.src_keys[p];
        uint32_t *dst = (uint32_t *)pl.dst_keys[p];
        const int sh = pl.shift[p], bits = pl.bits[p];
        if (vals_in)
            s1_local_sort_kernel<KT, true>
                <<<nb, S1_TBS, 0, s>>>(src, pl.src_vals[p], L.tmp_keys, L.tmp_vals, L.hist, n, sh, bits);
        else
            s1_local_sort_kernel<KT, false>
                <<<nb, S1_TBS, 0, s>>>(src, NULL, L.tmp_keys, NULL, L.hist, n, sh, bits);
        KIT_TRY(cudaGetLastError());
        KIT_TRY(blk_scan_u32_excl(L.hist, L.scanned, (size_t)S1_RADIX * nb, L.scan, s));
        if (vals_in)
            s1_scatter_kernel<KT, true><<<nb, S1_TBS, 0, s>>>(L.tmp_keys, L.tmp_vals, dst, pl.dst_vals[p],
                                                             L.hist, L.scanned, n, sh, bits);
        else
            s1_scatter_kernel<KT, false>
                <<<nb, S1_TBS, 0, s>>>(L.tmp_keys, NULL, dst, NULL, L.hist, L.scanned, n, sh, bits);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

extern "C" cudaError_t radix_s1_satish(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                       uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                       void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES32, 0, s, &work));
    if (!work) return cudaSuccess;
    /* the type picks the instantiation (the image is then one or two ALU operations) */
    return radix_dispatch_type<RADIX_TYPES32>(type, [&](auto kt) {
        return s1_run<decltype(kt)::value>(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit,
                                           scratch, s);
    });
}

KIT_DESCRIBE(radix_s1_describe, (s1_scatter_kernel<RADIX_U32, false>), S1_TBS, 0)
