/* trish_probe.cu - the launchers of the exercise probes (histogram.h): the kernels, which run
 * the students' trish_bin_word and trish_rowsum, are device code in trish_probe_dev.cu, loaded at
 * first use (reference/kit_dev.h); this file includes no student file. */
#include "hist_common.cuh"
#include "kit_dev.h"

extern "C" const unsigned char KIT_DEV_IMAGE(04_histogram, trish_probe_dev)[];
static kit_dev_fn probe_bin = {KIT_DEV_IMAGE(04_histogram, trish_probe_dev), "trish_probe_bin_kernel", 0};
static kit_dev_fn probe_rowsum = {KIT_DEV_IMAGE(04_histogram, trish_probe_dev), "trish_probe_rowsum_kernel", 0};

extern "C" cudaError_t trish_probe_bin(const uint32_t *words, unsigned per_thread, uint32_t *table,
                                       cudaStream_t s)
{
    const void *k;
    void *args[] = {(void *)&words, (void *)&per_thread, (void *)&table};
    if (per_thread > 63) return cudaErrorInvalidValue; /* 4 x 63 = 252: no counter can pass 255 */
    KIT_TRY(kit_dev_get(&probe_bin, &k));
    return kit_dev_launch(k, dim3(1), dim3(HIST_TRISH_COLS), 0, s, args);
}

extern "C" cudaError_t trish_probe_rowsum(uint32_t *table, uint32_t *sums, unsigned rounds,
                                          cudaStream_t s)
{
    const void *k;
    void *args[] = {(void *)&table, (void *)&sums, (void *)&rounds};
    if (rounds < 1) return cudaErrorInvalidValue;
    KIT_TRY(kit_dev_get(&probe_rowsum, &k));
    return kit_dev_launch(k, dim3(1), dim3(HIST_TRISH_COLS), 0, s, args);
}
