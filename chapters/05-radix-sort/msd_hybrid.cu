/* msd_hybrid.cu - a row of the onesweep tuning table: fewer passes over memory by a split
 * on the most significant bits (after Stehle & Jacobsen's hybrid), for 32-bit keys without values
 * sorted on all their bits.
 *
 * What changed versus s5: s5 sorts the keys on bits 16..31 only (its histogram kernel and two
 * passes), which leaves them in 65536 groups of equal top halves, each contiguous; a binary search
 * per group finds where each starts; then one block per group loads it, sorts it on bits 0..15 in
 * shared memory (two 8-bit rankings) and writes it back in order.  Three reads and writes of the keys
 * instead of four (plus the histogram read): 28 bytes a key instead of 36.
 *
 * Why the on-chip pass costs less than the two passes it replaces: no look-back and no scattered
 * stores (a group is written back contiguously), and its first ranking needs no order: for keys
 * alone on all their bits, two keys that share the first digit but differ in the second are put in
 * order by the second (stable) ranking, and keys that share both digits and the top half are equal.
 * So that ranking is a shared-memory atomic a key instead of eight ballots.
 *
 * What limits it: the groups must fit a block (4608 keys).  Uniform keys at 2^28 make groups of
 * about 4096; skewed keys (low-entropy, normal floats) make groups of millions, which one block
 * sorts here through global memory, correct and slow.  This row takes the split always; the ladder's
 * s11_msd_hybrid takes it only where the histograms say the groups fit (and runs s10 otherwise), which
 * costs it the route's histogram of four digits and two empty pass launches.  The kernels after the
 * top passes are shared with s11 (msd_split.cuh).  Pairs, bit ranges and 64-bit keys run s5 as it is. */
#include "msd_split.cuh"

/* where the hybrid runs: 32-bit keys alone, all 32 bits; anything else is s5's */
static bool mh_takes(const uint32_t *vals_in, int type, int begin_bit, int end_bit)
{
    return vals_in == NULL && type != RADIX_U64 && begin_bit == 0 && end_bit == 32;
}

extern "C" size_t radix_msd_hybrid_scratch(size_t n, int type, int pairs)
{
    const size_t s5 = radix_s5_onesweep_scratch(n, type, pairs);
    if (pairs || type == RADIX_U64) return s5;
    return mh_round(s5) + mh_round(n * sizeof(uint32_t)) + (MH_GROUPS + 1) * sizeof(unsigned);
}

extern "C" cudaError_t radix_msd_hybrid(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                        uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                        void *scratch, cudaStream_t s)
{
    int work;
    if (!mh_takes(vals_in, type, begin_bit, end_bit))
        return radix_s5_onesweep(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    uint32_t *grouped = (uint32_t *)((char *)scratch + mh_round(radix_s5_onesweep_scratch(n, type, 0)));
    unsigned *off = (unsigned *)((char *)grouped + mh_round(n * sizeof(uint32_t)));
    KIT_TRY(radix_s5_onesweep(keys_in, grouped, NULL, NULL, n, type, 32 - MH_GROUP_BITS, 32, scratch, s));
    return radix_dispatch_type<RADIX_TYPES32>(type, [&](auto kt) {
        return mh_sort_groups<decltype(kt)::value>(grouped, (uint32_t *)keys_out, n, off, NULL, s);
    });
}

extern "C" cudaError_t radix_msd_hybrid_describe(kit_kernel_desc *d)
{
    return mh_describe(d);
}
