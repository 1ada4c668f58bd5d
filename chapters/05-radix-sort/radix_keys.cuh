/* radix_keys.cuh - what every chapter-05 step shares: the keys' order-preserving images
 * on the device, digit extraction, and the host-side plan of the passes (which buffer
 * each pass reads and writes, scratch carving).
 *
 * Buffers always hold the keys' own bit patterns; a pass computes the image of each key
 * it loads (one or two ALU operations) and cuts the digit from it.  So no pass needs to
 * undo anything, and the first pass can read the caller's keys_in directly. */
#ifndef RADIX_KEYS_CUH
#define RADIX_KEYS_CUH

#include <stdint.h>

#include <type_traits>

#include "kit_cuda.cuh"
#include "radix.h"

/* ------------------------------------------------------------- device side */

template <int KT>
struct radix_key_t {
    typedef uint32_t type;
};
template <>
struct radix_key_t<RADIX_U64> {
    typedef unsigned long long type;
};

/* the image of a key of type KT (compile time) */
template <int KT>
static __device__ __forceinline__ typename radix_key_t<KT>::type radix_image(typename radix_key_t<KT>::type k)
{
    if constexpr (KT == RADIX_I32) return k ^ 0x80000000u;
    else if constexpr (KT == RADIX_F32) return k ^ ((uint32_t)((int32_t)k >> 31) | 0x80000000u);
    else return k;
}

/* digit of key k: bits [shift, shift + bits) of its image */
template <int KT>
static __device__ __forceinline__ unsigned radix_digit(typename radix_key_t<KT>::type k, int shift, int bits)
{
    return (unsigned)(radix_image<KT>(k) >> shift) & ((1u << bits) - 1u);
}

/* the same with a run-time type (32-bit keys), for the simple steps */
static __device__ __forceinline__ uint32_t radix_image_rt(uint32_t k, int type)
{
    if (type == RADIX_I32) return k ^ 0x80000000u;
    if (type == RADIX_F32) return k ^ ((uint32_t)((int32_t)k >> 31) | 0x80000000u);
    return k;
}

/* its inverse: the key whose image is t (a step that keeps images between passes writes keys back) */
static __device__ __forceinline__ uint32_t radix_unimage_rt(uint32_t t, int type)
{
    if (type == RADIX_I32) return t ^ 0x80000000u;
    if (type == RADIX_F32) return t ^ ((t & 0x80000000u) ? 0x80000000u : 0xFFFFFFFFu);
    return t;
}

/* ------------------------------------------------------------- host side */

/* Where each pass reads and writes.  Pass p (0 .. passes-1) covers bits
 * [begin + p*bits, min(begin + (p+1)*bits, end)); the last pass always writes keys_out
 * (vals_out): pass 0 reads the caller's input and writes out or alt so that the
 * alternation ends on out. */
struct radix_plan {
    int passes;
    const void *src_keys[64];
    void *dst_keys[64];
    const uint32_t *src_vals[64];
    uint32_t *dst_vals[64];
    int shift[64], bits[64];
};

static inline int radix_npasses(int begin_bit, int end_bit, int digit_bits)
{
    return (end_bit - begin_bit + digit_bits - 1) / digit_bits;
}

static inline void radix_make_plan(radix_plan *pl, const void *keys_in, void *keys_out, void *alt_keys,
                                   const uint32_t *vals_in, uint32_t *vals_out, uint32_t *alt_vals,
                                   int begin_bit, int end_bit, int digit_bits)
{
    int p;
    pl->passes = radix_npasses(begin_bit, end_bit, digit_bits);
    for (p = 0; p < pl->passes; p++) {
        /* counted from the last pass: it writes out, the one before alt, ... */
        const int to_out = ((pl->passes - 1 - p) % 2) == 0;
        pl->dst_keys[p] = to_out ? keys_out : alt_keys;
        pl->dst_vals[p] = vals_in ? (to_out ? vals_out : alt_vals) : NULL;
        pl->src_keys[p] = p == 0 ? keys_in : pl->dst_keys[p - 1];
        pl->src_vals[p] = vals_in ? (p == 0 ? vals_in : pl->dst_vals[p - 1]) : NULL;
        pl->shift[p] = begin_bit + p * digit_bits;
        pl->bits[p] = end_bit - pl->shift[p] < digit_bits ? end_bit - pl->shift[p] : digit_bits;
    }
}

/* Carving scratch: each piece starts 256-byte aligned (scratch itself is). */
static inline size_t radix_round256(size_t b) { return (b + 255) & ~(size_t)255; }

struct radix_carve {
    char *base;
    size_t used;
};
static inline void *radix_take(radix_carve *c, size_t bytes)
{
    void *p = c->base ? c->base + c->used : NULL;
    c->used += radix_round256(bytes);
    return p;
}

/* The alternate key and value buffers every multi-pass step needs (n keys, n values). */
static inline size_t radix_alt_bytes(size_t n, int type, int pairs)
{
    return radix_round256(n * (size_t)radix_key_bytes(type)) + (pairs ? radix_round256(n * 4) : 0);
}

/* begin == end (or the plan has no pass): the output is the input */
static inline cudaError_t radix_copy_through(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                             uint32_t *vals_out, size_t n, int type, cudaStream_t s)
{
    KIT_TRY(cudaMemcpyAsync(keys_out, keys_in, n * (size_t)radix_key_bytes(type), cudaMemcpyDeviceToDevice, s));
    if (vals_in) KIT_TRY(cudaMemcpyAsync(vals_out, vals_in, n * 4, cudaMemcpyDeviceToDevice, s));
    return cudaSuccess;
}

/* The start of every step's run: radix.h's checks, then the cases with nothing to sort (n = 0,
 * and an empty bit range: a copy).  *work = 1 when the step has passes to run. */
static inline cudaError_t radix_begin(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                      uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                      const void *scratch, unsigned types, size_t max_n, cudaStream_t s,
                                      int *work)
{
    *work = 0;
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, types,
                        max_n));
    if (n == 0) return cudaSuccess;
    if (begin_bit == end_bit) return radix_copy_through(keys_in, keys_out, vals_in, vals_out, n, type, s);
    *work = 1;
    return cudaSuccess;
}

/* f(kt) with the run-time key type as a compile-time constant (kt: std::integral_constant<int, KT>),
 * for the types of the mask TYPES; for another type, `other` */
template <unsigned TYPES, class R, class F>
static inline R radix_on_type(int type, R other, F f)
{
    if constexpr ((TYPES >> RADIX_U32) & 1u)
        if (type == RADIX_U32) return f(std::integral_constant<int, RADIX_U32>{});
    if constexpr ((TYPES >> RADIX_I32) & 1u)
        if (type == RADIX_I32) return f(std::integral_constant<int, RADIX_I32>{});
    if constexpr ((TYPES >> RADIX_F32) & 1u)
        if (type == RADIX_F32) return f(std::integral_constant<int, RADIX_F32>{});
    if constexpr ((TYPES >> RADIX_U64) & 1u)
        if (type == RADIX_U64) return f(std::integral_constant<int, RADIX_U64>{});
    return other;
}

/* the same for a run: another type is cudaErrorInvalidValue */
template <unsigned TYPES, class F>
static inline cudaError_t radix_dispatch_type(int type, F f)
{
    return radix_on_type<TYPES>(type, cudaErrorInvalidValue, f);
}

/* f(kt, pairs): the key type and keys-only / pairs (std::bool_constant) as compile-time constants */
template <unsigned TYPES, class F>
static inline cudaError_t radix_dispatch(int type, bool pairs, F f)
{
    return radix_dispatch_type<TYPES>(type, [&](auto kt) {
        return pairs ? f(kt, std::true_type{}) : f(kt, std::false_type{});
    });
}

/* The dynamic shared memory limit of a kernel, raised where smem passes it (48 KB less the kernel's
 * static shared memory): once per kernel (done_dev: a static of the caller's instantiation) and device. */
template <class F>
static inline cudaError_t radix_smem_attr(F *kernel, size_t smem, int *done_dev)
{
    int dev = 0;
    KIT_TRY(cudaGetDevice(&dev));
    if (*done_dev == dev + 1) return cudaSuccess;
    KIT_TRY(kit_smem_optin((const void *)kernel, smem));
    *done_dev = dev + 1;
    return cudaSuccess;
}

/* 1 when a block of kernel with smem bytes of dynamic shared memory fits this device's (or the
 * KIT_DEVICE profile's) per-block limit, static shared memory included; the steps whose Hopper tile
 * does not fit (Turing grants 64 KB per block) take their smaller tile.  blocks > 1: and that many
 * such blocks fit one SM's shared memory at once, the driver's reserve included (kit_block_smem_on_sm,
 * as kit_occupancy counts): the occupancy a tile's register budget was set for.  With no device to
 * ask: 1 (the launch then reports the error). */
template <class F>
static inline int radix_block_fits_now(F *kernel, size_t smem, int blocks)
{
    const kit_device *d;
    struct cudaFuncAttributes fa;
    size_t block;
    if (kit_device_get(&d) != cudaSuccess || cudaFuncGetAttributes(&fa, (const void *)kernel) != cudaSuccess) {
        (void)cudaGetLastError();
        return 1;
    }
    block = fa.sharedSizeBytes + smem;
    return block <= d->smem_block_optin &&
           (blocks <= 1 || (size_t)blocks * kit_block_smem_on_sm(d, block) <= d->smem_per_sm);
}

/* the same, asked once per device: *memo (a static of the caller's instantiation, one per kernel and
 * blocks) holds (device + 1) * 2 + answer, so a sort of 2^16 keys does not pay a runtime query per call */
template <class F>
static inline int radix_block_fits(F *kernel, size_t smem, int *memo, int blocks = 1)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 1;
    }
    if (*memo / 2 != dev + 1) *memo = (dev + 1) * 2 + radix_block_fits_now(kernel, smem, blocks);
    return *memo & 1;
}

/* 1 when one cluster of cl blocks of tbs threads of kernel, smem bytes of dynamic shared memory each,
 * runs on this device: compute capability 9 or later (the KIT_DEVICE profile's, where one is set), the
 * cluster launch attribute, the kernel built as sm_90 or later (binary and PTX: an ARCH=compute_75 JIT
 * build holds only the pre-sm_90 body), a block fits (radix_block_fits_now), and the occupancy API
 * finds room for a whole cluster at once.  Asked once per device: *memo as radix_block_fits's. */
template <class F>
static inline int radix_cluster_fits(F *kernel, int cl, int tbs, size_t smem, int *memo)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    if (*memo / 2 != dev + 1) {
        const kit_device *d;
        struct cudaFuncAttributes fa;
        int fit = 0, clusters = 0, attr = 0;
        if (kit_device_get(&d) == cudaSuccess && d->cc_major >= 9 &&
            cudaDeviceGetAttribute(&attr, cudaDevAttrClusterLaunch, dev) == cudaSuccess && attr &&
            cudaFuncGetAttributes(&fa, (const void *)kernel) == cudaSuccess && fa.binaryVersion >= 90 &&
            fa.ptxVersion >= 90 && radix_block_fits_now(kernel, smem, 1) &&
            (smem <= 48 * 1024 || kit_smem_optin((const void *)kernel, smem) == cudaSuccess)) {
            cudaLaunchConfig_t cfg = {};
            cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeClusterDimension;
            at[0].val.clusterDim.x = (unsigned)cl;
            at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
            cfg.gridDim = dim3((unsigned)cl);
            cfg.blockDim = dim3((unsigned)tbs);
            cfg.dynamicSmemBytes = smem;
            cfg.attrs = at;
            cfg.numAttrs = 1;
            fit = cudaOccupancyMaxActiveClusters(&clusters, (const void *)kernel, &cfg) == cudaSuccess && clusters >= 1;
        }
        (void)cudaGetLastError();
        *memo = (dev + 1) * 2 + fit;
    }
    return *memo & 1;
}

/* kernel f on one cluster of cl blocks of tbs threads, smem bytes of dynamic shared memory each */
template <class... A, class... B>
static cudaError_t radix_launch_cluster(void (*f)(A...), int cl, int tbs, size_t smem, cudaStream_t st, B... args)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)cl;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)cl);
    cfg.blockDim = dim3((unsigned)tbs);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, f, (A)args...);
}

#endif
