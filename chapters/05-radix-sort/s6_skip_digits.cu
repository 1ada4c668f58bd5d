/* s6 - fewer passes where the keys allow it: a pass whose digit every key shares is not made.
 * Changed versus s5, five things.  Between the histogram kernel (which s5 already runs once
 * for every pass's digit counts) and the first pass, one block looks at each pass's row: when one
 * digit holds all n keys, a stable sort by that digit moves no key, so the pass is an identity and
 * is skipped.  The passes that remain alternate between the alternate buffer and the output so that
 * the last of them writes the output; when none remains the keys (and values) are copied.  All of
 * it is decided on the GPU (os_route_kernel writes each pass's route: run or not, source,
 * destination, epoch): the host launches every pass kernel as before and never waits for the
 * histogram; the blocks of a skipped pass read their route and leave.  The descriptors' epoch
 * follows the passes that run (their parity among them), not the pass number, so a pass after a
 * skipped one never takes the descriptors of the one before for published ones.  And in a pass of
 * 4-byte keys alone, a tile looks back before it ranks its keys, not after (os_cfg's LBFIRST): its
 * inclusive prefixes, which the tiles behind it wait for, are published a ranking earlier; four of the
 * block's twelve warps walk, two digits a lane, while the other eight rank (LBWARPS).  And where
 * keys alone are sorted on all their bits, the first pass that runs does not look back at all: keys
 * that share its digit need no order (equal keys are the same bits, and the later stable passes order
 * the others), so each tile takes its place for each digit by an atomic on the digit's cursor, which
 * the route kernel starts at the digit's start (os_reserve); no tile waits on the tiles before it.
 * And those keys' tiles rank with s5's ballots in fewer instructions (RK_MATCH_LOP3, radix_rank.cuh):
 * the eight ballots, each complemented where the lane's bit is 0, are ANDed three at a time (4 LOP3
 * where ptxas kept 7 two-input ANDs), and the leader adds its own rank among its peers + 1, which
 * every lane computes anyway, instead of a second POPC of the mask.  And those keys' tile is
 * larger where the GPU holds three of its blocks an SM: 384 x 28 keys instead of 384 x 20, with
 * its registers held to three blocks' share (skip_digits.cuh; s5's tile elsewhere).
 * Why it is faster: bytes, and for keys a shorter look-back chain (none in the first pass), fewer
 * instructions a ranked key, which is what bounds a pass (Nsight Compute), and fewer tiles: each
 * tile's fixed work (clearing and scanning the counters, the block scan, the barriers, publishing
 * and walking the descriptors) is shared by 40 % more keys, and the chain of inclusive prefixes has
 * 40 % fewer links.  A skipped pass saves its read
 * and write of every key (and value): 8 of the 36 bytes a 32-bit key costs s5 (histogram 4 + 4
 * passes x 8), 16 of the 68 a pair costs.  Keys
 * in a narrow range (range-256: one pass of four; range-64k: two), keys with constant bytes between
 * varying ones (gaps: two of four), 64-bit keys whose high half is zero, and identical keys (no
 * pass: a copy, 12 bytes a key) pay for the digits they have, not for the key's width.
 * The look-back first: H200, 2^28 keys, 4.39 ms against s5's 4.50 on uniform keys, 2-3 % on every
 * four-pass input (README: changes to the look-back); for pairs it was 8 % slower (their values
 * wait longer in registers or shared memory), so pairs keep s5's order.  Four walking warps instead
 * of the digits' eight owners: 1 % faster (low-entropy keys 4.35 ms against 4.39, uniform 4.34
 * against 4.39).  The first pass reserving: 1.6-2.8 % faster on the four-pass inputs (H200, 2^28,
 * each build against s5 in the same run: uniform keys 4.29 ms against 4.37 looking back; with a
 * 128-byte line a cursor, level with the 32-byte sector taken, low-entropy 4.26 against 4.38 and
 * f32-normal 4.22 against 4.31), once each digit's cursor had a sector of its own: the 256 side by
 * side in 1 KB put every tile's atomics on a few L2 slices, 2 % slower than looking back.  The
 * leaner ballots: 2.2-3.5 % faster (H200, 2^28, each build against s5 in the same run: low-entropy
 * keys 4.10 ms against 4.25, uniform 4.17 against 4.27, f32-normal 4.10 against 4.21).  The larger
 * tile: 6-9 % faster (H200, 2^28, each build timed against s5 in the same run; 384 x 28 against
 * 384 x 20: low-entropy 3.85 ms against 4.10, f32-normal 3.77 against 4.10, top-twins 3.58 against
 * 3.95; skip_digits.cuh has the sizes between).
 * What still limits it: uniform keys have no constant digit: they make s5's 4 passes of 8 bytes a
 * key (H100, 2^28, before the look-back moved: 4.79 ms for s5 and for s6, 68 % of the copy bandwidth
 * for 36 bytes a key).  Fewer passes for them need wider digits (three passes of 11 bits) or a
 * most-significant-digit split into buckets that finish on chip (Stehle & Jacobsen, SIGMOD 2017);
 * both rank as many bits as before and scatter shorter runs, which the stores must absorb.  The 11-bit passes are s5's
 * tuning rows: 28 bytes a key, but 6.92 ms against 4.72 on the H100 (1.8 times a pass's instructions).  A skipped pass still
 * launches its grid, whose blocks read the route and leave; the copy of identical keys costs a pass.
 * Pairs in s5's 384 x 31 staged tile: the route's pointers take registers s5's kernel does not hold,
 * and ptxas spills 3 words of s6's (none of s5's).  Uniform pairs: 8.51 ms against s5's 8.20 on the
 * H100, level on the H200 (6.71 / 6.72); 384 x 28 staged and swizzled, which spills nothing, took
 * 6.87 there and lost on the four other four-pass inputs too, so s6 keeps s5's tile. */
#include "skip_digits.cuh"

extern "C" const char radix_s6_param[] = "s5's tiles + constant digits skipped on the GPU; 4-byte keys alone in 384 x 28 "
                                         "where 3 blocks fit an SM, look back before ranking, AND their ballots "
                                         "three at a time";

extern "C" size_t radix_s6_skip_digits_scratch(size_t n, int type, int pairs)
{
    return os_scratch<s6_cfg, s6_cfg_small, s6_cfg_pairs, s6_cfg64, s6_cfg_pairs23, s6_cfg_mid>(n, type, pairs);
}

extern "C" cudaError_t radix_s6_skip_digits(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                            uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                            void *scratch, cudaStream_t s)
{
    return os_run<s6_cfg, s6_cfg_small, s6_cfg_pairs, s6_cfg64, s6_cfg_pairs23, s6_cfg_mid>(
        keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s6_describe(kit_kernel_desc *d)
{
    return os_describe<s6_cfg, s6_cfg_small, RADIX_U32, s6_cfg_mid>(d);
}
