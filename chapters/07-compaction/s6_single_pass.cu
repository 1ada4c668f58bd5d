/* s6 - one kernel: each tile counts, ranks and writes its selected elements once, its global offset
 * from a decoupled look-back over the tile counts (Merrill & Garland's single-pass scan applied to
 * selection, as CUB's DeviceSelect does).
 * Changed versus s5: the count kernel, the table scan and the second read of the input are gone.  A
 * block takes a tile number from an atomic counter (so it waits only on tiles whose blocks run),
 * loads its TBS x IPT elements once (16-byte vector loads after peeling the input to a 16-byte
 * boundary, warp-striped rows of 512 bytes), ranks them with per-row shuffle scans of packed counts,
 * publishes the tile's count, and warp 0 sums its predecessors' counts 32 descriptors at a time
 * (blocks/lookback.cuh) while the other warps stage their selected elements in shared memory; the
 * block then writes the tile's output with coalesced stores.  Machinery: compact_single_pass.cuh,
 * shared with partition and unique.
 * Why it is faster: the data moves once: 4n bytes read and 4pn written (index output: the same;
 * flagged index output reads only the n flag bytes), the minimum for any order-keeping select; one
 * launch (plus the memset of the counter and the descriptors, n/768 bytes); three block barriers
 * per tile; 4 x 16-byte loads in flight per thread.
 * What still limits it: the look-back is a chain: a tile whose predecessors have not published yet
 * waits (short in steady state: a window of 32 predecessors usually holds an inclusive prefix); the
 * tile number costs an atomic round trip before the first load; partial groups (the first and the
 * last of the array) fall back to scalar loads; flagged value output loads 4 flags as one word
 * only when the flags sit as far from a 4-byte boundary as the values from a 16-byte one (the
 * harness's buffers do), else byte by byte. */
#include "compact_single_pass.cuh"

#define S6_TBS 384
#define S6_IPT 16
extern "C" const char compact_s6_param[] = "tbs=384 items=16 (4 x 16-byte loads) lookback=warp stage=smem";

extern "C" size_t compact_s6_single_pass_scratch(size_t n) { return sp_scratch<S6_TBS, S6_IPT>(n); }

extern "C" cudaError_t compact_s6_single_pass(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                              uint32_t *out, uint32_t *count, size_t n, int mode,
                                              void *scratch, cudaStream_t s)
{
    return sp_run<S6_TBS, S6_IPT, SP_SELECT>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" cudaError_t compact_s6_describe(kit_kernel_desc *d)
{
    return sp_describe<S6_TBS, S6_IPT, SP_SELECT>(d);
}

/* ---- tuning table: block size x items per thread, then two knobs: __launch_bounds__ asking for
 * more resident blocks per SM (value output's registers capped so that they fit), and the tile
 * from blockIdx.x instead of the ticket (as CUB does: no atomic round trip and no barrier before
 * the loads, but it relies on blocks starting in index order).  The first row is the ladder step. */
#define S6_FILE "chapters/07-compaction/s6_single_pass.cu"
#define S6_ROWF(T, I, ORD, MINB, K, W, PF, NOTE)                                                            \
    {{"s6_single_pass", "tbs=" #T " items=" #I " (" #I "/4 x 16-byte loads) lookback=warp stage=smem" NOTE, \
      "one kernel, decoupled look-back of tile counts", S6_FILE, NULL, KIT_STEP_GPU,                       \
      sp_describe<T, I, SP_SELECT, ORD, MINB, K, W, PF>, 0, COMPACT_MAX_N},                                \
     sp_scratch<T, I>, sp_run<T, I, SP_SELECT, ORD, MINB, K, W, PF>}
#define S6_ROWW(T, I, ORD, MINB, K, W, NOTE) S6_ROWF(T, I, ORD, MINB, K, W, 0, NOTE)
#define S6_ROWK(T, I, ORD, MINB, K, NOTE) S6_ROWW(T, I, ORD, MINB, K, 0, NOTE)
#define S6_ROWX(T, I, ORD, MINB, NOTE) S6_ROWK(T, I, ORD, MINB, 1, NOTE)
#define S6_ROW(T, I) S6_ROWX(T, I, SP_TICKET, 0, "")

extern "C" const compact_step compact_sp_variants[COMPACT_SP_NVARIANTS] = {
    S6_ROW(384, 16), S6_ROW(256, 16), S6_ROW(512, 16), S6_ROW(256, 24), S6_ROW(384, 12), S6_ROW(128, 16),
    /* value output keeps its IPT elements in registers through the look-back (39-40 registers at
     * 16 items against 32 for indices): ask for more blocks per SM */
    S6_ROWX(384, 16, SP_TICKET, 5, " minblocks=5"),
    S6_ROWX(384, 20, SP_TICKET, 4, " minblocks=4"),
    S6_ROWX(256, 24, SP_TICKET, 6, " minblocks=6"),
    /* the tile from blockIdx, alone and with the register caps, and larger tiles (fewer look-backs) */
    S6_ROWX(384, 16, SP_BLOCK_ORDER, 0, " tile=blockIdx"),
    S6_ROWX(384, 16, SP_BLOCK_ORDER, 5, " tile=blockIdx minblocks=5"),
    S6_ROWX(256, 16, SP_BLOCK_ORDER, 8, " tile=blockIdx minblocks=8"),
    S6_ROWX(256, 24, SP_BLOCK_ORDER, 0, " tile=blockIdx"),
    S6_ROWX(256, 24, SP_BLOCK_ORDER, 6, " tile=blockIdx minblocks=6"),
    S6_ROWX(384, 20, SP_BLOCK_ORDER, 4, " tile=blockIdx minblocks=4"),
    S6_ROWX(512, 16, SP_BLOCK_ORDER, 3, " tile=blockIdx minblocks=3"),
    S6_ROWX(384, 24, SP_BLOCK_ORDER, 3, " tile=blockIdx minblocks=3"),
    S6_ROWX(256, 32, SP_BLOCK_ORDER, 4, " tile=blockIdx minblocks=4"),
    /* around s8 (256 x 24, blockIdx, 6 blocks): smaller and larger tiles at the same warps per SM */
    S6_ROWX(128, 24, SP_BLOCK_ORDER, 12, " tile=blockIdx minblocks=12"),
    S6_ROWX(256, 20, SP_BLOCK_ORDER, 6, " tile=blockIdx minblocks=6"),
    S6_ROWX(256, 28, SP_BLOCK_ORDER, 5, " tile=blockIdx minblocks=5"),
    /* a wider look-back window (lookback_warp_u32<K>: 32 x K tiles per round trip instead of 32), at
     * s8's shape and at a smaller and a larger tile */
    S6_ROWK(256, 24, SP_BLOCK_ORDER, 6, 2, " tile=blockIdx minblocks=6 window=64"),
    S6_ROWK(256, 24, SP_BLOCK_ORDER, 6, 4, " tile=blockIdx minblocks=6 window=128"),
    S6_ROWK(256, 16, SP_BLOCK_ORDER, 8, 4, " tile=blockIdx minblocks=8 window=128"),
    S6_ROWK(256, 32, SP_BLOCK_ORDER, 4, 4, " tile=blockIdx minblocks=4 window=128"),
    /* the walk by a warp of its own (+32 threads, LBW = 1), started with the block instead of after
     * the tile is loaded and counted: s8's shape at 5 and 6 blocks per SM (288 x 6 threads leave 37
     * registers a thread), with a window of 64, and the 256 x 32 tile */
    S6_ROWW(256, 24, SP_BLOCK_ORDER, 5, 1, 1, " tile=blockIdx minblocks=5 walker=own warp"),
    S6_ROWW(256, 24, SP_BLOCK_ORDER, 6, 1, 1, " tile=blockIdx minblocks=6 walker=own warp"),
    S6_ROWW(256, 24, SP_BLOCK_ORDER, 5, 2, 1, " tile=blockIdx minblocks=5 window=64 walker=own warp"),
    S6_ROWW(256, 32, SP_BLOCK_ORDER, 4, 1, 1, " tile=blockIdx minblocks=4 walker=own warp"),
    /* an L2 prefetch of the tile a residency ahead (PF = 1) or half of one (PF = 2; the resident blocks
     * from the device at run time): DRAM keeps streaming while the resident blocks wait on their
     * look-back */
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 6, 1, 0, 1, " tile=blockIdx minblocks=6 prefetch=L2 ahead=resident"),
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 6, 1, 0, 2, " tile=blockIdx minblocks=6 prefetch=L2 ahead=resident/2"),
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 5, 1, 1, 1, " tile=blockIdx minblocks=5 walker=own warp prefetch=L2 ahead=resident"),
    S6_ROWF(256, 32, SP_BLOCK_ORDER, 4, 1, 0, 1, " tile=blockIdx minblocks=4 prefetch=L2 ahead=resident"),
    /* around s9 (s8's shape, the walker, a third of a residency ahead): shorter distances without the
     * walker, the walker at a half, a third (s9's kernel) and a quarter, the larger tile */
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 6, 1, 0, 3, " tile=blockIdx minblocks=6 prefetch=L2 ahead=resident/3"),
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 6, 1, 0, 4, " tile=blockIdx minblocks=6 prefetch=L2 ahead=resident/4"),
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 5, 1, 1, 2, " tile=blockIdx minblocks=5 walker=own warp prefetch=L2 ahead=resident/2"),
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 5, 1, 1, 3, " tile=blockIdx minblocks=5 walker=own warp prefetch=L2 ahead=resident/3"),
    S6_ROWF(256, 24, SP_BLOCK_ORDER, 5, 1, 1, 4, " tile=blockIdx minblocks=5 walker=own warp prefetch=L2 ahead=resident/4"),
    S6_ROWF(256, 32, SP_BLOCK_ORDER, 4, 1, 0, 2, " tile=blockIdx minblocks=4 prefetch=L2 ahead=resident/2"),
};
