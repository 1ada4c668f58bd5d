/* r6 - block reduce with warp shuffles (exercise ex02_warp_reduce).
 * Changed versus r5: after the same many-items-per-thread loop, the block's
 * values are combined in registers: each warp reduces its 32 values with
 * __shfl_down_sync (5 steps), lane 0 of every warp puts its warp's sum in
 * shared memory, and warp 0 reduces those sums the same way.
 * Why it is faster: no shared-memory tree: one barrier instead of r5's three
 * and no chain of __syncwarp() steps; a shuffle moves a register between lanes
 * in one instruction, and the block needs TBS/32 words of shared memory
 * instead of TBS.
 * What still limits it: the loads are still 4 bytes wide (a warp moves 128
 * bytes per instruction), and a second kernel launch reduces the partial sums.
 * Every step up to here reorders the sum, which is fine for +. */
#include "rs_classic.cuh"

/* Device code only: the build compiles this file with `nvcc -fatbin` (no host code of it
 * exists); the kit's launcher (chapters/02-reduce-scan/r6_launch.cu) loads the kernels that
 * RS_DEV_REDUCE_KERNELS defines at the end by their extern "C" names, and launches them in
 * passes on a resident grid of R6_TBS-thread blocks.  Keep the names and the shape. */
#define R6_TBS RS_R6_TBS /* 256 threads */

/* Sum x over the TBS threads of the block; the total is needed in thread 0
 * only (other threads may return anything).  Op is rs::AddU32 or rs::AddF32:
 * `op(a, b)` adds, `Op::identity()` is 0, and rs::shfl_down(v, d) is
 * __shfl_down_sync(0xffffffff, v, d) for either type. */
template <class Op, int TBS>
__device__ __forceinline__ typename Op::T block_reduce_shfl(typename Op::T x)
{
    // BEGIN SOLUTION
    // TODO: 1. Reduce inside each warp: for d = 16, 8, 4, 2, 1, x = op(x, rs::shfl_down(x, d)).
    // TODO:    Every lane must take part in every shuffle; lane 0 ends with the warp's sum.
    // TODO: 2. Lane 0 of warp w writes its sum to a __shared__ array of TBS/32 values; __syncthreads().
    // TODO: 3. Warp 0 loads those TBS/32 values (the identity in the lanes beyond them) and
    // TODO:    reduces them with the same five shuffles; thread 0 returns the block's sum.
    // STUB: return x;
    typedef typename Op::T T;
    __shared__ T warp_sums[TBS / 32];
    const Op op;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) x = op(x, rs::shfl_down(x, d));
    if (lane == 0) warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        x = lane < TBS / 32 ? warp_sums[lane] : Op::identity();
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) x = op(x, rs::shfl_down(x, d));
    }
    return x;
    // END SOLUTION
}

/* one pass: block b's sum of its part of in[0..n) in out[b] (RS_DEV_REDUCE_KERNELS makes it the
 * __launch_bounds__(R6_TBS) kernels rs_r6_kernel_u32 and rs_r6_kernel_f32) */
template <class Op>
__device__ __forceinline__ void r6_kernel(const typename Op::T *in, typename Op::T *out, size_t n)
{
    const typename Op::T x = block_reduce_shfl<Op, R6_TBS>(rs::grid_stride_accumulate<Op>(in, n));
    if (threadIdx.x == 0) out[blockIdx.x] = x;
}

RS_DEV_REDUCE_KERNELS(r6, r6_kernel, R6_TBS)
