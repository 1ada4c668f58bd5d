/* steps.c - chapter 01's step table (the only list of its ladder) and the
 * adaptors that let the kit's harness drive it and its tuning tables. */
#include <stdlib.h>
#include <string.h>

#include "copy.h"

#define F(x) "chapters/01-copy/" x

const copy_step copy_steps[COPY_NSTEPS] = {
    {{"s0_simple", "tbs=32 nWork=1", "one word per thread, one warp per block, check every word",
      F("s0_simple.cu"), NULL, KIT_STEP_GPU, copy_s0_describe},
     NULL, copy_s0_simple},
    {{"s1_block_dask", "tbs=128 nWork=4",
      "Block DASk: nWork words per thread, Warp-by-Warp, one range check per data block",
      "$(IMPL)/01-copy/s1_block_dask.cu", "ex01_block_dask", KIT_STEP_GPU, copy_s1_describe},
     NULL, copy_s1_block_dask},
    {{"s2_unroll", "tbs=128 nWork=4", "ILP A: #pragma unroll (loads and stores stay interleaved)",
      F("s2_unroll.cu"), NULL, KIT_STEP_GPU, copy_s2_describe},
     NULL, copy_s2_unroll},
    {{"s3_batch", "tbs=128 nWork=4 batch=4", "ILP B: batch 4 loads, then 4 stores",
      F("s3_batch.cu"), NULL, KIT_STEP_GPU, copy_s3_describe},
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
      NULL, KIT_STEP_GPU, copy_s6_describe},
     NULL, copy_s6_hopper},
    {{"cudaMemcpy", "D2D", "yardstick: cudaMemcpyAsync device to device",
      "chapters/01-copy/yardsticks.cu", NULL, KIT_STEP_YARDSTICK, NULL},
     NULL, copy_yard_memcpy},
};

/* ------------------------------------------------ the copy-table adaptor */

#define COPY_GUARD 1024 /* poisoned words after every output, checked untouched */

typedef struct copy_ctx {
    const copy_step *steps;
    size_t n;
    int rot;
    uint32_t *h_in, *h_out;
    void **d_in, **d_out;
    void *scratch;
} copy_ctx;

static const kit_step_info *copy_info(const kit_ladder *L, size_t i)
{
    return &((const copy_step *)L->table)[i].info;
}

static double copy_bytes(const kit_ladder *L, size_t i, size_t n)
{
    (void)L;
    (void)i;
    return 8.0 * (double)n; /* read n words, write n words */
}

static double copy_elems(const kit_ladder *L, size_t n)
{
    (void)L;
    return (double)n;
}

static void copy_teardown(void *p)
{
    copy_ctx *c = (copy_ctx *)p;
    kit_dev_free_copies(c->d_in, c->rot);
    kit_dev_free_copies(c->d_out, c->rot);
    cudaFree(c->scratch);
    free(c->h_in);
    free(c->h_out);
    free(c);
}

static cudaError_t copy_setup(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed,
                              int rot, void **out)
{
    copy_ctx *c = (copy_ctx *)calloc(1, sizeof *c);
    size_t i, scratch = 0;
    cudaError_t e = cudaErrorMemoryAllocation;
    *out = c;
    if (!c) return e;
    c->steps = (const copy_step *)L->table;
    c->n = n;
    c->h_in = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
    c->h_out = (uint32_t *)malloc((n + COPY_GUARD) * sizeof(uint32_t));
    if (!c->h_in || !c->h_out) return e;
    kit_fill_u32(c->h_in, n, p, seed);
    if (rot == 0) return cudaSuccess; /* host only */
    c->rot = rot;
    KIT_TRY(kit_dev_copies(&c->d_in, rot, c->h_in, n * 4, n * 4));
    KIT_TRY(kit_dev_copies(&c->d_out, rot, NULL, 0, (n + COPY_GUARD) * 4));
    for (i = 0; i < L->count; i++)
        if (c->steps[i].scratch_bytes && c->steps[i].scratch_bytes(n) > scratch)
            scratch = c->steps[i].scratch_bytes(n);
    if (scratch) KIT_TRY(cudaMalloc(&c->scratch, scratch));
    return cudaSuccess;
}

static cudaError_t copy_launch(void *p, size_t i, int rep, cudaStream_t s)
{
    copy_ctx *c = (copy_ctx *)p;
    int r = rep % c->rot;
    return c->steps[i].run((const uint32_t *)c->d_in[r], (uint32_t *)c->d_out[r], c->n, c->scratch, s);
}

static cudaError_t copy_check(void *p, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    copy_ctx *c = (copy_ctx *)p;
    const size_t words = c->n + COPY_GUARD;
    KIT_TRY(kit_poison(c->d_out[0], words * 4, s));
    KIT_TRY(c->steps[i].run((const uint32_t *)c->d_in[0], (uint32_t *)c->d_out[0], c->n,
                            c->scratch, s));
    KIT_TRY(kit_fetch(c->h_out, c->d_out[0], words * 4, s));
    *ok = kit_cmp_u32(c->h_out, c->h_in, c->n, msg, len) &&
          kit_all_poison_u32(c->h_out + c->n, COPY_GUARD, msg, len);
    return cudaSuccess;
}

static void copy_cpu(void *p, int v)
{
    copy_ctx *c = (copy_ctx *)p;
    if (v == 0) copy_cpu_loop(c->h_in, c->h_out, c->n);
    else copy_cpu_memcpy(c->h_in, c->h_out, c->n);
}

#define COPY_LADDER(ID, TITLE, TABLE, COUNT)                                                    \
    {ID,          TITLE,      COUNT,      TABLE,       copy_info,     copy_bytes,               \
     copy_elems,  copy_setup, copy_launch, copy_check, copy_cpu,      {"loop", "memcpy", NULL}, \
     copy_teardown}

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
      map_fill_describe}, MAP_FILL, 0},
    {{"copy", "s6", "two coalesced streams (the s6 step)", F("s6_hopper.cu"), NULL, KIT_STEP_GPU,
      copy_s6_describe}, MAP_COPY, 0},
    {{"gather-identity", "idx=identity", "out[i] = in[idx[i]], idx = identity: coalesced",
      F("map.cu"), NULL, KIT_STEP_GPU, map_gather_describe}, MAP_GATHER, 0},
    {{"gather-random", "idx=permutation", "out[i] = in[idx[i]], random permutation: scattered reads",
      F("map.cu"), NULL, KIT_STEP_GPU, map_gather_describe}, MAP_GATHER, 1},
    {{"scatter-identity", "idx=identity", "out[idx[i]] = in[i], idx = identity: coalesced",
      F("map.cu"), NULL, KIT_STEP_GPU, map_scatter_describe}, MAP_SCATTER, 0},
    {{"scatter-random", "idx=permutation", "out[idx[i]] = in[i], random permutation: scattered writes",
      F("map.cu"), NULL, KIT_STEP_GPU, map_scatter_describe}, MAP_SCATTER, 1},
};
#define MAP_NSTEPS (sizeof map_steps / sizeof map_steps[0])

typedef struct map_ctx {
    size_t n;
    int rot;
    uint32_t *h_in, *h_idx[2], *h_out, *h_want;
    void **d_in, **d_idx[2], **d_out;
} map_ctx;

static const kit_step_info *map_info(const kit_ladder *L, size_t i)
{
    (void)L;
    return &map_steps[i].info;
}

static double map_bytes(const kit_ladder *L, size_t i, size_t n)
{
    static const double words[] = {1, 2, 3, 3}; /* fill, copy, gather, scatter */
    (void)L;
    return 4.0 * words[map_steps[i].kind] * (double)n;
}

static void map_teardown(void *p)
{
    map_ctx *c = (map_ctx *)p;
    int k;
    kit_dev_free_copies(c->d_in, c->rot);
    kit_dev_free_copies(c->d_out, c->rot);
    for (k = 0; k < 2; k++) {
        kit_dev_free_copies(c->d_idx[k], c->rot);
        free(c->h_idx[k]);
    }
    free(c->h_in);
    free(c->h_out);
    free(c->h_want);
    free(c);
}

static cudaError_t map_setup(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed, int rot,
                             void **out)
{
    map_ctx *c = (map_ctx *)calloc(1, sizeof *c);
    const size_t bytes = (n ? n : 1) * 4;
    int k;
    (void)L;
    *out = c;
    if (!c) return cudaErrorMemoryAllocation;
    c->n = n;
    c->h_in = (uint32_t *)malloc(bytes);
    c->h_out = (uint32_t *)malloc(bytes);
    c->h_want = (uint32_t *)malloc(bytes);
    for (k = 0; k < 2; k++) c->h_idx[k] = (uint32_t *)malloc(bytes);
    if (!c->h_in || !c->h_out || !c->h_want || !c->h_idx[0] || !c->h_idx[1])
        return cudaErrorMemoryAllocation;
    kit_fill_u32(c->h_in, n, p, seed);
    kit_fill_u32(c->h_idx[0], n, KIT_LINEAR, 0);
    kit_permutation(c->h_idx[1], n, seed ^ 0xABCDu);
    if (rot == 0) return cudaSuccess;
    c->rot = rot;
    KIT_TRY(kit_dev_copies(&c->d_in, rot, c->h_in, n * 4, n * 4));
    KIT_TRY(kit_dev_copies(&c->d_out, rot, NULL, 0, n * 4));
    for (k = 0; k < 2; k++) KIT_TRY(kit_dev_copies(&c->d_idx[k], rot, c->h_idx[k], n * 4, n * 4));
    return cudaSuccess;
}

static cudaError_t map_run(map_ctx *c, size_t i, int r, cudaStream_t s)
{
    const map_step *m = &map_steps[i];
    const uint32_t *in = (const uint32_t *)c->d_in[r];
    const uint32_t *idx = (const uint32_t *)c->d_idx[m->random][r];
    uint32_t *out = (uint32_t *)c->d_out[r];
    switch (m->kind) {
    case MAP_FILL: return map_fill(out, FILL_VALUE, c->n, s);
    case MAP_COPY: return copy_s6_hopper(in, out, c->n, NULL, s);
    case MAP_GATHER: return map_gather(in, idx, out, c->n, s);
    default: return map_scatter(in, idx, out, c->n, s);
    }
}

static cudaError_t map_launch(void *p, size_t i, int rep, cudaStream_t s)
{
    map_ctx *c = (map_ctx *)p;
    return map_run(c, i, rep % c->rot, s);
}

static cudaError_t map_check(void *p, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    map_ctx *c = (map_ctx *)p;
    const map_step *m = &map_steps[i];
    size_t j;
    KIT_TRY(kit_poison(c->d_out[0], c->n * 4, s));
    KIT_TRY(map_run(c, i, 0, s));
    KIT_TRY(kit_fetch(c->h_out, c->d_out[0], c->n * 4, s));
    switch (m->kind) {
    case MAP_FILL:
        for (j = 0; j < c->n; j++) c->h_want[j] = FILL_VALUE;
        break;
    case MAP_COPY: copy_cpu_memcpy(c->h_in, c->h_want, c->n); break;
    case MAP_GATHER: map_cpu_gather(c->h_in, c->h_idx[m->random], c->h_want, c->n); break;
    default: map_cpu_scatter(c->h_in, c->h_idx[m->random], c->h_want, c->n); break;
    }
    *ok = kit_cmp_u32(c->h_out, c->h_want, c->n, msg, len);
    return cudaSuccess;
}

const kit_ladder copy_map_ladder = {
    "map", "MAP primitives: fill, copy, gather, scatter", MAP_NSTEPS, map_steps, map_info,
    map_bytes, copy_elems, map_setup, map_launch, map_check, NULL, {NULL}, map_teardown,
};
