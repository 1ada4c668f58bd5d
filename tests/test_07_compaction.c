/* test_07_compaction.c - chapter 07: the CPU baselines against a naive reference on every
 * input, size and mode; the inputs' promised fractions; the argument checks; the comparison
 * (it must reject wrong outputs); then every step of every ladder against the CPU
 * reference for sizes 0 .. 2^24 x inputs x modes (order exactly where a step keeps it, the
 * multiset and the count for KIT_UNORDERED steps), the other modes under the contract, and
 * the contract suite. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compact.h"
#include "compact_problem.h"
#include "kit_test.h"

/* ------------------------------------------------------------------ CPU */

TestSuite(ch07_cpu, .timeout = KIT_CPU_TIMEOUT);

#define POISON32 0xA5A5A5A5u
#define TAIL 8 /* guard words after every output */

/* the naive answers, written here independently of compact_cpu.c */
static size_t naive_select(const uint32_t *in, const uint8_t *flags, size_t n, int mode, uint32_t *out)
{
    size_t i, c = 0;
    for (i = 0; i < n; i++) {
        const int sel = (mode & 1) ? flags[i] != 0 : in[i] < 0x80000000u;
        if (sel) out[c++] = (mode & 2) ? in[i] : (uint32_t)i;
    }
    return c;
}

static size_t naive_partition(const uint32_t *in, const uint8_t *flags, size_t n, int mode, uint32_t *out)
{
    size_t i, c = naive_select(in, flags, n, mode, out), k = c;
    for (i = n; i-- > 0;) { /* the rejected ones, last first */
        const int sel = (mode & 1) ? flags[i] != 0 : in[i] < 0x80000000u;
        if (!sel) out[k++] = (mode & 2) ? in[i] : (uint32_t)i;
    }
    return c;
}

static size_t naive_unique(const uint32_t *in, size_t n, int mode, uint32_t *out)
{
    size_t i, c = 0;
    for (i = 0; i < n; i++)
        if (i == 0 || in[i] != in[i - 1]) out[c++] = (mode & 2) ? in[i] : (uint32_t)i;
    return c;
}

static uint32_t *poisoned(size_t n)
{
    uint32_t *a = malloc((n + TAIL) * sizeof *a);
    size_t i;
    cr_assert(a);
    for (i = 0; i < n + TAIL; i++) a[i] = POISON32;
    return a;
}

/* got[0..c) == want[0..c), and got[c..n + TAIL) untouched */
static void expect_out(const uint32_t *got, const uint32_t *want, size_t c, size_t n, const char *who)
{
    size_t i;
    for (i = 0; i < c; i++) cr_assert_eq(got[i], want[i], "%s: out[%zu] = %u, want %u (count %zu)", who, i, got[i], want[i], c);
    for (i = c; i < n + TAIL; i++) cr_assert_eq(got[i], POISON32, "%s: out[%zu] written (count %zu, n %zu)", who, i, c, n);
}

static const size_t cpu_sizes[] = {0, 1, 2, 31, 32, 33, 1023, 1025, 4095, 4096, 4097, 8193, 65537, (1u << 20) + 7};
#define NCPU_SIZES (sizeof cpu_sizes / sizeof *cpu_sizes)

static void baselines_on(const kit_input *inp, size_t n, uint64_t seed)
{
    uint32_t *in = malloc((n + 1) * sizeof *in), *want = malloc((n + 1) * sizeof *want);
    uint8_t *flags = malloc(n + 1);
    char who[160];
    int mode;
    cr_assert(in && want && flags);
    compact_generate(in, flags, n, inp->arg, inp->value, seed);
    for (mode = 0; mode <= COMPACT_MODE_MAX; mode++) {
        uint32_t *a = poisoned(n), *b = poisoned(n), *p = poisoned(n), *u = poisoned(n);
        size_t wc = naive_select(in, flags, n, mode, want), c;
        snprintf(who, sizeof who, "input %s n=%zu mode %d", inp->name, n, mode);
        c = compact_cpu_serial(in, flags, COMPACT_THRESHOLD, a, n, mode);
        cr_assert_eq(c, wc, "serial, %s: count %zu, want %zu", who, c, wc);
        expect_out(a, want, wc, n, who);
        c = compact_cpu_two_pass(in, flags, COMPACT_THRESHOLD, b, n, mode);
        cr_assert_eq(c, wc, "two_pass, %s: count %zu, want %zu", who, c, wc);
        expect_out(b, want, wc, n, who);
        wc = naive_partition(in, flags, n, mode, want);
        c = compact_cpu_partition(in, flags, COMPACT_THRESHOLD, p, n, mode);
        cr_assert_eq(c, wc, "partition, %s: count %zu, want %zu", who, c, wc);
        expect_out(p, want, n, n, who);
        wc = naive_unique(in, n, mode, want);
        c = compact_cpu_unique(in, u, n, mode);
        cr_assert_eq(c, wc, "unique, %s: count %zu, want %zu", who, c, wc);
        expect_out(u, want, wc, n, who);
        free(a), free(b), free(p), free(u);
    }
    free(in), free(want), free(flags);
}

Test(ch07_cpu, baselines_agree_on_every_input)
{
    size_t s, x;
    for (s = 0; s < NCPU_SIZES; s++) {
        for (x = 0; x < COMPACT_NINPUTS; x++) baselines_on(&compact_inputs[x], cpu_sizes[s], 10 + s);
        for (x = 0; x < COMPACT_UNIQUE_NINPUTS; x++) baselines_on(&compact_unique_inputs[x], cpu_sizes[s], 40 + s);
    }
}

/* the two-pass baseline's branch-free stores must stay inside [0, count) whatever the
 * pattern of empty chunks (selected elements only in the first, middle or last chunk) */
Test(ch07_cpu, two_pass_around_empty_chunks)
{
    const size_t n = 5 * COMPACT_CPU_CHUNK + 17;
    static const size_t where[][2] = {{0, 1}, {COMPACT_CPU_CHUNK - 1, 1}, {2 * COMPACT_CPU_CHUNK + 5, 3},
                                      {n - 1, 1}, {COMPACT_CPU_CHUNK, COMPACT_CPU_CHUNK}, {0, 0}};
    uint32_t *in = malloc(n * sizeof *in), *want = malloc(n * sizeof *want);
    size_t k, i;
    cr_assert(in && want);
    for (k = 0; k < sizeof where / sizeof *where; k++) {
        uint32_t *got = poisoned(n);
        size_t wc, c;
        for (i = 0; i < n; i++) in[i] = 0x80000000u | (uint32_t)i; /* rejected */
        for (i = where[k][0]; i < where[k][0] + where[k][1]; i++) in[i] = (uint32_t)i; /* selected */
        wc = naive_select(in, NULL, n, COMPACT_IF | COMPACT_VALUE, want);
        c = compact_cpu_two_pass(in, NULL, COMPACT_THRESHOLD, got, n, COMPACT_IF | COMPACT_VALUE);
        cr_assert_eq(c, wc, "selected run at %zu (+%zu): count %zu, want %zu", where[k][0], where[k][1], c, wc);
        expect_out(got, want, wc, n, "two_pass around empty chunks");
        free(got);
    }
    free(in), free(want);
}

Test(ch07_cpu, thresholds_at_the_ends)
{
    static const uint32_t in[5] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
    uint32_t out[5 + TAIL];
    size_t i;
    for (i = 0; i < 5 + TAIL; i++) out[i] = POISON32;
    cr_assert_eq(compact_cpu_serial(in, NULL, 0, out, 5, COMPACT_IF), 0, "threshold 0 selects nothing");
    cr_assert_eq(out[0], POISON32);
    cr_assert_eq(compact_cpu_serial(in, NULL, (uint64_t)1 << 32, out, 5, COMPACT_IF | COMPACT_VALUE), 5,
                 "threshold 2^32 selects everything");
    cr_assert_eq(out[4], 0xFFFFFFFFu);
    cr_assert_eq(compact_cpu_two_pass(in, NULL, COMPACT_THRESHOLD, out, 5, COMPACT_IF), 3);
    cr_assert(out[0] == 0 && out[1] == 1 && out[2] == 2, "indices 0 1 2");
}

/* the elements of in[0..n) below 2^31 (the flags must say the same); keep: the data */
static size_t selected(const kit_input *inp, size_t n, uint64_t seed, uint32_t **keep)
{
    uint32_t *in = malloc((n + 1) * sizeof *in);
    uint8_t *flags = malloc(n + 1);
    size_t i, c = 0;
    cr_assert(in && flags);
    compact_generate(in, flags, n, inp->arg, inp->value, seed);
    for (i = 0; i < n; i++) {
        cr_assert_eq(flags[i], in[i] < 0x80000000u, "%s n=%zu: flags[%zu] = %u for in = 0x%08x", inp->name, n, i,
                     flags[i], in[i]);
        c += in[i] < 0x80000000u;
    }
    free(flags);
    if (keep) *keep = in;
    else free(in);
    return c;
}

static double fraction(const kit_input *inp, size_t n, uint64_t seed, uint32_t **keep)
{
    const size_t c = selected(inp, n, seed, keep);
    return n ? (double)c / (double)n : 0.0;
}

Test(ch07_cpu, inputs_give_their_fractions)
{
    const size_t n = (1u << 20) + 7;
    static const size_t small[] = {1, 2, 31, 33, 1025};
    uint32_t *a, *b;
    size_t x, i, k, flips = 0, longest = 0, run = 1;
    for (x = 0; x < COMPACT_NINPUTS; x++) {
        const kit_input *inp = &compact_inputs[x];
        const double f = fraction(inp, n, 5, NULL);
        if (inp->arg == COMPACT_IN_P) {
            if (inp->value == 0.0) cr_assert_eq(f, 0.0, "%s: fraction %g", inp->name, f);
            else if (inp->value == 1.0) cr_assert_eq(f, 1.0, "%s: fraction %g", inp->name, f);
            else cr_assert(f > inp->value - 0.005 && f < inp->value + 0.005, "%s: fraction %g", inp->name, f);
            cr_assert_eq(strncmp(inp->name, "p=", 2), 0);
            cr_assert_eq(strtod(inp->name + 2, NULL), inp->value, "%s carries p = %g", inp->name, inp->value);
        }
    }
    /* p=1/n: exactly one, at every size */
    for (k = 0; k < sizeof small / sizeof *small; k++)
        cr_assert_eq(selected(kit_input_find(&compact_select_problem, "p=1/n"), small[k], 3 + k, NULL), 1,
                     "p=1/n at n = %zu", small[k]);
    cr_assert_eq(selected(kit_input_find(&compact_select_problem, "p=1/n"), n, 9, NULL), 1);
    /* runs: about half, in long runs */
    cr_assert(fabs(fraction(kit_input_find(&compact_select_problem, "runs-0.50"), n, 4, &a) - 0.5) < 0.05);
    for (i = 1; i < n; i++) flips += (a[i] < 0x80000000u) != (a[i - 1] < 0x80000000u);
    cr_assert(flips > n / 1024 && flips < n / 128, "runs-0.50: %zu changes of state in %zu elements", flips, n);
    free(a);
    /* sorted: ascending, the selection a prefix of about half */
    cr_assert(fabs(fraction(kit_input_find(&compact_select_problem, "sorted"), n, 4, &a) - 0.5) < 0.01);
    for (i = 1; i < n; i++) cr_assert_leq(a[i - 1], a[i], "sorted at %zu", i);
    free(a);
    /* dups: runs of at most 8 equal values, about half selected; dups-long up to 1000 */
    cr_assert(fabs(fraction(kit_input_find(&compact_select_problem, "dups"), n, 4, &a) - 0.5) < 0.02);
    for (i = 1; i < n; i++) {
        run = a[i] == a[i - 1] ? run + 1 : 1;
        if (run > longest) longest = run;
    }
    cr_assert(longest >= 6 && longest <= 8, "dups: longest run %zu", longest);
    free(a);
    fraction(kit_input_find(&compact_unique_problem, "dups-long"), n, 4, &a);
    for (i = 1, longest = 0, run = 1; i < n; i++) {
        run = a[i] == a[i - 1] ? run + 1 : 1;
        if (run > longest) longest = run;
    }
    cr_assert(longest >= 900 && longest <= 1000, "dups-long: longest run %zu", longest);
    free(a);
    fraction(kit_input_find(&compact_unique_problem, "identical"), 1000, 4, &a);
    for (i = 1; i < 1000; i++) cr_assert_eq(a[i], a[0]);
    free(a);
    /* seeded: the same seed gives the same data, another seed other data */
    fraction(&compact_inputs[0], 4096, 77, &a);
    fraction(&compact_inputs[0], 4096, 77, &b);
    cr_assert_arr_eq(a, b, 4096 * sizeof *a, "same seed, same data");
    free(b);
    fraction(&compact_inputs[0], 4096, 78, &b);
    cr_assert(memcmp(a, b, 4096 * sizeof *a) != 0, "another seed, other data");
    free(a), free(b);
}

Test(ch07_cpu, argument_checks)
{
    /* fake, never dereferenced device addresses */
    const uint32_t *in = (const uint32_t *)(uintptr_t)0x10000, *out = (const uint32_t *)(uintptr_t)0x20000;
    const uint32_t *cnt = (const uint32_t *)(uintptr_t)0x30000;
    const uint8_t *fl = (const uint8_t *)(uintptr_t)0x40001; /* flags at any address */
    const void *scr = (const void *)(uintptr_t)0x50000;
    int mode;
    for (mode = 0; mode <= COMPACT_MODE_MAX; mode++)
        cr_assert_eq(compact_check(in, fl, out, cnt, 100, mode, scr), cudaSuccess, "mode %d", mode);
    cr_assert_eq(compact_check(in + 1, fl + 3, out + 5, cnt + 7, 100, 3, scr), cudaSuccess, "any 4-byte address");
    cr_assert_eq(compact_check(in, NULL, out, cnt, 100, COMPACT_IF, scr), cudaSuccess, "no flags needed for If");
    cr_assert_eq(compact_check(in, NULL, out, cnt, 100, COMPACT_FLAGGED, scr), cudaErrorInvalidValue,
                 "flagged without flags");
    cr_assert_eq(compact_check(in, NULL, out, cnt, 0, COMPACT_FLAGGED, NULL), cudaSuccess, "n = 0: nothing read");
    cr_assert_eq(compact_check(NULL, NULL, NULL, cnt, 0, 0, NULL), cudaSuccess, "n = 0 with only a count");
    cr_assert_eq(compact_check(in, fl, out, NULL, 0, 0, scr), cudaErrorInvalidValue, "the count is always written");
    cr_assert_eq(compact_check(NULL, fl, out, cnt, 1, 0, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check(in, fl, NULL, cnt, 1, 0, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check(in, fl, out, cnt, 100, -1, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check(in, fl, out, cnt, 100, COMPACT_MODE_MAX + 1, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check(in, fl, out, cnt, COMPACT_MAX_N, 0, scr), cudaSuccess);
    cr_assert_eq(compact_check(in, fl, out, cnt, COMPACT_MAX_N + 1, 0, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check((const uint32_t *)((const char *)in + 2), fl, out, cnt, 100, 0, scr),
                 cudaErrorMisalignedAddress);
    cr_assert_eq(compact_check(in, fl, (const uint32_t *)((const char *)out + 1), cnt, 100, 0, scr),
                 cudaErrorMisalignedAddress);
    cr_assert_eq(compact_check(in, fl, out, (const uint32_t *)((const char *)cnt + 3), 100, 0, scr),
                 cudaErrorMisalignedAddress);
    cr_assert_eq(compact_check(in, fl, out, cnt, 100, 0, (const char *)scr + 128), cudaErrorMisalignedAddress,
                 "scratch 256-byte aligned");
    cr_assert_eq(compact_check(in, fl, out, cnt, COMPACT_MAX_N + 1, 0, (const char *)scr + 1), cudaErrorInvalidValue,
                 "the size is checked before the alignment");
    /* unique has no predicate: any mode 0 .. 3, flags never needed (compact.h) */
    for (mode = 0; mode <= COMPACT_MODE_MAX; mode++)
        cr_assert_eq(compact_check_unique(in, out, cnt, 100, mode, scr), cudaSuccess, "unique, mode %d, no flags",
                     mode);
    cr_assert_eq(compact_check_unique(in, out, cnt, 100, -1, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check_unique(in, out, cnt, 100, COMPACT_MODE_MAX + 1, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check_unique(in, out, cnt, COMPACT_MAX_N + 1, 0, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check_unique(in, out, NULL, 0, COMPACT_FLAGGED, scr), cudaErrorInvalidValue,
                 "unique: the count is always written");
    cr_assert_eq(compact_check_unique(NULL, out, cnt, 1, COMPACT_FLAGGED, scr), cudaErrorInvalidValue);
    cr_assert_eq(compact_check_unique((const uint32_t *)((const char *)in + 2), out, cnt, 100, 3, scr),
                 cudaErrorMisalignedAddress);
}

Test(ch07_cpu, step_tables_are_consistent)
{
    size_t l, i;
    cr_assert_geq(compact_nladders, COMPACT_NMAIN + 1);
    for (l = 0; l < compact_nladders; l++) {
        const kit_ladder *L = compact_ladders[l];
        kit_expect_table(L);
        for (i = 0; i < L->count; i++) { /* the atomic steps, and only they, do not keep order */
            const kit_step_info *s = L->step(L, i);
            const int atomic = strstr(s->name, "atomic") != NULL;
            cr_assert_eq(!!(s->flags & KIT_UNORDERED), atomic, "%s %s: KIT_UNORDERED is %s", L->id, s->name,
                         s->flags & KIT_UNORDERED ? "set" : "not set");
        }
    }
    cr_assert_str_eq(compact_select_ladder.step(&compact_select_ladder, 3)->name, "s3_ballot_rank");
}

/* a host-only context of ladder L at (n, mode, input) */
static kit_ctx *host_ctx(const kit_ladder *L, size_t n, int mode, const char *input)
{
    const kit_shape sh = compact_shape(L->P, n, mode);
    kit_ctx *c = NULL;
    cr_assert_eq(kit_ctx_new(L, &sh, kit_input_find(L->P, input), 3, 0, &c), cudaSuccess);
    return c;
}

/* what a step "wrote": a copy of the reference, out and count (inputs shared) */
typedef struct fake {
    kit_host h;
    uint32_t *out, count;
} fake;
static void fake_from(fake *f, const kit_host *want, size_t n)
{
    memset(f, 0, sizeof *f);
    f->h = *want;
    f->out = malloc((n + 1) * sizeof *f->out);
    cr_assert(f->out);
    memcpy(f->out, want->buf[COMPACT_BUF_OUT], n * sizeof *f->out);
    f->count = *(const uint32_t *)want->buf[COMPACT_BUF_COUNT];
    f->h.buf[COMPACT_BUF_OUT] = f->out;
    f->h.buf[COMPACT_BUF_COUNT] = &f->count;
}

static int judge(const kit_ladder *L, const kit_host *want, const fake *f, size_t n, int mode, unsigned flags)
{
    const kit_shape sh = compact_shape(L->P, n, mode);
    char msg[KIT_MSG];
    return kit_compare_outputs(L->P, want, &f->h, &sh, flags, msg, sizeof msg);
}

/* The comparison must pass the right answer, let KIT_UNORDERED steps reorder, and fail each
 * wrong output a broken step could make. */
Test(ch07_cpu, compare_rejects_wrong_outputs)
{
    const size_t n = 1025;
    int mode;
    for (mode = 0; mode <= COMPACT_MODE_MAX; mode++) {
        kit_ctx *c = host_ctx(&compact_select_ladder, n, mode, "p=0.50");
        const kit_host *want = kit_ctx_want(c);
        const uint32_t wc = *(const uint32_t *)want->buf[COMPACT_BUF_COUNT];
        fake f;
        uint32_t t;
        cr_assert(wc > 400 && wc < 625, "p=0.50 at 1025 selected %u", wc);
        fake_from(&f, want, n);
        cr_assert(judge(&compact_select_ladder, want, &f, n, mode, 0), "the reference itself, in order");
        cr_assert(judge(&compact_select_ladder, want, &f, n, mode, KIT_UNORDERED), "the reference, as a set");
        /* reordered: a set, not in order */
        t = f.out[0], f.out[0] = f.out[wc - 1], f.out[wc - 1] = t;
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, 0), "mode %d: swapped elements in order", mode);
        cr_assert(judge(&compact_select_ladder, want, &f, n, mode, KIT_UNORDERED), "mode %d: swapped, as a set", mode);
        free(f.out);
        /* the last element dropped (count one short, its slot left poisoned) */
        fake_from(&f, want, n);
        f.count--, f.out[wc - 1] = POISON32;
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, 0), "mode %d: last element dropped", mode);
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, KIT_UNORDERED), "mode %d: dropped, set", mode);
        /* the count right but the last element dropped */
        f.count++;
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, KIT_UNORDERED), "mode %d: poisoned slot", mode);
        free(f.out);
        /* one element twice, another missing */
        fake_from(&f, want, n);
        f.out[1] = f.out[0];
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, 0), "mode %d: duplicate", mode);
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, KIT_UNORDERED), "mode %d: duplicate, set", mode);
        free(f.out);
        /* a write past the count */
        fake_from(&f, want, n);
        f.out[wc] = 0;
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, 0), "mode %d: wrote out[count]", mode);
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, KIT_UNORDERED), "mode %d: out[count], set", mode);
        free(f.out);
        /* a count one too many */
        fake_from(&f, want, n);
        f.count++;
        cr_assert(!judge(&compact_select_ladder, want, &f, n, mode, KIT_UNORDERED), "mode %d: count + 1", mode);
        free(f.out);
        kit_ctx_free(c);
    }
    /* partition: the rejected tail reversed is the contract; in input order it is wrong */
    {
        kit_ctx *c = host_ctx(&compact_partition_ladder, n, COMPACT_IF | COMPACT_INDEX, "p=0.50");
        const kit_host *want = kit_ctx_want(c);
        const uint32_t wc = *(const uint32_t *)want->buf[COMPACT_BUF_COUNT];
        fake f;
        size_t i;
        fake_from(&f, want, n);
        cr_assert(judge(&compact_partition_ladder, want, &f, n, 0, 0));
        for (i = wc; i < n; i++) f.out[i] = ((const uint32_t *)want->buf[COMPACT_BUF_OUT])[n - 1 - (i - wc)];
        cr_assert(!judge(&compact_partition_ladder, want, &f, n, 0, KIT_UNORDERED),
                  "partition: the rejected elements in input order");
        free(f.out);
        kit_ctx_free(c);
    }
}

/* the bytes of a row follow the data: p = 0 writes nothing, p = 1 everything */
Test(ch07_cpu, bytes_follow_the_data)
{
    const size_t n = 4096;
    kit_ctx *c0 = host_ctx(&compact_select_ladder, n, COMPACT_IF | COMPACT_INDEX, "p=0.00");
    kit_ctx *c1 = host_ctx(&compact_select_ladder, n, COMPACT_IF | COMPACT_INDEX, "p=1.00");
    kit_ctx *f1 = host_ctx(&compact_select_ladder, n, COMPACT_FLAGGED | COMPACT_INDEX, "p=1.00");
    kit_ctx *v1 = host_ctx(&compact_select_ladder, n, COMPACT_FLAGGED | COMPACT_VALUE, "p=1.00");
    kit_ctx *pa = host_ctx(&compact_partition_ladder, n, COMPACT_IF | COMPACT_VALUE, "p=0.00");
    cr_assert_eq(kit_ctx_bytes(c0, 0), 4.0 * n + 4, "p=0: the values read and the count");
    cr_assert_eq(kit_ctx_bytes(c1, 0), 8.0 * n + 4, "p=1: every element written too");
    cr_assert_eq(kit_ctx_bytes(f1, 0), 5.0 * n + 4, "flagged indices: the flags read, no values");
    cr_assert_eq(kit_ctx_bytes(v1, 0), 9.0 * n + 4, "flagged values: flags and values read");
    cr_assert_eq(kit_ctx_bytes(pa, 0), 8.0 * n + 4, "a partition writes all n");
    kit_ctx_free(c0), kit_ctx_free(c1), kit_ctx_free(f1), kit_ctx_free(v1), kit_ctx_free(pa);
}

/* ------------------------------------------------------------------ GPU */

typedef struct step_param {
    size_t ladder, step;
} step_param;

static size_t main_steps(step_param *out, size_t max)
{
    size_t l, i, k = 0;
    for (l = 0; l < COMPACT_NMAIN; l++)
        for (i = 0; i < compact_ladders[l]->count && k < max; i++) out[k++] = (step_param){l, i};
    return k;
}

static const char *const select_test_inputs[] = {"p=0.00", "p=1/n", "p=0.50", "p=1.00", "runs-0.50", "sorted", "dups"};

/* sizes x inputs x modes: every step against the CPU (kit_expect_step: the problem's compare) */
static void expect_everywhere(const kit_ladder *L, size_t i, const size_t *sizes, size_t nsizes)
{
    const int unique = compact_problem_task(L->P) == COMPACT_TASK_UNIQUE;
    const size_t ninputs = unique ? COMPACT_UNIQUE_NINPUTS : sizeof select_test_inputs / sizeof *select_test_inputs;
    size_t s, x;
    int mode;
    for (s = 0; s < nsizes; s++)
        for (x = 0; x < ninputs; x++)
            for (mode = 0; mode <= COMPACT_MODE_MAX; mode++) {
                const kit_shape sh = compact_shape(L->P, sizes[s], mode);
                if (unique && (mode & COMPACT_PRED_MASK)) continue;
                kit_expect_step(L, i, &sh, unique ? compact_unique_inputs[x].name : select_test_inputs[x],
                                100 + 7 * s + x);
            }
}

ParameterizedTestParameters(ch07_gpu, steps)
{
    static step_param p[64];
    const size_t n = main_steps(p, 64);
    return cr_make_param_array(step_param, p, n);
}

ParameterizedTest(step_param *p, ch07_gpu, steps, .timeout = 900)
{
    KIT_REQUIRE_GPU();
    expect_everywhere(compact_ladders[p->ladder], p->step, kit_test_sizes, kit_test_nsizes);
}

/* the other ladders (phases, tuning tables): every step at the tuning sizes, inputs, modes */
Test(ch07_gpu, phase_and_tuning_ladders, .timeout = 900)
{
    size_t l, i;
    KIT_REQUIRE_GPU();
    for (l = COMPACT_NMAIN; l < compact_nladders; l++)
        for (i = 0; i < compact_ladders[l]->count; i++)
            expect_everywhere(compact_ladders[l], i, kit_tuning_sizes, kit_tuning_nsizes);
}

/* s7's table rows at a size where every block of the resident grid takes several tiles (the tuning
 * sizes above stay below one tile per block of the grid) */
Test(ch07_gpu, persistent_rows_loop, .timeout = 900)
{
    static const char *const inputs[] = {"p=0.50", "sorted"};
    const size_t n = (1u << 23) + 13; /* 1024 .. 2049 tiles against at most 132 x 8 blocks on an H100 */
    size_t i, x;
    int mode;
    KIT_REQUIRE_GPU();
    for (i = 0; i < compact_pp_ladder.count; i++)
        for (x = 0; x < 2; x++)
            for (mode = 0; mode <= COMPACT_MODE_MAX; mode++) {
                const kit_shape sh = compact_shape(compact_pp_ladder.P, n, mode);
                kit_expect_step(&compact_pp_ladder, i, &sh, inputs[x], 900 + 5 * i + x);
            }
}

/* A device fault during Thrust's copy_if (a kernel on another stream stores through a null pointer
 * 50 us in, while the call reads 2^27 values): the yardstick returns it.  Thrust throws a CUDA error,
 * also from the noexcept function that frees its temporary storage, where it would end the process
 * (reference/kit_thrust.cuh).  Nothing can use the GPU after it: a test alone. */
Test(ch07_gpu, thrust_returns_a_fault, .timeout = KIT_GPU_TIMEOUT)
{
    const size_t n = (size_t)1 << 27;
    uint32_t *d = NULL, *count = NULL;
    cudaStream_t s = NULL, other = NULL;
    cudaError_t e;
    KIT_REQUIRE_GPU();
    cr_assert_eq(cudaMalloc((void **)&d, 2 * n * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&count, 4), cudaSuccess);
    cr_assert_eq(kit_poison(d, n * 4, 0), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    cr_assert_eq(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
    cr_assert_eq(kit_busy_fault(other, 0.05), cudaSuccess);
    e = compact_yard_thrust_copy_if(d, NULL, 1u << 31, d + n, count, n, COMPACT_IF | COMPACT_VALUE, NULL, s);
    if (e == cudaSuccess) { /* a GPU that finished before the fault came: the next call starts in it */
        (void)cudaStreamSynchronize(other);
        e = compact_yard_thrust_copy_if(d, NULL, 1u << 31, d + n, count, n, COMPACT_IF | COMPACT_VALUE, NULL, s);
    }
    cr_assert_neq(e, cudaSuccess, "thrust_copy_if returned success through a device fault");
    cr_log_info("thrust_copy_if through a device fault: %s", cudaGetErrorName(e));
}

/* The contract suite below runs each problem's default mode; here the others, with the
 * buffers offset (flags by odd bytes) and guarded, on the main ladders. */
ParameterizedTestParameters(ch07_gpu, contract_other_modes)
{
    static step_param p[64];
    const size_t n = main_steps(p, 64);
    return cr_make_param_array(step_param, p, n);
}

ParameterizedTest(step_param *p, ch07_gpu, contract_other_modes, .timeout = 600)
{
    static const size_t sizes[] = {1, 33, 1025, 4099, 65537, (1u << 20) + 7};
    const kit_ladder *L = compact_ladders[p->ladder];
    char msg[KIT_MSG];
    size_t s;
    int mode, ok;
    const kit_shape def = kit_shape_default(L->P, 1);
    KIT_REQUIRE_GPU();
    for (mode = 0; mode <= COMPACT_MODE_MAX; mode++)
        for (s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            const kit_shape sh = compact_shape(L->P, sizes[s], mode);
            const kit_contract_opts o = {1 + s % 2, 1 + (5 * s) % 15, s == 2, 0};
            if (mode == compact_shape_mode(L->P, &def)) continue; /* the contract suite's own */
            if (compact_problem_task(L->P) == COMPACT_TASK_UNIQUE && (mode & COMPACT_PRED_MASK)) continue;
            ok = 0;
            cr_assert(kit_contract_step(L, p->step, &sh, &L->P->inputs[s % L->P->ninputs], 300 + s, &o, &ok, msg,
                                        sizeof msg) == cudaSuccess && ok,
                      "mode %d: %s", mode, msg);
        }
}

/* ------------------------------------------------------------- contract */

KIT_CONTRACT_TESTS(ch07_contract, compact_ladders, compact_nladders, COMPACT_NMAIN)
