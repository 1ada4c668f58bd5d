/* steps.c - chapter 02's step tables (the only lists of its two ladders) and
 * the adaptors that let the kit's harness drive them, for every element type
 * and scan mode, and their tuning tables. */
#include <stdlib.h>
#include <string.h>

#include "reduce_scan.h"

#define F(x) "chapters/02-reduce-scan/" x
#define X(x) "$(IMPL)/02-reduce-scan/" x

#define REDUCE_STEP(id, name, param, what, file, exercise)                                    \
    {{name, param, what, file, exercise, KIT_STEP_GPU, rs_##id##_describe},                    \
     rs_##id##_scratch, rs_##id##_u32, rs_##id##_f32}
#define SCAN_STEP(id, name, param, what, file, exercise)                                      \
    {{name, param, what, file, exercise, KIT_STEP_GPU, rs_##id##_describe},                    \
     rs_##id##_scratch, rs_##id##_u32, rs_##id##_affine}

const rs_reduce_step rs_reduce_steps[RS_REDUCE_NSTEPS] = {
    REDUCE_STEP(r0, "r0_interleaved", "tbs=256 1/thread",
                "interleaved addressing: threads tid % 2s == 0 add a neighbour (divergent warps)",
                F("r0_interleaved.cu"), NULL),
    REDUCE_STEP(r1, "r1_strided", "tbs=256 1/thread",
                "index 2*s*tid: whole warps idle, no divergence, but bank conflicts",
                F("r1_strided.cu"), NULL),
    REDUCE_STEP(r2, "r2_sequential", "tbs=256 1/thread",
                "sequential addressing: fold the upper half onto the lower, conflict-free",
                F("r2_sequential.cu"), NULL),
    REDUCE_STEP(r3, "r3_first_add", "tbs=256 2/thread",
                "first add during load: two elements per thread, half the blocks",
                F("r3_first_add.cu"), NULL),
    REDUCE_STEP(r4, "r4_warp_unroll", "tbs=256 2/thread",
                "last warp unrolled with __syncwarp, tree unrolled at compile time",
                F("r4_warp_unroll.cu"), NULL),
    REDUCE_STEP(r5, "r5_many_items", "tbs=256 grid=SMs*resident",
                "many elements per thread: a resident grid strides over the input, two passes",
                F("r5_many_items.cu"), NULL),
    REDUCE_STEP(r6, "r6_warp_shuffle", "tbs=256 grid=SMs*resident",
                "block reduce with warp shuffles: no shared-memory tree, one barrier",
                X("r6_warp_shuffle.cu"), "ex02_warp_reduce"),
    REDUCE_STEP(r7, "r7_row_dask", "nWarps=3 nWork=8 bc=pad",
                "Brown's Run-Reduce on the Row DASk: order kept (runs in registers), 2 kernels",
                F("r7_row_dask.cu"), NULL),
    REDUCE_STEP(r8, "r8_hopper", "tbs=256 unroll=4 (16-byte loads)",
                "one pass: 16-byte loads, resident grid, last block adds the partials",
                F("r8_hopper.cu"), NULL),
    {{"cub_reduce", "cub::DeviceReduce::Sum", "yardstick: CUB DeviceReduce::Sum",
      "chapters/02-reduce-scan/yardsticks.cu", NULL, KIT_STEP_YARDSTICK, NULL},
     rs_yard_cub_reduce_scratch, rs_yard_cub_reduce_u32, rs_yard_cub_reduce_f32},
};

const rs_scan_step rs_scan_steps[RS_SCAN_NSTEPS] = {
    SCAN_STEP(s0, "s0_hillis_steele", "tbs=512 1/thread",
              "Hillis-Steele block scan in shared memory, scan-then-fan across blocks (4n)",
              F("s0_hillis_steele.cu"), NULL),
    SCAN_STEP(s1, "s1_blelloch", "tbs=256 2/thread",
              "Blelloch up-sweep/down-sweep block scan (work-efficient), scan-then-fan",
              F("s1_blelloch.cu"), NULL),
    SCAN_STEP(s2, "s2_warp_scan", "tbs=256 4/thread",
              "runs in registers + warp-shuffle block scan, scan-then-fan",
              X("s2_warp_scan.cu"), "ex02_block_scan"),
    SCAN_STEP(s3, "s3_row_dask", "nWarps=5 nWork=4 bc=pad",
              "Brown's Reduce-then-Scan on the Row DASk: 3n traffic, 3 kernels",
              F("s3_row_dask.cu"), NULL),
    SCAN_STEP(s4, "s4_lookback", "tbs=128 items=64 load=transpose delay=0",
              "single pass with decoupled look-back: 2n traffic, 16-byte accesses",
              F("s4_lookback.cu"), NULL),
    {{"cub_scan", "cub::DeviceScan", "yardstick: CUB DeviceScan (ExclusiveSum, InclusiveSum, *Scan)",
      "chapters/02-reduce-scan/yardsticks.cu", NULL, KIT_STEP_YARDSTICK, NULL},
     rs_yard_cub_scan_scratch, rs_yard_cub_scan_u32, rs_yard_cub_scan_affine},
};

/* ------------------------------------------------------------- the adaptor */

typedef enum { RS_U32, RS_F32, RS_AFFINE } rs_type;

/* What a ladder runs: a reduce or scan table, one element type, one mode. */
typedef struct rs_table {
    int scan;
    rs_type type;
    int exclusive;
    const void *steps; /* rs_reduce_step[] or rs_scan_step[] */
} rs_table;

#define RS_GUARD_WORDS 256 /* poisoned words after every output, checked untouched */

typedef struct rs_ctx {
    const rs_table *t;
    size_t count, n, esize, out_elems;
    int rot;
    void *h_in, *h_want, *h_out;
    uint32_t want_u32;
    double want_f64;
    void **d_in, **d_out;
    void *scratch;
} rs_ctx;

static const rs_reduce_step *reduce_step(const rs_table *t, size_t i)
{
    return &((const rs_reduce_step *)t->steps)[i];
}

static const rs_scan_step *scan_step(const rs_table *t, size_t i)
{
    return &((const rs_scan_step *)t->steps)[i];
}

static const kit_step_info *rs_info(const kit_ladder *L, size_t i)
{
    const rs_table *t = (const rs_table *)L->table;
    return t->scan ? &scan_step(t, i)->info : &reduce_step(t, i)->info;
}

static size_t rs_esize(const rs_table *t) { return t->type == RS_AFFINE ? sizeof(rs_affine) : 4; }

static double rs_bytes(const kit_ladder *L, size_t i, size_t n)
{
    const rs_table *t = (const rs_table *)L->table;
    (void)i;
    /* reduce reads n elements; scan reads n and writes n */
    return (t->scan ? 2.0 : 1.0) * (double)rs_esize(t) * (double)n;
}

static double rs_elems(const kit_ladder *L, size_t n)
{
    (void)L;
    return (double)n;
}

static size_t rs_scratch_of(const rs_table *t, size_t i, size_t n)
{
    size_t (*f)(size_t) = t->scan ? scan_step(t, i)->scratch_bytes : reduce_step(t, i)->scratch_bytes;
    return f ? f(n) : 0;
}

static void rs_teardown(void *p)
{
    rs_ctx *c = (rs_ctx *)p;
    kit_dev_free_copies(c->d_in, c->rot);
    kit_dev_free_copies(c->d_out, c->rot);
    if (c->scratch) cudaFree(c->scratch); /* not cudaFree(NULL): host-only contexts touch no GPU */
    free(c->h_in);
    free(c->h_want);
    free(c->h_out);
    free(c);
}

static cudaError_t rs_setup(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed, int rot,
                            void **out)
{
    rs_ctx *c = (rs_ctx *)calloc(1, sizeof *c);
    size_t i, scratch = 0, in_bytes, out_bytes;
    *out = c;
    if (!c) return cudaErrorMemoryAllocation;
    c->t = (const rs_table *)L->table;
    c->count = L->count;
    c->n = n;
    c->esize = rs_esize(c->t);
    c->out_elems = c->t->scan ? n : 1;
    in_bytes = n * c->esize;
    out_bytes = c->out_elems * c->esize + 4 * RS_GUARD_WORDS;
    c->h_in = malloc(in_bytes ? in_bytes : 1);
    c->h_out = malloc(out_bytes);
    c->h_want = malloc(c->t->scan && in_bytes ? in_bytes : 1);
    if (!c->h_in || !c->h_out || !c->h_want) return cudaErrorMemoryAllocation;
    switch (c->t->type) {
    case RS_U32:
        kit_fill_u32((uint32_t *)c->h_in, n, p, seed);
        if (c->t->scan) rs_cpu_scan_u32((const uint32_t *)c->h_in, (uint32_t *)c->h_want, n, c->t->exclusive);
        else c->want_u32 = rs_cpu_reduce_u32((const uint32_t *)c->h_in, n);
        break;
    case RS_F32:
        rs_fill_f32((float *)c->h_in, n, p, seed);
        c->want_f64 = rs_cpu_reduce_f64((const float *)c->h_in, n);
        break;
    case RS_AFFINE:
        rs_fill_affine((rs_affine *)c->h_in, n, p, seed);
        rs_cpu_scan_affine((const rs_affine *)c->h_in, (rs_affine *)c->h_want, n, c->t->exclusive);
        break;
    }
    if (rot == 0) return cudaSuccess; /* host only: the CPU baselines */
    c->rot = rot;
    KIT_TRY(kit_dev_copies(&c->d_in, rot, c->h_in, in_bytes, in_bytes));
    KIT_TRY(kit_dev_copies(&c->d_out, rot, NULL, 0, out_bytes));
    for (i = 0; i < c->count; i++) {
        size_t b = rs_scratch_of(c->t, i, n);
        if (b > scratch) scratch = b;
    }
    if (scratch) KIT_TRY(cudaMalloc(&c->scratch, scratch));
    return cudaSuccess;
}

static cudaError_t rs_run(rs_ctx *c, size_t i, int r, cudaStream_t s)
{
    const rs_table *t = c->t;
    const void *in = c->d_in[r];
    void *out = c->d_out[r];
    if (t->scan) {
        const rs_scan_step *st = scan_step(t, i);
        if (t->type == RS_AFFINE)
            return st->run_affine((const rs_affine *)in, (rs_affine *)out, c->n, t->exclusive,
                                  c->scratch, s);
        return st->run_u32((const uint32_t *)in, (uint32_t *)out, c->n, t->exclusive, c->scratch, s);
    }
    if (t->type == RS_F32)
        return reduce_step(t, i)->run_f32((const float *)in, (float *)out, c->n, c->scratch, s);
    return reduce_step(t, i)->run_u32((const uint32_t *)in, (uint32_t *)out, c->n, c->scratch, s);
}

static cudaError_t rs_launch(void *p, size_t i, int rep, cudaStream_t s)
{
    rs_ctx *c = (rs_ctx *)p;
    return rs_run(c, i, rep % c->rot, s);
}

static int rs_compare(const rs_ctx *c, char *msg, size_t len)
{
    const uint32_t *got = (const uint32_t *)c->h_out;
    char inner[KIT_MSG];
    if (c->t->scan && c->t->type == RS_AFFINE) {
        if (kit_cmp_u32(got, (const uint32_t *)c->h_want, 2 * c->n, inner, sizeof inner)) return 1;
        snprintf(msg, len, "affine maps as (a, b) words, element = word / 2: %s", inner);
        return 0;
    }
    if (c->t->scan) return kit_cmp_u32(got, (const uint32_t *)c->h_want, c->n, msg, len);
    if (c->t->type == RS_F32) {
        const float want = (float)c->want_f64;
        if (kit_cmp_f32((const float *)c->h_out, &want, 1, rs_f32_tolerance(c->n), inner, sizeof inner))
            return 1;
        snprintf(msg, len, "float sum of %zu values (double reference %.9g, relative tolerance %.2g): %s",
                 c->n, c->want_f64, rs_f32_tolerance(c->n), inner);
        return 0;
    }
    return kit_cmp_u32(got, &c->want_u32, 1, msg, len);
}

static cudaError_t rs_check(void *p, size_t i, cudaStream_t s, int *ok, char *msg, size_t len)
{
    rs_ctx *c = (rs_ctx *)p;
    const size_t out_bytes = c->out_elems * c->esize, words = out_bytes / 4;
    KIT_TRY(kit_poison(c->d_out[0], out_bytes + 4 * RS_GUARD_WORDS, s));
    KIT_TRY(rs_run(c, i, 0, s));
    KIT_TRY(kit_fetch(c->h_out, c->d_out[0], out_bytes + 4 * RS_GUARD_WORDS, s));
    *ok = rs_compare(c, msg, len) &&
          kit_all_poison_u32((const uint32_t *)c->h_out + words, RS_GUARD_WORDS, msg, len);
    return cudaSuccess;
}

static void rs_cpu(void *p, int v)
{
    rs_ctx *c = (rs_ctx *)p;
    (void)v;
    switch (c->t->type) {
    case RS_U32:
        if (c->t->scan) rs_cpu_scan_u32((const uint32_t *)c->h_in, (uint32_t *)c->h_out, c->n, c->t->exclusive);
        else ((uint32_t *)c->h_out)[0] = rs_cpu_reduce_u32((const uint32_t *)c->h_in, c->n);
        break;
    case RS_F32:
        ((float *)c->h_out)[0] = rs_cpu_reduce_f32((const float *)c->h_in, c->n);
        break;
    case RS_AFFINE:
        rs_cpu_scan_affine((const rs_affine *)c->h_in, (rs_affine *)c->h_out, c->n, c->t->exclusive);
        break;
    }
}

#define RS_LADDER(ID, TITLE, TABLE, COUNT)                                                      \
    {ID,       TITLE,    COUNT,     &TABLE,   rs_info, rs_bytes,          rs_elems,             \
     rs_setup, rs_launch, rs_check, rs_cpu,   {"serial", NULL},           rs_teardown}

static const rs_table t_reduce = {0, RS_U32, 0, rs_reduce_steps};
static const rs_table t_reduce_f32 = {0, RS_F32, 0, rs_reduce_steps};
static const rs_table t_scan = {1, RS_U32, 1, rs_scan_steps};
static const rs_table t_scan_incl = {1, RS_U32, 0, rs_scan_steps};
static const rs_table t_scan_affine = {1, RS_AFFINE, 1, rs_scan_steps};
static const rs_table t_scan_affine_incl = {1, RS_AFFINE, 0, rs_scan_steps};
static const rs_table t_reduce_pairs = {0, RS_U32, 0, rs_brown_reduce_pairs};
static const rs_table t_scan_pairs = {1, RS_U32, 1, rs_brown_scan_pairs};
static const rs_table t_reduce_bank = {0, RS_U32, 0, rs_brown_reduce_bank};
static const rs_table t_scan_bank = {1, RS_U32, 1, rs_brown_scan_bank};
static const rs_table t_reduce_curves = {0, RS_U32, 0, rs_brown_reduce_curves};
static const rs_table t_scan_curves = {1, RS_U32, 1, rs_brown_scan_curves};
static const rs_table t_r8 = {0, RS_U32, 0, rs_r8_variants};
static const rs_table t_s4 = {1, RS_U32, 1, rs_s4_variants};
static const rs_table t_reduce_best = {0, RS_U32, 0, rs_reduce_steps + RS_REDUCE_BEST};
static const rs_table t_scan_best = {1, RS_U32, 1, rs_scan_steps + RS_SCAN_BEST};

const kit_ladder rs_reduce_ladder =
    RS_LADDER("reduce", "reduce ladder (uint32 sum)", t_reduce, RS_REDUCE_NSTEPS);
const kit_ladder rs_reduce_f32_ladder =
    RS_LADDER("reduce-f32", "reduce ladder, float sum", t_reduce_f32, RS_REDUCE_NSTEPS);
const kit_ladder rs_scan_ladder =
    RS_LADDER("scan", "scan ladder (uint32 exclusive sum)", t_scan, RS_SCAN_NSTEPS);
const kit_ladder rs_scan_incl_ladder =
    RS_LADDER("scan-incl", "scan ladder, uint32 inclusive sum", t_scan_incl, RS_SCAN_NSTEPS);
const kit_ladder rs_scan_affine_ladder =
    RS_LADDER("scan-affine", "scan ladder, affine maps, exclusive", t_scan_affine, RS_SCAN_NSTEPS);
const kit_ladder rs_scan_affine_incl_ladder = RS_LADDER(
    "scan-affine-incl", "scan ladder, affine maps, inclusive", t_scan_affine_incl, RS_SCAN_NSTEPS);
const kit_ladder rs_reduce_pairs_ladder =
    RS_LADDER("reduce-pairs", "r7 kernel, nWarps x nWork 1..8 x 1..8", t_reduce_pairs, RS_PAIRS);
const kit_ladder rs_scan_pairs_ladder =
    RS_LADDER("scan-pairs", "s3 kernels, nWarps x nWork 1..8 x 1..8", t_scan_pairs, RS_PAIRS);
const kit_ladder rs_reduce_bank_ladder = RS_LADDER(
    "reduce-bank", "r7 kernel, bank-conflict strategies", t_reduce_bank, RS_BANK_NVARIANTS);
const kit_ladder rs_scan_bank_ladder =
    RS_LADDER("scan-bank", "s3 kernels, bank-conflict strategies", t_scan_bank, RS_BANK_NVARIANTS);
const kit_ladder rs_reduce_curves_ladder = RS_LADDER(
    "reduce-curves", "r7 kernel, baseline/ILP/TLP/mitigate/avoid", t_reduce_curves, RS_CURVES_NVARIANTS);
const kit_ladder rs_scan_curves_ladder = RS_LADDER(
    "scan-curves", "s3 kernels, baseline/ILP/TLP/mitigate/avoid", t_scan_curves, RS_CURVES_NVARIANTS);
const kit_ladder rs_r8_ladder =
    RS_LADDER("reduce-tune", "r8 kernel, block size x loads per thread", t_r8, RS_R8_NVARIANTS);
const kit_ladder rs_s4_ladder =
    RS_LADDER("scan-tune", "s4 kernel, block size x items x load scheme x back-off", t_s4, RS_S4_NVARIANTS);
const kit_ladder rs_reduce_best_ladder =
    RS_LADDER("reduce-best", "r8 and CUB", t_reduce_best, RS_REDUCE_NSTEPS - RS_REDUCE_BEST);
const kit_ladder rs_scan_best_ladder =
    RS_LADDER("scan-best", "s4 and CUB", t_scan_best, RS_SCAN_NSTEPS - RS_SCAN_BEST);
