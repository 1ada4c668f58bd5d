/* knn_ex_heap.h - exercise ex03_heap (graded on the CPU): the "closest heap" that keeps the k
 * best candidates of a k-nearest-neighbour search.
 *
 * A kNN search meets candidates one at a time and must keep the k best.  The document (after
 * Jensen) keeps them in a *max-heap*: the worst of the k sits at the top, so deciding whether a
 * new candidate gets in is one comparison with the top, and letting it in costs O(log k).  The
 * top is also the search's trim distance once k candidates are held.
 *
 * Candidates are (d, i) pairs - squared distance, point index - ordered by d, then by i: the
 * chapter's tie rule (knn_before in knn.h: (d1, i1) comes before (d2, i2) when d1 < d2, or
 * d1 == d2 and i1 < i2).  The heap is an array d[0 .. count), i[0 .. count) in which every
 * parent p does not come before its children 2p + 1 and 2p + 2 (so entry 0 is the worst).
 *
 * ex03_heap_push(h, d, i), 1 <= h->k <= KNN_MAX_K:
 *   - fewer than k held: append the candidate at position count, count + 1, and sift it up
 *     (swap with its parent while the parent comes before it); return 1;
 *   - k held: if the candidate comes before the top (d[0], i[0]), it replaces the top and sifts
 *     down (swap with the child that comes last, while that child comes after it); return 1;
 *     otherwise nothing changes; return 0.
 * Equal pairs cannot occur (indices are distinct), so "comes before" is strict.
 * ex03_heap_init and ex03_heap_bound are given.  Host and device (KIT_HD). */
#ifndef KNN_EX_HEAP_H
#define KNN_EX_HEAP_H

#include <math.h>
#include <stdint.h>

#include "kit.h"
#include "knn.h"

typedef struct ex03_heap {
    float d[KNN_MAX_K];
    uint32_t i[KNN_MAX_K];
    int count; /* candidates held, 0 .. k */
    int k;     /* capacity */
} ex03_heap;

static inline KIT_HD void ex03_heap_init(ex03_heap *h, int k)
{
    h->count = 0;
    h->k = k;
}

/* the trim distance: the k-th best d once k are held, +inf before */
static inline KIT_HD float ex03_heap_bound(const ex03_heap *h)
{
    return h->count < h->k ? INFINITY : h->d[0];
}

/* offer a candidate; 1 when it was kept */
static inline KIT_HD int ex03_heap_push(ex03_heap *h, float d, uint32_t i)
{
    // BEGIN SOLUTION
    // TODO: not full: put (d, i) at position count, count++, then sift up: while the slot has a
    // TODO:   parent p = (c - 1) / 2 that comes before it (knn_before(parent, slot)), swap them.
    // TODO: full: if (d, i) does not come before the top, return 0; else overwrite the top and
    // TODO:   sift down: pick the child (2p + 1 or 2p + 2, if < k) that comes last; if the slot
    // TODO:   comes before that child, swap and go on from the child; else stop.
    // STUB: (void)h;
    // STUB: (void)d;
    // STUB: (void)i;
    // STUB: return 0;
    int c, p;
    if (h->count < h->k) {
        c = h->count++;
        h->d[c] = d;
        h->i[c] = i;
        while (c > 0) {
            float td;
            uint32_t ti;
            p = (c - 1) / 2;
            if (!knn_before(h->d[p], h->i[p], h->d[c], h->i[c])) break;
            td = h->d[p], ti = h->i[p];
            h->d[p] = h->d[c], h->i[p] = h->i[c];
            h->d[c] = td, h->i[c] = ti;
            c = p;
        }
        return 1;
    }
    if (!knn_before(d, i, h->d[0], h->i[0])) return 0;
    h->d[0] = d;
    h->i[0] = i;
    p = 0;
    for (;;) {
        const int l = 2 * p + 1, r = l + 1;
        int big = p;
        float td;
        uint32_t ti;
        if (l < h->k && knn_before(h->d[big], h->i[big], h->d[l], h->i[l])) big = l;
        if (r < h->k && knn_before(h->d[big], h->i[big], h->d[r], h->i[r])) big = r;
        if (big == p) break;
        td = h->d[p], ti = h->i[p];
        h->d[p] = h->d[big], h->i[p] = h->i[big];
        h->d[big] = td, h->i[big] = ti;
        p = big;
    }
    return 1;
    // END SOLUTION
}

#endif
