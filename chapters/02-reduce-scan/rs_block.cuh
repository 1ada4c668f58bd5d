/* rs_block.cuh - the block-wide reductions and scans the steps share (CUDA C++ only):
 * r4's unrolled shared-memory tree (r4, r5), the shuffle warp scan and the block scan built
 * on it (r8, s4, Brown's r7 and s3), and the one-block pass over a short array (the second
 * level of the Row DASk steps).
 *
 * They live apart from rs_ops.cuh and rs_classic.cuh on purpose: exercises ex02_warp_reduce
 * (r6) and ex02_block_scan (s2) include rs_classic.cuh and write a block reduce and a block
 * scan themselves, so these answers must not be visible there.  A step that uses them
 * includes this header (after rs_classic.cuh where it needs that too). */
#ifndef RS_BLOCK_CUH
#define RS_BLOCK_CUH

#include "rs_ops.cuh"

namespace rs {

/* ------------------------------------------------------------- r4's tree */

/* The tree of r4: halve the active threads per step in shared memory while
 * more than a warp remains, then let warp 0 finish the last 64 values without
 * __syncthreads.  Warp-synchronous code is only correct with __syncwarp()
 * between a step's reads and writes (independent thread scheduling since
 * Volta); volatile keeps every value in shared memory, not in a register.
 * The total ends up in sdata[0].  Needs TBS >= 64, a power of two. */
template <class Op, int TBS>
__device__ __forceinline__ void tree_unrolled_warp(typename Op::T *sdata)
{
    typedef typename Op::T T;
    const Op op;
    const unsigned tid = threadIdx.x;
#pragma unroll
    for (unsigned s = TBS / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid < 32) {
        volatile T *v = sdata;
        T x = v[tid];
#pragma unroll
        for (unsigned s = 32; s > 0; s >>= 1) {
            x = op(x, v[tid + s]);
            __syncwarp();
            v[tid] = x;
            __syncwarp();
        }
    }
}

/* ---------------------------------------------------------------- warps */

/* Inclusive scan across the 32 lanes (Kogge-Stone / Hillis-Steele, 5 shuffles). */
template <class Op>
__device__ __forceinline__ typename Op::T warp_inclusive_scan(typename Op::T x)
{
    const Op op;
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        typename Op::T y = shfl_up(x, d);
        if (lane >= d) x = op(y, x);
    }
    return x;
}

/* ---------------------------------------------------------------- blocks */

/* Exclusive scan of one value per thread across a block of NWARPS warps, in
 * thread order.  Returns this thread's exclusive prefix; *total gets the block's
 * sum in every thread.  smem holds NWARPS + 1 values.  Ends with a barrier, so
 * smem may be reused right after. */
template <class Op, int NWARPS>
__device__ __forceinline__ typename Op::T block_exclusive_scan(typename Op::T x,
                                                               typename Op::T *smem,
                                                               typename Op::T *total)
{
    typedef typename Op::T T;
    const Op op;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T incl = warp_inclusive_scan<Op>(x);
    if (lane == 31) smem[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        T w = lane < NWARPS ? smem[lane] : Op::identity();
        T wi = warp_inclusive_scan<Op>(w);
        T we = shfl_up(wi, 1);
        if (lane < NWARPS) smem[lane] = lane == 0 ? Op::identity() : we;
        if (lane == 31) smem[NWARPS] = wi;
    }
    __syncthreads();
    T ex = shfl_up(incl, 1);
    ex = op(smem[warp], lane == 0 ? Op::identity() : ex);
    *total = smem[NWARPS];
    __syncthreads();
    return ex;
}

/* One block over a short array of m values, in order (the second level of the
 * two-level designs: Brown's GPU_SumRows and GPU_SumsToStarts): thread t takes
 * the contiguous run [t*per, (t+1)*per).  REDUCE: *total = the sum of data;
 * else data is exclusive-scanned in place. */
template <class Op, int TBS, bool REDUCE>
__global__ void __launch_bounds__(TBS) small_pass(typename Op::T *data, size_t m,
                                                  typename Op::T *total)
{
    typedef typename Op::T T;
    __shared__ T smem[TBS / 32 + 1];
    const Op op;
    const size_t per = (m + TBS - 1) / TBS, lo = threadIdx.x * per, hi = lo + per < m ? lo + per : m;
    T x = Op::identity(), sum;
    for (size_t i = lo; i < hi; i++) x = op(x, data[i]);
    x = block_exclusive_scan<Op, TBS / 32>(x, smem, &sum);
    if constexpr (REDUCE) {
        if (threadIdx.x == 0) *total = sum;
    } else {
        for (size_t i = lo; i < hi; i++) {
            const T next = op(x, data[i]);
            data[i] = x;
            x = next;
        }
    }
}

} // namespace rs

#endif
