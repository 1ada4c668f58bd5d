/* kit_dev.h - kernels compiled device-only, loaded at first use (docs/grading.md, "Device-only
 * exercise code").
 *
 * A GPU exercise's student code is device code only: the Makefile compiles every .cu of
 * $(IMPL)/NN-topic/ and every chapters/NN-topic/ *_dev.cu with `nvcc -fatbin` (no host code of
 * it exists at all: no host function, no global constructor, no macro reaching a host
 * translation unit) and embeds the fatbin as read-only data under the symbol KIT_DEV_IMAGE(CH,
 * FILE), e.g. KIT_DEV_IMAGE(01_copy, s1_block_dask) for solutions/01-copy/s1_block_dask.cu.
 * The kit's host launcher, in a file of chapters/ that includes no student file, finds its
 * kernel there by its extern "C" name:
 *
 *     extern const unsigned char KIT_DEV_IMAGE(01_copy, s1_block_dask)[];
 *     static kit_dev_fn F = {KIT_DEV_IMAGE(01_copy, s1_block_dask), "copy_block_dask_kernel", 0};
 *     const void *k;
 *     KIT_TRY(kit_dev_get(&F, &k));               (k: what cudaLaunchKernel, cudaFuncGetAttributes
 *     void *args[] = {&in, &out, &n};              and the occupancy queries take)
 *     return kit_dev_launch(k, grid, block, smem, s, args);
 *
 * An image is loaded once (cudaLibraryLoadData: into every context, present and future) and its
 * kernels looked up once each (cudaLibraryGetKernel); a failure is returned, never remembered,
 * so a later call tries again.  One host thread at a time, like the rest of the harness.
 * Library code: nothing here prints or exits. */
#ifndef KIT_DEV_H
#define KIT_DEV_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the symbol of the embedded fatbin of chapters/NN-topic/FILE.cu or $(IMPL)/NN-topic/FILE.cu:
 * CH is the chapter's folder with '-' as '_' (01_copy), FILE the file's name without .cu */
#define KIT_DEV_IMAGE(CH, FILE) kit_dev_##CH##_##FILE

typedef struct kit_dev_fn {
    const void *image;   /* an embedded fatbin (KIT_DEV_IMAGE) */
    const char *name;    /* the extern "C" __global__ function in it */
    cudaKernel_t kernel; /* found at first use; 0 until then */
} kit_dev_fn;

/* *func = f's kernel, as the const void * that cudaLaunchKernel, cudaFuncGetAttributes,
 * cudaFuncSetAttribute and the occupancy queries take; loads f->image on first use.
 * cudaErrorInvalidValue for a NULL argument; cudaErrorSymbolNotFound when the image has no
 * kernel of that name (a student's kernel renamed); any load error as the runtime returns it. */
cudaError_t kit_dev_get(kit_dev_fn *f, const void **func);

/* cudaLaunchKernel(func, grid, block, args, smem, s), then the runtime's last error (what a
 * <<<>>> launch followed by cudaGetLastError returns): the launch's error first. */
cudaError_t kit_dev_launch(const void *func, dim3 grid, dim3 block, size_t smem, cudaStream_t s,
                           void **args);

#ifdef __cplusplus
#define KIT_DEV_EXTERN_C extern "C"
#else
#define KIT_DEV_EXTERN_C
#endif

/* a step's describe function (kit.h's kit_kernel_desc) for the kernel fn (a kit_dev_fn) */
#define KIT_DEV_DESCRIBE(name, fn, threads, smem)                                     \
    KIT_DEV_EXTERN_C cudaError_t name(kit_kernel_desc *d)                             \
    {                                                                                 \
        const void *k_;                                                               \
        KIT_TRY(kit_dev_get(&(fn), &k_));                                             \
        d->func = k_;                                                                 \
        d->block_threads = (threads);                                                 \
        d->dyn_smem = (smem);                                                         \
        return cudaSuccess;                                                           \
    }

#ifdef __cplusplus
}
#endif

#endif
