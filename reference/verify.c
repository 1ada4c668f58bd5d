/* verify.c - compare results with the CPU reference; report the first mismatch. */
#include "kit.h"

#include <math.h>
#include <stdio.h>

cudaError_t kit_poison(void *dev, size_t bytes, cudaStream_t s)
{
    if (bytes == 0) return cudaSuccess;
    return cudaMemsetAsync(dev, KIT_POISON_BYTE, bytes, s);
}

/* One comparison loop for every element type: count mismatches and keep the first. */
#define KIT_CMP_BODY(DIFFERS, FMT, CAST)                                               \
    size_t i, first = 0, bad = 0;                                                      \
    for (i = 0; i < n; i++)                                                            \
        if (DIFFERS) {                                                                 \
            if (!bad) first = i;                                                       \
            bad++;                                                                     \
        }                                                                              \
    if (!bad) return 1;                                                                \
    if (msg && len)                                                                    \
        snprintf(msg, len, "first mismatch at %zu: got " FMT ", want " FMT             \
                 " (%zu of %zu differ)", first, CAST got[first], CAST want[first], bad, n); \
    return 0;

int kit_cmp_u32(const uint32_t *got, const uint32_t *want, size_t n, char *msg, size_t len)
{
    KIT_CMP_BODY(got[i] != want[i], "0x%08x", (unsigned))
}

int kit_cmp_u8(const uint8_t *got, const uint8_t *want, size_t n, char *msg, size_t len)
{
    KIT_CMP_BODY(got[i] != want[i], "%u", (unsigned))
}

static int f32_differs(float g, float w, double tol)
{
    double scale = fabs((double)w) > 1.0 ? fabs((double)w) : 1.0;
    if (isnan(g) || isnan(w)) return 1;
    return fabs((double)g - (double)w) > tol * scale;
}

int kit_cmp_f32(const float *got, const float *want, size_t n, double tol, char *msg,
                size_t len)
{
    KIT_CMP_BODY(f32_differs(got[i], want[i], tol), "%.9g", (double))
}

int kit_all_poison_u32(const uint32_t *a, size_t n, char *msg, size_t len)
{
    const uint32_t p = 0x01010101u * KIT_POISON_BYTE;
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != p) {
            if (msg && len)
                snprintf(msg, len, "word %zu outside the range was written (0x%08x)", i,
                         (unsigned)a[i]);
            return 0;
        }
    return 1;
}
