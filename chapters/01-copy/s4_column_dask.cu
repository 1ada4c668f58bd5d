/* s4 - Column DASk copy.
 * Changed versus s3: a fixed grid of C = SMs x resident-blocks thread blocks
 * (one "column" each) instead of one block per data block; block c copies data
 * blocks c, c + C, c + 2C, ... (rows of C data blocks), with s3's batched body.
 * Only the single partial data block at the end checks ranges.
 * Why it can be faster: launch and block-scheduling cost is paid once per
 * resident block, and per-thread setup is amortized over many data blocks.
 * What still limits it: the same 4-byte, 4-deep access stream as s3; the grid
 * must be a multiple of SMs x resident blocks or some SMs idle at the end, and
 * consecutive data blocks of one thread block are a whole row apart.
 * The document's version suits order-free work (reduce, histogram). */
#include "copy.h"
#include "copy_items.cuh"
#include "kit_cuda.cuh"

#define S4_TBS 128
#define S4_NWORK 4
#define S4_BATCH 4
#define S4_DBS ((size_t)S4_TBS * S4_NWORK)

__global__ void __launch_bounds__(S4_TBS) copy_column_kernel(const uint32_t *in, uint32_t *out,
                                                             size_t n)
{
    const size_t full = n / S4_DBS; /* data blocks that need no range check */
    const size_t off = copy_thread_offset<S4_NWORK>();
    size_t db = blockIdx.x;
    for (; db < full; db += gridDim.x) {
        const size_t idx = db * S4_DBS + off;
        copy_items<S4_NWORK, S4_BATCH, RC_NONE>(in + idx, out + idx, idx, 0, 0);
    }
    if (db == full && n % S4_DBS) { /* exactly one block lands on the partial data block */
        const size_t idx = db * S4_DBS + off;
        copy_items<S4_NWORK, S4_BATCH, RC_HI>(in + idx, out + idx, idx, 0, n - 1);
    }
}

extern "C" cudaError_t copy_s4_column_dask(const uint32_t *in, uint32_t *out, size_t n,
                                           void *scratch, cudaStream_t s)
{
    static unsigned columns;
    unsigned grid;
    (void)scratch;
    if (n == 0) return cudaSuccess;
    if (!columns) KIT_TRY(kit_resident_grid((const void *)copy_column_kernel, S4_TBS, 0, &columns));
    grid = kit_blocks_for(n, S4_DBS); /* 0: more than 2^31 - 1 data blocks, so more than columns */
    if (grid == 0 || grid > columns) grid = columns;
    copy_column_kernel<<<grid, S4_TBS, 0, s>>>(in, out, n);
    return cudaGetLastError();
}

KIT_DESCRIBE(copy_s4_describe, copy_column_kernel, S4_TBS, 0)
