/* s7 - the look-back before the ranking: a tile tells the tiles behind it its prefix sooner.
 * Changed versus s6: in a pass of 4-byte keys sorted alone, a tile looks back as soon as its digit
 * counts are scanned, before it ranks its keys, not after (os_tile's lookback_first): its inclusive
 * prefixes, which the tiles behind it wait for, are published a ranking earlier.  The block's last
 * four warps walk back for the 256 digits, two a lane, from the counts the digits' owners leave in
 * shared memory, while the other eight warps rank (walk_warps); the ranking then waits for the walk
 * only at the exchange's barrier.
 * Why it is faster: a pass's tiles form a chain, each waiting for the inclusive prefixes of the
 * tiles before it; s5's tile publishes its prefix after its ranking, so every link of the chain
 * holds a ranking's time.  Looking back first takes the ranking out of the link: a tile's walk
 * overlaps its own ranking, and its successors find a published prefix sooner.
 * What still limits it: every pass still waits on the chain, the first one too (s8 takes the first
 * pass off it); a pass is bound by its instructions a ranked key (s9) and each tile's fixed work
 * (s10).  Pairs keep s6's order: their values, waiting longer in registers or shared memory, made
 * that order slower for them (README: s7). */
#include "skip_digits.cuh"

/* the step's label, from its knobs */
RADIX_PARAM_DEF(radix_s7_param,
    "s6 + 4-byte keys alone look back before ranking (%d walk warps)",
    s7_keys_tile::walk_warps);

extern "C" size_t radix_s7_lookback_first_scratch(size_t n, int type, int pairs)
{
    return s7_step::scratch(n, type, pairs);
}

extern "C" cudaError_t radix_s7_lookback_first(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                               uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                               void *scratch, cudaStream_t s)
{
    return s7_step::run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s7_describe(kit_kernel_desc *d)
{
    return s7_step::describe(d);
}
