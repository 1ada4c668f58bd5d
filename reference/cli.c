/* cli.c - the command line shared by every chapter program (build/.../bin/chNN):
 *   chNN steps [--markdown]     the step tables (feeds the README tables)
 *   chNN bench [options]        experiments -> CSV files
 *   chNN demo [--n SIZE]        the ladder at one size as a table
 *   chNN sanitize               every step of every table at small odd sizes
 *                               (run under compute-sanitizer by `make sanitize`)
 *   chNN profile [--n SIZE]     every step once (run under Nsight Compute by `make profile`)
 */
#define _POSIX_C_SOURCE 200809L
#include "kit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Timing repetitions (docs/architecture.md): bench and demo alike. */
enum { WARMUP = 2, REPS = 15, QUICK_REPS = 7 };

static size_t nmain(const kit_chapter *c)
{
    return c->nmain ? (c->nmain < c->nladders ? c->nmain : c->nladders) : 1;
}

static int usage(const kit_chapter *c, FILE *f)
{
    size_t i, j;
    fprintf(f,
            "usage: ch%s COMMAND [options]     (chapter %s: %s)\n\n"
            "commands:\n"
            "  steps [--markdown]      list the step tables\n"
            "  bench [--exp A,B] [--quick] [--out DIR] [--reps K] [--warmup W] [--max-log2 K]\n"
            "                          run experiments, write one CSV each into DIR\n"
            "  demo [--n SIZE] [--pattern P]\n"
            "                          time and verify the ladder at one size (default %zu)\n"
            "  sanitize                verify every step at small sizes (for compute-sanitizer)\n"
            "  profile [--n SIZE]      run each step once (for Nsight Compute: make profile)\n"
            "  help                    this text\n\n",
            c->id, c->id, c->title, c->demo_n);
    fprintf(f, "experiments:\n");
    for (i = 0; i < c->nexperiments; i++)
        fprintf(f, "  %-12s %s\n", c->experiments[i].name, c->experiments[i].what);
    for (i = 0; i < nmain(c); i++) {
        const kit_ladder *L = c->ladders[i];
        fprintf(f, "\nsteps (%s):\n", L->title);
        for (j = 0; j < L->count; j++) {
            const kit_step_info *s = L->step(L, j);
            fprintf(f, "  %-16s %s\n", s->name, s->what);
        }
    }
    fprintf(f, "\nSIZE: 1000, 2^24, 2^20+7, 1<<20, 16M.  patterns:");
    for (i = 0; i < KIT_PATTERN_COUNT; i++) fprintf(f, " %s", kit_pattern_name((kit_pattern)i));
    fprintf(f, "\n");
    return f == stderr ? 2 : 0;
}

/* ------------------------------------------------------------------ steps */

static void print_steps(const kit_chapter *c, int markdown)
{
    size_t l, i;
    for (l = 0; l < c->nladders; l++) {
        const kit_ladder *L = c->ladders[l];
        if (markdown) {
            if (l < nmain(c)) {
                if (nmain(c) > 1) printf("%s**%s** (`%s`)\n\n", l ? "\n" : "", L->title, L->id);
                printf("| # | step | what changed | knobs | source | exercise |\n");
                printf("|---|---|---|---|---|---|\n");
            } else {
                if (l == nmain(c))
                    printf("\nTuning tables and variants (compile-time instantiations used by the "
                           "experiments and tests):\n\n");
                printf("- `%s`: %s, %zu variants\n", L->id, L->title, L->count);
                continue;
            }
        } else {
            printf("%s (%s, %zu steps)\n", L->title, L->id, L->count);
        }
        for (i = 0; i < L->count; i++) {
            const kit_step_info *s = L->step(L, i);
            if (markdown)
                printf("| %zu | `%s`%s | %s | %s | `%s` | %s |\n", i, s->name,
                       s->kind == KIT_STEP_YARDSTICK ? " (yardstick)" : "", s->what,
                       s->param ? s->param : "", s->file ? s->file : "",
                       s->exercise ? s->exercise : "");
            else if (l < nmain(c) || i < 3 || i + 1 == L->count)
                printf("  %2zu %-18s %-28s %s\n", i, s->name, s->param ? s->param : "", s->what);
            else if (i == 3)
                printf("  .. (%zu more)\n", L->count - 4);
        }
    }
}

/* One cell pair for the top README: "title | s0 -> s1 -> ... (+ yardsticks)". */
static void print_summary(const kit_chapter *c)
{
    size_t l, i;
    printf("%s | ", c->title);
    for (l = 0; l < nmain(c); l++) {
        const kit_ladder *L = c->ladders[l];
        size_t gpu = 0;
        if (nmain(c) > 1) printf("%s%s: ", l ? "<br>" : "", L->id);
        for (i = 0; i < L->count; i++) {
            const kit_step_info *s = L->step(L, i);
            if (s->kind != KIT_STEP_GPU) continue;
            printf("%s`%s`", gpu++ ? " → " : "", s->name);
        }
        for (i = 0; i < L->count; i++) {
            const kit_step_info *s = L->step(L, i);
            if (s->kind == KIT_STEP_YARDSTICK) printf(" vs `%s`", s->name);
        }
    }
}

/* ------------------------------------------------------------------ bench */

static int mkdirs(const char *path)
{
    char buf[1024];
    size_t i, n = strlen(path);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++)
        if (buf[i] == '/' || buf[i] == '\0') {
            char ch = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
            buf[i] = ch;
        }
    return 0;
}

static int want_exp(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p = list;
    if (!list) return 1;
    while ((p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
        p += n;
    }
    return 0;
}

static int int_arg(const char *s, int lo, int hi, int *v)
{
    char *end;
    long x;
    if (!s) return 0;
    x = strtol(s, &end, 10);
    if (*end || x < lo || x > hi) return 0;
    *v = (int)x;
    return 1;
}

static int cmd_bench(const kit_chapter *c, int argc, char **argv)
{
    kit_bench b;
    const char *exps = NULL, *out = NULL;
    char why[KIT_MSG], outdir[1024];
    int i, status = 0, ran = 0;
    size_t x;

    memset(&b, 0, sizeof b);
    b.chapter = c->id;
    b.warmup = WARMUP;
    b.reps = REPS;
    b.max_log2 = 28;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) b.quick = 1;
        else if (!strcmp(a, "--exp") && v) { exps = v; i++; }
        else if (!strcmp(a, "--out") && v) { out = v; i++; }
        else if (!strcmp(a, "--reps") && int_arg(v, 1, 1000, &b.reps)) i++;
        else if (!strcmp(a, "--warmup") && int_arg(v, 0, 100, &b.warmup)) i++;
        else if (!strcmp(a, "--max-log2") && int_arg(v, 10, 34, &b.max_log2)) i++;
        else {
            fprintf(stderr, "ch%s bench: bad option '%s'%s\n", c->id, a,
                    v ? "" : " (or missing value)");
            return 2;
        }
    }
    if (exps) {
        char *list = strdup(exps), *tok, *save = NULL;
        for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            for (x = 0; x < c->nexperiments; x++)
                if (!strcmp(tok, c->experiments[x].name)) break;
            if (x == c->nexperiments) {
                fprintf(stderr, "ch%s bench: unknown experiment '%s' (see: ch%s help)\n", c->id,
                        tok, c->id);
                free(list);
                return 2;
            }
        }
        free(list);
    }
    if (b.quick) {
        b.reps = b.reps < QUICK_REPS ? b.reps : QUICK_REPS;
        b.warmup = 1;
        if (b.max_log2 > 26) b.max_log2 = 26;
    }
    b.tty = isatty(2);
    b.gpu = kit_gpu_available(why, sizeof why);
    if (b.gpu) {
        const kit_device *d;
        cudaError_t e = kit_device_get(&d);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking);
        if (e != cudaSuccess) {
            fprintf(stderr, "ch%s bench: %s\n", c->id, cudaGetErrorString(e));
            return 1;
        }
        snprintf(b.gpu_name, sizeof b.gpu_name, "%s", d->name);
        b.copy_probe_n = (size_t)1 << 26;
        e = kit_copy_probe(b.copy_probe_n, b.stream, b.quick ? 5 : 15, &b.copy_gbps);
        if (e != cudaSuccess) {
            fprintf(stderr, "ch%s bench: copy probe: %s\n", c->id, cudaGetErrorString(e));
            return 1;
        }
        snprintf(outdir, sizeof outdir, "%s", out ? out : "plots");
        fprintf(stderr, "ch%s bench on %s (%d SMs, L2 %zu MB): cudaMemcpy D2D %.0f GB/s -> %s/\n",
                c->id, d->name, d->sms, d->l2_bytes >> 20, b.copy_gbps, outdir);
    } else {
        /* never overwrite GPU results with CPU-only ones */
        snprintf(outdir, sizeof outdir, "build/cpu-only/%s", c->dir);
        fprintf(stderr, "ch%s bench: %s: timing the CPU baselines only, into %s/\n", c->id, why,
                outdir);
    }
    if (mkdirs(outdir) != 0) {
        fprintf(stderr, "ch%s bench: cannot create %s: %s\n", c->id, outdir, strerror(errno));
        return 1;
    }
    b.outdir = outdir;
    for (x = 0; x < c->nexperiments; x++) {
        const kit_experiment *ex = &c->experiments[x];
        double t0;
        cudaError_t e;
        if (!want_exp(exps, ex->name)) continue;
        if (kit_bench_begin(&b, ex->name) != cudaSuccess) {
            fprintf(stderr, "ch%s bench: cannot write %s\n", c->id, b.csv_path);
            return 1;
        }
        t0 = kit_wall_seconds();
        e = ex->run(&b);
        kit_bench_end(&b);
        ran++;
        if (e != cudaSuccess) {
            fprintf(stderr, "ch%s bench %s: CUDA error: %s\n", c->id, ex->name, cudaGetErrorString(e));
            status = 1;
            break;
        }
        fprintf(stderr, "ch%s %-12s %6.1f s  -> %s\n", c->id, ex->name, kit_wall_seconds() - t0,
                b.csv_path);
    }
    if (b.stream) cudaStreamDestroy(b.stream);
    fprintf(stderr, "ch%s bench: %d experiment(s), %d rows, %d FAILED verification%s\n", c->id, ran,
            b.rows, b.failed, b.gpu ? "" : " (no CUDA device: CPU rows only)");
    if (b.failed && !status) status = 3;
    return status;
}

/* ------------------------------------------------------------------- demo */

/* One ladder's demo table at size n; returns 0, 3 (a step failed) or 1 (CUDA error). */
static int demo_ladder(const kit_chapter *c, const kit_ladder *L, size_t n, kit_pattern pat,
                       cudaStream_t s, double copy_gbps, const kit_device *d)
{
    char msg[KIT_MSG], sz[32];
    double cpu_ms = 0, prev_ms = 0, bytes = L->bytes(L, 0, n);
    kit_timing t;
    void *ctx = NULL;
    cudaError_t e;
    size_t i;
    int a, failed = 0;

    if ((e = L->setup(L, n, pat, 0xDE30u, kit_rotations(bytes), &ctx)) != cudaSuccess) {
        fprintf(stderr, "ch%s demo %s: %s\n", c->id, L->id, cudaGetErrorString(e));
        if (ctx) L->teardown(ctx);
        return 1;
    }
    printf("Chapter %s (%s), %s, on %s, n = %s (%s input), %.2f MB moved per run by the first step; "
           "cudaMemcpy D2D = %.0f GB/s\n\n",
           c->id, c->title, L->title, d->name, kit_size_str(n, sz, sizeof sz), kit_pattern_name(pat),
           bytes / 1e6, copy_gbps);
    printf("%-18s %9s %8s %6s %7s %8s %4s %7s %6s %-8s %s\n", "step", "ms", "GB/s", "%copy", "x prev",
           "x CPU", "regs", "smem/B", "blk/SM", "verified", "what changed");
    for (a = 0; L->cpu && L->cpu_names[a]; a++) {
        char name[64];
        kit_ladder_time_cpu(L, ctx, a, 3, 2.0, &t);
        if (a == 0) cpu_ms = t.ms_median; /* speed-ups are against the first baseline */
        snprintf(name, sizeof name, "cpu-%s", L->cpu_names[a]);
        printf("%-18s %9.4f %8.1f %6.1f %7s %8.1f %4s %7s %6s %-8s %s\n", name, t.ms_median,
               bytes / (t.ms_median * 1e6), 100.0 * bytes / (t.ms_median * 1e6) / copy_gbps, "",
               cpu_ms / t.ms_median, "", "", "", "ok", "serial CPU baseline");
    }
    for (i = 0; i < L->count; i++) {
        const kit_step_info *si = L->step(L, i);
        kit_kernel_desc kd = {0};
        struct cudaFuncAttributes fa;
        int ok = 0, blocks = 0;
        char regs[16] = "-", smem[16] = "-", occ[16] = "-", xprev[16] = "", xcpu[16] = "";
        double gbps;
        e = kit_ladder_measure(L, ctx, i, s, WARMUP, REPS, &t, &ok, msg, sizeof msg);
        if (e != cudaSuccess) {
            printf("%-18s CUDA error: %s\n", si->name, cudaGetErrorString(e));
            failed = 3;
            if (!kit_recover()) {
                failed = 1;
                break;
            }
            continue;
        }
        if (si->describe && si->describe(&kd) == cudaSuccess && kd.func &&
            cudaFuncGetAttributes(&fa, kd.func) == cudaSuccess) {
            snprintf(regs, sizeof regs, "%d", fa.numRegs);
            snprintf(smem, sizeof smem, "%zu", fa.sharedSizeBytes + kd.dyn_smem);
            if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kd.func, kd.block_threads,
                                                              kd.dyn_smem) == cudaSuccess)
                snprintf(occ, sizeof occ, "%d", blocks);
        }
        cudaGetLastError();
        gbps = L->bytes(L, i, n) / (t.ms_median * 1e6);
        if (prev_ms > 0) snprintf(xprev, sizeof xprev, "%.2f", prev_ms / t.ms_median);
        if (cpu_ms > 0) snprintf(xcpu, sizeof xcpu, "%.1f", cpu_ms / t.ms_median);
        printf("%-18s %9.4f %8.1f %6.1f %7s %8s %4s %7s %6s %-8s %s\n", si->name, t.ms_median, gbps,
               100.0 * gbps / copy_gbps, xprev, xcpu, regs, smem, occ, ok ? "ok" : "FAILED",
               si->what);
        if (!ok) {
            printf("%18s   %s\n", "", msg);
            failed = 3;
        }
        if (si->kind == KIT_STEP_GPU) prev_ms = t.ms_median;
    }
    L->teardown(ctx);
    printf("\n");
    return failed;
}

static int cmd_demo(const kit_chapter *c, int argc, char **argv)
{
    const kit_device *d;
    size_t n = c->demo_n, l;
    kit_pattern pat = KIT_UNIFORM;
    char why[KIT_MSG], msg[KIT_MSG];
    double copy_gbps = 0;
    cudaStream_t s;
    cudaError_t e;
    int a, status = 0;

    for (a = 0; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--n") && v) {
            if (!kit_parse_size(v, &n, msg, sizeof msg)) {
                fprintf(stderr, "ch%s demo: %s\n", c->id, msg);
                return 2;
            }
            a++;
        } else if (!strcmp(argv[a], "--pattern") && v) {
            if (!kit_pattern_parse(v, &pat)) {
                fprintf(stderr, "ch%s demo: unknown pattern '%s' (see: ch%s help)\n", c->id, v, c->id);
                return 2;
            }
            a++;
        } else {
            fprintf(stderr, "ch%s demo: bad option '%s'\n", c->id, argv[a]);
            return 2;
        }
    }
    if (!kit_gpu_available(why, sizeof why)) {
        fprintf(stderr, "ch%s demo: %s: the demo times GPU steps and needs one\n", c->id, why);
        return 2;
    }
    if ((e = kit_device_get(&d)) != cudaSuccess || (e = cudaStreamCreate(&s)) != cudaSuccess ||
        (e = kit_copy_probe((size_t)1 << 26, s, 10, &copy_gbps)) != cudaSuccess) {
        fprintf(stderr, "ch%s demo: %s\n", c->id, cudaGetErrorString(e));
        return 1;
    }
    for (l = 0; l < nmain(c) && status != 1; l++) {
        int r = demo_ladder(c, c->ladders[l], n, pat, s, copy_gbps, d);
        if (r > status) status = r;
    }
    cudaStreamDestroy(s);
    return status;
}

/* ---------------------------------------------------------------- profile */

/* Run every step of the main ladder once (its verified run) at one size, for a
 * profiler (make profile wraps this in Nsight Compute). */
static int cmd_profile(const kit_chapter *c, int argc, char **argv)
{
    size_t n = c->demo_n, i, l;
    char why[KIT_MSG], msg[KIT_MSG];
    void *ctx = NULL;
    cudaError_t e;
    int bad = 0;
    if (argc == 2 && !strcmp(argv[0], "--n")) {
        if (!kit_parse_size(argv[1], &n, msg, sizeof msg)) {
            fprintf(stderr, "ch%s profile: %s\n", c->id, msg);
            return 2;
        }
    } else if (argc != 0) {
        fprintf(stderr, "ch%s profile: usage: ch%s profile [--n SIZE]\n", c->id, c->id);
        return 2;
    }
    if (!kit_gpu_available(why, sizeof why)) {
        fprintf(stderr, "ch%s profile: %s\n", c->id, why);
        return 2;
    }
    for (l = 0; l < nmain(c); l++) {
        const kit_ladder *L = c->ladders[l];
        if ((e = L->setup(L, n, KIT_UNIFORM, 0x9F0Fu, 1, &ctx)) != cudaSuccess) {
            fprintf(stderr, "ch%s profile %s: %s\n", c->id, L->id, cudaGetErrorString(e));
            if (ctx) L->teardown(ctx);
            return 1;
        }
        for (i = 0; i < L->count; i++) {
            int ok = 0;
            e = L->check(ctx, i, 0, &ok, msg, sizeof msg);
            printf("%-10s %-18s %s\n", L->id, L->step(L, i)->name,
                   e != cudaSuccess ? cudaGetErrorString(e) : ok ? "ok" : msg);
            bad |= e != cudaSuccess || !ok;
        }
        L->teardown(ctx);
        ctx = NULL;
    }
    return bad;
}

/* --------------------------------------------------------------- sanitize */

static int cmd_sanitize(const kit_chapter *c)
{
    static const size_t main_sizes[] = {0, 1, 31, 33, 1025, 65543};
    static const size_t tune_sizes[] = {33, 4101};
    char why[KIT_MSG], msg[KIT_MSG];
    size_t l, i, k, checked = 0, bad = 0;
    if (!kit_gpu_available(why, sizeof why)) {
        fprintf(stderr, "ch%s sanitize: %s\n", c->id, why);
        return 2;
    }
    for (l = 0; l < c->nladders; l++) {
        const kit_ladder *L = c->ladders[l];
        const size_t *sizes = l < nmain(c) ? main_sizes : tune_sizes;
        size_t nsizes = l < nmain(c) ? sizeof main_sizes / sizeof *sizes : sizeof tune_sizes / sizeof *sizes;
        for (i = 0; i < L->count; i++)
            for (k = 0; k < nsizes; k++) {
                int ok = 0;
                cudaError_t e = kit_ladder_verify(L, i, sizes[k], KIT_UNIFORM, 77 + k, &ok, msg,
                                                  sizeof msg);
                checked++;
                if (e != cudaSuccess || !ok) {
                    bad++;
                    fprintf(stderr, "ch%s %s %s n=%zu: %s\n", c->id, L->id, L->step(L, i)->name,
                            sizes[k], e != cudaSuccess ? cudaGetErrorString(e) : msg);
                    if (e != cudaSuccess && !kit_recover())
                        return 1;
                }
            }
    }
    printf("ch%s sanitize: %zu step runs verified, %zu failed\n", c->id, checked, bad);
    return bad ? 1 : 0;
}

int kit_chapter_main(const kit_chapter *c, int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (!cmd) return usage(c, stderr);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) return usage(c, stdout);
    if (!strcmp(cmd, "steps")) {
        if (argc == 3 && !strcmp(argv[2], "--summary")) {
            print_summary(c);
            return 0;
        }
        if (argc > 3 || (argc == 3 && strcmp(argv[2], "--markdown"))) return usage(c, stderr);
        print_steps(c, argc == 3);
        return 0;
    }
    if (!strcmp(cmd, "bench")) return cmd_bench(c, argc - 2, argv + 2);
    if (!strcmp(cmd, "demo")) return cmd_demo(c, argc - 2, argv + 2);
    if (!strcmp(cmd, "sanitize") && argc == 2) return cmd_sanitize(c);
    if (!strcmp(cmd, "profile")) return cmd_profile(c, argc - 2, argv + 2);
    fprintf(stderr, "ch%s: unknown command '%s'\n\n", c->id, cmd);
    return usage(c, stderr);
}
