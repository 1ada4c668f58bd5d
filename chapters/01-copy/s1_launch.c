/* s1_launch.c - the launcher of s1_block_dask (exercise ex01_block_dask), the kit's own host
 * code: the kernel is the student's, in $(IMPL)/01-copy/s1_block_dask.cu, compiled
 * device-only (reference/kit_dev.h); this file includes no student file, so no student code
 * runs on the host between the judge's input and its output. */
#include "copy.h"
#include "kit_dev.h"

extern const unsigned char KIT_DEV_IMAGE(01_copy, s1_block_dask)[];
static kit_dev_fn s1_kernel = {KIT_DEV_IMAGE(01_copy, s1_block_dask), "copy_block_dask_kernel", 0};

#define S1_DBS ((size_t)COPY_S1_TBS * COPY_S1_NWORK) /* words per data block */

cudaError_t copy_s1_block_dask(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s)
{
    const size_t blocks = n / S1_DBS + (n % S1_DBS != 0);
    const void *k;
    void *args[] = {(void *)&in, (void *)&out, (void *)&n};
    (void)scratch;
    if (n == 0) return cudaSuccess;
    if (blocks > COPY_GRID_MAX) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    KIT_TRY(kit_dev_get(&s1_kernel, &k));
    return kit_dev_launch(k, (dim3){(unsigned)blocks, 1, 1}, (dim3){COPY_S1_TBS, 1, 1}, 0, s, args);
}

KIT_DEV_DESCRIBE(copy_s1_describe, s1_kernel, COPY_S1_TBS, 0)
