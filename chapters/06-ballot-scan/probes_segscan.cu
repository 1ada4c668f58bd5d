/* probes_segscan.cu - the launchers of exercise ex06_segscan's probes (seg_incl in 128-thread
 * and 24 x 4 blocks; probes.cu's table lists them): the kernels, which run the student's
 * seg_incl, are device code in probes_segscan_dev.cu, loaded at first use by their mangled names
 * (reference/kit_dev.h); this file includes no student file. */
#include "probes.cuh"

/* seg_probe_kernel<128, 0> and <96, 24> of probes_segscan_dev.cu */
extern "C" const unsigned char KIT_DEV_IMAGE(06_ballot_scan, probes_segscan_dev)[];
static kit_dev_fn seg_1d = {KIT_DEV_IMAGE(06_ballot_scan, probes_segscan_dev),
                            "_Z16seg_probe_kernelILi128ELi0EEv10probe_args", 0};
static kit_dev_fn seg_2d = {KIT_DEV_IMAGE(06_ballot_scan, probes_segscan_dev),
                            "_Z16seg_probe_kernelILi96ELi24EEv10probe_args", 0};

extern "C" cudaError_t ballot_probe_seg_incl(const ballot_probe_in *in, uint32_t *out, size_t n, cudaStream_t s)
{
    return probe_launch_dev<128, 0>(&seg_1d, in, out, n, s);
}

extern "C" cudaError_t ballot_probe_seg_incl_describe(kit_kernel_desc *d)
{
    return probe_describe_dev<128>(&seg_1d, d);
}

extern "C" cudaError_t ballot_probe_seg_incl_2d(const ballot_probe_in *in, uint32_t *out, size_t n, cudaStream_t s)
{
    return probe_launch_dev<96, 24>(&seg_2d, in, out, n, s);
}

extern "C" cudaError_t ballot_probe_seg_incl_2d_describe(kit_kernel_desc *d)
{
    return probe_describe_dev<96>(&seg_2d, d);
}
