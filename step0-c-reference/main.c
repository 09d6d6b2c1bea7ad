/* step0-c-reference/main.c - chapter 0: the article's serial C loop, and the
 * loop orders a CPU programmer would try next.
 *
 *   make step0 run
 *   make step0 run ARGS="--grid 1024 --runs 5"
 *   make step0 run ARGS="--kernel diag --threads 2"
 *
 * The baseline every kernel is compared with, and the first check of the
 * course: the float loops below must agree with the double reference in
 * common/check.c. They run on the host (OpenMP for --threads); no OpenCL:
 * the modules of common/ it includes below include none, and it links none.
 *
 *   row      the article's loop: each row walks all diagonals (default)
 *   diag     diagonal by diagonal: each diagonal streams through y
 *   blocked  a block of rows at a time, diagonals inside (--block rows)
 */
#include "check.h"
#include "load.h"
#include "matrix.h"
#include "measure.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "status.h"
#include "stopwatch.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "step0",
    .title = "the article's serial C loop over rows and diagonals, and two other loop orders",
    .kernel_path = "(none: host C)",
    .variants = "row,diag,blocked",
    .default_variant = "row",
    .takes = OPT_GRID | OPT_PRODUCT | OPT_HOST | OPT_THREADS | OPT_BLOCK,
    .model_bytes = 12,   /* offset + matrix value + x per multiply-add */
    .defaults = (const spmv_note[]){ { "--block", "4096 rows: y block 16 KiB, its x window in L2" }, { NULL, NULL } },
};

#define DEFAULT_BLOCK 4096   /* rows: y block 16 KiB, its x window in L2 */

/* The article's loop: for each row, walk every diagonal. Each row touches
 * 81 values that lie pitch floats apart: 81 cache lines for 81 FLOPs x 2. */
static void dia_spmv(const float *A, int pitch, int rows, int cols, int diags, const int *offsets,
                     const float *x, float *y)
{
    #pragma omp parallel for schedule(static)
    for (int row = 0; row < rows; row++) {
        float accumulator = 0.0f;
        for (int diag = 0; diag < diags; diag++) {
            int col = row + offsets[diag];
            if (col >= 0 && col < cols)
                accumulator += A[(size_t)diag * pitch + row] * x[col];
        }
        y[row] = accumulator;
    }
}

/* The rows of diagonal d that have a column inside the matrix, within [lo, hi). */
static void diag_rows(int off, int rows, int cols, int lo, int hi, int *r0, int *r1)
{
    *r0 = off < 0 ? -off : 0;
    *r1 = cols - off < rows ? cols - off : rows;
    if (*r0 < lo)
        *r0 = lo;
    if (*r1 > hi)
        *r1 = hi;
}

/* Diagonal by diagonal: the inner loop streams one diagonal, x and y in
 * order with no test inside, which the compiler vectorises. But y makes a
 * round trip through memory for every diagonal unless it fits in cache. */
static void dia_spmv_diag(const float *A, int pitch, int rows, int cols, int diags, const int *offsets,
                          const float *x, float *y)
{
    #pragma omp parallel
    {
        #pragma omp for schedule(static)
        for (int row = 0; row < rows; row++)
            y[row] = 0.0f;
        for (int diag = 0; diag < diags; diag++) {
            int r0, r1;
            diag_rows(offsets[diag], rows, cols, 0, rows, &r0, &r1);
            const float *a = A + (size_t)diag * pitch, *xs = x + offsets[diag];
            #pragma omp for schedule(static)
            for (int row = r0; row < r1; row++)
                y[row] += a[row] * xs[row];
        }
    }
}

/* Blocked: a block of rows stays in cache (its y and its window of x) while
 * every diagonal streams through it. Each block is one thread's work. */
static void dia_spmv_blocked(const float *A, int pitch, int rows, int cols, int diags, const int *offsets,
                             const float *x, float *y, int block)
{
    #pragma omp parallel for schedule(static)
    for (int lo = 0; lo < rows; lo += block) {
        int hi = lo + block < rows ? lo + block : rows;
        for (int row = lo; row < hi; row++)
            y[row] = 0.0f;
        for (int diag = 0; diag < diags; diag++) {
            int r0, r1;
            diag_rows(offsets[diag], rows, cols, lo, hi, &r0, &r1);
            const float *a = A + (size_t)diag * pitch, *xs = x + offsets[diag];
            for (int row = r0; row < r1; row++)
                y[row] += a[row] * xs[row];
        }
    }
}

static void spmv(const spmv_options *o, const dia_matrix *A, const float *x, float *y)
{
    if (strcmp(o->variant, "diag") == 0)
        dia_spmv_diag(A->values, (int)A->pitch, A->rows, A->cols, A->ndiag, A->offsets, x, y);
    else if (strcmp(o->variant, "blocked") == 0)
        dia_spmv_blocked(A->values, (int)A->pitch, A->rows, A->cols, A->ndiag, A->offsets, x, y,
                         o->block ? o->block : DEFAULT_BLOCK);
    else
        dia_spmv(A->values, (int)A->pitch, A->rows, A->cols, A->ndiag, A->offsets, x, y);
}

typedef struct {
    const spmv_options *o;
    const dia_matrix *A;
    const float *x;
    float *y;
} host_run_ctx;

/* One run of the chosen loop, timed with the monotonic clock (spmv_time_runs) */
static double host_run(void *ctx)
{
    host_run_ctx *c = ctx;
    double t0 = spmv_now();
    spmv(c->o, c->A, c->x, c->y);
    return (spmv_now() - t0) * 1e3;
}

int main(int argc, char **argv)
{
    /* 1. Options (common/options.h; no device: this step runs on the host) */
    spmv_run run;
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &run);
    int threads = o.threads ? o.threads : 1;
    omp_set_num_threads(threads);
    printf("device   host CPU, %s loop, %d thread%s (C, OpenMP, monotonic clock)\n", o.variant, threads,
           threads > 1 ? "s" : "");

    /* 2. The matrix and x (common/load.h; --info and --save-* see them as read),
     * and the reference y (common/check.h) */
    spmv_input in;
    spmv_read_dia(&run, &o, NULL, &in);   /* no device: the host's memory alone */
    spmv_save_matrix(&run, &o, &in);
    dia_matrix A;
    spmv_load_dia(&run, &o, &in, 1, &A);
    float *x = spmv_x_floats(&run, &o, A.cols);
    spmv_save_x_floats(&run, &o, x, A.cols);
    spmv_error err;
    spmv_ref ref;
    float *y = spmv_alloc((size_t)A.rows, sizeof *y, "y", &err);
    if (!y || dia_reference(&run, &A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Run once on a y of NaN and check it (common/check.h), then time
     *    (common/measure.h): warm-up runs dropped, the rest timed one by one,
     *    the host's bandwidth with as many threads sampled between them */
    spmv_measure m = { 0 };
    for (int i = 0; i < A.rows; i++)
        y[i] = NAN;
    spmv(&o, &A, x, y);
    m.check = spmv_check_result(&ref, y, 1);
    if (m.check.pass) {
        for (int i = 0; i < A.rows; i++)
            y[i] = NAN;
        spmv_probe *probe = spmv_probe_open_host(threads);
        host_run_ctx c = { &o, &A, x, y };
        spmv_time_runs(host_run, &c, o.warmup, o.runs, probe, &m.median, &m.min);
        m.bw = spmv_probe_finish(probe);
        m.check = spmv_check_result(&ref, y, 1);
    }

    /* 4. Report (common/report.h): the check, y to --save-y, the time against that bandwidth */
    spmv_report_check(&run, &m);
    spmv_save_y(&run, &o, y, A.rows, 0, 1, m.check.pass);
    char kernel[32];
    snprintf(kernel, sizeof kernel, "%s-t%d", o.variant, threads);
    int status = spmv_report_dia(&run, &STEP, kernel, &o, NULL, &A, &m);

    /* 5. Release */
    spmv_ref_free(&ref);
    free(y);
    free(x);
    dia_free(&A);
    return status;
}
