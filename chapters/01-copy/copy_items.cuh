/* copy_items.cuh - the per-thread body of a batched copy, introduced by step s3
 * and reused by s4 (Column DASk) and s5 (Row DASk).
 *
 * A thread owns NWORK words of a data block, 32 words apart (Warp-by-Warp BASk:
 * warp w owns the contiguous chunk [w*32*NWORK, (w+1)*32*NWORK) of the block).
 * It copies them in batches: BATCH loads into registers, then BATCH stores, so
 * BATCH independent loads are in flight before the first store has to wait.
 * BATCH == 1 interleaves loads and stores, which is what an unrolled loop gives
 * when the compiler may not move loads above stores (in and out may alias).
 *
 * RC selects the range checks, on the global word index of each item:
 * RC_NONE (the block is known to be inside the range), RC_LO (index >= lo),
 * RC_HI (index <= hi), RC_BOTH.  Bounds are inclusive. */
#ifndef COPY_ITEMS_CUH
#define COPY_ITEMS_CUH

#include <stdint.h>

enum { RC_NONE = 0, RC_LO = 1, RC_HI = 2, RC_BOTH = 3 };

/* offset of this thread's first item inside its data block */
template <int NWORK>
__device__ __forceinline__ unsigned copy_thread_offset()
{
    return (threadIdx.x >> 5) * (32u * NWORK) + (threadIdx.x & 31u);
}

/* src, dst point at this thread's first item; idx is its global word index */
template <int NWORK, int BATCH, int RC>
__device__ __forceinline__ void copy_items(const uint32_t *src, uint32_t *dst, size_t idx,
                                           size_t lo, size_t hi)
{
#pragma unroll
    for (int b = 0; b < NWORK; b += BATCH) {
        uint32_t v[BATCH];
#pragma unroll
        for (int k = 0; k < BATCH; k++) {
            const int item = b + k;
            const size_t i = idx + 32u * item;
            const bool in = item < NWORK && (!(RC & RC_LO) || i >= lo) && (!(RC & RC_HI) || i <= hi);
            if (in) v[k] = src[32 * item];
        }
#pragma unroll
        for (int k = 0; k < BATCH; k++) {
            const int item = b + k;
            const size_t i = idx + 32u * item;
            const bool in = item < NWORK && (!(RC & RC_LO) || i >= lo) && (!(RC & RC_HI) || i <= hi);
            if (in) dst[32 * item] = v[k];
        }
    }
}

#endif
