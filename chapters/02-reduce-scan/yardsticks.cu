/* yardsticks.cu - chapter 02's yardsticks: what a user would call instead of
 * writing a reduce or a scan, CUB's DeviceReduce::Sum and DeviceScan.
 * Two-phase temporary storage, like every step: scratch_bytes(n) asks CUB how
 * much it needs (a host-only query), the caller allocates it outside the timed
 * region, and the run passes it back; nothing is allocated here.
 * Sizes up to INT_MAX use 32-bit item counts (what most callers pass, and
 * CUB's fastest offsets); larger ones 64-bit.  The prototypes, the affine type
 * and its operator are the chapter's own.
 *
 * Scratch contract.  scratch_bytes(n) is the allotment: the largest
 * answer of CUB's size query at n over every type and mode the yardstick
 * serves, and over pointers of several alignments (NULL, and dummies 1, 2, 3
 * elements past a 16-byte boundary; none is dereferenced).  A run never lets
 * CUB use more than the allotment: it asks CUB what this very call needs
 * (memoized per size, device, type, mode and alignment class of in/out),
 * returns cudaErrorInvalidValue before any launch if that is more, and passes
 * the allotment itself as temp_storage_bytes, so that CUB's own check
 * (AliasTemporaries refuses a blob smaller than its need) guards it as well.
 *
 * What used to go wrong (the acceptance suite saw the scan at n = 1 write 264
 * bytes, and the reduce at n = 4097 write 8 bytes, past scratch_bytes(n)):
 * scratch_bytes computed `a = bytes_or_zero(cub_sum(NULL, a, ...), a)`.  The
 * order in which C++ evaluates function arguments is unspecified, and GCC
 * (nvcc's host compiler here) read the by-value `a` (still 0) before calling
 * the query that fills it, so scratch_bytes returned 0 for every n; the run
 * then handed CUB its own, correct, byte count for a blob the caller had sized
 * 0, so CUB's check could not fire.  264 = (1 tile + 32 padding tiles) x 8 bytes
 * of scan tile status (ScanTileState<uint32_t>, cub/agent/
 * single_pass_scan_operators.cuh), written from the start of the blob; 8 = 2
 * blocks x 4-byte partials of DeviceReduce's first pass, the smallest size past
 * its single-tile path (4096 items on sm_90, cub/device/dispatch/
 * dispatch_reduce.cuh, InvokeSingleTile/InvokePasses).  What the answer does
 * NOT depend on, in this CCCL (3.0, CUB_VERSION 300001): the pointers.  Scan:
 * DispatchScan::Invoke sizes the tile status from num_items and the policy's
 * tile size (policy chosen from the value/accumulator/offset types and the PTX
 * version); reduce: InvokePasses sizes max_blocks = SM count x occupancy x
 * subscription factor partials; AliasTemporaries (cub/util_temporary_storage.cuh)
 * rounds every allocation to 256 bytes and adds 255 for the blob's own
 * alignment, so the scratch address does not matter either.  The pointer-class
 * queries and the run-time check stay as a guard for future CCCL versions. */
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "rs_ops.cuh"
#include "kit_cuda.cuh"

namespace {

template <class T>
cudaError_t cub_sum(void *tmp, size_t &bytes, const T *in, T *out, size_t n, cudaStream_t s)
{
    if (n <= (size_t)INT_MAX) return cub::DeviceReduce::Sum(tmp, bytes, in, out, (int)n, s);
    return cub::DeviceReduce::Sum(tmp, bytes, in, out, (long long)n, s);
}

/* exclusive/inclusive sum of uint32, or scan of affine maps with their operator */
template <class T>
cudaError_t cub_scan(void *tmp, size_t &bytes, const T *in, T *out, size_t n, int exclusive,
                     cudaStream_t s);

template <>
cudaError_t cub_scan<uint32_t>(void *tmp, size_t &bytes, const uint32_t *in, uint32_t *out,
                               size_t n, int exclusive, cudaStream_t s)
{
    if (n <= (size_t)INT_MAX)
        return exclusive ? cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, (int)n, s)
                         : cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, (int)n, s);
    return exclusive ? cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, (long long)n, s)
                     : cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, (long long)n, s);
}

template <>
cudaError_t cub_scan<rs_affine>(void *tmp, size_t &bytes, const rs_affine *in, rs_affine *out,
                                size_t n, int exclusive, cudaStream_t s)
{
    const rs::Affine op;
    if (n <= (size_t)INT_MAX)
        return exclusive ? cub::DeviceScan::ExclusiveScan(tmp, bytes, in, out, op,
                                                          rs_affine_identity(), (int)n, s)
                         : cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, op, (int)n, s);
    return exclusive ? cub::DeviceScan::ExclusiveScan(tmp, bytes, in, out, op, rs_affine_identity(),
                                                      (long long)n, s)
                     : cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, op, (long long)n, s);
}

/* The pointers the size query is asked with: class 0 is NULL, classes 1 and 2
 * put in and out 1..3 elements past a 16-byte boundary (never dereferenced:
 * a query without storage launches nothing). */
/* the largest need of one type (and mode) over the pointer classes */
template <class T>
cudaError_t reduce_need_max(size_t n, size_t &most)
{
    return kit_query_max([&](int c, size_t &b) {
        return cub_sum<T>(NULL, b, kit_query_ptr<T>(c, 0), kit_query_ptr<T>(c, 1), n, 0);
    }, most);
}

template <class T>
cudaError_t scan_need_max(size_t n, size_t &most)
{
    for (int excl = 0; excl < 2; excl++)
        KIT_TRY(kit_query_max([&](int c, size_t &b) {
            return cub_scan<T>(NULL, b, kit_query_ptr<T>(c, 0), kit_query_ptr<T>(c, 1), n, excl, 0);
        }, most));
    return cudaSuccess;
}

/* the allotments: what scratch_bytes(n) returns */
cudaError_t reduce_allotment(size_t n, size_t &bytes)
{
    size_t most = 0;
    KIT_TRY(reduce_need_max<uint32_t>(n, most));
    KIT_TRY(reduce_need_max<float>(n, most));
    bytes = most;
    return cudaSuccess;
}

cudaError_t scan_allotment(size_t n, size_t &bytes)
{
    size_t most = 0;
    KIT_TRY(scan_need_max<uint32_t>(n, most));
    KIT_TRY(scan_need_max<rs_affine>(n, most));
    bytes = most;
    return cudaSuccess;
}

/* scratch_bytes: the allotment, or 0 when CUB cannot answer (no error left behind) */
size_t allotment_or_zero(cudaError_t (*allotment)(size_t, size_t &), size_t n)
{
    size_t bytes = 0;
    if (allotment(n, bytes) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return bytes;
}

constexpr unsigned ALLOT_CLASS = 0x100; /* the allotment's memo key: no pointer class */

/* The two phases: the bytes (asked once per key, host only), then the run on the
 * caller's scratch, never past its allotment. */
template <class T>
cudaError_t run_sum(const T *in, T *out, size_t n, void *scratch, cudaStream_t s)
{
    static kit_bytes_memo allot_memo, need_memo;
    size_t allot = 0, need = 0;
    if (n == 0) return cudaMemsetAsync(out, 0, sizeof *out, s);
    if (scratch == NULL) return cudaErrorInvalidValue; /* CUB would take it for a size query */
    KIT_TRY(kit_memo_bytes(allot_memo, n, ALLOT_CLASS,
                           [&](size_t &b) { return reduce_allotment(n, b); }, allot));
    KIT_TRY(kit_memo_bytes(need_memo, n, kit_align_class(in, out),
                           [&](size_t &b) { return cub_sum(NULL, b, in, out, n, s); }, need));
    if (need > allot) return cudaErrorInvalidValue;
    KIT_TRY(cub_sum(scratch, allot, in, out, n, s));
    return cudaGetLastError();
}

template <class T>
cudaError_t run_scan(const T *in, T *out, size_t n, int exclusive, void *scratch, cudaStream_t s)
{
    static kit_bytes_memo allot_memo, need_memo[2]; /* need: inclusive, exclusive */
    size_t allot = 0, need = 0;
    if (n == 0) return cudaSuccess;
    if (scratch == NULL) return cudaErrorInvalidValue;
    KIT_TRY(kit_memo_bytes(allot_memo, n, ALLOT_CLASS,
                           [&](size_t &b) { return scan_allotment(n, b); }, allot));
    KIT_TRY(kit_memo_bytes(need_memo[exclusive != 0], n, kit_align_class(in, out),
                           [&](size_t &b) { return cub_scan(NULL, b, in, out, n, exclusive, s); },
                           need));
    if (need > allot) return cudaErrorInvalidValue;
    KIT_TRY(cub_scan(scratch, allot, in, out, n, exclusive, s));
    return cudaGetLastError();
}

} // namespace

extern "C" size_t rs_yard_cub_reduce_scratch(size_t n)
{
    return allotment_or_zero(reduce_allotment, n);
}

extern "C" cudaError_t rs_yard_cub_reduce_u32(const uint32_t *in, uint32_t *out, size_t n,
                                             void *scratch, cudaStream_t s)
{
    return run_sum(in, out, n, scratch, s);
}

extern "C" cudaError_t rs_yard_cub_reduce_f32(const float *in, float *out, size_t n, void *scratch,
                                             cudaStream_t s)
{
    return run_sum(in, out, n, scratch, s);
}

extern "C" size_t rs_yard_cub_scan_scratch(size_t n)
{
    return allotment_or_zero(scan_allotment, n);
}

extern "C" cudaError_t rs_yard_cub_scan_u32(const uint32_t *in, uint32_t *out, size_t n,
                                           int exclusive, void *scratch, cudaStream_t s)
{
    return run_scan(in, out, n, exclusive, scratch, s);
}

extern "C" cudaError_t rs_yard_cub_scan_affine(const rs_affine *in, rs_affine *out, size_t n,
                                              int exclusive, void *scratch, cudaStream_t s)
{
    return run_scan(in, out, n, exclusive, scratch, s);
}
