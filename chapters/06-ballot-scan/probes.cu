/* probes.cu - one small kernel per warp or block primitive of the chapter, run over an
 * input array so the tests can compare every primitive with the CPU.
 *
 * Element i goes to linear thread i of the grid.  Threads past n still take part (warp
 * and block primitives need every lane and thread), with a 0 predicate, 0 value and no
 * head, and write nothing: the last warp or block of an odd n is a partial one.  A probe
 * writes one word per element (what the primitive returned to that thread; block scans
 * fold the block total in so it is checked too).  Warp probes run in 128-thread blocks and,
 * for the lane masks, in 24 x 4 blocks too (warps then span rows of x: only masks taken
 * from the linear thread index are right).  Block probes run at 128, 256, 512 and 1024. */
/* The probes of exercise ex06_lanemask are in probes_lanemask.cu and probes_lanemask_dev.cu,
 * which do not include blocks/ballot_warp.cuh (its lane masks and binary scans are that
 * exercise's answers); those of ex06_segscan in probes_segscan.cu and probes_segscan_dev.cu: the
 * GPU exercises' headers are device code only (reference/kit_dev.h), so this file includes
 * neither.  The CPU exercise's header (ex06_bitplane, host code by nature) comes first, seeing
 * only its own includes. */
#include "ballot_bitplane.h"

#include "blocks/ballot_block.cuh"
#include "probes.cuh"
#include "redux_gate.cuh"

/* what the kernel calls */
enum {
    PK_WSCAN_SMEM, PK_WSCAN_SHFL, PK_WCOUNT,
    PK_PTX_FWD_EXCL, PK_PTX_FWD_INCL, PK_PTX_REV_INCL, PK_PTX_REV_EXCL,
    PK_SEG, PK_BITPLANE, PK_BITPLANE_EX,
    PK_BSCAN32_SMEM, PK_BSCAN32_SHFL, PK_BBIN_SMEM, PK_BBIN_SHFL, PK_BBIN_BP,
    PK_BCOUNT, PK_BSUM_SMEM, PK_BSUM_SHFL, PK_BSUM_REDUX, PK_SPLIT
};

/* BX: 0 for 1D blocks of TBS threads, else blocks of BX x (TBS / BX) */
template <int PK, int TBS, int BX, int BITS>
__global__ void __launch_bounds__(TBS) probe_kernel(probe_args a)
{
    const unsigned t = BX ? threadIdx.x + threadIdx.y * BX : threadIdx.x;
    const size_t i = (size_t)blockIdx.x * TBS + t;
    const bool valid = i < a.n;
    const bool p = valid && a.flags[i] != 0;
    const uint32_t v = valid ? a.vals[i] : 0u;
    unsigned r = 0, tot = 0;
    if constexpr (PK == PK_WSCAN_SMEM) {
        __shared__ unsigned buf[TBS / 32 * WARP_SCAN_SMEM_WORDS];
        r = warp_scan_smem_incl(v, buf + (t >> 5) * WARP_SCAN_SMEM_WORDS);
    } else if constexpr (PK == PK_WSCAN_SHFL) {
        r = warp_scan_shfl_incl(v);
    } else if constexpr (PK == PK_WCOUNT) {
        r = warp_bin_count(p);
    } else if constexpr (PK == PK_PTX_FWD_EXCL) {
        r = warp_bin_fwd_excl(p);
    } else if constexpr (PK == PK_PTX_FWD_INCL) {
        r = warp_bin_fwd_incl(p);
    } else if constexpr (PK == PK_PTX_REV_INCL) {
        r = warp_bin_rev_incl(p);
    } else if constexpr (PK == PK_PTX_REV_EXCL) {
        r = warp_bin_rev_excl(p);
    } else if constexpr (PK == PK_BITPLANE) {
        r = warp_bitplane_excl<BITS>(BITS < 32 ? v & ((1u << (BITS & 31)) - 1u) : v, nullptr);
    } else if constexpr (PK == PK_BITPLANE_EX) { /* the exercise's decomposition, fed by ballots */
        uint32_t planes[BITS];
#pragma unroll
        for (int k = 0; k < BITS; k++) planes[k] = __ballot_sync(BALLOT_FULL, (v >> k) & 1u);
        r = bitplane_prefix(planes, BITS, ptx_laneid(), 0);
    } else if constexpr (PK == PK_BSCAN32_SMEM || PK == PK_BSCAN32_SHFL) {
        r = block_scan32_excl<TBS, PK == PK_BSCAN32_SMEM ? WS_SMEM : WS_SHFL>(v, &tot);
        r += tot * BALLOT_TOTAL_MUL;
    } else if constexpr (PK == PK_BBIN_SMEM || PK == PK_BBIN_SHFL || PK == PK_BBIN_BP) {
        r = block_bin_scan_excl<TBS, PK == PK_BBIN_SMEM ? BT_SMEM
                                     : PK == PK_BBIN_SHFL ? BT_SHFL : BT_BITPLANE>(p, &tot);
        r |= tot << 16;
    } else if constexpr (PK == PK_BCOUNT) {
        r = __syncthreads_count(p);
    } else if constexpr (PK == PK_BSUM_SMEM) {
        r = block_reduce32_smem<TBS>(v);
    } else if constexpr (PK == PK_BSUM_SHFL || PK == PK_BSUM_REDUX) {
        r = block_reduce32_warp<TBS, PK == PK_BSUM_SHFL ? WR_SHFL : WR_REDUX>(v);
    } else if constexpr (PK == PK_SPLIT) {
        /* elements past n split as 1s: they land after every real element */
        __shared__ uint32_t s_v[TBS];
        s_v[block_split_rank<TBS, SC_BALLOT>(valid ? p : true)] = v;
        __syncthreads();
        r = s_v[t];
    }
    if (valid) a.out[i] = r;
}

template <int PK, int TBS, int BX, int BITS>
static cudaError_t run_probe(const ballot_probe_in *in, uint32_t *out, size_t n, cudaStream_t s)
{
    if constexpr (PK == PK_BSUM_REDUX) KIT_TRY(redux_gate(probe_kernel<PK, TBS, BX, BITS>));
    return probe_launch<TBS, BX>(probe_kernel<PK, TBS, BX, BITS>, in, out, n, s);
}

template <int PK, int TBS, int BX, int BITS>
static cudaError_t describe_probe(kit_kernel_desc *d)
{
    return probe_describe<TBS>(probe_kernel<PK, TBS, BX, BITS>, d);
}

#define F(x) "chapters/06-ballot-scan/" x
#define EXF(x) "$(IMPL)/06-ballot-scan/" x
#define PROBE(NAME, PARAM, WHAT, FILE, EX, PK, TBS, BX, BITS, OP, GROUP)                        \
    {{NAME, PARAM, WHAT, FILE, EX, KIT_STEP_GPU, describe_probe<PK, TBS, BX, BITS>, 0,          \
      PROBE_MAX_N(TBS)},                                                                        \
     run_probe<PK, TBS, BX, BITS>, OP, GROUP, BITS}

/* warp primitives, 128-thread blocks (and 24 x 4 for the lane masks) */
#define WARP(NAME, WHAT, PK, OP)                                                                 \
    PROBE(NAME, "tbs=128", WHAT, "reference/blocks/ballot_warp.cuh", NULL, PK, 128, 0, 0, OP, 32)
#define PTX2D(NAME, PK, OP)                                                                      \
    PROBE(NAME, "tbs=96 (24x4)", "lane masks from %lanemask_*, 2D block", "reference/blocks/ballot_warp.cuh",  \
          NULL, PK, 96, 24, 0, OP, 32)
/* the exercise's lane masks: their kernels are in probes_lanemask.cu (probes.cuh) */
#define LM(NAME, OP)                                                                             \
    {{#NAME, "tbs=128", "lane masks computed from the lane index", EXF("ballot_lanemask.cuh"),    \
      "ex06_lanemask", KIT_STEP_GPU, ballot_probe_##NAME##_describe, 0, PROBE_MAX_N(128)},        \
     ballot_probe_##NAME, OP, 32, 0},                                                            \
    {{#NAME, "tbs=96 (24x4)", "lane masks computed from the lane index, 2D block",               \
      EXF("ballot_lanemask.cuh"), "ex06_lanemask", KIT_STEP_GPU, ballot_probe_##NAME##_2d_describe, 0, \
      PROBE_MAX_N(96)},                                                                          \
     ballot_probe_##NAME##_2d, OP, 32, 0}
#define BITP(B)                                                                                  \
    PROBE("warp_bitplane", "bits=" #B " tbs=128", "one ballot per bit plane",                    \
          "reference/blocks/ballot_warp.cuh", NULL, PK_BITPLANE, 128, 0, B, BALLOT_OP_BITS_EXCL, 32)
#define BITPEX(B)                                                                                \
    PROBE("bitplane_prefix", "bits=" #B " tbs=128", "the exercise's decomposition on ballots",   \
          EXF("ballot_bitplane.h"), "ex06_bitplane", PK_BITPLANE_EX, 128, 0, B,                  \
          BALLOT_OP_BITS_EXCL, 32)

/* block primitives at one block size */
#define BLK(NAME, WHAT, PK, OP, T)                                                               \
    PROBE(NAME, "tbs=" #T, WHAT, "reference/blocks/ballot_block.cuh", NULL, PK, T, 0, 0, OP, T)
#define BLOCK(T)                                                                                 \
    BLK("block_scan32", "32-bit scan, smem warp scans", PK_BSCAN32_SMEM, BALLOT_OP_BSCAN32, T),   \
    BLK("block_scan32_shfl", "32-bit scan, shuffle warp scans", PK_BSCAN32_SHFL,                 \
        BALLOT_OP_BSCAN32, T),                                                                   \
    BLK("block_bin_scan", "ballot warps, totals by smem warp scan (Listing 3.6)", PK_BBIN_SMEM,  \
        BALLOT_OP_BSCAN_BIN, T),                                                                 \
    BLK("block_bin_scan_shfl", "ballot warps, totals by shuffle warp scan", PK_BBIN_SHFL,        \
        BALLOT_OP_BSCAN_BIN, T),                                                                 \
    BLK("block_bin_scan_bp", "ballot warps, totals by 6 bit planes", PK_BBIN_BP,                 \
        BALLOT_OP_BSCAN_BIN, T),                                                                 \
    BLK("syncthreads_count", "binary block reduce", PK_BCOUNT, BALLOT_OP_BCOUNT, T),             \
    BLK("block_reduce32", "shared-memory tree", PK_BSUM_SMEM, BALLOT_OP_BSUM32, T),              \
    BLK("block_reduce32_shfl", "shuffle warp reductions", PK_BSUM_SHFL, BALLOT_OP_BSUM32, T),     \
    BLK("block_reduce32_redux", "__reduce_add_sync warp reductions", PK_BSUM_REDUX,              \
        BALLOT_OP_BSUM32, T),                                                                    \
    BLK("block_split", "stable split by a flag, 0s first", PK_SPLIT, BALLOT_OP_SPLIT, T)

extern "C" const ballot_probe ballot_probes[] = {
    WARP("warp_scan_smem", "32-bit inclusive, padded smem + __syncwarp", PK_WSCAN_SMEM,
         BALLOT_OP_SCAN32_INCL),
    WARP("warp_scan_shfl", "32-bit inclusive, shuffles", PK_WSCAN_SHFL, BALLOT_OP_SCAN32_INCL),
    WARP("warp_bin_count", "popc(ballot)", PK_WCOUNT, BALLOT_OP_BCOUNT),
    WARP("warp_bin_fwd_excl", "%lanemask_lt", PK_PTX_FWD_EXCL, BALLOT_OP_FWD_EXCL),
    WARP("warp_bin_fwd_incl", "%lanemask_le", PK_PTX_FWD_INCL, BALLOT_OP_FWD_INCL),
    WARP("warp_bin_rev_incl", "%lanemask_ge", PK_PTX_REV_INCL, BALLOT_OP_REV_INCL),
    WARP("warp_bin_rev_excl", "%lanemask_gt", PK_PTX_REV_EXCL, BALLOT_OP_REV_EXCL),
    PTX2D("warp_bin_fwd_excl", PK_PTX_FWD_EXCL, BALLOT_OP_FWD_EXCL),
    PTX2D("warp_bin_fwd_incl", PK_PTX_FWD_INCL, BALLOT_OP_FWD_INCL),
    PTX2D("warp_bin_rev_incl", PK_PTX_REV_INCL, BALLOT_OP_REV_INCL),
    PTX2D("warp_bin_rev_excl", PK_PTX_REV_EXCL, BALLOT_OP_REV_EXCL),
    LM(lm_fwd_excl, BALLOT_OP_FWD_EXCL),
    LM(lm_fwd_incl, BALLOT_OP_FWD_INCL),
    LM(lm_rev_incl, BALLOT_OP_REV_INCL),
    LM(lm_rev_excl, BALLOT_OP_REV_EXCL),
    {{"seg_incl", "tbs=128", "binary segmented scan: two ballots and __clz", EXF("ballot_segscan.cuh"),
      "ex06_segscan", KIT_STEP_GPU, ballot_probe_seg_incl_describe, 0, PROBE_MAX_N(128)},
     ballot_probe_seg_incl, BALLOT_OP_SEG_INCL, 32, 0},
    {{"seg_incl", "tbs=96 (24x4)", "binary segmented scan, 2D block", EXF("ballot_segscan.cuh"),
      "ex06_segscan", KIT_STEP_GPU, ballot_probe_seg_incl_2d_describe, 0, PROBE_MAX_N(96)},
     ballot_probe_seg_incl_2d, BALLOT_OP_SEG_INCL, 32, 0},
    BITP(1), BITP(3), BITP(4), BITP(8), BITP(32),
    BITPEX(1), BITPEX(5), BITPEX(8), BITPEX(32),
    BLOCK(128), BLOCK(256), BLOCK(512), BLOCK(1024),
};

static_assert(sizeof ballot_probes / sizeof ballot_probes[0] == BALLOT_PROBE_NVARIANTS,
              "BALLOT_PROBE_NVARIANTS");
