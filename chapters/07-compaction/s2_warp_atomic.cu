/* s2 - warp-aggregated atomics (Adinetz; the paper's third variant): ballot + popc, one
 * atomicAdd per warp.
 * Changed versus s1: no shared counter and no barrier.  Each warp votes on its 32 elements
 * (__ballot_sync), its lowest voting lane reserves popc(votes) slots of the global count with
 * one atomicAdd, a shuffle broadcasts the base, and every selected lane writes at base +
 * popc(votes & lanemask_lt) - compact_warp_slot, exercise ex07_warp_atomic
 * ($(IMPL)/07-compaction/compact_warp_atomic.cuh), so the kernels are device code only, in
 * s2_warp_atomic_dev.cu (nvcc -fatbin, reference/kit_dev.h): this file is their launcher and
 * includes no student file.  Threads take S2_ITEMS elements each,
 * block-strided (each step of a block reads 256 consecutive words), all loads first.
 * Why it is faster: at most one global atomic per warp and 32 elements, whatever p; no
 * barriers; a warp's selected elements land in one contiguous run (coalesced stores).
 * What still limits it: those n / 32 atomics all hit one word and still serialise in one
 * L2 slice - at full bandwidth a modern GPU streams the 128 bytes of a warp's elements
 * faster than that slice turns an atomic around - and the output order is the atomics'
 * arrival order (KIT_UNORDERED): keeping the input order needs every warp to know the count
 * of all the elements before it, a scan (s3 on).  No scratch. */
#include "compact_device.cuh"
#include "kit_dev.h"

#define S2_TBS COMPACT_S2_TBS
#define S2_TILE (COMPACT_S2_TBS * COMPACT_S2_ITEMS)
extern "C" const char compact_s2_param[] = "tbs=256 items/thread=4 (one atomic per warp per 32 elements)";
static_assert(COMPACT_S2_TBS == 256 && COMPACT_S2_ITEMS == 4, "compact_s2_param names the shape");

/* the kernel of each mode (s2_warp_atomic_dev.cu) */
extern "C" const unsigned char KIT_DEV_IMAGE(07_compaction, s2_warp_atomic_dev)[];
static kit_dev_fn s2_kernels[4] = {
    {KIT_DEV_IMAGE(07_compaction, s2_warp_atomic_dev), "compact_s2_kernel_0", 0},
    {KIT_DEV_IMAGE(07_compaction, s2_warp_atomic_dev), "compact_s2_kernel_1", 0},
    {KIT_DEV_IMAGE(07_compaction, s2_warp_atomic_dev), "compact_s2_kernel_2", 0},
    {KIT_DEV_IMAGE(07_compaction, s2_warp_atomic_dev), "compact_s2_kernel_3", 0},
};

extern "C" size_t compact_s2_warp_atomic_scratch(size_t n)
{
    (void)n;
    return 0;
}

extern "C" cudaError_t compact_s2_warp_atomic(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                              uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                              cudaStream_t s)
{
    int work;
    const void *k;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    const unsigned grid = kit_blocks_for(n, S2_TILE);
    if (!grid) return cudaErrorInvalidValue;
    if (mode < 0 || mode > 3) return cudaErrorInvalidValue; /* compact_dispatch's modes */
    KIT_TRY(kit_dev_get(&s2_kernels[mode], &k));
    KIT_TRY(cudaMemsetAsync(count, 0, sizeof *count, s));
    void *args[] = {(void *)&in, (void *)&flags, (void *)&threshold, (void *)&out, (void *)&count, (void *)&n};
    return kit_dev_launch(k, dim3(grid), dim3(S2_TBS), 0, s, args);
}

KIT_DEV_DESCRIBE(compact_s2_describe, s2_kernels[0], S2_TBS, 0)
