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
} kit_device;

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
} kit_step_info;

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

/* count device buffers of alloc_bytes each (>= bytes), the first bytes of
 * each a copy of host (when host is not NULL).  On failure the buffers made so
 * far are still in *bufs: release with kit_dev_free_copies(*bufs, count). */
cudaError_t kit_dev_copies(void ***bufs, int count, const void *host, size_t bytes,
                           size_t alloc_bytes);
void kit_dev_free_copies(void **bufs, int count);
/* Copy device memory to the host on stream s and wait for it. */
cudaError_t kit_fetch(void *host, const void *dev, size_t bytes, cudaStream_t s);

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

/* Synthetic 8-bit images, stand-ins for photographs (histogram chapter).  A
 * base image (1024x1024 grey pixels, or 512x512 RGBA pixels) is generated from
 * the seed and tiled into a raster of n bytes whose width in pixels is the
 * smallest power of two w with w*w pixels >= n bytes (a 2^16-byte grey image is
 * a 256x256 crop, a 2^24-byte one 4096x4096 = 4x4 tiles); the last row may be
 * partial.  Pixels are stored row by row, RGBA as 4 bytes R,G,B,A. */
typedef enum kit_image {
    KIT_IMAGE_GRADIENT = 0, /* grey: smooth diagonal gradient and shading + noise: broad histogram */
    KIT_IMAGE_DARK,         /* grey: dark noisy background, smooth bright blobs (MRI-like): peaked */
    KIT_IMAGE_RGBA0,        /* RGBA: colour gradients + noise, alpha 0 in every pixel */
    KIT_IMAGE_COUNT
} kit_image;

const char *kit_image_name(kit_image k);
/* 1 and *k set when name is a known image kind ("image-gradient" ...), else 0. */
int kit_image_parse(const char *name, kit_image *k);
void kit_fill_image_u8(uint8_t *a, size_t n, kit_image k, uint64_t seed);

/* ---------------------------------------------------------------- parsing */

/* Parse a size such as "1000", "2^24", "1<<20", "16M", "4k" into *n.
 * Return 1 on success, 0 on bad input (message in msg). */
int kit_parse_size(const char *s, size_t *n, char *msg, size_t len);
/* Format n compactly: "2^24" for powers of two, "2^20+7" near them, else decimal. */
const char *kit_size_str(size_t n, char *buf, size_t len);

/* Dynamic shared memory (>= need) that lets at most R blocks of kernel (at this
 * block size) reside on an SM, as close to exactly R as the hardware allows;
 * raises the kernel's dynamic shared-memory limit as needed. */
cudaError_t kit_force_residency(const void *kernel, int threads, size_t need, int R, size_t *bytes);

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
    FILE *csv;            /* current experiment's CSV */
    char csv_path[1024];
    int tty;              /* progress goes to a terminal */
    int rows, failed;     /* rows written, rows whose verification failed */
    int param_occupancy;  /* append " blocks/SM=R" (occupancy API) to each step's param */
} kit_bench;

/* The CSV header every chapter writes (docs/architecture.md). */
#define KIT_CSV_HEADER "chapter,step,param,n,bytes,ms_median,ms_min,gbps,gelem_s,pct_copy,verified,gpu"

/* Measure cudaMemcpy D2D of n 32-bit words (bytes read + written) / time. */
cudaError_t kit_copy_probe(size_t n, cudaStream_t s, int reps, double *gbps);
/* Open outdir/<name>.csv, write the header and the copy-bandwidth row. */
cudaError_t kit_bench_begin(kit_bench *b, const char *name);
void kit_bench_end(kit_bench *b);
/* One CSV row; t may be NULL for a row that could not be timed. */
void kit_bench_row(kit_bench *b, const char *step, const char *param, size_t n, double bytes,
                   double elems, const kit_timing *t, const char *verified);
/* Progress on stderr: one rewritten line on a terminal, plain lines otherwise. */
void kit_progress(kit_bench *b, const char *fmt, ...);
void kit_progress_done(kit_bench *b);

/* ---------------------------------------------------------------- ladder */

/* A chapter's steps seen through one generic interface.  The chapter owns the
 * typed table (table) and the context; the harness drives tests, sweeps, the
 * demo and the sanitizer run through these callbacks only. */
typedef struct kit_ladder kit_ladder;
struct kit_ladder {
    const char *id;      /* "copy", "copy-ilp", ... (CSV step prefix for tuning tables) */
    const char *title;   /* human title */
    size_t count;        /* number of steps */
    const void *table;   /* the chapter's typed step table */
    const kit_step_info *(*step)(const kit_ladder *L, size_t i);
    /* bytes step i must move, and elements it processes, for size n */
    double (*bytes)(const kit_ladder *L, size_t i, size_t n);
    double (*elems)(const kit_ladder *L, size_t n);
    /* allocate and fill inputs of size n (rotations copies of the inputs for
     * timing out of L2), compute the CPU reference.  rotations == 0 means a
     * host-only context (no device memory): only cpu() may be called. */
    cudaError_t (*setup)(const kit_ladder *L, size_t n, kit_pattern p, uint64_t seed,
                         int rotations, void **ctx);
    /* the timed region for step i */
    cudaError_t (*launch)(void *ctx, size_t i, int rep, cudaStream_t s);
    /* poison outputs, run step i once, compare with the CPU reference */
    cudaError_t (*check)(void *ctx, size_t i, cudaStream_t s, int *ok, char *msg, size_t len);
    /* serial CPU baselines, run once on the context's inputs: variant v of
     * cpu_names (NULL-terminated; cpu may be NULL when there is none) */
    void (*cpu)(void *ctx, int v);
    const char *cpu_names[4];
    void (*teardown)(void *ctx);
};

/* Set up, check step i once on (n, pattern, seed), tear down. */
cudaError_t kit_ladder_verify(const kit_ladder *L, size_t i, size_t n, kit_pattern p,
                              uint64_t seed, int *ok, char *msg, size_t len);
/* Check step i of L on ctx (poisoned outputs vs the CPU reference), then time
 * it: warmup runs, then the median and minimum of reps runs. */
cudaError_t kit_ladder_measure(const kit_ladder *L, void *ctx, size_t i, cudaStream_t s,
                               int warmup, int reps, kit_timing *t, int *ok, char *msg,
                               size_t len);
/* Time CPU baseline v of L on ctx (at most reps runs or max_s seconds). */
void kit_ladder_time_cpu(const kit_ladder *L, void *ctx, int v, int reps, double max_s,
                         kit_timing *t);
/* How many input copies to rotate through so that timing sees DRAM, not L2. */
int kit_rotations(double bytes_per_run);
/* Resident blocks per SM of a step's main kernel (occupancy API, from its
 * describe()), or 0 when it has none or the query fails (no error left). */
int kit_step_blocks_per_sm(const kit_step_info *s);
/* Time (and verify) every step of L, the CPU baseline when with_cpu, for
 * n = 2^lo .. 2^hi, into the open CSV. */
cudaError_t kit_ladder_sweep(kit_bench *b, const kit_ladder *L, int lo, int hi, kit_pattern p,
                             int with_cpu);
/* Time and verify the given steps at one n into the open CSV (for tuning tables). */
cudaError_t kit_ladder_point(kit_bench *b, const kit_ladder *L, size_t n, kit_pattern p);

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
