/* s4 - queries in Morton order: coherent warps.
 *
 * Changed versus s3 (same tree, same build, same local-stack search): the query phase first
 * orders the queries along a Morton curve over the points' bounding box (knn_morton.cuh: a code
 * per query, a counting sort of the codes' buckets - atomic histogram, the shared single-pass
 * exclusive scan of reference/blocks/scan_u32.cuh, atomic scatter of the query indices), then
 * thread t answers query perm[t] and writes to that query's own slots.  The document saw a small gain
 * from All-NN queries in tree order (its section 7.5); the reason is the same here, and larger on a GPU with wide
 * warps: a warp's 32 queries now lie in one small patch of space, so its lanes walk nearly the
 * same nodes (less divergence, the same node loads served once from L1).
 * Cost: three small kernels and one scan over 2^(b dim) buckets per query run (b per axis from m,
 * knn_morton.cuh), and the scattered writes of the answers (a bucket's queries are neighbours in
 * space but not in memory).
 * What still limits it: the local stack (memory traffic per push and pop, 256 bytes of local
 * memory per thread); the trim test is the 1D plane distance, weak for clustered data.
 * Scratch (exact): knn_morton_scratch(m, dim) = round256(4 m) + round256(4 B) +
 * blk_scan_u32_scratch(B), B = 2^(b dim) buckets; 0 for m = 0.
 * Keeps (knn.h): as s2. */
#include "knn_morton.cuh"

#define S4_TPB 128

extern "C" const char knn_s4_morton_param[] =
    "tpb=128 stack=local (32 x 8 B) node=float4 morton=b bits/axis (b<=10/7/5 for dim 2/3/4)";

/* the search of the step's knn_morton_kernel (knn_morton.cuh): s3's local-stack walk */
struct s4_searcher {
    static constexpr int TPB = S4_TPB;
    static constexpr bool KB4 = false; /* as s3: KB = 8 for k = 2 .. 8 */
    using params = std::tuple<const void *, uint32_t>; /* tree, n */
    template <int DIM, int KB>
    static __device__ __forceinline__ void search(const float (&q)[DIM], uint32_t self, knn_best<KB> &b,
                                                  const void *tree, uint32_t n)
    {
        knn_search_local<DIM, KB>(knn_nodes(tree), knn_ids(tree, n), n, q, self, b);
    }
};

extern "C" size_t knn_s4_morton_tree_bytes(size_t n, int dim)
{
    (void)dim;
    return knn_image_bytes(n);
}

extern "C" cudaError_t knn_s4_morton_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
{
    return knn_tree_cpu_build(points, n, dim, tree, s);
}

extern "C" size_t knn_s4_morton_scratch(size_t n, size_t m, int dim, int k)
{
    (void)n, (void)k;
    return knn_morton_scratch(m, dim);
}

extern "C" cudaError_t knn_s4_morton_query(const void *tree, const float *points, size_t n, const float *queries,
                                    size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                    void *scratch, cudaStream_t s)
{
    return knn_morton_query<s4_searcher>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, s,
                                         [&] { return s4_searcher::params(tree, (uint32_t)n); });
}

KIT_DESCRIBE(knn_s4_morton_describe, (knn_morton_kernel_of<s4_searcher, 3, 1>()), S4_TPB, 0)
