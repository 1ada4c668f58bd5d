#!/usr/bin/env bash
# tests/grading/speed.sh CLASS REPO - the speed class: students whose ex01_loadbalance is right
# and whose runner either tells the truth about its speed or cheats the judge's timed batch
# (docs/grading.md, "Speed").  Every cheat is a real submission: its loadbalance.h replaces the
# runner's half of the speed test (a macro over kit_speed_test) with its own, which speaks the
# wire protocol itself on fd 3.  tests/grading/run.sh grades the class and checks that each cheat
# scores 0 on the speed test and exactly what the solution scores on everything else.
# Two more are graded on the GPU exercise's speed where a GPU is: fast (the solution) and gpuslow.
set -euo pipefail
class=${1:?usage: speed.sh CLASS REPO}
repo=${2:?usage: speed.sh CLASS REPO}
S=$repo/solutions/01-copy
mk() { rm -rf "${class:?}/$1"; mkdir -p "$class/$1/01-copy"; cp "$S/loadbalance.h" "$class/$1/01-copy/"; }

# fast: the solution (every speed point)
mk fast
# slow: right, and slower by a busy loop in every call (it scores what its ratio earns)
mk slow
sed -i 's|    const uint64_t base = nblocks / nrows;|    for (volatile int slow = 0; slow < 24; slow++) { }\n&|' "$class/slow/01-copy/loadbalance.h"
# the GPU exercise too: fast has the solution's kernel, gpuslow a right kernel whose every thread
# first spins for 20000 clock cycles, about 10 us (a sleep of a microsecond cost nothing measurable:
# the other resident blocks kept memory busy); it scores what its ratio earns; graded on a GPU only
cp "$S/s1_block_dask.cu" "$class/fast/01-copy/"
rm -rf "${class:?}/gpuslow"
mkdir -p "$class/gpuslow/01-copy"
cp "$S/s1_block_dask.cu" "$class/gpuslow/01-copy/"
sed -i 's|^    const size_t block_base = (size_t)blockIdx.x \* S1_DBS;|    for (const long long t0 = clock64(); clock64() - t0 < 20000;) { }\n&|' "$class/gpuslow/01-copy/s1_block_dask.cu"
grep -q 'clock64() - t0 < 20000' "$class/gpuslow/01-copy/s1_block_dask.cu" || { echo "speed.sh: the gpuslow edit no longer applies" >&2; exit 1; }

# the cheats: the solution's function, and a runner half of the speed test of their own
cheat() { # NAME MODE
  mk "$1"
  cat >>"$class/$1/01-copy/loadbalance.h" <<EOF
#define RT_MODE_$2 1
EOF
  cat >>"$class/$1/01-copy/loadbalance.h" <<'EOF'
#if defined(KIT_SIDE) && KIT_SIDE == 2 && !defined(__CUDACC__)
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* the kit's speed spec and wire, as the public sources show them */
struct rt_spec {
    const char *exercise, *reference, *unit;
    int where;
    size_t in_bytes, out_bytes, items, floor_bytes;
    void (*fill)(void *, uint64_t);
    int (*run)(const void *, void *, void *);
    int (*check)(const void *, const void *, char *, size_t);
};
struct rt_hdr { uint32_t magic, seq; uint64_t bytes; };
struct rt_cmd { uint32_t op, k; uint64_t key; };
static uint32_t rt_seq;
static void rt_raw(int out, void *p, size_t n)
{
    unsigned char *b = (unsigned char *)p;
    while (n > 0) {
        ssize_t r = out ? write(3, b, n) : read(3, b, n);
        if (r <= 0) _exit(4);
        b += r;
        n -= (size_t)r;
    }
}
static void rt_send(void *p, size_t n)
{
    struct rt_hdr h = {0x5854494Bu, rt_seq++, n};
    rt_raw(1, &h, sizeof h);
    rt_raw(1, p, n);
}
static void rt_recv(void *p, size_t n)
{
    struct rt_hdr h;
    rt_raw(0, &h, sizeof h);
    rt_seq++;
    rt_raw(0, p, n);
}
static uint64_t rt_mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint64_t rt_commit(const unsigned char *o, size_t bytes, uint64_t key)
{
    const uint64_t *w = (const uint64_t *)o;
    uint64_t h = 0;
    for (size_t i = 0; i < bytes / 8; i++) h += rt_mix(w[i] + rt_mix(key ^ i));
    return h;
}
static void rt_unmask(unsigned char *in, size_t bytes, uint64_t key, uint64_t k)
{
    uint64_t *w = (uint64_t *)in;
    for (size_t i = 0; i < bytes / 8; i++) w[i] ^= rt_mix(key ^ (k << 40) ^ i);
}
struct kit_speed_spec;
static void rt_speed_cheat(const struct kit_speed_spec *spec)
{
    const struct rt_spec *S = (const struct rt_spec *)(const void *)spec;
    unsigned char *in = NULL, *out = NULL, *old = NULL;
    uint64_t *c8 = NULL;
    size_t K = 0, k, batches = 0;
    struct rt_cmd c;
    for (;;) {
        rt_recv(&c, sizeof c);
        if (c.op == 4) return;
        if (c.k != K) {
            K = c.k;
            in = (unsigned char *)realloc(in, K * S->in_bytes + 8);
            out = (unsigned char *)realloc(out, K * S->out_bytes + 8);
            old = (unsigned char *)realloc(old, K * S->out_bytes + 8);
            c8 = (uint64_t *)realloc(c8, (K + 1) * 8);
            memset(c8, 0, (K + 1) * 8);
            batches = 0;
        }
        if (c.op == 3) { rt_send(c8, K * 8); continue; }
        if (c.op == 1) {
            uint32_t ack = (uint32_t)K;
            for (k = 0; k < K; k++) rt_recv(in + k * S->in_bytes, S->in_bytes);
#ifdef RT_MODE_staging
            /* works while the clock is stopped: on the masked inputs, as they came */
            for (k = 0; k < K; k++) S->run(in + k * S->in_bytes, out + k * S->out_bytes, NULL);
#endif
            rt_send(&ack, sizeof ack);
#ifdef RT_MODE_forge
            /* the reply to the GO to come, sent ahead so that it waits in the socket */
            memset(c8, 0, K * 8);
            rt_send(c8, K * 8);
#endif
            continue;
        }
        /* GO */
#if defined(RT_MODE_early) || defined(RT_MODE_lazy)
        memset(c8, 0, K * 8);
        rt_send(c8, K * 8); /* the clock stops here, before any work */
        for (k = 0; k < K; k++) {
            rt_unmask(in + k * S->in_bytes, S->in_bytes, c.key, k);
            S->run(in + k * S->in_bytes, out + k * S->out_bytes, NULL);
#ifdef RT_MODE_lazy
            rt_send(out + k * S->out_bytes, S->out_bytes); /* each output made as it is fetched */
#endif
        }
#ifdef RT_MODE_early
        for (k = 0; k < K; k++) rt_send(out + k * S->out_bytes, S->out_bytes);
#endif
        continue;
#endif
#if defined(RT_MODE_copyone)
        rt_unmask(in, S->in_bytes, c.key, 0);
        S->run(in, out, NULL);
        for (k = 1; k < K; k++) memcpy(out + k * S->out_bytes, out, S->out_bytes);
#elif defined(RT_MODE_previous)
        /* the first batch of this size for real, then its outputs again under each new key */
        if (batches++ == 0) {
            for (k = 0; k < K; k++) {
                rt_unmask(in + k * S->in_bytes, S->in_bytes, c.key, k);
                S->run(in + k * S->in_bytes, old + k * S->out_bytes, NULL);
            }
        }
        memcpy(out, old, K * S->out_bytes);
#elif !defined(RT_MODE_staging)
        for (k = 0; k < K; k++) {
            rt_unmask(in + k * S->in_bytes, S->in_bytes, c.key, k);
            S->run(in + k * S->in_bytes, out + k * S->out_bytes, NULL);
        }
#endif
        for (k = 0; k < K; k++) c8[k] = rt_commit(out + k * S->out_bytes, S->out_bytes, c.key);
        rt_send(c8, K * 8);
        for (k = 0; k < K; k++) rt_send(out + k * S->out_bytes, S->out_bytes);
    }
}
#define kit_speed_test rt_speed_cheat
#endif
EOF
}
cheat early early        # replies before the work is done
cheat lazy lazy          # computes each output only when it is fetched
cheat staging staging    # works during staging
cheat previous previous  # returns a previous batch's outputs
cheat copyone copyone    # computes one input and copies it
cheat forge forge        # a reply frame forged ahead of the judge's go
