/* probes.cuh - what the probe files share (probes.cu, probes_lanemask.cu): a probe's arguments,
 * its launch and its describe function, and the entry points of exercise ex06_lanemask's probes,
 * which probes_lanemask.cu defines and probes.cu's table lists.  Nothing here may include
 * blocks/ballot_warp.cuh (probes_lanemask.cu compiles the exercise: see there). */
#ifndef BALLOT_PROBES_CUH
#define BALLOT_PROBES_CUH

#include "ballot.h"
#include "kit_cuda.cuh"

typedef struct probe_args {
    const uint8_t *flags, *heads;
    const uint32_t *vals;
    uint32_t *out;
    size_t n;
} probe_args;

/* the largest n of a probe (its table entry's max_n): one block per TBS elements */
#define PROBE_MAX_N(TBS) ((size_t)(TBS) * (size_t)INT_MAX)

/* Launch a probe kernel over n elements: one block per TBS elements, blocks of TBS threads (BX
 * = 0) or of BX x (TBS / BX) threads. */
template <int TBS, int BX>
static cudaError_t probe_launch(void (*kernel)(probe_args), const ballot_probe_in *in, uint32_t *out,
                                size_t n, cudaStream_t s)
{
    const probe_args a = {in->flags, in->heads, in->vals, out, n};
    if (n == 0) return cudaSuccess;
    if (n > PROBE_MAX_N(TBS)) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    const dim3 block = BX ? dim3(BX ? BX : 1, TBS / (BX ? BX : 1)) : dim3(TBS);
    kernel<<<kit_blocks_for(n, TBS), block, 0, s>>>(a);
    return cudaGetLastError();
}

template <int TBS>
static cudaError_t probe_describe(void (*kernel)(probe_args), kit_kernel_desc *d)
{
    d->func = (const void *)kernel;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* ex06_lanemask's probes (probes_lanemask.cu): NAME in 128-thread blocks, NAME_2d in 24 x 4 */
#define LM_PROBE_DECL(NAME)                                                                      \
    extern "C" cudaError_t ballot_probe_##NAME(const ballot_probe_in *in, uint32_t *out, size_t n,  \
                                               cudaStream_t s);                                  \
    extern "C" cudaError_t ballot_probe_##NAME##_describe(kit_kernel_desc *d);                   \
    extern "C" cudaError_t ballot_probe_##NAME##_2d(const ballot_probe_in *in, uint32_t *out, size_t n, \
                                                    cudaStream_t s);                             \
    extern "C" cudaError_t ballot_probe_##NAME##_2d_describe(kit_kernel_desc *d)
LM_PROBE_DECL(lm_fwd_excl);
LM_PROBE_DECL(lm_fwd_incl);
LM_PROBE_DECL(lm_rev_incl);
LM_PROBE_DECL(lm_rev_excl);

#endif
