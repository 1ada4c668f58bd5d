/* r7 - Brown's Run-Reduce on the Row DASk (GPU_Reduce + GPU_SumRows).
 * Changed versus r6: the sum keeps its order.  R = SMs x resident blocks rows
 * (thread blocks) each walk a contiguous run of data blocks of nWork x TBS
 * elements; inside a data block, coalesced loads are transposed through shared
 * memory into runs of nWork consecutive elements per thread, reduced in
 * registers (S1), then nWarps run-sums per lane of warp 0 (S2), then one warp
 * (S3): the block total, added to the row's sum.  One block then reduces the
 * R row sums (rs_brown.cuh).  nWarps (TLP) and nWork (ILP) are template knobs;
 * runs of a power-of-two length are padded against bank conflicts (pad & rake).
 * Why it matters: it is correct for any associative operator (the scan needs
 * exactly this as its first pass), with the range checks confined to the last
 * data block.  It is not faster than r6 for +: it pays a shared-memory
 * transpose and two barriers per data block for an order that + does not need.
 * What still limits it: 4-byte loads, nWork x TBS elements per barrier pair,
 * and (the document's own finding) the single-warp stages S2-S3, which mute
 * the benefit of more warps.  The experiments `pairs`, `bank` and `curves`
 * sweep this kernel (Tables 6.13-6.16, Fig. 6.5). */
#include "rs_brown.cuh"

/* the ladder step: the document's best reduce pair on the GTX Titan (Table 6.15) */
#define R7_NWARPS 3
#define R7_NWORK 8
#define R7_BC rs::BC_PAD

namespace {

template <class Op>
cudaError_t r7_main(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                    cudaStream_t s)
{
    return rs::brown_reduce<Op, R7_NWARPS, R7_NWORK, R7_BC>(in, out, n, scratch, s);
}

size_t r7_scratch(size_t n) { return rs::brown_scratch(n); }

} // namespace

RS_REDUCE_ENTRY_POINTS(r7, r7_main, r7_scratch,
                       (rs::brown_reduce_rows<rs::AddU32, R7_NWARPS, R7_NWORK, R7_BC>),
                       32 * R7_NWARPS, 0)

/* ---- tuning tables (uint32): one entry = one (nWarps, nWork, strategy) instantiation */
#define R7V(W, K, BC, LABEL, WHAT)                                                              \
    {{"r7_row_dask", LABEL "nWarps=" #W " nWork=" #K, "Row DASk reduce: " WHAT,                \
      "chapters/02-reduce-scan/r7_row_dask.cu", NULL, KIT_STEP_GPU,                            \
      rs::describe<rs::brown_reduce_rows<rs::AddU32, W, K, BC>, 32 * W>},                      \
     r7_scratch, rs::brown_reduce<rs::AddU32, W, K, BC>, NULL},

extern "C" const rs_reduce_step rs_brown_reduce_pairs[] = {RS_PAIR_VARIANTS(R7V)};
extern "C" const rs_reduce_step rs_brown_reduce_bank[] = {RS_BANK_VARIANTS(R7V)};
extern "C" const rs_reduce_step rs_brown_reduce_curves[] = {RS_CURVE_VARIANTS(R7V, R7_NWARPS, R7_NWORK)};
