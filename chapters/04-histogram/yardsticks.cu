/* yardsticks.cu - chapter 04's yardstick: what a user would call instead of
 * writing a histogram kernel.  Declared in histogram.h, included here so that a
 * signature change there fails to compile instead of linking a mismatched
 * extern "C" symbol.
 *
 * Sizes: up to INT_MAX samples CUB gets an int count (its 32-bit offsets, the
 * measured configuration); from INT_MAX + 1 to 2^32 - 1 (the chapter's limit) a
 * 64-bit count, which CUB's MultiHistogramEven dispatches with 64-bit offsets.
 * Scratch: scratch_bytes(n) is the largest answer of CUB's size query at n over
 * sample pointers at several byte alignments (none is dereferenced: a query
 * launches nothing); a run asks what its own call needs (memoized per size,
 * device and alignment class) and refuses with cudaErrorInvalidValue before any
 * launch when that is more, then hands CUB the allotment as temp_storage_bytes
 * so CUB's own AliasTemporaries check guards it too.  In this CCCL the need
 * depends on n (tiles, capped by the sweep kernel's occupancy) and the offset
 * type, not on the pointers (the vectorized-load choice is made in the kernel). */
#include <climits>

#include <cub/device/device_histogram.cuh>

#include "histogram.h"
#include "kit_cuda.cuh"

/* 256 bins of width 1 over the byte values: 257 levels from 0 to 256 */
static cudaError_t cub_hist(void *temp, size_t &temp_bytes, const uint8_t *in, size_t n,
                            uint32_t *bins, cudaStream_t s)
{
    if (n <= (size_t)INT_MAX)
        return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, bins, 257, 0, 256, (int)n, s);
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, bins, 257, 0, 256,
                                               (long long)n, s);
}

/* n past the chapter's limit (histogram.h's HIST_MAX_N): a count must fit its 32-bit bin */
static inline bool yard_too_big(size_t n)
{
    return (uint64_t)n > (uint64_t)HIST_MAX_N;
}

/* the size query's largest answer over the pointer classes (kit_query_max) */
static cudaError_t hist_allotment(size_t n, size_t &bytes)
{
    bytes = 0;
    return kit_query_max([&](int c, size_t &b) {
        return cub_hist(NULL, b, kit_query_ptr<const uint8_t>(c, 0), n, kit_query_ptr<uint32_t>(c, 1), 0);
    }, bytes);
}

extern "C" size_t hist_yard_cub_scratch(size_t n)
{
    size_t bytes = 0;
    if (yard_too_big(n)) return 0;
    if (hist_allotment(n, bytes) != cudaSuccess) {
        cudaGetLastError(); /* no error left behind for the caller */
        return 0;
    }
    return bytes;
}

extern "C" cudaError_t hist_yard_cub(const uint8_t *in, size_t n, uint32_t *bins,
                                          void *scratch, cudaStream_t s)
{
    static kit_bytes_memo allot_memo, need_memo; /* CUB's size query once per key, not in every timed run */
    size_t allot = 0, need = 0;
    if (yard_too_big(n)) return cudaErrorInvalidValue; /* 32-bit bins */
    if ((uintptr_t)bins & 3u) return cudaErrorMisalignedAddress;
    if (scratch == NULL) return cudaErrorInvalidValue; /* CUB would take it for a size query */
    KIT_TRY(kit_memo_bytes(allot_memo, n, 0x100u, [&](size_t &b) { return hist_allotment(n, b); },
                           allot));
    KIT_TRY(kit_memo_bytes(need_memo, n, kit_align_class(in, bins),
                           [&](size_t &b) { return cub_hist(NULL, b, in, n, bins, s); }, need));
    if (need > allot) return cudaErrorInvalidValue;
    KIT_TRY(cub_hist(scratch, allot, in, n, bins, s));
    return cudaGetLastError(); /* CUB does not check its init kernel's launch */
}
