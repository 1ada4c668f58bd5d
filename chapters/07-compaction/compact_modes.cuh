/* compact_modes.cuh - what the order-keeping chapter-07 steps (s4, s5, the single pass and its
 * partition and unique) share on the host and in scalar device code: the predicate of each mode,
 * the run-time mode -> template dispatch, the common preamble of a run, scratch carving.
 *
 * The IF predicate x < threshold (threshold 64-bit, 0 .. 2^32) is evaluated as one 32-bit
 * comparison x <= lim, and-ed with `any` (0 when threshold == 0, which selects nothing):
 * lim = min(threshold - 1, 2^32 - 1).  So no kernel needs a 64-bit compare per element. */
#ifndef COMPACT_MODES_CUH
#define COMPACT_MODES_CUH

#include <stdint.h>

#include <type_traits>

#include "compact.h"
#include "kit_cuda.cuh"

/* ------------------------------------------------------------------ host */

/* the IF predicate as (x <= *lim) && *any */
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

/* The preamble of every run: the contract checks, then n == 0 writes *count = 0 and ends
 * the run (*work = 0). */
static inline cudaError_t cm_begin(const uint32_t *in, const uint8_t *flags, const uint32_t *out,
                                   uint32_t *count, size_t n, int mode, const void *scratch, cudaStream_t s,
                                   int *work)
{
    *work = 0;
    KIT_TRY(compact_check(in, flags, out, count, n, mode, scratch));
    if (n == 0) return cudaMemsetAsync(count, 0, sizeof(uint32_t), s);
    *work = 1;
    return cudaSuccess;
}

/* run-time mode -> f(std::integral_constant<int, MODE>()), one instantiation per mode */
template <class F>
static inline cudaError_t cm_on_mode(int mode, F &&f)
{
    switch (mode) {
    case COMPACT_IF | COMPACT_INDEX: return f(std::integral_constant<int, COMPACT_IF | COMPACT_INDEX>());
    case COMPACT_IF | COMPACT_VALUE: return f(std::integral_constant<int, COMPACT_IF | COMPACT_VALUE>());
    case COMPACT_FLAGGED | COMPACT_INDEX:
        return f(std::integral_constant<int, COMPACT_FLAGGED | COMPACT_INDEX>());
    case COMPACT_FLAGGED | COMPACT_VALUE:
        return f(std::integral_constant<int, COMPACT_FLAGGED | COMPACT_VALUE>());
    }
    return cudaErrorInvalidValue;
}

/* ---------------------------------------------------------------- device */

template <int MODE>
struct cm_mode {
    static constexpr bool flagged = (MODE & COMPACT_PRED_MASK) == COMPACT_FLAGGED;
    static constexpr bool value_out = (MODE & COMPACT_OUT_MASK) == COMPACT_VALUE;
};

/* Is element i selected?  Reads in[i] (IF) or flags[i] (FLAGGED) only. */
template <int MODE>
static __device__ __forceinline__ bool cm_selected(const uint32_t *__restrict__ in,
                                                   const uint8_t *__restrict__ flags, size_t i, unsigned lim,
                                                   unsigned any)
{
    if constexpr (cm_mode<MODE>::flagged) return __ldg(flags + i) != 0;
    else return (__ldg(in + i) <= lim) & (any != 0);
}

/* What a selected element i writes: its value or its index (< 2^32: n <= COMPACT_MAX_N). */
template <int MODE>
static __device__ __forceinline__ uint32_t cm_output(const uint32_t *__restrict__ in, size_t i)
{
    if constexpr (cm_mode<MODE>::value_out) return __ldg(in + i);
    else return (uint32_t)i;
}

#endif
