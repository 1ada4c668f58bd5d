/* probes_segscan_dev.cu - the probe kernel of exercise ex06_segscan: seg_incl
 * ($(IMPL)/06-ballot-scan/ballot_segscan.cuh) over an input array, element i to linear thread i
 * of the grid, as in probes.cu (threads past n take part with a 0 flag and no head, and write
 * nothing).  Device code only (the Makefile compiles *_dev.cu with nvcc -fatbin,
 * reference/kit_dev.h): the exercise's header reaches no host code.  Instantiated below in both
 * shapes; the launchers (probes_segscan.cu) find each by its mangled name. */
#include "ballot_segscan.cuh"

#include "probes.cuh"

/* BX: 0 for 1D blocks of TBS threads, else blocks of BX x (TBS / BX) */
template <int TBS, int BX>
__global__ void __launch_bounds__(TBS) seg_probe_kernel(probe_args a)
{
    const unsigned t = BX ? threadIdx.x + threadIdx.y * BX : threadIdx.x;
    const size_t i = (size_t)blockIdx.x * TBS + t;
    const bool valid = i < a.n;
    const bool p = valid && a.flags[i] != 0;
    const bool h = valid && a.heads[i] != 0;
    const unsigned r = seg_incl(p, h);
    if (valid) a.out[i] = r;
}

template __global__ void seg_probe_kernel<128, 0>(probe_args a);
template __global__ void seg_probe_kernel<96, 24>(probe_args a);
