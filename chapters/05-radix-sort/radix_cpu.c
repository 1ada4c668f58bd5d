/* radix_cpu.c - chapter 05's CPU baselines: LSD counting sort (Brown's Fig. 9.1-9.2 with
 * its errors fixed) and qsort as a C programmer would call it.
 *
 * The document's serial sort, corrected: the shift of pass p is digit_bits * p (not
 * digit_bits * (p - 1)), the buffers alternate from the caller's input (no pass reads a
 * buffer nothing has written), and the counts and the starting offsets are both passed
 * to the distribute step.  Keys are 32-bit (u32, i32, f32) or 64-bit (u64); the digits
 * are cut from the order-preserving image (radix.h), the keys themselves are moved. */
#include <stdlib.h>
#include <string.h>

#include "kit_parts.h"
#include "radix.h"

static uint64_t image_at(const void *keys, size_t i, int type)
{
    if (type == RADIX_U64) return ((const uint64_t *)keys)[i];
    return radix_image32(((const uint32_t *)keys)[i], type);
}

static void put_key(void *dst, size_t j, const void *src, size_t i, int type)
{
    if (type == RADIX_U64) ((uint64_t *)dst)[j] = ((const uint64_t *)src)[i];
    else ((uint32_t *)dst)[j] = ((const uint32_t *)src)[i];
}

/* One stable counting-sort pass on bits [shift, shift + bits), the keys cut into `parts`
 * consecutive chunks: each chunk counts its digits; one exclusive scan in (digit, chunk) order
 * turns the counts into starting offsets; each chunk distributes its keys from its offsets.  A
 * chunk's keys of one digit land after those of the earlier chunks, in input order: stable for
 * any number of parts.  One part is the document's serial pass. */
typedef struct lsd_pass_arg {
    const void *src_k;
    void *dst_k;
    const uint32_t *src_v;
    uint32_t *dst_v;
    size_t n;
    int type, shift;
    uint64_t mask;
    size_t (*count)[256]; /* per part: the digit counts, then the digits' next free slots */
} lsd_pass_arg;

static void lsd_count(void *arg, int k, int parts)
{
    const lsd_pass_arg *a = (const lsd_pass_arg *)arg;
    size_t *count = a->count[k], i;
    const size_t hi = kit_part_start(a->n, k + 1, parts);
    for (i = kit_part_start(a->n, k, parts); i < hi; i++) count[(image_at(a->src_k, i, a->type) >> a->shift) & a->mask]++;
}

static void lsd_distribute(void *arg, int k, int parts)
{
    const lsd_pass_arg *a = (const lsd_pass_arg *)arg;
    size_t *start = a->count[k], i;
    const size_t hi = kit_part_start(a->n, k + 1, parts);
    for (i = kit_part_start(a->n, k, parts); i < hi; i++) {
        const size_t j = start[(image_at(a->src_k, i, a->type) >> a->shift) & a->mask]++;
        put_key(a->dst_k, j, a->src_k, i, a->type);
        if (a->src_v) a->dst_v[j] = a->src_v[i];
    }
}

static void lsd_pass(const void *src_k, void *dst_k, const uint32_t *src_v, uint32_t *dst_v, size_t n,
                     int type, int shift, int bits, size_t (*count)[256], int parts)
{
    lsd_pass_arg a;
    a.src_k = src_k;
    a.dst_k = dst_k;
    a.src_v = src_v;
    a.dst_v = dst_v;
    a.n = n;
    a.type = type;
    a.shift = shift;
    a.mask = ((uint64_t)1 << bits) - 1;
    a.count = count;
    memset(count, 0, (size_t)parts * sizeof *count);
    kit_host_parallel(lsd_count, &a, parts);
    /* where each digit's keys of each part begin (rows of 256; digits past 1 << bits count 0) */
    kit_part_offsets(&count[0][0], 256, parts);
    kit_host_parallel(lsd_distribute, &a, parts);
}

void radix_cpu_lsd_mt(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                      size_t n, int type, int begin_bit, int end_bit, int digit_bits, void *tmp_keys,
                      uint32_t *tmp_vals, int threads)
{
    const int passes = end_bit > begin_bit ? (end_bit - begin_bit + digit_bits - 1) / digit_bits : 0;
    const size_t kb = (size_t)radix_key_bytes(type);
    size_t count[KIT_HOST_MAX_THREADS][256];
    int p;
    if (threads < 1) threads = 1;
    if (threads > KIT_HOST_MAX_THREADS) threads = KIT_HOST_MAX_THREADS;
    if (passes == 0) {
        if (n) memcpy(keys_out, keys_in, n * kb);
        if (vals_in && n) memcpy(vals_out, vals_in, n * 4);
        return;
    }
    for (p = 0; p < passes; p++) {
        /* the last pass writes the output; counted back from it, the buffers alternate */
        const int to_out = (passes - 1 - p) % 2 == 0;
        const void *sk = p == 0 ? keys_in : (to_out ? tmp_keys : keys_out);
        const uint32_t *sv = !vals_in ? NULL : p == 0 ? vals_in : (to_out ? tmp_vals : vals_out);
        void *dk = to_out ? keys_out : tmp_keys;
        uint32_t *dv = !vals_in ? NULL : to_out ? vals_out : tmp_vals;
        const int shift = begin_bit + p * digit_bits;
        const int bits = end_bit - shift < digit_bits ? end_bit - shift : digit_bits;
        lsd_pass(sk, dk, sv, dv, n, type, shift, bits, count, threads);
    }
}

void radix_cpu_lsd(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                   size_t n, int type, int begin_bit, int end_bit, int digit_bits, void *tmp_keys,
                   uint32_t *tmp_vals)
{
    radix_cpu_lsd_mt(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, digit_bits, tmp_keys,
                     tmp_vals, 1);
}

/* ------------------------------------------------------------------ qsort */

typedef struct qrec {
    uint64_t key;   /* the bits [begin, end) of the image: the sort key */
    uint64_t index; /* input position: equal keys keep their order (qsort is not stable) */
} qrec;

static int qrec_cmp(const void *a, const void *b)
{
    const qrec *x = (const qrec *)a, *y = (const qrec *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

int radix_cpu_qsort(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                    size_t n, int type, int begin_bit, int end_bit)
{
    const int width = end_bit - begin_bit;
    const uint64_t mask = width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
    qrec *r;
    size_t i;
    if (n == 0) return 0;
    if (!(r = (qrec *)malloc(n * sizeof *r))) return -1;
    for (i = 0; i < n; i++) {
        r[i].key = width > 0 ? (image_at(keys_in, i, type) >> begin_bit) & mask : 0;
        r[i].index = i;
    }
    qsort(r, n, sizeof *r, qrec_cmp);
    for (i = 0; i < n; i++) {
        put_key(keys_out, i, keys_in, (size_t)r[i].index, type);
        if (vals_in) vals_out[i] = vals_in[r[i].index];
    }
    free(r);
    return 0;
}
