/* skip_digits.cuh - the tiles of steps s6 to s10, each step's from the step before with one knob
 * changed, and the entry points each of those steps instantiates.  s6 gives s5's tiles the route (a
 * pass whose digit every key shares is skipped, decided on the GPU); s7 to s10 then change the tile
 * of 4-byte keys sorted alone, one knob a step.  Pairs and 8-byte keys keep s6's tiles from s6 on
 * (README: the pairs and 64-bit ladders). */
#ifndef SKIP_DIGITS_CUH
#define SKIP_DIGITS_CUH

#include "onesweep.cuh"

/* s6: s5's tiles with the route */
typedef os_with_route<s5_keys_tile, OS_ROUTE_SKIP> s6_keys_tile;
typedef os_with_route<s5_small_tile, OS_ROUTE_SKIP> s6_small_tile;
typedef os_with_route<s5_pairs_tile, OS_ROUTE_SKIP> s6_pairs_tile;
typedef os_with_route<s5_pairs23_tile, OS_ROUTE_SKIP> s6_pairs23_tile;
typedef os_with_route<s5_keys64_tile, OS_ROUTE_SKIP> s6_keys64_tile;
/* s7: keys alone look back before they rank, the block's last four warps walking */
typedef os_with_lookback_first<s6_keys_tile, 4> s7_keys_tile;
typedef os_with_lookback_first<s6_small_tile, 4> s7_small_tile;
/* s8: ... and their first pass on all bits takes its places by atomics */
typedef os_with_reserve<s7_keys_tile> s8_keys_tile;
typedef os_with_reserve<s7_small_tile> s8_small_tile;
/* s9: ... and they AND their ballots three at a time */
typedef os_with_peers<s8_keys_tile, RK_MATCH_LOP3> s9_keys_tile;
typedef os_with_peers<s8_small_tile, RK_MATCH_LOP3> s9_small_tile;
/* s10: ... in 384 x 28 with the registers held to three blocks an SM, where the GPU holds three;
 * else s9's 384 x 20 (the second tile), else 384 x 10.  ptxas spills nothing up to 28 keys a thread
 * in 56 registers, as the keys leave their registers one item at a time; os_minb would budget 64,
 * two blocks */
typedef os_with_blocks<os_with_shape<s9_keys_tile, 384, 28>, 3> s10_keys_tile;

/* A step of s6 to s10: its keys tile KeysTile, the fallback Fallback (where the GPU grants a block
 * less than a tile needs: Turing; it also serves pairs and 8-byte keys whose own tiles do not fit),
 * and KeysTile2, a second keys tile for GPUs whose SM cannot hold KeysTile's blocks at the
 * occupancy its registers are budgeted for (KeysTile2 = KeysTile: none). */
template <class KeysTile, class Fallback, class KeysTile2 = KeysTile>
struct skip_step {
    static size_t scratch(size_t n, int type, int pairs)
    {
        return os_scratch<KeysTile, Fallback, s6_pairs_tile, s6_keys64_tile, s6_pairs23_tile, KeysTile2>(n, type,
                                                                                                         pairs);
    }
    static cudaError_t run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
    {
        return os_run<KeysTile, Fallback, s6_pairs_tile, s6_keys64_tile, s6_pairs23_tile, KeysTile2>(
            keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    }
    static cudaError_t describe(kit_kernel_desc *d)
    {
        return os_describe<KeysTile, Fallback, RADIX_U32, KeysTile2>(d);
    }
    /* the keys tile a sort of 4-byte keys alone runs on this GPU (os_choice) */
    template <int KT>
    static int choice()
    {
        return os_choice<KT, false, KeysTile, Fallback, s6_pairs_tile, s6_keys64_tile, s6_pairs23_tile, KeysTile2>();
    }
};

typedef skip_step<s6_keys_tile, s6_small_tile> s6_step;
typedef skip_step<s7_keys_tile, s7_small_tile> s7_step;
typedef skip_step<s8_keys_tile, s8_small_tile> s8_step;
typedef skip_step<s9_keys_tile, s9_small_tile> s9_step;
typedef skip_step<s10_keys_tile, s9_small_tile, s9_keys_tile> s10_step;

#endif
