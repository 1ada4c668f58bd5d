/* device.c - is there a GPU, and what is it?  Queried once per process. */
#include "kit.h"

#include <stdio.h>
#include <string.h>

int kit_gpu_available(char *why, size_t len)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        /* the runtime's own words for a machine without a driver ("CUDA driver version is
         * insufficient for CUDA runtime version") read as if a driver were there */
        if (why && len)
            snprintf(why, len, "no CUDA device (%s)",
                     e == cudaErrorInsufficientDriver ? "no NVIDIA driver here, or one older than this CUDA runtime"
                     : e == cudaErrorNoDevice || e == cudaSuccess ? "the driver reports none"
                                                                    : cudaGetErrorString(e));
        cudaGetLastError(); /* clear the sticky-free error so later calls start clean */
        return 0;
    }
    /* A device may be listed yet unusable (busy, prohibited mode): touch it. */
    e = cudaFree(0);
    if (e != cudaSuccess) {
        if (why && len) snprintf(why, len, "no CUDA device usable (%s)", cudaGetErrorString(e));
        return 0;
    }
    if (why && len) why[0] = '\0';
    return 1;
}

static kit_device g_dev;
static int g_dev_ok;

cudaError_t kit_device_get(const kit_device **out)
{
    if (!g_dev_ok) {
        kit_device *d = &g_dev;
        struct cudaDeviceProp p;
        memset(d, 0, sizeof *d);
        KIT_TRY(cudaGetDevice(&d->ordinal));
        KIT_TRY(cudaGetDeviceProperties(&p, d->ordinal));
        snprintf(d->name, sizeof d->name, "%s", p.name);
        d->cc_major = p.major;
        d->cc_minor = p.minor;
        d->sms = p.multiProcessorCount;
        d->max_threads_sm = p.maxThreadsPerMultiProcessor;
        d->max_blocks_sm = p.maxBlocksPerMultiProcessor;
        d->l2_bytes = (size_t)p.l2CacheSize;
        d->gmem_bytes = p.totalGlobalMem;
        d->smem_per_sm = p.sharedMemPerMultiprocessor;
        d->smem_block_optin = p.sharedMemPerBlockOptin;
        g_dev_ok = 1;
    }
    *out = &g_dev;
    return cudaSuccess;
}

int kit_sm_count(void)
{
    const kit_device *d;
    if (kit_device_get(&d) != cudaSuccess) {
        cudaGetLastError(); /* a failed query leaves no error behind for the caller */
        return 0;
    }
    return d->sms;
}

int kit_recover(void)
{
    cudaGetLastError();
    return cudaDeviceSynchronize() == cudaSuccess;
}
