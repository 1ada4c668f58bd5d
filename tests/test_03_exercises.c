/* test_03_exercises.c - chapter 03's exercises: ex03_median (the left-balanced median position,
 * CPU), ex03_heap (the k-best max-heap insertion, CPU), ex03_trim (the trim test and push order
 * of the kd-tree search: CPU unit tests and the search kernel on the GPU).  Every test compares
 * with an independent reference on fixed seeds (KIT_SEED).  Graded: every call of the exercises'
 * code and every CUDA call sits in a KIT_STUDENT block (kit_test.h, "grading sides"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "knn_ex_heap.h" /* the student's headers first: they see none of the kit's below */
#include "knn_ex_median.h"

#include "ex03_search.h" /* the kit's launchers of ex03_trim (knn_ex_trim.cuh: device code only) */

#include "kit_test.h"
#include "knn.h"
#include "knn_problem.h"

/* Criterion's own message for an assertion written without one, kept word for word where the
 * assertion used to make the exercise's call itself and now checks what the runner sent */
#define MSG_STR_(x) #x
#define MSG_STR(x) MSG_STR_(x)
#define WAS(expr) "The expression " MSG_STR(expr) " is false."
#define WAS_EQ(call, want) WAS((call) == (want))

/* ---------------------------------------------------------- ex03_median */

/* ex03_median (CPU): ex03_lb_median in $(IMPL)/03-kdtree/knn_ex_median.h */
TestSuite(ex03_median, .timeout = KIT_CPU_TIMEOUT);

/* the left subtree of a complete binary tree of N nodes, counted node by node */
#if KIT_SIDE != 2 /* judge only: no runner holds it (tests/runner-answers.tsv) */
static size_t left_nodes(size_t N)
{
    size_t c = 0, first = 2, width = 1;
    while (first <= N) {
        const size_t last = first + width - 1;
        c += (last <= N ? last : N) - first + 1;
        if (first > ((size_t)-1) / 4) break;
        first *= 2;
        width *= 2;
    }
    return c;
}
#endif

/* got[N] = ex03_lb_median(N) for N = 0 .. last, computed by the runner (free it) */
static size_t *medians_to(size_t last)
{
    size_t *got = calloc(last + 1, sizeof *got), N;
    cr_assert(got);
    KIT_STUDENT
    {
        for (N = 0; N <= last; N++) got[N] = ex03_lb_median(N);
    }
    KIT_FROM_RUNNER(got, (last + 1) * sizeof *got);
    return got;
}

Test(ex03_median, by_hand)
{
    static const size_t want[] = {0, 1, 2, 2, 3, 4, 4, 4, 5, 6, 7, 8, 8, 8, 8, 8, 9};
    size_t *got = medians_to(sizeof want / sizeof *want - 1), N;
    for (N = 1; N < sizeof want / sizeof *want; N++)
        cr_assert_eq(got[N], want[N], "ex03_lb_median(N=%zu) = %zu, want %zu", N, got[N], want[N]);
    free(got);
}

Test(ex03_median, every_n_to_100000)
{
    size_t *got = medians_to(100000), N;
    for (N = 1; N <= 100000; N++)
        cr_assert_eq(got[N], left_nodes(N) + 1, "ex03_lb_median(N=%zu) = %zu, want %zu (left subtree %zu + 1)", N, got[N],
                     left_nodes(N) + 1, left_nodes(N));
    free(got);
}

Test(ex03_median, agrees_with_the_document_from_2)
{
    size_t *got = medians_to(20000), N;
    cr_assert_eq(got[1], 1, "ex03_lb_median(N=1) = %zu, want 1: the document's formula breaks here, yours must not",
                 got[1]);
    for (N = 2; N <= 20000; N++) {
        size_t h = 0, half, want;
        while (((size_t)1 << h) < N + 1) h++;
        half = (size_t)1 << (h - 2);
        want = half + (half < N - 2 * half + 1 ? half : N - 2 * half + 1);
        cr_assert_eq(got[N], want, "ex03_lb_median(N=%zu) = %zu, the document's formula gives %zu", N, got[N], want);
    }
    free(got);
}

Test(ex03_median, past_32_bits)
{
    static const size_t big[] = {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, (size_t)1 << 32, ((size_t)1 << 32) + 1,
                                 ((size_t)3 << 35) + 17, ((size_t)1 << 48) - 1, ((size_t)1 << 62) + 5};
    size_t got[sizeof big / sizeof *big] = {0}, i;
    KIT_STUDENT
    {
        for (i = 0; i < sizeof big / sizeof *big; i++) got[i] = ex03_lb_median(big[i]);
    }
    KIT_FROM_RUNNER(got, sizeof got);
    for (i = 0; i < sizeof big / sizeof *big; i++)
        cr_assert_eq(got[i], left_nodes(big[i]) + 1, "ex03_lb_median(N=%zu) = %zu, want %zu", big[i], got[i],
                     left_nodes(big[i]) + 1);
}

/* ------------------------------------------------------------ ex03_heap */

/* ex03_heap (CPU): ex03_heap_push in $(IMPL)/03-kdtree/knn_ex_heap.h */
TestSuite(ex03_heap, .timeout = KIT_CPU_TIMEOUT);

/* a heap as the runner records it and the judge checks it: the test's own copy of its fields,
 * so that what travels does not depend on how the exercise's header lays out ex03_heap */
typedef struct heap_rec {
    float d[KNN_MAX_K];
    uint32_t i[KNN_MAX_K];
    int count, k;
} heap_rec;

static heap_rec record(const ex03_heap *h)
{
    heap_rec r;
    int j;
    memset(&r, 0, sizeof r);
    for (j = 0; j < KNN_MAX_K; j++) {
        r.d[j] = h->d[j];
        r.i[j] = h->i[j];
    }
    r.count = h->count;
    r.k = h->k;
    return r;
}

/* every parent does not come before its children */
static void expect_heap(const heap_rec *h, const char *when)
{
    int c;
    /* the judge reads what the runner sent: never past the arrays */
    cr_assert(h->count >= 0 && h->count <= KNN_MAX_K, "%s: holds %d candidates, at most %d fit", when, h->count,
              KNN_MAX_K);
    for (c = 1; c < h->count; c++) {
        const int p = (c - 1) / 2;
        cr_assert(!knn_before(h->d[p], h->i[p], h->d[c], h->i[c]),
                  "%s: not a max-heap: entry %d (%g, %u) comes before its child %d (%g, %u)", when, p,
                  (double)h->d[p], h->i[p], c, (double)h->d[c], h->i[c]);
    }
}

typedef struct pair {
    float d;
    uint32_t i;
} pair;
static int pair_cmp(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    return knn_before(x->d, x->i, y->d, y->i) ? -1 : knn_before(y->d, y->i, x->d, x->i) ? 1 : 0;
}

/* the heap holds exactly the k smallest of stream[0 .. n) */
static void expect_k_best(const heap_rec *h, const pair *stream, size_t n, int k, const char *what)
{
    pair *all = malloc((n + 1) * sizeof *all), got[KNN_MAX_K];
    const int want = (size_t)k < n ? k : (int)n;
    int r;
    cr_assert(all);
    memcpy(all, stream, n * sizeof *all);
    qsort(all, n, sizeof *all, pair_cmp);
    cr_assert_eq(h->count, want, "%s: holds %d, want %d", what, h->count, want);
    for (r = 0; r < h->count; r++) {
        got[r].d = h->d[r];
        got[r].i = h->i[r];
    }
    qsort(got, (size_t)h->count, sizeof *got, pair_cmp);
    for (r = 0; r < want; r++)
        cr_assert(got[r].i == all[r].i && got[r].d == all[r].d, "%s: rank %d is (%g, %u), want (%g, %u)", what, r,
                  (double)got[r].d, got[r].i, (double)all[r].d, all[r].i);
    free(all);
}

Test(ex03_heap, by_hand)
{
    /* k = 3: 5, 2, 9 fill it (top 9); 7 replaces 9 (top 7); 8 is refused; 1 replaces 7 (top 5) */
    static const float d[] = {5, 2, 9, 7, 8, 1};
    static const int kept[] = {1, 1, 1, 1, 0, 1};
    static const float top[] = {5, 5, 9, 7, 7, 5};
    heap_rec h, after[6]; /* the heap after each push */
    float bound[2] = {0, 0}; /* ex03_heap_bound before the first push and after the last */
    int ret[6] = {0}, s;
    memset(after, 0, sizeof after);
    KIT_STUDENT
    {
        ex03_heap heap;
        memset(&heap, 0, sizeof heap);
        ex03_heap_init(&heap, 3);
        bound[0] = ex03_heap_bound(&heap);
        for (s = 0; s < 6; s++) {
            ret[s] = ex03_heap_push(&heap, d[s], (uint32_t)(10 + s));
            after[s] = record(&heap);
        }
        bound[1] = ex03_heap_bound(&heap);
    }
    KIT_FROM_RUNNER(bound, sizeof bound);
    KIT_FROM_RUNNER(ret, sizeof ret);
    KIT_FROM_RUNNER(after, sizeof after);
    cr_assert(isinf(bound[0]), WAS(isinf(ex03_heap_bound(&h))));
    for (s = 0; s < 6; s++) {
        const int r = ret[s];
        cr_assert_eq(r, kept[s], "ex03_heap_push(&heap, d=%g, index=%d) (push %d with k = 3 after d = 5, 2, 9, 7, 8, 1 in order) returned %d, want %d",
                     (double)d[s], 10 + s, s, r, kept[s]);
        cr_assert_eq(after[s].d[0], top[s], "after ex03_heap_push(&heap, d=%g, index=%d) (push %d with k = 3): the top d is %g, want %g", (double)d[s],
                     10 + s, s, (double)after[s].d[0],
                     (double)top[s]);
        expect_heap(&after[s], "by hand");
    }
    h = after[5];
    cr_assert_eq(h.count, 3);
    cr_assert_eq(bound[1], 5.0f, WAS_EQ(ex03_heap_bound(&h), 5.0f));
}

Test(ex03_heap, random_streams)
{
    static const int ks[] = {1, 2, 3, 5, 8, 13, 32};
    size_t t, s;
    for (t = 0; t < sizeof ks / sizeof *ks; t++) {
        const int k = ks[t];
        const size_t n = 2000;
        pair *stream = malloc(n * sizeof *stream);
        /* the runner's record: heap[0] after the init, heap[s + 1] and ret[s] after push s */
        heap_rec *heap = calloc(n + 1, sizeof *heap);
        int *ret = calloc(n, sizeof *ret);
        uint64_t st = KIT_SEED(7 + t);
        char what[64];
        cr_assert(stream && heap && ret);
        for (s = 0; s < n; s++) { /* distances from 64 values: many ties, broken by index */
            stream[s].d = (float)(kit_rand64(&st) % 64) / 8.0f;
            stream[s].i = (uint32_t)(kit_rand64(&st) % 1000000) * 2048 + (uint32_t)s; /* distinct */
        }
        KIT_TO_RUNNER(stream, n * sizeof *stream);
        KIT_STUDENT
        {
            ex03_heap h;
            memset(&h, 0, sizeof h);
            ex03_heap_init(&h, k);
            heap[0] = record(&h);
            for (s = 0; s < n; s++) {
                ret[s] = ex03_heap_push(&h, stream[s].d, stream[s].i);
                heap[s + 1] = record(&h);
            }
        }
        KIT_FROM_RUNNER(ret, n * sizeof *ret);
        KIT_FROM_RUNNER(heap, (n + 1) * sizeof *heap);
        for (s = 0; s < n; s++) {
            const heap_rec *h = &heap[s]; /* before push s */
            const int full = h->count == k;
            const float top_d = full ? h->d[0] : 0.0f;
            const uint32_t top_i = full ? h->i[0] : 0u;
            const int want = !full || knn_before(stream[s].d, stream[s].i, top_d, top_i);
            const int r = ret[s];
            snprintf(what, sizeof what, "k=%d after %zu pushes", k, s + 1);
            cr_assert_eq(r, want, "%s: returned %d, want %d", what, r, want);
            expect_heap(&heap[s + 1], what);
            if (s % 97 == 0 || s + 1 == n) expect_k_best(&heap[s + 1], stream, s + 1, k, what);
        }
        free(stream);
        free(heap);
        free(ret);
    }
}

Test(ex03_heap, ties_keep_the_lower_index)
{
    /* 100 candidates at the same distance, indices in a shuffled order: the 8 lowest stay */
    uint32_t perm[100];
    pair stream[100];
    heap_rec h;
    size_t s;
    kit_permutation(perm, 100, KIT_SEED(3));
    memset(&h, 0, sizeof h);
    for (s = 0; s < 100; s++) {
        stream[s].d = 0.25f;
        stream[s].i = perm[s];
    }
    KIT_TO_RUNNER(perm, sizeof perm);
    KIT_STUDENT
    {
        ex03_heap heap;
        memset(&heap, 0, sizeof heap);
        ex03_heap_init(&heap, 8);
        for (s = 0; s < 100; s++) ex03_heap_push(&heap, 0.25f, perm[s]);
        h = record(&heap);
    }
    KIT_FROM_RUNNER(&h, sizeof h);
    expect_k_best(&h, stream, 100, 8, "100 ties, k = 8");
    cr_assert_eq(h.i[0], 7u, "the top is the worst kept: index 7");
}

Test(ex03_heap, return_value_says_kept)
{
    heap_rec h;
    int ret[5] = {0};
    memset(&h, 0, sizeof h);
    KIT_STUDENT
    {
        ex03_heap heap;
        memset(&heap, 0, sizeof heap);
        ex03_heap_init(&heap, 2);
        ret[0] = ex03_heap_push(&heap, 4.0f, 4);
        ret[1] = ex03_heap_push(&heap, 3.0f, 3);
        ret[2] = ex03_heap_push(&heap, 4.0f, 5);
        ret[3] = ex03_heap_push(&heap, 5.0f, 0);
        ret[4] = ex03_heap_push(&heap, 4.0f, 2);
        h = record(&heap);
    }
    KIT_FROM_RUNNER(ret, sizeof ret);
    KIT_FROM_RUNNER(&h, sizeof h);
    cr_assert_eq(ret[0], 1, WAS_EQ(ex03_heap_push(&h, 4.0f, 4), 1));
    cr_assert_eq(ret[1], 1, WAS_EQ(ex03_heap_push(&h, 3.0f, 3), 1));
    cr_assert_eq(ret[2], 0, "(4, 5) comes after the top (4, 4)");
    cr_assert_eq(ret[3], 0, "a larger distance");
    cr_assert_eq(ret[4], 1, "(4, 2) comes before the top (4, 4)");
    cr_assert(h.count == 2 && h.d[0] == 4.0f && h.i[0] == 2, "top (%g, %u)", (double)h.d[0], h.i[0]);
}

/* ------------------------------------------------------------ ex03_trim */

/* ex03_trim: ex03_visit / ex03_children in $(IMPL)/03-kdtree/knn_ex_trim.cuh, device code only
 * (no host file includes it): one call at a time in the kit's probe kernels (ex03_visit_gpu,
 * ex03_children_gpu) and in the search kernel of ex03_search_dev.cu, on the GPU */
TestSuite(ex03_trim, .timeout = KIT_GPU_TIMEOUT);

Test(ex03_trim, visit_rule)
{
    int v[7] = {0};
    int32_t e = 0;
    KIT_REQUIRE_GPU();
    KIT_STUDENT
    {
        /* v[i] = ex03_visit(plane[i], bound[i]), on the GPU */
        const float plane[7] = {0.0f, 5.0f, 2.0f, 1.0f, 1.5f, 0.0f, nextafterf(1.0f, 2.0f)};
        const float bound[7] = {INFINITY, INFINITY, 1.0f, 2.0f, 1.5f, 0.0f, 1.0f};
        e = ex03_visit_gpu(plane, bound, v, 7);
    }
    KIT_FROM_RUNNER(&e, sizeof e);
    KIT_FROM_RUNNER(v, sizeof v);
    cr_assert_eq(e, cudaSuccess, "ex03_visit in the kit's probe kernel: %s", cudaGetErrorName((cudaError_t)e));
    cr_assert_eq(v[0], 1, "nothing held yet: search");
    cr_assert_eq(v[1], 1, WAS_EQ(ex03_visit(5.0f, INFINITY), 1));
    cr_assert_eq(v[2], 0, "the plane is farther than the k-th best: skip");
    cr_assert_eq(v[3], 1, WAS_EQ(ex03_visit(1.0f, 2.0f), 1));
    cr_assert_eq(v[4], 1, "equal: a smaller index at the same distance may be there");
    cr_assert_eq(v[5], 1, "equal at 0 (duplicates)");
    cr_assert_eq(v[6], 0, WAS_EQ(ex03_visit(nextafterf(1.0f, 2.0f), 1.0f), 0));
}

/* children and planes as the rule says; count returned */
static void expect_children(uint32_t node, size_t n, float qa, float split, int want_c, uint32_t c0, float p0,
                            uint32_t c1, float p1)
{
    ex03_children_got got = {0, {0xDEAD, 0xDEAD}, {-1, -1}};
    const uint32_t *child = got.child;
    const float *plane = got.plane;
    int c;
    int32_t e = 0;
    KIT_STUDENT
    {
        e = ex03_children_gpu(node, n, qa, split, &got); /* ex03_children on the GPU */
    }
    KIT_FROM_RUNNER(&e, sizeof e);
    KIT_FROM_RUNNER(&got, sizeof got);
    cr_assert_eq(e, cudaSuccess, "node %u of %zu, q %g split %g: ex03_children in the kit's probe kernel: %s", node,
                 n, (double)qa, (double)split, cudaGetErrorName((cudaError_t)e));
    c = got.c;
    cr_assert_eq(c, want_c, "node %u of %zu, q %g split %g: %d children, want %d", node, n, (double)qa,
                 (double)split, c, want_c);
    if (want_c >= 1)
        cr_assert(child[0] == c0 && plane[0] == p0, "node %u of %zu, q %g split %g: first pushed (%u, %g), want (%u, %g)",
                  node, n, (double)qa, (double)split, child[0], (double)plane[0], c0, (double)p0);
    if (want_c == 2)
        cr_assert(child[1] == c1 && plane[1] == p1, "node %u of %zu, q %g split %g: second pushed (%u, %g), want (%u, %g)",
                  node, n, (double)qa, (double)split, child[1], (double)plane[1], c1, (double)p1);
}

Test(ex03_trim, children_by_hand)
{
    KIT_REQUIRE_GPU();
    /* both children exist: offside first with (q - s)^2, onside last (popped first) with 0 */
    expect_children(1, 3, 0.25f, 0.75f, 2, 3, 0.25f, 2, 0.0f);  /* query left: onside 2 */
    expect_children(1, 3, 1.0f, 0.5f, 2, 2, 0.25f, 3, 0.0f);    /* query right: onside 3 */
    expect_children(1, 3, 0.5f, 0.5f, 2, 3, 0.0f, 2, 0.0f);     /* on the plane: left is onside */
    expect_children(5, 11, -2.0f, 1.0f, 2, 11, 9.0f, 10, 0.0f); /* deeper node */
    /* one child: node 2 of 4 has only 4; node 1 of 2 has only 2 */
    expect_children(2, 4, 0.0f, 1.0f, 1, 4, 0.0f, 0, 0.0f);     /* onside 4 exists, offside 5 does not */
    expect_children(2, 4, 3.0f, 1.0f, 1, 4, 4.0f, 0, 0.0f);     /* onside 5 missing: offside 4 */
    expect_children(1, 2, 0.75f, 0.25f, 1, 2, 0.25f, 0, 0.0f);
    /* a leaf */
    expect_children(3, 5, 0.0f, 1.0f, 0, 0, 0, 0, 0);
    expect_children(6, 12, 0.0f, 1.0f, 1, 12, 0.0f, 0, 0.0f);
}

/* the GPU search with the exercise's functions against the CPU reference; mean visits.  The judge
 * fills the points and queries and builds the tree (the kit's knn_lb_build; the runner receives
 * the tree and the queries), the runner searches */
static void search_case(const char *input, size_t n, size_t m, int dim, int k, uint64_t seed, double max_visit_frac)
{
    const kit_input *in = kit_input_find(&knn_problem, input);
    kit_shape sh = knn_shape(n, m, k, dim, 0);
    kit_host h;
    float *pts = malloc(n * (size_t)dim * 4 + 4), *qs = malloc(m * (size_t)dim * 4 + 4);
    float *node = malloc((n + 1) * 16), *wd = malloc(m * (size_t)k * 4), *gd = calloc(m * (size_t)k, 4);
    uint32_t *tidx = malloc((n + 1) * 4), *wi = malloc(m * (size_t)k * 4), *gi = calloc(m * (size_t)k, 4);
    uint32_t *visits = calloc(m, 4);
    int32_t rc[14] = {0}; /* what each CUDA call of the runner returned, in order; it stops at the first error */
    size_t j, bad = 0;
    double mean = 0;
    cr_assert(in && pts && qs && node && wd && gd && tidx && wi && gi && visits);
    memset(&h, 0, sizeof h);
    h.buf[KNN_BUF_POINTS] = pts;
    h.buf[KNN_BUF_QUERIES] = qs;
    knn_fill(&knn_problem, &h, &sh, in, KIT_SEED(seed));
    KIT_JUDGE knn_cpu_brute(pts, n, qs, m, dim, k, 0, wi, wd);
    cr_assert_eq(knn_lb_build(pts, n, dim, node, tidx), 0);
    KIT_TO_RUNNER(node, (n + 1) * 16);
    KIT_TO_RUNNER(tidx, (n + 1) * 4);
    KIT_TO_RUNNER(qs, m * (size_t)dim * 4);
    KIT_STUDENT
    {
        float *d_node = NULL, *d_q = NULL, *d_d2 = NULL;
        uint32_t *d_tidx = NULL, *d_i = NULL, *d_v = NULL;
        int c = 0;
#define TRY(call)                                                                                  \
    do {                                                                                           \
        if (c == 0 || rc[c - 1] == cudaSuccess) rc[c++] = (int32_t)(call);                         \
    } while (0)
        TRY(cudaMalloc((void **)&d_node, (n + 1) * 16));
        TRY(cudaMalloc((void **)&d_tidx, (n + 1) * 4));
        TRY(cudaMalloc((void **)&d_q, m * (size_t)dim * 4 + 4));
        TRY(cudaMalloc((void **)&d_i, m * (size_t)k * 4));
        TRY(cudaMalloc((void **)&d_d2, m * (size_t)k * 4));
        TRY(cudaMalloc((void **)&d_v, m * 4));
        TRY(cudaMemcpy(d_node, node, (n + 1) * 16, cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_tidx, tidx, (n + 1) * 4, cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_q, qs, m * (size_t)dim * 4, cudaMemcpyHostToDevice));
        TRY(ex03_tree_knn(d_node, d_tidx, n, dim, d_q, m, k, d_i, d_d2, d_v, 0));
        TRY(cudaDeviceSynchronize());
        TRY(cudaMemcpy(gi, d_i, m * (size_t)k * 4, cudaMemcpyDeviceToHost));
        TRY(cudaMemcpy(gd, d_d2, m * (size_t)k * 4, cudaMemcpyDeviceToHost));
        TRY(cudaMemcpy(visits, d_v, m * 4, cudaMemcpyDeviceToHost));
#undef TRY
        cudaFree(d_node), cudaFree(d_tidx), cudaFree(d_q), cudaFree(d_i), cudaFree(d_d2), cudaFree(d_v);
    }
    KIT_FROM_RUNNER(rc, sizeof rc);
    KIT_FROM_RUNNER(gi, m * (size_t)k * 4);
    KIT_FROM_RUNNER(gd, m * (size_t)k * 4);
    KIT_FROM_RUNNER(visits, m * 4);
    cr_assert_eq(rc[0], cudaSuccess, WAS_EQ(cudaMalloc((void **)&d_node, (n + 1) * 16), cudaSuccess));
    cr_assert_eq(rc[1], cudaSuccess, WAS_EQ(cudaMalloc((void **)&d_tidx, (n + 1) * 4), cudaSuccess));
    cr_assert_eq(rc[2], cudaSuccess, WAS_EQ(cudaMalloc((void **)&d_q, m * (size_t)dim * 4 + 4), cudaSuccess));
    cr_assert_eq(rc[3], cudaSuccess, WAS_EQ(cudaMalloc((void **)&d_i, m * (size_t)k * 4), cudaSuccess));
    cr_assert_eq(rc[4], cudaSuccess, WAS_EQ(cudaMalloc((void **)&d_d2, m * (size_t)k * 4), cudaSuccess));
    cr_assert_eq(rc[5], cudaSuccess, WAS_EQ(cudaMalloc((void **)&d_v, m * 4), cudaSuccess));
    cr_assert_eq(rc[6], cudaSuccess, WAS_EQ(cudaMemcpy(d_node, node, (n + 1) * 16, cudaMemcpyHostToDevice), cudaSuccess));
    cr_assert_eq(rc[7], cudaSuccess, WAS_EQ(cudaMemcpy(d_tidx, tidx, (n + 1) * 4, cudaMemcpyHostToDevice), cudaSuccess));
    cr_assert_eq(rc[8], cudaSuccess,
                 WAS_EQ(cudaMemcpy(d_q, qs, m * (size_t)dim * 4, cudaMemcpyHostToDevice), cudaSuccess));
    cr_assert_eq(rc[9], cudaSuccess,
                 WAS_EQ(ex03_tree_knn(d_node, d_tidx, n, dim, d_q, m, k, d_i, d_d2, d_v, 0), cudaSuccess));
    cr_assert_eq(rc[10], cudaSuccess, "%s n=%zu dim=%d k=%d: the kernel failed: %s", input, n, dim, k,
                 cudaGetErrorString((cudaError_t)rc[10]));
    cr_assert_eq(rc[11], cudaSuccess,
                 WAS_EQ(cudaMemcpy(gi, d_i, m * (size_t)k * 4, cudaMemcpyDeviceToHost), cudaSuccess));
    cr_assert_eq(rc[12], cudaSuccess,
                 WAS_EQ(cudaMemcpy(gd, d_d2, m * (size_t)k * 4, cudaMemcpyDeviceToHost), cudaSuccess));
    cr_assert_eq(rc[13], cudaSuccess, WAS_EQ(cudaMemcpy(visits, d_v, m * 4, cudaMemcpyDeviceToHost), cudaSuccess));
    for (j = 0; j < m * (size_t)k; j++)
        if (gi[j] != wi[j] || memcmp(&gd[j], &wd[j], 4) != 0) {
            if (!bad)
                cr_log_error("%s n=%zu dim=%d k=%d: query %zu rank %zu: (%u, %g), want (%u, %g)", input, n, dim, k,
                             j / k, j % k, gi[j], (double)gd[j], wi[j], (double)wd[j]);
            bad++;
        }
    cr_assert_eq(bad, 0, "%s n=%zu dim=%d k=%d: %zu of %zu results differ from brute force", input, n, dim, k, bad,
                 m * (size_t)k);
    for (j = 0; j < m; j++) mean += visits[j];
    mean /= (double)(m ? m : 1);
    if (max_visit_frac > 0)
        cr_assert_lt(mean, max_visit_frac * (double)n,
                     "%s n=%zu dim=%d k=%d: a query visits %.0f nodes on average: the trim test skips too little",
                     input, n, dim, k, mean);
    free(pts), free(qs), free(node), free(wd), free(gd), free(tidx), free(wi), free(gi), free(visits);
}

Test(ex03_trim, search_equals_brute)
{
    static const int ks[] = {1, 8, 32};
    int k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < 3; k++) {
        search_case("uniform", 10007, 1001, 3, ks[k], 1, 0);
        search_case("clustered", 4099, 1001, 3, ks[k], 2, 0);
        search_case("uniform", 1, 33, 3, ks[k], 3, 0);
        search_case("uniform", 2, 33, 3, ks[k], 4, 0);
    }
}

Test(ex03_trim, trims)
{
    KIT_REQUIRE_GPU();
    search_case("uniform", 100003, 2000, 3, 1, 5, 0.01);
    search_case("uniform", 100003, 2000, 3, 8, 6, 0.02);
}

Test(ex03_trim, ties_and_dims)
{
    static const char *const inputs[] = {"duplicates", "lattice", "collinear", "surface"};
    size_t x;
    int dim;
    KIT_REQUIRE_GPU();
    for (x = 0; x < 4; x++)
        for (dim = 2; dim <= 4; dim++) {
            search_case(inputs[x], 5003, 777, dim, 8, 10 + x, 0);
            search_case(inputs[x], 31, 99, dim, 32, 20 + x, 0);
        }
}
