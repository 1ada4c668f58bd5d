/* steps.c - chapter 06's step table (the only list of its ladder) and the adaptors that let
 * the kit's harness drive it, its tuning table, the probes and the micro-benchmarks. */
#include <stdlib.h>
#include <string.h>

#include "ballot.h"

#define F(x) "chapters/06-ballot-scan/" x

const ballot_step ballot_steps[BALLOT_NSTEPS] = {
    {{"s0_rts32", "tbs=512 sub=8 (4096 flags/tile) 3 kernels",
      "reduce-then-scan, 32-bit smem reduce and warp scans, one flag per thread per call",
      F("s0_rts32.cu"), NULL, KIT_STEP_GPU, ballot_s0_describe},
     ballot_s0_scratch, ballot_s0_rts32},
    {{"s1_rts_ballot", "tbs=512 sub=8 (4096 flags/tile) 3 kernels",
      "__syncthreads_count and the ballot/popc block scan (Listing 3.6)", F("s1_rts_ballot.cu"),
      NULL, KIT_STEP_GPU, ballot_s1_describe},
     ballot_s1_scratch, ballot_s1_rts_ballot},
    {{"s2_rows", "tbs=256 rows=8 (8192 flags/tile) 3 kernels",
      "4 flags per word: POPC, 3 bit-plane ballots per row, SWAR prefixes, 16-byte stores",
      F("s2_rows.cu"), NULL, KIT_STEP_GPU, ballot_s2_describe},
     ballot_s2_scratch, ballot_s2_rows},
    {{"s3_lookback", ballot_s3_param,
      "single pass with decoupled look-back (ballot finds the nearest prefix): 5n bytes",
      F("s3_lookback.cu"), NULL, KIT_STEP_GPU, ballot_s3_describe},
     ballot_s3_scratch, ballot_s3_lookback},
    {{"cub_exclusive_sum", "uint8 flags -> int32 offsets",
      "yardstick: cub::DeviceScan::ExclusiveSum on the same flags",
      "chapters/06-ballot-scan/yardsticks.cu", NULL, KIT_STEP_YARDSTICK, NULL},
     ballot_yard_cub_scratch, ballot_yard_cub_scan},
};

#define GUARD 1024 /* poisoned words after every output, checked untouched */

/* ------------------------------------------- flags -> offsets (main + tuning) */

typedef struct scan_ctx {
    const ballot_step *steps;
    size_t n;
    int rot;
    uint8_t *h_flags;
    uint32_t *h_want, *h_out;
    void **d_flags, **d_out;
    void *scratch;
} scan_ctx;

static const kit_step_info *scan_info(const kit_ladder *L, size_t i)
{
    return &((const ballot_step *)L->table)[i].info;
}

static double scan_bytes(const kit_ladder *L, size_t i, size_t n)
{
    (void)L;
    (void)i;
    return 5.0 * (double)n; /* read n flag bytes, write n 4-byte offsets */
}

static double scan_elems(const kit_ladder *L, size_t n)
{
    (void)L;
    return (double)n;
}

static void scan_teardown(void *p)
{
    scan_ctx *c = (scan_ctx *)p;
    kit_dev_free_copies(c->d_flags, c->rot);
    kit_dev_free_copies(c->d_out, c->rot);
    cudaFree(c->scratch);
    free(c->h_flags);
    free(c->h_want);
    free(c->h_out);
    free(c);
}

static cudaError_t scan_setup(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed, int rot,
                              void **out)
{
    scan_ctx *c = (scan_ctx *)calloc(1, sizeof *c);
    size_t i, scratch = 0;
    *out = c;
    if (!c) return cudaErrorMemoryAllocation;
    c->steps = (const ballot_step *)L->table;
    c->n = n;
    c->h_flags = (uint8_t *)malloc(n + 1);
    c->h_want = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
    c->h_out = (uint32_t *)malloc((n + GUARD) * sizeof(uint32_t));
    if (!c->h_flags || !c->h_want || !c->h_out) return cudaErrorMemoryAllocation;
    ballot_fill_pattern(p, c->h_flags, NULL, NULL, n, seed);
    ballot_cpu_scan(c->h_flags, c->h_want, n, 0, 0, 0);
    if (rot == 0) return cudaSuccess; /* host only */
    c->rot = rot;
    KIT_TRY(kit_dev_copies(&c->d_flags, rot, c->h_flags, n, n));
    KIT_TRY(kit_dev_copies(&c->d_out, rot, NULL, 0, (n + GUARD) * sizeof(uint32_t)));
    for (i = 0; i < L->count; i++)
        if (c->steps[i].scratch_bytes && c->steps[i].scratch_bytes(n) > scratch)
            scratch = c->steps[i].scratch_bytes(n);
    if (scratch) KIT_TRY(cudaMalloc(&c->scratch, scratch));
    return cudaSuccess;
}

static cudaError_t scan_launch(void *p, size_t i, int rep, cudaStream_t s)
{
    scan_ctx *c = (scan_ctx *)p;
    const int r = rep % c->rot;
    return c->steps[i].run((const uint8_t *)c->d_flags[r], (uint32_t *)c->d_out[r], c->n,
                           c->scratch, s);
}

static cudaError_t scan_check(void *p, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    scan_ctx *c = (scan_ctx *)p;
    const size_t words = c->n + GUARD;
    KIT_TRY(kit_poison(c->d_out[0], words * 4, s));
    KIT_TRY(c->steps[i].run((const uint8_t *)c->d_flags[0], (uint32_t *)c->d_out[0], c->n,
                            c->scratch, s));
    KIT_TRY(kit_fetch(c->h_out, c->d_out[0], words * 4, s));
    *ok = kit_cmp_u32(c->h_out, c->h_want, c->n, msg, len) &&
          kit_all_poison_u32(c->h_out + c->n, GUARD, msg, len);
    return cudaSuccess;
}

static void scan_cpu(void *p, int v)
{
    scan_ctx *c = (scan_ctx *)p;
    if (v == 0) ballot_cpu_scan(c->h_flags, c->h_out, c->n, 0, 0, 0);
    else ballot_cpu_offsets_swar(c->h_flags, c->h_out, c->n);
}

#define SCAN_LADDER(ID, TITLE, TABLE, COUNT)                                                    \
    {ID,         TITLE,      COUNT,       TABLE,      scan_info, scan_bytes,                    \
     scan_elems, scan_setup, scan_launch, scan_check, scan_cpu,  {"serial", "swar64", NULL},    \
     scan_teardown}

const kit_ladder ballot_ladder =
    SCAN_LADDER("ballot", "binary prefix sum, flags -> offsets", ballot_steps, BALLOT_NSTEPS);
const kit_ladder ballot_lookback_ladder =
    SCAN_LADDER("ballot-lookback", "s3 kernel, block x rows x row scan x store",
                ballot_lookback_variants, BALLOT_LOOKBACK_NVARIANTS);

/* -------------------------------------------------- probes and the block sort */

typedef struct probe_ctx {
    const ballot_probe *probes;
    size_t n;
    int rot;
    uint8_t *h_flags, *h_heads;
    uint32_t *h_vals, *h_want, *h_out;
    void **d_flags, **d_heads, **d_vals, **d_out;
} probe_ctx;

static const kit_step_info *probe_info(const kit_ladder *L, size_t i)
{
    return &((const ballot_probe *)L->table)[i].info;
}

static double probe_bytes(const kit_ladder *L, size_t i, size_t n)
{
    (void)L;
    (void)i;
    return 8.0 * (double)n; /* the sort (the one table benchmarked): read and write 4-byte keys */
}

static void probe_teardown(void *p)
{
    probe_ctx *c = (probe_ctx *)p;
    kit_dev_free_copies(c->d_flags, c->rot);
    kit_dev_free_copies(c->d_heads, c->rot);
    kit_dev_free_copies(c->d_vals, c->rot);
    kit_dev_free_copies(c->d_out, c->rot);
    free(c->h_flags);
    free(c->h_heads);
    free(c->h_vals);
    free(c->h_want);
    free(c->h_out);
    free(c);
}

static cudaError_t probe_setup(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed,
                               int rot, void **out)
{
    probe_ctx *c = (probe_ctx *)calloc(1, sizeof *c);
    *out = c;
    if (!c) return cudaErrorMemoryAllocation;
    c->probes = (const ballot_probe *)L->table;
    c->n = n;
    c->h_flags = (uint8_t *)malloc(n + 1);
    c->h_heads = (uint8_t *)malloc(n + 1);
    c->h_vals = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
    c->h_want = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
    c->h_out = (uint32_t *)malloc((n + GUARD) * sizeof(uint32_t));
    if (!c->h_flags || !c->h_heads || !c->h_vals || !c->h_want || !c->h_out)
        return cudaErrorMemoryAllocation;
    ballot_fill_pattern(p, c->h_flags, c->h_heads, c->h_vals, n, seed);
    if (rot == 0) return cudaSuccess;
    c->rot = rot;
    KIT_TRY(kit_dev_copies(&c->d_flags, rot, c->h_flags, n, n));
    KIT_TRY(kit_dev_copies(&c->d_heads, rot, c->h_heads, n, n));
    KIT_TRY(kit_dev_copies(&c->d_vals, rot, c->h_vals, n * 4, n * 4));
    KIT_TRY(kit_dev_copies(&c->d_out, rot, NULL, 0, (n + GUARD) * sizeof(uint32_t)));
    return cudaSuccess;
}

static cudaError_t probe_run(probe_ctx *c, size_t i, int r, cudaStream_t s)
{
    ballot_probe_in in;
    in.flags = (const uint8_t *)c->d_flags[r];
    in.heads = (const uint8_t *)c->d_heads[r];
    in.vals = (const uint32_t *)c->d_vals[r];
    return c->probes[i].run(&in, (uint32_t *)c->d_out[r], c->n, s);
}

static cudaError_t probe_launch(void *p, size_t i, int rep, cudaStream_t s)
{
    probe_ctx *c = (probe_ctx *)p;
    return probe_run(c, i, rep % c->rot, s);
}

static cudaError_t probe_check(void *p, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    probe_ctx *c = (probe_ctx *)p;
    const size_t words = c->n + GUARD;
    ballot_cpu_probe(&c->probes[i], c->h_flags, c->h_heads, c->h_vals, c->h_want, c->n);
    KIT_TRY(kit_poison(c->d_out[0], words * 4, s));
    KIT_TRY(probe_run(c, i, 0, s));
    KIT_TRY(kit_fetch(c->h_out, c->d_out[0], words * 4, s));
    *ok = kit_cmp_u32(c->h_out, c->h_want, c->n, msg, len) &&
          kit_all_poison_u32(c->h_out + c->n, GUARD, msg, len);
    return cudaSuccess;
}

#define PROBE_LADDER(ID, TITLE, TABLE, COUNT)                                                   \
    {ID,         TITLE,       COUNT,        TABLE,       probe_info, probe_bytes,               \
     scan_elems, probe_setup, probe_launch, probe_check, NULL,       {NULL},                    \
     probe_teardown}

const kit_ladder ballot_probe_ladder =
    PROBE_LADDER("ballot-probes", "warp and block primitives, every block size", ballot_probes,
                 BALLOT_PROBE_NVARIANTS);
const kit_ladder ballot_sort_ladder =
    PROBE_LADDER("ballot-sort", "block radix sort, ballot vs 32-bit scans, block 128..1024",
                 ballot_sort_variants, BALLOT_SORT_NVARIANTS);

int ballot_probe_find(const kit_ladder *L, const char *name, const char *param)
{
    size_t i;
    for (i = 0; i < L->count; i++) {
        const kit_step_info *s = L->step(L, i);
        if (strcmp(s->name, name) == 0 && (!param || strcmp(s->param, param) == 0)) return (int)i;
    }
    return -1;
}

/* ---------------------------------------------------------- micro-benchmarks */

typedef struct micro_ctx {
    const ballot_micro *m;
    size_t n;
    uint32_t *h_tile, *h_ref, *h_out;
    void **d_tile, **d_out; /* one copy each (kit_dev_copies) */
    size_t out_words;       /* allocated, guard included */
} micro_ctx;

static const kit_step_info *micro_info(const kit_ladder *L, size_t i)
{
    return &((const ballot_micro *)L->table)[i].info;
}

static double micro_bytes(const kit_ladder *L, size_t i, size_t n)
{
    (void)L;
    (void)i;
    (void)n;
    return 0.0; /* on-chip work: compare elements/s, not GB/s */
}

static unsigned micro_grid(const ballot_micro *m, size_t n)
{
    const size_t per_block = (size_t)m->tbs * BALLOT_ITER;
    const size_t g = (n + per_block - 1) / per_block;
    return g > 0x7FFFFFFFu ? 0u : (unsigned)g;
}

static void micro_teardown(void *p)
{
    micro_ctx *c = (micro_ctx *)p;
    kit_dev_free_copies(c->d_tile, 1);
    kit_dev_free_copies(c->d_out, 1);
    free(c->h_tile);
    free(c->h_ref);
    free(c->h_out);
    free(c);
}

static cudaError_t micro_setup(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed,
                               int rot, void **out)
{
    micro_ctx *c = (micro_ctx *)calloc(1, sizeof *c);
    const size_t tile_words = (size_t)BALLOT_TILE_WORDS * 1024;
    size_t i, most = 0;
    *out = c;
    if (!c) return cudaErrorMemoryAllocation;
    c->m = (const ballot_micro *)L->table;
    c->n = n;
    for (i = 0; i < L->count; i++) {
        const size_t w = (size_t)micro_grid(&c->m[i], n) * (size_t)c->m[i].tbs;
        if (w > most) most = w;
    }
    c->out_words = most + GUARD;
    c->h_tile = (uint32_t *)malloc(tile_words * sizeof(uint32_t));
    c->h_ref = (uint32_t *)malloc(1024 * sizeof(uint32_t));
    c->h_out = (uint32_t *)malloc(c->out_words * sizeof(uint32_t));
    if (!c->h_tile || !c->h_ref || !c->h_out) return cudaErrorMemoryAllocation;
    kit_fill_u32(c->h_tile, tile_words, p, seed);
    if (rot == 0) return cudaSuccess; /* the tile is meant to stay on chip: no rotation */
    KIT_TRY(kit_dev_copies(&c->d_tile, 1, c->h_tile, tile_words * 4, tile_words * 4));
    KIT_TRY(kit_dev_copies(&c->d_out, 1, NULL, 0, c->out_words * 4));
    return cudaSuccess;
}

static cudaError_t micro_launch(void *p, size_t i, int rep, cudaStream_t s)
{
    micro_ctx *c = (micro_ctx *)p;
    (void)rep;
    return c->m[i].run((const uint32_t *)c->d_tile[0], (uint32_t *)c->d_out[0],
                       micro_grid(&c->m[i], c->n), s);
}

static cudaError_t micro_check(void *p, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    micro_ctx *c = (micro_ctx *)p;
    const ballot_micro *m = &c->m[i];
    const unsigned grid = micro_grid(m, c->n);
    const size_t words = (size_t)grid * m->tbs;
    uint32_t *d_out = (uint32_t *)c->d_out[0];
    size_t b;
    if (c->n && !grid) return cudaErrorInvalidValue;
    ballot_cpu_micro(m->op, m->tbs, m->bits, c->h_tile, c->h_ref);
    KIT_TRY(kit_poison(d_out, c->out_words * 4, s));
    KIT_TRY(m->run((const uint32_t *)c->d_tile[0], d_out, grid, s));
    KIT_TRY(kit_fetch(c->h_out, d_out, c->out_words * 4, s));
    *ok = 1;
    for (b = 0; b < grid && *ok; b++) { /* every block computed the same thing */
        char part[KIT_MSG];
        if (!kit_cmp_u32(c->h_out + b * m->tbs, c->h_ref, (size_t)m->tbs, part, sizeof part)) {
            snprintf(msg, len, "block %zu of %u: %s", b, grid, part);
            *ok = 0;
        }
    }
    if (*ok) *ok = kit_all_poison_u32(c->h_out + words, c->out_words - words, msg, len);
    return cudaSuccess;
}

#define MICRO_LADDER(ID, TITLE, TABLE, COUNT)                                                   \
    {ID,         TITLE,       COUNT,        TABLE,       micro_info, micro_bytes,               \
     scan_elems, micro_setup, micro_launch, micro_check, NULL,       {NULL},                    \
     micro_teardown}

const kit_ladder ballot_mreduce_ladder =
    MICRO_LADDER("ballot-reduce", "block reduce of 1-bit values, 512 threads",
                 ballot_mreduce_variants, BALLOT_MREDUCE_NVARIANTS);
const kit_ladder ballot_mscan_ladder =
    MICRO_LADDER("ballot-blockscan", "block scan of 1-bit values, 512 threads",
                 ballot_mscan_variants, BALLOT_MSCAN_NVARIANTS);
const kit_ladder ballot_mbits_ladder =
    MICRO_LADDER("ballot-bitplane", "warp scan of 1..8-bit values, 256 threads",
                 ballot_mbits_variants, BALLOT_MBITS_NVARIANTS);
