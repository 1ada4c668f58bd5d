/* kit_speed.c - both halves of a speed test (kit_speed.h, docs/grading.md "Speed").
 *
 * Compiled three ways like the graded tests: KIT_SIDE 0 (make test) skips, KIT_SIDE 1 is the
 * judge's half (time, fetch, check, score), KIT_SIDE 2 the runner's (stage, run, commit).  The
 * judge talks to two runners through kit_side.c's channel: 0 the student's, 1 the trusted one
 * (kit_runner_select). */
#define _GNU_SOURCE
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kit_speed.h"
#include "kit_test.h"

void kit_speed_xor(uint64_t *w, size_t n, uint64_t key, uint64_t k)
{
    size_t i;
    for (i = 0; i < n; i++) w[i] ^= kit_speed_mask(key, k, i);
}

uint64_t kit_speed_commit(const uint64_t *w, size_t n, uint64_t key)
{
    uint64_t h = 0;
    size_t i;
    for (i = 0; i < n; i++) h += kit_speed_term(key, i, w[i]);
    return h;
}

/* one command of the judge's, the same size whatever it asks */
typedef enum speed_op { SPEED_STAGE = 1, SPEED_GO, SPEED_PING, SPEED_END } speed_op;
typedef struct speed_cmd {
    uint32_t op, k; /* speed_op; the batch's number of inputs */
    uint64_t key;   /* GO: the keystream's and the commitments' key */
} speed_cmd;

#if KIT_SIDE == 0

void kit_speed_test(const kit_speed_spec *S)
{
    cr_skip_test("speed is timed only by the grader's judge (make grade SUBMISSION=dir): %s", S->exercise);
}

#elif KIT_SIDE == 1
/* ------------------------------------------------------------------ judge */

void kit_runner_select(int which);
int kit_runner_fd(void);

/* How a speed test measures (named knobs; docs/grading.md says why these values) */
typedef struct speed_policy {
    int rounds;            /* A B rounds, order alternating; doubled once while noise > favour_cap */
    int pings;             /* round trips timed on the trusted runner; the least is subtracted */
    double batch_s;        /* a batch's reference time at least ... */
    double batch_rtts;     /* ... and this many round trips */
    size_t batch_bytes;    /* at most this many bytes of inputs and outputs per batch (CPU) ... */
    size_t batch_bytes_gpu; /* ... (GPU: a device moves a CPU's batch in well under a round trip's noise) */
    double favour_cap;     /* the largest noise credited to the student */
    double give_up;        /* a student batch this many times the reference's is cut (ratio below 1/give_up) */
    double floor_slack;    /* the floor's bandwidth: the measured copy bandwidth times this */
} speed_policy;

static const speed_policy speed_default = {
    .rounds = 7, .pings = 32, .batch_s = 0.04, .batch_rtts = 200, .batch_bytes = 256u << 20, .batch_bytes_gpu = 1u << 30,
    .favour_cap = 0.05, .give_up = 20, .floor_slack = 4,
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct speed_run {
    const kit_speed_spec *S;
    size_t K;
    unsigned char *plain; /* the round's K inputs, as generated */
    unsigned char *wire;  /* one masked input */
    unsigned char *outs;  /* K outputs, as fetched */
    uint64_t *commits;
    uint64_t keys;        /* the generator of GO keys */
    double rtt;
} speed_run;

static void send_cmd(speed_op op, size_t k, uint64_t key)
{
    speed_cmd c = {(uint32_t)op, (uint32_t)k, key};
    KIT_TO_RUNNER(&c, sizeof c);
}

/* the least of P round trips of a GO-sized command and a reply of K commitments */
static double ping(speed_run *r, int P)
{
    double best = 1e30;
    int p;
    for (p = 0; p < P; p++) {
        const double t0 = now_s();
        send_cmd(SPEED_PING, r->K, 0);
        KIT_FROM_RUNNER(r->commits, r->K * sizeof *r->commits);
        if (now_s() - t0 < best) best = now_s() - t0;
    }
    return best;
}

/* Stage the round's inputs on runner `which` masked with a fresh key, time GO to the reply,
 * then fetch and check.  Returns the time less the round trip; on a cut batch (slower than
 * limit seconds) returns a negative number and the runner is gone. */
static double batch(speed_run *r, int which, double limit)
{
    const kit_speed_spec *S = r->S;
    const uint64_t key = kit_rand64(&r->keys);
    const char *who = which ? "the reference" : "the student's code";
    struct pollfd pf;
    uint32_t ack = 0;
    double t0, t1;
    size_t k;
    char why[KIT_MSG];
    kit_runner_select(which);
    send_cmd(SPEED_STAGE, r->K, 0);
    for (k = 0; k < r->K; k++) {
        memcpy(r->wire, r->plain + k * S->in_bytes, S->in_bytes);
        kit_speed_xor((uint64_t *)r->wire, S->in_bytes / 8, key, k);
        KIT_TO_RUNNER(r->wire, S->in_bytes);
    }
    KIT_FROM_RUNNER(&ack, sizeof ack);
    cr_assert(ack == (uint32_t)r->K, "%s staged %u of %zu inputs", who, ack, r->K);
    pf.fd = kit_runner_fd();
    pf.events = POLLIN;
    cr_assert(poll(&pf, 1, 0) == 0, "%s sent a reply before the judge said go (a forged or replayed frame)", who);
    t0 = now_s();
    send_cmd(SPEED_GO, r->K, key);
    if (poll(&pf, 1, limit < 3600 ? (int)(limit * 1000) + 1 : -1) == 0) return -1; /* so slow it scores nothing */
    KIT_FROM_RUNNER(r->commits, r->K * sizeof *r->commits);
    t1 = now_s();
    for (k = 0; k < r->K; k++) KIT_FROM_RUNNER(r->outs + k * S->out_bytes, S->out_bytes);
    for (k = 0; k < r->K; k++) {
        const unsigned char *out = r->outs + k * S->out_bytes;
        cr_assert(kit_speed_commit((const uint64_t *)out, S->out_bytes / 8, key) == r->commits[k],
                  "%s: output %zu of the batch is not the one it committed to when it stopped the clock "
                  "(it replied before the work was done, or changed the output afterwards)", who, k);
        why[0] = 0;
        cr_assert(S->check(r->plain + k * S->in_bytes, out, why, sizeof why) == 0,
                  "%s: output %zu of the timed batch is wrong: %s", who, k, why);
    }
    return t1 - t0 - r->rtt > 0 ? t1 - t0 - r->rtt : 1e-9;
}

static void fill_round(speed_run *r, uint64_t seed)
{
    size_t k;
    for (k = 0; k < r->K; k++) r->S->fill(r->plain + k * r->S->in_bytes, kit_speed_mix(seed + k));
}

/* the copy bandwidth (bytes read and written per second) over a buffer of `bytes`, best of 3 */
static double cpu_bandwidth(size_t bytes)
{
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    double best = 0;
    int p;
    cr_assert(a && b, "out of host memory");
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    for (p = 0; p < 3; p++) {
        const double t0 = now_s();
        memcpy(b, a, bytes);
        const double bw = 2.0 * (double)bytes / (now_s() - t0);
        if (bw > best) best = bw;
        a[p] = b[bytes - 1 - p];
    }
    free(a);
    free(b);
    return best;
}

static void device_name(const kit_speed_spec *S, char *name, size_t len)
{
    const kit_device *d = NULL;
    FILE *f;
    char line[512];
    snprintf(name, len, "this CPU");
    if (S->where == KIT_SPEED_GPU) {
        if (kit_device_get(&d) == cudaSuccess && d) snprintf(name, len, "%s", d->name);
        return;
    }
    if (!(f = fopen("/proc/cpuinfo", "r"))) return;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            char *v = strchr(line, ':') + 1;
            while (*v == ' ') v++;
            v[strcspn(v, "\n")] = 0;
            snprintf(name, len, "%s", v);
            break;
        }
    fclose(f);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void kit_speed_test(const kit_speed_spec *S)
{
    const speed_policy *P = &speed_default;
    const char *trusted = getenv("KIT_TRUSTED_DIR"), *log = getenv("KIT_SPEED");
    speed_run r = {.S = S};
    double ratio[64], t_ref = 0, t_stu = 0, bw, floor_s, med, q1, q3, noise, favour;
    double ts[64], tr[64], last_ref;
    int n = 0, R, i, cut = 0;
    char dev[256], why[KIT_MSG] = "";
    size_t kmax;
    FILE *f;
    if (!trusted || !*trusted) cr_skip_test("no trusted runner (KIT_TRUSTED_DIR): speed is timed only by the grader");
    if (S->where == KIT_SPEED_GPU) KIT_REQUIRE_GPU();
    r.keys = KIT_SEED(0x5EEDu) ^ kit_speed_mix((uint64_t)getpid() ^ (uint64_t)(now_s() * 1e9));
    /* the round trip on the trusted runner (the student's cannot stretch it to shrink its time),
     * then a pilot batch of one input to size the batches */
    r.K = 1;
    r.commits = malloc(sizeof *r.commits);
    r.plain = malloc(S->in_bytes);
    r.wire = malloc(S->in_bytes);
    r.outs = malloc(S->out_bytes);
    cr_assert(r.commits && r.plain && r.wire && r.outs, "out of host memory");
    kit_runner_select(1);
    r.rtt = ping(&r, P->pings);
    fill_round(&r, KIT_SEED(1));
    t_ref = batch(&r, 1, 1e9);
    kmax = (S->where == KIT_SPEED_GPU ? P->batch_bytes_gpu : P->batch_bytes) / (S->in_bytes + S->out_bytes);
    r.K = (size_t)ceil(fmax(P->batch_s, P->batch_rtts * r.rtt) / t_ref);
    if (r.K > kmax) r.K = kmax;
    if (r.K < 1) r.K = 1;
    free(r.commits);
    free(r.plain);
    free(r.outs);
    r.commits = malloc(r.K * sizeof *r.commits);
    r.plain = malloc(r.K * S->in_bytes);
    r.outs = malloc(r.K * S->out_bytes);
    cr_assert(r.commits && r.plain && r.outs, "out of host memory for %zu inputs", r.K);
    /* the floor: what the batch must move, over the copy bandwidth of as many bytes, measured now */
    if (S->where == KIT_SPEED_GPU)
        cr_assert(kit_speed_gpu_bandwidth(r.K * S->out_bytes, &bw) == 0, "cannot measure the device's bandwidth");
    else
        bw = cpu_bandwidth(r.K * S->out_bytes) * (double)sysconf(_SC_NPROCESSORS_ONLN);
    floor_s = (double)(r.K * S->floor_bytes) / (bw * P->floor_slack);
    /* a warm-up batch on each (checked, not counted), then the rounds, A B and B A in turn */
    fill_round(&r, KIT_SEED(2));
    last_ref = batch(&r, 1, 1e9);
    if (batch(&r, 0, P->give_up * last_ref + 1) < 0) cut = 1;
    for (R = P->rounds; !cut && n < R; n++) {
        fill_round(&r, KIT_SEED(100 + n));
        for (i = 0; i < 2; i++) {
            const int which = (n + i) % 2; /* the student first in even rounds, the reference in odd */
            if (which) last_ref = tr[n] = batch(&r, 1, 1e9);
            else if ((ts[n] = batch(&r, 0, P->give_up * last_ref + 1)) < 0) cut = 1;
            if (cut) break;
        }
        if (cut) break;
        cr_assert(ts[n] >= floor_s,
                  "impossible: the student's batch of %zu inputs took %.3g s, less than the %.3g s it takes to move "
                  "its %zu bytes at the bandwidth measured in this run (%.3g GB/s); scored 0",
                  r.K, ts[n], floor_s, r.K * S->floor_bytes, bw * P->floor_slack / 1e9);
        ratio[n] = tr[n] / ts[n];
        if (n + 1 == R && R < 2 * P->rounds) {
            /* the noise so far: more rounds while it is past what the student may be credited */
            double s[64];
            memcpy(s, ratio, (size_t)R * sizeof *s);
            qsort(s, (size_t)R, sizeof *s, cmp_double);
            if ((s[(3 * R) / 4] - s[R / 4]) / 2 / s[R / 2] > P->favour_cap) R = 2 * P->rounds;
        }
    }
    kit_runner_select(1);
    send_cmd(SPEED_END, 0, 0);
    if (!cut) {
        kit_runner_select(0);
        send_cmd(SPEED_END, 0, 0);
    }
    device_name(S, dev, sizeof dev);
    if (cut) {
        med = 0;
        noise = 0;
        favour = 0;
        snprintf(why, sizeof why, "slower than 1/%g of %s: cut", P->give_up, S->reference);
    } else {
        double s[64];
        memcpy(s, ratio, (size_t)n * sizeof *s);
        qsort(s, (size_t)n, sizeof *s, cmp_double);
        med = s[n / 2];
        q1 = s[n / 4];
        q3 = s[(3 * n) / 4];
        noise = (q3 - q1) / 2 / med;
        favour = noise < P->favour_cap ? noise : P->favour_cap;
        memcpy(s, ts, (size_t)n * sizeof *s);
        qsort(s, (size_t)n, sizeof *s, cmp_double);
        t_stu = s[n / 2];
        memcpy(s, tr, (size_t)n * sizeof *s);
        qsort(s, (size_t)n, sizeof *s, cmp_double);
        t_ref = s[n / 2];
    }
    /* exercise, ratio, noise, credited ratio, throughput, unit, reference, device, rounds, K, note */
    if (log && *log && (f = fopen(log, "a"))) {
        fprintf(f, "%s\t%.4f\t%.4f\t%.4f\t%.4g\t%s\t%s\t%s\t%d\t%zu\t%s\n", S->exercise, med, noise, med * (1 + favour),
                cut ? 0 : (double)(r.K * S->items) / t_stu, S->unit, S->reference, dev, n, r.K, why);
        fclose(f);
    }
    (void)t_ref;
    free(r.commits);
    free(r.plain);
    free(r.wire);
    free(r.outs);
}

#else
/* ----------------------------------------------------------------- runner */

static void fail(const char *what)
{
    fprintf(stderr, "runner: speed test: %s\n", what);
    _exit(3);
}

/* the runner's half: stage, and on GO unmask, run, commit and reply, until the judge says END */
void kit_speed_test(const kit_speed_spec *S)
{
    const size_t nin = S->in_bytes / 8, nout = S->out_bytes / 8;
    unsigned char *in = NULL, *out = NULL, *d_in = NULL, *d_out = NULL;
    uint64_t *commits = NULL, *d_commits = NULL;
    cudaStream_t st = NULL;
    size_t K = 0, k;
    speed_cmd c;
    const int gpu = S->where == KIT_SPEED_GPU;
    if (gpu && cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) fail("no stream");
    for (;;) {
        KIT_TO_RUNNER(&c, sizeof c);
        if (c.op == SPEED_END) break;
        if (c.k != K) {
            K = c.k;
            free(in);
            free(out);
            free(commits);
            in = malloc(K * S->in_bytes + 1);
            out = malloc(K * S->out_bytes + 1);
            commits = calloc(K + 1, sizeof *commits);
            if (!in || !out || !commits) fail("out of host memory");
            if (gpu) {
                cudaFree(d_in);
                cudaFree(d_out);
                cudaFree(d_commits);
                if (cudaMalloc((void **)&d_in, K * S->in_bytes + 8) != cudaSuccess ||
                    cudaMalloc((void **)&d_out, K * S->out_bytes + 8) != cudaSuccess ||
                    cudaMalloc((void **)&d_commits, (K + 1) * sizeof *d_commits) != cudaSuccess)
                    fail("out of device memory");
            }
        }
        if (c.op == SPEED_PING) {
            KIT_FROM_RUNNER(commits, K * sizeof *commits);
        } else if (c.op == SPEED_STAGE) {
            uint32_t ack = (uint32_t)K;
            for (k = 0; k < K; k++) KIT_TO_RUNNER(in + k * S->in_bytes, S->in_bytes);
            if (gpu && cudaMemcpy(d_in, in, K * S->in_bytes, cudaMemcpyHostToDevice) != cudaSuccess)
                fail("cannot stage the inputs on the device");
            KIT_FROM_RUNNER(&ack, sizeof ack);
        } else if (c.op == SPEED_GO && !gpu) {
            for (k = 0; k < K; k++) {
                uint64_t *w = (uint64_t *)(in + k * S->in_bytes), *o = (uint64_t *)(out + k * S->out_bytes);
                kit_speed_xor(w, nin, c.key, k);
                if (S->run(w, o, NULL) != 0) fail("the code under test returned an error");
                commits[k] = kit_speed_commit(o, nout, c.key);
            }
            KIT_FROM_RUNNER(commits, K * sizeof *commits);
            for (k = 0; k < K; k++) KIT_FROM_RUNNER(out + k * S->out_bytes, S->out_bytes);
        } else if (c.op == SPEED_GO) {
            if (kit_speed_gpu_unmask((uint64_t *)d_in, nin, K, c.key, st) != 0) fail("cannot unmask");
            for (k = 0; k < K; k++)
                if (S->run(d_in + k * S->in_bytes, d_out + k * S->out_bytes, st) != 0)
                    fail("the code under test returned an error");
            if (kit_speed_gpu_commit((const uint64_t *)d_out, nout, K, c.key, d_commits, st) != 0 ||
                cudaMemcpyAsync(commits, d_commits, K * sizeof *commits, cudaMemcpyDeviceToHost, st) != cudaSuccess ||
                cudaStreamSynchronize(st) != cudaSuccess)
                fail("the batch failed on the device");
            KIT_FROM_RUNNER(commits, K * sizeof *commits);
            if (cudaMemcpy(out, d_out, K * S->out_bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
                fail("cannot fetch the outputs");
            for (k = 0; k < K; k++) KIT_FROM_RUNNER(out + k * S->out_bytes, S->out_bytes);
        } else {
            fail("an unknown command from the judge");
        }
    }
    free(in);
    free(out);
    free(commits);
    if (gpu) {
        cudaFree(d_in);
        cudaFree(d_out);
        cudaFree(d_commits);
        cudaStreamDestroy(st);
    }
}

#endif
