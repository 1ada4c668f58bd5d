/* s2_warp_atomic_dev.cu - the kernels of s2_warp_atomic (s2_warp_atomic.cu, their launcher), one
 * per mode: device code only (the Makefile compiles *_dev.cu with nvcc -fatbin,
 * reference/kit_dev.h), since they include the student's compact_warp_slot
 * ($(IMPL)/07-compaction/compact_warp_atomic.cuh, exercise ex07_warp_atomic). */
#include "compact_device.cuh"
#include "compact_warp_atomic.cuh"

#define S2_TBS COMPACT_S2_TBS
#define S2_ITEMS COMPACT_S2_ITEMS
#define S2_TILE (S2_TBS * S2_ITEMS)

/* the kernel of mode MODE, as s2 had it (a __global__ template before the kit loaded it by name) */
template <int MODE>
static __device__ __forceinline__ void s2_body(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags,
                                               uint64_t threshold, uint32_t *__restrict__ out, uint32_t *count,
                                               size_t n)
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

#define S2_KERNEL(MODE)                                                                              \
    extern "C" __global__ void __launch_bounds__(S2_TBS)                                           \
        compact_s2_kernel_##MODE(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, \
                                 uint64_t threshold, uint32_t *__restrict__ out, uint32_t *count,   \
                                 size_t n)                                                          \
    {                                                                                               \
        s2_body<MODE>(in, flags, threshold, out, count, n);                                         \
    }
S2_KERNEL(0)
S2_KERNEL(1)
S2_KERNEL(2)
S2_KERNEL(3)
