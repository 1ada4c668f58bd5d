/* s2 - block scan from warp-shuffle scans (exercise ex02_block_scan), still
 * scan-then-fan across blocks.
 * Changed versus s1: each thread owns a run of 4 consecutive elements and scans
 * it in registers; the block then scans the 256 run totals without a
 * shared-memory tree: each warp scans its 32 values with __shfl_up_sync (5
 * steps), the warp totals go through shared memory, warp 0 scans them, and each
 * thread combines warp prefix (+) lane prefix (+) its run.
 * Why it is faster: registers and shuffles instead of shared-memory trees, three
 * barriers per tile instead of about 2 log2(tile), 4 elements per thread (a tile
 * of 1024), so half as many tiles as s0 and s1 (512) to recurse over.
 * What still limits it: scan-then-fan still reads and writes the data twice
 * (4n), and each thread's run is read with 4-byte loads at a 16-byte stride
 * (the L1 cache merges them). */
#include "rs_classic.cuh"

/* Device code only: the build compiles this file with `nvcc -fatbin` (no host code of it
 * exists); the kit's launcher (chapters/02-reduce-scan/s2_launch.cu) loads the kernels that
 * RS_DEV_SCAN_KERNELS defines at the end by their extern "C" names, and runs scan-then-fan with
 * one S2_TBS-thread block per tile of S2_PB elements.  Keep the names and the shape. */
#define S2_TBS RS_S2_TBS     /* 256 threads */
#define S2_ITEMS RS_S2_ITEMS /* 4 elements each */
#define S2_PB (S2_TBS * S2_ITEMS)

/* Exclusive scan of one value per thread over the block (NWARPS warps), in
 * thread order; *total gets the block's total in every thread.  Op may NOT
 * commute: always combine op(earlier, later).  rs::shfl_up(v, d) is
 * __shfl_up_sync(0xffffffff, v, d) for any element type; Op::identity() is the
 * identity.  The function may be called again right after it returns. */
template <class Op, int NWARPS>
__device__ __forceinline__ typename Op::T block_scan_exclusive(typename Op::T x,
                                                               typename Op::T *total)
{
    // BEGIN SOLUTION
    // TODO: 1. Inclusive scan inside each warp: for d = 1, 2, 4, 8, 16 take y = rs::shfl_up(x, d)
    // TODO:    (all lanes call it) and, if lane >= d, x = op(y, x).
    // TODO: 2. Lane 31 of warp w stores the warp's total in a __shared__ array; __syncthreads().
    // TODO: 3. Warp 0 scans the NWARPS warp totals the same way (identity beyond NWARPS).
    // TODO: 4. This thread's exclusive prefix = (prefix of the warps before this one) (+)
    // TODO:    (inclusive value of lane - 1, or the identity for lane 0); set *total.
    // TODO: 5. A __syncthreads() before returning, so a second call cannot overwrite the
    // TODO:    shared array while a slow warp still reads it.
    // STUB: *total = x; return Op::identity();
    typedef typename Op::T T;
    __shared__ T warp_incl[NWARPS];
    const Op op;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const T y = rs::shfl_up(x, d);
        if (lane >= d) x = op(y, x);
    }
    if (lane == 31) warp_incl[warp] = x;
    __syncthreads();
    if (warp == 0) {
        T w = lane < NWARPS ? warp_incl[lane] : Op::identity();
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            const T y = rs::shfl_up(w, d);
            if (lane >= d) w = op(y, w);
        }
        if (lane < NWARPS) warp_incl[lane] = w;
    }
    __syncthreads();
    const T before = rs::shfl_up(x, 1);
    const T warp_prefix = warp == 0 ? Op::identity() : warp_incl[warp - 1];
    const T result = op(warp_prefix, lane == 0 ? Op::identity() : before);
    *total = warp_incl[NWARPS - 1];
    __syncthreads();
    return result;
    // END SOLUTION
}

/* one tile of S2_PB elements, scanned into out, its total into sums[tile] when sums is not NULL
 * (RS_DEV_SCAN_KERNELS makes it the __launch_bounds__(S2_TBS) kernels rs_s2_kernel_u32_incl,
 * _u32_excl, _affine_incl and _affine_excl) */
template <class Op, bool EXCL>
__device__ __forceinline__ void s2_kernel(const typename Op::T *in, typename Op::T *out, size_t n,
                                          typename Op::T *sums)
{
    typedef typename Op::T T;
    const Op op;
    const size_t first = (size_t)blockIdx.x * S2_PB + (size_t)threadIdx.x * S2_ITEMS;
    T v[S2_ITEMS], total;
#pragma unroll
    for (int j = 0; j < S2_ITEMS; j++) v[j] = first + j < n ? in[first + j] : Op::identity();
#pragma unroll
    for (int j = 1; j < S2_ITEMS; j++) v[j] = op(v[j - 1], v[j]); /* the run, in registers */
    const T pre = block_scan_exclusive<Op, S2_TBS / 32>(v[S2_ITEMS - 1], &total);
#pragma unroll
    for (int j = 0; j < S2_ITEMS; j++) {
        const T y = EXCL ? (j ? op(pre, v[j - 1]) : pre) : op(pre, v[j]);
        if (first + j < n) out[first + j] = y;
    }
    if (sums && threadIdx.x == 0) sums[blockIdx.x] = total;
}

RS_DEV_SCAN_KERNELS(s2, s2_kernel, S2_TBS)
