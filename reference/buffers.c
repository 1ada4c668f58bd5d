/* buffers.c - device buffers for verified and rotated runs; large host buffers. */
#define _DEFAULT_SOURCE /* madvise */
#include "kit.h"
#include "kit_parts.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- host work in parallel */

int kit_host_threads(void)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > KIT_HOST_MAX_THREADS ? KIT_HOST_MAX_THREADS : (int)cpus;
}

int kit_host_parts(size_t n) { return n >= ((size_t)1 << 22) ? kit_host_threads() : 1; }

size_t kit_part_start(size_t n, int k, int parts)
{
    return n / (size_t)parts * (size_t)k + (n % (size_t)parts) * (size_t)k / (size_t)parts;
}

void kit_part_offsets(size_t *counts, size_t radix, int parts)
{
    size_t d, sum = 0;
    int k;
    for (d = 0; d < radix; d++)
        for (k = 0; k < parts; k++) {
            const size_t c = counts[(size_t)k * radix + d];
            counts[(size_t)k * radix + d] = sum;
            sum += c;
        }
}

typedef struct par_part {
    void (*fn)(void *, int, int);
    void *arg;
    int k, parts;
} par_part;

static void *par_run(void *a)
{
    const par_part *p = (const par_part *)a;
    p->fn(p->arg, p->k, p->parts);
    return NULL;
}

void kit_host_parallel(void (*fn)(void *arg, int part, int parts), void *arg, int parts)
{
    par_part part[KIT_HOST_MAX_THREADS];
    pthread_t th[KIT_HOST_MAX_THREADS];
    int started[KIT_HOST_MAX_THREADS] = {0}, k;
    if (parts < 1) return;
    if (parts > KIT_HOST_MAX_THREADS) parts = KIT_HOST_MAX_THREADS;
    for (k = 0; k < parts; k++) {
        part[k].fn = fn;
        part[k].arg = arg;
        part[k].k = k;
        part[k].parts = parts;
        if (k > 0) started[k] = pthread_create(&th[k], NULL, par_run, &part[k]) == 0;
    }
    for (k = 1; k < parts; k++)
        if (!started[k]) par_run(&part[k]); /* no thread: the caller does that part */
    par_run(&part[0]);
    for (k = 1; k < parts; k++)
        if (started[k]) pthread_join(th[k], NULL);
}

/* ---- large host buffers: first touch in parallel */

#define HOST_BIG ((size_t)64 << 20) /* below this, plain malloc */
#define HOST_ALIGN ((size_t)2 << 20) /* a huge page */

typedef struct touch_arg {
    unsigned char *p;
    size_t total;
} touch_arg;

/* zero part k of parts, in whole huge pages */
static void touch(void *arg, int k, int parts)
{
    const touch_arg *t = (const touch_arg *)arg;
    const size_t slice = (t->total / HOST_ALIGN + (size_t)parts - 1) / (size_t)parts * HOST_ALIGN;
    const size_t lo = (size_t)k * slice;
    if (lo < t->total) memset(t->p + lo, 0, t->total - lo < slice ? t->total - lo : slice);
}

void *kit_host_alloc(size_t bytes)
{
    touch_arg t;
    if (bytes < HOST_BIG) return malloc(bytes ? bytes : 1);
    t.total = (bytes + HOST_ALIGN - 1) / HOST_ALIGN * HOST_ALIGN;
    t.p = (unsigned char *)aligned_alloc(HOST_ALIGN, t.total);
    if (!t.p) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(t.p, t.total, MADV_HUGEPAGE); /* advice: fewer page faults where the kernel agrees */
#endif
    kit_host_parallel(touch, &t, kit_host_threads());
    return t.p;
}

cudaError_t kit_dev_copies(void ***bufs, int count, const void *host, size_t bytes,
                           size_t alloc_bytes)
{
    void **b;
    int i;
    *bufs = NULL;
    if (count < 1) return cudaSuccess;
    if (alloc_bytes < bytes) alloc_bytes = bytes;
    b = (void **)calloc((size_t)count, sizeof *b);
    if (!b) return cudaErrorMemoryAllocation;
    *bufs = b;
    for (i = 0; i < count; i++) {
        /* cudaMalloc(0) returns NULL: allocate a word so every buffer is a real pointer */
        KIT_TRY(cudaMalloc(&b[i], alloc_bytes ? alloc_bytes : 4));
        if (host && bytes) {
            if (i == 0) KIT_TRY(cudaMemcpy(b[0], host, bytes, cudaMemcpyHostToDevice));
            else KIT_TRY(cudaMemcpy(b[i], b[0], bytes, cudaMemcpyDeviceToDevice));
        }
    }
    return cudaSuccess;
}

void kit_dev_free_copies(void **bufs, int count)
{
    int i;
    if (!bufs) return;
    for (i = 0; i < count; i++) cudaFree(bufs[i]);
    free(bufs);
}

cudaError_t kit_fetch(void *host, const void *dev, size_t bytes, cudaStream_t s)
{
    if (bytes) KIT_TRY(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s));
    return cudaStreamSynchronize(s);
}
