/* s6 - fewer passes where the keys allow it: a pass whose digit every key shares is not made.
 * Changed versus s5: between the histogram kernel (which s5 already runs once for every pass's
 * digit counts) and the first pass, one block reads each pass's row: when one digit holds all n
 * keys, a stable sort by that digit moves no key, so the pass is an identity and is skipped.  The
 * passes that remain alternate between the alternate buffer and the output so that the last of
 * them writes the output; when none remains the keys (and values) are copied.  All of it is decided
 * on the GPU (os_route_kernel writes each pass's route: run or not, source, destination, epoch):
 * the host launches every pass kernel as before and never waits for the histogram; the blocks of a
 * skipped pass read their route and leave.  The descriptors' epoch follows the passes that run
 * (their parity among them), not the pass number, so a pass after a skipped one never takes the
 * descriptors of the one before for published ones.  The tiles are s5's.
 * Why it is faster: bytes.  A skipped pass saves its read and write of every key (and value): 8 of
 * the 36 bytes a 32-bit key costs s5 (histogram 4 + 4 passes x 8), 16 of the 68 a pair costs.  Keys
 * in a narrow range (range-256: one pass of four; range-64k: two), keys with constant bytes between
 * varying ones (gaps: two of four), 64-bit keys whose high half is zero, and identical keys (no
 * pass: a copy, 12 bytes a key) pay for the digits they have, not for the key's width.
 * What still limits it: keys with no constant digit (uniform, sorted, low-entropy, normal floats)
 * make all of s5's passes, and pay a little more: the route kernel and every pass block's read of
 * its route (README: s6, the inputs it helps).  A skipped pass still launches its grid, whose
 * blocks read the route and leave; the copy of identical keys costs a pass.  Steps s7 to s10 make
 * the pass itself cheaper, for 4-byte keys sorted alone. */
#include "skip_digits.cuh"

typedef skip_keys_tile<20, 0, RK_MATCH_BALLOT, false, false> s6_cfg;
typedef skip_keys_tile<10, 0, RK_MATCH_BALLOT, false, false> s6_cfg_small;
typedef skip_step<s6_cfg, s6_cfg_small> s6_step;

extern "C" const char radix_s6_param[] = "s5's tiles + constant digits skipped on the GPU";

extern "C" size_t radix_s6_skip_digits_scratch(size_t n, int type, int pairs)
{
    return s6_step::scratch(n, type, pairs);
}

extern "C" cudaError_t radix_s6_skip_digits(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                            uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                            void *scratch, cudaStream_t s)
{
    return s6_step::run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
}

extern "C" cudaError_t radix_s6_describe(kit_kernel_desc *d)
{
    return s6_step::describe(d);
}
