/* knn_morton.cuh - queries in Morton (Z-curve) order, for s4 and the steps after it.
 *
 * Neighbouring queries visit nearly the same nodes; one thread per query in input order puts
 * queries from all over the space in one warp (a uniform input is a random order), so the warp's
 * lanes walk different paths and the warp pays for the union of their work.  Sorting the queries
 * along a space-filling curve first gives each warp a compact patch of space.  The order only
 * schedules the work: every answer is written to its query's own slot, so any permutation gives
 * the same output, and a bucket order (the top bits of the code) is as good as a sort.
 *
 * Per query run, on the stream, with the scratch (no allocation):
 *   1  knn_morton_count: the query's cell on a 2^b grid per axis over the points' bounding box
 *      (the tree header; queries outside it are clamped to the border cells), its Morton code
 *      (b bits per axis, interleaved, axis 0 the highest of each group), one atomicAdd on
 *      counts[code];
 *   2  blk_scan_u32_excl (reference/blocks/scan_u32.cuh): counts -> bucket offsets, in place;
 *   3  knn_morton_scatter: the code again, pos = atomicAdd(offsets[code], 1), perm[pos] = j.
 *      The order inside a bucket is whatever the atomics give (not stable): harmless, see above.
 * b = clamp(ceil(log2 m) / dim, 1, bmax) with bmax = 10, 7, 5 for dim 2, 3, 4 (at most 2^21
 * buckets): about one to four queries per bucket up to m = 2^(dim bmax), then a grid fine enough
 * that a bucket's queries share their neighbours.
 *
 * Scratch (exact): round256(4 m) for perm + round256(4 B) for the counts, B = 2^(b dim) buckets,
 * + blk_scan_u32_scratch(B); 0 for m = 0. */
#ifndef KNN_MORTON_CUH
#define KNN_MORTON_CUH

#include <tuple>

#include "blocks/scan_u32.cuh"
#include "knn_tree.cuh"

#define KNN_MORTON_TPB 256

/* bits per axis of the Morton grid */
static inline int knn_morton_bits(size_t m, int dim)
{
    int lg = 0;
    while (lg < 62 && ((size_t)1 << lg) < m) lg++;
    const int most = dim == 2 ? 10 : dim == 3 ? 7 : 5;
    const int b = lg / (dim > 0 ? dim : 1);
    return b < 1 ? 1 : b > most ? most : b;
}
static inline size_t knn_morton_buckets(size_t m, int dim)
{
    return (size_t)1 << (knn_morton_bits(m, dim) * dim);
}
static inline size_t knn_morton_scratch(size_t m, int dim)
{
    if (m == 0 || dim < 2 || dim > 4) return 0;
    const size_t nb = knn_morton_buckets(m, dim);
    return knn_round256(m * sizeof(uint32_t)) + knn_round256(nb * sizeof(uint32_t)) +
           blk_scan_u32_scratch(nb);
}

/* the grid: origin and cells per unit length per axis (0 for an empty or non-finite extent) */
template <int DIM>
struct knn_box {
    float lo[DIM], scale[DIM];
};
template <int DIM>
static inline KIT_HD knn_box<DIM> knn_box_of(const knn_tree_hdr *h, int bits)
{
    knn_box<DIM> bx;
    KNN_UNROLL
    for (int a = 0; a < DIM; a++) {
        const float lo = knn_unkey(h->lo[a]), hi = knn_unkey(h->hi[a]);
        const float range = knn_fsub(hi, lo);
        bx.lo[a] = lo;
        bx.scale[a] = range > 0.0f && range < INFINITY ? knn_fdiv((float)(1u << bits), range) : 0.0f;
    }
    return bx;
}
/* the Morton code of q: its cell per axis (clamped; NaN -> 0), bits interleaved from the top.
 * The count and the scatter kernel must agree on every code (else a bucket overflows into the
 * next one's slots), so every float operation here and in knn_box_of is an explicitly rounded
 * intrinsic: no contraction or fast-math flag can make the two kernels differ. */
template <int DIM>
static inline KIT_HD uint32_t knn_morton_code(const float (&q)[DIM], const knn_box<DIM> &bx, int bits)
{
    const uint32_t cells = 1u << bits;
    uint32_t c[DIM];
    KNN_UNROLL
    for (int a = 0; a < DIM; a++) {
        const float t = knn_fmul(knn_fsub(q[a], bx.lo[a]), bx.scale[a]);
        c[a] = 0;
        if (t >= 1.0f) c[a] = t < (float)cells ? (uint32_t)t : cells - 1;
    }
    uint32_t code = 0;
    for (int bit = bits - 1; bit >= 0; bit--) {
        KNN_UNROLL
        for (int a = 0; a < DIM; a++) code = code << 1 | (c[a] >> bit & 1u);
    }
    return code;
}

template <int DIM>
static __global__ void __launch_bounds__(KNN_MORTON_TPB)
    knn_morton_count(const float *queries, size_t m, const knn_tree_hdr *hdr, int bits, uint32_t *counts)
{
    const size_t j = (size_t)blockIdx.x * KNN_MORTON_TPB + threadIdx.x;
    if (j >= m) return;
    const knn_box<DIM> bx = knn_box_of<DIM>(hdr, bits);
    float q[DIM];
    knn_load_query<DIM>(queries, j, q);
    atomicAdd(counts + knn_morton_code<DIM>(q, bx, bits), 1u);
}

template <int DIM>
static __global__ void __launch_bounds__(KNN_MORTON_TPB)
    knn_morton_scatter(const float *queries, size_t m, const knn_tree_hdr *hdr, int bits, uint32_t *offsets,
                       uint32_t *perm)
{
    const size_t j = (size_t)blockIdx.x * KNN_MORTON_TPB + threadIdx.x;
    if (j >= m) return;
    const knn_box<DIM> bx = knn_box_of<DIM>(hdr, bits);
    float q[DIM];
    knn_load_query<DIM>(queries, j, q);
    const uint32_t pos = atomicAdd(offsets + knn_morton_code<DIM>(q, bx, bits), 1u);
    if (pos < m) perm[pos] = (uint32_t)j; /* always: the offsets partition 0 .. m-1 among the buckets */
}

/* perm[0 .. m) = the queries in bucket order, in the scratch; m >= 1, n >= 1 (tree has a header) */
template <int DIM>
static inline cudaError_t knn_morton_order(const void *tree, const float *queries, size_t m, void *scratch,
                                           const uint32_t **perm_out, cudaStream_t s)
{
    const int bits = knn_morton_bits(m, DIM);
    const size_t nb = (size_t)1 << (bits * DIM);
    char *c = (char *)scratch;
    uint32_t *perm = (uint32_t *)c;
    c += knn_round256(m * sizeof(uint32_t));
    uint32_t *counts = (uint32_t *)c;
    c += knn_round256(nb * sizeof(uint32_t));
    const unsigned grid = kit_blocks_for(m, KNN_MORTON_TPB);
    const knn_tree_hdr *hdr = (const knn_tree_hdr *)tree;
    if (grid == 0) return cudaErrorInvalidValue;
    KIT_TRY(cudaMemsetAsync(counts, 0, nb * sizeof(uint32_t), s));
    knn_morton_count<DIM><<<grid, KNN_MORTON_TPB, 0, s>>>(queries, m, hdr, bits, counts);
    KIT_TRY(cudaGetLastError());
    KIT_TRY(blk_scan_u32_excl(counts, counts, nb, c, s));
    knn_morton_scatter<DIM><<<grid, KNN_MORTON_TPB, 0, s>>>(queries, m, hdr, bits, counts, perm);
    KIT_TRY(cudaGetLastError());
    *perm_out = perm;
    return cudaSuccess;
}

/* The query kernel of the Morton-ordered steps (s4, s5, s7), instantiated per step, DIM and KB:
 * thread t answers slot t of the order, query perm[t], and writes that query's own rows.  Search is
 * the step's search, a struct of four members:
 *     static constexpr int TPB;                  the block size
 *     static constexpr bool KB4;                 whether k = 2 .. 4 get KB = 4 (knn_on_k)
 *     using params = std::tuple<P...>;           the tree's kernel parameters (in front of the rest)
 *     template <int DIM, int KB>
 *     static __device__ void search(const float (&q)[DIM], uint32_t self, knn_best<KB> &b, P...);
 * search offers q's candidates to b (self: the query's own index in All-kNN, else KNN_NONE).  The
 * tree's parameters are passed one by one, not as one struct: each step's kernel is then the very
 * code it was as a kernel of its own (a struct parameter moves the loads and changes the registers). */
template <class Search, int DIM, int KB, class... P>
static __global__ void __launch_bounds__(Search::TPB)
    knn_morton_kernel(P... tree, const float *queries, size_t m, int k, int all, const uint32_t *perm,
                      uint32_t *idx, float *dist2)
{
    const size_t t = (size_t)blockIdx.x * Search::TPB + threadIdx.x;
    if (t >= m) return;
    const uint32_t j = perm[t];
    if (j >= m) return; /* never: perm is a permutation of 0 .. m-1 */
    float q[DIM];
    knn_load_query<DIM>(queries, j, q);
    knn_best<KB> b;
    knn_best_init(b, k);
    Search::template search<DIM, KB>(q, all ? j : KNN_NONE, b, tree...);
    knn_best_store(b, k, j, idx, dist2);
}

/* the kernel of Search for one (DIM, KB), as an address (a step's KIT_DESCRIBE) */
template <class Search, int DIM, int KB, class... P>
static constexpr auto knn_morton_kernel_ptr(std::tuple<P...> *)
{
    return knn_morton_kernel<Search, DIM, KB, P...>;
}
template <class Search, int DIM, int KB>
static constexpr auto knn_morton_kernel_of()
{
    return knn_morton_kernel_ptr<Search, DIM, KB>((typename Search::params *)nullptr);
}

/* The query phase of a Morton-ordered step: knn_query_launch's checks and empty cases, then the
 * order on the stream (in the scratch) and knn_morton_kernel<Search> over it, with the tree's
 * parameters from tree_params() (a Search::params; called only once the checks passed and n >= 1). */
template <class Search, class TreeParams>
static inline cudaError_t knn_morton_query(const void *tree, const float *points, size_t n, const float *queries,
                                           size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                           void *scratch, cudaStream_t s, TreeParams tree_params)
{
    return knn_query_launch<Search::TPB, Search::KB4>(
        tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, true, s,
        [&](auto dd, auto kk, unsigned grid) -> cudaError_t {
            constexpr int DIM = decltype(dd)::value, KB = decltype(kk)::value;
            if (!scratch) return cudaErrorInvalidValue;
            const uint32_t *perm = NULL;
            KIT_TRY(knn_morton_order<DIM>(tree, queries, m, scratch, &perm, s));
            const typename Search::params p = tree_params();
            std::apply(
                [&](auto... tp) {
                    knn_morton_kernel<Search, DIM, KB, decltype(tp)...>
                        <<<grid, Search::TPB, 0, s>>>(tp..., queries, m, k, all, perm, idx, dist2);
                },
                p);
            return cudaSuccess;
        });
}

#endif
