/* ex03_search.c - the launchers of exercise ex03_trim (ex03_search.h), the kit's own host code:
 * the kernels (ex03_search_dev.cu, with the student's ex03_visit and ex03_children) are device
 * code, loaded at first use (reference/kit_dev.h); nothing of the student's is included here. */
#include <stdint.h>

#include "ex03_search.h"
#include "kit_dev.h"
#include "knn.h"

extern const unsigned char KIT_DEV_IMAGE(03_kdtree, ex03_search_dev)[];
#define EX03_FN(name) {KIT_DEV_IMAGE(03_kdtree, ex03_search_dev), name, 0}
/* ex03_kernel<2>, <3>, <4> (a template in ex03_search_dev.cu), by their mangled names */
static kit_dev_fn ex03_search_kernels[3] = {EX03_FN("_Z11ex03_kernelILi2EEvPK6float4PKjmPKfmiPjPfS7_"),
                                            EX03_FN("_Z11ex03_kernelILi3EEvPK6float4PKjmPKfmiPjPfS7_"),
                                            EX03_FN("_Z11ex03_kernelILi4EEvPK6float4PKjmPKfmiPjPfS7_")};
static kit_dev_fn ex03_visit_fn = EX03_FN("ex03_visit_kernel");
static kit_dev_fn ex03_children_fn = EX03_FN("ex03_children_kernel");

cudaError_t ex03_tree_knn(const float *node, const uint32_t *idx, size_t n, int dim, const float *queries,
                          size_t m, int k, uint32_t *out_idx, float *out_dist2, uint32_t *visits,
                          cudaStream_t s)
{
    const size_t blocks = m / EX03_TBS + (m % EX03_TBS != 0);
    const void *kern;
    void *args[] = {(void *)&node, (void *)&idx, (void *)&n, (void *)&queries, (void *)&m,
                    (void *)&k, (void *)&out_idx, (void *)&out_dist2, (void *)&visits};
    if (dim < 2 || dim > 4 || k < 1 || k > 32 || n > KNN_MAX_N || m > KNN_MAX_N) return cudaErrorInvalidValue;
    if (((uintptr_t)node & 15u) || (n > 0 && (!node || !idx))) return cudaErrorInvalidValue;
    if (m == 0) return cudaSuccess;
    if (!queries || !out_idx || !out_dist2) return cudaErrorInvalidValue;
    if (blocks > 0x7FFFFFFF) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    KIT_TRY(kit_dev_get(&ex03_search_kernels[dim - 2], &kern));
    return kit_dev_launch(kern, (dim3){(unsigned)blocks, 1, 1}, (dim3){EX03_TBS, 1, 1}, 0, s, args);
}

/* one thread of kernel fn with args, waited for: the probes' common part */
static cudaError_t ex03_probe(kit_dev_fn *fn, void **args)
{
    const void *kern;
    KIT_TRY(kit_dev_get(fn, &kern));
    KIT_TRY(kit_dev_launch(kern, (dim3){1, 1, 1}, (dim3){1, 1, 1}, 0, 0, args));
    return cudaDeviceSynchronize();
}

cudaError_t ex03_visit_gpu(const float *plane, const float *bound, int *v, int count)
{
    float *d_plane = NULL, *d_bound = NULL;
    int *d_v = NULL;
    const size_t fb = (size_t)count * sizeof(float), ib = (size_t)count * sizeof(int);
    cudaError_t e;
    void *args[] = {(void *)&d_plane, (void *)&d_bound, (void *)&d_v, (void *)&count};
    if (count <= 0 || !plane || !bound || !v) return cudaErrorInvalidValue;
    if ((e = cudaMalloc((void **)&d_plane, fb)) == cudaSuccess && (e = cudaMalloc((void **)&d_bound, fb)) == cudaSuccess &&
        (e = cudaMalloc((void **)&d_v, ib)) == cudaSuccess &&
        (e = cudaMemcpy(d_plane, plane, fb, cudaMemcpyHostToDevice)) == cudaSuccess &&
        (e = cudaMemcpy(d_bound, bound, fb, cudaMemcpyHostToDevice)) == cudaSuccess &&
        (e = ex03_probe(&ex03_visit_fn, args)) == cudaSuccess)
        e = cudaMemcpy(v, d_v, ib, cudaMemcpyDeviceToHost);
    cudaFree(d_plane);
    cudaFree(d_bound);
    cudaFree(d_v);
    return e;
}

cudaError_t ex03_children_gpu(uint32_t node, size_t n, float qa, float split, ex03_children_got *got)
{
    ex03_children_got *d_got = NULL;
    cudaError_t e;
    void *args[] = {(void *)&node, (void *)&n, (void *)&qa, (void *)&split, (void *)&d_got};
    if (!got) return cudaErrorInvalidValue;
    if ((e = cudaMalloc((void **)&d_got, sizeof *got)) == cudaSuccess &&
        (e = cudaMemcpy(d_got, got, sizeof *got, cudaMemcpyHostToDevice)) == cudaSuccess &&
        (e = ex03_probe(&ex03_children_fn, args)) == cudaSuccess)
        e = cudaMemcpy(got, d_got, sizeof *got, cudaMemcpyDeviceToHost);
    cudaFree(d_got);
    return e;
}
