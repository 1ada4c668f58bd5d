/* yardsticks.cu - chapter 06's yardstick: cub::DeviceScan::ExclusiveSum on the same
 * one-byte flags the ladder scans, with 32-bit offsets out (CUB accumulates uint8 + uint8
 * in int, so the sums do not wrap at 255).  num_items is passed as int: 32-bit offsets
 * inside CUB, as in the ladder.  Declared in chapters/06-ballot-scan/ballot.h. */
#include <limits.h>

#include <cub/device/device_scan.cuh>

#include "ballot.h"
#include "kit_cuda.cuh"

extern "C" size_t ballot_yard_cub_scratch(size_t n)
{
    size_t bytes = 0;
    if (n > (size_t)INT_MAX) return 0;
    if (cub::DeviceScan::ExclusiveSum(nullptr, bytes, (const uint8_t *)nullptr, (int *)nullptr,
                                      (int)n) != cudaSuccess) {
        cudaGetLastError(); /* no error left behind for the caller */
        return 0;
    }
    return bytes;
}

extern "C" cudaError_t ballot_yard_cub_scan(const uint8_t *flags, uint32_t *offsets, size_t n,
                                       void *scratch, cudaStream_t s)
{
    static kit_bytes_memo memo; /* CUB's size query once per size, not in every timed run */
    size_t bytes = 0;
    if (n > (size_t)INT_MAX) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    KIT_TRY(kit_memo_bytes(memo, n, [&](size_t &b) {
        return cub::DeviceScan::ExclusiveSum(nullptr, b, flags, (int *)offsets, (int)n, s);
    }, bytes));
    KIT_TRY(cub::DeviceScan::ExclusiveSum(scratch, bytes, flags, (int *)offsets, (int)n, s));
    return cudaGetLastError();
}
