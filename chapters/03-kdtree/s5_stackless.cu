/* s5 - no stack: the walk over the implicit left-balanced tree by index arithmetic.
 *
 * Changed versus s4 (same tree, same build, same Morton-ordered queries): the depth-first walk
 * needs no stack at all.  In the 1-based heap layout the parent of i is i / 2 and the children
 * are 2i, 2i + 1, and a parent's index is smaller than its children's, so one number - the node
 * the walk came from - tells a first visit (from < i: came down from the parent; the root starts
 * with from = 0) from a return (from > i: came back up from a child).  At node i:
 *   first visit:  test the node's point; go down to the near child if it exists, else act as if
 *                 returning from it;
 *   return from the near child:  go down to the far child if it exists and the trim test, made
 *                 NOW with the current k-th best, keeps it (exact-safe: knn_tree.cuh);
 *   otherwise (back from the far child, or it is trimmed or missing):  go up (stop at the root).
 * The near side is recomputed on the return from the same node and the same query (the same
 * rounded subtraction), so the walk retraces its decisions exactly; it visits the same nodes as
 * s3's walk (a subtree is entered under the same test, with a k-th best at least as small).
 * Why it is faster: no local memory at all (no stack frame: registers only), so nothing but the
 * node loads leaves the SM; the far-side test uses the freshest k-th best (s3 tested it twice:
 * at the push and at the pop).  The price: each return re-reads the parent's node (an L1 hit
 * mostly) and spends an iteration.
 * What still limits it: one thread per query - the lanes of a warp still diverge where their
 * queries' paths part; uniform queries are fine, clustered points defeat the plane test.
 * Scratch: as s4 (knn_morton_scratch).
 * Keeps (knn.h): as s2. */
#include "knn_morton.cuh"

#define S5_TPB 128

extern "C" const char knn_s5_stackless_param[] =
    "tpb=128 stackless (parent = i/2) node=float4 morton=b bits/axis (b<=10/7/5 for dim 2/3/4)";

template <int DIM, int KB>
static inline KIT_HD void s5_search(const float4 *__restrict__ nodes, const uint32_t *__restrict__ ids,
                                    uint32_t n, const float (&q)[DIM], uint32_t self, knn_best<KB> &b)
{
    uint32_t i = 1, from = 0; /* n >= 1 */
    for (;;) {
        const float4 p = knn_ld(nodes + i);
        const int a = knn_axis<DIM>(i);
        const float diff = knn_fsub(knn_qcomp<DIM>(q, a), knn_comp4(p, a));
        const uint32_t near = 2u * i + (diff >= 0.0f ? 1u : 0u); /* i < 2^31: no overflow */
        if (from < i) {                                          /* first visit */
            knn_best_visit(b, knn_d2<DIM>(q, p), ids, i, self);
            if (near <= n) {
                from = i;
                i = near;
                continue;
            }
            from = near; /* no near child: as if back from it */
        }
        if (from == near) {
            const uint32_t far = near ^ 1u;
            if (far <= n && !(knn_fmul(diff, diff) > b.d[0])) {
                from = i;
                i = far;
                continue;
            }
        }
        if (i == 1) return;
        from = i;
        i >>= 1;
    }
}

/* the search of the step's knn_morton_kernel (knn_morton.cuh) */
struct s5_searcher {
    static constexpr int TPB = S5_TPB;
    static constexpr bool KB4 = true;
    using params = std::tuple<const void *, uint32_t>; /* tree, n */
    template <int DIM, int KB>
    static __device__ __forceinline__ void search(const float (&q)[DIM], uint32_t self, knn_best<KB> &b,
                                                  const void *tree, uint32_t n)
    {
        s5_search<DIM, KB>(knn_nodes(tree), knn_ids(tree, n), n, q, self, b);
    }
};

extern "C" size_t knn_s5_stackless_tree_bytes(size_t n, int dim)
{
    (void)dim;
    return knn_image_bytes(n);
}

extern "C" cudaError_t knn_s5_stackless_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
{
    return knn_tree_cpu_build(points, n, dim, tree, s);
}

extern "C" size_t knn_s5_stackless_scratch(size_t n, size_t m, int dim, int k)
{
    (void)n, (void)k;
    return knn_morton_scratch(m, dim);
}

/* also s6's query: any tree image of knn_tree.cuh's layout, however it was built */
extern "C" cudaError_t knn_s5_stackless_query(const void *tree, const float *points, size_t n, const float *queries,
                                    size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                    void *scratch, cudaStream_t s)
{
    return knn_morton_query<s5_searcher>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, s,
                                         [&] { return s5_searcher::params(tree, (uint32_t)n); });
}

KIT_DESCRIBE(knn_s5_stackless_describe, (knn_morton_kernel_of<s5_searcher, 3, 1>()), S5_TPB, 0)
