/* compact_inputs.c - chapter 07's named inputs.  The selection fraction p is a property of
 * the data: selected elements are drawn below COMPACT_THRESHOLD (2^31), rejected ones at or
 * above it, and the byte flags say the same (flags[i] = in[i] < 2^31), so the ladders pass
 * one threshold and the input's name says what fraction passes. */
#include "compact.h"

const kit_input compact_inputs[COMPACT_NINPUTS] = {
    {"p=0.50", "each element selected with probability 0.5 (the default)", COMPACT_IN_P, 0.5},
    {"p=0.00", "nothing selected", COMPACT_IN_P, 0.0},
    {"p=0.10", "each element selected with probability 0.1", COMPACT_IN_P, 0.1},
    {"p=0.20", "each element selected with probability 0.2", COMPACT_IN_P, 0.2},
    {"p=0.30", "each element selected with probability 0.3", COMPACT_IN_P, 0.3},
    {"p=0.40", "each element selected with probability 0.4", COMPACT_IN_P, 0.4},
    {"p=0.60", "each element selected with probability 0.6", COMPACT_IN_P, 0.6},
    {"p=0.70", "each element selected with probability 0.7", COMPACT_IN_P, 0.7},
    {"p=0.80", "each element selected with probability 0.8", COMPACT_IN_P, 0.8},
    {"p=0.90", "each element selected with probability 0.9", COMPACT_IN_P, 0.9},
    {"p=1.00", "everything selected", COMPACT_IN_P, 1.0},
    {"p=1/n", "exactly one element selected, at a random position", COMPACT_IN_ONE, 0},
    {"runs-0.50", "selected and rejected elements in alternating runs (mean 256 each)", COMPACT_IN_RUNS, 0.5},
    {"sorted", "ascending values, each twice: the selection is a prefix (about half)", COMPACT_IN_SORTED, 0},
    {"dups", "runs of 1..8 equal random values (about half selected)", COMPACT_IN_DUPS, 8},
};

const kit_input compact_unique_inputs[COMPACT_UNIQUE_NINPUTS] = {
    {"dups", "runs of 1..8 equal random values: unique keeps about 2 in 9", COMPACT_IN_DUPS, 8},
    {"dups-long", "runs of 1..1000 equal random values", COMPACT_IN_DUPS, 1000},
    {"identical", "one value repeated: unique keeps 1", COMPACT_IN_IDENTICAL, 0},
    {"sorted", "ascending values, each twice: unique keeps half", COMPACT_IN_SORTED, 0},
    {"p=0.50", "random values: hardly any equal neighbours, unique keeps nearly all", COMPACT_IN_P, 0.5},
};

/* a random value below 2^31 (selected) or at or above it (rejected) */
static uint32_t draw(uint64_t *st, int selected)
{
    const uint32_t r = (uint32_t)kit_rand64(st) & 0x7FFFFFFFu;
    return selected ? r : r | 0x80000000u;
}

/* a run length uniform in [1, 2 mean - 1] (mean >= 1), or 0 when mean < 1 */
static size_t run_length(uint64_t *st, double mean)
{
    const uint64_t top = (uint64_t)(2.0 * mean - 1.0);
    if (mean < 1.0) return 0;
    return 1 + (size_t)(kit_rand64(st) % top);
}

void compact_generate(uint32_t *in, uint8_t *flags, size_t n, int kind, double value, uint64_t seed)
{
    uint64_t st = seed * 0x9E3779B97F4A7C15ull + 0xC0FFEEu;
    size_t i;
    switch ((compact_input_kind)kind) {
    case COMPACT_IN_P: {
        /* selected when the high 32 bits of a draw fall below p 2^32: p = 0 never, p = 1
         * always; the low 31 bits are the value */
        const uint64_t cut = (uint64_t)(value * 4294967296.0);
        for (i = 0; i < n; i++) {
            const uint64_t r = kit_rand64(&st);
            const uint32_t v = (uint32_t)r & 0x7FFFFFFFu;
            in[i] = (r >> 32) < cut ? v : v | 0x80000000u;
        }
        break;
    }
    case COMPACT_IN_ONE:
        for (i = 0; i < n; i++) in[i] = draw(&st, 0);
        if (n) in[kit_rand64(&st) % n] = draw(&st, 1);
        break;
    case COMPACT_IN_RUNS: {
        const double mean[2] = {512.0 * (1.0 - value), 512.0 * value}; /* rejected, selected runs */
        int sel = (int)(kit_rand64(&st) & 1);
        if (mean[0] < 1.0 || mean[1] < 1.0) { /* p near 0 or 1: one kind of run only */
            for (i = 0; i < n; i++) in[i] = draw(&st, mean[1] >= 1.0);
            break;
        }
        for (i = 0; i < n; sel = !sel) {
            const size_t len = run_length(&st, mean[sel]);
            size_t k;
            for (k = 0; k < len && i < n; k++, i++) in[i] = draw(&st, sel);
        }
        break;
    }
    case COMPACT_IN_SORTED: {
        /* a ramp over [0, 2^32) in steps of 2^32 / (n / 2 + 1), each value twice */
        const double step = 4294967296.0 / (double)(n / 2 + 1);
        for (i = 0; i < n; i++) {
            const double v = (double)(i / 2) * step;
            in[i] = v >= 4294967295.0 ? 0xFFFFFFFFu : (uint32_t)v;
        }
        break;
    }
    case COMPACT_IN_DUPS: {
        const uint64_t top = value >= 1.0 ? (uint64_t)value : 1;
        i = 0;
        while (i < n) {
            const size_t len = 1 + (size_t)(kit_rand64(&st) % top);
            const uint32_t v = (uint32_t)kit_rand64(&st);
            size_t k;
            for (k = 0; k < len && i < n; k++, i++) in[i] = v;
        }
        break;
    }
    case COMPACT_IN_IDENTICAL: {
        const uint32_t v = (uint32_t)kit_rand64(&st);
        for (i = 0; i < n; i++) in[i] = v;
        break;
    }
    }
    if (flags)
        for (i = 0; i < n; i++) flags[i] = (uint64_t)in[i] < COMPACT_THRESHOLD;
}
