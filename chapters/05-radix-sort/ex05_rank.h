/* ex05_rank.h - the host side of exercise ex05_tile_rank (radix_tile_rank.cuh): a launcher
 * that ranks every tile of an array of u32 keys with the exercise's device code.  The kit's
 * plumbing (ex05_rank.c launches the kernel of ex05_rank_dev.cu, device code only): the
 * exercise is radix_tile_rank.cuh. */
#ifndef EX05_RANK_H
#define EX05_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EX05_RANK_TBS 256  /* threads per block: one tile per block */
#define EX05_RANK_ITEMS 8  /* keys per thread */
#define EX05_RANK_TILE (EX05_RANK_TBS * EX05_RANK_ITEMS) /* keys per tile: 2048 */

/* Tile t holds keys[t * EX05_RANK_TILE .. min(n, (t + 1) * EX05_RANK_TILE)) (the last tile may
 * be partial: keys past n do not exist).  For every key i < n, rank[i] = its rank in its tile
 * in the stable order of (digit, position), the digit being bits [shift, shift + bits) of
 * keys[i]: (the tile's keys with a smaller digit) + (the tile's keys before i with the same
 * digit).  Nothing past rank[n - 1] is written.  1 <= bits <= 8, 0 <= shift, shift + bits <=
 * 32, and n <= EX05_RANK_TILE x (2^31 - 1) (one block per tile), else cudaErrorInvalidValue
 * before any launch; n = 0 does nothing.  Asynchronous on s. */
cudaError_t ex05_rank_tiles(const uint32_t *keys, uint32_t *rank, size_t n, int shift, int bits,
                            cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
