/* residency.c - force a kernel down to R resident blocks per SM by giving each
 * block a share of the SM's shared memory it does not touch (the document's
 * TLP experiments: Brown Fig. 5.11 and the TRISH blocks-per-SM test). */
#include "kit.h"

cudaError_t kit_force_residency(const void *kernel, int threads, size_t need, int R, size_t *bytes)
{
    const kit_device *d;
    struct cudaFuncAttributes fa;
    size_t max_dyn, b;
    KIT_TRY(kit_device_get(&d));
    if (R < 1 || threads < 1) return cudaErrorInvalidValue;
    KIT_TRY(cudaFuncGetAttributes(&fa, kernel));
    /* static + dynamic shared memory of a block may not exceed the opt-in limit */
    if (fa.sharedSizeBytes >= d->smem_block_optin) return cudaErrorInvalidConfiguration;
    max_dyn = d->smem_block_optin - fa.sharedSizeBytes;
    if (need > max_dyn) return cudaErrorInvalidConfiguration;
    KIT_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)max_dyn));
    /* the largest padding that still lets R blocks in (padding 0 when R is the maximum) */
    b = d->smem_per_sm / (size_t)R;
    if (b > max_dyn) b = max_dyn;
    for (;;) {
        int per_sm = 0;
        KIT_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, b));
        if (per_sm >= R) break;
        if (b < need + 256) return cudaErrorInvalidConfiguration; /* R blocks cannot fit */
        b -= 256;
    }
    *bytes = b < need ? need : b;
    return cudaSuccess;
}
