/* s3 - the stack in registers / local memory, nodes as aligned float4 loads.
 *
 * Changed versus s2 (same CPU-built tree, same build phase, same exact trim test):
 *   - the stack is a per-thread array (knn_search_local in knn_tree.cuh): local memory, cached in
 *     L1, instead of shared memory, so shared memory no longer limits the resident threads and
 *     blocks have a normal size (128 threads);
 *   - the walk goes down to the near child at once and pushes only the far child, with its plane
 *     distance, and only when the current k-th best does not already trim it (at most one entry
 *     per depth: KNN_STACK = 32 entries; the proof is in knn_tree.cuh); a popped entry is tested
 *     again against the k-th best, which may have shrunk since;
 *   - a node is one float4 (the document's __align__ node, which its section 7.5 found faster): one 16-byte load
 *     through the read-only path instead of dim scalar loads; the point's index lives in its own
 *     array and is loaded only when the distance can enter the k best (d2 <= the k-th best).
 * Why it should be faster: fewer and wider loads per node, half the stack traffic (the near child
 * is never pushed), no shared-memory occupancy limit.  Measured, it is slower than s2 on Hopper
 * (the README's ladder table, section s3).  The likely cause, not yet profiled: ptxas gives the kernel 28 registers
 * and a 256-byte stack frame, so an SM holds 2048 threads, and at 10^6 points (20 levels, up to
 * 160 live bytes of stack each) their stacks alone can exceed the SM's 256 KB of L1 + shared
 * memory, which also caches the node loads: pushes and pops fall through to L2.  s2's stack has
 * shared memory to itself (19 blocks of 64 threads).  s4 and s5 keep the float4 nodes and win the
 * time back (Morton order, then no stack at all).
 * What still limits it: the queries are walked in input order, so the 32 lanes of a warp follow 32
 * unrelated paths (a warp costs the union of them); the local stack is memory traffic (8 B per
 * push and pop, L1 hits mostly).  For the same reason, likely, s3 and s4 have no k bucket 4 (the
 * other steps do): with a local stack, KB = 8 measured faster than KB = 4 at k = 2 and 4, while the
 * stackless steps gain from KB = 4; KB = 4 needs fewer registers, so more threads fit an SM and
 * more stacks share L1.
 * Keeps (knn.h): as s2. */
#include "knn_tree.cuh"

#define S3_TPB 128

extern "C" const char knn_s3_tree_local_param[] = "tpb=128 stack=local (32 x 8 B) node=float4 k-buckets=1/8/16/32";

template <int DIM, int KB>
static __global__ void __launch_bounds__(S3_TPB)
    s3_query_kernel(const void *tree, uint32_t n, const float *queries, size_t m, int k, int all,
                    uint32_t *idx, float *dist2)
{
    const size_t j = (size_t)blockIdx.x * S3_TPB + threadIdx.x;
    if (j >= m) return;
    float q[DIM];
    knn_load_query<DIM>(queries, j, q);
    knn_best<KB> b;
    knn_best_init(b, k);
    knn_search_local<DIM, KB>(knn_nodes(tree), knn_ids(tree, n), n, q, all ? (uint32_t)j : KNN_NONE, b);
    knn_best_store(b, k, j, idx, dist2);
}

extern "C" size_t knn_s3_tree_local_tree_bytes(size_t n, int dim)
{
    (void)dim;
    return knn_image_bytes(n);
}

extern "C" cudaError_t knn_s3_tree_local_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
{
    return knn_tree_cpu_build(points, n, dim, tree, s);
}

extern "C" size_t knn_s3_tree_local_scratch(size_t n, size_t m, int dim, int k)
{
    (void)n, (void)m, (void)dim, (void)k;
    return 0;
}

extern "C" cudaError_t knn_s3_tree_local_query(const void *tree, const float *points, size_t n, const float *queries,
                                    size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                    void *scratch, cudaStream_t s)
{
    /* no k bucket 4 (false): KB = 8 serves k = 2 .. 8, see the opening comment */
    return knn_query_launch<S3_TPB, false>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, true, s,
                                           [&](auto dd, auto kk, unsigned grid) {
                                               s3_query_kernel<decltype(dd)::value, decltype(kk)::value>
                                                   <<<grid, S3_TPB, 0, s>>>(tree, (uint32_t)n, queries, m, k,
                                                                            all, idx, dist2);
                                               return cudaSuccess;
                                           });
}

KIT_DESCRIBE(knn_s3_tree_local_describe, (s3_query_kernel<3, 1>), S3_TPB, 0)
