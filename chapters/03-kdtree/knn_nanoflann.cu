/* knn_nanoflann.cu - nanoflann, the CPU kd-tree library a user would pick, as chapter 03's CPU
 * yardstick (host C++ only; compiled by nvcc because the kit builds a chapter's .c and .cu
 * files).  Built in when the Makefile found nanoflann.hpp (KNN_HAVE_NANOFLANN: make deps
 * installs libnanoflann-dev; NANOFLANN_DIR=dir names another folder); otherwise every function
 * says so and does nothing.
 *
 * As a user calls it: KDTreeSingleIndexAdaptor over the points in place (an adaptor, no copy),
 * the simple L2 metric (the left-to-right sum of squared differences: the same float
 * operations in the same order as knn_dist2, so the distances are equal bit for bit; the
 * unrolled L2_Adaptor sums in another order), leaves of 10 points (the library's default),
 * knnSearch per query with exact search (eps = 0).  Among equal distances nanoflann keeps the
 * first it meets, not the lowest index, so the tests compare its distances exactly and its
 * indices only where distances are unique.  All mode asks for k + 1 neighbours and drops the
 * query itself (or, among more than k points at distance 0, the last).  threads > 1 splits the
 * queries over std::threads (the index is read-only during the searches). */
#include <stdio.h>
#include <string.h>

#include "knn.h"

#ifdef KNN_HAVE_NANOFLANN
#include <new>
#include <thread>
#include <vector>

#include <nanoflann.hpp>

#define KNN_STR2(x) #x
#define KNN_STR(x) KNN_STR2(x)
extern "C" const char knn_nanoflann_about[] =
    "nanoflann (NANOFLANN_VERSION " KNN_STR(NANOFLANN_VERSION) "), L2_Simple, leaves of 10";

/* nanoflann's view of the points: n x dim floats, read in place */
struct knn_nf_cloud {
    const float *pts;
    size_t n;
    int dim;
    size_t kdtree_get_point_count() const { return n; }
    float kdtree_get_pt(size_t i, size_t a) const { return pts[i * (size_t)dim + a]; }
    template <class BBOX>
    bool kdtree_get_bbox(BBOX &) const { return false; }
};

struct knn_nf_base {
    virtual ~knn_nf_base() {}
    virtual size_t search(const float *q, size_t k, uint32_t *idx, float *d2) const = 0;
};

template <int DIM>
struct knn_nf_index : knn_nf_base {
    typedef nanoflann::L2_Simple_Adaptor<float, knn_nf_cloud, float, uint32_t> metric_t;
    typedef nanoflann::KDTreeSingleIndexAdaptor<metric_t, knn_nf_cloud, DIM, uint32_t> tree_t;
    tree_t tree;
    explicit knn_nf_index(const knn_nf_cloud &c)
        : tree(DIM, c, nanoflann::KDTreeSingleIndexAdaptorParams(10)) {}
    size_t search(const float *q, size_t k, uint32_t *idx, float *d2) const override
    {
        return (size_t)tree.knnSearch(q, k, idx, d2);
    }
};

struct knn_nanoflann {
    knn_nf_cloud cloud; /* the index keeps a reference to it: it lives as long as the index */
    knn_nf_base *index; /* NULL when n == 0 (nanoflann refuses an empty set) */
};

extern "C" int knn_nanoflann_available(void) { return 1; }

extern "C" int knn_nanoflann_build(const float *pts, size_t n, int dim, knn_nanoflann **out)
{
    knn_nanoflann *ix = new (std::nothrow) knn_nanoflann;
    *out = NULL;
    if (!ix || dim < 2 || dim > KNN_MAX_DIM || n > KNN_MAX_N) {
        delete ix;
        return -1;
    }
    ix->cloud.pts = pts;
    ix->cloud.n = n;
    ix->cloud.dim = dim;
    ix->index = NULL;
    try {
        if (n > 0) {
            if (dim == 2) ix->index = new knn_nf_index<2>(ix->cloud);
            else if (dim == 3) ix->index = new knn_nf_index<3>(ix->cloud);
            else ix->index = new knn_nf_index<4>(ix->cloud);
        }
    } catch (...) {
        delete ix;
        return -1;
    }
    *out = ix;
    return 0;
}

/* queries [lo, hi) */
static void knn_nf_range(const knn_nanoflann *ix, const float *queries, size_t lo, size_t hi, int k, int all,
                         uint32_t *idx, float *dist2)
{
    const int dim = ix->cloud.dim;
    const size_t want = (size_t)k + (all ? 1 : 0);
    uint32_t ti[KNN_MAX_K + 1];
    float td[KNN_MAX_K + 1];
    for (size_t j = lo; j < hi; j++) {
        size_t got = 0, r;
        int out = 0;
        if (ix->index) got = ix->index->search(queries + j * (size_t)dim, want, ti, td);
        for (r = 0; r < got && out < k; r++) {
            if (all && ti[r] == (uint32_t)j) continue;
            idx[j * (size_t)k + (size_t)out] = ti[r];
            dist2[j * (size_t)k + (size_t)out] = td[r];
            out++;
        }
        for (; out < k; out++) {
            idx[j * (size_t)k + (size_t)out] = KNN_NONE;
            dist2[j * (size_t)k + (size_t)out] = INFINITY;
        }
    }
}

extern "C" int knn_nanoflann_query(const knn_nanoflann *ix, const float *queries, size_t m, int k, int all,
                                   uint32_t *idx, float *dist2, int threads)
{
    if (!ix || k < 1 || k > KNN_MAX_K) return -1;
    if (all) queries = ix->cloud.pts;
    if (threads < 1) threads = 1;
    if ((size_t)threads > m / 256 + 1) threads = (int)(m / 256 + 1);
    if (threads == 1) {
        knn_nf_range(ix, queries, 0, m, k, all, idx, dist2);
        return 0;
    }
    std::vector<std::thread> pool;
    const size_t chunk = (m + (size_t)threads - 1) / (size_t)threads;
    try {
        pool.reserve((size_t)threads);
    } catch (...) {
        knn_nf_range(ix, queries, 0, m, k, all, idx, dist2); /* no room for threads: this one */
        return 0;
    }
    for (int w = 1; w < threads; w++) {
        const size_t lo = (size_t)w * chunk < m ? (size_t)w * chunk : m, hi = lo + chunk < m ? lo + chunk : m;
        try {
            pool.emplace_back(knn_nf_range, ix, queries, lo, hi, k, all, idx, dist2);
        } catch (...) {
            knn_nf_range(ix, queries, lo, hi, k, all, idx, dist2); /* a thread that cannot start: here */
        }
    }
    knn_nf_range(ix, queries, 0, chunk < m ? chunk : m, k, all, idx, dist2);
    for (auto &t : pool) t.join();
    return 0;
}

extern "C" void knn_nanoflann_free(knn_nanoflann *ix)
{
    if (!ix) return;
    delete ix->index;
    delete ix;
}

#else /* no nanoflann.hpp at build time */

extern "C" const char knn_nanoflann_about[] =
    "absent: nanoflann.hpp was not found at build time (make deps, or make NANOFLANN_DIR=dir)";

extern "C" int knn_nanoflann_available(void) { return 0; }

extern "C" int knn_nanoflann_build(const float *pts, size_t n, int dim, knn_nanoflann **out)
{
    (void)pts, (void)n, (void)dim;
    *out = NULL;
    return -1;
}

extern "C" int knn_nanoflann_query(const knn_nanoflann *ix, const float *queries, size_t m, int k, int all,
                                   uint32_t *idx, float *dist2, int threads)
{
    (void)ix, (void)queries, (void)m, (void)k, (void)all, (void)idx, (void)dist2, (void)threads;
    return -1;
}

extern "C" void knn_nanoflann_free(knn_nanoflann *ix) { (void)ix; }

#endif
