/* knn_best.cuh - the k best (distance, index) pairs of a query, in registers: the one structure
 * every step of chapter 03 keeps its candidates in (knn_tree.cuh includes it; the comment there,
 * "the k best", explains the layout).  Host and device (KIT_HD).
 *
 * A header of its own so that exercise ex03_trim's search kernel (ex03_search.cu) can keep its
 * candidates the chapter's way without seeing knn_tree.cuh, whose local-stack search
 * (knn_search_local: the trim test and the near / far child order inline) would answer it. */
#ifndef KNN_BEST_CUH
#define KNN_BEST_CUH

#include <math.h>
#include <stdint.h>

#include "kit.h"
#include "knn.h"

/* #pragma unroll inside functions that the host compiles too (gcc would warn) */
#ifdef __CUDA_ARCH__
#define KNN_UNROLL _Pragma("unroll")
#else
#define KNN_UNROLL
#endif

template <int KB>
struct knn_best {
    float d[KB];
    uint32_t i[KB];
};

/* (da, ia) after (db, ib) in the (d2, index) order */
static inline KIT_HD bool knn_after(float da, uint32_t ia, float db, uint32_t ib)
{
    return da > db || (da == db && ia > ib);
}

template <int KB>
static inline KIT_HD void knn_best_init(knn_best<KB> &b, int k)
{
    KNN_UNROLL
    for (int s = 0; s < KB; s++) {
        b.d[s] = s < k ? INFINITY : -INFINITY;
        b.i[s] = s < k ? KNN_NONE : 0u;
    }
}

/* insert the pair (d, id), which precedes the worst kept pair: that one drops out */
template <int KB>
static inline KIT_HD void knn_best_insert(knn_best<KB> &b, float d, uint32_t id)
{
    bool placed = false;
    KNN_UNROLL
    for (int s = 0; s < KB; s++) {
        const int t = s + 1 < KB ? s + 1 : s; /* never read past the list */
        if (!placed) {
            if (s + 1 < KB && knn_after(b.d[t], b.i[t], d, id)) {
                b.d[s] = b.d[t];
                b.i[s] = b.i[t];
            } else {
                b.d[s] = d;
                b.i[s] = id;
                placed = true;
            }
        }
    }
}

/* offer the pair (d, id): kept when it precedes the worst kept pair */
template <int KB>
static inline KIT_HD void knn_best_offer(knn_best<KB> &b, float d, uint32_t id)
{
    if (knn_after(b.d[0], b.i[0], d, id)) knn_best_insert(b, d, id);
}

/* ranks 0 .. k-1 of query j, ascending: rank r is slot k - 1 - r */
template <int KB>
static inline KIT_HD void knn_best_store(const knn_best<KB> &b, int k, size_t j, uint32_t *idx, float *dist2)
{
    const size_t base = j * (size_t)k;
    KNN_UNROLL
    for (int s = 0; s < KB; s++)
        if (s < k) {
            idx[base + (size_t)(k - 1 - s)] = b.i[s];
            dist2[base + (size_t)(k - 1 - s)] = b.d[s];
        }
}

#endif
