/* contract.c - the contract every public step keeps, checked from the problem's
 * declaration alone: any element-aligned pointer, guard zones around every buffer,
 * exactly scratch_bytes of scratch, inputs left unchanged, a second run on dirty scratch,
 * a created non-blocking stream behind a busy kernel, refusal past the largest n, and the
 * argument cases a chapter's header allows or refuses (kit_arg_case). */
#include "kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CGUARD 512 /* bytes of guard before and after every buffer and after the scratch */

typedef struct cbuf {
    unsigned char *base; /* device allocation: guard | payload | guard */
    size_t off;          /* payload offset from base */
    size_t bytes;        /* payload bytes */
    size_t total;
} cbuf;

static size_t first_bad(const unsigned char *a, size_t n)
{
    size_t j;
    for (j = 0; j < n; j++)
        if (a[j] != KIT_POISON_BYTE) return j;
    return n;
}

/* fetch the two guards of one guarded allocation (not its payload) and check them */
static cudaError_t check_guards(const cbuf *b, const char *name, cudaStream_t s, int *ok, char *msg,
                                size_t len)
{
    const size_t tail = b->total - b->off - b->bytes;
    unsigned char *g = (unsigned char *)malloc(b->off > tail ? b->off : tail);
    size_t j;
    cudaError_t e;
    if (!g) return cudaErrorMemoryAllocation;
    if ((e = kit_fetch(g, b->base, b->off, s)) == cudaSuccess && (j = first_bad(g, b->off)) < b->off) {
        snprintf(msg, len, "wrote %zu bytes before %s", b->off - j, name);
        *ok = 0;
    } else if (e == cudaSuccess && (e = kit_fetch(g, b->base + b->off + b->bytes, tail, s)) == cudaSuccess &&
               (j = first_bad(g, tail)) < tail) {
        snprintf(msg, len, "wrote past the end of %s (byte %zu after it)", name, j);
        *ok = 0;
    }
    free(g);
    return e;
}

/* compare a device payload with its host original a slice at a time (no host copy of the
 * whole input: at 2^31 elements that is gigabytes fetched and faulted in for one memcmp) */
#define CSLICE ((size_t)64 << 20)
static cudaError_t same_as_host(const unsigned char *dev, const unsigned char *host, size_t bytes,
                                cudaStream_t s, int *same)
{
    unsigned char *h = NULL;
    size_t at;
    cudaError_t e = cudaSuccess;
    *same = 1;
    if (!bytes) return cudaSuccess;
    if (!(h = (unsigned char *)malloc(bytes < CSLICE ? bytes : CSLICE))) return cudaErrorMemoryAllocation;
    for (at = 0; at < bytes && *same && e == cudaSuccess; at += CSLICE) {
        const size_t m = bytes - at < CSLICE ? bytes - at : CSLICE;
        if ((e = kit_fetch(h, dev + at, m, s)) == cudaSuccess) *same = memcmp(h, host + at, m) == 0;
    }
    free(h);
    return e;
}

typedef struct contract {
    const kit_ladder *L;
    const kit_problem *P;
    size_t step;
    kit_shape sh;
    kit_host want, got;
    unsigned char *host_raw[KIT_MAX_BUFS]; /* outputs: the payload fetched from the device */
    cbuf dev[KIT_MAX_BUFS];
    cbuf scratch;
} contract;

static void contract_free(contract *k)
{
    size_t b;
    for (b = 0; b < KIT_MAX_BUFS; b++) {
        if (k->dev[b].base) cudaFree(k->dev[b].base);
        free(k->want.buf[b]); /* inputs: got.buf is the same; outputs: got.buf is host_raw */
        free(k->host_raw[b]);
    }
    if (k->scratch.base) cudaFree(k->scratch.base);
}

static cudaError_t alloc_guarded(cbuf *b, size_t bytes, size_t off)
{
    b->off = CGUARD + off;
    b->bytes = bytes;
    b->total = b->off + bytes + CGUARD;
    return cudaMalloc((void **)&b->base, b->total);
}

/* phase ph of the step, as the default call or as argument case c (>= 0) makes it */
static cudaError_t call_phase(const contract *k, int c, int ph, void *const *p, cudaStream_t s)
{
    void *scr = k->scratch.bytes ? k->scratch.base + k->scratch.off : NULL;
    if (c < 0) return k->L->run(k->L, k->step, ph, p, &k->sh, scr, s);
    return k->L->run_case(k->L, k->step, c, ph, p, &k->sh, scr, s);
}

/* the buffers' payload addresses; outputs (and their guards) poisoned first */
static cudaError_t place(contract *k, void **p, cudaStream_t s, int poison_scratch)
{
    size_t b;
    for (b = 0; b < k->P->nbufs; b++) {
        if (k->P->bufs[b].role == KIT_OUT) KIT_TRY(kit_poison(k->dev[b].base, k->dev[b].total, s));
        p[b] = k->dev[b].base + k->dev[b].off;
    }
    if (poison_scratch && k->scratch.base) KIT_TRY(kit_poison(k->scratch.base, k->scratch.total, s));
    return cudaSuccess;
}

/* poison every output (and its guards), run all phases on stream s (argument case c, or the
 * default call when c < 0) */
static cudaError_t run_once(contract *k, int c, cudaStream_t s, int poison_scratch)
{
    void *p[KIT_MAX_BUFS];
    int ph;
    KIT_TRY(place(k, p, s, poison_scratch));
    for (ph = 0; ph < kit_nphases(k->P); ph++) KIT_TRY(call_phase(k, c, ph, p, s));
    return cudaGetLastError();
}

/* A refusal case: the phases in order until one returns; it must return the case's code (the
 * ones before it cudaSuccess), leave no launch error, and every output and guard poisoned. */
static cudaError_t refused(contract *k, int c, cudaStream_t s, int *ok, char *msg, size_t len)
{
    const kit_arg_case *ac = &k->L->cases[c];
    void *p[KIT_MAX_BUFS];
    unsigned char *h = NULL;
    cudaError_t r = cudaSuccess;
    size_t b;
    int ph;
    *ok = 1;
    KIT_TRY(place(k, p, s, 1));
    for (ph = 0; ph < kit_nphases(k->P) && r == cudaSuccess; ph++) r = call_phase(k, c, ph, p, s);
    if (r != ac->want) {
        snprintf(msg, len, "returned %s (phase %s), the header names %s", cudaGetErrorName(r),
                 kit_phase_name(k->P, ph - 1), cudaGetErrorName(ac->want));
        *ok = 0;
        return cudaSuccess;
    }
    KIT_TRY(cudaGetLastError());
    KIT_TRY(cudaStreamSynchronize(s));
    for (b = 0; b < k->P->nbufs && *ok; b++) {
        const cbuf *d = &k->dev[b];
        size_t j;
        if (k->P->bufs[b].role != KIT_OUT) continue;
        if (!(h = (unsigned char *)malloc(d->total))) return cudaErrorMemoryAllocation;
        r = kit_fetch(h, d->base, d->total, s);
        if (r == cudaSuccess && (j = first_bad(h, d->total)) < d->total) {
            snprintf(msg, len, "returned %s but wrote %s (byte %zd from its start)", cudaGetErrorName(ac->want),
                     k->P->bufs[b].name, (ptrdiff_t)j - (ptrdiff_t)d->off);
            *ok = 0;
        }
        free(h);
        KIT_TRY(r);
    }
    return cudaSuccess;
}

/* fetch and judge: outputs vs reference, every guard, inputs unchanged */
static cudaError_t judge(contract *k, cudaStream_t s, const char *when, int *ok, char *msg,
                         size_t len)
{
    char inner[KIT_MSG];
    size_t b;
    *ok = 1;
    inner[0] = '\0';
    KIT_TRY(cudaStreamSynchronize(s));
    for (b = 0; b < k->P->nbufs && *ok; b++) {
        const kit_buffer *d = &k->P->bufs[b];
        const cbuf *c = &k->dev[b];
        int same = 1;
        KIT_TRY(check_guards(c, d->name, s, ok, inner, sizeof inner));
        if (*ok && d->role == KIT_IN) {
            KIT_TRY(same_as_host(c->base + c->off, (const unsigned char *)k->want.buf[b], c->bytes, s, &same));
            if (!same) {
                snprintf(inner, sizeof inner, "changed its input %s", d->name);
                *ok = 0;
            }
        } else if (*ok) {
            KIT_TRY(kit_fetch(k->host_raw[b], c->base + c->off, c->bytes, s));
        }
    }
    if (*ok && k->scratch.base) KIT_TRY(check_guards(&k->scratch, "the scratch", s, ok, inner, sizeof inner));
    if (*ok)
        *ok = kit_compare_outputs(k->P, &k->want, &k->got, &k->sh, k->L->step(k->L, k->step)->flags,
                                  inner, sizeof inner);
    if (!*ok) snprintf(msg, len, "%s: %s", when, inner);
    return cudaSuccess;
}

cudaError_t kit_contract_step(const kit_ladder *L, size_t i, const kit_shape *sh,
                              const kit_input *in, uint64_t seed, const kit_contract_opts *o,
                              int *ok, char *msg, size_t len)
{
    const kit_problem *P = L->P;
    const int c = o->arg_case - 1; /* -1: the default call */
    contract k;
    cudaStream_t s = 0, busy = 0;
    cudaEvent_t ev = 0;
    char inner[KIT_MSG];
    cudaError_t e = cudaSuccess;
    size_t b, sb;
    *ok = 0;
    if (msg && len) msg[0] = '\0';
    if (i >= L->count || P->nbufs > KIT_MAX_BUFS) return cudaErrorInvalidValue;
    if (c >= 0 && ((size_t)c >= L->ncases || !L->run_case)) return cudaErrorInvalidValue;
    memset(&k, 0, sizeof k);
    k.L = L;
    k.P = P;
    k.step = i;
    k.sh = *sh;
    /* host side: inputs and reference, as a context makes them */
    for (b = 0; b < P->nbufs; b++) {
        const size_t bytes = kit_buf_count(P, b, sh) * P->bufs[b].elem;
        const size_t off = (o->offset_elems + (o->stagger ? b % 4 : 0)) * P->bufs[b].elem +
                           (P->bufs[b].elem == 1 ? o->offset_bytes : 0);
        k.want.buf[b] = kit_host_alloc(bytes);
        if (!k.want.buf[b]) { e = cudaErrorMemoryAllocation; goto out; }
        if ((e = alloc_guarded(&k.dev[b], bytes, off)) != cudaSuccess) goto out;
        if (P->bufs[b].role != KIT_IN) {
            k.host_raw[b] = (unsigned char *)kit_host_alloc(bytes);
            if (!k.host_raw[b]) { e = cudaErrorMemoryAllocation; goto out; }
        }
        k.got.buf[b] = P->bufs[b].role == KIT_IN ? k.want.buf[b] : k.host_raw[b];
    }
    P->fill(P, &k.want, sh, in ? in : &P->inputs[0], seed);
    if (L->reference) L->reference(L, i, &k.want, sh);
    else P->reference(P, &k.want, sh);
    for (b = 0; b < P->nbufs; b++) {
        if ((e = kit_poison(k.dev[b].base, k.dev[b].total, 0)) != cudaSuccess) goto out;
        if (P->bufs[b].role == KIT_IN && k.dev[b].bytes &&
            (e = cudaMemcpy(k.dev[b].base + k.dev[b].off, k.want.buf[b], k.dev[b].bytes,
                            cudaMemcpyHostToDevice)) != cudaSuccess)
            goto out;
    }
    sb = L->scratch ? L->scratch(L, i, sh) : 0;
    if (sb) {
        if ((e = alloc_guarded(&k.scratch, sb, 0)) != cudaSuccess) goto out;
    }
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) goto out;
    if (o->busy_stream) {
        if ((e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) != cudaSuccess) goto out;
        if ((e = cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking)) != cudaSuccess) goto out;
        if ((e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming)) != cudaSuccess) goto out;
        /* a busy kernel on the step's stream: the step must wait for it like any
         * stream-ordered work; and one on another stream, running beside the step */
        if ((e = kit_busy(s, 2.0)) != cudaSuccess) goto out;
        if ((e = kit_busy(busy, 4.0)) != cudaSuccess) goto out;
    }
    if (c >= 0 && L->cases[c].want != cudaSuccess) { /* a refusal: one call, nothing written */
        e = refused(&k, c, s, ok, inner, sizeof inner);
        goto out;
    }
    /* first run: fresh (poisoned) scratch */
    if ((e = run_once(&k, c, s, 1)) != cudaSuccess) goto out;
    if ((e = judge(&k, s, "first run", ok, inner, sizeof inner)) != cudaSuccess || !*ok) goto out;
    if (o->single) goto out;
    /* second run: the scratch as the first run left it */
    if ((e = run_once(&k, c, s, 0)) != cudaSuccess) goto out;
    e = judge(&k, s, "second run on dirty scratch", ok, inner, sizeof inner);
out:
    if (e != cudaSuccess || !*ok) {
        const kit_step_info *st = L->step(L, i);
        char sz[32];
        char shs[128], cs[KIT_MSG];
        cs[0] = '\0';
        if (c >= 0) snprintf(cs, sizeof cs, ", case \"%s\" (%s)", L->cases[c].name, L->cases[c].header);
        kit_shape_str(P, sh, shs, sizeof shs);
        snprintf(msg, len, "%s %s (%s), n=%s%s%s, offsets %zu elements%s + %zu bytes%s%s: %s", L->id,
                 st->name, st->param, kit_size_str(sh->n, sz, sizeof sz), shs[0] ? " " : "", shs,
                 o->offset_elems, o->stagger ? " (+ b mod 4 for buffer b)" : "", o->offset_bytes,
                 o->busy_stream ? ", non-blocking stream behind a busy kernel" : "", cs,
                 e != cudaSuccess ? cudaGetErrorString(e) : inner);
    }
    if (ev) cudaEventDestroy(ev);
    if (busy) cudaStreamSynchronize(busy), cudaStreamDestroy(busy);
    if (s) cudaStreamSynchronize(s), cudaStreamDestroy(s);
    contract_free(&k);
    return e;
}

int kit_case_applies(const kit_ladder *L, size_t i, size_t c)
{
    const char *steps = c < L->ncases ? L->cases[c].steps : NULL;
    if (c >= L->ncases || !L->run_case) return 0;
    if (steps && steps[0] == '!') return !kit_name_in_list(steps + 1, L->step(L, i)->name);
    return kit_name_in_list(steps, L->step(L, i)->name);
}

int kit_case_shape(const kit_ladder *L, size_t c, int j, const kit_shape *sh, kit_shape *out)
{
    *out = *sh;
    if (!L->cases[c].shape) return j == 0;
    return L->cases[c].shape(L->P, j, out);
}

cudaError_t kit_contract_refusal(const kit_ladder *L, size_t i, int *ok, char *msg, size_t len)
{
    const kit_problem *P = L->P;
    const size_t max = kit_step_max_n(L, i);
    void *p[KIT_MAX_BUFS] = {0}, *scratch = NULL;
    kit_shape sh;
    cudaError_t e = cudaSuccess, r;
    size_t b;
    int ph;
    *ok = 1;
    if (max == SIZE_MAX) return cudaSuccess; /* no limit but memory */
    sh = kit_shape_default(P, max + 1);
    for (b = 0; b < P->nbufs && e == cudaSuccess; b++) e = cudaMalloc(&p[b], 4096);
    if (e == cudaSuccess) e = cudaMalloc(&scratch, 4096);
    if (e == cudaSuccess) {
        for (ph = 0; ph < kit_nphases(P) && *ok; ph++) {
            r = L->run(L, i, ph, p, &sh, scratch, 0);
            if (r != cudaErrorInvalidValue) {
                *ok = 0;
                snprintf(msg, len, "%s %s (%s) at n = %zu (past its largest n %zu): %s instead of "
                         "cudaErrorInvalidValue", L->id, L->step(L, i)->name, L->step(L, i)->param,
                         max + 1, max, cudaGetErrorString(r));
            }
        }
        e = cudaDeviceSynchronize();
    }
    for (b = 0; b < P->nbufs; b++)
        if (p[b]) cudaFree(p[b]);
    if (scratch) cudaFree(scratch);
    return e;
}
