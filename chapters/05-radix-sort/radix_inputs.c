/* radix_inputs.c - chapter 05's named inputs.  Keys are generated as images (radix.h) and
 * turned into the key type's own bits, so "sorted", "0..255" and the rest mean the same
 * in every type's order; values are the input index, so a stable sort's values are known. */
#include <math.h>
#include <string.h>

#include "radix.h"
#include "radix_problem.h"

const kit_input radix_inputs[RADIX_NINPUTS] = {
    {"uniform", "uniform over all bit patterns", RADIX_IN_UNIFORM, 0},
    {"range-256", "uniform in the 256 smallest images (one effective 8-bit digit)", RADIX_IN_RANGE8, 0},
    {"range-64k", "uniform in the 65536 smallest images (two effective digits)", RADIX_IN_RANGE16, 0},
    {"identical", "every key the same (Merrill's 550 M pairs/s case)", RADIX_IN_IDENTICAL, 0},
    {"sorted", "ascending in the key type's order, with repeats", RADIX_IN_SORTED, 0},
    {"reverse", "descending in the key type's order", RADIX_IN_REVERSE, 0},
    {"low-entropy", "AND of three uniform words: each bit 1 with probability 1/8", RADIX_IN_LOWENT, 0},
    {"f32-normal", "normal floats with -0.0, +0.0, +-inf and NaNs of both signs mixed in",
     RADIX_IN_FNORMAL, 0},
    {"gaps", "uniform in the image's even bytes, its odd bytes zero (constant digits between others)",
     RADIX_IN_GAPS, 0},
    {"top-twins",
     "uniform, the image's second byte from the top a copy of its top byte (256 groups of equal top halves)",
     RADIX_IN_TWINS, 0},
};

/* a standard normal deviate (Box-Muller) */
static double normal(uint64_t *st)
{
    const double u1 = ((double)(kit_rand64(st) >> 11) + 1.0) / 9007199254740993.0;
    const double u2 = (double)(kit_rand64(st) >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* the image of key i (as many bits as the key has) */
static uint64_t image_of(int kind, size_t i, size_t n, int bits, uint64_t *st, uint64_t same)
{
    const uint64_t top = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
    uint64_t r = kit_rand64(st) & top;
    switch ((radix_input_kind)kind) {
    case RADIX_IN_RANGE8: return r & 0xFF;
    case RADIX_IN_RANGE16: return r & 0xFFFF;
    case RADIX_IN_IDENTICAL: return same & top;
    case RADIX_IN_SORTED:
    case RADIX_IN_REVERSE: {
        /* a ramp over the whole range in steps of about 2^bits / n, with ties: i / 2 */
        const size_t k = kind == RADIX_IN_SORTED ? i / 2 : (n - 1 - i) / 2;
        const double step = (bits == 64 ? 18446744073709551615.0 : (double)top) / (double)(n / 2 + 1);
        return (uint64_t)((double)k * step);
    }
    case RADIX_IN_LOWENT: return r & kit_rand64(st) & kit_rand64(st) & top;
    case RADIX_IN_GAPS: return r & 0x00FF00FF00FF00FFull;
    case RADIX_IN_TWINS: {
        const int hi = bits - 8, lo = bits - 16;
        return (r & ~((uint64_t)0xFF << lo)) | ((r >> hi) & 0xFF) << lo;
    }
    default: return r;
    }
}

static uint32_t fnormal_bits(uint64_t *st)
{
    static const uint32_t special[] = {0x80000000u /* -0.0 */, 0x00000000u /* +0.0 */,
                                       0x7F800000u /* +inf */, 0xFF800000u /* -inf */,
                                       0x7FC00000u /* NaN */,  0xFFC00001u /* -NaN */};
    const uint64_t r = kit_rand64(st);
    float f;
    uint32_t u;
    if ((r & 63) == 0) return special[(r >> 6) % 6]; /* about 1.6% specials */
    f = (float)normal(st);
    memcpy(&u, &f, 4);
    return u;
}

void radix_fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                uint64_t seed)
{
    const radix_problem_arg *a = (const radix_problem_arg *)P->arg;
    const int type = radix_shape_type(P, sh);
    const int kind = in->arg;
    const size_t n = sh->n;
    uint64_t st = seed * 0x9E3779B97F4A7C15ull + 12345u;
    const uint64_t same = kit_rand64(&st);
    size_t i;
    if (a->key_bytes == 8) {
        uint64_t *k = (uint64_t *)h->buf[RADIX_BUF_KEYS];
        for (i = 0; i < n; i++)
            k[i] = kind == RADIX_IN_FNORMAL ? (uint64_t)fnormal_bits(&st) << 32 | fnormal_bits(&st)
                                            : image_of(kind, i, n, 64, &st, same);
    } else {
        uint32_t *k = (uint32_t *)h->buf[RADIX_BUF_KEYS];
        for (i = 0; i < n; i++)
            k[i] = kind == RADIX_IN_FNORMAL ? fnormal_bits(&st)
                                            : radix_unimage32((uint32_t)image_of(kind, i, n, 32, &st, same),
                                                              type);
    }
    if (radix_shape_pairs(P, sh)) {
        uint32_t *v = (uint32_t *)h->buf[RADIX_BUF_VALS];
        for (i = 0; i < n; i++) v[i] = (uint32_t)i;
    }
}
