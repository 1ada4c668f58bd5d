/* kit_test.h - what every Criterion suite of the kit shares. */
#ifndef KIT_TEST_H
#define KIT_TEST_H

#include <criterion/criterion.h>

#include "kit.h"

/* Per-test time limits (seconds): a hanging kernel fails its own test only. */
#define KIT_CPU_TIMEOUT 60
#define KIT_GPU_TIMEOUT 120

/* Skip the running test, with the reason, when no CUDA device is usable.
 * Called inside each GPU test, i.e. after Criterion has forked the worker. */
#define KIT_REQUIRE_GPU()                                                       \
    do {                                                                        \
        char kit_why_[KIT_MSG];                                                 \
        if (!kit_gpu_available(kit_why_, sizeof kit_why_)) cr_skip_test("%s", kit_why_); \
    } while (0)

/* Assert that step i of L reproduces the CPU reference on (n, pattern); a
 * failure names the ladder, the step and its param (tuning variants share a name). */
void kit_expect_step(const kit_ladder *L, size_t i, size_t n, kit_pattern p, uint64_t seed);
/* Same, for step i over sizes[0..nsizes) x patterns[0..npatterns), with seed
 * seed0 + k at sizes[k]. */
void kit_expect_step_sizes(const kit_ladder *L, size_t i, const size_t *sizes, size_t nsizes,
                           const kit_pattern *patterns, size_t npatterns, uint64_t seed0);
/* Same, for every step of L (seeds 1000 + k). */
void kit_expect_ladder(const kit_ladder *L, const size_t *sizes, size_t nsizes,
                       const kit_pattern *patterns, size_t npatterns);

/* The sizes every chapter's tests use unless it says otherwise, and the few odd
 * sizes at which tuning tables (many variants of one kernel) are checked. */
extern const size_t kit_test_sizes[];
extern const size_t kit_test_nsizes;
extern const size_t kit_tuning_sizes[];
extern const size_t kit_tuning_nsizes;

/* The invariants every step table keeps (it feeds tests, bench, demo, README):
 * every field filled, a describe() for every GPU step, its source file present
 * (solutions/... for "$(IMPL)/..." exercise steps, which must name their
 * exercise), and no (name, param) listed twice. */
void kit_expect_table(const kit_ladder *L);

/* A GPU test that checks every variant of a tuning table at kit_tuning_sizes. */
#define KIT_TABLE_TEST(suite, test_, ladder)                                           \
    Test(suite, test_)                                                                 \
    {                                                                                  \
        const kit_pattern kit_p_ = KIT_UNIFORM;                                        \
        KIT_REQUIRE_GPU();                                                             \
        kit_expect_ladder(&(ladder), kit_tuning_sizes, kit_tuning_nsizes, &kit_p_, 1); \
    }

#endif
