/* probes.cuh - what the probe files share (probes.cu, probes_lanemask.cu, probes_segscan.cu and
 * their *_dev.cu kernels): a probe's arguments, its launch and its describe function (for a kernel
 * of this translation unit, or one loaded by name: reference/kit_dev.h), and the entry points of
 * the exercises' probes (ex06_lanemask, ex06_segscan), which probes_lanemask.cu and
 * probes_segscan.cu define and probes.cu's table lists.  Nothing here may include
 * blocks/ballot_warp.cuh (probes_lanemask_dev.cu compiles the exercise: see there), nor a student
 * header. */
#ifndef BALLOT_PROBES_CUH
#define BALLOT_PROBES_CUH

#include "ballot.h"
#include "kit_cuda.cuh"
#include "kit_dev.h"

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

/* the same for a kernel loaded by name (the exercises' probes, device code only) */
template <int TBS, int BX>
static cudaError_t probe_launch_dev(kit_dev_fn *fn, const ballot_probe_in *in, uint32_t *out, size_t n,
                                    cudaStream_t s)
{
    probe_args a = {in->flags, in->heads, in->vals, out, n};
    const void *kernel;
    void *args[] = {(void *)&a};
    if (n == 0) return cudaSuccess;
    if (n > PROBE_MAX_N(TBS)) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    KIT_TRY(kit_dev_get(fn, &kernel));
    const dim3 block = BX ? dim3(BX ? BX : 1, TBS / (BX ? BX : 1)) : dim3(TBS);
    return kit_dev_launch(kernel, dim3(kit_blocks_for(n, TBS)), block, 0, s, args);
}

template <int TBS>
static cudaError_t probe_describe_dev(kit_dev_fn *fn, kit_kernel_desc *d)
{
    KIT_TRY(kit_dev_get(fn, &d->func));
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
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
/* ex06_segscan's probes (probes_segscan.cu): the same two shapes */
LM_PROBE_DECL(seg_incl);

#endif
