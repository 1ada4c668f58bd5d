/* s0 - one global counter, one atomicAdd per selected element (the paper's first variant).
 * The first rung: every thread tests one element and, when it passes, takes the next free
 * output slot with atomicAdd on a single word in global memory - the count itself, zeroed on
 * the stream first - and writes its index or value there.
 * Why it works at all: the atomic hands out distinct slots, so the output is the selected
 * multiset and the counter ends at the count.  The order is whatever order the atomics
 * happened in: the step is KIT_UNORDERED and verified as a set.
 * What limits it: every selected element is one atomic on the same address, and those
 * serialise in the L2 slice that owns it, so the time grows with the number selected (the
 * paper's Fig. 11: the two atomic variants climb with p).  The compiler may aggregate a
 * warp's atomicAdd(counter, 1) on a uniform address by itself; s2 does it by hand, where it
 * is visible and does not depend on the compiler.  No scratch.
 * Limits: n <= COMPACT_MAX_N; one thread per element, so n / 256 blocks (< 2^24). */
#include "compact_device.cuh"

#define S0_TBS 256
extern "C" const char compact_s0_param[] = "tbs=256 items/thread=1";

template <int MODE>
__global__ void __launch_bounds__(S0_TBS)
    s0_kernel(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, uint64_t threshold,
              uint32_t *__restrict__ out, uint32_t *count, size_t n)
{
    const size_t i = (size_t)blockIdx.x * S0_TBS + threadIdx.x;
    uint32_t v = 0;
    if (i < n && cp_test<MODE>(in, flags, threshold, i, v)) out[atomicAdd(count, 1u)] = cp_item<MODE>(in, i, v);
}

extern "C" size_t compact_s0_atomic_global_scratch(size_t n)
{
    (void)n;
    return 0;
}

extern "C" cudaError_t compact_s0_atomic_global(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                                uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                                cudaStream_t s)
{
    int work;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    const unsigned grid = kit_blocks_for(n, S0_TBS);
    if (!grid) return cudaErrorInvalidValue;
    KIT_TRY(cudaMemsetAsync(count, 0, sizeof *count, s)); /* the counter is the count */
    return compact_dispatch(mode, [&](auto m) {
        s0_kernel<decltype(m)::value><<<grid, S0_TBS, 0, s>>>(in, flags, threshold, out, count, n);
        return cudaGetLastError();
    });
}

KIT_DESCRIBE(compact_s0_describe, s0_kernel<0>, S0_TBS, 0)
