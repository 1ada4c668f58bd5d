/* compact_check.c - the argument checks every chapter-07 step makes before any launch
 * (compact.h's contract): the mode and n first (cudaErrorInvalidValue), then the
 * alignments (cudaErrorMisalignedAddress), then the pointers a run needs. */
#include "compact.h"

cudaError_t compact_check(const uint32_t *in, const uint8_t *flags, const uint32_t *out,
                          const uint32_t *count, size_t n, int mode, const void *scratch)
{
    if (mode < 0 || mode > COMPACT_MODE_MAX) return cudaErrorInvalidValue;
    if (n > COMPACT_MAX_N) return cudaErrorInvalidValue;
    if (((uintptr_t)in | (uintptr_t)out | (uintptr_t)count) & 3u) return cudaErrorMisalignedAddress;
    if ((uintptr_t)scratch & 255u) return cudaErrorMisalignedAddress;
    if (!count) return cudaErrorInvalidValue; /* written by every run, n = 0 included */
    if (n > 0 && (!in || !out)) return cudaErrorInvalidValue;
    if (n > 0 && (mode & COMPACT_PRED_MASK) == COMPACT_FLAGGED && !flags) return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t compact_check_unique(const uint32_t *in, const uint32_t *out, const uint32_t *count, size_t n,
                                 int mode, const void *scratch)
{
    if (mode < 0 || mode > COMPACT_MODE_MAX) return cudaErrorInvalidValue;
    return compact_check(in, NULL, out, count, n, mode & COMPACT_OUT_MASK, scratch);
}
