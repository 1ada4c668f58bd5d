/* ballot_inputs.c - the chapter's flag and head-flag patterns, and how each kit pattern
 * maps onto (flags, heads, values) for every table of the chapter. */
#include "ballot.h"

#include <string.h>

void ballot_fill_flags(uint8_t *f, size_t n, ballot_flag_kind k, uint64_t seed)
{
    uint64_t st = seed, r = 0;
    size_t i;
    switch (k) {
    case BALLOT_FLAGS_ZEROS: memset(f, 0, n); break;
    case BALLOT_FLAGS_ONES: memset(f, 1, n); break;
    case BALLOT_FLAGS_ALTERNATING:
        for (i = 0; i < n; i++) f[i] = (uint8_t)(i & 1);
        break;
    case BALLOT_FLAGS_SPARSE:
    case BALLOT_FLAGS_DENSE:
        for (i = 0; i < n; i++) {
            const int hit = (kit_rand64(&st) & 15u) == 0; /* probability 1/16 */
            f[i] = (uint8_t)(k == BALLOT_FLAGS_SPARSE ? hit : !hit);
        }
        break;
    case BALLOT_FLAGS_RUNS: {
        uint8_t v = 0;
        for (i = 0; i < n;) {
            size_t len = 1 + (size_t)(kit_rand64(&st) % 100u), j;
            for (j = 0; j < len && i < n; j++) f[i++] = v;
            v ^= 1u;
        }
        break;
    }
    case BALLOT_FLAGS_RANDOM:
    default:
        for (i = 0; i < n; i++) {
            if ((i & 63) == 0) r = kit_rand64(&st);
            f[i] = (uint8_t)((r >> (i & 63)) & 1u);
        }
        break;
    }
}

void ballot_fill_heads(uint8_t *h, size_t n, ballot_head_kind k, uint64_t seed)
{
    uint64_t st = seed;
    size_t i;
    switch (k) {
    case BALLOT_HEADS_NONE: memset(h, 0, n); break;
    case BALLOT_HEADS_ALL: memset(h, 1, n); break;
    case BALLOT_HEADS_PAIRS:
        for (i = 0; i < n; i++) h[i] = (uint8_t)((i & 1) == 0);
        break;
    case BALLOT_HEADS_LONG: {
        size_t next = 0; /* where the next segment starts */
        for (i = 0; i < n; i++) {
            h[i] = (uint8_t)(i == next);
            if (i == next) next += 32 + (size_t)(kit_rand64(&st) % 169u); /* 32..200 */
        }
        break;
    }
    case BALLOT_HEADS_RANDOM:
    default:
        for (i = 0; i < n; i++) h[i] = (uint8_t)((kit_rand64(&st) & 7u) == 0);
        break;
    }
}

typedef struct pattern_map {
    ballot_flag_kind flags;
    ballot_head_kind heads;
    const char *desc;
} pattern_map;

static const pattern_map g_map[KIT_PATTERN_COUNT] = {
    [KIT_UNIFORM] = {BALLOT_FLAGS_RANDOM, BALLOT_HEADS_RANDOM, "random flags, random heads"},
    [KIT_ZEROS] = {BALLOT_FLAGS_ZEROS, BALLOT_HEADS_NONE, "all-zero flags, no heads"},
    [KIT_LINEAR] = {BALLOT_FLAGS_DENSE, BALLOT_HEADS_RANDOM, "dense flags, random heads"},
    [KIT_LOW_ENTROPY] = {BALLOT_FLAGS_RANDOM, BALLOT_HEADS_LONG, "random flags, segments 32..200"},
    [KIT_IDENTICAL] = {BALLOT_FLAGS_ONES, BALLOT_HEADS_ALL, "all-one flags, segments of 1"},
    [KIT_SORTED] = {BALLOT_FLAGS_ONES, BALLOT_HEADS_LONG, "all-one flags, segments 32..200"},
    [KIT_REVERSE] = {BALLOT_FLAGS_SPARSE, BALLOT_HEADS_NONE, "sparse flags, no heads"},
    [KIT_FEW_UNIQUE] = {BALLOT_FLAGS_RUNS, BALLOT_HEADS_RANDOM, "runs of flags, random heads"},
    [KIT_ALTERNATING] = {BALLOT_FLAGS_ALTERNATING, BALLOT_HEADS_PAIRS,
                         "alternating flags, segments of 2"},
};

void ballot_fill_pattern(kit_pattern p, uint8_t *flags, uint8_t *heads, uint32_t *vals, size_t n,
                         uint64_t seed)
{
    const pattern_map *m = &g_map[(unsigned)p < KIT_PATTERN_COUNT ? p : KIT_UNIFORM];
    if (flags) ballot_fill_flags(flags, n, m->flags, seed);
    if (heads) ballot_fill_heads(heads, n, m->heads, seed ^ 0x4EAD5u);
    if (vals) kit_fill_u32(vals, n, p, seed ^ 0x7A15u);
}

const char *ballot_pattern_desc(kit_pattern p)
{
    return (unsigned)p < KIT_PATTERN_COUNT ? g_map[p].desc : "?";
}
