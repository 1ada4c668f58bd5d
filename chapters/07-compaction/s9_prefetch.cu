/* s9 - s8's tile with two changes that keep DRAM busy while blocks wait on the look-back: an L2
 * prefetch of the tile a third of a residency ahead, and a warp of its own that walks the look-back.
 * Changed versus s8: (1) once a block has issued its own loads, its threads ask L2 for the bytes of the
 * tile a third of a residency ahead (prefetch.global.L2, one per 128-byte line: blocks/prefetch.cuh).
 * The distance is computed at run time from the device: this kernel's resident blocks (occupancy x
 * SMs) / 3, capped so that the tiles in flight fill at most half the L2 (kit_prefetch_tiles).  (2) A
 * ninth warp loads nothing: it starts the look-back walk when the block starts, since the tile's
 * exclusive prefix depends only on the tiles before it, and hands it to the data warps through named
 * barriers (256 + 32 threads, capped to 5 blocks per SM).
 * Why it is faster: s8 is bound by its blocks' lifetimes, not by DRAM.  A resident block loads its tile
 * and then waits on the look-back with its registers holding the values; with every resident block
 * waiting, few loads are in flight (at p = 0 s8 reads slower than s1, which never waits).  The prefetches keep DRAM streaming through those waits, and the walk, started
 * early, overlaps the tile's load latency instead of following it.  The README's section s9 has
 * the single_pass table's rows for each part alone and for the other prefetch distances (a whole
 * residency ahead is too far: the lines wait in L2 long enough to be evicted before use).
 * What still limits it: the look-back is still a chain of tiles, and below a third of a residency of
 * tiles (a few hundred tiles on an H100 or H200) no tile is that far ahead, so a small input gets only
 * the early walk. */
#include "compact_single_pass.cuh"

extern "C" const char compact_s9_param[] =
    "tbs=256+32 items=24 (6 x 16-byte loads) tile=blockIdx blocks/SM=5 walker=own warp prefetch=L2 ahead=resident/3";

extern "C" size_t compact_s9_prefetch_scratch(size_t n) { return sp_scratch<SP_S8>(n); }

extern "C" cudaError_t compact_s9_prefetch(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                           uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                           cudaStream_t s)
{
    return sp_run<SP_S9_RUN(SP_SELECT)>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" cudaError_t compact_s9_describe(kit_kernel_desc *d) { return sp_describe<SP_S9_RUN(SP_SELECT)>(d); }
