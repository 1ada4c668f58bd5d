/* s3 - Brown's Row-DASk radix sort: GPU_CountKeys, GPU_ScanRuns, GPU_DistributeKeys per
 * pass, 4-bit digits (16 bins, 8 passes for 32 bits), as the document builds it (ch. 9).
 *
 * Changed versus s2 (Merrill & Grimshaw's SRTS: a multi-scan of digit flags, packed
 * several to a word, over a fixed grid): the work is organised the other way round.
 * R rows (one per resident block of the distribute kernel) each own a contiguous run of
 * data blocks of DBS = nWarps x 32 x nWork keys, and inside a data block every thread
 * owns a *run of nWork consecutive keys*, so the order that stability needs is kept by
 * counting, not by scanning flags:
 *   GPU_CountKeys       row r counts its data blocks into per-thread 16-bin histograms
 *                       (16-bit counters, two to a shared-memory word, one column per
 *                       thread: no bank conflicts, whatever the digits), reduced to one
 *                       32-bit histogram per row: counts[digit][row].
 *   GPU_ScanRuns        an exclusive scan of that digit-major table (blk_scan_u32_excl of
 *                       reference/blocks): start of (digit d, row r) = all keys of digits
 *                       below d + the keys of digit d in rows before r.
 *   GPU_DistributeKeys  row r walks its data blocks in order.  Per data block: coalesced
 *                       loads, a transpose through shared memory (pad & rake for even
 *                       nWork) so each thread holds its run; digits packed 8 to a
 *                       register; per-thread counts packed 8 bits each (4 words) in
 *                       registers, which also give each key its "key-start" (same-digit
 *                       keys before it in the run); a warp scan of the packed words
 *                       (4 digits per shuffle scan; widened to 16-bit fields first when
 *                       nWork > 8), one warp scans the 16 x nWarps warp totals in
 *                       (digit, warp) order; rank = warp start + thread start + key-start
 *                       puts the block in (digit, position) order in shared memory; the
 *                       coalesced global scatter writes LI to LI - blockStart[d] +
 *                       rowStart[d]; rowStart[d] += the block's count of d.  Values follow
 *                       the keys through the same ranks.
 * Why it may be faster: the traffic is s2's (keys read twice, written once per pass:
 * 3n words, 5n with values), but the ranking work is not: each thread counts its run of
 * nWork keys serially in registers, so the 16-digit parallel scan runs once per thread
 * (four packed shuffle scans, eight when nWork > 8) instead of once per key position.
 * The row order makes a block's 16 runs start exactly where the previous block's runs
 * of the same digits ended, so partly written sectors are completed while still in L2;
 * and the data blocks are large (1024 keys in the ladder step: Brown's Table 9.8
 * coalescing model rates 2048 above 1024, before any L2 merging).
 * What still limits it: 4-bit digits mean 8 passes (8 x 3n words of traffic, 8 x 5n with
 * values); four block barriers per data block and a single-warp stage (the warp totals'
 * scan) between two of them, so throughput leans on several resident blocks per SM; the
 * count kernel's shared-memory increments form a dependent chain per thread (the
 * "counting bottleneck" the document describes).  s4 takes 8-bit digits (4 passes).
 *
 * The document's errors kept out: the 16-bit per-thread counters of CountKeys are
 * flushed into 32-bit block sums every 65535 / nWork data blocks (Brown's Fig. 9.6
 * remedy), so n is not limited to 2^27 as in his code; the 8-bit packed counts cannot
 * overflow in the warp scan (exclusive prefixes need at most 31 x nWork <= 248 for
 * nWork <= 8, the warp totals are widened before they are added up, and nWork > 8 scans
 * 16-bit fields); single-warp steps use __syncwarp, not lock-step (the document assumes
 * a warp needs no synchronisation, untrue since Volta).  Table 9.11's best Titan pair is
 * (nWarps, nWork) = (4, 8) (the text says (3, 8)).
 *
 * Limits: 32-bit keys (u32, i32, f32), n <= RADIX_MAX_N; keys and values at any 4-byte
 * address (scalar, warp-contiguous accesses only); stable; scratch = alternate key and
 * value buffers + a 16 x rows count table + the table scan's descriptors. */
#include <stdint.h>

#include "blocks/ballot_warp.cuh"
#include "blocks/scan_u32.cuh"
#include "kit_cuda.cuh"
#include "radix.h"
#include "radix_keys.cuh"

/* the ladder step: Brown's best pair on the GTX Titan (Table 9.11); DBS = 1024 keys, 8-bit
 * counters in the warp scan, 48 / 56 registers (keys / pairs): 10 / 9 blocks per SM (a guess,
 * to be checked against the `rowdask` table) */
#define S3_NWARPS 4
#define S3_NWORK 8
#define RD_DIGIT_BITS 4
/* the step's label, from its knobs */
RADIX_PARAM_DEF(radix_s3_param,
    "nWarps=%d nWork=%d digit=%d rows=resident",
    S3_NWARPS, S3_NWORK, RD_DIGIT_BITS);
#define RD_BINS 16
/* Rows: one per resident block, at most this many (the count table is 16 x rows words). */
#define RD_ROW_CAP 8192u

template <int NWARPS, int NWORK>
struct rd_shape {
    static_assert(NWARPS >= 1 && NWARPS <= 32, "nWarps");
    static_assert(NWORK >= 1 && NWORK <= 16, "nWork: key-starts are packed 4 bits each");
    static constexpr int TBS = 32 * NWARPS;
    static constexpr int DWS = 32 * NWORK;         /* a warp's chunk of a data block */
    static constexpr int DBS = TBS * NWORK;        /* data block size */
    static constexpr bool PAD = NWORK % 2 == 0;    /* pad & rake: odd runs have no conflicts */
    static constexpr int XWORDS = PAD ? DBS + DBS / 32 : DBS;
    static constexpr int FB = NWORK <= 8 ? 8 : 16; /* bits per counter in the warp scan */
    static constexpr int NSW = RD_BINS * FB / 32;  /* scan words per thread: 4 or 8 */
    static constexpr int NDW = (NWORK + 7) / 8;    /* registers of packed digits / key-starts */
    static constexpr int CHUNK = 65535 / NWORK;    /* CountKeys: data blocks between flushes */
    /* where element i of the transpose buffer lives (one pad word every 32) */
    static __device__ __forceinline__ unsigned x(unsigned i) { return PAD ? i + (i >> 5) : i; }
};

/* Row DASk split of m data blocks over gridDim.x rows: contiguous, in order, sizes differ
 * by at most one (the first m % rows rows get one more).  CountKeys and DistributeKeys
 * must split identically: same m, same grid. */
static __device__ __forceinline__ void rd_row_range(unsigned m, unsigned *first, unsigned *end)
{
    const unsigned rows = gridDim.x, r = blockIdx.x, base = m / rows, extra = m % rows;
    *first = r * base + (r < extra ? r : extra);
    *end = *first + base + (r < extra ? 1u : 0u);
}

/* a[i] for a run-time i without indexing registers (selects, no local memory) */
template <int N>
static __device__ __forceinline__ uint32_t rd_pick(const uint32_t (&a)[N], unsigned i)
{
    uint32_t r = a[0];
#pragma unroll
    for (int k = 1; k < N; k++) r = i == (unsigned)k ? a[k] : r;
    return r;
}

/* counter of digit d in packed words of FB-bit fields (32 / FB digits per word) */
template <int FB, int N>
static __device__ __forceinline__ uint32_t rd_field(const uint32_t (&a)[N], unsigned d)
{
    constexpr unsigned PER = 32 / FB;
    return (rd_pick<N>(a, d / PER) >> (FB * (d % PER))) & ((1u << FB) - 1u);
}

/* ================================================================ GPU_CountKeys */

/* one data block: block-by-block (coalesced) loads, one 16-bit increment per key in this
 * thread's column (hist = s_hist + tid; digits 2i and 2i+1 share word i) */
template <int KT, int NWARPS, int NWORK, bool FULL>
static __device__ __forceinline__ void rd_count_block(const uint32_t *keys, unsigned valid, int shift,
                                                      int bits, uint32_t *hist)
{
    constexpr int TBS = 32 * NWARPS;
    uint32_t k[NWORK];
#pragma unroll
    for (int j = 0; j < NWORK; j++) {
        const unsigned p = j * TBS + threadIdx.x;
        k[j] = (FULL || p < valid) ? keys[p] : 0u;
    }
#pragma unroll
    for (int j = 0; j < NWORK; j++) {
        const unsigned p = j * TBS + threadIdx.x;
        if (FULL || p < valid) {
            const unsigned d = radix_digit<KT>(k[j], shift, bits);
            hist[(d >> 1) * TBS] += 1u << ((d & 1u) * 16u);
        }
    }
}

template <int KT, int NWARPS, int NWORK>
static __global__ void __launch_bounds__(32 * NWARPS)
    rd_count_kernel(const uint32_t *__restrict__ keys, size_t n, unsigned m, int shift, int bits,
                    uint32_t *__restrict__ counts)
{
    typedef rd_shape<NWARPS, NWORK> S;
    constexpr int TBS = S::TBS;
    __shared__ uint32_t s_hist[(RD_BINS / 2) * TBS]; /* word i of thread t at i * TBS + t */
    __shared__ uint32_t s_tot[RD_BINS];
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    unsigned b, end;
    rd_row_range(m, &b, &end);
    if (tid < RD_BINS) s_tot[tid] = 0;
#pragma unroll
    for (int i = 0; i < RD_BINS / 2; i++) s_hist[i * TBS + tid] = 0;
    while (b < end) {
        /* at most CHUNK data blocks (<= 65535 increments of one counter), then flush */
        const unsigned stop = end - b > (unsigned)S::CHUNK ? b + S::CHUNK : end;
        for (; b < stop; b++) {
            const size_t base = (size_t)b * S::DBS;
            if (base + S::DBS <= n)
                rd_count_block<KT, NWARPS, NWORK, true>(keys + base, S::DBS, shift, bits, s_hist + tid);
            else
                rd_count_block<KT, NWARPS, NWORK, false>(keys + base, (unsigned)(n - base), shift, bits,
                                                         s_hist + tid);
        }
        __syncthreads(); /* every column counted */
        /* BlockReduce: warp w adds up words w, w + nWarps, ..: its lanes unpack the two
         * 16-bit counters of nWarps columns each, REDUX sums the lanes (32-bit) */
        for (int i = warp; i < RD_BINS / 2; i += NWARPS) {
            unsigned lo = 0, hi = 0;
#pragma unroll
            for (int j = 0; j < NWARPS; j++) {
                const uint32_t x = s_hist[i * TBS + j * 32 + lane];
                lo += x & 0xFFFFu;
                hi += x >> 16;
            }
            lo = warp_reduce_redux(lo);
            hi = warp_reduce_redux(hi);
            if (lane == 0) {
                s_tot[2 * i] += lo;
                s_tot[2 * i + 1] += hi;
            }
        }
        __syncthreads(); /* the columns are read: they may be zeroed (and s_tot is complete) */
#pragma unroll
        for (int i = 0; i < RD_BINS / 2; i++) s_hist[i * TBS + tid] = 0;
    }
    /* s_tot: written by lanes 0 before the loop's last barrier, or only zeroed by tid */
    if (tid < RD_BINS) counts[(size_t)tid * gridDim.x + blockIdx.x] = s_tot[tid];
}

/* ============================================================ GPU_DistributeKeys */

template <int NWARPS, int NWORK, bool PAIRS>
struct rd_smem {
    typedef rd_shape<NWARPS, NWORK> S;
    uint32_t keys[S::XWORDS];             /* transpose, then the block in rank order */
    uint32_t vals[PAIRS ? S::XWORDS : 1]; /* the same for the values */
    uint32_t wtot[NWARPS * RD_BINS];      /* [warp][digit]: the warp's count of the digit */
    uint32_t wstart[NWARPS * RD_BINS];    /* [warp][digit]: its first rank in the block */
    uint32_t row[RD_BINS];                /* running row starts (warp 0, lanes 0..15) */
    uint32_t off[RD_BINS];                /* rowStart - blockStart, mod 2^32 */
};

/* One data block at base (valid keys, DBS when FULL).  Called after a block barrier (the
 * previous block's readers of keys / vals / off are done). */
template <int KT, int NWARPS, int NWORK, bool PAIRS, bool FULL>
static __device__ __forceinline__ void rd_distribute_block(const uint32_t *__restrict__ keys_in,
                                                           uint32_t *__restrict__ keys_out,
                                                           const uint32_t *__restrict__ vals_in,
                                                           uint32_t *__restrict__ vals_out, size_t base,
                                                           unsigned valid, int shift, int bits,
                                                           rd_smem<NWARPS, NWORK, PAIRS> &sm)
{
    typedef rd_shape<NWARPS, NWORK> S;
    constexpr int FB = S::FB, NSW = S::NSW, NDW = S::NDW;
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const unsigned chunk = warp * S::DWS, run = chunk + lane * NWORK; /* first position of my run */
    uint32_t key[NWORK], val[PAIRS ? NWORK : 1];

    /* 1. LoadKeys: warp-by-warp, coalesced (item k of a lane at chunk + 32k + lane), then
     *    through shared memory (this warp's chunk only) into runs: key[j] = position run + j */
#pragma unroll
    for (int k = 0; k < NWORK; k++) {
        const unsigned p = chunk + 32 * k + lane;
        key[k] = (FULL || p < valid) ? keys_in[base + p] : 0u;
        if constexpr (PAIRS) val[k] = (FULL || p < valid) ? vals_in[base + p] : 0u;
    }
#pragma unroll
    for (int k = 0; k < NWORK; k++) {
        const unsigned p = chunk + 32 * k + lane;
        sm.keys[S::x(p)] = key[k];
        if constexpr (PAIRS) sm.vals[S::x(p)] = val[k];
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < NWORK; j++) {
        key[j] = sm.keys[S::x(run + j)];
        if constexpr (PAIRS) val[j] = sm.vals[S::x(run + j)];
    }

    /* 2. ExtractDigits, 8 to a register; positions past the end get digit 15: they rank
     *    after every valid key, so the valid ones keep the ranks they would have alone */
    uint32_t dig[NDW];
#pragma unroll
    for (int i = 0; i < NDW; i++) dig[i] = 0;
#pragma unroll
    for (int j = 0; j < NWORK; j++) {
        const unsigned d = (FULL || run + j < valid) ? radix_digit<KT>(key[j], shift, bits) : RD_BINS - 1u;
        dig[j / 8] |= d << (4 * (j % 8));
    }

    /* 3. CountDigits: 16 counters of 8 bits in 4 registers (a run has at most 16 keys);
     *    the count before the increment is the key-start, packed 4 bits per key */
    uint32_t cnt[4] = {0, 0, 0, 0}, kst[NDW];
#pragma unroll
    for (int i = 0; i < NDW; i++) kst[i] = 0;
#pragma unroll
    for (int j = 0; j < NWORK; j++) {
        const unsigned d = (dig[j / 8] >> (4 * (j % 8))) & 15u, sh = 8u * (d & 3u), wi = d >> 2;
        kst[j / 8] |= ((rd_pick<4>(cnt, wi) >> sh) & 0xFFu) << (4 * (j % 8));
#pragma unroll
        for (int i = 0; i < 4; i++)
            if ((unsigned)i == wi) cnt[i] += 1u << sh;
    }

    /* 4. ScanThreads: shuffle scans of the packed words, all 16 digits at once.  nWork <= 8:
     *    8-bit fields (an exclusive prefix is at most 31 x 8 = 248; lane 31's inclusive sum
     *    may carry into the next field, but exclusive = inclusive - own is exact, being
     *    plain integer arithmetic).  nWork > 8: widened to 16-bit fields first. */
    uint32_t sc[NSW], ex[NSW];
#pragma unroll
    for (int i = 0; i < 4; i++) {
        if constexpr (FB == 8) {
            sc[i] = cnt[i];
        } else {                                     /* digits 4i, 4i+1 | 4i+2, 4i+3 */
            sc[2 * i] = __byte_perm(cnt[i], 0u, 0x4140);
            sc[2 * i + 1] = __byte_perm(cnt[i], 0u, 0x4342);
        }
    }
#pragma unroll
    for (int i = 0; i < NSW; i++) ex[i] = warp_scan_shfl_incl(sc[i]) - sc[i];
    if (lane == 31) { /* warp totals, widened to 32 bits before the addition */
#pragma unroll
        for (int d = 0; d < RD_BINS; d++)
            sm.wtot[warp * RD_BINS + d] = rd_field<FB>(ex, d) + rd_field<FB>(sc, d);
    }
    __syncthreads(); /* B1: every warp's totals are in */

    /* 5. ScanWarps: warp 0 scans the 16 x nWarps totals in (digit, warp) order: entry
     *    (d, w) becomes blockStart[d] + the counts of d in warps before w */
    if (warp == 0) {
        constexpr int L = RD_BINS * NWARPS, E = (L + 31) / 32;
        uint32_t v[E], sum = 0;
#pragma unroll
        for (int e = 0; e < E; e++) {
            const unsigned i = lane * E + e;
            v[e] = i < (unsigned)L ? sm.wtot[(i % NWARPS) * RD_BINS + i / NWARPS] : 0u;
            sum += v[e];
        }
        uint32_t acc = warp_scan_shfl_incl(sum) - sum;
#pragma unroll
        for (int e = 0; e < E; e++) {
            const unsigned i = lane * E + e;
            if (i < (unsigned)L) sm.wstart[(i % NWARPS) * RD_BINS + i / NWARPS] = acc;
            acc += v[e];
        }
        __syncwarp();
        if (lane < RD_BINS) { /* block start and count of digit `lane`; the counts add up to DBS */
            const uint32_t bs = sm.wstart[lane];
            const uint32_t next = lane < RD_BINS - 1 ? sm.wstart[lane + 1] : (uint32_t)S::DBS;
            sm.off[lane] = sm.row[lane] - bs;
            sm.row[lane] += next - bs; /* UpdateRowStarts (only the last block is partial) */
        }
    }
    __syncthreads(); /* B2: starts known; every warp has read its runs out of keys / vals */

    /* 6. ShuffleKeys: rank = warp start + thread start + key-start, in (digit, position)
     *    order: stable */
    const uint32_t *wst = sm.wstart + warp * RD_BINS;
#pragma unroll
    for (int j = 0; j < NWORK; j++) {
        const unsigned d = (dig[j / 8] >> (4 * (j % 8))) & 15u;
        const unsigned r = wst[d] + rd_field<FB>(ex, d) + ((kst[j / 8] >> (4 * (j % 8))) & 15u);
        sm.keys[r] = key[j];
        if constexpr (PAIRS) sm.vals[r] = val[j];
    }
    __syncthreads(); /* B3: the block is in rank order */

    /* 7. MapKeys: block-by-block reads (no conflicts), GI = LI - blockStart[d] + rowStart[d];
     *    ranks valid.. hold the padding positions: not written */
#pragma unroll
    for (int k = 0; k < NWORK; k++) {
        const unsigned li = k * S::TBS + tid;
        if (FULL || li < valid) {
            const uint32_t kv = sm.keys[li];
            const uint32_t gi = li + sm.off[radix_digit<KT>(kv, shift, bits)]; /* < n <= 2^32 - 1 */
            keys_out[gi] = kv;
            if constexpr (PAIRS) vals_out[gi] = sm.vals[li];
        }
    }
}

template <int KT, int NWARPS, int NWORK, bool PAIRS>
static __global__ void __launch_bounds__(32 * NWARPS)
    rd_distribute_kernel(const uint32_t *__restrict__ keys_in, uint32_t *__restrict__ keys_out,
                         const uint32_t *__restrict__ vals_in, uint32_t *__restrict__ vals_out, size_t n,
                         unsigned m, int shift, int bits, const uint32_t *__restrict__ starts)
{
    typedef rd_shape<NWARPS, NWORK> S;
    __shared__ rd_smem<NWARPS, NWORK, PAIRS> sm;
    unsigned b, end;
    rd_row_range(m, &b, &end);
    if (threadIdx.x < RD_BINS) sm.row[threadIdx.x] = starts[(size_t)threadIdx.x * gridDim.x + blockIdx.x];
    for (; b < end; b++) {
        const size_t base = (size_t)b * S::DBS;
        __syncthreads(); /* the previous block's step 7 is done with keys / vals / off */
        if (base + S::DBS <= n)
            rd_distribute_block<KT, NWARPS, NWORK, PAIRS, true>(keys_in, keys_out, vals_in, vals_out, base,
                                                                S::DBS, shift, bits, sm);
        else
            rd_distribute_block<KT, NWARPS, NWORK, PAIRS, false>(keys_in, keys_out, vals_in, vals_out, base,
                                                                 (unsigned)(n - base), shift, bits, sm);
    }
}

/* ================================================================== host side */

template <int NWARPS, int NWORK>
static size_t rd_rows_max(size_t n)
{
    const size_t m = (n + rd_shape<NWARPS, NWORK>::DBS - 1) / rd_shape<NWARPS, NWORK>::DBS;
    return m < RD_ROW_CAP ? m : RD_ROW_CAP;
}

/* alternate keys (and values), the 16 x rows count table, the table scan's descriptors */
template <int NWARPS, int NWORK>
static size_t rd_scratch(size_t n, int type, int pairs)
{
    const size_t rows = rd_rows_max<NWARPS, NWORK>(n);
    return radix_alt_bytes(n, type, pairs) + radix_round256(RD_BINS * rows * 4) +
           radix_round256(blk_scan_u32_scratch(RD_BINS * rows));
}

/* rows: one per resident block of the distribute kernel (queried once per device), at
 * most one per data block and at most RD_ROW_CAP */
template <int KT, int NWARPS, int NWORK, bool PAIRS>
static cudaError_t rd_rows(unsigned m, unsigned *rows)
{
    static int cached_device = -1;
    static unsigned resident = 0;
    int device = 0;
    KIT_TRY(cudaGetDevice(&device));
    if (device != cached_device) {
        KIT_TRY(kit_resident_grid((const void *)rd_distribute_kernel<KT, NWARPS, NWORK, PAIRS>,
                                  rd_shape<NWARPS, NWORK>::TBS, 0, &resident));
        cached_device = device;
    }
    unsigned r = resident < m ? resident : m;
    *rows = r < RD_ROW_CAP ? r : RD_ROW_CAP;
    return cudaSuccess;
}

template <int KT, int NWARPS, int NWORK, bool PAIRS>
static cudaError_t rd_passes(const radix_plan &pl, size_t n, unsigned m, uint32_t *counts, void *scan_scratch,
                             cudaStream_t s)
{
    constexpr int TBS = rd_shape<NWARPS, NWORK>::TBS;
    unsigned rows = 0;
    KIT_TRY(rd_rows<KT, NWARPS, NWORK, PAIRS>(m, &rows));
    for (int p = 0; p < pl.passes; p++) {
        const uint32_t *src = (const uint32_t *)pl.src_keys[p];
        rd_count_kernel<KT, NWARPS, NWORK><<<rows, TBS, 0, s>>>(src, n, m, pl.shift[p], pl.bits[p], counts);
        KIT_TRY(cudaGetLastError());
        /* GPU_ScanRuns: counts[d][r] -> starts[d][r], in place */
        KIT_TRY(blk_scan_u32_excl(counts, counts, (size_t)RD_BINS * rows, scan_scratch, s));
        rd_distribute_kernel<KT, NWARPS, NWORK, PAIRS><<<rows, TBS, 0, s>>>(
            src, (uint32_t *)pl.dst_keys[p], pl.src_vals[p], pl.dst_vals[p], n, m, pl.shift[p], pl.bits[p],
            counts);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

template <int NWARPS, int NWORK>
static cudaError_t rd_run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                          size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES32, 0, s, &work));
    if (!work) return cudaSuccess;
    const unsigned m = kit_blocks_for(n, rd_shape<NWARPS, NWORK>::DBS);
    if (!m) return cudaErrorInvalidValue;
    const size_t rows_max = rd_rows_max<NWARPS, NWORK>(n);
    radix_carve c = {(char *)scratch, 0};
    void *alt_keys = radix_take(&c, n * 4);
    uint32_t *alt_vals = vals_in ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    uint32_t *counts = (uint32_t *)radix_take(&c, RD_BINS * rows_max * 4);
    void *scan_scratch = radix_take(&c, blk_scan_u32_scratch(RD_BINS * rows_max));
    radix_plan pl;
    radix_make_plan(&pl, keys_in, keys_out, alt_keys, vals_in, vals_out, alt_vals, begin_bit, end_bit,
                    RD_DIGIT_BITS);
    return radix_dispatch<RADIX_TYPES32>(type, vals_in != NULL, [&](auto kt, auto pairs) {
        return rd_passes<decltype(kt)::value, NWARPS, NWORK, decltype(pairs)::value>(pl, n, m, counts,
                                                                                     scan_scratch, s);
    });
}

template <int NWARPS, int NWORK>
static cudaError_t rd_describe(kit_kernel_desc *d)
{
    d->func = (const void *)rd_distribute_kernel<RADIX_U32, NWARPS, NWORK, false>;
    d->block_threads = 32 * NWARPS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* ------------------------------------------------------------- the ladder step */

extern "C" cudaError_t radix_s3_rowdask(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                        uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                        void *scratch, cudaStream_t s)
{
    return rd_run<S3_NWARPS, S3_NWORK>(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit,
                                       scratch, s);
}

extern "C" size_t radix_s3_rowdask_scratch(size_t n, int type, int pairs)
{
    return rd_scratch<S3_NWARPS, S3_NWORK>(n, type, pairs);
}

/* the distribute kernel (most of the time), u32 keys only */
KIT_DESCRIBE(radix_s3_describe, (rd_distribute_kernel<RADIX_U32, S3_NWARPS, S3_NWORK, false>),
             32 * S3_NWARPS, 0)

/* ---- tuning table: nWarps x nWork (Brown's Tables 9.10-9.11 sweep 1..8 x 1..8).  On
 * Hopper: nWarps 2, 4, 8 (64 to 256 threads) x nWork 4, 8 (8-bit scan fields, pad &
 * rake), 12, 16 (16-bit scan fields; DBS up to 4096, the longer runs of Table 9.8). */
#define RD_FILE "chapters/05-radix-sort/s3_rowdask.cu"
#define RD(W, K)                                                                                    \
    {{"s3_rowdask", "nWarps=" #W " nWork=" #K, "Row DASk: CountKeys, ScanRuns, DistributeKeys",    \
      RD_FILE, NULL, KIT_STEP_GPU, rd_describe<W, K>, 0, 0},                                       \
     rd_scratch<W, K>, rd_run<W, K>, RADIX_TYPES32, RD_DIGIT_BITS}

extern "C" const radix_step radix_rowdask_variants[RADIX_ROWDASK_NVARIANTS] = {
    RD(2, 4), RD(2, 8), RD(2, 12), RD(2, 16), RD(4, 4), RD(4, 8),
    RD(4, 12), RD(4, 16), RD(8, 4), RD(8, 8), RD(8, 12), RD(8, 16),
};
