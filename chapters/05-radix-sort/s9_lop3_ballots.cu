/* s9 - the same ballots in fewer instructions: a pass is bound by what it issues a key.
 * Changed versus s8: the tiles of 4-byte keys alone find each key's peers (the lanes of its warp
 * with the same digit) with s5's eight ballots, but AND them three at a time (RK_MATCH_LOP3,
 * radix_rank.cuh): each ballot is complemented where the lane's bit is 0 inside the LOP3 that ANDs
 * it, 4 LOP3 where ptxas kept 7 two-input ANDs; and the leader of a group of peers adds its own rank
 * among them + 1, which every lane computes anyway, to the digit's counter instead of a second POPC
 * of the mask.
 * Why it is faster: a pass of keys alone is bound by the SM's instructions, not by DRAM (Nsight
 * Compute: README, what a pass costs); the ranking is the largest share of them, and these are
 * instructions every key pays in every pass.
 * What still limits it: the rest of a ranked key's instructions (the branch around the leader's
 * atomic, the exchange through shared memory, the scatter) and each tile's fixed work: clearing
 * and scanning the counters, the block scan, the barriers, the descriptors (s10).  The other
 * tiles (pairs, 8-byte keys) keep s5's ranking. */
#include "skip_digits.cuh"

typedef skip_keys_tile<20, 0, RK_MATCH_LOP3, true, true> s9_cfg;
typedef skip_keys_tile<10, 0, RK_MATCH_LOP3, true, true> s9_cfg_small;
typedef skip_step<s9_cfg, s9_cfg_small> s9_step;

extern "C" const char radix_s9_param[] = "s8 + 4-byte keys alone AND their ballots three at a time (LOP3)";

extern "C" size_t radix_s9_lop3_ballots_scratch(size_t n, int type, int pairs)
{
    return s9_step::scratch(n, type, pairs);
}

extern "C" cudaError_t radix_s9_lop3_ballots(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                             uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                             void *scratch, cudaStream_t s)
{
    return s9_step::run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s9_describe(kit_kernel_desc *d)
{
    return s9_step::describe(d);
}
