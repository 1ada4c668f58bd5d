/* s3 - a single pass with decoupled look-back: 5n bytes, the least a flags -> offsets
 * scan can move.
 * Changed versus s2: no count pass.  Each block takes the next tile number from a global
 * counter (atomicAdd, so every tile before it belongs to a block that is already
 * running), loads and scans its tile as s2 does, publishes the tile's count (status
 * AGGREGATE), and then its warp 0 looks back over the descriptors of the 32 tiles before
 * it: a ballot finds the nearest one that already knows its inclusive prefix (status
 * PREFIX), a REDUX adds the counts from there on, and the window slides back 32 tiles at
 * a time until such a tile is found.  The block publishes its own inclusive prefix and
 * writes its offsets.  Status and value share one 64-bit word, written and read with
 * relaxed GPU-scope atomics (ld/st.relaxed.gpu), so a reader never sees one without the
 * other and no fence is needed (the look-back lives in reference/blocks/lookback.cuh,
 * shared with chapters 05 and 07).  The descriptors and the counter are zeroed by one
 * cudaMemsetAsync per run (8 bytes per tile of 32768 flags, whose flags and offsets are
 * 163840 bytes; still a negligible share for the smallest tile of the tuning table).
 * Why it is faster: the flags are read once - 5n bytes instead of 6n - and a tile waits
 * only for its predecessors' counts, which they publish before their own look-back.
 * What still limits it: DRAM bandwidth, almost all of it on the 4-byte offsets; the
 * look-back adds a dependent round trip to L2 per tile, hidden by the other resident
 * blocks' loads.  Knobs in the tuning table: block size, rows per warp, row scan (bit
 * planes or shuffles), plain or streaming (evict-first) stores.
 * Alignment: flags at any byte, offsets at any 4-byte address.  Both aligned (flags
 * to 4, offsets to 16 bytes): the kernel as described.  Otherwise the tiles lie on a
 * grid shifted by flags % 4 (ballot_tile.cuh: TM_SHIFT keeps the 16-byte stores when
 * the offsets are misaligned the same way, TM_STAGED stores each row through shared
 * memory otherwise); one more tile at most, which scratch_bytes(n) allows for. */
#include "ballot.h"
#include "ballot_tile.cuh"
#include "blocks/lookback.cuh"
#include "kit_cuda.cuh"

/* the step of the main ladder: the best row of the `lookback` experiment on an H200 at
 * n = 2^28 (3033 GB/s, 1.30x CUB's 2329; 256 x 16 was within 1.5%, 8 rows per warp 10%
 * slower, plain stores 4-12% slower than streaming ones, bit-plane and shuffle row scans
 * within 2% of each other) */
#define S3_TBS 512
#define S3_ROWS 16
#define S3_RS RS_SHFL
#define S3_ST ST_STREAM
extern "C" const char ballot_s3_param[] = "tbs=512 rows=16 scan=shfl store=stream 1 kernel";

template <int TBS, int ROWS, int RS, int ST, int MODE = TM_ALIGNED>
__global__ void __launch_bounds__(TBS) lookback_kernel(const uint8_t *__restrict__ flags,
                                                       uint32_t *__restrict__ out, size_t n,
                                                       unsigned *counter,
                                                       unsigned long long *desc, size_t lo_arg)
{
    typedef tile_shape<TBS, ROWS> T;
    constexpr bool SHIFT = MODE != TM_ALIGNED;
    __shared__ unsigned s_tile, s_excl, s_tot[T::NW];
    __shared__ uint4 s_stage[MODE == TM_STAGED ? T::NW * 32 : 1]; /* a row per warp */
    if (threadIdx.x == 0) s_tile = atomicAdd(counter, 1u);
    __syncthreads();
    const size_t lo = SHIFT ? lo_arg : 0;
    const unsigned tile = s_tile;
    const size_t base = (size_t)tile * T::TILE;
    const size_t chunk = base + (threadIdx.x >> 5) * T::WARP_FLAGS;
    const unsigned lane = threadIdx.x & 31u;
    const bool full = (!SHIFT || base >= lo) && base + T::TILE <= n + lo;
    uint32_t *stage =
        reinterpret_cast<uint32_t *>(s_stage) + (MODE == TM_STAGED ? (threadIdx.x >> 5) * 128 : 0);
    uint32_t w[ROWS];
    unsigned pre[ROWS], agg;
    if (full) tile_load<ROWS, true, SHIFT>(flags, chunk, n, lane, w, lo);
    else tile_load<ROWS, false, SHIFT>(flags, chunk, n, lane, w, lo);
    const unsigned warp_total = tile_rows_scan<ROWS, RS>(w, pre);
    const unsigned wpre = tile_warp_prefix<T::NW>(warp_total, s_tot, &agg);
    if (threadIdx.x < 32) {
        const unsigned ex = lookback_warp_u32(desc, tile, agg);
        if (threadIdx.x == 0) s_excl = ex;
    }
    __syncthreads();
    const unsigned b = s_excl + wpre;
    if (full) tile_store<ROWS, true, ST, MODE>(out, chunk, n, lane, w, pre, b, lo, stage);
    else tile_store<ROWS, false, ST, MODE>(out, chunk, n, lane, w, pre, b, lo, stage);
}

/* scratch: one descriptor per tile, then the tile counter; room for the one more
 * tile of a shifted grid (lo <= 3) */
template <int TBS, int ROWS>
static size_t lb_scratch(size_t n)
{
    return ((n + 3 + tile_shape<TBS, ROWS>::TILE - 1) / tile_shape<TBS, ROWS>::TILE + 1) * 8u;
}

template <int TBS, int ROWS, int RS, int ST>
static cudaError_t lb_run(const uint8_t *flags, uint32_t *offsets, size_t n, void *scratch,
                          cudaStream_t s)
{
    size_t lo = 0;
    const int mode = tile_mode(flags, offsets, &lo);
    const unsigned tiles = kit_blocks_for(n + lo, tile_shape<TBS, ROWS>::TILE);
    unsigned long long *desc = (unsigned long long *)scratch;
    unsigned *counter = (unsigned *)(desc + tiles);
    KIT_TRY(ballot_check_args(flags, offsets, n, 1));
    if (n == 0) return cudaSuccess;
    if (!tiles) return cudaErrorInvalidValue;
    KIT_TRY(cudaMemsetAsync(scratch, 0, ((size_t)tiles + 1) * 8u, s));
    if (mode == TM_ALIGNED)
        lookback_kernel<TBS, ROWS, RS, ST><<<tiles, TBS, 0, s>>>(flags, offsets, n, counter, desc, 0);
    else if (mode == TM_SHIFT)
        lookback_kernel<TBS, ROWS, RS, ST, TM_SHIFT>
            <<<tiles, TBS, 0, s>>>(flags, offsets, n, counter, desc, lo);
    else
        lookback_kernel<TBS, ROWS, RS, ST, TM_STAGED>
            <<<tiles, TBS, 0, s>>>(flags, offsets, n, counter, desc, lo);
    return cudaGetLastError();
}

template <int TBS, int ROWS, int RS, int ST>
static cudaError_t lb_describe(kit_kernel_desc *d)
{
    d->func = (const void *)lookback_kernel<TBS, ROWS, RS, ST>;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

extern "C" size_t ballot_s3_scratch(size_t n)
{
    return lb_scratch<S3_TBS, S3_ROWS>(n);
}

extern "C" cudaError_t ballot_s3_lookback(const uint8_t *flags, uint32_t *offsets, size_t n,
                                          void *scratch, cudaStream_t s)
{
    return lb_run<S3_TBS, S3_ROWS, S3_RS, S3_ST>(flags, offsets, n, scratch, s);
}

KIT_DESCRIBE(ballot_s3_describe, (lookback_kernel<S3_TBS, S3_ROWS, S3_RS, S3_ST>), S3_TBS, 0)

/* ---- tuning table: block size x rows per warp x row scan x store hint */
#define LB_FILE "chapters/06-ballot-scan/s3_lookback.cu"
#define LB(T, R, RS, ST, RSN, STN)                                                              \
    {{"s3_lookback", "tbs=" #T " rows=" #R " scan=" RSN " store=" STN,                          \
      "single pass, decoupled look-back", LB_FILE, NULL, KIT_STEP_GPU,                          \
      lb_describe<T, R, RS, ST>},                                                               \
     lb_scratch<T, R>, lb_run<T, R, RS, ST>}
#define LB4(T, R)                                                                               \
    LB(T, R, RS_BITPLANE, ST_DEFAULT, "bitplane", "default"),                                   \
        LB(T, R, RS_BITPLANE, ST_STREAM, "bitplane", "stream"),                                 \
        LB(T, R, RS_SHFL, ST_DEFAULT, "shfl", "default"), LB(T, R, RS_SHFL, ST_STREAM, "shfl", "stream")

extern "C" const ballot_step ballot_lookback_variants[] = {
    LB4(128, 4), LB4(128, 8), LB4(128, 16), LB4(256, 4), LB4(256, 8),
    LB4(256, 16), LB4(512, 4), LB4(512, 8), LB4(512, 16),
};
