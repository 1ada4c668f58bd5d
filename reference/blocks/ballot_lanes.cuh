/* ballot_lanes.cuh - the lane of a thread and the lane masks, read from the PTX special registers
 * %laneid and %lanemask_lt/le/gt/ge: one instruction each, right for any block shape (device code
 * only).  blocks/ballot_warp.cuh includes it and builds its scans on them.
 *
 * A header of its own so that the exercises that use these registers as tools
 * (ballot_segscan.cuh, compact_warp_atomic.cuh) see them without ballot_warp.cuh's binary scans,
 * which are exercise ex06_lanemask's answers (the computed masks) and part of ex07_warp_atomic's. */
#ifndef BALLOT_LANES_CUH
#define BALLOT_LANES_CUH

#define BALLOT_FULL 0xFFFFFFFFu

/* ---------------------------------------------------------- lane masks */

static __device__ __forceinline__ unsigned ptx_laneid()
{
    unsigned r;
    asm("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}
static __device__ __forceinline__ unsigned ptx_lanemask_lt()
{
    unsigned r;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
    return r;
}
static __device__ __forceinline__ unsigned ptx_lanemask_le()
{
    unsigned r;
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(r));
    return r;
}
static __device__ __forceinline__ unsigned ptx_lanemask_gt()
{
    unsigned r;
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(r));
    return r;
}
static __device__ __forceinline__ unsigned ptx_lanemask_ge()
{
    unsigned r;
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r));
    return r;
}

#endif
