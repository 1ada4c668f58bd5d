/* compact_single_pass.cuh - the single-pass tile machinery of chapter 07: one kernel reads
 * each element once, ranks it in its tile, learns the tile's global offset by decoupled
 * look-back over the tile counts (blocks/lookback.cuh) and writes the tile's output once,
 * staged through shared memory.  Used by s6 (select), partition and unique; the operation
 * and the mode are template parameters, so each instantiation carries only its own code.
 *
 * Tile geometry (TBS threads x IPT items, IPT a multiple of 4).  The elements are numbered
 * in a "virtual" index space v = i + head.  The primary array is `in` (or `flags` when only
 * the flags are read), and head (0..3) is how many of its elements lie between the 16-byte
 * (flags: 4-byte) boundary below it and its start.  Tile t covers v in [t * TILE, (t+1) *
 * TILE), so every tile and every group of 4 elements starts on such a boundary and is one
 * aligned 16-byte (flags: 4-byte) load, whatever the caller's pointer.  The flags of a
 * flagged value select are 4-byte loads too when they sit like the values, else bytes.  The
 * valid elements are lo = head <= v < hi = head + n; a group that is not entirely valid (the
 * first of tile 0, the last ones of the last tile) is loaded element by element with a range
 * test, never touching a byte outside the caller's arrays.
 *
 * Inside a tile, warp w owns the WSEG = 32 x IPT consecutive elements from w * WSEG, in
 * VPT = IPT / 4 rows of 128: row k of the warp is its elements k * 128 .. k * 128 + 127,
 * lane l holding the group l * 4 .. l * 4 + 3 of the row ("warp-striped" groups of 4).
 * One 16-byte load per row and thread: each warp load instruction reads 512 contiguous,
 * aligned bytes.  The tile order is (warp, row, lane, item), so a thread's elements are not
 * contiguous and its ranks come from per-row scans: a row count (0..4) per lane, packed
 * 8 bits a row, 4 rows a word, one shuffle scan per 4 rows (a field sums at most 128 over
 * the warp: no carry between fields).
 *
 * Per tile (one tile per block, three block barriers):
 *   1. thread 0 takes the tile number from an atomic counter (zeroed by the run): tiles
 *      are numbered in the order blocks start, so a block only ever waits on tiles
 *      whose blocks are already running - no deadlock, whatever the scheduler does;
 *      barrier 1 shares it.  (ORDER = SP_BLOCK_ORDER, a tuning-table knob: the tile is
 *      blockIdx.x, as in CUB, with no atomic and no barrier; that relies on the hardware
 *      starting blocks in index order, which the programming model does not promise);
 *   2. every thread loads its IPT elements (all loads issued before any is used) and builds
 *      a bit mask of its selected (and, for partial tiles, valid) elements; the warp's count
 *      (one REDUX) goes to shared memory; barrier 2;
 *   3. every warp adds the warp counts below its own (REDUX) and the tile's total; warp 0
 *      publishes the total and walks back over the predecessors' descriptors, 32 at a
 *      time (lookback_warp_u32), while the other warps rank their elements and stage them
 *      in shared memory at their place in the tile's output (warp 0 stages after);
 *      barrier 3;
 *   4. the block writes the staged tile to out[offset ..) with coalesced stores; the last
 *      tile writes *count.
 *
 * Partition stages the rejected elements after the selected ones (in input order) and
 * writes them from out[n - 1] downward; unique compares each element with its predecessor
 * (a register, a shuffle from the lane below or from lane 31 of the row before, and for the
 * first element of each warp a load of the element before it).
 *
 * Scratch: the tile counter (8 bytes), then one 8-byte descriptor per tile; sized for the
 * worst head (3), zeroed by cudaMemsetAsync in every run. */
#ifndef COMPACT_SINGLE_PASS_CUH
#define COMPACT_SINGLE_PASS_CUH

#include "blocks/lookback.cuh"
#include "blocks/prefetch.cuh"
#include "kit_arch.cuh"
#include "compact_device.cuh"

enum { SP_SELECT = 0, SP_PARTITION = 1, SP_UNIQUE = 2 };
/* how a block finds its tile: an atomic ticket (the ladder's choice) or its block index */
enum { SP_TICKET = 0, SP_BLOCK_ORDER = 1 };

template <int TBS, int IPT>
struct sp_shape {
    static_assert(TBS % 32 == 0 && TBS >= 64 && TBS <= 1024, "block size");
    static_assert(IPT % 4 == 0 && IPT >= 4 && IPT <= 32, "items per thread: groups of 4, one mask word");
    static constexpr int NW = TBS / 32;
    static constexpr int VPT = IPT / 4;              /* rows (16-byte groups) per thread */
    static constexpr int WSEG = 32 * IPT;            /* elements per warp */
    static constexpr int TILE = TBS * IPT;           /* elements per tile */
    static constexpr int NCHUNK = (VPT + 3) / 4;     /* packed row scans per thread */
    static constexpr unsigned ALL = IPT == 32 ? 0xFFFFFFFFu : (1u << IPT) - 1u;
    static constexpr int STAGE = TILE + TILE / 32;   /* staged words, one pad word every 32 */
    static_assert(STAGE * 4 + NW * 4 + 16 <= 48 * 1024, "static shared memory");
};

/* what an instantiation reads */
template <int MODE, int OP>
struct sp_reads {
    static constexpr bool flagged = OP != SP_UNIQUE && cp_mode<MODE>::flagged; /* unique: no predicate */
    static constexpr bool value_out = cp_mode<MODE>::value;
    static constexpr bool load_in = !flagged || value_out; /* IF predicate, unique, or values out */
    static constexpr bool flags_primary = !load_in;        /* only the flags are read: align on them */
};

struct sp_args {
    const uint32_t *in;
    const uint8_t *flags;
    uint32_t *out;
    uint32_t *count;
    unsigned *ticket;         /* tile counter, zeroed by the run */
    unsigned long long *desc; /* one look-back descriptor per tile, zeroed by the run */
    size_t n;
    unsigned head;            /* virtual index of element 0 (0..3) */
    unsigned tiles;
    unsigned lim, any;        /* IF: selected iff x <= lim and any */
    unsigned pf;              /* PF >= 1: the tile this many ahead is prefetched into L2 (0: none) */
};

/* Place of output word i of the tile in shared memory: one pad word every 32.  At p = 1 a row's
 * stores go to positions base + 4 x lane + j (stride 4: 4-way bank conflicts unpadded); the pad
 * spreads them over the banks (at most 2-way), and the coalesced read-back of 32 consecutive words
 * stays conflict-free. */
static __device__ __forceinline__ unsigned sp_pad(unsigned i) { return i + (i >> 5); }

/* 4 flag bytes -> 4 bits (bit j: byte j != 0) */
static __device__ __forceinline__ unsigned sp_flag_bits(unsigned w)
{
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1; /* bit 8j: byte j != 0 */
    return ((w & 0x01010101u) * 0x01020408u) >> 24; /* bits 0, 8, 16, 24 -> 24..27, no carries */
}

/* Loads this thread's groups: x[4k + j] = element j of row k (when the kernel reads `in`),
 * fbits / vbits bit 4k + j: its flag is nonzero / it is valid (lo <= v < hi).  FULL: every
 * element of the tile is valid (no range test).  FV: a group's 4 flags are one aligned word
 * (the flags are the primary array, or their address is as far from a 4-byte boundary as
 * head says); else the flags are loaded byte by byte. */
template <int TBS, int IPT, int MODE, int OP, bool FV, bool FULL>
static __device__ __forceinline__ void sp_load(const sp_args &a, size_t wv, unsigned lane, uint32_t (&x)[IPT],
                                               unsigned &fbits, unsigned &vbits)
{
    typedef sp_shape<TBS, IPT> S;
    typedef sp_reads<MODE, OP> R;
    const size_t lo = a.head, hi = (size_t)a.head + a.n;
    fbits = 0;
    vbits = FULL ? S::ALL : 0u;
#pragma unroll
    for (int k = 0; k < S::VPT; k++) {
        const size_t gv = wv + (size_t)k * 128 + lane * 4; /* the group's first virtual index */
        if (FULL || (gv >= lo && gv + 4 <= hi)) {
            const size_t g = gv - a.head; /* >= 0: gv >= lo */
            if constexpr (R::load_in) {
                const uint4 q = __ldg(reinterpret_cast<const uint4 *>(a.in + g));
                x[4 * k] = q.x;
                x[4 * k + 1] = q.y;
                x[4 * k + 2] = q.z;
                x[4 * k + 3] = q.w;
            }
            if constexpr (R::flagged) {
                if constexpr (FV) {
                    const unsigned w = __ldg(reinterpret_cast<const unsigned *>(a.flags + g));
                    fbits |= sp_flag_bits(w) << (4 * k);
                } else { /* the flags are not aligned like the values: bytes */
#pragma unroll
                    for (int j = 0; j < 4; j++)
                        fbits |= (unsigned)(__ldg(a.flags + g + j) != 0) << (4 * k + j);
                }
            }
            if (!FULL) vbits |= 0xFu << (4 * k);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const size_t v = gv + j;
                const bool ok = v >= lo && v < hi;
                if constexpr (R::load_in) x[4 * k + j] = ok ? __ldg(a.in + (v - a.head)) : 0u;
                if constexpr (R::flagged)
                    fbits |= (unsigned)(ok && __ldg(a.flags + (v - a.head)) != 0) << (4 * k + j);
                vbits |= (unsigned)ok << (4 * k + j);
            }
        }
    }
}

/* pos[k] = place in the tile's output of this thread's first selected element of row k, from m
 * (bit 4k + j: element j of row k selected) and wbase (the warp's first place): per-row counts (0..4)
 * packed 8 bits a row, 4 rows a word, one shuffle scan per 4 rows (a field sums at most 128 over the
 * warp: no carry between fields). */
template <int TBS, int IPT>
static __device__ __forceinline__ void sp_positions(unsigned m, unsigned wbase, unsigned (&pos)[IPT / 4])
{
    typedef sp_shape<TBS, IPT> S;
    unsigned run = wbase;
#pragma unroll
    for (int c = 0; c < S::NCHUNK; c++) {
        unsigned packed = 0; /* byte r: selected elements of row 4c + r */
#pragma unroll
        for (int r = 0; r < 4; r++)
            if (4 * c + r < S::VPT) packed |= (unsigned)__popc((m >> (4 * (4 * c + r))) & 0xFu) << (8 * r);
        const unsigned incl = warp_scan_shfl_incl(packed);
        const unsigned excl = incl - packed; /* per byte: no borrow, incl >= packed fieldwise */
        const unsigned tot = __shfl_sync(BALLOT_FULL, incl, 31);
#pragma unroll
        for (int r = 0; r < 4; r++) {
            if (4 * c + r < S::VPT) {
                pos[4 * c + r] = run + ((excl >> (8 * r)) & 0xFFu);
                run += (tot >> (8 * r)) & 0xFFu;
            }
        }
    }
}

/* Ranks this thread's elements (sp_positions) and stages them in shared memory at their place in the
 * tile's output: the selected ones at s_stage[0 .. agg) in input order; partition: the valid rejected
 * ones after them, at agg + (valid elements before it in the tile - selected elements before it). */
template <int TBS, int IPT, int MODE, int OP>
static __device__ __forceinline__ void sp_stage(const sp_args &a, unsigned tile, unsigned m, unsigned vbits,
                                                unsigned wbase, unsigned agg, const uint32_t (&x)[IPT],
                                                uint32_t *s_stage)
{
    typedef sp_shape<TBS, IPT> S;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const size_t wv = (size_t)tile * S::TILE + (size_t)warp * S::WSEG;
    const uint32_t ibase = (uint32_t)wv - a.head + lane * 4; /* index of row 0's element 0, mod 2^32 */
    const unsigned lo_tile = tile == 0 ? a.head : 0u;         /* valid elements start there in the tile */
    unsigned pos[S::VPT];
    sp_positions<TBS, IPT>(m, wbase, pos);
#pragma unroll
    for (int k = 0; k < S::VPT; k++) {
        unsigned r = pos[k];
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int b = 4 * k + j;
            const uint32_t val = sp_reads<MODE, OP>::value_out ? x[b] : ibase + (uint32_t)(k * 128 + j);
            if ((m >> b) & 1u) {
                s_stage[sp_pad(r)] = val;
                r++;
            } else if (OP == SP_PARTITION && ((vbits >> b) & 1u)) {
                const unsigned li = warp * S::WSEG + k * 128 + lane * 4 + j; /* place in the tile */
                s_stage[sp_pad(agg + (li - lo_tile) - r)] = val;
            }
        }
    }
}

/* the predicate's bits (bit 4k + j: element j of row k selected): the flags (0 for the elements that
 * are not valid), or the If test on the values and-ed with the valid bits */
template <int MODE, int OP, int IPT>
static __device__ __forceinline__ unsigned sp_select_mask(const sp_args &a, const uint32_t (&x)[IPT], unsigned fbits,
                                                          unsigned vbits)
{
    if constexpr (sp_reads<MODE, OP>::flagged) {
        return fbits;
    } else {
        unsigned m = 0;
#pragma unroll
        for (int b = 0; b < IPT; b++) m |= (unsigned)(x[b] <= a.lim) << b;
        return m & (a.any ? vbits : 0u);
    }
}

/* PF >= 1: the data warps ask L2 for tile t's bytes (blocks/prefetch.cuh: one prefetch per 128-byte
 * line, every address inside the caller's arrays), so that the block that will own tile t, about one
 * block lifetime later, finds them there; DRAM keeps streaming while this block waits on its look-back. */
template <int TBS, int IPT, int MODE, int OP>
static __device__ __forceinline__ void sp_prefetch(const sp_args &a, unsigned t)
{
    typedef sp_shape<TBS, IPT> S;
    typedef sp_reads<MODE, OP> R;
    const size_t lo = a.head, hi = (size_t)a.head + a.n;
    const size_t v0 = (size_t)t * S::TILE > lo ? (size_t)t * S::TILE : lo;
    const size_t v1 = (size_t)(t + 1) * S::TILE < hi ? (size_t)(t + 1) * S::TILE : hi;
    if constexpr (R::load_in) prefetch_l2_lines<TBS>(a.in + (v0 - a.head), v1 - v0);
    if constexpr (R::flagged) prefetch_l2_lines<TBS>(a.flags + (v0 - a.head), v1 - v0);
}

/* Named barriers (PTX bar.sync / bar.arrive with a thread count): barrier 0 is __syncthreads' */
template <int ID, int N>
static __device__ __forceinline__ void sp_bar_sync()
{
    asm volatile("bar.sync %0, %1;" ::"n"(ID), "n"(N) : "memory");
}
template <int ID, int N>
static __device__ __forceinline__ void sp_bar_arrive()
{
    asm volatile("bar.arrive %0, %1;" ::"n"(ID), "n"(N) : "memory");
}

/* MINB: the blocks per SM __launch_bounds__ asks for (at most what the target's SM holds,
 * kit_min_blocks: Turing takes 4 of 256 where Hopper takes 6; 0: none, the compiler chooses the registers;
 * an explicit 1 lets ptxas spend more: 40 instead of 32 for indices at 384 x 16).  LBK: descriptors
 * per lane of the look-back window (lookback_warp_u32<LBK>: 32 x LBK tiles per round trip).
 * LBW: who walks back.  0: warp 0, once the tile is loaded and counted (steps 2-3 above).  1 (a
 * tuning-table knob): a warp of its own, TBS + 32 threads a block, that loads nothing and walks back
 * from the block's start, while the TBS threads load and count: the sum of the tiles before this one
 * does not depend on this tile, so the walk overlaps the loads instead of following them.  The data
 * warps meet at named barrier 1 for the counts, publish the tile's aggregate at once and arrive at
 * barrier 2 without waiting; the look-back warp, its walk done, waits there for the counts, publishes
 * the inclusive prefix and the offset; barrier 3 (__syncthreads) is everyone's.  (Warp 0 could not
 * start its walk early and stay a data warp: the aggregate would wait behind its walk, and each
 * tile's walk behind its predecessor's: a serial chain.)  PF (a tuning-table knob): >= 1 = once its own
 * loads are issued, a block prefetches into L2 the tile a residency / PF ahead (sp_prefetch,
 * kit_prefetch_tiles). */
template <int TBS, int IPT, int MODE, int OP, bool FV, int ORDER, int MINB, int LBK, int LBW, int PF>
static __global__ void __launch_bounds__(TBS + 32 * LBW, kit_min_blocks(TBS + 32 * LBW, MINB))
    sp_kernel(const sp_args a)
{
    typedef sp_shape<TBS, IPT> S;
    typedef sp_reads<MODE, OP> R;
    __shared__ uint32_t s_stage[S::STAGE];
    __shared__ unsigned s_wtot[S::NW];
    __shared__ unsigned s_tile, s_excl;
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;

    /* 1. the tile number, in the order blocks start */
    unsigned tile;
    if constexpr (ORDER == SP_TICKET) {
        if (tid == 0) s_tile = atomicAdd(a.ticket, 1u);
        __syncthreads(); /* barrier 1 */
        tile = s_tile;
    } else {
        tile = blockIdx.x;
    }
    const size_t lo = a.head, hi = (size_t)a.head + a.n;
    const size_t tbase = (size_t)tile * S::TILE;           /* virtual */
    const size_t wv = tbase + (size_t)warp * S::WSEG;      /* this warp's first virtual index */
    const bool full = tbase >= lo && tbase + S::TILE <= hi;

    static_assert(LBW == 0 || (LBW == 1 && TBS + 32 <= 1024), "look-back warp: 0 (warp 0) or 1 (its own)");
    unsigned agg = 0; /* the tile's selected elements (the look-back warp of LBW = 1 does not need it) */
    if (LBW == 1 && warp == (unsigned)S::NW) {
        /* the look-back warp: walk first, then the counts (barrier 2), then publish */
        const unsigned ex = tile == 0 ? 0u : lookback_warp_walk<LBK>(a.desc, tile);
        sp_bar_sync<2, TBS + 32>();
        const unsigned tot = warp_reduce_redux(lane < (unsigned)S::NW ? s_wtot[lane] : 0u);
        if (lane == 0) {
            lb_store(a.desc + tile, lb_pack(LB_PREFIX, ex + tot));
            s_excl = ex;
        }
    } else {
        /* 2. load, predicate */
        uint32_t x[IPT];
        unsigned fbits, vbits;
        uint32_t first_prev = 0; /* unique: the element before this warp's first one */
        if constexpr (OP == SP_UNIQUE) {
            if (lane == 0 && wv > lo && wv < hi) first_prev = __ldg(a.in + (wv - a.head - 1));
        }
        if (full) sp_load<TBS, IPT, MODE, OP, FV, true>(a, wv, lane, x, fbits, vbits);
        else sp_load<TBS, IPT, MODE, OP, FV, false>(a, wv, lane, x, fbits, vbits);
        if constexpr (PF >= 1) { /* after this tile's loads are issued, before they are used */
            if (a.pf && tile + a.pf < a.tiles) sp_prefetch<TBS, IPT, MODE, OP>(a, tile + a.pf);
        }

        unsigned m = 0; /* bit 4k + j: element j of row k is selected (kept) */
        if constexpr (OP == SP_UNIQUE) {
#pragma unroll
            for (int k = 0; k < S::VPT; k++) {
                const uint32_t up = __shfl_up_sync(BALLOT_FULL, x[4 * k + 3], 1); /* lane - 1, same row */
                uint32_t wrap = first_prev;                                         /* lane 31, row before */
                if (k > 0) wrap = __shfl_sync(BALLOT_FULL, x[4 * k - 1], 31);
                const uint32_t prev0 = lane > 0 ? up : wrap;
                m |= (unsigned)(x[4 * k] != prev0) << (4 * k);
#pragma unroll
                for (int j = 1; j < 4; j++) m |= (unsigned)(x[4 * k + j] != x[4 * k + j - 1]) << (4 * k + j);
            }
            /* element 0 (v = head: tile 0, warp 0, lane 0, row 0) is always kept; the elements
             * whose predecessor is not valid are element 0 or not valid themselves */
            if (tile == 0 && warp == 0 && lane == 0) m |= 1u << a.head;
            m &= vbits;
        } else {
            m = sp_select_mask<MODE, OP, IPT>(a, x, fbits, vbits);
        }

        const unsigned wcnt = warp_reduce_redux((unsigned)__popc(m));
        if (lane == 0) s_wtot[warp] = wcnt;
        if constexpr (LBW == 0) __syncthreads(); /* barrier 2: the warp counts */
        else sp_bar_sync<1, TBS>();              /* the same among the data warps only */

        /* 3. the tile's total and this warp's place in it; the look-back */
        const unsigned t = lane < (unsigned)S::NW ? s_wtot[lane] : 0u;
        const unsigned wbase = warp_reduce_redux(lane < warp ? t : 0u);
        agg = warp_reduce_redux(t);
        if constexpr (LBW == 0) {
            if (warp == 0) {
                const unsigned ex = lookback_warp_u32<LBK>(a.desc, tile, agg);
                if (lane == 0) s_excl = ex;
            }
        } else {
            /* the aggregate before the arrival, so the look-back warp's prefix always lands after it */
            if (tid == 0 && tile != 0) lb_store(a.desc + tile, lb_pack(LB_AGGREGATE, agg));
            sp_bar_arrive<2, TBS + 32>();
        }

        sp_stage<TBS, IPT, MODE, OP>(a, tile, m, vbits, wbase, agg, x, s_stage);
    }
    __syncthreads(); /* barrier 3: the staged tile and the tile's offset */
    if (LBW == 1 && warp == (unsigned)S::NW) return;

    /* 4. write */
    const unsigned ex = s_excl;
    if constexpr (OP == SP_PARTITION) {
        const size_t tlo = tbase > lo ? tbase : lo;
        const size_t thi = tbase + S::TILE < hi ? tbase + S::TILE : hi;
        const unsigned tv = (unsigned)(thi - tlo);     /* valid elements of the tile, >= 1 */
        const size_t rej_before = (tlo - lo) - ex;      /* rejected elements of the earlier tiles */
        for (unsigned j = tid; j < tv; j += TBS) {
            const uint32_t val = s_stage[sp_pad(j)];
            if (j < agg) a.out[(size_t)ex + j] = val;
            else a.out[a.n - 1 - (rej_before + (j - agg))] = val;
        }
    } else {
        for (unsigned j = tid; j < agg; j += TBS) a.out[(size_t)ex + j] = s_stage[sp_pad(j)];
    }
    if (tile == a.tiles - 1 && tid == 0) *a.count = ex + agg;
}

/* ------------------------------------------------------------------ host */

/* s8's configuration (256 threads x 24 items, tile from blockIdx, 6 blocks per SM), the one place it
 * is written: s8, partition and unique instantiate it */
#define SP_S8 256, 24
#define SP_S8_RUN(OP) SP_S8, OP, SP_BLOCK_ORDER, 6, 1
/* s9's: s8's tile, a look-back warp of its own (LBW = 1: 288 threads, 5 blocks per SM) and the L2
 * prefetch of the tile a third of a residency ahead (PF = 3) */
#define SP_S9_RUN(OP) SP_S8, OP, SP_BLOCK_ORDER, 5, 1, 1, 3

/* the tile counter and one descriptor per tile, for the worst head (3) */
template <int TBS, int IPT>
static size_t sp_scratch(size_t n)
{
    typedef sp_shape<TBS, IPT> S;
    if (!n) return 0;
    return ((n + 3 + S::TILE - 1) / S::TILE + 1) * sizeof(unsigned long long);
}

/* A run's kernel arguments (tile count, head, the If limit) and its zeroed ticket and descriptors;
 * fv: a flagged value select can load its flags as words (they sit like the values) */
template <int TBS, int IPT, int MODE, int OP>
static cudaError_t sp_prepare(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                              uint32_t *count, size_t n, void *scratch, cudaStream_t s, sp_args &a, bool &fv)
{
    typedef sp_shape<TBS, IPT> S;
    typedef sp_reads<MODE, OP> R;
    a.in = in;
    a.flags = flags;
    a.out = out;
    a.count = count;
    a.ticket = (unsigned *)scratch;
    a.desc = (unsigned long long *)((char *)scratch + sizeof(unsigned long long));
    a.n = n;
    a.head = R::flags_primary ? (unsigned)((uintptr_t)flags & 3u) : (unsigned)(((uintptr_t)in >> 2) & 3u);
    cm_if_limit(threshold, &a.lim, &a.any);
    a.tiles = kit_blocks_for(n + a.head, S::TILE);
    a.pf = 0;
    if (!a.tiles) return cudaErrorInvalidValue;
    fv = ((uintptr_t)flags & 3u) == a.head;
    return cudaMemsetAsync(scratch, 0, ((size_t)a.tiles + 1) * sizeof(unsigned long long), s);
}

/* f(the kernel's FV as a compile-time constant): chosen at run time only for a flagged value select
 * (values and flags both read); otherwise it is whether the flags are the primary array */
template <int MODE, int OP, class F>
static void sp_on_fv(bool fv, F f)
{
    typedef sp_reads<MODE, OP> R;
    if constexpr (R::flagged && !R::flags_primary) {
        if (fv) f(std::true_type());
        else f(std::false_type());
    } else {
        f(std::integral_constant<bool, R::flags_primary>());
    }
}

/* the bytes of a tile that sp_prefetch asks L2 for */
template <int TBS, int IPT, int MODE, int OP>
static constexpr size_t sp_tile_bytes()
{
    typedef sp_reads<MODE, OP> R;
    return (size_t)sp_shape<TBS, IPT>::TILE * ((R::load_in ? 4u : 0u) + (R::flagged ? 1u : 0u));
}

template <int TBS, int IPT, int MODE, int OP, int ORDER, int MINB, int LBK, int LBW, int PF>
static cudaError_t sp_launch(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                             uint32_t *count, size_t n, void *scratch, cudaStream_t s)
{
    sp_args a;
    bool fv;
    KIT_TRY((sp_prepare<TBS, IPT, MODE, OP>(in, flags, threshold, out, count, n, scratch, s, a, fv)));
    cudaError_t e = cudaSuccess;
    sp_on_fv<MODE, OP>(fv, [&](auto c) {
        auto kernel = sp_kernel<TBS, IPT, MODE, OP, decltype(c)::value, ORDER, MINB, LBK, LBW, PF>;
        if constexpr (PF >= 1) /* a residency / PF ahead (kit_prefetch_tiles) */
            e = kit_prefetch_tiles((const void *)kernel, TBS + 32 * LBW, 0, sp_tile_bytes<TBS, IPT, MODE, OP>(), PF,
                                   &a.pf);
        if (e == cudaSuccess) kernel<<<a.tiles, TBS + 32 * LBW, 0, s>>>(a);
    });
    KIT_TRY(e);
    return cudaGetLastError();
}

/* a run of operation OP: the preamble, then the mode's instantiation (unique: the output
 * bit only; its threshold, flags and predicate bit are ignored: compact_check_unique) */
template <int TBS, int IPT, int OP, int ORDER = SP_TICKET, int MINB = 0, int LBK = 1, int LBW = 0, int PF = 0>
static cudaError_t sp_run(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                          uint32_t *count, size_t n, int mode, void *scratch, cudaStream_t s)
{
    int work;
    if (OP == SP_UNIQUE) {
        KIT_TRY(compact_unique_begin(in, out, count, n, mode, scratch, s, &work));
        mode &= COMPACT_OUT_MASK;
        flags = NULL;
    } else {
        KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    }
    if (!work) return cudaSuccess;
    return compact_dispatch(mode, [&](auto m) {
        return sp_launch<TBS, IPT, decltype(m)::value, OP, ORDER, MINB, LBK, LBW, PF>(in, flags, threshold, out, count, n,
                                                                                 scratch, s);
    });
}

template <int TBS, int IPT, int OP, int ORDER = SP_TICKET, int MINB = 0, int LBK = 1, int LBW = 0, int PF = 0>
static cudaError_t sp_describe(kit_kernel_desc *d)
{
    d->func = (const void *)sp_kernel<TBS, IPT, COMPACT_IF | COMPACT_VALUE, OP, false, ORDER, MINB, LBK, LBW, PF>;
    d->block_threads = TBS + 32 * LBW;
    d->dyn_smem = 0;
    return cudaSuccess;
}

#endif
