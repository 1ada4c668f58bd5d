/* knn_cpu.c - chapter 03's CPU baselines: brute force (the definition) and the document's
 * search of the left-balanced tree (explicit stack, trim test, max-heap of the k best),
 * equal to brute force bit for bit; the tree search over every core for the reference. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "knn.h"

/* ------------------------------------------------------------- brute force */

/* a sorted list of the best pairs (d2, idx) seen so far: capacity k, ascending */
static void list_offer(float *d, uint32_t *ix, int k, float cd, uint32_t ci)
{
    int j;
    if (!knn_before(cd, ci, d[k - 1], ix[k - 1])) return;
    for (j = k - 1; j > 0 && knn_before(cd, ci, d[j - 1], ix[j - 1]); j--) {
        d[j] = d[j - 1];
        ix[j] = ix[j - 1];
    }
    d[j] = cd;
    ix[j] = ci;
}

void knn_cpu_brute(const float *pts, size_t n, const float *queries, size_t m, int dim, int k, int all,
                   uint32_t *idx, float *dist2)
{
    size_t j, i;
    int r;
    if (all) queries = pts;
    for (j = 0; j < m; j++) {
        const float *q = queries + j * (size_t)dim;
        float *d = dist2 + j * (size_t)k;
        uint32_t *ix = idx + j * (size_t)k;
        for (r = 0; r < k; r++) {
            d[r] = INFINITY;
            ix[r] = KNN_NONE;
        }
        for (i = 0; i < n; i++) {
            if (all && i == j) continue;
            list_offer(d, ix, k, knn_dist2(q, pts + i * (size_t)dim, dim), (uint32_t)i);
        }
    }
}

/* ------------------------------------------------------------- tree search */

/* The k best as a max-heap on (d2, idx): hd[0] is the worst kept.  The document's "closest
 * heap": while fewer than k are held a candidate is appended (sifted up); then one that comes
 * before the top replaces it and sifts down. */
typedef struct best_heap {
    float d[KNN_MAX_K];
    uint32_t i[KNN_MAX_K];
    int count, k;
} best_heap;

static void heap_swap(best_heap *h, int a, int b)
{
    const float td = h->d[a];
    const uint32_t ti = h->i[a];
    h->d[a] = h->d[b];
    h->i[a] = h->i[b];
    h->d[b] = td;
    h->i[b] = ti;
}

static void heap_offer(best_heap *h, float cd, uint32_t ci)
{
    int c, p;
    if (h->count < h->k) {
        c = h->count++;
        h->d[c] = cd;
        h->i[c] = ci;
        while (c > 0) {
            p = (c - 1) / 2;
            if (!knn_before(h->d[p], h->i[p], h->d[c], h->i[c])) break;
            heap_swap(h, c, p);
            c = p;
        }
        return;
    }
    if (!knn_before(cd, ci, h->d[0], h->i[0])) return;
    h->d[0] = cd;
    h->i[0] = ci;
    p = 0;
    for (;;) {
        int big = p;
        const int l = 2 * p + 1, r = l + 1;
        if (l < h->k && knn_before(h->d[big], h->i[big], h->d[l], h->i[l])) big = l;
        if (r < h->k && knn_before(h->d[big], h->i[big], h->d[r], h->i[r])) big = r;
        if (big == p) break;
        heap_swap(h, p, big);
        p = big;
    }
}

/* the trim distance: the k-th best d2 once k are held, +inf before */
static float heap_bound(const best_heap *h) { return h->count < h->k ? INFINITY : h->d[0]; }

/* the held pairs ascending into ranks 0 .. count-1, KNN_NONE / +inf after */
static void heap_write(best_heap *h, uint32_t *idx, float *dist2)
{
    int a, b;
    for (a = 1; a < h->count; a++) /* insertion sort of at most 32 */
        for (b = a; b > 0 && knn_before(h->d[b], h->i[b], h->d[b - 1], h->i[b - 1]); b--)
            heap_swap(h, b, b - 1);
    for (a = 0; a < h->k; a++) {
        idx[a] = a < h->count ? h->i[a] : KNN_NONE;
        dist2[a] = a < h->count ? h->d[a] : INFINITY;
    }
}

static int depth_of(uint32_t node)
{
    int d = 0;
    while (node >>= 1) d++;
    return d;
}

/* One query.  A stack entry is a subtree still to visit and the squared distance from the
 * query to the splitting plane of its parent (0 for the onside child).  Pop; skip the whole
 * subtree when that plane distance exceeds the k-th best d2 (trim test); else offer the
 * node's point, then push the offside child (with its plane distance) and the onside child
 * on top, so the onside subtree is searched first.
 *
 * Why the result equals brute force bit for bit: every point p of the offside subtree has
 * p[a] on the far side of the split s (or on it), so |q[a] - p[a]| >= |q[a] - s| and, as
 * rounding is monotonic, fl(q[a]-p[a])^2 >= fl(q[a]-s)^2; adding non-negative terms never
 * lowers a rounded sum, so knn_dist2(q, p) >= the plane distance.  A subtree is skipped only
 * when the plane distance is strictly greater than the k-th best, so nothing skipped could
 * enter the list, not even at an equal distance with a smaller index (equality searches on). */
static void tree_query_one(const knn_lb_tree *t, const float *q, int k, uint32_t self, uint32_t *idx,
                           float *dist2)
{
    struct { uint32_t node; float plane; } stack[72];
    const int dim = t->dim;
    int sp = 0;
    best_heap h;
    h.count = 0;
    h.k = k;
    if (t->n > 0) {
        stack[0].node = 1;
        stack[0].plane = 0.0f;
        sp = 1;
    }
    while (sp > 0) {
        const uint32_t nd = stack[--sp].node;
        const float *p = t->node + (size_t)nd * 4;
        float diff;
        uint32_t near_child, far_child;
        if (stack[sp].plane > heap_bound(&h)) continue; /* trim: strictly farther than the k-th best */
        if (t->idx[nd] != self) heap_offer(&h, knn_dist2(q, p, dim), t->idx[nd]);
        {
            const int axis = depth_of(nd) % dim;
            diff = q[axis] - p[axis];
        }
        /* onside: the child on the query's side (left when the query is on the plane) */
        near_child = 2 * nd + (diff > 0.0f ? 1u : 0u);
        far_child = near_child ^ 1u;
        if (far_child <= t->n) {
            stack[sp].node = far_child;
            stack[sp].plane = diff * diff;
            sp++;
        }
        if (near_child <= t->n) {
            stack[sp].node = near_child;
            stack[sp].plane = 0.0f;
            sp++;
        }
    }
    heap_write(&h, idx, dist2);
}

void knn_cpu_tree_query(const knn_lb_tree *t, const float *pts, const float *queries, size_t m, int k,
                        int all, uint32_t *idx, float *dist2)
{
    size_t j;
    if (all) queries = pts;
    for (j = 0; j < m; j++)
        tree_query_one(t, queries + j * (size_t)t->dim, k, all ? (uint32_t)j : KNN_NONE, idx + j * (size_t)k,
                       dist2 + j * (size_t)k);
}

int knn_cpu_cores(void)
{
    const long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > 256 ? 256 : (int)c;
}

typedef struct tree_job {
    const knn_lb_tree *t;
    const float *queries;
    size_t lo, hi;
    int k, all;
    uint32_t *idx;
    float *dist2;
} tree_job;

static void *tree_job_run(void *arg)
{
    const tree_job *w = (const tree_job *)arg;
    size_t j;
    for (j = w->lo; j < w->hi; j++)
        tree_query_one(w->t, w->queries + j * (size_t)w->t->dim, w->k, w->all ? (uint32_t)j : KNN_NONE,
                       w->idx + j * (size_t)w->k, w->dist2 + j * (size_t)w->k);
    return NULL;
}

void knn_cpu_tree_query_mt(const knn_lb_tree *t, const float *pts, const float *queries, size_t m, int k,
                           int all, uint32_t *idx, float *dist2, int threads)
{
    pthread_t tid[256];
    tree_job job[256];
    int started[256], w;
    size_t chunk;
    if (all) queries = pts;
    if (threads <= 0) threads = knn_cpu_cores();
    if (threads > 256) threads = 256;
    if ((size_t)threads > m / 256 + 1) threads = (int)(m / 256 + 1); /* small jobs: fewer threads */
    chunk = (m + (size_t)threads - 1) / (size_t)threads;
    for (w = 0; w < threads; w++) {
        job[w].t = t;
        job[w].queries = queries;
        job[w].lo = (size_t)w * chunk < m ? (size_t)w * chunk : m;
        job[w].hi = job[w].lo + chunk < m ? job[w].lo + chunk : m;
        job[w].k = k;
        job[w].all = all;
        job[w].idx = idx;
        job[w].dist2 = dist2;
        /* the first chunk on this thread; a thread that cannot start runs here too */
        started[w] = w > 0 && pthread_create(&tid[w], NULL, tree_job_run, &job[w]) == 0;
    }
    for (w = 0; w < threads; w++)
        if (!started[w]) tree_job_run(&job[w]);
    for (w = 1; w < threads; w++)
        if (started[w]) pthread_join(tid[w], NULL);
}
