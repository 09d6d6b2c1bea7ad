/* load.c - the matrix of a run and its x: read or generated, converted. */
#include "load.h"
#include "capacity.h"
#include "check.h"
#include "clutil.h"
#include "formats/formats.h"
#include "io.h"
#include "precision.h"
#include "stopwatch.h"

#include <stdio.h>
#include <stdlib.h>

void spmv_print_dia(const dia_matrix *A)
{
    printf("matrix   %s: %d x %d, %lld nonzeros, %d diagonals (%.1f%% of the DIA storage is padding)\n",
           A->origin.name, A->rows, A->cols, A->nnz, A->ndiag,
           A->ndiag ? 100.0 * (1.0 - (double)A->nnz / ((double)A->ndiag * A->rows)) : 0.0);
}

/* --matrix FILE or --gen SPEC, as CSR */
static void read_csr(const spmv_options *o, csr_matrix *A)
{
    spmv_error err;
    if (o->gen) {
        if (csr_generate(o->gen, o->seed, A, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        return;
    }
    const char *path = o->matrix;
    coo_matrix C;
    if (matrix_read(path, &C, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    int rc = coo_to_csr(&C, A, &err);
    coo_free(&C);
    if (rc)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
}

/* The grid's size against the run's limits, before any of it is built. */
static void check_grid(const spmv_options *o, size_t pitch_align, int csr, int complex_)
{
    spmv_error err;
    long long nnz;
    int ndiag;
    if (grid_shape(o->grid_w, o->grid_h, o->radius, &nnz, &ndiag, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    long long n = (long long)o->grid_w * o->grid_h;
    int rc = csr ? spmv_fits(n, n, nnz, complex_, 0, &err)
                 : spmv_fits_dia(n, n, ndiag, (long long)spmv_round_up((size_t)n, pitch_align), &err);
    if (rc)
        spmv_die(SPMV_EXIT_USAGE, "grid %dx%d radius %d (%lld rows, %lld nonzeros): %s; try a smaller --grid",
                 o->grid_w, o->grid_h, o->radius, n, nnz, err.msg);
}

void spmv_load_dia(const spmv_options *o, size_t pitch_align, dia_matrix *A)
{
    double t0 = spmv_now();
    spmv_error err;
    spmv_limits_format('d', 4);
    if (o->matrix || o->gen) {
        csr_matrix C;
        read_csr(o, &C);
        spmv_io_matrix(o, &C);   /* --info, --save-matrix: as read, before DIA can refuse it */
        int rc = csr_to_dia(&C, pitch_align, A, &err);
        csr_free(&C);
        if (rc)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    } else {
        check_grid(o, pitch_align, 0, 0);
        if (dia_generate_grid(o->grid_w, o->grid_h, o->radius, o->seed, pitch_align, A, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        spmv_io_dia(o, A);
    }
    spmv_phase_add(SPMV_PH_MATRIX, spmv_now() - t0);
    spmv_print_dia(A);
}

void spmv_load_csr(const spmv_options *o, csr_matrix *A)
{
    double t0 = spmv_now();
    spmv_limits_format('c', spmv_prec_value_size(o->precision));
    if (o->matrix || o->gen) {
        read_csr(o, A);
    } else {
        spmv_error err;
        check_grid(o, 1, 1, spmv_prec_complex(o->precision));
        if (csr_generate_grid(o->grid_w, o->grid_h, o->radius, o->seed, A, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    }
    spmv_io_matrix(o, A);
    spmv_phase_add(SPMV_PH_MATRIX, spmv_now() - t0);
}

float *spmv_x_floats(const spmv_options *o, int n)
{
    double t0 = spmv_now();
    spmv_error err;
    float *x = o->x_file ? spmv_io_x_floats(o, n) : spmv_random_floats((size_t)n, o->seed, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_io_save_x_floats(o, x, n);
    spmv_phase_add(SPMV_PH_X, spmv_now() - t0);
    return x;
}

double *spmv_x_doubles(const spmv_options *o, int n, int complex_, int round_to_float)
{
    double t0 = spmv_now();
    spmv_error err;
    double *x = o->x_file ? spmv_io_x_doubles(o, n, complex_, round_to_float)
                          : spmv_random_doubles((size_t)n * (complex_ ? 2 : 1), o->seed, round_to_float, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_io_save_x_doubles(o, x, n, complex_, round_to_float);
    spmv_phase_add(SPMV_PH_X, spmv_now() - t0);
    return x;
}
