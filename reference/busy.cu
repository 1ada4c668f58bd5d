/* busy.cu - a kernel that keeps a stream busy for a while (the contract suite runs a step
 * behind it, to catch steps that ignore their stream or race with earlier work), and one that
 * faults after a while (tests that a call returns a device fault rather than dying). */
#include "kit.h"

__global__ void kit_busy_kernel(long long cycles, volatile int *fault)
{
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    if (fault && threadIdx.x == 0) *fault = 1; /* a null pointer's page: the device faults */
}

static cudaError_t busy(cudaStream_t s, double ms, volatile int *fault)
{
    int khz = 0;
    KIT_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    if (khz <= 0) khz = 1500000;
    kit_busy_kernel<<<1, 32, 0, s>>>((long long)(ms * (double)khz), fault);
    return cudaGetLastError();
}

extern "C" cudaError_t kit_busy(cudaStream_t s, double ms)
{
    return busy(s, ms, NULL);
}

extern "C" cudaError_t kit_busy_fault(cudaStream_t s, double ms)
{
    return busy(s, ms, (volatile int *)(uintptr_t)16);
}
