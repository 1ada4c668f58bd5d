/* ex03_search.cu - the kernel of exercise ex03_trim: the document's depth-first kd-tree search,
 * one thread per query, the stack in local memory, the k best in registers (knn_best.cuh), and
 * the exercise's ex03_visit / ex03_children (knn_ex_trim.cuh) for the trim test and the push
 * order.  Plumbing only: nothing to write here.  It survives a wrong exercise: children past n
 * are not read and the stack never overflows (the answer is then wrong, not a fault). */
#include "ex03_search.h"
#include "kit_cuda.cuh"
#include "knn_best.cuh"
#include "knn_ex_trim.cuh"

#define EX03_TBS 64
#define EX03_STACK 64

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

extern "C" cudaError_t ex03_tree_knn(const float *node, const uint32_t *idx, size_t n, int dim,
                                     const float *queries, size_t m, int k, uint32_t *out_idx,
                                     float *out_dist2, uint32_t *visits, cudaStream_t s)
{
    unsigned grid;
    if (dim < 2 || dim > 4 || k < 1 || k > 32 || n > KNN_MAX_N || m > KNN_MAX_N) return cudaErrorInvalidValue;
    if (((uintptr_t)node & 15u) || (n > 0 && (!node || !idx))) return cudaErrorInvalidValue;
    if (m == 0) return cudaSuccess;
    if (!queries || !out_idx || !out_dist2) return cudaErrorInvalidValue;
    if (!(grid = kit_blocks_for(m, EX03_TBS))) return cudaErrorInvalidValue;
    const float4 *nd = (const float4 *)node;
    uint32_t *oi = out_idx;
    float *od = out_dist2;
    if (dim == 2) ex03_kernel<2><<<grid, EX03_TBS, 0, s>>>(nd, idx, n, queries, m, k, oi, od, visits);
    else if (dim == 3) ex03_kernel<3><<<grid, EX03_TBS, 0, s>>>(nd, idx, n, queries, m, k, oi, od, visits);
    else ex03_kernel<4><<<grid, EX03_TBS, 0, s>>>(nd, idx, n, queries, m, k, oi, od, visits);
    return cudaGetLastError();
}
