/* s7 - s6's single pass with persistent blocks that load their next tile during the look-back.
 * Changed versus s6: the grid is what fits on the GPU at once (SMs x resident blocks), and each block
 * loops: it takes its next tile number from the ticket counter before it needs it, ranks and stages
 * the current tile (compact_single_pass.cuh's tile layout, loads and packed row scans), issues the
 * loads of the next tile, and only then waits for the current tile's look-back and writes it.
 * Why it should be faster: in s6 a block that waits for its look-back (and for its ticket) has no
 * loads in flight, and a new block starts only when one retires; s1, which never waits, reads the
 * same input faster than s6 at p = 0 (the README, section s7).  Here the next tile's loads overlap
 * the wait, the ticket's round trip overlaps the current tile's loads, and there are two block
 * barriers per tile instead of three.  The ticket keeps the deadlock argument of s6: a block waits
 * only on tiles numbered below its current one, and the tiles it has taken but not yet published are
 * all numbered above its current one, so the lowest current tile of all blocks always makes progress.
 * Measured, it is not (the README's section s7 and its table of what else was tried).  Two tiles live in registers at once (the
 * next one's loads and the current one's values), which costs resident blocks, and a block cannot
 * start its next tile's stores before its current look-back ends, so the chain still sets the pace.
 * s8 goes back to one tile per block and attacks the ticket and the occupancy instead.
 * What still limits it: the look-back chain itself (a tile waits on its slowest recent predecessor);
 * the tile's stores are issued only after the wait; the last tiles of the array run with no next tile
 * to overlap. */
#include "compact_single_pass.cuh"

#define S7_TBS 384
#define S7_IPT 16
#define S7_MINB 4
extern "C" const char compact_s7_param[] = "tbs=384 items=16 blocks/SM=4 persistent, next tile loaded during the look-back";

/* Loads tile `tile` into this thread's registers (s6's loads: full tiles without range tests). */
template <int TBS, int IPT, int MODE, bool FV>
static __device__ __forceinline__ void pp_load(const sp_args &a, unsigned tile, uint32_t (&x)[IPT], unsigned &fbits,
                                               unsigned &vbits)
{
    typedef sp_shape<TBS, IPT> S;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const size_t tbase = (size_t)tile * S::TILE, wv = tbase + (size_t)warp * S::WSEG;
    if (tbase >= a.head && tbase + S::TILE <= (size_t)a.head + a.n)
        sp_load<TBS, IPT, MODE, SP_SELECT, FV, true>(a, wv, lane, x, fbits, vbits);
    else
        sp_load<TBS, IPT, MODE, SP_SELECT, FV, false>(a, wv, lane, x, fbits, vbits);
}

template <int TBS, int IPT, int MODE, bool FV, int MINB>
static __global__ void __launch_bounds__(TBS, kit_min_blocks(TBS, MINB)) pp_kernel(const sp_args a)
{
    typedef sp_shape<TBS, IPT> S;
    typedef sp_reads<MODE, SP_SELECT> R;
    __shared__ uint32_t s_stage[S::STAGE];
    __shared__ unsigned s_wtot[S::NW];
    __shared__ unsigned s_first, s_next, s_excl; /* s_first: s_next is rewritten before all have read it */
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;

    if (tid == 0) s_first = atomicAdd(a.ticket, 1u);
    __syncthreads();
    unsigned tile = s_first;
    if (tile >= a.tiles) return; /* more blocks than tiles: nothing for this one */
    uint32_t x[IPT];
    unsigned fbits, vbits;
    pp_load<TBS, IPT, MODE, FV>(a, tile, x, fbits, vbits);

    for (;;) {
        /* the next tile number, while this tile's loads are in flight */
        if (tid == 0) s_next = atomicAdd(a.ticket, 1u);

        const unsigned m = sp_select_mask<MODE, SP_SELECT, IPT>(a, x, fbits, vbits);
        const unsigned wcnt = warp_reduce_redux((unsigned)__popc(m));
        if (lane == 0) s_wtot[warp] = wcnt;
        __syncthreads(); /* barrier 1: the warp counts and the next tile number */

        const unsigned t = lane < (unsigned)S::NW ? s_wtot[lane] : 0u;
        const unsigned wbase = warp_reduce_redux(lane < warp ? t : 0u);
        const unsigned agg = warp_reduce_redux(t);
        const unsigned next = s_next;
        /* publish the tile's count at once, so later tiles can sum past it (the look-back below
         * publishes it again, then the inclusive prefix; tile 0's count is its inclusive prefix) */
        if (tid == 0) lb_store(a.desc + tile, lb_pack(tile == 0 ? LB_PREFIX : LB_AGGREGATE, agg));

        /* rank and stage this tile's selected elements in input order (s6's packed row scans) */
        sp_stage<TBS, IPT, MODE, SP_SELECT>(a, tile, m, vbits, wbase, agg, x, s_stage);

        /* the next tile's loads go out before the wait (x is free now) */
        if (next < a.tiles) pp_load<TBS, IPT, MODE, FV>(a, next, x, fbits, vbits);
        if (warp == 0) {
            const unsigned ex = lookback_warp_u32(a.desc, tile, agg);
            if (lane == 0) s_excl = ex;
        }
        __syncthreads(); /* barrier 2: the staged tile and its offset */

        const unsigned ex = s_excl;
        for (unsigned j = tid; j < agg; j += TBS) a.out[(size_t)ex + j] = s_stage[sp_pad(j)];
        if (tile == a.tiles - 1 && tid == 0) *a.count = ex + agg;
        if (next >= a.tiles) break;
        tile = next;
        /* the next iteration's barrier 1 comes before anything here is overwritten: s_stage
         * and s_excl were last read above, s_wtot and s_next before barrier 2 */
    }
}

/* the grid: SMs x resident blocks of this instantiation (kit_resident_grid remembers it), no more
 * blocks than tiles; any grid of one block or more is correct, the tiles come from the ticket */
template <int TBS, int IPT, int MODE, bool FV, int MINB>
static cudaError_t pp_grid(unsigned tiles, unsigned *grid)
{
    unsigned r = 0;
    KIT_TRY(kit_resident_grid((const void *)pp_kernel<TBS, IPT, MODE, FV, MINB>, TBS, 0, &r));
    *grid = tiles < r ? tiles : r;
    return cudaSuccess;
}

template <int TBS, int IPT, int MODE, int MINB>
static cudaError_t pp_launch(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                             uint32_t *count, size_t n, void *scratch, cudaStream_t s)
{
    sp_args a;
    bool fv;
    cudaError_t e = cudaSuccess;
    KIT_TRY((sp_prepare<TBS, IPT, MODE, SP_SELECT>(in, flags, threshold, out, count, n, scratch, s, a, fv)));
    sp_on_fv<MODE, SP_SELECT>(fv, [&](auto c) {
        constexpr bool FV = decltype(c)::value;
        unsigned grid = 0;
        e = pp_grid<TBS, IPT, MODE, FV, MINB>(a.tiles, &grid);
        if (e == cudaSuccess) pp_kernel<TBS, IPT, MODE, FV, MINB><<<grid, TBS, 0, s>>>(a);
    });
    KIT_TRY(e);
    return cudaGetLastError();
}

template <int TBS, int IPT, int MINB>
static cudaError_t pp_run(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                          uint32_t *count, size_t n, int mode, void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    return compact_dispatch(mode, [&](auto m) {
        return pp_launch<TBS, IPT, decltype(m)::value, MINB>(in, flags, threshold, out, count, n, scratch, s);
    });
}

template <int TBS, int IPT, int MINB>
static cudaError_t pp_describe(kit_kernel_desc *d)
{
    d->func = (const void *)pp_kernel<TBS, IPT, COMPACT_IF | COMPACT_VALUE, false, MINB>;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* the same scratch as s6: the ticket counter and one descriptor per tile */
extern "C" size_t compact_s7_persistent_scratch(size_t n) { return sp_scratch<S7_TBS, S7_IPT>(n); }

extern "C" cudaError_t compact_s7_persistent(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                             uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                             cudaStream_t s)
{
    return pp_run<S7_TBS, S7_IPT, S7_MINB>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" cudaError_t compact_s7_describe(kit_kernel_desc *d) { return pp_describe<S7_TBS, S7_IPT, S7_MINB>(d); }

/* ---- its rows of the single-pass tuning table (compact_sp_variants, in s6_single_pass.cu) */
#define S7_FILE "chapters/07-compaction/s7_persistent.cu"
#define S7_ROW(T, I, MB)                                                                                 \
    {{"s7_persistent", "tbs=" #T " items=" #I " blocks/SM=" #MB " persistent", "persistent blocks, next tile " \
      "loaded during the look-back", S7_FILE, NULL, KIT_STEP_GPU, pp_describe<T, I, MB>, 0, COMPACT_MAX_N},    \
     sp_scratch<T, I>, pp_run<T, I, MB>}

extern "C" const compact_step compact_pp_variants[COMPACT_PP_NVARIANTS] = {
    S7_ROW(384, 16, 4), S7_ROW(384, 16, 5), S7_ROW(256, 16, 6), S7_ROW(512, 16, 3), S7_ROW(384, 12, 5),
    S7_ROW(256, 24, 4),
    /* more bytes in flight per SM: 4 x 32 KiB and 8 x 16 KiB */
    S7_ROW(256, 32, 4), S7_ROW(128, 32, 8),
};
