/* s10 - a larger tile for keys alone: each tile's fixed work shared by more keys.
 * Changed versus s9: the tile of 4-byte keys alone is 384 x 28 keys instead of 384 x 20 where the
 * GPU holds three of its blocks an SM, with its registers held to three blocks' share (os_tile's
 * blocks_per_sm = 3, 56 registers: ptxas spills nothing up to 28 keys a thread, as the keys leave their
 * registers one item at a time; os_minb would budget 64, two blocks).  Where an SM cannot hold three
 * such blocks (its shared memory: A100, the 100 KB GPUs) the sort takes s9's 384 x 20 (os_choice's
 * second tile), and where that does not fit, 384 x 10.
 * Why it is faster: fewer tiles.  Each tile's fixed work (clearing and scanning the counters, the
 * block scan, the barriers, publishing and walking the descriptors) is shared by two fifths more
 * keys, and the chain of inclusive prefixes has two sevenths fewer links.
 * What still limits it: uniform keys have no constant digit: they make s5's four passes of 8 bytes
 * a key.  Fewer passes for them need wider digits (three passes of 11 bits: s5's tuning rows, whose
 * passes issue far more instructions a key) or a most-significant-digit split into buckets that finish on
 * chip (s11).  Pairs keep s6's tiles: the route's pointers take registers s5's kernel does not
 * hold, and a larger pairs tile lost (README: what else we tried). */
#include "skip_digits.cuh"

/* the step's label, from its knobs */
RADIX_PARAM_DEF(radix_s10_param,
    "s9 + 4-byte keys alone in %d x %d where %d blocks fit an SM",
    s10_keys_tile::threads, s10_keys_tile::keys_per_thread, s10_keys_tile::blocks_per_sm);

extern "C" size_t radix_s10_wide_tile_scratch(size_t n, int type, int pairs)
{
    return s10_step::scratch(n, type, pairs);
}

extern "C" cudaError_t radix_s10_wide_tile(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                           uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                           void *scratch, cudaStream_t s)
{
    return s10_step::run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s10_describe(kit_kernel_desc *d)
{
    return s10_step::describe(d);
}
