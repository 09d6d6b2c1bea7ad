/* load.c - the matrix of a run and its x: read or generated, converted. */
#include "load.h"
#include "check.h"
#include "clutil.h"
#include "io.h"

#include <stdio.h>
#include <stdlib.h>

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
