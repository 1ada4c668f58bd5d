/* verify.c - compare results with the CPU reference; report the first mismatch. */
#include "kit.h"
#include "kit_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- ascending sort of words, for multiset comparisons of outputs whose order is free:
 * LSD radix with three 11-bit digits; each pass cut into up to 16 chunks that count their
 * digits and then distribute them in parallel (kit_host_parallel), the chunks' counts
 * scanned in (digit, chunk) order, so a chunk's keys of one digit follow the earlier chunks'. */

typedef struct sort_pass {
    const uint32_t *src;
    uint32_t *dst;
    size_t n;
    int shift;
    size_t (*cnt)[2048]; /* per chunk: digit counts, then the digits' next free slots */
} sort_pass;

static void sort_count(void *arg, int k, int parts)
{
    const sort_pass *p = (const sort_pass *)arg;
    size_t i, *cnt = p->cnt[k];
    const size_t hi = kit_part_start(p->n, k + 1, parts);
    for (i = kit_part_start(p->n, k, parts); i < hi; i++) cnt[(p->src[i] >> p->shift) & 0x7FFu]++;
}

static void sort_move(void *arg, int k, int parts)
{
    const sort_pass *p = (const sort_pass *)arg;
    size_t i, *next = p->cnt[k];
    const size_t hi = kit_part_start(p->n, k + 1, parts);
    for (i = kit_part_start(p->n, k, parts); i < hi; i++) p->dst[next[(p->src[i] >> p->shift) & 0x7FFu]++] = p->src[i];
}

int kit_sort_u32(uint32_t *a, uint32_t *tmp, size_t n)
{
    const int parts = kit_host_parts(n);
    size_t (*cnt)[2048] = (size_t(*)[2048])malloc((size_t)parts * sizeof *cnt);
    sort_pass p;
    int pass;
    if (!cnt) return -1;
    p.n = n;
    p.cnt = cnt;
    for (pass = 0; pass < 3; pass++) {
        p.shift = 11 * pass;
        p.src = (pass & 1) ? tmp : a;
        p.dst = (pass & 1) ? a : tmp;
        memset(cnt, 0, (size_t)parts * sizeof *cnt);
        kit_host_parallel(sort_count, &p, parts);
        kit_part_offsets(&cnt[0][0], 2048, parts);
        kit_host_parallel(sort_move, &p, parts);
    }
    free(cnt);
    if (n) memcpy(a, tmp, n * sizeof *a); /* three passes: the result is in tmp */
    return 0;
}
