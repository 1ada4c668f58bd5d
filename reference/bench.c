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
    kit_bench_end(b);
    snprintf(b->csv_path, sizeof b->csv_path, "%s/%s.csv", b->outdir, name);
    b->csv = fopen(b->csv_path, "w");
    if (!b->csv) return cudaErrorInvalidValue;
    fprintf(b->csv, "%s\n", KIT_CSV_HEADER);
    if (b->gpu && b->copy_gbps > 0) {
        kit_timing t;
        t.reps = 1;
        t.ms_median = t.ms_min = 8.0 * (double)b->copy_probe_n / (b->copy_gbps * 1e6);
        kit_bench_row(b, "copy-bandwidth", "cudaMemcpy D2D probe", b->copy_probe_n,
                      8.0 * (double)b->copy_probe_n, (double)b->copy_probe_n, &t, "ok");
    }
    return cudaSuccess;
}

void kit_bench_end(kit_bench *b)
{
    if (b->csv) fclose(b->csv);
    b->csv = NULL;
}

/* A CSV field must not carry the separator. */
static void field(FILE *f, const char *s)
{
    for (; s && *s; s++) fputc(*s == ',' || *s == '\n' ? ' ' : *s, f);
}

void kit_bench_row(kit_bench *b, const char *step, const char *param, size_t n, double bytes,
                   double elems, const kit_timing *t, const char *verified)
{
    FILE *f = b->csv;
    if (!f) return;
    fprintf(f, "%s,", b->chapter);
    field(f, step);
    fputc(',', f);
    field(f, param);
    fprintf(f, ",%zu,%.0f,", n, bytes);
    if (t && t->ms_median > 0) {
        double gbps = bytes / (t->ms_median * 1e6);
        fprintf(f, "%.6f,%.6f,%.3f,%.4f,", t->ms_median, t->ms_min, gbps,
                elems / (t->ms_median * 1e6));
        if (b->copy_gbps > 0) fprintf(f, "%.2f,", 100.0 * gbps / b->copy_gbps);
        else fputc(',', f);
    } else {
        fputs(",,,,,", f);
    }
    field(f, verified);
    fputc(',', f);
    field(f, b->gpu ? b->gpu_name : "cpu-only");
    fputc('\n', f);
    fflush(f);
    b->rows++;
    if (verified && strcmp(verified, "FAILED") == 0) b->failed++;
}

void kit_progress(kit_bench *b, const char *fmt, ...)
{
    va_list ap;
    fputs(b->tty ? "\r\033[K" : "  ", stderr);
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
