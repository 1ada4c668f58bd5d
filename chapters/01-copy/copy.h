/* copy.h - chapter 01: copy and the data access skeletons (DASks).
 * Every step copies n 32-bit words from in to out on a stream, asynchronously.
 *
 * Contract of every step, its tuning-table variants and the MAP primitives:
 *   alignment  in and out at any 4-byte aligned address (a uint32_t's), each
 *              independently of the other.  s6_hopper (16-byte accesses) picks
 *              its path per launch: both 16-byte aligned: the vector kernel; equal
 *              misalignment (in % 16 == out % 16): the same kernel after 1..3
 *              head words; different misalignment: a 4-byte copy.  s6 refuses a
 *              pointer that is not 4-byte aligned with cudaErrorMisalignedAddress
 *              before any launch; the 4-byte steps do not check it (C already
 *              requires a uint32_t * to be aligned).
 *   size       n = 0 does nothing.  No step overflows for any n that fits in
 *              memory; a grid may not exceed 2^31 - 1 blocks, so the one-block-
 *              per-data-block steps have a largest n, the step table's max_n (the
 *              COPY_*_MAX_N below), and refuse every n past it with
 *              cudaErrorInvalidValue before any launch, whatever the pointers:
 *              s0: 32 x (2^31 - 1); s1, s2, s3 (ladder): 512 x (2^31 - 1);
 *              s3 tables: tbs x nWork x (2^31 - 1); s6 and its tables:
 *              min(4 x tbs x nvec x (2^31 - 1) + 3, 1024 x (2^31 - 1)), the smallest
 *              over its paths (16-byte vectors: tbs x nvec vectors per block, and
 *              with both pointers 16-byte aligned the 3 words past the last vector
 *              ride along; differently misaligned: 1024 words per block), so
 *              512 x (2^31 - 1) + 3 for the table's two tbs 128 x nvec 1 entries and
 *              1024 x (2^31 - 1) for every other (the ladder step: tbs 256, nvec 1);
 *              map_fill, map_gather, map_scatter: 1024 x (2^31 - 1).  s4, s5 and
 *              cudaMemcpy have none (max_n 0, and COPY_MAX_N is 0: no limit).
 *              (The smallest, s0's 32 x (2^31 - 1) words, is just under 256 GiB: more
 *              than any GPU holds.) */
#ifndef KIT_COPY_H
#define KIT_COPY_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef cudaError_t (*copy_run_fn)(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                   cudaStream_t s);

typedef struct copy_step {
    kit_step_info info;
    size_t (*scratch_bytes)(size_t n); /* NULL: no scratch */
    copy_run_fn run;
} copy_step;

/* ---- CPU baselines (copy_cpu.c) */
void copy_cpu_loop(const uint32_t *in, uint32_t *out, size_t n);
void copy_cpu_memcpy(const uint32_t *in, uint32_t *out, size_t n);

/* ---- the ladder, one file per step */
cudaError_t copy_s0_simple(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);
cudaError_t copy_s0_describe(kit_kernel_desc *d);
cudaError_t copy_s1_block_dask(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);
cudaError_t copy_s1_describe(kit_kernel_desc *d);
cudaError_t copy_s2_unroll(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);
cudaError_t copy_s2_describe(kit_kernel_desc *d);
cudaError_t copy_s3_batch(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);
cudaError_t copy_s3_describe(kit_kernel_desc *d);
cudaError_t copy_s4_column_dask(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);
cudaError_t copy_s4_describe(kit_kernel_desc *d);
cudaError_t copy_s5_row_dask(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);
cudaError_t copy_s5_describe(kit_kernel_desc *d);
cudaError_t copy_s6_hopper(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);
cudaError_t copy_s6_describe(kit_kernel_desc *d);

/* Row DASk over an arbitrary inclusive range: out[start..stop] = in[start..stop];
 * nothing outside the range is read or written. stop < start copies nothing. */
cudaError_t copy_row_dask_range(const uint32_t *in, uint32_t *out, size_t start, size_t stop,
                                cudaStream_t s);

/* ---- yardstick (yardsticks.cu): cudaMemcpyAsync device to device (no scratch) */
cudaError_t copy_yard_memcpy(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s);

/* ---- step tables (steps.c, and the tuning tables beside their kernels) */
#define COPY_NSTEPS 8
#define COPY_ILP_NVARIANTS 80    /* s3 kernel: nWork 1..16 x batch interleaved,2,4,8,16 */
#define COPY_TBS_NVARIANTS 32    /* s3 kernel: block size 32..1024 step 32 */
#define COPY_RES_NVARIANTS 16    /* s3 kernel: forced resident blocks per SM 1..16 */
#define COPY_HOPPER_NVARIANTS 32 /* s6 kernel: block size x vectors per thread x hint */
extern const copy_step copy_steps[COPY_NSTEPS];
extern const copy_step copy_ilp_variants[COPY_ILP_NVARIANTS];
extern const copy_step copy_tbs_variants[COPY_TBS_NVARIANTS];
extern const copy_step copy_res_variants[COPY_RES_NVARIANTS];
extern const copy_step copy_hopper_variants[COPY_HOPPER_NVARIANTS];

/* ---- MAP primitives (map.cu): fill, gather, scatter with an index map */
cudaError_t map_fill(uint32_t *out, uint32_t value, size_t n, cudaStream_t s);
cudaError_t map_gather(const uint32_t *in, const uint32_t *idx, uint32_t *out, size_t n, cudaStream_t s);
cudaError_t map_scatter(const uint32_t *in, const uint32_t *idx, uint32_t *out, size_t n, cudaStream_t s);
cudaError_t map_fill_describe(kit_kernel_desc *d);
cudaError_t map_gather_describe(kit_kernel_desc *d);
cudaError_t map_scatter_describe(kit_kernel_desc *d);
void map_cpu_gather(const uint32_t *in, const uint32_t *idx, uint32_t *out, size_t n);
void map_cpu_scatter(const uint32_t *in, const uint32_t *idx, uint32_t *out, size_t n);

/* ---- size limits: the largest n of the steps that launch one block per data block (their
 * step table entries' max_n, and what each step's run checks; see `size` above) */
#define COPY_GRID_MAX ((size_t)0x7FFFFFFF) /* blocks in a grid: 2^31 - 1 */
/* one block per `words` words */
#define COPY_BLOCKS_MAX_N(words) ((size_t)(words) * COPY_GRID_MAX)
#define COPY_S0_MAX_N COPY_BLOCKS_MAX_N(32)          /* 32 threads x 1 word */
#define COPY_BLOCK_DASK_MAX_N COPY_BLOCKS_MAX_N(512) /* s1, s2, s3: 128 threads x nWork 4 */
/* s1's shape: its kernel (the exercise's device-only file, $(IMPL)/01-copy/s1_block_dask.cu) and
 * its launcher (s1_launch.c, the kit's) agree on it through these */
#define COPY_S1_TBS 128
#define COPY_S1_NWORK 4
/* s6's kernel at tbs threads x nvec vectors: the smaller of its vector path (aligned pointers,
 * the smallest over alignments: 4 x tbs x nvec x (2^31 - 1) + 3) and its 4-byte path (1024 words
 * per block) */
#define COPY_S6_MAX_N(tbs, nvec)                                                                  \
    (4 * (size_t)(tbs) * (nvec) < 1024 ? COPY_BLOCKS_MAX_N(4 * (size_t)(tbs) * (nvec)) + 3       \
                                       : COPY_BLOCKS_MAX_N(1024))
#define COPY_S6_STEP_MAX_N COPY_S6_MAX_N(256, 1) /* the ladder step: tbs 256, nvec 1 */
#define COPY_MAP_MAX_N COPY_BLOCKS_MAX_N(1024)   /* map_fill, map_gather, map_scatter: 256 x 4 */

/* ---- the problem and ladders for the harness (steps.c) */
#define COPY_MAX_N 0 /* no limit but memory: sizes and indices are 64-bit */
extern const kit_problem copy_problem;    /* in -> out, n words */
extern const kit_ladder copy_ladder;      /* the main ladder + cudaMemcpy */
extern const kit_ladder copy_ilp_ladder;
extern const kit_ladder copy_tbs_ladder;
extern const kit_ladder copy_res_ladder;
extern const kit_ladder copy_hopper_ladder;
extern const kit_ladder copy_map_ladder;  /* fill, copy, gather, scatter x identity/random map */
#define COPY_NLADDERS 6
extern const kit_ladder *const copy_ladders[COPY_NLADDERS]; /* all of them, the main one first */

#ifdef __cplusplus
}
#endif
#endif
