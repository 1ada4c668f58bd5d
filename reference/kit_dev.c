/* kit_dev.c - kernels compiled device-only, loaded at first use (kit_dev.h). */
#include "kit_dev.h"

#define KIT_DEV_IMAGES 64 /* distinct images a program loads (a chapter has a few) */

static struct {
    const void *image;
    cudaLibrary_t lib;
} kit_dev_loaded[KIT_DEV_IMAGES];
static int kit_dev_nloaded;

static cudaError_t kit_dev_library(const void *image, cudaLibrary_t *lib)
{
    int i;
    cudaError_t e;
    for (i = 0; i < kit_dev_nloaded; i++)
        if (kit_dev_loaded[i].image == image) {
            *lib = kit_dev_loaded[i].lib;
            return cudaSuccess;
        }
    if (kit_dev_nloaded == KIT_DEV_IMAGES) return cudaErrorMemoryAllocation;
    e = cudaLibraryLoadData(lib, image, NULL, NULL, 0, NULL, NULL, 0);
    if (e != cudaSuccess) return e;
    kit_dev_loaded[kit_dev_nloaded].image = image;
    kit_dev_loaded[kit_dev_nloaded].lib = *lib;
    kit_dev_nloaded++;
    return cudaSuccess;
}

cudaError_t kit_dev_get(kit_dev_fn *f, const void **func)
{
    cudaLibrary_t lib;
    cudaKernel_t k;
    cudaError_t e;
    if (!f || !func || !f->image || !f->name) return cudaErrorInvalidValue;
    if (!f->kernel) {
        if ((e = kit_dev_library(f->image, &lib)) != cudaSuccess) return e;
        if ((e = cudaLibraryGetKernel(&k, lib, f->name)) != cudaSuccess) return e;
        f->kernel = k;
    }
    *func = (const void *)f->kernel;
    return cudaSuccess;
}

cudaError_t kit_dev_launch(const void *func, dim3 grid, dim3 block, size_t smem, cudaStream_t s,
                           void **args)
{
    const cudaError_t e = cudaLaunchKernel(func, grid, block, args, smem, s);
    const cudaError_t last = cudaGetLastError();
    return e != cudaSuccess ? e : last;
}
