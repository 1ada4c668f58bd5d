/* steps.c - chapter 06's step table (the only list of its ladder) and the problems that let
 * the kit's harness drive it, its tuning table, the probes and the micro-benchmarks. */
#include <limits.h>
#include <string.h>

#include "ballot.h"

#define F(x) "chapters/06-ballot-scan/" x

const ballot_step ballot_steps[BALLOT_NSTEPS] = {
    {{"s0_rts32", "tbs=512 sub=8 (4096 flags/tile) 3 kernels",
      "reduce-then-scan, 32-bit smem reduce and warp scans, one flag per thread per call",
      F("s0_rts32.cu"), NULL, KIT_STEP_GPU, ballot_s0_describe, 0, 0},
     ballot_s0_scratch, ballot_s0_rts32},
    {{"s1_rts_ballot", "tbs=512 sub=8 (4096 flags/tile) 3 kernels",
      "__syncthreads_count and the ballot/popc block scan (Listing 3.6)", F("s1_rts_ballot.cu"),
      NULL, KIT_STEP_GPU, ballot_s1_describe, 0, 0},
     ballot_s1_scratch, ballot_s1_rts_ballot},
    {{"s2_rows", "tbs=256 rows=8 (8192 flags/tile) 3 kernels",
      "4 flags per word: POPC, 3 bit-plane ballots per row, SWAR prefixes, 16-byte stores",
      F("s2_rows.cu"), NULL, KIT_STEP_GPU, ballot_s2_describe, 0, 0},
     ballot_s2_scratch, ballot_s2_rows},
    {{"s3_lookback", ballot_s3_param,
      "single pass with decoupled look-back (ballot finds the nearest prefix): 5n bytes",
      F("s3_lookback.cu"), NULL, KIT_STEP_GPU, ballot_s3_describe, 0, 0},
     ballot_s3_scratch, ballot_s3_lookback},
    /* CUB takes an int item count */
    {{"cub_exclusive_sum", "uint8 flags -> int32 offsets",
      "yardstick: cub::DeviceScan::ExclusiveSum on the same flags",
      "chapters/06-ballot-scan/yardsticks.cu", NULL, KIT_STEP_YARDSTICK, NULL},
     ballot_yard_cub_scratch, ballot_yard_cub_scan},
};

/* ------------------------------------------- flags -> offsets (main + tuning) */

static const kit_buffer scan_bufs[] = {{"flags", KIT_IN, 1, NULL}, {"offsets", KIT_OUT, 4, NULL}};

static void scan_reference(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    ballot_cpu_scan((const uint8_t *)h->buf[0], (uint32_t *)h->buf[1], sh->n, 0, 0, 0);
}

static void scan_swar(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P;
    ballot_cpu_offsets_swar((const uint8_t *)h->buf[0], (uint32_t *)h->buf[1], sh->n);
}

static const kit_cpu scan_cpus[] = {{"serial", scan_reference}, {"swar64", scan_swar}};

const kit_problem ballot_scan_problem = {
    "flags-to-offsets", scan_bufs, 2, ballot_flag_inputs, BALLOT_FLAG_NINPUTS, NULL, 0, "flags",
    NULL, {NULL}, BALLOT_MAX_N /* 32-bit offsets */, ballot_fill_scan, scan_reference, NULL,
    scan_cpus, 2, NULL,
};

static const kit_step_info *scan_info(const kit_ladder *L, size_t i)
{
    return &((const ballot_step *)L->table)[i].info;
}

static double scan_bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)L;
    (void)i;
    return 5.0 * (double)sh->n; /* read n flag bytes, write n 4-byte offsets */
}

static size_t scan_scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const ballot_step *st = &((const ballot_step *)L->table)[i];
    return st->scratch_bytes ? st->scratch_bytes(sh->n) : 0;
}

/* What ballot.h refuses beyond the harness's default call, beside the step table: the
 * contract suite tries each case on every step (kit_arg_case).  Flags at any byte address are
 * the contract's own offsets. */
enum { SCAN_CASE_OFFSETS_MIS = 0, SCAN_NCASES };
static const kit_arg_case scan_cases[SCAN_NCASES] = {
    [SCAN_CASE_OFFSETS_MIS] = {"offsets + 2 bytes", "ballot.h: offsets at any 4-byte aligned address",
                               cudaErrorMisalignedAddress, NULL, NULL},
};

static cudaError_t scan_run_case(const kit_ladder *L, size_t i, int c, int ph, void *const *dev,
                                 const kit_shape *sh, void *scratch, cudaStream_t s)
{
    char *offsets = (char *)dev[1] + (c == SCAN_CASE_OFFSETS_MIS ? 2 : 0);
    (void)ph;
    return ((const ballot_step *)L->table)[i].run((const uint8_t *)dev[0], (uint32_t *)(void *)offsets,
                                                  sh->n, scratch, s);
}

static cudaError_t scan_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                            const kit_shape *sh, void *scratch, cudaStream_t s)
{
    return scan_run_case(L, i, -1, ph, dev, sh, scratch, s);
}

#define SCAN_LADDER(ID, TITLE, TABLE, COUNT)                                                    \
    {ID, TITLE, COUNT, TABLE, &ballot_scan_problem, scan_info, scan_bytes, scan_scratch,        \
     scan_run, NULL, 0, NULL, NULL, NULL, scan_cases, SCAN_NCASES, scan_run_case}

const kit_ladder ballot_ladder =
    SCAN_LADDER("ballot", "binary prefix sum, flags -> offsets", ballot_steps, BALLOT_NSTEPS);
const kit_ladder ballot_lookback_ladder =
    SCAN_LADDER("ballot-lookback", "s3 kernel, block x rows x row scan x store",
                ballot_lookback_variants, BALLOT_LOOKBACK_NVARIANTS);

/* -------------------------------------------------- probes and the block sort */

static const kit_buffer probe_bufs[] = {{"flags", KIT_IN, 1, NULL},
                                        {"heads", KIT_IN, 1, NULL},
                                        {"vals", KIT_IN, 4, NULL},
                                        {"out", KIT_OUT, 4, NULL}};

/* what probe p computes, from the probe problem's buffers */
static void probe_expect(const ballot_probe *p, kit_host *h, size_t n)
{
    ballot_cpu_probe(p, (const uint8_t *)h->buf[0], (const uint8_t *)h->buf[1],
                     (const uint32_t *)h->buf[2], (uint32_t *)h->buf[3], n);
}

const kit_problem ballot_probe_problem = {
    "probes", probe_bufs, 4, ballot_probe_inputs, BALLOT_PROBE_NINPUTS, NULL, 0, "elements",
    NULL, {NULL}, 0, ballot_fill_probe, NULL, NULL, NULL, 0, &ballot_probes[0],
};

static const kit_step_info *probe_info(const kit_ladder *L, size_t i)
{
    return &((const ballot_probe *)L->table)[i].info;
}

/* the bytes a probe must read (the inputs its primitive uses) and write (one word) */
static double probe_bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    double in;
    switch ((ballot_op)((const ballot_probe *)L->table)[i].op) {
    case BALLOT_OP_SEG_INCL: in = 2; break;                /* flags, heads */
    case BALLOT_OP_SCAN32_INCL: case BALLOT_OP_BITS_EXCL:
    case BALLOT_OP_BSCAN32: case BALLOT_OP_BSUM32:
    case BALLOT_OP_SORT: in = 4; break;                    /* values */
    case BALLOT_OP_SPLIT: in = 5; break;                   /* flags, values */
    default: in = 1; break;                                /* flags */
    }
    return (in + 4.0) * (double)sh->n;
}

static void probe_step_reference(const kit_ladder *L, size_t i, kit_host *want, const kit_shape *sh)
{
    probe_expect(&((const ballot_probe *)L->table)[i], want, sh->n);
}

static cudaError_t probe_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                             const kit_shape *sh, void *scratch, cudaStream_t s)
{
    ballot_probe_in in;
    (void)ph;
    (void)scratch;
    in.flags = (const uint8_t *)dev[0];
    in.heads = (const uint8_t *)dev[1];
    in.vals = (const uint32_t *)dev[2];
    return ((const ballot_probe *)L->table)[i].run(&in, (uint32_t *)dev[3], sh->n, s);
}

const kit_ladder ballot_probe_ladder = {
    "ballot-probes", "warp and block primitives, every block size", BALLOT_PROBE_NVARIANTS,
    ballot_probes, &ballot_probe_problem, probe_info, probe_bytes, NULL, probe_run,
    probe_step_reference, 0, NULL,
};

/* the block sort reads only keys: its own problem, with the kit's word patterns as keys */
static const kit_buffer sort_bufs[] = {{"keys", KIT_IN, 4, NULL}, {"out", KIT_OUT, 4, NULL}};

static void sort_expect(const ballot_probe *p, kit_host *h, size_t n)
{
    ballot_cpu_probe(p, NULL, NULL, (const uint32_t *)h->buf[0], (uint32_t *)h->buf[1], n);
}

const kit_problem ballot_sort_problem = {
    "block-sort", sort_bufs, 2, kit_pattern_inputs, KIT_PATTERN_COUNT, NULL, 0, "keys", NULL,
    {NULL}, 0, kit_fill_patterns, NULL, NULL, NULL, 0, &ballot_sort_variants[0],
};

static void sort_step_reference(const kit_ladder *L, size_t i, kit_host *want, const kit_shape *sh)
{
    sort_expect(&((const ballot_probe *)L->table)[i], want, sh->n);
}

static cudaError_t sort_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                            const kit_shape *sh, void *scratch, cudaStream_t s)
{
    ballot_probe_in in;
    (void)ph;
    (void)scratch;
    in.flags = NULL;
    in.heads = NULL;
    in.vals = (const uint32_t *)dev[0];
    return ((const ballot_probe *)L->table)[i].run(&in, (uint32_t *)dev[1], sh->n, s);
}

const kit_ladder ballot_sort_ladder = {
    "ballot-sort", "block radix sort, ballot vs 32-bit scans, block 128..1024",
    BALLOT_SORT_NVARIANTS, ballot_sort_variants, &ballot_sort_problem, probe_info, probe_bytes,
    NULL, sort_run, sort_step_reference, 0, NULL,
};

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

#define TILE_WORDS ((size_t)BALLOT_TILE_WORDS * 1024)
#define MAX_GRID ((size_t)INT_MAX)

static size_t micro_tile_words(const kit_shape *sh)
{
    (void)sh;
    return TILE_WORDS;
}

/* blocks of a launch of n calls at tbs threads (past MAX_GRID: refused) */
static size_t micro_grid(size_t n, int tbs)
{
    const size_t per_block = (size_t)tbs * BALLOT_ITER;
    return n / per_block + (n % per_block != 0);
}

static size_t micro_out_512(const kit_shape *sh) { return micro_grid(sh->n, 512) * 512; }
static size_t micro_out_256(const kit_shape *sh) { return micro_grid(sh->n, 256) * 256; }

static const kit_buffer micro_bufs_512[] = {{"tile", KIT_IN, 4, micro_tile_words},
                                            {"out", KIT_OUT, 4, micro_out_512}};
static const kit_buffer micro_bufs_256[] = {{"tile", KIT_IN, 4, micro_tile_words},
                                            {"out", KIT_OUT, 4, micro_out_256}};

/* variant m's accumulators of one block, in every block of the output */
static void micro_expect(const ballot_micro *m, kit_host *h, const kit_shape *sh)
{
    uint32_t acc[1024], *out = (uint32_t *)h->buf[1];
    const size_t words = micro_grid(sh->n, m->tbs) * (size_t)m->tbs;
    size_t j;
    ballot_cpu_micro(m->op, m->tbs, m->bits, (const uint32_t *)h->buf[0], acc);
    for (j = 0; j < words; j++) out[j] = acc[j % (size_t)m->tbs];
}

static void micro_step_reference(const kit_ladder *L, size_t i, kit_host *want, const kit_shape *sh)
{
    micro_expect(&((const ballot_micro *)L->table)[i], want, sh);
}

#define MICRO_PROBLEM(NAME, BUFS, TBS, FIRST)                                                   \
    {NAME, BUFS, 2, kit_pattern_inputs, KIT_PATTERN_COUNT, NULL, 0, "calls", NULL, {NULL},     \
     MAX_GRID * (TBS) * BALLOT_ITER, kit_fill_patterns, NULL, NULL, NULL, 0, FIRST}

const kit_problem ballot_mreduce_problem =
    MICRO_PROBLEM("block-reduce-1bit", micro_bufs_512, 512, &ballot_mreduce_variants[0]);
const kit_problem ballot_mscan_problem =
    MICRO_PROBLEM("block-scan-1bit", micro_bufs_512, 512, &ballot_mscan_variants[0]);
const kit_problem ballot_mbits_problem =
    MICRO_PROBLEM("warp-scan-bits", micro_bufs_256, 256, &ballot_mbits_variants[0]);

static const kit_step_info *micro_info(const kit_ladder *L, size_t i)
{
    return &((const ballot_micro *)L->table)[i].info;
}

static double micro_bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)L;
    (void)i;
    (void)sh;
    return 0.0; /* on-chip work: compare calls/s, not GB/s (and no input rotation) */
}

static cudaError_t micro_run(const kit_ladder *L, size_t i, int ph, void *const *dev,
                             const kit_shape *sh, void *scratch, cudaStream_t s)
{
    const ballot_micro *m = &((const ballot_micro *)L->table)[i];
    const size_t grid = micro_grid(sh->n, m->tbs);
    (void)ph;
    (void)scratch;
    if (grid > MAX_GRID) return cudaErrorInvalidValue;
    return m->run((const uint32_t *)dev[0], (uint32_t *)dev[1], (unsigned)grid, s);
}

#define MICRO_LADDER(ID, TITLE, TABLE, COUNT, PROBLEM)                                          \
    {ID, TITLE, COUNT, TABLE, &PROBLEM, micro_info, micro_bytes, NULL, micro_run,               \
     micro_step_reference, 0, NULL}

const kit_ladder ballot_mreduce_ladder =
    MICRO_LADDER("ballot-reduce", "block reduce of 1-bit values, 512 threads",
                 ballot_mreduce_variants, BALLOT_MREDUCE_NVARIANTS, ballot_mreduce_problem);
const kit_ladder ballot_mscan_ladder =
    MICRO_LADDER("ballot-blockscan", "block scan of 1-bit values, 512 threads",
                 ballot_mscan_variants, BALLOT_MSCAN_NVARIANTS, ballot_mscan_problem);
const kit_ladder ballot_mbits_ladder =
    MICRO_LADDER("ballot-bitplane", "warp scan of 1..8-bit values, 256 threads",
                 ballot_mbits_variants, BALLOT_MBITS_NVARIANTS, ballot_mbits_problem);

const kit_ladder *const ballot_ladders[BALLOT_NLADDERS] = {
    &ballot_ladder,         &ballot_lookback_ladder, &ballot_probe_ladder, &ballot_sort_ladder,
    &ballot_mreduce_ladder, &ballot_mscan_ladder,    &ballot_mbits_ladder,
};
