/* compact_device.cuh - what chapter 07's .cu files share (CUDA C, host and device):
 *   compact_begin     the preamble of every run: compact_check, and for n = 0 the zero count
 *   compact_dispatch  a run's mode as a compile-time constant (one kernel per mode)
 *   cp_test, cp_item  one element: is it selected, and what it writes (index or value)
 * The per-mode kernels keep the predicate and the output out of the inner loops: an
 * If step loads the value once, tests it and (value output) writes the same register; a
 * Flagged step loads one byte per element and a value only for the elements it writes. */
#ifndef COMPACT_DEVICE_CUH
#define COMPACT_DEVICE_CUH

#include <type_traits>

#include "compact.h"
#include "kit_cuda.cuh"

template <int MODE>
struct cp_mode {
    static constexpr bool flagged = (MODE & COMPACT_PRED_MASK) == COMPACT_FLAGGED;
    static constexpr bool value = (MODE & COMPACT_OUT_MASK) == COMPACT_VALUE;
};

/* f(std::integral_constant<int, MODE>) for the run's mode (checked by compact_check first) */
template <class F>
static inline cudaError_t compact_dispatch(int mode, F &&f)
{
    switch (mode) {
    case 0: return f(std::integral_constant<int, 0>{});
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    default: return cudaErrorInvalidValue;
    }
}

/* The checks of compact.h (nothing launched when they fail); n = 0 writes *count = 0 and
 * leaves *work = 0; otherwise *work = 1 and the caller runs. */
static inline cudaError_t compact_begin(const uint32_t *in, const uint8_t *flags, const uint32_t *out,
                                        uint32_t *count, size_t n, int mode, const void *scratch,
                                        cudaStream_t s, int *work)
{
    *work = 0;
    KIT_TRY(compact_check(in, flags, out, count, n, mode, scratch));
    if (n == 0) return cudaMemsetAsync(count, 0, sizeof *count, s);
    *work = 1;
    return cudaSuccess;
}

/* Is element i selected?  An If test loads in[i] into v (the value output reuses it). */
template <int MODE>
static __device__ __forceinline__ bool cp_test(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags,
                                               uint64_t threshold, size_t i, uint32_t &v)
{
    if constexpr (cp_mode<MODE>::flagged) {
        return flags[i] != 0;
    } else {
        v = in[i];
        return (uint64_t)v < threshold;
    }
}

/* What selected element i writes: its index, or its value (v from cp_test for If; a Flagged
 * step loads it here, for the selected elements only). */
template <int MODE>
static __device__ __forceinline__ uint32_t cp_item(const uint32_t *__restrict__ in, size_t i, uint32_t v)
{
    if constexpr (!cp_mode<MODE>::value) return (uint32_t)i; /* i < n <= 2^32 - 1 */
    else if constexpr (cp_mode<MODE>::flagged) return in[i];
    else return v;
}

#endif
