/* kit.h - the course kit's shared harness: errors, device facts, step metadata,
 * timing, verification, seeded inputs, benchmark CSVs and the generic "ladder"
 * that lets one bench/demo/test/sanitize driver serve every chapter.
 *
 * Library code here never prints for the caller and never exits: every
 * function that can fail returns a cudaError_t (host-side failures map to
 * cudaErrorMemoryAllocation or cudaErrorInvalidValue) or a 0/1 verdict with a
 * message buffer.  Only programs (chNN, the test runner, the grader) print;
 * the bench drivers they call (kit_progress, kit_ladder_sweep/point) write
 * progress and per-step failures on stderr, and kit_chapter_main is the
 * chapter program itself.
 */
#ifndef KIT_H
#define KIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors */

/* Evaluate a CUDA call; on failure return its error from the enclosing
 * function (which must return cudaError_t). */
#define KIT_TRY(...)                                                         \
    do {                                                                     \
        cudaError_t kit_e_ = (__VA_ARGS__);                                  \
        if (kit_e_ != cudaSuccess) return kit_e_;                            \
    } while (0)

/* Qualifier for small functions shared by C host code and CUDA kernels. */
#ifdef __CUDACC__
#define KIT_HD __host__ __device__
#else
#define KIT_HD
#endif

#define KIT_MSG 512 /* size of the message buffers used across the kit */

/* ---------------------------------------------------------------- device */

typedef struct kit_device {
    int ordinal;
    char name[256];
    int cc_major, cc_minor;
    int sms;                 /* multiprocessors */
    int max_threads_sm;      /* resident threads per SM */
    int max_blocks_sm;       /* resident blocks per SM */
    size_t l2_bytes;
    size_t gmem_bytes;
    size_t smem_per_sm;      /* shared memory per SM */
    size_t smem_block_optin; /* largest dynamic shared memory a block may opt into */
    int regs_sm;             /* 32-bit registers per SM */
    const char *profile;     /* KIT_DEVICE's profile when one is active (the limits above are its), else NULL */
} kit_device;

/* KIT_DEVICE=t4|a100|rtx3090|l4|rtx4090|h100|b200 (device.c): the published limits of that GPU
 * (SMs, shared memory per SM and per block, registers, resident threads and blocks per SM, L2,
 * memory) replace the real GPU's where they are smaller, in kit_device_get and in every launch
 * decision made through the calls below, so that the kit runs, on the GPU at hand, the grids,
 * tiles and residencies it would choose on that GPU.  Clocks, bandwidth, caches and instruction
 * timing stay the real GPU's (docs/gpu-setup.md).  Unknown names are an error. */
typedef struct kit_profile {
    const char *name, *gpu;
    int cc_major, cc_minor, sms, max_threads_sm, max_blocks_sm, regs_sm;
    size_t smem_per_sm, smem_block_optin, l2_bytes, gmem_bytes;
    double bandwidth_gbs; /* published peak */
} kit_profile;
extern const kit_profile kit_profiles[];
extern const size_t kit_nprofiles;
/* The profile KIT_DEVICE names (NULL when unset); *bad = 1 when it names none (then NULL). */
const kit_profile *kit_profile_active(int *bad);
/* Resident blocks per SM of kernel at threads per block and dyn_smem bytes of dynamic shared
 * memory: the occupancy API's answer, clamped to the profile's limits (threads, blocks, shared
 * memory with 1 KB reserved per block, registers).  0 when one block does not fit. */
cudaError_t kit_occupancy(int *per_sm, const void *kernel, int threads, size_t dyn_smem);
/* The shared memory a resident block of block_smem bytes (static + dynamic) takes from its SM on d:
 * its own, plus the 1 KB the driver reserves per block from Ampere (sm_80) on. */
size_t kit_block_smem_on_sm(const kit_device *d, size_t block_smem);
/* Let kernel use dyn_smem bytes of dynamic shared memory (the opt-in past 48 KB); refused with
 * cudaErrorInvalidValue, and the reason kept for kit_unsupported(), when static plus dynamic
 * shared memory passes this device's (or profile's) per-block limit. */
cudaError_t kit_smem_optin(const void *kernel, size_t dyn_smem);
/* The reason the last launch decision found a kernel that cannot run on this device (a block
 * that does not fit), then forgotten; NULL when there is none. */
const char *kit_unsupported(void);
void kit_set_unsupported(const char *fmt, ...);

/* 1 when a usable CUDA device is present; else 0 and a reason in why
 * ("no CUDA device: ..."). Safe to call on machines without a driver. */
int kit_gpu_available(char *why, size_t len);
/* Facts about the current device, queried once per process. */
cudaError_t kit_device_get(const kit_device **d);
/* Multiprocessor count of the current device (kit_device_get), or 0 on error. */
int kit_sm_count(void);
/* After a failed CUDA call: clear a non-sticky error and wait for the device;
 * 1 when the context is still usable, 0 after a sticky error (give up). */
int kit_recover(void);

/* ------------------------------------------------------------ step table */

typedef enum kit_step_kind {
    KIT_STEP_GPU = 0,       /* a rung of the ladder: our own kernel(s) */
    KIT_STEP_YARDSTICK = 1  /* what a user would pick instead (cudaMemcpy, CUB) */
} kit_step_kind;

/* The kernel that does most of a step's work, for the demo's resource columns. */
typedef struct kit_kernel_desc {
    const void *func;   /* __global__ function address */
    int block_threads;  /* threads per block it is launched with */
    size_t dyn_smem;    /* dynamic shared memory per block */
} kit_kernel_desc;

/* What every step of every chapter says about itself. */
typedef struct kit_step_info {
    const char *name;     /* short id, e.g. "s3_batch" */
    const char *param;    /* compile-time knobs, e.g. "nWork=4 batch=4 tbs=128" */
    const char *what;     /* one line: what changed versus the previous step */
    const char *file;     /* source file, relative to the repository root;
                             "$(IMPL)/..." for exercise steps */
    const char *exercise; /* exercise id when the step is an exercise, else NULL */
    kit_step_kind kind;
    cudaError_t (*describe)(kit_kernel_desc *d); /* NULL when there is no single kernel */
    unsigned flags;       /* KIT_TIMING_ONLY, KIT_UNORDERED, KIT_OWN_ORDER (0 for most steps) */
    size_t max_n;         /* largest n the step takes (0: its problem's max_n); past it the
                             step returns cudaErrorInvalidValue before any launch */
} kit_step_info;

/* A variant timed for a comparison only (e.g. a kernel with a safety pass removed):
 * verified and reported, but its result may be wrong by design. */
#define KIT_TIMING_ONLY 1u
/* The step's output order is not the CPU's (atomics): the problem's compare() checks it
 * as a set.  Steps without it must keep the CPU's order. */
#define KIT_UNORDERED 2u
/* The step's output is fully ordered, but in an order of its own that the problem's compare()
 * knows and its header documents (chapter 05's CUB yardsticks: -0.0 and +0.0 are equal keys). */
#define KIT_OWN_ORDER 4u

/* ---------------------------------------------------------------- timing */

typedef struct kit_timing {
    double ms_median;
    double ms_min;
    int reps;
} kit_timing;

/* A timed region: enqueue one run on stream s. rep counts 0,1,2,... so the
 * callee can rotate among input copies. Must not synchronize or allocate. */
typedef cudaError_t (*kit_launch_fn)(void *arg, int rep, cudaStream_t s);

/* warmup untimed runs, then reps runs each bracketed by its own pair of
 * events; one synchronization at the end. */
cudaError_t kit_time_gpu(kit_launch_fn f, void *arg, cudaStream_t s, int warmup, int reps,
                         kit_timing *t);
/* Wall-clock timing of a host function: at least 1 run, at most reps, and
 * stops early once max_seconds have been spent. */
void kit_time_cpu(void (*f)(void *), void *arg, int reps, double max_seconds, kit_timing *t);
/* Median of v[0..n) (v is reordered). */
double kit_median(double *v, int n);
double kit_wall_seconds(void);

/* ---------------------------------------------------------- verification */

/* Byte used to poison outputs before a verified run (0xA5A5A5A5 as a word). */
#define KIT_POISON_BYTE 0xA5
cudaError_t kit_poison(void *dev, size_t bytes, cudaStream_t s);

/* Return 1 when equal; else 0 and "first mismatch at i: got X, want Y (k of n
 * differ)" in msg. */
int kit_cmp_u32(const uint32_t *got, const uint32_t *want, size_t n, char *msg, size_t len);
int kit_cmp_u8(const uint8_t *got, const uint8_t *want, size_t n, char *msg, size_t len);
/* |got-want| <= tol * max(1, |want|) elementwise; NaN never passes. */
int kit_cmp_f32(const float *got, const float *want, size_t n, double tol, char *msg,
                size_t len);
/* Every word of a[0..n) equals the poison word (used to check guard zones). */
int kit_all_poison_u32(const uint32_t *a, size_t n, char *msg, size_t len);
/* a[0..n) in ascending order (tmp: n words of scratch): a stable LSD sort, threaded from 2^22
 * words on, for comparing outputs as multisets.  0, or -1 when out of memory. */
int kit_sort_u32(uint32_t *a, uint32_t *tmp, size_t n);

/* count device buffers of alloc_bytes each (>= bytes), the first bytes of
 * each a copy of host (when host is not NULL).  On failure the buffers made so
 * far are still in *bufs: release with kit_dev_free_copies(*bufs, count). */
cudaError_t kit_dev_copies(void ***bufs, int count, const void *host, size_t bytes,
                           size_t alloc_bytes);
void kit_dev_free_copies(void **bufs, int count);
/* Copy device memory to the host on stream s and wait for it. */
cudaError_t kit_fetch(void *host, const void *dev, size_t bytes, cudaStream_t s);
/* Host memory for a buffer of tens of GB (the contract's 2^31-element runs): from 64 MiB on,
 * aligned to 2 MiB with huge pages asked for, and zeroed by up to 16 threads at once, so that the
 * page faults of the first touch are paid in parallel rather than by a single-threaded fill.
 * NULL when out of memory; release with free(). */
void *kit_host_alloc(size_t bytes);
/* Host work split over threads: fn(arg, k, parts) for k = 0 .. parts - 1, part 0 on the calling
 * thread, the others on their own threads (at most KIT_HOST_MAX_THREADS parts; a thread that
 * cannot be started has its part run by the caller), all finished on return.
 * kit_host_threads(): the online processors, 1 to KIT_HOST_MAX_THREADS (reference answers and
 * checks use them; CPU baselines stay on one core). */
#define KIT_HOST_MAX_THREADS 16
int kit_host_threads(void);
/* How many parts host work over n elements is worth cutting into: 1 below 2^22 (starting threads
 * would cost more than they save), kit_host_threads() from there on. */
int kit_host_parts(size_t n);
void kit_host_parallel(void (*fn)(void *arg, int part, int parts), void *arg, int parts);
/* (Where each part starts, and the offsets of a counting pass cut into parts: kit_parts.h.) */

/* ---------------------------------------------------------------- inputs */

typedef enum kit_pattern {
    KIT_UNIFORM = 0, /* uniform random words */
    KIT_ZEROS,       /* all zero */
    KIT_LINEAR,      /* 0,1,2,... */
    KIT_LOW_ENTROPY, /* AND of three random words: biased towards zero bits */
    KIT_IDENTICAL,   /* one random value repeated */
    KIT_SORTED,      /* non-decreasing random */
    KIT_REVERSE,     /* non-increasing */
    KIT_FEW_UNIQUE,  /* drawn from 16 distinct values */
    KIT_ALTERNATING, /* 0, ~0, 0, ~0, ... */
    KIT_PATTERN_COUNT
} kit_pattern;

const char *kit_pattern_name(kit_pattern p);
/* 1 and *p set when name is a known pattern, else 0. */
int kit_pattern_parse(const char *name, kit_pattern *p);
/* splitmix64: a tiny, good, seedable generator (state advances). */
uint64_t kit_rand64(uint64_t *state);
void kit_fill_u32(uint32_t *a, size_t n, kit_pattern p, uint64_t seed);
/* A seeded uniformly random permutation of 0..n-1 (Fisher-Yates). */
void kit_permutation(uint32_t *perm, size_t n, uint64_t seed);

/* Byte inputs (8-bit samples, e.g. histograms): the byte version of each
 * pattern.  uniform: random bytes; zeros; linear: i mod 256; low-entropy: the
 * bytes of the AND of three random words (each bit is 1 with probability 1/8);
 * identical: one random byte; sorted / reverse: a ramp over 0..255 rising /
 * falling across the array; few-unique: 16 random values; alternating: 0x00,
 * 0xFF, ...  Same seed, same bytes. */
void kit_fill_u8(uint8_t *a, size_t n, kit_pattern p, uint64_t seed);

/* ---------------------------------------------------------------- parsing */

/* Parse a size such as "1000", "2^24", "1<<20", "16M", "4k" into *n.
 * Return 1 on success, 0 on bad input (message in msg). */
int kit_parse_size(const char *s, size_t *n, char *msg, size_t len);
/* name is one of the comma-separated names of list (NULL: every name is) */
int kit_name_in_list(const char *list, const char *name);
/* Format n compactly: "2^24" for powers of two, "2^20+7" near them, else decimal. */
const char *kit_size_str(size_t n, char *buf, size_t len);

/* Dynamic shared memory (>= need) that lets at most R blocks of kernel (at this
 * block size) reside on an SM, as close to exactly R as the hardware allows;
 * raises the kernel's dynamic shared-memory limit as needed. */
cudaError_t kit_force_residency(const void *kernel, int threads, size_t need, int R, size_t *bytes);

/* --------------------------------------------------------- problems */

/* A ladder solves one *problem*: what goes in and comes out (buffers), how inputs are
 * generated (named inputs), its shape beyond n (axes), what it counts (metric), its timed
 * phases, its CPU reference and its CPU baselines.  Steps differ only in how they run.
 * From this declaration the harness does allocation, poison, guard zones, L2 rotation,
 * verify-then-time, time budgets, per-input sweeps, the CSV and the contract suite
 * (docs/architecture.md has a worked example). */

#define KIT_MAX_AXES 4
#define KIT_MAX_BUFS 8
#define KIT_MAX_PHASES 4

/* The problem's size: n (its main count) and the values of its other axes, in the order
 * the problem declares them. */
typedef struct kit_shape {
    size_t n;
    double v[KIT_MAX_AXES];
} kit_shape;

/* An axis beyond n: e.g. queries, k, dim, key type, pairs, selection fraction p. */
typedef struct kit_axis {
    const char *name;           /* command-line flag --NAME and CSV "shape" key */
    const char *what;           /* one line for --help */
    double def;                 /* default value */
    double lo, hi;              /* accepted range */
    const char *const *labels;  /* NULL, or names of the values 0, 1, ... (NULL-terminated) */
} kit_axis;

/* A named input: e.g. "uniform", "image-dark", "p=0.50".  arg is the problem's own id
 * (a kit_pattern, an image kind ...), read by its fill(). */
typedef struct kit_input {
    const char *name;
    const char *what;
    int arg;
    double value; /* a number the input carries (e.g. a density), for fill() */
} kit_input;

typedef enum kit_role { KIT_IN = 0, KIT_OUT = 1 } kit_role;

/* A buffer of the problem.  Inputs are filled on the host and copied to the device
 * (rotated for timing); outputs are poisoned, surrounded by guard zones, fetched and
 * compared.  count(sh) elements of elem bytes; NULL count means sh->n elements. */
typedef struct kit_buffer {
    const char *name;
    kit_role role;
    size_t elem;
    size_t (*count)(const kit_shape *sh);
} kit_buffer;

typedef struct kit_problem kit_problem;
typedef struct kit_ladder kit_ladder;

/* A call that a step's header allows or refuses beyond the one the harness makes by default:
 * a pointer the header says may be NULL, an alias it allows (queries == points), a misaligned
 * pointer or an argument out of range that it refuses.  Each chapter lists its cases in one
 * table beside its step table (kit_ladder.cases), and its run_case() makes call c; the contract
 * suite (kit_contract_step with kit_contract_opts.arg_case) tries every case on every step it
 * applies to:
 *   want == cudaSuccess: an allowed call.  It keeps the whole contract (guards, exact scratch,
 *     inputs unchanged, a second run on dirty scratch) and writes the reference's bytes.
 *   want != cudaSuccess: a refusal.  Some phase returns exactly want (the phases before it
 *     cudaSuccess, none after it is called), no launch error is left behind, and every output
 *     and guard still holds its poison: nothing was launched that wrote. */
typedef struct kit_arg_case {
    const char *name;   /* short, for messages: "queries NULL" */
    const char *header; /* the header's promise it tests, in a few words: "knn.h: all = 1: ..." */
    cudaError_t want;   /* cudaSuccess, or the code the header names for the refusal */
    const char *steps;  /* the steps it applies to, comma-separated names ("!a,b": every step but
                           a and b); NULL: every step */
    /* shape j = 0, 1, ... of the case, made from the default shape in *sh (n already set):
     * 1, or 0 past its last shape.  NULL: the default shape alone. */
    int (*shape)(const kit_problem *P, int j, kit_shape *sh);
} kit_arg_case;

/* Host views of the buffers, in declaration order: in[k] for inputs, and for outputs
 * the CPU reference (want) or what a step wrote (got). */
typedef struct kit_host {
    void *buf[KIT_MAX_BUFS];
} kit_host;

/* A CPU baseline: computes the outputs from the inputs in h (both in h->buf).  Only name and
 * run are required; the other fields default to 0 / NULL. */
typedef struct kit_cpu {
    const char *name;
    /* NULL: the baseline is absent from this build (e.g. a library that was not found): its
     * rows are written untimed, verified = "absent", param saying why */
    void (*run)(const kit_problem *P, kit_host *h, const kit_shape *sh);
    size_t max_n;      /* largest n it is timed at (0: no limit), e.g. a quadratic brute force */
    /* untimed set-up run right before the timed runs (e.g. building the index that run then
     * searches, so that the row times the search alone); NULL: none */
    void (*prepare)(const kit_problem *P, kit_host *h, const kit_shape *sh);
    const char *phase; /* the phase its rows report (NULL: "run") */
    const char *param; /* the rows' param column (NULL: "serial CPU baseline") */
    int cost;          /* its time against n (kit_cpu_cost; 0: linear), to scale a smaller size's time */
} kit_cpu;

/* How a CPU baseline's time grows with n: what scales a time measured at a smaller size */
enum kit_cpu_cost { KIT_COST_N = 0, KIT_COST_NLOGN, KIT_COST_N2 };

struct kit_problem {
    const char *name;              /* "copy", "scan-u32" ... */
    const kit_buffer *bufs;        /* inputs and outputs */
    size_t nbufs;
    const kit_input *inputs;       /* the named inputs; inputs[0] is the default */
    size_t ninputs;
    const kit_axis *axes;          /* axes beyond n (may be 0) */
    size_t naxes;
    const char *unit;              /* what one item is: "elements", "keys", "queries" */
    /* items one run processes (NULL: n), for the items/s column */
    double (*items)(const kit_problem *P, const kit_shape *sh);
    const char *phases[KIT_MAX_PHASES]; /* timed phases; {NULL}: one phase, "run" */
    size_t max_n;                  /* largest n of the problem (0: no limit but memory) */
    /* fill the inputs (h->buf[k] of every KIT_IN buffer) for input in */
    void (*fill)(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                 uint64_t seed);
    /* the CPU reference: outputs (h->buf[k] of every KIT_OUT buffer) from the inputs;
     * NULL when every ladder of the problem has a per-step reference */
    void (*reference)(const kit_problem *P, kit_host *h, const kit_shape *sh);
    /* compare what a step wrote (got) with the reference (want; inputs in both); NULL:
     * every output equal byte for byte, first mismatch reported as elements */
    int (*compare)(const kit_problem *P, const kit_host *want, const kit_host *got,
                   const kit_shape *sh, unsigned step_flags, char *msg, size_t len);
    const kit_cpu *cpu;            /* serial CPU baselines (may be 0) */
    size_t ncpu;
    const void *arg;               /* the problem's own data (e.g. a scan's mode) */
};

/* A ladder: a table of steps that solve one problem. */
struct kit_ladder {
    const char *id;      /* "copy", "copy-ilp", ... (CSV step prefix for tuning tables) */
    const char *title;   /* human title */
    size_t count;        /* number of steps */
    const void *table;   /* the chapter's typed step table */
    const kit_problem *P;
    const kit_step_info *(*step)(const kit_ladder *L, size_t i);
    /* bytes step i must move for shape sh (GB/s and % of copy bandwidth) */
    double (*bytes)(const kit_ladder *L, size_t i, const kit_shape *sh);
    /* scratch step i needs (NULL: none) */
    size_t (*scratch)(const kit_ladder *L, size_t i, const kit_shape *sh);
    /* run phase ph of step i on device buffers dev[k] (declaration order) */
    cudaError_t (*run)(const kit_ladder *L, size_t i, int ph, void *const *dev,
                       const kit_shape *sh, void *scratch, cudaStream_t s);
    /* the CPU reference when it differs from step to step (NULL: the problem's) */
    void (*reference)(const kit_ladder *L, size_t i, kit_host *want, const kit_shape *sh);
    double budget_ms;    /* bench: skip a step whose run would take longer (0: never) */
    const void *arg;     /* the ladder's own data */
    /* bytes step i must move when that depends on the data, not only on the shape (a
     * compaction writes what it selects): from the inputs and the reference outputs in want.
     * NULL: bytes().  Rows, the demo and the CPU rows use it (kit_ctx_bytes); bytes() stays
     * the shape-only estimate (rotations, an upper bound is fine). */
    double (*bytes_data)(const kit_ladder *L, size_t i, const kit_shape *sh, const kit_host *want);
    /* relative work of step i at shape sh, for the budget's estimate of a full run from a
     * timed prefix (NULL: proportional to n); e.g. n * queries for a brute-force search */
    double (*cost)(const kit_ladder *L, size_t i, const kit_shape *sh);
    /* the argument cases of the steps' header (kit_arg_case; may be 0), and the call of case c
     * (0 .. ncases - 1) of phase ph of step i, like run() otherwise */
    const kit_arg_case *cases;
    size_t ncases;
    cudaError_t (*run_case)(const kit_ladder *L, size_t i, int c, int ph, void *const *dev,
                            const kit_shape *sh, void *scratch, cudaStream_t s);
};

/* The kit's word patterns (kit_pattern) as named inputs, arg = the pattern, in enum order. */
extern const kit_input kit_pattern_inputs[KIT_PATTERN_COUNT];
/* A fill() for problems whose inputs are plain words or bytes: every KIT_IN buffer of
 * 4-byte elements gets kit_fill_u32 of pattern in->arg, of 1-byte elements kit_fill_u8
 * (seed + k for buffer k). */
void kit_fill_patterns(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                       uint64_t seed);

/* The shape with every axis at its default. */
kit_shape kit_shape_default(const kit_problem *P, size_t n);
/* "k=8 dim=3" (empty without axes): the CSV's shape column. */
const char *kit_shape_str(const kit_problem *P, const kit_shape *sh, char *buf, size_t len);
/* Value of the axis named name, or def when the problem has none. */
double kit_shape_get(const kit_problem *P, const kit_shape *sh, const char *name, double def);
/* The input named name, or NULL. */
const kit_input *kit_input_find(const kit_problem *P, const char *name);
/* Number of phases (1 when none are declared) and the name of phase ph. */
int kit_nphases(const kit_problem *P);
const char *kit_phase_name(const kit_problem *P, int ph);
/* Elements of buffer k at shape sh. */
size_t kit_buf_count(const kit_problem *P, size_t k, const kit_shape *sh);
/* Largest n step i of L takes. */
size_t kit_step_max_n(const kit_ladder *L, size_t i);

/* ---------------------------------------------------------- contexts */

/* A problem instance: host inputs and reference, device copies (rot rotations), and the
 * scratch.  rot == 0 gives a host-only context (CPU baselines, no device memory). */
typedef struct kit_ctx kit_ctx;
cudaError_t kit_ctx_new(const kit_ladder *L, const kit_shape *sh, const kit_input *in,
                        uint64_t seed, int rot, kit_ctx **out);
void kit_ctx_free(kit_ctx *c);
kit_host *kit_ctx_inputs(kit_ctx *c);      /* host inputs (outputs: scratch space) */
const kit_host *kit_ctx_want(const kit_ctx *c);
/* Make c serve ladder L (same problem): grows the scratch to L's largest need. */
cudaError_t kit_ctx_use(kit_ctx *c, const kit_ladder *L);
/* Run all phases of step i once on poisoned outputs (guard zones around them), fetch
 * and compare with the reference, check the guards. */
cudaError_t kit_ctx_check(kit_ctx *c, size_t i, cudaStream_t s, int *ok, char *msg, size_t len);
/* The two halves of kit_ctx_check, for a judge and a runner in two processes (tests/kit_side.c):
 * run_raw runs every phase of step i once on poisoned outputs and fetches them with their guard
 * zones; kit_ctx_raw is output buffer k as fetched (front guard, data, back guard: *bytes in all;
 * NULL for an input); judge checks the guards and compares with the reference.  upload_inputs
 * copies the host inputs (kit_ctx_inputs, e.g. replaced by the judge's) to every rotation. */
cudaError_t kit_ctx_run_raw(kit_ctx *c, size_t i, cudaStream_t s);
unsigned char *kit_ctx_raw(kit_ctx *c, size_t k, size_t *bytes);
void kit_ctx_judge(kit_ctx *c, size_t i, int *ok, char *msg, size_t len);
cudaError_t kit_ctx_upload_inputs(kit_ctx *c);
/* Enqueue phase ph of step i on rotation rep % rot (no checks). */
cudaError_t kit_ctx_launch(kit_ctx *c, size_t i, int ph, int rep, cudaStream_t s);
/* Bytes step i of the context's ladder must move on the context's data: bytes_data() on
 * the inputs and the reference when the ladder has one, else bytes() of the shape. */
double kit_ctx_bytes(const kit_ctx *c, size_t i);
/* Run CPU baseline v once on the host inputs (its prepare() first); time it (prepare()
 * untimed, then at most reps runs or max_s seconds).  An absent baseline (run NULL) does
 * nothing; the timing is then zero runs. */
void kit_ctx_cpu(kit_ctx *c, int v);
void kit_ctx_time_cpu(kit_ctx *c, int v, int reps, double max_s, kit_timing *t);

/* ------------------------------------------------ CPU rows: measured, cached or estimated
 * A one-core baseline can take a minute at the sizes the GPU steps are shown at.  Its time is
 * measured once per machine and program build and kept in a cache file (KIT_CPU_CACHE, else
 * $BUILDROOT/cpu-cache.tsv, else build/cpu-cache.tsv), or, where a measurement would cost more than
 * a budget, scaled from the largest size measured by its cost model (kit_cpu.cost) and marked so.
 * --cpu measure|cached|none chooses (cached is the default of demo, walk and bench). */
enum kit_cpu_mode { KIT_CPU_CACHED = 0, KIT_CPU_MEASURE, KIT_CPU_NONE };
/* how a row's number came about */
enum kit_cpu_how { KIT_CPU_MEASURED = 0, KIT_CPU_FROM_CACHE, KIT_CPU_ESTIMATED, KIT_CPU_ABSENT };
/* what a cached time is for; n is the size, shape the rest of the problem's shape */
typedef struct kit_cpu_key {
    const char *chapter, *problem, *baseline, *input, *shape;
    size_t n;
} kit_cpu_key;
typedef struct kit_cpu_time {
    kit_timing t;   /* t.ms_median: the row's time (measured, cached or estimated) */
    int how;        /* kit_cpu_how */
    size_t from_n;  /* ESTIMATED: the size it was scaled from */
    long long when; /* FROM_CACHE: when it was measured (Unix time) */
} kit_cpu_time;
/* The cache file in use, and this machine's and program's identities as the cache records
 * them (the CPU model and its logical CPU count; the program file's size and time). */
const char *kit_cpu_cache_path(void);
const char *kit_cpu_machine(void);
const char *kit_cpu_build(void);
/* Look k up in the cache at path for machine and build: 1 and *ms, *when from the newest valid
 * entry; 0 when there is none.  Entries of another machine or build, or older than
 * KIT_CPU_CACHE_DAYS (30) days, are never used; a line that does not parse or whose checksum
 * fails is skipped with one warning on stderr per file. */
int kit_cpu_cache_get(const char *path, const kit_cpu_key *k, const char *machine, const char *build,
                      double *ms, long long *when);
/* The largest n below k->n with a valid entry (all else equal): 1, *n and *ms; else 0. */
int kit_cpu_cache_below(const char *path, const kit_cpu_key *k, const char *machine, const char *build,
                        size_t *n, double *ms);
/* Append an entry (one write); 0 on success, -1 when the file cannot be written (said once). */
int kit_cpu_cache_put(const char *path, const kit_cpu_key *k, const char *machine, const char *build,
                      double ms);
/* How a row's number came about, for its param or table: "cached 2026-11-26", "est. from n = 2^24",
 * or "" for a time measured now (or no row) */
void kit_cpu_mark(const kit_cpu_time *ct, char *buf, size_t len);
/* mkdir -p: path and the folders above it (0, or -1 with errno) */
int kit_mkdirs(const char *path);
/* Time at n of a baseline with cost model cost, from ms at n0 */
double kit_cpu_scale(int cost, double ms, size_t n0, size_t n);
/* CPU row v of the context's problem by mode: cached (a valid cache entry, else an estimate when
 * a smaller size's time predicts more than budget_s, else measured and cached), measure (always
 * measured, and cached) or none (*out->how = ABSENT).  chapter names the cache entries. */
void kit_ctx_cpu_row(kit_ctx *c, const char *chapter, int v, int mode, int reps, double budget_s,
                     kit_cpu_time *out);
/* The expected seconds of that row when it would be measured now (0: unknown). */
double kit_ctx_cpu_guess(kit_ctx *c, const char *chapter, int v);
/* The estimate of a full run from a timed prefix: full_ms = prefix_ms * this ratio
 * (L->cost(full) / L->cost(prefix), or full.n / prefix.n without a cost function). */
double kit_ladder_cost_ratio(const kit_ladder *L, size_t i, const kit_shape *full,
                             const kit_shape *prefix);
/* The problem's compare() (or byte equality of every output) on what a step wrote. */
int kit_compare_outputs(const kit_problem *P, const kit_host *want, const kit_host *got,
                        const kit_shape *sh, unsigned flags, char *msg, size_t len);

/* Set up, check step i once on (shape, input, seed), tear down. */
cudaError_t kit_ladder_verify(const kit_ladder *L, size_t i, const kit_shape *sh,
                              const kit_input *in, uint64_t seed, int *ok, char *msg, size_t len);
/* Check step i on c, then time each of its phases (phases before ph run untimed first). */
cudaError_t kit_ladder_measure(kit_ctx *c, size_t i, cudaStream_t s, int warmup, int reps,
                               kit_timing *t /* [nphases] */, int *ok, char *msg, size_t len);
/* The same for phase `only` alone (-1: every phase): the phases before it are those the check
 * ran (it runs every phase in order, so a later phase must not undo an earlier one's results, as
 * a query does not undo a build); t[only] is filled, the other entries are left as they are. */
cudaError_t kit_ladder_measure_phase(kit_ctx *c, size_t i, cudaStream_t s, int warmup, int reps,
                                     int only, kit_timing *t, int *ok, char *msg, size_t len);
/* The index of the phase called name (a problem without phases has one, "run"), or -1. */
int kit_phase_index(const kit_problem *P, const char *name);
/* How many input copies to rotate through so that timing sees DRAM, not L2. */
int kit_rotations(double bytes_per_run);

/* ---------------------------------------------------------- contract */

/* What the contract suite varies (kit_contract_step). */
typedef struct kit_contract_opts {
    size_t offset_elems; /* offset of every buffer from a 256-byte boundary, in elements */
    size_t offset_bytes; /* extra byte offset for buffers of 1-byte elements (0..15) */
    int busy_stream;     /* run on a created non-blocking stream behind a busy kernel */
    int single;          /* one run only (no second run on dirty scratch): huge sizes */
    int arg_case;        /* 0: the default call; c + 1: argument case c of the ladder */
    int stagger;         /* buffer b gets (b mod 4) more elements of offset: the pointers'
                            alignments differ from each other (headers allow any, independently) */
} kit_contract_opts;

/* The contract every public step keeps, checked at one shape: buffers placed at the given
 * offsets with guard zones before and after every one of them, the scratch exactly
 * scratch_bytes with a guard after it; outputs poisoned; one run compared with the CPU
 * reference, the inputs left unchanged, every guard intact; then a second run on the
 * dirty scratch (outputs poisoned again) compared again.  With o->arg_case, the call is that
 * argument case's (run_case); a refusal case is judged as kit_arg_case says, one run only.
 * ok = 0 and a message naming the step, n, the offsets and the case on any failure; a CUDA
 * error is returned. */
cudaError_t kit_contract_step(const kit_ladder *L, size_t i, const kit_shape *sh,
                              const kit_input *in, uint64_t seed, const kit_contract_opts *o,
                              int *ok, char *msg, size_t len);
/* 1 when argument case c of L applies to step i (its steps list names it, or has none). */
int kit_case_applies(const kit_ladder *L, size_t i, size_t c);
/* Shape j of case c, from sh (n kept): 1 and *out set, or 0 past the case's last shape. */
int kit_case_shape(const kit_ladder *L, size_t c, int j, const kit_shape *sh, kit_shape *out);
/* Past the step's largest n: the run must return cudaErrorInvalidValue without a launch
 * (checked on small real buffers). */
cudaError_t kit_contract_refusal(const kit_ladder *L, size_t i, int *ok, char *msg, size_t len);
/* A kernel that keeps stream s busy for about ms milliseconds (contract tests). */
cudaError_t kit_busy(cudaStream_t s, double ms);
/* The same, then a store through a null pointer: the device faults (cudaErrorIllegalAddress,
 * sticky: the process's context is lost).  For tests that check that a call returns a fault
 * that happens while it runs (a test of its own: nothing in its process can use the GPU after). */
cudaError_t kit_busy_fault(cudaStream_t s, double ms);

/* ----------------------------------------------------------------- bench */

typedef struct kit_bench {
    const char *chapter;  /* "01" */
    const char *outdir;   /* where CSVs go */
    int quick;            /* smaller sweeps, fewer repetitions */
    int warmup, reps;     /* timing repetitions */
    int max_log2;         /* largest size of the throughput sweeps */
    int gpu;              /* 0: no device, CPU rows only */
    char gpu_name[256];
    double copy_gbps;     /* cudaMemcpy D2D bandwidth measured in this run */
    size_t copy_probe_n;  /* words copied by the probe */
    cudaStream_t stream;
    FILE *csv;            /* current experiment's CSV (written as NAME.csv.tmp) */
    char csv_path[1024];
    int tty;              /* progress goes to a terminal */
    int rows, failed;     /* rows written, rows whose verification failed */
    int param_occupancy;  /* append " blocks/SM=R" (occupancy API) to each step's param */
    const char *inputs;   /* --input a,b: overrides the experiments' inputs (NULL: theirs) */
    const char *axes;     /* --AXIS value pairs as "name=value ...", applied to every shape */
    kit_ctx *cache;       /* the last context, reused while problem, shape and input match */
    const char *phase;    /* set by an experiment: time only this phase (its step rows and the CPU
                           * rows of that phase; the phases before it run in the check, untimed); NULL: all */
    const char *cpus;     /* set by an experiment: the CPU rows it times, by name ("a,b"); NULL: all */
    int cpu_mode;         /* kit_cpu_mode (--cpu): how CPU rows are timed (none: no CPU rows at all; the
                           * reference still checks every step) */
    } kit_bench;

/* The CSV header every chapter writes (docs/architecture.md); readers find columns by name. */
#define KIT_CSV_HEADER                                                                     \
    "chapter,step,param,input,n,shape,phase,bytes,ms_median,ms_min,gbps,items_s,unit,"  \
    "pct_copy,verified,gpu"

/* Measure cudaMemcpy D2D of n 32-bit words (bytes read + written) / time. */
cudaError_t kit_copy_probe(size_t n, cudaStream_t s, int reps, double *gbps);
/* Open outdir/<name>.csv.tmp, write the header and the copy-bandwidth row. */
cudaError_t kit_bench_begin(kit_bench *b, const char *name);
/* Close the CSV; keep it (rename NAME.csv.tmp to NAME.csv) when keep, else remove it. */
void kit_bench_end(kit_bench *b, int keep);
/* One CSV row (t may be NULL for a row that could not be timed). */
typedef struct kit_row {
    const char *step, *param, *input, *shape, *phase, *unit, *verified;
    size_t n;
    double bytes, items;
    const kit_timing *t;
} kit_row;
void kit_bench_row(kit_bench *b, const kit_row *r);
/* Progress on stderr: one rewritten line on a terminal, plain lines otherwise. */
void kit_progress(kit_bench *b, const char *fmt, ...);
void kit_progress_done(kit_bench *b);
/* The shape of the sweeps: n and the axes' defaults, with --AXIS overrides applied. */
kit_shape kit_bench_shape(const kit_bench *b, const kit_problem *P, size_t n);
/* log2 of the size of an experiment at one size (the largest n): --max-log2, and at most 2^20 with
 * --quick (a smoke run of every experiment in seconds) */
int kit_bench_point_log2(const kit_bench *b);

/* Time (and verify) every step of L, and its CPU baselines when with_cpu (up to cpu_max_n;
 * 0: every n), for n = 2^lo .. 2^hi, on each input of the comma list inputs (NULL: the
 * problem's first; --input overrides), into the open CSV. */
cudaError_t kit_ladder_sweep(kit_bench *b, const kit_ladder *L, int lo, int hi,
                             const char *inputs, int with_cpu, size_t cpu_max_n);
/* The same over the sizes sizes[0..nsizes) (e.g. powers of ten). */
cudaError_t kit_ladder_sweep_sizes(kit_bench *b, const kit_ladder *L, const size_t *sizes,
                                   size_t nsizes, const char *inputs, int with_cpu,
                                   size_t cpu_max_n);
/* Time and verify every step of L at shape sh on one input (NULL: the problem's first;
 * --input narrows), into the open CSV (for tuning tables). */
cudaError_t kit_ladder_point(kit_bench *b, const kit_ladder *L, const kit_shape *sh,
                             const char *input);

/* ------------------------------------------------------------- chapters */

typedef struct kit_experiment {
    const char *name;  /* CSV base name and --exp value */
    const char *what;  /* one line for --help and the README */
    cudaError_t (*run)(kit_bench *b);
} kit_experiment;

typedef struct kit_chapter {
    const char *id;     /* "01" */
    const char *dir;    /* "01-copy" */
    const char *title;
    const kit_ladder *const *ladders; /* the first nmain are the chapter's ladders; the rest are
                                         tuning tables (and variants that tests/sanitize cover) */
    size_t nladders;
    const kit_experiment *experiments;
    size_t nexperiments;
    size_t demo_n;      /* default size for the demo */
    size_t nmain;       /* ladders shown by demo, profile and the README table; 0 means 1 */
} kit_chapter;

/* The whole command line of a chapter program: bench, demo, sanitize, steps, help. */
int kit_chapter_main(const kit_chapter *c, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif /* KIT_H */
