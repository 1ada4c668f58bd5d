/* s4 - the paper's algorithm: three phases, ballot masks kept between them.
 * Changed versus s3: the list ranking is split in time.  A warp owns a group of 1024 elements (32
 * subgroups of 32).
 *   phase 1: for each subgroup, one ballot of the predicate; lane i keeps subgroup i's 32-bit mask,
 *            so after the 32 ballots the warp stores its 32 masks with one coalesced 128-byte store
 *            (the predicate array, n/32 words) and reduces the popcounts with __shfl_down_sync into
 *            the group's count (the counter array, n/1024 words);
 *   phase 2: an exclusive scan of the counter array (blocks/scan_u32.cuh; the paper calls
 *            thrust::inclusive_scan and reads counter[g - 1], the same numbers);
 *   phase 3: lane i reloads mask i of its group and popcounts it; a __shfl_up_sync scan gives each
 *            subgroup's offset inside the group; for each subgroup the mask and the offset are
 *            broadcast with __shfl_sync and every selected lane writes at
 *            group offset + subgroup offset + popc(mask & lanemask_lt).
 * Why it is faster: order is kept without any atomic, and the ranking costs a ballot and a popc per 32
 * elements; the predicate is evaluated once and the data (for index output) read once - phase 3
 * reads n/8 bytes of masks instead of the 4n of the input.
 * What still limits it: three launches with the mask and counter arrays written and read between
 * them; value output reads every selected element a second time in phase 3 (at p = 0.5 nearly
 * every sector of the input: about 8n bytes read instead of 4n); the output stores are 32-element
 * runs, not tiles.  (Phase 1 keeps its 32 loads in flight: a full group evaluates its 32
 * predicates before its 32 ballots.)
 * Knob: threads per block (the paper's Fig. 10: 128 best on a K40), compact_tpb_variants.
 * Corrections to the paper's listing: it returned from phase 3 per thread before the shuffles
 * (undefined with partial warps) and ignored the last n % 32 elements; here whole warps leave
 * together (the group index is the same for the 32 lanes) and the last group is guarded. */
#include "blocks/scan_u32.cuh"
#include "compact_device.cuh"

#define S4_TBS 128
#define S4_GROUP 1024 /* elements per warp: 32 subgroups of 32 */
extern "C" const char compact_s4_param[] = "tbs=128 group=1024 (32 ballots/warp) scan=blk_scan_u32";

static inline size_t s4_groups(size_t n) { return (n + S4_GROUP - 1) / S4_GROUP; }

/* phase 1: masks[g * 32 + i] = ballot of subgroup i of group g; counts[g] = its popcounts' sum */
template <int TBS, int MODE>
static __global__ void __launch_bounds__(TBS)
    s4_phase1(const uint32_t *__restrict__ in, const uint8_t *__restrict__ flags, unsigned lim, unsigned any,
              size_t n, size_t groups, uint32_t *__restrict__ masks, uint32_t *__restrict__ counts)
{
    const unsigned lane = threadIdx.x & 31u;
    const size_t g = (size_t)blockIdx.x * (TBS / 32) + (threadIdx.x >> 5);
    if (g >= groups) return; /* the whole warp: g does not depend on the lane */
    const size_t base = g * S4_GROUP;
    unsigned mine = 0; /* lane i: the mask of subgroup i */
    if (base + S4_GROUP <= n) {
        /* the 32 predicates first (no warp-synchronous instruction between the loads, so all 32
         * are in flight together), then the 32 ballots */
        unsigned p = 0;
#pragma unroll
        for (unsigned it = 0; it < 32; it++)
            p |= (unsigned)cm_selected<MODE>(in, flags, base + it * 32 + lane, lim, any) << it;
#pragma unroll
        for (unsigned it = 0; it < 32; it++) {
            const unsigned mask = __ballot_sync(BALLOT_FULL, (p >> it) & 1u);
            if (lane == it) mine = mask;
        }
    } else { /* the last group: elements past n vote false */
#pragma unroll 4
        for (unsigned it = 0; it < 32; it++) {
            const size_t i = base + it * 32 + lane;
            const bool p = i < n && cm_selected<MODE>(in, flags, i, lim, any);
            const unsigned mask = __ballot_sync(BALLOT_FULL, p);
            if (lane == it) mine = mask;
        }
    }
    masks[g * 32 + lane] = mine; /* one coalesced 128-byte store per group */
    unsigned cnt = __popc(mine);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) cnt += __shfl_down_sync(BALLOT_FULL, cnt, off);
    if (lane == 0) counts[g] = cnt;
}

/* phase 3: offs = the exclusive scan of counts; the last group writes *count */
template <int TBS, int MODE>
static __global__ void __launch_bounds__(TBS)
    s4_phase3(const uint32_t *__restrict__ in, const uint32_t *__restrict__ masks,
              const uint32_t *__restrict__ offs, size_t groups, uint32_t *__restrict__ out,
              uint32_t *__restrict__ count)
{
    const unsigned lane = threadIdx.x & 31u;
    const size_t g = (size_t)blockIdx.x * (TBS / 32) + (threadIdx.x >> 5);
    if (g >= groups) return;
    const unsigned mask = masks[g * 32 + lane];
    const unsigned c = __popc(mask);
    const unsigned incl = warp_scan_shfl_incl(c); /* __shfl_up_sync, Kogge-Stone */
    const unsigned excl = incl - c;               /* selected in the subgroups below mine */
    const uint32_t gofs = offs[g];
    const size_t base = g * S4_GROUP;
    const unsigned lt = ptx_lanemask_lt();
#pragma unroll 4
    for (int i = 0; i < 32; i++) {
        const unsigned m = __shfl_sync(BALLOT_FULL, mask, i);
        const unsigned sub = __shfl_sync(BALLOT_FULL, excl, i);
        if ((m >> lane) & 1u) { /* bits past n are 0: no element past the end is touched */
            const size_t e = base + (size_t)i * 32 + lane;
            out[(size_t)gofs + sub + __popc(m & lt)] = cm_output<MODE>(in, e);
        }
    }
    if (g == groups - 1 && lane == 31) *count = gofs + incl; /* incl of lane 31: the group's count */
}

/* ------------------------------------------------------------------ host */

/* the predicate array (32 words per group), the counter array, the counter scan's scratch */
extern "C" size_t compact_s4_three_phase_scratch(size_t n)
{
    const size_t g = s4_groups(n);
    if (!n) return 0;
    return cm_round256(g * 32 * 4) + cm_round256(g * 4) + blk_scan_u32_scratch(g);
}

/* Phase ph (0: masks + counts, 1: scan of the counts, 2: offsets + write) or all three (ph < 0). */
template <int TBS, int MODE>
static cudaError_t s4_launch(int ph, const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                             uint32_t *count, size_t n, void *scratch, cudaStream_t s)
{
    const size_t groups = s4_groups(n);
    const unsigned grid = kit_blocks_for(groups, TBS / 32);
    cm_carve c = {(char *)scratch, 0};
    uint32_t *masks = (uint32_t *)cm_take(&c, groups * 32 * 4);
    uint32_t *counts = (uint32_t *)cm_take(&c, groups * 4);
    void *scan_scratch = cm_take(&c, blk_scan_u32_scratch(groups));
    unsigned lim, any;
    if (!grid) return cudaErrorInvalidValue;
    cm_if_limit(threshold, &lim, &any);
    if (ph < 0 || ph == 0) {
        s4_phase1<TBS, MODE><<<grid, TBS, 0, s>>>(in, flags, lim, any, n, groups, masks, counts);
        KIT_TRY(cudaGetLastError());
    }
    if (ph < 0 || ph == 1) KIT_TRY(blk_scan_u32_excl(counts, counts, groups, scan_scratch, s)); /* in place */
    if (ph < 0 || ph == 2) {
        s4_phase3<TBS, MODE><<<grid, TBS, 0, s>>>(in, masks, counts, groups, out, count);
        KIT_TRY(cudaGetLastError());
    }
    return cudaSuccess;
}

template <int TBS>
static cudaError_t s4_run(const uint32_t *in, const uint8_t *flags, uint64_t threshold, uint32_t *out,
                          uint32_t *count, size_t n, int mode, void *scratch, cudaStream_t s)
{
    int work;
    KIT_TRY(compact_begin(in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    return compact_dispatch(mode, [&](auto m) {
        return s4_launch<TBS, decltype(m)::value>(-1, in, flags, threshold, out, count, n, scratch, s);
    });
}

extern "C" cudaError_t compact_s4_three_phase(const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                              uint32_t *out, uint32_t *count, size_t n, int mode,
                                              void *scratch, cudaStream_t s)
{
    return s4_run<S4_TBS>(in, flags, threshold, out, count, n, mode, scratch, s);
}

/* the three kernels one at a time (compact.h: the phase breakdown) */
extern "C" cudaError_t compact_s4_phase(int phase, const uint32_t *in, const uint8_t *flags, uint64_t threshold,
                                        uint32_t *out, uint32_t *count, size_t n, int mode, void *scratch,
                                        cudaStream_t s)
{
    int work;
    KIT_TRY(compact_phase_begin(phase, in, flags, out, count, n, mode, scratch, s, &work));
    if (!work) return cudaSuccess;
    return compact_dispatch(mode, [&](auto m) {
        return s4_launch<S4_TBS, decltype(m)::value>(phase, in, flags, threshold, out, count, n, scratch, s);
    });
}

/* the main kernel: phase 1 reads the data */
template <int TBS>
static cudaError_t s4_describe_t(kit_kernel_desc *d)
{
    d->func = (const void *)s4_phase1<TBS, COMPACT_IF | COMPACT_VALUE>;
    d->block_threads = TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

extern "C" cudaError_t compact_s4_describe(kit_kernel_desc *d) { return s4_describe_t<S4_TBS>(d); }

/* ---- tuning table: threads per block (the paper's Fig. 10) */
#define S4_FILE "chapters/07-compaction/s4_three_phase.cu"
#define S4_ROW(T)                                                                                      \
    {{"s4_three_phase", "tbs=" #T " group=1024 (32 ballots/warp) scan=blk_scan_u32",                 \
      "masks + counts, scan, shuffle offsets + write", S4_FILE, NULL, KIT_STEP_GPU, s4_describe_t<T>, \
      0, COMPACT_MAX_N},                                                                             \
     compact_s4_three_phase_scratch, s4_run<T>}

extern "C" const compact_step compact_tpb_variants[COMPACT_TPB_NVARIANTS] = {
    S4_ROW(32), S4_ROW(64), S4_ROW(128), S4_ROW(256), S4_ROW(512), S4_ROW(1024),
};
