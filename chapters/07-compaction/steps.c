/* steps.c - chapter 07's step tables (the only lists of its ladders) and the problems and
 * ladders that let the kit's harness drive them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compact.h"
#include "compact_problem.h"

#define F(x) "chapters/07-compaction/" x
#define GPU_STEP(NAME, PARAM, WHAT, DESCRIBE, FLAGS, EXERCISE)                                  \
    {{#NAME, PARAM, WHAT, F(#NAME ".cu"), EXERCISE, KIT_STEP_GPU, DESCRIBE, FLAGS, 0},           \
     compact_##NAME##_scratch, compact_##NAME}
#define YARDSTICK(NAME, FN, PARAM, WHAT)                                                         \
    {{NAME, PARAM, WHAT, F("yardsticks.cu"), NULL, KIT_STEP_YARDSTICK, NULL, 0, 0},              \
     compact_yard_##FN##_scratch, compact_yard_##FN}

static const compact_step select_steps[] = {
    GPU_STEP(s0_atomic_global, compact_s0_param,
             "one atomicAdd on a global counter per selected element (order lost)", compact_s0_describe,
             KIT_UNORDERED, NULL),
    GPU_STEP(s1_atomic_block, compact_s1_param,
             "shared-memory counter per block, one global atomicAdd per block (order lost)",
             compact_s1_describe, KIT_UNORDERED, NULL),
    GPU_STEP(s2_warp_atomic, compact_s2_param,
             "warp-aggregated: ballot + popc, one atomicAdd per warp (order lost)", compact_s2_describe,
             KIT_UNORDERED, "ex07_warp_atomic"),
    GPU_STEP(s3_ballot_rank, compact_s3_param,
             "ballot list ranking per warp: count, scan, write again in order (previous work [12])",
             compact_s3_describe, 0, NULL),
    GPU_STEP(s4_three_phase, compact_s4_param,
             "the paper: ballot masks + counts, scan, shuffle offsets + write (order kept)",
             compact_s4_describe, 0, NULL),
    GPU_STEP(s5_count_scan, compact_s5_param, "tile counts, shared u32 look-back scan, scatter (order kept)",
             compact_s5_describe, 0, NULL),
    GPU_STEP(s6_single_pass, compact_s6_param, "one kernel: decoupled look-back of tile counts (order kept)",
             compact_s6_describe, 0, NULL),
    GPU_STEP(s7_persistent, compact_s7_param,
             "s6 with persistent blocks: the next tile's loads overlap the look-back (order kept)",
             compact_s7_describe, 0, NULL),
    GPU_STEP(s8_block_order, compact_s8_param,
             "s6 with the tile from blockIdx (no ticket), 256 x 24 items, 6 blocks per SM (order kept)",
             compact_s8_describe, 0, NULL),
    GPU_STEP(s9_prefetch, compact_s9_param,
             "s8 + L2 prefetch a third of a residency ahead + a look-back warp: DRAM streams through the waits",
             compact_s9_describe, 0, NULL),
    YARDSTICK("cub_select", cub_select, "DeviceSelect::If / Flagged",
              "yardstick: CUB's single-pass select (counting iterator for indices)"),
    YARDSTICK("thrust_copy_if", thrust_copy_if, "copy_if (stencil when flagged or for indices)",
              "yardstick: Thrust as a user calls it (allocates its own temporary storage)"),
};

static const compact_step partition_steps[] = {
    {{"partition_single_pass", compact_s8_param,
      "s8's single pass writing both ends: selected forward, rejected backward", F("partition_single_pass.cu"),
      NULL, KIT_STEP_GPU, compact_partition_describe, 0, 0},
     compact_partition_single_pass_scratch, compact_partition_single_pass},
    YARDSTICK("cub_partition", cub_partition, "DevicePartition::If / Flagged",
              "yardstick: CUB's single-pass partition (rejected in reverse order)"),
};

static const compact_step unique_steps[] = {
    {{"unique_single_pass", compact_s8_param, "s8's single pass with the predicate in[i] != in[i - 1]",
      F("unique_single_pass.cu"), NULL, KIT_STEP_GPU, compact_unique_describe, 0, 0},
     compact_unique_single_pass_scratch, compact_unique_single_pass},
    YARDSTICK("cub_unique", cub_unique, "DeviceSelect::Unique (indices: DeviceSelect::If)",
              "yardstick: CUB's unique (for indices, If with in[i] != in[i - 1])"),
};

/* the phase ladder: a step's kernels one at a time */
typedef cudaError_t (*compact_phase_fn)(int phase, const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                        uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                        cudaStream_t s);
typedef struct compact_phased {
    kit_step_info info;
    compact_scratch_fn scratch_bytes;
    compact_phase_fn phase;
} compact_phased;

static const compact_phased phased_steps[] = {
    {{"s3_ballot_rank", compact_s3_param, "s3's kernels timed one by one: count, scan of the counts, write",
      F("s3_ballot_rank.cu"), NULL, KIT_STEP_GPU, compact_s3_describe, 0, 0},
     compact_s3_ballot_rank_scratch, compact_s3_phase},
    {{"s4_three_phase", compact_s4_param, "the paper's phases timed one by one (Fig. 13)", F("s4_three_phase.cu"),
      NULL, KIT_STEP_GPU, compact_s4_describe, 0, 0},
     compact_s4_three_phase_scratch, compact_s4_phase},
};

/* ----------------------------------------------------------------- problems */

static size_t count_n(const kit_shape *sh) { return sh->n; }
static size_t count_one(const kit_shape *sh)
{
    (void)sh;
    return 1;
}
static size_t count_none(const kit_shape *sh)
{
    (void)sh;
    return 0;
}
/* the flags exist when the predicate axis (axis 0 of select and partition) says flagged */
static size_t count_flags(const kit_shape *sh) { return sh->v[0] != 0 ? sh->n : 0; }

static const kit_buffer bufs_pred[] = {{"in", KIT_IN, 4, count_n},
                                       {"flags", KIT_IN, 1, count_flags},
                                       {"out", KIT_OUT, 4, count_n},
                                       {"count", KIT_OUT, 4, count_one}};
static const kit_buffer bufs_unique[] = {{"in", KIT_IN, 4, count_n},
                                         {"flags", KIT_IN, 1, count_none},
                                         {"out", KIT_OUT, 4, count_n},
                                         {"count", KIT_OUT, 4, count_one}};

static const char *const pred_labels[] = {"if", "flagged", NULL};
static const char *const out_labels[] = {"index", "value", NULL};

static const kit_axis axes_pred[] = {
    {"pred", "0: in[i] < 2^31 (DeviceSelect::If), 1: byte flags (Flagged)", 0, 0, 1, pred_labels},
    {"output", "0: the indices of the selected elements (the paper), 1: their values (CUB)", 0, 0, 1, out_labels},
};
static const kit_axis axes_unique[] = {
    {"output", "0: the indices of the kept elements, 1: their values (DeviceSelect::Unique)", 1, 0, 1, out_labels},
};

static const compact_problem_arg arg_select = {COMPACT_TASK_SELECT, 0, 1};
static const compact_problem_arg arg_partition = {COMPACT_TASK_PARTITION, 0, 1};
static const compact_problem_arg arg_unique = {COMPACT_TASK_UNIQUE, -1, 0};

static void fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in, uint64_t seed)
{
    const int flagged = kit_buf_count(P, COMPACT_BUF_FLAGS, sh) > 0;
    compact_generate((uint32_t *)h->buf[COMPACT_BUF_IN], flagged ? (uint8_t *)h->buf[COMPACT_BUF_FLAGS] : NULL, sh->n,
                     in->arg, in->value, seed);
}

static void reference(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    const int mode = compact_shape_mode(P, sh);
    const uint32_t *in = (const uint32_t *)h->buf[COMPACT_BUF_IN];
    const uint8_t *flags = (const uint8_t *)h->buf[COMPACT_BUF_FLAGS];
    uint32_t *out = (uint32_t *)h->buf[COMPACT_BUF_OUT];
    const size_t n = sh->n;
    size_t c;
    switch (compact_problem_task(P)) {
    case COMPACT_TASK_PARTITION: c = compact_cpu_partition(in, flags, COMPACT_THRESHOLD, out, n, mode); break;
    case COMPACT_TASK_UNIQUE: c = compact_cpu_unique(in, out, n, mode); break;
    default: c = compact_cpu_serial(in, flags, COMPACT_THRESHOLD, out, n, mode); break;
    }
    if (compact_problem_task(P) != COMPACT_TASK_PARTITION && c < n)
        memset(out + c, KIT_POISON_BYTE, (n - c) * sizeof *out); /* what a step must leave alone */
    *(uint32_t *)h->buf[COMPACT_BUF_COUNT] = (uint32_t)c;
}

/* Indices are distinct and below n, so for them a bitmap decides set equality in one pass
 * each: every got index in range and seen once, and every wanted index seen (equal counts
 * then make the sets equal).  0 and a message when they differ; -1 when out of memory. */
static int same_index_set(const uint32_t *go, const uint32_t *wo, size_t c, size_t n, char *msg, size_t len)
{
    uint64_t *seen = (uint64_t *)calloc(n / 64 + 1, sizeof *seen);
    size_t i;
    int ok = 1;
    if (!seen) return -1;
    for (i = 0; i < c && ok; i++) {
        const uint32_t x = go[i];
        if (x >= n || (seen[x / 64] >> (x % 64) & 1u)) {
            snprintf(msg, len, "out[%zu] = %u is %s (count %zu, n = %zu)", i, x,
                     x >= n ? "not an index below n" : "a repeated index", c, n);
            ok = 0;
        } else
            seen[x / 64] |= (uint64_t)1 << (x % 64);
    }
    for (i = 0; i < c && ok; i++)
        if (!(seen[wo[i] / 64] >> (wo[i] % 64) & 1u)) {
            snprintf(msg, len, "selected index %u is missing from out[0..%zu) (n = %zu)", wo[i], c, n);
            ok = 0;
        }
    free(seen);
    return ok;
}

int compact_compare(const kit_problem *P, const kit_host *want, const kit_host *got, const kit_shape *sh,
                    unsigned step_flags, char *msg, size_t len)
{
    const size_t n = sh->n;
    const uint32_t wc = *(const uint32_t *)want->buf[COMPACT_BUF_COUNT];
    const uint32_t gc = *(const uint32_t *)got->buf[COMPACT_BUF_COUNT];
    const uint32_t *wo = (const uint32_t *)want->buf[COMPACT_BUF_OUT], *go = (const uint32_t *)got->buf[COMPACT_BUF_OUT];
    char inner[KIT_MSG];
    uint32_t *a, *b, *t;
    size_t c = wc, i;
    int ok;
    if (gc != wc) {
        snprintf(msg, len, "count = %u, want %u (n = %zu)", gc, wc, n);
        return 0;
    }
    if (!(step_flags & KIT_UNORDERED) || compact_problem_task(P) == COMPACT_TASK_PARTITION) {
        if (kit_cmp_u32(go, wo, n, inner, sizeof inner)) return 1;
        snprintf(msg, len, "out (in order; count %zu of n = %zu): %s", c, n, inner);
        return 0;
    }
    /* a step that does not keep order: the same elements, nothing written past them */
    if (!kit_all_poison_u32(go + c, n - c, inner, sizeof inner)) {
        snprintf(msg, len, "out[%zu..%zu) written (count %zu): %s", c, n, c, inner);
        return 0;
    }
    if (c == 0) return 1;
    if (!(compact_shape_mode(P, sh) & COMPACT_VALUE)) {
        ok = same_index_set(go, wo, c, n, msg, len);
        if (ok >= 0) return ok;
    }
    a = (uint32_t *)kit_host_alloc(c * sizeof *a); /* up to gigabytes: faulted in by several threads */
    b = (uint32_t *)kit_host_alloc(c * sizeof *b);
    t = (uint32_t *)kit_host_alloc(c * sizeof *t);
    ok = a && b && t;
    if (ok) {
        memcpy(a, go, c * sizeof *a);
        memcpy(b, wo, c * sizeof *b);
        ok = kit_sort_u32(a, t, c) == 0 && kit_sort_u32(b, t, c) == 0;
    }
    if (!ok) snprintf(msg, len, "out of host memory for the multiset comparison (count %zu)", c);
    if (ok && memcmp(a, b, c * sizeof *a) != 0) {
        for (i = 0; i < c && a[i] == b[i]; i++) continue;
        snprintf(msg, len, "out[0..%zu) is not the selected multiset: sorted, element %zu is %u, want %u (n = %zu)",
                 c, i, a[i], b[i], n);
        ok = 0;
    }
    free(a);
    free(b);
    free(t);
    return ok;
}

static double items(const kit_problem *P, const kit_shape *sh)
{
    (void)P;
    return (double)sh->n;
}

/* the CPU baselines: out and count as the reference writes them (out[c..n) untouched) */
static void cpu_run(const kit_problem *P, kit_host *h, const kit_shape *sh, int two_pass)
{
    const int mode = compact_shape_mode(P, sh);
    const uint32_t *in = (const uint32_t *)h->buf[COMPACT_BUF_IN];
    const uint8_t *flags = (const uint8_t *)h->buf[COMPACT_BUF_FLAGS];
    uint32_t *out = (uint32_t *)h->buf[COMPACT_BUF_OUT];
    size_t c;
    switch (compact_problem_task(P)) {
    case COMPACT_TASK_PARTITION: c = compact_cpu_partition(in, flags, COMPACT_THRESHOLD, out, sh->n, mode); break;
    case COMPACT_TASK_UNIQUE: c = compact_cpu_unique(in, out, sh->n, mode); break;
    default:
        c = two_pass ? compact_cpu_two_pass(in, flags, COMPACT_THRESHOLD, out, sh->n, mode)
                     : compact_cpu_serial(in, flags, COMPACT_THRESHOLD, out, sh->n, mode);
    }
    *(uint32_t *)h->buf[COMPACT_BUF_COUNT] = (uint32_t)c;
}
static void cpu_serial(const kit_problem *P, kit_host *h, const kit_shape *sh) { cpu_run(P, h, sh, 0); }
static void cpu_two_pass(const kit_problem *P, kit_host *h, const kit_shape *sh) { cpu_run(P, h, sh, 1); }

static const kit_cpu cpus_select[] = {{"serial", cpu_serial}, {"two_pass", cpu_two_pass}};
static const kit_cpu cpus_partition[] = {{"partition", cpu_serial}};
static const kit_cpu cpus_unique[] = {{"unique", cpu_serial}};

const kit_problem compact_select_problem = {
    "select", bufs_pred, 4, compact_inputs, COMPACT_NINPUTS, axes_pred, 2, "elements", items, {NULL},
    COMPACT_MAX_N, fill, reference, compact_compare, cpus_select, 2, &arg_select,
};
const kit_problem compact_partition_problem = {
    "partition", bufs_pred, 4, compact_inputs, COMPACT_NINPUTS, axes_pred, 2, "elements", items, {NULL},
    COMPACT_MAX_N, fill, reference, compact_compare, cpus_partition, 1, &arg_partition,
};
const kit_problem compact_unique_problem = {
    "unique", bufs_unique, 4, compact_unique_inputs, COMPACT_UNIQUE_NINPUTS, axes_unique, 1, "elements", items,
    {NULL}, COMPACT_MAX_N, fill, reference, compact_compare, cpus_unique, 1, &arg_unique,
};
const kit_problem compact_phases_problem = {
    "select-phases", bufs_pred, 4, compact_inputs, COMPACT_NINPUTS, axes_pred, 2, "elements", items,
    {"count", "scan", "write"}, COMPACT_MAX_N, fill, reference, compact_compare, NULL, 0, &arg_select,
};

/* ------------------------------------------------------------------ ladders */

static const kit_step_info *info(const kit_ladder *L, size_t i)
{
    return &((const compact_step *)L->table)[i].info;
}
static const kit_step_info *phased_info(const kit_ladder *L, size_t i)
{
    return &((const compact_phased *)L->table)[i].info;
}

/* What a step must move: the values it reads (every one when it tests them or writes
 * them; none for the indices of flagged elements), the flags, one word per element it
 * writes (the selected ones; all n for the partition) and the count. */
static double traffic(const kit_problem *P, const kit_shape *sh, double written)
{
    const int mode = compact_shape_mode(P, sh);
    const double n = (double)sh->n;
    const int flagged = compact_problem_task(P) != COMPACT_TASK_UNIQUE && (mode & COMPACT_PRED_MASK) == COMPACT_FLAGGED;
    const int values = !flagged || (mode & COMPACT_OUT_MASK) == COMPACT_VALUE;
    return (values ? 4.0 * n : 0.0) + (flagged ? n : 0.0) + 4.0 * written + 4.0;
}

/* from the shape alone: as if everything were selected (an upper bound, for rotations) */
static double bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)i;
    return traffic(L->P, sh, (double)sh->n);
}

/* from the data: the count in the reference */
static double bytes_data(const kit_ladder *L, size_t i, const kit_shape *sh, const kit_host *want)
{
    const double c = compact_problem_task(L->P) == COMPACT_TASK_PARTITION
                         ? (double)sh->n
                         : (double)*(const uint32_t *)want->buf[COMPACT_BUF_COUNT];
    (void)i;
    return traffic(L->P, sh, c);
}

static size_t scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const compact_step *st = &((const compact_step *)L->table)[i];
    return st->scratch_bytes ? st->scratch_bytes(sh->n) : 0;
}
static size_t phased_scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const compact_phased *st = &((const compact_phased *)L->table)[i];
    return st->scratch_bytes ? st->scratch_bytes(sh->n) : 0;
}

/* the flags buffer only in flagged mode: an If step must not need it */
static const uint8_t *flags_of(const kit_problem *P, void *const *dev, int mode)
{
    return compact_problem_task(P) != COMPACT_TASK_UNIQUE && (mode & COMPACT_PRED_MASK) == COMPACT_FLAGGED
               ? (const uint8_t *)dev[COMPACT_BUF_FLAGS]
               : NULL;
}

/* What compact.h allows or refuses beyond the harness's default call, beside the step tables:
 * the contract suite tries each case on the steps it names (kit_arg_case).  The cases about the
 * predicate differ between select / partition and unique, which ignores the predicate bit and
 * the flags. */
enum {
    COMPACT_CASE_FLAGS_NULL_IF = 0, /* flags NULL, COMPACT_IF */
    COMPACT_CASE_FLAGS_NULL_FLAGGED,
    COMPACT_CASE_IN_MIS,
    COMPACT_CASE_OUT_MIS,
    COMPACT_CASE_COUNT_MIS,
    COMPACT_CASE_SCRATCH_MIS,
    COMPACT_CASE_SCRATCH_NULL,
    COMPACT_CASE_MODE_NEG,
    COMPACT_CASE_MODE_PAST,
    COMPACT_CASE_IN_NULL,
    COMPACT_CASE_OUT_NULL,
    COMPACT_CASE_COUNT_NULL,
    COMPACT_CASE_UNIQUE_FLAGGED,    /* unique, the flagged bit set and flags NULL */
    COMPACT_NCASES
};

/* the predicate as the case needs it, both output kinds */
static int shapes_if(const kit_problem *P, int j, kit_shape *sh)
{
    if (j >= 2) return 0;
    *sh = compact_shape(P, sh->n, COMPACT_IF | (j ? COMPACT_VALUE : COMPACT_INDEX));
    return 1;
}
static int shape_flagged(const kit_problem *P, int j, kit_shape *sh)
{
    *sh = compact_shape(P, sh->n, COMPACT_FLAGGED | COMPACT_VALUE);
    return j == 0;
}
static int shapes_out(const kit_problem *P, int j, kit_shape *sh)
{
    if (j >= 2) return 0;
    *sh = compact_shape(P, sh->n, j ? COMPACT_VALUE : COMPACT_INDEX);
    return 1;
}

#define INVAL cudaErrorInvalidValue
#define MISAL cudaErrorMisalignedAddress
#define UNIQUE "unique_single_pass,cub_unique"
#define NOT_UNIQUE "!" UNIQUE
static const kit_arg_case compact_cases[COMPACT_NCASES] = {
    [COMPACT_CASE_FLAGS_NULL_IF] = {"flags NULL, COMPACT_IF", "compact.h: flags may be NULL in every other call (If modes)",
                                    cudaSuccess, NOT_UNIQUE, shapes_if},
    [COMPACT_CASE_FLAGS_NULL_FLAGGED] = {"flags NULL, COMPACT_FLAGGED", "compact.h: nor flags in a select or partition whose mode is COMPACT_FLAGGED",
                                         INVAL, NOT_UNIQUE, shape_flagged},
    [COMPACT_CASE_IN_MIS] = {"in + 2 bytes", "compact.h: in at any 4-byte-aligned address", MISAL, NULL, NULL},
    [COMPACT_CASE_OUT_MIS] = {"out + 2 bytes", "compact.h: out at any 4-byte-aligned address", MISAL, NULL, NULL},
    [COMPACT_CASE_COUNT_MIS] = {"count + 2 bytes", "compact.h: count at any 4-byte-aligned address", MISAL, NULL,
                                NULL},
    [COMPACT_CASE_SCRATCH_MIS] = {"scratch + 16 bytes", "compact.h: scratch 256-byte aligned", MISAL, NULL, NULL},
    [COMPACT_CASE_SCRATCH_NULL] = {"scratch NULL", "compact.h: s3_ballot_rank and the CUB yardsticks refuse NULL scratch",
                                   INVAL, "s3_ballot_rank,cub_select,cub_partition,cub_unique", NULL},
    [COMPACT_CASE_MODE_NEG] = {"mode = -1", "compact.h: mode outside 0 .. COMPACT_MODE_MAX", INVAL, NULL, NULL},
    [COMPACT_CASE_MODE_PAST] = {"mode = COMPACT_MODE_MAX + 1", "compact.h: mode outside 0 .. COMPACT_MODE_MAX", INVAL, NULL, NULL},
    [COMPACT_CASE_IN_NULL] = {"in NULL", "compact.h: with n > 0, in and out must not be NULL", INVAL, NULL, NULL},
    [COMPACT_CASE_OUT_NULL] = {"out NULL", "compact.h: with n > 0, in and out must not be NULL", INVAL, NULL, NULL},
    [COMPACT_CASE_COUNT_NULL] = {"count NULL", "compact.h: count must not be NULL, whatever n", INVAL, NULL, NULL},
    [COMPACT_CASE_UNIQUE_FLAGGED] = {"unique, flagged bit, flags NULL", "compact.h: unique ignores the predicate bit; flags may be NULL whatever the mode",
                                     cudaSuccess, UNIQUE, shapes_out},
};

static void *plus(void *p, size_t bytes) { return (char *)p + bytes; }

/* step i as argument case c makes the call (c < 0: the harness's default call) */
static cudaError_t run_case(const kit_ladder *L, size_t i, int c, int ph, void *const *dev, const kit_shape *sh,
                            void *scr, cudaStream_t s)
{
    const compact_step *st = &((const compact_step *)L->table)[i];
    int mode = compact_shape_mode(L->P, sh);
    const void *in = dev[COMPACT_BUF_IN];
    const uint8_t *flags = flags_of(L->P, dev, mode);
    void *out = dev[COMPACT_BUF_OUT], *count = dev[COMPACT_BUF_COUNT];
    (void)ph;
    switch (c) {
    case COMPACT_CASE_FLAGS_NULL_IF: flags = NULL; break;
    case COMPACT_CASE_FLAGS_NULL_FLAGGED: flags = NULL; break;
    case COMPACT_CASE_IN_MIS: in = plus(dev[COMPACT_BUF_IN], 2); break;
    case COMPACT_CASE_OUT_MIS: out = plus(out, 2); break;
    case COMPACT_CASE_COUNT_MIS: count = plus(count, 2); break;
    case COMPACT_CASE_SCRATCH_MIS: scr = plus(scr ? scr : out, 16); break; /* any 256-misaligned address */
    case COMPACT_CASE_SCRATCH_NULL: scr = NULL; break;
    case COMPACT_CASE_MODE_NEG: mode = -1; break;
    case COMPACT_CASE_MODE_PAST: mode = COMPACT_MODE_MAX + 1; break;
    case COMPACT_CASE_IN_NULL: in = NULL; break;
    case COMPACT_CASE_OUT_NULL: out = NULL; break;
    case COMPACT_CASE_COUNT_NULL: count = NULL; break;
    case COMPACT_CASE_UNIQUE_FLAGGED: mode |= COMPACT_FLAGGED, flags = NULL; break;
    default: break;
    }
    return st->run((const uint32_t *)in, flags, COMPACT_THRESHOLD, (uint32_t *)out, (uint32_t *)count, sh->n, mode,
                   scr, s);
}

static cudaError_t run(const kit_ladder *L, size_t i, int ph, void *const *dev, const kit_shape *sh, void *scr,
                       cudaStream_t s)
{
    return run_case(L, i, -1, ph, dev, sh, scr, s);
}

static cudaError_t phased_run(const kit_ladder *L, size_t i, int ph, void *const *dev, const kit_shape *sh,
                              void *scr, cudaStream_t s)
{
    const compact_phased *st = &((const compact_phased *)L->table)[i];
    const int mode = compact_shape_mode(L->P, sh);
    return st->phase(ph, (const uint32_t *)dev[COMPACT_BUF_IN], flags_of(L->P, dev, mode), COMPACT_THRESHOLD,
                     (uint32_t *)dev[COMPACT_BUF_OUT], (uint32_t *)dev[COMPACT_BUF_COUNT], sh->n, mode, scr, s);
}

/* the atomic steps at p = 1 serialise n (s0) or n / 32 (s2) atomics on one word */
#define BUDGET_MS 3000.0
#define NSTEPS(T) (sizeof T / sizeof *T)
#define LADDER(ID, TITLE, TABLE, COUNT, PROBLEM)                                                  \
    {ID, TITLE, COUNT, TABLE, &PROBLEM, info, bytes, scratch, run, NULL, BUDGET_MS, NULL, bytes_data, NULL, \
     compact_cases, COMPACT_NCASES, run_case}

const kit_ladder compact_select_ladder = LADDER("select", "select (stream compaction): indices or values, if or flagged",
                                                select_steps, NSTEPS(select_steps), compact_select_problem);
const kit_ladder compact_partition_ladder =
    LADDER("partition", "partition: selected first, rejected reversed at the end", partition_steps,
           NSTEPS(partition_steps), compact_partition_problem);
const kit_ladder compact_unique_ladder = LADDER("unique", "unique: drop elements equal to their predecessor",
                                                unique_steps, NSTEPS(unique_steps), compact_unique_problem);
const kit_ladder compact_phases_ladder = {
    "select-phases", "select, the multi-kernel steps' kernels one at a time (Fig. 13)", NSTEPS(phased_steps),
    phased_steps, &compact_phases_problem, phased_info, bytes, phased_scratch, phased_run, NULL, BUDGET_MS, NULL,
    bytes_data,
};

const kit_ladder compact_tpb_ladder = LADDER("select-tpb", "s4 (three phases) over threads per block (Fig. 10)",
                                            compact_tpb_variants, COMPACT_TPB_NVARIANTS, compact_select_problem);
const kit_ladder compact_sp_ladder = LADDER("select-sp", "s6 (single pass): block size x items per thread",
                                           compact_sp_variants, COMPACT_SP_NVARIANTS, compact_select_problem);

const kit_ladder compact_pp_ladder = LADDER("select-pp", "s7 (persistent): block size x items x blocks per SM",
                                           compact_pp_variants, COMPACT_PP_NVARIANTS, compact_select_problem);

const kit_ladder *const compact_ladders[] = {
    &compact_select_ladder, &compact_partition_ladder, &compact_unique_ladder, &compact_phases_ladder,
    &compact_tpb_ladder, &compact_sp_ladder, &compact_pp_ladder,
};
const size_t compact_nladders = sizeof compact_ladders / sizeof *compact_ladders;
