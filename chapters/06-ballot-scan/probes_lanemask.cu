/* probes_lanemask.cu - the launchers of exercise ex06_lanemask's probes (lm_fwd_excl ..
 * lm_rev_excl, in 128-thread and 24 x 4 blocks; probes.cu's table lists them): the kernels, which
 * run the student's lane masks, are device code in probes_lanemask_dev.cu, loaded at first use by
 * their mangled names (reference/kit_dev.h); this file includes no student file. */
#include <stdio.h>

#include "probes.cuh"

/* lm_probe_kernel<OP, TBS, BX> of probes_lanemask_dev.cu */
extern "C" const unsigned char KIT_DEV_IMAGE(06_ballot_scan, probes_lanemask_dev)[];
template <int OP, int TBS, int BX>
static kit_dev_fn *lm_kernel()
{
    static char name[64];
    static kit_dev_fn fn = {KIT_DEV_IMAGE(06_ballot_scan, probes_lanemask_dev), name, 0};
    if (!name[0]) snprintf(name, sizeof name, "_Z15lm_probe_kernelILi%dELi%dELi%dEEv10probe_args", OP, TBS, BX);
    return &fn;
}

#define LM_PROBE(NAME, OP)                                                                       \
    static_assert(OP == BALLOT_OP_FWD_EXCL || OP == BALLOT_OP_FWD_INCL || OP == BALLOT_OP_REV_INCL || \
                      OP == BALLOT_OP_REV_EXCL,                                                  \
                  "a binary scan");                                                              \
    extern "C" cudaError_t ballot_probe_##NAME(const ballot_probe_in *in, uint32_t *out, size_t n,  \
                                               cudaStream_t s)                                   \
    {                                                                                            \
        return probe_launch_dev<128, 0>(lm_kernel<OP, 128, 0>(), in, out, n, s);                 \
    }                                                                                            \
    extern "C" cudaError_t ballot_probe_##NAME##_describe(kit_kernel_desc *d)                    \
    {                                                                                            \
        return probe_describe_dev<128>(lm_kernel<OP, 128, 0>(), d);                              \
    }                                                                                            \
    extern "C" cudaError_t ballot_probe_##NAME##_2d(const ballot_probe_in *in, uint32_t *out, size_t n, \
                                                    cudaStream_t s)                              \
    {                                                                                            \
        return probe_launch_dev<96, 24>(lm_kernel<OP, 96, 24>(), in, out, n, s);                 \
    }                                                                                            \
    extern "C" cudaError_t ballot_probe_##NAME##_2d_describe(kit_kernel_desc *d)                 \
    {                                                                                            \
        return probe_describe_dev<96>(lm_kernel<OP, 96, 24>(), d);                               \
    }
LM_PROBE(lm_fwd_excl, BALLOT_OP_FWD_EXCL)
LM_PROBE(lm_fwd_incl, BALLOT_OP_FWD_INCL)
LM_PROBE(lm_rev_incl, BALLOT_OP_REV_INCL)
LM_PROBE(lm_rev_excl, BALLOT_OP_REV_EXCL)
