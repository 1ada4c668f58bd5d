/* knn_best.cuh - the k best candidates of one query, kept by one thread in registers (chapter 03's
 * device helper, shared by its steps).
 *
 * knn_best<K> holds the K best (d2, index) pairs seen so far, sorted ascending by (d2, index),
 * unfilled slots (+inf, KNN_NONE).  K is a compile-time capacity (knn_capacity(k): 1, 4, 8, 16
 * or 32) so that every loop unrolls and the arrays live in registers; the runtime k <= K.
 * Keeping more than k never changes the first k (the k smallest pairs of a stream are the first
 * k of its K smallest), so a step may simply offer everything to the K-list and write ranks
 * 0 .. k-1.  A tree search prunes with kth(k), the k-th best d2, not the K-th.
 *
 * Insertion is branch-free over the list: with lt[j] = (c before slot j) computed on the old
 * values, the new slot j is slot j-1 when lt[j-1] (shifted down), c when lt[j] and not lt[j-1]
 * (its place), else unchanged; slot 0 is c when lt[0].  About 4K selects per insertion; a
 * query of n candidates inserts about K ln(n / K) times, so the cost is in the test that
 * rejects (one compare with d[K-1]). */
#ifndef KNN_BEST_CUH
#define KNN_BEST_CUH

#include <type_traits>

#include "knn.h"

/* the compile-time capacity used for k: the smallest of 1, 4, 8, 16, 32 that holds it */
static inline __host__ __device__ int knn_capacity(int k)
{
    return k <= 1 ? 1 : k <= 4 ? 4 : k <= 8 ? 8 : k <= 16 ? 16 : 32;
}

template <int K>
struct knn_best {
    float d[K];
    uint32_t i[K];

    __device__ __forceinline__ void init()
    {
#pragma unroll
        for (int j = 0; j < K; j++) {
            d[j] = __int_as_float(0x7F800000); /* +inf */
            i[j] = KNN_NONE;
        }
    }

    /* the K-th pair's d2: a candidate with a larger d2 cannot enter */
    __device__ __forceinline__ float worst() const { return d[K - 1]; }

    /* keep (cd, ci) if it comes before the K-th pair */
    __device__ __forceinline__ void offer(float cd, uint32_t ci)
    {
        bool lt_hi = knn_before(cd, ci, d[K - 1], i[K - 1]);
        if (!lt_hi) return;
#pragma unroll
        for (int j = K - 1; j > 0; j--) {
            const bool lt_lo = knn_before(cd, ci, d[j - 1], i[j - 1]);
            d[j] = lt_lo ? d[j - 1] : (lt_hi ? cd : d[j]);
            i[j] = lt_lo ? i[j - 1] : (lt_hi ? ci : i[j]);
            lt_hi = lt_lo;
        }
        d[0] = lt_hi ? cd : d[0];
        i[0] = lt_hi ? ci : i[0];
    }

    /* the pair of rank k - 1 (1 <= k <= K): the trim distance of a k-NN search, +inf while
     * fewer than k candidates are held; a select chain keeps the arrays in registers */
    __device__ __forceinline__ float kth(int k) const
    {
        float b = d[0];
#pragma unroll
        for (int j = 1; j < K; j++) b = (j == k - 1) ? d[j] : b;
        return b;
    }
    __device__ __forceinline__ uint32_t kth_index(int k) const
    {
        uint32_t b = i[0];
#pragma unroll
        for (int j = 1; j < K; j++) b = (j == k - 1) ? i[j] : b;
        return b;
    }

    /* ranks 0 .. k-1 to idx[0 .. k) and dist2[0 .. k) */
    __device__ __forceinline__ void store(uint32_t *idx, float *dist2, int k) const
    {
#pragma unroll
        for (int r = 0; r < K; r++)
            if (r < k) {
                idx[r] = i[r];
                dist2[r] = d[r];
            }
    }
};

/* Call f(std::integral_constant<int, DIM>(), std::integral_constant<int, K>()) for the runtime
 * dim (2, 3, 4) and K = knn_capacity(k): one instantiation per pair, chosen on the host. */
template <int DIM, class F>
static inline cudaError_t knn_dispatch_k(int k, F &&f)
{
    switch (knn_capacity(k)) {
    case 1: return f(std::integral_constant<int, DIM>(), std::integral_constant<int, 1>());
    case 4: return f(std::integral_constant<int, DIM>(), std::integral_constant<int, 4>());
    case 8: return f(std::integral_constant<int, DIM>(), std::integral_constant<int, 8>());
    case 16: return f(std::integral_constant<int, DIM>(), std::integral_constant<int, 16>());
    default: return f(std::integral_constant<int, DIM>(), std::integral_constant<int, 32>());
    }
}

template <class F>
static inline cudaError_t knn_dispatch(int dim, int k, F &&f)
{
    switch (dim) {
    case 2: return knn_dispatch_k<2>(k, f);
    case 3: return knn_dispatch_k<3>(k, f);
    case 4: return knn_dispatch_k<4>(k, f);
    default: return cudaErrorInvalidValue;
    }
}

#endif
