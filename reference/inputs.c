/* inputs.c - seeded, reproducible input generators shared by every chapter. */
#include "kit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const g_names[KIT_PATTERN_COUNT] = {
    "uniform", "zeros", "linear", "low-entropy", "identical",
    "sorted",  "reverse", "few-unique", "alternating",
};

/* index of name in names[0..count), or -1 (patterns and image kinds) */
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

/* ---------------------------------------------------------------- images */

static const char *const g_image_names[KIT_IMAGE_COUNT] = {
    "image-gradient", "image-dark", "image-rgba0",
};

const char *kit_image_name(kit_image k)
{
    return (unsigned)k < KIT_IMAGE_COUNT ? g_image_names[k] : "?";
}

int kit_image_parse(const char *name, kit_image *k)
{
    const int i = name_index(g_image_names, KIT_IMAGE_COUNT, name);
    if (i < 0) return 0;
    *k = (kit_image)i;
    return 1;
}

#define IMG_GREY_SIDE 1024 /* grey base image: 1024 x 1024 pixels */
#define IMG_RGBA_SIDE 512  /* RGBA base image: 512 x 512 pixels of 4 bytes */

/* roughly Gaussian noise of standard deviation sigma: the centred sum of four
 * random bytes (standard deviation 147.8) scaled */
static double img_noise(uint64_t *st, double sigma)
{
    uint64_t r = kit_rand64(st);
    double s = (double)(r & 0xFF) + (double)((r >> 8) & 0xFF) + (double)((r >> 16) & 0xFF) +
               (double)((r >> 24) & 0xFF) - 510.0;
    return s * (sigma / 147.8);
}

static uint8_t img_clamp(double v)
{
    return v <= 0.0 ? 0 : v >= 255.0 ? 255 : (uint8_t)(v + 0.5);
}

/* Every transcendental term is separable in x and y, so the base costs a few
 * table lookups per pixel. */
static void img_gradient(uint8_t *img, int side, uint64_t *st)
{
    const double tau = 6.283185307179586;
    double *sx = malloc(sizeof(double) * side), *cx = malloc(sizeof(double) * side);
    double *sy = malloc(sizeof(double) * side), *cy = malloc(sizeof(double) * side);
    double *wy = malloc(sizeof(double) * side);
    int x, y;
    if (!sx || !cx || !sy || !cy || !wy) {
        memset(img, 128, (size_t)side * side);
    } else {
        for (x = 0; x < side; x++) {
            double u = (double)x / side;
            sx[x] = sin(tau * 1.5 * u);
            cx[x] = cos(tau * 1.5 * u);
        }
        for (y = 0; y < side; y++) {
            double v = (double)y / side;
            sy[y] = sin(tau * 0.5 * v);
            cy[y] = cos(tau * 0.5 * v);
            wy[y] = cos(tau * 1.2 * v);
        }
        for (y = 0; y < side; y++)
            for (x = 0; x < side; x++) {
                double u = (double)x / side, v = (double)y / side;
                /* sin(a x + b y) cos(c y): soft diagonal bands over a ramp */
                double shade = (sx[x] * cy[y] + cx[x] * sy[y]) * wy[y];
                img[(size_t)y * side + x] =
                    img_clamp(30.0 + 190.0 * (0.55 * u + 0.45 * v) + 18.0 * shade + img_noise(st, 3.0));
            }
    }
    free(sx);
    free(cx);
    free(sy);
    free(cy);
    free(wy);
}

static void img_dark(uint8_t *img, int side, uint64_t *st)
{
    enum { BLOBS = 4 };
    double *gx = malloc(sizeof(double) * side * BLOBS), *gy = malloc(sizeof(double) * side * BLOBS);
    double amp[BLOBS];
    int x, y, k;
    if (!gx || !gy) {
        memset(img, 8, (size_t)side * side);
    } else {
        for (k = 0; k < BLOBS; k++) {
            /* centre, radius and brightness of blob k, from the seed */
            double cxk = side * (0.2 + 0.6 * (double)(kit_rand64(st) % 1000) / 1000.0);
            double cyk = side * (0.2 + 0.6 * (double)(kit_rand64(st) % 1000) / 1000.0);
            double r = side * (0.03 + 0.05 * (double)(kit_rand64(st) % 1000) / 1000.0);
            amp[k] = 110.0 + (double)(kit_rand64(st) % 90);
            for (x = 0; x < side; x++) gx[k * side + x] = exp(-(x - cxk) * (x - cxk) / (2.0 * r * r));
            for (y = 0; y < side; y++) gy[k * side + y] = exp(-(y - cyk) * (y - cyk) / (2.0 * r * r));
        }
        for (y = 0; y < side; y++)
            for (x = 0; x < side; x++) {
                double v = 7.0, b = 0.0;
                for (k = 0; k < BLOBS; k++) b += amp[k] * gx[k * side + x] * gy[k * side + y];
                v += b + img_noise(st, 2.0 + 0.03 * b); /* noisier where it is bright */
                img[(size_t)y * side + x] = img_clamp(v);
            }
    }
    free(gx);
    free(gy);
}

static void img_rgba0(uint8_t *img, int side, uint64_t *st)
{
    const double tau = 6.283185307179586;
    double *sx = malloc(sizeof(double) * side);
    int x, y;
    if (!sx) {
        memset(img, 0, (size_t)side * side * 4);
        return;
    }
    for (x = 0; x < side; x++) sx[x] = sin(tau * 2.0 * x / side);
    for (y = 0; y < side; y++)
        for (x = 0; x < side; x++) {
            double u = (double)x / side, v = (double)y / side;
            uint8_t *px = img + ((size_t)y * side + x) * 4;
            px[0] = img_clamp(40.0 + 180.0 * u + img_noise(st, 3.0));
            px[1] = img_clamp(210.0 - 150.0 * v + img_noise(st, 3.0));
            px[2] = img_clamp(100.0 + 60.0 * sx[x] * (1.0 - v) + 40.0 * v + img_noise(st, 3.0));
            px[3] = 0; /* alpha */
        }
    free(sx);
}

void kit_fill_image_u8(uint8_t *a, size_t n, kit_image k, uint64_t seed)
{
    const int bpp = k == KIT_IMAGE_RGBA0 ? 4 : 1;
    const int side = k == KIT_IMAGE_RGBA0 ? IMG_RGBA_SIDE : IMG_GREY_SIDE;
    const size_t base_row = (size_t)side * bpp;
    uint64_t st = seed ^ ((uint64_t)k << 56);
    size_t w = 1, row_bytes, y, done = 0;
    uint8_t *base;
    if (n == 0) return;
    base = malloc(base_row * side);
    if (!base) { /* no memory for the base: a flat grey image */
        memset(a, 128, n);
        return;
    }
    if (k == KIT_IMAGE_DARK) img_dark(base, side, &st);
    else if (k == KIT_IMAGE_RGBA0) img_rgba0(base, side, &st);
    else img_gradient(base, side, &st);
    while (w * w * bpp < n) w *= 2; /* raster width in pixels */
    row_bytes = w * bpp;
    for (y = 0; done < n; y++) {
        const uint8_t *src = base + (y % side) * base_row;
        size_t x = 0;
        while (x < row_bytes && done < n) { /* the base row, repeated across the raster row */
            size_t len = row_bytes - x < base_row ? row_bytes - x : base_row;
            if (len > n - done) len = n - done;
            memcpy(a + done, src, len);
            done += len;
            x += len;
        }
    }
    free(base);
}
