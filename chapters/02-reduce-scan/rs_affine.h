/* rs_affine.h - chapter 02's non-commutative operator, the composition of affine maps, on
 * its own (host C and CUDA, KIT_HD): reduce_scan.h includes it for the affine scans, and
 * exercise ex02_sklansky (sklansky8.h) includes only this, not reduce_scan.h, whose CPU
 * reference rs_cpu_scan_affine would answer the exercise. */
#ifndef RS_AFFINE_H
#define RS_AFFINE_H

#include <stdint.h>

#include "kit.h"

#ifdef __cplusplus
#define RS_ALIGN8 alignas(8)
#else
#define RS_ALIGN8 _Alignas(8)
#endif

/* The affine map x -> a*x + b (mod 2^32). */
typedef struct rs_affine {
    RS_ALIGN8 uint32_t a;
    uint32_t b;
} rs_affine;

/* "f, then g": x -> g(f(x)) = (g.a*f.a)*x + (g.a*f.b + g.b).  Associative, with
 * identity (1, 0), and not commutative: a scan must keep the order of its inputs. */
static inline KIT_HD rs_affine rs_affine_then(rs_affine f, rs_affine g)
{
    rs_affine r;
    r.a = g.a * f.a;
    r.b = g.a * f.b + g.b;
    return r;
}

static inline KIT_HD rs_affine rs_affine_identity(void)
{
    rs_affine r;
    r.a = 1u;
    r.b = 0u;
    return r;
}

#endif
