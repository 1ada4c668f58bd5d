/* kit_test.h - what every Criterion suite of the kit shares. */
#ifndef KIT_TEST_H
#define KIT_TEST_H

#include <stdlib.h>

#include "kit.h"

/* ------------------------------------------------------ grading sides
 * A graded test (suites ex*) is written once and compiled three ways (docs/grading.md):
 *   KIT_SIDE 0  make test: one process generates, runs the code under test and asserts;
 *   KIT_SIDE 1  the judge (trusted, Criterion): generates the inputs, sends them to the
 *               runner, receives the outputs it asked for and asserts; it never runs
 *               student code (the KIT_STUDENT blocks are skipped) and is linked with the
 *               skeletons only;
 *   KIT_SIDE 2  the runner (the student's code, sandboxed, no Criterion): receives the
 *               inputs, runs the KIT_STUDENT blocks, sends the outputs; asserts nothing.
 * In a graded test, every call of the student's code sits in a KIT_STUDENT block; what the
 * block reads is sent before it (KIT_TO_RUNNER), what it writes and the judge checks is
 * received after it (KIT_FROM_RUNNER), in the same order on both sides; control flow that
 * depends on data depends only on data both sides have.  Seeds go through KIT_SEED, so the
 * judge can draw inputs from a seed the runner never sees (KIT_GRADE_SEED). */
#ifndef KIT_SIDE
#define KIT_SIDE 0
#endif
#define KIT_STUDENT if (KIT_SIDE != 1)
/* code only the judge needs (the expected answers from the kit's own functions): compiled out of
 * the runner, so that its objects never call them and a student's call stands out
 * (tools/grade-uses.sh) */
#define KIT_JUDGE if (KIT_SIDE != 2)
#define KIT_TO_RUNNER(ptr, bytes) kit_xchg(0, (ptr), (bytes))
#define KIT_FROM_RUNNER(ptr, bytes) kit_xchg(1, (ptr), (bytes))
#define KIT_SEED(x) kit_seed((uint64_t)(x))
/* dir 0: judge -> runner, 1: runner -> judge; a no-op on side 0 */
void kit_xchg(int dir, void *ptr, size_t bytes);
uint64_t kit_seed(uint64_t x);

#if KIT_SIDE == 2
/* the runner: Test() registers a function; nothing asserts or skips (the judge does) */
typedef void (*kit_runner_fn)(void);
void kit_runner_add(const char *suite, const char *name, kit_runner_fn f);
#define TestSuite(...) struct kit_unused_suite_
#define Test(suite, name, ...)                                                              \
    static void suite##_##name##_run(void);                                                \
    __attribute__((constructor)) static void suite##_##name##_reg(void)                    \
    {                                                                                      \
        kit_runner_add(#suite, #name, suite##_##name##_run);                               \
    }                                                                                      \
    static void suite##_##name##_run(void)
#define cr_assert(...) ((void)0)
#define cr_assert_not(...) ((void)0)
#define cr_assert_eq(...) ((void)0)
#define cr_assert_neq(...) ((void)0)
#define cr_assert_lt(...) ((void)0)
#define cr_assert_leq(...) ((void)0)
#define cr_assert_gt(...) ((void)0)
#define cr_assert_geq(...) ((void)0)
#define cr_assert_fail(...) ((void)0)
#define cr_expect(...) ((void)0)
#define cr_log_error(...) ((void)0)
#define cr_log_info(...) ((void)0)
#define cr_skip_test(...) return
#else
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#endif

/* Per-test time limits (seconds): a hanging kernel fails its own test only. */
#define KIT_CPU_TIMEOUT 60
#define KIT_GPU_TIMEOUT 120

/* Skip the running test, with the reason, when no CUDA device is usable.
 * Called inside each GPU test, i.e. after Criterion has forked the worker. */
#if KIT_SIDE == 2
#define KIT_REQUIRE_GPU() ((void)0) /* the judge skips, the runner is never started */
#else
#define KIT_REQUIRE_GPU()                                                       \
    do {                                                                        \
        char kit_why_[KIT_MSG];                                                 \
        if (!kit_gpu_available(kit_why_, sizeof kit_why_)) cr_skip_test("%s", kit_why_); \
    } while (0)
#endif

/* Assert that step i of L reproduces the CPU reference at shape sh on the named input
 * (NULL: the problem's first); a failure names the ladder, the step, its param, n, the
 * shape and the input. */
void kit_expect_step(const kit_ladder *L, size_t i, const kit_shape *sh, const char *input,
                     uint64_t seed);
/* Same at size n with every axis at its default. */
void kit_expect_n(const kit_ladder *L, size_t i, size_t n, const char *input, uint64_t seed);
/* Same, over sizes[0..nsizes) (axes at their defaults) x inputs (a NULL-terminated list of
 * names; NULL: every input of the problem), with seed seed0 + k at sizes[k]. */
void kit_expect_step_sizes(const kit_ladder *L, size_t i, const size_t *sizes, size_t nsizes,
                           const char *const *inputs, uint64_t seed0);
/* Same, for every step of L (seeds 1000 + k). */
void kit_expect_ladder(const kit_ladder *L, const size_t *sizes, size_t nsizes,
                       const char *const *inputs);

/* The sizes every chapter's tests use unless it says otherwise, and the few odd
 * sizes at which tuning tables (many variants of one kernel) are checked. */
extern const size_t kit_test_sizes[];
extern const size_t kit_test_nsizes;
extern const size_t kit_tuning_sizes[];
extern const size_t kit_tuning_nsizes;

/* The invariants every step table keeps (it feeds tests, bench, demo, README):
 * every field filled, a describe() for every GPU step, its source file present
 * (solutions/... for "$(IMPL)/..." exercise steps, which must name their
 * exercise), no (name, param) listed twice, a problem with inputs, buffers, a
 * fill and a reference. */
void kit_expect_table(const kit_ladder *L);

/* A GPU test that checks every variant of a tuning table at kit_tuning_sizes. */
#define KIT_TABLE_TEST(suite, test_, ladder)                                           \
    Test(suite, test_)                                                                 \
    {                                                                                  \
        KIT_REQUIRE_GPU();                                                             \
        kit_expect_ladder(&(ladder), kit_tuning_sizes, kit_tuning_nsizes, NULL);       \
    }

/* qsort's comparison of uint32_t words (the tests' independent sort to compare against) */
int kit_test_cmp_u32(const void *a, const void *b);

/* ------------------------------------------------------------- contract */

/* The contract of step i of L (reference/contract.c): offset pointers (one element;
 * 1..15 bytes for byte buffers), guards around every buffer, exactly scratch_bytes of
 * scratch, inputs unchanged, dirty scratch, a non-blocking stream behind a busy kernel,
 * sizes 0, 1, odd and prime sizes around tile boundaries, every input at the small
 * sizes, the refusal of the first n past the step's largest, every argument case of the
 * ladder's header that applies to the step (kit_arg_case: allowed NULLs and aliases must match
 * the reference, refusals must return their code and write nothing), and (full = 1, when the
 * GPU has the memory) n = 2^31 + 5.  Main ladders get every size, tuning tables a few. */
void kit_expect_contract(const kit_ladder *L, size_t i, int main_ladder, int full);

/* One Criterion test per step of every table of a chapter (each in its own process:
 * a step that kills its CUDA context fails only its own test).  ladders: the chapter's
 * list (the first nmain are its main ladders).  The n = 2^31 + 5 runs happen unless
 * KIT_QUICK is set in the environment (make test QUICK=1); KIT_BIG_ONLY=1 runs only them.
 * (make test-big: the 2^31 + 5 runs of every chapter, one at a time).  KIT_BIG_SHARD=k/m keeps
 * only the runs of the steps whose place in their ladder is k modulo m (a long test-big split
 * over several sessions or machines: shards 0/m .. m-1/m together are the whole run).  Each passed
 * 2^31 + 5 run names its step on stderr and in $KIT_PROGRESS (a `big-pass` line). */
/* (ladder index, step): Criterion may start each test in a fresh process image, so a
 * parameter holds indices, never pointers */
typedef struct kit_contract_param {
    size_t ladder, step;
    int main_ladder;
} kit_contract_param;
size_t kit_contract_params(const kit_ladder *const *ladders, size_t nladders, size_t nmain,
                           kit_contract_param *out, size_t max);
#define KIT_MAX_CONTRACT_PARAMS 4096
#define KIT_CONTRACT_TESTS(suite, ladders, nladders, nmain)                                  \
    ParameterizedTestParameters(suite, contract)                                           \
    {                                                                                      \
        static kit_contract_param kit_p_[KIT_MAX_CONTRACT_PARAMS];                         \
        const size_t kit_n_ = kit_contract_params(ladders, nladders, nmain, kit_p_,        \
                                                  KIT_MAX_CONTRACT_PARAMS);                \
        return cr_make_param_array(kit_contract_param, kit_p_, kit_n_);                    \
    }                                                                                      \
    ParameterizedTest(kit_contract_param *p, suite, contract, .timeout = 600)              \
    {                                                                                      \
        KIT_REQUIRE_GPU();                                                                 \
        cr_assert_lt(p->ladder, (size_t)(nladders));                                       \
        kit_expect_contract((ladders)[p->ladder], p->step, p->main_ladder,                  \
                            getenv("KIT_QUICK") == NULL);                                  \
    }

#endif
