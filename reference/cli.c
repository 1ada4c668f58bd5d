/* cli.c - the command line shared by every chapter program (build/.../bin/chNN):
 *   chNN steps [--markdown]     the step tables (feeds the README tables)
 *   chNN bench [options]        experiments -> CSV files
 *   chNN demo [--n SIZE]        the ladder at one size as a table (and the ladder figure's data)
 *   chNN walk [--from STEP]     presenter mode: one step at a time, its lesson and its deltas
 *   chNN sanitize [--step NAME] every step of every table (or NAME's rows) at small odd sizes
 *                               (run under compute-sanitizer by `make sanitize`)
 *   chNN profile [--n SIZE]     every step once (run under Nsight Compute by `make profile`)
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "kit.h"

#include <errno.h>
#include <stdarg.h>
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
            "        [--max-log2 K] [--cpu measure|cached|none] [--AXIS VALUE]\n"
            "                          run experiments, write one CSV each into DIR ({gpu} in DIR:\n"
            "                          the GPU's name); CPU rows: cached (default: a time measured\n"
            "                          before on this machine and build, or scaled from a smaller\n"
            "                          size where measuring would take long), measure, none\n"
            "  demo [--n SIZE] [--input NAME] [--AXIS VALUE] [--cpu cached|measure|none]\n"
            "                          time and verify the ladder at one size (default %zu);\n"
            "                          CPU rows cached per machine and build unless --cpu measure\n"
            "  walk [demo's options] [--from STEP | --step STEP] [--auto]\n"
            "                          one step at a time: its lesson, then it against the step\n"
            "                          before and the yardsticks; Enter for the next (--auto: no wait)\n"
            "  sanitize [--step NAME]  verify every step (or the rows of one) at small sizes (for\n"
            "                          compute-sanitizer)\n"
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

/* --cpu measure|cached|none: its kit_cpu_mode, or -1 (said) */
static int cpu_mode_arg(const kit_chapter *c, const char *cmd, const char *v)
{
    if (v && !strcmp(v, "cached")) return KIT_CPU_CACHED;
    if (v && !strcmp(v, "measure")) return KIT_CPU_MEASURE;
    if (v && !strcmp(v, "none")) return KIT_CPU_NONE;
    fprintf(stderr, "ch%s %s: --cpu takes measure, cached or none (%s%s%s)\n", c->id, cmd, v ? "got '" : "no value given",
            v ? v : "", v ? "'" : "");
    return -1;
}

/* out with every "{gpu}" replaced by the GPU's name as a folder name: lower case, each run of
 * other characters one '-' (NVIDIA H100 80GB HBM3 -> nvidia-h100-80gb-hbm3) */
static void gpu_out(char *dst, size_t len, const char *out, const char *gpu)
{
    char slug[256];
    size_t k = 0, i, at = 0;
    const char *p;
    for (i = 0; gpu[i] && k + 1 < sizeof slug; i++) {
        const char ch = gpu[i];
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) slug[k++] = ch;
        else if (ch >= 'A' && ch <= 'Z') slug[k++] = (char)(ch - 'A' + 'a');
        else if (k && slug[k - 1] != '-') slug[k++] = '-';
    }
    while (k && slug[k - 1] == '-') k--;
    slug[k] = '\0';
    if (!k) snprintf(slug, sizeof slug, "gpu");
    dst[0] = '\0';
    for (p = out; *p && at + 1 < len;) {
        if (!strncmp(p, "{gpu}", 5)) {
            at += (size_t)snprintf(dst + at, len - at, "%s", slug);
            p += 5;
        } else {
            dst[at++] = *p++;
            dst[at] = '\0';
        }
        if (at >= len) at = len - 1;
    }
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
            if ((b.cpu_mode = cpu_mode_arg(c, "bench", v)) < 0) return 2;
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
        if (b.max_log2 > 24) b.max_log2 = 24; /* about a minute for the seven chapters (README) */
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
        if (out) gpu_out(outdir, sizeof outdir, out, d->name);
        else snprintf(outdir, sizeof outdir, "plots");
        fprintf(stderr, "ch%s bench on %s (%d SMs, L2 %zu MB): cudaMemcpy D2D %.0f GB/s -> %s/\n",
                c->id, d->name, d->sms, d->l2_bytes >> 20, b.copy_gbps, outdir);
    } else {
        /* never overwrite GPU results with CPU-only ones: --out is taken unless it is plots/ */
        if (out && !in_plots(out) && !strstr(out, "{gpu}")) snprintf(outdir, sizeof outdir, "%s", out);
        else snprintf(outdir, sizeof outdir, "build/cpu-only/%s", c->dir);
        if (out && in_plots(out))
            fprintf(stderr, "ch%s bench: %s: not writing CPU-only rows into %s (the committed GPU results "
                    "stay)\n", c->id, why, out);
        fprintf(stderr, "ch%s bench: %s: timing the CPU baselines only, into %s/\n", c->id, why,
                outdir);
    }
    if (kit_mkdirs(outdir) != 0) {
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

/* Progress of long work on a terminal (one rewritten line on stderr); nothing when stderr is
 * not a terminal, so piped output stays the table alone. */
static int g_tty;
static double g_t0;

static void note(const char *fmt, ...)
{
    va_list ap;
    if (!g_tty) return;
    fprintf(stderr, "\r\033[K[%5.1f s] ", kit_wall_seconds() - g_t0);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
}

static void note_done(void)
{
    if (g_tty) fputs("\r\033[K", stderr);
}

/* one row of the ladder picture */
enum { ROW_CPU, ROW_STEP, ROW_YARD };
typedef struct demo_row {
    char name[64];
    int kind;
    double ms, gbps; /* gbps 0: no bar (absent, skipped, failed) */
    char mark[48];   /* "", "cached <the date measured>", "est." */
} demo_row;
#define DEMO_ROWS 96

/* One step measured: the table's columns, 0 or a status (1 fatal: the context is lost) */
typedef struct step_meas {
    int done, ok, unsupported, error, status;
    double ms, gbps;
    char regs[16], smem[16], occ[16], msg[KIT_MSG], why[KIT_MSG];
    kit_timing t[KIT_MAX_PHASES];
} step_meas;

static void measure_step(kit_ctx *ctx, const kit_ladder *L, size_t i, cudaStream_t s, step_meas *m)
{
    const kit_step_info *si = L->step(L, i);
    const int nph = kit_nphases(L->P);
    kit_kernel_desc kd = {0};
    struct cudaFuncAttributes fa;
    cudaError_t e;
    int ph, blocks = 0;
    memset(m, 0, sizeof *m);
    m->done = 1;
    snprintf(m->regs, sizeof m->regs, "-");
    snprintf(m->smem, sizeof m->smem, "-");
    snprintf(m->occ, sizeof m->occ, "-");
    e = kit_ladder_measure(ctx, i, s, WARMUP, REPS, m->t, &m->ok, m->msg, sizeof m->msg);
    if (e != cudaSuccess) {
        const char *why = kit_unsupported();
        if (why) {
            m->unsupported = 1;
            snprintf(m->why, sizeof m->why, "%s", why);
        } else {
            m->error = 1;
            snprintf(m->why, sizeof m->why, "%s", cudaGetErrorString(e));
            m->status = 3;
        }
        if (!kit_recover()) m->status = 1;
        return;
    }
    for (ph = 0; ph < nph; ph++) m->ms += m->t[ph].ms_median;
    if (si->describe && si->describe(&kd) == cudaSuccess && kd.func && cudaFuncGetAttributes(&fa, kd.func) == cudaSuccess) {
        snprintf(m->regs, sizeof m->regs, "%d", fa.numRegs);
        snprintf(m->smem, sizeof m->smem, "%zu", fa.sharedSizeBytes + kd.dyn_smem);
        if (kit_occupancy(&blocks, kd.func, kd.block_threads, kd.dyn_smem) == cudaSuccess)
            snprintf(m->occ, sizeof m->occ, "%d", blocks);
    }
    cudaGetLastError();
    m->gbps = kit_ctx_bytes(ctx, i) / (m->ms * 1e6);
    if (!m->ok && !(si->flags & KIT_TIMING_ONLY)) m->status = 3;
}

static const char *verdict(const kit_step_info *si, const step_meas *m)
{
    return m->ok ? "ok" : (si->flags & KIT_TIMING_ONLY) ? "timing" : "FAILED";
}

/* a row of the ladder picture (the rows past DEMO_ROWS are left out) */
static void push_row(demo_row *rows, size_t *nr, const char *name, int kind, double ms, double gbps, const char *mark)
{
    demo_row *r;
    if (*nr >= DEMO_ROWS) return;
    r = &rows[(*nr)++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->kind = kind;
    r->ms = ms;
    r->gbps = gbps;
    snprintf(r->mark, sizeof r->mark, "%s", mark);
}

/* a measured step's row: no bar where it did not run or failed its check, and the reason under it */
static void push_step_row(demo_row *rows, size_t *nr, const kit_step_info *si, const step_meas *m)
{
    const char *mark = m->unsupported ? "skipped on this GPU" : m->error ? "CUDA error"
                       : m->status == 3 ? "FAILED verification" : "";
    push_row(rows, nr, si->name, si->kind == KIT_STEP_YARDSTICK ? ROW_YARD : ROW_STEP, m->ms, mark[0] ? 0 : m->gbps,
             mark);
}

/* The ladder as a text chart (the projector without a display): a bar per row, '|' at the copy
 * bandwidth and ':' at the best yardstick */
static void text_chart(const char *title, const demo_row *r, size_t nr, double copy_gbps, const char *unit)
{
    const int W = 48;
    double top = copy_gbps, yard = 0;
    size_t k;
    for (k = 0; k < nr; k++) {
        if (r[k].gbps > top) top = r[k].gbps;
        if (r[k].kind == ROW_YARD && r[k].gbps > yard) yard = r[k].gbps;
    }
    if (top <= 0) return;
    printf("%s (%s; '|' cudaMemcpy %.0f GB/s%s)\n", title, unit, copy_gbps, yard > 0 ? ", ':' best yardstick" : "");
    for (k = 0; k < nr; k++) {
        char bar[64];
        const int len = (int)(r[k].gbps / top * W + 0.5);
        const int cpos = (int)(copy_gbps / top * W + 0.5), ypos = yard > 0 ? (int)(yard / top * W + 0.5) : -1;
        int x;
        for (x = 0; x <= W; x++) bar[x] = x < len ? (r[k].kind == ROW_CPU ? '-' : r[k].kind == ROW_YARD ? '=' : '#') : ' ';
        if (cpos >= 0 && cpos <= W) bar[cpos] = '|';
        if (ypos >= 0 && ypos <= W && ypos != cpos) bar[ypos] = ':';
        bar[W + 1] = '\0';
        if (r[k].gbps > 0)
            printf("  %-18s %s %8.1f GB/s %5.1f%%%s%s\n", r[k].name, bar, r[k].gbps, 100.0 * r[k].gbps / copy_gbps,
                   r[k].mark[0] ? "  " : "", r[k].mark);
        else
            printf("  %-18s %s %s\n", r[k].name, bar, r[k].mark[0] ? r[k].mark : "not run");
    }
    printf("\n");
}

/* build/demo/chNN.csv (or $BUILDROOT/demo): the rows of every ladder shown, for the ladder
 * figure (reference/demo.gp, drawn by make demo and make walk) */
static FILE *g_fig;

static void figure_open(const kit_chapter *c, const char *what)
{
    const char *root = getenv("BUILDROOT");
    char dir[1024], path[1100];
    snprintf(dir, sizeof dir, "%s/demo", root && *root ? root : "build");
    snprintf(path, sizeof path, "%s/ch%s.csv", dir, c->id);
    if (kit_mkdirs(dir) != 0 || !(g_fig = fopen(path, "w"))) {
        fprintf(stderr, "ch%s %s: cannot write %s: %s (no figure)\n", c->id, what, path, strerror(errno));
        g_fig = NULL;
        return;
    }
    fprintf(g_fig, "ladder,title,kind,step,ms,gbps,pct_copy,mark,copy_gbps,gpu,n\n");
}

/* a free-text field of the figure's CSV: its commas become semicolons (the CSV is read unquoted) */
static void csv_plain(char *dst, size_t size, const char *src)
{
    size_t k;
    snprintf(dst, size, "%s", src);
    for (k = 0; dst[k]; k++)
        if (dst[k] == ',') dst[k] = ';';
}

static void figure_rows(const kit_ladder *L, const demo_row *r, size_t nr, double copy_gbps, const char *gpu,
                        size_t n)
{
    static const char *kinds[] = {"cpu", "step", "yardstick"};
    size_t k;
    char g[256], t[256], m[sizeof r->mark];
    if (!g_fig) return;
    csv_plain(g, sizeof g, gpu);
    csv_plain(t, sizeof t, L->title); /* "LSD radix sort, 32-bit keys": a comma would shift every column */
    for (k = 0; k < nr; k++) {
        csv_plain(m, sizeof m, r[k].mark[0] ? r[k].mark : "-");
        fprintf(g_fig, "%s,%s,%s,%s,%.6f,%.3f,%.2f,%s,%.1f,%s,%zu\n", L->id, t, kinds[r[k].kind], r[k].name, r[k].ms,
                r[k].gbps, copy_gbps > 0 ? 100.0 * r[k].gbps / copy_gbps : 0, m, copy_gbps, g, n);
    }
}

static void figure_close(void)
{
    if (g_fig) fclose(g_fig);
    g_fig = NULL;
}

static int no_display(void)
{
    const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return !(d && *d) && !(w && *w);
}

/* the CPU rows of a ladder (demo and walk): printed, and their picture rows added */
static void cpu_rows_print(const kit_chapter *c, kit_ctx *ctx, const kit_problem *P, const kit_shape *sh, int mode,
                          double bytes, double items, double copy_gbps, double *cpu_ms, demo_row *rows, size_t *nr,
                          int counts[4])
{
    size_t a;
    char sz[32];
    for (a = 0; a < P->ncpu; a++) {
        const kit_cpu *u = &P->cpu[a];
        const char *param = u->param ? u->param : "serial CPU baseline";
        char name[64], mark[48];
        kit_cpu_time ct;
        double guess;
        if (u->max_n && sh->n > u->max_n) continue;
        snprintf(name, sizeof name, "cpu-%s", u->name);
        if (!u->run || mode == KIT_CPU_NONE) {
            printf("%-18s %9s %8s %6s %10s %7s %8s %4s %7s %6s %-8s %s\n", name, "-", "-", "-", "-", "", "", "", "", "",
                   u->run ? "not run" : "absent", u->run ? "--cpu none" : param);
            continue;
        }
        guess = mode == KIT_CPU_CACHED ? kit_ctx_cpu_guess(ctx, c->id, (int)a) : 0;
        if (guess > 0) note("%s: timing one core at n = %s (about %.0f s; kept in %s afterwards)", name,
                            kit_size_str(sh->n, sz, sizeof sz), guess, kit_cpu_cache_path());
        else note("%s: at n = %s", name, kit_size_str(sh->n, sz, sizeof sz));
        kit_ctx_cpu_row(ctx, c->id, (int)a, mode, 3, 1e30, &ct);
        note_done();
        counts[ct.how]++;
        kit_cpu_mark(&ct, mark, sizeof mark);
        if (*cpu_ms == 0) *cpu_ms = ct.t.ms_median; /* speed-ups are against the first baseline timed */
        printf("%-18s %9.4f %8.1f %6.1f %10.3f %7s %8.1f %4s %7s %6s %-8s %s%s%s%s%s\n", name, ct.t.ms_median,
               bytes / (ct.t.ms_median * 1e6), 100.0 * bytes / (ct.t.ms_median * 1e6) / copy_gbps,
               items / (ct.t.ms_median * 1e6), "", *cpu_ms / ct.t.ms_median, "", "", "",
               ct.how == KIT_CPU_FROM_CACHE ? "cached" : ct.how == KIT_CPU_ESTIMATED ? "est." : "ok", param,
               u->phase ? ", phase " : "", u->phase ? u->phase : "", mark[0] ? " - " : "", mark);
        push_row(rows, nr, name, ROW_CPU, ct.t.ms_median, bytes / (ct.t.ms_median * 1e6), mark);
    }
}

static void cpu_footer(const int counts[4])
{
    if (counts[KIT_CPU_FROM_CACHE] || counts[KIT_CPU_ESTIMATED])
        printf("CPU rows: %d measured now, %d cached (measured earlier on this machine by this build: %s), %d est. "
               "(scaled from a smaller size by the baseline's cost model); --cpu measure times them all now\n",
               counts[KIT_CPU_MEASURED], counts[KIT_CPU_FROM_CACHE], kit_cpu_cache_path(), counts[KIT_CPU_ESTIMATED]);
}

/* the context of a demo or walk (inputs, the CPU reference, the device copies), said on a terminal;
 * NULL after a message when it cannot be made */
static kit_ctx *show_ctx(const kit_chapter *c, const char *cmd, const kit_ladder *L, const kit_shape *sh,
                         const kit_input *in)
{
    char sz[32];
    kit_ctx *ctx = NULL;
    cudaError_t e;
    note("%s: inputs and the CPU reference at n = %s", L->id, kit_size_str(sh->n, sz, sizeof sz));
    e = kit_ctx_new(L, sh, in, 0xDE30u, kit_rotations(L->bytes(L, 0, sh)), &ctx);
    note_done();
    if (e == cudaSuccess) return ctx;
    fprintf(stderr, "ch%s %s %s: %s\n", c->id, cmd, L->id, cudaGetErrorString(e));
    kit_ctx_free(ctx);
    return NULL;
}

/* the options of demo and walk (walk's own: autorun, from, only) */
typedef struct show_opts {
    int cpu_mode, autorun;
    const char *from, *only;
} show_opts;

/* One ladder's demo table at shape sh on input in (NULL: the problem's first, or skip
 * when the name is not one of this problem's); 0, 3 (a step failed) or 1 (CUDA error). */
static int demo_ladder(const kit_chapter *c, const kit_ladder *L, const kit_shape *sh,
                       const char *input, cudaStream_t s, double copy_gbps, const kit_device *d,
                       const show_opts *o)
{
    const kit_problem *P = L->P;
    const kit_input *in = input ? kit_input_find(P, input) : &P->inputs[0];
    char sz[32], shape[256];
    double cpu_ms = 0, prev_ms = 0, bytes = L->bytes(L, 0, sh);
    const double items = P->items ? P->items(P, sh) : (double)sh->n;
    const int nph = kit_nphases(P);
    kit_ctx *ctx = NULL;
    size_t i, nr = 0, nsteps = 0, k = 0;
    int failed = 0, ph, counts[4] = {0, 0, 0, 0};
    demo_row rows[DEMO_ROWS];

    if (!in) return 0;
    if (!(ctx = show_ctx(c, "demo", L, sh, in))) return 1;
    bytes = kit_ctx_bytes(ctx, 0); /* on this input, when the traffic depends on the data */
    printf("Chapter %s (%s), %s, on %s, n = %s%s%s, input %s, %.2f MB moved per run by the first "
           "step; cudaMemcpy D2D = %.0f GB/s\n\n",
           c->id, c->title, L->title, d->name, kit_size_str(sh->n, sz, sizeof sz),
           P->naxes ? " " : "", kit_shape_str(P, sh, shape, sizeof shape), in->name, bytes / 1e6,
           copy_gbps);
    printf("%-18s %9s %8s %6s %10s %7s %8s %4s %7s %6s %-8s %s\n", "step", "ms", "GB/s", "%copy",
           "G items/s", "x prev", "x CPU", "regs", "smem/B", "blk/SM", "verified", "what changed");
    fflush(stdout);
    cpu_rows_print(c, ctx, P, sh, o->cpu_mode, bytes, items, copy_gbps, &cpu_ms, rows, &nr, counts);
    for (i = 0; i < L->count; i++)
        if (sh->n <= kit_step_max_n(L, i)) nsteps++;
    for (i = 0; i < L->count; i++) {
        const kit_step_info *si = L->step(L, i);
        char xprev[16] = "", xcpu[16] = "";
        step_meas m;
        if (sh->n > kit_step_max_n(L, i)) continue;
        note("step %zu of %zu: %s", ++k, nsteps, si->name);
        measure_step(ctx, L, i, s, &m);
        note_done();
        push_step_row(rows, &nr, si, &m);
        if (m.unsupported || m.error) {
            if (m.unsupported) printf("%-18s skipped: cannot run on this GPU: %s\n", si->name, m.why);
            else printf("%-18s CUDA error: %s\n", si->name, m.why);
            if (m.status > failed) failed = m.status;
            if (m.status == 1) break;
            continue;
        }
        if (prev_ms > 0) snprintf(xprev, sizeof xprev, "%.2f", prev_ms / m.ms);
        if (cpu_ms > 0) snprintf(xcpu, sizeof xcpu, "%.1f", cpu_ms / m.ms);
        printf("%-18s %9.4f %8.1f %6.1f %10.3f %7s %8s %4s %7s %6s %-8s %s\n", si->name, m.ms, m.gbps,
               100.0 * m.gbps / copy_gbps, items / (m.ms * 1e6), xprev, xcpu, m.regs, m.smem, m.occ, verdict(si, &m),
               si->what);
        fflush(stdout);
        if (nph > 1)
            for (ph = 0; ph < nph; ph++)
                printf("%18s   %-8s %9.4f ms\n", "", kit_phase_name(P, ph), m.t[ph].ms_median);
        if (m.status == 3) {
            printf("%18s   %s\n", "", m.msg);
            failed = 3;
        }
        if (si->kind == KIT_STEP_GPU) prev_ms = m.ms;
    }
    kit_ctx_free(ctx);
    cpu_footer(counts);
    printf("\n");
    if (no_display()) text_chart(L->title, rows, nr, copy_gbps, "GB/s: bytes moved / time");
    figure_rows(L, rows, nr, copy_gbps, d->name, sh->n);
    return failed;
}

/* ------------------------------------------------------------------- walk */

/* The lesson of a step: the opening comment of its source file (the one source), from its first
 * line to the end of "What still limits it" (later paragraphs are technical notes), without the
 * comment's decoration.  0 when the file cannot be read. */
static int print_lesson(const char *file)
{
    FILE *f = file ? fopen(file, "r") : NULL;
    char line[1024];
    int in = 0, limits = 0, printed = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        char *t = line, *end;
        line[strcspn(line, "\n")] = '\0';
        if (!in) {
            if (!(t = strstr(line, "/*"))) continue;
            in = 1;
            t += 2;
        }
        end = strstr(t, "*/");
        if (end) *end = '\0';
        while (*t == ' ') t++;
        if (*t == '*' && t[1] != '/') t++;
        if (*t == ' ') t++;
        {
            /* a new paragraph "Heading: ..." after the limits ends the lesson */
            const char *colon = strchr(t, ':'), *comma = strchr(t, ',');
            const int heading = t[0] >= 'A' && t[0] <= 'Z' && colon && colon - t < 40 && (!comma || comma > colon);
            if (limits && heading && strncmp(t, "What still", 10)) break;
            if (!strncmp(t, "What still limits", 17)) limits = 1;
        }
        if (printed < 60) printf("  %s\n", t);
        printed++;
        if (end) break;
    }
    fclose(f);
    return printed > 0;
}

/* 1 when the answer is to stop */
static int wait_enter(int autorun)
{
    char buf[64];
    if (autorun || !isatty(0)) return 0;
    fprintf(stderr, "-- Enter: next step, q: stop -- ");
    fflush(stderr);
    if (!fgets(buf, sizeof buf, stdin)) return 1;
    return buf[0] == 'q' || buf[0] == 'Q';
}

static size_t step_index(const kit_ladder *L, const char *name)
{
    size_t i;
    for (i = 0; i < L->count; i++)
        if (!strcmp(L->step(L, i)->name, name)) return i;
    return (size_t)-1;
}

static void walk_line(const char *label, const step_meas *m, double copy_gbps, double base_ms, const char *verdict_s)
{
    char x[16] = "";
    if (!m->done || m->unsupported || m->error) {
        printf("  %-22s %s\n", label, m->done ? m->why : "not run");
        return;
    }
    if (base_ms > 0) snprintf(x, sizeof x, "%.2fx", base_ms / m->ms);
    printf("  %-22s %9.4f ms %8.1f GB/s %6.1f %% of copy %8s  %s\n", label, m->ms, m->gbps, 100.0 * m->gbps / copy_gbps,
           x, verdict_s);
}

/* The presenter's walk through one ladder: for each step from o->from (or o->only alone) its
 * lesson, then the step against its predecessor and the yardsticks at the same size. */
static int walk_ladder(const kit_chapter *c, const kit_ladder *L, const kit_shape *sh, const char *input,
                       cudaStream_t s, double copy_gbps, const kit_device *d, const show_opts *o, int *stop)
{
    const kit_problem *P = L->P;
    const kit_input *in = input ? kit_input_find(P, input) : &P->inputs[0];
    char sz[32], shape[256], label[64];
    double bytes = L->bytes(L, 0, sh), cpu_ms = 0;
    const double items = P->items ? P->items(P, sh) : (double)sh->n;
    kit_ctx *ctx = NULL;
    step_meas *m;
    size_t i, first = 0, ngpu = 0, k = 0, nr = 0;
    int status = 0, counts[4] = {0, 0, 0, 0};
    demo_row rows[DEMO_ROWS];

    if (!in) return 0;
    if (o->from && (first = step_index(L, o->from)) == (size_t)-1) return 0;
    if (o->only && step_index(L, o->only) == (size_t)-1) return 0;
    m = (step_meas *)calloc(L->count, sizeof *m);
    if (!m) return 1;
    if (!(ctx = show_ctx(c, "walk", L, sh, in))) {
        free(m);
        return 1;
    }
    bytes = kit_ctx_bytes(ctx, 0);
    printf("Chapter %s (%s), %s: a walk up the ladder on %s, n = %s%s%s, input %s; cudaMemcpy D2D = %.0f GB/s\n\n",
           c->id, c->title, L->title, d->name, kit_size_str(sh->n, sz, sizeof sz), P->naxes ? " " : "",
           kit_shape_str(P, sh, shape, sizeof shape), in->name, copy_gbps);
    printf("The serial CPU baseline%s:\n", P->ncpu > 1 ? "s" : "");
    printf("%-18s %9s %8s %6s %10s %7s %8s %4s %7s %6s %-8s %s\n", "", "ms", "GB/s", "%copy", "G items/s", "", "x CPU",
           "", "", "", "", "");
    cpu_rows_print(c, ctx, P, sh, o->cpu_mode, bytes, items, copy_gbps, &cpu_ms, rows, &nr, counts);
    cpu_footer(counts);
    printf("\n");
    /* the yardsticks first: every step is shown against them */
    for (i = 0; i < L->count; i++)
        if (L->step(L, i)->kind == KIT_STEP_YARDSTICK && sh->n <= kit_step_max_n(L, i)) {
            note("yardstick %s", L->step(L, i)->name);
            measure_step(ctx, L, i, s, &m[i]);
            note_done();
            if (m[i].status == 1) status = 1;
        }
    for (i = 0; i < L->count; i++)
        if (L->step(L, i)->kind == KIT_STEP_GPU) ngpu++;
    for (i = 0; i < L->count && status != 1 && !*stop; i++) {
        const kit_step_info *si = L->step(L, i);
        size_t prev = (size_t)-1, j;
        if (si->kind != KIT_STEP_GPU) continue;
        k++;
        if (i < first || (o->only && strcmp(si->name, o->only))) continue;
        if (sh->n > kit_step_max_n(L, i)) continue;
        for (j = i; j-- > 0;)
            if (L->step(L, j)->kind == KIT_STEP_GPU && sh->n <= kit_step_max_n(L, j)) {
                prev = j;
                break;
            }
        printf("=== step %zu of %zu: %s - %s (%s)\n", k, ngpu, si->name, si->what, si->file ? si->file : "");
        if (!print_lesson(si->file)) printf("  (%s: not found from here; run from the kit's root)\n", si->file);
        printf("\n");
        if (prev != (size_t)-1 && !m[prev].done) {
            note("%s (the step before)", L->step(L, prev)->name);
            measure_step(ctx, L, prev, s, &m[prev]);
            note_done();
        }
        note("%s", si->name);
        measure_step(ctx, L, i, s, &m[i]);
        note_done();
        if (m[i].status > status) status = m[i].status;
        if (prev != (size_t)-1) {
            snprintf(label, sizeof label, "before: %s", L->step(L, prev)->name);
            walk_line(label, &m[prev], copy_gbps, 0, verdict(L->step(L, prev), &m[prev]));
        }
        snprintf(label, sizeof label, "now:    %s", si->name);
        walk_line(label, &m[i], copy_gbps, prev != (size_t)-1 && m[prev].ms > 0 ? m[prev].ms : 0, verdict(si, &m[i]));
        for (j = 0; j < L->count; j++)
            if (L->step(L, j)->kind == KIT_STEP_YARDSTICK && m[j].done) {
                snprintf(label, sizeof label, "yardstick: %s", L->step(L, j)->name);
                walk_line(label, &m[j], copy_gbps, 0, verdict(L->step(L, j), &m[j]));
            }
        if (m[i].done && !m[i].unsupported && !m[i].error) {
            printf("  => %s%.2fx the step before", prev != (size_t)-1 && m[prev].ms > 0 ? "" : "(first step) ",
                   prev != (size_t)-1 && m[prev].ms > 0 ? m[prev].ms / m[i].ms : 1.0);
            if (cpu_ms > 0) printf(", %.1fx the CPU", cpu_ms / m[i].ms);
            for (j = 0; j < L->count; j++)
                if (L->step(L, j)->kind == KIT_STEP_YARDSTICK && m[j].done && m[j].ms > 0)
                    printf(", %.2fx %s", m[j].ms / m[i].ms, L->step(L, j)->name);
            printf("; %s\n", m[i].ok ? "verified against the CPU reference" : verdict(si, &m[i]));
            if (m[i].status == 3) printf("  %s\n", m[i].msg);
        }
        printf("\n");
        fflush(stdout);
        if (wait_enter(o->autorun)) *stop = 1;
    }
    for (i = 0; i < L->count; i++) /* the picture: every step measured, then the yardsticks */
        if (m[i].done && L->step(L, i)->kind != KIT_STEP_YARDSTICK) push_step_row(rows, &nr, L->step(L, i), &m[i]);
    for (i = 0; i < L->count; i++)
        if (m[i].done && L->step(L, i)->kind == KIT_STEP_YARDSTICK) push_step_row(rows, &nr, L->step(L, i), &m[i]);
    if (no_display()) text_chart(L->title, rows, nr, copy_gbps, "GB/s: bytes moved / time");
    figure_rows(L, rows, nr, copy_gbps, d->name, sh->n);
    kit_ctx_free(ctx);
    free(m);
    return status;
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

/* demo's and walk's own options taken out of argv (the rest goes to shape_args); 0 or 2 */
static int take_opts(const kit_chapter *c, const char *cmd, int *argc, char **argv, int *cpu_mode, int *autorun,
                     const char **from, const char **only)
{
    int a, k = 0;
    for (a = 0; a < *argc; a++) {
        const char *v = a + 1 < *argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--cpu")) {
            if ((*cpu_mode = cpu_mode_arg(c, cmd, v)) < 0) return 2;
            a++;
        } else if (autorun && !strcmp(argv[a], "--auto")) {
            *autorun = 1;
        } else if (from && (!strcmp(argv[a], "--from") || !strcmp(argv[a], "--step"))) {
            if (!v || !*v) {
                fprintf(stderr, "ch%s %s: %s needs a step name (see: ch%s steps)\n", c->id, cmd, argv[a], c->id);
                return 2;
            }
            if (!strcmp(argv[a], "--from")) *from = v;
            else *only = v;
            a++;
        } else {
            argv[k++] = argv[a];
        }
    }
    *argc = k;
    return 0;
}

/* the chapter's main ladders hold a step of that name */
static int known_step(const kit_chapter *c, const char *name)
{
    size_t l;
    for (l = 0; l < nmain(c); l++)
        if (step_index(c->ladders[l], name) != (size_t)-1) return 1;
    return 0;
}

static int demo_or_walk(const kit_chapter *c, int argc, char **argv, int walk)
{
    const char *cmd = walk ? "walk" : "demo";
    const kit_device *d;
    size_t n = c->demo_n, l;
    const char *input = NULL;
    char why[KIT_MSG], axes[512] = "";
    double copy_gbps = 0;
    kit_bench shape_src;
    cudaStream_t s;
    cudaError_t e;
    int status = 0, stop = 0;
    show_opts o = {KIT_CPU_CACHED, 0, NULL, NULL};

    if (take_opts(c, cmd, &argc, argv, &o.cpu_mode, walk ? &o.autorun : NULL, walk ? &o.from : NULL, &o.only))
        return 2;
    if (shape_args(c, cmd, argc, argv, &n, &input, axes, sizeof axes)) return 2;
    if ((o.from && !known_step(c, o.from)) || (o.only && !known_step(c, o.only))) {
        fprintf(stderr, "ch%s walk: no step '%s' in the chapter's ladders (see: ch%s steps)\n", c->id,
                o.from ? o.from : o.only, c->id);
        return 2;
    }
    if (!kit_gpu_available(why, sizeof why)) {
        fprintf(stderr, "ch%s %s: %s: the %s times GPU steps and needs one\n", c->id, cmd, why, cmd);
        return 2;
    }
    g_tty = isatty(2);
    g_t0 = kit_wall_seconds();
    note("the GPU and its copy bandwidth");
    if ((e = kit_device_get(&d)) != cudaSuccess || (e = cudaStreamCreate(&s)) != cudaSuccess ||
        (e = kit_copy_probe((size_t)1 << 26, s, 10, &copy_gbps)) != cudaSuccess) {
        note_done();
        fprintf(stderr, "ch%s %s: %s\n", c->id, cmd, cudaGetErrorString(e));
        return 1;
    }
    note_done();
    figure_open(c, cmd);
    memset(&shape_src, 0, sizeof shape_src);
    shape_src.axes = axes[0] ? axes : NULL;
    for (l = 0; l < nmain(c) && status != 1 && !stop; l++) {
        const kit_shape sh = kit_bench_shape(&shape_src, c->ladders[l]->P, n);
        int r;
        if (walk && ((o.from && step_index(c->ladders[l], o.from) == (size_t)-1) ||
                     (o.only && step_index(c->ladders[l], o.only) == (size_t)-1)))
            continue; /* the named step is another ladder's */
        r = walk ? walk_ladder(c, c->ladders[l], &sh, input, s, copy_gbps, d, &o, &stop)
                 : demo_ladder(c, c->ladders[l], &sh, input, s, copy_gbps, d, &o);
        if (r > status) status = r;
    }
    figure_close();
    if (g_tty) fprintf(stderr, "ch%s %s: %.1f s\n", c->id, cmd, kit_wall_seconds() - g_t0);
    cudaStreamDestroy(s);
    return status;
}

static int cmd_demo(const kit_chapter *c, int argc, char **argv)
{
    return demo_or_walk(c, argc, argv, 0);
}

static int cmd_walk(const kit_chapter *c, int argc, char **argv)
{
    return demo_or_walk(c, argc, argv, 1);
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
static int cmd_sanitize(const kit_chapter *c, const char *only)
{
    static const size_t main_sizes[] = {0, 1, 31, 33, 1025, 4093, 20011, 65543};
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
                    if (sh.n > kit_step_max_n(L, i) || (L->step(L, i)->flags & KIT_TIMING_ONLY) ||
                        (only && strcmp(L->step(L, i)->name, only) != 0))
                        continue;
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
                    (L->step(L, i)->flags & KIT_TIMING_ONLY) || (only && strcmp(L->step(L, i)->name, only) != 0))
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
    if (!strcmp(cmd, "walk")) return cmd_walk(c, argc - 2, argv + 2);
    if (!strcmp(cmd, "sanitize") && argc == 2) return cmd_sanitize(c, NULL);
    if (!strcmp(cmd, "sanitize") && argc == 4 && !strcmp(argv[2], "--step")) return cmd_sanitize(c, argv[3]);
    if (!strcmp(cmd, "profile")) return cmd_profile(c, argc - 2, argv + 2);
    fprintf(stderr, "ch%s: unknown command '%s'\n\n", c->id, cmd);
    return usage(c, stderr);
}
