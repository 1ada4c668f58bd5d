/* yardsticks.h - what a user would reach for instead of writing a kernel,
 * timed through the same harness as the ladder steps.  The chapter-01 entry is
 * declared here; chapters with CUB/Thrust yardsticks declare them in their own
 * header and define them in reference/yardsticks_NN.cu (one file per chapter:
 * CUB is slow to compile; the Makefile links yardsticks_NN into chapter NN's
 * library, not into libkit, so CH=NN builds only its own). */
#ifndef KIT_YARDSTICKS_H
#define KIT_YARDSTICKS_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cudaMemcpyAsync device-to-device of n 32-bit words (no scratch). */
cudaError_t yard_memcpy_u32(const uint32_t *in, uint32_t *out, size_t n, void *scratch,
                            cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
