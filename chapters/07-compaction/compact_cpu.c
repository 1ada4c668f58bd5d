/* compact_cpu.c - chapter 07's CPU baselines and references: the serial select loop, the
 * two-pass select (count per chunk, scan, branch-free write), the partition and unique
 * references.  Single-threaded. */
#include <stdlib.h>

#include "compact.h"

/* what a selected element contributes: its index or its value */
static inline uint32_t item(const uint32_t *in, size_t i, int mode)
{
    return (mode & COMPACT_OUT_MASK) == COMPACT_VALUE ? in[i] : (uint32_t)i;
}

size_t compact_cpu_serial(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                          uint32_t *out, size_t n, int mode)
{
    size_t i, c = 0;
    for (i = 0; i < n; i++)
        if (compact_selected(in, flags, threshold, i, mode)) out[c++] = item(in, i, mode);
    return c;
}

/* the selected elements of [lo, hi) */
static size_t count_range(const uint32_t *in, const uint8_t *flags, uint64_t threshold, size_t lo,
                          size_t hi, int mode)
{
    size_t i, c = 0;
    for (i = lo; i < hi; i++) c += (size_t)compact_selected(in, flags, threshold, i, mode);
    return c;
}

size_t compact_cpu_two_pass(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                            uint32_t *out, size_t n, int mode)
{
    const size_t chunks = (n + COMPACT_CPU_CHUNK - 1) / COMPACT_CPU_CHUNK;
    size_t *start = chunks ? (size_t *)malloc((chunks + 1) * sizeof *start) : NULL;
    size_t k, total = 0;
    if (n == 0) return 0;
    if (!start) return compact_cpu_serial(in, flags, threshold, out, n, mode);
    /* pass 1: the count of every chunk (independent: this is what the GPU's blocks do) */
    for (k = 0; k < chunks; k++) {
        const size_t lo = k * COMPACT_CPU_CHUNK, hi = n - lo < COMPACT_CPU_CHUNK ? n : lo + COMPACT_CPU_CHUNK;
        start[k] = count_range(in, flags, threshold, lo, hi, mode);
    }
    /* the exclusive scan: where each chunk's elements begin; start[chunks] = the total */
    for (k = 0; k <= chunks; k++) {
        const size_t c = k < chunks ? start[k] : 0;
        start[k] = total;
        total += c;
    }
    /* pass 2: every chunk from its offset.  The branch-free store writes out[slot] for every
     * element and advances slot only past selected ones, so after a chunk's last selected
     * element it writes one slot too far.  That slot belongs to a later chunk (rewritten
     * when that chunk runs: chunks go in order) unless no later chunk selects anything;
     * there, and in the last chunk, the loop branches instead: nothing at or past
     * out[total] is touched. */
    for (k = 0; k < chunks; k++) {
        const size_t lo = k * COMPACT_CPU_CHUNK, hi = n - lo < COMPACT_CPU_CHUNK ? n : lo + COMPACT_CPU_CHUNK;
        size_t slot = start[k], i;
        if (start[k + 1] < total) {
            for (i = lo; i < hi; i++) {
                out[slot] = item(in, i, mode);
                slot += (size_t)compact_selected(in, flags, threshold, i, mode);
            }
        } else {
            for (i = lo; i < hi; i++)
                if (compact_selected(in, flags, threshold, i, mode)) out[slot++] = item(in, i, mode);
        }
    }
    free(start);
    return total;
}

size_t compact_cpu_partition(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                             uint32_t *out, size_t n, int mode)
{
    size_t i, c = 0, r = 0;
    for (i = 0; i < n; i++) {
        if (compact_selected(in, flags, threshold, i, mode)) out[c++] = item(in, i, mode);
        else out[n - 1 - r++] = item(in, i, mode);
    }
    return c;
}

size_t compact_cpu_unique(const uint32_t *in, uint32_t *out, size_t n, int mode)
{
    size_t i, c = 0;
    for (i = 0; i < n; i++)
        if (i == 0 || in[i] != in[i - 1]) out[c++] = item(in, i, mode);
    return c;
}
