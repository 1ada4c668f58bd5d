/* ladder.c - drive any chapter's step table through the kit_ladder interface:
 * one verified run, throughput sweeps and single-size points. */
#include "kit.h"

#include <stdio.h>
#include <string.h>

cudaError_t kit_ladder_verify(const kit_ladder *L, size_t i, size_t n, kit_pattern p,
                              uint64_t seed, int *ok, char *msg, size_t len)
{
    void *ctx = NULL;
    cudaError_t e;
    *ok = 0;
    if (msg && len) msg[0] = '\0';
    if (i >= L->count) return cudaErrorInvalidValue;
    e = L->setup(L, n, p, seed, 1, &ctx);
    if (e == cudaSuccess) e = L->check(ctx, i, 0, ok, msg, len);
    if (ctx) L->teardown(ctx);
    return e;
}

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
    const kit_ladder *L;
    void *ctx;
    size_t step;
} launch_arg;

static cudaError_t launch_step(void *a, int rep, cudaStream_t s)
{
    launch_arg *la = (launch_arg *)a;
    return la->L->launch(la->ctx, la->step, rep, s);
}

cudaError_t kit_ladder_measure(const kit_ladder *L, void *ctx, size_t i, cudaStream_t s,
                               int warmup, int reps, kit_timing *t, int *ok, char *msg,
                               size_t len)
{
    launch_arg la;
    la.L = L;
    la.ctx = ctx;
    la.step = i;
    KIT_TRY(L->check(ctx, i, s, ok, msg, len));
    return kit_time_gpu(launch_step, &la, s, warmup, reps, t);
}

int kit_step_blocks_per_sm(const kit_step_info *s)
{
    kit_kernel_desc d;
    int per_sm = 0;
    if (!s->describe || s->describe(&d) != cudaSuccess || !d.func ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, d.func, d.block_threads,
                                                      d.dyn_smem) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return per_sm;
}

/* The step's param, with its resident blocks per SM when the experiment asks. */
static const char *step_param(const kit_bench *b, const kit_step_info *s, char *buf, size_t len)
{
    const int per_sm = b->param_occupancy ? kit_step_blocks_per_sm(s) : 0;
    if (!per_sm) return s->param;
    snprintf(buf, len, "%s blocks/SM=%d", s->param, per_sm);
    return buf;
}

/* Verify then time steps [0, count) of L on an existing context. */
static cudaError_t time_steps(kit_bench *b, const kit_ladder *L, void *ctx, size_t n)
{
    size_t i;
    char msg[KIT_MSG], pbuf[256];
    for (i = 0; i < L->count; i++) {
        const kit_step_info *s = L->step(L, i);
        kit_timing t;
        int ok = 0;
        cudaError_t e = kit_ladder_measure(L, ctx, i, b->stream, b->warmup, b->reps, &t, &ok, msg,
                                           sizeof msg);
        if (e != cudaSuccess) {
            fprintf(stderr, "\n%s %s n=%zu: CUDA error: %s\n", L->id, s->name, n,
                    cudaGetErrorString(e));
            kit_bench_row(b, s->name, step_param(b, s, pbuf, sizeof pbuf), n, L->bytes(L, i, n),
                          L->elems(L, n), NULL, "ERROR");
            if (!kit_recover()) return e;
            continue;
        }
        if (!ok) fprintf(stderr, "\n%s %s n=%zu: FAILED verification: %s\n", L->id, s->name, n, msg);
        kit_bench_row(b, s->name, step_param(b, s, pbuf, sizeof pbuf), n, L->bytes(L, i, n),
                      L->elems(L, n), &t, ok ? "ok" : "FAILED");
    }
    return cudaSuccess;
}

typedef struct cpu_arg {
    const kit_ladder *L;
    void *ctx;
    int v;
} cpu_arg;

static void run_cpu(void *a)
{
    cpu_arg *c = (cpu_arg *)a;
    c->L->cpu(c->ctx, c->v);
}

void kit_ladder_time_cpu(const kit_ladder *L, void *ctx, int v, int reps, double max_s,
                         kit_timing *t)
{
    cpu_arg a;
    a.L = L;
    a.ctx = ctx;
    a.v = v;
    kit_time_cpu(run_cpu, &a, reps, max_s, t);
}

cudaError_t kit_ladder_sweep(kit_bench *b, const kit_ladder *L, int lo, int hi, kit_pattern p,
                             int with_cpu)
{
    int k;
    char sz[32];
    for (k = lo; k <= hi; k++) {
        size_t n = (size_t)1 << k;
        void *ctx = NULL;
        cudaError_t e;
        kit_progress(b, "%s: n = %s", L->id, kit_size_str(n, sz, sizeof sz));
        e = L->setup(L, n, p, 0x5EED0000u + (uint64_t)k,
                     b->gpu ? kit_rotations(L->bytes(L, 0, n)) : 0, &ctx);
        if (e == cudaSuccess && b->gpu) e = time_steps(b, L, ctx, n);
        if (e == cudaSuccess && with_cpu && L->cpu) {
            int v;
            for (v = 0; L->cpu_names[v]; v++) {
                kit_timing t;
                char name[64];
                kit_ladder_time_cpu(L, ctx, v, b->quick ? 2 : 5, 0.5, &t);
                snprintf(name, sizeof name, "cpu-%s", L->cpu_names[v]);
                kit_bench_row(b, name, "serial CPU baseline", n, L->bytes(L, 0, n), L->elems(L, n),
                              &t, "ok");
            }
        }
        if (ctx) L->teardown(ctx);
        if (e != cudaSuccess) {
            kit_progress_done(b);
            return e;
        }
    }
    kit_progress_done(b);
    return cudaSuccess;
}

cudaError_t kit_ladder_point(kit_bench *b, const kit_ladder *L, size_t n, kit_pattern p)
{
    void *ctx = NULL;
    char sz[32];
    cudaError_t e;
    if (!b->gpu) return cudaSuccess;
    kit_progress(b, "%s: %zu variants at n = %s", L->id, L->count, kit_size_str(n, sz, sizeof sz));
    e = L->setup(L, n, p, 0x5EED1234u, kit_rotations(L->bytes(L, 0, n)), &ctx);
    if (e == cudaSuccess) e = time_steps(b, L, ctx, n);
    if (ctx) L->teardown(ctx);
    kit_progress_done(b);
    return e;
}
