/* s1 - a counter per block in shared memory, one global atomicAdd per block (the paper's
 * second variant).
 * Changed versus s0: a block of 128 threads takes S1_ITEMS elements per thread (a tile of
 * 512, element k * 128 + t of the tile for thread t: each step of the loop reads 128
 * consecutive words).  A selected element takes its slot inside the tile with an atomicAdd
 * on a shared counter; after a barrier, thread 0 reserves the tile's whole range with one
 * atomicAdd on the global count; after another barrier every thread writes its elements at
 * that base plus their tile slots.
 * Why it is faster: the contended global atomics drop from one per selected element to one
 * per block (at most n / 512), and shared-memory atomics are resolved in the SM.
 * What still limits it: the shared atomics still serialise the selected elements of a
 * block (time still grows with p), every block pays two barriers between its loads and its
 * stores, and the order is lost twice over (within a tile: shared atomics; between tiles:
 * the global one): KIT_UNORDERED.  The paper found 128 threads per block best on a K40
 * (Fig. 10); the block size is a knob here.  No scratch. */
#include "compact_device.cuh"

#define S1_TBS 128
#define S1_ITEMS 4
#define S1_TILE (S1_TBS * S1_ITEMS)
#define S1_NONE 0xFFFFFFFFu
extern "C" const char compact_s1_param[] = "tbs=128 items/thread=4";

template <int MODE>
__global__ void __launch_bounds__(S1_TBS)
    s1_kernel(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, uint64_t threshold,
              uint32_t *__restrict__ out, uint32_t *count, size_t n)
{
    __shared__ unsigned s_count, s_base;
    const size_t tile0 = (size_t)blockIdx.x * S1_TILE;
    const size_t left = n - tile0; /* > 0: one block per tile */
    uint32_t v[S1_ITEMS];
    bool sel[S1_ITEMS];
    unsigned slot[S1_ITEMS];
    if (threadIdx.x == 0) s_count = 0;
#pragma unroll
    for (int k = 0; k < S1_ITEMS; k++) { /* all loads first */
        const unsigned j = k * S1_TBS + threadIdx.x;
        v[k] = 0;
        sel[k] = j < left && cp_test<MODE>(in, flags, threshold, tile0 + j, v[k]);
    }
    __syncthreads(); /* s_count = 0 is seen by every thread */
#pragma unroll
    for (int k = 0; k < S1_ITEMS; k++) slot[k] = sel[k] ? atomicAdd(&s_count, 1u) : S1_NONE;
    __syncthreads(); /* every shared atomic done */
    if (threadIdx.x == 0) s_base = s_count ? atomicAdd(count, s_count) : 0u;
    __syncthreads();
    const unsigned base = s_base;
#pragma unroll
    for (int k = 0; k < S1_ITEMS; k++)
        if (slot[k] != S1_NONE) out[base + slot[k]] = cp_item<MODE>(in, tile0 + k * S1_TBS + threadIdx.x, v[k]);
}

extern "C" size_t compact_s1_atomic_block_scratch(size_t n)
{
    (void)n;
    return 0;
}

extern "C" cudaError_t compact_s1_atomic_block(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                               uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                               cudaStream_t s)
{
    int work;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    const unsigned grid = kit_blocks_for(n, S1_TILE);
    if (!grid) return cudaErrorInvalidValue;
    KIT_TRY(cudaMemsetAsync(count, 0, sizeof *count, s));
    return compact_dispatch(mode, [&](auto m) {
        s1_kernel<decltype(m)::value><<<grid, S1_TBS, 0, s>>>(in, flags, threshold, out, count, n);
        return cudaGetLastError();
    });
}

KIT_DESCRIBE(compact_s1_describe, s1_kernel<0>, S1_TBS, 0)
