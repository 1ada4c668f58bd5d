/* s3 - ILP by manual batching ("software pipelining" in the document).
 * Changed versus s2: each thread first issues BATCH loads into registers, then
 * BATCH stores (copy_items.cuh), instead of load, store, load, store.
 * Why it is faster: BATCH independent loads are in flight per thread, so each
 * warp keeps 4x more bytes moving through the memory system for the same
 * occupancy; the range check is still decided once per data block.
 * What still limits it: 4-byte accesses (a warp moves 128 bytes per
 * instruction), and on a GPU with Hopper's bandwidth, 16 bytes per thread in
 * flight is still short of what DRAM latency x bandwidth asks for (s6).
 *
 * This file also holds the compile-time variants the chapter's experiments
 * sweep: nWork x batch (Fig. 5.8), block size (Fig. 5.10) and forced resident
 * blocks per SM (Fig. 5.11). */
#include "copy.h"
#include "copy_items.cuh"
#include "kit_cuda.cuh"

template <int TBS, int NWORK, int BATCH>
__global__ void __launch_bounds__(TBS) copy_batch_kernel(const uint32_t *in, uint32_t *out,
                                                         size_t n)
{
    constexpr size_t DBS = (size_t)TBS * NWORK;
    const size_t first = (size_t)blockIdx.x * DBS;
    const size_t idx = first + copy_thread_offset<NWORK>();
    if (first + DBS <= n)
        copy_items<NWORK, BATCH, RC_NONE>(in + idx, out + idx, idx, 0, 0);
    else
        copy_items<NWORK, BATCH, RC_HI>(in + idx, out + idx, idx, 0, n - 1);
}

/* the largest n of an instantiation (its table entry's max_n): one block per TBS x NWORK words */
#define S3_MAX_N(TBS, NWORK) COPY_BLOCKS_MAX_N((size_t)(TBS) * (NWORK))

template <int TBS, int NWORK, int BATCH>
static cudaError_t launch_batch(const uint32_t *in, uint32_t *out, size_t n, size_t smem,
                                cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    if (n > S3_MAX_N(TBS, NWORK)) return cudaErrorInvalidValue; /* more than 2^31 - 1 blocks */
    copy_batch_kernel<TBS, NWORK, BATCH><<<kit_blocks_for(n, (size_t)TBS * NWORK), TBS, smem, s>>>(in, out, n);
    return cudaGetLastError();
}

template <int TBS, int NWORK, int BATCH>
static cudaError_t run_batch(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                            cudaStream_t s)
{
    (void)scratch;
    return launch_batch<TBS, NWORK, BATCH>(in, out, n, 0, s);
}

template <int TBS, int NWORK, int BATCH>
static cudaError_t describe_batch(kit_kernel_desc *d)
{
    d->func = (const void *)copy_batch_kernel<TBS, NWORK, BATCH>;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* ---- the ladder step: the document's recommendation, nWork = 4 in one batch of 4 */
#define S3_TBS 128
#define S3_NWORK 4
#define S3_BATCH 4
static_assert(COPY_BLOCK_DASK_MAX_N == S3_MAX_N(S3_TBS, S3_NWORK), "copy.h's COPY_BLOCK_DASK_MAX_N: s3's data block");

extern "C" cudaError_t copy_s3_batch(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                     cudaStream_t s)
{
    return run_batch<S3_TBS, S3_NWORK, S3_BATCH>(in, out, n, scratch, s);
}

extern "C" cudaError_t copy_s3_describe(kit_kernel_desc *d)
{
    return describe_batch<S3_TBS, S3_NWORK, S3_BATCH>(d);
}

#define S3_FILE "chapters/01-copy/s3_batch.cu"

/* ---- Fig. 5.8: nWork 1..16 x {interleaved (what unrolling gives), batches of 2, 4, 8, 16} */
#define ILP(NW, B, LABEL)                                                                       \
    {{"s3_batch", "nWork=" #NW " batch=" LABEL, "nWork x batch sweep", S3_FILE, NULL,           \
      KIT_STEP_GPU, describe_batch<128, NW, B>, 0, S3_MAX_N(128, NW)},                          \
     NULL, run_batch<128, NW, B>}
#define ILP_ROW(NW)                                                                             \
    ILP(NW, 1, "interleaved"), ILP(NW, 2, "2"), ILP(NW, 4, "4"), ILP(NW, 8, "8"), ILP(NW, 16, "16")

extern "C" const copy_step copy_ilp_variants[] = {
    ILP_ROW(1),  ILP_ROW(2),  ILP_ROW(3),  ILP_ROW(4),  ILP_ROW(5),  ILP_ROW(6),
    ILP_ROW(7),  ILP_ROW(8),  ILP_ROW(9),  ILP_ROW(10), ILP_ROW(11), ILP_ROW(12),
    ILP_ROW(13), ILP_ROW(14), ILP_ROW(15), ILP_ROW(16),
};

/* ---- Fig. 5.10: block size 32..1024 in steps of one warp (nWork = 4, batch 4) */
#define TBS(T)                                                                                  \
    {{"s3_batch", "tbs=" #T, "block size sweep", S3_FILE, NULL, KIT_STEP_GPU,                  \
      describe_batch<T, 4, 4>, 0, S3_MAX_N(T, 4)},                                              \
     NULL, run_batch<T, 4, 4>}
#define TBS8(A, B, C, D, E, F, G, H) TBS(A), TBS(B), TBS(C), TBS(D), TBS(E), TBS(F), TBS(G), TBS(H)

extern "C" const copy_step copy_tbs_variants[] = {
    TBS8(32, 64, 96, 128, 160, 192, 224, 256),     TBS8(288, 320, 352, 384, 416, 448, 480, 512),
    TBS8(544, 576, 608, 640, 672, 704, 736, 768),  TBS8(800, 832, 864, 896, 928, 960, 992, 1024),
};

/* ---- Fig. 5.11: force R resident blocks per SM by asking each block for a
 * share of the SM's shared memory it never touches (the s3 kernel unchanged). */
static cudaError_t residency_smem(int R, size_t *bytes)
{
    static size_t cache[33];
    static int known[33];
    if (R < 1 || R > 32) return cudaErrorInvalidValue; /* a guard of cache[]: the table's R are 1..16 */
    if (!known[R]) {
        KIT_TRY(kit_force_residency((const void *)copy_batch_kernel<S3_TBS, S3_NWORK, S3_BATCH>,
                                    S3_TBS, 0, R, &cache[R]));
        known[R] = 1;
    }
    *bytes = cache[R];
    return cudaSuccess;
}

template <int R>
static cudaError_t run_resident(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                                cudaStream_t s)
{
    size_t smem = 0;
    (void)scratch;
    if (n > S3_MAX_N(S3_TBS, S3_NWORK)) return cudaErrorInvalidValue; /* before the occupancy queries */
    KIT_TRY(residency_smem(R, &smem));
    return launch_batch<S3_TBS, S3_NWORK, S3_BATCH>(in, out, n, smem, s);
}

template <int R>
static cudaError_t describe_resident(kit_kernel_desc *d)
{
    KIT_TRY(describe_batch<S3_TBS, S3_NWORK, S3_BATCH>(d));
    return residency_smem(R, &d->dyn_smem);
}

#define RES(R)                                                                                  \
    {{"s3_batch", "forced=" #R, "forced resident blocks per SM", S3_FILE, NULL, KIT_STEP_GPU,   \
      describe_resident<R>, 0, S3_MAX_N(S3_TBS, S3_NWORK)},                                     \
     NULL, run_resident<R>}

extern "C" const copy_step copy_res_variants[] = {
    RES(1), RES(2),  RES(3),  RES(4),  RES(5),  RES(6),  RES(7),  RES(8),
    RES(9), RES(10), RES(11), RES(12), RES(13), RES(14), RES(15), RES(16),
};
