/* r4 - the last warp unrolled (and, with the block size a compile-time
 * constant, the whole tree unrolled).
 * Changed versus r3: once 64 values are left, warp 0 finishes alone without
 * __syncthreads (tree_unrolled_warp in rs_block.cuh).  The classic version
 * relied on a warp executing in lockstep; since Volta it does not, so each
 * step reads, __syncwarp()s, writes and __syncwarp()s again.
 * Why it is faster: six block-wide barriers and their loop overhead are gone;
 * the other warps exit early.
 * What still limits it: the input side, not the tree: each thread still loads
 * only two words, and one block per 512 elements means 2^28/512 = 524288 short
 * blocks, each paying launch, a shared-memory tree and a partial sum. */
#include "rs_block.cuh"
#include "rs_classic.cuh"

#define R4_TBS 256

template <class Op>
__global__ void __launch_bounds__(R4_TBS) r4_kernel(const typename Op::T *in, typename Op::T *out,
                                                     size_t n)
{
    __shared__ typename Op::T sdata[R4_TBS];
    const Op op;
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * (2 * R4_TBS) + tid;
    typename Op::T x = i < n ? in[i] : Op::identity();
    if (i + R4_TBS < n) x = op(x, in[i + R4_TBS]);
    sdata[tid] = x;
    __syncthreads();
    rs::tree_unrolled_warp<Op, R4_TBS>(sdata);
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

RS_PASSES_STEP(r4, r4_kernel, R4_TBS, 2 * R4_TBS)
