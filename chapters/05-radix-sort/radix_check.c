/* radix_check.c - the argument checks every chapter-05 step makes before any launch. */
#include "radix.h"

cudaError_t radix_check(const void *keys_in, const void *keys_out, const uint32_t *vals_in,
                        const uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                        const void *scratch, unsigned types, size_t max_n)
{
    const uintptr_t key_align = (uintptr_t)radix_key_bytes(type) - 1;
    if (type < 0 || type >= RADIX_NTYPES || !(types >> type & 1u)) return cudaErrorInvalidValue;
    if (begin_bit < 0 || begin_bit > end_bit || end_bit > radix_key_bits(type)) return cudaErrorInvalidValue;
    if (n > (max_n ? max_n : RADIX_MAX_N)) return cudaErrorInvalidValue;
    if (((uintptr_t)keys_in | (uintptr_t)keys_out) & key_align) return cudaErrorMisalignedAddress;
    if (vals_in && (((uintptr_t)vals_in | (uintptr_t)vals_out) & 3u)) return cudaErrorMisalignedAddress;
    if ((uintptr_t)scratch & 255u) return cudaErrorMisalignedAddress;
    if (n > 0 && (!keys_in || !keys_out || (vals_in && !vals_out))) return cudaErrorInvalidValue;
    return cudaSuccess;
}
