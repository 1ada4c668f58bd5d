/* radix_offsets.h - exercise ex05_offsets (graded on the CPU): where every key of one
 * counting-sort pass goes, when the keys are cut into tiles.
 *
 * A GPU pass splits its n keys into ntiles tiles (one per thread block) and counts, per tile,
 * how many keys have each of the R = 2^bits digit values.  The counts are kept digit-major:
 *     counts[d * ntiles + t] = keys of digit d in tile t          (d < ndigits, t < ntiles)
 * so that ONE exclusive scan over the table, in memory order, gives every (digit, tile) pair
 * its first output position, its *scatter base*:
 *     base[d * ntiles + t] = (keys of every digit < d, all tiles)
 *                          + (keys of digit d in the tiles before t)
 * All the 0s come first (tile 0's, then tile 1's, ...), then all the 1s, and so on: keys with
 * equal digits keep the tiles' order, which is what makes the pass stable.
 *
 * Inside tile t, the keys of digit d then take the positions base[d * ntiles + t],
 * base[d * ntiles + t] + 1, ... in their order in the tile: a key's destination is its
 * digit's base plus the number of EARLIER keys of the tile with the same digit.
 *
 * Counts are 32-bit (a tile is small); positions and bases are size_t (n may pass 2^32 in
 * total over the passes' tables: sum in size_t).  Both functions run on the host (the tests)
 * and the device (KIT_HD). */
#ifndef RADIX_OFFSETS_H
#define RADIX_OFFSETS_H

#include <stddef.h>
#include <stdint.h>

#include "kit.h"

/* the most digit values a pass has (8-bit digits) */
#define EX05_MAX_DIGITS 256

/* base[d * ntiles + t] for every d < ndigits, t < ntiles, from counts (same layout); returns
 * the total of all counts (= the number of keys).  ndigits or ntiles may be 0 (no output). */
static inline KIT_HD size_t ex05_scatter_bases(const uint32_t *counts, size_t ndigits, size_t ntiles,
                                               size_t *base)
{
    // BEGIN SOLUTION
    // TODO: an exclusive scan of the ndigits * ntiles counts in memory order (digit-major),
    // TODO: in size_t: base[i] = counts[0] + ... + counts[i - 1]; return the sum of all of them.
    // STUB: (void)counts; (void)ndigits; (void)ntiles; (void)base; return 0;
    size_t i, sum = 0;
    for (i = 0; i < ndigits * ntiles; i++) {
        base[i] = sum;
        sum += counts[i];
    }
    return sum;
    // END SOLUTION
}

/* The stable scatter of tile t: the keys of the tile, in their order, have the digits
 * digits[0..m) (each < ndigits <= EX05_MAX_DIGITS); base is the whole table that
 * ex05_scatter_bases made (ndigits x ntiles, digit-major).  Writes dst[i], the output position
 * of the tile's key i:
 *     dst[i] = base[digits[i] * ntiles + t] + #{ j < i : digits[j] == digits[i] }. */
static inline KIT_HD void ex05_tile_scatter(const uint32_t *digits, size_t m, const size_t *base,
                                            size_t ndigits, size_t ntiles, size_t t, size_t *dst)
{
    // BEGIN SOLUTION
    // TODO: keep one running count per digit value (a local array of EX05_MAX_DIGITS size_t,
    // TODO: zero for the ndigits digits), walk the keys in order: key i goes to its digit's
    // TODO: base in column t plus the keys of that digit already seen; then count it.
    // TODO: (One pass over the keys: no search back for earlier keys.)
    // STUB: (void)digits; (void)m; (void)base; (void)ndigits; (void)ntiles; (void)t; (void)dst;
    size_t seen[EX05_MAX_DIGITS], i, d;
    for (d = 0; d < ndigits && d < EX05_MAX_DIGITS; d++) seen[d] = 0;
    for (i = 0; i < m; i++) {
        const uint32_t g = digits[i];
        dst[i] = base[(size_t)g * ntiles + t] + seen[g]++;
    }
    // END SOLUTION
}

#endif
