/* s1 - Block DASk copy (exercise ex01_block_dask).
 * Changed versus s0: one thread block per data block of NWORK*TBS words; each
 * thread copies NWORK words; warps own contiguous chunks of 32*NWORK words
 * (Warp-by-Warp BASk); the range check is decided once per data block
 * (a block entirely inside [0, n) checks nothing); addresses are one base
 * pointer per thread plus compile-time offsets (src[0], src[32], src[64] ...).
 * Why it is faster: 128-thread blocks fill the SMs, and the index arithmetic and
 * range checks are amortized over NWORK words.
 * What still limits it: the loop is kept rolled (#pragma unroll 1), so a thread
 * waits for each load before it issues the next: one 4-byte load in flight per
 * thread is not enough to cover DRAM latency. */
#include "copy.h"

/* Device code only: the build compiles this file with `nvcc -fatbin` (no host code of it
 * exists), and the kit's launcher (chapters/01-copy/s1_launch.c) finds the kernel by its
 * extern "C" name and launches it with one block of S1_TBS threads per data block of
 * S1_DBS words.  Keep the name, the parameters and the shape. */
#define S1_TBS COPY_S1_TBS     /* 128 threads */
#define S1_NWORK COPY_S1_NWORK /* 4 words each */
#define S1_DBS (S1_TBS * S1_NWORK) /* words per data block */

extern "C" __global__ void __launch_bounds__(S1_TBS) copy_block_dask_kernel(const uint32_t *in,
                                                                            uint32_t *out, size_t n)
{
    const unsigned lane = threadIdx.x & 31u; /* warpCol */
    const unsigned warp = threadIdx.x >> 5;  /* warpRow */
    // BEGIN SOLUTION
    // TODO: 1. block_base = first word of this block's data block (blockIdx.x * S1_DBS, as size_t).
    // TODO: 2. base = block_base + warp * 32 * S1_NWORK + lane; point src/dst at in + base, out + base.
    // TODO: 3. If the whole data block lies inside [0, n), copy src[32*k] to dst[32*k] for
    // TODO:    k = 0..S1_NWORK-1 with no test; otherwise test base + 32*k < n before each word.
    // TODO:    Keep the loops rolled with #pragma unroll 1 (the next step unrolls them).
    // STUB: (void)in; (void)out; (void)n; (void)lane; (void)warp;
    const size_t block_base = (size_t)blockIdx.x * S1_DBS;
    const size_t base = block_base + warp * (32u * S1_NWORK) + lane;
    const uint32_t *src = in + base;
    uint32_t *dst = out + base;
    if (block_base + S1_DBS <= n) { /* in range: no checks */
#pragma unroll 1
        for (int k = 0; k < S1_NWORK; k++) dst[32 * k] = src[32 * k];
    } else { /* overlaps the end: check each word */
#pragma unroll 1
        for (int k = 0; k < S1_NWORK; k++)
            if (base + 32u * k < n) dst[32 * k] = src[32 * k];
    }
    // END SOLUTION
}
