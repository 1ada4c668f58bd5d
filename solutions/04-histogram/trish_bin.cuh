/* trish_bin.cuh - TRISH binning of one 32-bit word into packed 8-bit counters
 * (exercise ex04_bin_word, graded on the GPU; used by step s4).
 *
 * col points at this thread's column of the block's table of packed counters:
 * the counter of bin b (0..255) is byte b % 4 (bits 8*(b%4) .. 8*(b%4)+7) of
 * the word col[(b / 4) * STRIDE], STRIDE being the number of columns (threads
 * per block: 64 in TRISH).  Add 1 to the counter of each of the four bytes of w.
 *
 * Rules:
 *   - the four increments must stay one after the other (read, add, write,
 *     then the next byte): two bytes of w may fall in the same word, or in the
 *     same bin, and an interleaved version loses counts;
 *   - counters never carry: the caller row-sums before any can pass 255;
 *   - work on the whole word where you can (bit-level parallelism): one mask
 *     gives the four lanes b % 4 at once, one multiply turns two rows b / 4 (in
 *     16-bit halves) into two word offsets at once. */
#ifndef TRISH_BIN_CUH
#define TRISH_BIN_CUH

#include <stdint.h>

template <int STRIDE>
__device__ __forceinline__ void trish_bin_word(uint32_t *col, uint32_t w)
{
    static_assert(STRIDE % 4 == 0 && STRIDE <= 1024, "offsets must fit 16-bit halves");
    // BEGIN SOLUTION
    // TODO: 1. shifts = 8 * (b % 4) for the four bytes at once: mask w with 0x03030303, shift left by 3.
    // TODO: 2. word offsets (b / 4) * STRIDE = (b & 0xFC) * (STRIDE / 4): for bytes 0 and 2 at once
    // TODO:    mask w with 0x00FC00FC and multiply by STRIDE / 4 (each 16-bit half holds one
    // TODO:    offset); the same on w >> 8 gives bytes 1 and 3.
    // TODO: 3. for byte 0, 1, 2, 3 in turn: col[offset] += 1u << shift (offset and shift taken
    // TODO:    from their 16-bit half and 8-bit lane).
    // STUB: (void)col; (void)w;
    const uint32_t shifts = (w & 0x03030303u) << 3;
    const uint32_t rows02 = (w & 0x00FC00FCu) * (uint32_t)(STRIDE / 4);
    const uint32_t rows13 = ((w >> 8) & 0x00FC00FCu) * (uint32_t)(STRIDE / 4);
    col[rows02 & 0xFFFFu] += 1u << (shifts & 0xFFu);
    col[rows13 & 0xFFFFu] += 1u << ((shifts >> 8) & 0xFFu);
    col[rows02 >> 16] += 1u << ((shifts >> 16) & 0xFFu);
    col[rows13 >> 16] += 1u << (shifts >> 24);
    // END SOLUTION
}

#endif
