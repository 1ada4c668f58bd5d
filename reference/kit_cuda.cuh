/* kit_cuda.cuh - small helpers for the .cu step files (CUDA C only). */
#ifndef KIT_CUDA_CUH
#define KIT_CUDA_CUH

#include <limits.h>

#include "kit.h"

/* Define the extern "C" describe function of a step: its main kernel, block size
 * and dynamic shared memory, for the demo's registers / smem / occupancy columns. */
#define KIT_DESCRIBE(name, kernel, threads, smem)                                     \
    extern "C" cudaError_t name(kit_kernel_desc *d)                                   \
    {                                                                                 \
        d->func = (const void *)(kernel);                                             \
        d->block_threads = (threads);                                                 \
        d->dyn_smem = (smem);                                                         \
        return cudaSuccess;                                                           \
    }

/* Blocks needed to cover n items at per_block items each; 0 when the grid
 * would exceed the hardware limit (the caller returns cudaErrorInvalidValue). */
static inline unsigned kit_blocks_for(size_t n, size_t per_block)
{
    size_t b = (n + per_block - 1) / per_block;
    return b > (size_t)INT_MAX ? 0u : (unsigned)b;
}

/* A grid that fills the GPU exactly once: SMs x resident blocks per SM of
 * kernel at this block size and dynamic shared memory.  Remembered per (kernel,
 * device, block size, shared memory) in a small table, so that a step may call
 * it in every run: the occupancy query costs microseconds of host time that a
 * timed run should not pay.  (The table is per translation unit and assumes one
 * host thread at a time, like the rest of the harness.) */
static inline cudaError_t kit_resident_grid(const void *kernel, int threads, size_t smem,
                                            unsigned *grid)
{
    struct entry {
        const void *kernel;
        int device, threads;
        size_t smem;
        unsigned grid;
    };
    static entry memo[16];
    static unsigned next;
    int dev = 0, per_sm = 0, sms;
    unsigned i;
    KIT_TRY(cudaGetDevice(&dev));
    for (i = 0; i < 16; i++)
        if (memo[i].grid && memo[i].kernel == kernel && memo[i].device == dev && memo[i].threads == threads &&
            memo[i].smem == smem) {
            *grid = memo[i].grid;
            return cudaSuccess;
        }
    sms = kit_sm_count();
    KIT_TRY(kit_occupancy(&per_sm, kernel, threads, smem));
    if (sms <= 0) return cudaErrorInvalidConfiguration;
    if (per_sm <= 0) {
        kit_set_unsupported("a block of %d threads with %zu bytes of dynamic shared memory does not fit an SM of this GPU",
                            threads, smem);
        return cudaErrorInvalidConfiguration;
    }
    *grid = (unsigned)(sms * per_sm);
    memo[next % 16] = entry{kernel, dev, threads, smem, *grid};
    next++;
    return cudaSuccess;
}

/* How many tiles ahead a block of a single-pass kernel (one tile a block, tiles taken in the order
 * blocks start) prefetches the bytes of a later tile into L2: the resident grid / div (div = 1: the
 * tile whose block starts about when this one ends), at most as many tiles of tile_bytes as half the
 * L2 holds, so that they are still there when their block loads them.  From the device (or the
 * KIT_DEVICE profile) at run time; remembered like kit_resident_grid. */
static inline cudaError_t kit_prefetch_tiles(const void *kernel, int threads, size_t smem, size_t tile_bytes,
                                             int div, unsigned *tiles)
{
    const kit_device *d;
    unsigned grid = 0;
    if (div < 1 || tile_bytes == 0) return cudaErrorInvalidValue;
    KIT_TRY(kit_device_get(&d));
    KIT_TRY(kit_resident_grid(kernel, threads, smem, &grid));
    size_t t = grid / (unsigned)div;
    if (t > d->l2_bytes / 2 / tile_bytes) t = d->l2_bytes / 2 / tile_bytes;
    *tiles = (unsigned)t;
    return cudaSuccess;
}

/* CUB's two-phase calls: the call without storage only computes the bytes, but
 * it repeats the dispatch's host work (device attributes, occupancy).  A
 * yardstick remembers the last answer, keyed on everything the answer may
 * depend on: the size, the current device, and a `cls` the caller picks (the
 * alignment class of its pointers, or a constant); the type and the mode get a
 * memo each (a static per template instantiation and mode).  Only the first run
 * at a key pays for the query: the harness verifies and warms a step up at a
 * size before timing it there, so no timed run does. */
struct kit_bytes_memo {
    size_t n = SIZE_MAX, bytes = 0;
    int device = -1;
    unsigned cls = 0;
};

template <class Query>
inline cudaError_t kit_memo_bytes(kit_bytes_memo &m, size_t n, unsigned cls, Query query,
                                  size_t &bytes)
{
    int device = 0;
    KIT_TRY(cudaGetDevice(&device));
    if (m.n != n || m.device != device || m.cls != cls) {
        size_t b = 0;
        KIT_TRY(query(b));
        m.n = n;
        m.device = device;
        m.cls = cls;
        m.bytes = b;
    }
    bytes = m.bytes;
    return cudaSuccess;
}

/* The alignment class of two pointers: their addresses mod 16 (a memo key). */
static inline unsigned kit_align_class(const void *a, const void *b)
{
    return (unsigned)((uintptr_t)a & 15u) | (unsigned)((uintptr_t)b & 15u) << 4;
}

/* scratch_bytes(n) of a CUB yardstick must cover every caller's pointers, so it takes the
 * largest of CUB's size queries over KIT_QUERY_CLASSES pointer classes: class 0 passes NULL,
 * the others dummy addresses (never dereferenced) skewed from 16-byte alignment.
 * kit_query_ptr<T>(c, which) is pointer `which` (0: input, 1: output) of class c;
 * kit_query_max calls query(c, bytes) for every class and keeps the largest answer. */
#define KIT_QUERY_CLASSES 3

template <class T>
inline T *kit_query_ptr(int c, int which)
{
    static const unsigned skew[KIT_QUERY_CLASSES][2] = {{0, 0}, {1, 2}, {3, 1}};
    if (c == 0) return NULL;
    return (T *)(uintptr_t)(65536u * (1u + (unsigned)which) + skew[c][which] * sizeof(T));
}

template <class Query>
inline cudaError_t kit_query_max(Query query, size_t &most)
{
    for (int c = 0; c < KIT_QUERY_CLASSES; c++) {
        size_t b = 0;
        KIT_TRY(query(c, b));
        if (b > most) most = b;
    }
    return cudaSuccess;
}

#endif
