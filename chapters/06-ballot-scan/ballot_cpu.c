/* ballot_cpu.c - the serial baselines every GPU step, probe and micro-benchmark of
 * chapter 06 is checked against. */
#include "ballot.h"

#include <stdlib.h>
#include <string.h>

/* [g0, g1): the group that starts at g0 */
static size_t group_end(size_t g0, size_t n, size_t group)
{
    return group == 0 || n - g0 < group ? n : g0 + group;
}

void ballot_cpu_scan(const uint8_t *f, uint32_t *out, size_t n, size_t group, int reverse,
                     int inclusive)
{
    size_t g0, g1, i;
    for (g0 = 0; g0 < n; g0 = g1) {
        uint32_t s = 0;
        g1 = group_end(g0, n, group);
        for (i = 0; i < g1 - g0; i++) {
            const size_t j = reverse ? g1 - 1 - i : g0 + i;
            if (inclusive) s += f[j];
            out[j] = s;
            if (!inclusive) s += f[j];
        }
    }
}

void ballot_cpu_offsets_swar(const uint8_t *f, uint32_t *out, size_t n)
{
    uint32_t s = 0;
    size_t i = 0, j;
    for (; i + 8 <= n; i += 8) {
        uint64_t w, incl, excl;
        memcpy(&w, f + i, 8); /* little-endian: byte j is flag i + j */
        incl = w * 0x0101010101010101ull; /* byte j: flags 0..j (at most 8, no carries) */
        excl = incl - w;
        for (j = 0; j < 8; j++) out[i + j] = s + (uint32_t)((excl >> (8 * j)) & 0xFFu);
        s += (uint32_t)(incl >> 56);
    }
    for (; i < n; i++) {
        out[i] = s;
        s += f[i];
    }
}

void ballot_cpu_segscan(const uint8_t *f, const uint8_t *heads, uint32_t *out, size_t n,
                        size_t group, int inclusive)
{
    size_t i;
    uint32_t s = 0;
    for (i = 0; i < n; i++) {
        if (heads[i] || (group && i % group == 0)) s = 0;
        if (inclusive) s += f[i];
        out[i] = s;
        if (!inclusive) s += f[i];
    }
}

void ballot_cpu_scan_u32(const uint32_t *v, uint32_t *out, size_t n, size_t group,
                         uint32_t mask, int inclusive)
{
    size_t i;
    uint32_t s = 0;
    for (i = 0; i < n; i++) {
        if (group && i % group == 0) s = 0;
        if (inclusive) s += v[i] & mask;
        out[i] = s;
        if (!inclusive) s += v[i] & mask;
    }
}

void ballot_cpu_scan_bitplanes(const uint32_t *v, uint32_t *out, size_t n, int bits)
{
    uint32_t count[32] = {0}; /* flags of bit plane k seen so far */
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        uint32_t s = 0;
        for (k = 0; k < bits; k++) {
            s += count[k] << k;
            count[k] += (v[i] >> k) & 1u;
        }
        out[i] = s;
    }
}

void ballot_cpu_group_sum_u32(const uint32_t *v, uint32_t *out, size_t n, size_t group,
                              uint32_t mask)
{
    size_t g0, g1, i;
    for (g0 = 0; g0 < n; g0 = g1) {
        uint32_t s = 0;
        g1 = group_end(g0, n, group);
        for (i = g0; i < g1; i++) s += v[i] & mask;
        for (i = g0; i < g1; i++) out[i] = s;
    }
}

void ballot_cpu_group_count(const uint8_t *f, uint32_t *out, size_t n, size_t group)
{
    size_t g0, g1, i;
    for (g0 = 0; g0 < n; g0 = g1) {
        uint32_t s = 0;
        g1 = group_end(g0, n, group);
        for (i = g0; i < g1; i++) s += f[i];
        for (i = g0; i < g1; i++) out[i] = s;
    }
}

void ballot_cpu_split(const uint8_t *f, const uint32_t *v, uint32_t *out, size_t n, size_t group)
{
    size_t g0, g1, i, k;
    for (g0 = 0; g0 < n; g0 = g1) {
        g1 = group_end(g0, n, group);
        k = g0;
        for (i = g0; i < g1; i++)
            if (!f[i]) out[k++] = v[i];
        for (i = g0; i < g1; i++)
            if (f[i]) out[k++] = v[i];
    }
}

void ballot_cpu_sort_tiles(const uint32_t *v, uint32_t *out, size_t n, size_t group)
{
    size_t g0, g1, i, len, cap = group ? group : n;
    uint32_t *tmp = (uint32_t *)malloc((cap ? cap : 1) * sizeof *tmp);
    if (!tmp) { /* no memory: leave a result that fails the comparison */
        memset(out, 0xFF, n * sizeof *out);
        return;
    }
    for (g0 = 0; g0 < n; g0 = g1) {
        uint32_t *a = out + g0, *b = tmp;
        int pass;
        g1 = group_end(g0, n, group);
        len = g1 - g0;
        memcpy(a, v + g0, len * sizeof *a);
        for (pass = 0; pass < 4; pass++) { /* LSD, 8-bit digits: 4 stable counting passes */
            size_t count[257] = {0};
            const int sh = 8 * pass;
            uint32_t *t;
            for (i = 0; i < len; i++) count[((a[i] >> sh) & 0xFFu) + 1]++;
            for (i = 1; i < 257; i++) count[i] += count[i - 1];
            for (i = 0; i < len; i++) b[count[(a[i] >> sh) & 0xFFu]++] = a[i];
            t = a;
            a = b;
            b = t;
        }
        /* four passes: the result is back in out + g0 */
    }
    free(tmp);
}

/* --------------------------------------------------------------- probes */

void ballot_cpu_probe(const ballot_probe *p, const uint8_t *flags, const uint8_t *heads,
                      const uint32_t *vals, uint32_t *want, size_t n)
{
    const size_t g = (size_t)p->group;
    const uint32_t mask = p->bits >= 32 || p->bits <= 0 ? ~0u : (1u << p->bits) - 1u;
    uint32_t *tot = NULL;
    size_t i;
    switch ((ballot_op)p->op) {
    case BALLOT_OP_SCAN32_INCL: ballot_cpu_scan_u32(vals, want, n, g, ~0u, 1); break;
    case BALLOT_OP_FWD_EXCL: ballot_cpu_scan(flags, want, n, g, 0, 0); break;
    case BALLOT_OP_FWD_INCL: ballot_cpu_scan(flags, want, n, g, 0, 1); break;
    case BALLOT_OP_REV_INCL: ballot_cpu_scan(flags, want, n, g, 1, 1); break;
    case BALLOT_OP_REV_EXCL: ballot_cpu_scan(flags, want, n, g, 1, 0); break;
    case BALLOT_OP_SEG_INCL: ballot_cpu_segscan(flags, heads, want, n, g, 1); break;
    case BALLOT_OP_BITS_EXCL: ballot_cpu_scan_u32(vals, want, n, g, mask, 0); break;
    case BALLOT_OP_BSCAN32:
    case BALLOT_OP_BSCAN_BIN:
        tot = (uint32_t *)malloc((n ? n : 1) * sizeof *tot);
        if (!tot) {
            memset(want, 0xFF, n * sizeof *want);
            break;
        }
        if (p->op == BALLOT_OP_BSCAN32) {
            ballot_cpu_scan_u32(vals, want, n, g, ~0u, 0);
            ballot_cpu_group_sum_u32(vals, tot, n, g, ~0u);
            for (i = 0; i < n; i++) want[i] += tot[i] * BALLOT_TOTAL_MUL;
        } else {
            ballot_cpu_scan(flags, want, n, g, 0, 0);
            ballot_cpu_group_count(flags, tot, n, g);
            for (i = 0; i < n; i++) want[i] |= tot[i] << 16;
        }
        free(tot);
        break;
    case BALLOT_OP_BCOUNT: ballot_cpu_group_count(flags, want, n, g); break;
    case BALLOT_OP_BSUM32: ballot_cpu_group_sum_u32(vals, want, n, g, ~0u); break;
    case BALLOT_OP_SPLIT: ballot_cpu_split(flags, vals, want, n, g); break;
    case BALLOT_OP_SORT: ballot_cpu_sort_tiles(vals, want, n, g); break;
    default: memset(want, 0xFF, n * sizeof *want); break;
    }
}

/* ------------------------------------------------------ micro-benchmarks */

/* value `it` of thread t: bits [it*bits, it*bits + bits) of its 8 tile words */
static uint32_t micro_value(const uint32_t *tile, int tbs, int t, int it, int bits)
{
    const int bit = it * bits, k = bit >> 5, sh = bit & 31;
    const uint64_t lo = tile[(size_t)k * tbs + t];
    const uint64_t hi = k + 1 < BALLOT_TILE_WORDS ? tile[(size_t)(k + 1) * tbs + t] : 0;
    return (uint32_t)(((hi << 32 | lo) >> sh) & ((1ull << bits) - 1u));
}

void ballot_cpu_micro(int op, int tbs, int bits, const uint32_t *tile, uint32_t *acc)
{
    uint32_t v[1024], r[1024];
    int t, it;
    if (tbs < 1 || tbs > 1024) return;
    for (t = 0; t < tbs; t++) acc[t] = 0;
    for (it = 0; it < BALLOT_ITER; it++) {
        uint32_t s = 0;
        for (t = 0; t < tbs; t++) v[t] = micro_value(tile, tbs, t, it, bits);
        switch ((ballot_micro_op)op) {
        case BALLOT_MR_COUNT:
        case BALLOT_MR_SMEM:
        case BALLOT_MR_SHFL:
        case BALLOT_MR_REDUX: /* every thread gets the block total */
            for (t = 0; t < tbs; t++) s += v[t];
            for (t = 0; t < tbs; t++) r[t] = s;
            break;
        case BALLOT_MW_BITPLANE:
        case BALLOT_MW_SHFL:
        case BALLOT_MW_SMEM: /* exclusive within each warp */
            for (t = 0; t < tbs; t++) {
                if (t % 32 == 0) s = 0;
                r[t] = s;
                s += v[t];
            }
            break;
        default: /* block exclusive scans */
            for (t = 0; t < tbs; t++) {
                r[t] = s;
                s += v[t];
            }
            break;
        }
        for (t = 0; t < tbs; t++) acc[t] = acc[t] * BALLOT_TOTAL_MUL + r[t];
    }
}
