/* steps.c - chapter 01's step table (the only list of its ladder) and the
 * adaptors that let the kit's harness drive it and its tuning tables. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"

#define F(x) "chapters/01-copy/" x

const copy_step copy_steps[COPY_NSTEPS] = {
    {{"s0_simple", "tbs=32 nWork=1", "one word per thread, one warp per block, check every word",
      F("s0_simple.cu"), NULL, KIT_STEP_GPU, copy_s0_describe, 0, COPY_S0_MAX_N},
     NULL, copy_s0_simple},
    {{"s1_block_dask", "tbs=128 nWork=4",
      "Block DASk: nWork words per thread, Warp-by-Warp, one range check per data block",
      "$(IMPL)/01-copy/s1_block_dask.cu", "ex01_block_dask", KIT_STEP_GPU, copy_s1_describe, 0, COPY_BLOCK_DASK_MAX_N},
     NULL, copy_s1_block_dask},
    {{"s2_unroll", "tbs=128 nWork=4", "ILP A: #pragma unroll (loads and stores stay interleaved)",
      F("s2_unroll.cu"), NULL, KIT_STEP_GPU, copy_s2_describe, 0, COPY_BLOCK_DASK_MAX_N},
     NULL, copy_s2_unroll},
    {{"s3_batch", "tbs=128 nWork=4 batch=4", "ILP B: batch 4 loads, then 4 stores",
      F("s3_batch.cu"), NULL, KIT_STEP_GPU, copy_s3_describe, 0, COPY_BLOCK_DASK_MAX_N},
     NULL, copy_s3_batch},
    {{"s4_column_dask", "tbs=128 nWork=4 grid=SMs*resident",
      "Column DASk: fixed grid strides over rows of data blocks", F("s4_column_dask.cu"), NULL,
      KIT_STEP_GPU, copy_s4_describe},
     NULL, copy_s4_column_dask},
    {{"s5_row_dask", "tbs=128 nWork=4 grid=SMs*resident",
      "Row DASk: balanced contiguous rows, warp-aligned [start,stop], FIRST/MIDDLE/LAST/BOTH",
      F("s5_row_dask.cu"), NULL, KIT_STEP_GPU, copy_s5_describe},
     NULL, copy_s5_row_dask},
    {{"s6_hopper", "tbs=256 nvec=1 (16-byte)",
      "16-byte accesses (uint4), restrict pointers, fine-grained blocks", F("s6_hopper.cu"),
      NULL, KIT_STEP_GPU, copy_s6_describe, 0, COPY_S6_STEP_MAX_N},
     NULL, copy_s6_hopper},
    {{"cudaMemcpy", "D2D", "yardstick: cudaMemcpyAsync device to device",
      "chapters/01-copy/yardsticks.cu", NULL, KIT_STEP_YARDSTICK, NULL},
     NULL, copy_yard_memcpy},
};

/* ------------------------------------------------------ the copy problem */

static const kit_buffer copy_bufs[] = {{"in", KIT_IN, 4, NULL}, {"out", KIT_OUT, 4, NULL}};

static void copy_reference(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    copy_cpu_memcpy((const uint32_t *)h->buf[0], (uint32_t *)h->buf[1], sh->n);
}

static void cpu_loop(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    copy_cpu_loop((const uint32_t *)h->buf[0], (uint32_t *)h->buf[1], sh->n);
}

static const kit_cpu copy_cpus[] = {{"loop", cpu_loop}, {"memcpy", copy_reference}};

const kit_problem copy_problem = {
    "copy", copy_bufs, 2, kit_pattern_inputs, KIT_PATTERN_COUNT, NULL, 0, "elements", NULL,
    {NULL}, COPY_MAX_N, kit_fill_patterns, copy_reference, NULL, copy_cpus, 2, NULL,
};

static const kit_step_info *copy_info(const kit_ladder *L, size_t i)
{
    return &((const copy_step *)L->table)[i].info;
}

static double copy_bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)L;
    (void)i;
    return 8.0 * (double)sh->n; /* read n words, write n words */
}

static size_t copy_scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const copy_step *st = &((const copy_step *)L->table)[i];
    return st->scratch_bytes ? st->scratch_bytes(sh->n) : 0;
}

/* What copy.h refuses beyond the harness's default call, beside the step table: the contract
 * suite tries each case on the steps it names (kit_arg_case).  The 4-byte steps do not check
 * alignment (copy.h), so only s6 has cases; the differently misaligned pointers it accepts are
 * the contract's staggered offsets. */
enum { COPY_CASE_IN_MIS = 0, COPY_CASE_OUT_MIS, COPY_NCASES };
static const kit_arg_case copy_cases[COPY_NCASES] = {
    [COPY_CASE_IN_MIS] = {"in + 2 bytes", "copy.h: s6 refuses a pointer that is not 4-byte aligned",
                          cudaErrorMisalignedAddress, "s6_hopper", NULL},
    [COPY_CASE_OUT_MIS] = {"out + 2 bytes", "copy.h: s6 refuses a pointer that is not 4-byte aligned",
                           cudaErrorMisalignedAddress, "s6_hopper", NULL},
};

static cudaError_t copy_run_case(const kit_ladder *L, size_t i, int c, int ph, void *const *dev,
                                 const kit_shape *sh, void *scratch, cudaStream_t s)
{
    const char *in = (const char *)dev[0];
    char *out = (char *)dev[1];
    (void)ph;
    if (c == COPY_CASE_IN_MIS) in += 2;
    if (c == COPY_CASE_OUT_MIS) out += 2;
    return ((const copy_step *)L->table)[i].run((const uint32_t *)(const void *)in, (uint32_t *)(void *)out,
                                                sh->n, scratch, s);
}

static cudaError_t copy_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                            const kit_shape *sh, void *scratch, cudaStream_t s)
{
    return copy_run_case(L, i, -1, ph, dev, sh, scratch, s);
}

#define COPY_LADDER(ID, TITLE, TABLE, COUNT)                                                   \
    {ID, TITLE, COUNT, TABLE, &copy_problem, copy_info, copy_bytes, copy_scratch, copy_run,   \
     NULL, 0, NULL, NULL, NULL, copy_cases, COPY_NCASES, copy_run_case}

const kit_ladder copy_ladder = COPY_LADDER("copy", "copy ladder", copy_steps, COPY_NSTEPS);
const kit_ladder copy_ilp_ladder =
    COPY_LADDER("copy-ilp", "s3 kernel, nWork x batch", copy_ilp_variants, COPY_ILP_NVARIANTS);
const kit_ladder copy_tbs_ladder =
    COPY_LADDER("copy-tbs", "s3 kernel, block size 32..1024", copy_tbs_variants, COPY_TBS_NVARIANTS);
const kit_ladder copy_res_ladder = COPY_LADDER("copy-res", "s3 kernel, forced blocks per SM 1..16",
                                               copy_res_variants, COPY_RES_NVARIANTS);
const kit_ladder copy_hopper_ladder =
    COPY_LADDER("copy-hopper", "s6 kernel, block size x vectors x cache hint", copy_hopper_variants,
                COPY_HOPPER_NVARIANTS);

/* ------------------------------------------------------ the MAP primitives */

typedef enum { MAP_FILL, MAP_COPY, MAP_GATHER, MAP_SCATTER } map_kind;

typedef struct map_step {
    kit_step_info info;
    map_kind kind;
    int random; /* index map: 0 identity, 1 seeded random permutation */
} map_step;

#define FILL_VALUE 0x600DF111u

static const map_step map_steps[] = {
    {{"fill", "", "write a constant: one coalesced stream", F("map.cu"), NULL, KIT_STEP_GPU,
      map_fill_describe, 0, COPY_MAP_MAX_N}, MAP_FILL, 0},
    {{"copy", "s6", "two coalesced streams (the s6 step)", F("s6_hopper.cu"), NULL, KIT_STEP_GPU,
      copy_s6_describe, 0, COPY_S6_STEP_MAX_N}, MAP_COPY, 0},
    {{"gather-identity", "idx=identity", "out[i] = in[idx[i]], idx = identity: coalesced",
      F("map.cu"), NULL, KIT_STEP_GPU, map_gather_describe, 0, COPY_MAP_MAX_N}, MAP_GATHER, 0},
    {{"gather-random", "idx=permutation", "out[i] = in[idx[i]], random permutation: scattered reads",
      F("map.cu"), NULL, KIT_STEP_GPU, map_gather_describe, 0, COPY_MAP_MAX_N}, MAP_GATHER, 1},
    {{"scatter-identity", "idx=identity", "out[idx[i]] = in[i], idx = identity: coalesced",
      F("map.cu"), NULL, KIT_STEP_GPU, map_scatter_describe, 0, COPY_MAP_MAX_N}, MAP_SCATTER, 0},
    {{"scatter-random", "idx=permutation", "out[idx[i]] = in[i], random permutation: scattered writes",
      F("map.cu"), NULL, KIT_STEP_GPU, map_scatter_describe, 0, COPY_MAP_MAX_N}, MAP_SCATTER, 1},
};
#define MAP_NSTEPS (sizeof map_steps / sizeof map_steps[0])

/* in, the identity map, a random permutation, out */
static const kit_buffer map_bufs[] = {{"in", KIT_IN, 4, NULL},
                                      {"idx-identity", KIT_IN, 4, NULL},
                                      {"idx-random", KIT_IN, 4, NULL},
                                      {"out", KIT_OUT, 4, NULL}};

static void map_fill_inputs(const kit_problem *P, kit_host *h, const kit_shape *sh,
                            const kit_input *in, uint64_t seed)
{
    (void)P;
    kit_fill_u32((uint32_t *)h->buf[0], sh->n, (kit_pattern)in->arg, seed);
    kit_fill_u32((uint32_t *)h->buf[1], sh->n, KIT_LINEAR, 0);
    kit_permutation((uint32_t *)h->buf[2], sh->n, seed ^ 0xABCDu);
}

/* the problem's reference is the copy's; each step has its own (map_step_reference) */
static void map_reference(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    copy_cpu_memcpy((const uint32_t *)h->buf[0], (uint32_t *)h->buf[3], sh->n);
}

static const kit_problem map_problem = {
    "map", map_bufs, 4, kit_pattern_inputs, KIT_PATTERN_COUNT, NULL, 0, "elements", NULL,
    {NULL}, 0, map_fill_inputs, map_reference, NULL, NULL, 0, NULL,
};

static void map_step_reference(const kit_ladder *L, size_t i, kit_host *h, const kit_shape *sh)
{
    const map_step *m = &map_steps[i];
    const uint32_t *in = (const uint32_t *)h->buf[0], *idx = (const uint32_t *)h->buf[1 + m->random];
    uint32_t *want = (uint32_t *)h->buf[3];
    size_t j;
    (void)L;
    switch (m->kind) {
    case MAP_FILL:
        for (j = 0; j < sh->n; j++) want[j] = FILL_VALUE;
        break;
    case MAP_COPY: copy_cpu_memcpy(in, want, sh->n); break;
    case MAP_GATHER: map_cpu_gather(in, idx, want, sh->n); break;
    default: map_cpu_scatter(in, idx, want, sh->n); break;
    }
}

static const kit_step_info *map_info(const kit_ladder *L, size_t i)
{
    (void)L;
    return &map_steps[i].info;
}

static double map_bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    static const double words[] = {1, 2, 3, 3}; /* fill, copy, gather, scatter */
    (void)L;
    return 4.0 * words[map_steps[i].kind] * (double)sh->n;
}

static cudaError_t map_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                           const kit_shape *sh, void *scratch, cudaStream_t s)
{
    const map_step *m = &map_steps[i];
    const uint32_t *in = (const uint32_t *)dev[0], *idx = (const uint32_t *)dev[1 + m->random];
    uint32_t *out = (uint32_t *)dev[3];
    (void)L;
    (void)ph;
    (void)scratch;
    switch (m->kind) {
    case MAP_FILL: return map_fill(out, FILL_VALUE, sh->n, s);
    case MAP_COPY: return copy_s6_hopper(in, out, sh->n, NULL, s);
    case MAP_GATHER: return map_gather(in, idx, out, sh->n, s);
    default: return map_scatter(in, idx, out, sh->n, s);
    }
}

const kit_ladder copy_map_ladder = {
    "map", "MAP primitives: fill, copy, gather, scatter", MAP_NSTEPS, map_steps, &map_problem,
    map_info, map_bytes, NULL, map_run, map_step_reference, 0, NULL,
};

const kit_ladder *const copy_ladders[COPY_NLADDERS] = {
    &copy_ladder, &copy_map_ladder, &copy_ilp_ladder, &copy_tbs_ladder, &copy_res_ladder,
    &copy_hopper_ladder,
};
