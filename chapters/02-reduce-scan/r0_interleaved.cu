/* r0 - interleaved addressing with divergent branches (the classic starting point).
 * Changed: nothing, this is where the ladder starts.  One element per thread is
 * loaded into shared memory; a tree halves the active threads at each step,
 * thread tid adding its neighbour at distance s when tid is a multiple of 2s;
 * each block writes one partial sum, and the partials are reduced again by
 * further passes until one value is left (rs_classic.cuh).
 * Why it works at all: log2(256) = 8 steps per block instead of 255 serial adds,
 * and thousands of blocks run at once.
 * What limits it: `tid % (2*s) == 0` keeps a few threads of every warp busy, so
 * every warp stays resident and diverges at every step; the modulo is slow; one
 * 4-byte load per thread keeps too few bytes in flight; and the partials are
 * written out and read back once per pass. */
#include "rs_classic.cuh"

#define R0_TBS 256

template <class Op>
__global__ void __launch_bounds__(R0_TBS) r0_kernel(const typename Op::T *in, typename Op::T *out,
                                                     size_t n)
{
    __shared__ typename Op::T sdata[R0_TBS];
    const Op op;
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * R0_TBS + tid;
    sdata[tid] = i < n ? in[i] : Op::identity();
    __syncthreads();
    for (unsigned s = 1; s < R0_TBS; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

RS_PASSES_STEP(r0, r0_kernel, R0_TBS, R0_TBS)
