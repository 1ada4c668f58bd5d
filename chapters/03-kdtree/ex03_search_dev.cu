/* ex03_search_dev.cu - the kernels of exercise ex03_trim: the search, one thread per query over
 * the left-balanced kd-tree with the exercise's ex03_visit and ex03_children
 * ($(IMPL)/03-kdtree/knn_ex_trim.cuh), one kernel per dimension; and one-call probes of those two
 * functions.  Device code only (the Makefile compiles *_dev.cu with nvcc -fatbin,
 * reference/kit_dev.h): the student's header reaches no host code; the launchers are
 * ex03_search.c. */
#include "ex03_search.h"
#include "knn_best.cuh"
#include "knn_ex_trim.cuh"

#define EX03_STACK 64

/* the search of dimension DIM.  A kernel template, as it was before it was loaded by name: the
 * launcher (ex03_search.c) finds ex03_kernel<2>, <3> and <4> by their mangled names (the Itanium
 * C++ ABI's, fixed by the signature), instantiated below; an extern "C" wrapper around the body
 * would change its register allocation (17 of 768 instructions on sm_90). */
template <int DIM>
__global__ void __launch_bounds__(EX03_TBS)
    ex03_kernel(const float4 *__restrict__ node, const uint32_t *__restrict__ idx, size_t n,
                const float *__restrict__ queries, size_t m, int k, uint32_t *__restrict__ out_idx,
                float *__restrict__ out_dist2, uint32_t *__restrict__ visits)
{
    const size_t j = (size_t)blockIdx.x * EX03_TBS + threadIdx.x;
    if (j >= m) return;
    uint32_t st_node[EX03_STACK];
    float st_plane[EX03_STACK];
    float q[DIM];
#pragma unroll
    for (int a = 0; a < DIM; a++) q[a] = queries[j * DIM + a];
    knn_best<32> best;
    knn_best_init(best, k);
    float bound = best.d[0]; /* the k-th best: +inf until k are held */
    uint32_t seen = 0;
    int sp = 0;
    if (n > 0) {
        st_node[0] = 1;
        st_plane[0] = 0.0f;
        sp = 1;
    }
    while (sp > 0) {
        sp--;
        const uint32_t nd = st_node[sp];
        if (nd == 0 || nd > n || !ex03_visit(st_plane[sp], bound)) continue;
        seen++;
        const float4 v = node[nd];
        const float p[4] = {v.x, v.y, v.z, v.w};
        knn_best_offer(best, knn_dist2(q, p, DIM), idx[nd]);
        bound = best.d[0];
        const int axis = (31 - __clz((int)nd)) % DIM; /* depth of nd, cyclic */
        uint32_t child[2];
        float plane[2];
        const int c = ex03_children(nd, n, q[axis], p[axis], child, plane);
        for (int t = 0; t < c && t < 2 && sp < EX03_STACK; t++) {
            st_node[sp] = child[t];
            st_plane[sp] = plane[t];
            sp++;
        }
    }
    knn_best_store(best, k, j, out_idx, out_dist2);
    if (visits) visits[j] = seen;
}

#define EX03_KERNEL(DIM)                                                                                  \
    template __global__ void ex03_kernel<DIM>(const float4 *__restrict__ node, const uint32_t *__restrict__ idx, \
                                              size_t n, const float *__restrict__ queries, size_t m, int k,      \
                                              uint32_t *__restrict__ out_idx, float *__restrict__ out_dist2,     \
                                              uint32_t *__restrict__ visits);
EX03_KERNEL(2)
EX03_KERNEL(3)
EX03_KERNEL(4)

/* the probes (ex03_visit_gpu, ex03_children_gpu): one thread */
extern "C" __global__ void ex03_visit_kernel(const float *plane, const float *bound, int *v, int count)
{
    for (int i = 0; i < count; i++) v[i] = ex03_visit(plane[i], bound[i]);
}

extern "C" __global__ void ex03_children_kernel(uint32_t node, size_t n, float qa, float split,
                                                ex03_children_got *got)
{
    got->c = ex03_children(node, n, qa, split, got->child, got->plane);
}
