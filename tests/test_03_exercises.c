/* test_03_exercises.c - chapter 03's exercises: ex03_median (the left-balanced median position,
 * CPU), ex03_heap (the k-best max-heap insertion, CPU), ex03_trim (the trim test and push order
 * of the kd-tree search: CPU unit tests and the search kernel on the GPU).  Every test compares
 * with an independent reference on fixed seeds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ex03_search.h"
#include "kit_test.h"
#include "knn.h"
#include "knn_ex_heap.h"
#include "knn_ex_median.h"
#include "knn_ex_trim.cuh"
#include "knn_problem.h"

/* ---------------------------------------------------------- ex03_median */

/* ex03_median (CPU): ex03_lb_median in $(IMPL)/03-kdtree/knn_ex_median.h */
TestSuite(ex03_median, .timeout = KIT_CPU_TIMEOUT);

/* the left subtree of a complete binary tree of N nodes, counted node by node */
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

Test(ex03_median, by_hand)
{
    static const size_t want[] = {0, 1, 2, 2, 3, 4, 4, 4, 5, 6, 7, 8, 8, 8, 8, 8, 9};
    size_t N;
    for (N = 1; N < sizeof want / sizeof *want; N++)
        cr_assert_eq(ex03_lb_median(N), want[N], "N = %zu: %zu, want %zu", N, ex03_lb_median(N), want[N]);
}

Test(ex03_median, every_n_to_100000)
{
    size_t N;
    for (N = 1; N <= 100000; N++)
        cr_assert_eq(ex03_lb_median(N), left_nodes(N) + 1, "N = %zu: %zu, want %zu (left subtree %zu + 1)", N,
                     ex03_lb_median(N), left_nodes(N) + 1, left_nodes(N));
}

Test(ex03_median, agrees_with_the_document_from_2)
{
    size_t N;
    cr_assert_eq(ex03_lb_median(1), 1, "N = 1: the document's formula breaks here, yours must not");
    for (N = 2; N <= 20000; N++) {
        size_t h = 0, half, want;
        while (((size_t)1 << h) < N + 1) h++;
        half = (size_t)1 << (h - 2);
        want = half + (half < N - 2 * half + 1 ? half : N - 2 * half + 1);
        cr_assert_eq(ex03_lb_median(N), want, "N = %zu: %zu, the document's formula gives %zu", N, ex03_lb_median(N),
                     want);
    }
}

Test(ex03_median, past_32_bits)
{
    static const size_t big[] = {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, (size_t)1 << 32, ((size_t)1 << 32) + 1,
                                 ((size_t)3 << 35) + 17, ((size_t)1 << 48) - 1, ((size_t)1 << 62) + 5};
    size_t i;
    for (i = 0; i < sizeof big / sizeof *big; i++)
        cr_assert_eq(ex03_lb_median(big[i]), left_nodes(big[i]) + 1, "N = %zu: %zu, want %zu", big[i],
                     ex03_lb_median(big[i]), left_nodes(big[i]) + 1);
}

/* ------------------------------------------------------------ ex03_heap */

/* ex03_heap (CPU): ex03_heap_push in $(IMPL)/03-kdtree/knn_ex_heap.h */
TestSuite(ex03_heap, .timeout = KIT_CPU_TIMEOUT);

/* every parent does not come before its children */
static void expect_heap(const ex03_heap *h, const char *when)
{
    int c;
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
static void expect_k_best(const ex03_heap *h, const pair *stream, size_t n, int k, const char *what)
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
    ex03_heap h;
    int s;
    ex03_heap_init(&h, 3);
    cr_assert(isinf(ex03_heap_bound(&h)));
    for (s = 0; s < 6; s++) {
        const int r = ex03_heap_push(&h, d[s], (uint32_t)(10 + s));
        cr_assert_eq(r, kept[s], "push %d of d=%g returned %d, want %d", s, (double)d[s], r, kept[s]);
        cr_assert_eq(h.d[0], top[s], "after push %d: top d=%g, want %g", s, (double)h.d[0], (double)top[s]);
        expect_heap(&h, "by hand");
    }
    cr_assert_eq(h.count, 3);
    cr_assert_eq(ex03_heap_bound(&h), 5.0f);
}

Test(ex03_heap, random_streams)
{
    static const int ks[] = {1, 2, 3, 5, 8, 13, 32};
    size_t t, s;
    for (t = 0; t < sizeof ks / sizeof *ks; t++) {
        const int k = ks[t];
        const size_t n = 2000;
        pair *stream = malloc(n * sizeof *stream);
        ex03_heap h;
        uint64_t st = 7 + t;
        char what[64];
        cr_assert(stream);
        for (s = 0; s < n; s++) { /* distances from 64 values: many ties, broken by index */
            stream[s].d = (float)(kit_rand64(&st) % 64) / 8.0f;
            stream[s].i = (uint32_t)(kit_rand64(&st) % 1000000) * 2048 + (uint32_t)s; /* distinct */
        }
        ex03_heap_init(&h, k);
        for (s = 0; s < n; s++) {
            const int full = h.count == k;
            const float top_d = full ? h.d[0] : 0.0f;
            const uint32_t top_i = full ? h.i[0] : 0u;
            const int want = !full || knn_before(stream[s].d, stream[s].i, top_d, top_i);
            const int r = ex03_heap_push(&h, stream[s].d, stream[s].i);
            snprintf(what, sizeof what, "k=%d after %zu pushes", k, s + 1);
            cr_assert_eq(r, want, "%s: returned %d, want %d", what, r, want);
            expect_heap(&h, what);
            if (s % 97 == 0 || s + 1 == n) expect_k_best(&h, stream, s + 1, k, what);
        }
        free(stream);
    }
}

Test(ex03_heap, ties_keep_the_lower_index)
{
    /* 100 candidates at the same distance, indices in a shuffled order: the 8 lowest stay */
    uint32_t perm[100];
    pair stream[100];
    ex03_heap h;
    size_t s;
    kit_permutation(perm, 100, 3);
    ex03_heap_init(&h, 8);
    for (s = 0; s < 100; s++) {
        stream[s].d = 0.25f;
        stream[s].i = perm[s];
        ex03_heap_push(&h, 0.25f, perm[s]);
    }
    expect_k_best(&h, stream, 100, 8, "100 ties, k = 8");
    cr_assert_eq(h.i[0], 7u, "the top is the worst kept: index 7");
}

Test(ex03_heap, return_value_says_kept)
{
    ex03_heap h;
    ex03_heap_init(&h, 2);
    cr_assert_eq(ex03_heap_push(&h, 4.0f, 4), 1);
    cr_assert_eq(ex03_heap_push(&h, 3.0f, 3), 1);
    cr_assert_eq(ex03_heap_push(&h, 4.0f, 5), 0, "(4, 5) comes after the top (4, 4)");
    cr_assert_eq(ex03_heap_push(&h, 5.0f, 0), 0, "a larger distance");
    cr_assert_eq(ex03_heap_push(&h, 4.0f, 2), 1, "(4, 2) comes before the top (4, 4)");
    cr_assert(h.count == 2 && h.d[0] == 4.0f && h.i[0] == 2, "top (%g, %u)", (double)h.d[0], h.i[0]);
}

/* ------------------------------------------------------------ ex03_trim */

/* ex03_trim: ex03_visit / ex03_children in $(IMPL)/03-kdtree/knn_ex_trim.cuh, on the CPU and in
 * the search kernel of ex03_search.cu on the GPU */
TestSuite(ex03_trim, .timeout = KIT_GPU_TIMEOUT);

Test(ex03_trim, visit_rule)
{
    cr_assert_eq(ex03_visit(0.0f, INFINITY), 1, "nothing held yet: search");
    cr_assert_eq(ex03_visit(5.0f, INFINITY), 1);
    cr_assert_eq(ex03_visit(2.0f, 1.0f), 0, "the plane is farther than the k-th best: skip");
    cr_assert_eq(ex03_visit(1.0f, 2.0f), 1);
    cr_assert_eq(ex03_visit(1.5f, 1.5f), 1, "equal: a smaller index at the same distance may be there");
    cr_assert_eq(ex03_visit(0.0f, 0.0f), 1, "equal at 0 (duplicates)");
    cr_assert_eq(ex03_visit(nextafterf(1.0f, 2.0f), 1.0f), 0);
}

/* children and planes as the rule says; count returned */
static void expect_children(uint32_t node, size_t n, float qa, float split, int want_c, uint32_t c0, float p0,
                            uint32_t c1, float p1)
{
    uint32_t child[2] = {0xDEAD, 0xDEAD};
    float plane[2] = {-1, -1};
    const int c = ex03_children(node, n, qa, split, child, plane);
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

/* the GPU search with the exercise's functions against the CPU reference; mean visits */
static void search_case(const char *input, size_t n, size_t m, int dim, int k, uint64_t seed, double max_visit_frac)
{
    const kit_input *in = kit_input_find(&knn_problem, input);
    kit_shape sh = knn_shape(n, m, k, dim, 0);
    kit_host h;
    float *pts = malloc(n * (size_t)dim * 4 + 4), *qs = malloc(m * (size_t)dim * 4 + 4);
    float *node = malloc((n + 1) * 16), *wd = malloc(m * (size_t)k * 4), *gd = malloc(m * (size_t)k * 4);
    uint32_t *tidx = malloc((n + 1) * 4), *wi = malloc(m * (size_t)k * 4), *gi = malloc(m * (size_t)k * 4);
    uint32_t *visits = malloc(m * 4);
    float *d_node, *d_q, *d_d2;
    uint32_t *d_tidx, *d_i, *d_v;
    size_t j, bad = 0;
    double mean = 0;
    cr_assert(in && pts && qs && node && wd && gd && tidx && wi && gi && visits);
    memset(&h, 0, sizeof h);
    h.buf[KNN_BUF_POINTS] = pts;
    h.buf[KNN_BUF_QUERIES] = qs;
    knn_fill(&knn_problem, &h, &sh, in, seed);
    knn_cpu_brute(pts, n, qs, m, dim, k, 0, wi, wd);
    cr_assert_eq(knn_lb_build(pts, n, dim, node, tidx), 0);
    cr_assert_eq(cudaMalloc((void **)&d_node, (n + 1) * 16), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_tidx, (n + 1) * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_q, m * (size_t)dim * 4 + 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_i, m * (size_t)k * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_d2, m * (size_t)k * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_v, m * 4), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_node, node, (n + 1) * 16, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_tidx, tidx, (n + 1) * 4, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_q, qs, m * (size_t)dim * 4, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(ex03_tree_knn(d_node, d_tidx, n, dim, d_q, m, k, d_i, d_d2, d_v, 0), cudaSuccess);
    {
        const cudaError_t e = cudaDeviceSynchronize();
        cr_assert_eq(e, cudaSuccess, "%s n=%zu dim=%d k=%d: the kernel failed: %s", input, n, dim, k,
                     cudaGetErrorString(e));
    }
    cr_assert_eq(cudaMemcpy(gi, d_i, m * (size_t)k * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(cudaMemcpy(gd, d_d2, m * (size_t)k * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(cudaMemcpy(visits, d_v, m * 4, cudaMemcpyDeviceToHost), cudaSuccess);
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
    cudaFree(d_node), cudaFree(d_tidx), cudaFree(d_q), cudaFree(d_i), cudaFree(d_d2), cudaFree(d_v);
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
