/* ballot_warp.cuh - warp-level primitives of chapter 06 (CUDA C, device code only).
 *
 * Everything here is called by all 32 lanes of a full warp (block sizes are multiples of
 * 32; lanes past the end of the data take part with a 0 predicate or value), so the
 * member mask of every *_sync intrinsic is the whole warp.
 *
 *   lane masks        %laneid and %lanemask_lt/le/gt/ge read from PTX special registers:
 *                     one instruction each, right for any block shape (ballot_lanes.cuh,
 *                     included here).  (The computed versions are exercise ex06_lanemask.)
 *   32-bit scans      the padded shared-memory warp scan of Listing 3.1, made correct
 *                     for independent thread scheduling with __syncwarp; the shuffle scan.
 *   binary scans      __popc(__ballot_sync(p) & mask): the four directions.
 *   bit planes        a scan of b-bit values as b binary scans scaled by 2^bit.
 *   reductions        shuffles, and __reduce_add_sync (one REDUX instruction on sm_80+). */
#ifndef BALLOT_WARP_CUH
#define BALLOT_WARP_CUH

#include <stdint.h>

#include "ballot_lanes.cuh" /* BALLOT_FULL, ptx_laneid, ptx_lanemask_lt/le/gt/ge */

/* ------------------------------------------------------- binary scans */

/* how many lanes of the warp vote true */
static __device__ __forceinline__ unsigned warp_bin_count(bool p)
{
    return __popc(__ballot_sync(BALLOT_FULL, p));
}
/* forward exclusive: true votes of the lanes below mine */
static __device__ __forceinline__ unsigned warp_bin_fwd_excl(bool p)
{
    return __popc(__ballot_sync(BALLOT_FULL, p) & ptx_lanemask_lt());
}
static __device__ __forceinline__ unsigned warp_bin_fwd_incl(bool p)
{
    return __popc(__ballot_sync(BALLOT_FULL, p) & ptx_lanemask_le());
}
/* reverse: counted from the top lane down */
static __device__ __forceinline__ unsigned warp_bin_rev_incl(bool p)
{
    return __popc(__ballot_sync(BALLOT_FULL, p) & ptx_lanemask_ge());
}
static __device__ __forceinline__ unsigned warp_bin_rev_excl(bool p)
{
    return __popc(__ballot_sync(BALLOT_FULL, p) & ptx_lanemask_gt());
}

/* ---------------------------------------------------- 32-bit warp scans */

enum { WS_SMEM = 0, WS_SHFL = 1 };

/* Words of shared memory the padded warp scan needs per warp: 16 zeros, then 32 values. */
#define WARP_SCAN_SMEM_WORDS 48

/* Listing 3.1's inclusive warp scan: Kogge-Stone over a padded shared array, so lane i
 * reads buf[16 + i - off] without a range test (the 16 words below are zero).  The old
 * code relied on lock-step warps and "volatile"; since Volta the lanes of a warp may be
 * scheduled independently, so each read and each write is separated by __syncwarp(). */
static __device__ __forceinline__ unsigned warp_scan_smem_incl(unsigned x, unsigned *buf)
{
    const unsigned lane = ptx_laneid();
    if (lane < 16) buf[lane] = 0u;
    buf[16 + lane] = x;
    __syncwarp();
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const unsigned y = buf[16 + lane - off];
        __syncwarp();
        x += y;
        if (off < 16) buf[16 + lane] = x; /* the last step's sum is not read again */
        __syncwarp();
    }
    return x;
}

/* The same with register shuffles: no shared memory, one SHFL + add per step. */
static __device__ __forceinline__ unsigned warp_scan_shfl_incl(unsigned x)
{
    const unsigned lane = ptx_laneid();
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const unsigned y = __shfl_up_sync(BALLOT_FULL, x, off);
        if (lane >= (unsigned)off) x += y;
    }
    return x;
}

/* buf: this warp's WARP_SCAN_SMEM_WORDS words (unused by WS_SHFL) */
template <int WS>
static __device__ __forceinline__ unsigned warp_scan_incl(unsigned x, unsigned *buf)
{
    if constexpr (WS == WS_SMEM) return warp_scan_smem_incl(x, buf);
    else return warp_scan_shfl_incl(x);
}

/* ---------------------------------------------------------- bit planes */

/* Exclusive warp scan of BITS-bit values (v must be < 2^BITS): one ballot per bit plane,
 * each plane counted below the lane and scaled by 2^bit.  One step per bit (ballot, and,
 * popc, shift-add) against five steps of a generic scan whatever the width: cheaper only
 * for few bits.  *total (when not NULL) receives the warp's sum. */
template <int BITS>
static __device__ __forceinline__ unsigned warp_bitplane_excl(unsigned v, unsigned *total)
{
    const unsigned lt = ptx_lanemask_lt();
    unsigned r = 0, t = 0;
#pragma unroll
    for (int k = 0; k < BITS; k++) {
        const unsigned plane = __ballot_sync(BALLOT_FULL, (v >> k) & 1u);
        r += (unsigned)__popc(plane & lt) << k;
        if (total) t += (unsigned)__popc(plane) << k;
    }
    if (total) *total = t;
    return r;
}

/* ------------------------------------------------------ warp reductions */

enum { WR_SHFL = 0, WR_REDUX = 1 };

static __device__ __forceinline__ unsigned warp_reduce_shfl(unsigned x)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(BALLOT_FULL, x, off);
    return x;
}

static __device__ __forceinline__ unsigned warp_reduce_redux(unsigned x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_add_sync(BALLOT_FULL, x);
#else
    return warp_reduce_shfl(x);
#endif
}

template <int WR>
static __device__ __forceinline__ unsigned warp_reduce(unsigned x)
{
    if constexpr (WR == WR_REDUX) return warp_reduce_redux(x);
    else return warp_reduce_shfl(x);
}

#endif
