/* knn_tree.cuh - what the tree steps (s2 .. s7) share: the tree image, the left-balanced shape
 * arithmetic, the exact trim test, the local-stack search (s3, s4), the host build of the CPU-tree
 * steps; and what every step (s0 .. s7) shares: the k best pairs in registers (knn_best.cuh,
 * included here), the query phase's entry (argument checks, All-kNN's query pointer), its
 * launcher and the dim / k dispatch.
 *
 * The functions marked KIT_HD run on the host too: a throwaway host program checked them against
 * brute force (the searches) and against an explicit recursion (the shape arithmetic).
 *
 * ---------------------------------------------------------------- the tree image
 * Every tree step stores the same image at the start of its tree bytes (s6 builds it on the GPU):
 *   [0, 256)                  knn_tree_hdr: the points' bounding box, as order keys (knn_key);
 *                             axes >= dim hold 0
 *   [256, 256 + 16 (n + 1))   node[i], i = 0 .. n, float4: the point of node i (coordinates past
 *                             dim are 0; node 0 unused) - one aligned 16-byte load per node
 *   then 4 (n + 1) bytes      id[i]: the original index of node i's point (id[0] unused)
 * knn_image_bytes(n) = 256 + 20 (n + 1) for n >= 1, 0 for n = 0.
 *
 * The tree is left-balanced (knn.h, knn_lb_build): node i in 1 .. n, children 2i and 2i + 1 (an
 * index > n is no node), split axis of node i = depth(i) % dim with depth(1) = 0, split value =
 * the node's own coordinate; the left subtree's coordinates are <= the split, the right's >=.
 *
 * ---------------------------------------------------------------- the exact trim test
 * A search skips the subtree beyond node i's plane only when plane > worst, where
 *   diff = fl(q_a - s)   (s = the split, a = the axis, fl = round to nearest, __fsub_rn)
 *   plane = fl(diff * diff)                                              (__fmul_rn)
 * and worst is the k-th best squared distance kept so far (+inf while fewer than k are kept).
 * Why no point p of that subtree can then enter the k best: p lies beyond the plane, so either
 * q_a < s <= p_a or p_a <= s <= q_a, and |q_a - p_a| >= |q_a - s| in real numbers.  Rounding to
 * nearest is monotone (x <= y implies fl(x) <= fl(y)) and odd (fl(-x) = -fl(x)), so
 * |fl(q_a - p_a)| >= |fl(q_a - s)| = |diff|, and squaring (monotone in |t|, again rounded
 * monotonically) gives t_a = fl(fl(q_a - p_a)^2) >= plane.  knn_dist2 adds non-negative rounded
 * terms left to right: every partial sum S' = fl(S + t) with S >= 0 satisfies S' >= fl(t) = t, and
 * later sums never decrease, so d2(p) >= t_a >= plane > worst: p is strictly farther than the k-th
 * best, in the (d2, index) order whatever its index.  With plane == worst the subtree is still
 * searched (a point at exactly that distance with a lower index wins the tie).  The sign of diff
 * is the sign of q_a - s (gradual underflow: fl(x - y) = 0 only when x == y), so the near child
 * (left when diff < 0, right otherwise) is the side of the plane the query is on; on a tie
 * (diff = 0) both children have plane 0 and neither is ever trimmed.  NaN coordinates make every
 * comparison false: the search still ends (it walks a finite implicit tree) and faults nowhere.
 *
 * ---------------------------------------------------------------- the k best
 * knn_best<KB> holds KB (distance, index) pairs in registers, KB a compile-time bucket >= k
 * (1, 4, 8, 16, 32), sorted DESCENDING in the (d2, index) order: slot 0 is the worst kept pair, so
 * the trim distance is always the register d[0].  Slots 0 .. k-1 start as (+inf, KNN_NONE), which
 * every real pair precedes (indices < 2^31); slots k .. KB-1 hold (-inf, 0), which precede every
 * real pair, so they never move and the runtime k needs no dynamic register index.  An insertion
 * drops slot 0 and shifts the larger pairs down one slot (a fully unrolled, predicated loop).  Every
 * step keeps its k best this way, s0 and s1 too (they test a candidate against slot 0 as one 64-bit
 * key, knn_pair_key): a candidate that cannot enter costs one compare with the registers of slot 0. */
#ifndef KNN_TREE_CUH
#define KNN_TREE_CUH

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "kit_cuda.cuh"
#include "knn.h"
#include "knn_best.cuh" /* the k best pairs in registers (KNN_UNROLL too) */

#define KNN_HDR_BYTES 256
#define KNN_STACK 32 /* local-stack entries: > the 30 levels below the root of a tree of KNN_MAX_N */

typedef struct knn_tree_hdr {
    uint32_t lo[4], hi[4]; /* per axis: smallest and largest coordinate, as knn_key order keys */
} knn_tree_hdr;


static inline KIT_HD size_t knn_image_bytes(size_t n)
{
    return n ? KNN_HDR_BYTES + (n + 1) * (sizeof(float4) + sizeof(uint32_t)) : 0;
}
static inline KIT_HD const float4 *knn_nodes(const void *tree)
{
    return (const float4 *)((const char *)tree + KNN_HDR_BYTES);
}
static inline KIT_HD const uint32_t *knn_ids(const void *tree, size_t n)
{
    return (const uint32_t *)((const char *)tree + KNN_HDR_BYTES + (n + 1) * sizeof(float4));
}

/* ------------------------------------------------------------ bits and float order keys */

static inline KIT_HD uint32_t knn_f2u(float f)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
#endif
}
static inline KIT_HD float knn_u2f(uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
#endif
}
/* the order-preserving image of a float: unsigned order of keys = numeric order of the floats,
 * with -0 before +0 and NaNs at the ends (a total order, which the GPU build relies on) */
static inline KIT_HD uint32_t knn_key(float f)
{
    const uint32_t u = knn_f2u(f);
    return u ^ ((u >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}
static inline KIT_HD float knn_unkey(uint32_t k)
{
    return knn_u2f(k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu));
}

/* floor(log2 x), x >= 1 */
static inline KIT_HD int knn_log2u(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return 31 - __clz((int)x);
#else
    return 31 - __builtin_clz(x);
#endif
}
static inline KIT_HD int knn_log2(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return 63 - __clzll((long long)x);
#else
    return 63 - __builtin_clzll(x);
#endif
}
/* trailing zero bits, x >= 1 */
static inline KIT_HD int knn_ctz(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return __ffsll((long long)x) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

/* ------------------------------------------------------ left-balanced shape arithmetic */
/* A left-balanced tree of n >= 1 nodes: levels 0 .. D full except the last (D = floor(log2 n)),
 * whose c = n - (2^D - 1) nodes are its leftmost ones (heap indices 2^D .. n). */
typedef struct knn_lb {
    uint64_t n, c;
    int D;
} knn_lb;

static inline KIT_HD knn_lb knn_lb_shape(uint64_t n)
{
    knn_lb s;
    s.n = n;
    s.D = knn_log2(n);
    s.c = n - (((uint64_t)1 << s.D) - 1);
    return s;
}
/* nodes in the subtree of i (0 when i is no node): the 2^h - 1 nodes of its full levels (h =
 * D - depth(i)) plus its share of the last level, whose candidates are i 2^h .. (i + 1) 2^h - 1 */
static inline KIT_HD uint64_t knn_lb_size(knn_lb s, uint64_t i)
{
    if (i == 0 || i > s.n) return 0;
    const int h = s.D - knn_log2(i); /* >= 0: i <= n < 2^(D+1) */
    const uint64_t span = (uint64_t)1 << h, first = i << h;
    const uint64_t last = first > s.n ? 0 : (s.n - first + 1 < span ? s.n - first + 1 : span);
    return span - 1 + last;
}
/* in-order rank of the first node of i's subtree (i a node).  In the perfect tree of D + 1
 * levels the last-level nodes sit at the even in-order ranks, and i's subtree starts at rank
 * 2u, u = i 2^h - 2^D its first last-level candidate; of the last-level nodes before it, only
 * min(u, c) exist, so the real rank is 2u - (u - min(u, c)) = u + min(u, c). */
static inline KIT_HD uint64_t knn_lb_start(knn_lb s, uint64_t i)
{
    const int h = s.D - knn_log2(i);
    const uint64_t u = (i << h) - ((uint64_t)1 << s.D);
    return u + (u < s.c ? u : s.c);
}
/* the node at in-order rank p (0 <= p < n): the rank P in the perfect tree (the first 2c ranks
 * agree; after them every missing leaf removed one even rank), then t = P + 1 = (2j + 1) 2^tz
 * names the j-th node of depth D - tz */
static inline KIT_HD uint64_t knn_lb_inorder_node(knn_lb s, uint64_t p)
{
    const uint64_t P = p < 2 * s.c ? p : 2 * p - 2 * s.c + 1;
    const uint64_t t = P + 1;
    const int tz = knn_ctz(t);
    return (t >> (tz + 1)) + ((uint64_t)1 << (s.D - tz));
}

/* ------------------------------------------------------------------ search pieces */

/* exactly rounded subtraction and multiplication (no contraction into an FMA) */
static inline KIT_HD float knn_fsub(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
static inline KIT_HD float knn_fmul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
static inline KIT_HD float knn_fdiv(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}
/* read-only loads of the tree (the texture path on the device): float4 nodes, u32 ids, floats */
template <class T>
static inline KIT_HD T knn_ld(const T *p)
{
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
}

/* component a of a node (a runtime axis, selected without a dynamic register index) */
static inline KIT_HD float knn_comp4(float4 p, int a)
{
    return a == 0 ? p.x : a == 1 ? p.y : a == 2 ? p.z : p.w;
}
template <int DIM>
static inline KIT_HD float knn_qcomp(const float (&q)[DIM], int a)
{
    float r = q[0];
    KNN_UNROLL
    for (int b = 1; b < DIM; b++)
        if (a == b) r = q[b];
    return r;
}
/* the exact squared distance (knn.h's knn_dist2) from q to a float4 node */
template <int DIM>
static inline KIT_HD float knn_d2(const float (&q)[DIM], float4 p)
{
    const float c[4] = {p.x, p.y, p.z, p.w};
    return knn_dist2(q, c, DIM);
}
/* split axis of node i: depth % DIM */
template <int DIM>
static inline KIT_HD int knn_axis(uint32_t i)
{
    return knn_log2u(i) % DIM;
}

/* the query's coordinates (any 4-byte aligned address: scalar loads) */
template <int DIM>
static inline KIT_HD void knn_load_query(const float *queries, size_t j, float (&q)[DIM])
{
    KNN_UNROLL
    for (int a = 0; a < DIM; a++) q[a] = queries[j * DIM + a];
}

/* ------------------------------------------------------------------ the k best */
/* knn_best<KB>, knn_best_init / insert / offer / store: knn_best.cuh (included above) */

/* the (d2, index) order of pairs with d2 >= +0 (a squared distance; NaN sorts last) as one 64-bit
 * key: the bits of a non-negative float order like the float.  The brute-force steps test every
 * candidate with it: one 64-bit compare, two instructions on sm_90, where knn_best_offer's float
 * and index tests, merged by ptxas with the caller's d2 <= d[0], take five. */
static inline KIT_HD uint64_t knn_pair_key(float d, uint32_t id) { return (uint64_t)knn_f2u(d) << 32 | id; }

/* the node's point as a candidate: its index is loaded only when the distance can compete; the
 * query's own point (All-kNN: self = the query's index, else KNN_NONE) is never one */
template <int KB>
static inline KIT_HD void knn_best_visit(knn_best<KB> &b, float d, const uint32_t *ids, uint32_t i,
                                         uint32_t self)
{
    if (d <= b.d[0]) {
        const uint32_t id = knn_ld(ids + i);
        if (id != self) knn_best_offer(b, d, id);
    }
}

/* ------------------------------------------------- the local-stack search (s3, s4) */
/* Depth first: walk down to the near child at once and push only the far child, with its plane
 * distance, when it is not already trimmed; pop and re-test it against the (smaller) worst when
 * the walk falls off the tree.  Stack bound: the entries' depths increase strictly from bottom to
 * top - a walk starts at the root (empty stack) or at a popped entry of depth e, above entries
 * of depths < e, and pushes only at depths e + 1, e + 2, ... - so it holds at most one entry per
 * depth 1 .. D, D = floor(log2 n) <= 30 for n <= KNN_MAX_N < KNN_STACK. */
template <int DIM, int KB>
static inline KIT_HD void knn_search_local(const float4 *__restrict__ nodes, const uint32_t *__restrict__ ids,
                                           uint32_t n, const float (&q)[DIM], uint32_t self, knn_best<KB> &b)
{
    uint2 stack[KNN_STACK];
    int sp = 0;
    uint32_t i = 1;
    for (;;) {
        while (i <= n) {
            const float4 p = knn_ld(nodes + i);
            knn_best_visit(b, knn_d2<DIM>(q, p), ids, i, self);
            const int a = knn_axis<DIM>(i);
            const float diff = knn_fsub(knn_qcomp<DIM>(q, a), knn_comp4(p, a));
            const uint32_t near = 2u * i + (diff >= 0.0f ? 1u : 0u), far = near ^ 1u; /* i < 2^31 */
            if (far <= n) {
                const float plane = knn_fmul(diff, diff);
                if (!(plane > b.d[0])) stack[sp++] = make_uint2(far, knn_f2u(plane));
            }
            i = near;
        }
        for (;;) {
            if (sp == 0) return;
            const uint2 e = stack[--sp];
            if (!(knn_u2f(e.y) > b.d[0])) {
                i = e.x;
                break;
            }
        }
    }
}

/* ------------------------------------------------------------------ host side */

template <int V>
using knn_c = std::integral_constant<int, V>;

/* run f(knn_c<DIM>(), knn_c<KB>()) for the runtime dim (2, 3, 4) and the k bucket of k (1, 4, 8,
 * 16, 32): one instantiation per pair, chosen on the host.  KB4 = false drops the bucket 4 (k = 2
 * .. 8 take KB = 8): s3 and s4, whose local stacks make fewer registers slower (s3_tree_local.cu). */
template <int DIM, bool KB4, class F>
static inline cudaError_t knn_on_k(int k, F &f)
{
    if (k <= 1) return f(knn_c<DIM>(), knn_c<1>());
    if constexpr (KB4) {
        if (k <= 4) return f(knn_c<DIM>(), knn_c<4>());
    }
    if (k <= 8) return f(knn_c<DIM>(), knn_c<8>());
    if (k <= 16) return f(knn_c<DIM>(), knn_c<16>());
    return f(knn_c<DIM>(), knn_c<32>());
}
template <bool KB4, class F>
static inline cudaError_t knn_on_dim_k(int dim, int k, F f)
{
    switch (dim) {
    case 2: return knn_on_k<2, KB4>(k, f);
    case 3: return knn_on_k<3, KB4>(k, f);
    case 4: return knn_on_k<4, KB4>(k, f);
    default: return cudaErrorInvalidValue;
    }
}

/* the build phase's argument checks (before any copy or launch): the chapter's, then a tree
 * to build into when there are points */
static inline cudaError_t knn_tree_build_args(const float *points, size_t n, int dim, const void *tree)
{
    KIT_TRY(knn_check_build(points, n, dim, tree, 0));
    return n > 0 && !tree ? cudaErrorInvalidValue : cudaSuccess;
}

/* The query phase's entry, the first call of every step's query (s0 .. s7, s2's tuning table):
 * the chapter's checks (knn_check), then a tree to search when the step has one (has_tree) and there
 * is work (knn_check takes a NULL tree, for the brute-force steps), then All-kNN's query pointer:
 * knn.h lets the caller pass NULL for "the points themselves", so with all = 1 `queries` becomes
 * `points` here, in the caller's own variable, before any kernel can read it. */
static inline cudaError_t knn_query_entry(const void *tree, const float *points, size_t n, const float *&queries,
                                          size_t m, int dim, int k, int all, const uint32_t *idx,
                                          const float *dist2, const void *scratch, bool has_tree)
{
    KIT_TRY(knn_check(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, 0));
    if (has_tree && n > 0 && m > 0 && !tree) return cudaErrorInvalidValue;
    if (all) queries = points;
    return cudaSuccess;
}

/* n = 0: every rank of every query is (KNN_NONE, +inf) */
static __global__ void knn_fill_none_kernel(uint32_t *idx, float *dist2, size_t total)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
        idx[t] = KNN_NONE;
        dist2[t] = INFINITY;
    }
}
static inline cudaError_t knn_fill_none(uint32_t *idx, float *dist2, size_t total, cudaStream_t s)
{
    if (total == 0) return cudaSuccess;
    unsigned grid = kit_blocks_for(total, 256);
    if (grid == 0 || grid > 65536u) grid = 65536u; /* grid-stride loop past that */
    knn_fill_none_kernel<<<grid, 256, 0, s>>>(idx, dist2, total);
    return cudaGetLastError();
}

/* The query phase of every step (one thread per query): knn_query_entry, nothing to do for m = 0,
 * every rank (KNN_NONE, +inf) for n = 0 when the step searches a tree (a brute-force kernel walks
 * zero points itself), then launch(knn_c<DIM>(), knn_c<KB>(), grid) for the runtime dim and k (the
 * buckets of knn_on_k; KB4 = false: no bucket 4), grid = the TPB-thread blocks that cover m
 * queries.  launch starts the step's kernel and returns cudaSuccess (or an error of its own before
 * launching).  `queries` is resolved in the caller's variable (a reference), so a launch lambda
 * that captures it by reference reads the points in All-kNN mode. */
template <int TPB, bool KB4 = true, class Launch>
static inline cudaError_t knn_query_launch(const void *tree, const float *points, size_t n, const float *&queries,
                                           size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                           const void *scratch, bool has_tree, cudaStream_t s, Launch launch)
{
    KIT_TRY(knn_query_entry(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, has_tree));
    if (m == 0) return cudaSuccess;
    if (n == 0 && has_tree) return knn_fill_none(idx, dist2, m * (size_t)k, s);
    const unsigned grid = kit_blocks_for(m, TPB);
    if (grid == 0) return cudaErrorInvalidValue;
    return knn_on_dim_k<KB4>(dim, k, [&](auto dd, auto kk) -> cudaError_t {
        KIT_TRY(launch(dd, kk, grid));
        return cudaGetLastError();
    });
}

/* the host header of points pts[n * dim]: min and max order key per axis, 0 past dim */
static inline void knn_host_box(const float *pts, size_t n, int dim, knn_tree_hdr *h)
{
    memset(h, 0, sizeof *h);
    for (int a = 0; a < dim; a++) {
        uint32_t lo = 0xFFFFFFFFu, hi = 0;
        for (size_t i = 0; i < n; i++) {
            const uint32_t k = knn_key(pts[i * (size_t)dim + a]);
            if (k < lo) lo = k;
            if (k > hi) hi = k;
        }
        h->lo[a] = lo;
        h->hi[a] = hi;
    }
}

/* The build phase of the CPU-tree steps (s2 .. s5), the document's design: download the points,
 * build the left-balanced tree on the host with the chapter's CPU build (knn_lb_build), upload the
 * image.  This is the one documented host phase of the chapter (knn.h): it synchronizes the
 * stream twice and stages the data in one malloc'd host buffer (image + a copy of the points),
 * freed before it returns - the host build itself needs host memory anyway, and a caller-provided
 * host buffer would be a second, host-side scratch in the API for no gain (pinned memory would
 * speed up the two copies, whose time is small next to the CPU build).  The query phase, which
 * is what the chapter times against the CPU search, allocates nothing and never synchronizes. */
static inline cudaError_t knn_tree_cpu_build(const float *points, size_t n, int dim, void *tree,
                                             cudaStream_t s)
{
    KIT_TRY(knn_tree_build_args(points, n, dim, tree));
    if (n == 0) return cudaSuccess;
    const size_t img = knn_image_bytes(n), pbytes = n * (size_t)dim * sizeof(float);
    char *host = (char *)malloc(img + pbytes);
    if (!host) return cudaErrorMemoryAllocation;
    float *pts = (float *)(host + img); /* img is a multiple of 4 */
    float *node = (float *)(host + KNN_HDR_BYTES);
    uint32_t *ids = (uint32_t *)(host + KNN_HDR_BYTES + (n + 1) * sizeof(float4));
    cudaError_t e = cudaMemcpyAsync(pts, points, pbytes, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e == cudaSuccess) {
        knn_tree_hdr h;
        memset(node, 0, sizeof(float4)); /* node 0 and id 0: unused, but defined bytes */
        ids[0] = 0;
        if (knn_lb_build(pts, n, dim, node, ids) != 0) {
            e = cudaErrorMemoryAllocation;
        } else {
            knn_host_box(pts, n, dim, &h);
            memset(host, 0, KNN_HDR_BYTES);
            memcpy(host, &h, sizeof h);
        }
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(tree, host, img, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s); /* the pageable buffer is freed next */
    free(host);
    return e;
}

#endif
