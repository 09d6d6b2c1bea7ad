/* report.c - result lines and CSV rows. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "clutil.h"
#include "formats/formats.h"
#include "precision.h"
#include "roofline.h"
#include "results.h"
#include "run.h"
#include "stopwatch.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifndef SPMV_GIT_REV
#define SPMV_GIT_REV "unknown"
#endif

const char *spmv_git_rev(void)
{
    return SPMV_GIT_REV;
}

void spmv_csv_field(FILE *f, const char *s)
{
    for (; s && *s; s++)
        fputc(*s == ',' || *s == '\n' || *s == '"' ? ' ' : *s, f);
}

static void host_cpu_name(char *buf, size_t len)
{
    snprintf(buf, len, "host CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c += 1 + (c[1] == ' ');
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    fclose(f);
}

/* --csv FILE opened to append a row, its header first when the file is new
 * or empty; a file that cannot be written is the user's mistake (status 2) */
FILE *spmv_csv_append(const char *csv, const char *header)
{
    struct stat st;
    int fresh = stat(csv, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(csv, "a");
    if (!f)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s: %s", csv, strerror(errno));
    if (fresh)
        fprintf(f, "%s\n", header);
    return f;
}

void spmv_report(const spmv_run *run, const spmv_result *r, const char *csv)
{
    double gflops = r->flops / (r->ms_median * 1e-3) / 1e9;
    double gbs = r->bytes_compulsory / (r->ms_median * 1e-3) / 1e9;
    double bm = spmv_bound_gflops(r->flops, r->bytes_model, r->bw.gbs);
    double bc = spmv_bound_gflops(r->flops, r->bytes_compulsory, r->bw.gbs);
    int timed = r->ms_median > 0 && strcmp(r->check, "PASS") == 0;
    if (!timed) {
        gflops = gbs = 0;   /* never a speed for a result that failed its check or never ran */
    } else {
    FILE *out = spmv_results(run);
    fprintf(out, "time     %.4f ms median, %.4f ms min over %d runs (%s)\n", r->ms_median, r->ms_min, r->runs,
           r->timer ? r->timer : r->cl ? "kernel only, profiling events" : "the C loop, monotonic clock");
    char setup[256];
    spmv_setup_text(run, setup, sizeof setup);
    printf("setup    %s on the host before the first run\n", setup);
    fprintf(out, "speed    %.2f GFLOP/s (%s), %.1f GB/s of compulsory traffic\n", gflops,
           r->precision == 'c' || r->precision == 'z' ? "8 per complex nonzero" : "2 per nonzero", gbs);
    if (r->bytes_model > 0 && bm > 0)
        fprintf(out, "bound    model %.2f GFLOP/s: %.1f%% of it\n", bm, 100.0 * gflops / bm);
    if (bc > 0)
        fprintf(out, "bound    compulsory %.2f GFLOP/s: %.1f%% of it\n", bc, 100.0 * gflops / bc);
    }
    if (!csv)
        return;
    FILE *f = spmv_csv_append(csv, SPMV_CSV_HEADER);
    char dev[256], drv[400];
    if (r->device) {
        snprintf(dev, sizeof dev, "%s", r->device);
        snprintf(drv, sizeof drv, "%s", r->driver ? r->driver : "-");
    } else if (r->cl) {
        snprintf(dev, sizeof dev, "%s", r->cl->device_name);
        snprintf(drv, sizeof drv, "%s %s", r->cl->platform_name, r->cl->driver);
    } else {
        host_cpu_name(dev, sizeof dev);
        snprintf(drv, sizeof drv, "C gcc %s", __VERSION__);
    }
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    spmv_csv_field(f, r->step); fputc(',', f);
    spmv_csv_field(f, r->kernel); fputc(',', f);
    spmv_csv_field(f, dev); fputc(',', f);
    spmv_csv_field(f, drv); fputc(',', f);
    spmv_csv_field(f, r->matrix);
    fprintf(f, ",%d,%d,%lld,%d,%c,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.3g,", r->rows, r->cols, r->nnz,
            r->diags, r->precision, r->runs, r->ms_median, r->ms_min, gflops, gbs, r->bw.gbs, bm, bc, r->max_rel_err);
    spmv_csv_field(f, r->check);
    /* copy and read as printed; beside a host probe (a CPU device) each the
     * faster of the two probes', as bw.gbs is the fastest of the four */
    fprintf(f, ",%s,%s,%.6g,%.6g\n", date, SPMV_GIT_REV, fmax(r->bw.copy_gbs, r->bw.host_copy_gbs),
            fmax(r->bw.read_gbs, r->bw.host_read_gbs));
    if (fclose(f) != 0)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s: %s", csv, strerror(errno));
}

void spmv_skip(const spmv_run *run, const spmv_step *s, const spmv_options *o, const spmv_cl *cl,
               const char *kernel, const char *why)
{
    fprintf(spmv_results(run), "skipped: %s\n", why);
    if (o->csv) {
        spmv_result r;
        memset(&r, 0, sizeof r);
        r.step = s->name;
        r.kernel = kernel;
        r.cl = cl;
        r.matrix = o->matrix ? o->matrix : o->gen ? o->gen : "-";
        r.precision = o->precision;
        r.check = "SKIP";
        spmv_report(run, &r, o->csv);
    }
    fflush(NULL);
    fprintf(stderr, "%s: skipped: %s\n", s->name, why);
    exit(SPMV_EXIT_SKIP);
}

/* The row's fields that come from the run, whatever the format. */
static spmv_result run_result(const spmv_step *s, const char *kernel, const spmv_options *o, const spmv_cl *cl,
                              const spmv_measure *m)
{
    spmv_result r;
    memset(&r, 0, sizeof r);
    r.step = s->name;
    r.kernel = kernel;
    r.cl = cl;
    r.precision = o->precision;
    r.runs = o->runs;
    r.ms_median = m->median;
    r.ms_min = m->min;
    r.bw = m->bw;
    r.max_rel_err = m->check.max_err;
    r.check = m->check.pass ? "PASS" : "FAIL";
    return r;
}

int spmv_report_dia(const spmv_run *run, const spmv_step *s, const char *kernel, const spmv_options *o,
                    const spmv_cl *cl, const dia_matrix *A, const spmv_measure *m)
{
    spmv_result r = run_result(s, kernel, o, cl, m);
    r.matrix = A->origin.name;
    r.rows = A->rows;
    r.cols = A->cols;
    r.nnz = A->nnz;
    r.diags = A->ndiag;
    r.precision = 's';
    r.flops = 2.0 * (double)A->nnz;
    r.bytes_model = dia_model_bytes(A, s->model_bytes);
    r.bytes_compulsory = dia_compulsory_bytes(A);
    spmv_report(run, &r, o->csv);
    return m->check.pass ? SPMV_EXIT_PASS : SPMV_EXIT_FAIL;
}

spmv_speed spmv_result_speed(const spmv_result *r)
{
    spmv_speed v = { 0 };
    v.bound_model = spmv_bound_gflops(r->flops, r->bytes_model, r->bw.gbs);
    v.bound_compulsory = spmv_bound_gflops(r->flops, r->bytes_compulsory, r->bw.gbs);
    if (r->ms_median > 0 && r->check && strcmp(r->check, "PASS") == 0) {
        v.gflops = r->flops / (r->ms_median * 1e-3) / 1e9;
        v.gbs = r->bytes_compulsory / (r->ms_median * 1e-3) / 1e9;
    }
    return v;
}

int spmv_report_csr(const spmv_run *run, const spmv_step *s, const char *kernel, const spmv_options *o,
                    const spmv_cl *cl, const csr_matrix *A, const spmv_measure *m, spmv_speed *speed)
{
    spmv_result r = run_result(s, kernel, o, cl, m);
    r.matrix = A->origin.name;
    r.rows = A->rows;
    r.cols = A->cols;
    r.nnz = A->nnz;
    r.flops = csr_flops(A, spmv_prec_complex(o->precision));
    r.bytes_compulsory = csr_compulsory_bytes(A, spmv_prec_value_size(o->precision));
    spmv_report(run, &r, o->csv);
    if (speed)
        *speed = spmv_result_speed(&r);
    return m->check.pass ? SPMV_EXIT_PASS : SPMV_EXIT_FAIL;
}

void spmv_report_check(const spmv_run *run, const spmv_measure *m)
{
    spmv_check_print(run, &m->check);
    if (m->check.pass)
        spmv_bandwidth_print(&m->bw);
}

void spmv_save_y(const spmv_run *run, const spmv_options *o, const void *y, long long n, int complex_,
                 int single, int pass)
{
    if (!o->save_y)
        return;
    if (!pass) {
        /* a file left from an earlier run would pass for this run's answer */
        int had = remove(o->save_y) == 0;
        printf("saved    nothing: the check failed, so y is not written to %s%s\n", o->save_y,
               had ? " (the old file there was removed)" : "");
        return;
    }
    char comment[256];
    snprintf(comment, sizeof comment, "y = A x of %s, %s, check PASS", run && run->name ? run->name : spmv_prog_name(),
             spmv_prec_words(single, complex_));
    spmv_error err;
    if (mm_write_vector(o->save_y, y, single, n, complex_, single ? 9 : 17, comment, &err))
        spmv_die(SPMV_EXIT_USAGE, "--save-y: %s", err.msg);
    if (!o->quiet)
        printf("saved    y to %s (%lld entries)\n", o->save_y, n);
}
