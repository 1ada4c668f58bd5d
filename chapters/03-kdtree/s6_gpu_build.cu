/* s6 - the tree built on the GPU: build and query never leave the device.
 *
 * Changed versus s5: the build phase.  s2 .. s5 copy the points to the host, build there and copy
 * the tree back (the document's choice: its GPU build was slower than its CPU build).  Here the
 * same left-balanced tree - the same image, bit for bit in its layout (knn_tree.cuh), so s5's
 * query runs on it unchanged - is built on the device, asynchronously on the stream, in the tree
 * bytes (no allocation, no synchronization, no host reads).
 *
 * The algorithm: partition into IN-ORDER position, then scatter to heap position.  In the final
 * tree, node i's subtree holds a contiguous range of in-order ranks [start(i), start(i) + size(i)),
 * its own point at rank start(i) + size(2i), its left subtree before, its right subtree after;
 * start, size and the inverse map rank -> node are closed formulas of n alone (knn_lb_start,
 * knn_lb_size, knn_lb_inorder_node in knn_tree.cuh).  So the build keeps the points in one array
 * in which, after level l, the points of every node of level l + 1 occupy exactly that node's
 * in-order range: level l splits each of its 2^l ranges around its left-balanced median along axis
 * l % dim - the size(2i) smaller points (in the order of knn_key, ties anywhere) to the front, the
 * median to rank start + size(2i), the rest behind - and never moves a point out of its range.
 *   0  s6_load: points -> (float4, original index) array, the bounding box (order keys, warp
 *      min/max - blocks/warp_minmax.cuh: REDUX on sm_80+, shuffles on sm_75 - then block min/max,
 *      then one atomicMin/Max per block and axis) into the tree header.
 *   1  global levels l = 0 .. lloc - 1, while a segment (the largest, node 2^l) holds more than
 *      S6_LOCAL_MAX points; a segment is cut into tiles of S6_TILE points, one block per tile:
 *      a  radix select of the median key in 4 passes of 8-bit digits (most significant first):
 *         s6_hist - a 256-bin histogram in shared memory of the keys that match the segment's
 *         prefix so far, added to the segment's global counts (one atomicAdd per non-zero bin);
 *         s6_select - one warp per segment scans the 256 counts, finds the digit holding the
 *         median's rank, extends the prefix and lowers the rank, zeroes the counts.  After pass 4
 *         the prefix is the median key v, and lt = #{key < v}, le = #{key <= v} of the segment;
 *      b  s6_partition - each point goes to lt-class (key < v) rank, eq-class lt + rank, gt-class
 *         le + rank, ranks from warp ballots, per-warp offsets in shared memory and one atomicAdd
 *         per class and block on the segment's counters (not stable: the order inside a class
 *         does not matter, and equal keys may go either side of the median by the tree's rule);
 *         the point landing on the median rank is also stored for its node (a small side array,
 *         written to the node array at the very end).  Ping-pong between two arrays.
 *   2  s6_local: one block per node of level lloc finishes its whole subtree in shared memory
 *      (<= S6_LOCAL_MAX points): per remaining level, every point's rank inside its sub-range by
 *      counting (key, position) pairs before it (an O(size^2) sort of each sub-range, cheap at
 *      these sizes and free of any data-dependent control flow), points moved to their ranks;
 *      at the end every point sits at its final in-order rank p and is written to node
 *      knn_lb_inorder_node(p) of the image.
 *   3  s6_medians: the medians of the global levels to nodes 1 .. 2^lloc - 1.
 * Memory (all in the tree bytes): the image; array A (float4 + index per point); the second
 * ping-pong array B is the image's own node and index arrays (their slots 1 .. n), free until the
 * end: the load puts the data in B when lloc is odd, so that after lloc partitions it is in A, which
 * the local kernel reads while it writes the final nodes into B's storage; the 256 counts and a
 * 32-byte state per segment of the deepest global level; the median side arrays.
 *   tree_bytes(n) = round256(256 + 20 (n + 1)) + round256(16 n) + round256(4 n)
 *                   + round256(1024 G) + round256(32 G) + round256(16 M) + round256(4 M),
 *   G = 2^(lloc - 1) (0 when lloc = 0), M = 2^lloc, lloc = the first level whose largest subtree
 *   has <= S6_LOCAL_MAX nodes.
 * Work: for 10^7 points lloc = 14 global levels (each reads the points 4 times 16 B and moves them
 * once, 20 B in and out: ~100 bytes per point per level, ~1.4e10 bytes in all) and ~10 local levels
 * of O(size^2) rank counting (~1.2e10 compare-adds); ~130 launches.
 * Target: the README's bars (the build of 10^7 3D points).
 * Why it is faster: the build is parallel over points at every level, and nothing crosses PCIe.
 * What still limits it: four reads of the points per global level (only one key per point is
 * needed: a per-axis key array would read 4 B instead of 16 B), the quadratic local sort, and
 * one launch chain per level; the query is s5's (plane trim test, one thread per query).
 * Keeps (knn.h): as s2; tree nodes with equal keys may land on either side of their median, and
 * which of several equal-key points becomes the median depends on the atomics' order (the tree
 * can differ from run to run only when coordinates repeat; the answers never do: they are exact
 * on any valid tree). */
#include <stddef.h>

#include "blocks/ballot_warp.cuh"
#include "blocks/warp_minmax.cuh"
#include "knn_tree.cuh"

#define S6_TPB 256                  /* global-level kernels */
#define S6_ITEMS 8                  /* points per thread in a tile */
#define S6_TILE (S6_TPB * S6_ITEMS) /* 2048 points per block */
#define S6_RADIX 256                /* 8-bit digits, 4 passes */
#define S6_SEL_WARPS 8              /* segments per select block, one warp each */
#define S6_LOCAL_MAX 1024           /* subtrees of at most this many points finish in one block */
#define S6_LOCAL_TPB 256
#define S6_LOAD_ITEMS 4

extern "C" const char knn_s6_gpu_build_param[] =
    "build: radix select 4x8 bits + partition per level while > 1024 points, then one block per subtree; "
    "query: s5";

/* a segment's radix-select state and partition counters */
struct s6_seg {
    uint32_t prefix, rem; /* the median key's digits found so far; its rank among the matches */
    uint32_t lt, le;      /* after pass 4: #{key < v}, #{key <= v} */
    uint32_t cnt[3];      /* partition tickets: lt, eq, gt classes */
    uint32_t pad;
};
static_assert(sizeof(s6_seg) == 32, "s6_seg is 32 bytes (the scratch formula)");

struct s6_plan {
    knn_lb lb;
    int lloc;    /* the first level finished in shared memory */
    size_t segs; /* segments of the deepest global level: 2^(lloc - 1), 0 when lloc = 0 */
    size_t meds; /* median slots 2^lloc (nodes 1 .. 2^lloc - 1) */
    size_t off_pts, off_ids, off_counts, off_state, off_mpts, off_mids, bytes;
};

static void s6_make_plan(size_t n, s6_plan *P) /* n >= 1 */
{
    size_t o;
    int l = 0;
    P->lb = knn_lb_shape(n);
    while (knn_lb_size(P->lb, (uint64_t)1 << l) > S6_LOCAL_MAX) l++; /* ends: size(2^D) = 1 */
    P->lloc = l;
    P->segs = l ? (size_t)1 << (l - 1) : 0;
    P->meds = (size_t)1 << l;
    o = knn_round256(knn_image_bytes(n));
    P->off_pts = o;
    o += knn_round256(n * sizeof(float4));
    P->off_ids = o;
    o += knn_round256(n * sizeof(uint32_t));
    P->off_counts = o;
    o += knn_round256(P->segs * S6_RADIX * sizeof(uint32_t));
    P->off_state = o;
    o += knn_round256(P->segs * sizeof(s6_seg));
    P->off_mpts = o;
    o += knn_round256(P->meds * sizeof(float4));
    P->off_mids = o;
    o += knn_round256(P->meds * sizeof(uint32_t));
    P->bytes = o;
}

/* ---------------------------------------------------------------- pieces shared with the host test */

/* which of a lane's 8 digit counts v (with excl matching keys before them) holds rank rem
 * (excl <= rem < excl + sum v): the digit's offset r in 0..7, *before = the matches before it */
static inline KIT_HD int s6_pick(const uint32_t (&v)[8], uint32_t excl, uint32_t rem, uint32_t *before)
{
    uint32_t run = excl;
    int r = 7;
    bool found = false;
    KNN_UNROLL
    for (int t = 0; t < 8; t++) {
        if (!found) {
            if (rem < run + v[t]) {
                r = t;
                found = true;
            } else {
                run += v[t];
            }
        }
    }
    *before = run;
    return r;
}

/* where a point of class c (0: key < v, 1: key == v, 2: key > v) with ticket pos goes in its segment */
static inline KIT_HD uint32_t s6_dest(int c, uint32_t pos, uint32_t lt, uint32_t le)
{
    return c == 0 ? pos : c == 1 ? lt + pos : le + pos;
}

/* the local level lvl's target of the point at position p of the block's range (in-order ranks
 * st0 + 0 .. st0 + N0 - 1): the node f at rank st0 + p; a median of a shallower level stays; else
 * the point belongs to the subtree of f's ancestor a at depth lvl, and goes to that range's start
 * + its rank in the (key, position) order of the range, so every range comes out sorted */
static inline KIT_HD uint32_t s6_local_target(knn_lb lb, uint64_t st0, uint32_t p, int lvl,
                                              const uint32_t *keys)
{
    const uint64_t f = knn_lb_inorder_node(lb, st0 + p);
    const int df = knn_log2(f);
    if (df < lvl) return p;
    const uint64_t a = f >> (df - lvl);
    const uint32_t as = (uint32_t)(knn_lb_start(lb, a) - st0), an = (uint32_t)knn_lb_size(lb, a);
    const uint32_t kp = keys[p];
    uint32_t r = 0;
    for (uint32_t q = as; q < as + an; q++) {
        const uint32_t kq = keys[q];
        r += (uint32_t)(kq < kp) | ((uint32_t)(kq == kp) & (uint32_t)(q < p));
    }
    return as + r;
}

/* ---------------------------------------------------------------- 0: load */

static __global__ void __launch_bounds__(S6_TPB)
    s6_load(const float *points, size_t n, int dim, float4 *pts, uint32_t *ids, knn_tree_hdr *hdr)
{
    __shared__ uint32_t s_box[S6_TPB / 32][8];
    uint32_t lo[4], hi[4];
#pragma unroll
    for (int a = 0; a < 4; a++) {
        lo[a] = 0xFFFFFFFFu;
        hi[a] = 0u;
    }
    const size_t base = (size_t)blockIdx.x * (S6_TPB * S6_LOAD_ITEMS);
#pragma unroll
    for (int r = 0; r < S6_LOAD_ITEMS; r++) {
        const size_t i = base + (size_t)r * S6_TPB + threadIdx.x;
        if (i < n) {
            float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
            for (int a = 0; a < 4; a++)
                if (a < dim) c[a] = points[i * (size_t)dim + a];
            pts[i] = make_float4(c[0], c[1], c[2], c[3]);
            ids[i] = (uint32_t)i;
#pragma unroll
            for (int a = 0; a < 4; a++) {
                const uint32_t k = knn_key(c[a]);
                lo[a] = min(lo[a], k);
                hi[a] = max(hi[a], k);
            }
        }
    }
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
#pragma unroll
    for (int a = 0; a < 4; a++) {
        lo[a] = warp_min_u32(lo[a]); /* every lane of every warp gets here: full warps */
        hi[a] = warp_max_u32(hi[a]);
    }
    if (lane == 0)
#pragma unroll
        for (int a = 0; a < 4; a++) {
            s_box[warp][a] = lo[a];
            s_box[warp][4 + a] = hi[a];
        }
    __syncthreads();
    if (threadIdx.x < 8) {
        const int v = (int)threadIdx.x, a = v & 3;
        if (a < dim) {
            uint32_t r = s_box[0][v];
            for (int w = 1; w < S6_TPB / 32; w++) r = v < 4 ? min(r, s_box[w][v]) : max(r, s_box[w][v]);
            if (v < 4)
                atomicMin(&hdr->lo[a], r);
            else
                atomicMax(&hdr->hi[a], r);
        }
    }
}

/* ---------------------------------------------------------------- 1a: radix select */

/* block = one tile of one segment of level `level`: histogram of digit `pass` of the keys that
 * match the segment's prefix */
static __global__ void __launch_bounds__(S6_TPB)
    s6_hist(const float4 *__restrict__ pts, knn_lb lb, int level, uint32_t tps, int axis, int pass,
            const s6_seg *__restrict__ state, uint32_t *counts)
{
    __shared__ uint32_t h[S6_RADIX];
    const uint32_t seg = blockIdx.x / tps, tile = blockIdx.x % tps;
    const uint64_t node = ((uint64_t)1 << level) + seg;
    const uint64_t st = knn_lb_start(lb, node);
    const uint32_t N = (uint32_t)knn_lb_size(lb, node), lo = tile * (uint32_t)S6_TILE;
    if (lo >= N) return; /* the whole block: a short segment has fewer tiles */
    const uint32_t hi = N - lo > (uint32_t)S6_TILE ? lo + (uint32_t)S6_TILE : N;
    const int shift = 24 - 8 * pass;
    const uint32_t prefix = pass ? state[seg].prefix : 0u;
    const uint32_t hmask = pass ? 0xFFFFFFFFu << (shift + 8) : 0u; /* the digits found so far */
    for (int d = threadIdx.x; d < S6_RADIX; d += S6_TPB) h[d] = 0u;
    __syncthreads();
    for (uint32_t e = lo + threadIdx.x; e < hi; e += S6_TPB) {
        const uint32_t key = knn_key(knn_comp4(pts[st + e], axis));
        if (((key ^ prefix) & hmask) == 0u) atomicAdd(&h[(key >> shift) & 255u], 1u);
    }
    __syncthreads();
    for (int d = threadIdx.x; d < S6_RADIX; d += S6_TPB)
        if (h[d]) atomicAdd(&counts[(size_t)seg * S6_RADIX + d], h[d]);
}

/* one warp per segment: the digit holding the median's rank; counts zeroed for the next pass */
static __global__ void __launch_bounds__(32 * S6_SEL_WARPS)
    s6_select(knn_lb lb, int level, int pass, s6_seg *state, uint32_t *counts)
{
    const unsigned lane = threadIdx.x & 31u;
    const size_t seg = (size_t)blockIdx.x * S6_SEL_WARPS + (threadIdx.x >> 5);
    if (seg >= ((size_t)1 << level)) return; /* whole warps; no block barrier follows */
    const uint64_t node = ((uint64_t)1 << level) + seg;
    const uint32_t L = (uint32_t)knn_lb_size(lb, 2 * node); /* the median's rank */
    const uint32_t rem = pass ? state[seg].rem : L;
    const uint32_t prefix = pass ? state[seg].prefix : 0u;
    uint32_t *c = counts + seg * S6_RADIX + lane * 8u;
    uint32_t v[8], sum = 0;
#pragma unroll
    for (int r = 0; r < 8; r++) {
        v[r] = c[r];
        sum += v[r];
    }
#pragma unroll
    for (int r = 0; r < 8; r++) c[r] = 0u;
    uint32_t incl = sum;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const uint32_t t = __shfl_up_sync(BALLOT_FULL, incl, o);
        if (lane >= (unsigned)o) incl += t;
    }
    const uint32_t excl = incl - sum;
    if (excl <= rem && rem < incl) { /* exactly one lane: rem < the matches' total */
        uint32_t before;
        const int r = s6_pick(v, excl, rem, &before);
        const int shift = 24 - 8 * pass;
        s6_seg *g = state + seg;
        g->prefix = prefix | (lane * 8u + (uint32_t)r) << shift;
        g->rem = rem - before;
        if (pass == 3) {
            g->lt = L - (rem - before); /* rem - before = the median's rank among the keys == v */
            g->le = g->lt + v[r];
            g->cnt[0] = g->cnt[1] = g->cnt[2] = 0u;
        }
    }
}

/* ---------------------------------------------------------------- 1b: partition */

static __global__ void __launch_bounds__(S6_TPB)
    s6_partition(const float4 *__restrict__ src, const uint32_t *__restrict__ src_id,
                 float4 *__restrict__ dst, uint32_t *__restrict__ dst_id, knn_lb lb, int level, uint32_t tps,
                 int axis, s6_seg *state, float4 *__restrict__ med_pts, uint32_t *__restrict__ med_ids)
{
    constexpr int NW = S6_TPB / 32;
    __shared__ uint32_t s_woff[NW][3];
    __shared__ uint32_t s_base[3];
    const uint32_t seg = blockIdx.x / tps, tile = blockIdx.x % tps;
    const uint64_t node = ((uint64_t)1 << level) + seg;
    const uint64_t st = knn_lb_start(lb, node);
    const uint32_t N = (uint32_t)knn_lb_size(lb, node), lo = tile * (uint32_t)S6_TILE;
    if (lo >= N) return; /* the whole block */
    const uint32_t L = (uint32_t)knn_lb_size(lb, 2 * node);
    const uint32_t v = state[seg].prefix, lt = state[seg].lt, le = state[seg].le;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const uint32_t below = ptx_lanemask_lt();
    float4 p[S6_ITEMS];
    uint32_t id[S6_ITEMS], rk[S6_ITEMS];
    int cls[S6_ITEMS];
    uint32_t run0 = 0, run1 = 0, run2 = 0; /* the warp's running class counts (same in every lane) */
#pragma unroll
    for (int r = 0; r < S6_ITEMS; r++) {
        const uint32_t e = lo + (uint32_t)r * S6_TPB + threadIdx.x; /* < 2^31 + 2^12: no wrap */
        cls[r] = 3;
        p[r] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        id[r] = 0u;
        if (e < N && e - lo < (uint32_t)S6_TILE) {
            p[r] = src[st + e];
            id[r] = src_id[st + e];
            const uint32_t key = knn_key(knn_comp4(p[r], axis));
            cls[r] = key < v ? 0 : key == v ? 1 : 2;
        }
        const uint32_t m0 = __ballot_sync(BALLOT_FULL, cls[r] == 0);
        const uint32_t m1 = __ballot_sync(BALLOT_FULL, cls[r] == 1);
        const uint32_t m2 = __ballot_sync(BALLOT_FULL, cls[r] == 2);
        rk[r] = cls[r] == 0   ? run0 + __popc(m0 & below)
                : cls[r] == 1 ? run1 + __popc(m1 & below)
                              : run2 + __popc(m2 & below);
        run0 += __popc(m0);
        run1 += __popc(m1);
        run2 += __popc(m2);
    }
    if (lane == 0) {
        s_woff[warp][0] = run0;
        s_woff[warp][1] = run1;
        s_woff[warp][2] = run2;
    }
    __syncthreads();
    if (threadIdx.x < 3) { /* one thread per class: warp offsets, then the block's tickets */
        const int c = (int)threadIdx.x;
        uint32_t tot = 0;
        for (int w = 0; w < NW; w++) {
            const uint32_t t = s_woff[w][c];
            s_woff[w][c] = tot;
            tot += t;
        }
        s_base[c] = tot ? atomicAdd(&state[seg].cnt[c], tot) : 0u;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < S6_ITEMS; r++) {
        if (cls[r] < 3) {
            const int c = cls[r];
            const uint32_t at = s6_dest(c, s_base[c] + s_woff[warp][c] + rk[r], lt, le);
            if (at < N) { /* always, when the select found the median (guards a broken state) */
                dst[st + at] = p[r];
                dst_id[st + at] = id[r];
                if (at == L) {
                    med_pts[node] = p[r];
                    med_ids[node] = id[r];
                }
            }
        }
    }
}

/* ---------------------------------------------------------------- 2: subtrees in shared memory */

static __global__ void __launch_bounds__(S6_LOCAL_TPB)
    s6_local(const float4 *__restrict__ src, const uint32_t *__restrict__ src_id, knn_lb lb, int level0,
             int dim, float4 *__restrict__ nodes, uint32_t *__restrict__ ids)
{
    __shared__ float4 s_pt[2][S6_LOCAL_MAX]; /* 32 KB */
    __shared__ uint32_t s_id[2][S6_LOCAL_MAX];
    __shared__ uint32_t s_key[S6_LOCAL_MAX]; /* 44 KB in all: no opt-in needed */
    const uint64_t node0 = ((uint64_t)1 << level0) + blockIdx.x;
    if (node0 > lb.n) return; /* the whole block: no such node on the last level */
    const uint64_t st0 = knn_lb_start(lb, node0);
    const uint32_t N0 = (uint32_t)knn_lb_size(lb, node0); /* <= S6_LOCAL_MAX by the plan */
    for (uint32_t p = threadIdx.x; p < N0; p += S6_LOCAL_TPB) {
        s_pt[0][p] = src[st0 + p];
        s_id[0][p] = src_id[st0 + p];
    }
    __syncthreads();
    int cur = 0;
    for (int lvl = level0; lvl < lb.D; lvl++) { /* level D: single nodes */
        const int axis = lvl % dim;
        for (uint32_t p = threadIdx.x; p < N0; p += S6_LOCAL_TPB)
            s_key[p] = knn_key(knn_comp4(s_pt[cur][p], axis));
        __syncthreads();
        for (uint32_t p = threadIdx.x; p < N0; p += S6_LOCAL_TPB) {
            const uint32_t to = s6_local_target(lb, st0, p, lvl, s_key);
            s_pt[cur ^ 1][to] = s_pt[cur][p];
            s_id[cur ^ 1][to] = s_id[cur][p];
        }
        __syncthreads(); /* also: s_key is read by all before the next level rewrites it */
        cur ^= 1;
    }
    for (uint32_t p = threadIdx.x; p < N0; p += S6_LOCAL_TPB) {
        const uint64_t f = knn_lb_inorder_node(lb, st0 + p);
        nodes[f] = s_pt[cur][p];
        ids[f] = s_id[cur][p];
    }
}

/* ---------------------------------------------------------------- 3: the global levels' medians */

static __global__ void s6_medians(const float4 *med_pts, const uint32_t *med_ids, uint32_t count,
                                  float4 *nodes, uint32_t *ids)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x + 1u;
    if (i <= count) {
        nodes[i] = med_pts[i];
        ids[i] = med_ids[i];
    }
}

/* ---------------------------------------------------------------- the step */

extern "C" size_t knn_s6_gpu_build_tree_bytes(size_t n, int dim)
{
    s6_plan P;
    (void)dim;
    if (n == 0 || n > KNN_MAX_N) return 0;
    s6_make_plan(n, &P);
    return P.bytes;
}

extern "C" cudaError_t knn_s6_gpu_build_build(const float *points, size_t n, int dim, void *tree, cudaStream_t s)
{
    s6_plan P;
    KIT_TRY(knn_tree_build_args(points, n, dim, tree));
    if (n == 0) return cudaSuccess;
    s6_make_plan(n, &P);
    /* every grid, before the first launch */
    const unsigned load_grid = kit_blocks_for(n, (size_t)S6_TPB * S6_LOAD_ITEMS);
    const unsigned local_grid = kit_blocks_for(P.meds, 1);
    if (!load_grid || !local_grid) return cudaErrorInvalidValue;
    for (int l = 0; l < P.lloc; l++) {
        const size_t segs = (size_t)1 << l;
        const size_t tps = (size_t)((knn_lb_size(P.lb, segs) + S6_TILE - 1) / S6_TILE);
        if (!kit_blocks_for(segs * tps, 1) || tps > 0xFFFFFFFFu) return cudaErrorInvalidValue;
    }
    char *base = (char *)tree;
    knn_tree_hdr *hdr = (knn_tree_hdr *)base;
    float4 *nodes = (float4 *)(base + KNN_HDR_BYTES);
    uint32_t *ids = (uint32_t *)(base + KNN_HDR_BYTES + (n + 1) * sizeof(float4));
    float4 *pa = (float4 *)(base + P.off_pts), *pb = nodes + 1;
    uint32_t *ia = (uint32_t *)(base + P.off_ids), *ib = ids + 1;
    uint32_t *counts = (uint32_t *)(base + P.off_counts);
    s6_seg *state = (s6_seg *)(base + P.off_state);
    float4 *mpts = (float4 *)(base + P.off_mpts);
    uint32_t *mids = (uint32_t *)(base + P.off_mids);
    KIT_TRY(cudaMemsetAsync(base, 0, KNN_HDR_BYTES, s));
    KIT_TRY(cudaMemsetAsync(base + offsetof(knn_tree_hdr, lo), 0xFF, (size_t)dim * sizeof(uint32_t), s));
    if (P.segs) KIT_TRY(cudaMemsetAsync(counts, 0, P.segs * S6_RADIX * sizeof(uint32_t), s));
    /* the data starts in B when the number of partitions is odd: it ends in A either way */
    float4 *cur = (P.lloc & 1) ? pb : pa, *oth = (P.lloc & 1) ? pa : pb;
    uint32_t *cid = (P.lloc & 1) ? ib : ia, *oid = (P.lloc & 1) ? ia : ib;
    s6_load<<<load_grid, S6_TPB, 0, s>>>(points, n, dim, cur, cid, hdr);
    KIT_TRY(cudaGetLastError());
    for (int l = 0; l < P.lloc; l++) {
        const size_t segs = (size_t)1 << l;
        const uint32_t tps = (uint32_t)((knn_lb_size(P.lb, segs) + S6_TILE - 1) / S6_TILE);
        const unsigned grid = (unsigned)(segs * tps);
        const unsigned sel_grid = (unsigned)((segs + S6_SEL_WARPS - 1) / S6_SEL_WARPS);
        const int axis = l % dim;
        for (int pass = 0; pass < 4; pass++) {
            s6_hist<<<grid, S6_TPB, 0, s>>>(cur, P.lb, l, tps, axis, pass, state, counts);
            KIT_TRY(cudaGetLastError());
            s6_select<<<sel_grid, 32 * S6_SEL_WARPS, 0, s>>>(P.lb, l, pass, state, counts);
            KIT_TRY(cudaGetLastError());
        }
        s6_partition<<<grid, S6_TPB, 0, s>>>(cur, cid, oth, oid, P.lb, l, tps, axis, state, mpts, mids);
        KIT_TRY(cudaGetLastError());
        float4 *tp = cur;
        cur = oth;
        oth = tp;
        uint32_t *ti = cid;
        cid = oid;
        oid = ti;
    }
    /* cur == pa here: the local kernel reads A and writes the node arrays (B's storage) */
    s6_local<<<local_grid, S6_LOCAL_TPB, 0, s>>>(cur, cid, P.lb, P.lloc, dim, nodes, ids);
    KIT_TRY(cudaGetLastError());
    if (P.lloc > 0) {
        const uint32_t count = (uint32_t)(P.meds - 1);
        s6_medians<<<(count + 255u) / 256u, 256, 0, s>>>(mpts, mids, count, nodes, ids);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

/* the query is s5's, on the same image */
extern "C" size_t knn_s6_gpu_build_scratch(size_t n, size_t m, int dim, int k) { return knn_s5_stackless_scratch(n, m, dim, k); }

extern "C" cudaError_t knn_s6_gpu_build_query(const void *tree, const float *points, size_t n, const float *queries,
                                    size_t m, int dim, int k, int all, uint32_t *idx, float *dist2,
                                    void *scratch, cudaStream_t s)
{
    return knn_s5_stackless_query(tree, points, n, queries, m, dim, k, all, idx, dist2, scratch, s);
}

extern "C" cudaError_t knn_s6_gpu_build_describe(kit_kernel_desc *d) { return knn_s5_stackless_describe(d); }
