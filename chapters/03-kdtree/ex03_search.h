/* ex03_search.h - the host side of exercise ex03_trim (knn_ex_trim.cuh): a k-nearest-neighbour
 * search kernel over the left-balanced kd-tree that uses the exercise's trim test and push order,
 * and the exercise's two functions run one call at a time on the GPU.  The kit's plumbing
 * (ex03_search.c launches the kernels of ex03_search_dev.cu, device code only): the exercise is
 * knn_ex_trim.cuh. */
#ifndef EX03_SEARCH_H
#define EX03_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EX03_TBS 64 /* threads (queries) per block of the search */

/* One thread per query: the k nearest points (1 <= k <= 32) of each of the m queries
 * (queries[j * dim + a], dim 2..4) in the tree of n nodes that knn_lb_build made (node: (n + 1)
 * x 4 floats, 16-byte aligned; idx: n + 1), written as knn.h says (idx[j * k + r],
 * dist2[j * k + r], KNN_NONE / +inf when fewer than k).  visits (NULL or m counters): how many
 * nodes each query visited (passed ex03_visit).  Bad arguments: cudaErrorInvalidValue before
 * any launch; m = 0 does nothing.  Asynchronous on s. */
cudaError_t ex03_tree_knn(const float *node, const uint32_t *idx, size_t n, int dim, const float *queries,
                          size_t m, int k, uint32_t *out_idx, float *out_dist2, uint32_t *visits,
                          cudaStream_t s);

/* v[i] = ex03_visit(plane[i], bound[i]) for i < count, computed on the GPU by one thread (host
 * arrays; synchronous).  The first CUDA error, if any (v then incomplete). */
cudaError_t ex03_visit_gpu(const float *plane, const float *bound, int *v, int count);

/* got->c = ex03_children(node, n, qa, split, got->child, got->plane) on the GPU, one thread,
 * *got as given before the call (what the function leaves alone stays); synchronous.  The first
 * CUDA error, if any. */
typedef struct ex03_children_got {
    int c;
    uint32_t child[2];
    float plane[2];
} ex03_children_got;
cudaError_t ex03_children_gpu(uint32_t node, size_t n, float qa, float split, ex03_children_got *got);

#ifdef __cplusplus
}
#endif

#endif
