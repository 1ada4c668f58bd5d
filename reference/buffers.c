/* buffers.c - device buffers for verified and rotated runs. */
#include "kit.h"

#include <stdlib.h>

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
