/* trish_rowsum.cuh - TRISH's staggered, circular row-sum (exercise
 * ex04_rowsum, graded on the GPU; used by step s4).
 *
 * table is a block's 64 x 64 table of packed 8-bit counters: row r, column c
 * is table[r * 64 + c]; its 4 bytes (least significant first) count bins
 * 4r, 4r+1, 4r+2, 4r+3 for the thread of column c.  Thread t (0..63) owns row
 * t: add the row's counters over all 64 columns into sum[0..3] (bins 4t ..
 * 4t+3; add to what sum holds, do not overwrite) and set the row to zero.
 * The caller synchronizes the block before and after.
 *
 * Rules:
 *   - staggered start, circular indexing: thread t reads columns t, t+1, ...,
 *     63, 0, 1, ..., t-1.  Row t starts at word t * 64, a multiple of 32, so
 *     if every thread started at column 0 the 32 lanes of a warp would read 32
 *     words of one bank at once (a 32-way bank conflict);
 *   - bit-level parallelism: do not extract the four bytes one by one.  Split
 *     each word into two pairs of bytes, [-, b2, -, b0] and [-, b3, -, b1]
 *     (one mask, or a shift and a mask), and add the pairs: a 16-bit half never
 *     overflows (64 x 255 < 65536); unpack the halves into sum[] at the end. */
#ifndef TRISH_ROWSUM_CUH
#define TRISH_ROWSUM_CUH

#include <stdint.h>

#define TRISH_COLS 64

__device__ __forceinline__ void trish_rowsum(uint32_t *table, unsigned t, uint32_t sum[4])
{
    // BEGIN SOLUTION
    // TODO: 1. row = table + t * 64; even = odd = 0.
    // TODO: 2. for j = 0..63: c = (t + j) % 64; w = row[c]; row[c] = 0;
    // TODO:    even += w & 0x00FF00FF; odd += (w >> 8) & 0x00FF00FF.
    // TODO: 3. sum[0] += low half of even, sum[1] += low half of odd,
    // TODO:    sum[2] += high half of even, sum[3] += high half of odd.
    // STUB: (void)table; (void)t; (void)sum;
    uint32_t *row = table + t * TRISH_COLS;
    uint32_t even = 0, odd = 0;
#pragma unroll 16
    for (unsigned j = 0; j < TRISH_COLS; j++) {
        const unsigned c = (t + j) & (TRISH_COLS - 1);
        const uint32_t w = row[c];
        row[c] = 0;
        even += w & 0x00FF00FFu;
        odd += (w >> 8) & 0x00FF00FFu;
    }
    sum[0] += even & 0xFFFFu;
    sum[1] += odd & 0xFFFFu;
    sum[2] += even >> 16;
    sum[3] += odd >> 16;
    // END SOLUTION
}

#endif
