/* histogram_cpu.c - the serial baselines every step is checked against. */
#include "histogram.h"

#include <string.h>

void hist_cpu_simple(const uint8_t *in, size_t n, uint32_t *bins)
{
    size_t i;
    memset(bins, 0, HIST_BINS * sizeof *bins);
    for (i = 0; i < n; i++) bins[in[i]]++;
}

/* Four sub-histograms: consecutive equal bytes (all-zeros, images) no longer
 * wait on each other's store-to-load forwarding through one counter. */
void hist_cpu_unroll4(const uint8_t *in, size_t n, uint32_t *bins)
{
    uint32_t h[4][HIST_BINS];
    size_t i = 0;
    int b;
    memset(h, 0, sizeof h);
    for (; i + 4 <= n; i += 4) {
        h[0][in[i]]++;
        h[1][in[i + 1]]++;
        h[2][in[i + 2]]++;
        h[3][in[i + 3]]++;
    }
    for (; i < n; i++) h[0][in[i]]++;
    for (b = 0; b < HIST_BINS; b++) bins[b] = h[0][b] + h[1][b] + h[2][b] + h[3][b];
}
