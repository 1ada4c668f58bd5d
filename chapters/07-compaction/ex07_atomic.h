/* ex07_atomic.h - the host side of exercise ex07_warp_atomic (compact_warp_atomic.cuh): a
 * launcher that lets every thread of a grid ask compact_warp_slot for a slot.  The kit's
 * plumbing (ex07_atomic.c launches the kernel of ex07_atomic_dev.cu, device code only): the
 * exercise is compact_warp_atomic.cuh. */
#ifndef EX07_ATOMIC_H
#define EX07_ATOMIC_H

#include <stddef.h>
#include <stdint.h>

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EX07_ATOMIC_TBS 128 /* threads per block; warps are threads 32 w .. 32 w + 31 */

/* Thread i (i < n rounded up to whole warps) calls compact_warp_slot(counter, i < n &&
 * want[i] != 0); for want[i] != 0, slot[i] = what it returned.  slot[i] with want[i] == 0 is
 * not written.  *counter is not reset (the caller sets its start).  n = 0 does nothing;
 * with n > 0, want, slot or counter NULL, or n > EX07_ATOMIC_TBS x (2^31 - 1) (one block per
 * EX07_ATOMIC_TBS elements): cudaErrorInvalidValue before any launch.  Asynchronous on s. */
cudaError_t ex07_warp_slots(const uint8_t *want, uint32_t *slot, unsigned *counter, size_t n, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
