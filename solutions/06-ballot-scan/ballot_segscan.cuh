/* ballot_segscan.cuh - exercise ex06_segscan: the forward inclusive binary segmented scan
 * of a warp, with one ballot for the predicates, one for the head flags and __clz.
 *
 * Called by all 32 lanes of a full warp.  p: this lane's predicate; head: this lane starts
 * a segment.  Lane 0 always starts one (segments never cross a warp).  Return the number
 * of true predicates from the first lane of my segment up to and including my lane.
 *
 * Use the lane-mask special registers through the kit's shared helpers (reference/blocks/ballot_lanes.cuh):
 * ptx_laneid(), ptx_lanemask_le(); __clz(x) counts the leading zero bits of x (32 for 0). */
#ifndef BALLOT_SEGSCAN_CUH
#define BALLOT_SEGSCAN_CUH

#include "blocks/ballot_lanes.cuh"

static __device__ __forceinline__ unsigned seg_incl(bool p, bool head)
{
    // BEGIN SOLUTION
    // TODO: 1. votes = __ballot_sync(0xFFFFFFFF, p); heads = __ballot_sync(0xFFFFFFFF, head) | 1
    // TODO:    (bit 0: lane 0 always starts a segment).
    // TODO: 2. The heads at or below my lane: heads & lanemask_le.  My segment starts at the
    // TODO:    highest of them: first = 31 - __clz(that).
    // TODO: 3. Keep the votes of lanes first .. lane: lanemask_le with the bits below
    // TODO:    `first` cleared; return their __popc.
    // STUB: (void)p; (void)head; return 0;
    const unsigned votes = __ballot_sync(BALLOT_FULL, p);
    const unsigned heads = __ballot_sync(BALLOT_FULL, head) | 1u;
    const unsigned le = ptx_lanemask_le();
    const unsigned first = 31u - __clz(heads & le); /* the segment's first lane */
    const unsigned seg = le & ~((1u << first) - 1u); /* lanes first .. lane */
    return __popc(votes & seg);
    // END SOLUTION
}

#endif
