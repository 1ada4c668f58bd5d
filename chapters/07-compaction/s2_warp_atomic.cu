/* s2 - warp-aggregated atomics (Adinetz; the paper's third variant): ballot + popc, one
 * atomicAdd per warp.
 * Changed versus s1: no shared counter and no barrier.  Each warp votes on its 32 elements
 * (__ballot_sync), its lowest voting lane reserves popc(votes) slots of the global count with
 * one atomicAdd, a shuffle broadcasts the base, and every selected lane writes at base +
 * popc(votes & lanemask_lt) - compact_warp_slot, exercise ex07_warp_atomic
 * ($(IMPL)/07-compaction/compact_warp_atomic.cuh).  Threads take S2_ITEMS elements each,
 * block-strided (each step of a block reads 256 consecutive words), all loads first.
 * Why it is faster: at most one global atomic per warp and 32 elements, whatever p; no
 * barriers; a warp's selected elements land in one contiguous run (coalesced stores).
 * What still limits it: those n / 32 atomics all hit one word and still serialise in one
 * L2 slice - at full bandwidth a modern GPU streams the 128 bytes of a warp's elements
 * faster than that slice turns an atomic around - and the output order is the atomics'
 * arrival order (KIT_UNORDERED): keeping the input order needs every warp to know the count
 * of all the elements before it, a scan (s3 on).  No scratch. */
#include "compact_device.cuh"
#include "compact_warp_atomic.cuh"

#define S2_TBS 256
#define S2_ITEMS 4
#define S2_TILE (S2_TBS * S2_ITEMS)
extern "C" const char compact_s2_param[] = "tbs=256 items/thread=4 (one atomic per warp per 32 elements)";

template <int MODE>
__global__ void __launch_bounds__(S2_TBS)
    s2_kernel(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, uint64_t threshold,
              uint32_t *__restrict__ out, uint32_t *count, size_t n)
{
    const size_t tile0 = (size_t)blockIdx.x * S2_TILE;
    const size_t left = n - tile0; /* > 0: one block per tile */
    uint32_t v[S2_ITEMS];
    bool sel[S2_ITEMS];
#pragma unroll
    for (int k = 0; k < S2_ITEMS; k++) {
        const unsigned j = k * S2_TBS + threadIdx.x;
        v[k] = 0;
        sel[k] = j < left && cp_test<MODE>(in, flags, threshold, tile0 + j, v[k]);
    }
    /* every lane of every warp reaches each call (lanes past n vote false) */
#pragma unroll
    for (int k = 0; k < S2_ITEMS; k++) {
        const unsigned slot = compact_warp_slot(count, sel[k]);
        if (sel[k]) out[slot] = cp_item<MODE>(in, tile0 + k * S2_TBS + threadIdx.x, v[k]);
    }
}

extern "C" size_t compact_s2_warp_atomic_scratch(size_t n)
{
    (void)n;
    return 0;
}

extern "C" cudaError_t compact_s2_warp_atomic(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                              uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                              cudaStream_t s)
{
    int work;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    const unsigned grid = kit_blocks_for(n, S2_TILE);
    if (!grid) return cudaErrorInvalidValue;
    KIT_TRY(cudaMemsetAsync(count, 0, sizeof *count, s));
    return compact_dispatch(mode, [&](auto m) {
        s2_kernel<decltype(m)::value><<<grid, S2_TBS, 0, s>>>(in, flags, threshold, out, count, n);
        return cudaGetLastError();
    });
}

KIT_DESCRIBE(compact_s2_describe, s2_kernel<0>, S2_TBS, 0)
