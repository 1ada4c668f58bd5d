/* buffers.c - device buffers for verified and rotated runs; large host buffers. */
#define _DEFAULT_SOURCE /* madvise */
#include "kit.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- large host buffers: first touch in parallel */

#define HOST_BIG ((size_t)64 << 20) /* below this, plain malloc */
#define HOST_ALIGN ((size_t)2 << 20) /* a huge page */
#define HOST_MAX_THREADS 16

typedef struct touch_part {
    unsigned char *p;
    size_t bytes;
} touch_part;

static void *touch(void *arg)
{
    const touch_part *t = (const touch_part *)arg;
    memset(t->p, 0, t->bytes);
    return NULL;
}

void *kit_host_alloc(size_t bytes)
{
    touch_part part[HOST_MAX_THREADS];
    pthread_t th[HOST_MAX_THREADS];
    int started[HOST_MAX_THREADS] = {0};
    size_t total, slice;
    long cpus;
    int k, nt;
    unsigned char *p;
    if (bytes < HOST_BIG) return malloc(bytes ? bytes : 1);
    total = (bytes + HOST_ALIGN - 1) / HOST_ALIGN * HOST_ALIGN;
    p = (unsigned char *)aligned_alloc(HOST_ALIGN, total);
    if (!p) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, total, MADV_HUGEPAGE); /* advice: fewer page faults where the kernel agrees */
#endif
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
    nt = cpus < 1 ? 1 : cpus > HOST_MAX_THREADS ? HOST_MAX_THREADS : (int)cpus;
    slice = (total / HOST_ALIGN + (size_t)nt - 1) / (size_t)nt * HOST_ALIGN;
    for (k = 0; k < nt; k++) {
        const size_t lo = (size_t)k * slice;
        part[k].p = p + lo;
        part[k].bytes = lo >= total ? 0 : total - lo < slice ? total - lo : slice;
        if (k > 0 && part[k].bytes) started[k] = pthread_create(&th[k], NULL, touch, &part[k]) == 0;
    }
    for (k = 1; k < nt; k++)
        if (part[k].bytes && !started[k]) touch(&part[k]); /* no thread: this one does it */
    touch(&part[0]);
    for (k = 1; k < nt; k++)
        if (started[k]) pthread_join(th[k], NULL);
    return p;
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
