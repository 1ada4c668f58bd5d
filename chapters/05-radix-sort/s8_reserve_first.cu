/* s8 - the first pass takes its places by atomics: no look-back at all where no order is needed.
 * Changed versus s7: where keys alone are sorted on all their bits, the first pass that runs does
 * not look back: keys that share its digit need no order among themselves (equal keys are the same
 * bits, and the later stable passes order the others by their other digits), so each tile takes its
 * place for each digit by one atomic add on the digit's cursor (os_reserve), which the route kernel
 * starts at the digit's start.  Each cursor has a 32-byte sector of its own (OS_CURSOR_STRIDE):
 * side by side, the 256 cursors would put every tile's atomics on a few L2 slices.
 * Why it is faster: no tile of that pass waits on the tiles before it; its atomics' round trip
 * overlaps the ranking, as s7's walk does, but is one round trip, not a walk.
 * What still limits it: the passes after the first still look back; a sort of a bit range, or of
 * pairs, needs every pass stable and looks back in all of them (README: s8).  The ranking's
 * instructions (s9) and each tile's fixed work (s10) are unchanged. */
#include "skip_digits.cuh"

typedef skip_keys_tile<20, 0, RK_MATCH_BALLOT, true, true> s8_cfg;
typedef skip_keys_tile<10, 0, RK_MATCH_BALLOT, true, true> s8_cfg_small;
typedef skip_step<s8_cfg, s8_cfg_small> s8_step;

extern "C" const char radix_s8_param[] = "s7 + keys alone on all bits: the first pass reserves by atomics";

extern "C" size_t radix_s8_reserve_first_scratch(size_t n, int type, int pairs)
{
    return s8_step::scratch(n, type, pairs);
}

extern "C" cudaError_t radix_s8_reserve_first(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                              uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                              void *scratch, cudaStream_t s)
{
    return s8_step::run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s8_describe(kit_kernel_desc *d)
{
    return s8_step::describe(d);
}
