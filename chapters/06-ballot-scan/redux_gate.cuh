/* redux_gate.cuh - the rows that exist to measure __reduce_add_sync (sm_80 and newer) run only
 * where their kernel has it.  Built for an older target (ARCH=compute_75, sm_75) or run under an
 * older device profile (KIT_DEVICE=t4), the warp reduction falls back to shuffles
 * (reference/blocks/ballot_warp.cuh), which would time something else under the redux name: such
 * a row is skipped with this reason instead (kit_unsupported). */
#ifndef REDUX_GATE_CUH
#define REDUX_GATE_CUH

#include "kit.h"

/* cudaSuccess when kernel's warp reductions are __reduce_add_sync on this device; asked once per
 * kernel (the answer cannot change within a process) */
template <class K>
static inline cudaError_t redux_gate(K *kernel)
{
    static int runs = -1;
    static char why[KIT_MSG];
    if (runs < 0) {
        const kit_device *d;
        struct cudaFuncAttributes fa;
        int arch;
        KIT_TRY(kit_device_get(&d));
        KIT_TRY(cudaFuncGetAttributes(&fa, (const void *)kernel));
        arch = fa.ptxVersion < d->cc_major * 10 + d->cc_minor ? fa.ptxVersion : d->cc_major * 10 + d->cc_minor;
        runs = arch >= 80;
        snprintf(why, sizeof why, "this row measures __reduce_add_sync, which needs sm_80 (kernel built for compute_%d, on %s)",
                 fa.ptxVersion, d->name);
    }
    if (runs) return cudaSuccess;
    kit_set_unsupported("%s", why);
    return cudaErrorInvalidValue;
}

#endif
