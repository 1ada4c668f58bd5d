/* knn.h - chapter 03: k nearest neighbours, from brute force to a kd-tree built on the GPU.
 *
 * The problem.  Points S: n points of `dim` floats each (dim 2, 3 or 4), interleaved:
 * points[i * dim + a].  Queries Q: m points in the same layout.  For every query j the k
 * nearest points (1 <= k <= KNN_MAX_K) by Euclidean distance:
 *     idx[j * k + r]   the index (in S) of the neighbour of rank r, r = 0 .. k-1
 *     dist2[j * k + r] its squared distance
 * All-NN / All-kNN (all = 1): Q is S itself (m == n; `queries` is NULL or the points
 * pointer) and query j never returns the point j; other points at distance 0 (duplicates)
 * are neighbours like any other.  Ranks with no candidate (n < k, or n - 1 < k with all)
 * hold KNN_NONE and +INFINITY.
 *
 * Exact answer.  The squared distance is knn_dist2 below: ((q0-p0)^2 + (q1-p1)^2) + ...,
 * left to right, every subtraction, product and sum rounded on its own (no fused
 * multiply-add): __fsub_rn / __fmul_rn / __fadd_rn on the device, plain float arithmetic on
 * the host (the Makefile compiles host C and C++ with -ffp-contract=off; tests/test_03_kdtree.c
 * checks the C side).  Neighbours are ordered by
 * (dist2, index) ascending and the answer is the k smallest pairs in that total order, so
 * every correct step writes the same bytes: tests compare idx and dist2 exactly.
 * Coordinates must be finite; NaN or infinite coordinates give unspecified neighbours, but
 * no step faults on them.
 *
 * A step (knn_step) has two phases, timed apart by the harness:
 *   size_t      tree_bytes(size_t n, int dim)
 *   cudaError_t build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
 *   size_t      scratch(size_t n, size_t m, int dim, int k)
 *   cudaError_t query(const void *tree, const float *points, size_t n, const float *queries,
 *                     size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
 *                     void *scratch, cudaStream_t s)
 * build fills `tree` (tree_bytes(n, dim) bytes, 256-byte aligned) from the device points;
 * query answers the m queries from it (and may read the points).  Brute-force steps have
 * tree_bytes 0 and a build that does nothing.  Steps that search the CPU-built
 * left-balanced tree download the points, build on the host (knn_lb_build) and upload the
 * tree inside build, synchronizing on s: the one documented exception to "no
 * synchronization".  Every query phase, and the GPU builds, are asynchronous on s, allocate
 * nothing and print nothing.
 *
 * Contract (knn_check / knn_check_build, called first by every step):
 *   pointers   points, queries, idx, dist2 at any 4-byte-aligned address (no unguarded
 *              vector loads on them), else cudaErrorMisalignedAddress; tree and scratch
 *              256-byte aligned (as cudaMalloc returns them), else cudaErrorMisalignedAddress
 *   arguments  dim in {2, 3, 4}, 1 <= k <= KNN_MAX_K, all in {0, 1}, all => m == n and
 *              queries NULL or == points; a NULL buffer that is needed; n or m past
 *              KNN_MAX_N (or the step's max_n): cudaErrorInvalidValue before any launch
 *   sizes      n = 0: every rank KNN_NONE / +inf; m = 0: nothing is written
 *   memory     tree_bytes and scratch bytes are exact: nothing past them is touched; the
 *              points and queries are left unchanged
 */
#ifndef KNN_H
#define KNN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KNN_NONE 0xFFFFFFFFu
#define KNN_MAX_K 32
#define KNN_MAX_N ((size_t)0x7FFFFFFF) /* 2^31 - 1: point indices are int-safe */
#define KNN_MAX_DIM 4

/* The exact squared distance between q and p (dim coordinates each): the one definition every
 * CPU function and every kernel uses.  Left to right, each operation rounded separately. */
static inline KIT_HD float knn_dist2(const float *q, const float *p, int dim)
{
#ifdef __CUDA_ARCH__
    float d = __fsub_rn(q[0], p[0]);
    float s = __fmul_rn(d, d);
#pragma unroll
    for (int a = 1; a < dim; a++) {
        d = __fsub_rn(q[a], p[a]);
        s = __fadd_rn(s, __fmul_rn(d, d));
    }
    return s;
#else
    float d = q[0] - p[0];
    float s = d * d;
    int a;
    for (a = 1; a < dim; a++) {
        const float e = q[a] - p[a];
        const float e2 = e * e;
        s = s + e2;
    }
    return s;
#endif
}

/* The order of candidates: (d2, index) ascending.  1 when (da, ia) comes before (db, ib). */
static inline KIT_HD int knn_before(float da, uint32_t ia, float db, uint32_t ib)
{
    return da < db || (da == db && ia < ib);
}

/* ------------------------------------------------------------ the steps */

typedef size_t (*knn_tree_bytes_fn)(size_t n, int dim);
typedef cudaError_t (*knn_build_fn)(const float *points, size_t n, int dim, void *tree, cudaStream_t s);
typedef size_t (*knn_scratch_fn)(size_t n, size_t m, int dim, int k);
typedef cudaError_t (*knn_query_fn)(const void *tree, const float *points, size_t n, const float *queries,
                                    size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                    void *scratch, cudaStream_t s);

/* the work a step does, for the bench's time budget (steps.c): a tree search about
 * (n + m) log n (the default: a table entry that leaves the field out), brute force n * m */
typedef enum knn_cost { KNN_COST_TREE = 0, KNN_COST_BRUTE = 1 } knn_cost;

typedef struct knn_step {
    kit_step_info info;
    knn_tree_bytes_fn tree_bytes;
    knn_build_fn build;
    knn_scratch_fn scratch;
    knn_query_fn query;
    knn_cost cost;
} knn_step;

/* The checks every step makes before any launch (module comment).  max_n: the step's largest
 * n (0: KNN_MAX_N).  The tree pointer may be NULL (brute-force steps); a step that reads a
 * tree checks it is not NULL when n > 0. */
cudaError_t knn_check(const void *tree, const float *points, size_t n, const float *queries, size_t m,
                      int dim, int k, int all, const uint32_t *idx, const float *dist2, const void *scratch,
                      size_t max_n);
cudaError_t knn_check_build(const float *points, size_t n, int dim, const void *tree, size_t max_n);

/* 256-byte rounding of the parts of a tree or scratch */
static inline KIT_HD size_t knn_round256(size_t b) { return (b + 255) & ~(size_t)255; }

#define KNN_STEP_DECL(NAME)                                                                              \
    size_t knn_##NAME##_tree_bytes(size_t n, int dim);                                                  \
    cudaError_t knn_##NAME##_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s); \
    size_t knn_##NAME##_scratch(size_t n, size_t m, int dim, int k);                                     \
    cudaError_t knn_##NAME##_query(const void *tree, const float *points, size_t n, const float *queries, \
                                   size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,       \
                                   void *scratch, cudaStream_t s);                                       \
    cudaError_t knn_##NAME##_describe(kit_kernel_desc *d);                                               \
    extern const char knn_##NAME##_param[]

KNN_STEP_DECL(s0_brute);        /* one thread per query, every point, k best in registers */
KNN_STEP_DECL(s1_brute_tiled);  /* points staged through shared-memory tiles */
KNN_STEP_DECL(s2_tree_shared);  /* the document: CPU-built left-balanced tree, stack in shared memory */
KNN_STEP_DECL(s3_tree_local);   /* stack in registers / local memory, aligned nodes */
KNN_STEP_DECL(s4_morton);       /* queries reordered along a Morton curve */
KNN_STEP_DECL(s5_stackless);    /* no stack: left-balanced index arithmetic */
KNN_STEP_DECL(s6_gpu_build);    /* the tree built on the GPU, build and query GPU-only */
KNN_STEP_DECL(s7_buckets);      /* bucket leaves with tight boxes: for clustered data */

/* s2's block-size tuning table (the document's Fig. 7.7 a-c) */
#define KNN_S2_NVARIANTS 6
extern const knn_step knn_s2_tpb_variants[KNN_S2_NVARIANTS];

/* ------------------------------------------------- left-balanced kd-tree (CPU) */

/* The document's tree: static, balanced, cyclic, one point per node.  Node i in 1..n
 * (1-based; children 2i and 2i+1; an index past n is no node): node[i * 4 + a] is
 * coordinate a of the node's point (4 floats per node, unused ones 0: a node is an aligned
 * float4), idx[i] the point's index in S.  node[0..3] = 0 and idx[0] = KNN_NONE.  The split
 * axis of node i is depth(i) % dim with depth(1) = 0; every point of the left subtree has
 * coordinate <= the node's, every point of the right subtree >= (equal coordinates may be on
 * either side). */
typedef struct knn_lb_tree {
    size_t n;
    int dim;
    float *node;   /* (n + 1) * 4 floats */
    uint32_t *idx; /* n + 1 */
} knn_lb_tree;

/* The position (1-based) of the left-balanced median in a sorted range of N >= 1 points: the
 * size of the left subtree of a left-balanced (complete) binary tree of N nodes, plus one.
 * Correct for every N >= 1 (the document's formula fails at N = 1); 0 for N = 0. */
size_t knn_lb_median(size_t N);
/* Build the tree of pts[0 .. n) into node ((n + 1) * 4 floats) and idx (n + 1): iterative,
 * an explicit stack of ranges, the median of each range by quickselect (median-of-three
 * pivot, three-way partition): deterministic.  Allocates n records of working memory.
 * Returns 0, or -1 when out of memory (or dim / n out of range). */
int knn_lb_build(const float *pts, size_t n, int dim, float *node, uint32_t *idx);
/* Allocate and build a tree (t->node, t->idx malloc'd); 0 or -1.  knn_lb_tree_free frees. */
int knn_lb_tree_new(const float *pts, size_t n, int dim, knn_lb_tree *t);
void knn_lb_tree_free(knn_lb_tree *t);

/* ------------------------------------------------------------ CPU baselines */

/* The reference: every query against every point, the k best kept in a sorted list.
 * all = 1: queries are the points (queries may be NULL), query j skips point j. */
void knn_cpu_brute(const float *pts, size_t n, const float *queries, size_t m, int dim, int k, int all,
                   uint32_t *idx, float *dist2);
/* The document's CPU search on the left-balanced tree: an explicit stack, the trim test,
 * a max-heap of the k best; equal to knn_cpu_brute bit for bit.  all = 1: queries are the
 * tree's points (queries may be NULL: the search reads the points from pts). */
void knn_cpu_tree_query(const knn_lb_tree *t, const float *pts, const float *queries, size_t m, int k,
                        int all, uint32_t *idx, float *dist2);
/* The same over `threads` threads (0: every core), queries split in chunks. */
void knn_cpu_tree_query_mt(const knn_lb_tree *t, const float *pts, const float *queries, size_t m, int k,
                           int all, uint32_t *idx, float *dist2, int threads);
/* Online cores (at least 1). */
int knn_cpu_cores(void);

/* nanoflann, the yardstick a user would pick on the CPU (knn_nanoflann.cu, C++): built only
 * when nanoflann.hpp was found (KNN_HAVE_NANOFLANN; make deps installs libnanoflann-dev).
 * Its own kd-tree (leaves of 10 points), its own search and result set: distances are
 * equal to ours bit for bit (the same left-to-right sum), the index among equal distances
 * is nanoflann's choice.  All mode asks for k + 1 and drops the query itself. */
typedef struct knn_nanoflann knn_nanoflann;
/* 1 when built in; else 0 (the functions below then do nothing and return -1). */
int knn_nanoflann_available(void);
extern const char knn_nanoflann_about[]; /* version, or why it is absent */
int knn_nanoflann_build(const float *pts, size_t n, int dim, knn_nanoflann **out);
int knn_nanoflann_query(const knn_nanoflann *ix, const float *queries, size_t m, int k, int all,
                        uint32_t *idx, float *dist2, int threads);
void knn_nanoflann_free(knn_nanoflann *ix);

/* ------------------------------------------------------------------ inputs */

typedef enum knn_input_kind {
    KNN_IN_UNIFORM = 0, /* points and queries uniform in the unit cube */
    KNN_IN_CLUSTERED,   /* points in Gaussian blobs, queries uniform */
    KNN_IN_SURFACE,     /* points on a closed surface (circle / torus / flat torus), queries near it */
    KNN_IN_DUPLICATES,  /* every point repeated about 8 times, queries on and off them */
    KNN_IN_COLLINEAR,   /* points on one axis-parallel line, queries uniform */
    KNN_IN_LATTICE,     /* points on a power-of-two grid, queries at grid points and cell centres */
    KNN_IN_CLOUD        /* a real point cloud (kit_input.value: its knn_cloud number) */
} knn_input_kind;

/* The real clouds: a file from a Debian package when found (tools/knn-data.sh; the bench
 * needs it), else the committed sample of it (chapters/03-kdtree/data/, the tests use it). */
typedef enum knn_cloud { KNN_BUNNY = 0, KNN_ARMADILLO, KNN_BUILDING, KNN_POND, KNN_NCLOUDS } knn_cloud;
/* The cloud's points, normalised into the unit cube (3 floats each); *full = 1 when read from
 * the package's file, 0 for the committed sample; where: the file, or why the sample.  Read
 * once per process. */
const float *knn_cloud_points(knn_cloud c, size_t *count, int *full, const char **where);
/* The package file a cloud comes from ("data/meshes/bunny00.off in libcgal-demo ...") */
const char *knn_cloud_source(knn_cloud c);
/* Read a point file: OFF, PLY (ascii, binary little or big endian) or XYZ (one point per
 * line, '#' comments); the first three coordinates of every vertex.  0, or -1 with a message. */
int knn_read_points(const char *path, float **xyz, size_t *count, char *msg, size_t len);

#define KNN_NINPUTS 10
extern const kit_input knn_inputs[KNN_NINPUTS];

/* --------------------------------------------------------- problem, ladders */

extern const kit_problem knn_problem;
#define KNN_NSTEPS 8
#define KNN_NLADDERS 2
#define KNN_NMAIN 1
extern const knn_step knn_steps[KNN_NSTEPS];
extern const kit_ladder *const knn_ladders[KNN_NLADDERS];

#ifdef __cplusplus
}
#endif

#endif
