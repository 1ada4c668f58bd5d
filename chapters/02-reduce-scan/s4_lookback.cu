/* s4 - single-pass scan with decoupled look-back (Merrill & Garland, 2016: the
 * design of CUB's DeviceScan; beyond the document).
 * Changed versus s3: the data is read once.  Each thread block takes the next
 * tile id from an atomic counter (so every tile it waits for has already
 * started: no deadlock, whatever the scheduling order), loads its tile of
 * TBS x ITEMS elements with 16-byte vector loads (transposed through shared
 * memory so each thread holds ITEMS consecutive elements), scans it in
 * registers and shuffles, and publishes the tile's aggregate in a status word
 * ("A").  Warp 0 then looks back over its predecessors, 32 at a time:
 * aggregates ("A") are combined and the walk stops at the first inclusive
 * prefix ("P"); the tile publishes its own inclusive prefix and writes its
 * outputs.  For 4-byte values, flag and value share one 64-bit word, so one
 * store publishes both; 8-byte values (affine maps) get a flag word released
 * after the value, read back with acquire.  The status words and the counter
 * are zeroed by a cudaMemsetAsync at the start of every run.
 * Why it is faster: 2n memory traffic (a copy's), one kernel, 16-byte accesses
 * in both directions, and a tile rarely waits: its predecessors have usually
 * published at least their aggregates by the time it has scanned its own data.
 * What still limits it: the look-back is a chain through L2 (latency), and the
 * transposes cost shared-memory bandwidth and a little occupancy.  Where CUB is
 * ahead (README, "The bar: against CUB"): below one whole tile the only tile
 * takes the checked element-by-element path, and at 2^22 .. 2^24 the last wave
 * of one-tile blocks is poorly filled.
 * Alignment (in and out aligned to their element, 4 or 8 bytes): the host picks
 * one instantiation per launch (MODE).  Both 16-byte aligned: the kernel as
 * described (M_ALIGNED, unchanged code).  Otherwise the tiles are laid on a grid
 * shifted by lo = (in % 16) / sizeof(T) elements, so that every whole tile's
 * input is 16-byte aligned: the first tile starts lo elements "before" in (those
 * read as the identity and are never touched) and, like the last, takes the
 * checked element-by-element path.  If out is misaligned like in, the whole
 * tiles store 16-byte vectors too (M_SHIFT); if not, every tile stores through
 * shared memory as coalesced element stores (M_STAGED).  One more tile at most:
 * scratch_bytes(n) allows for it. */
#include <cuda/atomic>

#include "rs_block.cuh"
#include "rs_classic.cuh"

/* the ladder step's knobs (the `tune` experiment sweeps rs_s4_variants below) */
#define S4_TBS 128
#define S4_ITEMS 64 /* per thread for 4-byte values; 8-byte values get half as many */
#define S4_LOAD LOAD_TRANSPOSE
#define S4_DELAY 0 /* ns of __nanosleep before re-polling a predecessor that has published nothing */

namespace {

enum { LOAD_DIRECT = 0, LOAD_TRANSPOSE = 1 };
enum : unsigned { FLAG_X = 0, FLAG_A = 1, FLAG_P = 2 }; /* nothing yet, aggregate, inclusive */

typedef unsigned long long u64;
typedef cuda::atomic_ref<u64, cuda::thread_scope_device> atomic64;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> atomic32;

__device__ __forceinline__ uint32_t to_bits(uint32_t v) { return v; }
__device__ __forceinline__ void from_bits(uint32_t x, uint32_t &v) { v = x; }
__device__ __forceinline__ u64 to_bits(rs_affine v) { return v.a | ((u64)v.b << 32); }
__device__ __forceinline__ void from_bits(u64 x, rs_affine &v)
{
    v.a = (uint32_t)x;
    v.b = (uint32_t)(x >> 32);
}

template <class T, int SIZE = sizeof(T)>
struct TileStatus;

/* 4-byte values: value in the high half, flag in the low half of one word. */
template <class T>
struct TileStatus<T, 4> {
    u64 *word;
    static size_t bytes(size_t tiles) { return tiles * sizeof(u64); }
    __device__ TileStatus(void *p, size_t tiles) : word((u64 *)p) { (void)tiles; }
    __device__ void publish(size_t tile, unsigned flag, T v)
    {
        atomic64(word[tile]).store(((u64)to_bits(v) << 32) | flag, cuda::std::memory_order_relaxed);
    }
    __device__ unsigned poll(size_t tile, T &v)
    {
        const u64 x = atomic64(word[tile]).load(cuda::std::memory_order_relaxed);
        from_bits((uint32_t)(x >> 32), v);
        return (unsigned)x;
    }
};

/* 8-byte values: one slot for the aggregate and one for the inclusive prefix
 * (written once each), and a flag stored with release after the value. */
template <class T>
struct TileStatus<T, 8> {
    u64 *agg, *incl;
    unsigned *flag;
    static size_t bytes(size_t tiles) { return tiles * (2 * sizeof(u64) + sizeof(unsigned)); }
    __device__ TileStatus(void *p, size_t tiles)
        : agg((u64 *)p), incl((u64 *)p + tiles), flag((unsigned *)((u64 *)p + 2 * tiles))
    {
    }
    __device__ void publish(size_t tile, unsigned f, T v)
    {
        atomic64((f == FLAG_A ? agg : incl)[tile]).store(to_bits(v), cuda::std::memory_order_relaxed);
        atomic32(flag[tile]).store(f, cuda::std::memory_order_release);
    }
    __device__ unsigned poll(size_t tile, T &v)
    {
        const unsigned f = atomic32(flag[tile]).load(cuda::std::memory_order_acquire);
        if (f != FLAG_X)
            from_bits(atomic64((f == FLAG_A ? agg : incl)[tile]).load(cuda::std::memory_order_relaxed), v);
        return f;
    }
};

/* Warp 0 of tile `tile` (> 0): the exclusive prefix of the tile, from its
 * predecessors' status.  Lane L looks at tile pred - L; a window of 32 is
 * combined from the farthest lane to the nearest, up to the nearest lane that
 * found an inclusive prefix; tiles "before tile 0" count as the identity. */
template <class Op, int DELAY, class Status>
__device__ typename Op::T look_back(Status &st, long long tile)
{
    typedef typename Op::T T;
    const Op op;
    const int lane = threadIdx.x & 31;
    T prefix = Op::identity(); /* covers the tiles between the window and this tile */
    for (long long pred = tile - 1;; pred -= 32) {
        const long long t = pred - lane;
        T v = Op::identity();
        unsigned f = t >= 0 ? st.poll((size_t)t, v) : FLAG_P;
        while (__any_sync(rs::FULL, f == FLAG_X))
            if (f == FLAG_X) {
                if (DELAY) __nanosleep(DELAY); /* back off: fewer polls compete with the tiles' own traffic */
                f = st.poll((size_t)t, v);
            }
        const unsigned pmask = __ballot_sync(rs::FULL, f == FLAG_P);
        const int stop = pmask ? __ffs(pmask) - 1 : 31;
        if (lane > stop) v = Op::identity();
#pragma unroll
        for (int d = 1; d < 32; d *= 2) { /* lane 0 gets v[31] (+) ... (+) v[0]: earlier first */
            const T o = rs::shfl_down(v, d);
            if (lane + d < 32) v = op(o, v);
        }
        prefix = op(rs::shfl_idx(v, 0), prefix);
        if (pmask) return prefix;
    }
}

/* vector q of a warp's chunk lives at q ^ ((q / 8) % 8): both the coalesced
 * (q = 32k + lane) and the per-thread run (q = lane*V + j) accesses of a quarter
 * warp then hit 8 different 16-byte bank groups, for V = 1, 2, 4, 8 */
__device__ __forceinline__ int swz(int q) { return q ^ ((q >> 3) & 7); }

/* how a launch reaches memory: see the file's comment */
enum { M_ALIGNED = 0, M_SHIFT = 1, M_STAGED = 2 };

/* Logical index L covers element L - lo of in and out, for L in [lo, n + lo);
 * lo is 0 (a compile-time constant) in M_ALIGNED, and lo_arg otherwise. */
template <class Op, int TBS, int ITEMS4, int LOAD, int DELAY, bool EXCL, int MODE = M_ALIGNED>
__global__ void __launch_bounds__(TBS)
    s4_kernel(const typename Op::T *__restrict__ in, typename Op::T *__restrict__ out, size_t n,
              unsigned *counter, void *status, size_t tiles, size_t lo_arg)
{
    typedef typename Op::T T;
    constexpr int ITEMS = ITEMS4 * 4 / (int)sizeof(T), VEC = 16 / (int)sizeof(T), V = ITEMS / VEC;
    constexpr int TILE = TBS * ITEMS;
    static_assert(ITEMS4 % 4 == 0 && V >= 1, "whole 16-byte vectors per thread");
    __shared__ uint4 tbuf[LOAD == LOAD_TRANSPOSE || MODE == M_STAGED ? TBS * V : 1];
    __shared__ T scan_smem[TBS / 32 + 1];
    __shared__ T tile_prefix;
    __shared__ unsigned tile_id;
    const Op op;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    TileStatus<T> st(status, tiles);

    if (threadIdx.x == 0) tile_id = atomicAdd(counter, 1u); /* tiles start in this order */
    __syncthreads();
    const size_t lo = MODE == M_ALIGNED ? 0 : lo_arg, end = n + lo;
    const size_t tile = tile_id, off = tile * TILE; /* logical */
    const bool full = (MODE == M_ALIGNED || off >= lo) && off + TILE <= end;
    T v[ITEMS]; /* elements threadIdx.x*ITEMS .. +ITEMS-1 of the tile */

    if (full && LOAD == LOAD_TRANSPOSE) {
        const uint4 *src = reinterpret_cast<const uint4 *>(in + (off - lo)) + w * 32 * V;
        uint4 *sv = tbuf + w * 32 * V, q[V];
#pragma unroll
        for (int k = 0; k < V; k++) q[k] = __ldg(src + k * 32 + lane); /* coalesced */
#pragma unroll
        for (int k = 0; k < V; k++) sv[swz(k * 32 + lane)] = q[k];
        __syncwarp();
#pragma unroll
        for (int j = 0; j < V; j++) rs::unpack(sv[swz(lane * V + j)], &v[j * VEC]);
    } else if (full) {
        const uint4 *src = reinterpret_cast<const uint4 *>(in + (off - lo)) + threadIdx.x * V;
#pragma unroll
        for (int j = 0; j < V; j++) rs::unpack(__ldg(src + j), &v[j * VEC]);
    } else { /* the last, partial tile */
#pragma unroll
        for (int j = 0; j < ITEMS; j++) {
            const size_t i = off + (size_t)threadIdx.x * ITEMS + j;
            v[j] = (MODE == M_ALIGNED || i >= lo) && i < end ? in[i - lo] : Op::identity();
        }
    }

#pragma unroll
    for (int j = 1; j < ITEMS; j++) v[j] = op(v[j - 1], v[j]);
    T agg;
    const T thread_prefix = rs::block_exclusive_scan<Op, TBS / 32>(v[ITEMS - 1], scan_smem, &agg);

    if (w == 0) {
        T pre = Op::identity();
        if (tile == 0) {
            if (lane == 0) st.publish(0, FLAG_P, agg);
        } else {
            if (lane == 0) st.publish(tile, FLAG_A, agg);
            pre = look_back<Op, DELAY>(st, (long long)tile);
            if (lane == 0) st.publish(tile, FLAG_P, op(pre, agg));
        }
        if (lane == 0) tile_prefix = pre;
    }
    __syncthreads();

    rs::run_update<Op, EXCL>(op(tile_prefix, thread_prefix), v);

    if (MODE == M_STAGED) { /* runs -> shared memory -> coalesced element stores */
        uint4 *sv = tbuf + w * 32 * V;
        const T *se = reinterpret_cast<const T *>(sv);
        const size_t wbase = off + (size_t)w * 32 * ITEMS; /* logical index of the warp's chunk */
        __syncwarp();
#pragma unroll
        for (int j = 0; j < V; j++) sv[swz(lane * V + j)] = rs::pack(&v[j * VEC]);
        __syncwarp();
#pragma unroll
        for (int k = 0; k < ITEMS; k++) {
            const int e = k * 32 + lane; /* element e of the chunk lives in vector e / VEC */
            const size_t i = wbase + (size_t)e;
            if (full || ((MODE == M_ALIGNED || i >= lo) && i < end))
                out[i - lo] = se[swz(e / VEC) * VEC + e % VEC];
        }
    } else if (full && LOAD == LOAD_TRANSPOSE) {
        uint4 *dst = reinterpret_cast<uint4 *>(out + (off - lo)) + w * 32 * V;
        uint4 *sv = tbuf + w * 32 * V;
#pragma unroll
        for (int j = 0; j < V; j++) sv[swz(lane * V + j)] = rs::pack(&v[j * VEC]);
        __syncwarp();
#pragma unroll
        for (int k = 0; k < V; k++) dst[k * 32 + lane] = sv[swz(k * 32 + lane)];
    } else if (full) {
        uint4 *dst = reinterpret_cast<uint4 *>(out + (off - lo)) + threadIdx.x * V;
#pragma unroll
        for (int j = 0; j < V; j++) dst[j] = rs::pack(&v[j * VEC]);
    } else {
#pragma unroll
        for (int j = 0; j < ITEMS; j++) {
            const size_t i = off + (size_t)threadIdx.x * ITEMS + j;
            if ((MODE == M_ALIGNED || i >= lo) && i < end) out[i - lo] = v[j];
        }
    }
}

template <class T, int TBS, int ITEMS4>
constexpr size_t tile_elems() { return (size_t)TBS * (ITEMS4 * 4 / sizeof(T)); }

/* the counter, padded to 256 bytes, then the tiles' status; room for the one
 * more tile that a shifted grid may need (lo < 16 / sizeof(T)) */
template <class T, int TBS, int ITEMS4>
size_t s4_scratch_for(size_t n)
{
    const size_t most = n + (16 / sizeof(T) - 1); /* n + the largest lo */
    return 256 + TileStatus<T>::bytes(rs::ceil_div(most, tile_elems<T, TBS, ITEMS4>()));
}

/* The largest n of an instantiation for elements T: its tiles, on the grid shifted by lo <= 16 /
 * sizeof(T) - 1, must fit a grid of 2^31 - 1 blocks, whatever the alignment */
template <class T, int TBS, int ITEMS4>
constexpr size_t s4_max_n_for() { return tile_elems<T, TBS, ITEMS4>() * (size_t)INT_MAX - (16 / sizeof(T) - 1); }

template <int TBS, int ITEMS4>
size_t s4_scratch_any(size_t n)
{
    const size_t a = s4_scratch_for<uint32_t, TBS, ITEMS4>(n), b = s4_scratch_for<rs_affine, TBS, ITEMS4>(n);
    return a > b ? a : b;
}

template <class Op, int TBS, int ITEMS4, int LOAD, int DELAY, bool EXCL>
cudaError_t s4_run(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                   cudaStream_t s)
{
    typedef typename Op::T T;
    const uintptr_t ai = (uintptr_t)in, ao = (uintptr_t)out;
    const size_t mi = (ai & 15u) / sizeof(T), mo = (ao & 15u) / sizeof(T); /* in elements */
    const int mode = mi == 0 && mo == 0 ? M_ALIGNED : mi == mo ? M_SHIFT : M_STAGED;
    const size_t lo = mode == M_ALIGNED ? 0 : mi;
    const size_t tiles = rs::ceil_div(n + lo, tile_elems<T, TBS, ITEMS4>());
    unsigned *counter = (unsigned *)scratch;
    void *status = (char *)scratch + 256;
    if (n == 0) return cudaSuccess;
    if ((ai | ao) % sizeof(T)) return cudaErrorMisalignedAddress; /* not an element's address */
    if (tiles > (size_t)INT_MAX) return cudaErrorInvalidValue; /* a guard: the callers refuse such n first */
    KIT_TRY(cudaMemsetAsync(scratch, 0, 256 + TileStatus<T>::bytes(tiles), s));
    if (mode == M_ALIGNED)
        s4_kernel<Op, TBS, ITEMS4, LOAD, DELAY, EXCL><<<(unsigned)tiles, TBS, 0, s>>>(
            in, out, n, counter, status, tiles, 0);
    else if (mode == M_SHIFT)
        s4_kernel<Op, TBS, ITEMS4, LOAD, DELAY, EXCL, M_SHIFT><<<(unsigned)tiles, TBS, 0, s>>>(
            in, out, n, counter, status, tiles, lo);
    else
        s4_kernel<Op, TBS, ITEMS4, LOAD, DELAY, EXCL, M_STAGED><<<(unsigned)tiles, TBS, 0, s>>>(
            in, out, n, counter, status, tiles, lo);
    return cudaGetLastError();
}

/* the ladder step takes both element types, so its largest n (reduce_scan.h's RS_MAX_N_s4, the
 * step table's) is the smaller of the two, refused alike for both and every alignment */
static_assert(RS_MAX_N_s4 == (s4_max_n_for<uint32_t, S4_TBS, S4_ITEMS>() < s4_max_n_for<rs_affine, S4_TBS, S4_ITEMS>()
                                  ? s4_max_n_for<uint32_t, S4_TBS, S4_ITEMS>()
                                  : s4_max_n_for<rs_affine, S4_TBS, S4_ITEMS>()),
              "reduce_scan.h's RS_MAX_N_s4 is the smallest limit over element types and alignments");

template <class Op, bool EXCL>
cudaError_t s4_main(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                    cudaStream_t s)
{
    if (n > RS_MAX_N_s4) return cudaErrorInvalidValue;
    return s4_run<Op, S4_TBS, S4_ITEMS, S4_LOAD, S4_DELAY, EXCL>(in, out, n, scratch, s);
}

size_t s4_scratch(size_t n) { return s4_scratch_any<S4_TBS, S4_ITEMS>(n); }

/* tuning tables: uint32, exclusive only; the largest n is s4_max_n_for<uint32_t> (the table's max_n) */
template <int TBS, int ITEMS4, int LOAD, int DELAY>
cudaError_t s4_variant(const uint32_t *in, uint32_t *out, size_t n, int exclusive, void *scratch,
                       cudaStream_t s)
{
    if (!exclusive) return cudaErrorNotSupported;
    if (n > s4_max_n_for<uint32_t, TBS, ITEMS4>()) return cudaErrorInvalidValue;
    return s4_run<rs::AddU32, TBS, ITEMS4, LOAD, DELAY, true>(in, out, n, scratch, s);
}

} // namespace

RS_SCAN_ENTRY_POINTS(s4, s4_main, s4_scratch,
                     (s4_kernel<rs::AddU32, S4_TBS, S4_ITEMS, S4_LOAD, S4_DELAY, true>), S4_TBS, 0)

/* ---- the `tune` experiment: block size x items per thread x load scheme x back-off */
#define S4V(T, I, L, D, LABEL)                                                                  \
    {{"s4_lookback", "tbs=" #T " items=" #I " load=" LABEL " delay=" #D,                       \
      "block size x items x load scheme x back-off", "chapters/02-reduce-scan/s4_lookback.cu",  \
      NULL, KIT_STEP_GPU, rs::describe<s4_kernel<rs::AddU32, T, I, L, D, true>, T>, 0,         \
      s4_max_n_for<uint32_t, T, I>()},                                                          \
     s4_scratch_for<uint32_t, T, I>, s4_variant<T, I, L, D>, NULL}
#define S4T(T, I) S4V(T, I, LOAD_TRANSPOSE, 0, "transpose")

extern "C" const rs_scan_step rs_s4_variants[] = {
    S4T(128, 16), S4T(128, 32), S4T(256, 8),  S4T(256, 12), S4T(256, 16), S4T(256, 20),
    S4T(256, 24), S4T(256, 32), S4T(512, 8),  S4T(512, 16), S4T(128, 48), S4T(128, 64),
    S4T(64, 64),  S4T(192, 32),
    S4V(256, 16, LOAD_DIRECT, 0, "direct"),   S4V(512, 16, LOAD_DIRECT, 0, "direct"),
    S4V(256, 16, LOAD_TRANSPOSE, 100, "transpose"), S4V(256, 16, LOAD_TRANSPOSE, 400, "transpose"),
};
