/* timing.c - CUDA-event timing (warm-up, median and min of K) and host timing. */
#define _POSIX_C_SOURCE 200809L
#include "kit.h"

#include <stdlib.h>
#include <time.h>

double kit_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double kit_median(double *v, int n)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void summarize(double *ms, int n, kit_timing *t)
{
    t->reps = n;
    t->ms_median = kit_median(ms, n); /* sorts: ms[0] is now the minimum */
    t->ms_min = n > 0 ? ms[0] : 0.0;
}

cudaError_t kit_time_gpu(kit_launch_fn f, void *arg, cudaStream_t s, int warmup, int reps,
                         kit_timing *t)
{
    cudaEvent_t *ev = NULL;
    double *ms = NULL;
    cudaError_t e = cudaSuccess;
    int made = 0, i;

    if (reps < 1) reps = 1;
    ev = (cudaEvent_t *)calloc(2 * (size_t)reps, sizeof *ev);
    ms = (double *)calloc((size_t)reps, sizeof *ms);
    if (!ev || !ms) { e = cudaErrorMemoryAllocation; goto out; }
    for (made = 0; made < 2 * reps; made++)
        if ((e = cudaEventCreate(&ev[made])) != cudaSuccess) goto out;

    for (i = 0; i < warmup; i++)
        if ((e = f(arg, i, s)) != cudaSuccess) goto out;
    for (i = 0; i < reps; i++) {
        if ((e = cudaEventRecord(ev[2 * i], s)) != cudaSuccess) goto out;
        if ((e = f(arg, warmup + i, s)) != cudaSuccess) goto out;
        if ((e = cudaEventRecord(ev[2 * i + 1], s)) != cudaSuccess) goto out;
    }
    if ((e = cudaStreamSynchronize(s)) != cudaSuccess) goto out;
    for (i = 0; i < reps; i++) {
        float x = 0.f;
        if ((e = cudaEventElapsedTime(&x, ev[2 * i], ev[2 * i + 1])) != cudaSuccess) goto out;
        ms[i] = x;
    }
    summarize(ms, reps, t);
out:
    for (i = 0; i < made; i++) cudaEventDestroy(ev[i]);
    free(ev);
    free(ms);
    return e;
}

void kit_time_cpu(void (*f)(void *), void *arg, int reps, double max_seconds, kit_timing *t)
{
    double ms[64];
    double start = kit_wall_seconds();
    int n = 0;
    if (reps < 1) reps = 1;
    if (reps > 64) reps = 64;
    while (n < reps) {
        double t0 = kit_wall_seconds();
        f(arg);
        ms[n++] = 1e3 * (kit_wall_seconds() - t0);
        if (kit_wall_seconds() - start > max_seconds) break;
    }
    summarize(ms, n, t);
}
