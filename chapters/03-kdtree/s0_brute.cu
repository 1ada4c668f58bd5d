/* s0 - brute force: one thread per query, every point, the k best in registers.
 * The first GPU step (the document's "first NN solutions were brute force"): thread j loads
 * its query into registers and walks the n points in order, computing the exact squared
 * distance (knn_dist2: __fsub_rn / __fmul_rn / __fadd_rn, no FMA) and offering each to a
 * sorted list of the k best (knn_best in knn_tree.cuh, the same list as the tree steps': a bucket
 * of K = 1, 4, 8, 16 or 32 >= k slots, fully unrolled so it stays in registers, the k-th best in
 * the fixed register d[0]).  The common case is one compare with the k-th best (the pair as a
 * 64-bit key, knn_pair_key); an insertion shifts the list one slot (predicated moves).  All
 * mode skips the point with the query's own index.
 * Why it is a baseline: O(n m) work, no tree, no build; every thread of a warp reads the same
 * point at the same time, so each load is one broadcast from L1, and the arithmetic is the
 * whole cost: at small n it beats any tree (no build, no divergence).
 * What limits it: n m distance computations; three scalar loads per point per warp (the
 * points may sit at any 4-byte address, so no vector loads); few queries leave the GPU idle
 * (one thread per query, nothing splits the points among blocks).
 * Limits: n, m <= KNN_MAX_N (indices in size_t; point indices < 2^31 fit the uint32 output);
 * no scratch, no tree. */
#include "knn_tree.cuh"

#define S0_TBS 128
extern "C" const char knn_s0_brute_param[] = "tbs=128 K=1/4/8/16/32 (registers)";

template <int DIM, int K>
__global__ void __launch_bounds__(S0_TBS)
    s0_kernel(const float *__restrict__ points, size_t n, const float *__restrict__ queries, size_t m, int k,
              int all, uint32_t *__restrict__ idx, float *__restrict__ dist2)
{
    const size_t j = (size_t)blockIdx.x * S0_TBS + threadIdx.x;
    if (j >= m) return; /* no barrier in this kernel: idle threads may leave */
    float q[DIM];
#pragma unroll
    for (int a = 0; a < DIM; a++) q[a] = queries[j * DIM + a];
    const uint32_t self = all ? (uint32_t)j : KNN_NONE;
    knn_best<K> best;
    knn_best_init(best, k);
    const float *p = points;
    for (size_t i = 0; i < n; i++, p += DIM) {
        float c[DIM];
#pragma unroll
        for (int a = 0; a < DIM; a++) c[a] = __ldg(p + a);
        const float d2 = knn_dist2(q, c, DIM);
        /* the exact (d2, index) order against the worst kept pair in one compare, then the self test */
        if (knn_pair_key(d2, (uint32_t)i) < knn_pair_key(best.d[0], best.i[0]) && (uint32_t)i != self)
            knn_best_insert(best, d2, (uint32_t)i);
    }
    knn_best_store(best, k, j, idx, dist2);
}

extern "C" size_t knn_s0_brute_tree_bytes(size_t n, int dim)
{
    (void)n, (void)dim;
    return 0;
}

extern "C" cudaError_t knn_s0_brute_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
{
    (void)s;
    return knn_check_build(points, n, dim, tree, 0); /* nothing to build */
}

extern "C" size_t knn_s0_brute_scratch(size_t n, size_t m, int dim, int k)
{
    (void)n, (void)m, (void)dim, (void)k;
    return 0;
}

extern "C" cudaError_t knn_s0_brute_query(const void *tree, const float *points, size_t n,
                                          const float *queries, size_t m, int dim, int k, int all,
                                          uint32_t *idx, float *dist2, void *scratch, cudaStream_t s)
{
    return knn_query_launch<S0_TBS>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, false, s,
                                    [&](auto dd, auto kk, unsigned grid) {
                                        s0_kernel<decltype(dd)::value, decltype(kk)::value>
                                            <<<grid, S0_TBS, 0, s>>>(points, n, queries, m, k, all, idx, dist2);
                                        return cudaSuccess;
                                    });
}

KIT_DESCRIBE(knn_s0_brute_describe, (s0_kernel<3, 8>), S0_TBS, 0)
