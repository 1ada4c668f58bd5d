/* s2_launch.cu - the launcher of s2_warp_scan (exercise ex02_block_scan), the kit's own host
 * code: the tile kernels are the student's, in $(IMPL)/02-reduce-scan/s2_warp_scan.cu, compiled
 * device-only (reference/kit_dev.h); this file includes no student file.  Scan-then-fan over
 * tiles of RS_S2_TBS x RS_S2_ITEMS elements (rs_classic.cuh; the fan kernel is the kit's). */
#include "rs_classic.cuh"

RS_DEV_FAN_STEP(s2, s2_warp_scan, RS_S2_TBS, RS_S2_TBS * RS_S2_ITEMS)
