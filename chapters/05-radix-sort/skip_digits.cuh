/* skip_digits.cuh - the tiles of steps s6 to s10 and the entry points each of them instantiates.
 * s6 gives s5's tiles the route (a pass whose digit every key shares is skipped, decided on the
 * GPU); s7 to s10 then change the tile of 4-byte keys sorted alone, one knob a step.  Pairs and
 * 8-byte keys keep s6's tiles from s6 on (README: the pairs and 64-bit ladders). */
#ifndef SKIP_DIGITS_CUH
#define SKIP_DIGITS_CUH

#include "onesweep.cuh"

/* s5's tiles of 4-byte pairs (384 x 31 staged, 384 x 23 where two of those blocks do not fit an SM)
 * and of 8-byte keys (512 x 12), with the route */
typedef os_cfg<384, 31, 8, RK_MATCH_BALLOT, true, 1, 0, false, OS_SKIP, RK_ST_GEN, OS_HIST_LANES, 0, OS_VSTAGE>
    s6_cfg_pairs;
typedef os_cfg<384, 23, 8, RK_MATCH_BALLOT, true, 1, 0, false, OS_SKIP, RK_ST_GEN> s6_cfg_pairs23;
typedef os_cfg<512, 16, 8, RK_MATCH_BALLOT, true, 4, 0, false, OS_SKIP, RK_ST_GEN> s6_cfg64;

/* The tile of 4-byte keys alone, steps s6 to s10: 384 threads x KPT keys, the registers budgeted
 * for MINB blocks an SM (0: os_minb), peers found by MATCH (s5's eight ballots, or the same ANDed
 * three at a time: RK_MATCH_LOP3), the look-back before the ranking by the block's last four warps
 * (LBFIRST), the first pass reserving its places by atomics (RESERVE).  Its fallback, where the GPU
 * grants a block less than the tile needs (Turing), is the same tile with 10 keys a thread; it
 * also serves pairs and 8-byte keys whose own tiles do not fit. */
template <int KPT, int MINB, int MATCH, bool LBFIRST, bool RESERVE>
using skip_keys_tile = os_cfg<384, KPT, 8, MATCH, true, 4, MINB, false, OS_SKIP, RK_ST_GEN, OS_HIST_LANES, 0,
                              OS_VEARLY, false, LBFIRST, LBFIRST ? 4 : 0, RESERVE>;

/* A step of s6 to s10: its keys tile C, the fallback F, and C2, a second keys tile for GPUs whose
 * SM cannot hold C's blocks at the occupancy its registers are budgeted for (C2 = C: none). */
template <class C, class F, class C2 = C>
struct skip_step {
    static size_t scratch(size_t n, int type, int pairs)
    {
        return os_scratch<C, F, s6_cfg_pairs, s6_cfg64, s6_cfg_pairs23, C2>(n, type, pairs);
    }
    static cudaError_t run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
    {
        return os_run<C, F, s6_cfg_pairs, s6_cfg64, s6_cfg_pairs23, C2>(keys_in, keys_out, vals_in, vals_out, n,
                                                                         type, begin_bit, end_bit, scratch, s);
    }
    static cudaError_t describe(kit_kernel_desc *d) { return os_describe<C, F, RADIX_U32, C2>(d); }
    /* the keys tile a sort of 4-byte keys alone runs on this GPU (os_choice) */
    template <int KT>
    static int choice()
    {
        return os_choice<KT, false, C, F, s6_cfg_pairs, s6_cfg64, s6_cfg_pairs23, C2>();
    }
};

/* s10's tiles (s11 runs them wherever its split does not): 384 x 28 with the registers held to three
 * blocks an SM where the GPU holds three, else 384 x 20, else 384 x 10 */
typedef skip_keys_tile<28, 3, RK_MATCH_LOP3, true, true> s10_cfg;
typedef skip_keys_tile<20, 0, RK_MATCH_LOP3, true, true> s10_cfg_mid;
typedef skip_keys_tile<10, 0, RK_MATCH_LOP3, true, true> s10_cfg_small;
typedef skip_step<s10_cfg, s10_cfg_small, s10_cfg_mid> s10_step;

#endif
