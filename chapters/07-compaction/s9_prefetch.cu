/* s9 - s8's kernel, plus an L2 prefetch: once a block has issued its own loads, its threads ask L2
 * for the bytes of the tile half a residency ahead (prefetch.global.L2, one per 128-byte line).
 * Changed versus s8: one knob, PF = 2.  The distance is computed at run time from the device: the
 * resident blocks of this kernel (occupancy x SMs) / 2, capped so that the tiles in flight fill at most
 * half the L2 (kit_prefetch_tiles).  The block that will own that tile starts about half a block
 * lifetime after the data was asked for, so it finds it in L2.
 * Why it is faster: s8 is bound by its blocks' lifetimes, not by DRAM.  A resident block loads its
 * tile, then waits on the look-back while its registers hold the values; with every resident block
 * waiting, few loads are in flight and DRAM idles (s8 reads at about 2.1 TB/s on the H100, where s1,
 * which never waits, reads at 3.2).  The prefetches keep DRAM streaming through those waits.  H100,
 * 2^28, values out: p = 0.1 takes 0.473 ms against s8's 0.559 (CUB 0.553), p = 1 0.840 against 0.858
 * (CUB 0.910); the single_pass table's prefetch rows show the distance: a whole residency ahead is
 * slower than s8 at p = 1 (1.09 ms), because the lines wait too long in L2 and are evicted by the writes.
 * What still limits it: the look-back is still a chain, and below half a residency of tiles (396 tiles,
 * 2.4 M elements, on an H100) no tile is that far ahead, so a small input runs exactly as s8 does. */
#include "compact_single_pass.cuh"

extern "C" const char compact_s9_param[] =
    "tbs=256 items=24 (6 x 16-byte loads) tile=blockIdx blocks/SM=6 prefetch=L2 ahead=resident/2";

extern "C" size_t compact_s9_prefetch_scratch(size_t n) { return sp_scratch<SP_S8>(n); }

extern "C" cudaError_t compact_s9_prefetch(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                           uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                           cudaStream_t s)
{
    return sp_run<SP_S9_RUN(SP_SELECT)>(in, flags, threshold, out, count, n, mode, scratch, s);
}

extern "C" cudaError_t compact_s9_describe(kit_kernel_desc *d) { return sp_describe<SP_S9_RUN(SP_SELECT)>(d); }
