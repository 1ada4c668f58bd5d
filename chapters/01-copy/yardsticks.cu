/* yardsticks.cu - chapter 01's yardstick: what a user would call instead of a copy kernel.
 * Every chapter keeps its yardsticks in its own yardsticks.cu, named <prefix>_yard_<what>. */
#include "copy.h"

extern "C" cudaError_t copy_yard_memcpy(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                       cudaStream_t s)
{
    (void)scratch;
    if (n == 0) return cudaSuccess;
    return cudaMemcpyAsync(out, in, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, s);
}
