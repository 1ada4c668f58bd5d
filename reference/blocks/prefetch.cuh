/* prefetch.cuh - ask L2 for a range of global memory ahead of its use (CUDA C, device code only).
 * First used by chapter 07's s9 (a block prefetches the tile that a block about one lifetime later
 * will load, so that DRAM keeps streaming while blocks wait on their look-back), then by chapter
 * 05's onesweep tuning rows (the same idea, measured there as a loss for sort).
 *
 * prefetch.global.L2 is a hint: it returns at once, fills no register and faults on nothing the
 * caller could not load, so every address asked for must lie inside the caller's array (the
 * range is clipped by the caller, and the lines are counted from its first element).  One
 * request per 128-byte line is enough: L2 fetches whole sectors of the line that holds the
 * address.  How far ahead to prefetch is the caller's choice; the kit takes it from the device at
 * run time (kit_prefetch_tiles, reference/kit_cuda.cuh). */
#ifndef BLOCKS_PREFETCH_CUH
#define BLOCKS_PREFETCH_CUH

#include <stddef.h>

/* threads 0 .. TBS-1 of the block ask L2 for the 128-byte lines of p[0 .. count), one line each in
 * turn (a thread past TBS that calls it asks again for lines of the range: harmless, and wasted) */
template <int TBS, class T>
static __device__ __forceinline__ void prefetch_l2_lines(const T *p, size_t count)
{
    static_assert(sizeof(T) <= 128 && 128 % sizeof(T) == 0, "whole elements per 128-byte line");
    constexpr size_t LINE = 128 / sizeof(T); /* elements per line */
    for (size_t i = (size_t)threadIdx.x * LINE; i < count; i += (size_t)TBS * LINE)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(p + i));
}

#endif
