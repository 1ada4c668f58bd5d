/* s5 - Row DASk copy over an arbitrary inclusive range [start, stop].
 * Changed versus s4: each of R = SMs x resident-blocks thread blocks walks its
 * own contiguous run ("row") of data blocks in order; the start is aligned down
 * to a warp boundary (128 bytes); rows are load-balanced (loadbalance.h, an
 * exercise: rows differ by at most one block, extras avoid the first and last
 * row); range checks are confined to the first and last data blocks with the
 * <FIRST?><MIDDLE*><LAST?> | <BOTH> pattern.
 * Why it matters: order is preserved along a row, which scan and radix sort
 * need, and unaligned ranges stay coalesced.  For a plain copy it is not faster
 * than s4: the setup (alignment, balancing, four cases) buys order, not speed.
 * What still limits it: s3's 4-byte, 4-deep access stream. */
#include "copy.h"
#include "copy_items.cuh"
#include "kit_cuda.cuh"
#include "loadbalance.h"

#define S5_TBS 128
#define S5_NWORK 4
#define S5_BATCH 4
#define S5_DBS ((size_t)S5_TBS * S5_NWORK)

__global__ void __launch_bounds__(S5_TBS) copy_row_kernel(const uint32_t *in, uint32_t *out,
                                                          size_t start, size_t stop)
{
    const size_t align = start & ~(size_t)31; /* first word of the first data warp */
    const size_t len = stop - align + 1;      /* words from there to stop */
    const uint64_t m = (len + S5_DBS - 1) / S5_DBS;
    const size_t off = copy_thread_offset<S5_NWORK>();
    uint64_t j, end;
    row_dask_balance(m, gridDim.x, blockIdx.x, &j, &end);
    if (end == 0) return; /* an empty row */
    end += j;
    const bool rc_first = j == 0 && align != start;         /* partial first data warp */
    const bool rc_last = end == m && len % S5_DBS != 0;     /* partial last data block */
    if (rc_first && rc_last && end - j == 1) {              /* <BOTH> */
        const size_t idx = align + off;
        copy_items<S5_NWORK, S5_BATCH, RC_BOTH>(in + idx, out + idx, idx, start, stop);
        return;
    }
    if (rc_first) {                                         /* <FIRST> */
        const size_t idx = align + off;
        copy_items<S5_NWORK, S5_BATCH, RC_LO>(in + idx, out + idx, idx, start, 0);
        j++;
    }
    if (rc_last) end--;
    for (; j < end; j++) {                                  /* <MIDDLE*> */
        const size_t idx = align + j * S5_DBS + off;
        copy_items<S5_NWORK, S5_BATCH, RC_NONE>(in + idx, out + idx, idx, 0, 0);
    }
    if (rc_last) {                                          /* <LAST> */
        const size_t idx = align + end * S5_DBS + off;
        copy_items<S5_NWORK, S5_BATCH, RC_HI>(in + idx, out + idx, idx, 0, stop);
    }
}

extern "C" cudaError_t copy_row_dask_range(const uint32_t *in, uint32_t *out, size_t start,
                                           size_t stop, cudaStream_t s)
{
    static unsigned rows;
    unsigned grid;
    size_t blocks;
    if (stop < start) return cudaSuccess;
    if (!rows) KIT_TRY(kit_resident_grid((const void *)copy_row_kernel, S5_TBS, 0, &rows));
    blocks = (stop - (start & ~(size_t)31) + S5_DBS) / S5_DBS;
    grid = blocks < rows ? (unsigned)blocks : rows;
    copy_row_kernel<<<grid, S5_TBS, 0, s>>>(in, out, start, stop);
    return cudaGetLastError();
}

extern "C" cudaError_t copy_s5_row_dask(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                        cudaStream_t s)
{
    (void)scratch;
    return n ? copy_row_dask_range(in, out, 0, n - 1, s) : cudaSuccess;
}

KIT_DESCRIBE(copy_s5_describe, copy_row_kernel, S5_TBS, 0)
