/* loadbalance.h - Row DASk load balancing (exercise ex01_loadbalance, graded on
 * the CPU).  The same function runs in C on the host (tests) and inside the
 * Row DASk kernel (s5), once per thread block.
 *
 * Split nblocks data blocks over nrows rows (thread blocks) so that:
 *   - rows are contiguous and in order: row r starts where row r-1 ends;
 *   - any two rows differ by at most one data block;
 *   - the nblocks % nrows left-over blocks go to a contiguous run of rows that
 *     avoids the first and the last row whenever it fits between them (those
 *     two rows may pay for range checks on a partial first or last data block).
 * Example: 23 blocks over 5 rows gives <4,5,5,5,4>, starting at 0,4,9,14,19. */
#ifndef LOADBALANCE_H
#define LOADBALANCE_H

#include <stdint.h>

#include "kit.h"

static inline KIT_HD void row_dask_balance(uint64_t nblocks, uint32_t nrows, uint32_t row,
                                           uint64_t *start, uint64_t *count)
{
    // BEGIN SOLUTION
    // TODO: base = nblocks / nrows whole blocks per row; left = nblocks % nrows left over.
    // TODO: The left-over blocks go to rows first .. first+left-1, where first = 1 when
    // TODO: left <= nrows - 2 (the run fits between the first and the last row), else 0.
    // TODO: *count = base (+1 inside that run); *start = row * base + (extra blocks given to
    // TODO: the rows before this one).
    // STUB: (void)nblocks; (void)nrows; (void)row; *start = 0; *count = 0;
    const uint64_t base = nblocks / nrows;
    const uint64_t left = nblocks % nrows;
    const uint64_t first = (left + 2 <= nrows) ? 1 : 0; /* skip row 0 when the run fits inside */
    uint64_t before;                                   /* extras given to rows before this one */
    if (row < first)
        before = 0;
    else if (row - first < left)
        before = row - first;
    else
        before = left;
    *count = base + ((row >= first && row - first < left) ? 1 : 0);
    *start = (uint64_t)row * base + before;
    // END SOLUTION
}

#endif
