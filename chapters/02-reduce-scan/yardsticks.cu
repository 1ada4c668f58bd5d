/* yardsticks.cu - chapter 02's yardsticks: what a user would call instead of
 * writing a reduce or a scan, CUB's DeviceReduce::Sum and DeviceScan.
 * Two-phase temporary storage, like every step: scratch_bytes(n) asks CUB how
 * much it needs (a host-only query), the caller allocates it outside the timed
 * region, and the run passes it back; nothing is allocated here, and the run
 * asks CUB for the bytes only once per size (kit_memo_bytes).
 * Sizes up to INT_MAX use 32-bit item counts (what most callers pass, and
 * CUB's fastest offsets); larger ones 64-bit.  The prototypes, the affine type
 * and its operator are the chapter's own. */
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

/* CUB's answer for the temporary storage, or 0 when the query fails.  bytes by reference:
 * read after the query (in bytes_or_zero(query(.., b, ..), b) a by-value b may be read first) */
size_t bytes_or_zero(cudaError_t e, const size_t &bytes)
{
    if (e != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return bytes;
}

size_t larger(size_t a, size_t b) { return a > b ? a : b; }

/* the two phases: the bytes (asked once per size, host only), then the run on
 * the caller's scratch */
template <class T>
cudaError_t run_sum(const T *in, T *out, size_t n, void *scratch, cudaStream_t s)
{
    static kit_bytes_memo memo;
    size_t bytes = 0;
    if (n == 0) return cudaMemsetAsync(out, 0, sizeof *out, s);
    KIT_TRY(kit_memo_bytes(memo, n, [&](size_t &b) { return cub_sum(NULL, b, in, out, n, s); }, bytes));
    return cub_sum(scratch, bytes, in, out, n, s);
}

template <class T>
cudaError_t run_scan(const T *in, T *out, size_t n, int exclusive, void *scratch, cudaStream_t s)
{
    static kit_bytes_memo memo[2]; /* inclusive, exclusive */
    size_t bytes = 0;
    if (n == 0) return cudaSuccess;
    KIT_TRY(kit_memo_bytes(memo[exclusive != 0], n,
                           [&](size_t &b) { return cub_scan(NULL, b, in, out, n, exclusive, s); },
                           bytes));
    return cub_scan(scratch, bytes, in, out, n, exclusive, s);
}

} // namespace

extern "C" size_t rs_yard_cub_reduce_scratch(size_t n)
{
    size_t a = 0, b = 0;
    a = bytes_or_zero(cub_sum<uint32_t>(NULL, a, NULL, NULL, n, 0), a);
    b = bytes_or_zero(cub_sum<float>(NULL, b, NULL, NULL, n, 0), b);
    return larger(a, b);
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
    size_t best = 0;
    int excl;
    for (excl = 0; excl < 2; excl++) {
        size_t a = 0, b = 0;
        a = bytes_or_zero(cub_scan<uint32_t>(NULL, a, NULL, NULL, n, excl, 0), a);
        b = bytes_or_zero(cub_scan<rs_affine>(NULL, b, NULL, NULL, n, excl, 0), b);
        best = larger(best, larger(a, b));
    }
    return best;
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
