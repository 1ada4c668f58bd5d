/* kit_speed.h - speed tests: an exercise's throughput against the kit's own code, timed by the
 * judge (docs/grading.md, "Speed").
 *
 * A speed test is one Criterion test (exNN_name::speed) that calls kit_speed_test(&spec).  Its
 * points are rows exNN_name::speed_PP of tests/points.tsv (level speed): PP, a percentage, is the
 * fraction of the reference's throughput a submission must reach for that row's points.
 *
 * The protocol (both halves in tests/kit_speed.c), for one batch on one runner:
 *   judge   STAGE K         K fresh inputs from its secret seed, each XOR-masked with a keystream
 *                           whose key only GO carries; the runner stores them (untimed) and acks
 *   judge   GO key          the clock starts
 *   runner                  per input: unmask, run the code under test, hash the output with key
 *   runner  K commitments   the clock stops when the judge has read them
 *   runner  K outputs       fetched untimed; each must hash to its commitment, then pass spec.check
 * The reference (the same test's runner built from solutions/, $KIT_TRUSTED_DIR) runs the same
 * batches, interleaved with the student's, and the score is the median of the rounds' ratios. */
#ifndef KIT_SPEED_H
#define KIT_SPEED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* where a speed test's code under test runs and so what its pointers are */
typedef enum kit_speed_where {
    KIT_SPEED_CPU, /* run() gets host pointers */
    KIT_SPEED_GPU  /* run() gets device pointers and a stream; unmask and hash run on the device */
} kit_speed_where;

typedef struct kit_speed_spec {
    const char *exercise;  /* the suite: "ex01_loadbalance" */
    const char *reference; /* what the trusted runner runs, as the report names it */
    const char *unit;      /* what items counts: "rows", "words" */
    kit_speed_where where;
    size_t in_bytes, out_bytes; /* one input, one output; multiples of 8 */
    size_t items;               /* items of one input (the throughput's numerator) */
    size_t floor_bytes;         /* bytes one input's work must move at least (the physical floor) */
    /* judge: input number k of a batch from seed (deterministic) */
    void (*fill)(void *in, uint64_t seed);
    /* runner: the code under test on one unmasked input; stream: a cudaStream_t for GPU specs.
     * Returns 0, or an error code (the batch then fails) */
    int (*run)(const void *in, void *out, void *stream);
    /* judge: 0 when out is right for in, else a reason in why */
    int (*check)(const void *in, const void *out, char *why, size_t len);
} kit_speed_spec;

/* The speed test of S: on the judge, time the student's runner against the trusted one and write
 * the result line to $KIT_SPEED (a failed check, a bad commitment or an impossible time fails the
 * test); on the runner, answer the judge's batches; in make test, skip (only the grader times). */
void kit_speed_test(const kit_speed_spec *S);

/* the keystream and the commitment, the same on both sides and on the device (kit_speed_gpu.cu):
 * word i of input k of a batch is masked with kit_speed_mask(key, k, i); an output of n words
 * commits to the sum over i of kit_speed_mix(word_i + kit_speed_mix(key ^ i)), modulo 2^64 */
#define KIT_SPEED_GOLDEN 0x9E3779B97F4A7C15ull
#if defined(__CUDACC__)
#define KIT_SPEED_HD __host__ __device__ __forceinline__
#else
#define KIT_SPEED_HD static inline
#endif
KIT_SPEED_HD uint64_t kit_speed_mix(uint64_t z)
{
    z += KIT_SPEED_GOLDEN;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
KIT_SPEED_HD uint64_t kit_speed_mask(uint64_t key, uint64_t k, uint64_t i)
{
    return kit_speed_mix(key ^ (k << 40) ^ i);
}
KIT_SPEED_HD uint64_t kit_speed_term(uint64_t key, uint64_t i, uint64_t w)
{
    return kit_speed_mix(w + kit_speed_mix(key ^ i));
}

/* the host's halves (kit_speed.c): XOR words [0, n) of input k with the keystream; an output's
 * commitment */
void kit_speed_xor(uint64_t *w, size_t n, uint64_t key, uint64_t k);
uint64_t kit_speed_commit(const uint64_t *w, size_t n, uint64_t key);

/* the device's halves (reference/kit_speed_gpu.cu; cudaError_t as int so C callers need no CUDA
 * headers): unmask K inputs of n words each in place; commit K outputs of m words each into
 * commits[K] (device memory); the device-to-device copy bandwidth in bytes/s over bytes bytes */
int kit_speed_gpu_unmask(uint64_t *d_in, size_t n, size_t K, uint64_t key, void *stream);
int kit_speed_gpu_commit(const uint64_t *d_out, size_t m, size_t K, uint64_t key, uint64_t *d_commits,
                         void *stream);
int kit_speed_gpu_bandwidth(size_t bytes, double *bytes_per_s);

#ifdef __cplusplus
}
#endif

#endif
