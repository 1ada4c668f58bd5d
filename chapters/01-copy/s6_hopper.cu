/* s6 - Hopper copy: 16-byte accesses.
 * Changed versus s3: each access moves a uint4 (16 bytes) instead of a word, so
 * one warp instruction moves 512 bytes; pointers are __restrict__ (read-only
 * path allowed); the n % 4 words past the last whole vector are copied by
 * block 0.  The kernel can batch NVEC vectors per thread like s3 does words.
 * Why it is faster: 4x fewer memory instructions per byte, and with 2048
 * resident threads x 16 bytes an SM keeps 32 KB of loads in flight, which is
 * what HBM3e needs (bandwidth x latency is several MB across 132 SMs).
 * Why 256 threads x 1 vector: once accesses are 16 bytes wide, occupancy
 * already supplies enough bytes in flight; more vectors per thread only make
 * blocks coarser and the last wave longer (the `hopper` experiment; README,
 * "s6 - Hopper" and "What else we tried").
 * What still limits it: DRAM itself, and at mid sizes the ramp-up and the last
 * partial wave, which cudaMemcpy pays as well (README, "The bar").
 * Alignment (any 4-byte aligned in and out): the host picks one kernel per
 * launch.  Both 16-byte aligned: the kernel above, unchanged.  Both equally
 * misaligned (in % 16 == out % 16): the same kernel from the first 16-byte
 * boundary, and block 0 also copies the 1..3 words before it (PEEL).  Differently
 * misaligned: no 16-byte access can serve both sides, so a 4-byte copy with
 * s3's batched body (copy_words_kernel).  A pointer that is not 4-byte aligned
 * is refused with cudaErrorMisalignedAddress before any launch, an n past COPY_S6_MAX_N
 * (copy.h) with cudaErrorInvalidValue. */
#include "copy.h"
#include "kit_cuda.cuh"

template <bool STREAM>
__device__ __forceinline__ uint4 load16(const uint4 *p)
{
    return STREAM ? __ldcs(p) : __ldg(p);
}

template <bool STREAM>
__device__ __forceinline__ void store16(uint4 *p, uint4 v)
{
    if (STREAM) __stcs(p, v);
    else *p = v;
}

/* PEEL: block 0 also copies the `head` words at in_head (the words before the
 * first 16-byte boundary); the aligned instantiation never reads those
 * parameters, so its code is the unpeeled kernel's. */
template <int TBS, int NVEC, bool STREAM, bool PEEL>
__global__ void __launch_bounds__(TBS)
    copy_vec_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t nv,
                    const uint32_t *__restrict__ in_tail, uint32_t *__restrict__ out_tail,
                    unsigned tail, const uint32_t *__restrict__ in_head,
                    uint32_t *__restrict__ out_head, unsigned head)
{
    constexpr size_t DBS = (size_t)TBS * NVEC; /* vectors per data block */
    const size_t first = (size_t)blockIdx.x * DBS;
    const size_t idx = first + (threadIdx.x >> 5) * (32u * NVEC) + (threadIdx.x & 31u);
    uint4 v[NVEC];
    if (first + DBS <= nv) {
#pragma unroll
        for (int k = 0; k < NVEC; k++) v[k] = load16<STREAM>(in + idx + 32 * k);
#pragma unroll
        for (int k = 0; k < NVEC; k++) store16<STREAM>(out + idx + 32 * k, v[k]);
    } else {
#pragma unroll
        for (int k = 0; k < NVEC; k++)
            if (idx + 32 * k < nv) v[k] = load16<STREAM>(in + idx + 32 * k);
#pragma unroll
        for (int k = 0; k < NVEC; k++)
            if (idx + 32 * k < nv) store16<STREAM>(out + idx + 32 * k, v[k]);
    }
    if (blockIdx.x == 0 && threadIdx.x < tail) out_tail[threadIdx.x] = in_tail[threadIdx.x];
    if (PEEL && blockIdx.x == 0 && threadIdx.x < head) out_head[threadIdx.x] = in_head[threadIdx.x];
}

/* in and out misaligned differently: 4-byte words, WORDS per thread, loads
 * batched before stores (s3's body; Warp-by-Warp, one range check per block) */
#define WORDS_TBS 256
#define WORDS 4

__global__ void __launch_bounds__(WORDS_TBS)
    copy_words_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, size_t n)
{
    constexpr size_t DBS = (size_t)WORDS_TBS * WORDS;
    const size_t first = (size_t)blockIdx.x * DBS;
    const size_t idx = first + (threadIdx.x >> 5) * (32u * WORDS) + (threadIdx.x & 31u);
    uint32_t v[WORDS];
    if (first + DBS <= n) {
#pragma unroll
        for (int k = 0; k < WORDS; k++) v[k] = __ldg(in + idx + 32 * k);
#pragma unroll
        for (int k = 0; k < WORDS; k++) out[idx + 32 * k] = v[k];
    } else {
#pragma unroll
        for (int k = 0; k < WORDS; k++)
            if (idx + 32 * k < n) v[k] = __ldg(in + idx + 32 * k);
#pragma unroll
        for (int k = 0; k < WORDS; k++)
            if (idx + 32 * k < n) out[idx + 32 * k] = v[k];
    }
}

/* The largest n, the same for every pointer (copy.h's COPY_S6_MAX_N, the tables' max_n): with
 * D = TBS x NVEC vectors per block, the vector path takes n up to 4 D (2^31 - 1) + 3 with both
 * pointers 16-byte aligned (n / 4 vectors) and up to 3 words more after a head of 1..3 words; the
 * 4-byte path takes 1024 (2^31 - 1).  A run refuses every n past the smallest of them. */
static_assert((size_t)WORDS_TBS * WORDS == 1024, "copy.h's COPY_S6_MAX_N: 1024 words per block on the 4-byte path");

template <int TBS, int NVEC, bool STREAM>
static cudaError_t run_vec(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                          cudaStream_t s)
{
    const unsigned mi = (unsigned)((uintptr_t)in & 15u), mo = (unsigned)((uintptr_t)out & 15u);
    (void)scratch;
    if (n == 0) return cudaSuccess;
    if (n > COPY_S6_MAX_N(TBS, NVEC)) return cudaErrorInvalidValue; /* whatever the pointers */
    if ((mi | mo) & 3u) return cudaErrorMisalignedAddress; /* not a uint32_t address */
    if (mi != mo) {                                          /* no common 16-byte grid */
        copy_words_kernel<<<kit_blocks_for(n, (size_t)WORDS_TBS * WORDS), WORDS_TBS, 0, s>>>(in, out, n);
        return cudaGetLastError();
    }
    const size_t head = mi ? ((16u - mi) / 4u < n ? (16u - mi) / 4u : n) : 0; /* words to the boundary */
    const size_t nv = (n - head) / 4;
    const unsigned tail = (unsigned)((n - head) % 4);
    const unsigned grid = nv ? kit_blocks_for(nv, (size_t)TBS * NVEC) : 1u; /* > 0: n <= the limit */
    const uint32_t *vin = in + head;
    uint32_t *vout = out + head;
    if (head == 0)
        copy_vec_kernel<TBS, NVEC, STREAM, false><<<grid, TBS, 0, s>>>(
            (const uint4 *)vin, (uint4 *)vout, nv, vin + 4 * nv, vout + 4 * nv, tail, NULL, NULL, 0u);
    else
        copy_vec_kernel<TBS, NVEC, STREAM, true><<<grid, TBS, 0, s>>>(
            (const uint4 *)vin, (uint4 *)vout, nv, vin + 4 * nv, vout + 4 * nv, tail, in, out,
            (unsigned)head);
    return cudaGetLastError();
}

template <int TBS, int NVEC, bool STREAM>
static cudaError_t describe_vec(kit_kernel_desc *d)
{
    d->func = (const void *)copy_vec_kernel<TBS, NVEC, STREAM, false>;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* ---- the ladder step (chosen from the `hopper` experiment on an H200) */
#define S6_TBS 256
#define S6_NVEC 1
#define S6_STREAM false
static_assert(COPY_S6_STEP_MAX_N == COPY_S6_MAX_N(S6_TBS, S6_NVEC), "copy.h's COPY_S6_STEP_MAX_N: the step's knobs");

extern "C" cudaError_t copy_s6_hopper(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                      cudaStream_t s)
{
    return run_vec<S6_TBS, S6_NVEC, S6_STREAM>(in, out, n, scratch, s);
}

extern "C" cudaError_t copy_s6_describe(kit_kernel_desc *d)
{
    return describe_vec<S6_TBS, S6_NVEC, S6_STREAM>(d);
}

/* ---- the `hopper` experiment: block size x vectors per thread x cache hints */
#define VEC(T, V, S, LABEL)                                                                    \
    {{"s6_hopper", "tbs=" #T " nvec=" #V " hint=" LABEL, "16-byte copy variants",             \
      "chapters/01-copy/s6_hopper.cu", NULL, KIT_STEP_GPU, describe_vec<T, V, S>, 0,           \
      COPY_S6_MAX_N(T, V)},                                                                     \
     NULL, run_vec<T, V, S>}
#define VEC_ROW(T)                                                                             \
    VEC(T, 1, false, "default"), VEC(T, 2, false, "default"), VEC(T, 4, false, "default"),     \
        VEC(T, 8, false, "default"), VEC(T, 1, true, "stream"), VEC(T, 2, true, "stream"),     \
        VEC(T, 4, true, "stream"), VEC(T, 8, true, "stream")

extern "C" const copy_step copy_hopper_variants[] = {
    VEC_ROW(128), VEC_ROW(256), VEC_ROW(512), VEC_ROW(1024),
};
