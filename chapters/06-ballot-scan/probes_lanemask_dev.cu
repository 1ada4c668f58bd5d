/* probes_lanemask_dev.cu - the probe kernels of exercise ex06_lanemask (lm_fwd_excl .. lm_rev_excl, in
 * 128-thread and 24 x 4 blocks; probes.cu's table lists them), in a translation unit of their own.
 * The exercise computes the lane masks that blocks/ballot_warp.cuh reads from %lanemask_*, and
 * that header's warp_bin_* are the four scans it asks for: had this file included it, even after
 * ballot_lanemask.cuh, a forward declaration in the exercise would reach those definitions.  So
 * nothing here includes it (nor blocks/ballot_block.cuh, nor ballot_segscan.cuh).  Element i goes
 * to linear thread i of the grid, as in probes.cu.  Device code only (the Makefile compiles *_dev.cu
 * with nvcc -fatbin, reference/kit_dev.h): the exercise's header reaches no host code.  The kernel
 * template is instantiated below for the four scans in both shapes; the launchers
 * (probes_lanemask.cu) find each by its mangled name (the Itanium C++ ABI's). */
#include "ballot_lanemask.cuh"

#include "probes.cuh"

template <int OP, int TBS, int BX>
__global__ void __launch_bounds__(TBS) lm_probe_kernel(probe_args a)
{
    const unsigned t = BX ? threadIdx.x + threadIdx.y * BX : threadIdx.x;
    const size_t i = (size_t)blockIdx.x * TBS + t;
    const bool valid = i < a.n;
    const bool p = valid && a.flags[i] != 0;
    unsigned r;
    if constexpr (OP == BALLOT_OP_FWD_EXCL) r = lm_fwd_excl(p);
    else if constexpr (OP == BALLOT_OP_FWD_INCL) r = lm_fwd_incl(p);
    else if constexpr (OP == BALLOT_OP_REV_INCL) r = lm_rev_incl(p);
    else r = lm_rev_excl(p);
    if (valid) a.out[i] = r;
}

#define LM_INST(OP) template __global__ void lm_probe_kernel<OP, 128, 0>(probe_args a); \
                    template __global__ void lm_probe_kernel<OP, 96, 24>(probe_args a);
LM_INST(BALLOT_OP_FWD_EXCL)
LM_INST(BALLOT_OP_FWD_INCL)
LM_INST(BALLOT_OP_REV_INCL)
LM_INST(BALLOT_OP_REV_EXCL)
