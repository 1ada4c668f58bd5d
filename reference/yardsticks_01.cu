/* yardsticks_01.cu - chapter 01's yardstick: what a user would call instead of a copy kernel.
 * Each chapter keeps its CUB/Thrust yardsticks in its own reference/yardsticks_NN.cu. */
#include "yardsticks.h"

extern "C" cudaError_t yard_memcpy_u32(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                       cudaStream_t s)
{
    (void)scratch;
    if (n == 0) return cudaSuccess;
    return cudaMemcpyAsync(out, in, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, s);
}
