/* knn_ex_median.h - exercise ex03_median (graded on the CPU): where the left-balanced median of a
 * range of N points sits.
 *
 * The document's kd-tree stores one point per node in a *left-balanced* binary tree: node 1 is
 * the root, the children of node i are 2i and 2i + 1, and the nodes 1 .. n are all used, so the
 * tree is complete (every level full but the last, which fills from the left).  To build it, a
 * range of N points sorted on the split axis gives its median to the subtree's root, and the
 * points before the median must fill the left subtree *exactly*: the median's position is the
 * size of the left subtree of a complete binary tree of N nodes, plus one (1-based).
 *
 *   N:       1  2  3  4  5  6  7  8  9 10
 *   median:  1  2  2  3  4  4  4  5  6  7
 *
 * The document writes it as h = ceil(log2(N + 1)), half = 2^(h - 2),
 * median = half + min(half, N - 2 half + 1) - which breaks at N = 1 (half = 2^-1).  Write it so
 * that it holds for every N >= 1, with integer arithmetic only (N may be past 2^32: size_t
 * throughout); N = 0 gives 0.
 *
 * Hints: let h = floor(log2 N), the index of the last level (levels 0 .. h).  The levels above
 * the last hold 2^h - 1 nodes; the last level holds the rest, up to 2^h of them, and the left
 * subtree's share of that level is at most 2^(h-1).  The left subtree's own full levels hold
 * 2^(h-1) - 1 nodes.  Used on the host and in kernels (KIT_HD). */
#ifndef KNN_EX_MEDIAN_H
#define KNN_EX_MEDIAN_H

#include <stddef.h>

#include "kit.h"

/* the 1-based position of the left-balanced median in a sorted range of N points (0 for N = 0) */
static inline KIT_HD size_t ex03_lb_median(size_t N)
{
    // BEGIN SOLUTION
    // TODO: N = 0 -> 0 and N = 1 -> 1 (a single point is its own median).
    // TODO: h = floor(log2 N); last = nodes on level h = N - (2^h - 1); half = 2^(h-1).
    // TODO: left subtree size = (half - 1) + min(last, half); return it plus one.
    // STUB: (void)N;
    // STUB: return 0;
    size_t h = 0, half, last;
    if (N <= 1) return N;
    while ((N >> (h + 1)) != 0) h++;
    half = (size_t)1 << (h - 1);
    last = N - (((size_t)1 << h) - 1);
    return (half - 1) + (last < half ? last : half) + 1;
    // END SOLUTION
}

#endif
