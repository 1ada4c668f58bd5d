/* knn_ex_trim.cuh - exercise ex03_trim (graded on the GPU, with CPU unit tests): the two decisions
 * of the document's depth-first kd-tree search, used by the search kernel of ex03_search.cu.
 *
 * The search keeps a stack of subtrees still to visit.  An entry is (node, plane): a node of the
 * left-balanced tree (1-based, children 2i and 2i + 1, an index past n is no node) and the
 * squared distance from the query to the splitting plane of the node's parent - the least any
 * point of that subtree can be from the query (0 for a subtree on the query's side).  The kernel
 * pops an entry, asks ex03_visit whether the subtree can still hold a neighbour, offers the
 * node's point to the k-best list, and asks ex03_children what to push next.
 *
 * ex03_visit(plane, bound): bound is the d2 of the current k-th best (+inf while fewer than k
 *   are held).  Return 1 when the subtree must be searched, 0 when it can be skipped (the "trim
 *   test").  Careful with equality: a point at exactly the k-th best distance but with a
 *   smaller index beats the current k-th (the chapter's tie rule), so equality must search.
 *
 * ex03_children(node, n, qa, split, child, plane): the node splits at coordinate `split` of its
 *   axis, where the query has coordinate `qa`.  The *onside* child is the one on the query's
 *   side: 2 node + 1 (right) when qa > split, else 2 node (left; a query on the plane goes
 *   left).  The other is *offside*.  Write the children that exist (index <= n) in push order -
 *   the stack pops the last pushed first, and the onside subtree must be searched first:
 *     offside first, plane = (qa - split)^2 (as float: one subtraction, one product);
 *     then onside, plane = 0.
 *   Return how many were written (0, 1 or 2).
 *
 * Why (qa - split)^2 is safe (the chapter's README): every point p of the offside subtree lies
 * on the far side of the plane or on it, so |qa - p[axis]| >= |qa - split|, and the rounded
 * squared distance of p can only be larger or equal.  Host and device (KIT_HD). */
#ifndef KNN_EX_TRIM_CUH
#define KNN_EX_TRIM_CUH

#include <stddef.h>
#include <stdint.h>

#include "kit.h"

static inline KIT_HD int ex03_visit(float plane, float bound)
{
    // BEGIN SOLUTION
    // TODO: skip only what cannot hold a neighbour: a plane strictly farther than the bound.
    // STUB: (void)plane;
    // STUB: (void)bound;
    // STUB: return 1;
    return plane <= bound;
    // END SOLUTION
}

static inline KIT_HD int ex03_children(uint32_t node, size_t n, float qa, float split, uint32_t child[2],
                                       float plane[2])
{
    // BEGIN SOLUTION
    // TODO: onside = 2 node + (qa > split ? 1 : 0); offside = the other child.
    // TODO: write offside (if <= n) with plane (qa - split)^2, then onside (if <= n) with 0.
    // STUB: (void)node;
    // STUB: (void)n;
    // STUB: (void)qa;
    // STUB: (void)split;
    // STUB: (void)child;
    // STUB: (void)plane;
    // STUB: return 0;
    const float diff = qa - split;
    const uint32_t onside = 2 * node + (diff > 0.0f ? 1u : 0u), offside = onside ^ 1u;
    int c = 0;
    if (offside <= n) {
        child[c] = offside;
        plane[c] = diff * diff;
        c++;
    }
    if (onside <= n) {
        child[c] = onside;
        plane[c] = 0.0f;
        c++;
    }
    return c;
    // END SOLUTION
}

#endif
