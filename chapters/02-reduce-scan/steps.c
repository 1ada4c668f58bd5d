/* steps.c - chapter 02's step tables (the only lists of its two ladders), the problems
 * they solve (one per element type and scan mode) and the ladders the harness drives:
 * the main ones, the other types and modes, and the tuning tables. */
#include <limits.h>
#include <stdio.h>

#include "reduce_scan.h"

#define F(x) "chapters/02-reduce-scan/" x
#define X(x) "$(IMPL)/02-reduce-scan/" x

/* max_n: reduce_scan.h's RS_MAX_N_<id>, the largest n the step takes (0: no limit but memory);
 * the step refuses every n past it before any launch */
#define REDUCE_STEP(id, name, param, what, file, exercise)                                    \
    {{name, param, what, file, exercise, KIT_STEP_GPU, rs_##id##_describe, 0, RS_MAX_N_##id}, \
     rs_##id##_scratch, rs_##id##_u32, rs_##id##_f32}
#define SCAN_STEP(id, name, param, what, file, exercise)                                      \
    {{name, param, what, file, exercise, KIT_STEP_GPU, rs_##id##_describe, 0, RS_MAX_N_##id}, \
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

/* ------------------------------------------------------------- the problems */

typedef enum { RS_U32, RS_F32, RS_AFFINE } rs_type;

/* A problem's own data (kit_problem.arg): reduce or scan, element type, scan mode. */
typedef struct rs_kind {
    int scan;
    rs_type type;
    int exclusive;
} rs_kind;

static const rs_kind *kind_of(const kit_problem *P) { return (const rs_kind *)P->arg; }

static size_t one(const kit_shape *sh)
{
    (void)sh;
    return 1;
}

static const kit_buffer reduce_bufs[] = {{"in", KIT_IN, 4, NULL}, {"out", KIT_OUT, 4, one}};
static const kit_buffer scan_u32_bufs[] = {{"in", KIT_IN, 4, NULL}, {"out", KIT_OUT, 4, NULL}};
static const kit_buffer scan_affine_bufs[] = {{"in", KIT_IN, sizeof(rs_affine), NULL},
                                              {"out", KIT_OUT, sizeof(rs_affine), NULL}};

/* floats and affine maps from the pattern's words (uint32 problems: kit_fill_patterns) */
static void rs_fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                    uint64_t seed)
{
    if (kind_of(P)->type == RS_F32) rs_fill_f32((float *)h->buf[0], sh->n, (kit_pattern)in->arg, seed);
    else rs_fill_affine((rs_affine *)h->buf[0], sh->n, (kit_pattern)in->arg, seed);
}

/* out from in, serially; the float reference sums in double (the baseline in float) */
static void compute(const kit_problem *P, kit_host *h, const kit_shape *sh, int baseline)
{
    const rs_kind *k = kind_of(P);
    const void *in = h->buf[0];
    void *out = h->buf[1];
    if (k->scan && k->type == RS_AFFINE)
        rs_cpu_scan_affine((const rs_affine *)in, (rs_affine *)out, sh->n, k->exclusive);
    else if (k->scan) rs_cpu_scan_u32((const uint32_t *)in, (uint32_t *)out, sh->n, k->exclusive);
    else if (k->type == RS_F32)
        *(float *)out = baseline ? rs_cpu_reduce_f32((const float *)in, sh->n)
                                 : (float)rs_cpu_reduce_f64((const float *)in, sh->n);
    else *(uint32_t *)out = rs_cpu_reduce_u32((const uint32_t *)in, sh->n);
}

static void rs_reference(const kit_problem *P, kit_host *h, const kit_shape *sh) { compute(P, h, sh, 0); }
static void rs_serial(const kit_problem *P, kit_host *h, const kit_shape *sh) { compute(P, h, sh, 1); }

static const kit_cpu rs_cpus[] = {{"serial", rs_serial}};

/* the float sum: within rs_f32_tolerance(n) of the double-precision sum */
static int f32_compare(const kit_problem *P, const kit_host *want, const kit_host *got,
                       const kit_shape *sh, unsigned flags, char *msg, size_t len)
{
    const double tol = rs_f32_tolerance(sh->n);
    char inner[KIT_MSG];
    (void)P;
    (void)flags;
    if (kit_cmp_f32((const float *)got->buf[1], (const float *)want->buf[1], 1, tol, inner, sizeof inner))
        return 1;
    snprintf(msg, len, "float sum of %zu values (double reference %.9g, relative tolerance %.2g): %s",
             sh->n, rs_cpu_reduce_f64((const float *)want->buf[0], sh->n), tol, inner);
    return 0;
}

#define RS_PROBLEM(NAME, BUFS, FILL, COMPARE, KIND)                                             \
    {NAME, BUFS, 2, kit_pattern_inputs, KIT_PATTERN_COUNT, NULL, 0, "elements", NULL, {NULL}, 0, \
     FILL, rs_reference, COMPARE, rs_cpus, 1, KIND}

static const rs_kind k_reduce_u32 = {0, RS_U32, 0}, k_reduce_f32 = {0, RS_F32, 0};
static const rs_kind k_scan_u32 = {1, RS_U32, 1}, k_scan_u32_incl = {1, RS_U32, 0};
static const rs_kind k_scan_affine = {1, RS_AFFINE, 1}, k_scan_affine_incl = {1, RS_AFFINE, 0};

const kit_problem rs_reduce_u32_problem =
    RS_PROBLEM("reduce-u32", reduce_bufs, kit_fill_patterns, NULL, &k_reduce_u32);
const kit_problem rs_reduce_f32_problem =
    RS_PROBLEM("reduce-f32", reduce_bufs, rs_fill, f32_compare, &k_reduce_f32);
const kit_problem rs_scan_u32_problem =
    RS_PROBLEM("scan-u32-excl", scan_u32_bufs, kit_fill_patterns, NULL, &k_scan_u32);
const kit_problem rs_scan_u32_incl_problem =
    RS_PROBLEM("scan-u32-incl", scan_u32_bufs, kit_fill_patterns, NULL, &k_scan_u32_incl);
const kit_problem rs_scan_affine_problem =
    RS_PROBLEM("scan-affine-excl", scan_affine_bufs, rs_fill, NULL, &k_scan_affine);
const kit_problem rs_scan_affine_incl_problem =
    RS_PROBLEM("scan-affine-incl", scan_affine_bufs, rs_fill, NULL, &k_scan_affine_incl);

/* -------------------------------------------------------------- the ladders */

static const rs_reduce_step *reduce_step(const kit_ladder *L, size_t i)
{
    return &((const rs_reduce_step *)L->table)[i];
}

static const rs_scan_step *scan_step(const kit_ladder *L, size_t i)
{
    return &((const rs_scan_step *)L->table)[i];
}

static const kit_step_info *rs_info(const kit_ladder *L, size_t i)
{
    return kind_of(L->P)->scan ? &scan_step(L, i)->info : &reduce_step(L, i)->info;
}

static double rs_bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)i;
    /* reduce reads n elements; scan reads n and writes n */
    return (kind_of(L->P)->scan ? 2.0 : 1.0) * (double)L->P->bufs[0].elem * (double)sh->n;
}

static size_t rs_scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    size_t (*f)(size_t) = kind_of(L->P)->scan ? scan_step(L, i)->scratch_bytes : reduce_step(L, i)->scratch_bytes;
    return f ? f(sh->n) : 0;
}

/* What reduce_scan.h allows or refuses beyond the harness's default call, beside the step
 * tables: the contract suite tries each case on the steps it names (kit_arg_case).  The ladders
 * take the first RS_NCASES_MAIN; the exclusive-only tuning tables all of them. */
enum { RS_CASE_IN_MIS = 0, RS_CASE_OUT_MIS, RS_CASE_SCRATCH_NULL, RS_CASE_INCLUSIVE, RS_NCASES };
#define RS_NCASES_MAIN RS_CASE_INCLUSIVE
#define RS_VEC_STEPS "r8_hopper,s4_lookback"
static const kit_arg_case rs_cases[RS_NCASES] = {
    [RS_CASE_IN_MIS] = {"in + half an element", "reduce_scan.h: r8 and s4 refuse an address not aligned to its element",
                        cudaErrorMisalignedAddress, RS_VEC_STEPS, NULL},
    [RS_CASE_OUT_MIS] = {"out + half an element", "reduce_scan.h: r8 and s4 refuse an address not aligned to its element",
                         cudaErrorMisalignedAddress, RS_VEC_STEPS, NULL},
    [RS_CASE_SCRATCH_NULL] = {"scratch NULL", "reduce_scan.h: the CUB yardsticks refuse NULL scratch",
                              cudaErrorInvalidValue, "cub_reduce,cub_scan", NULL},
    [RS_CASE_INCLUSIVE] = {"inclusive", "reduce_scan.h: the scan tuning tables are exclusive only",
                           cudaErrorNotSupported, NULL, NULL},
};

/* step i as argument case c makes the call (c < 0: the harness's default call) */
static cudaError_t rs_run_case(const kit_ladder *L, size_t i, int c, int ph, void *const *dev,
                               const kit_shape *sh, void *scratch, cudaStream_t s)
{
    const rs_kind *k = kind_of(L->P);
    const size_t n = sh->n, half = L->P->bufs[0].elem / 2;
    const void *in = (const char *)dev[0] + (c == RS_CASE_IN_MIS ? half : 0);
    void *out = (char *)dev[1] + (c == RS_CASE_OUT_MIS ? half : 0);
    const int exclusive = c == RS_CASE_INCLUSIVE ? 0 : k->exclusive;
    (void)ph;
    if (c == RS_CASE_SCRATCH_NULL) scratch = NULL;
    if (k->scan) {
        const rs_scan_step *st = scan_step(L, i);
        if (k->type == RS_AFFINE)
            return st->run_affine ? st->run_affine((const rs_affine *)in, (rs_affine *)out, n, exclusive, scratch, s)
                                  : cudaErrorNotSupported;
        return st->run_u32((const uint32_t *)in, (uint32_t *)out, n, exclusive, scratch, s);
    }
    if (k->type == RS_F32)
        return reduce_step(L, i)->run_f32
                   ? reduce_step(L, i)->run_f32((const float *)in, (float *)out, n, scratch, s)
                   : cudaErrorNotSupported;
    return reduce_step(L, i)->run_u32((const uint32_t *)in, (uint32_t *)out, n, scratch, s);
}

static cudaError_t rs_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                          const kit_shape *sh, void *scratch, cudaStream_t s)
{
    return rs_run_case(L, i, -1, ph, dev, sh, scratch, s);
}

#define RS_LADDER_CASES(ID, TITLE, PROBLEM, TABLE, COUNT, NCASES)                                 \
    {ID, TITLE, COUNT, TABLE, &PROBLEM, rs_info, rs_bytes, rs_scratch, rs_run, NULL, 0, NULL,      \
     NULL, NULL, rs_cases, NCASES, rs_run_case}
#define RS_LADDER(ID, TITLE, PROBLEM, TABLE, COUNT) \
    RS_LADDER_CASES(ID, TITLE, PROBLEM, TABLE, COUNT, RS_NCASES_MAIN)
/* the scan tuning tables (uint32, exclusive only): the inclusive call is refused too */
#define RS_LADDER_EXCL(ID, TITLE, PROBLEM, TABLE, COUNT) \
    RS_LADDER_CASES(ID, TITLE, PROBLEM, TABLE, COUNT, RS_NCASES)

const kit_ladder rs_reduce_ladder = RS_LADDER("reduce", "reduce ladder (uint32 sum)",
                                              rs_reduce_u32_problem, rs_reduce_steps, RS_REDUCE_NSTEPS);
const kit_ladder rs_reduce_f32_ladder = RS_LADDER("reduce-f32", "reduce ladder, float sum",
                                                  rs_reduce_f32_problem, rs_reduce_steps, RS_REDUCE_NSTEPS);
const kit_ladder rs_scan_ladder = RS_LADDER("scan", "scan ladder (uint32 exclusive sum)",
                                            rs_scan_u32_problem, rs_scan_steps, RS_SCAN_NSTEPS);
const kit_ladder rs_scan_incl_ladder = RS_LADDER("scan-incl", "scan ladder, uint32 inclusive sum",
                                                 rs_scan_u32_incl_problem, rs_scan_steps, RS_SCAN_NSTEPS);
const kit_ladder rs_scan_affine_ladder =
    RS_LADDER("scan-affine", "scan ladder, affine maps, exclusive", rs_scan_affine_problem,
              rs_scan_steps, RS_SCAN_NSTEPS);
const kit_ladder rs_scan_affine_incl_ladder =
    RS_LADDER("scan-affine-incl", "scan ladder, affine maps, inclusive", rs_scan_affine_incl_problem,
              rs_scan_steps, RS_SCAN_NSTEPS);
const kit_ladder rs_reduce_pairs_ladder =
    RS_LADDER("reduce-pairs", "r7 kernel, nWarps x nWork 1..8 x 1..8", rs_reduce_u32_problem,
              rs_brown_reduce_pairs, RS_PAIRS);
const kit_ladder rs_scan_pairs_ladder =
    RS_LADDER_EXCL("scan-pairs", "s3 kernels, nWarps x nWork 1..8 x 1..8", rs_scan_u32_problem,
              rs_brown_scan_pairs, RS_PAIRS);
const kit_ladder rs_reduce_bank_ladder =
    RS_LADDER("reduce-bank", "r7 kernel, bank-conflict strategies", rs_reduce_u32_problem,
              rs_brown_reduce_bank, RS_BANK_NVARIANTS);
const kit_ladder rs_scan_bank_ladder =
    RS_LADDER_EXCL("scan-bank", "s3 kernels, bank-conflict strategies", rs_scan_u32_problem,
              rs_brown_scan_bank, RS_BANK_NVARIANTS);
const kit_ladder rs_reduce_curves_ladder =
    RS_LADDER("reduce-curves", "r7 kernel, baseline/ILP/TLP/mitigate/avoid", rs_reduce_u32_problem,
              rs_brown_reduce_curves, RS_CURVES_NVARIANTS);
const kit_ladder rs_scan_curves_ladder =
    RS_LADDER_EXCL("scan-curves", "s3 kernels, baseline/ILP/TLP/mitigate/avoid", rs_scan_u32_problem,
              rs_brown_scan_curves, RS_CURVES_NVARIANTS);
const kit_ladder rs_r8_ladder = RS_LADDER("reduce-tune", "r8 kernel, block size x loads per thread",
                                          rs_reduce_u32_problem, rs_r8_variants, RS_R8_NVARIANTS);
const kit_ladder rs_s4_ladder =
    RS_LADDER_EXCL("scan-tune", "s4 kernel, block size x items x load scheme x back-off",
              rs_scan_u32_problem, rs_s4_variants, RS_S4_NVARIANTS);
const kit_ladder rs_reduce_best_ladder =
    RS_LADDER("reduce-best", "r8 and CUB", rs_reduce_u32_problem, rs_reduce_steps + RS_REDUCE_BEST,
              RS_REDUCE_NSTEPS - RS_REDUCE_BEST);
const kit_ladder rs_scan_best_ladder =
    RS_LADDER("scan-best", "s4 and CUB", rs_scan_u32_problem, rs_scan_steps + RS_SCAN_BEST,
              RS_SCAN_NSTEPS - RS_SCAN_BEST);

const kit_ladder *const rs_ladders[RS_NLADDERS] = {
    &rs_reduce_ladder,       &rs_scan_ladder,          &rs_reduce_f32_ladder,
    &rs_scan_incl_ladder,    &rs_scan_affine_ladder,   &rs_scan_affine_incl_ladder,
    &rs_reduce_pairs_ladder, &rs_scan_pairs_ladder,    &rs_reduce_bank_ladder,
    &rs_scan_bank_ladder,    &rs_reduce_curves_ladder, &rs_scan_curves_ladder,
    &rs_r8_ladder,           &rs_s4_ladder,
};
