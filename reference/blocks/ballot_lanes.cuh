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

/* ptx_NAME(): the special register %NAME, one mov */
#define BALLOT_SREG(name)                                        \
    static __device__ __forceinline__ unsigned ptx_##name()      \
    {                                                            \
        unsigned r;                                              \
        asm("mov.u32 %0, %%" #name ";" : "=r"(r));               \
        return r;                                                \
    }
BALLOT_SREG(laneid)      /* this thread's lane, 0 .. 31 */
BALLOT_SREG(lanemask_lt) /* the lanes below this one */
BALLOT_SREG(lanemask_le) /* ... and this one */
BALLOT_SREG(lanemask_gt) /* the lanes above this one */
BALLOT_SREG(lanemask_ge) /* ... and this one */
#undef BALLOT_SREG

#endif
