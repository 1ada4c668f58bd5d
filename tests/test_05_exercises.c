/* test_05_exercises.c - chapter 05's exercises: ex05_image (the order-preserving key images,
 * CPU), ex05_offsets (scatter bases and the stable scatter of a tile, CPU), ex05_tile_rank
 * (digit extraction and the stable rank of every key in its tile, GPU).  Every test compares
 * with an independent CPU reference on fixed seeds.
 *
 * Graded on two sides (kit_test.h): the student's code and every CUDA call run in KIT_STUDENT
 * blocks (the runner), the generating and the assertions in the judge; what a block reads goes
 * over with KIT_TO_RUNNER, what the judge checks comes back with KIT_FROM_RUNNER. */
#include <stdlib.h>
#include <string.h>

#include "radix_image.h" /* the student's headers first: they see none of the kit's below */
#include "radix_offsets.h"

#include "ex05_rank.h" /* the kit's launcher of ex05_tile_rank (its kernel: device code only) */

#include "kit_test.h"
#if KIT_SIDE != 2
#include "radix.h" /* the kit's own images, for the judge only (ex05_image's answer) */
#endif

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static const char *type_name(int type)
{
    return type == RADIX_I32 ? "i32" : type == RADIX_F32 ? "f32" : "u32";
}

/* the words Criterion gave `cr_assert_eq(Call, Want)` without a message of its own, when the call
 * ran inside the assertion: the judge asserts the runner's result with the same words */
#define AS_IF_CALLED(Call, Want) "The expression (" #Call ") == (" #Want ") is false."

/* ------------------------------------------------------------ ex05_image */

/* ex05_image (CPU): ex05_image32 / ex05_unimage32 in $(IMPL)/05-radix-sort/radix_image.h */
TestSuite(ex05_image, .timeout = KIT_CPU_TIMEOUT);

/* the images of keys[0..n) of type must be strictly increasing (fixed keys: both sides have them) */
static void expect_ascending(const uint32_t *keys, const char *const *names, size_t n, int type)
{
    uint32_t im[32] = {0};
    size_t i;
    cr_assert_leq(n, 32, "expect_ascending: at most 32 keys");
    KIT_STUDENT {
        for (i = 0; i < n; i++) im[i] = ex05_image32(keys[i], type);
    }
    KIT_FROM_RUNNER(im, n * sizeof *im);
    for (i = 0; i + 1 < n; i++) {
        const uint32_t a = im[i], b = im[i + 1];
        cr_assert_lt(a, b, "%s: %s (0x%08x) must come before %s (0x%08x): images 0x%08x, 0x%08x",
                     type_name(type), names[i], keys[i], names[i + 1], keys[i + 1], a, b);
    }
}

Test(ex05_image, signed_order)
{
    static const uint32_t s[] = {0x80000000u, 0x80000001u, 0xFFFF0000u, 0xFFFFFFFFu, 0u, 1u, 0x00010000u,
                                 0x7FFFFFFFu};
    static const char *const sn[] = {"INT_MIN", "INT_MIN+1", "-65536", "-1", "0", "1", "65536", "INT_MAX"};
    static const uint32_t u[] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    static const char *const un[] = {"0", "1", "0x7fffffff", "0x80000000", "0xfffffffe", "0xffffffff"};
    expect_ascending(s, sn, sizeof s / sizeof *s, RADIX_I32);
    expect_ascending(u, un, sizeof u / sizeof *u, RADIX_U32);
}

Test(ex05_image, float_order)
{
    /* -NaN (by bits: the larger pattern first) < -inf < -FLT_MAX < -1 < -FLT_MIN < -denormals
     * < -0.0 < +0.0 < denormals < FLT_MIN < 1 < FLT_MAX < +inf < NaN (by bits) */
    const uint32_t f[] = {0xFFFFFFFFu, 0xFFC00000u, 0xFF800001u, 0xFF800000u, 0xFF7FFFFFu,
                          fbits(-1.0f),  fbits(-0.5f), 0x80800000u, 0x807FFFFFu, 0x80000001u,
                          0x80000000u,  0x00000000u, 0x00000001u, 0x007FFFFFu, 0x00800000u,
                          fbits(0.5f),  fbits(1.0f), 0x7F7FFFFFu, 0x7F800000u, 0x7F800001u,
                          0x7FC00000u,  0x7FFFFFFFu};
    static const char *const fn[] = {"-NaN 0xffffffff", "-NaN 0xffc00000", "-sNaN 0xff800001", "-inf",
                                     "-FLT_MAX", "-1", "-0.5", "-FLT_MIN", "-largest denormal",
                                     "-smallest denormal", "-0.0", "+0.0", "smallest denormal",
                                     "largest denormal", "FLT_MIN", "0.5", "1", "FLT_MAX", "+inf",
                                     "sNaN 0x7f800001", "NaN 0x7fc00000", "NaN 0x7fffffff"};
    expect_ascending(f, fn, sizeof f / sizeof *f, RADIX_F32);
}

/* words every image test uses besides random ones */
static const uint32_t special_words[] = {0u,          1u,          0x7FFFFFFFu, 0x80000000u, 0x80000001u,
                                         0xFFFFFFFFu, 0xFF800000u, 0x7F800000u, 0x7FC00000u, 0xFFC00000u,
                                         0x3F800000u, 0xBF800000u, 0x007FFFFFu, 0x807FFFFFu};
#define NSPECIAL (sizeof special_words / sizeof *special_words)
#define NRANDOM 200000

static uint32_t word_at(size_t i, uint64_t *st)
{
    return i < NSPECIAL ? special_words[i] : (uint32_t)kit_rand64(st);
}

/* the words of an image test: the special ones, then NRANDOM random ones from seed */
static uint32_t *image_words(uint64_t seed)
{
    uint32_t *w = malloc((NSPECIAL + NRANDOM) * sizeof *w);
    uint64_t st = seed;
    size_t i;
    cr_assert(w);
    for (i = 0; i < NSPECIAL + NRANDOM; i++) w[i] = word_at(i, &st);
    return w;
}

Test(ex05_image, round_trip)
{
    static const int types[] = {RADIX_U32, RADIX_I32, RADIX_F32};
    const size_t nw = NSPECIAL + NRANDOM;
    uint32_t *ims = malloc(nw * sizeof *ims), *backs = malloc(nw * sizeof *backs), *fwds = malloc(nw * sizeof *fwds);
    size_t t, i;
    cr_assert(ims && backs && fwds);
    for (t = 0; t < 3; t++) {
        uint32_t *w = image_words(KIT_SEED(500 + t));
        KIT_TO_RUNNER(w, nw * sizeof *w);
        KIT_STUDENT {
            for (i = 0; i < nw; i++) {
                ims[i] = ex05_image32(w[i], types[t]);
                backs[i] = ex05_unimage32(ims[i], types[t]);
                fwds[i] = ex05_image32(ex05_unimage32(w[i], types[t]), types[t]);
            }
        }
        KIT_FROM_RUNNER(ims, nw * sizeof *ims);
        KIT_FROM_RUNNER(backs, nw * sizeof *backs);
        KIT_FROM_RUNNER(fwds, nw * sizeof *fwds);
        /* a round trip alone is no image (the identity makes one): the most negative key's image
         * comes first (special_words: 0 at 0, INT_MIN at 3, -inf at 6) */
        if (types[t] != RADIX_U32) {
            const size_t lo = types[t] == RADIX_I32 ? 3 : 6;
            cr_assert_lt(ims[lo], ims[0], "%s: image(0x%08x) = 0x%08x must come before image(0) = 0x%08x (an image "
                         "that round-trips must still order the keys)", type_name(types[t]), w[lo], ims[lo], ims[0]);
        }
        for (i = 0; i < nw; i++) {
            const uint32_t k = w[i], im = ims[i];
            const uint32_t back = backs[i], fwd = fwds[i];
            cr_assert_eq(back, k, "ex05_unimage32(ex05_image32(key=0x%08x, type=%s)): ex05_unimage32(0x%08x) = 0x%08x, want 0x%08x",
                         k, type_name(types[t]), im, back, k);
            cr_assert_eq(fwd, k, "ex05_image32(ex05_unimage32(image=0x%08x, type=%s)) = 0x%08x, want 0x%08x", k, type_name(types[t]), fwd,
                         k);
        }
        free(w);
    }
    free(ims);
    free(backs);
    free(fwds);
}

Test(ex05_image, matches_radix_h)
{
    static const int types[] = {RADIX_U32, RADIX_I32, RADIX_F32};
    const size_t nw = NSPECIAL + NRANDOM;
    uint32_t *ims = malloc(nw * sizeof *ims), *unims = malloc(nw * sizeof *unims);
    size_t t, i;
    cr_assert(ims && unims);
    for (t = 0; t < 3; t++) {
        uint32_t *w = image_words(KIT_SEED(900 + t));
        KIT_TO_RUNNER(w, nw * sizeof *w);
        KIT_STUDENT {
            for (i = 0; i < nw; i++) {
                ims[i] = ex05_image32(w[i], types[t]);
                unims[i] = ex05_unimage32(w[i], types[t]);
            }
        }
        KIT_FROM_RUNNER(ims, nw * sizeof *ims);
        KIT_FROM_RUNNER(unims, nw * sizeof *unims);
        for (i = 0; i < nw; i++) {
            const uint32_t k = w[i];
            cr_assert_eq(ims[i], radix_image32(k, types[t]),
                         "ex05_image32(key=0x%08x, type=%s) = 0x%08x, want 0x%08x (radix.h)", k, type_name(types[t]),
                         ims[i], radix_image32(k, types[t]));
            cr_assert_eq(unims[i], radix_unimage32(k, types[t]),
                         "ex05_unimage32(image=0x%08x, type=%s) = 0x%08x, want 0x%08x (radix.h)", k, type_name(types[t]),
                         unims[i], radix_unimage32(k, types[t]));
        }
        free(w);
    }
    free(ims);
    free(unims);
}

/* random pairs: the images compare as C compares the numbers (ties included; -0.0 < +0.0);
 * pair i is w[4 i], w[4 i + 1] as i32 and w[4 i + 2], w[4 i + 3] as f32 */
Test(ex05_image, random_pairs_c_order)
{
    uint32_t *w = malloc(4 * (size_t)NRANDOM * sizeof *w), *im = malloc(4 * (size_t)NRANDOM * sizeof *im);
    uint64_t st = KIT_SEED(77);
    int i;
    cr_assert(w && im);
    for (i = 0; i < NRANDOM; i++) {
        uint32_t a, b;
        /* i32: random words, or small numbers (ties) */
        a = (uint32_t)kit_rand64(&st);
        b = (uint32_t)kit_rand64(&st);
        if (i & 1) {
            a = (uint32_t)((int32_t)(a % 201) - 100);
            b = (uint32_t)((int32_t)(b % 201) - 100);
        }
        w[4 * i] = a;
        w[4 * i + 1] = b;
        /* f32: random bit patterns (NaNs skipped), or multiples of 1/8 in [-125, 125] with signed zeros */
        a = (uint32_t)kit_rand64(&st);
        b = (uint32_t)kit_rand64(&st);
        if (i & 1) {
            a = fbits((float)((int)(a % 2001) - 1000) / 8.0f) | (a % 2001 == 1000 ? (a & 0x80000000u) : 0u);
            b = fbits((float)((int)(b % 2001) - 1000) / 8.0f) | (b % 2001 == 1000 ? (b & 0x80000000u) : 0u);
        }
        w[4 * i + 2] = a;
        w[4 * i + 3] = b;
    }
    KIT_TO_RUNNER(w, 4 * (size_t)NRANDOM * sizeof *w);
    KIT_STUDENT {
        for (i = 0; i < 4 * NRANDOM; i++) {
            const uint32_t k = w[i];
            const int f32 = (i & 2) != 0;
            im[i] = f32 && bitsf(k) != bitsf(k) ? 0u : ex05_image32(k, f32 ? RADIX_F32 : RADIX_I32);
        }
    }
    KIT_FROM_RUNNER(im, 4 * (size_t)NRANDOM * sizeof *im);
    for (i = 0; i < NRANDOM; i++) {
        uint32_t a, b, ia, ib;
        int want, got;
        a = w[4 * i];
        b = w[4 * i + 1];
        ia = im[4 * i];
        ib = im[4 * i + 1];
        want = ((int32_t)a > (int32_t)b) - ((int32_t)a < (int32_t)b);
        got = (ia > ib) - (ia < ib);
        cr_assert_eq(got, want, "i32 %d vs %d: images 0x%08x, 0x%08x compare %d, want %d", (int32_t)a, (int32_t)b,
                     ia, ib, got, want);
        a = w[4 * i + 2];
        b = w[4 * i + 3];
        if (bitsf(a) != bitsf(a) || bitsf(b) != bitsf(b)) continue; /* NaN: by bits (float_order) */
        ia = im[4 * i + 2];
        ib = im[4 * i + 3];
        want = (bitsf(a) > bitsf(b)) - (bitsf(a) < bitsf(b));
        if (want == 0 && a != b) want = (a == 0x80000000u) ? -1 : 1; /* -0.0 before +0.0 */
        got = (ia > ib) - (ia < ib);
        cr_assert_eq(got, want, "f32 %g (0x%08x) vs %g (0x%08x): images 0x%08x, 0x%08x compare %d, want %d",
                     (double)bitsf(a), a, (double)bitsf(b), b, ia, ib, got, want);
    }
    free(w);
    free(im);
}

/* ---------------------------------------------------------- ex05_offsets */

/* ex05_offsets (CPU): ex05_scatter_bases / ex05_tile_scatter in
 * $(IMPL)/05-radix-sort/radix_offsets.h */
TestSuite(ex05_offsets, .timeout = KIT_CPU_TIMEOUT);

#define SZ_POISON ((size_t)0xA5A5A5A5A5A5A5A5ull)

static void poison_sz(size_t *a, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) a[i] = SZ_POISON;
}

/* got[0..n) == want[0..n), else a message naming the first difference */
static void expect_sz(const size_t *got, const size_t *want, size_t n, const char *what)
{
    size_t i;
    for (i = 0; i < n; i++)
        cr_assert_eq(got[i], want[i], "%s: entry %zu is %zu, want %zu", what, i, got[i], want[i]);
}

/* The example: 4 digits, 2 tiles.  Tile 0's keys have the digits 1 3 1 0, tile 1's 3 1 2 1 0. */
static const uint32_t hand_t0[4] = {1, 3, 1, 0}, hand_t1[5] = {3, 1, 2, 1, 0};
static const uint32_t hand_counts[8] = {1, 1, /* digit 0: tile 0, tile 1 */
                                        2, 2, /* digit 1 */
                                        0, 1, /* digit 2 */
                                        1, 1 /* digit 3 */};
static const size_t hand_base[8] = {0, 1, 2, 4, 6, 6, 7, 8};

Test(ex05_offsets, bases_by_hand)
{
    size_t base[9], total = 0;
    poison_sz(base, 9);
    KIT_STUDENT {
        total = ex05_scatter_bases(hand_counts, 4, 2, base);
    }
    KIT_FROM_RUNNER(base, sizeof base);
    KIT_FROM_RUNNER(&total, sizeof total);
    expect_sz(base, hand_base, 8,
              "ex05_scatter_bases(counts = {1, 1, 2, 2, 0, 1, 1, 1}, ndigits=4, ntiles=2, base), base[d * 2 + t]");
    cr_assert_eq(total, 9, "ex05_scatter_bases(counts, ndigits=4, ntiles=2, base) returned %zu, want 9", total);
    cr_assert_eq(base[8], SZ_POISON, "ex05_scatter_bases(counts, ndigits=4, ntiles=2, base) wrote base[8] (the table has 8 entries)");
}

Test(ex05_offsets, scatter_by_hand)
{
    static const size_t want0[4] = {2, 7, 3, 0}, want1[5] = {8, 4, 6, 5, 1};
    size_t dst[6];
    poison_sz(dst, 6);
    KIT_STUDENT {
        ex05_tile_scatter(hand_t0, 4, hand_base, 4, 2, 0, dst);
    }
    KIT_FROM_RUNNER(dst, sizeof dst);
    expect_sz(dst, want0, 4, "ex05_tile_scatter(digits = {1, 3, 1, 0}, m=4, base, ndigits=4, ntiles=2, t=0, dst), dst");
    cr_assert_eq(dst[4], SZ_POISON, "ex05_tile_scatter(digits, m=4, base, ndigits=4, ntiles=2, t=0, dst) wrote dst[4]");
    poison_sz(dst, 6);
    KIT_STUDENT {
        ex05_tile_scatter(hand_t1, 5, hand_base, 4, 2, 1, dst);
    }
    KIT_FROM_RUNNER(dst, sizeof dst);
    expect_sz(dst, want1, 5, "ex05_tile_scatter(digits = {3, 1, 2, 1, 0}, m=5, base, ndigits=4, ntiles=2, t=1, dst), dst");
    cr_assert_eq(dst[5], SZ_POISON, "ex05_tile_scatter(digits, m=5, base, ndigits=4, ntiles=2, t=1, dst) wrote dst[5]");
}

/* reference bases, computed the other way round: digit totals first, then per digit a scan
 * over the tiles */
#if KIT_SIDE != 2 /* judge only: no runner holds it (tests/runner-answers.tsv) */
static size_t bases_ref(const uint32_t *counts, size_t R, size_t T, size_t *base)
{
    size_t d, t, start = 0;
    for (d = 0; d < R; d++) {
        size_t run = 0, tot = 0;
        for (t = 0; t < T; t++) tot += counts[d * T + t];
        for (t = 0; t < T; t++) {
            base[d * T + t] = start + run;
            run += counts[d * T + t];
        }
        start += tot;
    }
    return start;
}
#endif

Test(ex05_offsets, random_tables)
{
    static const size_t shapes[][2] = {{2, 1}, {1, 9}, {16, 7}, {256, 33}, {256, 1000}, {3, 5000}, {2, 65537}};
    size_t k;
    for (k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        const size_t R = shapes[k][0], T = shapes[k][1], N = R * T;
        uint32_t *c = malloc(N * sizeof *c);
        size_t *got = malloc((N + 1) * sizeof *got), *want = malloc(N * sizeof *want), i, tot = 0, wtot;
        uint64_t st = KIT_SEED(40 + k);
        char what[256];
        cr_assert(c && got && want);
        for (i = 0; i < N; i++) { /* 0..2047, a quarter of them 0 */
            const uint64_t r = kit_rand64(&st);
            c[i] = (r & 3) == 0 ? 0u : (uint32_t)(r >> 8) & 2047u;
        }
        poison_sz(got, N + 1);
        KIT_TO_RUNNER(c, N * sizeof *c);
        KIT_STUDENT {
            tot = ex05_scatter_bases(c, R, T, got);
        }
        KIT_FROM_RUNNER(got, (N + 1) * sizeof *got);
        KIT_FROM_RUNNER(&tot, sizeof tot);
#if KIT_SIDE != 2
        wtot = bases_ref(c, R, T, want);
#endif
        snprintf(what, sizeof what, "ex05_scatter_bases(counts, ndigits=%zu, ntiles=%zu, base) on random counts of seed %llu, base[d * %zu + t]",
                 R, T, (unsigned long long)KIT_SEED(40 + k), T);
        expect_sz(got, want, N, what);
        cr_assert_eq(tot, wtot, "%s: returned %zu, want %zu", what, tot, wtot);
        cr_assert_eq(got[N], SZ_POISON, "%s: wrote past the table", what);
        free(c);
        free(got);
        free(want);
    }
}

/* n keys with `bits`-bit digits in tiles of `tile` keys: count per tile, bases, scatter every
 * tile; the destinations must be the positions of a stable counting sort of the whole array
 * (so: a permutation, ascending digits, equal digits in input order) */
static void expect_stable_pass(size_t n, size_t tile, int bits, uint64_t seed)
{
    const size_t R = (size_t)1 << bits, T = (n + tile - 1) / tile;
    uint32_t *dig = malloc((n + 1) * sizeof *dig), *counts = calloc(R * T + 1, sizeof *counts);
    size_t *base = malloc((R * T + 1) * sizeof *base), *dst = malloc((n + 1) * sizeof *dst);
    size_t *want = malloc((n + 1) * sizeof *want), *inv = malloc((n + 1) * sizeof *inv), start[256], i, t, d, s;
    uint64_t st = KIT_SEED(seed);
    cr_assert(dig && counts && base && dst && want && inv);
    for (i = 0; i < n; i++) { /* skewed: low digits more often */
        const uint64_t r = kit_rand64(&st);
        dig[i] = (uint32_t)((r & 1) ? (r >> 8) % R : ((r >> 8) % R) & ((r >> 20) % R));
        counts[dig[i] * T + i / tile]++;
    }
    poison_sz(dst, n + 1);
    KIT_TO_RUNNER(dig, n * sizeof *dig);
    KIT_TO_RUNNER(counts, R * T * sizeof *counts);
    KIT_STUDENT {
        ex05_scatter_bases(counts, R, T, base);
        for (t = 0; t < T; t++) {
            const size_t lo = t * tile, m = n - lo < tile ? n - lo : tile;
            ex05_tile_scatter(dig + lo, m, base, R, T, t, dst + lo);
        }
    }
    KIT_FROM_RUNNER(dst, (n + 1) * sizeof *dst);
    /* the serial counting sort's destinations */
    for (d = 0; d < R; d++) start[d] = 0;
    for (i = 0; i < n; i++) start[dig[i]]++;
    for (d = 0, s = 0; d < R; d++) {
        const size_t c = start[d];
        start[d] = s;
        s += c;
    }
    for (i = 0; i < n; i++) want[i] = start[dig[i]]++;
    for (i = 0; i < n; i++) inv[i] = SZ_POISON;
    for (i = 0; i < n; i++) {
        cr_assert_lt(dst[i], n, "n=%zu tile=%zu bits=%d: key %zu (tile %zu) goes to %zu, past the end", n, tile,
                     bits, i, i / tile, dst[i]);
        cr_assert_eq(inv[dst[i]], SZ_POISON, "n=%zu tile=%zu bits=%d: keys %zu and %zu both go to %zu", n, tile,
                     bits, inv[dst[i]], i, dst[i]);
        inv[dst[i]] = i;
    }
    for (i = 1; i < n; i++) {
        cr_assert_leq(dig[inv[i - 1]], dig[inv[i]], "n=%zu tile=%zu bits=%d: position %zu has digit %u, %zu has %u",
                      n, tile, bits, i - 1, dig[inv[i - 1]], i, dig[inv[i]]);
        if (dig[inv[i - 1]] == dig[inv[i]])
            cr_assert_lt(inv[i - 1], inv[i], "n=%zu tile=%zu bits=%d: not stable: key %zu placed after key %zu (digit %u)",
                         n, tile, bits, inv[i - 1], inv[i], dig[inv[i]]);
    }
    for (i = 0; i < n; i++)
        cr_assert_eq(dst[i], want[i], "n=%zu tile=%zu bits=%d: key %zu goes to %zu, want %zu", n, tile, bits, i,
                     dst[i], want[i]);
    cr_assert_eq(dst[n], SZ_POISON, "n=%zu: wrote past dst[n - 1]", n);
    free(dig);
    free(counts);
    free(base);
    free(dst);
    free(want);
    free(inv);
}

Test(ex05_offsets, stable_permutation)
{
    expect_stable_pass(10007, 777, 4, 1);
    expect_stable_pass(100003, 2048, 8, 2);
    expect_stable_pass(5000, 1000, 1, 3);
    expect_stable_pass(1, 256, 8, 4);
    expect_stable_pass(33, 1, 2, 5); /* one key per tile */
}

Test(ex05_offsets, zero_tiles_and_digits)
{
    /* 5 digits x 4 tiles; digits 0 and 3 have no key, tile 1 has none */
    static const uint32_t c[20] = {0, 0, 0, 0, /* digit 0 */
                                   3, 0, 1, 2, /* digit 1 */
                                   0, 0, 4, 1, /* digit 2 */
                                   0, 0, 0, 0, /* digit 3 */
                                   2, 0, 0, 5 /* digit 4 */};
    static const size_t want[20] = {0, 0, 0, 0, 0, 3, 3, 4, 6, 6, 6, 10, 11, 11, 11, 11, 11, 13, 13, 13};
    static const uint32_t t3[8] = {4, 2, 1, 4, 4, 4, 1, 4}; /* tile 3's keys */
    static const size_t want3[8] = {13, 10, 4, 14, 15, 16, 5, 17};
    size_t base[21], dst[9], one = SZ_POISON, tot = 0;
    poison_sz(base, 21);
    KIT_STUDENT {
        tot = ex05_scatter_bases(c, 5, 4, base);
    }
    KIT_FROM_RUNNER(&tot, sizeof tot);
    KIT_FROM_RUNNER(base, sizeof base);
    cr_assert_eq(tot, 18, "ex05_scatter_bases(counts, ndigits=5, ntiles=4, base) returned %zu, want 18", tot);
    expect_sz(base, want, 20, "ex05_scatter_bases(counts, ndigits=5, ntiles=4, base) (two empty digits, an empty tile), base");
    poison_sz(dst, 9);
    KIT_STUDENT {
        ex05_tile_scatter(t3, 8, base, 5, 4, 3, dst);
    }
    KIT_FROM_RUNNER(dst, sizeof dst);
    expect_sz(dst, want3, 8, "ex05_tile_scatter(digits, m=8, base, ndigits=5, ntiles=4, t=3, dst), dst");
    cr_assert_eq(dst[8], SZ_POISON, "ex05_tile_scatter(digits, m=8, base, ndigits=5, ntiles=4, t=3, dst) wrote dst[8]");
    /* no tile, no digit, no key: nothing written */
    poison_sz(base, 21);
    KIT_STUDENT {
        tot = ex05_scatter_bases(c, 5, 0, base);
    }
    KIT_FROM_RUNNER(&tot, sizeof tot);
    cr_assert_eq(tot, 0, "ex05_scatter_bases(counts, ndigits, ntiles=0, base) returned %zu, want 0", tot);
    KIT_STUDENT {
        tot = ex05_scatter_bases(c, 0, 4, base);
    }
    KIT_FROM_RUNNER(&tot, sizeof tot);
    KIT_FROM_RUNNER(base, sizeof base);
    cr_assert_eq(tot, 0, "ex05_scatter_bases(counts, ndigits=0, ntiles, base) returned %zu, want 0", tot);
    cr_assert_eq(base[0], SZ_POISON, "ex05_scatter_bases with 0 tiles or 0 digits wrote base[0]");
    poison_sz(dst, 9);
    KIT_STUDENT {
        ex05_tile_scatter(t3, 0, base, 5, 4, 3, dst);
    }
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(dst[0], SZ_POISON, "ex05_tile_scatter(digits, m=0, ...) wrote dst[0]");
    KIT_STUDENT {
        ex05_tile_scatter(t3, 0, base, 5, 4, 3, &one);
    }
    KIT_FROM_RUNNER(&one, sizeof one);
    cr_assert_eq(one, SZ_POISON);
}

Test(ex05_offsets, counts_past_2_32)
{
    /* 3 digits x 2 tiles of 2^32 - 1 keys each: bases past 32 bits */
    uint32_t c[6];
    static const uint32_t dg[3] = {2, 2, 0};
    size_t base[6], want[6], dst[3], i, tot = 0;
    for (i = 0; i < 6; i++) {
        c[i] = 0xFFFFFFFFu;
        want[i] = i * (size_t)0xFFFFFFFFu;
    }
    poison_sz(base, 6);
    KIT_STUDENT {
        tot = ex05_scatter_bases(c, 3, 2, base);
    }
    KIT_FROM_RUNNER(&tot, sizeof tot);
    KIT_FROM_RUNNER(base, sizeof base);
    cr_assert_eq(tot, 6 * (size_t)0xFFFFFFFFu, "ex05_scatter_bases(counts = 6 x (2^32 - 1), ndigits=3, ntiles=2, base) returned %zu, want %zu (sum in size_t)", tot,
                 6 * (size_t)0xFFFFFFFFu);
    expect_sz(base, want, 6, "ex05_scatter_bases(counts = 6 x (2^32 - 1), ndigits=3, ntiles=2, base), base");
    poison_sz(dst, 3);
    KIT_STUDENT {
        ex05_tile_scatter(dg, 3, base, 3, 2, 1, dst);
    }
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert(dst[0] == want[5] && dst[1] == want[5] + 1 && dst[2] == want[1],
              "tile 1, digits 2 2 0: dst %zu %zu %zu, want %zu %zu %zu", dst[0], dst[1], dst[2], want[5], want[5] + 1,
              want[1]);
}

/* -------------------------------------------------------- ex05_tile_rank */

/* ex05_tile_rank (GPU): tr_digit, tr_warp_rank, tr_block_offsets in
 * $(IMPL)/05-radix-sort/radix_tile_rank.cuh, run by ex05_rank_tiles (ex05_rank.c, its kernel in
 * ex05_rank_dev.cu: device code only) */
TestSuite(ex05_tile_rank, .timeout = KIT_GPU_TIMEOUT);

#define TILE ((size_t)EX05_RANK_TILE)
static const size_t rank_sizes[] = {1, 31, 33, 1023, TILE, (1u << 20) + 7};
#define NRSIZES (sizeof rank_sizes / sizeof *rank_sizes)

/* rank of every key in its tile, by a counting sort per tile */
#if KIT_SIDE != 2 /* judge only: no runner holds it (tests/runner-answers.tsv) */
static void rank_cpu(const uint32_t *keys, size_t n, int shift, int bits, uint32_t *rank)
{
    const uint32_t mask = (1u << bits) - 1u;
    size_t lo, i;
    for (lo = 0; lo < n; lo += TILE) {
        const size_t hi = n - lo < TILE ? n : lo + TILE;
        uint32_t start[256] = {0}, s = 0, d;
        for (i = lo; i < hi; i++) start[(keys[i] >> shift) & mask]++;
        for (d = 0; d <= mask; d++) {
            const uint32_t c = start[d];
            start[d] = s;
            s += c;
        }
        for (i = lo; i < hi; i++) rank[i] = start[(keys[i] >> shift) & mask]++;
    }
}
#endif

#define GUARD 64

/* ranks from the GPU vs rank_cpu; keys past n in the device buffer are zero (digit 0): a
 * kernel that ranks them as keys moves the others' ranks; nothing past rank[n - 1] written.
 * The runner runs the CUDA calls in order, each only if those before it succeeded, and sends
 * their results (e[k]) and the ranks; the judge asserts them in that order. */
static void expect_ranks(uint32_t *keys, size_t n, int shift, int bits, const char *input)
{
    uint32_t *want = malloc(n * sizeof *want), *got = calloc(n + GUARD, sizeof *got);
    const size_t padded = (n + TILE - 1) / TILE * TILE + GUARD;
    int32_t e[8] = {0};
    char msg[KIT_MSG];
    cr_assert(want && got);
#if KIT_SIDE != 2
    rank_cpu(keys, n, shift, bits, want);
#endif
    KIT_TO_RUNNER(keys, n * sizeof *keys);
    KIT_STUDENT {
        uint32_t *d_keys = NULL, *d_rank = NULL;
        int ok = 1;
        if (ok) ok = (e[0] = cudaMalloc((void **)&d_keys, padded * 4)) == cudaSuccess;
        if (ok) ok = (e[1] = cudaMalloc((void **)&d_rank, (n + GUARD) * 4)) == cudaSuccess;
        if (ok) ok = (e[2] = cudaMemset(d_keys, 0, padded * 4)) == cudaSuccess;
        if (ok) ok = (e[3] = cudaMemcpy(d_keys, keys, n * 4, cudaMemcpyHostToDevice)) == cudaSuccess;
        if (ok) ok = (e[4] = kit_poison(d_rank, (n + GUARD) * 4, 0)) == cudaSuccess;
        if (ok) ok = (e[5] = ex05_rank_tiles(d_keys, d_rank, n, shift, bits, 0)) == cudaSuccess;
        if (ok) ok = (e[6] = cudaDeviceSynchronize()) == cudaSuccess;
        if (ok) ok = (e[7] = kit_fetch(got, d_rank, (n + GUARD) * 4, 0)) == cudaSuccess;
        cudaFree(d_keys);
        cudaFree(d_rank);
    }
    KIT_FROM_RUNNER(e, sizeof e);
    KIT_FROM_RUNNER(got, (n + GUARD) * sizeof *got);
    cr_assert_eq(e[0], cudaSuccess, AS_IF_CALLED(cudaMalloc((void **)&d_keys, padded * 4), cudaSuccess));
    cr_assert_eq(e[1], cudaSuccess, AS_IF_CALLED(cudaMalloc((void **)&d_rank, (n + GUARD) * 4), cudaSuccess));
    cr_assert_eq(e[2], cudaSuccess, AS_IF_CALLED(cudaMemset(d_keys, 0, padded * 4), cudaSuccess));
    cr_assert_eq(e[3], cudaSuccess, AS_IF_CALLED(cudaMemcpy(d_keys, keys, n * 4, cudaMemcpyHostToDevice), cudaSuccess));
    cr_assert_eq(e[4], cudaSuccess, AS_IF_CALLED(kit_poison(d_rank, (n + GUARD) * 4, 0), cudaSuccess));
    cr_assert_eq(e[5], cudaSuccess, "n=%zu shift=%d bits=%d: launch", n, shift, bits);
    cr_assert_eq(e[6], cudaSuccess, "n=%zu shift=%d bits=%d %s: the kernel failed: %s", n, shift, bits, input,
                 cudaGetErrorString((cudaError_t)e[6]));
    cr_assert_eq(e[7], cudaSuccess, AS_IF_CALLED(kit_fetch(got, d_rank, (n + GUARD) * 4, 0), cudaSuccess));
    cr_assert(kit_cmp_u32(got, want, n, msg, sizeof msg), "n=%zu shift=%d bits=%d %s (tiles of %zu keys): ranks %s",
              n, shift, bits, input, TILE, msg);
    cr_assert(kit_all_poison_u32(got + n, GUARD, msg, sizeof msg), "n=%zu: written past rank[n - 1]: %s", n, msg);
    free(want);
    free(got);
}

/* every size of rank_sizes (or the first nsizes), on pattern p, at (shift, bits) */
static void expect_pattern(kit_pattern p, const size_t *sizes, size_t nsizes, int shift, int bits, uint64_t seed)
{
    size_t k;
    for (k = 0; k < nsizes; k++) {
        const size_t n = sizes[k];
        uint32_t *keys = malloc(n * sizeof *keys);
        cr_assert(keys);
        kit_fill_u32(keys, n, p, KIT_SEED(seed + k));
        expect_ranks(keys, n, shift, bits, kit_pattern_name(p));
        free(keys);
    }
}

Test(ex05_tile_rank, uniform_4bit)
{
    static const int shifts[] = {0, 8, 24};
    int s;
    KIT_REQUIRE_GPU();
    for (s = 0; s < 3; s++) expect_pattern(KIT_UNIFORM, rank_sizes, NRSIZES, shifts[s], 4, 100 + 10 * s);
}

Test(ex05_tile_rank, bits_1_and_8)
{
    static const int shifts[] = {0, 8, 24};
    int s;
    KIT_REQUIRE_GPU();
    for (s = 0; s < 3; s++) {
        expect_pattern(KIT_UNIFORM, rank_sizes, NRSIZES, shifts[s], 1, 200 + 10 * s);
        expect_pattern(KIT_UNIFORM, rank_sizes, NRSIZES, shifts[s], 8, 300 + 10 * s);
    }
    expect_pattern(KIT_UNIFORM, rank_sizes, NRSIZES, 31, 1, 400); /* the top bit */
}

Test(ex05_tile_rank, skewed_inputs)
{
    /* all keys equal (one digit: ranks 0, 1, 2, ... per tile), sorted, few distinct, low entropy */
    static const kit_pattern pats[] = {KIT_IDENTICAL, KIT_SORTED, KIT_REVERSE, KIT_FEW_UNIQUE, KIT_LOW_ENTROPY};
    static const int shifts[] = {0, 8, 24}, bits[] = {1, 4, 8};
    size_t p;
    int s, b;
    KIT_REQUIRE_GPU();
    for (p = 0; p < sizeof pats / sizeof *pats; p++)
        for (s = 0; s < 3; s++)
            for (b = 0; b < 3; b++) expect_pattern(pats[p], rank_sizes, NRSIZES, shifts[s], bits[b], 600 + 7 * p);
}

Test(ex05_tile_rank, partial_tiles)
{
    static const size_t sizes[] = {TILE - 1, TILE + 1, 2 * TILE + 33, 5 * TILE - 5, 3 * TILE};
    const size_t ns = sizeof sizes / sizeof *sizes;
    int32_t r[4] = {0};
    KIT_REQUIRE_GPU();
    /* the launcher's argument checks (plumbing), then odd shapes around tile boundaries */
    KIT_STUDENT {
        r[0] = ex05_rank_tiles(NULL, NULL, 0, 0, 4, 0);
        r[1] = ex05_rank_tiles(NULL, NULL, 5, 0, 0, 0);
        r[2] = ex05_rank_tiles(NULL, NULL, 5, 0, 9, 0);
        r[3] = ex05_rank_tiles(NULL, NULL, 5, 25, 8, 0);
    }
    KIT_FROM_RUNNER(r, sizeof r);
    cr_assert_eq(r[0], cudaSuccess, "n = 0 does nothing");
    cr_assert_eq(r[1], cudaErrorInvalidValue, "bits = 0");
    cr_assert_eq(r[2], cudaErrorInvalidValue, "bits = 9");
    cr_assert_eq(r[3], cudaErrorInvalidValue, "shift + bits = 33");
    expect_pattern(KIT_UNIFORM, sizes, ns, 24, 8, 700);
    expect_pattern(KIT_UNIFORM, sizes, ns, 5, 3, 710); /* a digit across a byte boundary */
    expect_pattern(KIT_UNIFORM, sizes, ns, 29, 3, 720);
    expect_pattern(KIT_FEW_UNIQUE, sizes, ns, 0, 8, 730);
}
