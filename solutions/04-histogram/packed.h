/* packed.h - arithmetic on packed 8-bit counters (exercise ex04_packed, graded
 * on the CPU).  These are the small pieces TRISH is made of, as C functions
 * that run on the host (the tests) and in a kernel (KIT_HD).
 *
 * A word holds four 8-bit counters, byte 0 (bits 0..7) first.  A thread's 256
 * counters are 64 such words, one every `stride` words of a table (stride =
 * threads per block): bin b is byte b % 4 of word (b / 4) * stride. */
#ifndef PACKED_H
#define PACKED_H

#include <stdint.h>

#include "kit.h"

/* Where bin b lives: *word = its word's index in the table, relative to the
 * thread's column; *inc = what to add to that word to count b once. */
static inline KIT_HD void packed_slot(uint32_t b, uint32_t stride, uint32_t *word, uint32_t *inc)
{
    // BEGIN SOLUTION
    // TODO: *word = (b / 4) * stride; *inc = 1 shifted to the byte b % 4 (by 8 * (b % 4) bits).
    // STUB: (void)b; (void)stride; *word = 0; *inc = 0;
    *word = (b >> 2) * stride;
    *inc = 1u << ((b & 3u) << 3);
    // END SOLUTION
}

/* Split a word of four counters into two words of two 16-bit lanes each:
 * *even = [0, b2, 0, b0] (bytes 0 and 2 in the low and high halves),
 * *odd  = [0, b3, 0, b1] (bytes 1 and 3).  Sums of up to 257 such words never
 * carry from one half into the other. */
static inline KIT_HD void packed_pairs(uint32_t w, uint32_t *even, uint32_t *odd)
{
    // BEGIN SOLUTION
    // TODO: one mask for even; a shift right by 8 and the same mask for odd.
    // STUB: (void)w; *even = 0; *odd = 0;
    *even = w & 0x00FF00FFu;
    *odd = (w >> 8) & 0x00FF00FFu;
    // END SOLUTION
}

/* Add sums of pairs (even_sum, odd_sum as packed_pairs builds them) into
 * bins[0..3], in bin order: bins[0] += low half of even_sum, bins[1] += low
 * half of odd_sum, bins[2] += high half of even_sum, bins[3] += high half of
 * odd_sum. */
static inline KIT_HD void packed_unpair(uint32_t even_sum, uint32_t odd_sum, uint32_t bins[4])
{
    // BEGIN SOLUTION
    // TODO: the low half is x & 0xFFFF, the high half x >> 16.
    // STUB: (void)even_sum; (void)odd_sum; (void)bins;
    bins[0] += even_sum & 0xFFFFu;
    bins[1] += odd_sum & 0xFFFFu;
    bins[2] += even_sum >> 16;
    bins[3] += odd_sum >> 16;
    // END SOLUTION
}

/* Lane-wise a + b of four 8-bit lanes, each modulo 256: no carry crosses a
 * lane boundary (a "SIMD within a register" add). */
static inline KIT_HD uint32_t packed_add4(uint32_t a, uint32_t b)
{
    // BEGIN SOLUTION
    // TODO: add the low 7 bits of every lane (mask 0x7F7F7F7F: their carries stay inside the
    // TODO: lane), then put back each lane's top bit: XOR with (a ^ b) & 0x80808080.
    // STUB: (void)a; (void)b; return 0;
    return ((a & 0x7F7F7F7Fu) + (b & 0x7F7F7F7Fu)) ^ ((a ^ b) & 0x80808080u);
    // END SOLUTION
}

/* TRISH bins k words (4k bytes) per thread per data block and must row-sum
 * before any 8-bit counter can pass 255, i.e. after at most 63 words.  Return
 * how many data blocks of k words (1 <= k <= 63) fit between two row-sums. */
static inline KIT_HD uint32_t packed_rowsum_period(uint32_t k)
{
    // BEGIN SOLUTION
    // TODO: the largest p with p * k * 4 <= 255.
    // STUB: (void)k; return 0;
    return 63u / k;
    // END SOLUTION
}

#endif
