/* ladder.c - the one adaptor between a chapter's declared problem and the GPU: contexts
 * (host inputs and reference, rotated device copies, guarded outputs, scratch), the
 * verified run, timing per phase, and the bench drivers (sweeps, points, CPU rows). */
#define _POSIX_C_SOURCE 200809L
#include "kit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Guard zone before and after every device output, in bytes (a multiple of 256, so an
 * output keeps the base allocation's alignment). */
#define GUARD 1024
#define PHASE_BUDGET_MS 1000.0 /* kit_ladder_measure_phase: the runs of a slow phase */
#define PIN_MIN ((size_t)16 << 20) /* outputs this large get page-locked host copies */

/* ------------------------------------------------------------ shapes */

kit_shape kit_shape_default(const kit_problem *P, size_t n)
{
    kit_shape sh;
    size_t a;
    memset(&sh, 0, sizeof sh);
    sh.n = n;
    for (a = 0; a < P->naxes && a < KIT_MAX_AXES; a++) sh.v[a] = P->axes[a].def;
    return sh;
}

const char *kit_shape_str(const kit_problem *P, const kit_shape *sh, char *buf, size_t len)
{
    size_t a, k = 0;
    buf[0] = '\0';
    for (a = 0; a < P->naxes && a < KIT_MAX_AXES && k < len; a++) {
        const kit_axis *x = &P->axes[a];
        const double v = sh->v[a];
        int w;
        if (x->labels && v >= 0 && v == floor(v)) {
            size_t j = 0;
            while (x->labels[j] && j < (size_t)v) j++;
            w = snprintf(buf + k, len - k, "%s%s=%s", a ? " " : "", x->name,
                         x->labels[j] ? x->labels[j] : "?");
        } else {
            w = snprintf(buf + k, len - k, "%s%s=%g", a ? " " : "", x->name, v);
        }
        if (w < 0) break;
        k += (size_t)w;
    }
    return buf;
}

double kit_shape_get(const kit_problem *P, const kit_shape *sh, const char *name, double def)
{
    size_t a;
    for (a = 0; a < P->naxes && a < KIT_MAX_AXES; a++)
        if (strcmp(P->axes[a].name, name) == 0) return sh->v[a];
    return def;
}

const kit_input *kit_input_find(const kit_problem *P, const char *name)
{
    size_t i;
    for (i = 0; name && i < P->ninputs; i++)
        if (strcmp(P->inputs[i].name, name) == 0) return &P->inputs[i];
    return NULL;
}

int kit_nphases(const kit_problem *P)
{
    int k = 0;
    while (k < KIT_MAX_PHASES && P->phases[k]) k++;
    return k ? k : 1;
}

const char *kit_phase_name(const kit_problem *P, int ph)
{
    return ph < KIT_MAX_PHASES && P->phases[ph] ? P->phases[ph] : "run";
}

int kit_phase_index(const kit_problem *P, const char *name)
{
    int ph;
    for (ph = 0; name && ph < kit_nphases(P); ph++)
        if (!strcmp(kit_phase_name(P, ph), name)) return ph;
    return -1;
}

size_t kit_buf_count(const kit_problem *P, size_t k, const kit_shape *sh)
{
    return P->bufs[k].count ? P->bufs[k].count(sh) : sh->n;
}

size_t kit_step_max_n(const kit_ladder *L, size_t i)
{
    const size_t m = L->step(L, i)->max_n;
    return m ? m : L->P->max_n ? L->P->max_n : SIZE_MAX;
}

const kit_input kit_pattern_inputs[KIT_PATTERN_COUNT] = {
    {"uniform", "uniform random words", KIT_UNIFORM, 0},
    {"zeros", "all zero", KIT_ZEROS, 0},
    {"linear", "0, 1, 2, ...", KIT_LINEAR, 0},
    {"low-entropy", "AND of three random words (bits biased to 0)", KIT_LOW_ENTROPY, 0},
    {"identical", "one random value repeated", KIT_IDENTICAL, 0},
    {"sorted", "non-decreasing random", KIT_SORTED, 0},
    {"reverse", "non-increasing random", KIT_REVERSE, 0},
    {"few-unique", "drawn from 16 distinct values", KIT_FEW_UNIQUE, 0},
    {"alternating", "0, ~0, 0, ~0, ...", KIT_ALTERNATING, 0},
};

void kit_fill_patterns(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                       uint64_t seed)
{
    size_t k;
    for (k = 0; k < P->nbufs; k++) {
        const size_t n = kit_buf_count(P, k, sh);
        if (P->bufs[k].role != KIT_IN) continue;
        if (P->bufs[k].elem == 4) kit_fill_u32((uint32_t *)h->buf[k], n, (kit_pattern)in->arg, seed + k);
        else if (P->bufs[k].elem == 1) kit_fill_u8((uint8_t *)h->buf[k], n, (kit_pattern)in->arg, seed + k);
    }
}

/* ---------------------------------------------------------- contexts */

struct kit_ctx {
    const kit_ladder *L;
    const kit_problem *P;
    kit_shape sh;
    const kit_input *in;
    uint64_t seed;
    int rot;
    size_t bytes[KIT_MAX_BUFS];   /* payload bytes of each buffer */
    kit_host want, got;           /* inputs shared; outputs: reference / fetched */
    unsigned char *raw[KIT_MAX_BUFS]; /* host outputs as fetched, guards included */
    int pinned[KIT_MAX_BUFS];     /* raw[k] is page-locked (cudaMallocHost): fast fetches */
    void **dev[KIT_MAX_BUFS];     /* rot allocations per buffer (outputs: guards included) */
    void *scratch;
    size_t scratch_bytes;
    int want_is_step;             /* want holds a per-step reference (L->reference) */
};

kit_host *kit_ctx_inputs(kit_ctx *c) { return &c->got; }

double kit_ctx_bytes(const kit_ctx *c, size_t i)
{
    const kit_ladder *L = c->L;
    return L->bytes_data ? L->bytes_data(L, i, &c->sh, &c->want) : L->bytes(L, i, &c->sh);
}
const kit_host *kit_ctx_want(const kit_ctx *c) { return &c->want; }

void kit_ctx_free(kit_ctx *c)
{
    size_t k;
    if (!c) return;
    for (k = 0; k < c->P->nbufs; k++) {
        kit_dev_free_copies(c->dev[k], c->rot);
        if (c->P->bufs[k].role == KIT_IN) free(c->want.buf[k]);
        else {
            free(c->want.buf[k]);
            if (c->pinned[k]) cudaFreeHost(c->raw[k]);
            else free(c->raw[k]);
        }
    }
    if (c->scratch) cudaFree(c->scratch); /* host-only contexts make no CUDA call */
    free(c);
}

static size_t step_scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    return L->scratch ? L->scratch(L, i, sh) : 0;
}

cudaError_t kit_ctx_use(kit_ctx *c, const kit_ladder *L)
{
    size_t i, need = 0;
    if (L->P != c->P) return cudaErrorInvalidValue;
    c->L = L;
    if (c->rot == 0) return cudaSuccess;
    for (i = 0; i < L->count; i++) {
        const size_t b = step_scratch(L, i, &c->sh);
        if (b > need) need = b;
    }
    if (need > c->scratch_bytes) {
        if (c->scratch) cudaFree(c->scratch);
        c->scratch = NULL;
        c->scratch_bytes = 0;
        KIT_TRY(cudaMalloc(&c->scratch, need));
        c->scratch_bytes = need;
    }
    return cudaSuccess;
}

cudaError_t kit_ctx_new(const kit_ladder *L, const kit_shape *sh, const kit_input *in,
                        uint64_t seed, int rot, kit_ctx **out)
{
    const kit_problem *P = L->P;
    kit_ctx *c = (kit_ctx *)calloc(1, sizeof *c);
    size_t k;
    *out = c;
    if (!c) return cudaErrorMemoryAllocation;
    c->L = L;
    c->P = P;
    c->sh = *sh;
    c->in = in ? in : &P->inputs[0];
    c->seed = seed;
    if (P->nbufs > KIT_MAX_BUFS) return cudaErrorInvalidValue;
    for (k = 0; k < P->nbufs; k++) {
        const size_t b = kit_buf_count(P, k, sh) * P->bufs[k].elem;
        c->bytes[k] = b;
        if (P->bufs[k].role == KIT_IN) {
            c->want.buf[k] = c->got.buf[k] = kit_host_alloc(b);
            if (!c->want.buf[k]) return cudaErrorMemoryAllocation;
        } else {
            c->want.buf[k] = kit_host_alloc(b);
            /* a large output of a GPU context is fetched once per step: page-locked, the copy
             * runs several times faster than from pageable memory; malloc when pinning fails */
            if (rot > 0 && b >= PIN_MIN) {
                if (cudaMallocHost((void **)&c->raw[k], b + 2 * GUARD) == cudaSuccess) c->pinned[k] = 1;
                else (void)cudaGetLastError();
            }
            if (!c->pinned[k]) c->raw[k] = (unsigned char *)kit_host_alloc(b + 2 * GUARD);
            if (!c->want.buf[k] || !c->raw[k]) return cudaErrorMemoryAllocation;
            c->got.buf[k] = c->raw[k] + GUARD;
        }
    }
    P->fill(P, &c->want, sh, c->in, seed);
    if (P->reference) P->reference(P, &c->want, sh);
    else c->want_is_step = 1; /* every ladder of this problem has its own reference */
    if (rot == 0) return cudaSuccess; /* host only: the CPU baselines */
    c->rot = rot;
    for (k = 0; k < P->nbufs; k++) {
        if (P->bufs[k].role == KIT_IN)
            KIT_TRY(kit_dev_copies(&c->dev[k], rot, c->want.buf[k], c->bytes[k], c->bytes[k]));
        else
            KIT_TRY(kit_dev_copies(&c->dev[k], rot, NULL, 0, c->bytes[k] + 2 * GUARD));
    }
    return kit_ctx_use(c, L);
}

/* the device pointers of rotation r, outputs past their front guard */
static void dev_ptrs(const kit_ctx *c, int r, void **p)
{
    size_t k;
    for (k = 0; k < c->P->nbufs; k++)
        p[k] = c->P->bufs[k].role == KIT_IN ? c->dev[k][r] : (char *)c->dev[k][r] + GUARD;
}

cudaError_t kit_ctx_launch(kit_ctx *c, size_t i, int ph, int rep, cudaStream_t s)
{
    void *p[KIT_MAX_BUFS];
    if (c->rot < 1) return cudaErrorInvalidValue;
    dev_ptrs(c, rep % c->rot, p);
    return c->L->run(c->L, i, ph, p, &c->sh, c->scratch, s);
}

static cudaError_t run_all_phases(kit_ctx *c, size_t i, int rep, cudaStream_t s)
{
    int ph;
    for (ph = 0; ph < kit_nphases(c->P); ph++) KIT_TRY(kit_ctx_launch(c, i, ph, rep, s));
    return cudaSuccess;
}

/* Every byte of a[0..n) equals the poison byte; else 0 and where it was written. */
static int guard_intact(const unsigned char *a, size_t n, const char *what, const char *buf,
                        char *msg, size_t len)
{
    size_t j;
    for (j = 0; j < n; j++)
        if (a[j] != KIT_POISON_BYTE) {
            snprintf(msg, len, "%s guard of %s written at byte %zu of %zu", what, buf, j, n);
            return 0;
        }
    return 1;
}

/* byte-exact compare of one output, reported in elements of elem bytes */
static int compare_bytes(const void *got, const void *want, size_t bytes, size_t elem,
                         const char *name, char *msg, size_t len)
{
    char inner[KIT_MSG];
    int ok;
    if (elem == 1) ok = kit_cmp_u8((const uint8_t *)got, (const uint8_t *)want, bytes, inner, sizeof inner);
    else if (elem % 4 == 0)
        ok = kit_cmp_u32((const uint32_t *)got, (const uint32_t *)want, bytes / 4, inner, sizeof inner);
    else ok = memcmp(got, want, bytes) == 0;
    if (ok) return 1;
    if (elem > 4 && elem % 4 == 0)
        snprintf(msg, len, "%s (as 32-bit words, element = word / %zu): %s", name, elem / 4, inner);
    else if (elem % 4 == 0 || elem == 1) snprintf(msg, len, "%s: %s", name, inner);
    else snprintf(msg, len, "%s differs", name);
    return 0;
}

int kit_compare_outputs(const kit_problem *P, const kit_host *want, const kit_host *got,
                        const kit_shape *sh, unsigned flags, char *msg, size_t len)
{
    size_t k;
    if (P->compare) return P->compare(P, want, got, sh, flags, msg, len);
    for (k = 0; k < P->nbufs; k++) {
        const kit_buffer *b = &P->bufs[k];
        if (b->role != KIT_OUT) continue;
        if (!compare_bytes(got->buf[k], want->buf[k], kit_buf_count(P, k, sh) * b->elem, b->elem,
                           b->name, msg, len))
            return 0;
    }
    return 1;
}

cudaError_t kit_ctx_run_raw(kit_ctx *c, size_t i, cudaStream_t s)
{
    const kit_problem *P = c->P;
    size_t k;
    if (c->rot < 1 || i >= c->L->count) return cudaErrorInvalidValue;
    for (k = 0; k < P->nbufs; k++)
        if (P->bufs[k].role == KIT_OUT)
            KIT_TRY(kit_poison(c->dev[k][0], c->bytes[k] + 2 * GUARD, s));
    KIT_TRY(run_all_phases(c, i, 0, s));
    for (k = 0; k < P->nbufs; k++)
        if (P->bufs[k].role == KIT_OUT)
            KIT_TRY(kit_fetch(c->raw[k], c->dev[k][0], c->bytes[k] + 2 * GUARD, s));
    return cudaStreamSynchronize(s);
}

unsigned char *kit_ctx_raw(kit_ctx *c, size_t k, size_t *bytes)
{
    if (k >= c->P->nbufs || c->P->bufs[k].role != KIT_OUT) {
        *bytes = 0;
        return NULL;
    }
    *bytes = c->bytes[k] + 2 * GUARD;
    return c->raw[k];
}

cudaError_t kit_ctx_upload_inputs(kit_ctx *c)
{
    size_t k;
    int r;
    for (k = 0; k < c->P->nbufs; k++)
        if (c->P->bufs[k].role == KIT_IN)
            for (r = 0; r < c->rot && c->bytes[k] > 0; r++)
                KIT_TRY(cudaMemcpy(c->dev[k][r], c->want.buf[k], c->bytes[k], cudaMemcpyHostToDevice));
    return cudaSuccess;
}

void kit_ctx_judge(kit_ctx *c, size_t i, int *ok, char *msg, size_t len)
{
    const kit_problem *P = c->P;
    size_t k;
    *ok = 0;
    if (msg && len) msg[0] = '\0';
    if (i >= c->L->count) return;
    for (k = 0; k < P->nbufs; k++)
        if (P->bufs[k].role == KIT_OUT &&
            (!guard_intact(c->raw[k], GUARD, "front", P->bufs[k].name, msg, len) ||
             !guard_intact(c->raw[k] + GUARD + c->bytes[k], GUARD, "back", P->bufs[k].name, msg, len)))
            return;
    if (c->L->reference) { /* a per-step answer; the problem's is recomputed when needed */
        c->L->reference(c->L, i, &c->want, &c->sh);
        c->want_is_step = 1;
    } else if (c->want_is_step) {
        P->reference(P, &c->want, &c->sh);
        c->want_is_step = 0;
    }
    *ok = kit_compare_outputs(P, &c->want, &c->got, &c->sh, c->L->step(c->L, i)->flags, msg, len);
}

cudaError_t kit_ctx_check(kit_ctx *c, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    *ok = 0;
    if (msg && len) msg[0] = '\0';
    KIT_TRY(kit_ctx_run_raw(c, i, s));
    kit_ctx_judge(c, i, ok, msg, len);
    return cudaSuccess;
}

void kit_ctx_cpu(kit_ctx *c, int v)
{
    const kit_cpu *u = &c->P->cpu[v];
    if (!u->run) return; /* absent from this build */
    if (u->prepare) u->prepare(c->P, &c->got, &c->sh);
    u->run(c->P, &c->got, &c->sh);
}

cudaError_t kit_ladder_verify(const kit_ladder *L, size_t i, const kit_shape *sh,
                              const kit_input *in, uint64_t seed, int *ok, char *msg, size_t len)
{
    kit_ctx *c = NULL;
    cudaError_t e;
    *ok = 0;
    if (msg && len) msg[0] = '\0';
    if (i >= L->count) return cudaErrorInvalidValue;
    e = kit_ctx_new(L, sh, in, seed, 1, &c);
    if (e == cudaSuccess) e = kit_ctx_check(c, i, 0, ok, msg, len);
    kit_ctx_free(c);
    return e;
}

/* ------------------------------------------------------------ timing */

int kit_rotations(double bytes_per_run)
{
    const kit_device *d = NULL;
    double l2 = 64.0 * 1024 * 1024, want;
    int r;
    if (kit_device_get(&d) == cudaSuccess && d->l2_bytes) l2 = (double)d->l2_bytes;
    want = 3.0 * l2; /* several times the L2, so each run starts from DRAM */
    if (bytes_per_run <= 0) return 1;
    r = (int)(want / bytes_per_run) + 1;
    if (r < 1) r = 1;
    if (r > 256) r = 256;
    return r;
}

typedef struct launch_arg {
    kit_ctx *c;
    size_t step;
    int ph;
} launch_arg;

static cudaError_t launch_phase(void *a, int rep, cudaStream_t s)
{
    launch_arg *la = (launch_arg *)a;
    return kit_ctx_launch(la->c, la->step, la->ph, rep, s);
}

static cudaError_t launch_whole(void *a, int rep, cudaStream_t s)
{
    launch_arg *la = (launch_arg *)a;
    return run_all_phases(la->c, la->step, rep, s);
}

cudaError_t kit_ladder_measure(kit_ctx *c, size_t i, cudaStream_t s, int warmup, int reps,
                               kit_timing *t, int *ok, char *msg, size_t len)
{
    return kit_ladder_measure_phase(c, i, s, warmup, reps, -1, t, ok, msg, len);
}

cudaError_t kit_ladder_measure_phase(kit_ctx *c, size_t i, cudaStream_t s, int warmup, int reps,
                                     int only, kit_timing *t, int *ok, char *msg, size_t len)
{
    launch_arg la;
    int ph, q;
    KIT_TRY(kit_ctx_check(c, i, s, ok, msg, len));
    la.c = c;
    la.step = i;
    for (ph = 0; ph < kit_nphases(c->P); ph++) {
        if (only >= 0 && ph != only) continue;
        /* earlier phases, untimed; one phase alone finds them done by the check just above (which
         * ran every phase in order), so a seconds-long CPU-side build is not run a second time */
        for (q = 0; q < ph && only < 0; q++) KIT_TRY(kit_ctx_launch(c, i, q, 0, s));
        la.ph = ph;
        if (warmup > 0 && reps > 3) {
            /* one warm-up run, timed: a phase whose run takes long (a CPU-side tree build of 10^6
             * points, a one-bit sort of 2^28 keys) gets fewer runs, about a second in all but never
             * fewer than 3 timed ones, so that a demo at the lesson's size stays short */
            kit_timing probe;
            int w = warmup - 1, r = reps;
            KIT_TRY(kit_time_gpu(launch_phase, &la, s, 0, 1, &probe));
            if (probe.ms_median * (w + r) > PHASE_BUDGET_MS) {
                w = 0;
                r = (int)(PHASE_BUDGET_MS / (probe.ms_median > 1e-3 ? probe.ms_median : 1e-3));
                r = r < 3 ? 3 : r > reps ? reps : r;
            }
            KIT_TRY(kit_time_gpu(launch_phase, &la, s, w, r, &t[ph]));
        } else {
            KIT_TRY(kit_time_gpu(launch_phase, &la, s, warmup, reps, &t[ph]));
        }
    }
    return cudaSuccess;
}

/* Resident blocks per SM of a step's main kernel (occupancy API, from its describe()), or 0
 * when it has none or the query fails (no error left). */
static int step_blocks_per_sm(const kit_step_info *s)
{
    kit_kernel_desc d;
    int per_sm = 0;
    if (!s->describe || s->describe(&d) != cudaSuccess || !d.func ||
        kit_occupancy(&per_sm, d.func, d.block_threads, d.dyn_smem) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return per_sm;
}

/* ------------------------------------------------------------- bench */

int kit_bench_point_log2(const kit_bench *b)
{
    return b->quick && b->max_log2 > 20 ? 20 : b->max_log2;
}

kit_shape kit_bench_shape(const kit_bench *b, const kit_problem *P, size_t n)
{
    kit_shape sh = kit_shape_default(P, n);
    size_t a;
    if (!b->axes) return sh;
    for (a = 0; a < P->naxes && a < KIT_MAX_AXES; a++) { /* "name=value name=value" */
        const char *p = b->axes;
        const size_t m = strlen(P->axes[a].name);
        while ((p = strstr(p, P->axes[a].name)) != NULL) {
            if ((p == b->axes || p[-1] == ' ') && p[m] == '=') {
                sh.v[a] = strtod(p + m + 1, NULL);
                break;
            }
            p += m;
        }
    }
    return sh;
}

/* the seed of an input at a size: the same (n, input) gives the same data in every
 * experiment, so a context can be reused across them */
static uint64_t input_seed(size_t n, const kit_input *in, const kit_problem *P)
{
    return 0x5EED0000ull + (uint64_t)n * 0x9E37ull + (uint64_t)(in - P->inputs);
}

static int same_shape(const kit_problem *P, const kit_shape *a, const kit_shape *b)
{
    size_t k;
    if (a->n != b->n) return 0;
    for (k = 0; k < P->naxes && k < KIT_MAX_AXES; k++)
        if (a->v[k] != b->v[k]) return 0;
    return 1;
}

/* the bench's context for (L's problem, shape, input): the cached one when it matches */
static cudaError_t bench_ctx(kit_bench *b, const kit_ladder *L, const kit_shape *sh,
                             const kit_input *in, kit_ctx **out)
{
    kit_ctx *c = b->cache;
    if (c && c->P == L->P && c->in == in && same_shape(L->P, &c->sh, sh) &&
        (c->rot > 0) == (b->gpu != 0)) {
        *out = c;
        return kit_ctx_use(c, L);
    }
    kit_ctx_free(c);
    b->cache = NULL;
    c = NULL;
    {
        const cudaError_t e = kit_ctx_new(L, sh, in, input_seed(sh->n, in, L->P),
                                          b->gpu ? kit_rotations(L->bytes(L, 0, sh)) : 0, &c);
        if (e != cudaSuccess) {
            kit_ctx_free(c);
            return e;
        }
    }
    b->cache = c;
    *out = c;
    return cudaSuccess;
}

/* The step's param, with its resident blocks per SM when the experiment asks. */
static const char *step_param(const kit_bench *b, const kit_step_info *s, char *buf, size_t len)
{
    const int per_sm = b->param_occupancy ? step_blocks_per_sm(s) : 0;
    if (!per_sm) return s->param;
    snprintf(buf, len, "%s blocks/SM=%d", s->param, per_sm);
    return buf;
}

static double items_of(const kit_problem *P, const kit_shape *sh)
{
    return P->items ? P->items(P, sh) : (double)sh->n;
}

/* The phase an experiment times alone (b->phase), or -1: every phase (none set, or a name the
 * problem does not have). */
static int timed_phase(const kit_bench *b, const kit_problem *P)
{
    return b->phase ? kit_phase_index(P, b->phase) : -1;
}

/* one row per phase of step i (t NULL: untimed, verified says why) */
static void step_rows(kit_bench *b, kit_ctx *c, size_t i, const kit_timing *t,
                      const char *verified)
{
    const kit_ladder *L = c->L;
    const kit_step_info *s = L->step(L, i);
    char pbuf[256], shape[256], unit[64];
    kit_row r;
    const int only = timed_phase(b, c->P);
    int ph;
    snprintf(unit, sizeof unit, "%s/s", c->P->unit ? c->P->unit : "elements");
    memset(&r, 0, sizeof r);
    r.step = s->name;
    r.param = step_param(b, s, pbuf, sizeof pbuf);
    r.input = c->in->name;
    r.shape = kit_shape_str(c->P, &c->sh, shape, sizeof shape);
    r.unit = unit;
    r.verified = verified;
    r.n = c->sh.n;
    r.bytes = kit_ctx_bytes(c, i);
    r.items = items_of(c->P, &c->sh);
    for (ph = 0; ph < kit_nphases(c->P); ph++) {
        if (only >= 0 && ph != only) continue; /* not timed here */
        r.phase = kit_phase_name(c->P, ph);
        r.t = t ? &t[ph] : NULL;
        kit_bench_row(b, &r);
    }
}

/* Estimated ms of one whole run of step i at full size, from a warm run on a prefix of
 * n / 64 elements (at least 2^20; the problem's buffers hold the full size, so a prefix is
 * valid): large enough that launch overhead and a yardstick's first-call host work do not
 * dominate the extrapolation.  Up to 2^20 elements the run is the full one, timed after one
 * untimed run (a brute-force search of 10^6 queries takes most of a second: its estimate
 * sets how often it is repeated). */
static cudaError_t probe_ms(kit_ctx *c, size_t i, cudaStream_t s, double *ms)
{
    const kit_shape full = c->sh;
    size_t m = full.n / 64;
    launch_arg la;
    kit_timing t;
    cudaError_t e;
    kit_shape part;
    *ms = 0;
    if (m < ((size_t)1 << 20)) m = (size_t)1 << 20;
    la.c = c;
    la.step = i;
    la.ph = 0;
    if (full.n <= m) {
        KIT_TRY(kit_time_gpu(launch_whole, &la, s, 1, 1, &t));
        *ms = t.ms_median;
        return cudaSuccess;
    }
    c->sh.n = m;
    part = c->sh;
    e = kit_time_gpu(launch_whole, &la, s, 1, 1, &t);
    c->sh = full;
    KIT_TRY(e);
    *ms = t.ms_median * kit_ladder_cost_ratio(c->L, i, &full, &part);
    return cudaSuccess;
}

double kit_ladder_cost_ratio(const kit_ladder *L, size_t i, const kit_shape *full,
                             const kit_shape *prefix)
{
    double a, b;
    if (!L->cost) return prefix->n ? (double)full->n / (double)prefix->n : 1.0;
    a = L->cost(L, i, full);
    b = L->cost(L, i, prefix);
    return b > 0 ? a / b : 1.0;
}

/* Verify then time steps [0, count) of the context's ladder.  A CUDA error is written as ERROR; the run goes on unless
 * the context is lost. */
static cudaError_t time_steps(kit_bench *b, kit_ctx *c)
{
    const kit_ladder *L = c->L;
    char msg[KIT_MSG], sz[32], verified[64];
    size_t i;
    for (i = 0; i < L->count; i++) {
        const kit_step_info *s = L->step(L, i);
        kit_timing t[KIT_MAX_PHASES];
        int ok = 0, warmup = b->warmup, reps = b->reps;
        double est = 0;
        cudaError_t e = cudaSuccess;
        if (c->sh.n > kit_step_max_n(L, i)) {
            step_rows(b, c, i, NULL, "skipped");
            continue;
        }
        if (L->budget_ms > 0) e = probe_ms(c, i, b->stream, &est);
        if (e == cudaSuccess && est > L->budget_ms && L->budget_ms > 0) {
            fprintf(stderr, "\n%s %s n=%s: skipped, a run would take about %.0f ms\n", L->id,
                    s->name, kit_size_str(c->sh.n, sz, sizeof sz), est);
            step_rows(b, c, i, NULL, "skipped");
            continue;
        }
        if (est > 5.0) { /* long runs: fewer repetitions */
            warmup = 1;
            reps = reps < 5 ? reps : 5;
        }
        if (est > 100.0) { /* runs of 0.1 s and more: the probe and the check have warmed it; median of 3 */
            warmup = 0;
            reps = reps < 3 ? reps : 3;
        }
        if (e == cudaSuccess)
            e = kit_ladder_measure_phase(c, i, b->stream, warmup, reps, timed_phase(b, c->P), t, &ok, msg,
                                         sizeof msg);
        if (e != cudaSuccess) {
            const char *why = kit_unsupported();
            if (why) { /* cannot run on this GPU (or KIT_DEVICE's): a row that says so, no error */
                fprintf(stderr, "\n%s %s n=%s: skipped: cannot run on this GPU: %s\n", L->id, s->name,
                        kit_size_str(c->sh.n, sz, sizeof sz), why);
                step_rows(b, c, i, NULL, "unsupported");
                kit_recover();
                continue;
            }
            fprintf(stderr, "\n%s %s n=%s: CUDA error: %s\n", L->id, s->name,
                    kit_size_str(c->sh.n, sz, sizeof sz), cudaGetErrorString(e));
            step_rows(b, c, i, NULL, "ERROR");
            if (!kit_recover()) return e;
            continue;
        }
        if (s->flags & KIT_TIMING_ONLY)
            snprintf(verified, sizeof verified, "timing-only:%s", ok ? "ok" : "wrong");
        else {
            snprintf(verified, sizeof verified, "%s", ok ? "ok" : "FAILED");
            if (!ok)
                fprintf(stderr, "\n%s %s n=%s input=%s: FAILED verification: %s\n", L->id, s->name,
                        kit_size_str(c->sh.n, sz, sizeof sz), c->in->name, msg);
        }
        step_rows(b, c, i, t, verified);
    }
    return cudaSuccess;
}

typedef struct cpu_arg {
    kit_ctx *c;
    int v;
} cpu_arg;

/* one timed run: the baseline's run alone (its prepare() came before the timing) */
static void run_cpu(void *a)
{
    cpu_arg *x = (cpu_arg *)a;
    x->c->P->cpu[x->v].run(x->c->P, &x->c->got, &x->c->sh);
}

/* only the run is timed: prepare() (an index build ...) comes first, untimed */
void kit_ctx_time_cpu(kit_ctx *c, int v, int reps, double max_s, kit_timing *t)
{
    const kit_cpu *u = &c->P->cpu[v];
    cpu_arg a;
    memset(t, 0, sizeof *t);
    if (!u->run) return; /* absent from this build: zero runs */
    if (u->prepare) u->prepare(c->P, &c->got, &c->sh);
    a.c = c;
    a.v = v;
    kit_time_cpu(run_cpu, &a, reps, max_s, t);
}

static kit_cpu_key cpu_key(const kit_ctx *c, const char *chapter, int v, char *shape, size_t len)
{
    kit_cpu_key k;
    k.chapter = chapter ? chapter : "";
    k.problem = c->P->name;
    k.baseline = c->P->cpu[v].name;
    k.input = c->in->name;
    k.shape = kit_shape_str(c->P, &c->sh, shape, len);
    k.n = c->sh.n;
    return k;
}

double kit_ctx_cpu_guess(kit_ctx *c, const char *chapter, int v)
{
    char shape[256];
    const kit_cpu_key k = cpu_key(c, chapter, v, shape, sizeof shape);
    const char *path = kit_cpu_cache_path();
    double ms;
    long long when;
    size_t n0;
    if (!c->P->cpu[v].run || kit_cpu_cache_get(path, &k, kit_cpu_machine(), kit_cpu_build(), &ms, &when)) return 0;
    if (!kit_cpu_cache_below(path, &k, kit_cpu_machine(), kit_cpu_build(), &n0, &ms)) return 0;
    return kit_cpu_scale(c->P->cpu[v].cost, ms, n0, k.n) / 1e3;
}

void kit_ctx_cpu_row(kit_ctx *c, const char *chapter, int v, int mode, int reps, double budget_s,
                     kit_cpu_time *out)
{
    char shape[256];
    const kit_cpu_key k = cpu_key(c, chapter, v, shape, sizeof shape);
    const char *path = kit_cpu_cache_path(), *mach = kit_cpu_machine(), *build = kit_cpu_build();
    double ms;
    size_t n0;
    memset(out, 0, sizeof *out);
    if (mode == KIT_CPU_NONE || !c->P->cpu[v].run) {
        out->how = KIT_CPU_ABSENT;
        return;
    }
    if (mode == KIT_CPU_CACHED) {
        if (kit_cpu_cache_get(path, &k, mach, build, &ms, &out->when)) {
            out->how = KIT_CPU_FROM_CACHE;
            out->t.ms_median = out->t.ms_min = ms;
            out->t.reps = 1;
            return;
        }
        if (kit_cpu_cache_below(path, &k, mach, build, &n0, &ms)) {
            const double est = kit_cpu_scale(c->P->cpu[v].cost, ms, n0, k.n);
            if (est > budget_s * 1e3) {
                out->how = KIT_CPU_ESTIMATED;
                out->from_n = n0;
                out->t.ms_median = out->t.ms_min = est;
                return;
            }
        }
    }
    kit_ctx_time_cpu(c, v, reps, budget_s < 2.0 ? budget_s : 2.0, &out->t);
    out->how = KIT_CPU_MEASURED;
    if (out->t.reps > 0) kit_cpu_cache_put(path, &k, mach, build, out->t.ms_median);
}

static void cpu_rows(kit_bench *b, kit_ctx *c)
{
    const kit_problem *P = c->P;
    char name[64], shape[256], unit[64], param[512], mark[64];
    size_t v;
    for (v = 0; v < P->ncpu && b->cpu_mode != KIT_CPU_NONE; v++) {
        const kit_cpu *u = &P->cpu[v];
        kit_cpu_time ct;
        kit_timing t;
        kit_row r;
        if (u->max_n && c->sh.n > u->max_n) continue;
        if (timed_phase(b, P) >= 0 && strcmp(u->phase ? u->phase : "run", b->phase))
            continue; /* a baseline of another phase: not timed here */
        if (!kit_name_in_list(b->cpus, u->name)) continue; /* not one this experiment times */
        kit_ctx_cpu_row(c, b->chapter, (int)v, b->cpu_mode, b->quick ? 2 : 5, b->quick ? 0.25 : 2.0, &ct);
        t = ct.t;
        snprintf(name, sizeof name, "cpu-%s", u->name);
        snprintf(unit, sizeof unit, "%s/s", P->unit ? P->unit : "elements");
        memset(&r, 0, sizeof r);
        r.step = name;
        r.param = u->param ? u->param : "serial CPU baseline";
        kit_cpu_mark(&ct, mark, sizeof mark);
        if (mark[0]) { /* cached or estimated: said in the row */
            snprintf(param, sizeof param, "%s (%s)", r.param, mark);
            r.param = param;
        }
        r.input = c->in->name;
        r.shape = kit_shape_str(P, &c->sh, shape, sizeof shape);
        r.phase = u->phase ? u->phase : "run";
        r.unit = unit;
        r.verified = !u->run ? "absent" : ct.how == KIT_CPU_ESTIMATED ? "est." : "ok";
        r.n = c->sh.n;
        r.bytes = kit_ctx_bytes(c, 0);
        r.items = items_of(P, &c->sh);
        r.t = u->run ? &t : NULL;
        kit_bench_row(b, &r);
    }
}

/* the inputs to run: the list (NULL: the problem's first), narrowed by --input when given
 * (--input alone, when the list is NULL); -1 and a message on stderr for an unknown name
 * in the list (a chapter's mistake) */
static int in_list(const char *list, const char *name)
{
    const size_t m = strlen(name);
    const char *p = list;
    while (list && (p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ',') && (p[m] == ',' || p[m] == '\0')) return 1;
        p += m;
    }
    return 0;
}

static int pick_inputs(const kit_bench *b, const kit_problem *P, const char *list,
                       const kit_input **out, int max)
{
    char buf[1024], *tok, *save = NULL;
    int k = 0;
    if (!list) {
        size_t i;
        if (!b->inputs) {
            out[0] = &P->inputs[0];
            return 1;
        }
        for (i = 0; i < P->ninputs && k < max; i++)
            if (in_list(b->inputs, P->inputs[i].name)) out[k++] = &P->inputs[i];
        return k;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok && k < max; tok = strtok_r(NULL, ",", &save)) {
        const kit_input *in = kit_input_find(P, tok);
        if (!in) {
            fprintf(stderr, "unknown input '%s' for %s\n", tok, P->name);
            return -1;
        }
        if (!b->inputs || in_list(b->inputs, tok)) out[k++] = in;
    }
    return k;
}

cudaError_t kit_ladder_sweep(kit_bench *b, const kit_ladder *L, int lo, int hi,
                             const char *inputs, int with_cpu, size_t cpu_max_n)
{
    size_t sizes[64], ns = 0;
    int k;
    for (k = lo; k <= hi && ns < 64; k++) sizes[ns++] = (size_t)1 << k;
    return kit_ladder_sweep_sizes(b, L, sizes, ns, inputs, with_cpu, cpu_max_n);
}

cudaError_t kit_ladder_sweep_sizes(kit_bench *b, const kit_ladder *L, const size_t *sizes,
                                   size_t nsizes, const char *inputs, int with_cpu,
                                   size_t cpu_max_n)
{
    const kit_input *ins[64];
    const int nin = pick_inputs(b, L->P, inputs, ins, 64);
    char sz[32];
    size_t k;
    int x;
    if (nin < 0) return cudaErrorInvalidValue;
    for (x = 0; x < nin; x++)
        for (k = 0; k < nsizes; k++) {
            const kit_shape sh = kit_bench_shape(b, L->P, sizes[k]);
            kit_ctx *c = NULL;
            kit_progress(b, "%s %s: n = %s", L->id, ins[x]->name, kit_size_str(sh.n, sz, sizeof sz));
            if (!b->gpu && !(with_cpu && L->P->ncpu && (!cpu_max_n || sh.n <= cpu_max_n))) continue;
            KIT_TRY(bench_ctx(b, L, &sh, ins[x], &c));
            if (b->gpu) KIT_TRY(time_steps(b, c));
            if (with_cpu && (!cpu_max_n || sh.n <= cpu_max_n)) cpu_rows(b, c);
        }
    kit_progress_done(b);
    return cudaSuccess;
}

cudaError_t kit_ladder_point(kit_bench *b, const kit_ladder *L, const kit_shape *sh,
                             const char *input)
{
    const kit_input *ins[1];
    kit_ctx *c = NULL;
    char sz[32];
    if (!b->gpu) return cudaSuccess;
    const int k = pick_inputs(b, L->P, input, ins, 1);
    if (k < 0) return cudaErrorInvalidValue;
    if (k == 0) return cudaSuccess; /* --input names none of this problem's inputs */
    kit_progress(b, "%s %s: %zu variants at n = %s", L->id, ins[0]->name, L->count,
                 kit_size_str(sh->n, sz, sizeof sz));
    KIT_TRY(bench_ctx(b, L, sh, ins[0], &c));
    KIT_TRY(time_steps(b, c));
    kit_progress_done(b);
    return cudaSuccess;
}
