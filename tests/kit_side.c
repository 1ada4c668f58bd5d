/* kit_side.c - the two sides of a graded test (kit_test.h, docs/grading.md).
 *
 * Compiled three ways, like the graded tests themselves:
 *   KIT_SIDE 0  (make test) kit_xchg does nothing and kit_seed returns its argument;
 *   KIT_SIDE 1  (the judge) the first kit_xchg of a test starts the runner of the test's
 *               chapter, $KIT_RUNNER_DIR/runner_NN <suite> <test>, through `$KIT_SANDBOX run` when
 *               set (tools/sandbox.sh), with one end of a socket pair as its fd 3; kit_seed mixes
 *               $KIT_GRADE_SEED into every seed;
 *   KIT_SIDE 2  (the runner) main() runs the one test it is asked for and answers on fd 3.
 *
 * On the wire every message is a header (magic, sequence number, byte count) and the bytes;
 * each side checks that the sequence and the count are the ones it expects, so a runner out
 * of step with its judge fails the test instead of feeding it shifted data. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "kit_test.h"

#define WIRE_MAGIC 0x5854494Bu /* "KITX" */
#define WIRE_FD 3

typedef struct wire_hdr {
    uint32_t magic, seq;
    uint64_t bytes;
} wire_hdr;

/* every side: the sizes-and-inputs loop over kit_expect_step (whose halves differ by side) */
void kit_expect_n(const kit_ladder *L, size_t i, size_t n, const char *input, uint64_t seed)
{
    const kit_shape sh = kit_shape_default(L->P, n);
    kit_expect_step(L, i, &sh, input, seed);
}

void kit_expect_step_sizes(const kit_ladder *L, size_t i, const size_t *sizes, size_t nsizes,
                           const char *const *inputs, uint64_t seed0)
{
    size_t k, x;
    for (k = 0; k < nsizes; k++) {
        const kit_shape sh = kit_shape_default(L->P, sizes[k]);
        if (sh.n > kit_step_max_n(L, i)) continue;
        if (inputs)
            for (x = 0; inputs[x]; x++) kit_expect_step(L, i, &sh, inputs[x], seed0 + k);
        else
            for (x = 0; x < L->P->ninputs; x++) kit_expect_step(L, i, &sh, L->P->inputs[x].name, seed0 + k);
    }
}

int kit_test_cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

#if KIT_SIDE == 0

void kit_xchg(int dir, void *ptr, size_t bytes)
{
    (void)dir;
    (void)ptr;
    (void)bytes;
}

uint64_t kit_seed(uint64_t x)
{
    return x;
}

#else

/* whole reads and writes; 0 on success, -1 on an error or end of file */
static int read_all(int fd, void *p, size_t n)
{
    unsigned char *b = (unsigned char *)p;
    while (n > 0) {
        const ssize_t r = read(fd, b, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    while (n > 0) {
        const ssize_t r = send(fd, b, n, MSG_NOSIGNAL);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

static uint32_t wire_seq; /* messages so far in this test, both directions */

#endif

#if KIT_SIDE == 1
/* ------------------------------------------------------------------ judge */

static int runner_fd = -1;
static pid_t runner_pid = -1;
/* a speed test (kit_speed.c) talks to two runners in turn: 0 the student's ($KIT_RUNNER_DIR),
 * 1 the trusted one built from solutions/ ($KIT_TRUSTED_DIR); the channel above is the current one */
static struct { int fd; pid_t pid; uint32_t seq; } runner_slot[2] = {{-1, -1, 0}, {-1, -1, 0}};
static int runner_cur;

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t kit_seed(uint64_t x)
{
    const char *s = getenv("KIT_GRADE_SEED");
    if (!s || !*s) return x;
    return x ^ mix64(strtoull(s, NULL, 0));
}

static void stop_current(void);
void kit_runner_select(int which)
{
    runner_slot[runner_cur].fd = runner_fd;
    runner_slot[runner_cur].pid = runner_pid;
    runner_slot[runner_cur].seq = wire_seq;
    runner_cur = which;
    runner_fd = runner_slot[which].fd;
    runner_pid = runner_slot[which].pid;
    wire_seq = runner_slot[which].seq;
}

int kit_runner_fd(void)
{
    return runner_fd;
}

/* the runners and everything they started go when this test process ends */
static void stop_runner(void)
{
    const int cur = runner_cur;
    kit_runner_select(1 - cur);
    stop_current();
    kit_runner_select(cur);
    stop_current();
}

static void stop_current(void)
{
    if (runner_pid > 0) {
        kill(-runner_pid, SIGKILL);
        kill(runner_pid, SIGKILL);
        while (waitpid(runner_pid, NULL, 0) < 0 && errno == EINTR) {
        }
        runner_pid = -1;
    }
    if (runner_fd >= 0) close(runner_fd);
    runner_fd = -1;
}

static void start_runner(void)
{
    const struct criterion_test *t = criterion_current_test;
    const char *dir = getenv(runner_cur ? "KIT_TRUSTED_DIR" : "KIT_RUNNER_DIR"), *box = getenv("KIT_SANDBOX"), *log = getenv("KIT_RUNNER_LOG");
    char path[4096], ch[3] = {0};
    int sv[2];
    pid_t pid;
    cr_assert(t && t->category && t->name, "the judge does not know which test it runs");
    cr_assert(dir && *dir, "KIT_RUNNER_DIR is not set: the judge runs only under the grader (tools/grade-*.sh)");
    cr_assert(strncmp(t->category, "ex", 2) == 0 && t->category[2] && t->category[3],
              "%s is not a graded suite (exNN_name)", t->category);
    ch[0] = t->category[2];
    ch[1] = t->category[3];
    snprintf(path, sizeof path, "%s/runner_%s", dir, ch);
    cr_assert(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0, "socketpair: %s", strerror(errno));
    fflush(NULL);
    pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd;
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1) _exit(127);
        if (dup2(sv[1], WIRE_FD) < 0) _exit(127); /* dup2 clears close-on-exec */
        if (log && *log && (fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        fd = open("/dev/null", O_RDONLY);
        if (fd >= 0) dup2(fd, 0);
        /* nothing else of the judge's (Criterion's own channel to its main process above all) */
#ifdef SYS_close_range
        if (syscall(SYS_close_range, WIRE_FD + 1, ~0u, 0) != 0)
#endif
            for (fd = WIRE_FD + 1; fd < sysconf(_SC_OPEN_MAX); fd++) close(fd);
        if (box && *box)
            execl(box, box, "run", path, t->category, t->name, (char *)NULL);
        else
            execl(path, path, t->category, t->name, (char *)NULL);
        fprintf(stderr, "judge: cannot start %s: %s\n", box && *box ? box : path, strerror(errno));
        _exit(127);
    }
    close(sv[1]);
    runner_fd = sv[0];
    runner_pid = pid;
    if (runner_slot[0].pid < 0 && runner_slot[1].pid < 0) atexit(stop_runner);
}

/* why the runner stopped answering, for the test's message */
static void runner_gone(const char *what)
{
    int st = 0;
    pid_t r;
    char why[256];
    close(runner_fd);
    runner_fd = -1;
    /* it closed its end or sent too little: give it a moment to finish dying */
    for (int k = 0; k < 50; k++) {
        r = waitpid(runner_pid, &st, WNOHANG);
        if (r == runner_pid) break;
        usleep(20000);
    }
    if (r != runner_pid) {
        kill(-runner_pid, SIGKILL);
        kill(runner_pid, SIGKILL);
        waitpid(runner_pid, &st, 0);
        snprintf(why, sizeof why, "the student's code closed the judge's channel");
    } else if (WIFSIGNALED(st)) {
        snprintf(why, sizeof why, "the student's code died of signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        snprintf(why, sizeof why, "the student's code exited before answering");
    } else {
        /* a signal inside a sandbox comes back as 128 + signal from its init */
        const int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (code > 128 && code < 128 + 65)
            snprintf(why, sizeof why, "the student's code died of signal %d (%s)", code - 128, strsignal(code - 128));
        else
            snprintf(why, sizeof why, "the student's code exited with status %d", code);
    }
    runner_pid = -1;
    /* "crashed: " makes the results file say crash (kit_test.c) */
    cr_assert_fail("crashed: %s %s (message %u)", why, what, wire_seq);
}

void kit_xchg(int dir, void *ptr, size_t bytes)
{
    wire_hdr h;
    if (runner_fd < 0) start_runner();
    if (dir == 0) {
        h.magic = WIRE_MAGIC;
        h.seq = wire_seq++;
        h.bytes = bytes;
        if (write_all(runner_fd, &h, sizeof h) != 0 || write_all(runner_fd, ptr, bytes) != 0)
            runner_gone("before taking its input");
        return;
    }
    if (read_all(runner_fd, &h, sizeof h) != 0) runner_gone("before answering");
    cr_assert(h.magic == WIRE_MAGIC && h.seq == wire_seq,
              "the student's code answered out of step (message %u: got a header for message %u)", wire_seq,
              h.seq);
    cr_assert(h.bytes == bytes, "the student's code sent %llu bytes as message %u, want %llu",
              (unsigned long long)h.bytes, wire_seq, (unsigned long long)bytes);
    wire_seq++;
    if (read_all(runner_fd, ptr, bytes) != 0) runner_gone("in the middle of its answer");
}

#elif KIT_SIDE == 2
/* ----------------------------------------------------------------- runner */

uint64_t kit_seed(uint64_t x)
{
    return x; /* what the runner generates itself is replaced by what the judge sends */
}

static void wire_fail(const char *what)
{
    fprintf(stderr, "runner: %s (message %u)\n", what, wire_seq);
    _exit(3);
}

/* the judge closed the channel: it has what it needs, or it stopped the test (its verdict, not
 * this line, is the result) */
static void wire_closed(void)
{
    fprintf(stderr, "runner: the judge ended the test at message %u\n", wire_seq);
    _exit(3);
}

void kit_xchg(int dir, void *ptr, size_t bytes)
{
    wire_hdr h;
    if (dir == 1) {
        h.magic = WIRE_MAGIC;
        h.seq = wire_seq++;
        h.bytes = bytes;
        if (write_all(WIRE_FD, &h, sizeof h) != 0 || write_all(WIRE_FD, ptr, bytes) != 0)
            wire_closed();
        return;
    }
    if (read_all(WIRE_FD, &h, sizeof h) != 0) wire_closed();
    if (h.magic != WIRE_MAGIC || h.seq != wire_seq || h.bytes != bytes) wire_fail("out of step with the judge");
    wire_seq++;
    if (read_all(WIRE_FD, ptr, bytes) != 0) wire_closed();
}

/* the runner's half of kit_expect_step (the judge's is in kit_test.c): take the judge's shape,
 * step and inputs, run the step once and send what it wrote, guard zones included */
void kit_expect_step(const kit_ladder *L, size_t i, const kit_shape *sh, const char *input, uint64_t seed)
{
    const kit_input *in = input ? kit_input_find(L->P, input) : NULL;
    kit_ctx *c = NULL;
    kit_shape s2;
    uint64_t step;
    int32_t er;
    size_t k, b;
    (void)i;
    (void)sh;
    KIT_TO_RUNNER(&s2, sizeof s2);
    KIT_TO_RUNNER(&step, sizeof step);
    if (step >= L->count) wire_fail("the judge asked for a step this ladder does not have");
    er = (int32_t)kit_ctx_new(L, &s2, in ? in : &L->P->inputs[0], seed, 1, &c);
    for (k = 0; k < L->P->nbufs; k++)
        if (L->P->bufs[k].role == KIT_IN) {
            const size_t bytes = kit_buf_count(L->P, k, &s2) * L->P->bufs[k].elem;
            void *dst = er == 0 ? kit_ctx_inputs(c)->buf[k] : malloc(bytes ? bytes : 1);
            if (!dst) wire_fail("out of host memory");
            KIT_TO_RUNNER(dst, bytes);
            if (er != 0) free(dst);
        }
    if (er == 0) er = (int32_t)kit_ctx_upload_inputs(c);
    if (er == 0) er = (int32_t)kit_ctx_run_raw(c, (size_t)step, 0);
    KIT_FROM_RUNNER(&er, sizeof er);
    if (er == 0)
        for (k = 0; k < L->P->nbufs; k++) {
            unsigned char *raw = kit_ctx_raw(c, k, &b);
            if (raw) KIT_FROM_RUNNER(raw, b);
        }
    kit_ctx_free(c);
}

typedef struct runner_test {
    const char *suite, *name;
    kit_runner_fn f;
} runner_test;
static runner_test tests[512];
static size_t ntests;

void kit_runner_add(const char *suite, const char *name, kit_runner_fn f)
{
    if (ntests < sizeof tests / sizeof *tests) tests[ntests++] = (runner_test){suite, name, f};
}

int main(int argc, char **argv)
{
    size_t k;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (k = 0; k < ntests; k++) printf("%s::%s\n", tests[k].suite, tests[k].name);
        return 0;
    }
    /* the grader's load probe: every constructor ran; say so on fd 3 (or stdout) */
    if (argc == 2 && strcmp(argv[1], "--probe") == 0) {
        static const char ok[] = "runner ready\n";
        if (write(WIRE_FD, ok, sizeof ok - 1) < 0 && write(1, ok, sizeof ok - 1) < 0) return 1;
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s --list | --probe | <suite> <test> (the judge starts it, fd 3 its channel)\n", argv[0]);
        return 2;
    }
    for (k = 0; k < ntests; k++)
        if (strcmp(tests[k].suite, argv[1]) == 0 && strcmp(tests[k].name, argv[2]) == 0) {
            tests[k].f();
            return 0;
        }
    fprintf(stderr, "runner: no test %s::%s\n", argv[1], argv[2]);
    return 2;
}

#endif
