/* r8 - Hopper reduce: one pass, 16-byte loads, last block finishes.
 * Changed versus r7 (and r6): the operator commutes, so nothing forces the
 * order-keeping machinery of r7: a resident grid (SMs x blocks per SM) walks
 * the input with a grid-sized stride, each thread issuing UNROLL independent
 * 16-byte loads (uint4, 4 words) per iteration into four register
 * accumulators; each block reduces its threads in registers; the blocks'
 * partial sums go to scratch, and the last block to finish (an atomic ticket
 * after a __threadfence) adds them up in a fixed order.  One kernel, plus a
 * 4-byte cudaMemsetAsync of the ticket.
 * Why it is faster: a warp moves 512 bytes per load instruction (four times r6), with
 * TBS x UNROLL x 16 bytes in flight per block; there is no second kernel launch,
 * and the input is read exactly once (4n bytes, like CUB's DeviceReduce).  The
 * float result is deterministic: every block's range and the final order are
 * fixed, whichever block finishes last.
 * What still limits it: DRAM bandwidth at large n; at small n the fixed costs
 * (memset, launch, the ramp of a single wave).
 * Alignment (any 4-byte aligned in): when in is not 16-byte aligned the host
 * launches the PEEL instantiation on the vector-aligned body [in + head, in + n)
 * (head = 1..3 words to the first 16-byte boundary), and block 0 also adds the
 * head words; the aligned instantiation is the kernel above, unchanged.  The
 * float result stays deterministic for a given n and alignment. */
#include "rs_block.cuh"
#include "rs_classic.cuh"

/* the ladder step's knobs (the `tune` experiment sweeps rs_r8_variants below) */
#define R8_TBS 256
#define R8_UNROLL 4

namespace {

/* in: 16-byte aligned; PEEL: block 0 also adds the `head` values at head_in
 * (the aligned instantiation never reads those two parameters) */
template <class Op, int TBS, int UNROLL, bool PEEL = false>
__global__ void __launch_bounds__(TBS)
    r8_kernel(const typename Op::T *__restrict__ in, size_t n, typename Op::T *partials,
              unsigned *ticket, typename Op::T *out, const typename Op::T *__restrict__ head_in,
              unsigned head)
{
    typedef typename Op::T T;
    static_assert(sizeof(T) == 4, "four values per 16-byte vector");
    __shared__ T smem[TBS / 32 + 1];
    __shared__ bool last;
    const Op op;
    const uint4 *vin = reinterpret_cast<const uint4 *>(in); /* 16-byte aligned: the host peels */
    const size_t nv = n / 4, chunk = (size_t)TBS * UNROLL, stride = chunk * gridDim.x;
    T acc[4] = {Op::identity(), Op::identity(), Op::identity(), Op::identity()}, v[4], total;
    size_t i = (size_t)blockIdx.x * chunk + threadIdx.x;
    for (; i + (size_t)(UNROLL - 1) * TBS < nv; i += stride) { /* whole chunks: no checks */
        uint4 q[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) q[u] = __ldg(vin + i + (size_t)u * TBS);
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            rs::unpack(q[u], v);
#pragma unroll
            for (int c = 0; c < 4; c++) acc[c] = op(acc[c], v[c]);
        }
    }
#pragma unroll
    for (int u = 0; u < UNROLL; u++) /* at most one partial chunk per thread */
        if (i + (size_t)u * TBS < nv) {
            rs::unpack(__ldg(vin + i + (size_t)u * TBS), v);
#pragma unroll
            for (int c = 0; c < 4; c++) acc[c] = op(acc[c], v[c]);
        }
    if (blockIdx.x == 0 && threadIdx.x < n % 4) acc[0] = op(acc[0], in[4 * nv + threadIdx.x]);
    if (PEEL && blockIdx.x == 0 && threadIdx.x < head) acc[1] = op(acc[1], head_in[threadIdx.x]);
    rs::block_exclusive_scan<Op, TBS / 32>(op(op(acc[0], acc[1]), op(acc[2], acc[3])), smem, &total);
    if (gridDim.x == 1) {
        if (threadIdx.x == 0) *out = total;
        return;
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = total;
        __threadfence(); /* the partial is visible device-wide before the ticket is taken */
        last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    T x = Op::identity();
    for (unsigned j = threadIdx.x; j < gridDim.x; j += TBS) x = op(x, __ldcg(partials + j));
    rs::block_exclusive_scan<Op, TBS / 32>(x, smem, &total);
    if (threadIdx.x == 0) *out = total;
}

template <class Op, int TBS, int UNROLL>
cudaError_t r8_run(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                   cudaStream_t s)
{
    typedef typename Op::T T;
    static unsigned resident;
    unsigned *ticket = (unsigned *)scratch;
    T *partials = (T *)((char *)scratch + 256);
    const unsigned mis = (unsigned)((uintptr_t)in & 15u);
    const size_t head = mis ? ((16u - mis) / 4u < n ? (16u - mis) / 4u : n) : 0; /* to the boundary */
    if ((mis | (unsigned)(uintptr_t)out) & 3u) return cudaErrorMisalignedAddress;
    if (!resident)
        KIT_TRY(kit_resident_grid((const void *)r8_kernel<Op, TBS, UNROLL>, TBS, 0, &resident));
    size_t g = rs::pass_blocks((n - head) / 4, (size_t)TBS * UNROLL, resident);
    if (g > rs::MAX_GRID) g = rs::MAX_GRID;
    if (g > 1) KIT_TRY(cudaMemsetAsync(ticket, 0, sizeof *ticket, s));
    if (head == 0)
        r8_kernel<Op, TBS, UNROLL><<<(unsigned)g, TBS, 0, s>>>(in, n, partials, ticket, out, NULL, 0u);
    else
        r8_kernel<Op, TBS, UNROLL, true><<<(unsigned)g, TBS, 0, s>>>(in + head, n - head, partials,
                                                                      ticket, out, in, (unsigned)head);
    return cudaGetLastError();
}

template <class Op>
cudaError_t r8_main(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                    cudaStream_t s)
{
    return r8_run<Op, R8_TBS, R8_UNROLL>(in, out, n, scratch, s);
}

size_t r8_scratch(size_t n)
{
    (void)n;
    return 256 + 4 * rs::MAX_GRID;
}

} // namespace

RS_REDUCE_ENTRY_POINTS(r8, r8_main, r8_scratch, (r8_kernel<rs::AddU32, R8_TBS, R8_UNROLL>), R8_TBS, 0)

/* ---- the `tune` experiment: block size x 16-byte loads in flight per thread */
#define R8V(T, U)                                                                              \
    {{"r8_hopper", "tbs=" #T " unroll=" #U, "block size x 16-byte loads per thread",           \
      "chapters/02-reduce-scan/r8_hopper.cu", NULL, KIT_STEP_GPU,                 \
      rs::describe<r8_kernel<rs::AddU32, T, U>, T>},          \
     r8_scratch, r8_run<rs::AddU32, T, U>, NULL}
#define R8_ROW(T) R8V(T, 1), R8V(T, 2), R8V(T, 4)

extern "C" const rs_reduce_step rs_r8_variants[] = {R8_ROW(128), R8_ROW(256), R8_ROW(512), R8_ROW(1024)};
