/* steps.c - chapter 03's step tables (the only list of its ladder), its problem (buffers, axes,
 * inputs, reference, comparison, CPU baselines) and the ladders that let the harness drive
 * them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knn.h"
#include "knn_problem.h"

#define F(x) "chapters/03-kdtree/" x
#define STEP(NAME, WHAT, COST)                                                                      \
    {{#NAME, knn_##NAME##_param, WHAT, F(#NAME ".cu"), NULL, KIT_STEP_GPU, knn_##NAME##_describe, 0, 0}, \
     knn_##NAME##_tree_bytes, knn_##NAME##_build, knn_##NAME##_scratch, knn_##NAME##_query, COST}

const knn_step knn_steps[KNN_NSTEPS] = {
    STEP(s0_brute, "brute force: one thread per query, every point, the k best sorted in registers",
         KNN_COST_BRUTE),
    STEP(s1_brute_tiled, "the points staged through shared-memory tiles, one float4 broadcast per point",
         KNN_COST_BRUTE),
    STEP(s2_tree_shared, "the document: CPU-built left-balanced kd-tree, DFS with a stack in shared memory",
         KNN_COST_TREE),
    STEP(s3_tree_local, "the search stack in registers / local memory, nodes as aligned float4",
         KNN_COST_TREE),
    STEP(s4_morton, "queries searched in Morton order: neighbouring threads walk the same nodes",
         KNN_COST_TREE),
    STEP(s5_stackless, "no stack: the way back up is index arithmetic on the left-balanced layout",
         KNN_COST_TREE),
    STEP(s6_gpu_build, "the tree built on the GPU too: build and query without a host round trip",
         KNN_COST_TREE),
    STEP(s7_buckets, "bucket leaves of <= 16 points with tight boxes, entered by box distance",
         KNN_COST_TREE),
};

/* ----------------------------------------------------------------- problem */

static size_t count_points(const kit_shape *sh) { return sh->n * (size_t)knn_shape_dim(sh); }
static size_t count_queries(const kit_shape *sh)
{
    return knn_shape_all(sh) ? 0 : knn_shape_m(sh) * (size_t)knn_shape_dim(sh);
}
static size_t count_results(const kit_shape *sh) { return knn_shape_m(sh) * (size_t)knn_shape_k(sh); }

static const kit_buffer knn_bufs[] = {
    {"points", KIT_IN, 4, count_points},
    {"queries", KIT_IN, 4, count_queries},
    {"idx", KIT_OUT, 4, count_results},
    {"dist2", KIT_OUT, 4, count_results},
};

static const char *const all_labels[] = {"queries", "all", NULL};
static const kit_axis knn_axes[] = {
    {"queries", "query points m (0: as many as the points, m = n)", 4099, 0, 2147483647.0, NULL},
    {"k", "neighbours per query, 1..32", 8, 1, 32, NULL},
    {"dim", "dimensions, 2..4", 3, 2, 4, NULL},
    {"all", "0: separate queries (QNN / kNN), 1: every point is a query (All-NN / All-kNN)", 0, 0, 1,
     all_labels},
};

static double knn_items(const kit_problem *P, const kit_shape *sh)
{
    (void)P;
    return (double)knn_shape_m(sh);
}

/* ----------------------------------------------------------- the reference */

/* no memory for the reference: an answer no step can match */
static void spoil(kit_host *h, const kit_shape *sh)
{
    memset(h->buf[KNN_BUF_IDX], 0xA5, count_results(sh) * 4);
    memset(h->buf[KNN_BUF_DIST2], 0xA5, count_results(sh) * 4);
}

void knn_reference(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    const int dim = knn_shape_dim(sh), k = knn_shape_k(sh), all = knn_shape_all(sh);
    const size_t n = sh->n, m = knn_shape_m(sh);
    const float *pts = (const float *)h->buf[KNN_BUF_POINTS];
    knn_lb_tree t;
    (void)P;
    if (knn_lb_tree_new(pts, n, dim, &t) != 0) {
        spoil(h, sh);
        return;
    }
    knn_cpu_tree_query_mt(&t, pts, all ? NULL : (const float *)h->buf[KNN_BUF_QUERIES], m, k, all,
                          (uint32_t *)h->buf[KNN_BUF_IDX], (float *)h->buf[KNN_BUF_DIST2], 0);
    knn_lb_tree_free(&t);
}

/* idx and dist2 equal bit for bit; the first difference named by query and rank */
static int knn_compare(const kit_problem *P, const kit_host *want, const kit_host *got, const kit_shape *sh,
                       unsigned step_flags, char *msg, size_t len)
{
    const size_t total = count_results(sh);
    const int k = knn_shape_k(sh);
    const uint32_t *wi = (const uint32_t *)want->buf[KNN_BUF_IDX];
    const uint32_t *gi = (const uint32_t *)got->buf[KNN_BUF_IDX];
    const uint32_t *wd = (const uint32_t *)want->buf[KNN_BUF_DIST2]; /* the floats' bits */
    const uint32_t *gd = (const uint32_t *)got->buf[KNN_BUF_DIST2];
    size_t x, first = total, bad = 0;
    (void)P, (void)step_flags;
    for (x = 0; x < total; x++)
        if (wi[x] != gi[x] || wd[x] != gd[x]) {
            if (first == total) first = x;
            bad++;
        }
    if (!bad) return 1;
    {
        float a, b;
        memcpy(&a, &gd[first], 4);
        memcpy(&b, &wd[first], 4);
        snprintf(msg, len,
                 "query %zu rank %zu: idx %u dist2 %.9g (0x%08x), want idx %u dist2 %.9g (0x%08x); "
                 "%zu of %zu results differ",
                 first / (size_t)k, first % (size_t)k, gi[first], (double)a, gd[first], wi[first], (double)b,
                 wd[first], bad, total);
    }
    return 0;
}

/* ----------------------------------------------------------- CPU baselines */

/* The query rows time the search alone: prepare() builds the index untimed, run() searches
 * it (and builds it first only if called without prepare(), e.g. directly).  The build rows
 * time the build alone.  One core unless the name says otherwise. */
static struct {
    knn_lb_tree tree;
    const float *pts;
    size_t n;
    int dim, ok;
} lb;

static int lb_ready(const float *pts, size_t n, int dim)
{
    return lb.ok && lb.pts == pts && lb.n == n && lb.dim == dim;
}

static void lb_prepare(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    if (lb.ok) knn_lb_tree_free(&lb.tree);
    lb.pts = (const float *)h->buf[KNN_BUF_POINTS];
    lb.n = sh->n;
    lb.dim = knn_shape_dim(sh);
    lb.ok = knn_lb_tree_new(lb.pts, lb.n, lb.dim, &lb.tree) == 0;
}

static void cpu_tree(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    if (!lb_ready((const float *)h->buf[KNN_BUF_POINTS], sh->n, knn_shape_dim(sh))) lb_prepare(P, h, sh);
    if (!lb.ok) return;
    knn_cpu_tree_query(&lb.tree, lb.pts, knn_shape_all(sh) ? NULL : (const float *)h->buf[KNN_BUF_QUERIES],
                       knn_shape_m(sh), knn_shape_k(sh), knn_shape_all(sh), (uint32_t *)h->buf[KNN_BUF_IDX],
                       (float *)h->buf[KNN_BUF_DIST2]);
}

static void cpu_tree_build(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    knn_lb_tree t;
    (void)P;
    if (knn_lb_tree_new((const float *)h->buf[KNN_BUF_POINTS], sh->n, knn_shape_dim(sh), &t) == 0)
        knn_lb_tree_free(&t);
}

static void cpu_brute(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    knn_cpu_brute((const float *)h->buf[KNN_BUF_POINTS], sh->n,
                  knn_shape_all(sh) ? NULL : (const float *)h->buf[KNN_BUF_QUERIES], knn_shape_m(sh),
                  knn_shape_dim(sh), knn_shape_k(sh), knn_shape_all(sh), (uint32_t *)h->buf[KNN_BUF_IDX],
                  (float *)h->buf[KNN_BUF_DIST2]);
}

#ifdef KNN_HAVE_NANOFLANN
static struct {
    knn_nanoflann *ix;
    const float *pts;
    size_t n;
    int dim;
} nf;

static void nf_prepare(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    knn_nanoflann_free(nf.ix);
    nf.ix = NULL;
    nf.pts = (const float *)h->buf[KNN_BUF_POINTS];
    nf.n = sh->n;
    nf.dim = knn_shape_dim(sh);
    if (knn_nanoflann_build(nf.pts, nf.n, nf.dim, &nf.ix) != 0) nf.ix = NULL;
}

static void nf_run(const kit_problem *P, kit_host *h, const kit_shape *sh, int threads)
{
    if (!nf.ix || nf.pts != h->buf[KNN_BUF_POINTS] || nf.n != sh->n || nf.dim != knn_shape_dim(sh))
        nf_prepare(P, h, sh);
    if (!nf.ix) return;
    knn_nanoflann_query(nf.ix, knn_shape_all(sh) ? NULL : (const float *)h->buf[KNN_BUF_QUERIES],
                        knn_shape_m(sh), knn_shape_k(sh), knn_shape_all(sh), (uint32_t *)h->buf[KNN_BUF_IDX],
                        (float *)h->buf[KNN_BUF_DIST2], threads);
}
static void cpu_nanoflann(const kit_problem *P, kit_host *h, const kit_shape *sh) { nf_run(P, h, sh, 1); }
static void cpu_nanoflann_mt(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    nf_run(P, h, sh, knn_cpu_cores());
}
static void cpu_nanoflann_build(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    knn_nanoflann *ix = NULL;
    (void)P;
    if (knn_nanoflann_build((const float *)h->buf[KNN_BUF_POINTS], sh->n, knn_shape_dim(sh), &ix) == 0)
        knn_nanoflann_free(ix);
}
#define NF_RUN cpu_nanoflann
#define NF_RUN_MT cpu_nanoflann_mt
#define NF_BUILD cpu_nanoflann_build
#define NF_PREPARE nf_prepare
#define NF_ABOUT_MT "nanoflann, the queries split over every core"
#define NF_ABOUT_BUILD "nanoflann's index build, one core"
#else
#define NF_RUN NULL /* absent: the rows say why (knn_nanoflann_about) */
#define NF_RUN_MT NULL
#define NF_BUILD NULL
#define NF_PREPARE NULL
#define NF_ABOUT_MT knn_nanoflann_about
#define NF_ABOUT_BUILD knn_nanoflann_about
#endif

/* brute force is timed up to n = 2^15 (n m distances: seconds at m = n = 2^15 on one core) */
#define CPU_BRUTE_MAX_N ((size_t)1 << 15)

static const kit_cpu knn_cpus[] = {
    {"tree", cpu_tree, 0, lb_prepare, "query", "the document's search of the left-balanced tree, one core"},
    {"nanoflann", NF_RUN, 0, NF_PREPARE, "query", knn_nanoflann_about},
    {"nanoflann-mt", NF_RUN_MT, 0, NF_PREPARE, "query", NF_ABOUT_MT},
    {"brute", cpu_brute, CPU_BRUTE_MAX_N, NULL, "query", "brute force (the definition), one core, n <= 2^15"},
    {"tree-build", cpu_tree_build, 0, NULL, "build", "the left-balanced tree's build (quickselect) one core"},
    {"nanoflann-build", NF_BUILD, 0, NULL, "build", NF_ABOUT_BUILD},
};

const kit_problem knn_problem = {
    "knn", knn_bufs, 4, knn_inputs, KNN_NINPUTS, knn_axes, 4, "queries", knn_items, {"build", "query"},
    KNN_MAX_N, knn_fill, knn_reference, knn_compare, knn_cpus, sizeof knn_cpus / sizeof *knn_cpus, NULL,
};

/* ------------------------------------------------------------------ ladders */

static const kit_step_info *info(const kit_ladder *L, size_t i)
{
    return &((const knn_step *)L->table)[i].info;
}

/* what a step must move at least: the points, the queries and the results, once */
static double bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)L, (void)i;
    return 4.0 * (double)(count_points(sh) + count_queries(sh)) + 8.0 * (double)count_results(sh);
}

static double cost(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const knn_step *st = &((const knn_step *)L->table)[i];
    const double n = (double)sh->n, m = (double)knn_shape_m(sh);
    if (st->cost == KNN_COST_BRUTE) return n * m;
    return (n + m) * log2(n + 2.0);
}

/* the tree (256-byte rounded) first, then the query's scratch */
static size_t tree_part(const knn_step *st, const kit_shape *sh)
{
    return knn_round256(st->tree_bytes(sh->n, knn_shape_dim(sh)));
}

static size_t scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const knn_step *st = &((const knn_step *)L->table)[i];
    return tree_part(st, sh) + st->scratch(sh->n, knn_shape_m(sh), knn_shape_dim(sh), knn_shape_k(sh));
}

static cudaError_t run(const kit_ladder *L, size_t i, int ph, void *const *dev, const kit_shape *sh,
                       void *scr, cudaStream_t s)
{
    const knn_step *st = &((const knn_step *)L->table)[i];
    const int dim = knn_shape_dim(sh), k = knn_shape_k(sh), all = knn_shape_all(sh);
    void *tree = scr, *qscr = scr ? (char *)scr + tree_part(st, sh) : NULL;
    if (tree && st->tree_bytes(sh->n, dim) == 0) tree = NULL;
    if (qscr && st->scratch(sh->n, knn_shape_m(sh), dim, k) == 0) qscr = NULL;
    if (ph == 0) return st->build((const float *)dev[KNN_BUF_POINTS], sh->n, dim, tree, s);
    return st->query(tree, (const float *)dev[KNN_BUF_POINTS], sh->n,
                     all ? (const float *)dev[KNN_BUF_POINTS] : (const float *)dev[KNN_BUF_QUERIES],
                     knn_shape_m(sh), dim, k, all, (uint32_t *)dev[KNN_BUF_IDX],
                     (float *)dev[KNN_BUF_DIST2], qscr, s);
}

/* a step whose run would take longer is skipped by the bench (estimated from a prefix with the
 * cost model above: brute force at n = m = 10^7 is skipped, the tree steps are not) */
#define KNN_BUDGET_MS 10000.0
#define LADDER(ID, TITLE, TABLE, COUNT) \
    {ID, TITLE, COUNT, TABLE, &knn_problem, info, bytes, scratch, run, NULL, KNN_BUDGET_MS, NULL, NULL, cost}

const kit_ladder knn_ladder = LADDER("knn", "k nearest neighbours (QNN, kNN, All-NN, All-kNN)", knn_steps,
                                     KNN_NSTEPS);
const kit_ladder knn_s2_tpb_ladder = LADDER("knn-s2-tpb", "s2 (tree, shared-memory stack), threads per block",
                                            knn_s2_tpb_variants, KNN_S2_NVARIANTS);
const kit_ladder *const knn_ladders[KNN_NLADDERS] = {&knn_ladder, &knn_s2_tpb_ladder};
