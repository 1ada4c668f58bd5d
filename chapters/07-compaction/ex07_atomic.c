/* ex07_atomic.c - the launcher of exercise ex07_warp_atomic (ex07_atomic.h), the kit's own host
 * code: the kernel (ex07_atomic_dev.cu, with the student's compact_warp_slot) is device code,
 * loaded at first use (reference/kit_dev.h); nothing of the student's is included here. */
#include "ex07_atomic.h"
#include "kit_dev.h"

extern const unsigned char KIT_DEV_IMAGE(07_compaction, ex07_atomic_dev)[];
static kit_dev_fn ex07_kernel = {KIT_DEV_IMAGE(07_compaction, ex07_atomic_dev), "ex07_warp_slots_kernel", 0};

cudaError_t ex07_warp_slots(const uint8_t *want, uint32_t *slot, unsigned *counter, size_t n, cudaStream_t s)
{
    const size_t blocks = n / EX07_ATOMIC_TBS + (n % EX07_ATOMIC_TBS != 0);
    const void *k;
    void *args[] = {(void *)&want, (void *)&slot, (void *)&counter, (void *)&n};
    if (n == 0) return cudaSuccess;
    if (!want || !slot || !counter) return cudaErrorInvalidValue;
    if (blocks > 0x7FFFFFFF) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    KIT_TRY(kit_dev_get(&ex07_kernel, &k));
    return kit_dev_launch(k, (dim3){(unsigned)blocks, 1, 1}, (dim3){EX07_ATOMIC_TBS, 1, 1}, 0, s, args);
}
