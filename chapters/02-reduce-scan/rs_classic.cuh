/* rs_classic.cuh - what the classic steps share: reduce in passes (r0..r6),
 * the many-items-per-thread loop introduced by r5, and scan-then-fan (s0..s2).
 * (The unrolled tree introduced by r4 is in rs_block.cuh: exercise r6 includes
 * this header and writes its own block reduce.)
 *
 * Reduce in passes: a pass launches one thread block per PER_BLOCK inputs (at
 * most grid_cap blocks for the fixed-grid steps), each writing one partial
 * sum; the partials are reduced again until one value is left, which the last
 * pass writes to out.  Two scratch buffers alternate between passes.
 *
 * Scan-then-fan: scan each tile of PB elements on its own (writing each tile's
 * total), exclusive-scan the tile totals (recursively, the same way), then
 * "fan" every tile's prefix into its elements: prefix (+) element, the prefix
 * on the left since the operator need not commute.  That is 4n memory traffic
 * (read + write in the scan, read + write in the fan) plus the recursion. */
#ifndef RS_CLASSIC_CUH
#define RS_CLASSIC_CUH

#include <type_traits>

#include "kit_dev.h"
#include "rs_ops.cuh"

namespace rs {

/* Largest grid of the fixed-grid steps (r5, r6): the bound their scratch assumes. */
constexpr size_t MAX_GRID = 8192;

__host__ __device__ inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* Blocks of one pass over n inputs. */
inline size_t pass_blocks(size_t n, size_t per_block, size_t grid_cap)
{
    size_t b = n ? ceil_div(n, per_block) : 1;
    return grid_cap && b > grid_cap ? grid_cap : b;
}

/* Scratch (elements) of reduce_passes: the first two levels of partials. */
inline size_t reduce_scratch_elems(size_t n, size_t per_block, size_t grid_cap)
{
    const size_t b1 = pass_blocks(n, per_block, grid_cap);
    return b1 + pass_blocks(b1, per_block, grid_cap);
}

/* Launch kernel(src, dst, m) over passes until one value is left; n == 0 writes
 * the identity of + (all-zero bits for uint32 and float). */
template <class T>
cudaError_t reduce_passes(const T *in, T *out, size_t n, void *scratch, cudaStream_t s,
                          void (*kernel)(const T *, T *, size_t), int tbs, size_t per_block,
                          size_t grid_cap)
{
    if (n == 0) return cudaMemsetAsync(out, 0, sizeof(T), s);
    T *buf[2] = {(T *)scratch, (T *)scratch + pass_blocks(n, per_block, grid_cap)};
    const T *src = in;
    for (int k = 0;; k ^= 1) {
        const size_t g = pass_blocks(n, per_block, grid_cap);
        T *dst = g == 1 ? out : buf[k];
        if (g > (size_t)INT_MAX) return cudaErrorInvalidValue; /* a guard: the steps refuse such n first */
        kernel<<<(unsigned)g, tbs, 0, s>>>(src, dst, n);
        KIT_TRY(cudaGetLastError());
        if (g == 1) return cudaSuccess;
        src = dst;
        n = g;
    }
}

/* reduce_passes for a kernel loaded by name (reference/kit_dev.h: the exercise step r6, whose
 * kernels are device code only), launched with cudaLaunchKernel */
template <class T>
cudaError_t reduce_passes_dev(const T *in, T *out, size_t n, void *scratch, cudaStream_t s, const void *kernel,
                              int tbs, size_t per_block, size_t grid_cap)
{
    if (n == 0) return cudaMemsetAsync(out, 0, sizeof(T), s);
    T *buf[2] = {(T *)scratch, (T *)scratch + pass_blocks(n, per_block, grid_cap)};
    const T *src = in;
    for (int k = 0;; k ^= 1) {
        const size_t g = pass_blocks(n, per_block, grid_cap);
        T *dst = g == 1 ? out : buf[k];
        if (g > (size_t)INT_MAX) return cudaErrorInvalidValue; /* a guard: the steps refuse such n first */
        void *args[] = {(void *)&src, (void *)&dst, (void *)&n};
        KIT_TRY(kit_dev_launch(kernel, dim3((unsigned)g), dim3(tbs), 0, s, args));
        if (g == 1) return cudaSuccess;
        src = dst;
        n = g;
    }
}

/* The loop of r5: a fixed grid walks the input with a grid-sized stride, each
 * thread adding many elements (four loads in flight per iteration) into one
 * register.  Reorders the sum: for commutative operators only. */
template <class Op>
__device__ __forceinline__ typename Op::T grid_stride_accumulate(const typename Op::T *in, size_t n)
{
    typedef typename Op::T T;
    const Op op;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T x = Op::identity();
    for (; i + 3 * stride < n; i += 4 * stride) {
        const T a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
        x = op(x, op(op(a, b), op(c, d)));
    }
    for (; i < n; i += stride) x = op(x, in[i]);
    return x;
}

/* ------------------------------------------------------------ scan-then-fan */

/* out[i] = prefix[tile] (+) out[i] for every tile but the first (whose prefix is
 * the identity); 256 threads per tile of PB elements. */
template <class Op, int PB>
__global__ void __launch_bounds__(256) fan_kernel(typename Op::T *out, size_t n,
                                                  const typename Op::T *prefix)
{
    const Op op;
    const size_t tile = (size_t)blockIdx.x + 1;
    const typename Op::T p = prefix[tile];
#pragma unroll
    for (int k = 0; k < PB / 256; k++) {
        const size_t i = tile * PB + (size_t)k * 256 + threadIdx.x;
        if (i < n) out[i] = op(p, out[i]);
    }
}

/* Scratch (elements) for the tile totals of every level. */
inline size_t scan_fan_scratch_elems(size_t n, size_t pb)
{
    size_t total = 0;
    while (n > 1) {
        n = ceil_div(n, pb);
        total += n;
    }
    return total;
}

/* tiles_*(in, out, n, sums, stream) scan every tile of PB elements of in into
 * out (in place allowed) and, when there is more than one tile, write the tile
 * totals to sums: tiles_user in the caller's mode (inclusive or exclusive),
 * tiles_excl exclusive, for every level below the first. */
template <class Op, int PB>
cudaError_t scan_then_fan(const typename Op::T *in, typename Op::T *out, size_t n,
                          typename Op::T *scratch, cudaStream_t s,
                          cudaError_t (*tiles_excl)(const typename Op::T *, typename Op::T *,
                                                    size_t, typename Op::T *, cudaStream_t),
                          cudaError_t (*tiles_user)(const typename Op::T *, typename Op::T *,
                                                    size_t, typename Op::T *, cudaStream_t))
{
    typedef typename Op::T T;
    if (n == 0) return cudaSuccess;
    const size_t tiles = ceil_div(n, PB);
    if (tiles > (size_t)INT_MAX) return cudaErrorInvalidValue; /* a guard: the steps refuse such n first */
    T *sums = tiles > 1 ? scratch : NULL;
    KIT_TRY(tiles_user(in, out, n, sums, s));
    if (tiles == 1) return cudaSuccess;
    /* the tile totals, exclusively scanned in place, are the tiles' prefixes */
    KIT_TRY((scan_then_fan<Op, PB>(sums, sums, tiles, scratch + tiles, s, tiles_excl, tiles_excl)));
    fan_kernel<Op, PB><<<(unsigned)(tiles - 1), 256, 0, s>>>(out, n, sums);
    return cudaGetLastError();
}

} // namespace rs

/* The host side of the classic steps: run, scratch and the extern "C" entry points.
 * One block per PER_BLOCK inputs, in passes (r0-r4); the largest n is reduce_scan.h's
 * RS_MAX_N_<id> (the step table's max_n), checked here against PER_BLOCK: */
#define RS_PASSES_STEP(id, KERNEL, TBS, PER_BLOCK)                                               \
    static_assert(RS_MAX_N_##id == (size_t)(PER_BLOCK) * RS_GRID_MAX,                            \
                  "reduce_scan.h's RS_MAX_N_" #id " is PER_BLOCK x (2^31 - 1)");                  \
    template <class Op>                                                                          \
    static cudaError_t id##_run(const typename Op::T *in, typename Op::T *out, size_t n,         \
                                void *scratch, cudaStream_t s)                                   \
    {                                                                                            \
        if (n > RS_MAX_N_##id) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */   \
        return rs::reduce_passes(in, out, n, scratch, s, KERNEL<Op>, TBS, PER_BLOCK, 0);         \
    }                                                                                            \
    static size_t id##_scratch(size_t n) { return 4 * rs::reduce_scratch_elems(n, PER_BLOCK, 0); } \
    RS_REDUCE_ENTRY_POINTS(id, id##_run, id##_scratch, KERNEL<rs::AddU32>, TBS, 0)

/* a resident grid, at least MIN_PER_THREAD inputs per thread (r5, r6; no limit): */
#define RS_GRID_STEP(id, KERNEL, TBS, MIN_PER_THREAD)                                            \
    static_assert(RS_MAX_N_##id == 0, "reduce_scan.h: a resident grid has no limit");            \
    template <class Op>                                                                          \
    static cudaError_t id##_run(const typename Op::T *in, typename Op::T *out, size_t n,         \
                                void *scratch, cudaStream_t s)                                   \
    {                                                                                            \
        static unsigned grid;                                                                    \
        if (!grid) KIT_TRY(kit_resident_grid((const void *)KERNEL<Op>, TBS, 0, &grid));          \
        return rs::reduce_passes(in, out, n, scratch, s, KERNEL<Op>, TBS,                        \
                                 (size_t)(TBS) * (MIN_PER_THREAD),                               \
                                 grid < rs::MAX_GRID ? grid : rs::MAX_GRID);                     \
    }                                                                                            \
    static size_t id##_scratch(size_t n)                                                         \
    {                                                                                            \
        return 4 * rs::reduce_scratch_elems(n, (size_t)(TBS) * (MIN_PER_THREAD), rs::MAX_GRID);  \
    }                                                                                            \
    RS_REDUCE_ENTRY_POINTS(id, id##_run, id##_scratch, KERNEL<rs::AddU32>, TBS, 0)

/* scan-then-fan, KERNEL<Op, EXCL>(in, out, n, sums) scanning tiles of PB with TBS threads (s0-s2);
 * the largest n is RS_MAX_N_<id>, checked against PB: */
#define RS_FAN_STEP(id, KERNEL, TBS, PB)                                                         \
    static_assert(RS_MAX_N_##id == (size_t)(PB) * RS_GRID_MAX,                                   \
                  "reduce_scan.h's RS_MAX_N_" #id " is PB x (2^31 - 1)");                         \
    template <class Op, bool EXCL>                                                               \
    static cudaError_t id##_tiles(const typename Op::T *in, typename Op::T *out, size_t n,       \
                                  typename Op::T *sums, cudaStream_t s)                          \
    {                                                                                            \
        KERNEL<Op, EXCL><<<(unsigned)rs::ceil_div(n, PB), TBS, 0, s>>>(in, out, n, sums);        \
        return cudaGetLastError();                                                               \
    }                                                                                            \
    template <class Op, bool EXCL>                                                               \
    static cudaError_t id##_run(const typename Op::T *in, typename Op::T *out, size_t n,         \
                                void *scratch, cudaStream_t s)                                   \
    {                                                                                            \
        if (n > RS_MAX_N_##id) return cudaErrorInvalidValue; /* more than 2^31 - 1 tiles */    \
        return rs::scan_then_fan<Op, PB>(in, out, n, (typename Op::T *)scratch, s,               \
                                         id##_tiles<Op, true>, id##_tiles<Op, EXCL>);            \
    }                                                                                            \
    static size_t id##_scratch(size_t n)                                                         \
    {                                                                                            \
        return sizeof(rs_affine) * rs::scan_fan_scratch_elems(n, PB);                            \
    }                                                                                            \
    RS_SCAN_ENTRY_POINTS(id, id##_run, id##_scratch, (KERNEL<rs::AddU32, true>), TBS, 0)

/* The exercise steps (r6, s2): the student's file is device code only (compiled with nvcc -fatbin,
 * reference/kit_dev.h), its kernel a __device__ template KERNEL<Op>(in, out, n) (a reduce) or
 * KERNEL<Op, EXCL>(in, out, n, sums) (a scan tile); RS_DEV_*_KERNELS, at its end, define the
 * extern "C" __global__ kernels the kit's launcher loads by name, one per operator (and mode);
 * RS_DEV_GRID_STEP and RS_DEV_FAN_STEP are that launcher (r6_launch.cu, s2_launch.cu): the host
 * side of RS_GRID_STEP and RS_FAN_STEP, FILE naming the student's file (KIT_DEV_IMAGE). */
#define RS_DEV_REDUCE_KERNELS(id, KERNEL, TBS)                                                   \
    extern "C" __global__ void __launch_bounds__(TBS)                                            \
        rs_##id##_kernel_u32(const uint32_t *in, uint32_t *out, size_t n)                        \
    {                                                                                            \
        KERNEL<rs::AddU32>(in, out, n);                                                          \
    }                                                                                            \
    extern "C" __global__ void __launch_bounds__(TBS) rs_##id##_kernel_f32(const float *in, float *out, size_t n) \
    {                                                                                            \
        KERNEL<rs::AddF32>(in, out, n);                                                          \
    }
#define RS_DEV_SCAN_KERNEL(id, KERNEL, TBS, name, OP, EXCL)                                      \
    extern "C" __global__ void __launch_bounds__(TBS)                                            \
        rs_##id##_kernel_##name(const OP::T *in, OP::T *out, size_t n, OP::T *sums)              \
    {                                                                                            \
        KERNEL<OP, EXCL>(in, out, n, sums);                                                      \
    }
#define RS_DEV_SCAN_KERNELS(id, KERNEL, TBS)                                                     \
    RS_DEV_SCAN_KERNEL(id, KERNEL, TBS, u32_incl, rs::AddU32, false)                             \
    RS_DEV_SCAN_KERNEL(id, KERNEL, TBS, u32_excl, rs::AddU32, true)                              \
    RS_DEV_SCAN_KERNEL(id, KERNEL, TBS, affine_incl, rs::Affine, false)                          \
    RS_DEV_SCAN_KERNEL(id, KERNEL, TBS, affine_excl, rs::Affine, true)

#define RS_DEV_GRID_STEP(id, FILE, TBS, MIN_PER_THREAD)                                          \
    static_assert(RS_MAX_N_##id == 0, "reduce_scan.h: a resident grid has no limit");            \
    extern "C" const unsigned char KIT_DEV_IMAGE(02_reduce_scan, FILE)[];                        \
    static kit_dev_fn id##_kernels[2] = {                                                        \
        {KIT_DEV_IMAGE(02_reduce_scan, FILE), "rs_" #id "_kernel_u32", 0},                       \
        {KIT_DEV_IMAGE(02_reduce_scan, FILE), "rs_" #id "_kernel_f32", 0}};                      \
    template <class Op>                                                                          \
    static cudaError_t id##_run(const typename Op::T *in, typename Op::T *out, size_t n,         \
                                void *scratch, cudaStream_t s)                                   \
    {                                                                                            \
        static unsigned grid;                                                                    \
        const void *k;                                                                           \
        KIT_TRY(kit_dev_get(&id##_kernels[std::is_same<Op, rs::AddF32>::value], &k));            \
        if (!grid) KIT_TRY(kit_resident_grid(k, TBS, 0, &grid));                                 \
        return rs::reduce_passes_dev(in, out, n, scratch, s, k, TBS,                             \
                                     (size_t)(TBS) * (MIN_PER_THREAD),                           \
                                     grid < rs::MAX_GRID ? grid : rs::MAX_GRID);                 \
    }                                                                                            \
    static size_t id##_scratch(size_t n)                                                         \
    {                                                                                            \
        return 4 * rs::reduce_scratch_elems(n, (size_t)(TBS) * (MIN_PER_THREAD), rs::MAX_GRID);  \
    }                                                                                            \
    RS_REDUCE_RUN_POINTS(id, id##_run, id##_scratch)                                             \
    KIT_DEV_DESCRIBE(rs_##id##_describe, id##_kernels[0], TBS, 0)

#define RS_DEV_FAN_STEP(id, FILE, TBS, PB)                                                       \
    static_assert(RS_MAX_N_##id == (size_t)(PB) * RS_GRID_MAX,                                   \
                  "reduce_scan.h's RS_MAX_N_" #id " is PB x (2^31 - 1)");                         \
    extern "C" const unsigned char KIT_DEV_IMAGE(02_reduce_scan, FILE)[];                        \
    static kit_dev_fn id##_kernels[4] = {                                                        \
        {KIT_DEV_IMAGE(02_reduce_scan, FILE), "rs_" #id "_kernel_u32_incl", 0},                  \
        {KIT_DEV_IMAGE(02_reduce_scan, FILE), "rs_" #id "_kernel_u32_excl", 0},                  \
        {KIT_DEV_IMAGE(02_reduce_scan, FILE), "rs_" #id "_kernel_affine_incl", 0},               \
        {KIT_DEV_IMAGE(02_reduce_scan, FILE), "rs_" #id "_kernel_affine_excl", 0}};              \
    template <class Op, bool EXCL>                                                               \
    static cudaError_t id##_tiles(const typename Op::T *in, typename Op::T *out, size_t n,       \
                                  typename Op::T *sums, cudaStream_t s)                          \
    {                                                                                            \
        const void *k;                                                                           \
        KIT_TRY(kit_dev_get(&id##_kernels[2 * std::is_same<Op, rs::Affine>::value + EXCL], &k)); \
        void *args[] = {(void *)&in, (void *)&out, (void *)&n, (void *)&sums};                   \
        return kit_dev_launch(k, dim3((unsigned)rs::ceil_div(n, PB)), dim3(TBS), 0, s, args);    \
    }                                                                                            \
    template <class Op, bool EXCL>                                                               \
    static cudaError_t id##_run(const typename Op::T *in, typename Op::T *out, size_t n,         \
                                void *scratch, cudaStream_t s)                                   \
    {                                                                                            \
        if (n > RS_MAX_N_##id) return cudaErrorInvalidValue; /* more than 2^31 - 1 tiles */    \
        return rs::scan_then_fan<Op, PB>(in, out, n, (typename Op::T *)scratch, s,               \
                                         id##_tiles<Op, true>, id##_tiles<Op, EXCL>);            \
    }                                                                                            \
    static size_t id##_scratch(size_t n)                                                         \
    {                                                                                            \
        return sizeof(rs_affine) * rs::scan_fan_scratch_elems(n, PB);                            \
    }                                                                                            \
    RS_SCAN_RUN_POINTS(id, id##_run, id##_scratch)                                               \
    KIT_DEV_DESCRIBE(rs_##id##_describe, id##_kernels[1], TBS, 0)

#endif
