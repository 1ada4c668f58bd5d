/* s0 - device-wide binary prefix sum, the 2010 way: reduce-then-scan with 32-bit
 * primitives, one flag per thread per primitive call (kernels in ballot_rts.cuh).
 * Changed: nothing, this is the starting point.  Three kernels: (1) each block counts
 * the flags of its tile (8 sub-tiles of 512 flags) with a shared-memory tree reduction;
 * (2) one block scans the tile counts; (3) each block scans its tile again, sub-tile by
 * sub-tile, with a block scan built on 32-bit shared-memory warp scans (Listing 3.1, made
 * safe with __syncwarp), adds the tile's offset and writes.
 * Why it works: every pass reads and writes coalesced; the scan of 65536 tile counts
 * (at n = 2^28) is tiny.
 * What limits it: 6n bytes of traffic (the flags are read twice) where 5n are needed;
 * one-byte loads and four-byte stores (many instructions per byte); and 32-bit scans and
 * reductions - five dependent shared-memory steps per warp, two or more barriers per
 * call - spent on values that are a single bit. */
#include "ballot_rts.cuh"

#define S0_TBS 512
#define S0_SUB 8

extern "C" size_t ballot_s0_scratch(size_t n)
{
    return rts_scratch<S0_TBS, S0_SUB>(n);
}

extern "C" cudaError_t ballot_s0_rts32(const uint8_t *flags, uint32_t *offsets, size_t n,
                                       void *scratch, cudaStream_t s)
{
    return rts_run<S0_TBS, S0_SUB, PRIM_32BIT>(flags, offsets, n, scratch, s);
}

KIT_DESCRIBE(ballot_s0_describe, (rts_offsets_kernel<S0_TBS, S0_SUB, PRIM_32BIT>), S0_TBS, 0)
