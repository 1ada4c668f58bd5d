/* s8 - s6's kernel with the tile taken from blockIdx.x, 8 warps of 24 elements each, and registers
 * capped so that 6 blocks fit on an SM: the step that reaches CUB for value output.
 * Changed versus s6 (s7's persistent loop is dropped again): no ticket, so no atomic round trip and no
 * block barrier before the first load; 256 threads x 24 items (6 x 16-byte loads per thread, the same
 * 6144-element tile as s6's 384 x 16); __launch_bounds__(256, 6), which holds value output to 40
 * registers, 4 bytes spilled (6 x 8 warps resident, where s6's 39 registers at 384 threads leave room for 4 x 12).
 * Why it is faster: every block starts loading at once instead of after its ticket, a third more
 * loads are in flight per warp, and a barrier involves 8 warps instead of 12.  The tuning table
 * (the single_pass experiment, the README's section s8) measures each of the three changes.
 * The price: blockIdx order is safe only because the GPU starts blocks in increasing index order, so a
 * block that waits on a lower tile waits on a block that has started.  The CUDA programming model does
 * not promise that order (CUB's single-pass kernels rely on it all the same); s6's ticket needs no
 * such assumption.
 * What still limits it: the look-back is still a chain (a tile waits for its slowest recent
 * predecessor to publish), and a block holds its registers while it waits; at p = 0, with nothing to
 * write, it reads slower than s1, which never waits. */
#include "compact_single_pass.cuh"

extern "C" const char compact_s8_param[] = "tbs=256 items=24 (6 x 16-byte loads) tile=blockIdx blocks/SM=6 (launch bounds)";

extern "C" size_t compact_s8_block_order_scratch(size_t n) { return sp_scratch<SP_S8>(n); }

extern "C" cudaError_t compact_s8_block_order(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                              uint32_t *out, uint32_t *count, size_t n, int mode,
                                              void *scratch, cudaStream_t s)
{
    return sp_run<SP_S8_RUN(SP_SELECT)>(in, flags, threshold, out, count, n, mode,
                                                                      scratch, s);
}

extern "C" cudaError_t compact_s8_describe(kit_kernel_desc *d)
{
    return sp_describe<SP_S8_RUN(SP_SELECT)>(d);
}
