/* s7 - bucket leaves and tight bounding boxes: a search that survives clustered data.
 *
 * Changed versus s6 (same GPU build, same Morton-ordered queries, still stackless): the search
 * stops splitting at the first level Lb whose subtrees hold <= S7_LEAF points (levels Lb .. D of
 * the left-balanced tree become bucket leaves), and it trims by BOUNDING BOXES instead of planes.
 *   - Leaves: a node i of level Lb owns the in-order ranks [start(i), start(i) + size(i)) of its
 *     whole subtree (knn_tree.cuh), so with the points stored in in-order rank a leaf is one
 *     contiguous run of float4 points: a short linear scan, the same addresses for the lanes of a
 *     warp whose (Morton-ordered) queries share the leaf.
 *   - Boxes: every node of levels 0 .. Lb has the tight box (per-axis min and max) of the points of
 *     its subtree, two float4.  The walk enters a child only when the squared distance from the
 *     query to the child's box is <= the k-th best.  On clustered points the splitting planes of
 *     a median kd-tree cut through empty space: a query far from every blob is close to many
 *     planes, so the plane test of s2 .. s6 lets it into subtrees whose points are all far away;
 *     the tight box of such a subtree is where its points are, and the test rejects it.
 * Exact-safe box test: d2box = knn_dist2(q, c) with c = q clamped to the box per axis.  For any
 * point p in the box, c_a lies between q_a and p_a (or equals q_a), so |q_a - c_a| <= |q_a - p_a|;
 * rounding to nearest is monotone, so every rounded term of d2box is <= the matching term of d2(p),
 * and the left-to-right rounded sum of smaller non-negative terms is <= the sum of the larger ones
 * (each rounded addition is monotone in both arguments): d2box <= d2(p).  A child is skipped only
 * when d2box > the k-th best, so no skipped point could have entered the k best, ties included.
 * The walk (parent = i / 2, first visit when coming from below the node's index, as in s5):
 *   internal node (level < Lb): first visit - test its own point (node i of the heap image), go
 *   to the near child (the plane side of the query, recomputed identically on the way back) if it
 *   exists and its box passes, else act as back from it; back from the near child - go to the far
 *   child if it exists and its box passes NOW; otherwise up.  Leaf: scan its run, go up.
 * Build: knn_s6_gpu_build_build (the image: header, heap nodes, GPU-built), then s7_gather puts the points in
 * in-order rank (in[p] = node[knn_lb_inorder_node(p)]), s7_leaf_boxes reduces each leaf's run, and
 * one s7_up_boxes launch per level Lb - 1 .. 0 merges two child boxes and the node's own point.
 * Tree bytes (exact): round256(knn_s6_gpu_build_tree_bytes(n)) + round256(16 n) + round256(4 n)
 *                     + round256(32 * 2^(Lb + 1)).
 * Why it is faster on clustered data: far fewer nodes entered (boxes, not planes), and the leaf
 * points are scanned as contiguous runs.  What it costs: 32 bytes of box per node of the top Lb
 * levels (~4 bytes per point with leaves of 8 .. 16 points), a box load and a clamped distance per
 * child test, and leaf scans that test points a plane-trimmed walk might have skipped.
 * What still limits it: the tree's geometry.  Replayed on the host against nanoflann, this walk
 * does about nanoflann's work on uniform points and loose blobs, but on tight blobs it takes several
 * times nanoflann's time (s5's plane-trimmed walk far more), and an oracle that knows the final k-th
 * distance from the start enters only a few nodes fewer: the walk is not the problem.  Median splits along a cyclic axis cut a tight
 * blob's sparse tail into long boxes that reach far out, and a far query's ball touches many of
 * them; nanoflann splits at the middle of the widest side, which isolates the tails.  On
 * `collinear` (points on one line; the README's Inputs section) two levels in three split on a
 * constant coordinate, where equal keys go to either side in no spatial order, so (the likely cause)
 * sibling boxes overlap on the line.
 * The next step is such a data-adaptive tree (explicit child links, e.g. a radix tree over Morton
 * codes with bucket leaves; a plain Z-order BVH with fixed leaves was tried on the host and is
 * worse: Z-ranges that straddle cells make huge boxes).  Also: one thread per query.
 * Scratch: as s4 (knn_morton_scratch).  Keeps (knn.h): as s2. */
#include "knn_morton.cuh"

#define S7_TPB 128
#define S7_LEAF 16 /* bucket leaves: the first level whose subtrees hold at most this many points */
#define S7_BOX_TPB 256

extern "C" const char knn_s7_buckets_param[] =
    "tpb=128 leaves<=16 points (in-order runs) tight boxes per node, stackless, morton; build: s6";

struct s7_plan {
    knn_lb lb;
    int Lb; /* the leaf level */
    size_t off_in, off_inid, off_box, bytes;
};

static void s7_make_plan(size_t n, s7_plan *P) /* 1 <= n <= KNN_MAX_N */
{
    int l = 0;
    P->lb = knn_lb_shape(n);
    while (knn_lb_size(P->lb, (uint64_t)1 << l) > S7_LEAF) l++; /* ends: size(2^D) = 1 */
    P->Lb = l;
    size_t o = knn_round256(knn_s6_gpu_build_tree_bytes(n, 3));
    P->off_in = o;
    o += knn_round256(n * sizeof(float4));
    P->off_inid = o;
    o += knn_round256(n * sizeof(uint32_t));
    P->off_box = o;
    o += knn_round256(((size_t)2 << l) * 2 * sizeof(float4));
    P->bytes = o;
}

/* ---------------------------------------------------------------- the search */

/* the query's squared distance to box c (lo = boxes[2c], hi = boxes[2c + 1]) may be <= worst */
template <int DIM>
static inline KIT_HD bool s7_box_passes(const float4 *boxes, uint32_t c, const float (&q)[DIM], float worst)
{
    const float4 lo = knn_ld(boxes + 2 * (size_t)c), hi = knn_ld(boxes + 2 * (size_t)c + 1);
    float cl[DIM];
    KNN_UNROLL
    for (int a = 0; a < DIM; a++) cl[a] = fminf(fmaxf(q[a], knn_comp4(lo, a)), knn_comp4(hi, a));
    return !(knn_dist2(q, cl, DIM) > worst);
}

template <int DIM, int KB>
static inline KIT_HD void s7_search(const float4 *__restrict__ nodes, const uint32_t *__restrict__ ids,
                                    const float4 *__restrict__ in, const uint32_t *__restrict__ inid,
                                    const float4 *__restrict__ boxes, knn_lb lb, int Lb,
                                    const float (&q)[DIM], uint32_t self, knn_best<KB> &b)
{
    const uint32_t n = (uint32_t)lb.n, first_leaf = 1u << Lb; /* Lb <= D <= 30 */
    uint32_t i = 1, from = 0;
    for (;;) {
        if (i >= first_leaf) { /* a leaf, entered from its parent: scan its run */
            const uint32_t st = (uint32_t)knn_lb_start(lb, i), end = st + (uint32_t)knn_lb_size(lb, i);
            for (uint32_t e = st; e < end; e++) {
                const float d = knn_d2<DIM>(q, knn_ld(in + e));
                if (d <= b.d[0]) {
                    const uint32_t id = knn_ld(inid + e);
                    if (id != self) knn_best_offer(b, d, id);
                }
            }
            if (i == 1) return; /* Lb = 0: the root is the only leaf */
            from = i;
            i >>= 1;
            continue;
        }
        /* an internal node (level < Lb <= D: it exists) */
        const float4 p = knn_ld(nodes + i);
        const int a = knn_axis<DIM>(i);
        const float diff = knn_fsub(knn_qcomp<DIM>(q, a), knn_comp4(p, a));
        const uint32_t near = 2u * i + (diff >= 0.0f ? 1u : 0u);
        if (from < i) { /* first visit */
            knn_best_visit(b, knn_d2<DIM>(q, p), ids, i, self);
            if (near <= n && s7_box_passes<DIM>(boxes, near, q, b.d[0])) {
                from = i;
                i = near;
                continue;
            }
            from = near; /* near child missing or trimmed: as if back from it */
        }
        if (from == near) {
            const uint32_t far = near ^ 1u;
            if (far <= n && s7_box_passes<DIM>(boxes, far, q, b.d[0])) {
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

/* the search of the step's knn_morton_kernel (knn_morton.cuh); the tree's parts from s7_plan */
struct s7_searcher {
    static constexpr int TPB = S7_TPB;
    static constexpr bool KB4 = true;
    using params = std::tuple<const void *, knn_lb, int, const float4 *, const uint32_t *, const float4 *>;
    template <int DIM, int KB>
    static __device__ __forceinline__ void search(const float (&q)[DIM], uint32_t self, knn_best<KB> &b,
                                                  const void *tree, const knn_lb &lb, int Lb, const float4 *in,
                                                  const uint32_t *inid, const float4 *boxes)
    {
        s7_search<DIM, KB>(knn_nodes(tree), knn_ids(tree, lb.n), in, inid, boxes, lb, Lb, q, self, b);
    }
};

/* ---------------------------------------------------------------- the build's extra passes */

/* the points in in-order rank */
static __global__ void __launch_bounds__(S7_BOX_TPB)
    s7_gather(const float4 *__restrict__ nodes, const uint32_t *__restrict__ ids, knn_lb lb,
              float4 *__restrict__ in, uint32_t *__restrict__ inid)
{
    const size_t p = (size_t)blockIdx.x * S7_BOX_TPB + threadIdx.x;
    if (p >= lb.n) return;
    const uint64_t f = knn_lb_inorder_node(lb, p);
    in[p] = nodes[f];
    inid[p] = ids[f];
}

static inline KIT_HD void s7_grow(float4 &lo, float4 &hi, float4 p)
{
    lo.x = fminf(lo.x, p.x), lo.y = fminf(lo.y, p.y), lo.z = fminf(lo.z, p.z), lo.w = fminf(lo.w, p.w);
    hi.x = fmaxf(hi.x, p.x), hi.y = fmaxf(hi.y, p.y), hi.z = fmaxf(hi.z, p.z), hi.w = fmaxf(hi.w, p.w);
}

/* one thread per leaf (node of level Lb): the box of its run */
static __global__ void __launch_bounds__(S7_BOX_TPB)
    s7_leaf_boxes(const float4 *__restrict__ in, knn_lb lb, int Lb, float4 *__restrict__ boxes)
{
    const uint64_t i = ((uint64_t)1 << Lb) + (uint64_t)blockIdx.x * S7_BOX_TPB + threadIdx.x;
    if (i >= ((uint64_t)2 << Lb) || i > lb.n) return;
    const uint64_t st = knn_lb_start(lb, i), end = st + knn_lb_size(lb, i);
    float4 lo = in[st], hi = lo; /* size >= 1: i is a node */
    for (uint64_t e = st + 1; e < end; e++) s7_grow(lo, hi, in[e]);
    boxes[2 * i] = lo;
    boxes[2 * i + 1] = hi;
}

/* one thread per node of level l < Lb (all exist): its point and its children's boxes */
static __global__ void __launch_bounds__(S7_BOX_TPB)
    s7_up_boxes(const float4 *__restrict__ nodes, knn_lb lb, int l, float4 *__restrict__ boxes)
{
    const uint64_t i = ((uint64_t)1 << l) + (uint64_t)blockIdx.x * S7_BOX_TPB + threadIdx.x;
    if (i >= ((uint64_t)2 << l)) return;
    float4 lo = nodes[i], hi = lo;
    for (uint64_t c = 2 * i; c <= 2 * i + 1; c++)
        if (c <= lb.n) {
            s7_grow(lo, hi, boxes[2 * c]);
            s7_grow(lo, hi, boxes[2 * c + 1]);
        }
    boxes[2 * i] = lo;
    boxes[2 * i + 1] = hi;
}

/* ---------------------------------------------------------------- the step */

extern "C" size_t knn_s7_buckets_tree_bytes(size_t n, int dim)
{
    s7_plan P;
    (void)dim;
    if (n == 0 || n > KNN_MAX_N) return 0;
    s7_make_plan(n, &P);
    return P.bytes;
}

extern "C" cudaError_t knn_s7_buckets_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
{
    s7_plan P;
    KIT_TRY(knn_tree_build_args(points, n, dim, tree));
    if (n == 0) return cudaSuccess;
    s7_make_plan(n, &P);
    const unsigned gather_grid = kit_blocks_for(n, S7_BOX_TPB);
    const unsigned leaf_grid = kit_blocks_for((size_t)1 << P.Lb, S7_BOX_TPB);
    if (!gather_grid || !leaf_grid) return cudaErrorInvalidValue;
    KIT_TRY(knn_s6_gpu_build_build(points, n, dim, tree, s));
    char *base = (char *)tree;
    const float4 *nodes = knn_nodes(tree);
    const uint32_t *ids = knn_ids(tree, n);
    float4 *in = (float4 *)(base + P.off_in), *boxes = (float4 *)(base + P.off_box);
    uint32_t *inid = (uint32_t *)(base + P.off_inid);
    s7_gather<<<gather_grid, S7_BOX_TPB, 0, s>>>(nodes, ids, P.lb, in, inid);
    KIT_TRY(cudaGetLastError());
    s7_leaf_boxes<<<leaf_grid, S7_BOX_TPB, 0, s>>>(in, P.lb, P.Lb, boxes);
    KIT_TRY(cudaGetLastError());
    for (int l = P.Lb - 1; l >= 0; l--) {
        s7_up_boxes<<<kit_blocks_for((size_t)1 << l, S7_BOX_TPB), S7_BOX_TPB, 0, s>>>(nodes, P.lb, l, boxes);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

extern "C" size_t knn_s7_buckets_scratch(size_t n, size_t m, int dim, int k)
{
    (void)n, (void)k;
    return knn_morton_scratch(m, dim);
}

extern "C" cudaError_t knn_s7_buckets_query(const void *tree, const float *points, size_t n, const float *queries,
                                    size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                    void *scratch, cudaStream_t s)
{
    return knn_morton_query<s7_searcher>(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, s, [&] {
        s7_plan P;
        s7_make_plan(n, &P); /* n >= 1 here */
        const char *base = (const char *)tree;
        return s7_searcher::params(tree, P.lb, P.Lb, (const float4 *)(base + P.off_in),
                                   (const uint32_t *)(base + P.off_inid), (const float4 *)(base + P.off_box));
    });
}

KIT_DESCRIBE(knn_s7_buckets_describe, (knn_morton_kernel_of<s7_searcher, 3, 1>()), S7_TPB, 0)
