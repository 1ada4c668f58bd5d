/* r2 - sequential addressing.
 * Changed versus r1: the tree folds the upper half of the array onto the lower
 * half, s = TBS/2, TBS/4, ..., 1: thread tid < s adds sdata[tid + s].
 * Why it is faster: consecutive lanes touch consecutive words, so every
 * shared-memory access is conflict-free, and the active threads stay packed
 * into the first warps.
 * What still limits it: half of the threads are idle from the very first step
 * (they only loaded one word); each thread still has a single 4-byte load in
 * flight; the last six steps (s <= 32) run inside one warp yet still pay a
 * block-wide barrier each. */
#include "rs_classic.cuh"

#define R2_TBS 256

template <class Op>
__global__ void __launch_bounds__(R2_TBS) r2_kernel(const typename Op::T *in, typename Op::T *out,
                                                     size_t n)
{
    __shared__ typename Op::T sdata[R2_TBS];
    const Op op;
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * R2_TBS + tid;
    sdata[tid] = i < n ? in[i] : Op::identity();
    __syncthreads();
    for (unsigned s = R2_TBS / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

RS_PASSES_STEP(r2, r2_kernel, R2_TBS, R2_TBS)
