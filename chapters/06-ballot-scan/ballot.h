/* ballot.h - chapter 06: ballot-based binary scan (warp votes, lane masks, bit planes).
 *
 * Three kinds of tables, each a kit_ladder over a declared kit_problem (the harness does
 * the rest: allocation, guards, verification, timing, the contract suite):
 *   - the main ladder (steps.c): a device-wide binary prefix sum, flags -> exclusive offsets,
 *     the heart of stream compaction; one step per sK_*.cu file, CUB as the yardstick;
 *   - probes (probes.cu, probes_lanemask.cu, sort.cu): every warp and block primitive of
 *     the chapter, run over an input array by a small kernel that writes one result per
 *     element, so the tests can compare each primitive with the CPU at every block size,
 *     partial last warps and segmented inputs; the block radix sort (sort.cu: keys only,
 *     its own problem) is both a probe table and an experiment;
 *   - micro-benchmarks (micro.cu): the primitives on register-resident data, ITER calls per
 *     thread, many blocks in one launch: the per-block experiments of the documents.
 *
 * Flags are bytes holding 0 or 1 (the contract CUB also needs to produce the same sums).
 * Offsets are 32-bit: n must be at most BALLOT_MAX_N = 2^32 - 1, else cudaErrorInvalidValue
 * before any launch (the scan problem's max_n, which every main and lookback-table entry takes:
 * their max_n is 0; s0 .. s3's own checks of their tile grids, cudaErrorInvalidValue past
 * 2^31 - 1 tiles, are guards that cannot fire below it).
 * Alignment, every step and the CUB yardstick: flags at any byte address, offsets at any
 * 4-byte aligned address (else cudaErrorMisalignedAddress before any launch).  s2 and s3
 * (and the lookback table) read words of flags and store 16-byte vectors of offsets: when
 * flags are not 4-byte or offsets not 16-byte aligned they lay their tiles on a grid
 * shifted by flags % 4 and store vectors where the offsets allow it, rows through shared
 * memory where not (ballot_tile.cuh), with one more tile at most (scratch_bytes(n)
 * includes it).  Nothing outside [flags, flags + n) or [offsets, offsets + n) is touched.
 * n = 0 does nothing.  CUB: int count up to INT_MAX, 64-bit count (and a uint32 sum)
 * above; scratch_bytes(n) is the largest need over pointer alignments, and a run whose
 * call would need more returns cudaErrorInvalidValue before any launch, as does a run with
 * n > 0 and NULL scratch (CUB would take it for a size query).  The checks are made in this
 * order: n, offsets' alignment (ballot_check_args), then the yardstick's scratch.
 * Probes and the block sort (one thread per element, one block per tbs elements) take n up to
 * tbs x (2^31 - 1), their table entries' max_n, and refuse every n past it with
 * cudaErrorInvalidValue before the launch; the micro-benchmarks take n up to
 * tbs x BALLOT_ITER x (2^31 - 1) calls (their problems' max_n), likewise. */
#ifndef KIT_BALLOT_H
#define KIT_BALLOT_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ inputs */

typedef enum ballot_flag_kind {
    BALLOT_FLAGS_RANDOM = 0, /* each flag 1 with probability 1/2 */
    BALLOT_FLAGS_ZEROS,      /* all 0 */
    BALLOT_FLAGS_ONES,       /* all 1 */
    BALLOT_FLAGS_ALTERNATING,/* 0,1,0,1,... */
    BALLOT_FLAGS_SPARSE,     /* 1 with probability 1/16 */
    BALLOT_FLAGS_DENSE,      /* 1 with probability 15/16 */
    BALLOT_FLAGS_RUNS        /* runs of equal flags, lengths 1..100 */
} ballot_flag_kind;

typedef enum ballot_head_kind {
    BALLOT_HEADS_RANDOM = 0, /* a head with probability 1/8 */
    BALLOT_HEADS_NONE,       /* no head: one segment (per warp, for the warp probes) */
    BALLOT_HEADS_ALL,        /* every element a head: segments of length 1 */
    BALLOT_HEADS_PAIRS,      /* a head every other element: segments of length 2 */
    BALLOT_HEADS_LONG        /* segments of 32..200 elements */
} ballot_head_kind;

void ballot_fill_flags(uint8_t *f, size_t n, ballot_flag_kind k, uint64_t seed);
void ballot_fill_heads(uint8_t *h, size_t n, ballot_head_kind k, uint64_t seed);

/* The named inputs (ballot_inputs.c).  Flags -> offsets: one flag pattern each (arg: the
 * ballot_flag_kind; value: the expected fraction of 1 flags) - random, zeros, ones,
 * alternating, sparse, dense, runs.  Probes: a flag pattern, a head pattern and a kit word
 * pattern for the values, named after the combination:
 *   input            flags          heads              values (kit_fill_u32)
 *   random           random (1/2)   random (1/8)       uniform
 *   zeros            all 0          none               zeros
 *   all-heads        all 1          all (length 1)     identical
 *   pairs            0,1,0,1        pairs (length 2)   alternating
 *   long-segments    random         long (32..200)     low-entropy
 *   ones-long        all 1          long (32..200)     sorted
 *   dense            dense (15/16)  random             linear
 *   sparse-no-heads  sparse (1/16)  none               reverse
 *   runs             runs           random             few-unique
 * The fills write buffer 0 (flags) of the scan problem, and buffers 0, 1, 2 (flags, heads,
 * values) of the probe problem. */
#define BALLOT_FLAG_NINPUTS 7
#define BALLOT_PROBE_NINPUTS 9
extern const kit_input ballot_flag_inputs[BALLOT_FLAG_NINPUTS];
extern const kit_input ballot_probe_inputs[BALLOT_PROBE_NINPUTS];
void ballot_fill_scan(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                      uint64_t seed);
void ballot_fill_probe(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                       uint64_t seed);

/* ------------------------------------------------------- CPU baselines */

/* Binary prefix sums of 0/1 flags, restarting every `group` elements (0: never).
 * reverse: sums run from the end of each group; inclusive: count the element itself. */
void ballot_cpu_scan(const uint8_t *f, uint32_t *out, size_t n, size_t group, int reverse,
                     int inclusive);
/* The device-wide operation: forward exclusive offsets, eight flags per 64-bit word
 * (popcount and a multiply give eight prefix sums at once, the CPU's own "ballot"). */
void ballot_cpu_offsets_swar(const uint8_t *f, uint32_t *out, size_t n);
/* Forward segmented binary scan: a head flag starts a new segment; a segment also starts
 * every `group` elements (0: never). */
void ballot_cpu_segscan(const uint8_t *f, const uint8_t *heads, uint32_t *out, size_t n,
                        size_t group, int inclusive);
/* Forward scan of (v & mask) with 32-bit wrap-around, restarting every `group`. */
void ballot_cpu_scan_u32(const uint32_t *v, uint32_t *out, size_t n, size_t group,
                         uint32_t mask, int inclusive);
/* The same exclusive scan of bits-bit values, built as the documents do on the GPU: one
 * binary scan per bit plane, scaled by 2^bit and added (group 0: the whole array). */
void ballot_cpu_scan_bitplanes(const uint32_t *v, uint32_t *out, size_t n, int bits);
/* Each element gets the sum of (v & mask) over its group (binary: count of flags). */
void ballot_cpu_group_sum_u32(const uint32_t *v, uint32_t *out, size_t n, size_t group,
                              uint32_t mask);
void ballot_cpu_group_count(const uint8_t *f, uint32_t *out, size_t n, size_t group);
/* Split: stable partition of each group of values by its flags, 0-flagged first. */
void ballot_cpu_split(const uint8_t *f, const uint32_t *v, uint32_t *out, size_t n, size_t group);
/* Sort each group of keys (LSD radix, 8-bit digits). */
void ballot_cpu_sort_tiles(const uint32_t *v, uint32_t *out, size_t n, size_t group);

/* ------------------------------------------- the main ladder: flags -> offsets */

typedef cudaError_t (*ballot_scan_fn)(const uint8_t *flags, uint32_t *offsets, size_t n,
                                      void *scratch, cudaStream_t s);

typedef struct ballot_step {
    kit_step_info info;
    size_t (*scratch_bytes)(size_t n); /* NULL: no scratch */
    ballot_scan_fn run;
} ballot_step;

cudaError_t ballot_s0_rts32(const uint8_t *flags, uint32_t *offsets, size_t n, void *scratch,
                            cudaStream_t s);
size_t ballot_s0_scratch(size_t n);
cudaError_t ballot_s0_describe(kit_kernel_desc *d);
cudaError_t ballot_s1_rts_ballot(const uint8_t *flags, uint32_t *offsets, size_t n, void *scratch,
                                 cudaStream_t s);
size_t ballot_s1_scratch(size_t n);
cudaError_t ballot_s1_describe(kit_kernel_desc *d);
cudaError_t ballot_s2_rows(const uint8_t *flags, uint32_t *offsets, size_t n, void *scratch,
                           cudaStream_t s);
size_t ballot_s2_scratch(size_t n);
cudaError_t ballot_s2_describe(kit_kernel_desc *d);
cudaError_t ballot_s3_lookback(const uint8_t *flags, uint32_t *offsets, size_t n, void *scratch,
                               cudaStream_t s);
size_t ballot_s3_scratch(size_t n);
cudaError_t ballot_s3_describe(kit_kernel_desc *d);
extern const char ballot_s3_param[]; /* s3's knobs, beside their defines in s3_lookback.cu */

/* The checks every step makes before any launch: n <= BALLOT_MAX_N (32-bit offsets), else
 * cudaErrorInvalidValue; offsets aligned to their 4-byte element, else
 * cudaErrorMisalignedAddress (a uint32_t at any other address is not a uint32_t).  Flags
 * may start at any byte.  `aligned` is no longer used: s2 and s3 handle any flag address
 * and any 4-byte aligned offset address themselves (it stays for the callers). */
#define BALLOT_MAX_N ((size_t)0xFFFFFFFFu) /* 32-bit offsets: the scan problem's max_n */
static inline cudaError_t ballot_check_args(const void *flags, const void *offsets, size_t n,
                                            int aligned)
{
    (void)flags;
    (void)aligned;
    if ((uint64_t)n > (uint64_t)BALLOT_MAX_N) return cudaErrorInvalidValue;
    if (((uintptr_t)offsets & 3u) != 0) return cudaErrorMisalignedAddress;
    return cudaSuccess;
}

/* Exclusive scan, in place, of m per-tile counts (one block; the middle pass of s0..s2). */
cudaError_t ballot_scan_tile_sums(uint32_t *sums, size_t m, cudaStream_t s);

/* CUB yardstick (chapters/06-ballot-scan/yardsticks.cu): cub::DeviceScan::ExclusiveSum on the same
 * byte flags, int32 offsets out. */
cudaError_t ballot_yard_cub_scan(const uint8_t *flags, uint32_t *offsets, size_t n, void *scratch,
                            cudaStream_t s);
size_t ballot_yard_cub_scratch(size_t n);

#define BALLOT_NSTEPS 5
#define BALLOT_LOOKBACK_NVARIANTS 36 /* s3: block 128/256/512 x rows 4/8/16 x row scan x store */
extern const ballot_step ballot_steps[BALLOT_NSTEPS];
extern const ballot_step ballot_lookback_variants[BALLOT_LOOKBACK_NVARIANTS];

/* ------------------------------------------------------------- probes */

/* What a probe computes for element i (its group: the warp or the block it falls in). */
typedef enum ballot_op {
    BALLOT_OP_SCAN32_INCL = 0, /* inclusive scan of vals within the group */
    BALLOT_OP_FWD_EXCL,        /* binary scans of flags: forward exclusive (lanemask_lt) */
    BALLOT_OP_FWD_INCL,        /* forward inclusive (lanemask_le) */
    BALLOT_OP_REV_INCL,        /* reverse inclusive (lanemask_ge) */
    BALLOT_OP_REV_EXCL,        /* reverse exclusive (lanemask_gt) */
    BALLOT_OP_SEG_INCL,        /* forward inclusive segmented binary scan (heads) */
    BALLOT_OP_BITS_EXCL,       /* exclusive scan of vals & (2^bits - 1) */
    BALLOT_OP_BSCAN32,         /* block exclusive scan of vals: excl + total * BALLOT_TOTAL_MUL */
    BALLOT_OP_BSCAN_BIN,       /* block exclusive binary scan: excl | total << 16 */
    BALLOT_OP_BCOUNT,          /* block count of flags, in every element */
    BALLOT_OP_BSUM32,          /* block sum of vals, in every element */
    BALLOT_OP_SPLIT,           /* stable partition of vals by flags within the block, 0s first */
    BALLOT_OP_SORT             /* sort vals within the block */
} ballot_op;

#define BALLOT_TOTAL_MUL 0x9E3779B1u

typedef struct ballot_probe_in {
    const uint8_t *flags;
    const uint8_t *heads;
    const uint32_t *vals;
} ballot_probe_in;

typedef cudaError_t (*ballot_probe_fn)(const ballot_probe_in *in, uint32_t *out, size_t n,
                                       cudaStream_t s);

typedef struct ballot_probe {
    kit_step_info info;
    ballot_probe_fn run;
    int op;             /* ballot_op: selects the CPU reference */
    int group;          /* 32 for warp primitives, the block size for block primitives */
    int bits;           /* value bits for BALLOT_OP_BITS_EXCL, else 0 */
} ballot_probe;

/* The CPU reference of a probe (reads the inputs it needs). */
void ballot_cpu_probe(const ballot_probe *p, const uint8_t *flags, const uint8_t *heads,
                      const uint32_t *vals, uint32_t *want, size_t n);

#define BALLOT_PROBE_NVARIANTS 70
#define BALLOT_SORT_NVARIANTS 12 /* ballot / scan32-shfl / scan32-smem x block 128..1024 */
extern const ballot_probe ballot_probes[BALLOT_PROBE_NVARIANTS];
extern const ballot_probe ballot_sort_variants[BALLOT_SORT_NVARIANTS];
/* index of the first probe whose name and param match, or -1 (tests use it) */
int ballot_probe_find(const kit_ladder *L, const char *name, const char *param);

/* ------------------------------------------------------ micro-benchmarks */

/* Every thread of every block runs BALLOT_ITER calls of a primitive on values drawn from the
 * same input tile (so all blocks compute the same thing), folding the results into one
 * word per thread: acc = acc * BALLOT_TOTAL_MUL + result.  n counts primitive calls per
 * element: grid = ceil(n / (block * BALLOT_ITER)). */
#define BALLOT_ITER 32
#define BALLOT_TILE_WORDS 8 /* words of input per thread: 32 values of up to 8 bits */

typedef enum ballot_micro_op {
    BALLOT_MR_COUNT = 0, /* block reduce of 1-bit values: __syncthreads_count */
    BALLOT_MR_SMEM,      /* 32-bit block reduce, shared-memory tree (Harris 2007) */
    BALLOT_MR_SHFL,      /* 32-bit block reduce, warp shuffles */
    BALLOT_MR_REDUX,     /* 32-bit block reduce, __reduce_add_sync (sm_80+) */
    BALLOT_MS_32SMEM,    /* block exclusive scan of 1-bit values: 32-bit smem warp scans */
    BALLOT_MS_BINSMEM,   /* ballot warp scans, totals by a 32-bit smem warp scan (Listing 3.6) */
    BALLOT_MS_32SHFL,    /* 32-bit shuffle warp scans */
    BALLOT_MS_BINSHFL,   /* ballot warp scans, totals by a shuffle warp scan */
    BALLOT_MS_BINBP,     /* ballot warp scans, totals by 6 bit planes (poster 000) */
    BALLOT_MW_BITPLANE,  /* warp exclusive scan of bits-bit values: one ballot per bit */
    BALLOT_MW_SHFL,      /* the same with a 32-bit shuffle warp scan */
    BALLOT_MW_SMEM       /* the same with a 32-bit padded shared-memory warp scan */
} ballot_micro_op;

typedef cudaError_t (*ballot_micro_fn)(const uint32_t *tile, uint32_t *out, unsigned grid,
                                       cudaStream_t s);

typedef struct ballot_micro {
    kit_step_info info;
    ballot_micro_fn run;
    int op;   /* ballot_micro_op */
    int tbs;  /* threads per block */
    int bits; /* value bits (1 for the block primitives) */
} ballot_micro;

/* CPU reference: the per-thread accumulators of one block (tbs words) from the tile
 * (word k of thread t at tile[k * tbs + t]). */
void ballot_cpu_micro(int op, int tbs, int bits, const uint32_t *tile, uint32_t *acc);

#define BALLOT_MREDUCE_NVARIANTS 4
#define BALLOT_MSCAN_NVARIANTS 5
#define BALLOT_MBITS_NVARIANTS 24 /* bits 1..8 x bitplane / shfl / smem */
extern const ballot_micro ballot_mreduce_variants[BALLOT_MREDUCE_NVARIANTS];
extern const ballot_micro ballot_mscan_variants[BALLOT_MSCAN_NVARIANTS];
extern const ballot_micro ballot_mbits_variants[BALLOT_MBITS_NVARIANTS];

/* ------------------------------------------------- problems and ladders (steps.c) */

/* flags (n bytes, 0 or 1) -> offsets (n words, exclusive prefix sums); inputs:
 * ballot_flag_inputs; CPU baselines "serial" and "swar64"; n < 2^32. */
extern const kit_problem ballot_scan_problem;
/* flags, heads (n bytes each), vals (n words) -> out (n words, one result per element);
 * inputs: ballot_probe_inputs; each probe has its own reference (ballot_cpu_probe). */
extern const kit_problem ballot_probe_problem;
/* keys (n words) -> out (n words, sorted within each block); inputs: the kit's word
 * patterns; each block size has its own reference (tiles of that size). */
extern const kit_problem ballot_sort_problem;
/* Micro-benchmarks: tile (BALLOT_TILE_WORDS x 1024 words, the same for every n) -> out
 * (grid x tbs accumulators, grid = ceil(n / (tbs x BALLOT_ITER))); n counts primitive
 * calls; inputs: the kit's word patterns (the tile's words); the reference of each variant
 * is its per-block answer (ballot_cpu_micro) in every block.  One problem per table (the
 * output's size follows the table's block size). */
extern const kit_problem ballot_mreduce_problem, ballot_mscan_problem, ballot_mbits_problem;

extern const kit_ladder ballot_ladder;          /* the main ladder + CUB */
extern const kit_ladder ballot_lookback_ladder; /* s3 tuning table */
extern const kit_ladder ballot_probe_ladder;    /* every primitive, every block size */
extern const kit_ladder ballot_sort_ladder;     /* block radix sort: ballot vs 32-bit scans */
extern const kit_ladder ballot_mreduce_ladder;  /* Fig. 3.1 */
extern const kit_ladder ballot_mscan_ladder;    /* Fig. 3.2 */
extern const kit_ladder ballot_mbits_ladder;    /* bit planes vs generic warp scans */

/* all of them, the main ladder first */
#define BALLOT_NLADDERS 7
extern const kit_ladder *const ballot_ladders[BALLOT_NLADDERS];

#ifdef __cplusplus
}
#endif
#endif
