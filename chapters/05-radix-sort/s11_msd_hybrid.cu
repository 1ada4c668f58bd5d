/* s11 - fewer passes for keys that have no constant digit: the top half sorted by s10's two top
 * passes, the bottom half on chip, group by group (after Stehle & Jacobsen's hybrid radix sort,
 * SIGMOD 2017).
 * Changed versus s10: for 32-bit keys alone sorted on all their bits, n >= S11_MIN_N, the route
 * kernel may take a split instead of s10's four passes: only the passes on bits 16..23 and 24..31
 * run, into the alternate buffer, which leaves the keys in 65536 groups of equal top halves, in
 * order; then each group is sorted on its low 16 bits by one block in shared memory and written to
 * the output (msd_split.cuh: a binary search per group for its start, two rankings in shared
 * memory, one contiguous store; the next group asked of L2 meanwhile).  The split is taken on the
 * GPU, from the histograms the route kernel reads anyway: when no pass would be skipped and
 * n x (largest share of the top digit) x (largest share of the next) is at most S11_SPLIT_MAX keys,
 * 15/16 of the 4608 a block holds, and a sample of the keys finds no large group (below).  Else
 * s10 runs as it is, and the groups' kernels read the route's word and leave.  Pairs, bit ranges,
 * 64-bit keys and smaller n are s10's.
 * Why it is faster: bytes and instructions.  Histogram 4 + two passes x 8 + the groups' read and
 * write 8 = 28 bytes a key instead of 36, and the on-chip pass needs neither a look-back nor
 * scattered stores.  Its first ranking needs no order (keys that share the first digit are put in
 * order by the second, stable ranking, or are equal): one shared atomic a key on 11 bits (2048
 * counters: msd_split.cuh), which leaves the stable ranking five ballots a key instead of eight.
 * The split's first pass reserves its places (s8), and both rankings that need order AND their
 * ballots three at a time (s9).
 * What still limits it:
 * - a block per group, whatever its size: the 65536 blocks cost about as much however few keys
 *   they hold, so the split pays only where the groups nearly fill a block (S11_MIN_N, about
 *   2^27.75 keys).  Fewer group bits for fewer keys would move that limit down, at the price of a
 *   third ranking on chip;
 * - the groups must fit a block, so n above about 2^28.1 (groups of 4320 and more) keeps s10's
 *   passes;
 * - it still pays for s10's route: the histogram of all four digits and two pass launches whose
 *   blocks leave at once (s11's passes read the route before the tile counter, OS_ROUTE_SKIP_LEAVE);
 * - the estimate assumes the two top digits independent; keys whose top digits move together
 *   (top-twins) make fewer, larger groups than it says, each sorted by one block through global
 *   memory (mh_big_kernel): correct, but slow.  A sample of 8192 keys, evenly spaced, counted by
 *   their top 14 bits in one block before the histogram (mh_sample_kernel) vetoes the split where
 *   one such bin holds more than 12 of them, about 1/700 of the keys: top-twins keys then run s10.
 *   What gets past both is bounded: a group holds at most the smaller of the two largest shares,
 *   under sqrt(S11_SPLIT_MAX x n) keys, and escapes the sample at about n / 700 keys or a few times
 *   that;
 * - skewed keys (low-entropy, normal floats) fail the estimate and keep s10's four passes: their
 *   groups are too large for a block at every level, so a split would not save them a pass
 *   (README: s11). */
#include "msd_split.cuh"
#include "skip_digits.cuh"

/* below: groups of fewer than 3/4 of a block's 4608 keys on average, whose block's fixed cost (its
 * barriers, scans and counters, whatever the group's size) the saved passes do not pay for; about
 * 2^27.75 keys */
#define S11_MIN_N ((size_t)MH_GROUPS * (MH_TBS * MH_KPT / 4 * 3))
#define S11_SPLIT_MAX (MH_TBS * MH_KPT / 16 * 15)

/* s10's tiles for keys, whose skipped passes' blocks leave before the tile counter (OS_ROUTE_SKIP_LEAVE):
 * two of s11's four passes are skipped wherever the split runs */
typedef os_with_route<s10_keys_tile, OS_ROUTE_SKIP_LEAVE> s11_keys_tile;
typedef os_with_route<s9_keys_tile, OS_ROUTE_SKIP_LEAVE> s11_second_tile;
typedef os_with_route<s9_small_tile, OS_ROUTE_SKIP_LEAVE> s11_small_tile;

/* the step's label, from its knobs */
RADIX_PARAM_DEF(radix_s11_param,
    "s10 + top %d bits by s10's passes, %d groups of <= %d x %d sorted on chip (chosen on the GPU)",
    MH_GROUP_BITS, (int)MH_GROUPS, MH_TBS, MH_KPT);

/* where the split may run: 32-bit keys alone on all bits, enough of them */
static bool s11_takes(size_t n, const uint32_t *vals_in, int type, int begin_bit, int end_bit)
{
    return vals_in == NULL && type != RADIX_U64 && begin_bit == 0 && end_bit == 32 && n >= S11_MIN_N;
}

/* s10's scratch, then (where the split may run) the groups' starts and the route's word */
static size_t s11_extra(size_t n, int type, int pairs)
{
    return pairs || type == RADIX_U64 || n < S11_MIN_N ? 0 : (MH_GROUPS + 2) * sizeof(unsigned);
}

extern "C" size_t radix_s11_msd_hybrid_scratch(size_t n, int type, int pairs)
{
    const size_t s10 = radix_s10_wide_tile_scratch(n, type, pairs), extra = s11_extra(n, type, pairs);
    return extra ? mh_round(s10) + extra : s10;
}

template <int KT, class C>
static cudaError_t s11_sort(const void *keys_in, void *keys_out, size_t n, void *scratch, cudaStream_t s)
{
    unsigned *off = (unsigned *)((char *)scratch + mh_round(radix_s10_wide_tile_scratch(n, KT, 0)));
    unsigned *split = off + MH_GROUPS + 1;
    /* the sample's veto first (n >= S11_MIN_N: every sample lands on a key of its own) */
    mh_sample_kernel<KT><<<1, MH_SAMPLE_TBS, 0, s>>>((const uint32_t *)keys_in, n, split);
    KIT_TRY(cudaGetLastError());
    KIT_TRY((os_sort<KT, false, C>(keys_in, keys_out, NULL, NULL, n, 0, 32, scratch, s, split, S11_SPLIT_MAX)));
    /* the alternate buffer, where the route's split leaves the groups, opens the scratch (os_plan) */
    return mh_sort_groups<KT>((uint32_t *)scratch, (uint32_t *)keys_out, n, off, split, s);
}

extern "C" cudaError_t radix_s11_msd_hybrid(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                           uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                           void *scratch, cudaStream_t s)
{
    int work;
    if (!s11_takes(n, vals_in, type, begin_bit, end_bit))
        return radix_s10_wide_tile(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    return radix_dispatch_type<RADIX_TYPES32>(type, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        const int c = s10_step::choice<KT>();
        if (c == OS_PICK) return s11_sort<KT, s11_keys_tile>(keys_in, keys_out, n, scratch, s);
        if (c == OS_PICK_SECOND) return s11_sort<KT, s11_second_tile>(keys_in, keys_out, n, scratch, s);
        return s11_sort<KT, s11_small_tile>(keys_in, keys_out, n, scratch, s);
    });
}

/* the groups' kernel (s10's pass kernel is s10's row) */
extern "C" cudaError_t radix_s11_describe(kit_kernel_desc *d)
{
    return mh_describe(d);
}
