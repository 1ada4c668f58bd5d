/* device.c - is there a GPU, and what is it?  Queried once per process. */
#include "kit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KB 1024ull
#define MB (1024ull * 1024)
#define GB (1024ull * 1024 * 1024)

/* Published limits (CUDA C++ Programming Guide, compute capability table; the vendors' data
 * sheets for SMs, L2, memory and bandwidth).  smem_per_sm is the largest carveout, as
 * sharedMemPerMultiprocessor reports it; smem_block_optin as sharedMemPerBlockOptin does. */
const kit_profile kit_profiles[] = {
    /* name      GPU                   cc    SMs thr/SM blk/SM regs/SM smem/SM   optin/block L2         memory    GB/s */
    {"t4",      "Tesla T4",            7, 5, 40, 1024, 16, 65536, 64 * KB, 64 * KB, 4 * MB, 16 * GB, 320},
    {"a100",    "A100-SXM4-80GB",      8, 0, 108, 2048, 32, 65536, 164 * KB, 163 * KB, 40 * MB, 80 * GB, 2039},
    {"rtx3090", "GeForce RTX 3090",    8, 6, 82, 1536, 16, 65536, 100 * KB, 99 * KB, 6 * MB, 24 * GB, 936},
    {"l4",      "L4",                  8, 9, 58, 1536, 24, 65536, 100 * KB, 99 * KB, 48 * MB, 24 * GB, 300},
    {"rtx4090", "GeForce RTX 4090",    8, 9, 128, 1536, 24, 65536, 100 * KB, 99 * KB, 72 * MB, 24 * GB, 1008},
    {"h100",    "H100 SXM5 80GB",      9, 0, 132, 2048, 32, 65536, 228 * KB, 227 * KB, 50 * MB, 80 * GB, 3350},
    {"b200",    "B200",               10, 0, 148, 2048, 32, 65536, 228 * KB, 227 * KB, 126 * MB, 178 * GB, 7680},
};
const size_t kit_nprofiles = sizeof kit_profiles / sizeof kit_profiles[0];

const kit_profile *kit_profile_active(int *bad)
{
    const char *v = getenv("KIT_DEVICE");
    size_t i;
    if (bad) *bad = 0;
    if (!v || !*v) return NULL;
    for (i = 0; i < kit_nprofiles; i++)
        if (strcmp(v, kit_profiles[i].name) == 0) return &kit_profiles[i];
    if (bad) *bad = 1;
    return NULL;
}

static char g_unsupported[KIT_MSG];

const char *kit_unsupported(void)
{
    static char taken[KIT_MSG];
    if (!g_unsupported[0]) return NULL;
    memcpy(taken, g_unsupported, sizeof taken);
    g_unsupported[0] = '\0';
    return taken;
}

void kit_set_unsupported(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_unsupported, sizeof g_unsupported, fmt, ap);
    va_end(ap);
}

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
        d->regs_sm = p.regsPerMultiprocessor;
        {
            int bad = 0;
            const kit_profile *f = kit_profile_active(&bad);
            if (bad) return cudaErrorInvalidValue; /* the programs and tests say which names exist */
            if (f) {
#define KIT_CLAMP(field, v) \
    if ((v) < d->field) d->field = (v)
                KIT_CLAMP(sms, f->sms);
                KIT_CLAMP(max_threads_sm, f->max_threads_sm);
                KIT_CLAMP(max_blocks_sm, f->max_blocks_sm);
                KIT_CLAMP(regs_sm, f->regs_sm);
                KIT_CLAMP(l2_bytes, f->l2_bytes);
                KIT_CLAMP(gmem_bytes, f->gmem_bytes);
                KIT_CLAMP(smem_per_sm, f->smem_per_sm);
                KIT_CLAMP(smem_block_optin, f->smem_block_optin);
#undef KIT_CLAMP
                d->cc_major = f->cc_major;
                d->cc_minor = f->cc_minor;
                d->profile = f->name;
                snprintf(d->name, sizeof d->name, "%.160s as a %s (KIT_DEVICE=%s)", p.name, f->gpu, f->name);
            }
        }
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

cudaError_t kit_occupancy(int *per_sm, const void *kernel, int threads, size_t dyn_smem)
{
    const kit_device *d;
    struct cudaFuncAttributes fa;
    int n = 0, lim;
    size_t block_smem;
    *per_sm = 0;
    KIT_TRY(kit_device_get(&d));
    KIT_TRY(cudaFuncGetAttributes(&fa, kernel));
    if (fa.sharedSizeBytes + dyn_smem > d->smem_block_optin || threads < 1) return cudaSuccess; /* 0: no block fits */
    KIT_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, dyn_smem));
    if (!d->profile) {
        *per_sm = n;
        return cudaSuccess;
    }
    /* the profile's SM: threads (whole warps), blocks, shared memory (1 KB per block reserved from
     * Ampere on), registers (allocated per warp in units of 256) */
    lim = d->max_threads_sm / (((threads + 31) / 32) * 32);
    if (lim < n) n = lim;
    if (d->max_blocks_sm < n) n = d->max_blocks_sm;
    block_smem = kit_block_smem_on_sm(d, fa.sharedSizeBytes + dyn_smem);
    if (block_smem > 0 && (int)(d->smem_per_sm / block_smem) < n) n = (int)(d->smem_per_sm / block_smem);
    if (fa.numRegs > 0) {
        const int per_warp = ((fa.numRegs * 32 + 255) / 256) * 256;
        lim = d->regs_sm / (per_warp * ((threads + 31) / 32));
        if (lim < n) n = lim;
    }
    *per_sm = n > 0 ? n : 0;
    return cudaSuccess;
}

size_t kit_block_smem_on_sm(const kit_device *d, size_t block_smem)
{
    return block_smem + (d->cc_major >= 8 ? 1024 : 0);
}

cudaError_t kit_smem_optin(const void *kernel, size_t dyn_smem)
{
    const kit_device *d;
    struct cudaFuncAttributes fa;
    KIT_TRY(kit_device_get(&d));
    KIT_TRY(cudaFuncGetAttributes(&fa, kernel));
    if (fa.sharedSizeBytes + dyn_smem > d->smem_block_optin) {
        kit_set_unsupported("a block needs %zu KB of shared memory; %s allows %zu KB",
                            (fa.sharedSizeBytes + dyn_smem + 1023) / 1024, d->name, d->smem_block_optin / 1024);
        return cudaErrorInvalidValue;
    }
    /* the kernel's current limit (48 KB less its static shared memory, unless raised before) */
    if (dyn_smem <= (size_t)fa.maxDynamicSharedSizeBytes) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn_smem);
}
