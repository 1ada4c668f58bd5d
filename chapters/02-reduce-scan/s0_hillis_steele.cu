/* s0 - block scan with Hillis-Steele (Kogge-Stone) in shared memory, and
 * scan-then-fan across blocks.
 * Changed: nothing, this is where the scan ladder starts.  Each block scans a
 * tile of TBS elements (one per thread): in step d = 1, 2, 4, ..., every thread
 * i >= d combines element i - d into element i, double-buffered in shared
 * memory so that no thread reads a value already overwritten in the same
 * step.  Tile totals are scanned recursively and fanned back (rs_classic.cuh).
 * Why it works at all: log2(TBS) steps instead of TBS serial ones.
 * What limits it: n log2(TBS) operator applications instead of n (9x the work
 * of a serial scan at TBS = 512), a barrier per step, one 4-byte access per
 * thread, and scan-then-fan traffic: the data is read and written twice (4n)
 * plus the recursion over the tile totals. */
#include "rs_classic.cuh"

#define S0_TBS 512

template <class Op, bool EXCL>
__global__ void __launch_bounds__(S0_TBS)
    s0_kernel(const typename Op::T *in, typename Op::T *out, size_t n, typename Op::T *sums)
{
    __shared__ typename Op::T buf[2][S0_TBS];
    const Op op;
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * S0_TBS + tid;
    buf[0][tid] = i < n ? in[i] : Op::identity();
    __syncthreads();
    int pin = 0;
    for (unsigned d = 1; d < S0_TBS; d *= 2) {
        typename Op::T x = buf[pin][tid];
        if (tid >= d) x = op(buf[pin][tid - d], x); /* the earlier value on the left */
        buf[1 - pin][tid] = x;
        pin = 1 - pin;
        __syncthreads();
    }
    if (i < n) out[i] = !EXCL ? buf[pin][tid] : tid ? buf[pin][tid - 1] : Op::identity();
    if (sums && tid == S0_TBS - 1) sums[blockIdx.x] = buf[pin][tid];
}

RS_FAN_STEP(s0, s0_kernel, S0_TBS, S0_TBS)
