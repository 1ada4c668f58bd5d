/* rs_brown.cuh - Brown's order-keeping Reduce and Scan on the Row DASk
 * (dissertation ch. 6), templated on the operator, nWarps, nWork and the
 * bank-conflict strategy.  Used by r7 (GPU_Reduce + GPU_SumRows) and s3
 * (GPU_Reduce + GPU_SumsToStarts + GPU_Scan).
 *
 * A thread block of TBS = 32*nWarps threads handles data blocks of
 * DBS = nWork*TBS elements; warp w owns the contiguous chunk of 32*nWork
 * elements starting at w*32*nWork (Warp-by-Warp).  Only regrouping, never
 * reordering, so the operator need not commute:
 *   input  coalesced loads (item k of a lane at chunk + 32k + lane), then a
 *          transpose through shared memory (S1) so that each thread holds a
 *          run of nWork consecutive elements in registers;
 *   S1     each thread scans (or reduces) its run in registers (Sklansky);
 *   S2     warp 0 loads runs of nWarps run-sums, scans them, and
 *   S3     scans its 32 run-sums with shuffles: the block total;
 *   S4     warp 0 writes the exclusive prefixes of the run-sums back (S2);
 *   S5     every thread adds row prefix (+) its run prefix to its run, and the
 *   output goes back through S1 to coalesced stores.
 * Two block-wide barriers per data block, as in the document.
 *
 * Bank conflicts: lane L reads its run at L*nWork + j, a stride of nWork words,
 * so a power-of-two nWork makes lanes collide on banks (Table 6.10).  BC_PAD
 * pads one word after every 32 ("pad & rake", index + index/32) when the run
 * length is a power of two; BC_VEC reads and writes runs as 16-byte vectors
 * (the "aligned vector4" of the document, 4x fewer accesses); BC_NONE lives
 * with the conflicts (odd run lengths have none). */
#ifndef RS_BROWN_CUH
#define RS_BROWN_CUH

#include "rs_block.cuh"
#include "rs_classic.cuh"

namespace rs {

enum { BC_NONE = 0, BC_PAD = 1, BC_VEC = 2 };

/* Row DASk with no more rows than this: the second level runs in one block. */
constexpr size_t MAX_ROWS = 8192;

constexpr bool is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/* Runs of R values of type T in shared memory under strategy BC. */
template <class T, int R, int BC>
struct Runs {
    static constexpr int S = BC == BC_PAD && R > 1 && is_pow2(R) ? BC_PAD
                             : BC == BC_VEC && sizeof(T) == 4 && R % 4 == 0 ? BC_VEC
                                                                            : BC_NONE;
    static constexpr int words(int logical) { return S == BC_PAD ? logical + logical / 32 : logical; }
    /* where logical word li lives */
    __device__ static int at(int li) { return S == BC_PAD ? li + (li >> 5) : li; }

    static_assert(S != BC_PAD || 32 % R == 0, "a padded run must not straddle a pad word");

    /* the run of R values that starts at logical word base (a multiple of R) */
    __device__ static void load(const T *sm, int base, T (&v)[R])
    {
        if constexpr (S == BC_VEC) {
            const uint4 *p = reinterpret_cast<const uint4 *>(sm + base);
#pragma unroll
            for (int q = 0; q < R / 4; q++) unpack(p[q], &v[4 * q]);
        } else {
            const T *p = sm + at(base);
#pragma unroll
            for (int j = 0; j < R; j++) v[j] = p[j];
        }
    }
    __device__ static void store(T *sm, int base, const T (&v)[R])
    {
        if constexpr (S == BC_VEC) {
            uint4 *p = reinterpret_cast<uint4 *>(sm + base);
#pragma unroll
            for (int q = 0; q < R / 4; q++) p[q] = pack(&v[4 * q]);
        } else {
            T *p = sm + at(base);
#pragma unroll
            for (int j = 0; j < R; j++) p[j] = v[j];
        }
    }
};

/* Row DASk split of m data blocks over gridDim.x rows: contiguous, in order,
 * sizes differ by at most one (the first m % rows rows get the extra block). */
__device__ __forceinline__ void row_range(size_t m, size_t *first, size_t *end)
{
    const size_t rows = gridDim.x, r = blockIdx.x, base = m / rows, extra = m % rows;
    *first = r * base + (r < extra ? r : extra);
    *end = *first + base + (r < extra ? 1 : 0);
}

template <class Op, int NWARPS, int NWORK, int BC>
struct Brown {
    typedef typename Op::T T;
    static constexpr int TBS = 32 * NWARPS, DWS = 32 * NWORK, DBS = NWORK * TBS;
    typedef Runs<T, NWORK, BC> R1;  /* S1: a run of nWork elements per thread */
    typedef Runs<T, NWARPS, BC> R2; /* S2: a run of nWarps run-sums per lane of warp 0 */
    struct Smem {
        alignas(16) T s1[R1::words(DBS)];
        alignas(16) T s2[R2::words(TBS)];
        T s3; /* the block total */
    };

    /* input: coalesced loads (identity beyond valid when LAST), then the
     * transpose to runs: v[j] = element lane*nWork + j of this warp's chunk */
    template <bool LAST>
    __device__ static void load_runs(const T *g, size_t valid, T *s1, T (&v)[NWORK])
    {
        const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll
        for (int k = 0; k < NWORK; k++) {
            const int li = w * DWS + k * 32 + lane;
            v[k] = !LAST || (size_t)li < valid ? g[li] : Op::identity();
        }
        __syncwarp(); /* this warp's earlier reads of its chunk are done */
#pragma unroll
        for (int k = 0; k < NWORK; k++) s1[R1::at(w * DWS + k * 32 + lane)] = v[k];
        __syncwarp();
        R1::load(s1, w * DWS + lane * NWORK, v);
    }

    /* output: runs back through S1, then coalesced stores (only below valid when LAST) */
    template <bool LAST>
    __device__ static void store_runs(T *g, size_t valid, T *s1, T (&v)[NWORK])
    {
        const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        __syncwarp();
        R1::store(s1, w * DWS + lane * NWORK, v);
        __syncwarp();
#pragma unroll
        for (int k = 0; k < NWORK; k++) {
            const int li = w * DWS + k * 32 + lane;
            if (!LAST || (size_t)li < valid) g[li] = s1[R1::at(li)];
        }
    }

    /* BlockReduce: the total of one data block, in every thread */
    template <bool LAST>
    __device__ static T block_reduce(const T *g, size_t valid, Smem &sm)
    {
        const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        T v[NWORK];
        load_runs<LAST>(g, valid, sm.s1, v);
        sm.s2[R2::at(threadIdx.x)] = serial_reduce<Op, NWORK>(v); /* S1 */
        __syncthreads();
        if (w == 0) {
            T u[NWARPS];
            R2::load(sm.s2, lane * NWARPS, u);
            const T x = warp_inclusive_scan<Op>(serial_reduce<Op, NWARPS>(u)); /* S2, S3 */
            if (lane == 31) sm.s3 = x;
        }
        __syncthreads();
        return sm.s3;
    }

    /* BlockScan: scan one data block into out, after the row prefix carry;
     * carry (the same in every thread) moves past the block */
    template <bool EXCL, bool LAST>
    __device__ static void block_scan(const T *g, T *out, size_t valid, T &carry, Smem &sm)
    {
        const Op op;
        const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        T v[NWORK];
        load_runs<LAST>(g, valid, sm.s1, v);
        serial_scan<Op, NWORK>(v); /* S1 */
        sm.s2[R2::at(threadIdx.x)] = v[NWORK - 1];
        __syncthreads();
        if (w == 0) {
            T u[NWARPS];
            R2::load(sm.s2, lane * NWARPS, u);
            serial_scan<Op, NWARPS>(u);                             /* S2 */
            const T incl = warp_inclusive_scan<Op>(u[NWARPS - 1]); /* S3 */
            T ex = shfl_up(incl, 1);
            if (lane == 0) ex = Op::identity();
#pragma unroll
            for (int j = NWARPS - 1; j > 0; j--) u[j] = op(ex, u[j - 1]); /* S4 */
            u[0] = ex;
            R2::store(sm.s2, lane * NWARPS, u);
            if (lane == 31) sm.s3 = incl;
        }
        __syncthreads();
        const T pre = op(carry, sm.s2[R2::at(threadIdx.x)]); /* S5 */
        carry = op(carry, sm.s3);
        run_update<Op, EXCL>(pre, v);
        store_runs<LAST>(out, valid, sm.s1, v);
    }
};

/* GPU_Reduce: row r reduces its data blocks, in order, into row_sums[r]. */
template <class Op, int NWARPS, int NWORK, int BC>
__global__ void __launch_bounds__(32 * NWARPS)
    brown_reduce_rows(const typename Op::T *in, size_t n, typename Op::T *row_sums)
{
    typedef Brown<Op, NWARPS, NWORK, BC> B;
    __shared__ typename B::Smem sm;
    const Op op;
    const size_t full = n / B::DBS; /* data blocks with no range check */
    size_t b, end;
    row_range(ceil_div(n, B::DBS), &b, &end);
    typename Op::T acc = Op::identity();
    for (; b < end && b < full; b++)
        acc = op(acc, B::template block_reduce<false>(in + b * B::DBS, B::DBS, sm));
    if (b < end) /* the one partial data block, at the end of the last row */
        acc = op(acc, B::template block_reduce<true>(in + b * B::DBS, n - b * B::DBS, sm));
    if (threadIdx.x == 0) row_sums[blockIdx.x] = acc;
}

/* GPU_Scan: row r scans its data blocks, in order, after its row start. */
template <class Op, int NWARPS, int NWORK, int BC, bool EXCL>
__global__ void __launch_bounds__(32 * NWARPS)
    brown_scan_rows(const typename Op::T *in, typename Op::T *out, size_t n,
                    const typename Op::T *row_starts)
{
    typedef Brown<Op, NWARPS, NWORK, BC> B;
    __shared__ typename B::Smem sm;
    const size_t full = n / B::DBS;
    size_t b, end;
    row_range(ceil_div(n, B::DBS), &b, &end);
    typename Op::T carry = row_starts[blockIdx.x];
    for (; b < end && b < full; b++)
        B::template block_scan<EXCL, false>(in + b * B::DBS, out + b * B::DBS, B::DBS, carry, sm);
    if (b < end)
        B::template block_scan<EXCL, true>(in + b * B::DBS, out + b * B::DBS, n - b * B::DBS,
                                           carry, sm);
}

/* Rows: one per resident block of `kernel` (a multiple of the SM count, as the
 * document recommends), at most one per data block and at most MAX_ROWS. */
inline cudaError_t brown_rows(const void *kernel, int tbs, size_t blocks, unsigned *cache,
                              unsigned *rows)
{
    if (!*cache) KIT_TRY(kit_resident_grid(kernel, tbs, 0, cache));
    size_t r = *cache < blocks ? *cache : blocks;
    *rows = (unsigned)(r < MAX_ROWS ? r : MAX_ROWS);
    return cudaSuccess;
}

/* The Reduce primitive: GPU_Reduce (rows) + GPU_SumRows (one block). */
template <class Op, int NWARPS, int NWORK, int BC>
cudaError_t brown_reduce(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                         cudaStream_t s)
{
    typedef Brown<Op, NWARPS, NWORK, BC> B;
    static unsigned resident;
    typename Op::T *sums = (typename Op::T *)scratch;
    unsigned rows = 0;
    if (n) {
        KIT_TRY(brown_rows((const void *)brown_reduce_rows<Op, NWARPS, NWORK, BC>, B::TBS,
                           ceil_div(n, B::DBS), &resident, &rows));
        brown_reduce_rows<Op, NWARPS, NWORK, BC><<<rows, B::TBS, 0, s>>>(in, n, sums);
        KIT_TRY(cudaGetLastError());
    }
    small_pass<Op, 1024, true><<<1, 1024, 0, s>>>(sums, rows, out); /* rows == 0: the identity */
    return cudaGetLastError();
}

/* The Scan primitive: GPU_Reduce, GPU_SumsToStarts, GPU_Scan on the same rows. */
template <class Op, int NWARPS, int NWORK, int BC, bool EXCL>
cudaError_t brown_scan(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                       cudaStream_t s)
{
    typedef Brown<Op, NWARPS, NWORK, BC> B;
    static unsigned resident;
    typename Op::T *sums = (typename Op::T *)scratch;
    unsigned rows;
    if (n == 0) return cudaSuccess;
    KIT_TRY(brown_rows((const void *)brown_scan_rows<Op, NWARPS, NWORK, BC, EXCL>, B::TBS,
                       ceil_div(n, B::DBS), &resident, &rows));
    brown_reduce_rows<Op, NWARPS, NWORK, BC><<<rows, B::TBS, 0, s>>>(in, n, sums);
    KIT_TRY(cudaGetLastError());
    small_pass<Op, 1024, false><<<1, 1024, 0, s>>>(sums, rows, NULL); /* row sums -> row starts */
    KIT_TRY(cudaGetLastError());
    brown_scan_rows<Op, NWARPS, NWORK, BC, EXCL><<<rows, B::TBS, 0, s>>>(in, out, n, sums);
    return cudaGetLastError();
}

/* Scratch: one value per row, for the largest type (8-byte affine maps). */
inline size_t brown_scratch(size_t n)
{
    (void)n;
    return MAX_ROWS * sizeof(rs_affine);
}

} // namespace rs

/* The configurations the experiments compare, one list for both primitives:
 * V(nWarps, nWork, strategy, param label, what) expands to one table entry. */
#define RS_PAIR_ROW(V, W)                                                                        \
    V(W, 1, rs::BC_PAD, "", "nWarps x nWork") V(W, 2, rs::BC_PAD, "", "nWarps x nWork")          \
    V(W, 3, rs::BC_PAD, "", "nWarps x nWork") V(W, 4, rs::BC_PAD, "", "nWarps x nWork")          \
    V(W, 5, rs::BC_PAD, "", "nWarps x nWork") V(W, 6, rs::BC_PAD, "", "nWarps x nWork")          \
    V(W, 7, rs::BC_PAD, "", "nWarps x nWork") V(W, 8, rs::BC_PAD, "", "nWarps x nWork")
/* Tables 6.13-6.15: nWarps x nWork = 1..8 x 1..8, pad & rake on power-of-two runs */
#define RS_PAIR_VARIANTS(V)                                                                      \
    RS_PAIR_ROW(V, 1) RS_PAIR_ROW(V, 2) RS_PAIR_ROW(V, 3) RS_PAIR_ROW(V, 4)                      \
    RS_PAIR_ROW(V, 5) RS_PAIR_ROW(V, 6) RS_PAIR_ROW(V, 7) RS_PAIR_ROW(V, 8)
/* Table 6.16: the ways to handle bank conflicts, at the document's pairs */
#define RS_BANK_VARIANTS(V)                                                                      \
    V(4, 8, rs::BC_PAD, "bc=pad ", "avoid: pad & rake")                                          \
    V(4, 8, rs::BC_VEC, "bc=vec4 ", "mitigate: 16-byte shared-memory runs")                      \
    V(3, 5, rs::BC_NONE, "bc=odd ", "avoid: odd run length")                                     \
    V(6, 6, rs::BC_NONE, "bc=low ", "live with 2-way conflicts")                                 \
    V(4, 8, rs::BC_NONE, "bc=high ", "live with 8-way conflicts")
/* Fig. 6.5: the five curves; (W, K) is the document's best pair for the primitive */
#define RS_CURVE_VARIANTS(V, W, K)                                                               \
    V(1, 1, rs::BC_PAD, "curve=baseline ", "no extra TLP or ILP")                                \
    V(1, 8, rs::BC_PAD, "curve=ilp ", "ILP-focused")                                             \
    V(4, 1, rs::BC_PAD, "curve=tlp ", "TLP-focused")                                             \
    V(W, K, rs::BC_VEC, "curve=mitigates ", "both, bank conflicts mitigated (vector4)")          \
    V(W, K, rs::BC_PAD, "curve=avoids ", "both, bank conflicts avoided (pad & rake)")

#endif
