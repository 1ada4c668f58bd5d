/* ex03_search.h - the host side of exercise ex03_trim (knn_ex_trim.cuh): a k-nearest-neighbour
 * search kernel over the left-balanced kd-tree that uses the exercise's trim test and push order.
 * Plumbing only (ex03_search.cu): the exercise is knn_ex_trim.cuh. */
#ifndef EX03_SEARCH_H
#define EX03_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One thread per query: the k nearest points (1 <= k <= 32) of each of the m queries
 * (queries[j * dim + a], dim 2..4) in the tree of n nodes that knn_lb_build made (node: (n + 1)
 * x 4 floats, 16-byte aligned; idx: n + 1), written as knn.h says (idx[j * k + r],
 * dist2[j * k + r], KNN_NONE / +inf when fewer than k).  visits (NULL or m counters): how many
 * nodes each query visited (passed ex03_visit).  Bad arguments: cudaErrorInvalidValue before
 * any launch; m = 0 does nothing.  Asynchronous on s. */
cudaError_t ex03_tree_knn(const float *node, const uint32_t *idx, size_t n, int dim, const float *queries,
                          size_t m, int k, uint32_t *out_idx, float *out_dist2, uint32_t *visits,
                          cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
