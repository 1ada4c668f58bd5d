/* test_06_exercises.c - chapter 06's exercises: ex06_lanemask (the four computed lane-mask
 * scans, GPU), ex06_segscan (the segmented inclusive scan, GPU), ex06_bitplane (the bit-plane
 * split and prefix, CPU).  The GPU exercises run through the chapter's probes (kit_expect_step,
 * against the CPU reference); the CPU one compares with an independent reference on fixed seeds
 * (KIT_SEED).  Graded: every call of the exercises' code sits in a KIT_STUDENT block (kit_test.h,
 * "grading sides"). */
#include <stdlib.h>
#include <string.h>

#include "ballot_bitplane.h" /* the student's header first: it sees none of the kit's below */

#include "ballot.h"
#include "kit_test.h"

/* the probes whose name and param match (param NULL: any), over the given sizes x inputs
 * (a NULL-terminated list of names); test_06_ballot.c uses it too */
void ch06_expect_probes(const kit_ladder *L, const char *name, const char *param, const size_t *sizes,
                        size_t nsizes, const char *const *inputs)
{
    size_t i, found = 0;
    for (i = 0; i < L->count; i++) {
        const kit_step_info *s = L->step(L, i);
        if (strcmp(s->name, name) != 0 || (param && strcmp(s->param, param) != 0)) continue;
        found++;
        kit_expect_step_sizes(L, i, sizes, nsizes, inputs, 31);
    }
    cr_assert_gt(found, 0, "no probe %s %s", name, param ? param : "");
}

/* ------------------------------------------------------- ex06_lanemask */

/* ex06_lanemask (GPU): the four computed lane-mask scans,
 * $(IMPL)/06-ballot-scan/ballot_lanemask.cuh */
TestSuite(ex06_lanemask, .timeout = KIT_GPU_TIMEOUT);

static const size_t ex_sizes[] = {1, 31, 32, 33, 1025, (1u << 20) + 7};
static const char *const ex_inputs[] = {"random", "pairs", "all-heads", NULL};
#define EX_PROBE(name, param)                                                                   \
    ch06_expect_probes(&ballot_probe_ladder, name, param, ex_sizes,                             \
                       sizeof ex_sizes / sizeof *ex_sizes, ex_inputs)

Test(ex06_lanemask, forward_exclusive) { KIT_REQUIRE_GPU(); EX_PROBE("lm_fwd_excl", "tbs=128"); }
Test(ex06_lanemask, forward_inclusive) { KIT_REQUIRE_GPU(); EX_PROBE("lm_fwd_incl", "tbs=128"); }
Test(ex06_lanemask, reverse_inclusive) { KIT_REQUIRE_GPU(); EX_PROBE("lm_rev_incl", "tbs=128"); }
Test(ex06_lanemask, reverse_exclusive) { KIT_REQUIRE_GPU(); EX_PROBE("lm_rev_excl", "tbs=128"); }

/* 24 x 4 blocks: a warp spans rows of x, lanes come from the linear thread index */
Test(ex06_lanemask, two_d_blocks)
{
    KIT_REQUIRE_GPU();
    EX_PROBE("lm_fwd_excl", "tbs=96 (24x4)");
    EX_PROBE("lm_fwd_incl", "tbs=96 (24x4)");
    EX_PROBE("lm_rev_incl", "tbs=96 (24x4)");
    EX_PROBE("lm_rev_excl", "tbs=96 (24x4)");
}

/* every partial last warp 32k + r and the other flag patterns (dense, sparse, runs, random) */
Test(ex06_lanemask, partial_warps_all_patterns)
{
    static const char *const inputs[] = {"dense", "sparse-no-heads", "runs", "long-segments", NULL};
    static const char *const names[] = {"lm_fwd_excl", "lm_fwd_incl", "lm_rev_incl", "lm_rev_excl"};
    size_t sizes[32], k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < 32; k++) sizes[k] = 4096 + 32 * k + k; /* last warp holds k elements */
    for (k = 0; k < 4; k++)
        ch06_expect_probes(&ballot_probe_ladder, names[k], "tbs=128", sizes, 32, inputs);
}

/* -------------------------------------------------------- ex06_segscan */

/* ex06_segscan (GPU): seg_incl in $(IMPL)/06-ballot-scan/ballot_segscan.cuh */
TestSuite(ex06_segscan, .timeout = KIT_GPU_TIMEOUT);

static void expect_seg(const char *param, const char *const *inputs)
{
    ch06_expect_probes(&ballot_probe_ladder, "seg_incl", param, ex_sizes,
                       sizeof ex_sizes / sizeof *ex_sizes, inputs);
}

Test(ex06_segscan, random_heads)
{
    static const char *const in[] = {"random", "dense", "runs", NULL};
    KIT_REQUIRE_GPU();
    expect_seg("tbs=128", in);
}

Test(ex06_segscan, long_segments)
{
    static const char *const in[] = {"long-segments", "ones-long", NULL}; /* segments of 32..200 */
    KIT_REQUIRE_GPU();
    expect_seg("tbs=128", in);
}

Test(ex06_segscan, segments_of_one_and_two)
{
    static const char *const in[] = {"all-heads", "pairs", NULL};
    KIT_REQUIRE_GPU();
    expect_seg("tbs=128", in);
}

Test(ex06_segscan, no_heads_and_2d_blocks)
{
    static const char *const none[] = {"sparse-no-heads", NULL};
    static const char *const rnd[] = {"random", "long-segments", NULL};
    KIT_REQUIRE_GPU();
    expect_seg("tbs=128", none);
    expect_seg("tbs=96 (24x4)", rnd);
}

/* ------------------------------------------------------- ex06_bitplane */

/* ex06_bitplane (CPU): bitplane_split and bitplane_prefix,
 * $(IMPL)/06-ballot-scan/ballot_bitplane.h */
TestSuite(ex06_bitplane, .timeout = KIT_CPU_TIMEOUT);

/* the planes as __ballot_sync would give them (independent of the exercise) */
#if KIT_SIDE != 2 /* judge only: no runner holds it (tests/runner-answers.tsv) */
static void planes_of(const uint32_t v[32], int bits, uint32_t *planes)
{
    int k, j;
    for (k = 0; k < bits; k++) {
        planes[k] = 0;
        for (j = 0; j < 32; j++) planes[k] |= ((v[j] >> k) & 1u) << j;
    }
}
#endif

static void warp_values(uint32_t v[32], int bits, uint64_t seed)
{
    int j;
    kit_fill_u32(v, 32, KIT_UNIFORM, seed);
    if (bits < 32)
        for (j = 0; j < 32; j++) v[j] &= (1u << bits) - 1u;
}

/* one warp's scan: values of `bits` bits from seed, inclusive or exclusive */
typedef struct prefix_case {
    int bits;
    uint64_t seed;
    int inclusive;
} prefix_case;

/* lane j's prefix from the exercise vs the serial one, for each case in turn */
static void expect_prefixes(const prefix_case *pc, size_t ncases)
{
    uint32_t(*v)[32] = calloc(ncases, sizeof *v), (*planes)[32] = calloc(ncases, sizeof *planes);
    uint32_t(*got)[32] = calloc(ncases, sizeof *got);
    size_t c;
    unsigned lane;
    cr_assert(v && planes && got);
    for (c = 0; c < ncases; c++) {
        warp_values(v[c], pc[c].bits, KIT_SEED(pc[c].seed));
#if KIT_SIDE != 2
        planes_of(v[c], pc[c].bits, planes[c]);
#endif
    }
    KIT_TO_RUNNER(planes, ncases * sizeof *planes);
    KIT_STUDENT
    {
        for (c = 0; c < ncases; c++)
            for (lane = 0; lane < 32; lane++)
                got[c][lane] = bitplane_prefix(planes[c], pc[c].bits, lane, pc[c].inclusive);
    }
    KIT_FROM_RUNNER(got, ncases * sizeof *got);
    for (c = 0; c < ncases; c++) {
        const int bits = pc[c].bits, inclusive = pc[c].inclusive;
        uint32_t s = 0;
        for (lane = 0; lane < 32; lane++) {
            const uint32_t want = inclusive ? s + v[c][lane] : s;
            const uint32_t g = got[c][lane];
            cr_assert_eq(g, want,
                         "bitplane_prefix(planes, bits=%d, lane=%u, inclusive=%d) on the values of seed %llu "
                         "(v[%u] = %u, planes[0] = 0x%08x): got %u, want %u",
                         bits, lane, inclusive, (unsigned long long)KIT_SEED(pc[c].seed), lane, v[c][lane],
                         planes[c][0], g, want);
            s += v[c][lane];
        }
    }
    free(v);
    free(planes);
    free(got);
}

Test(ex06_bitplane, split_is_ballot)
{
    enum { SEEDS = 4 };
    static uint32_t v[32][SEEDS][32], got[32][SEEDS][32]; /* [bits - 1][seed] */
    uint32_t want[32];
    int bits, k;
    uint64_t seed;
    for (bits = 1; bits <= 32; bits++)
        for (seed = 0; seed < SEEDS; seed++) warp_values(v[bits - 1][seed], bits, KIT_SEED(100 * bits + seed));
    KIT_TO_RUNNER(v, sizeof v);
    KIT_STUDENT
    {
        for (bits = 1; bits <= 32; bits++)
            for (seed = 0; seed < SEEDS; seed++) {
                memset(got[bits - 1][seed], 0xA5, sizeof got[bits - 1][seed]);
                bitplane_split(v[bits - 1][seed], bits, got[bits - 1][seed]);
            }
    }
    KIT_FROM_RUNNER(got, sizeof got);
    for (bits = 1; bits <= 32; bits++)
        for (seed = 0; seed < SEEDS; seed++) {
#if KIT_SIDE != 2
            planes_of(v[bits - 1][seed], bits, want);
#endif
            for (k = 0; k < bits; k++)
                cr_assert_eq(got[bits - 1][seed][k], want[k],
                             "bitplane_split(v, bits=%d, planes) on the values of seed %llu (v[0] = 0x%08x, "
                             "v[1] = 0x%08x): planes[%d] = 0x%08x, want 0x%08x",
                             bits, (unsigned long long)KIT_SEED(100 * bits + seed), v[bits - 1][seed][0],
                             v[bits - 1][seed][1], k, got[bits - 1][seed][k], want[k]);
        }
}

Test(ex06_bitplane, exclusive_scan)
{
    prefix_case pc[8 * 8];
    size_t n = 0;
    int bits;
    uint64_t seed;
    for (bits = 1; bits <= 8; bits++)
        for (seed = 0; seed < 8; seed++) pc[n++] = (prefix_case){bits, 7 * bits + seed, 0};
    expect_prefixes(pc, n);
}

Test(ex06_bitplane, inclusive_and_32_bits)
{
    prefix_case pc[8 * 3];
    size_t n = 0;
    uint64_t seed;
    for (seed = 0; seed < 8; seed++) {
        pc[n++] = (prefix_case){5, seed, 1};
        pc[n++] = (prefix_case){32, seed, 0}; /* sums wrap at 2^32 */
        pc[n++] = (prefix_case){32, seed, 1};
    }
    expect_prefixes(pc, n);
}

Test(ex06_bitplane, one_bit_is_binary_scan)
{
    uint8_t f[32];
    uint32_t v[32], want[32], got[32] = {0};
    unsigned lane;
    ballot_fill_flags(f, 32, BALLOT_FLAGS_RANDOM, KIT_SEED(42));
    for (lane = 0; lane < 32; lane++) v[lane] = f[lane];
    KIT_TO_RUNNER(v, sizeof v);
    KIT_STUDENT
    {
        uint32_t planes[1];
        bitplane_split(v, 1, planes);
        for (lane = 0; lane < 32; lane++) got[lane] = bitplane_prefix(planes, 1, lane, 0);
    }
    KIT_FROM_RUNNER(got, sizeof got);
    KIT_JUDGE ballot_cpu_scan(f, want, 32, 0, 0, 0);
    for (lane = 0; lane < 32; lane++)
        cr_assert_eq(got[lane], want[lane],
                     "bitplane_split(v, bits=1, planes) then bitplane_prefix(planes, bits=1, lane=%u, inclusive=0) "
                     "on random 0/1 flags of seed %llu (v[%u] = %u): got %u, want %u",
                     lane, (unsigned long long)KIT_SEED(42), lane, v[lane], got[lane], want[lane]);
}
