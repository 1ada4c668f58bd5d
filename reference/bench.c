/* bench.c - the CSV every experiment writes, progress on stderr, and the
 * copy-bandwidth probe behind the pct_copy column. */
#include "kit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static cudaError_t probe_launch(void *arg, int rep, cudaStream_t s)
{
    void **buf = (void **)arg;
    size_t bytes = *(size_t *)buf[2];
    (void)rep;
    return cudaMemcpyAsync(buf[1], buf[0], bytes, cudaMemcpyDeviceToDevice, s);
}

cudaError_t kit_copy_probe(size_t n, cudaStream_t s, int reps, double *gbps)
{
    void *src = NULL, *dst = NULL, *arg[3];
    size_t bytes = n * sizeof(uint32_t);
    kit_timing t;
    cudaError_t e;
    *gbps = 0.0;
    if ((e = cudaMalloc(&src, bytes)) != cudaSuccess) return e;
    if ((e = cudaMalloc(&dst, bytes)) != cudaSuccess) goto out;
    if ((e = cudaMemsetAsync(src, 1, bytes, s)) != cudaSuccess) goto out;
    arg[0] = src;
    arg[1] = dst;
    arg[2] = &bytes;
    if ((e = kit_time_gpu(probe_launch, arg, s, 3, reps, &t)) != cudaSuccess) goto out;
    *gbps = 2.0 * (double)bytes / (t.ms_median * 1e6);
out:
    cudaFree(src);
    cudaFree(dst);
    return e;
}

cudaError_t kit_bench_begin(kit_bench *b, const char *name)
{
    char tmp[1100];
    kit_bench_end(b, 0);
    snprintf(b->csv_path, sizeof b->csv_path, "%s/%s.csv", b->outdir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", b->csv_path);
    b->csv = fopen(tmp, "w"); /* renamed over NAME.csv only when the experiment completes */
    if (!b->csv) return cudaErrorInvalidValue;
    fprintf(b->csv, "%s\n", KIT_CSV_HEADER);
    if (b->gpu && b->copy_gbps > 0) {
        kit_timing t;
        kit_row r;
        t.reps = 1;
        t.ms_median = t.ms_min = 8.0 * (double)b->copy_probe_n / (b->copy_gbps * 1e6);
        memset(&r, 0, sizeof r);
        r.step = "copy-bandwidth";
        r.param = "cudaMemcpy D2D probe";
        r.input = "uniform";
        r.shape = "";
        r.phase = "run";
        r.unit = "elements/s";
        r.verified = "ok";
        r.n = b->copy_probe_n;
        r.bytes = 8.0 * (double)b->copy_probe_n;
        r.items = (double)b->copy_probe_n;
        r.t = &t;
        kit_bench_row(b, &r);
    }
    return cudaSuccess;
}

void kit_bench_end(kit_bench *b, int keep)
{
    char tmp[1100];
    if (!b->csv) return;
    fclose(b->csv);
    b->csv = NULL;
    snprintf(tmp, sizeof tmp, "%s.tmp", b->csv_path);
    if (keep) rename(tmp, b->csv_path);
    else remove(tmp);
}

/* A CSV field must not carry the separator. */
static void field(FILE *f, const char *s)
{
    for (; s && *s; s++) fputc(*s == ',' || *s == '\n' ? ' ' : *s, f);
}

void kit_bench_row(kit_bench *b, const kit_row *r)
{
    FILE *f = b->csv;
    const char *v[6];
    int k;
    if (!f) return;
    v[0] = r->step;
    v[1] = r->param;
    v[2] = r->input;
    fprintf(f, "%s", b->chapter);
    for (k = 0; k < 3; k++) {
        fputc(',', f);
        field(f, v[k]);
    }
    fprintf(f, ",%zu,", r->n);
    field(f, r->shape);
    fputc(',', f);
    field(f, r->phase ? r->phase : "run");
    fprintf(f, ",%.0f,", r->bytes);
    if (r->t && r->t->ms_median > 0) {
        const double gbps = r->bytes / (r->t->ms_median * 1e6);
        fprintf(f, "%.6f,%.6f,%.3f,%.6g,", r->t->ms_median, r->t->ms_min, gbps,
                r->items / (r->t->ms_median * 1e-3));
        field(f, r->unit);
        if (b->copy_gbps > 0) fprintf(f, ",%.2f,", 100.0 * gbps / b->copy_gbps);
        else fputs(",,", f);
    } else {
        fputs(",,,,", f);
        field(f, r->unit);
        fputs(",,", f);
    }
    field(f, r->verified);
    fputc(',', f);
    field(f, b->gpu ? b->gpu_name : "cpu-only");
    fputc('\n', f);
    fflush(f);
    b->rows++;
    if (r->verified && strcmp(r->verified, "FAILED") == 0) b->failed++;
}

/* a progress line; in a log (stderr not a terminal) each line starts with the seconds since
 * the first one, so a slow point shows where the time went */
void kit_progress(kit_bench *b, const char *fmt, ...)
{
    static double t0 = -1;
    va_list ap;
    if (t0 < 0) t0 = kit_wall_seconds();
    if (b->tty) fputs("\r\033[K", stderr);
    else fprintf(stderr, "  [%6.1f s] ", kit_wall_seconds() - t0);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (!b->tty) fputc('\n', stderr);
    fflush(stderr);
}

void kit_progress_done(kit_bench *b)
{
    if (b->tty) fputs("\r\033[K", stderr);
}
