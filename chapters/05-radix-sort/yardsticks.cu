/* yardsticks.cu - chapter 05's yardsticks, declared in radix.h:
 *   cub_radix_sort  cub::DeviceRadixSort::SortKeys / SortPairs on the same keys, values and
 *                   bit range (num_items as size_t: CUB picks 32-bit offsets up to 2^32 - 1);
 *   thrust_sort     what a user writes: thrust::stable_sort (keys) or stable_sort_by_key
 *                   (pairs) on device pointers, after copying the input to the output (Thrust
 *                   sorts in place); with a bit range narrower than the key, a comparator on
 *                   those bits (Thrust has no bit-range sort; that path is a merge sort).
 *                   Unlike every other entry of the chapter, it allocates and synchronizes:
 *                   Thrust gets its temporary storage with cudaMalloc and frees it with
 *                   cudaFree (kit_thrust.cuh's allocator, so that a fault is returned as an
 *                   error, not thrown where it ends the process), and thrust::cuda::par.on(s)
 *                   synchronizes the stream before the call returns (radix.h); scratch_bytes is 0.
 * CUB orders -0.0 and +0.0 as equal keys (its documentation says so); our steps order -0.0
 * first (radix.h).  The table marks both yardsticks KIT_OWN_ORDER, and the problem's
 * compare() checks them against the reference in CUB's float order.
 * Scratch (CUB): scratch_bytes(n, type, pairs) is the largest of CUB's size queries over the
 * bit ranges that change its plan (1 to all bits) and over pointer alignments; a run asks
 * what its own call needs (memoized), refuses with cudaErrorInvalidValue when that is more,
 * and passes the allotment as temp_storage_bytes so that CUB's own check guards it too. */
#include <cub/device/device_radix_sort.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include "kit_thrust.cuh"

#include "radix.h"
#include "radix_keys.cuh"

/* ------------------------------------------------------------------- CUB */

/* the C type CUB sorts for each key type (it transforms signed and float keys itself) */
template <int KT>
struct cub_key {
    typedef uint32_t type;
};
template <>
struct cub_key<RADIX_I32> {
    typedef int32_t type;
};
template <>
struct cub_key<RADIX_F32> {
    typedef float type;
};
template <>
struct cub_key<RADIX_U64> {
    typedef unsigned long long type;
};

template <class K>
static cudaError_t cub_call(void *tmp, size_t &bytes, const K *ki, K *ko, const uint32_t *vi, uint32_t *vo,
                            size_t n, int b, int e, cudaStream_t s)
{
    if (vi) return cub::DeviceRadixSort::SortPairs(tmp, bytes, ki, ko, vi, vo, n, b, e, s);
    return cub::DeviceRadixSort::SortKeys(tmp, bytes, ki, ko, n, b, e, s);
}

static cudaError_t cub_any(void *tmp, size_t &bytes, const void *ki, void *ko, const uint32_t *vi, uint32_t *vo,
                           size_t n, int type, int b, int e, cudaStream_t s)
{
    return radix_dispatch_type<RADIX_TYPES_ALL>(type, [&](auto kt) {
        typedef typename cub_key<decltype(kt)::value>::type K;
        return cub_call(tmp, bytes, (const K *)ki, (K *)ko, vi, vo, n, b, e, s);
    });
}

static cudaError_t cub_allotment(size_t n, int type, int pairs, size_t &most)
{
    const int bits = radix_key_bits(type);
    const int ends[] = {1, 8, 9, bits / 2, bits};
    most = 0;
    for (int j = 0; j < 5; j++) {
        const int e = ends[j];
        KIT_TRY(kit_query_max(
            [&](int c, size_t &b) {
                uint32_t *v = pairs ? kit_query_ptr<uint32_t>(c ? c : 1, 0) : NULL;
                return cub_any(NULL, b, kit_query_ptr<const uint32_t>(c, 0), kit_query_ptr<uint32_t>(c, 1), v,
                               pairs ? kit_query_ptr<uint32_t>(c ? c : 1, 1) : NULL, n, type, 0, e, 0);
            },
            most));
    }
    return cudaSuccess;
}

extern "C" size_t radix_yard_cub_scratch(size_t n, int type, int pairs)
{
    size_t bytes = 0;
    if (n > RADIX_MAX_N || type < 0 || type >= RADIX_NTYPES) return 0;
    if (cub_allotment(n, type, pairs, bytes) != cudaSuccess) {
        cudaGetLastError(); /* no error left behind for the caller */
        return 0;
    }
    return bytes;
}

extern "C" cudaError_t radix_yard_cub(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                      uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                      void *scratch, cudaStream_t s)
{
    static kit_bytes_memo allot_memo[RADIX_NTYPES][2], need_memo[RADIX_NTYPES][2];
    size_t allot = 0, need = 0;
    const int pairs = vals_in != NULL;
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    if (scratch == NULL) return cudaErrorInvalidValue; /* CUB would take it for a size query */
    KIT_TRY(kit_memo_bytes(allot_memo[type][pairs], n, 0x100u,
                           [&](size_t &b) { return cub_allotment(n, type, pairs, b); }, allot));
    const unsigned cls = kit_align_class(keys_in, keys_out) | (unsigned)begin_bit << 8 | (unsigned)end_bit << 16 |
                         (pairs ? kit_align_class(vals_in, vals_out) << 24 : 0u);
    KIT_TRY(kit_memo_bytes(need_memo[type][pairs], n, cls,
                           [&](size_t &b) {
                               return cub_any(NULL, b, keys_in, keys_out, vals_in, vals_out, n, type,
                                              begin_bit, end_bit, s);
                           },
                           need));
    if (need > allot) return cudaErrorInvalidValue;
    KIT_TRY(cub_any(scratch, allot, keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, s));
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- Thrust */

/* orders two keys by bits [b, e) of their images (RADIX_* type KT), with -0.0 read as +0.0
 * as Thrust's own float sort (CUB) does on the full key, so that both paths agree */
template <int KT>
struct bits_less {
    typedef typename radix_key_t<KT>::type K;
    int b, e;
    __host__ __device__ bool operator()(K x, K y) const
    {
        const int w = e - b;
        const unsigned long long m = w >= 64 ? ~0ull : ((1ull << w) - 1);
        return ((unsigned long long)image(x) >> b & m) < ((unsigned long long)image(y) >> b & m);
    }
    __host__ __device__ static K image(K k)
    {
        if constexpr (KT == RADIX_I32) return k ^ 0x80000000u;
        else if constexpr (KT == RADIX_F32) {
            if (k == 0x80000000u) k = 0u; /* -0.0 as +0.0: Thrust's (CUB's) float order */
            return k ^ ((k & 0x80000000u) ? 0xFFFFFFFFu : 0x80000000u);
        }
        else return k;
    }
};

template <class K, int KT>
static cudaError_t thrust_call(const void *ki, void *ko, const uint32_t *vi, uint32_t *vo, size_t n, int b, int e,
                               cudaStream_t s)
{
    K *out = (K *)ko;
    const bool all = b == 0 && e == 8 * (int)sizeof(K);
    KIT_TRY(cudaMemcpyAsync(ko, ki, n * sizeof(K), cudaMemcpyDeviceToDevice, s));
    if (vi) KIT_TRY(cudaMemcpyAsync(vo, vi, n * 4, cudaMemcpyDeviceToDevice, s));
    kit_thrust t; /* Thrust's errors returned, none thrown (kit_thrust.cuh) */
    return t.run([&] {
        const auto pol = t.on(s);
        if (all && vi) thrust::stable_sort_by_key(pol, out, out + n, vo);
        else if (all) thrust::stable_sort(pol, out, out + n);
        else if (vi) {
            /* the comparator sees the raw bits: sort them as unsigned words */
            typedef typename radix_key_t<KT>::type U;
            thrust::stable_sort_by_key(pol, (U *)out, (U *)out + n, vo, bits_less<KT>{b, e});
        } else {
            typedef typename radix_key_t<KT>::type U;
            thrust::stable_sort(pol, (U *)out, (U *)out + n, bits_less<KT>{b, e});
        }
    });
}

extern "C" size_t radix_yard_thrust_scratch(size_t n, int type, int pairs)
{
    (void)n;
    (void)type;
    (void)pairs;
    return 0;
}

extern "C" cudaError_t radix_yard_thrust(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                         uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                         void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    return radix_dispatch_type<RADIX_TYPES_ALL>(type, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        return thrust_call<typename cub_key<KT>::type, KT>(keys_in, keys_out, vals_in, vals_out, n, begin_bit,
                                                           end_bit, s);
    });
}
