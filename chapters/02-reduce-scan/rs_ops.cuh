/* rs_ops.cuh - the operators every step is templated on, shuffles and 16-byte
 * vectors of any element type, and the in-register runs of the later steps (CUDA
 * C++ only).  The block-wide reductions and scans are in rs_block.cuh.
 *
 * An operator is a struct with a value type T, an identity and an associative
 * operator() whose left argument comes first in the sequence.  Nothing here
 * assumes commutativity: every combine keeps "earlier (+) later".
 *
 * Since Volta, warps are not implicitly synchronous: lanes exchange values
 * with __shfl_*_sync (full mask) or through shared memory with __syncwarp()
 * between the write and the read. */
#ifndef RS_OPS_CUH
#define RS_OPS_CUH

#include <stdint.h>
#include <string.h>

#include "kit_cuda.cuh"
#include "reduce_scan.h"

namespace rs {

constexpr unsigned FULL = 0xFFFFFFFFu;

struct AddU32 {
    typedef uint32_t T;
    __host__ __device__ static T identity() { return 0u; }
    __host__ __device__ T operator()(T a, T b) const { return a + b; }
};

struct AddF32 {
    typedef float T;
    __host__ __device__ static T identity() { return 0.0f; }
    __host__ __device__ T operator()(T a, T b) const { return a + b; }
};

struct Affine {
    typedef rs_affine T;
    __host__ __device__ static T identity() { return rs_affine_identity(); }
    __host__ __device__ T operator()(T a, T b) const { return rs_affine_then(a, b); }
};

/* ------------------------------------------------------ shuffles of any T */

/* Apply a 32-bit shuffle to each 32-bit word of v (uint32, float, affine maps). */
template <class T, class Shuffle>
__device__ __forceinline__ T shfl_words(T v, Shuffle shuffle)
{
    static_assert(sizeof(T) % 4 == 0, "whole 32-bit words");
    uint32_t w[sizeof(T) / 4];
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < (int)(sizeof(T) / 4); i++) w[i] = shuffle(w[i]);
    memcpy(&v, w, sizeof(T));
    return v;
}
template <class T>
__device__ __forceinline__ T shfl_up(T v, int d)
{
    return shfl_words(v, [d](uint32_t x) { return __shfl_up_sync(FULL, x, d); });
}
template <class T>
__device__ __forceinline__ T shfl_down(T v, int d)
{
    return shfl_words(v, [d](uint32_t x) { return __shfl_down_sync(FULL, x, d); });
}
template <class T>
__device__ __forceinline__ T shfl_idx(T v, int lane)
{
    return shfl_words(v, [lane](uint32_t x) { return __shfl_sync(FULL, x, lane); });
}

/* ------------------------------------------- 16-byte vectors of any 4/8-byte T */

__device__ __forceinline__ void unpack(const uint4 &q, uint32_t *v) { v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w; }
__device__ __forceinline__ void unpack(const uint4 &q, float *v)
{
    v[0] = __uint_as_float(q.x); v[1] = __uint_as_float(q.y);
    v[2] = __uint_as_float(q.z); v[3] = __uint_as_float(q.w);
}
__device__ __forceinline__ void unpack(const uint4 &q, rs_affine *v)
{
    v[0].a = q.x; v[0].b = q.y; v[1].a = q.z; v[1].b = q.w;
}
__device__ __forceinline__ uint4 pack(const uint32_t *v) { return make_uint4(v[0], v[1], v[2], v[3]); }
__device__ __forceinline__ uint4 pack(const float *v)
{
    return make_uint4(__float_as_uint(v[0]), __float_as_uint(v[1]), __float_as_uint(v[2]),
                      __float_as_uint(v[3]));
}
__device__ __forceinline__ uint4 pack(const rs_affine *v) { return make_uint4(v[0].a, v[0].b, v[1].a, v[1].b); }

/* -------------------------------------------------- in-register serial runs */

/* Inclusive scan of v[0..N) in registers with Sklansky's network: in the stage
 * of span d, every element whose index has bit d set takes the last element of
 * the lower half of its 2d-block as a prefix.  log2(N) stages, no dependency
 * inside a stage (the document's SerialScan). */
template <class Op, int N>
__device__ __forceinline__ void serial_scan(typename Op::T (&v)[N])
{
    const Op op;
#pragma unroll
    for (int d = 1; d < N; d *= 2)
#pragma unroll
        for (int j = 0; j < N; j++)
            if (j & d) v[j] = op(v[(j & ~(2 * d - 1)) + d - 1], v[j]);
}

/* Reduce of v[0..N) as a tree of adjacent pairs (order kept); result in v[0]. */
template <class Op, int N>
__device__ __forceinline__ typename Op::T serial_reduce(typename Op::T (&v)[N])
{
    const Op op;
#pragma unroll
    for (int d = 1; d < N; d *= 2)
#pragma unroll
        for (int j = 0; j + d < N; j += 2 * d) v[j] = op(v[j], v[j + d]);
    return v[0];
}

/* RunUpdate: v holds an inclusive scan of a run; make it the run's inclusive
 * (or exclusive) scan after the prefix pre: pre (+) v[j] (or pre (+) v[j-1]). */
template <class Op, bool EXCL, int N>
__device__ __forceinline__ void run_update(typename Op::T pre, typename Op::T (&v)[N])
{
    const Op op;
    if (EXCL) {
#pragma unroll
        for (int j = N - 1; j > 0; j--) v[j] = op(pre, v[j - 1]);
        v[0] = pre;
    } else {
#pragma unroll
        for (int j = 0; j < N; j++) v[j] = op(pre, v[j]);
    }
}

/* A step's describe function for any kernel (tuning tables need one per variant). */
template <auto KERNEL, int TBS>
cudaError_t describe(kit_kernel_desc *d)
{
    d->func = (const void *)KERNEL;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

} // namespace rs

/* The extern "C" entry points of a scan step whose host function is
 * run<Op, EXCL>(in, out, n, scratch, s) and whose main kernel is KERNEL (RS_SCAN_RUN_POINTS: all
 * but the describe function). */
#define RS_SCAN_ENTRY_POINTS(id, run, scratch_fn, KERNEL, TBS, SMEM)                           \
    RS_SCAN_RUN_POINTS(id, run, scratch_fn)                                                    \
    KIT_DESCRIBE(rs_##id##_describe, KERNEL, TBS, SMEM)
#define RS_SCAN_RUN_POINTS(id, run, scratch_fn)                                                \
    extern "C" size_t rs_##id##_scratch(size_t n) { return scratch_fn(n); }                    \
    extern "C" cudaError_t rs_##id##_u32(const uint32_t *in, uint32_t *out, size_t n,          \
                                         int exclusive, void *scratch, cudaStream_t s)         \
    {                                                                                          \
        return exclusive ? run<rs::AddU32, true>(in, out, n, scratch, s)                       \
                         : run<rs::AddU32, false>(in, out, n, scratch, s);                     \
    }                                                                                          \
    extern "C" cudaError_t rs_##id##_affine(const rs_affine *in, rs_affine *out, size_t n,     \
                                            int exclusive, void *scratch, cudaStream_t s)      \
    {                                                                                          \
        return exclusive ? run<rs::Affine, true>(in, out, n, scratch, s)                       \
                         : run<rs::Affine, false>(in, out, n, scratch, s);                     \
    }

/* The same for a reduce step whose host function is run<Op>(in, out, n, scratch, s). */
#define RS_REDUCE_ENTRY_POINTS(id, run, scratch_fn, KERNEL, TBS, SMEM)                         \
    RS_REDUCE_RUN_POINTS(id, run, scratch_fn)                                                  \
    KIT_DESCRIBE(rs_##id##_describe, KERNEL, TBS, SMEM)
#define RS_REDUCE_RUN_POINTS(id, run, scratch_fn)                                              \
    extern "C" size_t rs_##id##_scratch(size_t n) { return scratch_fn(n); }                    \
    extern "C" cudaError_t rs_##id##_u32(const uint32_t *in, uint32_t *out, size_t n,          \
                                         void *scratch, cudaStream_t s)                        \
    {                                                                                          \
        return run<rs::AddU32>(in, out, n, scratch, s);                                        \
    }                                                                                          \
    extern "C" cudaError_t rs_##id##_f32(const float *in, float *out, size_t n, void *scratch, \
                                         cudaStream_t s)                                       \
    {                                                                                          \
        return run<rs::AddF32>(in, out, n, scratch, s);                                        \
    }

#endif
