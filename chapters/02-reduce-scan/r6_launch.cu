/* r6_launch.cu - the launcher of r6_warp_shuffle (exercise ex02_warp_reduce), the kit's own host
 * code: the kernels are the student's, in $(IMPL)/02-reduce-scan/r6_warp_shuffle.cu, compiled
 * device-only (reference/kit_dev.h); this file includes no student file.  Reduce in passes on a
 * resident grid, at least RS_R6_MIN_PER_THREAD inputs per thread (rs_classic.cuh). */
#include "rs_classic.cuh"

RS_DEV_GRID_STEP(r6, r6_warp_shuffle, RS_R6_TBS, RS_R6_MIN_PER_THREAD)
