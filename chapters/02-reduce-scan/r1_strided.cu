/* r1 - interleaved addressing without divergence.
 * Changed versus r0: at step s, thread tid works on index 2*s*tid, so the
 * active threads are the first TBS/(2s) ones: whole warps are either busy or
 * idle, and no modulo is computed.
 * Why it is faster: idle warps retire early instead of dragging a few active
 * lanes through every step, and the branch is uniform inside a warp.
 * What still limits it: the strided index 2*s*tid makes lanes of one warp hit
 * the same shared-memory bank (a 2-way conflict at s = 1, 4-way at s = 2,
 * 8-way for s = 4..16), so shared-memory accesses are replayed; the loads are
 * still one 4-byte word per thread, and the tree still works in shared memory. */
#include "rs_classic.cuh"

#define R1_TBS 256

template <class Op>
__global__ void __launch_bounds__(R1_TBS) r1_kernel(const typename Op::T *in, typename Op::T *out,
                                                     size_t n)
{
    __shared__ typename Op::T sdata[R1_TBS];
    const Op op;
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * R1_TBS + tid;
    sdata[tid] = i < n ? in[i] : Op::identity();
    __syncthreads();
    for (unsigned s = 1; s < R1_TBS; s *= 2) {
        const unsigned index = 2 * s * tid;
        if (index < R1_TBS) sdata[index] = op(sdata[index], sdata[index + s]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

RS_PASSES_STEP(r1, r1_kernel, R1_TBS, R1_TBS)
