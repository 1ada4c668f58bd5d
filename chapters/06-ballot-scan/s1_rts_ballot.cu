/* s1 - the same reduce-then-scan with the binary primitives of Fermi (ballot_rts.cuh,
 * PRIM_BALLOT).
 * Changed versus s0: the count pass calls __syncthreads_count (one barrier, no shared
 * memory) instead of the 32-bit tree; the scan pass uses Listing 3.6's binary block scan:
 * a ballot and one POPC per warp replace the five-step 32-bit warp scan, and only the
 * (at most 16) warp counts go through a 32-bit warp scan in shared memory.
 * Why it is faster: fewer instructions and barriers per flag, less shared memory per block.
 * What still limits it: the same 6n bytes and narrow accesses as s0.  The gain over s0
 * is far larger than the few percent the documents report for large binary prefix sums:
 * s0's 32-bit primitives, not memory, bound it (README, "Reproduction").  Now memory,
 * not arithmetic, is the next thing to fix. */
#include "ballot_rts.cuh"

#define S1_TBS 512
#define S1_SUB 8

extern "C" size_t ballot_s1_scratch(size_t n)
{
    return rts_scratch<S1_TBS, S1_SUB>(n);
}

extern "C" cudaError_t ballot_s1_rts_ballot(const uint8_t *flags, uint32_t *offsets, size_t n,
                                            void *scratch, cudaStream_t s)
{
    return rts_run<S1_TBS, S1_SUB, PRIM_BALLOT>(flags, offsets, n, scratch, s);
}

KIT_DESCRIBE(ballot_s1_describe, (rts_offsets_kernel<S1_TBS, S1_SUB, PRIM_BALLOT>), S1_TBS, 0)
