/* ballot_block.cuh - block-level primitives of chapter 06 (device code only).
 *
 * Template parameter TBS: threads per block, a multiple of 32 up to 1024, 1D blocks.
 * Every function is called by all threads of the block (it contains __syncthreads) and may
 * be called again right away: shared arrays written before a call's first barrier are
 * only read before the previous call's last barrier, so back-to-back calls need no extra
 * barrier (the totals and the scanned prefixes live in two separate arrays for that).
 *
 *   block_reduce32_smem  Harris' shared-memory tree (sequential addressing, last warp
 *                        with __syncwarp): the "efficient 32-bit reduction" of Fig. 3.1
 *   block_reduce32_warp  warp reductions (shuffles or REDUX), warp totals by one warp
 *   __syncthreads_count  the binary reduce: one barrier, no shared memory
 *   block_scan32_excl    32-bit block scan from warp scans (smem or shuffle), totals
 *                        scanned by one warp
 *   block_bin_scan_excl  Listing 3.6: ballot/popc warp scans, the (<= 32) warp totals
 *                        scanned by one warp with a 32-bit scan (smem or shuffle) or by
 *                        six bit planes (poster 000)
 *   block_split_rank     a stable split by one bit (0s first) from any of the scans */
#ifndef BALLOT_BLOCK_CUH
#define BALLOT_BLOCK_CUH

#include "ballot_warp.cuh"

/* -------------------------------------------------------------- reduce */

template <int TBS>
static __device__ __forceinline__ unsigned block_reduce32_smem(unsigned x)
{
    /* >= 128: a back-to-back call must pass a barrier of the loop below before s_res is
     * written again */
    static_assert(TBS >= 128 && TBS % 32 == 0 && TBS <= 1024, "block size");
    __shared__ unsigned s[TBS];
    __shared__ unsigned s_res;
    const unsigned tid = threadIdx.x;
    s[tid] = x;
    __syncthreads();
    /* halve the active threads until 64 partial sums are left (x stays equal to s[tid]) */
#pragma unroll
    for (unsigned h = TBS / 2; h >= 64; h >>= 1) {
        if (tid < h) s[tid] = x = x + s[tid + h];
        __syncthreads();
    }
    if (tid < 32) { /* the last warp: no block barrier needed, but __syncwarp between steps */
        x += s[tid + 32];
        s[tid] = x;
        __syncwarp();
#pragma unroll
        for (unsigned h = 16; h > 0; h >>= 1) {
            const unsigned y = s[tid + h];
            __syncwarp();
            x += y;
            s[tid] = x;
            __syncwarp();
        }
        if (tid == 0) s_res = x;
    }
    __syncthreads();
    return s_res;
}

template <int TBS, int WR>
static __device__ __forceinline__ unsigned block_reduce32_warp(unsigned x)
{
    constexpr int NW = TBS / 32;
    __shared__ unsigned s_tot[NW];
    __shared__ unsigned s_res;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    x = warp_reduce<WR>(x);
    if (lane == 0) s_tot[warp] = x;
    __syncthreads();
    if (warp == 0) {
        unsigned v = lane < (unsigned)NW ? s_tot[lane] : 0u;
        v = warp_reduce<WR>(v);
        if (lane == 0) s_res = v;
    }
    __syncthreads();
    return s_res;
}

/* --------------------------------------------------------------- scans */

/* Exclusive block scan of 32-bit values (wrapping); *total gets the block's sum. */
template <int TBS, int WS>
static __device__ __forceinline__ unsigned block_scan32_excl(unsigned x, unsigned *total)
{
    constexpr int NW = TBS / 32;
    __shared__ unsigned s_buf[WS == WS_SMEM ? NW * WARP_SCAN_SMEM_WORDS : 1];
    __shared__ unsigned s_tot[NW], s_pre[NW + 1];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    /* A: scan inside each warp */
    const unsigned incl = warp_scan_incl<WS>(x, s_buf + warp * WARP_SCAN_SMEM_WORDS);
    /* B: warp totals to shared memory */
    if (lane == 31) s_tot[warp] = incl;
    __syncthreads();
    /* C: one warp scans the totals (warp 0 reuses its own scan buffer) */
    if (warp == 0) {
        const unsigned v = lane < (unsigned)NW ? s_tot[lane] : 0u;
        const unsigned vi = warp_scan_incl<WS>(v, s_buf);
        if (lane < (unsigned)NW) s_pre[lane] = vi - v;
        if (lane == (unsigned)NW - 1) s_pre[NW] = vi;
    }
    __syncthreads();
    /* D: add the warp's prefix */
    *total = s_pre[NW];
    return s_pre[warp] + incl - x;
}

/* how the binary block scan combines its warp totals */
enum { BT_SMEM = 0, BT_SHFL = 1, BT_BITPLANE = 2 };

/* Exclusive binary block scan (Listing 3.6); *total gets the block's count. */
template <int TBS, int BT>
static __device__ __forceinline__ unsigned block_bin_scan_excl(bool p, unsigned *total)
{
    constexpr int NW = TBS / 32;
    __shared__ unsigned s_buf[BT == BT_SMEM ? WARP_SCAN_SMEM_WORDS : 1];
    __shared__ unsigned s_tot[NW], s_pre[NW + 1];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    /* A: ballot + popc inside each warp; every lane learns the warp's count too */
    const unsigned votes = __ballot_sync(BALLOT_FULL, p);
    const unsigned excl = __popc(votes & ptx_lanemask_lt());
    /* B */
    if (lane == 0) s_tot[warp] = __popc(votes);
    __syncthreads();
    /* C: the totals are at most 32: 6-bit values */
    if (warp == 0) {
        const unsigned v = lane < (unsigned)NW ? s_tot[lane] : 0u;
        unsigned ve, tot;
        if constexpr (BT == BT_BITPLANE) {
            ve = warp_bitplane_excl<6>(v, &tot);
        } else {
            const unsigned vi = warp_scan_incl<BT == BT_SMEM ? WS_SMEM : WS_SHFL>(v, s_buf);
            ve = vi - v;
            tot = __shfl_sync(BALLOT_FULL, vi, 31);
        }
        if (lane < (unsigned)NW) s_pre[lane] = ve;
        if (lane == 0) s_pre[NW] = tot;
    }
    __syncthreads();
    /* D */
    *total = s_pre[NW];
    return s_pre[warp] + excl;
}

/* ---------------------------------------------------------------- split */

/* which scan a split (and the radix sort built on it) uses */
enum { SC_BALLOT = 0, SC_32SHFL = 1, SC_32SMEM = 2 };

/* exclusive count of true predicates below this thread, and the block's count */
template <int TBS, int SC>
static __device__ __forceinline__ unsigned block_count_scan(bool p, unsigned *total)
{
    if constexpr (SC == SC_BALLOT) return block_bin_scan_excl<TBS, BT_SHFL>(p, total);
    else return block_scan32_excl<TBS, SC == SC_32SHFL ? WS_SHFL : WS_SMEM>(p ? 1u : 0u, total);
}

/* Destination of this thread's element in a stable split by `bit`, zeros first. */
template <int TBS, int SC>
static __device__ __forceinline__ unsigned block_split_rank(bool bit)
{
    unsigned ones;
    const unsigned ones_before = block_count_scan<TBS, SC>(bit, &ones);
    return bit ? (TBS - ones) + ones_before : threadIdx.x - ones_before;
}

#endif
