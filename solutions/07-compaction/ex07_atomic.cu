/* ex07_atomic.cu - the launcher of exercise ex07_warp_atomic: one thread per element, the
 * exercise's compact_warp_slot (compact_warp_atomic.cuh) in every full warp.  Plumbing only:
 * nothing to write here. */
#include "compact_warp_atomic.cuh"
#include "ex07_atomic.h"
#include "kit_cuda.cuh"

__global__ void __launch_bounds__(EX07_ATOMIC_TBS)
    ex07_warp_slots_kernel(const uint8_t *__restrict__ want, uint32_t *__restrict__ slot, unsigned *counter,
                           size_t n)
{
    const size_t i = (size_t)blockIdx.x * EX07_ATOMIC_TBS + threadIdx.x;
    const bool w = i < n && want[i] != 0;
    const unsigned got = compact_warp_slot(counter, w); /* every lane of every warp calls it */
    if (w) slot[i] = got;
}

extern "C" cudaError_t ex07_warp_slots(const uint8_t *want, uint32_t *slot, unsigned *counter, size_t n,
                                       cudaStream_t s)
{
    unsigned grid;
    if (n == 0) return cudaSuccess;
    if (!want || !slot || !counter) return cudaErrorInvalidValue;
    if (!(grid = kit_blocks_for(n, EX07_ATOMIC_TBS))) return cudaErrorInvalidValue;
    ex07_warp_slots_kernel<<<grid, EX07_ATOMIC_TBS, 0, s>>>(want, slot, counter, n);
    return cudaGetLastError();
}
