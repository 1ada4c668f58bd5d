/* test_05_radix_sort.c - chapter 05: the CPU baselines and key images (CPU), every step of
 * the 32-bit and 64-bit ladders against the CPU sort for every size x input x key type it
 * claims, keys and pairs (values = input index: stability is asserted by equality), bit
 * ranges, the tuning tables, and the contract suite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radix.h"
#include "radix_problem.h"
#include "kit_test.h"

/* ------------------------------------------------------------------ CPU */

TestSuite(ch05_cpu, .timeout = KIT_CPU_TIMEOUT);

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

Test(ch05_cpu, images_order_floats_and_ints)
{
    /* ascending in the documented order: -NaN, -inf, -1, -tiny, -0.0, +0.0, tiny, 1, inf, NaN */
    const uint32_t f[] = {0xFFC00000u, 0xFF800000u, fbits(-1.0f), 0x80000001u, 0x80000000u,
                          0x00000000u, 0x00000001u, fbits(1.0f), 0x7F800000u, 0x7FC00000u};
    const uint32_t s[] = {0x80000000u /* INT_MIN */, 0xFFFFFFFFu /* -1 */, 0u, 1u, 0x7FFFFFFFu};
    size_t i;
    for (i = 0; i + 1 < sizeof f / sizeof *f; i++)
        cr_assert_lt(radix_image32(f[i], RADIX_F32), radix_image32(f[i + 1], RADIX_F32), "f32 at %zu", i);
    for (i = 0; i + 1 < sizeof s / sizeof *s; i++)
        cr_assert_lt(radix_image32(s[i], RADIX_I32), radix_image32(s[i + 1], RADIX_I32), "i32 at %zu", i);
    for (i = 0; i < sizeof f / sizeof *f; i++) {
        cr_assert_eq(radix_unimage32(radix_image32(f[i], RADIX_F32), RADIX_F32), f[i]);
        cr_assert_eq(radix_unimage32(radix_image32(f[i], RADIX_I32), RADIX_I32), f[i]);
    }
}

Test(ch05_cpu, lsd_is_stable_by_hand)
{
    /* keys by their low 4 bits (bits [0, 4)): 0x13 and 0x03 tie, so do 0x21 and 0x01 */
    const uint32_t k[6] = {0x13, 0x21, 0x03, 0x02, 0x01, 0x10};
    const uint32_t v[6] = {0, 1, 2, 3, 4, 5};
    const uint32_t wk[6] = {0x10, 0x21, 0x01, 0x02, 0x13, 0x03}, wv[6] = {5, 1, 4, 3, 0, 2};
    uint32_t ok[6], ov[6], tk[6], tv[6];
    int bits;
    for (bits = 4; bits <= 8; bits += 4) {
        radix_cpu_lsd(k, ok, v, ov, 6, RADIX_U32, 0, 4, bits, tk, tv);
        cr_assert_arr_eq(ok, wk, sizeof wk, "keys, %d-bit digits", bits);
        cr_assert_arr_eq(ov, wv, sizeof wv, "values, %d-bit digits", bits);
    }
    cr_assert_eq(radix_cpu_qsort(k, ok, v, ov, 6, RADIX_U32, 0, 4), 0);
    cr_assert_arr_eq(ok, wk, sizeof wk, "qsort keys");
    cr_assert_arr_eq(ov, wv, sizeof wv, "qsort values");
}

/* the three CPU sorts agree on every input, type, size and bit range, and the result is
 * ordered by the image bits */
static void cpu_agree(const kit_problem *P, int type, size_t n, int b, int e, const char *input)
{
    kit_shape sh = kit_shape_default(P, n);
    const radix_problem_arg *a = (const radix_problem_arg *)P->arg;
    const size_t kb = (size_t)radix_key_bytes(type);
    kit_host h;
    void *k4 = malloc(n * kb + 8), *k8 = malloc(n * kb + 8), *kq = malloc(n * kb + 8), *tk = malloc(n * kb + 8);
    uint32_t *v4 = malloc(n * 4 + 4), *v8 = malloc(n * 4 + 4), *vq = malloc(n * 4 + 4), *tv = malloc(n * 4 + 4);
    size_t i;
    cr_assert(k4 && k8 && kq && tk && v4 && v8 && vq && tv);
    if (a->type_axis >= 0) sh.v[a->type_axis] = type;
    sh.v[a->pairs_axis] = 1;
    sh.v[a->begin_axis] = b;
    sh.v[a->end_axis] = e;
    memset(&h, 0, sizeof h);
    h.buf[RADIX_BUF_KEYS] = malloc(n * kb + 8);
    h.buf[RADIX_BUF_VALS] = malloc(n * 4 + 4);
    cr_assert(h.buf[0] && h.buf[1]);
    radix_fill(P, &h, &sh, kit_input_find(P, input), 7 + n);
    radix_cpu_lsd(h.buf[0], k4, h.buf[1], v4, n, type, b, e, 4, tk, tv);
    radix_cpu_lsd(h.buf[0], k8, h.buf[1], v8, n, type, b, e, 8, tk, tv);
    cr_assert_eq(radix_cpu_qsort(h.buf[0], kq, h.buf[1], vq, n, type, b, e), 0);
    cr_assert(n == 0 || memcmp(k4, k8, n * kb) == 0, "lsd4 vs lsd8 keys: %s n=%zu bits %d..%d", input, n, b, e);
    cr_assert(n == 0 || memcmp(k4, kq, n * kb) == 0, "lsd4 vs qsort keys: %s n=%zu", input, n);
    cr_assert(n == 0 || memcmp(v4, v8, n * 4) == 0, "lsd4 vs lsd8 values: %s n=%zu", input, n);
    cr_assert(n == 0 || memcmp(v4, vq, n * 4) == 0, "lsd4 vs qsort values: %s n=%zu", input, n);
    for (i = 1; i < n; i++) { /* ordered by the bits, and ties in input order (values = index) */
        const int w = e - b;
        const uint64_t m = w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
        uint64_t x, y;
        if (type == RADIX_U64) {
            x = ((const uint64_t *)k4)[i - 1] >> b & m;
            y = ((const uint64_t *)k4)[i] >> b & m;
        } else {
            x = (uint64_t)(radix_image32(((const uint32_t *)k4)[i - 1], type) >> b) & m;
            y = (uint64_t)(radix_image32(((const uint32_t *)k4)[i], type) >> b) & m;
        }
        cr_assert(x < y || (x == y && v4[i - 1] < v4[i]), "%s n=%zu: order at %zu", input, n, i);
    }
    free(k4), free(k8), free(kq), free(tk), free(v4), free(v8), free(vq), free(tv);
    free(h.buf[0]), free(h.buf[1]);
}

Test(ch05_cpu, baselines_agree_on_every_input)
{
    static const size_t sizes[] = {0, 1, 2, 31, 33, 1023, 65537};
    size_t s, x;
    int t;
    for (t = 0; t < 3; t++)
        for (s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (x = 0; x < RADIX_NINPUTS; x++) cpu_agree(&radix_problem32, t, sizes[s], 0, 32, radix_inputs[x].name);
    for (x = 0; x < RADIX_NINPUTS; x++) cpu_agree(&radix_problem64, RADIX_U64, 4099, 0, 64, radix_inputs[x].name);
}

Test(ch05_cpu, baselines_agree_on_bit_ranges)
{
    static const int r32[][2] = {{0, 0}, {0, 1}, {3, 17}, {8, 16}, {13, 32}, {31, 32}};
    static const int r64[][2] = {{0, 0}, {5, 37}, {32, 64}, {63, 64}};
    size_t j;
    for (j = 0; j < sizeof r32 / sizeof *r32; j++) {
        cpu_agree(&radix_problem32, RADIX_U32, 4099, r32[j][0], r32[j][1], "uniform");
        cpu_agree(&radix_problem32, RADIX_F32, 4099, r32[j][0], r32[j][1], "f32-normal");
    }
    for (j = 0; j < sizeof r64 / sizeof *r64; j++)
        cpu_agree(&radix_problem64, RADIX_U64, 4099, r64[j][0], r64[j][1], "uniform");
}

/* the reference's threaded LSD equals the serial one, keys and values, for every part count: the
 * chunks' counts scanned in (digit, chunk) order keep it stable */
static void mt_agrees(const kit_problem *P, int type, size_t n, int b, int e, int digit, int threads)
{
    kit_shape sh = kit_shape_default(P, n);
    const radix_problem_arg *a = (const radix_problem_arg *)P->arg;
    const size_t kb = (size_t)radix_key_bytes(type);
    void *k1 = malloc(n * kb + 8), *km = malloc(n * kb + 8), *tk = malloc(n * kb + 8);
    uint32_t *v1 = malloc(n * 4 + 4), *vm = malloc(n * 4 + 4), *tv = malloc(n * 4 + 4);
    kit_host h;
    cr_assert(k1 && km && tk && v1 && vm && tv);
    if (a->type_axis >= 0) sh.v[a->type_axis] = type;
    sh.v[a->pairs_axis] = 1;
    memset(&h, 0, sizeof h);
    h.buf[RADIX_BUF_KEYS] = malloc(n * kb + 8);
    h.buf[RADIX_BUF_VALS] = malloc(n * 4 + 4);
    cr_assert(h.buf[RADIX_BUF_KEYS] && h.buf[RADIX_BUF_VALS]);
    radix_fill(P, &h, &sh, kit_input_find(P, "low-entropy"), 11 + n);
    radix_cpu_lsd(h.buf[RADIX_BUF_KEYS], k1, h.buf[RADIX_BUF_VALS], v1, n, type, b, e, digit, tk, tv);
    radix_cpu_lsd_mt(h.buf[RADIX_BUF_KEYS], km, h.buf[RADIX_BUF_VALS], vm, n, type, b, e, digit, tk, tv, threads);
    cr_assert(n == 0 || memcmp(k1, km, n * kb) == 0, "keys differ: type %d n=%zu bits %d..%d, %d threads", type,
              n, b, e, threads);
    cr_assert(n == 0 || memcmp(v1, vm, n * 4) == 0, "values differ: type %d n=%zu bits %d..%d, %d threads", type,
              n, b, e, threads);
    radix_cpu_lsd_mt(h.buf[RADIX_BUF_KEYS], km, NULL, NULL, n, type, b, e, digit, tk, NULL, threads);
    cr_assert(n == 0 || memcmp(k1, km, n * kb) == 0, "keys only differ: type %d n=%zu, %d threads", type, n, threads);
    free(k1), free(km), free(tk), free(v1), free(vm), free(tv);
    free(h.buf[RADIX_BUF_KEYS]), free(h.buf[RADIX_BUF_VALS]);
}

Test(ch05_cpu, threaded_reference_equals_the_serial_sort)
{
    static const size_t sizes[] = {0, 1, 2, 15, 31, 33, 1023, 65537, (1u << 20) + 7};
    static const int threads[] = {2, 3, 16};
    size_t s, t;
    int type;
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (t = 0; t < sizeof threads / sizeof *threads; t++) {
            for (type = 0; type < 3; type++) mt_agrees(&radix_problem32, type, sizes[s], 0, 32, 8, threads[t]);
            mt_agrees(&radix_problem32, RADIX_U32, sizes[s], 3, 21, 4, threads[t]);
            mt_agrees(&radix_problem64, RADIX_U64, sizes[s], 0, 64, 8, threads[t]);
        }
}

Test(ch05_cpu, inputs_are_what_they_say)
{
    enum { N = 10001 };
    kit_host h;
    kit_shape sh = kit_shape_default(&radix_problem32, N);
    uint32_t *k = malloc(N * 4), *v = malloc(N * 4);
    size_t i, t;
    cr_assert(k && v);
    memset(&h, 0, sizeof h);
    h.buf[RADIX_BUF_KEYS] = k;
    h.buf[RADIX_BUF_VALS] = v;
    sh.v[1] = 1;
    for (t = 0; t < 3; t++) {
        sh.v[0] = (double)t;
        radix_fill(&radix_problem32, &h, &sh, kit_input_find(&radix_problem32, "sorted"), 3);
        for (i = 1; i < N; i++) cr_assert_leq(radix_image32(k[i - 1], (int)t), radix_image32(k[i], (int)t));
        radix_fill(&radix_problem32, &h, &sh, kit_input_find(&radix_problem32, "reverse"), 3);
        for (i = 1; i < N; i++) cr_assert_geq(radix_image32(k[i - 1], (int)t), radix_image32(k[i], (int)t));
        radix_fill(&radix_problem32, &h, &sh, kit_input_find(&radix_problem32, "range-256"), 3);
        for (i = 0; i < N; i++) cr_assert_lt(radix_image32(k[i], (int)t), 256u);
        radix_fill(&radix_problem32, &h, &sh, kit_input_find(&radix_problem32, "identical"), 3);
        for (i = 0; i < N; i++) cr_assert_eq(k[i], k[0]);
        radix_fill(&radix_problem32, &h, &sh, kit_input_find(&radix_problem32, "gaps"), 3);
        for (i = 0; i < N; i++) cr_assert_eq(radix_image32(k[i], (int)t) & 0xFF00FF00u, 0u, "gaps: odd bytes zero");
        radix_fill(&radix_problem32, &h, &sh, kit_input_find(&radix_problem32, "top-twins"), 3);
        for (i = 0; i < N; i++)
            cr_assert_eq(radix_image32(k[i], (int)t) >> 24, radix_image32(k[i], (int)t) >> 16 & 0xFFu,
                         "top-twins: the top two bytes equal");
        for (i = 0; i < N; i++) cr_assert_eq(v[i], (uint32_t)i, "values are the input index");
    }
    free(k);
    free(v);
}

Test(ch05_cpu, argument_checks)
{
    /* fake, never dereferenced device addresses */
    const void *in = (const void *)(uintptr_t)0x10000, *out = (const void *)(uintptr_t)0x20000;
    const uint32_t *vi = (const uint32_t *)(uintptr_t)0x30000, *vo = (const uint32_t *)(uintptr_t)0x40000;
    const void *scr = (const void *)(uintptr_t)0x50000;
    cr_assert_eq(radix_check(in, out, vi, vo, 100, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0), cudaSuccess);
    cr_assert_eq(radix_check((const char *)in + 4, out, vi, vo, 100, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0),
                 cudaSuccess, "any 4-byte address");
    cr_assert_eq(radix_check((const char *)in + 2, out, vi, vo, 100, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0),
                 cudaErrorMisalignedAddress);
    cr_assert_eq(radix_check((const char *)in + 4, out, vi, vo, 100, RADIX_U64, 0, 64, scr, RADIX_TYPES_ALL, 0),
                 cudaErrorMisalignedAddress, "u64 keys need 8 bytes");
    cr_assert_eq(radix_check(in, out, vi + 0, (const uint32_t *)((const char *)vo + 1), 100, RADIX_U32, 0, 32, scr,
                             RADIX_TYPES32, 0),
                 cudaErrorMisalignedAddress);
    cr_assert_eq(radix_check(in, out, vi, vo, 100, RADIX_U32, 0, 32, (const char *)scr + 16, RADIX_TYPES32, 0),
                 cudaErrorMisalignedAddress, "scratch 256-byte aligned");
    cr_assert_eq(radix_check(in, out, vi, vo, 100, RADIX_U32, 0, 33, scr, RADIX_TYPES32, 0), cudaErrorInvalidValue);
    cr_assert_eq(radix_check(in, out, vi, vo, 100, RADIX_U32, 5, 4, scr, RADIX_TYPES32, 0), cudaErrorInvalidValue);
    cr_assert_eq(radix_check(in, out, vi, vo, 100, RADIX_U32, -1, 4, scr, RADIX_TYPES32, 0), cudaErrorInvalidValue);
    cr_assert_eq(radix_check(in, out, vi, vo, 100, RADIX_U64, 0, 64, scr, RADIX_TYPES32, 0), cudaErrorInvalidValue,
                 "a type the step does not take");
    cr_assert_eq(radix_check(in, out, vi, vo, 100, 7, 0, 32, scr, RADIX_TYPES_ALL, 0), cudaErrorInvalidValue);
    cr_assert_eq(radix_check(in, out, vi, vo, RADIX_MAX_N + 1, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0),
                 cudaErrorInvalidValue);
    cr_assert_eq(radix_check(in, out, vi, vo, 1000, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 999), cudaErrorInvalidValue);
    cr_assert_eq(radix_check(in, out, vi, vo, RADIX_MAX_N, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0), cudaSuccess,
                 "max_n = 0: RADIX_MAX_N");
    cr_assert_eq(radix_check(NULL, out, NULL, NULL, 1, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0), cudaErrorInvalidValue,
                 "NULL keys_in");
    cr_assert_eq(radix_check(in, NULL, NULL, NULL, 1, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0), cudaErrorInvalidValue,
                 "NULL keys_out");
    cr_assert_eq(radix_check(in, out, vi, NULL, 1, RADIX_U32, 0, 32, scr, RADIX_TYPES32, 0), cudaErrorInvalidValue,
                 "values in without values out");
    cr_assert_eq(radix_check(NULL, NULL, NULL, NULL, 0, RADIX_U32, 0, 32, NULL, RADIX_TYPES32, 0), cudaSuccess,
                 "n = 0: no pointer needed");
}

Test(ch05_cpu, step_tables_are_consistent)
{
    size_t l;
    for (l = 0; l < RADIX_NLADDERS; l++) {
        const kit_ladder *L = radix_ladders[l];
        size_t i;
        kit_expect_table(L);
        for (i = 0; i < L->count; i++) { /* radix.h: the yardsticks, and only they, sort in CUB's order */
            const kit_step_info *s = L->step(L, i);
            const int yard = s->kind == KIT_STEP_YARDSTICK;
            cr_assert_eq(s->flags & (KIT_OWN_ORDER | KIT_UNORDERED), yard ? KIT_OWN_ORDER : 0u,
                         "%s %s: flags 0x%x (want KIT_OWN_ORDER on the yardsticks only, never KIT_UNORDERED)",
                         L->id, s->name, s->flags);
            cr_assert_eq(kit_step_max_n(L, i), RADIX_MAX_N, "%s %s: largest n (radix.h: RADIX_MAX_N)", L->id,
                         s->name);
        }
    }
}

/* ------------------------------------------------------------------ GPU */

static const size_t gpu_sizes[] = {0, 1, 2, 31, 33, 1023, (1u << 16) + 1, (1u << 20) + 7, 1u << 24};
#define NGSIZES (sizeof gpu_sizes / sizeof *gpu_sizes)

typedef struct sort_param {
    size_t ladder, step;
    int type, pairs;
} sort_param;

/* every (ladder, step, type it claims, keys|pairs) of the two main ladders: how many there are (only
 * the first max are stored; the callers refuse to run with fewer than all) */
static size_t sort_params(sort_param *out, size_t max)
{
    size_t l, i, k = 0;
    int t, p;
    for (l = 0; l < RADIX_NMAIN; l++) {
        const kit_ladder *L = radix_ladders[l];
        const radix_step *tab = (const radix_step *)L->table;
        const radix_problem_arg *a = (const radix_problem_arg *)L->P->arg;
        for (i = 0; i < L->count; i++)
            for (t = 0; t < RADIX_NTYPES; t++) {
                if (!(tab[i].types >> t & 1u)) continue;
                if ((a->key_bytes == 8) != (t == RADIX_U64)) continue;
                for (p = 0; p < 2; p++, k++)
                    if (k < max) out[k] = (sort_param){l, i, t, p};
            }
    }
    return k;
}

/* room for the parameters: a step added past it stops the tests with a message, never drops some */
#define SORT_PARAMS_MAX 128
static size_t sort_params_all(sort_param *p)
{
    const size_t n = sort_params(p, SORT_PARAMS_MAX);
    if (n > SORT_PARAMS_MAX) {
        fprintf(stderr, "test_05: %zu (ladder, step, type, pairs) cases, room for %d: raise SORT_PARAMS_MAX\n", n,
                SORT_PARAMS_MAX);
        abort();
    }
    return n;
}

static kit_shape sort_shape(const kit_problem *P, size_t n, int type, int pairs, int b, int e)
{
    const radix_problem_arg *a = (const radix_problem_arg *)P->arg;
    kit_shape sh = kit_shape_default(P, n);
    if (a->type_axis >= 0) sh.v[a->type_axis] = type;
    sh.v[a->pairs_axis] = pairs;
    sh.v[a->begin_axis] = b;
    sh.v[a->end_axis] = e;
    return sh;
}

ParameterizedTestParameters(ch05_gpu, sorts)
{
    static sort_param p[SORT_PARAMS_MAX];
    return cr_make_param_array(sort_param, p, sort_params_all(p));
}

/* sizes x every input, full key */
ParameterizedTest(sort_param *p, ch05_gpu, sorts, .timeout = 600)
{
    const kit_ladder *L = radix_ladders[p->ladder];
    const int bits = radix_key_bits(p->type);
    size_t s, x;
    KIT_REQUIRE_GPU();
    for (s = 0; s < NGSIZES; s++) {
        const kit_shape sh = sort_shape(L->P, gpu_sizes[s], p->type, p->pairs, 0, bits);
        if (sh.n > kit_step_max_n(L, p->step)) continue;
        for (x = 0; x < RADIX_NINPUTS; x++)
            kit_expect_step(L, p->step, &sh, radix_inputs[x].name, 50 + s);
    }
}

ParameterizedTestParameters(ch05_gpu, bit_ranges)
{
    static sort_param p[SORT_PARAMS_MAX];
    return cr_make_param_array(sort_param, p, sort_params_all(p));
}

/* a few bit ranges (a pass with fewer bits than a digit, none at all, the top bit); gaps and range-256
 * make s6 skip passes inside a range ({8, 16} of gaps: no pass runs, a copy) */
ParameterizedTest(sort_param *p, ch05_gpu, bit_ranges, .timeout = 600)
{
    static const int r32[][2] = {{0, 0}, {0, 1}, {3, 17}, {8, 16}, {13, 32}, {31, 32}, {0, 31}};
    static const int r64[][2] = {{0, 0}, {5, 37}, {32, 64}, {63, 64}, {0, 63}};
    static const size_t sizes[] = {1023, (1u << 20) + 7};
    const kit_ladder *L = radix_ladders[p->ladder];
    const int wide = p->type == RADIX_U64;
    const size_t nr = wide ? sizeof r64 / sizeof *r64 : sizeof r32 / sizeof *r32;
    size_t j, s;
    KIT_REQUIRE_GPU();
    for (j = 0; j < nr; j++)
        for (s = 0; s < 2; s++) {
            const int b = wide ? r64[j][0] : r32[j][0], e = wide ? r64[j][1] : r32[j][1];
            const kit_shape sh = sort_shape(L->P, sizes[s], p->type, p->pairs, b, e);
            kit_expect_step(L, p->step, &sh, "uniform", 70 + j);
            kit_expect_step(L, p->step, &sh, p->type == RADIX_F32 ? "f32-normal" : "low-entropy", 80 + j);
            kit_expect_step(L, p->step, &sh, "gaps", 85 + j);
            kit_expect_step(L, p->step, &sh, "range-256", 90 + j);
        }
}

/* the tuning tables: every variant at the odd sizes, every input (keys, u32) */
KIT_TABLE_TEST(ch05_gpu, srts_variants, radix_srts_ladder)
KIT_TABLE_TEST(ch05_gpu, rowdask_variants, radix_rowdask_ladder)
KIT_TABLE_TEST(ch05_gpu, onesweep_variants, radix_onesweep_ladder)
KIT_TABLE_TEST(ch05_gpu, onesweep64_variants, radix_onesweep64_ladder)

/* ... and pairs of f32 keys */
static void table_pairs(const kit_ladder *L)
{
    size_t i, s;
    for (i = 0; i < L->count; i++)
        for (s = 0; s < kit_tuning_nsizes; s++) {
            const kit_shape sh = sort_shape(L->P, kit_tuning_sizes[s], RADIX_F32, 1, 0, 32);
            kit_expect_step(L, i, &sh, "f32-normal", 90 + s);
        }
}
Test(ch05_gpu, tuning_tables_pairs_f32)
{
    KIT_REQUIRE_GPU();
    table_pairs(&radix_srts_ladder);
    table_pairs(&radix_rowdask_ladder);
    table_pairs(&radix_onesweep_ladder);
}

/* the onesweep table's msd_hybrid row on i32 and f32 keys alone, on all 32 bits: the shape its own
 * kernels take (the table test above sorts u32 keys; pairs and bit ranges run s5), at the tuning
 * sizes on every input (at 2^20 + 7 the skewed inputs make groups larger than a block) */
Test(ch05_gpu, msd_hybrid_key_types, .timeout = 600)
{
    const kit_ladder *L = &radix_onesweep_ladder;
    size_t i, s, x;
    int rows = 0, t;
    KIT_REQUIRE_GPU();
    for (i = 0; i < L->count; i++) {
        if (strcmp(L->step(L, i)->name, "msd_hybrid") != 0) continue;
        rows++;
        for (t = RADIX_I32; t <= RADIX_F32; t++)
            for (s = 0; s < kit_tuning_nsizes; s++) {
                const kit_shape sh = sort_shape(L->P, kit_tuning_sizes[s], t, 0, 0, 32);
                for (x = 0; x < RADIX_NINPUTS; x++) kit_expect_step(L, i, &sh, radix_inputs[x].name, 100 + s);
            }
    }
    cr_assert_eq(rows, 1, "the onesweep table has %d msd_hybrid rows, expected 1", rows);
}

/* s11 where its split may run (32-bit keys alone, all bits, n >= about 2^27.75), at a size that is not
 * a multiple of anything, on every 32-bit key type: the split on uniform and sorted keys, s10's four
 * passes on top-twins (the sample's veto) and low-entropy keys (the estimate's) and no pass (a copy) on
 * identical ones; and the contract suite's checks on uniform and top-twins keys.  (Below that size s11
 * is s10: the ladder's tests.) */
Test(ch05_gpu, s11_routes, .timeout = 900)
{
    static const char *const inputs[] = {"uniform", "sorted", "top-twins", "low-entropy", "identical"};
    const kit_ladder *L = &radix_ladder;
    size_t i, x;
    int rows = 0, t;
    KIT_REQUIRE_GPU();
    for (i = 0; i < L->count; i++) {
        if (strcmp(L->step(L, i)->name, "s11_msd_hybrid") != 0) continue;
        rows++;
        for (t = RADIX_U32; t <= RADIX_F32; t++) {
            const kit_shape sh = sort_shape(L->P, 240000007u, t, 0, 0, 32);
            /* the whole contract where the split runs: every pointer off its alignment (each by a
             * different amount), guards, exact scratch, a second run on the dirty scratch, and a
             * created stream behind a busy kernel */
            const kit_contract_opts o = {1 + (size_t)t, 0, 1, 0, 0, 1};
            char msg[KIT_MSG];
            int ok = 0;
            for (x = 0; x < sizeof inputs / sizeof *inputs; x++) kit_expect_step(L, i, &sh, inputs[x], 110 + t);
            for (x = 0; x < 2; x++) {
                const kit_input *in = kit_input_find(L->P, inputs[2 * x]); /* uniform, top-twins */
                cr_assert(in != NULL);
                cr_assert(kit_contract_step(L, i, &sh, in, 120 + t, &o, &ok, msg, sizeof msg) == cudaSuccess && ok,
                          "%s", msg);
            }
        }
    }
    cr_assert_eq(rows, 1, "the ladder has %d s11_msd_hybrid rows, expected 1", rows);
}

/* s12 on every path it takes on this GPU: at each path's largest n, one less and one more (the next
 * path's first), and the sizes every step is tested at; keys and pairs of each 32-bit type, 64-bit keys
 * and pairs, several inputs, a few bit ranges; and the whole contract (pointers off their alignment,
 * guards, exact scratch, dirty scratch, a busy stream) at each path's largest n. */
static size_t step_row(const kit_ladder *L, const char *name)
{
    size_t i;
    for (i = 0; i < L->count; i++)
        if (strcmp(L->step(L, i)->name, name) == 0) return i;
    cr_assert_fail("%s has no %s row", L->id, name);
    return 0;
}

/* the sizes around s12's thresholds for (type, pairs), then the fixed ones: how many */
static size_t s12_sizes(int type, int pairs, size_t *out)
{
    static const size_t fixed[] = {0, 1, 31, 33, 1023, (1u << 20) + 7};
    size_t k = 0, j;
    int path;
    for (path = RADIX_S12_ONE_1K; path < RADIX_S12_LARGE; path++) {
        const size_t t = radix_s12_limit(type, pairs, path);
        if (t == 0) continue; /* the path does not fit this GPU */
        out[k++] = t - 1;
        out[k++] = t;
        out[k++] = t + 1;
    }
    for (j = 0; j < sizeof fixed / sizeof *fixed; j++) out[k++] = fixed[j];
    return k;
}

static void s12_expect(int wide, int type, int pairs)
{
    static const char *const inputs[] = {"uniform", "sorted", "reverse", "identical", "low-entropy", "f32-normal"};
    static const int r32[][2] = {{0, 32}, {0, 1}, {3, 17}, {8, 16}, {31, 32}};
    static const int r64[][2] = {{0, 64}, {5, 37}, {32, 64}, {63, 64}};
    const kit_ladder *L = wide ? &radix_ladder64 : &radix_ladder;
    const size_t row = step_row(L, "s12_small_sort");
    const size_t nr = wide ? sizeof r64 / sizeof *r64 : sizeof r32 / sizeof *r32;
    size_t sizes[32], ns, s, x, j;
    ns = s12_sizes(type, pairs, sizes);
    for (s = 0; s < ns; s++)
        for (j = 0; j < nr; j++) {
            const int b = wide ? r64[j][0] : r32[j][0], e = wide ? r64[j][1] : r32[j][1];
            const kit_shape sh = sort_shape(L->P, sizes[s], type, pairs, b, e);
            for (x = 0; x < sizeof inputs / sizeof *inputs; x++)
                if (j == 0 || x == 0 || x == 4) kit_expect_step(L, row, &sh, inputs[x], 130 + s);
        }
}

Test(ch05_gpu, s12_small_sort_thresholds, .timeout = 900)
{
    int t, p;
    KIT_REQUIRE_GPU();
    for (p = 0; p < 2; p++) {
        for (t = RADIX_U32; t <= RADIX_F32; t++) s12_expect(0, t, p);
        s12_expect(1, RADIX_U64, p);
    }
}

Test(ch05_gpu, s12_small_sort_contract, .timeout = 900)
{
    int path, p, w;
    KIT_REQUIRE_GPU();
    for (w = 0; w < 2; w++)
        for (p = 0; p < 2; p++)
            for (path = RADIX_S12_ONE_1K; path < RADIX_S12_LARGE; path++) {
                const kit_ladder *L = w ? &radix_ladder64 : &radix_ladder;
                const int type = w ? RADIX_U64 : RADIX_F32;
                const size_t n = radix_s12_limit(type, p, path), row = step_row(L, "s12_small_sort");
                const kit_contract_opts o = {1, 0, 1, 0, 0, 1};
                const kit_input *in = kit_input_find(L->P, w ? "uniform" : "f32-normal");
                char msg[KIT_MSG];
                int ok = 0;
                kit_shape sh;
                if (n == 0) continue;
                sh = sort_shape(L->P, n, type, p, 0, radix_key_bits(type));
                cr_assert(in != NULL);
                cr_assert(kit_contract_step(L, row, &sh, in, 140 + path, &o, &ok, msg, sizeof msg) == cudaSuccess && ok,
                          "path %d: %s", path, msg);
            }
}

/* s13 on every network path it takes on this GPU: keys alone on every bit at each path's largest n, one
 * less and one more (the next path's first, or s12's), every input of each 32-bit type and of 64-bit
 * keys (the f32 input's signed zeros, infinities and NaNs among them); the bit ranges and pairs s13
 * hands to s12 at the same sizes; and the whole contract at each path's largest n. */
static void s13_expect(int wide, int type)
{
    static const int r32[][2] = {{0, 32}, {0, 31}, {1, 32}, {3, 17}};
    static const int r64[][2] = {{0, 64}, {0, 63}, {5, 37}};
    const kit_ladder *L = wide ? &radix_ladder64 : &radix_ladder;
    const size_t row = step_row(L, "s13_sort_network");
    const size_t nr = wide ? sizeof r64 / sizeof *r64 : sizeof r32 / sizeof *r32;
    size_t sizes[16], ns = 0, s, x, j;
    int path, p;
    for (path = RADIX_S13_NET_1K; path < RADIX_S13_S12; path++) {
        const size_t t = radix_s13_limit(type, path);
        if (t == 0) continue;
        sizes[ns++] = t - 1;
        sizes[ns++] = t;
        sizes[ns++] = t + 1;
    }
    cr_assert(ns > 0, "no network path for type %d on this GPU", type);
    sizes[ns++] = 2;
    sizes[ns++] = 33;
    sizes[ns++] = 1500;
    for (s = 0; s < ns; s++)
        for (j = 0; j < nr; j++)
            for (p = 0; p < 2; p++) {
                const int b = wide ? r64[j][0] : r32[j][0], e = wide ? r64[j][1] : r32[j][1];
                const kit_shape sh = sort_shape(L->P, sizes[s], type, p, b, e);
                for (x = 0; x < RADIX_NINPUTS; x++)
                    if ((j == 0 && p == 0) || x == RADIX_IN_UNIFORM || x == RADIX_IN_SORTED)
                        kit_expect_step(L, row, &sh, radix_inputs[x].name, 150 + s);
            }
}

Test(ch05_gpu, s13_sort_network_thresholds, .timeout = 900)
{
    int t;
    KIT_REQUIRE_GPU();
    for (t = RADIX_U32; t <= RADIX_F32; t++) s13_expect(0, t);
    s13_expect(1, RADIX_U64);
}

Test(ch05_gpu, s13_sort_network_contract, .timeout = 900)
{
    int path, w;
    KIT_REQUIRE_GPU();
    for (w = 0; w < 2; w++)
        for (path = RADIX_S13_NET_1K; path < RADIX_S13_S12; path++) {
            const kit_ladder *L = w ? &radix_ladder64 : &radix_ladder;
            const int type = w ? RADIX_U64 : RADIX_F32;
            const size_t n = radix_s13_limit(type, path), row = step_row(L, "s13_sort_network");
            const kit_contract_opts o = {1, 0, 1, 0, 0, 1};
            const kit_input *in = kit_input_find(L->P, w ? "uniform" : "f32-normal");
            char msg[KIT_MSG];
            int ok = 0;
            kit_shape sh;
            if (n == 0) continue;
            sh = sort_shape(L->P, n, type, 0, 0, radix_key_bits(type));
            cr_assert(in != NULL);
            cr_assert(kit_contract_step(L, row, &sh, in, 160 + path, &o, &ok, msg, sizeof msg) == cudaSuccess && ok,
                      "path %d: %s", path, msg);
        }
}

/* s14 on every cluster path it takes on this GPU (none before sm_90: then every size is s13's): at
 * each path's largest n, one less and one more, and one past the block below it, keys alone of every
 * 32-bit type and of 64-bit keys, and pairs of 32-bit keys, every input; the bit ranges s14 hands to
 * s13 at the same sizes; and the whole contract at each path's largest n. */
static void s14_expect(int wide, int type, int pairs)
{
    static const int r32[][2] = {{0, 32}, {0, 31}, {1, 32}, {3, 17}};
    static const int r64[][2] = {{0, 64}, {0, 63}, {5, 37}};
    const kit_ladder *L = wide ? &radix_ladder64 : &radix_ladder;
    const size_t row = step_row(L, "s14_cluster_network");
    const size_t nr = wide ? sizeof r64 / sizeof *r64 : sizeof r32 / sizeof *r32;
    size_t sizes[16], ns = 0, s, x, j;
    int path;
    for (path = RADIX_S14_NET_2K; path < RADIX_S14_S13; path++) {
        const size_t t = radix_s14_limit(type, pairs, path);
        if (t == 0) continue;
        sizes[ns++] = t / 2 + 1;
        sizes[ns++] = t - 1;
        sizes[ns++] = t;
        sizes[ns++] = t + 1;
    }
    sizes[ns++] = 3001;
    for (s = 0; s < ns; s++)
        for (j = 0; j < nr; j++) {
            const int b = wide ? r64[j][0] : r32[j][0], e = wide ? r64[j][1] : r32[j][1];
            const kit_shape sh = sort_shape(L->P, sizes[s], type, pairs, b, e);
            for (x = 0; x < RADIX_NINPUTS; x++)
                if (j == 0 || x == RADIX_IN_UNIFORM || x == RADIX_IN_SORTED)
                    kit_expect_step(L, row, &sh, radix_inputs[x].name, 180 + s);
        }
}

/* 1 when s14's clusters must run here: the GPU (or the KIT_DEVICE profile) is sm_90 or later, launches
 * clusters, and the build holds sm_90 or later code for s14 (an ARCH=compute_75 build, JIT-compiled,
 * holds only the pre-sm_90 body and rightly takes none) */
static int s14_clusters_expected(void)
{
    const kit_device *d;
    kit_kernel_desc k;
    struct cudaFuncAttributes fa;
    int dev = 0, attr = 0;
    cr_assert(kit_device_get(&d) == cudaSuccess);
    cr_assert(radix_s14_describe(&k) == cudaSuccess);
    cr_assert(cudaFuncGetAttributes(&fa, k.func) == cudaSuccess);
    cr_assert(cudaGetDevice(&dev) == cudaSuccess);
    cr_assert(cudaDeviceGetAttribute(&attr, cudaDevAttrClusterLaunch, dev) == cudaSuccess);
    return d->cc_major >= 9 && attr && fa.binaryVersion >= 90 && fa.ptxVersion >= 90;
}

Test(ch05_gpu, s14_cluster_network_thresholds, .timeout = 900)
{
    int t;
    KIT_REQUIRE_GPU();
    if (s14_clusters_expected()) { /* else every size is s13's, which the sizes below still test */
        for (t = RADIX_U32; t <= RADIX_F32; t++) {
            cr_assert(radix_s14_limit(t, 0, RADIX_S14_NET_4K) > 0, "no cluster for 4096 keys of type %d", t);
            cr_assert(radix_s14_limit(t, 1, RADIX_S14_NET_2K) > 0, "no cluster for 2048 pairs of type %d", t);
            cr_assert(radix_s14_limit(t, 1, RADIX_S14_NET_4K) > 0, "no cluster for 4096 pairs of type %d", t);
        }
        cr_assert(radix_s14_limit(RADIX_U64, 0, RADIX_S14_NET_4K) > 0, "no cluster for 4096 64-bit keys");
    }
    for (t = RADIX_U32; t <= RADIX_F32; t++) {
        s14_expect(0, t, 0);
        s14_expect(0, t, 1);
    }
    s14_expect(1, RADIX_U64, 0);
}

Test(ch05_gpu, s14_cluster_network_contract, .timeout = 900)
{
    static const struct { int wide, type, pairs; } sorts[] = {
        {0, RADIX_F32, 0}, {0, RADIX_F32, 1}, {0, RADIX_U32, 1}, {1, RADIX_U64, 0}};
    size_t k;
    int path;
    KIT_REQUIRE_GPU();
    for (k = 0; k < sizeof sorts / sizeof *sorts; k++)
        for (path = RADIX_S14_NET_2K; path < RADIX_S14_S13; path++) {
            const kit_ladder *L = sorts[k].wide ? &radix_ladder64 : &radix_ladder;
            const int type = sorts[k].type;
            const size_t n = radix_s14_limit(type, sorts[k].pairs, path), row = step_row(L, "s14_cluster_network");
            const kit_contract_opts o = {1, 0, 1, 0, 0, 1};
            const kit_input *in = kit_input_find(L->P, type == RADIX_F32 ? "f32-normal" : "uniform");
            char msg[KIT_MSG];
            int ok = 0;
            kit_shape sh;
            if (n == 0) continue;
            sh = sort_shape(L->P, n, type, sorts[k].pairs, 0, radix_key_bits(type));
            cr_assert(in != NULL);
            cr_assert(kit_contract_step(L, row, &sh, in, 190 + path, &o, &ok, msg, sizeof msg) == cudaSuccess && ok,
                      "sort %zu, path %d: %s", k, path, msg);
        }
}

/* a network table (s13's tiles, s14's clusters): every row up to and past each tile, keys of every
 * input (32-bit and 64-bit), and pairs of f32 keys (the (key, position) rows' own kernel; the others
 * hand pairs on) */
static const size_t network_sizes[] = {1, 33, 1023, 1024, 2047, 2048, 4095, 4096, 4101};
#define NNETSIZES (sizeof network_sizes / sizeof *network_sizes)
static void expect_network_table(const kit_ladder *L, const kit_ladder *L64)
{
    size_t i, s;
    kit_expect_ladder(L, network_sizes, NNETSIZES, NULL);
    kit_expect_ladder(L64, network_sizes, NNETSIZES, NULL);
    for (i = 0; i < L->count; i++)
        for (s = 0; s < NNETSIZES; s++) {
            const kit_shape sh = sort_shape(L->P, network_sizes[s], RADIX_F32, 1, 0, 32);
            kit_expect_step(L, i, &sh, "f32-normal", 170 + s);
        }
}

Test(ch05_gpu, network_variants, .timeout = 600)
{
    KIT_REQUIRE_GPU();
    expect_network_table(&radix_network_ladder, &radix_network64_ladder);
}

/* s14's cluster table the same way (a GPU before sm_90 runs none of its rows: they are unsupported) */
Test(ch05_gpu, cluster_variants, .timeout = 600)
{
    KIT_REQUIRE_GPU();
    expect_network_table(&radix_cluster_ladder, &radix_cluster64_ladder);
}

/* the onesweep rows with persistent blocks, at a size where each block of the resident grid loops
 * over several tiles (the tuning sizes stay below one tile per block): keys and pairs, u32 and f32 */
Test(ch05_gpu, onesweep_persistent_rows_loop, .timeout = 900)
{
    const kit_ladder *L = &radix_onesweep_ladder;
    const size_t n = (1u << 23) + 13; /* about 1100 tiles of 7680 or fewer, against 132 x 3 blocks at most */
    size_t i;
    int rows = 0;
    KIT_REQUIRE_GPU();
    for (i = 0; i < L->count; i++) {
        const kit_shape k32 = sort_shape(L->P, n, RADIX_U32, 0, 0, 32);
        const kit_shape f32 = sort_shape(L->P, n, RADIX_F32, 1, 0, 32);
        if (!strstr(L->step(L, i)->param, "persistent")) continue;
        rows++;
        kit_expect_step(L, i, &k32, "uniform", 95);
        kit_expect_step(L, i, &k32, "range-256", 96);
        kit_expect_step(L, i, &f32, "f32-normal", 97);
    }
    cr_assert(rows > 0, "the onesweep table has no persistent rows");
}

/* A device fault while Thrust sorts (a kernel on another stream stores through a null pointer half a
 * millisecond in; the comparator's merge sort of 2^25 keys takes longer): the yardstick returns it.
 * Thrust throws a CUDA error, also from the noexcept function that frees its temporary storage,
 * where it would end the process (reference/kit_thrust.cuh).  Nothing can use the GPU after it:
 * a test alone. */
Test(ch05_gpu, thrust_returns_a_fault, .timeout = KIT_GPU_TIMEOUT)
{
    const size_t n = (size_t)1 << 25;
    uint32_t *d = NULL;
    cudaStream_t s = NULL, other = NULL;
    cudaError_t e;
    KIT_REQUIRE_GPU();
    cr_assert_eq(cudaMalloc((void **)&d, 2 * n * 4), cudaSuccess);
    cr_assert_eq(kit_poison(d, n * 4, 0), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    cr_assert_eq(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
    cr_assert_eq(kit_busy_fault(other, 0.5), cudaSuccess);
    e = radix_yard_thrust(d, d + n, NULL, NULL, n, RADIX_U32, 0, 31, NULL, s);
    if (e == cudaSuccess) { /* a GPU that sorted before the fault came: the next call starts in it */
        (void)cudaStreamSynchronize(other);
        e = radix_yard_thrust(d, d + n, NULL, NULL, n, RADIX_U32, 0, 31, NULL, s);
    }
    cr_assert_neq(e, cudaSuccess, "thrust_sort returned success through a device fault");
    cr_log_info("thrust_sort through a device fault: %s", cudaGetErrorName(e));
}

/* ------------------------------------------------------------- contract */

KIT_CONTRACT_TESTS(ch05_contract, radix_ladders, RADIX_NLADDERS, RADIX_NMAIN)
