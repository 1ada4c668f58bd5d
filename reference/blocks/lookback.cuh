/* lookback.cuh - decoupled look-back (Merrill & Garland, 2016), the shared device pieces
 * (CUDA C, device code only).  First used by chapter 06 (s3_lookback), then by chapter 05
 * (the single-pass radix sort's per-digit offsets) and chapter 07 (single-pass select).
 *
 * A tile's descriptor is one 64-bit word: the status in the high half, a 32-bit value in
 * the low half, so one store publishes both and a reader never sees one without the
 * other.  Loads and stores are relaxed GPU-scope atomics (ld/st.relaxed.gpu): no fence
 * is needed because nothing else is read on the strength of a descriptor.  Descriptors
 * start as 0 (LB_INVALID: what cudaMemsetAsync leaves); the caller zeroes them (and the
 * tile counter that hands out tile numbers in launch order) before every run.
 *
 * Tiles must be numbered in the order blocks start, so that every tile a block waits for
 * belongs to a block that is already running.  A counter taken with atomicAdd by the block's
 * first thread guarantees it whatever the scheduler does; blockIdx.x gives it only because
 * the GPU starts blocks in increasing index order, which CUB relies on but the programming
 * model does not promise (chapter 07's s8 takes that trade for the round trip it saves). */
#ifndef BLOCKS_LOOKBACK_CUH
#define BLOCKS_LOOKBACK_CUH

#include <stdint.h>

#include "blocks/ballot_warp.cuh"

enum { LB_INVALID = 0, LB_AGGREGATE = 1, LB_PREFIX = 2 };

static __device__ __forceinline__ unsigned long long lb_load(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void lb_store(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* 32-bit descriptors (added for chapter 05's single-pass radix sort, which keeps one descriptor per
 * (tile, digit), 256 per tile, so their bytes count): status and value share one 32-bit word, the
 * caller decides how many bits each gets (s5_onesweep: 3 status bits, a 29-bit count).  The same
 * relaxed GPU-scope accesses as the 64-bit ones, with the same argument for needing no fence. */
static __device__ __forceinline__ unsigned lb_load32(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void lb_store32(unsigned *p, unsigned v)
{
    asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

static __device__ __forceinline__ unsigned long long lb_pack(unsigned status, unsigned value)
{
    return (unsigned long long)status << 32 | value;
}
static __device__ __forceinline__ unsigned lb_status(unsigned long long d) { return (unsigned)(d >> 32); }
static __device__ __forceinline__ unsigned lb_value(unsigned long long d) { return (unsigned)d; }

/* Called by warp 0 of the block that owns `tile`, whose sum is agg: publishes the
 * aggregate, walks back over the descriptors 32 x K at a time (a ballot finds the nearest
 * tile that knows its inclusive prefix, a warp reduction adds the values from there on),
 * then publishes the tile's inclusive prefix.  Returns the tile's exclusive prefix (sums
 * wrap modulo 2^32) to every lane.
 * K: descriptors per lane and window (lane l reads the K consecutive tiles from l x K of the
 * window, lane 31 ends on tile - 1).  Each window costs one L2 round trip whatever K is, and
 * a tile publishes its prefix only after walking back to the nearest published prefix, so
 * the prefixes can advance at most 32 x K tiles per round trip: K > 1 (chapter 07's select
 * table rows) widens that limit for small tiles and fast inputs.
 * PUB = false: the walk alone (lookback_warp_walk): nothing is published and agg is not used. */
template <int K = 1, bool PUB = true>
static __device__ __forceinline__ unsigned lookback_warp_u32(unsigned long long *desc, unsigned tile,
                                                             unsigned agg)
{
    static_assert(K >= 1 && K <= 8, "descriptors per lane");
    const unsigned lane = threadIdx.x & 31u;
    unsigned excl = 0;
    long long end = (long long)tile - 1; /* the window is end - 32K + 1 .. end */
    if (tile == 0) {
        if (PUB && lane == 0) lb_store(desc, lb_pack(LB_PREFIX, agg));
        return 0;
    }
    if (PUB && lane == 0) lb_store(desc + tile, lb_pack(LB_AGGREGATE, agg));
    for (;;) {
        const long long first_idx = end - 32 * K + 1 + (long long)lane * K; /* this lane's K tiles */
        unsigned long long d[K];
        for (;;) { /* wait until every tile of the window has published something */
            bool invalid = false;
#pragma unroll
            for (int j = 0; j < K; j++) {
                d[j] = first_idx + j >= 0 ? lb_load(desc + first_idx + j) : lb_pack(LB_PREFIX, 0u);
                invalid |= lb_status(d[j]) == LB_INVALID;
            }
            if (!__any_sync(BALLOT_FULL, invalid)) break;
            __nanosleep(64);
        }
        int jp = -1; /* this lane's highest tile that knows its prefix */
#pragma unroll
        for (int j = 0; j < K; j++)
            if (lb_status(d[j]) == LB_PREFIX) jp = j;
        const unsigned prefixes = __ballot_sync(BALLOT_FULL, jp >= 0);
        const unsigned first = prefixes ? 31u - __clz(prefixes) : 0u; /* the highest such lane closes the sum */
        unsigned part = 0;
#pragma unroll
        for (int j = 0; j < K; j++)
            if (!prefixes || lane > first || (lane == first && j >= jp)) part += lb_value(d[j]);
        excl += warp_reduce_redux(part);
        if (prefixes) break;
        end -= 32 * K;
    }
    if (PUB && lane == 0) lb_store(desc + tile, lb_pack(LB_PREFIX, excl + agg));
    return excl;
}

/* The walk alone, by a whole warp: the sum of the tiles before `tile` (0 for tile 0), to every lane.
 * It publishes nothing, so it may start before the tile's own sum is known (chapter 07's look-back
 * warp of its own, which publishes the prefix itself). */
template <int K = 1>
static __device__ __forceinline__ unsigned lookback_warp_walk(unsigned long long *desc, unsigned tile)
{
    return lookback_warp_u32<K, false>(desc, tile, 0u);
}

#endif
