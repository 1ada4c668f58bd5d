/* histogram_cpu.c - the serial baselines every step is checked against, and the
 * chapter's input kinds. */
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

/* The document's data sets: uniform random, all zeros (worst case for
 * atomics), linear (no two lanes of a warp collide), low entropy; its
 * photographs are replaced by the kit's synthetic images.  This order is the
 * order of the bench's rows and summaries. */
const int hist_inputs[HIST_NINPUTS] = {
    KIT_UNIFORM,
    KIT_ZEROS,
    KIT_LINEAR,
    KIT_LOW_ENTROPY,
    HIST_IMAGE(KIT_IMAGE_GRADIENT),
    HIST_IMAGE(KIT_IMAGE_DARK),
    HIST_IMAGE(KIT_IMAGE_RGBA0),
};

const char *hist_input_name(int input)
{
    if (input >= 0 && input < (int)KIT_PATTERN_COUNT) return kit_pattern_name((kit_pattern)input);
    return kit_image_name((kit_image)(input - (int)KIT_PATTERN_COUNT));
}

int hist_input_parse(const char *name, int *input)
{
    kit_pattern p;
    kit_image k;
    if (kit_pattern_parse(name, &p)) {
        *input = (int)p;
        return 1;
    }
    if (kit_image_parse(name, &k)) {
        *input = HIST_IMAGE(k);
        return 1;
    }
    return 0;
}

void hist_fill(uint8_t *a, size_t n, int input, uint64_t seed)
{
    if (input >= 0 && input < (int)KIT_PATTERN_COUNT)
        kit_fill_u8(a, n, (kit_pattern)input, seed);
    else
        kit_fill_image_u8(a, n, (kit_image)(input - (int)KIT_PATTERN_COUNT), seed);
}
