/* compact_problem.h - how chapter 07's problems lay out their buffers and axes (host C, for
 * steps.c, bench.c and the tests). */
#ifndef COMPACT_PROBLEM_H
#define COMPACT_PROBLEM_H

#include "compact.h"

/* buffers, in declaration order (the same in every problem; unique's flags hold 0 elements,
 * and so do select's and partition's when the predicate is COMPACT_IF) */
enum { COMPACT_BUF_IN = 0, COMPACT_BUF_FLAGS = 1, COMPACT_BUF_OUT = 2, COMPACT_BUF_COUNT = 3 };

typedef enum compact_task { COMPACT_TASK_SELECT = 0, COMPACT_TASK_PARTITION = 1, COMPACT_TASK_UNIQUE = 2 } compact_task;

/* the problem's own data: what it computes and where its axes are (-1: no such axis) */
typedef struct compact_problem_arg {
    int task;
    int pred_axis; /* 0: COMPACT_IF, 1: COMPACT_FLAGGED */
    int out_axis;  /* 0: COMPACT_INDEX, 1: COMPACT_VALUE */
} compact_problem_arg;

static inline int compact_problem_task(const kit_problem *P)
{
    return ((const compact_problem_arg *)P->arg)->task;
}

/* the mode a step runs in at shape sh */
static inline int compact_shape_mode(const kit_problem *P, const kit_shape *sh)
{
    const compact_problem_arg *a = (const compact_problem_arg *)P->arg;
    const int flagged = a->pred_axis >= 0 && sh->v[a->pred_axis] != 0;
    const int value = a->out_axis >= 0 && sh->v[a->out_axis] != 0;
    return (flagged ? COMPACT_FLAGGED : COMPACT_IF) | (value ? COMPACT_VALUE : COMPACT_INDEX);
}

/* the shape with the given mode (the axes the problem has) */
static inline kit_shape compact_shape(const kit_problem *P, size_t n, int mode)
{
    const compact_problem_arg *a = (const compact_problem_arg *)P->arg;
    kit_shape sh = kit_shape_default(P, n);
    if (a->pred_axis >= 0) sh.v[a->pred_axis] = (mode & COMPACT_PRED_MASK) == COMPACT_FLAGGED;
    if (a->out_axis >= 0) sh.v[a->out_axis] = (mode & COMPACT_OUT_MASK) == COMPACT_VALUE;
    return sh;
}

/* The comparison every problem uses: the count exactly; then out[0..n) byte for byte for
 * order-keeping steps (the reference leaves out[c..n) poisoned where a select or unique
 * writes nothing, so a step that writes there fails too); for KIT_UNORDERED steps
 * out[0..c) as a multiset (both sides sorted) and out[c..n) still poisoned. */
int compact_compare(const kit_problem *P, const kit_host *want, const kit_host *got, const kit_shape *sh,
                    unsigned step_flags, char *msg, size_t len);

extern const kit_ladder compact_select_ladder, compact_partition_ladder, compact_unique_ladder,
    compact_phases_ladder;
/* the tuning tables' ladders */
extern const kit_ladder compact_tpb_ladder, compact_sp_ladder, compact_pp_ladder;

#endif
