/* s2 - the document's kd-tree search (Brown, ch. 7) on the CPU-built left-balanced tree.
 *
 * Changed versus s1: a tree instead of brute force.  The build phase is the document's: the points
 * go to the host, the chapter's CPU build (knn_lb_build: left-balanced median, quickselect) makes
 * the tree, and its image comes back to the device (knn_tree_cpu_build in knn_tree.cuh: the one
 * host phase of the chapter - it synchronizes the stream and stages the data in a malloc'd host
 * buffer, see there).  The query phase is asynchronous and allocates nothing: one thread per query
 * walks the tree depth first with an explicit stack in SHARED memory, as the document did:
 *   push (root, 0); while the stack is not empty: pop (node, plane); if plane > the k-th best
 *   squared distance, skip the node's subtree (the trim test; exact-safe, knn_tree.cuh); else test
 *   the node's point, then push the offside child with its plane distance and the onside child
 *   with 0, so that the onside child is popped first.
 * A stack entry is the node and the squared plane distance of its parent's split (8 bytes); the
 * stack lives in dynamic shared memory as [level][thread] words (conflict-free: consecutive lanes
 * use consecutive banks), levels(n) = floor(log2 n) + 1 entries per thread.
 * Stack bound (levels(n) entries suffice for this push order): the root is alone on the stack.
 * Afterwards the entries' depths, bottom to top, increase strictly except that the top two may be
 * equal: popping the top (depth d) leaves a strictly increasing stack whose top is <= d, and the
 * children pushed next both have depth d + 1.  So the stack holds at most one entry per depth
 * 1 .. D plus one: D + 1 = floor(log2 n) + 1 entries, <= 31 for n <= KNN_MAX_N.
 * The k best: knn_best (registers, sorted, the worst in a fixed register: knn_tree.cuh).
 * Nodes are read as dim scalar floats (the node layout is already the float4 image of s3).
 * Why it is faster: O(log n) expected node visits per query instead of n distances.
 * What still limits it: every lane walks its own path (queries in input order: a uniform input
 * puts far-apart queries in one warp, which pays for the union of their paths), the shared stack
 * limits the resident threads (8 B x levels per thread), dim + 1 scalar loads per node, and the
 * document's tiny blocks (its best: 4 - 16 threads on a GTX 285) leave most lanes of a warp idle
 * on a modern GPU - the tuning table knn_s2_tpb_variants measures 4 .. 128 threads.
 * Keeps (knn.h): dim 2 .. 4, k 1 .. 32 (register buckets 1, 4, 8, 16, 32), n and m up to KNN_MAX_N,
 * any 4-byte aligned points / queries / outputs, exact (d2, index) answers, n = 0 -> no
 * neighbours. */
#include "knn_tree.cuh"

#define S2_TPB 64         /* the ladder step's block size */
#define S2_DESC_LEVELS 21 /* describe(): the stack of a tree of 2^20 .. 2^21 - 1 points */

extern "C" const char knn_s2_tree_shared_param[] = "tpb=64 stack=shared (8 B x levels per thread) k-buckets=1/4/8/16/32";

template <int DIM, int KB>
static inline KIT_HD void s2_search(const float *__restrict__ nodef, const uint32_t *__restrict__ ids,
                                    uint32_t n, const float (&q)[DIM], uint32_t self, knn_best<KB> &b,
                                    uint32_t *stk_node, float *stk_plane, int stride)
{
    int sp = 1;
    stk_node[0] = 1u;
    stk_plane[0] = 0.0f;
    while (sp > 0) {
        --sp;
        const uint32_t i = stk_node[sp * stride];
        if (stk_plane[sp * stride] > b.d[0]) continue; /* trimmed */
        float p[DIM];
        KNN_UNROLL
        for (int a = 0; a < DIM; a++) p[a] = knn_ld(nodef + (size_t)i * 4 + a);
        knn_best_visit(b, knn_dist2(q, p, DIM), ids, i, self);
        const int a = knn_axis<DIM>(i);
        const float diff = knn_fsub(knn_qcomp<DIM>(q, a), knn_qcomp<DIM>(p, a));
        const uint32_t near = 2u * i + (diff >= 0.0f ? 1u : 0u), far = near ^ 1u; /* i < 2^31 */
        if (far <= n) {                                                           /* offside first */
            stk_node[sp * stride] = far;
            stk_plane[sp * stride] = knn_fmul(diff, diff);
            sp++;
        }
        if (near <= n) { /* onside on top */
            stk_node[sp * stride] = near;
            stk_plane[sp * stride] = 0.0f;
            sp++;
        }
    }
}

/* one thread per query j; the stack: words [0, levels TPB) nodes, then as many planes */
template <int DIM, int KB, int TPB>
static __global__ void __launch_bounds__(TPB)
    s2_query_kernel(const void *tree, uint32_t n, const float *queries, size_t m, int k, int all,
                    uint32_t *idx, float *dist2)
{
    extern __shared__ uint32_t s2_stack[];
    const size_t j = (size_t)blockIdx.x * TPB + threadIdx.x;
    if (j >= m) return; /* no barrier follows */
    const int levels = knn_log2u(n) + 1;
    float q[DIM];
    knn_load_query<DIM>(queries, j, q);
    knn_best<KB> b;
    knn_best_init(b, k);
    s2_search<DIM, KB>((const float *)knn_nodes(tree), knn_ids(tree, n), n, q, all ? (uint32_t)j : KNN_NONE,
                       b, s2_stack + threadIdx.x, (float *)(s2_stack + (size_t)levels * TPB) + threadIdx.x,
                       TPB);
    knn_best_store(b, k, j, idx, dist2);
}

/* dynamic shared memory: 8 bytes x levels(n) per thread; <= 31 x 128 x 8 = 31 KB (no opt-in) */
static size_t s2_smem(size_t n, int tpb) { return (size_t)(knn_log2u((uint32_t)n) + 1) * (size_t)tpb * 8u; }

template <int TPB>
static cudaError_t s2_run(const void *tree, const float *points, size_t n, const float *queries, size_t m,
                          int dim, int k, int all, uint32_t *idx, float *dist2, void *scratch, cudaStream_t s)
{
    static_assert(TPB >= 1 && TPB <= 128, "the shared stack of 128 threads x 31 levels is the 48 KB limit");
    return knn_query_launch<TPB>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, true, s,
                                 [&](auto dd, auto kk, unsigned grid) {
                                     s2_query_kernel<decltype(dd)::value, decltype(kk)::value, TPB>
                                         <<<grid, TPB, s2_smem(n, TPB), s>>>(tree, (uint32_t)n, queries, m, k,
                                                                             all, idx, dist2);
                                     return cudaSuccess;
                                 });
}

template <int TPB>
static cudaError_t s2_describe(kit_kernel_desc *d)
{
    d->func = (const void *)s2_query_kernel<3, 1, TPB>;
    d->block_threads = TPB;
    d->dyn_smem = (size_t)S2_DESC_LEVELS * TPB * 8u;
    return cudaSuccess;
}

extern "C" size_t knn_s2_tree_shared_tree_bytes(size_t n, int dim)
{
    (void)dim;
    return knn_image_bytes(n);
}

extern "C" cudaError_t knn_s2_tree_shared_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
{
    return knn_tree_cpu_build(points, n, dim, tree, s);
}

extern "C" size_t knn_s2_tree_shared_scratch(size_t n, size_t m, int dim, int k)
{
    (void)n, (void)m, (void)dim, (void)k;
    return 0;
}

extern "C" cudaError_t knn_s2_tree_shared_query(const void *tree, const float *points, size_t n, const float *queries,
                                    size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                    void *scratch, cudaStream_t s)
{
    return s2_run<S2_TPB>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, s);
}

extern "C" cudaError_t knn_s2_tree_shared_describe(kit_kernel_desc *d) { return s2_describe<S2_TPB>(d); }

// clang-format off
/* ---- tuning table: threads per block (the document's Fig. 7.7: its best were 4 - 16) */
#define S2_FILE "chapters/03-kdtree/s2_tree_shared.cu"
#define S2_VARIANT(T)                                                                                   \
    {{"s2_tree_shared", "tpb=" #T " stack=shared (8 B x levels per thread) k-buckets=1/4/8/16/32",     \
      "the document's search: CPU-built tree, one thread per query, stack in shared memory", S2_FILE,  \
      NULL, KIT_STEP_GPU, s2_describe<T>, 0, 0},                                                        \
     knn_s2_tree_shared_tree_bytes, knn_s2_tree_shared_build, knn_s2_tree_shared_scratch, s2_run<T>,   \
     KNN_COST_TREE}

static_assert(KNN_S2_NVARIANTS == 6, "knn.h's KNN_S2_NVARIANTS must match the table below");
extern "C" const knn_step knn_s2_tpb_variants[KNN_S2_NVARIANTS] = {
    S2_VARIANT(4), S2_VARIANT(8), S2_VARIANT(16), S2_VARIANT(32), S2_VARIANT(64), S2_VARIANT(128),
};
// clang-format on
