/* test_07_exercises.c - chapter 07's exercises: ex07_warp_atomic (the warp-aggregated atomic,
 * GPU), ex07_phase3 (the three-phase select's phase-3 offsets from ballot masks, CPU),
 * ex07_scatter (the order-preserving scatter of count / scan / scatter, for select and
 * partition, CPU).  Every test compares with an independent CPU answer on fixed seeds.
 *
 * Graded on two sides (kit_test.h): the student's code and every CUDA call run in KIT_STUDENT
 * blocks (the runner), the generating and the assertions in the judge; what a block reads goes
 * over with KIT_TO_RUNNER, what the judge checks comes back with KIT_FROM_RUNNER. */
#include <stdlib.h>
#include <string.h>

#include "compact_phase3.h" /* the student's headers first: they see none of the kit's below */
#include "compact_scatter.h"
#include "ex07_atomic.h"

#include "compact.h"
#include "compact_problem.h"
#include "kit_test.h"

#define POISON32 0xA5A5A5A5u

/* the words Criterion gave `cr_assert_eq(Call, Want)` without a message of its own, when the call
 * ran inside the assertion: the judge asserts the runner's result with the same words */
#define AS_IF_CALLED(Call, Want) "The expression (" #Call ") == (" #Want ") is false."

/* ------------------------------------------------------- ex07_warp_atomic */

/* ex07_warp_atomic (GPU): compact_warp_slot in $(IMPL)/07-compaction/compact_warp_atomic.cuh,
 * run by ex07_warp_slots (ex07_atomic.c, its kernel in ex07_atomic_dev.cu: device code) and by
 * the s2_warp_atomic step */
TestSuite(ex07_warp_atomic, .timeout = KIT_GPU_TIMEOUT);

/* want[0..n) -> the slots every thread got and the counter's end, from a start value.  The
 * runner runs the CUDA calls in order, each only if those before it succeeded, and sends their
 * results (e[k]), the slots and the end; the judge asserts the results in that order. */
static void warp_slots(uint8_t *want, size_t n, unsigned start, uint32_t *slot, unsigned *end)
{
    int32_t e[10] = {0};
    KIT_TO_RUNNER(want, n);
    KIT_STUDENT {
        uint8_t *d_want = NULL;
        uint32_t *d_slot = NULL;
        unsigned *d_counter = NULL;
        int ok = 1;
        if (ok) ok = (e[0] = cudaMalloc((void **)&d_want, n + 1)) == cudaSuccess;
        if (ok) ok = (e[1] = cudaMalloc((void **)&d_slot, (n + 1) * 4)) == cudaSuccess;
        if (ok) ok = (e[2] = cudaMalloc((void **)&d_counter, 4)) == cudaSuccess;
        if (ok) ok = (e[3] = cudaMemcpy(d_want, want, n, cudaMemcpyHostToDevice)) == cudaSuccess;
        if (ok) ok = (e[4] = cudaMemcpy(d_counter, &start, 4, cudaMemcpyHostToDevice)) == cudaSuccess;
        if (ok) ok = (e[5] = kit_poison(d_slot, (n + 1) * 4, 0)) == cudaSuccess;
        if (ok) ok = (e[6] = ex07_warp_slots(d_want, d_slot, d_counter, n, 0)) == cudaSuccess;
        if (ok) ok = (e[7] = cudaDeviceSynchronize()) == cudaSuccess;
        if (ok) ok = (e[8] = kit_fetch(slot, d_slot, n * 4, 0)) == cudaSuccess;
        if (ok) ok = (e[9] = kit_fetch(end, d_counter, 4, 0)) == cudaSuccess;
        cudaFree(d_want);
        cudaFree(d_slot);
        cudaFree(d_counter);
    }
    KIT_FROM_RUNNER(e, sizeof e);
    KIT_FROM_RUNNER(slot, n * sizeof *slot);
    KIT_FROM_RUNNER(end, sizeof *end);
    cr_assert_eq(e[0], cudaSuccess, AS_IF_CALLED(cudaMalloc((void **)&d_want, n + 1), cudaSuccess));
    cr_assert_eq(e[1], cudaSuccess, AS_IF_CALLED(cudaMalloc((void **)&d_slot, (n + 1) * 4), cudaSuccess));
    cr_assert_eq(e[2], cudaSuccess, AS_IF_CALLED(cudaMalloc((void **)&d_counter, 4), cudaSuccess));
    cr_assert_eq(e[3], cudaSuccess, AS_IF_CALLED(cudaMemcpy(d_want, want, n, cudaMemcpyHostToDevice), cudaSuccess));
    cr_assert_eq(e[4], cudaSuccess, AS_IF_CALLED(cudaMemcpy(d_counter, &start, 4, cudaMemcpyHostToDevice), cudaSuccess));
    cr_assert_eq(e[5], cudaSuccess, AS_IF_CALLED(kit_poison(d_slot, (n + 1) * 4, 0), cudaSuccess));
    cr_assert_eq(e[6], cudaSuccess, "n=%zu: launch", n);
    cr_assert_eq(e[7], cudaSuccess, "n=%zu: the kernel failed: %s", n, cudaGetErrorString((cudaError_t)e[7]));
    cr_assert_eq(e[8], cudaSuccess, AS_IF_CALLED(kit_fetch(slot, d_slot, n * 4, 0), cudaSuccess));
    cr_assert_eq(e[9], cudaSuccess, AS_IF_CALLED(kit_fetch(end, d_counter, 4, 0), cudaSuccess));
}

/* The wanting threads' slots are start .. start + count - 1, each once; the counter ends at
 * start + count; with lanes: within each warp, consecutive and in lane order. */
static void expect_slots(uint8_t *want, size_t n, unsigned start, int lanes, const char *what)
{
    uint32_t *slot = malloc((n + 1) * sizeof *slot);
    uint8_t *seen;
    size_t i, c = 0;
    unsigned end = 0;
    cr_assert(slot);
    for (i = 0; i < n; i++) c += want[i] != 0;
    warp_slots(want, n, start, slot, &end);
    cr_assert_eq(end, start + (unsigned)c, "%s, n=%zu: the counter ends at %u, want %u + %zu", what, n, end, start, c);
    seen = calloc(c + 1, 1);
    cr_assert(seen);
    for (i = 0; i < n; i++) {
        if (!want[i]) {
            cr_assert_eq(slot[i], POISON32, "%s, n=%zu: thread %zu wanted no slot but wrote one", what, n, i);
            continue;
        }
        cr_assert(slot[i] >= start && slot[i] - start < c, "%s, n=%zu: thread %zu got slot %u, outside [%u, %u)", what,
                  n, i, slot[i], start, start + (unsigned)c);
        cr_assert(!seen[slot[i] - start], "%s, n=%zu: slot %u handed out twice (thread %zu)", what, n, slot[i], i);
        seen[slot[i] - start] = 1;
    }
    if (lanes)
        for (i = 0; i < n; i += 32) { /* warp i / 32: its wanting lanes take consecutive slots */
            size_t j, prev = SIZE_MAX;
            for (j = i; j < i + 32 && j < n; j++) {
                if (!want[j]) continue;
                if (prev != SIZE_MAX)
                    cr_assert_eq(slot[j], slot[prev] + 1, "%s: warp %zu: lane %zu got %u after lane %zu's %u", what,
                                 i / 32, j - i, slot[j], prev - i, slot[prev]);
                prev = j;
            }
        }
    free(slot);
    free(seen);
}

static uint8_t *random_wants(size_t n, unsigned percent, uint64_t seed)
{
    uint8_t *w = malloc(n + 1);
    size_t i;
    seed = KIT_SEED(seed);
    cr_assert(w);
    for (i = 0; i < n; i++) w[i] = (uint8_t)(kit_rand64(&seed) % 100 < percent);
    return w;
}

Test(ex07_warp_atomic, slots_are_a_permutation)
{
    static const size_t sizes[] = {1, 31, 33, 1000, 65537, (1u << 20) + 7};
    static const unsigned pct[] = {50, 10, 90};
    size_t s, k;
    KIT_REQUIRE_GPU();
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (k = 0; k < 3; k++) {
            uint8_t *w = random_wants(sizes[s], pct[k], 10 * s + k);
            expect_slots(w, sizes[s], 0, 0, "random wants from 0");
            expect_slots(w, sizes[s], 123457, 0, "random wants from 123457");
            free(w);
        }
}

Test(ex07_warp_atomic, warp_lanes_consecutive)
{
    static const size_t sizes[] = {32, 33, 4099, (1u << 18) + 3};
    size_t s;
    KIT_REQUIRE_GPU();
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint8_t *w = random_wants(sizes[s], 40, 50 + s);
        expect_slots(w, sizes[s], 7, 1, "random wants, lane order");
        free(w);
    }
}

Test(ex07_warp_atomic, all_and_none)
{
    const size_t n = 10007;
    uint8_t *w = malloc(n);
    size_t i;
    KIT_REQUIRE_GPU();
    cr_assert(w);
    memset(w, 1, n);
    expect_slots(w, n, 5, 1, "every thread");
    memset(w, 0, n);
    expect_slots(w, n, 5, 1, "no thread (the counter must not move)");
    for (i = 0; i < n; i++) w[i] = (i % 32) == 31 || (i % 64) == 5; /* one or two lanes per warp */
    expect_slots(w, n, 0, 1, "lane 31 and lane 5 of every other warp");
    free(w);
}

/* the exercise inside the step that uses it: s2 against the CPU, as a set */
Test(ex07_warp_atomic, through_s2_step)
{
    static const size_t sizes[] = {1, 33, 1025, (1u << 20) + 7};
    static const char *const inputs[] = {"p=0.50", "p=1.00", "p=1/n", "runs-0.50"};
    size_t s, x, i;
    int mode;
    KIT_REQUIRE_GPU();
    for (i = 0; i < compact_select_ladder.count; i++)
        if (!strcmp(compact_select_ladder.step(&compact_select_ladder, i)->name, "s2_warp_atomic")) break;
    cr_assert_lt(i, compact_select_ladder.count, "no s2_warp_atomic in the select ladder");
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (x = 0; x < 4; x++)
            for (mode = 0; mode <= COMPACT_MODE_MAX; mode++) {
                const kit_shape sh = compact_shape(&compact_select_problem, sizes[s], mode);
                kit_expect_step(&compact_select_ladder, i, &sh, inputs[x], 60 + s);
            }
}

/* ----------------------------------------------------------- ex07_phase3 */

/* ex07_phase3 (CPU): ex07_lane_offset, ex07_subgroup_offsets, ex07_group_positions in
 * $(IMPL)/07-compaction/compact_phase3.h */
TestSuite(ex07_phase3, .timeout = KIT_CPU_TIMEOUT);

#if KIT_SIDE != 2 /* judge only: no runner holds it (tests/runner-answers.tsv) */
static unsigned bits_below(uint32_t mask, unsigned lane)
{
    unsigned j, c = 0;
    for (j = 0; j < lane; j++) c += mask >> j & 1u;
    return c;
}
#endif

Test(ex07_phase3, lane_offsets_by_hand)
{
    /* mask 0b1011: lanes 0, 1, 3 selected; lane 3's element is the third (offset 2) */
    static const unsigned want1011[6] = {0, 1, 2, 2, 3, 3};
    enum { NMASKS = 1000 };
    uint32_t *m = malloc(NMASKS * sizeof *m);
    unsigned *got = malloc(NMASKS * 32 * sizeof *got), g1011[6] = {0}, gfix[4][32] = {{0}}, g31 = 0, lane;
    uint64_t st = KIT_SEED(3);
    int k;
    cr_assert(m && got);
    for (k = 0; k < NMASKS; k++) m[k] = (uint32_t)kit_rand64(&st);
    KIT_TO_RUNNER(m, NMASKS * sizeof *m);
    KIT_STUDENT {
        for (lane = 0; lane < 6; lane++) g1011[lane] = ex07_lane_offset(0xBu, lane);
        for (lane = 0; lane < 32; lane++) {
            gfix[0][lane] = ex07_lane_offset(0xFFFFFFFFu, lane);
            gfix[1][lane] = ex07_lane_offset(0u, lane);
            gfix[2][lane] = ex07_lane_offset(0x80000000u, lane);
            gfix[3][lane] = ex07_lane_offset(1u, lane);
        }
        g31 = ex07_lane_offset(0x7FFFFFFFu, 31);
        for (k = 0; k < NMASKS; k++)
            for (lane = 0; lane < 32; lane++) got[32 * k + lane] = ex07_lane_offset(m[k], lane);
    }
    KIT_FROM_RUNNER(g1011, sizeof g1011);
    KIT_FROM_RUNNER(gfix, sizeof gfix);
    KIT_FROM_RUNNER(&g31, sizeof g31);
    KIT_FROM_RUNNER(got, NMASKS * 32 * sizeof *got);
    for (lane = 0; lane < 6; lane++)
        cr_assert_eq(g1011[lane], want1011[lane], "ex07_lane_offset(mask=0x0000000b, lane=%u) = %u, want %u", lane,
                     g1011[lane], want1011[lane]);
    for (lane = 0; lane < 32; lane++) {
        cr_assert_eq(gfix[0][lane], lane, "ex07_lane_offset(mask=0xffffffff, lane=%u) = %u, want %u", lane, gfix[0][lane], lane);
        cr_assert_eq(gfix[1][lane], 0, "ex07_lane_offset(mask=0x00000000, lane=%u) = %u, want 0", lane, gfix[1][lane]);
        cr_assert_eq(gfix[2][lane], 0, "ex07_lane_offset(mask=0x80000000, lane=%u) = %u, want 0", lane, gfix[2][lane]);
        cr_assert_eq(gfix[3][lane], lane > 0, "ex07_lane_offset(mask=0x00000001, lane=%u) = %u, want %u", lane, gfix[3][lane], lane > 0);
    }
    cr_assert_eq(g31, 31, "ex07_lane_offset(mask=0x7fffffff, lane=31) = %u, want 31", g31);
    for (k = 0; k < NMASKS; k++)
        for (lane = 0; lane < 32; lane++)
            cr_assert_eq(got[32 * k + lane], bits_below(m[k], lane), "ex07_lane_offset(mask=0x%08x, lane=%u) = %u, want %u (random masks, seed %llu)", m[k],
                         lane, got[32 * k + lane], bits_below(m[k], lane), (unsigned long long)KIT_SEED(3));
    free(m);
    free(got);
}

Test(ex07_phase3, subgroup_scan_random)
{
    enum { NG = 2000 };
    uint32_t *mask = malloc(NG * 32 * sizeof *mask);
    unsigned *excl = malloc(NG * 32 * sizeof *excl), *total = calloc(NG, sizeof *total);
    uint64_t st = KIT_SEED(11);
    int g;
    cr_assert(mask && excl && total);
    for (g = 0; g < NG; g++) {
        unsigned l;
        for (l = 0; l < 32; l++) { /* some empty, some full, the rest random */
            const uint64_t r = kit_rand64(&st);
            mask[32 * g + l] = (r & 7) == 0 ? 0u : (r & 7) == 1 ? 0xFFFFFFFFu : (uint32_t)(r >> 16);
            excl[32 * g + l] = POISON32;
        }
    }
    KIT_TO_RUNNER(mask, NG * 32 * sizeof *mask);
    KIT_STUDENT {
        for (g = 0; g < NG; g++) total[g] = ex07_subgroup_offsets(mask + 32 * g, excl + 32 * g);
    }
    KIT_FROM_RUNNER(excl, NG * 32 * sizeof *excl);
    KIT_FROM_RUNNER(total, NG * sizeof *total);
    for (g = 0; g < NG; g++) {
        unsigned l, run = 0;
        for (l = 0; l < 32; l++) {
            cr_assert_eq(excl[32 * g + l], run, "ex07_subgroup_offsets(mask, excl) on random group %d (seed %llu, mask[%u] = 0x%08x): "
                         "excl[%u] = %u, want %u",
                         g, (unsigned long long)KIT_SEED(11), l, mask[32 * g + l], l, excl[32 * g + l], run);
            run += (unsigned)__builtin_popcount(mask[32 * g + l]);
        }
        cr_assert_eq(total[g], run, "ex07_subgroup_offsets(mask, excl) on random group %d (seed %llu): returned %u, want %u", g,
                     (unsigned long long)KIT_SEED(11), total[g], run);
    }
    free(mask);
    free(excl);
    free(total);
}

/* ex07_group_positions on ng groups (masks mask[32 g ..], bases base[g]) in the runner: dst
 * (1024 per group, unselected entries left at POISON32) and the returned values */
static void group_positions(uint32_t *mask, uint32_t *base, size_t ng, uint32_t *dst, uint32_t *next)
{
    size_t g, e;
    for (e = 0; e < ng * 1024; e++) dst[e] = POISON32;
    KIT_TO_RUNNER(mask, ng * 32 * sizeof *mask);
    KIT_TO_RUNNER(base, ng * sizeof *base);
    KIT_STUDENT {
        for (g = 0; g < ng; g++) next[g] = ex07_group_positions(mask + 32 * g, base[g], dst + 1024 * g);
    }
    KIT_FROM_RUNNER(dst, ng * 1024 * sizeof *dst);
    KIT_FROM_RUNNER(next, ng * sizeof *next);
}

/* dst and next from ex07_group_positions vs a plain count over the 1024 elements */
static void check_group(const uint32_t mask[32], uint32_t base, const uint32_t *dst, uint32_t next, const char *what)
{
    unsigned e, c = 0;
    for (e = 0; e < 1024; e++) {
        if (mask[e / 32] >> (e % 32) & 1u) {
            cr_assert_eq(dst[e], base + c, "ex07_group_positions(mask, base=%u, dst) on %s: dst[%u] (mask[%u] = 0x%08x, bit %u) = %u, want %u",
                         base, what, e, e / 32, mask[e / 32], e % 32, dst[e], base + c);
            c++;
        } else {
            cr_assert_eq(dst[e], POISON32, "ex07_group_positions(mask, base=%u, dst) on %s: dst[%u] written (mask[%u] = 0x%08x, bit %u is 0)",
                         base, what, e, e / 32, mask[e / 32], e % 32);
        }
    }
    cr_assert_eq(next, base + c, "ex07_group_positions(mask, base=%u, dst) on %s: returned %u, want base + %u = %u", base, what, next, c,
                 base + c);
}

/* one group (fixed data) */
static void expect_group(uint32_t mask[32], uint32_t base, const char *what)
{
    uint32_t dst[1024], next = 0;
    group_positions(mask, &base, 1, dst, &next);
    check_group(mask, base, dst, next, what);
}

Test(ex07_phase3, group_positions)
{
    enum { NG = 500 };
    uint32_t *mask = malloc(NG * 32 * sizeof *mask), *base = malloc(NG * sizeof *base);
    uint32_t *dst = malloc(NG * 1024 * sizeof *dst), *next = calloc(NG, sizeof *next);
    uint64_t st = KIT_SEED(21);
    int g;
    cr_assert(mask && base && dst && next);
    for (g = 0; g < NG; g++) {
        unsigned l;
        for (l = 0; l < 32; l++) mask[32 * g + l] = (uint32_t)kit_rand64(&st) & (uint32_t)kit_rand64(&st);
        base[g] = (uint32_t)(kit_rand64(&st) % 1000000u);
    }
    group_positions(mask, base, NG, dst, next);
    for (g = 0; g < NG; g++) check_group(mask + 32 * g, base[g], dst + 1024 * g, next[g], "random group");
    free(mask);
    free(base);
    free(dst);
    free(next);
}

Test(ex07_phase3, edge_masks)
{
    uint32_t mask[32];
    unsigned l;
    for (l = 0; l < 32; l++) mask[l] = 0xFFFFFFFFu;
    expect_group(mask, 3, "everything selected");
    for (l = 0; l < 32; l++) mask[l] = l == 31 ? 0x80000000u : 0u;
    expect_group(mask, 1u << 31, "only the last element, base 2^31");
    for (l = 0; l < 32; l++) mask[l] = 1u << l;
    expect_group(mask, 4000000000u, "one per subgroup on the diagonal, base near 2^32");
    for (l = 0; l < 32; l++) mask[l] = 0;
    expect_group(mask, 17, "nothing selected (returns the base)");
}

/* The paper's phases 1-3 emulated over a whole array with the exercise's arithmetic must
 * equal the serial select (indices): groups of 1024, an inclusive scan of the group counts. */
Test(ex07_phase3, paper_select)
{
    static const size_t sizes[] = {1, 1000, 1024, 1025, 65536 + 77};
    static const char *const inputs[] = {"p=0.50", "p=0.10", "runs-0.50", "p=1.00"};
    size_t s, x;
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (x = 0; x < 4; x++) {
            const size_t n = sizes[s], groups = (n + 1023) / 1024;
            const kit_input *inp = kit_input_find(&compact_select_problem, inputs[x]);
            uint32_t *in = malloc(groups * 1024 * sizeof *in), *want = malloc(n * sizeof *want);
            uint32_t *masks = calloc(groups * 32, sizeof *masks), *counter = malloc(groups * sizeof *counter);
            uint32_t *got = malloc(groups * 1024 * sizeof *got), *dsts = malloc(groups * 1024 * sizeof *dsts);
            uint32_t *nexts = calloc(groups, sizeof *nexts);
            size_t i, g, c;
            cr_assert(in && want && masks && counter && got && dsts && nexts);
            compact_generate(in, NULL, n, inp->arg, inp->value, KIT_SEED(5 + s));
            KIT_JUDGE c = compact_cpu_serial(in, NULL, COMPACT_THRESHOLD, want, n, COMPACT_IF | COMPACT_INDEX);
            for (i = 0; i < n; i++) /* phase 1: the ballots */
                if (in[i] < 0x80000000u) masks[i / 32] |= 1u << (i % 32);
            for (i = 0; i < groups * 1024; i++) dsts[i] = POISON32;
            /* the runner: phases 1 and 2 (the counts, an inclusive scan), phase 3 (every group from
             * its base); the judge: its checks, group by group */
            KIT_TO_RUNNER(masks, groups * 32 * sizeof *masks);
            KIT_STUDENT {
                for (g = 0; g < groups; g++) {
                    unsigned excl[32];
                    counter[g] = ex07_subgroup_offsets(masks + 32 * g, excl) + (g ? counter[g - 1] : 0);
                }
                for (g = 0; g < groups; g++)
                    nexts[g] = ex07_group_positions(masks + 32 * g, g ? counter[g - 1] : 0, dsts + 1024 * g);
            }
            KIT_FROM_RUNNER(counter, groups * sizeof *counter);
            KIT_FROM_RUNNER(nexts, groups * sizeof *nexts);
            KIT_FROM_RUNNER(dsts, groups * 1024 * sizeof *dsts);
            for (i = 0; i < groups * 1024; i++) got[i] = POISON32;
            for (g = 0; g < groups; g++) { /* phase 3: every group from its base */
                const uint32_t *dst = dsts + 1024 * g, next = nexts[g];
                uint32_t e;
                cr_assert_eq(next, counter[g], "%s n=%zu: group %zu ends at %u, want %u", inputs[x], n, g, next,
                             counter[g]);
                for (e = 0; e < 1024; e++)
                    if (masks[32 * g + e / 32] >> (e % 32) & 1u) {
                        cr_assert_lt(dst[e], c, "%s n=%zu: element %zu placed at %u of %zu", inputs[x], n,
                                     g * 1024 + e, dst[e], c);
                        got[dst[e]] = (uint32_t)(g * 1024 + e);
                    }
            }
            for (i = 0; i < c; i++)
                cr_assert_eq(got[i], want[i], "%s n=%zu: output %zu is element %u, want %u", inputs[x], n, i, got[i],
                             want[i]);
            free(in), free(want), free(masks), free(counter), free(got), free(dsts), free(nexts);
        }
}

/* ---------------------------------------------------------- ex07_scatter */

/* ex07_scatter (CPU): ex07_chunk_offsets, ex07_chunk_slots in
 * $(IMPL)/07-compaction/compact_scatter.h */
TestSuite(ex07_scatter, .timeout = KIT_CPU_TIMEOUT);

#define SZ_POISON ((size_t)0xA5A5A5A5A5A5A5A5ull)

static void poison_sz(size_t *a, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) a[i] = SZ_POISON;
}

Test(ex07_scatter, offsets_by_hand)
{
    static const uint32_t counts[5] = {3, 0, 7, 1, 0};
    static const size_t want[5] = {0, 3, 3, 10, 11};
    size_t off[6], k, total = 0, t0 = 0;
    poison_sz(off, 6);
    KIT_STUDENT {
        total = ex07_chunk_offsets(counts, 5, off);
    }
    KIT_FROM_RUNNER(off, sizeof off);
    KIT_FROM_RUNNER(&total, sizeof total);
    for (k = 0; k < 5; k++) cr_assert_eq(off[k], want[k], "ex07_chunk_offsets(counts = {3, 0, 7, 1, 0}, nchunks=5, offsets): offsets[%zu] = %zu, want %zu", k, off[k], want[k]);
    cr_assert_eq(total, 11, "ex07_chunk_offsets(counts = {3, 0, 7, 1, 0}, nchunks=5, offsets) returned %zu, want 11", total);
    cr_assert_eq(off[5], SZ_POISON, "ex07_chunk_offsets(counts, nchunks=5, offsets) wrote offsets[5]");
    poison_sz(off, 6);
    KIT_STUDENT {
        t0 = ex07_chunk_offsets(counts, 0, off);
    }
    KIT_FROM_RUNNER(&t0, sizeof t0);
    KIT_FROM_RUNNER(off, sizeof off);
    cr_assert_eq(t0, 0, "ex07_chunk_offsets(counts, nchunks=0, offsets) returned %zu, want 0", t0);
    cr_assert_eq(off[0], SZ_POISON, "ex07_chunk_offsets(counts, nchunks=0, offsets) wrote offsets[0]");
}

Test(ex07_scatter, slots_by_hand)
{
    /* n = 10 in chunks [0, 4) and [4, 10); selected: 1 2 4 7 8 */
    static const uint8_t sel[10] = {0, 1, 1, 0, 1, 0, 0, 1, 1, 0};
    static const size_t sel0[4] = {EX07_NO_SLOT, 0, 1, EX07_NO_SLOT};
    static const size_t sel1[6] = {2, EX07_NO_SLOT, EX07_NO_SLOT, 3, 4, EX07_NO_SLOT};
    /* partition: selected 1 2 4 7 8 at 0..4; rejected 0 3 5 6 9 at 9 8 7 6 5 */
    static const size_t par0[4] = {9, 0, 1, 8};
    static const size_t par1[6] = {2, 7, 6, 3, 4, 5};
    size_t dst[7], k, r = 0;
    poison_sz(dst, 7);
    KIT_STUDENT {
        r = ex07_chunk_slots(sel, 4, 0, 10, 0, 0, dst);
    }
    KIT_FROM_RUNNER(&r, sizeof r);
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(r, 2, "ex07_chunk_slots(sel, m=4, lo=0, n=10, sel_before=0, partition=0, dst) returned %zu, want 2", r);
    for (k = 0; k < 4; k++) cr_assert_eq(dst[k], sel0[k], "ex07_chunk_slots(sel, m=4, lo=0, n=10, sel_before=0, partition=0, dst): dst[%zu] = %zu, want %zu", k, dst[k],
                     sel0[k]);
    cr_assert_eq(dst[4], SZ_POISON, "ex07_chunk_slots(sel, m=4, lo=0, n=10, sel_before=0, partition=0, dst) wrote dst[4] (m = 4)");
    poison_sz(dst, 7);
    KIT_STUDENT {
        r = ex07_chunk_slots(sel + 4, 6, 4, 10, 2, 0, dst);
    }
    KIT_FROM_RUNNER(&r, sizeof r);
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(r, 3, "ex07_chunk_slots(sel + 4, m=6, lo=4, n=10, sel_before=2, partition=0, dst) returned %zu, want 3", r);
    for (k = 0; k < 6; k++) cr_assert_eq(dst[k], sel1[k], "ex07_chunk_slots(sel + 4, m=6, lo=4, n=10, sel_before=2, partition=0, dst): dst[%zu] (element %zu) = %zu, want %zu", k,
                     4 + k, dst[k], sel1[k]);
    cr_assert_eq(dst[6], SZ_POISON);
    poison_sz(dst, 7);
    KIT_STUDENT {
        ex07_chunk_slots(sel, 4, 0, 10, 0, 1, dst);
    }
    KIT_FROM_RUNNER(dst, sizeof dst);
    for (k = 0; k < 4; k++) cr_assert_eq(dst[k], par0[k], "ex07_chunk_slots(sel, m=4, lo=0, n=10, sel_before=0, partition=1, dst): dst[%zu] = %zu, want %zu", k, dst[k],
                     par0[k]);
    poison_sz(dst, 7);
    KIT_STUDENT {
        r = ex07_chunk_slots(sel + 4, 6, 4, 10, 2, 1, dst);
    }
    KIT_FROM_RUNNER(&r, sizeof r);
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(r, 3, AS_IF_CALLED(ex07_chunk_slots(sel + 4, 6, 4, 10, 2, 1, dst), 3));
    for (k = 0; k < 6; k++)
        cr_assert_eq(dst[k], par1[k], "ex07_chunk_slots(sel + 4, m=6, lo=4, n=10, sel_before=2, partition=1, dst): dst[%zu] (element %zu) = %zu, want %zu "
                     "(2 rejected before the chunk)",
                     k, 4 + k, dst[k], par1[k]);
}

/* random arrays cut into random chunks: counts, offsets, slots of every chunk; the slots
 * must be those of the serial select / partition (and a partition's a permutation) */
static void expect_array(size_t n, unsigned pct, int partition, uint64_t seed)
{
    uint8_t *sel = malloc(n + 1);
    size_t *dst = malloc((n + 1) * sizeof *dst), *want = malloc((n + 1) * sizeof *want);
    size_t *lo = malloc((2 * n + 4) * sizeof *lo), *off = malloc((2 * n + 4) * sizeof *off);
    uint32_t *counts = malloc((2 * n + 4) * sizeof *counts);
    size_t *cs = malloc((2 * n + 4) * sizeof *cs);
    uint8_t *hit = calloc(n + 1, 1);
    size_t i, k, chunks = 0, s = 0, r = 0, total = 0;
    uint64_t st = KIT_SEED(seed);
    cr_assert(sel && dst && want && lo && off && counts && cs && hit);
    for (i = 0; i < n; i++) sel[i] = (uint8_t)(kit_rand64(&st) % 100 < pct);
    for (i = 0; i < n; i++) want[i] = sel[i] ? s++ : partition ? n - 1 - r++ : EX07_NO_SLOT;
    for (i = 0; i < n; chunks++) { /* chunks of 1 .. 700 elements, some of 0 (never two in a row) */
        const int empty = chunks > 0 && lo[chunks - 1] < i && kit_rand64(&st) % 8 == 0;
        const size_t m = empty ? 0 : 1 + kit_rand64(&st) % 700;
        lo[chunks] = i;
        counts[chunks] = 0;
        for (k = i; k < i + m && k < n; k++) counts[chunks] += sel[k];
        i = i + m < n ? i + m : n;
    }
    lo[chunks] = n;
    /* the runner: the offsets, then the slots of every chunk (the chunking is the judge's) */
    KIT_TO_RUNNER(sel, n);
    KIT_TO_RUNNER(&chunks, sizeof chunks);
    KIT_TO_RUNNER(lo, (chunks + 1) * sizeof *lo);
    KIT_TO_RUNNER(counts, chunks * sizeof *counts);
    KIT_STUDENT {
        total = ex07_chunk_offsets(counts, chunks, off);
    }
    KIT_FROM_RUNNER(&total, sizeof total);
    cr_assert_eq(total, s, "ex07_chunk_offsets(counts, nchunks=%zu, offsets) on n=%zu random elements (%u %% selected, seed %llu) returned %zu, want %zu",
                 chunks, n, pct, (unsigned long long)KIT_SEED(seed), total, s);
    poison_sz(dst, n + 1);
    KIT_STUDENT {
        for (k = 0; k < chunks; k++)
            cs[k] = ex07_chunk_slots(sel + lo[k], lo[k + 1] - lo[k], lo[k], n, off[k], partition, dst + lo[k]);
    }
    KIT_FROM_RUNNER(cs, chunks * sizeof *cs);
    KIT_FROM_RUNNER(dst, (n + 1) * sizeof *dst);
    for (k = 0; k < chunks; k++) {
        const size_t c = cs[k];
        cr_assert_eq(c, counts[k], "ex07_chunk_slots(sel + %zu, m=%zu, lo=%zu, n=%zu, sel_before=offsets[%zu], partition=%d, dst) (seed %llu) returned %zu, want %u",
                     lo[k], lo[k + 1] - lo[k], lo[k], n, k, partition, (unsigned long long)KIT_SEED(seed), c, counts[k]);
    }
    for (i = 0; i < n; i++)
        cr_assert_eq(dst[i], want[i], "ex07_chunk_slots(..., n=%zu, ..., partition=%d, dst) over every chunk (%u %% selected, seed %llu): dst[%zu] (%s) = %zu, want %zu",
                     n, partition, pct, (unsigned long long)KIT_SEED(seed), i, sel[i] ? "selected" : "rejected", dst[i], want[i]);
    cr_assert_eq(dst[n], SZ_POISON, "ex07_chunk_slots(..., n=%zu, ..., partition=%d, dst) over every chunk (seed %llu) wrote dst[n]", n, partition,
                 (unsigned long long)KIT_SEED(seed));
    if (partition)
        for (i = 0; i < n; i++) {
            cr_assert(dst[i] < n && !hit[dst[i]], "ex07_chunk_slots(..., n=%zu, ..., partition=1, dst) (seed %llu): dst[%zu] = %zu taken twice or out of range", n,
                      (unsigned long long)KIT_SEED(seed), i, dst[i]);
            hit[dst[i]] = 1;
        }
    free(sel), free(dst), free(want), free(lo), free(off), free(counts), free(cs), free(hit);
}

Test(ex07_scatter, random_select)
{
    expect_array(10007, 50, 0, 1);
    expect_array(100003, 10, 0, 2);
    expect_array(5000, 100, 0, 3);
    expect_array(777, 0, 0, 4);
}

Test(ex07_scatter, random_partition)
{
    expect_array(10007, 50, 1, 5);
    expect_array(100003, 90, 1, 6);
    expect_array(5000, 0, 1, 7);
    expect_array(4096, 100, 1, 8);
}

Test(ex07_scatter, empty_and_single)
{
    static const uint8_t one = 1, zero = 0;
    size_t dst[2], r = 0;
    poison_sz(dst, 2);
    KIT_STUDENT {
        r = ex07_chunk_slots(&one, 0, 5, 9, 3, 1, dst);
    }
    KIT_FROM_RUNNER(&r, sizeof r);
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(r, 0, "an empty chunk selects nothing");
    cr_assert_eq(dst[0], SZ_POISON, "an empty chunk writes nothing");
    KIT_STUDENT {
        r = ex07_chunk_slots(&one, 1, 5, 9, 3, 1, dst);
    }
    KIT_FROM_RUNNER(&r, sizeof r);
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(r, 1, AS_IF_CALLED(ex07_chunk_slots(&one, 1, 5, 9, 3, 1, dst), 1));
    cr_assert_eq(dst[0], 3, "one selected element after 3 selected: slot 3");
    KIT_STUDENT {
        r = ex07_chunk_slots(&zero, 1, 5, 9, 3, 1, dst);
    }
    KIT_FROM_RUNNER(&r, sizeof r);
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(r, 0, AS_IF_CALLED(ex07_chunk_slots(&zero, 1, 5, 9, 3, 1, dst), 0));
    cr_assert_eq(dst[0], 6, "rejected element 5 of 9 after 2 rejected: slot 9 - 1 - 2 = 6");
    KIT_STUDENT {
        r = ex07_chunk_slots(&zero, 1, 5, 9, 3, 0, dst);
    }
    KIT_FROM_RUNNER(&r, sizeof r);
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert_eq(r, 0, AS_IF_CALLED(ex07_chunk_slots(&zero, 1, 5, 9, 3, 0, dst), 0));
    cr_assert_eq(dst[0], EX07_NO_SLOT, "a select gives a rejected element no slot");
    expect_array(1, 100, 1, 9);
    expect_array(1, 0, 1, 10);
}

Test(ex07_scatter, counts_past_2_32)
{
    /* 4 chunks of 2^32 - 1 selected elements each: offsets and slots in size_t */
    static const uint32_t counts[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
    static const uint8_t sel[3] = {1, 0, 1};
    const size_t big = 0xFFFFFFFFull;
    size_t off[4], dst[3], k, total = 0;
    KIT_STUDENT {
        total = ex07_chunk_offsets(counts, 4, off);
    }
    KIT_FROM_RUNNER(&total, sizeof total);
    KIT_FROM_RUNNER(off, sizeof off);
    cr_assert_eq(total, 4 * big, "the total of 4 x (2^32 - 1) (sum in size_t)");
    for (k = 0; k < 4; k++) cr_assert_eq(off[k], k * big, "offsets[%zu] = %zu, want %zu", k, off[k], k * big);
    /* the last chunk starts at element 4 (2^32 - 1) + 5 of n = 5 (2^32 - 1) */
    KIT_STUDENT {
        ex07_chunk_slots(sel, 3, 4 * big + 5, 5 * big, 3 * big, 1, dst);
    }
    KIT_FROM_RUNNER(dst, sizeof dst);
    cr_assert(dst[0] == 3 * big && dst[2] == 3 * big + 1, "selected slots %zu %zu, want %zu %zu", dst[0], dst[2],
              3 * big, 3 * big + 1);
    cr_assert_eq(dst[1], 5 * big - 1 - (big + 5), "the rejected slot counts the big + 5 rejected before it");
}
