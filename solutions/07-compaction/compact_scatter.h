/* compact_scatter.h - exercise ex07_scatter (graded on the CPU): the order-preserving scatter
 * of a count / scan / scatter compaction, for select and for partition.
 *
 * The GPU steps that keep the input order cut the n elements into chunks (a warp's or a
 * block's share), count the selected elements of every chunk, scan the counts, and let each
 * chunk write its own elements from its offset.  Two pieces of bookkeeping make that exact:
 *
 *   the chunk offsets: offsets[k] = counts[0] + ... + counts[k - 1], the selected elements
 *   of all the chunks before k (an exclusive scan; in size_t, totals may pass 2^32);
 *
 *   the slots of one chunk: element lo + k of the chunk (the chunk is elements lo .. lo +
 *   m - 1 of the whole array) goes, when it is selected, to
 *       sel_before + (selected elements among the chunk's first k)
 *   where sel_before is the chunk's offset.  A select writes nothing for a rejected element.
 *   A partition (compact.h) also places the rejected ones, in REVERSE input order from the
 *   end: the r-th rejected element of the whole array (r = 0, 1, ...) goes to n - 1 - r.
 *   The chunk knows r without looking at other chunks: the elements before it number lo,
 *   sel_before of them selected, so lo - sel_before were rejected.
 *
 * All run on the host (the tests) and could run on the device (KIT_HD). */
#ifndef COMPACT_SCATTER_H
#define COMPACT_SCATTER_H

#include <stddef.h>
#include <stdint.h>

#include "kit.h"

/* the slot of an element that a select does not write */
#define EX07_NO_SLOT ((size_t)-1)

/* offsets[k] = counts[0] + ... + counts[k - 1] for k < nchunks (summed in size_t); returns
 * the sum of all nchunks counts.  nchunks may be 0 (nothing written, returns 0). */
static inline KIT_HD size_t ex07_chunk_offsets(const uint32_t *counts, size_t nchunks, size_t *offsets)
{
    // BEGIN SOLUTION
    // TODO: an exclusive scan in size_t: write the running sum, then add the count.
    // STUB: (void)counts; (void)nchunks; (void)offsets; return 0;
    size_t k, sum = 0;
    for (k = 0; k < nchunks; k++) {
        offsets[k] = sum;
        sum += counts[k];
    }
    return sum;
    // END SOLUTION
}

/* The slots of one chunk: elements lo .. lo + m - 1 of an n-element array, sel[k] != 0 when
 * element lo + k is selected, sel_before = the selected elements of the chunks before it.
 *   dst[k] = sel_before + #{ i < k : sel[i] }                       for a selected element;
 *   dst[k] = n - 1 - ((lo - sel_before) + #{ i < k : !sel[i] })     for a rejected one when
 *                                                                   partition != 0;
 *   dst[k] = EX07_NO_SLOT                                           for a rejected one when
 *                                                                   partition == 0.
 * Returns the chunk's selected count.  m may be 0 (nothing written). */
static inline KIT_HD size_t ex07_chunk_slots(const uint8_t *sel, size_t m, size_t lo, size_t n, size_t sel_before,
                                             int partition, size_t *dst)
{
    // BEGIN SOLUTION
    // TODO: one pass over the chunk with two running counts (selected, rejected so far);
    // TODO: the rejected elements before the chunk are lo - sel_before.
    // STUB: (void)sel; (void)m; (void)lo; (void)n; (void)sel_before; (void)partition; (void)dst; return 0;
    size_t k, s = 0, r = lo - sel_before;
    for (k = 0; k < m; k++) {
        if (sel[k]) dst[k] = sel_before + s++;
        else dst[k] = partition ? n - 1 - r++ : EX07_NO_SLOT;
    }
    return s;
    // END SOLUTION
}

#endif
