/* ballot_lanemask.cuh - exercise ex06_lanemask: the four warp binary prefix sums, with
 * lane masks computed from the lane index (the chapter's own primitives read them from the
 * PTX special registers %lanemask_lt/le/gt/ge instead; both must agree).
 *
 * Every function is called by all 32 lanes of a full warp; p is the lane's predicate.
 *   lm_lane()       this thread's lane (0..31) for ANY block shape: lanes are numbered by
 *                   the linear thread index x + y*Dx + z*Dx*Dy, not by threadIdx.x alone
 *                   (a 24 x 4 block has warps that span several rows of x).
 *   lm_mask_*(l)    bit i set for the lanes i <, <=, >, >= l.
 *   lm_fwd_excl(p)  number of true predicates in lanes below mine       (forward exclusive)
 *   lm_fwd_incl(p)  ... in lanes up to and including mine               (forward inclusive)
 *   lm_rev_incl(p)  ... in my lane and the lanes above it                (reverse inclusive)
 *   lm_rev_excl(p)  ... in the lanes above mine                          (reverse exclusive)
 * Mind the edges: a shift by 32 is undefined in C, and lane 31's "le" mask is all ones. */
#ifndef BALLOT_LANEMASK_CUH
#define BALLOT_LANEMASK_CUH

static __device__ __forceinline__ unsigned lm_lane()
{
    // BEGIN SOLUTION
    // TODO: the linear thread index (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z *
    // TODO: blockDim.x * blockDim.y), modulo 32.
    // STUB: return 0;
    const unsigned linear =
        threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    return linear & 31u;
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_mask_lt(unsigned lane)
{
    // BEGIN SOLUTION
    // TODO: bits 0 .. lane-1 set.
    // STUB: (void)lane; return 0;
    return (1u << lane) - 1u;
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_mask_le(unsigned lane)
{
    // BEGIN SOLUTION
    // TODO: bits 0 .. lane set (lane 31: all 32 bits).
    // STUB: (void)lane; return 0;
    return 0xFFFFFFFFu >> (31u - lane);
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_mask_gt(unsigned lane)
{
    // BEGIN SOLUTION
    // TODO: bits lane+1 .. 31 set (lane 31: none).
    // STUB: (void)lane; return 0;
    return ~lm_mask_le(lane);
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_mask_ge(unsigned lane)
{
    // BEGIN SOLUTION
    // TODO: bits lane .. 31 set.
    // STUB: (void)lane; return 0;
    return 0xFFFFFFFFu << lane;
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_fwd_excl(bool p)
{
    // BEGIN SOLUTION
    // TODO: one __ballot_sync over the whole warp (mask 0xFFFFFFFF), keep the bits of the
    // TODO: lanes below mine with lm_mask_lt(lm_lane()), count them with __popc.
    // STUB: (void)p; return 0;
    return __popc(__ballot_sync(0xFFFFFFFFu, p) & lm_mask_lt(lm_lane()));
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_fwd_incl(bool p)
{
    // BEGIN SOLUTION
    // TODO: as lm_fwd_excl, with the "le" mask.
    // STUB: (void)p; return 0;
    return __popc(__ballot_sync(0xFFFFFFFFu, p) & lm_mask_le(lm_lane()));
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_rev_incl(bool p)
{
    // BEGIN SOLUTION
    // TODO: the lanes from mine up: the "ge" mask.
    // STUB: (void)p; return 0;
    return __popc(__ballot_sync(0xFFFFFFFFu, p) & lm_mask_ge(lm_lane()));
    // END SOLUTION
}

static __device__ __forceinline__ unsigned lm_rev_excl(bool p)
{
    // BEGIN SOLUTION
    // TODO: the lanes above mine: the "gt" mask.
    // STUB: (void)p; return 0;
    return __popc(__ballot_sync(0xFFFFFFFFu, p) & lm_mask_gt(lm_lane()));
    // END SOLUTION
}

#endif
