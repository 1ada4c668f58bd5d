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

#include <stdio.h>

/* The ladder step's tiles (onesweep.cuh: s5_keys_tile and the others).  Its 4-byte keys' tile is
 * CUB's sm_90 tile (384 threads x 20 keys; 15 for 8-byte keys), 8-bit digits, ballot peers, early
 * counts, a 4-wide look-back, three blocks per SM for 4-byte keys only, the scatter's stores generic
 * (radix_onesweep_variants below has the alternatives; README: what else we tried).
 * The stores: the scatter writes 20 keys per thread to addresses that only the ranking knows.
 * Written as global stores (STG, what the compiler emits for a kernel's pointer argument) they
 * stalled the warps on the memory-instruction queue (Nsight Compute: "MIO throttle" and "drain");
 * the same stores through a pointer the compiler cannot place (rk_opaque: generic ST) did not, for
 * the same DRAM bytes.  It is measured, not documented: the onesweep table keeps the global stores
 * as a row.
 * The blocks need up to 89 KB of shared memory (64-bit keys with values).  Where the GPU grants less
 * per block than a sort's tile needs (Turing: 64 KB; the 4-byte keys alone take 43 KB, 64-bit keys
 * 65 KB) the ladder step takes s5_small_tile, 384 x 10 keys (u64: 7), at most 46 KB: within the 48
 * KB every CUDA GPU grants without opting in, two blocks of 4-byte keys per Turing SM.  The choice is
 * made per key type and pairs at run time (radix_block_fits), the same one for the scratch size and
 * the run.  The tuning rows have no such fallback: where they do not fit they are skipped with the
 * reason.
 * 4-byte keys with values: 384 x 31, the values staged in shared memory by cp.async as the keys load
 * (OS_VALUES_STAGED: in no register through the ranking, so 31 pairs a thread fit the 80 registers
 * of two blocks an SM), a look-back window of 1; 106 KB of shared memory a block.  The tile is odd
 * on purpose: in an even tile the ranks of sorted pairs, in runs a multiple of 32 words apart, store
 * into the same banks (8-way in a CPU replay of the exchange); the odd tile beat swizzling the slots
 * (the swizzled rows; onesweep_pairs_sorted.csv).  Where an SM cannot hold two of its blocks (A100:
 * 164 KB; sm_86 and sm_89: 100 KB) the sort takes CUB's sm_90 pairs tile, 384 x 23 with the values in
 * registers (82 KB), and the small tile where that does not fit either (os_choice).
 * 8-byte keys (keys only and pairs): 512 x 12, two blocks an SM (1024 threads, 64 registers), where
 * 384 x 15 (the 4-byte tile's shape) holds 80 registers a thread and two blocks, 768 threads (the
 * radix64-onesweep table has both, and the other tiles and register budgets tried). */

extern "C" size_t radix_s5_onesweep_scratch(size_t n, int type, int pairs)
{
    return os_scratch<s5_keys_tile, s5_small_tile, s5_pairs_tile, s5_keys64_tile, s5_pairs23_tile>(n, type, pairs);
}

extern "C" cudaError_t radix_s5_onesweep(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                         uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                         void *scratch, cudaStream_t s)
{
    return os_run<s5_keys_tile, s5_small_tile, s5_pairs_tile, s5_keys64_tile, s5_pairs23_tile>(
        keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s5_describe(kit_kernel_desc *d)
{
    return os_describe<s5_keys_tile, s5_small_tile>(d);
}

/* ---- the tuning tables' labels, each from its tiles' knobs (never typed beside them) */

static const char *os_peers_name(int peers)
{
    return peers == RK_MATCH_ANY ? "any" : peers == RK_MATCH_OR ? "or" : peers == RK_MATCH_LOP3 ? "lop3" : "ballot";
}

/* the memory path, the histogram, the prefetch, where values wait, the slots: what the rows with a
 * tile of their own for pairs (and the 64-bit rows, the memory path and the prefetch) name */
template <class P>
static int os_label_path(char *b, size_t len)
{
    const int ld = P::memory & RK_LD_MASK;
    const char *load = ld == RK_LD_PLAIN ? " loads=plain"
                       : ld == RK_LD_CS  ? " loads=cs"
                       : ld == RK_LD_GEN ? " loads=generic"
                                         : "";
    const char *store = (P::memory & RK_ST_GEN) ? "generic" : (P::memory & RK_ST_CS) ? "cs" : "global";
    return snprintf(b, len, "%s stores=%s", load, store);
}
template <class P>
static int os_label_prefetch(char *b, size_t len)
{
    if (P::prefetch == 0) return snprintf(b, len, "%s", "");
    if (P::prefetch == 1) return snprintf(b, len, " prefetch=L2 ahead=resident");
    return snprintf(b, len, " prefetch=L2 ahead=resident/%d", P::prefetch);
}

/* a row whose pairs run the keys' tile K: its shape, digits, peers, counts, window, budget, loop
 * (%.0d prints no digit for a budget of 0: no " blocks/SM=" then either) */
template <class K>
static const char *os_label_keys()
{
    static char b[160];
    if (!b[0])
        snprintf(b, sizeof b, "tbs=%d kpt=%d bits=%d match=%s counts=%s lookback=%d%s%.0d%s", K::threads,
                 K::keys_per_thread, K::digit_bits, os_peers_name(K::peers), K::counts_first ? "early" : "late",
                 K::lookback_window, K::blocks_per_sm ? " blocks/SM=" : "", K::blocks_per_sm,
                 K::persistent ? " persistent" : "");
    return b;
}

/* a row with a tile of its own for 4-byte pairs, P beside the keys' tile K */
template <class K, class P>
static const char *os_label_pairs()
{
    static char b[256];
    if (!b[0]) {
        int m = snprintf(b, sizeof b, "tbs=%d kpt=%d (pairs: %d) bits=%d match=%s counts=%s lookback=%d (pairs: %d)",
                         K::threads, K::keys_per_thread, P::keys_per_thread, K::digit_bits, os_peers_name(K::peers),
                         K::counts_first ? "early" : "late", K::lookback_window, P::lookback_window);
        m += os_label_path<P>(b + m, sizeof b - m);
        m += snprintf(b + m, sizeof b - m, "%s", P::hist_copies == 1 ? " hist=1 copy" : "");
        m += os_label_prefetch<P>(b + m, sizeof b - m);
        snprintf(b + m, sizeof b - m, "%s%s",
                 P::values == OS_VALUES_LATE ? " values=late" : P::values == OS_VALUES_STAGED ? " values=staged" : "",
                 P::swizzle ? " slots=swizzled" : "");
    }
    return b;
}

/* a row of the 64-bit table: K's 8-byte tile, window, memory path, prefetch, budget */
template <class K>
static const char *os_label_keys64()
{
    static char b[160];
    if (!b[0]) {
        int m = snprintf(b, sizeof b, "tbs=%d kpt=%d bits=%d match=%s counts=%s lookback=%d", K::threads,
                         os_kpt(K::keys_per_thread, RADIX_U64), K::digit_bits, os_peers_name(K::peers),
                         K::counts_first ? "early" : "late", K::lookback_window);
        m += os_label_path<K>(b + m, sizeof b - m);
        m += os_label_prefetch<K>(b + m, sizeof b - m);
        snprintf(b + m, sizeof b - m, "%s%.0d", K::blocks_per_sm ? " blocks/SM=" : "", K::blocks_per_sm);
    }
    return b;
}

/* the step's label, from its five tiles (written before main() runs; the ladder's C table holds its
 * address) */
char radix_s5_param[RADIX_PARAM_LEN];
static int s5_label(char *b, size_t len)
{
    typedef s5_keys_tile K;
    typedef s5_pairs_tile P;
    return snprintf(b, len,
                    "tbs=%d kpt=%d (4-byte pairs: %d%s; %d where two such blocks do not fit an SM; u64: %d x %d; "
                    "kpt=%d where a block gets less than its tile needs) bits=%d match=%s counts=%s lookback=%d "
                    "(4-byte pairs: %d) stores=%s hist=%s",
                    K::threads, K::keys_per_thread, P::keys_per_thread,
                    P::values == OS_VALUES_STAGED ? ", values staged" : "", s5_pairs23_tile::keys_per_thread,
                    s5_keys64_tile::threads, os_kpt(s5_keys64_tile::keys_per_thread, RADIX_U64),
                    s5_small_tile::keys_per_thread, K::digit_bits, os_peers_name(K::peers),
                    K::counts_first ? "early" : "late", K::lookback_window, P::lookback_window,
                    (K::memory & RK_ST_GEN) ? "generic" : (K::memory & RK_ST_CS) ? "cs" : "global",
                    K::hist_copies == OS_HIST_LANES ? "lane copies" : "1 copy");
}
[[maybe_unused]] static const int s5_label_written = s5_label(radix_s5_param, sizeof radix_s5_param);

/* ---- tuning table: the ladder step, then one knob changed per row (each row's 4-byte pairs in its
 * keys' tile unless it says "(pairs: K)"): look-back window (16, and CUB's one at a time), register
 * budget (two blocks of 384 per SM instead of three), block size (256, 512), peers by
 * __match_any_sync or a shared-memory OR, persistent blocks, counts after the ranking (s4's order),
 * and the pairs' tile and window */
#define OS_FILE "chapters/05-radix-sort/s5_onesweep.cu"
#define OS_WHAT "one histogram kernel, one look-back kernel per pass"
/* a row whose pairs run its keys' tile K */
#define OS_ROW(...)                                                                                     \
    {{"s5_onesweep", os_label_keys<__VA_ARGS__>(), OS_WHAT, OS_FILE, NULL, KIT_STEP_GPU,                  \
      os_describe<__VA_ARGS__>, 0, 0},                                                                  \
     os_scratch<__VA_ARGS__>, os_run<__VA_ARGS__>, RADIX_TYPES_ALL, __VA_ARGS__::digit_bits}
/* a row whose 4-byte pairs run a tile of their own: OS_ROW_PAIRS((keys tile), (pairs tile)) */
template <class T>
struct os_arg;
template <class T>
struct os_arg<void(T)> {
    typedef T type;
};
#define OS_ROW_PAIRS(K, P) OS_ROW_PAIRS_T(os_arg<void K>::type, os_arg<void P>::type)
#define OS_ROW_PAIRS_T(K, P)                                                                            \
    {{"s5_onesweep", os_label_pairs<K, P>(), OS_WHAT, OS_FILE, NULL, KIT_STEP_GPU, os_describe<K>, 0, 0}, \
     os_scratch<K, K, P>, os_run<K, K, P>, RADIX_TYPES_ALL, K::digit_bits}

/* the pairs' tiles of the rows: 384 x KP with a look-back window of W, values waiting as VALUES */
template <int KP, int W = 1, int VALUES = OS_VALUES_WITH_KEYS>
using os_pairs_row =
    typename std::conditional<VALUES == OS_VALUES_WITH_KEYS, os_with_window<os_with_shape<os_tile, 384, KP>, W>,
                              os_with_values<os_with_window<os_with_shape<os_tile, 384, KP>, W>, VALUES>>::type;
static_assert(std::is_same<os_pairs_row<23>, s5_pairs23_tile>::value &&
                  std::is_same<os_pairs_row<31, 1, OS_VALUES_STAGED>, s5_pairs_tile>::value,
              "the rows' pairs tiles are the ladder's where they say so");
typedef os_with_peers<os_tile, RK_MATCH_OR> os_or_tile;
typedef os_with_shape<os_tile, 512, 16> os_512x16_tile;
/* the memory path of row and ladder: keys and values through the same path */
template <int MEMORY>
using os_mem_tile = os_with_memory<os_tile, MEMORY>;
template <int MEMORY>
using os_mem_pairs = os_with_memory<os_pairs_row<23>, MEMORY>;

extern "C" const radix_step radix_onesweep_variants[RADIX_ONESWEEP_NVARIANTS] = {
    OS_ROW_PAIRS((s5_keys_tile), (s5_pairs23_tile)), /* the ladder step (without its small-tile fallback) */
    /* one knob changed per row (the rest as the ladder step, the stores generic too) */
    OS_ROW(os_with_window<os_tile, 16>),
    OS_ROW(os_with_window<os_tile, 1>),
    OS_ROW(os_with_blocks<os_tile, 2>),
    OS_ROW(os_with_shape<os_tile, 256, 20>),
    OS_ROW(os_512x16_tile),
    OS_ROW(os_with_peers<os_tile, RK_MATCH_ANY>),
    OS_ROW(os_or_tile),
    OS_ROW(os_with_blocks<os_or_tile, 2>),
    /* persistent blocks: the next tile's loads during the look-back and the scatter */
    OS_ROW(os_with_persistence<os_with_blocks<os_tile, 2>>),
    OS_ROW(os_with_persistence<os_with_shape<os_tile, 384, 16>>),
    OS_ROW(os_with_persistence<os_with_blocks<os_or_tile, 2>>),
    OS_ROW(os_with_counts_last<os_tile>),
    /* 4-byte pairs in the keys' tile, in a smaller one, and in 384 x 23 with other look-back windows */
    OS_ROW_PAIRS((os_tile), (os_pairs_row<20>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<16>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<23, 2>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<23, 4>)),
    /* the memory path: the keys and values loaded by a plain ld.global, as streaming (.cs: evict
     * first) or generic instead of by the read-only path the compiler picks for a const __restrict__
     * source; the stores global or streaming global */
    OS_ROW_PAIRS((os_mem_tile<RK_LD_PLAIN | RK_ST_GEN>), (os_mem_pairs<RK_LD_PLAIN | RK_ST_GEN>)),
    OS_ROW_PAIRS((os_mem_tile<RK_LD_CS | RK_ST_GEN>), (os_mem_pairs<RK_LD_CS | RK_ST_GEN>)),
    OS_ROW_PAIRS((os_mem_tile<RK_LD_GEN | RK_ST_GEN>), (os_mem_pairs<RK_LD_GEN | RK_ST_GEN>)),
    OS_ROW_PAIRS((os_mem_tile<RK_LD_NC>), (os_mem_pairs<RK_LD_NC>)),
    OS_ROW_PAIRS((os_mem_tile<RK_ST_CS>), (os_mem_pairs<RK_ST_CS>)),
    /* the histogram with one table a block (CUB's): every row above counts with a copy per lane */
    OS_ROW_PAIRS((os_with_hist<os_tile, 1>), (os_with_hist<os_pairs_row<23>, 1>)),
    /* an L2 prefetch of the tile a residency ahead, or a half or a quarter of one (the resident blocks
     * from the device at run time) */
    OS_ROW_PAIRS((os_with_prefetch<os_tile, 1>), (os_with_prefetch<os_pairs_row<23>, 1>)),
    OS_ROW_PAIRS((os_with_prefetch<os_tile, 2>), (os_with_prefetch<os_pairs_row<23>, 2>)),
    OS_ROW_PAIRS((os_with_prefetch<os_tile, 4>), (os_with_prefetch<os_pairs_row<23>, 4>)),
    /* 4-byte pairs with their values loaded after the keys are ranked (OS_VALUES_LATE; in flight
     * during the look-back): the ranking holds the keys' registers only and a key's rank waits in 16
     * bits for its value.  Slower for pairs in the same two blocks (the loads no longer overlap the
     * ranking), and a third block an SM did not help: their pass is not short of warps to hide its
     * latency (onesweep_pairs.csv). */
    OS_ROW_PAIRS((os_tile), (os_pairs_row<23, 1, OS_VALUES_LATE>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<20, 1, OS_VALUES_LATE>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<18, 1, OS_VALUES_LATE>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<16, 1, OS_VALUES_LATE>)),
    /* 4-byte pairs with their values staged (OS_VALUES_STAGED): copied by cp.async into the values'
     * exchange buffer when the keys are loaded, in flight during the ranking as in the ladder step
     * but in no register, as with late values, so that the tile can grow in two blocks an SM: 384 x
     * 23 (as the ladder step), x 26, x 28 (80 registers, no spill), x 32 (2 words spilled; two blocks
     * of 109 KB, the most two Hopper blocks hold), and three blocks of 384 x 18 (56 registers): the
     * larger tile pays, the third block does not; the even tiles lose on sorted pairs, and the odd
     * 384 x 31 (below) is the ladder's pairs tile. */
    OS_ROW_PAIRS((os_tile), (os_pairs_row<23, 1, OS_VALUES_STAGED>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<26, 1, OS_VALUES_STAGED>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<28, 1, OS_VALUES_STAGED>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<32, 1, OS_VALUES_STAGED>)),
    OS_ROW_PAIRS((os_tile), (os_pairs_row<18, 1, OS_VALUES_STAGED>)),
    /* the exchange's slots swizzled (os_tile::swizzle, radix_rank.cuh rk_slot: a key's shared-memory
     * bank XOR-ed by its row of 32 words), keys and pairs: the ladder step's tiles, 384 x 32 and x 28
     * staged; and 384 x 31 staged, an odd tile (a model of the exchange's bank conflicts on the
     * sorted input is 8-way for the even tiles in some passes).  The XOR costs keys more than the
     * conflicts it saves; for pairs the odd tile beats the swizzled even ones. */
    OS_ROW_PAIRS((os_with_swizzle<os_tile>), (os_with_swizzle<os_pairs_row<23>>)),
    OS_ROW_PAIRS((os_with_swizzle<os_tile>), (os_with_swizzle<os_pairs_row<32, 1, OS_VALUES_STAGED>>)),
    OS_ROW_PAIRS((os_with_swizzle<os_tile>), (os_with_swizzle<os_pairs_row<28, 1, OS_VALUES_STAGED>>)),
    OS_ROW_PAIRS((os_tile), (s5_pairs_tile)),
    /* 11-bit digits (three passes for 32-bit keys instead of four, 28 bytes a key instead of 36): 2048
     * digits, more than the block's threads, so each thread owns 4 or 8 of them in the column scan,
     * the descriptors, the look-back and the offsets, and the warps' counters are 16-bit
     * (radix_rank.cuh, PACK).  Slower: a pass issues far more instructions than an 8-bit one (11
     * ballots a key; 0.25 digits a key of per-digit work instead of 0.033), and its time follows them
     * (README: what else we tried). */
    OS_ROW(os_with_digits<os_512x16_tile, 11>),
    OS_ROW(os_with_window<os_with_digits<os_512x16_tile, 11>, 2>),
    OS_ROW(os_with_digits<os_with_shape<os_tile, 512, 20>, 11>),
    OS_ROW(os_with_digits<os_with_shape<os_tile, 256, 24>, 11>),
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
#define OS_ROW64(...)                                                                                   \
    {{"s5_onesweep", os_label_keys64<__VA_ARGS__>(), OS_WHAT, OS_FILE, NULL, KIT_STEP_GPU,                \
      os_describe<__VA_ARGS__, __VA_ARGS__, RADIX_U64>, 0, 0},                                          \
     os_scratch<__VA_ARGS__>, os_run<__VA_ARGS__>, RADIX_TYPES_ALL, __VA_ARGS__::digit_bits}
extern "C" const radix_step radix_onesweep64_variants[RADIX_ONESWEEP64_NVARIANTS] = {
    OS_ROW64(s5_keys64_tile), /* the ladder step (without its small-tile fallback) */
    OS_ROW64(os_with_prefetch<s5_keys64_tile, 2>),
    OS_ROW64(os_with_prefetch<s5_keys64_tile, 4>),
    OS_ROW64(os_with_window<s5_keys64_tile, 2>),
    OS_ROW64(os_with_window<s5_keys64_tile, 8>),
    OS_ROW64(os_with_digits<s5_keys64_tile, 11>),
    /* other 8-byte tiles and register budgets: the 4-byte keys' shape (80 registers, two blocks),
     * three blocks of it (56 registers), 384 x 12 in three, 256 x 15 in four (64 registers) */
    OS_ROW64(os_tile),
    OS_ROW64(os_with_blocks<os_tile, 3>),
    OS_ROW64(os_with_blocks<os_with_shape<os_tile, 384, 16>, 3>),
    OS_ROW64(os_with_blocks<os_with_shape<os_tile, 256, 20>, 4>),
};
static_assert(std::is_same<s5_keys64_tile, os_512x16_tile>::value,
              "the 64-bit table's ladder tile is 512 x 16 (12 8-byte keys)");
