/* skip_digits.cuh - s6's configurations (s5's tiles, each with the route), shared by s6_skip_digits
 * and s7_msd_hybrid, which runs s6 wherever its split does not. */
#ifndef SKIP_DIGITS_CUH
#define SKIP_DIGITS_CUH

#include "onesweep.cuh"

/* s5's tiles (keys, the Turing-size fallback, 4-byte pairs staged, the older pairs tile
 * for SMs that cannot hold two of those, 8-byte keys), each with the route, and for keys alone a larger
 * tile first; the stores generic as in s5 (the loads are generic too: their pointers come from the
 * route).  The keys' tiles (s6_cfg, s6_cfg_mid, s6_cfg_small) look back before they rank (os_cfg's
 * LBFIRST, which acts on keys alone: a pairs sort that falls back to s6_cfg_small keeps the usual
 * order; 8-byte keys falling back to it, where s6_cfg64 does not fit, look back first), the block's
 * last four warps walking for the 256 digits, two a lane, while the eight others rank (LBWARPS); and
 * they AND their ballots three at a time (RK_MATCH_LOP3; the other tiles keep s5's ranking,
 * RK_MATCH_BALLOT).
 * The keys' tile is 384 x 28 (10752 keys, 56 KB of shared memory) with its registers budgeted for
 * three blocks an SM (56: ptxas spills nothing up to 28 keys a thread, as the keys leave their
 * registers one item at a time; os_minb would budget 64, two blocks).  Where an SM cannot hold three
 * such blocks (its shared memory: A100, the 100 KB GPUs), s5's 384 x 20 (os_choice's second tile),
 * and where that does not fit, 384 x 10.  H200, 2^28 keys, each tile against s5 in the same run:
 * low-entropy 3.85 ms (384 x 20: 4.10; 22: 4.01; 24: 3.92; 26: 3.85), f32-normal 3.77 (4.10),
 * top-twins 3.58 (3.95); 30 keys a thread spill. */
template <int KPT, int MINB = 0>
using s6_keys_cfg =
    os_cfg<384, KPT, 8, RK_MATCH_LOP3, true, 4, MINB, false, OS_SKIP, RK_ST_GEN, OS_HIST_LANES, 0, OS_VEARLY, false,
           true, 4>;
typedef s6_keys_cfg<28, 3> s6_cfg;
typedef s6_keys_cfg<20> s6_cfg_mid;
typedef s6_keys_cfg<10> s6_cfg_small;
typedef os_cfg<384, 31, 8, RK_MATCH_BALLOT, true, 1, 0, false, OS_SKIP, RK_ST_GEN, OS_HIST_LANES, 0, OS_VSTAGE>
    s6_cfg_pairs;
typedef os_cfg<384, 23, 8, RK_MATCH_BALLOT, true, 1, 0, false, OS_SKIP, RK_ST_GEN> s6_cfg_pairs23;
typedef os_cfg<512, 16, 8, RK_MATCH_BALLOT, true, 4, 0, false, OS_SKIP, RK_ST_GEN> s6_cfg64;

#endif
