/* s1 - block scan with Blelloch's work-efficient tree (up-sweep, down-sweep),
 * still scan-then-fan across blocks.
 * Changed versus s0: each thread owns two elements of a 2*TBS tile; the
 * up-sweep builds sums of 2, 4, 8, ... elements in place (a reduce tree), the
 * root is replaced by the identity, and the down-sweep hands every left child
 * its parent's prefix and every right child parent (+) left sum.  The result
 * is exclusive; inclusive adds the element itself.  Indices are padded by one
 * word every 32 (i + i/32) so the tree's power-of-two strides do not pile up
 * on one shared-memory bank.
 * Why it is faster: 2n operator applications per tile instead of n log n, two
 * elements per thread (the same 512-element tile as s0 with half the threads).
 * What still limits it: 2 log2(2*TBS) barriers per tile with ever fewer
 * active threads near the root, 4-byte accesses, and the 4n scan-then-fan
 * traffic. */
#include "rs_classic.cuh"

#define S1_TBS 256
#define S1_PB (2 * S1_TBS)
#define S1_PAD(i) ((i) + ((i) >> 5))

template <class Op, bool EXCL>
__global__ void __launch_bounds__(S1_TBS)
    s1_kernel(const typename Op::T *in, typename Op::T *out, size_t n, typename Op::T *sums)
{
    typedef typename Op::T T;
    __shared__ T t[S1_PAD(S1_PB)];
    const Op op;
    const int tid = threadIdx.x, a = tid, b = tid + S1_TBS;
    const size_t base = (size_t)blockIdx.x * S1_PB;
    const T xa = base + a < n ? in[base + a] : Op::identity();
    const T xb = base + b < n ? in[base + b] : Op::identity();
    t[S1_PAD(a)] = xa;
    t[S1_PAD(b)] = xb;
    int offset = 1;
    for (int d = S1_PB / 2; d > 0; d >>= 1) { /* up-sweep: left (+) right */
        __syncthreads();
        if (tid < d) {
            const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            t[S1_PAD(bi)] = op(t[S1_PAD(ai)], t[S1_PAD(bi)]);
        }
        offset *= 2;
    }
    __syncthreads();
    if (tid == 0) {
        if (sums) sums[blockIdx.x] = t[S1_PAD(S1_PB - 1)];
        t[S1_PAD(S1_PB - 1)] = Op::identity();
    }
    for (int d = 1; d < S1_PB; d *= 2) { /* down-sweep: prefixes flow to the leaves */
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            const T left = t[S1_PAD(ai)];
            t[S1_PAD(ai)] = t[S1_PAD(bi)];
            t[S1_PAD(bi)] = op(t[S1_PAD(bi)], left);
        }
    }
    __syncthreads();
    if (base + a < n) out[base + a] = EXCL ? t[S1_PAD(a)] : op(t[S1_PAD(a)], xa);
    if (base + b < n) out[base + b] = EXCL ? t[S1_PAD(b)] : op(t[S1_PAD(b)], xb);
}

RS_FAN_STEP(s1, s1_kernel, S1_TBS, S1_PB)
