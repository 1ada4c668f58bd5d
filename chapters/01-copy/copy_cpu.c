/* copy_cpu.c - the serial baselines every copy step is checked against. */
#include "copy.h"

#include <string.h>

void copy_cpu_loop(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) out[i] = in[i];
}

void copy_cpu_memcpy(const uint32_t *in, uint32_t *out, size_t n)
{
    if (n) memcpy(out, in, n * sizeof *in);
}

void map_cpu_gather(const uint32_t *in, const uint32_t *idx, uint32_t *out, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) out[i] = in[idx[i]];
}

void map_cpu_scatter(const uint32_t *in, const uint32_t *idx, uint32_t *out, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) out[idx[i]] = in[i];
}
