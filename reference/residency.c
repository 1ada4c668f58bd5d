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
    if (fa.sharedSizeBytes >= d->smem_block_optin || need > d->smem_block_optin - fa.sharedSizeBytes) {
        kit_set_unsupported("a block needs %zu KB of shared memory; %s allows %zu KB",
                            (fa.sharedSizeBytes + need + 1023) / 1024, d->name, d->smem_block_optin / 1024);
        return cudaErrorInvalidConfiguration;
    }
    max_dyn = d->smem_block_optin - fa.sharedSizeBytes;
    KIT_TRY(kit_smem_optin(kernel, max_dyn));
    /* the largest padding that still lets R blocks in (padding 0 when R is the maximum) */
    b = d->smem_per_sm / (size_t)R;
    if (b > max_dyn) b = max_dyn;
    for (;;) {
        int per_sm = 0;
        const size_t at = b < need ? need : b; /* a block never gets less than it needs */
        KIT_TRY(kit_occupancy(&per_sm, kernel, threads, at));
        if (per_sm >= R) {
            b = at;
            break;
        }
        if (b < need + 256) { /* R blocks cannot fit */
            kit_set_unsupported("%d resident blocks of %d threads per SM do not fit an SM of %s", R, threads, d->name);
            return cudaErrorInvalidConfiguration;
        }
        b -= 256;
    }
    *bytes = b < need ? need : b;
    return cudaSuccess;
}
