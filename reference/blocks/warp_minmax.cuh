/* warp_minmax.cuh - the minimum and the maximum of a 32-bit unsigned value over a warp (CUDA C,
 * device code only; from chapter 03's GPU build, s6_gpu_build.cu).
 *
 * Called by all 32 lanes of a full warp (block sizes are multiples of 32, every lane reaches the
 * call), like the reductions of ballot_warp.cuh; every lane gets the result.
 *   sm_80 and later   __reduce_min_sync / __reduce_max_sync over the full mask: one REDUX each.
 *   earlier (sm_75)   those intrinsics do not exist: a butterfly of five __shfl_xor_sync steps
 *                     (offsets 16, 8, 4, 2, 1) over the same 32 lanes.  After the step of offset o
 *                     each lane holds the min (max) of the 2o lanes that agree with it in the bits
 *                     above o, so after offset 1 every lane holds that of all 32.  min and max are
 *                     exact, associative and commutative on integers, so the value is the
 *                     intrinsic's, bit for bit, whatever the order of combination.
 * The choice is made at compile time (__CUDA_ARCH__), per target of a multi-target build. */
#ifndef WARP_MINMAX_CUH
#define WARP_MINMAX_CUH

#include <stdint.h>

static __device__ __forceinline__ uint32_t warp_min_u32(uint32_t x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_min_sync(0xFFFFFFFFu, x);
#else
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x = min(x, (uint32_t)__shfl_xor_sync(0xFFFFFFFFu, x, off));
    return x;
#endif
}

static __device__ __forceinline__ uint32_t warp_max_u32(uint32_t x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_max_sync(0xFFFFFFFFu, x);
#else
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x = max(x, (uint32_t)__shfl_xor_sync(0xFFFFFFFFu, x, off));
    return x;
#endif
}

#endif
