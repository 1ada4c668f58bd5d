/* images.c - chapter 04's synthetic 8-bit images, stand-ins for the document's
 * photographs (the inputs image-gradient, image-dark, image-rgba0; see histogram.h). */
#include "histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void hist_fill_image_u8(uint8_t *a, size_t n, hist_image k, uint64_t seed)
{
    const int bpp = k == HIST_IMAGE_RGBA0 ? 4 : 1;
    const int side = k == HIST_IMAGE_RGBA0 ? IMG_RGBA_SIDE : IMG_GREY_SIDE;
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
    if (k == HIST_IMAGE_DARK) img_dark(base, side, &st);
    else if (k == HIST_IMAGE_RGBA0) img_rgba0(base, side, &st);
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
