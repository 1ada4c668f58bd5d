/* partition on the single-pass machinery (compact_single_pass.cuh): out[0..c) = the selected
 * elements in input order, out[c..n) = the rejected ones in reverse input order from out[n-1] down
 * (CUB's DevicePartition::If / Flagged layout).
 * Versus s8: the same tile, ranking and look-back of selected counts; a rejected element's place
 * needs no second scan - the rejected elements before a tile are the tile's first index minus the
 * selected ones before it - so one look-back serves both ends.  The tile stages its selected
 * elements then its valid rejected ones in shared memory, and writes both runs with coalesced stores
 * (the rejected run toward lower addresses).
 * Traffic: 4n bytes read, 4n written, whatever p.  What limits it: as s8, with every element
 * written (so the output stores are the larger half of the traffic). */
#include "compact_single_pass.cuh"

extern "C" size_t compact_partition_single_pass_scratch(size_t n)
{
    return sp_scratch<SP_S8>(n);
}

extern "C" cudaError_t compact_partition_single_pass(const uint32_t *in, const uint8_t *flags,
                                                     uint64_t threshold, uint32_t *out, uint32_t *count,
                                                     size_t n, int mode, void *scratch, cudaStream_t s)
{
    return sp_run<SP_S8_RUN(SP_PARTITION)>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" cudaError_t compact_partition_describe(kit_kernel_desc *d)
{
    return sp_describe<SP_S8_RUN(SP_PARTITION)>(d);
}
