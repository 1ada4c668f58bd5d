/* inputs.c - seeded, reproducible input generators shared by every chapter. */
#include "kit.h"

#include <stdlib.h>
#include <string.h>

static const char *const g_names[KIT_PATTERN_COUNT] = {
    "uniform", "zeros", "linear", "low-entropy", "identical",
    "sorted",  "reverse", "few-unique", "alternating",
};

/* index of name in names[0..count), or -1  */
static int name_index(const char *const *names, int count, const char *name)
{
    int i;
    for (i = 0; name && i < count; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

const char *kit_pattern_name(kit_pattern p)
{
    return (unsigned)p < KIT_PATTERN_COUNT ? g_names[p] : "?";
}

int kit_pattern_parse(const char *name, kit_pattern *p)
{
    const int i = name_index(g_names, KIT_PATTERN_COUNT, name);
    if (i < 0) return 0;
    *p = (kit_pattern)i;
    return 1;
}

uint64_t kit_rand64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void kit_fill_u32(uint32_t *a, size_t n, kit_pattern p, uint64_t seed)
{
    uint64_t st = seed;
    size_t i;
    switch (p) {
    case KIT_ZEROS:
        memset(a, 0, n * sizeof *a);
        break;
    case KIT_LINEAR:
        for (i = 0; i < n; i++) a[i] = (uint32_t)i;
        break;
    case KIT_LOW_ENTROPY:
        for (i = 0; i < n; i++)
            a[i] = (uint32_t)(kit_rand64(&st) & kit_rand64(&st) & kit_rand64(&st));
        break;
    case KIT_IDENTICAL: {
        uint32_t v = (uint32_t)kit_rand64(&st);
        for (i = 0; i < n; i++) a[i] = v;
        break;
    }
    case KIT_SORTED:
    case KIT_REVERSE: {
        /* a random walk with small non-negative steps spans the word range */
        uint32_t v = 0, step = n ? (uint32_t)(0xFFFFFFFFull / (n + 1)) : 1;
        if (step == 0) step = 1;
        for (i = 0; i < n; i++) {
            v += (uint32_t)(kit_rand64(&st) % (2ull * step + 1)) / 2u;
            a[p == KIT_SORTED ? i : n - 1 - i] = v;
        }
        break;
    }
    case KIT_FEW_UNIQUE: {
        uint32_t pool[16];
        for (i = 0; i < 16; i++) pool[i] = (uint32_t)kit_rand64(&st);
        for (i = 0; i < n; i++) a[i] = pool[kit_rand64(&st) & 15u];
        break;
    }
    case KIT_ALTERNATING:
        for (i = 0; i < n; i++) a[i] = (i & 1) ? 0xFFFFFFFFu : 0u;
        break;
    case KIT_UNIFORM:
    default:
        for (i = 0; i + 1 < n; i += 2) {
            uint64_t r = kit_rand64(&st);
            a[i] = (uint32_t)r;
            a[i + 1] = (uint32_t)(r >> 32);
        }
        if (i < n) a[i] = (uint32_t)kit_rand64(&st);
        break;
    }
}

void kit_permutation(uint32_t *perm, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    size_t i;
    for (i = 0; i < n; i++) perm[i] = (uint32_t)i;
    for (i = n; i > 1; i--) {
        size_t j = (size_t)(kit_rand64(&st) % i);
        uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

/* ------------------------------------------------------------ byte inputs */

/* the 8 bytes of a 64-bit value, least significant first (n < 8: the first n) */
static void put8(uint8_t *a, size_t n, uint64_t r)
{
    size_t k;
    if (n >= 8) { /* constant shifts: the compiler makes this one 8-byte store */
        a[0] = (uint8_t)r;
        a[1] = (uint8_t)(r >> 8);
        a[2] = (uint8_t)(r >> 16);
        a[3] = (uint8_t)(r >> 24);
        a[4] = (uint8_t)(r >> 32);
        a[5] = (uint8_t)(r >> 40);
        a[6] = (uint8_t)(r >> 48);
        a[7] = (uint8_t)(r >> 56);
        return;
    }
    for (k = 0; k < n; k++) a[k] = (uint8_t)(r >> (8 * k));
}

void kit_fill_u8(uint8_t *a, size_t n, kit_pattern p, uint64_t seed)
{
    uint64_t st = seed;
    size_t i;
    switch (p) {
    case KIT_ZEROS:
        memset(a, 0, n);
        break;
    case KIT_LINEAR:
        for (i = 0; i < n; i++) a[i] = (uint8_t)i;
        break;
    case KIT_LOW_ENTROPY:
        for (i = 0; i < n; i += 8)
            put8(a + i, n - i, kit_rand64(&st) & kit_rand64(&st) & kit_rand64(&st));
        break;
    case KIT_IDENTICAL:
        memset(a, (int)(kit_rand64(&st) & 0xFF), n);
        break;
    case KIT_SORTED:
    case KIT_REVERSE:
        for (i = 0; i < n; i++) {
            uint8_t v = (uint8_t)(((uint64_t)i * 256u) / n);
            a[i] = p == KIT_SORTED ? v : (uint8_t)(255u - v);
        }
        break;
    case KIT_FEW_UNIQUE: {
        uint8_t pool[16];
        uint64_t r = 0;
        for (i = 0; i < 16; i++) pool[i] = (uint8_t)kit_rand64(&st);
        for (i = 0; i < n; i++) {
            if (i % 16 == 0) r = kit_rand64(&st);
            a[i] = pool[r & 15u];
            r >>= 4;
        }
        break;
    }
    case KIT_ALTERNATING:
        for (i = 0; i < n; i++) a[i] = (i & 1) ? 0xFF : 0x00;
        break;
    case KIT_UNIFORM:
    default:
        for (i = 0; i < n; i += 8) put8(a + i, n - i, kit_rand64(&st));
        break;
    }
}
