/* yardsticks.cu - chapter 06's yardstick: cub::DeviceScan::ExclusiveSum on the same
 * one-byte flags the ladder scans, with 32-bit offsets out (CUB accumulates uint8 + uint8
 * in int, so the sums do not wrap at 255).  num_items is passed as int up to INT_MAX:
 * 32-bit offsets inside CUB, as in the ladder (the measured configuration).  From
 * INT_MAX + 1 to 2^32 - 1 (the chapter's limit) the count is 64-bit and the scan is
 * ExclusiveScan with a uint32 plus and init 0, so that the running sum, which then
 * passes INT_MAX, wraps as the uint32 offsets do instead of overflowing an int.
 * Scratch: scratch_bytes(n) is the largest answer of CUB's size query at n over pointers
 * of several alignments (none is dereferenced); a run asks what its own call needs
 * (memoized per size, device and alignment class), refuses with cudaErrorInvalidValue
 * before any launch when that is more, and passes the allotment as temp_storage_bytes so
 * that CUB's own check guards it too.  Declared in chapters/06-ballot-scan/ballot.h. */
#include <limits.h>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "ballot.h"
#include "kit_cuda.cuh"

static cudaError_t cub_offsets(void *tmp, size_t &bytes, const uint8_t *flags, uint32_t *offsets,
                               size_t n, cudaStream_t s)
{
    if (n <= (size_t)INT_MAX)
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, flags, (int *)offsets, (int)n, s);
    return cub::DeviceScan::ExclusiveScan(tmp, bytes, flags, offsets, ::cuda::std::plus<uint32_t>(),
                                          (uint32_t)0, (long long)n, s);
}

/* the size query's largest answer over the pointer classes (kit_query_max) */
static cudaError_t cub_allotment(size_t n, size_t &bytes)
{
    bytes = 0;
    return kit_query_max([&](int c, size_t &b) {
        return cub_offsets(NULL, b, kit_query_ptr<const uint8_t>(c, 0), kit_query_ptr<uint32_t>(c, 1), n, 0);
    }, bytes);
}

extern "C" size_t ballot_yard_cub_scratch(size_t n)
{
    size_t bytes = 0;
    if ((uint64_t)n > 0xFFFFFFFFull) return 0;
    if (cub_allotment(n, bytes) != cudaSuccess) {
        cudaGetLastError(); /* no error left behind for the caller */
        return 0;
    }
    return bytes;
}

extern "C" cudaError_t ballot_yard_cub_scan(const uint8_t *flags, uint32_t *offsets, size_t n,
                                       void *scratch, cudaStream_t s)
{
    static kit_bytes_memo allot_memo, need_memo; /* CUB's size query once per key, not in every timed run */
    size_t allot = 0, need = 0;
    KIT_TRY(ballot_check_args(flags, offsets, n, 0));
    if (n == 0) return cudaSuccess;
    if (scratch == NULL) return cudaErrorInvalidValue; /* CUB would take it for a size query */
    KIT_TRY(kit_memo_bytes(allot_memo, n, 0x100u, [&](size_t &b) { return cub_allotment(n, b); },
                           allot));
    KIT_TRY(kit_memo_bytes(need_memo, n, kit_align_class(flags, offsets),
                           [&](size_t &b) { return cub_offsets(NULL, b, flags, offsets, n, s); },
                           need));
    if (need > allot) return cudaErrorInvalidValue;
    KIT_TRY(cub_offsets(scratch, allot, flags, offsets, n, s));
    return cudaGetLastError();
}
