/* sklansky8.h - Sklansky's network for eight values in registers (exercise
 * ex02_sklansky, graded on the CPU).  The same functions compile for the host
 * (the tests) and for a kernel (KIT_HD): Brown's SerialScan/SerialReduce stage
 * S1 runs this network on each thread's run (rs::serial_scan in rs_ops.cuh is
 * the templated version the kernels use).
 *
 * The operator is the composition of affine maps, rs_affine_then(f, g) = "f,
 * then g" (rs_affine.h): associative, identity rs_affine_identity(), and NOT
 * commutative, so every composition must keep the earlier map on the left.
 *
 * A serial loop needs 7 dependent steps for 8 values.  Sklansky's network needs
 * 3 stages of independent compositions (span 1, 2, 4):
 *   stage 1: v1 = v0.v1   v3 = v2.v3   v5 = v4.v5   v7 = v6.v7
 *   stage 2: v2 = v1.v2   v3 = v1.v3   v6 = v5.v6   v7 = v5.v7
 *   stage 3: v4 = v3.v4   v5 = v3.v5   v6 = v3.v6   v7 = v3.v7
 * ("a.b" is rs_affine_then(a, b)).  Inside a stage nothing depends on anything
 * else, so the GPU can issue the compositions back to back. */
#ifndef SKLANSKY8_H
#define SKLANSKY8_H

#include "rs_affine.h"

/* Inclusive scan in place: v[i] becomes v[0].v[1]. ... .v[i]. */
static inline KIT_HD void sklansky_scan8(rs_affine v[8])
{
    // BEGIN SOLUTION
    // TODO: three stages, as in the comment at the top of this file; in the stage of span d,
    // TODO: every v[i] whose index has bit d set becomes rs_affine_then(v[j], v[i]), where j is
    // TODO: the last index of the lower half of i's block of 2d (j = (i & ~(2d - 1)) + d - 1).
    // TODO: Keep the earlier map on the left: rs_affine_then(earlier, later).
    // STUB: (void)v;
    int d, i;
    for (d = 1; d < 8; d *= 2)
        for (i = 0; i < 8; i++)
            if (i & d) v[i] = rs_affine_then(v[(i & ~(2 * d - 1)) + d - 1], v[i]);
    // END SOLUTION
}

/* The total v[0].v[1]. ... .v[7] with the reduce half of the network: a tree of
 * adjacent pairs, (v0.v1).(v2.v3) and (v4.v5).(v6.v7), then those two. */
static inline KIT_HD rs_affine sklansky_reduce8(const rs_affine v[8])
{
    // BEGIN SOLUTION
    // TODO: 7 compositions in 3 stages: 4 pairs of neighbours, then 2 pairs of pairs, then one.
    // STUB: (void)v; return rs_affine_identity();
    const rs_affine a = rs_affine_then(v[0], v[1]), b = rs_affine_then(v[2], v[3]);
    const rs_affine c = rs_affine_then(v[4], v[5]), d = rs_affine_then(v[6], v[7]);
    return rs_affine_then(rs_affine_then(a, b), rs_affine_then(c, d));
    // END SOLUTION
}

#endif
