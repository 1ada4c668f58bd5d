/* hist_stream.cuh - the input side of the Hopper steps (s5, s6): a Column DASk
 * over data blocks of T threads x K 16-byte vectors, with the loads of the next
 * batch of B vectors issued before the current batch is binned (across data
 * block boundaries too), so every thread keeps B x 16 bytes in flight while it
 * works through shared memory.
 *
 * The body supplies   bin(uint4)      count the 16 bytes of one vector
 *                     periodic()      after every PER whole data blocks (a
 *                                     block-wide collective: every thread of the
 *                                     block calls it the same number of times)
 * Only the single partial data block at the end checks ranges (its lanes
 * diverge: it calls body.bin_tail(uint4) when the body has one, else
 * body.bin); the caller does the final collection.
 *
 * Two layouts of a data block: Warp-by-Warp (CHUNK = false, s5 and s6): vector
 * j of lane l of warp w is vector w*32K + 32j + l, so a warp reads 512
 * contiguous bytes per access; Thread-by-Thread (CHUNK = true, s7): lane l owns
 * the K consecutive vectors w*32K + lK .. w*32K + lK + K-1, so a thread's bytes
 * are consecutive in memory (a warp access then touches 32 vectors 16K bytes
 * apart; its sectors are completed by the thread's next loads). */
#ifndef HIST_STREAM_CUH
#define HIST_STREAM_CUH

#include <stdint.h>

__device__ __forceinline__ uint4 hist_ld16(const uint4 *p)
{
    return __ldg(p);
}

/* the partial data block's lanes diverge: body.bin_tail when the body has one */
template <class Body>
__device__ __forceinline__ auto hist_bin_tail(Body &body, uint4 v, int) -> decltype(body.bin_tail(v))
{
    return body.bin_tail(v);
}
template <class Body>
__device__ __forceinline__ void hist_bin_tail(Body &body, uint4 v, long)
{
    body.bin(v);
}

template <int T, int K, int B, int PER, bool CHUNK = false, class Body>
__device__ __forceinline__ void hist_stream(const uint4 *__restrict__ in, size_t nvec, Body &body)
{
    constexpr size_t DBS = (size_t)T * K; /* vectors per data block */
    constexpr unsigned VS = CHUNK ? 1u : 32u; /* from one vector of a thread to its next */
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const size_t grid = gridDim.x, full = nvec / DBS, stride = grid * DBS;
    const size_t off = (size_t)warp * 32 * K + (CHUNK ? (size_t)lane * K : lane);
    const size_t mine = full > blockIdx.x ? (full - blockIdx.x - 1) / grid + 1 : 0;
    const uint4 *p = in + (size_t)blockIdx.x * DBS + off;
    uint4 cur[B];
    int since = 0;
    if (mine) {
#pragma unroll
        for (int u = 0; u < B; u++)
            if (u < K) cur[u] = hist_ld16(p + VS * u);
    }
    for (size_t i = 0; i < mine; i++, p += stride) {
        const bool more = i + 1 < mine;
#pragma unroll
        for (int j = 0; j < K; j += B) {
            uint4 nx[B];
            if (j + B < K) { /* the next batch of this data block */
#pragma unroll
                for (int u = 0; u < B; u++)
                    if (j + B + u < K) nx[u] = hist_ld16(p + VS * (j + B + u));
            } else if (more) { /* the first batch of the next data block */
#pragma unroll
                for (int u = 0; u < B; u++)
                    if (u < K) nx[u] = hist_ld16(p + stride + VS * u);
            }
#pragma unroll
            for (int u = 0; u < B; u++)
                if (j + u < K) body.bin(cur[u]);
            if (j + B < K || more) {
#pragma unroll
                for (int u = 0; u < B; u++)
                    if (j + B < K ? j + B + u < K : u < K) cur[u] = nx[u];
            }
        }
        if (++since == PER) {
            body.periodic();
            since = 0;
        }
    }
    /* the partial data block, if any, belongs to the block that would take data block `full` */
    if (blockIdx.x + mine * grid == full && nvec > full * DBS) {
        const size_t base = full * DBS + off; /* since < PER: one more data block still fits */
        for (int j = 0; j < K; j++)
            if (base + VS * j < nvec) hist_bin_tail(body, hist_ld16(in + base + VS * j), 0);
    }
}

/* Resident blocks per SM that a table of `table_bytes` per block allows on a
 * Hopper SM (228 KB of shared memory, 1 KB reserved per block): the minimum
 * blocks per SM handed to __launch_bounds__ so registers do not cut it. */
__host__ __device__ constexpr int hist_blocks_by_smem(int table_bytes)
{
    return 233472 / (table_bytes + 1024) < 1 ? 1 : (233472 / (table_bytes + 1024) > 32 ? 32 : 233472 / (table_bytes + 1024));
}

#endif
