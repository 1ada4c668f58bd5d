/* knn_problem.h - how chapter 03's problem lays out its buffers and axes (host C, for steps.c,
 * knn_inputs.c, bench.c and the tests). */
#ifndef KNN_PROBLEM_H
#define KNN_PROBLEM_H

#include "knn.h"

/* buffers, in declaration order: points (n x dim), queries (m x dim; none in All mode),
 * idx and dist2 (m x k) */
enum { KNN_BUF_POINTS = 0, KNN_BUF_QUERIES = 1, KNN_BUF_IDX = 2, KNN_BUF_DIST2 = 3 };
/* axes: queries (0: as many as the points), k, dim, all (0: queries, 1: All-NN / All-kNN) */
enum { KNN_AX_QUERIES = 0, KNN_AX_K = 1, KNN_AX_DIM = 2, KNN_AX_ALL = 3 };

static inline int knn_shape_all(const kit_shape *sh) { return sh->v[KNN_AX_ALL] != 0; }
static inline int knn_shape_k(const kit_shape *sh) { return (int)sh->v[KNN_AX_K]; }
static inline int knn_shape_dim(const kit_shape *sh) { return (int)sh->v[KNN_AX_DIM]; }
/* the number of queries: n in All mode or when the queries axis is 0 */
static inline size_t knn_shape_m(const kit_shape *sh)
{
    return knn_shape_all(sh) || sh->v[KNN_AX_QUERIES] <= 0 ? sh->n : (size_t)sh->v[KNN_AX_QUERIES];
}
/* a shape from its parts (queries = 0: m = n) */
static inline kit_shape knn_shape(size_t n, size_t queries, int k, int dim, int all)
{
    kit_shape sh;
    int a;
    for (a = 0; a < KIT_MAX_AXES; a++) sh.v[a] = 0;
    sh.n = n;
    sh.v[KNN_AX_QUERIES] = (double)queries;
    sh.v[KNN_AX_K] = k;
    sh.v[KNN_AX_DIM] = dim;
    sh.v[KNN_AX_ALL] = all;
    return sh;
}

void knn_fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in, uint64_t seed);
/* the problem's reference: the CPU tree (built once, searched on every core); exact */
void knn_reference(const kit_problem *P, kit_host *h, const kit_shape *sh);

/* the s2 block-size ladder (tree steps only) */
extern const kit_ladder knn_ladder;
extern const kit_ladder knn_s2_tpb_ladder;

#endif
