/* fake_runner.c - a runner that misbehaves on purpose, to test the judge's side of the wire
 * (tests/kit_side.c; tests/grading/judge.sh starts the judge with this program as its runner).
 *
 * FAKE_RUNNER=record   read every message the judge sends until it waits for an answer, write one
 *                      line per message to $FAKE_RECORD/<suite>::<test> (sequence, bytes, a hash of
 *                      the bytes) and exit without answering
 * FAKE_RUNNER=MODE     answer ex01_loadbalance::example_23_over_5 (two messages: the starts, then
 *                      the counts of the rows of 23 blocks over 5) in one of these ways:
 *   right    as the judge asks                 short   a header that claims 8 bytes too few
 *   long     8 bytes too many, header and all  swapped the second message first
 *   replay   the first message twice           cut     a header, then half the bytes, then gone
 *   magic    a header with a wrong magic       silent  nothing at all */
#define _GNU_SOURCE
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define WIRE_MAGIC 0x5854494Bu /* tests/kit_side.c's */
#define FD 3

typedef struct hdr {
    uint32_t magic, seq;
    uint64_t bytes;
} hdr;

static void put(const void *p, size_t n)
{
    const char *b = p;
    while (n > 0) {
        const ssize_t r = send(FD, b, n, MSG_NOSIGNAL);
        if (r <= 0) exit(4);
        b += r;
        n -= (size_t)r;
    }
}

static void message(uint32_t magic, uint32_t seq, uint64_t claimed, const void *p, size_t n)
{
    const hdr h = {magic, seq, claimed};
    put(&h, sizeof h);
    put(p, n);
}

static int get(void *p, size_t n)
{
    char *b = p;
    while (n > 0) {
        const ssize_t r = read(FD, b, n);
        if (r <= 0) return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

/* every message until the judge is quiet (it waits for an answer), one line each */
static int record(const char *suite, const char *test)
{
    const char *dir = getenv("FAKE_RECORD");
    char path[4096];
    FILE *f;
    struct pollfd pf = {FD, POLLIN, 0};
    if (!dir) return 2;
    snprintf(path, sizeof path, "%s/%s::%s", dir, suite, test);
    if (!(f = fopen(path, "w"))) return 2;
    while (poll(&pf, 1, 500) == 1 && (pf.revents & POLLIN)) {
        hdr h;
        uint64_t hash = 1469598103934665603ull, k;
        unsigned char c;
        if (get(&h, sizeof h) != 0) break;
        for (k = 0; k < h.bytes; k++) {
            if (get(&c, 1) != 0) break;
            hash = (hash ^ c) * 1099511628211ull;
        }
        fprintf(f, "%u %llu %016llx\n", h.seq, (unsigned long long)h.bytes, (unsigned long long)hash);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    static const uint64_t start[5] = {0, 4, 9, 14, 19}, count[5] = {4, 5, 5, 5, 4};
    static uint64_t more[6];
    const char *mode = getenv("FAKE_RUNNER");
    if (argc != 3 || !mode) return 2;
    if (!strcmp(mode, "record")) return record(argv[1], argv[2]);
    if (strcmp(argv[1], "ex01_loadbalance") || strcmp(argv[2], "example_23_over_5")) return 2;
    if (!strcmp(mode, "right")) {
        message(WIRE_MAGIC, 0, sizeof start, start, sizeof start);
        message(WIRE_MAGIC, 1, sizeof count, count, sizeof count);
    } else if (!strcmp(mode, "short")) { /* the bytes are right: only the count in the header says no */
        message(WIRE_MAGIC, 0, sizeof start - 8, start, sizeof start);
        message(WIRE_MAGIC, 1, sizeof count, count, sizeof count);
    } else if (!strcmp(mode, "long")) {
        memcpy(more, start, sizeof start);
        message(WIRE_MAGIC, 0, sizeof more, more, sizeof more);
        message(WIRE_MAGIC, 1, sizeof count, count, sizeof count);
    } else if (!strcmp(mode, "swapped")) {
        message(WIRE_MAGIC, 1, sizeof count, count, sizeof count);
        message(WIRE_MAGIC, 0, sizeof start, start, sizeof start);
    } else if (!strcmp(mode, "replay")) {
        message(WIRE_MAGIC, 0, sizeof start, start, sizeof start);
        message(WIRE_MAGIC, 0, sizeof start, start, sizeof start);
    } else if (!strcmp(mode, "cut")) { /* and gone: the judge reads the end of the channel */
        message(WIRE_MAGIC, 0, sizeof start, start, sizeof start / 2);
        return 0;
    } else if (!strcmp(mode, "magic")) {
        message(WIRE_MAGIC ^ 1u, 0, sizeof start, start, sizeof start);
        message(WIRE_MAGIC ^ 1u, 1, sizeof count, count, sizeof count);
    } else {
        return strcmp(mode, "silent") ? 2 : 0;
    }
    /* stay until the judge is done with us, so that a short answer is not read as an exit */
    {
        char c;
        while (read(FD, &c, 1) > 0) {
        }
    }
    return 0;
}
