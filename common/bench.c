/* bench.c - timing, bandwidth probes, roofline, result rows, matrix loading. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifndef SPMV_GIT_REV
#define SPMV_GIT_REV "unknown"
#endif

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void spmv_stats(double *ms, int n, double *median, double *min)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    *min = ms[0];
    *median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

void spmv_time_runs(double (*run)(void *ctx), void *ctx, int warmup, int runs, spmv_probe *probe,
                    double *median, double *min)
{
    for (int i = 0; i < warmup; i++)
        run(ctx);
    double *ms = malloc(sizeof *ms * (size_t)(runs > 0 ? runs : 1));
    if (!ms)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the timings");
    for (int i = 0; i < runs; i++) {
        if (probe) {
            spmv_probe_sample(probe);
            run(ctx);   /* untimed: the caches as a run of the kernel leaves them, not as the probe does */
        }
        ms[i] = run(ctx);
    }
    while (probe && probe->n < SPMV_PROBE_MIN_SAMPLES)
        spmv_probe_sample(probe);
    spmv_stats(ms, runs, median, min);
    free(ms);
}

typedef struct {
    spmv_cl *cl;
    cl_kernel k;
    size_t global, local;
} cl_run_ctx;

static double cl_run(void *ctx)
{
    cl_run_ctx *c = ctx;
    return spmv_cl_run(c->cl, c->k, c->global, c->local);
}

void spmv_time_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, int warmup, int runs,
                      spmv_probe *probe, double *median, double *min)
{
    cl_run_ctx c = { cl, k, global, local };
    spmv_time_runs(cl_run, &c, warmup, runs, probe, median, min);
}

/* ---- bandwidth probes ---- */

static const char *probe_src =
    "__kernel void copy4(__global const float4 *restrict a, __global float4 *restrict b)\n"
    "{ size_t i = get_global_id(0); b[i] = a[i]; }\n"
    /* Every work-item sums 16 float4. On a GPU neighbouring work-items must
     * read neighbouring addresses (coalescing): item i reads i, i + n, i + 2n...
     * A CPU core runs a work-group's items one after another, so there each
     * item reads a contiguous run: item i reads 16i .. 16i + 15. */
    "__kernel void read4(__global const float4 *restrict a, __global float *restrict out)\n"
    "{ size_t i = get_global_id(0), n = get_global_size(0); float4 s = (float4)(0.0f);\n"
    "#ifdef CONTIGUOUS\n"
    "  for (int k = 0; k < 16; k++) s += a[16 * i + k];\n"
    "#else\n"
    "  for (int k = 0; k < 16; k++) s += a[i + k * n];\n"
    "#endif\n"
    "  out[i] = s.x + s.y + s.z + s.w; }\n";

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* SPMV_PROBE_MB: another size, for tests and simulators; 0: no probe. */
static int probe_size(size_t *bytes)
{
    const char *mb = getenv("SPMV_PROBE_MB");
    if (mb && strcmp(mb, "0") == 0)
        return 0;
    if (mb && atoi(mb) > 0)
        *bytes = (size_t)atoi(mb) << 20;
    return 1;
}

spmv_probe *spmv_probe_open(spmv_cl *cl, int threads)
{
    /* 256 MiB leaves any cache of today (the H100's L2 is 50 MB); the host
     * probe's two 128 MiB arrays of doubles leave a CPU's */
    size_t bytes = (size_t)(cl ? 256 : 128) << 20;
    if (!probe_size(&bytes))
        return NULL;
    spmv_probe *p = calloc(1, sizeof *p);
    if (!p)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
    p->cl = cl;
    p->threads = threads < 1 ? 1 : threads;
    if (cl) {
        if (bytes > cl->max_alloc)
            bytes = cl->max_alloc;
        if (bytes > cl->global_mem / 4)
            bytes = cl->global_mem / 4;
        bytes &= ~(size_t)((1 << 20) - 1);
        cl_int err;
        p->prog = clCreateProgramWithSource(cl->ctx, 1, &probe_src, NULL, &err);
        CL_CHECK_ERR(err);
        CL_CHECK(clBuildProgram(p->prog, 1, &cl->device, cl->type & CL_DEVICE_TYPE_CPU ? "-DCONTIGUOUS" : "",
                                NULL, NULL));
        p->copy = spmv_cl_kernel(p->prog, "copy4");
        p->read = spmv_cl_kernel(p->prog, "read4");
        p->a = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, bytes, NULL, "bandwidth probe");
        p->b = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, bytes, NULL, "bandwidth probe");
        float one = 1.0f;
        CL_CHECK(clEnqueueFillBuffer(cl->queue, p->a, &one, sizeof one, 0, bytes, 0, NULL, NULL));
        CL_CHECK(clSetKernelArg(p->copy, 0, sizeof p->a, &p->a));
        CL_CHECK(clSetKernelArg(p->copy, 1, sizeof p->b, &p->b));
        CL_CHECK(clSetKernelArg(p->read, 0, sizeof p->a, &p->a));
        CL_CHECK(clSetKernelArg(p->read, 1, sizeof p->b, &p->b));
    } else {
        size_t n = bytes / sizeof(double);
        p->ha = malloc(n * sizeof *p->ha);
        p->hb = malloc(n * sizeof *p->hb);
        if (!p->ha || !p->hb)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
        double *a = p->ha, *b = p->hb;
        /* first touch by the threads that will use the pages */
        #pragma omp parallel for num_threads(p->threads) schedule(static)
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = (double)i;
    }
    p->bytes = bytes;
    spmv_probe_sample(p);   /* untimed: compiles, touches the pages */
    p->n = 0;
    return p;
}

void spmv_probe_sample(spmv_probe *p)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 16;
        double *c = realloc(p->copy_ms, sizeof *c * (size_t)cap);
        if (c)
            p->copy_ms = c;
        double *r = c ? realloc(p->read_ms, sizeof *r * (size_t)cap) : NULL;
        if (!c || !r)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
        p->read_ms = r;
        p->cap = cap;
    }
    double copy_ms, read_ms;
    if (p->cl) {
        size_t n4 = p->bytes / 16;
        copy_ms = spmv_cl_run(p->cl, p->copy, n4, 0);
        read_ms = spmv_cl_run(p->cl, p->read, n4 / 16, 0);   /* 16 float4 per work-item */
    } else {
        size_t n = p->bytes / sizeof(double);
        double *a = p->ha, *b = p->hb, s = 0;
        double t0 = now_s();
        #pragma omp parallel for num_threads(p->threads) schedule(static)
        for (size_t i = 0; i < n; i++)
            b[i] = a[i];
        double t1 = now_s();
        #pragma omp parallel for num_threads(p->threads) schedule(static) reduction(+ : s)
        for (size_t i = 0; i < n; i += 4)
            s += (b[i] + b[i + 1]) + (b[i + 2] + b[i + 3]);
        double t2 = now_s();
        p->sink += s;   /* read at the end through a volatile: the sum is not optimised away */
        copy_ms = (t1 - t0) * 1e3;
        read_ms = (t2 - t1) * 1e3;
    }
    p->copy_ms[p->n] = copy_ms;
    p->read_ms[p->n] = read_ms;
    p->n++;
}

spmv_bandwidth spmv_probe_finish(spmv_probe *p)
{
    spmv_bandwidth bw = { 0 };
    if (!p)
        return bw;
    double copy_ms, read_ms, min;
    spmv_stats(p->copy_ms, p->n, &copy_ms, &min);
    spmv_stats(p->read_ms, p->n, &read_ms, &min);
    bw.samples = p->n;
    bw.mib = p->bytes >> 20;
    bw.threads = p->cl ? 0 : p->threads;
    bw.copy_gbs = 2.0 * p->bytes / (copy_ms * 1e-3) / 1e9;
    /* the device's read kernel also writes one float per 16 float4 read */
    bw.read_gbs = (p->bytes + (p->cl ? p->bytes / 64.0 : 0.0)) / (read_ms * 1e-3) / 1e9;
    bw.gbs = bw.copy_gbs > bw.read_gbs ? bw.copy_gbs : bw.read_gbs;
    if (p->cl) {
        clReleaseMemObject(p->a);
        clReleaseMemObject(p->b);
        clReleaseKernel(p->copy);
        clReleaseKernel(p->read);
        clReleaseProgram(p->prog);
    }
    volatile double sink = p->sink;
    (void)sink;
    free(p->ha);
    free(p->hb);
    free(p->copy_ms);
    free(p->read_ms);
    free(p);
    return bw;
}

void spmv_bandwidth_print(const spmv_bandwidth *bw)
{
    if (!bw->samples) {
        printf("probe    skipped (SPMV_PROBE_MB=0): no bounds\n");
        return;
    }
    char who[48] = "";
    if (bw->threads)
        snprintf(who, sizeof who, "host, %d thread%s, ", bw->threads, bw->threads > 1 ? "s" : "");
    printf("probe    %s%zu MiB, median of %d between the timed runs: copy %.1f GB/s (read + written), "
           "read %.1f GB/s; bounds use %.1f\n", who, bw->mib, bw->samples, bw->copy_gbs, bw->read_gbs, bw->gbs);
}

/* ---- roofline ---- */

double dia_compulsory_bytes(const dia_matrix *A)
{
    return 4.0 * ((double)A->ndiag * A->rows + A->ndiag + A->cols + A->rows);
}

double dia_model_bytes(const dia_matrix *A, int bytes_per_2flops)
{
    return (double)bytes_per_2flops * A->ndiag * (double)A->rows;
}

double csr_compulsory_bytes(const csr_matrix *A, int value_size)
{
    return (double)A->nnz * (value_size + 4) + 4.0 * (A->rows + 1) + (double)value_size * (A->cols + A->rows);
}

double csr_flops(const csr_matrix *A, int complex_)
{
    return (complex_ ? 8.0 : 2.0) * (double)A->nnz;
}

double spmv_bound_gflops(double flops, double bytes, double bw_gbs)
{
    return bytes > 0 ? flops / (bytes / (bw_gbs * 1e9)) / 1e9 : 0.0;
}

/* ---- results ---- */

static void csv_field(FILE *f, const char *s)
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

void spmv_report(const spmv_result *r, const char *csv)
{
    double gflops = r->flops / (r->ms_median * 1e-3) / 1e9;
    double gbs = r->bytes_compulsory / (r->ms_median * 1e-3) / 1e9;
    double bm = spmv_bound_gflops(r->flops, r->bytes_model, r->bw_gbs);
    double bc = spmv_bound_gflops(r->flops, r->bytes_compulsory, r->bw_gbs);
    int timed = r->ms_median > 0 && strcmp(r->check, "PASS") == 0;
    if (!timed) {
        gflops = gbs = 0;   /* never a speed for a result that failed its check or never ran */
    } else {
    printf("time     %.4f ms median, %.4f ms min over %d runs (%s)\n", r->ms_median, r->ms_min, r->runs,
           r->timer ? r->timer : r->cl ? "kernel only, profiling events" : "the C loop, monotonic clock");
    printf("speed    %.2f GFLOP/s (%s), %.1f GB/s of compulsory traffic\n", gflops,
           r->precision == 'c' || r->precision == 'z' ? "8 per complex nonzero" : "2 per nonzero", gbs);
    if (r->bytes_model > 0 && bm > 0)
        printf("bound    model %.2f GFLOP/s: %.1f%% of it\n", bm, 100.0 * gflops / bm);
    if (bc > 0)
        printf("bound    compulsory %.2f GFLOP/s: %.1f%% of it\n", bc, 100.0 * gflops / bc);
    }
    if (!csv)
        return;
    struct stat st;
    int fresh = stat(csv, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(csv, "a");
    if (!f)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s: %s", csv, strerror(errno));
    if (fresh)
        fprintf(f, "%s\n", SPMV_CSV_HEADER);
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
    csv_field(f, r->step); fputc(',', f);
    csv_field(f, r->kernel); fputc(',', f);
    csv_field(f, dev); fputc(',', f);
    csv_field(f, drv); fputc(',', f);
    csv_field(f, r->matrix);
    fprintf(f, ",%d,%d,%lld,%d,%c,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.3g,", r->rows, r->cols, r->nnz,
            r->diags, r->precision, r->runs, r->ms_median, r->ms_min, gflops, gbs, r->bw_gbs, bm, bc, r->max_rel_err);
    csv_field(f, r->check);
    fprintf(f, ",%s,%s\n", date, SPMV_GIT_REV);
    if (fclose(f) != 0)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s: %s", csv, strerror(errno));
}

void spmv_skip(const spmv_step *s, const spmv_options *o, const spmv_cl *cl, const char *kernel,
               const char *why)
{
    printf("skipped: %s\n", why);
    if (o->csv) {
        spmv_result r;
        memset(&r, 0, sizeof r);
        r.step = s->name;
        r.kernel = kernel;
        r.cl = cl;
        r.matrix = o->matrix ? o->matrix : "-";
        r.precision = o->precision;
        r.check = "SKIP";
        spmv_report(&r, o->csv);
    }
    fflush(stdout);
    fprintf(stderr, "%s: skipped: %s\n", s->name, why);
    exit(SPMV_EXIT_SKIP);
}

/* ---- the matrix of a run ---- */

void spmv_print_dia(const dia_matrix *A)
{
    printf("matrix   %s: %d x %d, %lld nonzeros, %d diagonals (%.1f%% of the DIA storage is padding)\n",
           A->origin.name, A->rows, A->cols, A->nnz, A->ndiag,
           A->ndiag ? 100.0 * (1.0 - (double)A->nnz / ((double)A->ndiag * A->rows)) : 0.0);
}

static void read_csr(const char *path, csr_matrix *A)
{
    spmv_error err;
    coo_matrix C;
    if (matrix_read(path, &C, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    int rc = coo_to_csr(&C, A, &err);
    coo_free(&C);
    if (rc)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
}

void spmv_load_dia(const spmv_options *o, size_t pitch_align, dia_matrix *A)
{
    spmv_error err;
    if (o->matrix) {
        csr_matrix C;
        read_csr(o->matrix, &C);
        spmv_io_matrix(o, &C);   /* --info, --save-matrix: as read, before DIA can refuse it */
        int rc = csr_to_dia(&C, pitch_align, A, &err);
        csr_free(&C);
        if (rc)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    } else if ((double)grid_stencil_points(o->radius) * spmv_round_up((size_t)o->grid_w * o->grid_h, pitch_align) >=
               2147483647.0) {
        spmv_die(SPMV_EXIT_USAGE, "grid %dx%d with radius %d would store more than 2^31 DIA values, and the "
                 "kernels index with int; try a smaller --grid", o->grid_w, o->grid_h, o->radius);
    } else if (dia_generate_grid(o->grid_w, o->grid_h, o->radius, o->seed, pitch_align, A, &err)) {
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    } else {
        spmv_io_dia(o, A);
    }
    if ((double)A->ndiag * (double)A->pitch >= 2147483647.0)
        spmv_die(SPMV_EXIT_USAGE, "%s stores %d diagonals of %zu values: more than 2^31, and the "
                 "kernels index with int; try a smaller --grid", A->origin.name, A->ndiag, A->pitch);
    spmv_print_dia(A);
}

void spmv_load_csr(const spmv_options *o, csr_matrix *A)
{
    if (o->matrix) {
        read_csr(o->matrix, A);
        spmv_io_matrix(o, A);
        return;
    }
    spmv_error err;
    dia_matrix D;
    if (dia_generate_grid(o->grid_w, o->grid_h, o->radius, o->seed, 1, &D, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    int rc = dia_to_csr(&D, A, &err);
    dia_free(&D);
    if (rc)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_io_matrix(o, A);
}

/* ---- the checked, timed run ---- */

static void read_back(spmv_cl *cl, cl_mem y, void *host, size_t bytes)
{
    CL_CHECK(clEnqueueReadBuffer(cl->queue, y, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
}

int spmv_measure_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, cl_mem y,
                        const spmv_ref *ref, int single, const spmv_options *o, spmv_measure *m)
{
    size_t kmax = 0;
    CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
    if (local > cl->max_wg || local > kmax)
        spmv_die(SPMV_EXIT_USAGE, "work-group size %zu is more than this device and kernel allow (%zu): "
                 "choose a smaller --local-size", local, kmax < cl->max_wg ? kmax : cl->max_wg);
    size_t bytes = (size_t)ref->n * (ref->complex_ ? 2 : 1) * (single ? 4 : 8);
    void *host = malloc(bytes ? bytes : 1);
    if (!host)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for y");
    memset(m, 0, sizeof *m);

    spmv_cl_poison(cl, y, bytes);
    spmv_cl_run(cl, k, global, local);
    read_back(cl, y, host, bytes);
    m->check = spmv_check_result(ref, host, single);
    if (m->check.pass) {
        spmv_cl_poison(cl, y, bytes);
        spmv_probe *probe = spmv_probe_open(cl, 0);
        spmv_time_kernel(cl, k, global, local, o->warmup, o->runs, probe, &m->median, &m->min);
        m->bw = spmv_probe_finish(probe);
        read_back(cl, y, host, bytes);
        spmv_check again = spmv_check_result(ref, host, single);
        if (!again.pass || again.max_err > m->check.max_err)
            m->check = again;
        if (!again.pass)
            m->median = m->min = 0;
    }
    spmv_check_print(&m->check);
    if (m->check.pass)
        spmv_bandwidth_print(&m->bw);
    spmv_io_save_y(o, host, ref->n, ref->complex_, single, m->check.pass);
    free(host);
    return m->check.pass;
}

int spmv_report_dia(const spmv_step *s, const char *kernel, const spmv_options *o, const spmv_cl *cl,
                    const dia_matrix *A, const spmv_measure *m)
{
    spmv_result r;
    memset(&r, 0, sizeof r);
    r.step = s->name;
    r.kernel = kernel;
    r.cl = cl;
    r.matrix = A->origin.name;
    r.rows = A->rows;
    r.cols = A->cols;
    r.nnz = A->nnz;
    r.diags = A->ndiag;
    r.precision = 's';
    r.runs = o->runs;
    r.ms_median = m->median;
    r.ms_min = m->min;
    r.flops = 2.0 * (double)A->nnz;
    r.bytes_model = dia_model_bytes(A, s->model_bytes);
    r.bytes_compulsory = dia_compulsory_bytes(A);
    r.bw_gbs = m->bw.gbs;
    r.max_rel_err = m->check.max_err;
    r.check = m->check.pass ? "PASS" : "FAIL";
    spmv_report(&r, o->csv);
    return m->check.pass ? SPMV_EXIT_PASS : SPMV_EXIT_FAIL;
}

float *spmv_x_floats(const spmv_options *o, int n)
{
    spmv_error err;
    float *x = o->x_file ? spmv_io_x_floats(o, n) : spmv_random_floats((size_t)n, o->seed, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_io_save_x_floats(o, x, n);
    return x;
}

double *spmv_x_doubles(const spmv_options *o, int n, int complex_, int round_to_float)
{
    spmv_error err;
    double *x = o->x_file ? spmv_io_x_doubles(o, n, complex_, round_to_float)
                          : spmv_random_doubles((size_t)n * (complex_ ? 2 : 1), o->seed, round_to_float, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_io_save_x_doubles(o, x, n, complex_, round_to_float);
    return x;
}
