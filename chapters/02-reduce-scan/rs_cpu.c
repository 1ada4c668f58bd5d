/* rs_cpu.c - the serial baselines every reduce and scan step is checked
 * against, and the inputs of the float and affine types. */
#include <math.h>
#include <string.h>

#include "reduce_scan.h"

uint32_t rs_cpu_reduce_u32(const uint32_t *in, size_t n)
{
    uint32_t sum = 0; /* unsigned: wraps modulo 2^32, so any grouping gives these bits */
    size_t i;
    for (i = 0; i < n; i++) sum += in[i];
    return sum;
}

float rs_cpu_reduce_f32(const float *in, size_t n)
{
    float sum = 0.0f;
    size_t i;
    for (i = 0; i < n; i++) sum += in[i];
    return sum;
}

double rs_cpu_reduce_f64(const float *in, size_t n)
{
    double sum = 0.0;
    size_t i;
    for (i = 0; i < n; i++) sum += (double)in[i];
    return sum;
}

void rs_cpu_scan_u32(const uint32_t *in, uint32_t *out, size_t n, int exclusive)
{
    uint32_t run = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t x = in[i]; /* read first: in and out may be the same array */
        if (exclusive) out[i] = run;
        run += x;
        if (!exclusive) out[i] = run;
    }
}

void rs_cpu_scan_affine(const rs_affine *in, rs_affine *out, size_t n, int exclusive)
{
    rs_affine run = rs_affine_identity();
    size_t i;
    for (i = 0; i < n; i++) {
        rs_affine x = in[i];
        if (exclusive) out[i] = run;
        run = rs_affine_then(run, x);
        if (!exclusive) out[i] = run;
    }
}

void rs_fill_f32(float *a, size_t n, kit_pattern p, uint64_t seed)
{
    size_t i;
    if (p == KIT_LINEAR) {
        for (i = 0; i < n; i++) a[i] = (float)i;
        return;
    }
    kit_fill_u32((uint32_t *)a, n, p, seed); /* the pattern's words, converted in place */
    for (i = 0; i < n; i++) {
        uint32_t w;
        memcpy(&w, &a[i], sizeof w);
        a[i] = (float)(w >> 8) * 0x1p-24f; /* 24 bits: exact in a float, in [0, 1) */
    }
}

void rs_fill_affine(rs_affine *a, size_t n, kit_pattern p, uint64_t seed)
{
    size_t i;
    kit_fill_u32((uint32_t *)a, 2 * n, p, seed); /* (a, b) pairs: 8 bytes, no padding */
    for (i = 0; i < n; i++) a[i].a |= 1u;
}

/* A float sum of n non-negative terms evaluated along chains of at most m
 * additions is within about m * eps32 of the exact sum, relative.  Every GPU
 * step here adds along short chains: a tree (log2 n), or per-thread runs over a
 * grid of at least ~n/sqrt(n) threads followed by a tree, so m < 32 + 2 sqrt(n).
 * A serial float loop (m = n) would not pass at large n; that is the point of
 * comparing against the double-precision sum. */
double rs_f32_tolerance(size_t n)
{
    return 0x1p-24 * (32.0 + 2.0 * sqrt((double)n));
}
