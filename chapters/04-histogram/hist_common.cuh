/* hist_common.cuh - what the histogram steps share (hist_common.cu): the split
 * of an arbitrarily aligned input into an aligned body and loose bytes, grid
 * sizes, forced residency, and the block-sum kernel that adds the per-block
 * partial histograms (and the loose bytes) into the final bins. */
#ifndef HIST_COMMON_CUH
#define HIST_COMMON_CUH

#include <stdint.h>

#include "histogram.h"
#include "kit_cuda.cuh"
#include "kit_dev.h"

/* [in, in + n) = `head` loose bytes up to the first A-aligned address, then
 * `units` whole A-byte units, then loose bytes from index `tail` to n.  Count
 * kernels read only the units, with A-byte loads; hist_finish counts the loose
 * bytes (fewer than 2A). */
struct hist_split {
    size_t head;
    size_t units;
    size_t tail;
};

template <size_t A>
static inline hist_split hist_split_of(const uint8_t *in, size_t n)
{
    hist_split p;
    const size_t mis = (size_t)((uintptr_t)in % A);
    p.head = mis ? A - mis : 0;
    if (p.head > n) p.head = n;
    p.units = (n - p.head) / A;
    p.tail = p.head + p.units * A;
    return p;
}

/* the test hook of hist_set_grid_limit (0: no limit) */
extern unsigned hist_grid_limit;

/* A grid of at most `resident` blocks, no more than the `need` data blocks, at
 * least one, and no more than the test hook allows. */
static inline unsigned hist_grid(unsigned resident, size_t need)
{
    size_t g = need < resident ? need : resident;
    if (hist_grid_limit && g > hist_grid_limit) g = hist_grid_limit;
    return g < 1 ? 1u : (unsigned)g;
}

/* SMs x resident blocks per SM of kernel at this block size and dynamic shared
 * memory: the Column DASk grid.  Never more than hist_partials_scratch has room for. */
cudaError_t hist_resident(const void *kernel, int threads, size_t dyn_smem, unsigned *grid);

/* Configure a count kernel once: the whole shared memory of an SM for it,
 * `need` bytes of dynamic shared memory per block (padded so that exactly R
 * blocks fit on an SM when R > 0), and its resident grid.  The outputs are
 * written only on success. */
cudaError_t hist_configure(const void *kernel, int threads, size_t need, int R, unsigned *resident,
                           size_t *smem);

/* bins[b] = sum of partials[p * 256 + b] over p < nparts, plus the loose bytes
 * of [in, in + sp.head) and [in + sp.tail, in + n) equal to b.  Deterministic:
 * a fixed order of integer additions, no atomics. */
cudaError_t hist_finish(const uint32_t *partials, unsigned nparts, const uint8_t *in,
                        const hist_split &sp, size_t n, uint32_t *bins, cudaStream_t s);

/* n too large for 32-bit counts: past histogram.h's HIST_MAX_N (the problem's max_n) */
static inline bool hist_too_big(size_t n)
{
    return (uint64_t)n > (uint64_t)HIST_MAX_N;
}

/* What every step checks before any launch: n below 2^32 (else cudaErrorInvalidValue)
 * and bins at a 4-byte address (else cudaErrorMisalignedAddress); in may be anywhere. */
static inline cudaError_t hist_check_args(size_t n, const uint32_t *bins)
{
    if (hist_too_big(n)) return cudaErrorInvalidValue;
    if ((uintptr_t)bins & 3u) return cudaErrorMisalignedAddress;
    return cudaSuccess;
}

/* The run of every partial-histogram step (s2 .. s7): a Column DASk count
 * kernel over the aligned units U of the input (units_per_block per data
 * block, at most `resident` blocks), one partial histogram per block into
 * scratch, then hist_finish. */
template <class U>
static inline cudaError_t hist_count_and_finish(void (*kernel)(const U *, size_t, uint32_t *),
                                                int threads, size_t smem, unsigned resident,
                                                size_t units_per_block, const uint8_t *in, size_t n,
                                                uint32_t *bins, void *scratch, cudaStream_t s)
{
    const hist_split sp = hist_split_of<sizeof(U)>(in, n);
    uint32_t *partials = (uint32_t *)scratch;
    unsigned grid = 0;
    KIT_TRY(hist_check_args(n, bins));
    if (sp.units) {
        grid = hist_grid(resident, kit_blocks_for(sp.units, units_per_block));
        kernel<<<grid, threads, smem, s>>>((const U *)(in + sp.head), sp.units, partials);
        KIT_TRY(cudaGetLastError());
    }
    return hist_finish(partials, grid, in, sp, n, bins, s);
}

/* The same for a count kernel loaded by name (reference/kit_dev.h: s4, whose kernel is device
 * code only), launched with cudaLaunchKernel */
template <class U>
static inline cudaError_t hist_count_and_finish_dev(const void *kernel, int threads, size_t smem, unsigned resident,
                                                    size_t units_per_block, const uint8_t *in, size_t n,
                                                    uint32_t *bins, void *scratch, cudaStream_t s)
{
    const hist_split sp = hist_split_of<sizeof(U)>(in, n);
    uint32_t *partials = (uint32_t *)scratch;
    unsigned grid = 0;
    KIT_TRY(hist_check_args(n, bins));
    if (sp.units) {
        const U *units = (const U *)(in + sp.head);
        size_t nunits = sp.units;
        void *args[] = {(void *)&units, (void *)&nunits, (void *)&partials};
        grid = hist_grid(resident, kit_blocks_for(sp.units, units_per_block));
        KIT_TRY(kit_dev_launch(kernel, dim3(grid), dim3(threads), smem, s, args));
    }
    return hist_finish(partials, grid, in, sp, n, bins, s);
}

#endif
