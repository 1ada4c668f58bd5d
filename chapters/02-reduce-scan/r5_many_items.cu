/* r5 - many elements per thread.
 * Changed versus r4: a fixed grid of SMs x resident blocks walks the whole
 * input with a grid-sized stride; each thread adds many elements (four loads
 * in flight per iteration) in a register before the r4 tree runs once
 * (grid_stride_accumulate in rs_classic.cuh).  Two passes: the grid's partial
 * sums, then one block.
 * Why it is faster: the tree, the barriers and the partial sum are paid once
 * per resident block instead of once per 512 elements; all loads stay
 * coalesced, and four independent loads per thread keep more bytes in flight.
 * What still limits it: 4-byte loads (a warp moves 128 bytes per instruction),
 * a second kernel launch for the partials, and the shared-memory tree. */
#include "rs_block.cuh"
#include "rs_classic.cuh"

#define R5_TBS 256
#define R5_MIN_PER_THREAD 8 /* small inputs get fewer blocks, not idle threads */

template <class Op>
__global__ void __launch_bounds__(R5_TBS) r5_kernel(const typename Op::T *in, typename Op::T *out,
                                                     size_t n)
{
    __shared__ typename Op::T sdata[R5_TBS];
    sdata[threadIdx.x] = rs::grid_stride_accumulate<Op>(in, n);
    __syncthreads();
    rs::tree_unrolled_warp<Op, R5_TBS>(sdata);
    if (threadIdx.x == 0) out[blockIdx.x] = sdata[0];
}

RS_GRID_STEP(r5, r5_kernel, R5_TBS, R5_MIN_PER_THREAD)
