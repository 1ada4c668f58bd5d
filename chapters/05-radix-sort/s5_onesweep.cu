/* s5 - Onesweep (Adinets & Merrill, 2022): one histogram kernel for all passes, then ONE kernel per
 * pass whose tiles find their global offsets by decoupled look-back (CUB's DeviceRadixSort design).
 * Changed versus s4:
 *   - one upfront kernel reads the keys once and counts the digits of ALL passes (per-block
 *     shared-memory histograms, atomically added to a global [passes][256] table); a tiny kernel
 *     scans each pass's row: every digit's global start, per pass, before the first pass runs.  The
 *     block's table has a copy of every counter per lane (chapter 04's s7_runs), so that a warp's
 *     atomic is one shared-memory pass on any keys (one table a block, CUB's way, is bound by its
 *     bank conflicts: the tuning table's hist=1 row);
 *   - per pass a single kernel: a block takes the next tile number from an atomic counter (every tile
 *     it waits for belongs to a block that is already running), loads its keys warp-striped and
 *     counts them first (per-warp shared-memory histograms: "early counts"); thread d publishes the
 *     tile's count of digit d at once (descriptor AGGREGATE), so successors can look past this tile
 *     while it is still ranking; it ranks the tile as s4 does but on counters that already hold
 *     (digit start + warp prefix), so a rank is final when the warp match produces it; the keys go to
 *     their tile positions in shared memory, and only then does thread d look back over the
 *     predecessors' descriptors of digit d (4 per round trip: the nearest INCLUSIVE one ends the walk,
 *     AGGREGATEs on the way are added) and publish the tile's inclusive prefix.  Keys and values are
 *     written out as in s4:
 *     out[digit start + exclusive prefix + (position - tile digit start)];
 *   - the counters have their own shared memory (not the exchange buffer's), so a rank is used the
 *     moment it is made: no rank array, and 4-byte keys fit 56 registers (three blocks of 384 per SM);
 *     the values of pairs are loaded with the keys and stored with them;
 *   - peers are found with 8 ballots instead of __match_any_sync (CUB measured the match instruction
 *     slower for few bits; the tuning table has both); a full tile whose keys all share one digit
 *     skips the ranking and copies its keys straight to their place (sorted or few-distinct inputs:
 *     their upper digits);
 *   - the scatter's stores are generic, not global (os_ladder below).
 * Why it is faster: 2n key traffic per pass (+ n once for the histogram) instead of 3n; one launch per
 * pass instead of three; no count table written, scanned and read.
 * What still limits it: the SM's work, not DRAM: the instructions a pass issues a ranked key, each
 * tile's fixed work (counts, scans, barriers, look-back, exchange), and the look-back's chain of L2
 * round trips when a tile's predecessors are late (README: s5, and s6 to s10, which take these
 * apart one at a time).  s5 keeps the order of Onesweep's paper and CUB: rank, then look back.
 * Descriptors: one per (tile, digit), 32 bits: kind (aggregate / inclusive) in bits 31:30, the pass
 * parity ("epoch") in bit 29, a 29-bit count in bits 28:0.  64-bit descriptors (status + 32-bit count)
 * would cost 2 KB per tile of 30 KB of keys; 32-bit ones halve that (1 KB per 7680 keys, a thirtieth
 * of the key bytes, written twice per pass and read mostly from L2).  A count must fit in 29 bits, so
 * the keys are sorted in portions of at most 2^29 - 1 keys (one launch per portion and pass; 1
 * portion up to n = 536 M): each portion has its own descriptors and tile counter, and its last tile
 * hands the next portion the digits' starts (start + its inclusive counts).  The epoch bit spares the
 * per-pass clearing: pass p writes every descriptor of its portions (all 256 digits, also those a
 * narrower last digit cannot have) with epoch p & 1, and a reader takes a descriptor of the other
 * epoch for "not yet published"; so the descriptors, the counters and the histogram are cleared by
 * ONE cudaMemsetAsync per sort, not one per pass.
 * Alignment and limits (radix.h): keys at any 4-byte (u64: 8-byte) address, values at any 4-byte
 * address: scalar coalesced accesses only; all four key types, keys only and pairs; n <= RADIX_MAX_N
 * (counts and global positions are 32-bit: exact for n < 2^32; pointers are offset in 64 bits). */
#include "onesweep.cuh"

/* the ladder step: CUB's sm_90 tile for 4-byte keys (384 threads x 20 keys; 15 for 8-byte keys), 8-bit
 * digits, ballot peers, early counts, 4-wide look-back, three blocks per SM for 4-byte keys only, the
 * scatter's stores generic (radix_onesweep_variants has the alternatives; README: what else we tried).
 * The stores: the scatter writes 20 keys per thread to addresses that only the ranking knows.
 * Written as global stores (STG, what the compiler emits for a kernel's pointer argument) they
 * stalled the warps on the memory-instruction queue (Nsight Compute: "MIO throttle" and "drain");
 * the same stores through a pointer the compiler cannot place (rk_opaque: generic ST) did not, for
 * the same DRAM bytes.  It is measured, not documented: the onesweep table keeps the global stores
 * as a row. */
#define OS_MEM RK_ST_GEN
typedef os_cfg<384, 20, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, OS_MEM> os_ladder;
/* Its blocks need up to 89 KB of shared memory (64-bit keys with values, in os_ladder64's tile below).
 * Where the GPU grants less per block than a sort's tile needs (Turing: 64 KB; the 4-byte keys alone
 * take 43 KB, 64-bit keys 65 KB) the ladder step takes this tile, 384 x 10 keys (u64: 7), at most 46 KB:
 * within the 48 KB every CUDA GPU grants without opting in, two blocks of 4-byte keys per Turing SM.
 * The choice is made per key type and pairs at run time (radix_block_fits), the same one for the
 * scratch size and the run.  The tuning rows have no such fallback: where they do not fit they are
 * skipped with the reason. */
typedef os_cfg<384, 10, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, OS_MEM> os_ladder_small;
/* 4-byte keys with values: 384 x 31, the values staged in shared memory by cp.async as the keys load
 * (OS_VSTAGE: in no register through the ranking, so 31 pairs a thread fit the 80 registers of two
 * blocks an SM), a look-back window of 1; 106 KB of shared memory a block.  The tile is odd on
 * purpose: in an even tile the ranks of sorted pairs, in runs a multiple of 32 words apart, store
 * into the same banks (8-way in a CPU replay of the exchange); the odd tile beat swizzling the slots
 * (the SWZ rows; onesweep_pairs_sorted.csv).
 * Where an SM cannot hold two of its blocks (A100: 164 KB; sm_86 and sm_89: 100 KB) the sort takes
 * CUB's sm_90 pairs tile, 384 x 23 with the values in registers (82 KB), and the small tile where
 * that does not fit either (os_choice). */
typedef os_cfg<384, 31, 8, RK_MATCH_BALLOT, true, 1, 0, false, false, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE>
    os_ladder_pairs;
typedef os_cfg<384, 23, 8, RK_MATCH_BALLOT, true, 1, 0, false, false, OS_MEM> os_ladder_pairs23;
/* 8-byte keys (keys only and pairs): 512 x 12, two blocks an SM (1024 threads, 64 registers), where
 * 384 x 15 (the 4-byte tile's shape) holds 80 registers a thread and two blocks, 768 threads (the
 * radix64-onesweep table has both, and the other tiles and register budgets tried). */
typedef os_cfg<512, 16, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, OS_MEM> os_ladder64;
extern "C" const char radix_s5_param[] = "tbs=384 kpt=20 (4-byte pairs: 31, values staged; 23 where two "
                                         "such blocks do not fit an SM; u64: 512 x 12; kpt=10 where a "
                                         "block gets less than its tile needs) bits=8 match=ballot counts=early "
                                         "lookback=4 (4-byte pairs: 1) stores=generic hist=lane copies";

extern "C" size_t radix_s5_onesweep_scratch(size_t n, int type, int pairs)
{
    return os_scratch<os_ladder, os_ladder_small, os_ladder_pairs, os_ladder64, os_ladder_pairs23>(n, type, pairs);
}

extern "C" cudaError_t radix_s5_onesweep(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                         uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                         void *scratch, cudaStream_t s)
{
    return os_run<os_ladder, os_ladder_small, os_ladder_pairs, os_ladder64, os_ladder_pairs23>(
        keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s5_describe(kit_kernel_desc *d)
{
    return os_describe<os_ladder, os_ladder_small>(d);
}

/* ---- tuning table: the ladder step, then one knob changed per row (each row's 4-byte pairs in its
 * keys' tile unless it says "(pairs: K)"): look-back window (16, and CUB's one at a time), register
 * budget (two blocks of 384 per SM instead of three), block size (256, 512), peers by
 * __match_any_sync or a shared-memory OR, persistent blocks, counts after the ranking (s4's order),
 * and the pairs' tile and window */
#define OS_FILE "chapters/05-radix-sort/s5_onesweep.cu"
#define OS_ROWX(T, K, B, M, E, W, MB, P, MN, EN, XN)                                                   \
    {{"s5_onesweep",                                                                                   \
      "tbs=" #T " kpt=" #K " bits=" #B " match=" MN " counts=" EN " lookback=" #W XN,                  \
      "one histogram kernel, one look-back kernel per pass", OS_FILE, NULL, KIT_STEP_GPU,              \
      os_describe<os_cfg<T, K, B, M, E, W, MB, P, false, OS_MEM>>, 0, 0},                               \
     os_scratch<os_cfg<T, K, B, M, E, W, MB, P, false, OS_MEM>>,                                       \
     os_run<os_cfg<T, K, B, M, E, W, MB, P, false, OS_MEM>>, RADIX_TYPES_ALL, B}
#define OS_ROW(T, K, B, M, E, W, MB, MN, EN, XN) OS_ROWX(T, K, B, M, E, W, MB, false, MN, EN, XN)
/* the ladder step's keys tile, 4-byte pairs in tiles of 384 x KP with a look-back window of W, the
 * keys' and values' memory path MEM (RK_LD_* | RK_ST_*, named by XN) */
#define OS_ROWPMFVS(KP, W, MEM, HC, PF, VL, SW, XN)                                                   \
    {{"s5_onesweep", "tbs=384 kpt=20 (pairs: " #KP ") bits=8 match=ballot counts=early lookback=4"    \
                     " (pairs: " #W ")" XN,                                                            \
      "one histogram kernel, one look-back kernel per pass", OS_FILE, NULL, KIT_STEP_GPU,              \
      os_describe<os_cfg<384, 20, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, MEM, HC, PF, OS_VEARLY, SW>>, \
      0, 0},                                                                                           \
     os_scratch<os_cfg<384, 20, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, MEM, HC, PF, OS_VEARLY, SW>, \
                os_cfg<384, 20, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, MEM, HC, PF, OS_VEARLY, SW>, \
                os_cfg<384, KP, 8, RK_MATCH_BALLOT, true, W, 0, false, false, MEM, HC, PF, VL, SW>>,    \
     os_run<os_cfg<384, 20, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, MEM, HC, PF, OS_VEARLY, SW>,     \
            os_cfg<384, 20, 8, RK_MATCH_BALLOT, true, 4, 0, false, false, MEM, HC, PF, OS_VEARLY, SW>,     \
            os_cfg<384, KP, 8, RK_MATCH_BALLOT, true, W, 0, false, false, MEM, HC, PF, VL, SW>>,        \
     RADIX_TYPES_ALL, 8}
#define OS_ROWPMFV(KP, W, MEM, HC, PF, VL, XN) OS_ROWPMFVS(KP, W, MEM, HC, PF, VL, false, XN)
#define OS_ROWPMF(KP, W, MEM, HC, PF, XN) OS_ROWPMFV(KP, W, MEM, HC, PF, OS_VEARLY, XN)
#define OS_ROWPMH(KP, W, MEM, HC, XN) OS_ROWPMF(KP, W, MEM, HC, 0, XN)
#define OS_ROWPM(KP, W, MEM, XN) OS_ROWPMH(KP, W, MEM, OS_HIST_LANES, XN)
#define OS_B RK_MATCH_BALLOT

extern "C" const radix_step radix_onesweep_variants[RADIX_ONESWEEP_NVARIANTS] = {
    OS_ROWPM(23, 1, OS_MEM, " stores=generic"), /* the ladder step (without its small-tile fallback) */
    /* one knob changed per row (the rest as the ladder step, the stores generic too) */
    OS_ROW(384, 20, 8, OS_B, true, 16, 0, "ballot", "early", ""),
    OS_ROW(384, 20, 8, OS_B, true, 1, 0, "ballot", "early", ""),
    OS_ROW(384, 20, 8, OS_B, true, 4, 2, "ballot", "early", " blocks/SM=2"),
    OS_ROW(256, 20, 8, OS_B, true, 4, 0, "ballot", "early", ""),
    OS_ROW(512, 16, 8, OS_B, true, 4, 0, "ballot", "early", ""),
    OS_ROW(384, 20, 8, RK_MATCH_ANY, true, 4, 0, "any", "early", ""),
    OS_ROW(384, 20, 8, RK_MATCH_OR, true, 4, 0, "or", "early", ""),
    OS_ROW(384, 20, 8, RK_MATCH_OR, true, 4, 2, "or", "early", " blocks/SM=2"),
    /* persistent blocks: the next tile's loads during the look-back and the scatter */
    OS_ROWX(384, 20, 8, OS_B, true, 4, 2, true, "ballot", "early", " blocks/SM=2 persistent"),
    OS_ROWX(384, 16, 8, OS_B, true, 4, 0, true, "ballot", "early", " persistent"),
    OS_ROWX(384, 20, 8, RK_MATCH_OR, true, 4, 2, true, "or", "early", " blocks/SM=2 persistent"),
    OS_ROW(384, 20, 8, OS_B, false, 4, 0, "ballot", "late", ""),
    /* 4-byte pairs in the keys' tile, in a smaller one, and in 384 x 23 with other look-back windows */
    OS_ROWPM(20, 1, OS_MEM, " stores=generic"),
    OS_ROWPM(16, 1, OS_MEM, " stores=generic"),
    OS_ROWPM(23, 2, OS_MEM, " stores=generic"),
    OS_ROWPM(23, 4, OS_MEM, " stores=generic"),
    /* the memory path: the keys and values loaded by a plain ld.global, as streaming (.cs: evict
     * first) or generic instead of by the read-only path the compiler picks for a const __restrict__
     * source; the stores global or streaming global */
    OS_ROWPM(23, 1, RK_LD_PLAIN | OS_MEM, " loads=plain stores=generic"),
    OS_ROWPM(23, 1, RK_LD_CS | OS_MEM, " loads=cs stores=generic"),
    OS_ROWPM(23, 1, RK_LD_GEN | OS_MEM, " loads=generic stores=generic"),
    OS_ROWPM(23, 1, RK_LD_NC, " stores=global"),
    OS_ROWPM(23, 1, RK_ST_CS, " stores=cs"),
    /* the histogram with one table a block (CUB's): every row above counts with a copy per lane */
    OS_ROWPMH(23, 1, OS_MEM, 1, " stores=generic hist=1 copy"),
    /* an L2 prefetch of the tile a residency ahead, or a half or a quarter of one (the resident blocks
     * from the device at run time) */
    OS_ROWPMF(23, 1, OS_MEM, OS_HIST_LANES, 1, " stores=generic prefetch=L2 ahead=resident"),
    OS_ROWPMF(23, 1, OS_MEM, OS_HIST_LANES, 2, " stores=generic prefetch=L2 ahead=resident/2"),
    OS_ROWPMF(23, 1, OS_MEM, OS_HIST_LANES, 4, " stores=generic prefetch=L2 ahead=resident/4"),
    /* 4-byte pairs with their values loaded after the keys are ranked (os_cfg VLATE = OS_VLATE; in
     * flight during the look-back): the ranking holds the keys' registers only and a key's rank waits
     * in 16 bits for its value.  Slower for pairs in the same two blocks (the loads no longer overlap
     * the ranking), and a third block an SM did not help: their pass is not short of warps to hide
     * its latency (onesweep_pairs.csv). */
    OS_ROWPMFV(23, 1, OS_MEM, OS_HIST_LANES, 0, OS_VLATE, " stores=generic values=late"),
    OS_ROWPMFV(20, 1, OS_MEM, OS_HIST_LANES, 0, OS_VLATE, " stores=generic values=late"),
    OS_ROWPMFV(18, 1, OS_MEM, OS_HIST_LANES, 0, OS_VLATE, " stores=generic values=late"),
    OS_ROWPMFV(16, 1, OS_MEM, OS_HIST_LANES, 0, OS_VLATE, " stores=generic values=late"),
    /* 4-byte pairs with their values staged (os_cfg VLATE = OS_VSTAGE): copied by cp.async into the
     * values' exchange buffer when the keys are loaded, in flight during the ranking as in the ladder
     * step but in no register, as with late values, so that the tile can grow in two blocks an SM:
     * 384 x 23 (as the ladder step), x 26, x 28 (80 registers, no spill), x 32 (2 words spilled; two
     * blocks of 109 KB, the most two Hopper blocks hold), and three blocks of 384 x 18 (56 registers):
     * the larger tile pays, the third block does not; the even tiles lose on sorted pairs, and the
     * odd 384 x 31 (below) is the ladder's pairs tile. */
    OS_ROWPMFV(23, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, " stores=generic values=staged"),
    OS_ROWPMFV(26, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, " stores=generic values=staged"),
    OS_ROWPMFV(28, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, " stores=generic values=staged"),
    OS_ROWPMFV(32, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, " stores=generic values=staged"),
    OS_ROWPMFV(18, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, " stores=generic values=staged"),
    /* the exchange's slots swizzled (os_cfg SWZ, radix_rank.cuh rk_slot: a key's shared-memory bank
     * XOR-ed by its row of 32 words), keys and pairs: the ladder step's tiles, 384 x 32 and x 28 staged;
     * and 384 x 31 staged, an odd tile (a model of the exchange's bank conflicts on the sorted input
     * is 8-way for the even tiles in some passes).  The XOR costs keys more than the conflicts it
     * saves; for pairs the odd tile beats the swizzled even ones. */
    OS_ROWPMFVS(23, 1, OS_MEM, OS_HIST_LANES, 0, OS_VEARLY, true, " stores=generic slots=swizzled"),
    OS_ROWPMFVS(32, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, true, " stores=generic values=staged slots=swizzled"),
    OS_ROWPMFVS(28, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, true, " stores=generic values=staged slots=swizzled"),
    OS_ROWPMFV(31, 1, OS_MEM, OS_HIST_LANES, 0, OS_VSTAGE, " stores=generic values=staged"),
    /* 11-bit digits (three passes for 32-bit keys instead of four, 28 bytes a key instead of 36): 2048
     * digits, more than the block's threads, so each thread owns 4 or 8 of them in the column scan,
     * the descriptors, the look-back and the offsets, and the warps' counters are 16-bit
     * (radix_rank.cuh, PACK).  Slower: a pass issues far more instructions than an 8-bit one (11
     * ballots a key; 0.25 digits a key of per-digit work instead of 0.033), and its time follows them
     * (README: what else we tried). */
    OS_ROW(512, 16, 11, OS_B, true, 4, 0, "ballot", "early", ""),
    OS_ROW(512, 16, 11, OS_B, true, 2, 0, "ballot", "early", ""),
    OS_ROW(512, 20, 11, OS_B, true, 4, 0, "ballot", "early", ""),
    OS_ROW(256, 24, 11, OS_B, true, 4, 0, "ballot", "early", ""),
    /* the other way to fewer passes: a split on the top 16 bits by two of s5's passes, then each group
     * of equal top halves sorted on chip (msd_hybrid.cu; keys alone on all 32 bits, anything else is
     * s5), which s11 takes where the groups fit.  Skewed keys leave groups too large for a block,
     * sorted slowly here (README: s11). */
    {{"msd_hybrid", "s5 on bits 16..31 + 65536 groups of <= 256 x 18 sorted on chip (first digit unordered)",
      "a split on the top 16 bits (two passes), then each group sorted on bits 0..15 in shared memory",
      "chapters/05-radix-sort/msd_hybrid.cu", NULL, KIT_STEP_GPU, radix_msd_hybrid_describe, 0, 0},
     radix_msd_hybrid_scratch, radix_msd_hybrid, RADIX_TYPES_ALL, 8},
};

/* ---- the same kernels on 64-bit keys: the ladder step (512 x 12), then the L2 prefetch (half and a
 * quarter of a residency ahead), the look-back window (2 and 8 beside the ladder's 4), 11-bit digits
 * (six passes instead of eight), and other tiles and register budgets.  A row's label names its
 * 8-byte tile (kpt = 3/4 of the 4-byte count) and its occupancy is the u64 kernel's. */
#define OS_ROW64(T, K, K8, B, W, PF, XN) OS_ROW64M(T, K, K8, B, W, PF, 0, XN)
#define OS_ROW64M(T, K, K8, B, W, PF, MB, XN)                                                          \
    {{"s5_onesweep", "tbs=" #T " kpt=" #K8 " bits=" #B " match=ballot counts=early lookback=" #W XN,   \
      "one histogram kernel, one look-back kernel per pass", OS_FILE, NULL, KIT_STEP_GPU,              \
      os_describe<os_cfg<T, K, B, OS_B, true, W, MB, false, false, OS_MEM, OS_HIST_LANES, PF>,          \
                  os_cfg<T, K, B, OS_B, true, W, MB, false, false, OS_MEM, OS_HIST_LANES, PF>, RADIX_U64>, \
      0, 0},                                                                                           \
     os_scratch<os_cfg<T, K, B, OS_B, true, W, MB, false, false, OS_MEM, OS_HIST_LANES, PF>>,           \
     os_run<os_cfg<T, K, B, OS_B, true, W, MB, false, false, OS_MEM, OS_HIST_LANES, PF>>, RADIX_TYPES_ALL, B}
extern "C" const radix_step radix_onesweep64_variants[RADIX_ONESWEEP64_NVARIANTS] = {
    OS_ROW64(512, 16, 12, 8, 4, 0, " stores=generic"), /* the ladder step (without its small-tile fallback) */
    OS_ROW64(512, 16, 12, 8, 4, 2, " stores=generic prefetch=L2 ahead=resident/2"),
    OS_ROW64(512, 16, 12, 8, 4, 4, " stores=generic prefetch=L2 ahead=resident/4"),
    OS_ROW64(512, 16, 12, 8, 2, 0, " stores=generic"),
    OS_ROW64(512, 16, 12, 8, 8, 0, " stores=generic"),
    OS_ROW64(512, 16, 12, 11, 4, 0, " stores=generic"),
    /* other 8-byte tiles and register budgets: the 4-byte keys' shape (80 registers, two blocks),
     * three blocks of it (56 registers), 384 x 12 in three, 256 x 15 in four (64 registers) */
    OS_ROW64(384, 20, 15, 8, 4, 0, " stores=generic"),
    OS_ROW64M(384, 20, 15, 8, 4, 0, 3, " stores=generic blocks/SM=3"),
    OS_ROW64M(384, 16, 12, 8, 4, 0, 3, " stores=generic blocks/SM=3"),
    OS_ROW64M(256, 20, 15, 8, 4, 0, 4, " stores=generic blocks/SM=4"),
};
static_assert(os_kpt(20, RADIX_U64) == 15 && os_kpt(16, RADIX_U64) == 12, "OS_ROW64's labels name the 8-byte tile");
