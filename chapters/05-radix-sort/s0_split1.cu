/* s0 - the first GPU step: an LSD radix sort one bit per pass, each pass a stable split
 * (zeros first) ranked with ballot/popc binary block scans (poster 000's idea).
 * Changed versus the CPU LSD sort (radix_cpu_lsd, Brown's Fig. 9.1-9.2 corrected): the
 * digit is a single bit, so a pass's "counting sort" needs only one count per tile (its
 * zeros) and one prefix per key (the zeros before it in the tile), and both are binary:
 * a warp ballots the bit and popc counts the votes below a lane.  Each of the 32 passes
 * (one per bit of [begin_bit, end_bit)) is three launches:
 *   A  s0_count_kernel: each block counts the zeros of its tile of TBS x ITEMS keys with
 *      __syncthreads_count (one barrier per sub-tile of TBS keys) -> zeros[block];
 *      block 0 also writes zeros[nblocks] = 0;
 *   B  blk_scan_u32_excl (reference/blocks/scan_u32.cuh) over the nblocks + 1 counts,
 *      in place: zeros[b] becomes the tile's first zero's place, zeros[nblocks] the
 *      total number of zeros (where the ones begin);
 *   C  s0_scatter_kernel: each block reads its tile again, as ITEMS consecutive
 *      sub-tiles of TBS keys in order, ranks the keys of each sub-tile with
 *      block_bin_scan_excl (reference/blocks/ballot_block.cuh) carrying the running count
 *      of zeros, and writes a zero to zero_base + zeros before it, a one to total_zeros +
 *      (ones of the earlier tiles) + ones before it: stable, values follow their keys.
 * Why it is faster: the passes spread over thousands of blocks instead of one core, and
 * every read is coalesced.
 * What still limits it: 32 passes, each reading the keys twice and writing them once
 * (plus the values), three launches per pass and no reuse between bits; the scatter
 * splits each warp's stores into two runs, and all of it is bound by DRAM traffic that
 * a wider digit would divide by the digit width.  Slow by design: the next steps widen
 * the digit.
 * Keeps (radix.h): 32-bit keys (u32, i32, f32), keys and values at any 4-byte address
 * (scalar, warp-contiguous loads and stores only), n up to RADIX_MAX_N (4M tiles of 1024
 * keys at most), every bit range, stable. */
#include "blocks/ballot_block.cuh"
#include "blocks/scan_u32.cuh"
#include "radix_keys.cuh"

#define S0_TBS 256
#define S0_ITEMS 4 /* keys per thread: the tile is S0_ITEMS sub-tiles of S0_TBS keys */
#define S0_TILE (S0_TBS * S0_ITEMS)

/* A: zeros[block] = keys of the tile whose bit `bit` (of the image) is 0; the padding
 * slot zeros[gridDim.x] = 0 so that the exclusive scan leaves the total there. */
template <int KT>
static __global__ void __launch_bounds__(S0_TBS)
    s0_count_kernel(const uint32_t *__restrict__ keys, size_t n, int bit, uint32_t *__restrict__ zeros)
{
    const size_t tile_start = (size_t)blockIdx.x * S0_TILE;
    const size_t left = n - tile_start; /* > 0: every block has keys */
    uint32_t key[S0_ITEMS];
#pragma unroll
    for (int k = 0; k < S0_ITEMS; k++) { /* all loads first, then the counts */
        const unsigned j = k * S0_TBS + threadIdx.x;
        key[k] = j < left ? keys[tile_start + j] : 0u;
    }
    unsigned count = 0;
#pragma unroll
    for (int k = 0; k < S0_ITEMS; k++) {
        const unsigned j = k * S0_TBS + threadIdx.x;
        count += __syncthreads_count(j < left && radix_digit<KT>(key[k], bit, 1) == 0u);
    }
    if (threadIdx.x == 0) {
        zeros[blockIdx.x] = count;
        if (blockIdx.x == 0) zeros[gridDim.x] = 0u;
    }
}

/* C: the stable split of the tile.  zero_base[b]: zeros of the tiles before b;
 * zero_base[gridDim.x]: all the zeros. */
template <int KT, bool PAIRS>
static __global__ void __launch_bounds__(S0_TBS)
    s0_scatter_kernel(const uint32_t *__restrict__ keys_in, uint32_t *__restrict__ keys_out,
                      const uint32_t *__restrict__ vals_in, uint32_t *__restrict__ vals_out, size_t n,
                      int bit, const uint32_t *__restrict__ zero_base)
{
    const size_t tile_start = (size_t)blockIdx.x * S0_TILE;
    const size_t left = n - tile_start;
    const size_t zeros_before = zero_base[blockIdx.x];
    /* where this tile's ones begin: after every zero and the ones of the tiles before */
    const size_t ones_base = (size_t)zero_base[gridDim.x] + (tile_start - zeros_before);
    uint32_t key[S0_ITEMS], val[S0_ITEMS];
#pragma unroll
    for (int k = 0; k < S0_ITEMS; k++) {
        const unsigned j = k * S0_TBS + threadIdx.x;
        key[k] = j < left ? keys_in[tile_start + j] : 0u;
        if constexpr (PAIRS) val[k] = j < left ? vals_in[tile_start + j] : 0u;
    }
    /* sub-tile k holds tile positions k*TBS .. k*TBS+TBS-1: in order, so the running
     * count of zeros makes the ranks those of the whole tile (stability) */
    unsigned run = 0;
#pragma unroll
    for (int k = 0; k < S0_ITEMS; k++) {
        const unsigned j = k * S0_TBS + threadIdx.x;
        const bool valid = j < left; /* past n: neither a zero nor written */
        const bool zero = valid && radix_digit<KT>(key[k], bit, 1) == 0u;
        unsigned sub_zeros;
        /* back-to-back calls are safe (see ballot_block.cuh) */
        const unsigned zeros_below = run + block_bin_scan_excl<S0_TBS, BT_SHFL>(zero, &sub_zeros);
        if (valid) {
            const size_t dst = zero ? zeros_before + zeros_below : ones_base + (j - zeros_below);
            keys_out[dst] = key[k];
            if constexpr (PAIRS) vals_out[dst] = val[k];
        }
        run += sub_zeros;
    }
}

/* ---------------------------------------------------------------- host side */

struct s0_layout {
    void *alt_keys;
    uint32_t *alt_vals;
    uint32_t *zeros; /* nblocks + 1 counts, scanned in place */
    void *scan;      /* blk_scan_u32_excl's scratch */
};

/* carve scratch (base may be NULL: sizes only); returns the bytes used */
static size_t s0_carve(void *scratch, size_t n, int type, int pairs, s0_layout *L)
{
    radix_carve c = {(char *)scratch, 0};
    const size_t nb = (n + S0_TILE - 1) / S0_TILE;
    L->alt_keys = radix_take(&c, n * (size_t)radix_key_bytes(type));
    L->alt_vals = pairs ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    L->zeros = (uint32_t *)radix_take(&c, (nb + 1) * 4);
    L->scan = radix_take(&c, blk_scan_u32_scratch(nb + 1));
    return c.used;
}

extern "C" size_t radix_s0_split1_scratch(size_t n, int type, int pairs)
{
    s0_layout L;
    return n ? s0_carve(NULL, n, type, pairs, &L) : 0;
}

template <int KT>
static cudaError_t s0_run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                          size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    const unsigned nb = kit_blocks_for(n, S0_TILE);
    s0_layout L;
    radix_plan pl;
    int p;
    if (!nb) return cudaErrorInvalidValue;
    s0_carve(scratch, n, type, vals_in != NULL, &L);
    radix_make_plan(&pl, keys_in, keys_out, L.alt_keys, vals_in, vals_out, L.alt_vals, begin_bit, end_bit, 1);
    for (p = 0; p < pl.passes; p++) {
        const uint32_t *src = (const uint32_t *)pl.src_keys[p];
        uint32_t *dst = (uint32_t *)pl.dst_keys[p];
        s0_count_kernel<KT><<<nb, S0_TBS, 0, s>>>(src, n, pl.shift[p], L.zeros);
        KIT_TRY(cudaGetLastError());
        KIT_TRY(blk_scan_u32_excl(L.zeros, L.zeros, (size_t)nb + 1, L.scan, s));
        if (vals_in)
            s0_scatter_kernel<KT, true>
                <<<nb, S0_TBS, 0, s>>>(src, dst, pl.src_vals[p], pl.dst_vals[p], n, pl.shift[p], L.zeros);
        else
            s0_scatter_kernel<KT, false><<<nb, S0_TBS, 0, s>>>(src, dst, NULL, NULL, n, pl.shift[p], L.zeros);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

extern "C" cudaError_t radix_s0_split1(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                       uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                       void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES32, 0, s, &work));
    if (!work) return cudaSuccess;
    /* the type picks the instantiation (the image is then one or two ALU operations) */
    return radix_dispatch_type<RADIX_TYPES32>(type, [&](auto kt) {
        return s0_run<decltype(kt)::value>(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit,
                                           scratch, s);
    });
}

KIT_DESCRIBE(radix_s0_describe, (s0_scatter_kernel<RADIX_U32, false>), S0_TBS, 0)
