/* compact_device.cuh - what chapter 07's .cu files share (CUDA C, host and device):
 *   compact_begin     the preamble of every run: compact_check, and for n = 0 the zero count
 *   compact_unique_begin  the same for a unique run (compact_check_unique)
 *   compact_phase_begin  the same for one phase of s3 or s4 (the phase breakdown)
 *   compact_dispatch  a run's mode as a compile-time constant (one kernel per mode)
 *   cp_test, cp_item  one element: is it selected, and what it writes (index or value)
 *   cm_if_limit, cm_selected, cm_output  the same with the If test as one 32-bit compare
 *                     (the order-keeping steps from s4 on)
 *   cm_carve, cm_take  consecutive 256-byte-aligned pieces of the scratch
 * The per-mode kernels keep the predicate and the output out of the inner loops: an
 * If step loads the value once, tests it and (value output) writes the same register; a
 * Flagged step loads one byte per element and a value only for the elements it writes. */
#ifndef COMPACT_DEVICE_CUH
#define COMPACT_DEVICE_CUH

#include <stdint.h>

#include <type_traits>

#include "compact.h"
#include "kit_cuda.cuh"

/* The IF predicate as a 32-bit compare (cm_if_limit, cm_selected): x < threshold (64-bit,
 * 0 .. 2^32) is x <= lim and-ed with `any` (0 when threshold == 0, which selects nothing),
 * lim = min(threshold - 1, 2^32 - 1): no kernel needs a 64-bit compare per element. */
static inline void cm_if_limit(uint64_t threshold, unsigned *lim, unsigned *any)
{
    *any = threshold != 0;
    *lim = threshold == 0 ? 0u : threshold > 0xFFFFFFFFull ? 0xFFFFFFFFu : (unsigned)(threshold - 1);
}

static inline size_t cm_round256(size_t b) { return (b + 255) & ~(size_t)255; }

/* consecutive 256-byte-aligned pieces of the scratch */
struct cm_carve {
    char *base;
    size_t used;
};
static inline void *cm_take(cm_carve *c, size_t bytes)
{
    void *p = c->base + c->used;
    c->used += cm_round256(bytes);
    return p;
}

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
static inline cudaError_t compact_start(cudaError_t checked, uint32_t *count, size_t n, cudaStream_t s,
                                        int *work)
{
    *work = 0;
    KIT_TRY(checked);
    if (n == 0) return cudaMemsetAsync(count, 0, sizeof *count, s);
    *work = 1;
    return cudaSuccess;
}

static inline cudaError_t compact_begin(const uint32_t *in, const uint8_t *flags, const uint32_t *out,
                                        uint32_t *count, size_t n, int mode, const void *scratch,
                                        cudaStream_t s, int *work)
{
    return compact_start(compact_check(in, flags, out, count, n, mode, scratch), count, n, s, work);
}

/* The same for a unique run (no predicate: any mode 0 .. 3, flags never read); the caller then
 * runs with mode & COMPACT_OUT_MASK. */
static inline cudaError_t compact_unique_begin(const uint32_t *in, const uint32_t *out, uint32_t *count, size_t n,
                                               int mode, const void *scratch, cudaStream_t s, int *work)
{
    return compact_start(compact_check_unique(in, out, count, n, mode, scratch), count, n, s, work);
}

/* the preamble of one phase of a multi-kernel step (compact.h's phase breakdown): the phase number
 * checked, then compact_begin */
static inline cudaError_t compact_phase_begin(int phase, const uint32_t *in, const uint8_t *flags, const uint32_t *out,
                                              uint32_t *count, size_t n, int mode, const void *scratch,
                                              cudaStream_t s, int *work)
{
    *work = 0;
    if (phase < 0 || phase >= COMPACT_NPHASES) return cudaErrorInvalidValue;
    return compact_begin(in, flags, out, count, n, mode, scratch, s, work);
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

/* Is element i selected?  Reads in[i] (IF) or flags[i] (FLAGGED) only. */
template <int MODE>
static __device__ __forceinline__ bool cm_selected(const uint32_t *__restrict__ in,
                                                   const uint8_t *__restrict__ flags, size_t i, unsigned lim,
                                                   unsigned any)
{
    if constexpr (cp_mode<MODE>::flagged) return __ldg(flags + i) != 0;
    else return (__ldg(in + i) <= lim) & (any != 0);
}

/* What a selected element i writes: its value or its index (< 2^32: n <= COMPACT_MAX_N). */
template <int MODE>
static __device__ __forceinline__ uint32_t cm_output(const uint32_t *__restrict__ in, size_t i)
{
    if constexpr (cp_mode<MODE>::value) return __ldg(in + i);
    else return (uint32_t)i;
}

#endif
