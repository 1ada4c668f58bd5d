/* cpucache.c - the CPU baselines' times, kept per machine and program build (kit.h, "CPU rows").
 *
 * One line per measurement, tab-separated, appended with a single write():
 *   kitcpu1 machine build chapter problem baseline input shape n ms when sum
 * machine: the CPU model and its logical CPU count; build: the program file's size and modification
 * time (a rebuilt program may time different code, so its entries are not used); when: Unix time of
 * the measurement; sum: FNV-1a (32 bits, hex) of the line before it, so that a torn or edited line is
 * recognised and skipped.  Lookups read the whole file (small: a few hundred lines per bench run);
 * the newest valid entry wins. */
#define _XOPEN_SOURCE 700
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_MAGIC "kitcpu1"
#define CACHE_DAYS 30 /* entries older than this are not used (KIT_CPU_CACHE_DAYS overrides) */
#define CACHE_LINE 2048

const char *kit_cpu_cache_path(void)
{
    static char path[1024];
    const char *env = getenv("KIT_CPU_CACHE"), *root = getenv("BUILDROOT");
    if (env && *env) return env;
    snprintf(path, sizeof path, "%s/cpu-cache.tsv", root && *root ? root : "build");
    return path;
}

/* a field as written: tabs and line ends would break the line, so they become spaces */
static void clean(char *dst, size_t len, const char *src)
{
    size_t i;
    for (i = 0; src && src[i] && i + 1 < len; i++) dst[i] = (src[i] == '\t' || src[i] == '\n' || src[i] == '\r') ? ' ' : src[i];
    dst[i] = '\0';
}

const char *kit_cpu_machine(void)
{
    static char id[300];
    char line[512], model[256] = "unknown CPU";
    FILE *f;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (id[0]) return id;
    if ((f = fopen("/proc/cpuinfo", "r")) != NULL) {
        while (fgets(line, sizeof line, f)) {
            char *colon = strchr(line, ':');
            if (!strncmp(line, "model name", 10) && colon) {
                char *v = colon + 1;
                while (*v == ' ') v++;
                v[strcspn(v, "\n")] = '\0';
                clean(model, sizeof model, v);
                break;
            }
        }
        fclose(f);
    }
    snprintf(id, sizeof id, "%s x%ld", model, cpus > 0 ? cpus : 0L);
    return id;
}

const char *kit_cpu_build(void)
{
    static char id[96];
    struct stat st;
    if (id[0]) return id;
    if (stat("/proc/self/exe", &st) == 0)
        snprintf(id, sizeof id, "exe:%lld:%lld", (long long)st.st_size, (long long)st.st_mtime);
    else
        snprintf(id, sizeof id, "exe:unknown");
    return id;
}

static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* the fields of one line, checked; 0 when it does not parse or its checksum fails */
typedef struct entry {
    char *f[12];
    size_t n;
    double ms;
    long long when;
} entry;

static int parse(char *line, entry *e)
{
    char *p = line, *end;
    int k;
    size_t body;
    line[strcspn(line, "\n")] = '\0';
    for (k = 0; k < 12; k++) {
        e->f[k] = p;
        if (k < 11) {
            char *t = strchr(p, '\t');
            if (!t) return 0;
            *t = '\0';
            p = t + 1;
        }
    }
    if (strchr(e->f[11], '\t') || strcmp(e->f[0], CACHE_MAGIC)) return 0;
    body = (size_t)(e->f[11] - line) - 1; /* the bytes before the checksum's tab */
    {
        /* the checksum covers the line as written: the fields joined by tabs */
        char buf[CACHE_LINE];
        size_t at = 0;
        for (k = 0; k < 11 && at < sizeof buf; k++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", k ? "\t" : "", e->f[k]);
        if (at != body || at >= sizeof buf) return 0;
        if (strtoul(e->f[11], &end, 16) != fnv1a(buf, at) || *end || end == e->f[11]) return 0;
    }
    errno = 0;
    e->n = (size_t)strtoull(e->f[8], &end, 10);
    if (*end || errno || end == e->f[8]) return 0;
    e->ms = strtod(e->f[9], &end);
    if (*end || end == e->f[9] || !(e->ms >= 0) || !isfinite(e->ms)) return 0;
    e->when = strtoll(e->f[10], &end, 10);
    if (*end || end == e->f[10]) return 0;
    return 1;
}

static void key_fields(const kit_cpu_key *k, char f[5][256])
{
    clean(f[0], 256, k->chapter);
    clean(f[1], 256, k->problem);
    clean(f[2], 256, k->baseline);
    clean(f[3], 256, k->input);
    clean(f[4], 256, k->shape);
}

static double max_age_s(void)
{
    const char *d = getenv("KIT_CPU_CACHE_DAYS");
    const double days = d && *d ? atof(d) : CACHE_DAYS;
    return days * 86400.0;
}

/* scan the cache: the newest valid entry of (machine, build, key) at exactly k->n (below = 0),
 * or the largest n below k->n (below = 1) */
static int scan(const char *path, const kit_cpu_key *k, const char *machine, const char *build, int below,
                size_t *n_out, double *ms_out, long long *when_out)
{
    static char warned[1024];
    char line[CACHE_LINE], kf[5][256], mach[300], bld[96];
    FILE *f = fopen(path, "r");
    const long long now = (long long)time(NULL);
    const double age = max_age_s();
    size_t lineno = 0, bad = 0, best_n = 0;
    double best_ms = 0;
    long long best_when = -1;
    int found = 0;
    if (!f) return 0;
    key_fields(k, kf);
    clean(mach, sizeof mach, machine);
    clean(bld, sizeof bld, build);
    while (fgets(line, sizeof line, f)) {
        entry e;
        int j, same = 1;
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) { /* longer than any line we write: skip the rest */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n') {}
            bad++;
            continue;
        }
        if (!parse(line, &e)) {
            bad++;
            continue;
        }
        if (strcmp(e.f[1], mach) || strcmp(e.f[2], bld)) continue;    /* foreign or stale: another machine or build */
        if (e.when > now + 86400 || (double)(now - e.when) > age) continue; /* too old, or from the future */
        for (j = 0; j < 5 && same; j++) same = !strcmp(e.f[3 + j], kf[j]);
        if (!same) continue;
        if (below ? (e.n < k->n && (!found || e.n > best_n || (e.n == best_n && e.when >= best_when)))
                  : (e.n == k->n && (!found || e.when >= best_when))) {
            found = 1;
            best_n = e.n;
            best_ms = e.ms;
            best_when = e.when;
        }
    }
    fclose(f);
    if (bad && strcmp(warned, path)) {
        fprintf(stderr, "warning: %s: %zu corrupt line(s) ignored (of %zu); delete the file to start afresh\n", path,
                bad, lineno);
        snprintf(warned, sizeof warned, "%s", path);
    }
    if (!found) return 0;
    if (n_out) *n_out = best_n;
    if (ms_out) *ms_out = best_ms;
    if (when_out) *when_out = best_when;
    return 1;
}

int kit_cpu_cache_get(const char *path, const kit_cpu_key *k, const char *machine, const char *build,
                      double *ms, long long *when)
{
    return scan(path, k, machine, build, 0, NULL, ms, when);
}

int kit_cpu_cache_below(const char *path, const kit_cpu_key *k, const char *machine, const char *build,
                        size_t *n, double *ms)
{
    return scan(path, k, machine, build, 1, n, ms, NULL);
}

int kit_mkdirs(const char *path)
{
    char buf[1024];
    size_t i, n = strlen(path);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++)
        if (buf[i] == '/' || buf[i] == '\0') {
            const char ch = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
            buf[i] = ch;
        }
    return 0;
}

int kit_cpu_cache_put(const char *path, const kit_cpu_key *k, const char *machine, const char *build,
                      double ms)
{
    static char warned[1024];
    char line[CACHE_LINE], kf[5][256], mach[300], bld[96];
    int at, fd;
    ssize_t w;
    if (!(ms >= 0) || !isfinite(ms)) return -1;
    key_fields(k, kf);
    clean(mach, sizeof mach, machine);
    clean(bld, sizeof bld, build);
    at = snprintf(line, sizeof line, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%zu\t%.9g\t%lld", CACHE_MAGIC, mach, bld, kf[0],
                  kf[1], kf[2], kf[3], kf[4], k->n, ms, (long long)time(NULL));
    if (at < 0 || (size_t)at + 16 >= sizeof line) return -1;
    at += snprintf(line + at, sizeof line - (size_t)at, "\t%08x\n", fnv1a(line, (size_t)at));
    {
        char dir[1024];
        const char *slash = strrchr(path, '/');
        if (slash && slash > path && (size_t)(slash - path) < sizeof dir) {
            memcpy(dir, path, (size_t)(slash - path));
            dir[slash - path] = '\0';
            kit_mkdirs(dir); /* failure shows as the open's below */
        }
    }
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) {
        if (strcmp(warned, path))
            fprintf(stderr, "warning: cannot write the CPU timing cache %s: %s (CPU rows are measured each time)\n",
                    path, strerror(errno));
        snprintf(warned, sizeof warned, "%s", path);
        return -1;
    }
    w = write(fd, line, (size_t)at);
    close(fd);
    return w == at ? 0 : -1;
}

void kit_cpu_mark(const kit_cpu_time *ct, char *buf, size_t len)
{
    char sz[32];
    buf[0] = '\0';
    if (ct->how == KIT_CPU_FROM_CACHE) {
        const time_t w = (time_t)ct->when;
        struct tm tmv;
        char d[16] = "?";
        if (localtime_r(&w, &tmv)) strftime(d, sizeof d, "%Y-%m-%d", &tmv);
        snprintf(buf, len, "cached %s", d);
    } else if (ct->how == KIT_CPU_ESTIMATED) {
        snprintf(buf, len, "est. from n = %s", kit_size_str(ct->from_n, sz, sizeof sz));
    }
}

double kit_cpu_scale(int cost, double ms, size_t n0, size_t n)
{
    const double a = (double)(n0 ? n0 : 1), b = (double)n;
    if (cost == KIT_COST_N2) return ms * (b / a) * (b / a);
    if (cost == KIT_COST_NLOGN && a >= 2 && b >= 2) return ms * (b * log2(b)) / (a * log2(a));
    return ms * b / a;
}
