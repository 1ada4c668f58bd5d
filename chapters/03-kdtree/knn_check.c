/* knn_check.c - the argument checks every chapter-03 step makes before any launch (knn.h). */
#include "knn.h"

static int misaligned4(const void *p) { return ((uintptr_t)p & 3u) != 0; }
static int misaligned256(const void *p) { return ((uintptr_t)p & 255u) != 0; }

cudaError_t knn_check(const void *tree, const float *points, size_t n, const float *queries, size_t m,
                      int dim, int k, int all, const uint32_t *idx, const float *dist2, const void *scratch,
                      size_t max_n)
{
    if (dim < 2 || dim > KNN_MAX_DIM || k < 1 || k > KNN_MAX_K || (all != 0 && all != 1))
        return cudaErrorInvalidValue;
    if (n > (max_n ? max_n : KNN_MAX_N) || m > KNN_MAX_N) return cudaErrorInvalidValue;
    if (all && (m != n || (queries && queries != points))) return cudaErrorInvalidValue;
    if (misaligned4(points) || misaligned4(queries) || misaligned4(idx) || misaligned4(dist2))
        return cudaErrorMisalignedAddress;
    if (misaligned256(tree) || misaligned256(scratch)) return cudaErrorMisalignedAddress;
    if (n > 0 && !points) return cudaErrorInvalidValue;
    if (m > 0 && (!idx || !dist2 || (!all && !queries))) return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t knn_check_build(const float *points, size_t n, int dim, const void *tree, size_t max_n)
{
    if (dim < 2 || dim > KNN_MAX_DIM) return cudaErrorInvalidValue;
    if (n > (max_n ? max_n : KNN_MAX_N)) return cudaErrorInvalidValue;
    if (misaligned4(points)) return cudaErrorMisalignedAddress;
    if (misaligned256(tree)) return cudaErrorMisalignedAddress;
    if (n > 0 && !points) return cudaErrorInvalidValue;
    return cudaSuccess;
}
