/* yardsticks.cu - chapter 04's yardstick: what a user would call instead of
 * writing a histogram kernel.  Declared in histogram.h, included here so that a
 * signature change there fails to compile instead of linking a mismatched
 * extern "C" symbol. */
#include <climits>

#include <cub/device/device_histogram.cuh>

#include "histogram.h"
#include "kit_cuda.cuh"

/* 256 bins of width 1 over the byte values: 257 levels from 0 to 256 */
static cudaError_t cub_hist(void *temp, size_t &temp_bytes, const uint8_t *in, int n,
                            uint32_t *bins, cudaStream_t s)
{
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, bins, 257, 0, 256, n, s);
}

extern "C" size_t hist_yard_cub_scratch(size_t n)
{
    size_t bytes = 0;
    if (n > (size_t)INT_MAX) return 0;
    if (cub_hist(NULL, bytes, NULL, (int)n, NULL, 0) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return bytes;
}

extern "C" cudaError_t hist_yard_cub(const uint8_t *in, size_t n, uint32_t *bins,
                                          void *scratch, cudaStream_t s)
{
    static kit_bytes_memo memo; /* CUB's size query once per size, not in every timed run */
    size_t bytes = 0;
    if (n > (size_t)INT_MAX) return cudaErrorInvalidValue; /* CUB's int sample count */
    KIT_TRY(kit_memo_bytes(memo, n, [&](size_t &b) { return cub_hist(NULL, b, in, (int)n, bins, s); },
                           bytes));
    return cub_hist(scratch, bytes, in, (int)n, bins, s);
}
