/* test_04_exercises.c - chapter 04's exercises: ex04_packed (packed_slot, packed_pairs,
 * packed_unpair, packed_add4, packed_rowsum_period: the packed 8-bit counters, CPU, and TRISH
 * emulated on the CPU with them), ex04_bin_word (trish_bin_word, GPU, through the probe kernel
 * of trish_probe_dev.cu, launched by trish_probe.cu) and ex04_rowsum (trish_rowsum, GPU, same).  Every test compares with the
 * rule by hand or an independent computation on fixed seeds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "kit_test.h"
#include "packed.h"

/* a[0..n) as the problem fills it for input in (test_04_histogram.c uses it too) */
void fill(uint8_t *a, size_t n, const kit_input *in, uint64_t seed)
{
    const kit_shape sh = kit_shape_default(&hist_problem, n);
    kit_host h;
    memset(&h, 0, sizeof h);
    h.buf[0] = a;
    hist_problem.fill(&hist_problem, &h, &sh, in, seed);
}

/* ---------------------------------------------------------- ex04_packed */

/* ex04_packed (CPU): packed.h */
TestSuite(ex04_packed, .timeout = KIT_CPU_TIMEOUT);

Test(ex04_packed, slot_every_bin)
{
    static const uint32_t strides[] = {1, 64, 256};
    static uint32_t word[3][256], inc[3][256];
    uint32_t b, k;
    KIT_STUDENT {
        for (k = 0; k < 3; k++)
            for (b = 0; b < 256; b++) {
                word[k][b] = inc[k][b] = 12345;
                packed_slot(b, strides[k], &word[k][b], &inc[k][b]);
            }
    }
    KIT_FROM_RUNNER(word, sizeof word);
    KIT_FROM_RUNNER(inc, sizeof inc);
    for (k = 0; k < 3; k++)
        for (b = 0; b < 256; b++) {
            cr_assert_eq(word[k][b], (b / 4) * strides[k], "packed_slot(b=%u, stride=%u, &word, &inc): word = %u, want %u", b, strides[k],
                         word[k][b], (b / 4) * strides[k]);
            cr_assert_eq(inc[k][b], 1u << (8 * (b % 4)), "packed_slot(b=%u, stride=%u, &word, &inc): inc = 0x%08x, want 0x%08x", b, strides[k], inc[k][b],
                         1u << (8 * (b % 4)));
        }
}

Test(ex04_packed, pairs_and_unpair)
{
    enum { NW = 1000 };
    static uint32_t w[NW], e[NW], o[NW];
    uint64_t st = KIT_SEED(99);
    uint32_t k, e1, o1, even = 0, odd = 0, bins[4] = {5, 6, 7, 8}, bins2[4] = {0, 0, 0, 0};
    for (k = 0; k < NW; k++) w[k] = (uint32_t)kit_rand64(&st);
    KIT_TO_RUNNER(w, sizeof w);
    KIT_STUDENT {
        for (k = 0; k < NW; k++) packed_pairs(w[k], &e[k], &o[k]);
        for (k = 0; k < 257; k++) { /* 257 saturated words: 65535 per lane, no carry */
            packed_pairs(0xFFFFFFFFu, &e1, &o1);
            even += e1;
            odd += o1;
        }
        packed_unpair(even, odd, bins);
        packed_unpair(0x00020001u, 0x00040003u, bins2); /* order: byte 0, 1, 2, 3 */
    }
    KIT_FROM_RUNNER(e, sizeof e);
    KIT_FROM_RUNNER(o, sizeof o);
    KIT_FROM_RUNNER(bins, sizeof bins);
    KIT_FROM_RUNNER(bins2, sizeof bins2);
    for (k = 0; k < NW; k++) {
        cr_assert_eq(e[k], (w[k] & 0xFFu) | (((w[k] >> 16) & 0xFFu) << 16), "packed_pairs(w=0x%08x, &even, &odd): even = 0x%08x, want 0x%08x",
                     w[k], e[k], (w[k] & 0xFFu) | (((w[k] >> 16) & 0xFFu) << 16));
        cr_assert_eq(o[k], ((w[k] >> 8) & 0xFFu) | ((w[k] >> 24) << 16), "packed_pairs(w=0x%08x, &even, &odd): odd = 0x%08x, want 0x%08x", w[k],
                     o[k], ((w[k] >> 8) & 0xFFu) | ((w[k] >> 24) << 16));
    }
    cr_assert(bins[0] == 5 + 65535 && bins[1] == 6 + 65535 && bins[2] == 7 + 65535 && bins[3] == 8 + 65535,
              "packed_unpair(even_sum, odd_sum, bins) of the sums of 257 packed_pairs(0xffffffff) calls, bins = {5, 6, 7, 8}: added %u %u %u %u, want 65535 to each", bins[0] - 5, bins[1] - 6, bins[2] - 7, bins[3] - 8);
    cr_assert(bins2[0] == 1 && bins2[1] == 3 && bins2[2] == 2 && bins2[3] == 4, "packed_unpair(even_sum=0x00020001, odd_sum=0x00040003, bins = {0, 0, 0, 0}): bins = {%u, %u, %u, %u}, want {1, 3, 2, 4}",
              bins2[0], bins2[1], bins2[2], bins2[3]);
}

Test(ex04_packed, add4_no_carry)
{
    enum { NA = 10000 };
    static uint32_t a[NA], b[NA], s[NA];
    uint64_t st = KIT_SEED(7);
    uint32_t s0 = 0;
    int k, lane;
    for (k = 0; k < NA; k++) {
        a[k] = (uint32_t)kit_rand64(&st);
        b[k] = (uint32_t)kit_rand64(&st);
    }
    KIT_TO_RUNNER(a, sizeof a);
    KIT_TO_RUNNER(b, sizeof b);
    KIT_STUDENT {
        s0 = packed_add4(0xFF01FF80u, 0x01010180u);
        for (k = 0; k < NA; k++) s[k] = packed_add4(a[k], b[k]);
    }
    KIT_FROM_RUNNER(&s0, sizeof s0);
    KIT_FROM_RUNNER(s, sizeof s);
    cr_assert_eq(s0, 0x00020000u, "packed_add4(a=0xff01ff80, b=0x01010180) = 0x%08x, want 0x00020000", s0);
    for (k = 0; k < NA; k++)
        for (lane = 0; lane < 4; lane++)
            cr_assert_eq((s[k] >> (8 * lane)) & 0xFFu, (((a[k] >> (8 * lane)) + (b[k] >> (8 * lane))) & 0xFFu),
                         "packed_add4(a=0x%08x, b=0x%08x), byte %d: 0x%02x, want 0x%02x", a[k], b[k], lane,
                         (s[k] >> (8 * lane)) & 0xFFu, ((a[k] >> (8 * lane)) + (b[k] >> (8 * lane))) & 0xFFu);
}

Test(ex04_packed, rowsum_period)
{
    uint32_t p[64] = {0}, k; /* p[k]: the student's period for k words */
    KIT_STUDENT {
        for (k = 1; k <= 63; k++) p[k] = packed_rowsum_period(k);
    }
    KIT_FROM_RUNNER(p, sizeof p);
    cr_assert_eq(p[31], 2, "packed_rowsum_period(k=31) = %u, want 2", p[31]);
    cr_assert_eq(p[32], 1, "packed_rowsum_period(k=32) = %u, want 1", p[32]);
    cr_assert_eq(p[21], 3, "packed_rowsum_period(k=21) = %u, want 3", p[21]);
    for (k = 1; k <= 63; k++)
        cr_assert(p[k] * k * 4 <= 255 && (p[k] + 1) * k * 4 > 255, "packed_rowsum_period(k=%u) = %u, want %u", k, p[k], 255 / (4 * k));
}

/* TRISH on the CPU with the student's pieces: 64 "threads", a 64 x 64 table,
 * k = 5 words per thread per step, a row-sum every packed_rowsum_period(5).
 * (All of it is the student's code: run it in a KIT_STUDENT block.) */
static void emulate_trish(const uint8_t *in, size_t n, uint32_t *bins)
{
    enum { T = 64, K = 5 };
    static uint32_t table[64 * T];
    const uint32_t period = packed_rowsum_period(K);
    size_t w = 0, nw = n / 4, i;
    uint32_t since = 0, t, r, c;
    memset(table, 0, sizeof table);
    memset(bins, 0, HIST_BINS * sizeof *bins);
    while (w < nw) {
        for (t = 0; t < T; t++)
            for (i = 0; i < K; i++) {
                const size_t idx = w + t * K + i;
                int byte;
                if (idx >= nw) continue;
                for (byte = 0; byte < 4; byte++) {
                    uint32_t word, inc;
                    packed_slot(in[4 * idx + byte], T, &word, &inc);
                    table[word + t] += inc;
                }
            }
        w += (size_t)T * K;
        if (++since >= period || w >= nw) {
            for (r = 0; r < 64; r++) {
                uint32_t even = 0, odd = 0, e, o;
                for (c = 0; c < T; c++) {
                    packed_pairs(table[r * T + c], &e, &o);
                    even += e;
                    odd += o;
                    table[r * T + c] = 0;
                }
                packed_unpair(even, odd, bins + 4 * r);
            }
            since = 0;
        }
    }
    for (i = 4 * nw; i < n; i++) bins[in[i]]++;
}

Test(ex04_packed, emulated_trish)
{
    const size_t n = 200003;
    uint8_t *a = malloc(n);
    uint32_t want[HIST_BINS], got[HIST_BINS];
    char msg[KIT_MSG];
    size_t x;
    cr_assert(a);
    for (x = 0; x < HIST_NINPUTS; x++) {
        fill(a, n, &hist_inputs[x], KIT_SEED(8));
        KIT_TO_RUNNER(a, n);
        KIT_JUDGE hist_cpu_simple(a, n, want);
        memset(got, 0, sizeof got);
        KIT_STUDENT {
            emulate_trish(a, n, got);
        }
        KIT_FROM_RUNNER(got, sizeof got);
        cr_assert(kit_cmp_u32(got, want, HIST_BINS, msg, sizeof msg),
                  "a TRISH histogram emulated with packed_slot, packed_pairs and packed_unpair, n = %zu bytes of "
                  "input %s (seed %llu): bins %s",
                  n, hist_inputs[x].name, (unsigned long long)KIT_SEED(8), msg);
    }
    free(a);
}

/* ---------------------------------------------------------- the probes */

/* the expected 64 x 64 table after thread t bins words[t * per .. t * per + per) */
#if KIT_SIDE != 2 /* judge only: no runner holds it (tests/runner-answers.tsv) */
static void packed_table_cpu(const uint32_t *words, unsigned per, uint32_t *table)
{
    unsigned t, j, byte;
    memset(table, 0, 64 * 64 * sizeof *table);
    for (t = 0; t < 64; t++)
        for (j = 0; j < per; j++)
            for (byte = 0; byte < 4; byte++) {
                const uint32_t b = (words[t * per + j] >> (8 * byte)) & 0xFFu;
                table[(b / 4) * 64 + t] += 1u << (8 * (b % 4));
            }
}
#endif

/* words[0 .. 64 per) go to the runner (received in place there) */
static void expect_bin_probe(uint32_t *words, unsigned per)
{
    uint32_t want[64 * 64], got[64 * 64], *d_words = NULL, *d_table = NULL;
    int32_t e[5] = {0, 0, 0, 0, 0}; /* the runner's CUDA results, in the order of the calls */
    char msg[KIT_MSG];
    KIT_TO_RUNNER(words, 64 * per * 4);
#if KIT_SIDE != 2
    packed_table_cpu(words, per, want);
#endif
    memset(got, 0, sizeof got);
    KIT_STUDENT {
        e[0] = cudaMalloc((void **)&d_words, 64 * per * 4 + 4);
        if (!e[0]) e[1] = cudaMalloc((void **)&d_table, sizeof got);
        if (!e[0] && !e[1]) e[2] = cudaMemcpy(d_words, words, 64 * per * 4, cudaMemcpyHostToDevice);
        if (!e[0] && !e[1] && !e[2]) e[3] = trish_probe_bin(d_words, per, d_table, 0);
        if (!e[0] && !e[1] && !e[2] && !e[3]) e[4] = kit_fetch(got, d_table, sizeof got, 0);
        cudaFree(d_words);
        cudaFree(d_table);
    }
    KIT_FROM_RUNNER(e, sizeof e);
    KIT_FROM_RUNNER(got, sizeof got);
    cr_assert_eq(e[0], cudaSuccess, "cudaMalloc of the words: %s", cudaGetErrorString((cudaError_t)e[0]));
    cr_assert_eq(e[1], cudaSuccess, "cudaMalloc of the table: %s", cudaGetErrorString((cudaError_t)e[1]));
    cr_assert_eq(e[2], cudaSuccess, "cudaMemcpy of the words: %s", cudaGetErrorString((cudaError_t)e[2]));
    cr_assert_eq(e[3], cudaSuccess, "trish_probe_bin: %s", cudaGetErrorString((cudaError_t)e[3]));
    cr_assert_eq(e[4], cudaSuccess, "fetching the table: %s", cudaGetErrorString((cudaError_t)e[4]));
    cr_assert(kit_cmp_u32(got, want, 64 * 64, msg, sizeof msg), "trish_bin_word(col, w) through trish_probe_bin, 64 threads x %u words each "
              "(words[0] = 0x%08x): table (row * 64 + thread) %s",
              per, words[0], msg);
}

/* -------------------------------------------------------- ex04_bin_word */

/* ex04_bin_word (GPU): trish_bin_word in $(IMPL)/04-histogram/trish_bin.cuh */
TestSuite(ex04_bin_word, .timeout = KIT_GPU_TIMEOUT);

Test(ex04_bin_word, one_word_each)
{
    static uint32_t words[64];
    uint64_t st = KIT_SEED(1);
    int t;
    KIT_REQUIRE_GPU();
    for (t = 0; t < 64; t++) words[t] = (uint32_t)kit_rand64(&st);
    expect_bin_probe(words, 1);
}

/* bytes of one word sharing a word of counters, or a counter: the increments must stay serial */
Test(ex04_bin_word, colliding_bytes)
{
    static uint32_t words[64 * 63];
    unsigned t, j;
    KIT_REQUIRE_GPU();
    for (t = 0; t < 64; t++)
        for (j = 0; j < 63; j++) {
            const uint32_t r = (t + j) & 63u;
            switch ((t + j) % 4) {
            case 0: words[t * 63 + j] = 0x01010101u * (4 * r + (t & 3)); break; /* one bin, 4 times */
            case 1: words[t * 63 + j] = 0x03020100u + 0x04040404u * r; break; /* one row, 4 lanes */
            case 2: words[t * 63 + j] = 0x00010001u * (4 * r) + 0x01000100u * (4 * r + 3); break;
            default: words[t * 63 + j] = (4 * r + 1) * 0x00000101u + 0x00FF0000u; break;
            }
        }
    expect_bin_probe(words, 63);
}

Test(ex04_bin_word, random_full_budget)
{
    static uint32_t words[64 * 63];
    uint64_t st = KIT_SEED(4);
    int i;
    KIT_REQUIRE_GPU();
    for (i = 0; i < 64 * 63; i++) words[i] = (uint32_t)kit_rand64(&st);
    expect_bin_probe(words, 63);
}

Test(ex04_bin_word, zeros_to_252)
{
    static uint32_t words[64 * 63];
    KIT_REQUIRE_GPU();
    memset(words, 0, sizeof words);
    expect_bin_probe(words, 63); /* row 0, lane 0 of every column: 252 */
}

/* ---------------------------------------------------------- ex04_rowsum */

/* ex04_rowsum (GPU): trish_rowsum in $(IMPL)/04-histogram/trish_rowsum.cuh */
TestSuite(ex04_rowsum, .timeout = KIT_GPU_TIMEOUT);

/* table[0 .. 64 x 64) goes to the runner (received in place there) */
static void expect_rowsum_probe(uint32_t *table, unsigned rounds)
{
    uint32_t want[HIST_BINS], got[HIST_BINS], after[64 * 64], *d_table = NULL, *d_sums = NULL;
    int32_t e[6] = {0, 0, 0, 0, 0, 0}; /* the runner's CUDA results, in the order of the calls */
    char msg[KIT_MSG];
    unsigned r, c, lane;
    KIT_TO_RUNNER(table, sizeof after);
    memset(want, 0, sizeof want);
    KIT_JUDGE {
        for (r = 0; r < 64; r++)
            for (c = 0; c < 64; c++)
                for (lane = 0; lane < 4; lane++)
                    want[4 * r + lane] += rounds * ((table[r * 64 + c] >> (8 * lane)) & 0xFFu);
    }
    memset(got, 0, sizeof got);
    memset(after, 0, sizeof after);
    KIT_STUDENT {
        e[0] = cudaMalloc((void **)&d_table, sizeof after);
        if (!e[0]) e[1] = cudaMalloc((void **)&d_sums, sizeof got);
        if (!e[0] && !e[1]) e[2] = cudaMemcpy(d_table, table, sizeof after, cudaMemcpyHostToDevice);
        if (!e[0] && !e[1] && !e[2]) e[3] = trish_probe_rowsum(d_table, d_sums, rounds, 0);
        if (!e[0] && !e[1] && !e[2] && !e[3]) e[4] = kit_fetch(got, d_sums, sizeof got, 0);
        if (!e[0] && !e[1] && !e[2] && !e[3] && !e[4]) e[5] = kit_fetch(after, d_table, sizeof after, 0);
        cudaFree(d_table);
        cudaFree(d_sums);
    }
    KIT_FROM_RUNNER(e, sizeof e);
    KIT_FROM_RUNNER(got, sizeof got);
    KIT_FROM_RUNNER(after, sizeof after);
    cr_assert_eq(e[0], cudaSuccess, "cudaMalloc of the table: %s", cudaGetErrorString((cudaError_t)e[0]));
    cr_assert_eq(e[1], cudaSuccess, "cudaMalloc of the sums: %s", cudaGetErrorString((cudaError_t)e[1]));
    cr_assert_eq(e[2], cudaSuccess, "cudaMemcpy of the table: %s", cudaGetErrorString((cudaError_t)e[2]));
    cr_assert_eq(e[3], cudaSuccess, "trish_probe_rowsum: %s", cudaGetErrorString((cudaError_t)e[3]));
    cr_assert_eq(e[4], cudaSuccess, "fetching the sums: %s", cudaGetErrorString((cudaError_t)e[4]));
    cr_assert_eq(e[5], cudaSuccess, "fetching the table: %s", cudaGetErrorString((cudaError_t)e[5]));
    cr_assert(kit_cmp_u32(got, want, HIST_BINS, msg, sizeof msg), "trish_rowsum(table, t, sum) through trish_probe_rowsum, rounds = %u "
              "(table[0] = 0x%08x): sums (bin 4t + lane) %s",
              rounds, table[0], msg);
    for (r = 0; r < 64 * 64; r++)
        cr_assert_eq(after[r], 0, "trish_rowsum(table, t, sum) through trish_probe_rowsum, rounds = %u: table row %u "
                     "column %u not zeroed: 0x%08x, want 0",
                     rounds, r / 64, r % 64, after[r]);
}

Test(ex04_rowsum, random_table)
{
    static uint32_t table[64 * 64];
    uint64_t st = KIT_SEED(12);
    int i;
    KIT_REQUIRE_GPU();
    for (i = 0; i < 64 * 64; i++) table[i] = (uint32_t)kit_rand64(&st);
    expect_rowsum_probe(table, 1);
}

Test(ex04_rowsum, saturated)
{
    static uint32_t table[64 * 64];
    KIT_REQUIRE_GPU();
    memset(table, 0xFF, sizeof table); /* 64 x 255 per bin: the byte pairs must not overflow */
    expect_rowsum_probe(table, 1);
}

Test(ex04_rowsum, accumulates)
{
    static uint32_t table[64 * 64];
    uint64_t st = KIT_SEED(13);
    int i;
    KIT_REQUIRE_GPU();
    for (i = 0; i < 64 * 64; i++) table[i] = (uint32_t)kit_rand64(&st) & 0x7F3F1F0Fu;
    expect_rowsum_probe(table, 3);
}

Test(ex04_rowsum, lane_order)
{
    static uint32_t table[64 * 64];
    unsigned r, c;
    KIT_REQUIRE_GPU();
    for (r = 0; r < 64; r++) /* row r: lane r % 4 only, a different count per column */
        for (c = 0; c < 64; c++) table[r * 64 + c] = ((c + 1) & 0xFFu) << (8 * (r % 4));
    expect_rowsum_probe(table, 1);
}
