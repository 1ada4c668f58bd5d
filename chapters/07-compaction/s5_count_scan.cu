/* s5 - count / scan / scatter over tiles: the classic order-keeping compaction (what Thrust's
 * copy_if did when the paper was written), with today's building blocks.
 * Changed versus s4: the unit of work is a tile of TBS x ITEMS elements instead of a warp's 1024,
 * and no per-element state is kept between the kernels (no predicate array):
 *   1. count: each block loads its tile (ITEMS rounds of coalesced 128-byte warp loads, all issued
 *      before the first is used) and reduces its selected count (blocks/ballot_block.cuh's warp
 *      reductions) into counts[tile];
 *   2. scan: blk_scan_u32_excl (blocks/scan_u32.cuh, single pass) turns counts into each tile's
 *      output offset, in place;
 *   3. scatter: each block loads its tile again, ranks every round of TBS elements with the ballot
 *      block scan (block_bin_scan_excl: ballot + popc per warp, the warp counts scanned by one warp),
 *      stages the selected elements in shared memory in input order, and writes them with coalesced
 *      stores to out[offset .. offset + count).
 * Why it is faster: the output leaves in whole-tile runs (full 128-byte warp stores instead of s4's
 * 32-element pieces), the count table is n/4096 words, and value output reads each element in
 * the scatter kernel with the same coalesced loads as the count kernel instead of a masked re-read.
 * What still limits it: the input is read twice (count, then scatter): 8n + 4pn bytes against the
 * 4n + 4pn a single pass needs; three launches; the scatter kernel pays two block barriers per round
 * of TBS elements (2 x ITEMS per tile). */
#include "blocks/scan_u32.cuh"
#include "compact_device.cuh"

#define S5_TBS 256
#define S5_ITEMS 16
#define S5_TILE (S5_TBS * S5_ITEMS)
extern "C" const char compact_s5_param[] = "tbs=256 items=16 (striped) scan=blk_scan_u32 rank=ballot";

static inline size_t s5_tiles(size_t n) { return (n + S5_TILE - 1) / S5_TILE; }

/* 1. counts[tile] = selected elements of the tile */
template <int MODE>
static __global__ void __launch_bounds__(S5_TBS)
    s5_count_kernel(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, unsigned lim,
                    unsigned any, size_t n, uint32_t *__restrict__ counts)
{
    const size_t base = (size_t)blockIdx.x * S5_TILE + threadIdx.x;
    unsigned c = 0;
    if ((size_t)(blockIdx.x + 1) * S5_TILE <= n) {
#pragma unroll
        for (int k = 0; k < S5_ITEMS; k++) c += cm_selected<MODE>(in, flags, base + k * S5_TBS, lim, any);
    } else {
#pragma unroll
        for (int k = 0; k < S5_ITEMS; k++) {
            const size_t i = base + k * S5_TBS;
            c += i < n && cm_selected<MODE>(in, flags, i, lim, any);
        }
    }
    const unsigned tot = block_reduce32_warp<S5_TBS, WR_REDUX>(c);
    if (threadIdx.x == 0) counts[blockIdx.x] = tot;
}

/* 3. offs = the exclusive scan of counts; the last tile writes *count */
template <int MODE>
static __global__ void __launch_bounds__(S5_TBS)
    s5_scatter_kernel(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, unsigned lim,
                      unsigned any, size_t n, const uint32_t *__restrict__ offs, uint32_t *__restrict__ out,
                      uint32_t *__restrict__ count)
{
    __shared__ uint32_t s_stage[S5_TILE];
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * S5_TILE;
    const uint32_t off = offs[blockIdx.x]; /* fetched early: used at the end */
    uint32_t v[S5_ITEMS];                  /* what each element would write */
    unsigned sel = 0;                      /* bit k: element k of this thread is selected */
    if (base + S5_TILE <= n) {
#pragma unroll
        for (int k = 0; k < S5_ITEMS; k++) {
            const size_t i = base + k * S5_TBS + tid;
            sel |= (unsigned)cm_selected<MODE>(in, flags, i, lim, any) << k;
            v[k] = cm_output<MODE>(in, i);
        }
    } else {
#pragma unroll
        for (int k = 0; k < S5_ITEMS; k++) {
            const size_t i = base + k * S5_TBS + tid;
            const bool ok = i < n;
            sel |= (unsigned)(ok && cm_selected<MODE>(in, flags, i, lim, any)) << k;
            v[k] = ok ? cm_output<MODE>(in, i) : 0u;
        }
    }
    /* round k holds the tile's elements k*TBS .. k*TBS + TBS - 1: ranking the rounds in order
     * keeps the input order */
    unsigned run = 0;
#pragma unroll
    for (int k = 0; k < S5_ITEMS; k++) {
        const bool p = (sel >> k) & 1u;
        unsigned tot;
        const unsigned r = block_bin_scan_excl<S5_TBS, BT_SHFL>(p, &tot);
        if (p) s_stage[run + r] = v[k];
        run += tot;
    }
    __syncthreads(); /* the staged tile is complete */
    for (unsigned j = tid; j < run; j += S5_TBS) out[(size_t)off + j] = s_stage[j];
    if (blockIdx.x == gridDim.x - 1 && tid == 0) *count = off + run;
}

/* ------------------------------------------------------------------ host */

/* the count table and its scan's scratch */
extern "C" size_t compact_s5_count_scan_scratch(size_t n)
{
    if (!n) return 0;
    return cm_round256(s5_tiles(n) * 4) + blk_scan_u32_scratch(s5_tiles(n));
}

template <int MODE>
static cudaError_t s5_launch(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                             uint32_t *count, size_t n, void *scratch, cudaStream_t s)
{
    const size_t tiles = s5_tiles(n);
    const unsigned grid = kit_blocks_for(n, S5_TILE);
    cm_carve c = {(char *)scratch, 0};
    uint32_t *counts = (uint32_t *)cm_take(&c, tiles * 4);
    void *scan_scratch = cm_take(&c, blk_scan_u32_scratch(tiles));
    unsigned lim, any;
    if (!grid) return cudaErrorInvalidValue;
    cm_if_limit(threshold, &lim, &any);
    s5_count_kernel<MODE><<<grid, S5_TBS, 0, s>>>(in, flags, lim, any, n, counts);
    KIT_TRY(cudaGetLastError());
    KIT_TRY(blk_scan_u32_excl(counts, counts, tiles, scan_scratch, s));
    s5_scatter_kernel<MODE><<<grid, S5_TBS, 0, s>>>(in, flags, lim, any, n, counts, out, count);
    return cudaGetLastError();
}

extern "C" cudaError_t compact_s5_count_scan(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                             uint32_t *out, uint32_t *count, size_t n, int mode,
                                             void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    return compact_dispatch(mode, [&](auto m) {
        return s5_launch<decltype(m)::value>(in, flags, threshold, out, count, n, scratch, s);
    });
}

/* the main kernel: the scatter (reads the data, ranks, writes) */
KIT_DESCRIBE(compact_s5_describe, (s5_scatter_kernel<COMPACT_IF | COMPACT_VALUE>), S5_TBS, 0)
