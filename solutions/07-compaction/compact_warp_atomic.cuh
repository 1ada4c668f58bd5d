/* compact_warp_atomic.cuh - exercise ex07_warp_atomic (GPU): the warp-aggregated atomic of
 * Adinetz's "Optimized Filtering with Warp-Aggregated Atomics", the heart of s2_warp_atomic.
 *
 * Without it, every lane that wants a slot does its own atomicAdd(counter, 1): 32 atomics on
 * one word per warp when all want one, and they serialise.  With it, the warp votes first
 * (__ballot_sync), ONE lane - the leader, the lowest lane that wants a slot - reserves a block
 * of popc(votes) slots with a single atomicAdd, and broadcasts the block's base to the warp
 * with __shfl_sync; each wanting lane then takes base + (wanting lanes below it).
 *
 * Called by all 32 lanes of a full, converged warp (lanes with nothing to do pass false).
 * Returns, to a lane with want == true, a slot of *counter: the warp's wanting lanes get
 * consecutive slots base, base + 1, ... in lane order, and *counter advances by their number.
 * A lane with want == false gets an unspecified value; a warp where no lane wants a slot
 * leaves *counter alone (no atomic).  At most one atomicAdd per call and warp.
 *
 * Tools (blocks/ballot_lanes.cuh): BALLOT_FULL, ptx_laneid(), ptx_lanemask_lt(). */
#ifndef COMPACT_WARP_ATOMIC_CUH
#define COMPACT_WARP_ATOMIC_CUH

#include "blocks/ballot_lanes.cuh"

static __device__ __forceinline__ unsigned compact_warp_slot(unsigned *counter, bool want)
{
    // BEGIN SOLUTION
    // TODO: 1. votes = __ballot_sync(BALLOT_FULL, want); no votes: return (no atomic).
    // TODO: 2. leader = the lowest voting lane (__ffs(votes) - 1); only the leader calls
    // TODO:    atomicAdd(counter, popc(votes)) and keeps the old value: the warp's base.
    // TODO: 3. __shfl_sync(BALLOT_FULL, base, leader) gives every lane the base (all 32 lanes
    // TODO:    must execute the shuffle: keep it outside the leader's branch).
    // TODO: 4. return base + popc(votes & ptx_lanemask_lt()).
    // STUB: (void)counter; (void)want; return 0u;
    const unsigned votes = __ballot_sync(BALLOT_FULL, want);
    if (votes == 0) return 0u; /* warp-uniform: every lane sees the same votes */
    const unsigned leader = __ffs(votes) - 1;
    unsigned base = 0;
    if (ptx_laneid() == leader) base = atomicAdd(counter, (unsigned)__popc(votes));
    base = __shfl_sync(BALLOT_FULL, base, leader);
    return base + (unsigned)__popc(votes & ptx_lanemask_lt());
    // END SOLUTION
}

#endif
