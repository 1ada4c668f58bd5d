/* unique on the single-pass machinery (compact_single_pass.cuh): keep in[i] when i == 0 or
 * in[i] != in[i-1] (CUB's DeviceSelect::Unique), writing the kept values or their indices.
 * Versus s8 (whose shape and tile order it uses): the predicate looks at the predecessor.  Inside a thread's group of 4 it is a
 * register; for the group's first element it is lane - 1's last element (a shuffle up), for lane 0
 * lane 31's last element of the row before (a shuffle), and for the first element of each warp the
 * element before it, loaded from global memory by lane 0 together with the tile (the previous tile
 * or warp has it, so it usually hits in L2).  Threshold and flags are ignored; the mode's output bit
 * picks values or indices.
 * Traffic: 4n bytes read (+ one word per warp of 32 x items), 4 x kept written. */
#include "compact_single_pass.cuh"

extern "C" size_t compact_unique_single_pass_scratch(size_t n) { return sp_scratch<SP_S8>(n); }

extern "C" cudaError_t compact_unique_single_pass(const uint32_t *in, const uint8_t *flags,
                                                  uint64_t threshold, uint32_t *out, uint32_t *count,
                                                  size_t n, int mode, void *scratch, cudaStream_t s)
{
    return sp_run<SP_S8_RUN(SP_UNIQUE)>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" cudaError_t compact_unique_describe(kit_kernel_desc *d)
{
    return sp_describe<SP_S8_RUN(SP_UNIQUE)>(d);
}
