/* step0-c-reference/main.c - chapter 0: the article's serial C loop.
 *
 *   make step0 run
 *   make step0 run ARGS="--grid 1024 --runs 5"
 *
 * The baseline every kernel is compared with, and the first check of the
 * course: the float loop below must agree with the double reference in
 * common/check.c. It runs on one core of the host; no OpenCL is involved.
 */
#include "spmv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const spmv_step STEP = {
    .name = "step0",
    .title = "the article's serial C loop over rows and diagonals",
    .kernel_path = "(none: host C)",
    .extras = OPT_NO_DEVICE,
    .model_bytes = 12,   /* offset + matrix value + x per multiply-add */
};

/* The article's loop: for each row, walk every diagonal. */
static void dia_spmv(const float *A, int pitch, int rows, int cols, int diags, const int *offsets,
                     const float *x, float *y)
{
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

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    /* 1. Options (no device: this step runs on the host) */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o);
    printf("device   host CPU, one thread (C, monotonic clock)\n");

    /* 2. The matrix, x, and the reference y */
    dia_matrix A;
    spmv_load_dia(&o, 1, &A);
    spmv_error err;
    spmv_ref ref;
    float *x = spmv_x_floats(&o, A.cols);
    float *y = spmv_alloc((size_t)A.rows, sizeof *y, "y", &err);
    double *ms = spmv_alloc((size_t)o.runs, sizeof *ms, "timings", &err);
    if (!y || !ms || dia_reference(&A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Check once, then time: warm-up runs dropped, the rest timed one by one */
    spmv_measure m = { 0 };
    for (int i = 0; i < A.rows; i++)
        y[i] = NAN;
    dia_spmv(A.values, (int)A.pitch, A.rows, A.cols, A.ndiag, A.offsets, x, y);
    m.check = spmv_check_result(&ref, y, 1);
    if (m.check.pass) {
        for (int i = 0; i < o.warmup; i++)
            dia_spmv(A.values, (int)A.pitch, A.rows, A.cols, A.ndiag, A.offsets, x, y);
        for (int i = 0; i < o.runs; i++) {
            double t0 = now_ms();
            dia_spmv(A.values, (int)A.pitch, A.rows, A.cols, A.ndiag, A.offsets, x, y);
            ms[i] = now_ms() - t0;
        }
        spmv_stats(ms, o.runs, &m.median, &m.min);
        m.check = spmv_check_result(&ref, y, 1);
    }
    spmv_check_print(&m.check);

    /* 4. Report against the host's single-thread bandwidth, measured now */
    double bw = m.check.pass ? spmv_probe_host_gbs() : 0;
    int status = spmv_report_dia(&STEP, "serial", &o, NULL, &A, &m, bw);

    /* 5. Release */
    spmv_ref_free(&ref);
    free(ms);
    free(y);
    free(x);
    dia_free(&A);
    return status;
}
