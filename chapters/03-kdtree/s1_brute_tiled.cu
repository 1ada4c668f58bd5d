/* s1 - brute force through shared memory: the points are staged in tiles.
 * Changed versus s0: a block of 128 queries loads the next 128 points once, cooperatively (one
 * point per thread, into a float4 slot of shared memory), then every thread compares its query
 * with all of them from shared memory; two barriers per tile.  Same exact distance, same k best.
 * Why it is faster: a point costs one 16-byte shared-memory broadcast per warp instead of
 * DIM scalar global loads per warp (s0 re-reads every point through L1 in every warp); the
 * global traffic drops by the 4 warps of a block; the inner loop is pure arithmetic.  It is
 * the step that wins at small n, where a tree's build and divergent search cost more than
 * n m distances.
 * What still limits it: the n m distances themselves (about 10 instructions each); few
 * queries (m below a few thousand) leave most SMs idle, since nothing splits the points
 * among blocks.
 * Contract: threads past m still load tiles and reach every barrier (no early return);
 * the last tile is partial (cnt < 128); the points at any 4-byte address (scalar loads);
 * n, m <= KNN_MAX_N in size_t; no scratch, no tree. */
#include "knn_tree.cuh"

#define S1_TBS 128
#define S1_TILE S1_TBS /* points per tile: one per thread */
extern "C" const char knn_s1_brute_tiled_param[] = "tbs=128 tile=128 points (float4 in shared) K=1/4/8/16/32";

template <int DIM, int K>
__global__ void __launch_bounds__(S1_TBS)
    s1_kernel(const float *__restrict__ points, size_t n, const float *__restrict__ queries, size_t m, int k,
              int all, uint32_t *__restrict__ idx, float *__restrict__ dist2)
{
    __shared__ float4 tile[S1_TILE];
    const size_t j = (size_t)blockIdx.x * S1_TBS + threadIdx.x;
    const bool active = j < m;
    float q[DIM];
#pragma unroll
    for (int a = 0; a < DIM; a++) q[a] = active ? queries[j * DIM + a] : 0.0f;
    const uint32_t self = active && all ? (uint32_t)j : KNN_NONE;
    knn_best<K> best;
    knn_best_init(best, k);
    for (size_t base = 0; base < n; base += S1_TILE) { /* the same trip count in every thread */
        const unsigned cnt = n - base < (size_t)S1_TILE ? (unsigned)(n - base) : (unsigned)S1_TILE;
        __syncthreads(); /* every thread is done with the previous tile */
        if (threadIdx.x < cnt) {
            const float *p = points + (base + threadIdx.x) * DIM;
            tile[threadIdx.x] = make_float4(p[0], p[1], DIM > 2 ? p[2] : 0.0f, DIM > 3 ? p[3] : 0.0f);
        }
        __syncthreads(); /* the tile is complete */
        if (active) {
#pragma unroll 4
            for (unsigned t = 0; t < cnt; t++) {
                const float4 v = tile[t];
                const float c[4] = {v.x, v.y, v.z, v.w};
                const float d2 = knn_dist2(q, c, DIM);
                const uint32_t ci = (uint32_t)(base + t);
                if (knn_pair_key(d2, ci) < knn_pair_key(best.d[0], best.i[0]) && ci != self)
                    knn_best_insert(best, d2, ci);
            }
        }
    }
    if (active) knn_best_store(best, k, j, idx, dist2);
}

extern "C" size_t knn_s1_brute_tiled_tree_bytes(size_t n, int dim)
{
    (void)n, (void)dim;
    return 0;
}

extern "C" cudaError_t knn_s1_brute_tiled_build(const float *points, size_t n, int dim, void *tree,
                                                cudaStream_t s)
{
    (void)s;
    return knn_check_build(points, n, dim, tree, 0); /* nothing to build */
}

extern "C" size_t knn_s1_brute_tiled_scratch(size_t n, size_t m, int dim, int k)
{
    (void)n, (void)m, (void)dim, (void)k;
    return 0;
}

extern "C" cudaError_t knn_s1_brute_tiled_query(const void *tree, const float *points, size_t n,
                                                const float *queries, size_t m, int dim, int k, int all,
                                                uint32_t *idx, float *dist2, void *scratch, cudaStream_t s)
{
    return knn_query_launch<S1_TBS>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, false, s,
                                    [&](auto dd, auto kk, unsigned grid) {
                                        s1_kernel<decltype(dd)::value, decltype(kk)::value>
                                            <<<grid, S1_TBS, 0, s>>>(points, n, queries, m, k, all, idx, dist2);
                                        return cudaSuccess;
                                    });
}

KIT_DESCRIBE(knn_s1_brute_tiled_describe, (s1_kernel<3, 8>), S1_TBS, 0)
