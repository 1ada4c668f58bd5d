/* knn_tree.c - the document's kd-tree, built on the CPU: static, balanced, cyclic, one point
 * per node, laid out as a left-balanced binary tree (knn.h).  Used by the CPU baseline, the
 * problem's reference and the GPU steps whose build phase builds on the host.
 *
 * Build (the document's Fig. 7.6, left panel, corrected): the points are copied into records
 * (4 coordinates + index, contiguous, so every pass over a range reads memory in order
 * instead of jumping through an index array); an explicit stack holds ranges still to place,
 * each with its tree node and depth.  For a range of N points at node t, split axis
 * depth % dim: quickselect puts the point of rank knn_lb_median(N) - 1 in place (smaller or
 * equal coordinates before it, larger or equal after), the point becomes node t, and the two
 * sides become the ranges of nodes 2t and 2t + 1.  Quickselect: median-of-three pivot,
 * three-way partition (less, equal, greater), iterate into the side holding the rank; runs
 * of equal coordinates (duplicates, collinear points) end the search at once instead of
 * degrading it.  Expected O(N) per range, O(n log n) in all; deterministic. */
#include <stdlib.h>
#include <string.h>

#include "knn.h"

size_t knn_lb_median(size_t N)
{
    size_t h = 0, half, last;
    if (N <= 1) return N; /* 0: no point; 1: the point itself (the document's formula fails here) */
    while ((N >> (h + 1)) != 0) h++; /* h = floor(log2 N) >= 1: the tree has levels 0 .. h */
    half = (size_t)1 << (h - 1);      /* the last level's slots under the left child */
    last = N - (((size_t)1 << h) - 1); /* nodes on the last level (1 .. 2^h), filled from the left */
    /* left subtree: its full levels (half - 1 nodes) and its share of the last level */
    return (half - 1) + (last < half ? last : half) + 1;
}

typedef struct knn_rec {
    float c[4];
    uint32_t i;
} knn_rec;

static void swap_rec(knn_rec *a, knn_rec *b)
{
    const knn_rec t = *a;
    *a = *b;
    *b = t;
}

static float median3(float a, float b, float c)
{
    if (a > b) {
        const float t = a;
        a = b;
        b = t;
    }
    /* a <= b */
    if (c <= a) return a;
    if (c >= b) return b;
    return c;
}

/* Put the record of rank k (lo <= k < hi) of r[lo .. hi) by coordinate `axis` at r[k], with
 * smaller-or-equal coordinates before it and larger-or-equal after.  Each round keeps the
 * pivot's band of equal values, so the range shrinks every round (the pivot is one of the
 * range's values); NaN coordinates compare neither less nor greater and end in the band. */
static void select_rank(knn_rec *r, size_t lo, size_t hi, size_t k, int axis)
{
    while (hi - lo > 1) {
        const float p = median3(r[lo].c[axis], r[lo + (hi - lo) / 2].c[axis], r[hi - 1].c[axis]);
        size_t lt = lo, i = lo, gt = hi; /* [lo, lt) < p, [lt, i) == p, [gt, hi) > p */
        while (i < gt) {
            const float v = r[i].c[axis];
            if (v < p) swap_rec(&r[lt++], &r[i++]);
            else if (v > p) swap_rec(&r[i], &r[--gt]);
            else i++;
        }
        if (k < lt) hi = lt;
        else if (k >= gt) lo = gt;
        else return; /* rank k is in the band of values equal to the pivot */
    }
}

typedef struct build_item {
    size_t lo, hi; /* range of records */
    size_t node;   /* its tree node (1-based) */
    int depth;
} build_item;

int knn_lb_build(const float *pts, size_t n, int dim, float *node, uint32_t *idx)
{
    build_item stack[80];
    int sp = 0;
    knn_rec *r;
    size_t i;
    int a;
    if (dim < 1 || dim > KNN_MAX_DIM || n > KNN_MAX_N) return -1;
    node[0] = node[1] = node[2] = node[3] = 0.0f;
    idx[0] = KNN_NONE;
    if (n == 0) return 0;
    r = (knn_rec *)malloc(n * sizeof *r);
    if (!r) return -1;
    for (i = 0; i < n; i++) {
        for (a = 0; a < 4; a++) r[i].c[a] = a < dim ? pts[i * (size_t)dim + (size_t)a] : 0.0f;
        r[i].i = (uint32_t)i;
    }
    stack[sp].lo = 0;
    stack[sp].hi = n;
    stack[sp].node = 1;
    stack[sp].depth = 0;
    sp++;
    /* depth first, left range on top: the stack holds at most one pending right range per
     * level (31 levels for n < 2^31) plus the two just pushed */
    while (sp > 0) {
        const build_item e = stack[--sp];
        const size_t mid = e.lo + knn_lb_median(e.hi - e.lo) - 1;
        select_rank(r, e.lo, e.hi, mid, e.depth % dim);
        memcpy(node + e.node * 4, r[mid].c, 4 * sizeof(float));
        idx[e.node] = r[mid].i;
        if (mid + 1 < e.hi) {
            stack[sp].lo = mid + 1;
            stack[sp].hi = e.hi;
            stack[sp].node = 2 * e.node + 1;
            stack[sp].depth = e.depth + 1;
            sp++;
        }
        if (e.lo < mid) {
            stack[sp].lo = e.lo;
            stack[sp].hi = mid;
            stack[sp].node = 2 * e.node;
            stack[sp].depth = e.depth + 1;
            sp++;
        }
    }
    free(r);
    return 0;
}

int knn_lb_tree_new(const float *pts, size_t n, int dim, knn_lb_tree *t)
{
    t->n = n;
    t->dim = dim;
    t->node = (float *)malloc((n + 1) * 4 * sizeof(float));
    t->idx = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
    if (!t->node || !t->idx || knn_lb_build(pts, n, dim, t->node, t->idx) != 0) {
        knn_lb_tree_free(t);
        return -1;
    }
    return 0;
}

void knn_lb_tree_free(knn_lb_tree *t)
{
    free(t->node);
    free(t->idx);
    t->node = NULL;
    t->idx = NULL;
    t->n = 0;
}
