/* s3 - ballot list ranking per warp, order kept: the paper's "previous work [12]" as the
 * paper describes it (it prints no code for it): list ranking - the position of a selected
 * element is the number of selected elements before it, an exclusive scan - with __ballot
 * and __popc giving the ranks inside a warp, and each thread handling several elements.
 * Changed versus s2: no atomics.  Three kernels:
 *   1. count: warp w owns the chunk of S3_CHUNK = 32 x 16 elements starting at w x 512; step
 *      j of the chunk is elements 32 j .. 32 j + 31, one per lane (a warp reads 128 bytes at
 *      a time).  The warp loads its 16 elements per lane first, then per step counts the
 *      selected ones with popc(ballot) - every lane gets the same count, so no reduction -
 *      and lane 0 writes the chunk's count: one word per 512 elements;
 *   2. scan: the shared single-pass look-back scan (reference/blocks/scan_u32.cuh) turns
 *      the counts, in place, into each chunk's first output slot;
 *   3. write: each warp reads its chunk AGAIN, tests the predicate again, and per step
 *      writes a selected lane's element at slot + popc(ballot & lanemask_lt), then advances
 *      the slot by popc(ballot).  The warp of the last chunk writes the count.
 * Why it is faster: no contended atomics at all - the time no longer grows with p, and the
 * output is in input order (the first order-keeping step; checked element for element).
 * What still limits it: the input is read twice (kernels 1 and 3) and the predicate tested
 * twice, so an If step moves 8 bytes per element where 4 would do; the counts are one word
 * per 512 elements (the new algorithm, s4, keeps one per 1024 and stores the ballots so its
 * third kernel reads 4 bytes per 32 elements instead of the input: the paper credits the
 * smaller counter array and fewer reads for its faster phases 1 and 3, Fig. 13).
 * Scratch: the counts (rounded up to 256 bytes) and the scan's descriptors.  Limits: n <=
 * COMPACT_MAX_N: 2^23 chunks, 2^20 blocks. */
#include "blocks/scan_u32.cuh"
#include "compact_device.cuh"

#define S3_TBS 256
#define S3_WARPS (S3_TBS / 32)
#define S3_ITEMS 16
#define S3_CHUNK (32 * S3_ITEMS)
extern "C" const char compact_s3_param[] = "tbs=256 items/thread=16 (512 per warp) 3 kernels";

static inline size_t s3_chunks(size_t n) { return (n + S3_CHUNK - 1) / S3_CHUNK; }
static inline size_t s3_counts_bytes(size_t chunks) { return (chunks * sizeof(uint32_t) + 255) / 256 * 256; }

/* 1. counts[c] = the selected elements of chunk c */
template <int MODE>
__global__ void __launch_bounds__(S3_TBS)
    s3_count_kernel(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, uint64_t threshold, size_t n,
                    size_t chunks, uint32_t *__restrict__ counts)
{
    const size_t chunk = (size_t)blockIdx.x * S3_WARPS + (threadIdx.x >> 5);
    const unsigned lane = threadIdx.x & 31u;
    if (chunk >= chunks) return; /* the whole warp: the ballots below see full warps */
    const size_t base = chunk * S3_CHUNK;
    const size_t left = n - base; /* > 0 */
    bool sel[S3_ITEMS];
#pragma unroll
    for (int j = 0; j < S3_ITEMS; j++) {
        const unsigned e = 32u * j + lane;
        uint32_t v = 0;
        sel[j] = e < left && cp_test<MODE>(in, flags, threshold, base + e, v);
    }
    unsigned total = 0;
#pragma unroll
    for (int j = 0; j < S3_ITEMS; j++) total += __popc(__ballot_sync(BALLOT_FULL, sel[j]));
    if (lane == 0) counts[chunk] = total;
}

/* 3. the chunk's selected elements from slot first[chunk] on, in order; the last chunk's
 * warp writes the count */
template <int MODE>
__global__ void __launch_bounds__(S3_TBS)
    s3_write_kernel(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, uint64_t threshold,
                    uint32_t *__restrict__ out, uint32_t *__restrict__ count, size_t n, size_t chunks,
                    const uint32_t *__restrict__ first)
{
    const size_t chunk = (size_t)blockIdx.x * S3_WARPS + (threadIdx.x >> 5);
    const unsigned lane = threadIdx.x & 31u;
    if (chunk >= chunks) return;
    const size_t base = chunk * S3_CHUNK;
    const size_t left = n - base;
    const unsigned lt = ptx_lanemask_lt();
    uint32_t v[S3_ITEMS];
    bool sel[S3_ITEMS];
#pragma unroll
    for (int j = 0; j < S3_ITEMS; j++) {
        const unsigned e = 32u * j + lane;
        v[j] = 0;
        sel[j] = e < left && cp_test<MODE>(in, flags, threshold, base + e, v[j]);
    }
    unsigned slot = first[chunk];
#pragma unroll
    for (int j = 0; j < S3_ITEMS; j++) {
        const unsigned votes = __ballot_sync(BALLOT_FULL, sel[j]);
        if (sel[j]) out[slot + __popc(votes & lt)] = cp_item<MODE>(in, base + 32u * j + lane, v[j]);
        slot += __popc(votes);
    }
    if (chunk == chunks - 1 && lane == 0) *count = slot;
}

extern "C" size_t compact_s3_ballot_rank_scratch(size_t n)
{
    if (n == 0 || n > COMPACT_MAX_N) return 0;
    return s3_counts_bytes(s3_chunks(n)) + blk_scan_u32_scratch(s3_chunks(n));
}

extern "C" cudaError_t compact_s3_phase(int phase, const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                        uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                        cudaStream_t s)
{
    int work;
    KIT_TRY(compact_phase_begin(phase, in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    if (!scratch) return cudaErrorInvalidValue;
    const size_t chunks = s3_chunks(n);
    const unsigned grid = kit_blocks_for(chunks, S3_WARPS);
    uint32_t *counts = (uint32_t *)scratch; /* counts, then (after the scan) first slots */
    void *scan_scratch = (char *)scratch + s3_counts_bytes(chunks);
    if (!grid) return cudaErrorInvalidValue;
    if (phase == 1) return blk_scan_u32_excl(counts, counts, chunks, scan_scratch, s);
    return compact_dispatch(mode, [&](auto m) {
        constexpr int M = decltype(m)::value;
        if (phase == 0)
            s3_count_kernel<M><<<grid, S3_TBS, 0, s>>>(in, flags, threshold, n, chunks, counts);
        else
            s3_write_kernel<M><<<grid, S3_TBS, 0, s>>>(in, flags, threshold, out, count, n, chunks, counts);
        return cudaGetLastError();
    });
}

extern "C" cudaError_t compact_s3_ballot_rank(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                              uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                              cudaStream_t s)
{
    for (int ph = 0; ph < COMPACT_NPHASES; ph++)
        KIT_TRY(compact_s3_phase(ph, in, flags, threshold, out, count, n, mode, scratch, s));
    return cudaSuccess;
}

KIT_DESCRIBE(compact_s3_describe, s3_write_kernel<0>, S3_TBS, 0)
