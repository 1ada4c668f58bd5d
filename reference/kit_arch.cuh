/* kit_arch.cuh - what the architecture being compiled allows, for the compile-time knobs of the
 * .cu step files (CUDA C only).  The device pass of each -gencode target sees its own
 * __CUDA_ARCH__; the host pass sees none, and __launch_bounds__ is a device matter, so the host
 * answers are only there to keep the expressions well formed. */
#ifndef KIT_ARCH_CUH
#define KIT_ARCH_CUH

/* Resident threads per SM of the target: 1024 on Turing (sm_75), 1536 on sm_86, sm_89 and
 * sm_12x, 2048 on sm_80, sm_87, sm_90 and sm_10x (the CUDA C Programming Guide's table of compute
 * capabilities); 2048 on the host pass. */
static constexpr __host__ __device__ int kit_arch_threads_sm()
{
#if !defined(__CUDA_ARCH__)
    return 2048;
#elif __CUDA_ARCH__ < 800
    return 1024;
#elif __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200
    return 1536;
#else
    return 2048;
#endif
}

/* The minimum blocks per SM of __launch_bounds__(tbs, ...): want, but no more than the target can
 * hold (at least 1).  A bound past what an SM holds is ignored with a ptxas warning, and the
 * register budget it was meant to set is then lost; clamped, the budget is the target's best. */
static constexpr __host__ __device__ int kit_min_blocks(int tbs, int want)
{
    return want * tbs <= kit_arch_threads_sm() ? want
           : kit_arch_threads_sm() / tbs > 0   ? kit_arch_threads_sm() / tbs
                                                : 1;
}

#endif
