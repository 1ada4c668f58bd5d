/* busy.cu - a kernel that keeps a stream busy for a while (the contract suite runs a step
 * behind it, to catch steps that ignore their stream or race with earlier work). */
#include "kit.h"

__global__ void kit_busy_kernel(long long cycles)
{
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

extern "C" cudaError_t kit_busy(cudaStream_t s, double ms)
{
    int khz = 0;
    KIT_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    if (khz <= 0) khz = 1500000;
    kit_busy_kernel<<<1, 32, 0, s>>>((long long)(ms * (double)khz));
    return cudaGetLastError();
}
