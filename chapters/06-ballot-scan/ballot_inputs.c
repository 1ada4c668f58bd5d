/* ballot_inputs.c - the chapter's named inputs: flag and head-flag generators, the inputs
 * of the flags -> offsets problem (one flag pattern each) and of the probes (a flag
 * pattern, a head pattern and a word pattern for the values, named after what they make). */
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

/* ------------------------------------------------- flags -> offsets: one flag pattern each */

/* value: the expected fraction of 1 flags */
const kit_input ballot_flag_inputs[BALLOT_FLAG_NINPUTS] = {
    {"random", "each flag 1 with probability 1/2", BALLOT_FLAGS_RANDOM, 0.5},
    {"zeros", "every flag 0", BALLOT_FLAGS_ZEROS, 0.0},
    {"ones", "every flag 1", BALLOT_FLAGS_ONES, 1.0},
    {"alternating", "flags 0, 1, 0, 1, ...", BALLOT_FLAGS_ALTERNATING, 0.5},
    {"sparse", "each flag 1 with probability 1/16", BALLOT_FLAGS_SPARSE, 1.0 / 16},
    {"dense", "each flag 1 with probability 15/16", BALLOT_FLAGS_DENSE, 15.0 / 16},
    {"runs", "runs of equal flags, lengths 1..100, alternating 0 and 1", BALLOT_FLAGS_RUNS, 0.5},
};

void ballot_fill_scan(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                      uint64_t seed)
{
    (void)P;
    ballot_fill_flags((uint8_t *)h->buf[0], sh->n, (ballot_flag_kind)in->arg, seed);
}

/* ------------------------------------------ probes: flags, heads and values together */

typedef struct probe_combo {
    ballot_flag_kind flags;
    ballot_head_kind heads;
    kit_pattern vals;
} probe_combo;

static const probe_combo g_combo[BALLOT_PROBE_NINPUTS] = {
    {BALLOT_FLAGS_RANDOM, BALLOT_HEADS_RANDOM, KIT_UNIFORM},
    {BALLOT_FLAGS_ZEROS, BALLOT_HEADS_NONE, KIT_ZEROS},
    {BALLOT_FLAGS_ONES, BALLOT_HEADS_ALL, KIT_IDENTICAL},
    {BALLOT_FLAGS_ALTERNATING, BALLOT_HEADS_PAIRS, KIT_ALTERNATING},
    {BALLOT_FLAGS_RANDOM, BALLOT_HEADS_LONG, KIT_LOW_ENTROPY},
    {BALLOT_FLAGS_ONES, BALLOT_HEADS_LONG, KIT_SORTED},
    {BALLOT_FLAGS_DENSE, BALLOT_HEADS_RANDOM, KIT_LINEAR},
    {BALLOT_FLAGS_SPARSE, BALLOT_HEADS_NONE, KIT_REVERSE},
    {BALLOT_FLAGS_RUNS, BALLOT_HEADS_RANDOM, KIT_FEW_UNIQUE},
};

/* arg: the row of g_combo */
const kit_input ballot_probe_inputs[BALLOT_PROBE_NINPUTS] = {
    {"random", "random flags (1/2), random heads (1/8), uniform random values", 0, 0},
    {"zeros", "flags 0, no heads, values 0", 1, 0},
    {"all-heads", "flags 1, every element a head (segments of 1), one value repeated", 2, 0},
    {"pairs", "flags 0,1,0,1, a head every other element (segments of 2), values 0,~0,0,~0", 3, 0},
    {"long-segments", "random flags, segments of 32..200, values AND of three random words", 4, 0},
    {"ones-long", "flags 1, segments of 32..200, non-decreasing values", 5, 0},
    {"dense", "flags 1 with probability 15/16, random heads, values 0,1,2,...", 6, 0},
    {"sparse-no-heads", "flags 1 with probability 1/16, no heads, non-increasing values", 7, 0},
    {"runs", "runs of equal flags (1..100), random heads, values from 16 distinct words", 8, 0},
};

void ballot_fill_probe(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                       uint64_t seed)
{
    const probe_combo *c = &g_combo[(unsigned)in->arg < BALLOT_PROBE_NINPUTS ? in->arg : 0];
    (void)P;
    ballot_fill_flags((uint8_t *)h->buf[0], sh->n, c->flags, seed);
    ballot_fill_heads((uint8_t *)h->buf[1], sh->n, c->heads, seed ^ 0x4EAD5u);
    kit_fill_u32((uint32_t *)h->buf[2], sh->n, c->vals, seed ^ 0x7A15u);
}
