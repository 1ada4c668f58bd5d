/* ex07_atomic_dev.cu - the kernel of exercise ex07_warp_atomic: one thread per element, the
 * exercise's compact_warp_slot ($(IMPL)/07-compaction/compact_warp_atomic.cuh) in every full
 * warp.  Device code only (the Makefile compiles *_dev.cu with nvcc -fatbin, reference/kit_dev.h):
 * the student's header reaches no host code; the launcher is ex07_atomic.c. */
#include "compact_warp_atomic.cuh"
#include "ex07_atomic.h"

extern "C" __global__ void __launch_bounds__(EX07_ATOMIC_TBS)
    ex07_warp_slots_kernel(const uint8_t *__restrict__ want, uint32_t *__restrict__ slot, unsigned *counter,
                           size_t n)
{
    const size_t i = (size_t)blockIdx.x * EX07_ATOMIC_TBS + threadIdx.x;
    const bool w = i < n && want[i] != 0;
    const unsigned got = compact_warp_slot(counter, w); /* every lane of every warp calls it */
    if (w) slot[i] = got;
}
