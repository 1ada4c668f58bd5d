/* ballot_tile.cuh - one tile of the device-wide binary prefix sum, as steps s2 and s3
 * process it (device code only).
 *
 * Flag width: one byte per flag.  A byte is the narrowest type every producer can write
 * with a plain store (and what CUB is given), and four flags fit one 32-bit word, so one
 * load instruction brings 128 flags per warp and one POPC counts a lane's four flags.
 *
 * Layout.  A tile is TBS threads x ROWS rows x 4 flags.  Warp w owns the contiguous chunk
 * [w * ROWS * 128, (w+1) * ROWS * 128) of the tile; row k of that chunk is 128 flags, and
 * lane l holds its word l: flags 128k + 4l .. 128k + 4l + 3.  Why this layout: the output
 * (4 bytes per flag) is four fifths of the traffic, and with it the lane's four offsets of one
 * row are one 16-byte store and the warp's store of a row is 512 contiguous bytes; the
 * loads are 4 bytes per lane, still 128 contiguous bytes per warp instruction.
 *
 * Per row the warp needs the exclusive sum of the lanes' word counts c (0..4): three bit
 * planes of c (three ballots, RS_BITPLANE) or a five-step shuffle scan (RS_SHFL).  Inside
 * a word, w * 0x01010101 holds in byte j the flags 0..j (at most 4: no carries); minus w
 * it is exclusive.  The flags must be 0 or 1.
 *
 * Alignment (MODE, chosen on the host once per launch; s2 and s3 use it):
 *   TM_ALIGNED  flags 4-byte and offsets 16-byte aligned: the layout above as is.
 *   TM_SHIFT    the tiles lie on a grid shifted by lo = flags % 4 flags: logical
 *               index L is flag L - lo, for L in [lo, n + lo), so every whole word
 *               of the shifted grid is a 4-byte aligned word of flags; the first
 *               and the last tile are partial and check every flag.  The offsets,
 *               misaligned the same way, still take 16-byte stores.
 *   TM_STAGED   the same shifted loads, but the offsets' misalignment differs, so
 *               each row goes through 512 bytes of shared memory per warp and
 *               leaves as four coalesced 4-byte stores per lane (128 contiguous
 *               bytes per warp instruction). */
#ifndef BALLOT_TILE_CUH
#define BALLOT_TILE_CUH

#include <stdint.h>

#include "blocks/ballot_block.cuh"

enum { RS_BITPLANE = 0, RS_SHFL = 1 }; /* how a warp scans the word counts of a row */
enum { ST_DEFAULT = 0, ST_STREAM = 1 }; /* plain stores, or st.global.cs (evict first) */
enum { TM_ALIGNED = 0, TM_SHIFT = 1, TM_STAGED = 2 }; /* how a tile reaches memory (above) */

/* The mode and shift for flags and offsets (offsets 4-byte aligned: checked before). */
static inline int tile_mode(const void *flags, const void *offsets, size_t *lo)
{
    const uintptr_t f = (uintptr_t)flags, o = (uintptr_t)offsets;
    *lo = (size_t)(f & 3u);
    if (*lo == 0 && (o & 15u) == 0) return TM_ALIGNED;
    return ((o / 4u - *lo) & 3u) == 0 ? TM_SHIFT : TM_STAGED;
}

template <int TBS, int ROWS>
struct tile_shape {
    static constexpr int NW = TBS / 32;
    static constexpr int WARP_FLAGS = ROWS * 128;
    static constexpr int TILE = NW * WARP_FLAGS; /* flags per tile */
};

/* w[k] = this lane's word of row k of the chunk that starts at flag `chunk`.
 * FULL: the whole tile lies inside [0, n); otherwise flags past n read as 0 and no byte
 * past n is touched. */
/* SHIFT: chunk and n are on the shifted grid (flag L at flags[L - lo], L in [lo, n + lo)). */
template <int ROWS, bool FULL, bool SHIFT = false>
static __device__ __forceinline__ void tile_load(const uint8_t *__restrict__ flags, size_t chunk,
                                                 size_t n, unsigned lane, uint32_t (&w)[ROWS],
                                                 size_t lo = 0)
{
    if constexpr (SHIFT) {
        const size_t end = n + lo;
#pragma unroll
        for (int k = 0; k < ROWS; k++) {
            const size_t b = chunk + 128u * k + 4u * lane;
            if (FULL || (b >= lo && b + 4 <= end)) {
                w[k] = *reinterpret_cast<const uint32_t *>(flags + (b - lo)); /* 4-byte aligned */
            } else {
                uint32_t x = 0;
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (b + j >= lo && b + j < end) x |= (uint32_t)flags[b + j - lo] << (8 * j);
                w[k] = x;
            }
        }
        return;
    }
    const uint32_t *f32 = reinterpret_cast<const uint32_t *>(flags + chunk) + lane;
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        const size_t b = chunk + 128u * k + 4u * lane;
        if (FULL || b + 4 <= n) {
            w[k] = f32[32 * k];
        } else {
            uint32_t x = 0;
#pragma unroll
            for (int j = 0; j < 4; j++)
                if (b + j < n) x |= (uint32_t)flags[b + j] << (8 * j);
            w[k] = x;
        }
    }
}

/* pre[k] = flags of this warp's chunk before this lane's word of row k; returns the
 * warp's count. */
template <int ROWS, int RS>
static __device__ __forceinline__ unsigned tile_rows_scan(const uint32_t (&w)[ROWS],
                                                          unsigned (&pre)[ROWS])
{
    unsigned running = 0;
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        const unsigned c = __popc(w[k]); /* flags set in this word: 0..4 */
        unsigned excl, tot;
        if constexpr (RS == RS_BITPLANE) {
            excl = warp_bitplane_excl<3>(c, &tot);
        } else {
            const unsigned incl = warp_scan_shfl_incl(c);
            excl = incl - c;
            tot = __shfl_sync(BALLOT_FULL, incl, 31);
        }
        pre[k] = running + excl;
        running += tot;
    }
    return running;
}

/* Block step: the warps' counts through shared memory (one barrier); every thread sums
 * the counts of the warps before its own (NW <= 16 broadcast reads).  Called once per
 * kernel.  Returns the warp's prefix inside the tile; *tile_total gets the tile's count. */
template <int NW>
static __device__ __forceinline__ unsigned tile_warp_prefix(unsigned warp_total, unsigned *s_tot,
                                                            unsigned *tile_total)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned pre = 0, tot = 0;
    if (lane == 0) s_tot[warp] = warp_total;
    __syncthreads();
#pragma unroll
    for (int v = 0; v < NW; v++) {
        const unsigned x = s_tot[v];
        pre += (unsigned)v < warp ? x : 0u;
        tot += x;
    }
    *tile_total = tot;
    return pre;
}

template <int ST>
static __device__ __forceinline__ void store16(uint32_t *p, uint4 v)
{
    if constexpr (ST == ST_STREAM) __stcs(reinterpret_cast<uint4 *>(p), v);
    else *reinterpret_cast<uint4 *>(p) = v;
}

/* Write the offsets of this lane's words: base (everything before the warp's chunk) +
 * pre[k] + the flags before each byte of the word.  MODE: see the top of the file;
 * TM_STAGED needs this warp's 16-byte aligned `stage` of 128 words in shared memory. */
template <int ROWS, bool FULL, int ST, int MODE = TM_ALIGNED>
static __device__ __forceinline__ void tile_store(uint32_t *__restrict__ out, size_t chunk,
                                                  size_t n, unsigned lane,
                                                  const uint32_t (&w)[ROWS],
                                                  const unsigned (&pre)[ROWS], unsigned base,
                                                  size_t lo = 0, uint32_t *stage = NULL)
{
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        const size_t i = chunk + 128u * k + 4u * lane;
        const uint32_t ex = w[k] * 0x01010101u - w[k]; /* byte j: flags before byte j */
        const unsigned p = base + pre[k];
        const uint4 o = make_uint4(p + (ex & 0xFFu), p + ((ex >> 8) & 0xFFu),
                                   p + ((ex >> 16) & 0xFFu), p + (ex >> 24));
        if constexpr (MODE == TM_STAGED) { /* the row through shared memory */
            const size_t row = chunk + 128u * k, end = n + lo;
            __syncwarp(); /* the previous row's reads are done */
            reinterpret_cast<uint4 *>(stage)[lane] = o;
            __syncwarp();
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const size_t q = row + 32u * j + lane;
                if (FULL || (q >= lo && q < end)) {
                    if constexpr (ST == ST_STREAM) __stcs(out + (q - lo), stage[32 * j + lane]);
                    else out[q - lo] = stage[32 * j + lane];
                }
            }
            continue;
        }
        if constexpr (MODE == TM_SHIFT) { /* 16-byte stores on the shifted grid */
            const size_t end = n + lo;
            if (FULL || (i >= lo && i + 4 <= end)) {
                store16<ST>(out + (i - lo), o);
            } else {
                const unsigned v[4] = {o.x, o.y, o.z, o.w};
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (i + j >= lo && i + j < end) out[i + j - lo] = v[j];
            }
            continue;
        }
        if (FULL || i + 4 <= n) {
            store16<ST>(out + i, o);
        } else {
            if (i < n) out[i] = o.x;
            if (i + 1 < n) out[i + 1] = o.y;
            if (i + 2 < n) out[i + 2] = o.z;
        }
    }
}

#endif
