/* radix_problem.h - how chapter 05's problems lay out their buffers and axes (host C, for
 * steps.c, radix_inputs.c and the tests). */
#ifndef RADIX_PROBLEM_H
#define RADIX_PROBLEM_H

#include "radix.h"

/* buffers, in declaration order */
enum { RADIX_BUF_KEYS = 0, RADIX_BUF_VALS = 1, RADIX_BUF_KEYS_OUT = 2, RADIX_BUF_VALS_OUT = 3 };

/* the problem's own data: key width and where its axes are (-1: no such axis) */
typedef struct radix_problem_arg {
    int key_bytes;
    int type_axis, pairs_axis, begin_axis, end_axis;
    int fixed_type; /* the key type when there is no type axis */
} radix_problem_arg;

static inline int radix_shape_type(const kit_problem *P, const kit_shape *sh)
{
    const radix_problem_arg *a = (const radix_problem_arg *)P->arg;
    return a->type_axis >= 0 ? (int)sh->v[a->type_axis] : a->fixed_type;
}
static inline int radix_shape_pairs(const kit_problem *P, const kit_shape *sh)
{
    const radix_problem_arg *a = (const radix_problem_arg *)P->arg;
    return sh->v[a->pairs_axis] != 0;
}
static inline int radix_shape_begin(const kit_problem *P, const kit_shape *sh)
{
    return (int)sh->v[((const radix_problem_arg *)P->arg)->begin_axis];
}
static inline int radix_shape_end(const kit_problem *P, const kit_shape *sh)
{
    return (int)sh->v[((const radix_problem_arg *)P->arg)->end_axis];
}

void radix_fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                uint64_t seed);

/* the 64-bit ladder's steps (the ones that take u64 keys, and the yardsticks) */
#define RADIX_NSTEPS64 8
extern const radix_step radix_steps64[RADIX_NSTEPS64];
extern const kit_ladder radix_ladder, radix_ladder64, radix_srts_ladder, radix_rowdask_ladder,
    radix_onesweep_ladder, radix_onesweep64_ladder, radix_small_ladder, radix_small64_ladder,
    radix_network_ladder, radix_network64_ladder, radix_cluster_ladder, radix_cluster64_ladder;

#endif
