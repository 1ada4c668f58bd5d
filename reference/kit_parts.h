/* kit_parts.h - host work over [0, n) cut into parts (kit_host_parallel in kit.h runs them):
 * where each part starts, and the offsets of a stable counting pass cut into parts (the kit's
 * threaded LSD sorts: kit_sort_u32, chapter 05's CPU reference).  Not in kit.h, which every
 * exercise includes: kit_part_start is a balanced split of blocks over rows (ex01_loadbalance's
 * job) and kit_part_offsets the exclusive scan of a count table (ex05_offsets', ex07_scatter's). */
#ifndef KIT_PARTS_H
#define KIT_PARTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where part k of [0, n) cut into `parts` near-equal consecutive parts begins (k = parts: n). */
size_t kit_part_start(size_t n, int k, int parts);
/* A stable counting pass cut into parts: counts[k * radix + d] is part k's count of digit d; on
 * return it is where part k's first key of digit d goes: an exclusive scan in (digit, part) order,
 * so that a digit's keys of part k land after those of the parts before it. */
void kit_part_offsets(size_t *counts, size_t radix, int parts);

#ifdef __cplusplus
}
#endif
#endif
