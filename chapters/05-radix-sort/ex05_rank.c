/* ex05_rank.c - the launcher of exercise ex05_tile_rank (ex05_rank.h), the kit's own host code:
 * the kernel (ex05_rank_dev.cu, with the student's tr_rank_tile) is device code, loaded at first
 * use (reference/kit_dev.h); nothing of the student's is included here. */
#include "ex05_rank.h"
#include "kit_dev.h"

extern const unsigned char KIT_DEV_IMAGE(05_radix_sort, ex05_rank_dev)[];
static kit_dev_fn ex05_kernel = {KIT_DEV_IMAGE(05_radix_sort, ex05_rank_dev), "ex05_rank_tiles_kernel", 0};

cudaError_t ex05_rank_tiles(const uint32_t *keys, uint32_t *rank, size_t n, int shift, int bits, cudaStream_t s)
{
    const size_t blocks = n / EX05_RANK_TILE + (n % EX05_RANK_TILE != 0);
    const void *k;
    void *args[] = {(void *)&keys, (void *)&rank, (void *)&n, (void *)&shift, (void *)&bits};
    if (bits < 1 || bits > 8 || shift < 0 || shift + bits > 32) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    if (blocks > 0x7FFFFFFF) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    KIT_TRY(kit_dev_get(&ex05_kernel, &k));
    return kit_dev_launch(k, (dim3){(unsigned)blocks, 1, 1}, (dim3){EX05_RANK_TBS, 1, 1}, 0, s, args);
}
