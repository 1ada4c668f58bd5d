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
    {"tree", cpu_tree, 0, lb_prepare, "query", "the document's search of the left-balanced tree, one core", KIT_COST_NLOGN},
    {"nanoflann", NF_RUN, 0, NF_PREPARE, "query", knn_nanoflann_about, KIT_COST_NLOGN},
    {"nanoflann-mt", NF_RUN_MT, 0, NF_PREPARE, "query", NF_ABOUT_MT, KIT_COST_NLOGN},
    {"brute", cpu_brute, CPU_BRUTE_MAX_N, NULL, "query", "brute force (the definition), one core, n <= 2^15", KIT_COST_N2},
    {"tree-build", cpu_tree_build, 0, NULL, "build", "the left-balanced tree's build (quickselect) one core", KIT_COST_NLOGN},
    {"nanoflann-build", NF_BUILD, 0, NULL, "build", NF_ABOUT_BUILD, KIT_COST_NLOGN},
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

/* ------------------------------------------------------------- argument cases */

/* What knn.h allows beyond the harness's default call, and what it refuses, beside the step
 * table so that the contract and its test are read together: the contract suite tries every
 * case on every step it applies to (kit_arg_case; the allowed ones must write the reference's
 * bytes under the whole contract, the refusals must return their code and write nothing). */
enum {
    KNN_CASE_ALL_NULL = 0, /* all = 1, queries NULL */
    KNN_CASE_ALL_POINTS,   /* all = 1, queries == points */
    KNN_CASE_ALL_OTHER,    /* all = 1, queries another pointer */
    KNN_CASE_ALL_M,        /* all = 1, m != n */
    KNN_CASE_ALL_2,        /* all = 2 */
    KNN_CASE_DIM_1,
    KNN_CASE_DIM_5,
    KNN_CASE_K_0,
    KNN_CASE_K_33,
    KNN_CASE_M_MAX,        /* m = KNN_MAX_N + 1 */
    KNN_CASE_POINTS_NULL,
    KNN_CASE_QUERIES_NULL, /* all = 0 */
    KNN_CASE_IDX_NULL,
    KNN_CASE_DIST2_NULL,
    KNN_CASE_TREE_NULL,
    KNN_CASE_SCRATCH_NULL,
    KNN_CASE_POINTS_MIS,   /* 2 bytes past a 4-byte boundary */
    KNN_CASE_QUERIES_MIS,
    KNN_CASE_IDX_MIS,
    KNN_CASE_DIST2_MIS,
    KNN_CASE_TREE_MIS,     /* 16 bytes past a 256-byte boundary */
    KNN_CASE_SCRATCH_MIS,
    KNN_NCASES
};

/* All mode at every dim and k: j = 0 .. 95 */
static int shapes_all(const kit_problem *P, int j, kit_shape *sh)
{
    (void)P;
    if (j >= 3 * KNN_MAX_K) return 0;
    *sh = knn_shape(sh->n, 0, 1 + j % KNN_MAX_K, 2 + j / KNN_MAX_K, 1);
    return 1;
}
/* All mode at the default dim and k */
static int shape_all(const kit_problem *P, int j, kit_shape *sh)
{
    (void)P;
    sh->v[KNN_AX_ALL] = 1;
    return j == 0;
}

#define TREE_STEPS "s2_tree_shared,s3_tree_local,s4_morton,s5_stackless,s6_gpu_build,s7_buckets"
#define SCRATCH_STEPS "s4_morton,s5_stackless,s6_gpu_build,s7_buckets"
#define INVAL cudaErrorInvalidValue
#define MISAL cudaErrorMisalignedAddress
static const kit_arg_case knn_cases[KNN_NCASES] = {
    [KNN_CASE_ALL_NULL] = {"queries NULL, all = 1", "knn.h: all = 1: queries is NULL or the points pointer",
                           cudaSuccess, NULL, shapes_all},
    [KNN_CASE_ALL_POINTS] = {"queries == points, all = 1", "knn.h: all = 1: queries is NULL or the points pointer",
                             cudaSuccess, NULL, shapes_all},
    [KNN_CASE_ALL_OTHER] = {"queries != points, all = 1", "knn.h: all => queries NULL or == points", INVAL, NULL,
                            shape_all},
    [KNN_CASE_ALL_M] = {"m = n + 1, all = 1", "knn.h: all => m == n", INVAL, NULL, shape_all},
    [KNN_CASE_ALL_2] = {"all = 2", "knn.h: all in {0, 1}", INVAL, NULL, NULL},
    [KNN_CASE_DIM_1] = {"dim = 1", "knn.h: dim in {2, 3, 4}", INVAL, NULL, NULL},
    [KNN_CASE_DIM_5] = {"dim = 5", "knn.h: dim in {2, 3, 4}", INVAL, NULL, NULL},
    [KNN_CASE_K_0] = {"k = 0", "knn.h: 1 <= k <= KNN_MAX_K", INVAL, NULL, NULL},
    [KNN_CASE_K_33] = {"k = 33", "knn.h: 1 <= k <= KNN_MAX_K", INVAL, NULL, NULL},
    [KNN_CASE_M_MAX] = {"m = KNN_MAX_N + 1", "knn.h: m past KNN_MAX_N", INVAL, NULL, NULL},
    [KNN_CASE_POINTS_NULL] = {"points NULL", "knn.h: a NULL buffer that is needed", INVAL, NULL, NULL},
    [KNN_CASE_QUERIES_NULL] = {"queries NULL, all = 0", "knn.h: a NULL buffer that is needed", INVAL, NULL, NULL},
    [KNN_CASE_IDX_NULL] = {"idx NULL", "knn.h: a NULL buffer that is needed", INVAL, NULL, NULL},
    [KNN_CASE_DIST2_NULL] = {"dist2 NULL", "knn.h: a NULL buffer that is needed", INVAL, NULL, NULL},
    [KNN_CASE_TREE_NULL] = {"tree NULL", "knn.h: a NULL buffer that is needed (a tree step's tree)", INVAL,
                            TREE_STEPS, NULL},
    [KNN_CASE_SCRATCH_NULL] = {"scratch NULL", "knn.h: a NULL buffer that is needed (scratch > 0)", INVAL,
                               SCRATCH_STEPS, NULL},
    [KNN_CASE_POINTS_MIS] = {"points + 2 bytes", "knn.h: points at a 4-byte-aligned address", MISAL, NULL, NULL},
    [KNN_CASE_QUERIES_MIS] = {"queries + 2 bytes", "knn.h: queries at a 4-byte-aligned address", MISAL, NULL,
                              NULL},
    [KNN_CASE_IDX_MIS] = {"idx + 2 bytes", "knn.h: idx at a 4-byte-aligned address", MISAL, NULL, NULL},
    [KNN_CASE_DIST2_MIS] = {"dist2 + 2 bytes", "knn.h: dist2 at a 4-byte-aligned address", MISAL, NULL, NULL},
    [KNN_CASE_TREE_MIS] = {"tree + 16 bytes", "knn.h: tree 256-byte aligned", MISAL, TREE_STEPS, NULL},
    [KNN_CASE_SCRATCH_MIS] = {"scratch + 16 bytes", "knn.h: scratch 256-byte aligned", MISAL, NULL, NULL},
};

static const void *plus(const void *p, size_t bytes) { return (const char *)p + bytes; }

/* phase ph of step i as argument case c makes it (c < 0: the harness's default call, in which All
 * mode passes the points pointer as the queries) */
static cudaError_t run_case(const kit_ladder *L, size_t i, int c, int ph, void *const *dev, const kit_shape *sh,
                            void *scr, cudaStream_t s)
{
    const knn_step *st = &((const knn_step *)L->table)[i];
    int dim = knn_shape_dim(sh), k = knn_shape_k(sh), all = knn_shape_all(sh);
    size_t m = knn_shape_m(sh);
    const void *tree = scr, *qscr = scr ? (char *)scr + tree_part(st, sh) : NULL;
    const float *points = (const float *)dev[KNN_BUF_POINTS];
    const float *queries = all ? points : (const float *)dev[KNN_BUF_QUERIES];
    const void *idx = dev[KNN_BUF_IDX], *dist2 = dev[KNN_BUF_DIST2];
    if (tree && st->tree_bytes(sh->n, dim) == 0) tree = NULL;
    if (qscr && st->scratch(sh->n, m, dim, k) == 0) qscr = NULL;
    switch (c) {
    case KNN_CASE_ALL_NULL: queries = NULL; break;
    case KNN_CASE_ALL_OTHER: queries = (const float *)dev[KNN_BUF_IDX]; break; /* any other address */
    case KNN_CASE_ALL_M: m = sh->n + 1; break;
    case KNN_CASE_ALL_2: all = 2; break;
    case KNN_CASE_DIM_1: dim = 1; break;
    case KNN_CASE_DIM_5: dim = 5; break;
    case KNN_CASE_K_0: k = 0; break;
    case KNN_CASE_K_33: k = KNN_MAX_K + 1; break;
    case KNN_CASE_M_MAX: m = KNN_MAX_N + 1; break;
    case KNN_CASE_POINTS_NULL: points = NULL; break;
    case KNN_CASE_QUERIES_NULL: queries = NULL; break;
    case KNN_CASE_IDX_NULL: idx = NULL; break;
    case KNN_CASE_DIST2_NULL: dist2 = NULL; break;
    case KNN_CASE_TREE_NULL: tree = NULL; break;
    case KNN_CASE_SCRATCH_NULL: qscr = NULL; break;
    case KNN_CASE_POINTS_MIS: points = (const float *)plus(points, 2); break;
    case KNN_CASE_QUERIES_MIS: queries = (const float *)plus(dev[all ? KNN_BUF_POINTS : KNN_BUF_QUERIES], 2); break;
    case KNN_CASE_IDX_MIS: idx = plus(idx, 2); break;
    case KNN_CASE_DIST2_MIS: dist2 = plus(dist2, 2); break;
    case KNN_CASE_TREE_MIS: tree = plus(tree, 16); break;
    case KNN_CASE_SCRATCH_MIS: qscr = plus(qscr ? qscr : dev[KNN_BUF_IDX], 16); break; /* any 256-misaligned address */
    default: break;
    }
    if (ph == 0) return st->build(points, sh->n, dim, (void *)tree, s);
    return st->query(tree, points, sh->n, queries, m, dim, k, all, (uint32_t *)idx, (float *)dist2, (void *)qscr, s);
}

static cudaError_t run(const kit_ladder *L, size_t i, int ph, void *const *dev, const kit_shape *sh,
                       void *scr, cudaStream_t s)
{
    return run_case(L, i, -1, ph, dev, sh, scr, s);
}

/* a step whose run would take longer is skipped by the bench (estimated from a prefix with the
 * cost model above: brute force at n = m = 10^7 is skipped, the tree steps are not) */
#define KNN_BUDGET_MS 10000.0
#define LADDER(ID, TITLE, TABLE, COUNT) \
    {ID, TITLE, COUNT, TABLE, &knn_problem, info, bytes, scratch, run, NULL, KNN_BUDGET_MS, NULL, NULL, cost, \
     knn_cases, KNN_NCASES, run_case}

const kit_ladder knn_ladder = LADDER("knn", "k nearest neighbours (QNN, kNN, All-NN, All-kNN)", knn_steps,
                                     KNN_NSTEPS);
const kit_ladder knn_s2_tpb_ladder = LADDER("knn-s2-tpb", "s2 (tree, shared-memory stack), threads per block",
                                            knn_s2_tpb_variants, KNN_S2_NVARIANTS);
const kit_ladder *const knn_ladders[KNN_NLADDERS] = {&knn_ladder, &knn_s2_tpb_ladder};
