/* yardsticks.cu - chapter 07's yardsticks, declared in compact.h, in every mode of the API:
 *   cub_select      cub::DeviceSelect::If (in[i] < threshold) or ::Flagged (the byte flags);
 *                   for indices, the input is a counting iterator and the predicate (If)
 *                   reads in[i] through it;
 *   thrust_copy_if  thrust::copy_if as a user writes it: values with a predicate, or with the
 *                   flags as stencil; indices from a counting iterator with in (If) or the
 *                   flags as stencil.  Unlike every other entry of the chapter, it allocates
 *                   and synchronizes (compact.h): Thrust gets its temporary storage with
 *                   cudaMalloc and frees it with cudaFree (kit_thrust.cuh's allocator: a fault is
 *                   returned, not thrown where it ends the process), synchronizes the stream, copies the
 *                   count back to the host (it returns the output's end); scratch_bytes is 0,
 *                   and a one-thread kernel then stores the count on the stream;
 *   cub_partition   cub::DevicePartition::If / ::Flagged (rejected elements in reverse order
 *                   from the end, as compact.h's partition);
 *   cub_unique      cub::DeviceSelect::Unique for values; for indices DeviceSelect::If over a
 *                   counting iterator with the predicate i == 0 || in[i] != in[i - 1] (CUB
 *                   has no unique that returns positions).
 * All take num_items as a 64-bit count, so n up to COMPACT_MAX_N.
 * Scratch (CUB): scratch_bytes(n) is the largest of CUB's size queries over the modes and
 * over pointer classes (kit_query_max); a run asks what its own call needs (memoized per
 * mode, size and alignment class, so no timed run pays for the query), refuses with
 * cudaErrorInvalidValue when that is more, and passes the allotment as temp_storage_bytes so
 * that CUB's own check guards it too. */
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include "kit_thrust.cuh"

#include "compact_device.cuh"

typedef thrust::counting_iterator<uint32_t> index_iter;

struct below {
    uint64_t threshold;
    __host__ __device__ bool operator()(uint32_t v) const { return (uint64_t)v < threshold; }
};
struct index_below {
    const uint32_t *in;
    uint64_t threshold;
    __device__ bool operator()(uint32_t i) const { return (uint64_t)in[i] < threshold; }
};
struct nonzero {
    __host__ __device__ bool operator()(uint8_t f) const { return f != 0; }
};
struct index_differs {
    const uint32_t *in;
    __device__ bool operator()(uint32_t i) const { return i == 0 || in[i] != in[i - 1]; }
};

/* the count of a Thrust run, stored in stream order */
static __global__ void store_count(uint32_t *count, uint32_t c) { *count = c; }

/* ---------------------------------------------------------- the CUB calls */

enum { YARD_SELECT = 0, YARD_PARTITION = 1, YARD_UNIQUE = 2 };

template <int WHAT, int MODE>
static cudaError_t cub_call(void *tmp, size_t &bytes, const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                            uint32_t *out, uint32_t *count, size_t n, cudaStream_t s)
{
    constexpr bool flagged = cp_mode<MODE>::flagged, value = cp_mode<MODE>::value;
    const int64_t m = (int64_t)n;
    if constexpr (WHAT == YARD_UNIQUE) {
        if constexpr (value) return cub::DeviceSelect::Unique(tmp, bytes, in, out, count, m, s);
        else return cub::DeviceSelect::If(tmp, bytes, index_iter(0), out, count, m, index_differs{in}, s);
    } else if constexpr (WHAT == YARD_PARTITION) {
        if constexpr (flagged && value) return cub::DevicePartition::Flagged(tmp, bytes, in, flags, out, count, m, s);
        else if constexpr (flagged)
            return cub::DevicePartition::Flagged(tmp, bytes, index_iter(0), flags, out, count, m, s);
        else if constexpr (value) return cub::DevicePartition::If(tmp, bytes, in, out, count, m, below{threshold}, s);
        else
            return cub::DevicePartition::If(tmp, bytes, index_iter(0), out, count, m, index_below{in, threshold}, s);
    } else {
        if constexpr (flagged && value) return cub::DeviceSelect::Flagged(tmp, bytes, in, flags, out, count, m, s);
        else if constexpr (flagged) return cub::DeviceSelect::Flagged(tmp, bytes, index_iter(0), flags, out, count, m, s);
        else if constexpr (value) return cub::DeviceSelect::If(tmp, bytes, in, out, count, m, below{threshold}, s);
        else return cub::DeviceSelect::If(tmp, bytes, index_iter(0), out, count, m, index_below{in, threshold}, s);
    }
}

template <int WHAT>
static cudaError_t cub_any(void *tmp, size_t &bytes, const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                           uint32_t *out, uint32_t *count, size_t n, int mode, cudaStream_t s)
{
    return compact_dispatch(mode, [&](auto m) {
        return cub_call<WHAT, decltype(m)::value>(tmp, bytes, in, flags, threshold, out, count, n, s);
    });
}

/* the largest size query over the modes the yardstick takes and the pointer classes */
template <int WHAT>
static cudaError_t cub_allotment(size_t n, size_t &most)
{
    most = 0;
    for (int mode = 0; mode <= COMPACT_MODE_MAX; mode++) {
        if (WHAT == YARD_UNIQUE && (mode & COMPACT_PRED_MASK)) continue;
        KIT_TRY(kit_query_max(
            [&](int c, size_t &b) {
                return cub_any<WHAT>(NULL, b, kit_query_ptr<const uint32_t>(c, 0), kit_query_ptr<const uint8_t>(c, 0),
                                     COMPACT_THRESHOLD, kit_query_ptr<uint32_t>(c, 1), kit_query_ptr<uint32_t>(c, 1),
                                     n, mode, 0);
            },
            most));
    }
    return cudaSuccess;
}

template <int WHAT>
static size_t cub_scratch(size_t n)
{
    size_t bytes = 0;
    if (n == 0 || n > COMPACT_MAX_N) return 0;
    if (cub_allotment<WHAT>(n, bytes) != cudaSuccess) {
        cudaGetLastError(); /* no error left behind for the caller */
        return 0;
    }
    return bytes;
}

/* The run: checks, then CUB with the allotment.  Unique ignores the predicate bit of the
 * mode (and the flags and threshold). */
template <int WHAT>
static cudaError_t cub_run(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out, uint32_t *count,
                           size_t n, int mode, void *scratch, cudaStream_t s)
{
    static kit_bytes_memo allot_memo, need_memo[COMPACT_MODE_MAX + 1];
    size_t allot = 0, need = 0;
    int work;
    if (WHAT == YARD_UNIQUE) {
        KIT_TRY(compact_unique_begin(in, out, count, n, mode, scratch, s, &work));
        mode &= COMPACT_OUT_MASK;
        flags = NULL;
    } else {
        KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    }
    if (!work) return cudaSuccess;
    if (scratch == NULL) return cudaErrorInvalidValue; /* CUB would take it for a size query */
    KIT_TRY(kit_memo_bytes(allot_memo, n, 0x100u, [&](size_t &b) { return cub_allotment<WHAT>(n, b); }, allot));
    const unsigned cls = kit_align_class(in, out) | kit_align_class(flags, count) << 8;
    KIT_TRY(kit_memo_bytes(need_memo[mode], n, cls,
                           [&](size_t &b) { return cub_any<WHAT>(NULL, b, in, flags, threshold, out, count, n, mode, s); },
                           need));
    if (need > allot) return cudaErrorInvalidValue;
    KIT_TRY(cub_any<WHAT>(scratch, allot, in, flags, threshold, out, count, n, mode, s));
    return cudaGetLastError();
}

extern "C" size_t compact_yard_cub_select_scratch(size_t n) { return cub_scratch<YARD_SELECT>(n); }
extern "C" cudaError_t compact_yard_cub_select(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                               uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                               cudaStream_t s)
{
    return cub_run<YARD_SELECT>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" size_t compact_yard_cub_partition_scratch(size_t n) { return cub_scratch<YARD_PARTITION>(n); }
extern "C" cudaError_t compact_yard_cub_partition(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                                  uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                                  cudaStream_t s)
{
    return cub_run<YARD_PARTITION>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" size_t compact_yard_cub_unique_scratch(size_t n) { return cub_scratch<YARD_UNIQUE>(n); }
extern "C" cudaError_t compact_yard_cub_unique(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                               uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                               cudaStream_t s)
{
    return cub_run<YARD_UNIQUE>(in, flags, threshold, out, count, n, mode, scratch, s);
}

/* ---------------------------------------------------------------- Thrust */

template <int MODE>
static cudaError_t thrust_call(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                               uint32_t *count, size_t n, cudaStream_t s)
{
    constexpr bool flagged = cp_mode<MODE>::flagged, value = cp_mode<MODE>::value;
    const index_iter first(0);
    uint32_t *end = out;
    kit_thrust t; /* Thrust's errors returned, none thrown (kit_thrust.cuh) */
    KIT_TRY(t.run([&] {
        const auto pol = t.on(s);
        if constexpr (flagged && value) end = thrust::copy_if(pol, in, in + n, flags, out, nonzero{});
        else if constexpr (flagged) end = thrust::copy_if(pol, first, first + n, flags, out, nonzero{});
        else if constexpr (value) end = thrust::copy_if(pol, in, in + n, out, below{threshold});
        else end = thrust::copy_if(pol, first, first + n, in, out, below{threshold}); /* in as the stencil */
    }));
    store_count<<<1, 1, 0, s>>>(count, (uint32_t)(end - out));
    return cudaGetLastError();
}

extern "C" size_t compact_yard_thrust_copy_if_scratch(size_t n)
{
    (void)n;
    return 0;
}

extern "C" cudaError_t compact_yard_thrust_copy_if(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                                   uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                                   cudaStream_t s)
{
    int work;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    return compact_dispatch(mode, [&](auto m) {
        return thrust_call<decltype(m)::value>(in, flags, threshold, out, count, n, s);
    });
}
