/* steps.c - chapter 05's step tables (the only list of its ladder) and the problems and
 * ladders that let the kit's harness drive them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radix.h"
#include "radix_problem.h"

#define F(x) "chapters/05-radix-sort/" x
#define GPU_STEP(NAME, PARAM, WHAT, DESCRIBE, FN, TYPES, BITS)                                    \
    {{#NAME, PARAM, WHAT, F(#NAME ".cu"), NULL, KIT_STEP_GPU, DESCRIBE, 0, 0},                   \
     radix_##FN##_scratch, radix_##FN, TYPES, BITS}
#define CUB_STEP                                                                                  \
    {{"cub_radix_sort", "DeviceRadixSort::SortKeys / SortPairs",                                  \
      "yardstick: CUB's Onesweep radix sort (-0.0 and +0.0 equal, see radix.h)",                   \
      F("yardsticks.cu"), NULL, KIT_STEP_YARDSTICK, NULL, KIT_OWN_ORDER, 0},                       \
     radix_yard_cub_scratch, radix_yard_cub, RADIX_TYPES_ALL, 8}
#define THRUST_STEP                                                                               \
    {{"thrust_sort", "stable_sort(_by_key), comparator on the bits when not all",                 \
      "yardstick: Thrust as a user calls it (allocates its own temporary storage)",               \
      F("yardsticks.cu"), NULL, KIT_STEP_YARDSTICK, NULL, KIT_OWN_ORDER, 0},                       \
     radix_yard_thrust_scratch, radix_yard_thrust, RADIX_TYPES_ALL, 0}

const radix_step radix_steps[RADIX_NSTEPS] = {
    GPU_STEP(s0_split1, "tbs=256 keys/thread=4 (3 kernels x 32 passes)",
             "1-bit split per bit: ballot/popc block scans, block counts scanned", radix_s0_describe,
             s0_split1, RADIX_TYPES32, 1),
    GPU_STEP(s1_satish, "tbs=256 keys/thread=4 bits=4 (3 kernels x 8 passes)",
             "Satish: tile sorted locally by 4 splits, digit histograms, scan, scatter",
             radix_s1_describe, s1_satish, RADIX_TYPES32, 4),
    GPU_STEP(s2_srts, radix_s2_param,
             "Merrill & Grimshaw: upsweep counts, top scan, downsweep multi-scan + exchange",
             radix_s2_describe, s2_srts, RADIX_TYPES32, 4),
    GPU_STEP(s3_rowdask, radix_s3_param,
             "Brown's Row-DASk: per-thread runs, packed 8-bit counts, local shuffle, scatter",
             radix_s3_describe, s3_rowdask, RADIX_TYPES32, 4),
    GPU_STEP(s4_match8, radix_s4_param,
             "8-bit digits: 4 passes; warp-match ranking, exchange in shared memory",
             radix_s4_describe, s4_match8, RADIX_TYPES_ALL, 8),
    GPU_STEP(s5_onesweep, radix_s5_param,
             "single pass per digit: one histogram kernel, decoupled look-back per digit (2n)",
             radix_s5_describe, s5_onesweep, RADIX_TYPES_ALL, 8),
    GPU_STEP(s6_skip_digits, radix_s6_param,
             "fewer passes: a pass whose digit all keys share is skipped (decided on the GPU)",
             radix_s6_describe, s6_skip_digits, RADIX_TYPES_ALL, 8),
    GPU_STEP(s7_lookback_first, radix_s7_param,
             "shorter look-back chain: keys alone look back before they rank, by four warps",
             radix_s7_describe, s7_lookback_first, RADIX_TYPES_ALL, 8),
    GPU_STEP(s8_reserve_first, radix_s8_param,
             "no chain in the first pass: keys alone on all bits take their places by atomics",
             radix_s8_describe, s8_reserve_first, RADIX_TYPES_ALL, 8),
    GPU_STEP(s9_lop3_ballots, radix_s9_param,
             "fewer instructions a key: the ranking's ballots ANDed three at a time",
             radix_s9_describe, s9_lop3_ballots, RADIX_TYPES_ALL, 8),
    GPU_STEP(s10_wide_tile, radix_s10_param,
             "fewer tiles: keys alone in 384 x 28 tiles where three blocks fit an SM",
             radix_s10_describe, s10_wide_tile, RADIX_TYPES_ALL, 8),
    GPU_STEP(s11_msd_hybrid, radix_s11_param,
             "fewer passes: top 16 bits in two passes, then each group of equal top halves on chip",
             radix_s11_describe, s11_msd_hybrid, RADIX_TYPES_ALL, 8),
    GPU_STEP(s12_small_sort, radix_s12_param,
             "small n in one launch: one block in shared memory, or one cooperative grid; s5, then s11, past them",
             radix_s12_describe, s12_small_sort, RADIX_TYPES_ALL, 8),
    GPU_STEP(s13_sort_network, radix_s13_param,
             "small sorts of keys alone: a sorting network in registers instead of radix passes; else s12",
             radix_s13_describe, s13_sort_network, RADIX_TYPES_ALL, 0),
    GPU_STEP(s14_cluster_network, radix_s14_param,
             "the network over a cluster of SMs through distributed shared memory, for keys and pairs; else s13",
             radix_s14_describe, s14_cluster_network, RADIX_TYPES_ALL, 0),
    /* the ladder's GPU steps end here: a step added after the last of them goes above this line */
    CUB_STEP,
    THRUST_STEP,
};

const radix_step radix_steps64[RADIX_NSTEPS64] = {
    GPU_STEP(s4_match8, radix_s4_param, "8-bit digits, 8 passes for 64-bit keys", radix_s4_describe,
             s4_match8, RADIX_TYPES_ALL, 8),
    GPU_STEP(s5_onesweep, radix_s5_param, "single pass per digit, 8 passes for 64-bit keys",
             radix_s5_describe, s5_onesweep, RADIX_TYPES_ALL, 8),
    GPU_STEP(s6_skip_digits, radix_s6_param, "s5 with constant digits skipped: a zero high half costs nothing",
             radix_s6_describe, s6_skip_digits, RADIX_TYPES_ALL, 8),
    /* s7 to s10 change the tile of 4-byte keys alone: on 64-bit keys they run s6's kernels */
    GPU_STEP(s12_small_sort, radix_s12_param,
             "small n in one launch, 64-bit keys: one block, or one cooperative grid; s5, then s11",
             radix_s12_describe, s12_small_sort, RADIX_TYPES_ALL, 8),
    GPU_STEP(s13_sort_network, radix_s13_param,
             "small sorts of 64-bit keys alone: a sorting network in registers; else s12",
             radix_s13_describe, s13_sort_network, RADIX_TYPES_ALL, 0),
    GPU_STEP(s14_cluster_network, radix_s14_param,
             "the network over a cluster of SMs, 64-bit keys alone; else s13",
             radix_s14_describe, s14_cluster_network, RADIX_TYPES_ALL, 0),
    CUB_STEP,
    THRUST_STEP,
};

/* ----------------------------------------------------------------- problems */

static size_t count_keys(const kit_shape *sh) { return sh->n; }
static size_t count_vals32(const kit_shape *sh) { return sh->v[1] != 0 ? sh->n : 0; }
static size_t count_vals64(const kit_shape *sh) { return sh->v[0] != 0 ? sh->n : 0; }

static const kit_buffer bufs32[] = {{"keys", KIT_IN, 4, count_keys},
                                    {"vals", KIT_IN, 4, count_vals32},
                                    {"keys_out", KIT_OUT, 4, count_keys},
                                    {"vals_out", KIT_OUT, 4, count_vals32}};
static const kit_buffer bufs64[] = {{"keys", KIT_IN, 8, count_keys},
                                    {"vals", KIT_IN, 4, count_vals64},
                                    {"keys_out", KIT_OUT, 8, count_keys},
                                    {"vals_out", KIT_OUT, 4, count_vals64}};

static const char *const type_labels[] = {"u32", "i32", "f32", NULL};
static const char *const pairs_labels[] = {"keys", "pairs", NULL};

static const kit_axis axes32[] = {
    {"type", "key type: u32, i32 or f32 (0, 1, 2)", 0, 0, 2, type_labels},
    {"pairs", "0: keys only, 1: (key, u32 value) pairs", 0, 0, 1, pairs_labels},
    {"begin_bit", "first bit of the image sorted on", 0, 0, 32, NULL},
    {"end_bit", "one past the last bit sorted on", 32, 0, 32, NULL},
};
static const kit_axis axes64[] = {
    {"pairs", "0: keys only, 1: (key, u32 value) pairs", 0, 0, 1, pairs_labels},
    {"begin_bit", "first bit of the key sorted on", 0, 0, 64, NULL},
    {"end_bit", "one past the last bit sorted on", 64, 0, 64, NULL},
};

static const radix_problem_arg arg32 = {4, 0, 1, 2, 3, RADIX_U32};
static const radix_problem_arg arg64 = {8, -1, 0, 1, 2, RADIX_U64};

/* The CPU reference: the 8-bit LSD sort (zero_equal: CUB's float order, -0.0 == +0.0). */
static void sort_ref(const kit_problem *P, kit_host *h, const kit_shape *sh, int zero_equal)
{
    const int type = radix_shape_type(P, sh), pairs = radix_shape_pairs(P, sh);
    const size_t n = sh->n, kb = (size_t)radix_key_bytes(type);
    /* every processor for large n (2^31 keys take a minute on one) */
    const int threads = kit_host_parts(n);
    void *tk = n ? kit_host_alloc(n * kb) : NULL;
    uint32_t *tv = pairs && n ? (uint32_t *)kit_host_alloc(n * 4) : NULL;
    void *keys = h->buf[RADIX_BUF_KEYS];
    void *canon = NULL;
    if (n && (!tk || (pairs && !tv))) { /* no memory: an output no step can match */
        memset(h->buf[RADIX_BUF_KEYS_OUT], 0xA5, n * kb);
        free(tk);
        free(tv);
        return;
    }
    if (zero_equal && type == RADIX_F32 && n) { /* sort a copy with -0.0 read as +0.0 ... */
        size_t i;
        const uint32_t *k = (const uint32_t *)keys;
        uint32_t *c = (uint32_t *)malloc(n * 4);
        if (c) {
            for (i = 0; i < n; i++) c[i] = k[i] == 0x80000000u ? 0u : k[i];
            canon = c;
        }
    }
    /* ... carrying the input index as the value, to put the original keys back */
    if (canon) {
        uint32_t *idx = (uint32_t *)malloc(n * 4), *perm = (uint32_t *)malloc(n * 4);
        uint32_t *tmpi = (uint32_t *)malloc(n * 4), *sorted = (uint32_t *)malloc(n * 4);
        size_t i;
        if (idx && perm && tmpi && sorted) {
            for (i = 0; i < n; i++) idx[i] = (uint32_t)i;
            radix_cpu_lsd_mt(canon, sorted, idx, perm, n, type, radix_shape_begin(P, sh), radix_shape_end(P, sh),
                             8, tk, tmpi, threads);
            for (i = 0; i < n; i++) {
                ((uint32_t *)h->buf[RADIX_BUF_KEYS_OUT])[i] = ((const uint32_t *)keys)[perm[i]];
                if (pairs)
                    ((uint32_t *)h->buf[RADIX_BUF_VALS_OUT])[i] =
                        ((const uint32_t *)h->buf[RADIX_BUF_VALS])[perm[i]];
            }
        } else {
            memset(h->buf[RADIX_BUF_KEYS_OUT], 0xA5, n * kb);
        }
        free(idx);
        free(perm);
        free(tmpi);
        free(sorted);
        free(canon);
    } else {
        radix_cpu_lsd_mt(keys, h->buf[RADIX_BUF_KEYS_OUT], pairs ? (const uint32_t *)h->buf[RADIX_BUF_VALS] : NULL,
                         pairs ? (uint32_t *)h->buf[RADIX_BUF_VALS_OUT] : NULL, n, type,
                         radix_shape_begin(P, sh), radix_shape_end(P, sh), 8, tk, tv, threads);
    }
    free(tk);
    free(tv);
}

static void reference(const kit_problem *P, kit_host *h, const kit_shape *sh) { sort_ref(P, h, sh, 0); }

/* element-wise equality; the first difference named */
static int same(const void *got, const void *want, size_t n, size_t elem, const char *what, char *msg,
                size_t len)
{
    size_t i;
    if (n == 0 || memcmp(got, want, n * elem) == 0) return 1;
    for (i = 0; i < n; i++)
        if (memcmp((const char *)got + i * elem, (const char *)want + i * elem, elem) != 0) break;
    if (elem == 8)
        snprintf(msg, len, "%s[%zu] = 0x%016llx, want 0x%016llx (n = %zu)", what, i,
                 (unsigned long long)((const uint64_t *)got)[i], (unsigned long long)((const uint64_t *)want)[i], n);
    else
        snprintf(msg, len, "%s[%zu] = 0x%08x, want 0x%08x (n = %zu)", what, i, ((const uint32_t *)got)[i],
                 ((const uint32_t *)want)[i], n);
    return 0;
}

/* Our steps must equal the reference byte for byte.  The yardsticks (KIT_OWN_ORDER: CUB,
 * and Thrust through it, order -0.0 and +0.0 as equal keys, keeping their input order) are
 * compared byte for byte with the reference in CUB's float order (radix.h). */
static int compare(const kit_problem *P, const kit_host *want, const kit_host *got, const kit_shape *sh,
                   unsigned step_flags, char *msg, size_t len)
{
    const int type = radix_shape_type(P, sh), pairs = radix_shape_pairs(P, sh);
    const size_t n = sh->n, kb = (size_t)radix_key_bytes(type);
    kit_host alt;
    const kit_host *ref = want;
    void *ko = NULL, *vo = NULL;
    int ok = 1;
    size_t b;
    if ((step_flags & KIT_OWN_ORDER) && type == RADIX_F32 && n) {
        memset(&alt, 0, sizeof alt);
        for (b = 0; b < KIT_MAX_BUFS; b++) alt.buf[b] = want->buf[b];
        ko = malloc(n * kb);
        vo = pairs ? malloc(n * 4) : NULL;
        if (!ko || (pairs && !vo)) {
            snprintf(msg, len, "out of host memory for the CUB-order reference");
            free(ko);
            free(vo);
            return 0;
        }
        alt.buf[RADIX_BUF_KEYS_OUT] = ko;
        alt.buf[RADIX_BUF_VALS_OUT] = vo;
        sort_ref(P, &alt, sh, 1);
        ref = &alt;
    }
    ok = same(got->buf[RADIX_BUF_KEYS_OUT], ref->buf[RADIX_BUF_KEYS_OUT], n, kb, "keys_out", msg, len) &&
         (!pairs || same(got->buf[RADIX_BUF_VALS_OUT], ref->buf[RADIX_BUF_VALS_OUT], n, 4, "vals_out", msg, len));
    free(ko);
    free(vo);
    return ok;
}

static double items(const kit_problem *P, const kit_shape *sh)
{
    (void)P;
    return (double)sh->n;
}

static void cpu_lsd(const kit_problem *P, kit_host *h, const kit_shape *sh, int bits)
{
    const int type = radix_shape_type(P, sh), pairs = radix_shape_pairs(P, sh);
    const size_t n = sh->n;
    void *tk = n ? malloc(n * (size_t)radix_key_bytes(type)) : NULL;
    uint32_t *tv = pairs && n ? (uint32_t *)malloc(n * 4) : NULL;
    if (!n || (tk && (!pairs || tv)))
        radix_cpu_lsd(h->buf[RADIX_BUF_KEYS], h->buf[RADIX_BUF_KEYS_OUT],
                      pairs ? (const uint32_t *)h->buf[RADIX_BUF_VALS] : NULL,
                      pairs ? (uint32_t *)h->buf[RADIX_BUF_VALS_OUT] : NULL, n, type, radix_shape_begin(P, sh),
                      radix_shape_end(P, sh), bits, tk, tv);
    free(tk);
    free(tv);
}
static void cpu_lsd4(const kit_problem *P, kit_host *h, const kit_shape *sh) { cpu_lsd(P, h, sh, 4); }
static void cpu_lsd8(const kit_problem *P, kit_host *h, const kit_shape *sh) { cpu_lsd(P, h, sh, 8); }
static void cpu_qsort(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    const int pairs = radix_shape_pairs(P, sh);
    (void)radix_cpu_qsort(h->buf[RADIX_BUF_KEYS], h->buf[RADIX_BUF_KEYS_OUT],
                          pairs ? (const uint32_t *)h->buf[RADIX_BUF_VALS] : NULL,
                          pairs ? (uint32_t *)h->buf[RADIX_BUF_VALS_OUT] : NULL, sh->n,
                          radix_shape_type(P, sh), radix_shape_begin(P, sh), radix_shape_end(P, sh));
}

static const kit_cpu cpus[] = {{"cpu_lsd4", cpu_lsd4}, {"cpu_lsd8", cpu_lsd8}, {"cpu_qsort", cpu_qsort, 0, NULL, NULL, NULL, KIT_COST_NLOGN}};

const kit_problem radix_problem32 = {
    "sort32", bufs32, 4, radix_inputs, RADIX_NINPUTS, axes32, 4, "keys", items, {NULL}, RADIX_MAX_N,
    radix_fill, reference, compare, cpus, 3, &arg32,
};
const kit_problem radix_problem64 = {
    "sort64", bufs64, 4, radix_inputs, RADIX_NINPUTS, axes64, 3, "keys", items, {NULL}, RADIX_MAX_N,
    radix_fill, reference, compare, cpus, 3, &arg64,
};

/* ------------------------------------------------------------------ ladders */

static const kit_step_info *info(const kit_ladder *L, size_t i)
{
    return &((const radix_step *)L->table)[i].info;
}

/* The traffic of the least-traffic sort (Onesweep's model): one read of the keys for the
 * histograms, then per 8-bit digit place one read and one write of keys and values.
 * Every step is measured against the same bytes, so GB/s compare like keys/s. */
static double bytes(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const kit_problem *P = L->P;
    const int type = radix_shape_type(P, sh), pairs = radix_shape_pairs(P, sh);
    const int width = radix_shape_end(P, sh) - radix_shape_begin(P, sh);
    const double kb = radix_key_bytes(type), n = (double)sh->n;
    const int places = width > 0 ? (width + 7) / 8 : 0;
    (void)i;
    return n * kb + (double)places * 2.0 * n * (kb + (pairs ? 4.0 : 0.0));
}

static size_t scratch(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    const radix_step *st = &((const radix_step *)L->table)[i];
    return st->scratch_bytes ? st->scratch_bytes(sh->n, radix_shape_type(L->P, sh), radix_shape_pairs(L->P, sh))
                             : 0;
}

/* What radix.h allows or refuses beyond the harness's default call, beside the step tables:
 * the contract suite tries each case on the steps it names (kit_arg_case). */
enum {
    RADIX_CASE_VALS_OUT_ANY = 0, /* keys only: vals_out ignored, whatever it points at */
    RADIX_CASE_EMPTY_RANGE,      /* begin_bit == end_bit: a copy */
    RADIX_CASE_KEYS_IN_MIS,
    RADIX_CASE_KEYS_OUT_MIS,
    RADIX_CASE_VALS_IN_MIS,
    RADIX_CASE_VALS_OUT_MIS,
    RADIX_CASE_SCRATCH_MIS,
    RADIX_CASE_BEGIN_NEG,
    RADIX_CASE_BEGIN_PAST_END,
    RADIX_CASE_END_PAST_BITS,
    RADIX_CASE_TYPE_BAD,
    RADIX_CASE_TYPE_U64,         /* a 64-bit type to a step that takes only 32-bit keys */
    RADIX_CASE_KEYS_IN_NULL,
    RADIX_CASE_KEYS_OUT_NULL,
    RADIX_CASE_VALS_OUT_NULL,
    RADIX_NCASES
};

static int shape_pairs(const kit_problem *P, int j, kit_shape *sh)
{
    sh->v[((const radix_problem_arg *)P->arg)->pairs_axis] = 1;
    return j == 0;
}
/* begin_bit == end_bit at 0, 16 and 32, keys and pairs */
static int shapes_empty_range(const kit_problem *P, int j, kit_shape *sh)
{
    const radix_problem_arg *a = (const radix_problem_arg *)P->arg;
    if (j >= 6) return 0;
    sh->v[a->pairs_axis] = j & 1;
    sh->v[a->begin_axis] = sh->v[a->end_axis] = 16 * (j / 2);
    return 1;
}

#define INVAL cudaErrorInvalidValue
#define MISAL cudaErrorMisalignedAddress
static const kit_arg_case radix_cases[RADIX_NCASES] = {
    [RADIX_CASE_VALS_OUT_ANY] = {"keys only, vals_out not NULL", "radix.h: vals_in == NULL: keys only (vals_out ignored)",
                                 cudaSuccess, NULL, NULL},
    [RADIX_CASE_EMPTY_RANGE] = {"begin_bit == end_bit", "radix.h: begin_bit == end_bit copies the input",
                                cudaSuccess, NULL, shapes_empty_range},
    [RADIX_CASE_KEYS_IN_MIS] = {"keys_in + 2 bytes", "radix.h: keys aligned to the key", MISAL, NULL, NULL},
    [RADIX_CASE_KEYS_OUT_MIS] = {"keys_out + 2 bytes", "radix.h: keys aligned to the key", MISAL, NULL, NULL},
    [RADIX_CASE_VALS_IN_MIS] = {"vals_in + 2 bytes", "radix.h: values at any 4-byte address", MISAL, NULL,
                                shape_pairs},
    [RADIX_CASE_VALS_OUT_MIS] = {"vals_out + 2 bytes", "radix.h: values at any 4-byte address", MISAL, NULL,
                                 shape_pairs},
    [RADIX_CASE_SCRATCH_MIS] = {"scratch + 16 bytes", "radix.h: scratch 256-byte aligned", MISAL, NULL, NULL},
    [RADIX_CASE_BEGIN_NEG] = {"begin_bit = -1", "radix.h: 0 <= begin_bit <= end_bit <= key bits", INVAL, NULL, NULL},
    [RADIX_CASE_BEGIN_PAST_END] = {"begin_bit > end_bit", "radix.h: 0 <= begin_bit <= end_bit <= key bits", INVAL,
                                   NULL, NULL},
    [RADIX_CASE_END_PAST_BITS] = {"end_bit = key bits + 1", "radix.h: 0 <= begin_bit <= end_bit <= key bits",
                                  INVAL, NULL, NULL},
    [RADIX_CASE_TYPE_BAD] = {"type = RADIX_NTYPES", "radix.h: a type the step does not take", INVAL, NULL, NULL},
    [RADIX_CASE_TYPE_U64] = {"type = RADIX_U64", "radix.h: a type the step does not take (radix_step.types)",
                             INVAL, "s0_split1,s1_satish,s2_srts,s3_rowdask", NULL},
    [RADIX_CASE_KEYS_IN_NULL] = {"keys_in NULL", "radix.h: a NULL buffer that is needed", INVAL, NULL, NULL},
    [RADIX_CASE_KEYS_OUT_NULL] = {"keys_out NULL", "radix.h: a NULL buffer that is needed", INVAL, NULL, NULL},
    [RADIX_CASE_VALS_OUT_NULL] = {"vals_out NULL with vals_in", "radix.h: a NULL buffer that is needed", INVAL,
                                  NULL, shape_pairs},
};

static void *plus(void *p, size_t bytes) { return p ? (char *)p + bytes : NULL; }

/* step i as argument case c makes the call (c < 0: the harness's default call) */
static cudaError_t run_case(const kit_ladder *L, size_t i, int c, int ph, void *const *dev, const kit_shape *sh,
                            void *scr, cudaStream_t s)
{
    const radix_step *st = &((const radix_step *)L->table)[i];
    const kit_problem *P = L->P;
    const int pairs = radix_shape_pairs(P, sh);
    void *keys_in = dev[RADIX_BUF_KEYS], *keys_out = dev[RADIX_BUF_KEYS_OUT];
    void *vals_in = pairs ? dev[RADIX_BUF_VALS] : NULL, *vals_out = pairs ? dev[RADIX_BUF_VALS_OUT] : NULL;
    int type = radix_shape_type(P, sh), begin = radix_shape_begin(P, sh), end = radix_shape_end(P, sh);
    (void)ph;
    switch (c) {
    case RADIX_CASE_VALS_OUT_ANY: vals_out = plus(dev[RADIX_BUF_KEYS], 1); break; /* never written */
    case RADIX_CASE_KEYS_IN_MIS: keys_in = plus(keys_in, 2); break;
    case RADIX_CASE_KEYS_OUT_MIS: keys_out = plus(keys_out, 2); break;
    case RADIX_CASE_VALS_IN_MIS: vals_in = plus(vals_in, 2); break;
    case RADIX_CASE_VALS_OUT_MIS: vals_out = plus(vals_out, 2); break;
    case RADIX_CASE_SCRATCH_MIS: scr = (char *)(scr ? scr : keys_out) + 16; break; /* any 256-misaligned address */
    case RADIX_CASE_BEGIN_NEG: begin = -1; break;
    case RADIX_CASE_BEGIN_PAST_END: begin = end + 1; break;
    case RADIX_CASE_END_PAST_BITS: end = radix_key_bits(type) + 1; break;
    case RADIX_CASE_TYPE_BAD: type = RADIX_NTYPES; break;
    case RADIX_CASE_TYPE_U64: type = RADIX_U64; break;
    case RADIX_CASE_KEYS_IN_NULL: keys_in = NULL; break;
    case RADIX_CASE_KEYS_OUT_NULL: keys_out = NULL; break;
    case RADIX_CASE_VALS_OUT_NULL: vals_out = NULL; break;
    default: break;
    }
    return st->run(keys_in, keys_out, (const uint32_t *)vals_in, (uint32_t *)vals_out, sh->n, type, begin, end,
                   scr, s);
}

static cudaError_t run(const kit_ladder *L, size_t i, int ph, void *const *dev, const kit_shape *sh,
                       void *scr, cudaStream_t s)
{
    return run_case(L, i, -1, ph, dev, sh, scr, s);
}

#define LADDER(ID, TITLE, TABLE, COUNT, PROBLEM)                                                  \
    {ID, TITLE, COUNT, TABLE, &PROBLEM, info, bytes, scratch, run, NULL, 0, NULL, NULL, NULL,       \
     radix_cases, RADIX_NCASES, run_case}

const kit_ladder radix_ladder =
    LADDER("radix", "LSD radix sort, 32-bit keys (and pairs)", radix_steps, RADIX_NSTEPS, radix_problem32);
const kit_ladder radix_ladder64 =
    LADDER("radix64", "LSD radix sort, 64-bit keys (and pairs)", radix_steps64, RADIX_NSTEPS64,
           radix_problem64);
const kit_ladder radix_srts_ladder = LADDER("radix-srts", "s2 (SRTS) kernels, digit bits 1..5",
                                            radix_srts_variants, RADIX_SRTS_NVARIANTS, radix_problem32);
const kit_ladder radix_rowdask_ladder = LADDER("radix-rowdask", "s3 (Row-DASk) kernels, nWarps x nWork",
                                               radix_rowdask_variants, RADIX_ROWDASK_NVARIANTS,
                                               radix_problem32);
const kit_ladder radix_onesweep_ladder = LADDER("radix-onesweep", "s5 (Onesweep) kernels, tiles and digits",
                                                radix_onesweep_variants, RADIX_ONESWEEP_NVARIANTS,
                                                radix_problem32);

const kit_ladder radix_onesweep64_ladder = LADDER("radix64-onesweep", "s5 (Onesweep) kernels on 64-bit keys",
                                                  radix_onesweep64_variants, RADIX_ONESWEEP64_NVARIANTS,
                                                  radix_problem64);

const kit_ladder radix_small_ladder = LADDER("radix-small", "s12's one-block tiles and grids",
                                             radix_small_variants, RADIX_SMALL_NVARIANTS, radix_problem32);
const kit_ladder radix_small64_ladder = LADDER("radix64-small", "s12's one-block tiles and grids, 64-bit keys",
                                               radix_small_variants, RADIX_SMALL_NVARIANTS, radix_problem64);
const kit_ladder radix_network_ladder = LADDER("radix-network", "s13's networks in other tiles",
                                               radix_network_variants, RADIX_NETWORK_NVARIANTS, radix_problem32);
const kit_ladder radix_network64_ladder = LADDER("radix64-network", "s13's networks in other tiles, 64-bit keys",
                                                 radix_network_variants, RADIX_NETWORK_NVARIANTS, radix_problem64);
const kit_ladder radix_cluster_ladder = LADDER("radix-cluster", "s14's networks over other clusters",
                                               radix_cluster_variants, RADIX_CLUSTER_NVARIANTS, radix_problem32);
const kit_ladder radix_cluster64_ladder = LADDER("radix64-cluster", "s14's networks over other clusters, 64-bit keys",
                                                 radix_cluster_variants, RADIX_CLUSTER_NVARIANTS, radix_problem64);

const kit_ladder *const radix_ladders[RADIX_NLADDERS] = {
    &radix_ladder,         &radix_ladder64,        &radix_srts_ladder,  &radix_rowdask_ladder,
    &radix_onesweep_ladder, &radix_onesweep64_ladder, &radix_small_ladder, &radix_small64_ladder,
    &radix_network_ladder, &radix_network64_ladder, &radix_cluster_ladder, &radix_cluster64_ladder,
};
