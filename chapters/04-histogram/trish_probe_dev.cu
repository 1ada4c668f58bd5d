/* trish_probe_dev.cu - kernels that run the two GPU exercises (trish_bin_word,
 * trish_rowsum) alone on one 64 x 64 table, so the tests can grade them
 * directly, independently of the rest of step s4.  Device code only (the Makefile compiles
 * *_dev.cu with nvcc -fatbin, reference/kit_dev.h): the exercises' headers reach no host code;
 * the launchers are trish_probe.cu. */
#include "hist_common.cuh"
#include "trish_bin.cuh"
#include "trish_rowsum.cuh"

static_assert(TRISH_COLS == HIST_TRISH_COLS, "trish_rowsum.cuh's TRISH_COLS is the launchers' HIST_TRISH_COLS (64)");

#define PROBE_CELLS (TRISH_COLS * TRISH_COLS)

extern "C" __global__ void __launch_bounds__(TRISH_COLS)
    trish_probe_bin_kernel(const uint32_t *words, unsigned per_thread, uint32_t *table)
{
    __shared__ uint32_t h[PROBE_CELLS];
    const unsigned t = threadIdx.x;
    for (unsigned r = 0; r < TRISH_COLS; r++) h[r * TRISH_COLS + t] = 0;
    for (unsigned j = 0; j < per_thread; j++)
        trish_bin_word<TRISH_COLS>(h + t, words[t * per_thread + j]);
    __syncthreads();
    for (unsigned i = t; i < PROBE_CELLS; i += TRISH_COLS) table[i] = h[i];
}

extern "C" __global__ void __launch_bounds__(TRISH_COLS)
    trish_probe_rowsum_kernel(uint32_t *table, uint32_t *sums, unsigned rounds)
{
    __shared__ uint32_t h[PROBE_CELLS];
    const unsigned t = threadIdx.x;
    uint32_t sum[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < rounds; k++) {
        for (unsigned i = t; i < PROBE_CELLS; i += TRISH_COLS) h[i] = table[i];
        __syncthreads();
        trish_rowsum(h, t, sum);
        __syncthreads();
    }
    for (unsigned i = t; i < PROBE_CELLS; i += TRISH_COLS) table[i] = h[i];
    for (int b = 0; b < 4; b++) sums[4 * t + b] = sum[b];
}
