/* r3 - first add during load.
 * Changed versus r2: each block covers 2*TBS elements, and every thread adds
 * two of them (TBS apart, so both loads stay coalesced) before the tree.
 * Why it is faster: no thread idles in the first step, half as many blocks are
 * launched, and each thread has two independent loads in flight.
 * What still limits it: two 4-byte loads per thread are still far from the
 * bytes in flight that HBM needs; the last warp still synchronizes the whole
 * block six times.  Adding elements i and i + TBS reorders the sum: fine for +,
 * which commutes, but not for a non-commutative operator (r7 keeps the order). */
#include "rs_classic.cuh"

#define R3_TBS 256

template <class Op>
__global__ void __launch_bounds__(R3_TBS) r3_kernel(const typename Op::T *in, typename Op::T *out,
                                                     size_t n)
{
    __shared__ typename Op::T sdata[R3_TBS];
    const Op op;
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * (2 * R3_TBS) + tid;
    typename Op::T x = i < n ? in[i] : Op::identity();
    if (i + R3_TBS < n) x = op(x, in[i + R3_TBS]);
    sdata[tid] = x;
    __syncthreads();
    for (unsigned s = R3_TBS / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

RS_PASSES_STEP(r3, r3_kernel, R3_TBS, 2 * R3_TBS)
