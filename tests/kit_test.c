/* kit_test.c - shared test helpers and the results file the grader reads.
 *
 * Criterion runs each test in its own worker process; the report hook below
 * runs in the runner after all of them and writes one line per test to the
 * file named by $KIT_RESULTS (when set):
 *     suite <TAB> test <TAB> status <TAB> message
 * status is pass, fail, crash, timeout or skip; message is the skip reason or
 * the first failed assertion. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>

#include "kit_test.h"

const size_t kit_test_sizes[] = {0, 1, 31, 32, 33, 1023, 1025, (1u << 20) + 7, 1u << 24};
const size_t kit_test_nsizes = sizeof kit_test_sizes / sizeof kit_test_sizes[0];
const size_t kit_tuning_sizes[] = {1, 33, 4101, (1u << 20) + 7};
const size_t kit_tuning_nsizes = sizeof kit_tuning_sizes / sizeof kit_tuning_sizes[0];

void kit_expect_table(const kit_ladder *L)
{
    size_t i, j;
    cr_assert_gt(L->count, 0, "%s is empty", L->id);
    cr_assert(L->P && L->P->ninputs > 0 && L->P->nbufs > 0 && L->P->fill && (L->P->reference || L->reference) &&
                  L->run && L->bytes && L->step,
              "%s: its problem lacks inputs, buffers, fill, reference, run or bytes", L->id);
    for (i = 0; i < L->P->ninputs; i++)
        for (j = 0; j < i; j++)
            cr_assert(strcmp(L->P->inputs[i].name, L->P->inputs[j].name) != 0, "%s: input %s twice",
                      L->P->name, L->P->inputs[i].name);
    for (i = 0; i < L->count; i++) {
        const kit_step_info *s = L->step(L, i);
        cr_assert(s->name && *s->name && s->what && *s->what && s->file && s->param,
                  "%s step %zu lacks a field", L->id, i);
        cr_assert(s->kind == KIT_STEP_YARDSTICK || s->describe, "%s %s: no describe", L->id, s->name);
        if (strncmp(s->file, "$(IMPL)/", 8) == 0) {
            char path[256];
            snprintf(path, sizeof path, "solutions/%s", s->file + 8);
            cr_assert(s->exercise != NULL, "%s is built from $(IMPL) but names no exercise", s->name);
            cr_assert_eq(access(path, R_OK), 0, "%s: %s missing", s->name, path);
        } else {
            cr_assert_eq(access(s->file, R_OK), 0, "%s: %s missing", s->name, s->file);
        }
        for (j = 0; j < i; j++) /* tuning tables share a name and differ in param */
            cr_assert(strcmp(L->step(L, j)->name, s->name) != 0 ||
                          strcmp(L->step(L, j)->param, s->param) != 0,
                      "%s: %s (%s) listed twice", L->id, s->name, s->param);
    }
}

static const char *step_who(const kit_ladder *L, size_t i, const kit_shape *sh,
                            const char *input, char *who, size_t len)
{
    const kit_step_info *s = L->step(L, i);
    char shape[256], sz[32];
    kit_shape_str(L->P, sh, shape, sizeof shape);
    snprintf(who, len, "%s %s%s%s%s, n=%s%s%s, input %s", L->id, s->name,
             s->param && *s->param ? " (" : "", s->param ? s->param : "",
             s->param && *s->param ? ")" : "", kit_size_str(sh->n, sz, sizeof sz),
             *shape ? " " : "", shape, input ? input : L->P->inputs[0].name);
    return who;
}

void kit_expect_step(const kit_ladder *L, size_t i, const kit_shape *sh, const char *input,
                     uint64_t seed)
{
    char msg[KIT_MSG], who[512];
    const kit_input *in = input ? kit_input_find(L->P, input) : &L->P->inputs[0];
    int ok = 0;
    cudaError_t e;
    cr_assert_lt(i, L->count, "%s has no step %zu", L->id, i);
    step_who(L, i, sh, input, who, sizeof who);
    cr_assert(in != NULL, "%s: %s has no input named %s", who, L->P->name, input);
#if KIT_SIDE == 1
    {
        /* the judge: inputs and reference here, the step's run in the runner (kit_side.c) */
        kit_ctx *c = NULL;
        kit_shape s2 = *sh;
        uint64_t step = i;
        int32_t er = 0;
        size_t k, b;
        e = kit_ctx_new(L, sh, in, KIT_SEED(seed), 0, &c);
        cr_assert(e == cudaSuccess, "%s: the judge's inputs: %s", who, cudaGetErrorString(e));
        KIT_TO_RUNNER(&s2, sizeof s2);
        KIT_TO_RUNNER(&step, sizeof step);
        for (k = 0; k < L->P->nbufs; k++)
            if (L->P->bufs[k].role == KIT_IN)
                KIT_TO_RUNNER(kit_ctx_inputs(c)->buf[k], kit_buf_count(L->P, k, sh) * L->P->bufs[k].elem);
        KIT_FROM_RUNNER(&er, sizeof er);
        cr_assert(er == 0, "%s: CUDA error: %s", who, cudaGetErrorString((cudaError_t)er));
        for (k = 0; k < L->P->nbufs; k++) {
            unsigned char *raw = kit_ctx_raw(c, k, &b);
            if (raw) KIT_FROM_RUNNER(raw, b);
        }
        kit_ctx_judge(c, i, &ok, msg, sizeof msg);
        kit_ctx_free(c);
    }
#else
    e = kit_ladder_verify(L, i, sh, in, seed, &ok, msg, sizeof msg);
    if (e != cudaSuccess) {
        const char *why = kit_unsupported();
        if (why) { /* cannot run on this GPU at all: said, not verified, not failed */
            fprintf(stderr, "kit tests: %s skipped: cannot run on this GPU: %s\n", who, why);
            kit_recover();
            return;
        }
    }
    cr_assert(e == cudaSuccess, "%s: CUDA error: %s", who, cudaGetErrorString(e));
#endif
    cr_assert(ok || (L->step(L, i)->flags & KIT_TIMING_ONLY), "%s: %s", who, msg);
}

void kit_expect_ladder(const kit_ladder *L, const size_t *sizes, size_t nsizes,
                       const char *const *inputs)
{
    size_t i;
    for (i = 0; i < L->count; i++) kit_expect_step_sizes(L, i, sizes, nsizes, inputs, 1000);
}

/* ------------------------------------------------------------- contract */

size_t kit_contract_params(const kit_ladder *const *ladders, size_t nladders, size_t nmain,
                           kit_contract_param *out, size_t max)
{
    size_t l, i, k = 0;
    for (l = 0; l < nladders; l++)
        for (i = 0; i < ladders[l]->count && k < max; i++) {
            if (ladders[l]->step(ladders[l], i)->flags & KIT_TIMING_ONLY) continue;
            out[k].ladder = l;
            out[k].step = i;
            out[k].main_ladder = l < (nmain ? nmain : 1);
            k++;
        }
    return k;
}

static void contract_at(const kit_ladder *L, size_t i, const kit_shape *sh, const kit_input *in,
                        uint64_t seed, const kit_contract_opts *o)
{
    char msg[KIT_MSG];
    int ok = 0;
    const cudaError_t e = kit_contract_step(L, i, sh, in, seed, o, &ok, msg, sizeof msg);
    const char *why = e != cudaSuccess ? kit_unsupported() : NULL;
    /* a step that cannot run on this GPU (or KIT_DEVICE's) at all: skipped, with the reason */
    if (why) cr_skip_test("%s %s cannot run on this GPU: %s", L->id, L->step(L, i)->name, why);
    cr_assert(e == cudaSuccess && ok, "%s", msg);
}


/* KIT_BIG_SHARD=k/m: step i's 2^31 + 5 run belongs to shard i mod m (unset or malformed: all) */
static int in_big_shard(size_t i)
{
    const char *v = getenv("KIT_BIG_SHARD");
    unsigned long k, m;
    char *end;
    if (!v || !*v) return 1;
    k = strtoul(v, &end, 10);
    if (*end != '/') return 1;
    m = strtoul(end + 1, &end, 10);
    if (*end || m == 0 || k >= m) return 1;
    return i % m == k;
}

/* A parameterized test has one name for all its steps: a passed 2^31 + 5 run says which step it
 * was on stderr and, when $KIT_PROGRESS is set, in a line of its own there */
static void big_progress(const kit_ladder *L, size_t i, const kit_shape *sh, double seconds)
{
    const char *path = getenv("KIT_PROGRESS");
    const kit_step_info *st = L->step(L, i);
    char shape[256];
    FILE *f;
    /* the shape that ran (a misspelt KIT_BIG_AXES name shows as the default it left) */
    kit_shape_str(L->P, sh, shape, sizeof shape);
    fprintf(stderr, "[BIG ] %s %s (%s) n = 2^31+5 %s passed in %.1f s\n", L->id, st->name, st->param, shape,
            seconds);
    if (!path || !*path || !(f = fopen(path, "a"))) return;
    fprintf(f, "%s\t%s\tbig-pass\t%s (%s) n = 2^31+5 %s in %.1f s\n", L->id, st->name, st->name, st->param, shape,
            seconds);
    fclose(f);
}

/* The argument cases of the ladder's header that apply to step i (kit_arg_case), at each of the
 * case's shapes: an allowed call at n = 0, 1, 33 and 1023 (tuning tables: 33), aligned and
 * offset; a refusal at n = 1 and 33 (tuning tables: 33). */
static void expect_cases(const kit_ladder *L, size_t i, int main_ladder)
{
    static const size_t ok_main[] = {0, 1, 33, 1023}, no_main[] = {1, 33}, tune[] = {33};
    const size_t max = kit_step_max_n(L, i);
    size_t c, k;
    int j;
    for (c = 0; c < L->ncases; c++) {
        const int allowed = L->cases[c].want == cudaSuccess;
        const size_t *sizes = !main_ladder ? tune : allowed ? ok_main : no_main;
        const size_t nsizes = !main_ladder ? 1 : allowed ? 4 : 2;
        if (!kit_case_applies(L, i, c)) continue;
        for (k = 0; k < nsizes; k++) {
            const kit_shape base = kit_shape_default(L->P, sizes[k]);
            kit_shape sh;
            if (sizes[k] > max) continue;
            for (j = 0; kit_case_shape(L, c, j, &base, &sh); j++) {
                const kit_contract_opts aligned = {0, 0, 0, 0, (int)c + 1};
                const kit_contract_opts offset = {1, 1 + (size_t)j % 15, 0, 0, (int)c + 1, j & 1};
                contract_at(L, i, &sh, &L->P->inputs[0], 900 + k + 10 * (uint64_t)j, &aligned);
                if (allowed) contract_at(L, i, &sh, &L->P->inputs[0], 950 + k + 10 * (uint64_t)j, &offset);
            }
        }
    }
}

void kit_expect_contract(const kit_ladder *L, size_t i, int main_ladder, int full)
{
    /* 0, 1, small primes, around warp / block / tile sizes, a large prime, 2^20 + 7 */
    static const size_t main_sizes[] = {0, 1, 2, 31, 33, 1023, 1025, 4099, 65537, 262147, (1u << 20) + 7};
    static const size_t tune_sizes[] = {1, 33, 4099, 65537};
    const size_t *sizes = main_ladder ? main_sizes : tune_sizes;
    const size_t nsizes = main_ladder ? sizeof main_sizes / sizeof *sizes : sizeof tune_sizes / sizeof *sizes;
    const kit_problem *P = L->P;
    const size_t max = kit_step_max_n(L, i);
    char msg[KIT_MSG];
    const int big_only = getenv("KIT_BIG_ONLY") != NULL; /* the 2^31 + 5 runs alone */
    size_t k, x;
    int ok = 0;
    for (k = 0; k < nsizes && !big_only; k++) {
        const kit_shape sh = kit_shape_default(P, sizes[k]);
        const kit_contract_opts aligned = {0, 0, 0, 0};
        const kit_contract_opts offset = {1, 1 + (k * 5) % 15, 0, 0, 0, (int)(k & 1)};
        const kit_contract_opts busy = {1, 3, 1, 0};
        if (sh.n > max) continue;
        /* every input at the small sizes, the default input above */
        for (x = 0; x < (sh.n <= 1025 ? P->ninputs : 1); x++) {
            contract_at(L, i, &sh, &P->inputs[x], 500 + k, &aligned);
            contract_at(L, i, &sh, &P->inputs[x], 600 + k, &offset);
        }
        if (k == nsizes - 1 || sizes[k] == 1023) contract_at(L, i, &sh, &P->inputs[0], 700 + k, &busy);
    }
    if (!big_only) {
        cr_assert(kit_contract_refusal(L, i, &ok, msg, sizeof msg) == cudaSuccess && ok, "%s", msg);
        expect_cases(L, i, main_ladder);
    }
    if (full && main_ladder && max >= ((size_t)1 << 31) + 5 && in_big_shard(i)) {
        /* KIT_BIG_AXES="name=value ...": the run's other axes (e.g. pairs=1), as bench's --AXIS
         * flags give them; names the problem has not are ignored (default: the problem's shape) */
        const char *axes = getenv("KIT_BIG_AXES");
        kit_bench axes_src;
        kit_shape sh;
        memset(&axes_src, 0, sizeof axes_src);
        axes_src.axes = axes && *axes ? axes : NULL;
        sh = kit_bench_shape(&axes_src, P, ((size_t)1 << 31) + 5);
        const kit_contract_opts offset = {1, 7, 0, 1};
        size_t need = 0, freeb = 0, total = 0, b;
        for (b = 0; b < P->nbufs; b++) need += kit_buf_count(P, b, &sh) * P->bufs[b].elem;
        need += L->scratch ? L->scratch(L, i, &sh) : 0;
        cr_assert_eq(cudaMemGetInfo(&freeb, &total), cudaSuccess);
        if (need + need / 8 > total) cr_skip_test("n = 2^31+5 needs %zu MB, the GPU has %zu MB",
                                                  need >> 20, total >> 20);
        {   /* a few at a time: each needs its device bytes on the GPU and several times them on the
             * host; slot k is the lock file /tmp/kit-contract-big.K, the number of slots follows from
             * the memory of both sides (at least one, at most three) */
            const double host = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
            double fit = 0.8 * (double)total / (double)(need + need / 8);
            char path[64];
            int fd = -1, slots, k2;
            if (0.7 * host / (4.0 * (double)need) < fit) fit = 0.7 * host / (4.0 * (double)need);
            slots = fit >= 3 ? 3 : fit >= 2 ? 2 : 1;
            for (k2 = 0; fd < 0; k2 = (k2 + 1) % slots) {
                snprintf(path, sizeof path, "/tmp/kit-contract-big.%d", k2);
                fd = open(path, O_RDWR | O_CREAT, 0666);
                if (fd < 0) break; /* no lock file: run anyway */
                if (lockf(fd, k2 == slots - 1 ? F_LOCK : F_TLOCK, 0) != 0) { close(fd); fd = -1; }
            }
            /* the other slots' runs may still hold memory: wait up to five minutes for it */
            for (k2 = 0; k2 < 600; k2++) {
                cr_assert_eq(cudaMemGetInfo(&freeb, &total), cudaSuccess);
                if (need + need / 8 <= freeb) break;
                const struct timespec half = {0, 500000000L};
                nanosleep(&half, NULL);
            }
            if (need + need / 8 > freeb) {
                if (fd >= 0) close(fd);
                cr_skip_test("n = 2^31+5 needs %zu MB, the GPU has %zu MB free", need >> 20, freeb >> 20);
            }
            {
                struct timespec t0, t1;
                clock_gettime(CLOCK_MONOTONIC, &t0);
                contract_at(L, i, &sh, &P->inputs[0], 800, &offset);
                clock_gettime(CLOCK_MONOTONIC, &t1);
                big_progress(L, i, &sh, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
            }
            if (fd >= 0) close(fd);
        }
    }
}

/* One field of the results file: no tabs or newlines inside. */
static void put_field(FILE *f, const char *s)
{
    for (; s && *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static const char *message_of(const struct criterion_test_stats *t)
{
    const struct criterion_assert_stats *a;
    if (t->message && *t->message) return t->message;
    for (a = t->asserts; a; a = a->next)
        if (!a->passed && a->message) return a->message;
    if (t->crashed) return t->signal ? "the test process crashed (signal)" : "the test process crashed";
    if (t->timed_out) return "the test exceeded its time limit";
    return "";
}

static const char *status_of(const struct criterion_test_stats *t)
{
    if (t->timed_out) return "timeout";
    if (t->crashed) return "crash";
    if (t->test_status == CR_STATUS_SKIPPED) return "skip";
    /* the judge's word for a runner that died (kit_side.c) */
    if (t->test_status == CR_STATUS_FAILED && strncmp(message_of(t), "crashed: ", 9) == 0) return "crash";
    if (t->test_status == CR_STATUS_FAILED) return "fail";
    return "pass";
}


/* $KIT_PROGRESS (when set): the same line appended as each test ends, so that a run stopped
 * from outside (a time limit on a GPU node) still says which tests finished and how */
ReportHook(POST_TEST)(struct criterion_test_stats *t)
{
    const char *path = getenv("KIT_PROGRESS");
    FILE *f;
    if (!path || !*path || !t || !t->test) return;
    if (!(f = fopen(path, "a"))) return;
    fprintf(f, "%s\t%s\t%s\t", t->test->category, t->test->name, status_of(t));
    put_field(f, message_of(t));
    fputc('\n', f);
    fclose(f);
}

/* before any test (no CUDA here): say which device profile the run uses, refuse an unknown one */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    int bad = 0;
    const kit_profile *p = kit_profile_active(&bad);
    (void)set;
    /* hermetic: a CPU row in a test is always measured, never taken from (or left in) the
     * machine's timing cache (the cache's own tests name their files) */
    setenv("KIT_CPU_CACHE", "/dev/null", 1);
    if (bad) {
        size_t i;
        fprintf(stderr, "kit tests: KIT_DEVICE=%s: no such device profile (have:", getenv("KIT_DEVICE"));
        for (i = 0; i < kit_nprofiles; i++) fprintf(stderr, " %s", kit_profiles[i].name);
        fprintf(stderr, ")\n");
        exit(2);
    }
    if (p)
        fprintf(stderr, "kit tests: device profile KIT_DEVICE=%s: launches sized for a %s (%d SMs, %zu KB shared memory per "
                "SM, %zu KB per block) on this GPU\n", p->name, p->gpu, p->sms, p->smem_per_sm / 1024,
                p->smem_block_optin / 1024);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    const char *path = getenv("KIT_RESULTS");
    const struct criterion_suite_stats *s;
    const struct criterion_test_stats *t;
    FILE *f;
    if (!path || !*path) return;
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "kit tests: cannot write %s\n", path);
        return;
    }
    for (s = stats->suites; s; s = s->next)
        for (t = s->tests; t; t = t->next) {
            fprintf(f, "%s\t%s\t%s\t", s->suite->name, t->test->name, status_of(t));
            put_field(f, message_of(t));
            fputc('\n', f);
        }
    fclose(f);
}
