/* cli.c - the command line shared by every chapter program (build/.../bin/chNN):
 *   chNN steps [--markdown]     the step tables (feeds the README tables)
 *   chNN bench [options]        experiments -> CSV files
 *   chNN demo [--n SIZE]        the ladder at one size as a table
 *   chNN sanitize               every step of every table at small odd sizes
 *                               (run under compute-sanitizer by `make sanitize`)
 *   chNN profile [--n SIZE]     every step once (run under Nsight Compute by `make profile`)
 */
#define _XOPEN_SOURCE 700 /* realpath */
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

/* the distinct problems of the chapter's ladders, each with its inputs and axes */
static void print_problems(const kit_chapter *c, FILE *f)
{
    size_t l, m, k;
    for (l = 0; l < c->nladders; l++) {
        const kit_problem *P = c->ladders[l]->P;
        for (m = 0; m < l; m++)
            if (c->ladders[m]->P == P) break;
        if (m < l) continue;
        for (m = 0; m < l; m++) /* the same inputs and no axes: one line */
            if (c->ladders[m]->P->inputs == P->inputs && !P->naxes && !c->ladders[m]->P->naxes) break;
        if (m < l) {
            fprintf(f, "\ninputs of %s: those of %s\n", P->name, c->ladders[m]->P->name);
            continue;
        }
        fprintf(f, "\ninputs of %s (%s/s; --input A,B):\n", P->name, P->unit ? P->unit : "elements");
        for (k = 0; k < P->ninputs; k++)
            fprintf(f, "  %-16s %s\n", P->inputs[k].name, P->inputs[k].what);
        for (k = 0; k < P->naxes; k++)
            fprintf(f, "  --%-14s %s (default %g)\n", P->axes[k].name, P->axes[k].what, P->axes[k].def);
    }
}

static int usage(const kit_chapter *c, FILE *f)
{
    size_t i, j;
    fprintf(f,
            "usage: ch%s COMMAND [options]     (chapter %s: %s)\n\n"
            "commands:\n"
            "  steps [--markdown]      list the step tables\n"
            "  bench [--exp A,B] [--input A,B] [--quick] [--out DIR] [--reps K] [--warmup W]\n"
            "        [--max-log2 K] [--cpu measure|none] [--AXIS VALUE]\n"
            "                          run experiments, write one CSV each into DIR\n"
            "                          (--cpu none: GPU rows only, no CPU baselines timed)\n"
            "  demo [--n SIZE] [--input NAME] [--AXIS VALUE]\n"
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
    print_problems(c, f);
    fprintf(f, "\nSIZE: 1000, 2^24, 2^20+7, 1<<20, 16M.\n");
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

/* 1 when path is the folder plots/ of the working directory (the repository's root, where make
 * runs the programs) or inside it, however it is spelled (./plots/01-copy, an absolute path, a
 * link): the committed GPU results, which a run without a GPU must not touch */
static int in_plots(const char *path)
{
    char root[4096], buf[4096], real[4096];
    size_t n;
    if (!realpath("plots", root)) return 0; /* no plots/ here: nothing to protect */
    snprintf(buf, sizeof buf, "%s", path);
    /* the deepest part of path that exists (the rest is created later) */
    while (!realpath(buf, real)) {
        char *slash = strrchr(buf, '/');
        if (!slash) {
            if (!getcwd(real, sizeof real)) return 0;
            break;
        }
        if (slash == buf) {
            snprintf(real, sizeof real, "/");
            break;
        }
        *slash = '\0';
    }
    n = strlen(root);
    return !strncmp(real, root, n) && (real[n] == '\0' || real[n] == '/');
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

/* An axis named name in any of the chapter's problems, or NULL. */
static const kit_axis *find_axis(const kit_chapter *c, const char *name)
{
    size_t l, k;
    for (l = 0; l < c->nladders; l++)
        for (k = 0; k < c->ladders[l]->P->naxes; k++)
            if (!strcmp(c->ladders[l]->P->axes[k].name, name)) return &c->ladders[l]->P->axes[k];
    return NULL;
}

/* Is name an input of any of the chapter's problems? */
static int known_input(const kit_chapter *c, const char *name)
{
    size_t l;
    for (l = 0; l < c->nladders; l++)
        if (kit_input_find(c->ladders[l]->P, name)) return 1;
    return 0;
}

static void list_inputs(const kit_chapter *c, FILE *f)
{
    size_t l, m, k;
    fprintf(f, "valid inputs:");
    for (l = 0; l < c->nladders; l++) {
        const kit_problem *P = c->ladders[l]->P;
        for (m = 0; m < l && c->ladders[m]->P != P; m++) {
        }
        if (m < l) continue;
        for (k = 0; k < P->ninputs; k++) {
            size_t q, dup = 0;
            for (q = 0; q < l && !dup; q++) dup = kit_input_find(c->ladders[q]->P, P->inputs[k].name) != NULL;
            if (!dup) fprintf(f, " %s", P->inputs[k].name);
        }
    }
    fprintf(f, "\n");
}

/* --input A,B: every name known, else the valid names and 0 */
static int check_inputs(const kit_chapter *c, const char *cmd, const char *list)
{
    char buf[1024], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (!known_input(c, tok)) {
            fprintf(stderr, "ch%s %s: unknown input '%s'; ", c->id, cmd, tok);
            list_inputs(c, stderr);
            return 0;
        }
    return 1;
}

/* "--NAME VALUE" of an axis: appended to axes as "NAME=VALUE"; 0 when a is no axis flag,
 * -1 (message printed) when the value is bad */
static int axis_arg(const kit_chapter *c, const char *cmd, const char *a, const char *v,
                    char *axes, size_t len)
{
    const kit_axis *x;
    char *end;
    double d;
    size_t k;
    if (strncmp(a, "--", 2) != 0 || !(x = find_axis(c, a + 2))) return 0;
    if (!v) {
        fprintf(stderr, "ch%s %s: %s needs a value\n", c->id, cmd, a);
        return -1;
    }
    d = strtod(v, &end);
    if (*end && x->labels) { /* a label: its index */
        for (k = 0; x->labels[k]; k++)
            if (!strcmp(x->labels[k], v)) break;
        if (!x->labels[k]) {
            fprintf(stderr, "ch%s %s: %s takes one of:", c->id, cmd, a);
            for (k = 0; x->labels[k]; k++) fprintf(stderr, " %s", x->labels[k]);
            fprintf(stderr, "\n");
            return -1;
        }
        d = (double)k;
    } else if (*end || end == v || d < x->lo || d > x->hi) {
        fprintf(stderr, "ch%s %s: %s %s: want a number in [%g, %g]\n", c->id, cmd, a, v, x->lo, x->hi);
        return -1;
    }
    k = strlen(axes);
    snprintf(axes + k, len - k, "%s%s=%.17g", k ? " " : "", x->name, d);
    return 1;
}

static void list_experiments(const kit_chapter *c, FILE *f)
{
    size_t x;
    fprintf(f, "valid experiments:");
    for (x = 0; x < c->nexperiments; x++) fprintf(f, " %s", c->experiments[x].name);
    fprintf(f, "\n");
}

static int cmd_bench(const kit_chapter *c, int argc, char **argv)
{
    kit_bench b;
    const char *exps = NULL, *out = NULL;
    char why[KIT_MSG], outdir[1024], axes[512] = "";
    int i, status = 0, ran = 0;
    size_t x;

    memset(&b, 0, sizeof b);
    b.chapter = c->id;
    b.warmup = WARMUP;
    b.reps = REPS;
    b.max_log2 = 28;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int r;
        if (!strcmp(a, "--quick")) b.quick = 1;
        else if (!strcmp(a, "--exp") && v) { exps = v; i++; }
        else if (!strcmp(a, "--input") && v) { b.inputs = v; i++; }
        else if (!strcmp(a, "--out") && v) { out = v; i++; }
        else if (!strcmp(a, "--reps") || !strcmp(a, "--warmup") || !strcmp(a, "--max-log2")) {
            const int reps = !strcmp(a, "--reps"), warm = !strcmp(a, "--warmup");
            const int lo = reps ? 1 : warm ? 0 : 10, hi = reps ? 1000 : warm ? 100 : 34;
            if (!int_arg(v, lo, hi, reps ? &b.reps : warm ? &b.warmup : &b.max_log2)) {
                fprintf(stderr, "ch%s bench: %s takes a whole number from %d to %d (%s%s%s)\n", c->id, a, lo, hi,
                        v ? "got '" : "no value given", v ? v : "", v ? "'" : "");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--cpu")) {
            if (!v || (strcmp(v, "none") && strcmp(v, "measure"))) {
                fprintf(stderr, "ch%s bench: --cpu takes measure or none (%s%s%s)\n", c->id,
                        v ? "got '" : "no value given", v ? v : "", v ? "'" : "");
                return 2;
            }
            b.no_cpu = !strcmp(v, "none");
            i++;
        } else if ((r = axis_arg(c, "bench", a, v, axes, sizeof axes)) != 0) {
            if (r < 0) return 2;
            i++;
        } else {
            fprintf(stderr, "ch%s bench: bad option '%s'%s (see: ch%s help)\n", c->id, a,
                    v ? "" : " (or missing value)", c->id);
            return 2;
        }
    }
    if (axes[0]) b.axes = axes;
    if (out && strlen(out) > 4 && !strcmp(out + strlen(out) - 4, ".csv")) {
        fprintf(stderr, "ch%s bench: --out takes a folder (each experiment writes NAME.csv into it), not "
                "a file: '%s'\n", c->id, out);
        return 2;
    }
    if (exps) {
        char *list = strdup(exps), *tok, *save = NULL;
        for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            for (x = 0; x < c->nexperiments; x++)
                if (!strcmp(tok, c->experiments[x].name)) break;
            if (x == c->nexperiments) {
                fprintf(stderr, "ch%s bench: unknown experiment '%s'; ", c->id, tok);
                list_experiments(c, stderr);
                free(list);
                return 2;
            }
        }
        free(list);
    }
    if (b.inputs && !check_inputs(c, "bench", b.inputs)) return 2;
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
        /* never overwrite GPU results with CPU-only ones: --out is taken unless it is plots/ */
        if (out && !in_plots(out)) snprintf(outdir, sizeof outdir, "%s", out);
        else snprintf(outdir, sizeof outdir, "build/cpu-only/%s", c->dir);
        if (out && in_plots(out))
            fprintf(stderr, "ch%s bench: %s: not writing CPU-only rows into %s (the committed GPU results "
                    "stay)\n", c->id, why, out);
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
        if (!kit_name_in_list(exps, ex->name)) continue;
        if (kit_bench_begin(&b, ex->name) != cudaSuccess) {
            fprintf(stderr, "ch%s bench: cannot write %s.tmp\n", c->id, b.csv_path);
            status = 1;
            break;
        }
        t0 = kit_wall_seconds();
        e = ex->run(&b);
        kit_bench_end(&b, e == cudaSuccess); /* a failed experiment leaves the old CSV */
        ran++;
        if (e != cudaSuccess) {
            fprintf(stderr, "ch%s bench %s: CUDA error: %s (%s kept as it was)\n", c->id, ex->name,
                    cudaGetErrorString(e), b.csv_path);
            status = 1;
            break;
        }
        fprintf(stderr, "ch%s %-12s %6.1f s  -> %s\n", c->id, ex->name, kit_wall_seconds() - t0,
                b.csv_path);
    }
    kit_ctx_free(b.cache);
    if (b.stream) cudaStreamDestroy(b.stream);
    fprintf(stderr, "ch%s bench: %d experiment(s), %d rows, %d FAILED verification%s\n", c->id, ran,
            b.rows, b.failed, b.gpu ? "" : " (no CUDA device: CPU rows only)");
    if (b.failed && !status) status = 3;
    return status;
}

/* ------------------------------------------------------------------- demo */

/* One ladder's demo table at shape sh on input in (NULL: the problem's first, or skip
 * when the name is not one of this problem's); 0, 3 (a step failed) or 1 (CUDA error). */
static int demo_ladder(const kit_chapter *c, const kit_ladder *L, const kit_shape *sh,
                       const char *input, cudaStream_t s, double copy_gbps, const kit_device *d)
{
    const kit_problem *P = L->P;
    const kit_input *in = input ? kit_input_find(P, input) : &P->inputs[0];
    char msg[KIT_MSG], sz[32], shape[256];
    double cpu_ms = 0, prev_ms = 0, bytes = L->bytes(L, 0, sh);
    const double items = P->items ? P->items(P, sh) : (double)sh->n;
    const int nph = kit_nphases(P);
    kit_timing t[KIT_MAX_PHASES];
    kit_ctx *ctx = NULL;
    cudaError_t e;
    size_t i, a;
    int failed = 0, ph;

    if (!in) return 0;
    if ((e = kit_ctx_new(L, sh, in, 0xDE30u, kit_rotations(bytes), &ctx)) != cudaSuccess) {
        fprintf(stderr, "ch%s demo %s: %s\n", c->id, L->id, cudaGetErrorString(e));
        kit_ctx_free(ctx);
        return 1;
    }
    bytes = kit_ctx_bytes(ctx, 0); /* on this input, when the traffic depends on the data */
    printf("Chapter %s (%s), %s, on %s, n = %s%s%s, input %s, %.2f MB moved per run by the first "
           "step; cudaMemcpy D2D = %.0f GB/s\n\n",
           c->id, c->title, L->title, d->name, kit_size_str(sh->n, sz, sizeof sz),
           P->naxes ? " " : "", kit_shape_str(P, sh, shape, sizeof shape), in->name, bytes / 1e6,
           copy_gbps);
    printf("%-18s %9s %8s %6s %10s %7s %8s %4s %7s %6s %-8s %s\n", "step", "ms", "GB/s", "%copy",
           "G items/s", "x prev", "x CPU", "regs", "smem/B", "blk/SM", "verified", "what changed");
    for (a = 0; a < P->ncpu; a++) {
        const kit_cpu *u = &P->cpu[a];
        const char *param = u->param ? u->param : "serial CPU baseline";
        char name[64];
        kit_timing tc;
        if (u->max_n && sh->n > u->max_n) continue;
        snprintf(name, sizeof name, "cpu-%s", u->name);
        if (!u->run) {
            printf("%-18s %9s %8s %6s %10s %7s %8s %4s %7s %6s %-8s %s\n", name, "-", "-", "-", "-", "",
                   "", "", "", "", "absent", param);
            continue;
        }
        kit_ctx_time_cpu(ctx, (int)a, 3, 2.0, &tc);
        if (cpu_ms == 0) cpu_ms = tc.ms_median; /* speed-ups are against the first baseline timed */
        printf("%-18s %9.4f %8.1f %6.1f %10.3f %7s %8.1f %4s %7s %6s %-8s %s%s%s\n", name, tc.ms_median,
               bytes / (tc.ms_median * 1e6), 100.0 * bytes / (tc.ms_median * 1e6) / copy_gbps,
               items / (tc.ms_median * 1e6), "", cpu_ms / tc.ms_median, "", "", "", "ok", param,
               u->phase ? ", phase " : "", u->phase ? u->phase : "");
    }
    for (i = 0; i < L->count; i++) {
        const kit_step_info *si = L->step(L, i);
        kit_kernel_desc kd = {0};
        struct cudaFuncAttributes fa;
        int ok = 0, blocks = 0;
        char regs[16] = "-", smem[16] = "-", occ[16] = "-", xprev[16] = "", xcpu[16] = "";
        double gbps, ms = 0;
        if (sh->n > kit_step_max_n(L, i)) continue;
        e = kit_ladder_measure(ctx, i, s, WARMUP, REPS, t, &ok, msg, sizeof msg);
        if (e != cudaSuccess) {
            const char *why = kit_unsupported();
            if (why) printf("%-18s skipped: cannot run on this GPU: %s\n", si->name, why);
            else printf("%-18s CUDA error: %s\n", si->name, cudaGetErrorString(e));
            if (!why) failed = 3;
            if (!kit_recover()) {
                failed = 1;
                break;
            }
            continue;
        }
        for (ph = 0; ph < nph; ph++) ms += t[ph].ms_median;
        if (si->describe && si->describe(&kd) == cudaSuccess && kd.func &&
            cudaFuncGetAttributes(&fa, kd.func) == cudaSuccess) {
            snprintf(regs, sizeof regs, "%d", fa.numRegs);
            snprintf(smem, sizeof smem, "%zu", fa.sharedSizeBytes + kd.dyn_smem);
            if (kit_occupancy(&blocks, kd.func, kd.block_threads, kd.dyn_smem) == cudaSuccess)
                snprintf(occ, sizeof occ, "%d", blocks);
        }
        cudaGetLastError();
        gbps = kit_ctx_bytes(ctx, i) / (ms * 1e6);
        if (prev_ms > 0) snprintf(xprev, sizeof xprev, "%.2f", prev_ms / ms);
        if (cpu_ms > 0) snprintf(xcpu, sizeof xcpu, "%.1f", cpu_ms / ms);
        printf("%-18s %9.4f %8.1f %6.1f %10.3f %7s %8s %4s %7s %6s %-8s %s\n", si->name, ms, gbps,
               100.0 * gbps / copy_gbps, items / (ms * 1e6), xprev, xcpu, regs, smem, occ,
               ok ? "ok" : (si->flags & KIT_TIMING_ONLY) ? "timing" : "FAILED", si->what);
        if (nph > 1)
            for (ph = 0; ph < nph; ph++)
                printf("%18s   %-8s %9.4f ms\n", "", kit_phase_name(P, ph), t[ph].ms_median);
        if (!ok && !(si->flags & KIT_TIMING_ONLY)) {
            printf("%18s   %s\n", "", msg);
            failed = 3;
        }
        if (si->kind == KIT_STEP_GPU) prev_ms = ms;
    }
    kit_ctx_free(ctx);
    printf("\n");
    return failed;
}

/* --n SIZE, --input NAME and --AXIS VALUE for demo and profile; 0 on success, else 2 */
static int shape_args(const kit_chapter *c, const char *cmd, int argc, char **argv, size_t *n,
                      const char **input, char *axes, size_t alen)
{
    char msg[KIT_MSG];
    int a;
    for (a = 0; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        int r;
        if ((!strcmp(argv[a], "--n") || !strcmp(argv[a], "--input")) && !v) {
            fprintf(stderr, "ch%s %s: %s needs a value (see: ch%s help)\n", c->id, cmd, argv[a], c->id);
            return 2;
        } else if (!strcmp(argv[a], "--n") && v) {
            if (!kit_parse_size(v, n, msg, sizeof msg)) {
                fprintf(stderr, "ch%s %s: %s\n", c->id, cmd, msg);
                return 2;
            }
            a++;
        } else if (!strcmp(argv[a], "--input") && v) {
            if (!check_inputs(c, cmd, v) || strchr(v, ',')) {
                if (strchr(v, ',')) fprintf(stderr, "ch%s %s: one input at a time\n", c->id, cmd);
                return 2;
            }
            *input = v;
            a++;
        } else if ((r = axis_arg(c, cmd, argv[a], v, axes, alen)) != 0) {
            if (r < 0) return 2;
            a++;
        } else {
            fprintf(stderr, "ch%s %s: bad option '%s' (see: ch%s help)\n", c->id, cmd, argv[a], c->id);
            return 2;
        }
    }
    return 0;
}

static int cmd_demo(const kit_chapter *c, int argc, char **argv)
{
    const kit_device *d;
    size_t n = c->demo_n, l;
    const char *input = NULL;
    char why[KIT_MSG], axes[512] = "";
    double copy_gbps = 0;
    kit_bench shape_src;
    cudaStream_t s;
    cudaError_t e;
    int status = 0;

    if (shape_args(c, "demo", argc, argv, &n, &input, axes, sizeof axes)) return 2;
    if (!kit_gpu_available(why, sizeof why)) {
        fprintf(stderr, "ch%s demo: %s: the demo times GPU steps and needs one\n", c->id, why);
        return 2;
    }
    if ((e = kit_device_get(&d)) != cudaSuccess || (e = cudaStreamCreate(&s)) != cudaSuccess ||
        (e = kit_copy_probe((size_t)1 << 26, s, 10, &copy_gbps)) != cudaSuccess) {
        fprintf(stderr, "ch%s demo: %s\n", c->id, cudaGetErrorString(e));
        return 1;
    }
    memset(&shape_src, 0, sizeof shape_src);
    shape_src.axes = axes[0] ? axes : NULL;
    for (l = 0; l < nmain(c) && status != 1; l++) {
        const kit_shape sh = kit_bench_shape(&shape_src, c->ladders[l]->P, n);
        int r = demo_ladder(c, c->ladders[l], &sh, input, s, copy_gbps, d);
        if (r > status) status = r;
    }
    cudaStreamDestroy(s);
    return status;
}

/* ---------------------------------------------------------------- profile */

/* Run every step of the main ladders once (its verified run) at one size, for a
 * profiler (make profile wraps this in Nsight Compute). */
static int cmd_profile(const kit_chapter *c, int argc, char **argv)
{
    size_t n = c->demo_n, i, l;
    const char *input = NULL;
    char why[KIT_MSG], msg[KIT_MSG], axes[512] = "";
    kit_bench shape_src;
    cudaError_t e;
    int bad = 0;
    if (shape_args(c, "profile", argc, argv, &n, &input, axes, sizeof axes)) return 2;
    if (!kit_gpu_available(why, sizeof why)) {
        fprintf(stderr, "ch%s profile: %s\n", c->id, why);
        return 2;
    }
    memset(&shape_src, 0, sizeof shape_src);
    shape_src.axes = axes[0] ? axes : NULL;
    for (l = 0; l < nmain(c); l++) {
        const kit_ladder *L = c->ladders[l];
        const kit_shape sh = kit_bench_shape(&shape_src, L->P, n);
        const kit_input *in = input ? kit_input_find(L->P, input) : &L->P->inputs[0];
        kit_ctx *ctx = NULL;
        if (!in) continue;
        if ((e = kit_ctx_new(L, &sh, in, 0x9F0Fu, 1, &ctx)) != cudaSuccess) {
            fprintf(stderr, "ch%s profile %s: %s\n", c->id, L->id, cudaGetErrorString(e));
            kit_ctx_free(ctx);
            return 1;
        }
        for (i = 0; i < L->count; i++) {
            int ok = 0;
            e = kit_ctx_check(ctx, i, 0, &ok, msg, sizeof msg);
            printf("%-10s %-18s %s\n", L->id, L->step(L, i)->name,
                   e != cudaSuccess ? cudaGetErrorString(e) : ok ? "ok" : msg);
            bad |= e != cudaSuccess || (!ok && !(L->step(L, i)->flags & KIT_TIMING_ONLY));
        }
        kit_ctx_free(ctx);
    }
    return bad;
}

/* --------------------------------------------------------------- sanitize */

/* Every step of every table under the contract (offset pointers, guards, exact scratch,
 * dirty scratch) at small odd sizes, every input of the main ladders' problems at the
 * first sizes, and every argument case of the tables' headers (allowed NULLs and aliases,
 * refusals) at every shape the case lists: what compute-sanitizer watches (make sanitize). */
static int cmd_sanitize(const kit_chapter *c)
{
    static const size_t main_sizes[] = {0, 1, 31, 33, 1025, 65543};
    static const size_t tune_sizes[] = {33, 4101};
    char why[KIT_MSG], msg[KIT_MSG];
    size_t l, i, k, x, checked = 0, bad = 0, skipped = 0;
    const char *why_not;
    if (!kit_gpu_available(why, sizeof why)) {
        fprintf(stderr, "ch%s sanitize: %s\n", c->id, why);
        return 2;
    }
    for (l = 0; l < c->nladders; l++) {
        const kit_ladder *L = c->ladders[l];
        const int main_ladder = l < nmain(c);
        const size_t *sizes = main_ladder ? main_sizes : tune_sizes;
        const size_t nsizes = main_ladder ? sizeof main_sizes / sizeof *sizes : sizeof tune_sizes / sizeof *sizes;
        for (i = 0; i < L->count; i++)
            for (k = 0; k < nsizes; k++)
                for (x = 0; x < (main_ladder && k == 2 ? L->P->ninputs : 1); x++) {
                    const kit_shape sh = kit_shape_default(L->P, sizes[k]);
                    kit_contract_opts o = {(size_t)(k & 1), (size_t)(k % 3), 0, 0, 0, (int)(k & 1)};
                    int ok = 0;
                    cudaError_t e;
                    if (sh.n > kit_step_max_n(L, i) || (L->step(L, i)->flags & KIT_TIMING_ONLY)) continue;
                    e = kit_contract_step(L, i, &sh, &L->P->inputs[x], 77 + k, &o, &ok, msg, sizeof msg);
                    if (e != cudaSuccess && (why_not = kit_unsupported())) { /* not on this GPU: said, not run */
                        skipped++;
                        fprintf(stderr, "ch%s %s %s skipped: cannot run on this GPU: %s\n", c->id, L->id,
                                L->step(L, i)->name, why_not);
                        kit_recover();
                        continue;
                    }
                    checked++;
                    if (e != cudaSuccess || !ok) {
                        bad++;
                        fprintf(stderr, "ch%s %s\n", c->id, msg);
                        if (e != cudaSuccess && !kit_recover()) return 1;
                    }
                }
        /* the header's argument cases (kit_arg_case) at n = 33, every shape of each */
        for (i = 0; i < L->count; i++)
            for (k = 0; k < L->ncases; k++) {
                const kit_shape base = kit_shape_default(L->P, 33);
                kit_shape sh;
                int j;
                if (!kit_case_applies(L, i, k) || base.n > kit_step_max_n(L, i) ||
                    (L->step(L, i)->flags & KIT_TIMING_ONLY))
                    continue;
                for (j = 0; kit_case_shape(L, k, j, &base, &sh); j++) {
                    const kit_contract_opts o = {(size_t)(j & 1), (size_t)(j % 3), 0, 0, (int)k + 1, j & 1};
                    int ok = 0;
                    const cudaError_t e = kit_contract_step(L, i, &sh, &L->P->inputs[0], 91 + (uint64_t)j, &o, &ok,
                                                            msg, sizeof msg);
                    if (e != cudaSuccess && (why_not = kit_unsupported())) {
                        skipped++;
                        kit_recover();
                        continue;
                    }
                    checked++;
                    if (e != cudaSuccess || !ok) {
                        bad++;
                        fprintf(stderr, "ch%s %s\n", c->id, msg);
                        if (e != cudaSuccess && !kit_recover()) return 1;
                    }
                }
            }
    }
    printf("ch%s sanitize: %zu step runs verified, %zu failed, %zu skipped (cannot run on this GPU)\n", c->id, checked,
           bad, skipped);
    return bad ? 1 : 0;
}

int kit_chapter_main(const kit_chapter *c, int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    int bad = 0;
    const kit_profile *prof = kit_profile_active(&bad);
    if (bad) {
        size_t i;
        fprintf(stderr, "ch%s: KIT_DEVICE=%s: no such device profile (have:", c->id, getenv("KIT_DEVICE"));
        for (i = 0; i < kit_nprofiles; i++) fprintf(stderr, " %s", kit_profiles[i].name);
        fprintf(stderr, ")\n");
        return 2;
    }
    if (prof && cmd && strcmp(cmd, "steps") && strcmp(cmd, "help"))
        fprintf(stderr, "ch%s: device profile KIT_DEVICE=%s: launches sized for a %s on this GPU\n", c->id, prof->name,
                prof->gpu);
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
