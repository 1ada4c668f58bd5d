/* s3 - Brown's Reduce-then-Scan on the Row DASk (GPU_Reduce, GPU_SumsToStarts,
 * GPU_Scan).
 * Changed versus s2: no recursion and no fan.  R = SMs x resident blocks rows
 * each own a contiguous run of data blocks.  Pass 1 (r7's GPU_Reduce) reduces
 * every row, in order, to a row sum; one block exclusive-scans the R row sums
 * into row starts; pass 2 rescans every row from its row start, data block by
 * data block: coalesced loads, a shared-memory transpose into runs of nWork
 * elements per thread, a Sklansky scan of each run in registers (S1), nWarps
 * run sums per lane of warp 0 (S2), a warp scan (S3), the prefixes written back
 * (S4), each run updated with row start (+) its prefix (S5), and back through
 * shared memory to coalesced stores (rs_brown.cuh).  Both passes must split
 * the rows identically: same kernel layout, same data block size, same rows.
 * Why it is faster: 3n memory traffic (read, read, write) instead of 4n plus
 * recursion; the second level is one block over R values.
 * What still limits it: the data is still read twice, so it can reach at most
 * 2/3 of what a copy achieves; 4-byte accesses; two barriers per data block
 * and single-warp stages S2-S4 (the document's finding: ILP helps more than
 * TLP here).  s4 reads the data once.  The experiments `pairs`, `bank` and
 * `curves` sweep this kernel (Tables 6.13-6.16, Fig. 6.5). */
#include "rs_brown.cuh"

/* the ladder step: the document's best scan pair on the GTX Titan (Table 6.15) */
#define S3_NWARPS 5
#define S3_NWORK 4
#define S3_BC rs::BC_PAD

namespace {

template <class Op, bool EXCL>
cudaError_t s3_main(const typename Op::T *in, typename Op::T *out, size_t n, void *scratch,
                    cudaStream_t s)
{
    return rs::brown_scan<Op, S3_NWARPS, S3_NWORK, S3_BC, EXCL>(in, out, n, scratch, s);
}

size_t s3_scratch(size_t n) { return rs::brown_scratch(n); }

/* tuning tables: uint32, exclusive only (half the kernels to compile) */
template <int W, int K, int BC>
cudaError_t s3_variant(const uint32_t *in, uint32_t *out, size_t n, int exclusive, void *scratch,
                       cudaStream_t s)
{
    if (!exclusive) return cudaErrorNotSupported;
    return rs::brown_scan<rs::AddU32, W, K, BC, true>(in, out, n, scratch, s);
}

} // namespace

RS_SCAN_ENTRY_POINTS(s3, s3_main, s3_scratch,
                     (rs::brown_scan_rows<rs::AddU32, S3_NWARPS, S3_NWORK, S3_BC, true>),
                     32 * S3_NWARPS, 0)

#define S3V(W, K, BC, LABEL, WHAT)                                                              \
    {{"s3_row_dask", LABEL "nWarps=" #W " nWork=" #K, "Row DASk scan: " WHAT,                  \
      "chapters/02-reduce-scan/s3_row_dask.cu", NULL, KIT_STEP_GPU,                            \
      rs::describe<rs::brown_scan_rows<rs::AddU32, W, K, BC, true>, 32 * W>},                  \
     s3_scratch, s3_variant<W, K, BC>, NULL},

extern "C" const rs_scan_step rs_brown_scan_pairs[] = {RS_PAIR_VARIANTS(S3V)};
extern "C" const rs_scan_step rs_brown_scan_bank[] = {RS_BANK_VARIANTS(S3V)};
extern "C" const rs_scan_step rs_brown_scan_curves[] = {RS_CURVE_VARIANTS(S3V, S3_NWARPS, S3_NWORK)};
