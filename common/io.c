/* io.c - --info, --save-matrix, --save-x, --save-y and --x; see io.h. The
 * files themselves are read and written by common/formats/.
 */
#include "io.h"

#include "clutil.h"
#include "formats/formats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- --info ----------------------------------------------------------- */

int spmv_info_line(const csr_matrix *A, char *buf, size_t size, spmv_error *err)
{
    long long ndiag;
    if (csr_count_diagonals(A, &ndiag))
        return spmv_fail(err, "%s: out of memory counting the diagonals", A->origin.name);
    /* CSR order (rows, then columns ascending) is the same whatever the file's
     * order, so two files holding the same matrix give the same bits. */
    double sum_re = 0, sum_im = 0, sq_re = 0, sq_im = 0;
    for (long long k = 0; k < A->nnz; k++) {
        sum_re += A->re[k];
        sq_re += A->re[k] * A->re[k];
        if (A->im) {
            sum_im += A->im[k];
            sq_im += A->im[k] * A->im[k];
        }
    }
    const spmv_origin *o = &A->origin;
    int gen = strcmp(o->format, "generator") == 0;
    char sums[160];
    if (A->im)
        snprintf(sums, sizeof sums, "sum re %.17g im %.17g | frobenius re %.17g im %.17g", sum_re, sum_im,
                 sqrt(sq_re), sqrt(sq_im));
    else
        snprintf(sums, sizeof sums, "sum %.17g | frobenius %.17g", sum_re, sqrt(sq_re));
    snprintf(buf, size, "%s%s | format %s | field %s | symmetry %s%s | rows %d | cols %d | stored %lld | "
             "nonzeros %lld | diagonals %lld | %s", gen ? "" : "file ", o->source, o->format, o->field,
             o->symmetry, o->expanded ? ", expanded" : "", A->rows, A->cols, o->stored, A->nnz, ndiag, sums);
    return 0;
}

/* ---- the hooks ---------------------------------------------------------- */

static const char *precision_words(int single, int complex_)
{
    return complex_ ? (single ? "complex single precision" : "complex double precision")
                    : (single ? "single precision" : "double precision");
}

void spmv_io_matrix(const spmv_options *o, const csr_matrix *A)
{
    spmv_error err;
    if (o->info) {
        char line[1536];
        if (spmv_info_line(A, line, sizeof line, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        printf("info     %s\n", line);
    }
    if (o->save_matrix) {
        const spmv_origin *g = &A->origin;
        char comment[1400];
        int n = snprintf(comment, sizeof comment, "written by %s --save-matrix: the matrix as loaded "
                         "(symmetry expanded, duplicates summed), %%.17g\nfrom %s (%s, %s, %s%s)", spmv_prog,
                         g->source, g->format, g->field, g->symmetry, g->expanded ? ", expanded" : "");
        if (strcmp(g->field, "pattern") == 0 && n > 0 && (size_t)n < sizeof comment)
            snprintf(comment + n, sizeof comment - (size_t)n,
                     "\npattern matrix: written as real, every stored entry 1.0");
        if (mm_write_csr(o->save_matrix, A, comment, &err))
            spmv_die(SPMV_EXIT_USAGE, "--save-matrix: %s", err.msg);
        if (!o->quiet)
            printf("saved    matrix to %s (%lld entries)\n", o->save_matrix, A->nnz);
    }
}

void spmv_io_dia(const spmv_options *o, const dia_matrix *A)
{
    if (!o->info && !o->save_matrix)
        return;
    spmv_error err;
    csr_matrix C;
    if (dia_to_csr(A, &C, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_io_matrix(o, &C);
    csr_free(&C);
}

double *spmv_io_x_doubles(const spmv_options *o, int n, int complex_, int round_to_float)
{
    spmv_error err;
    double *x = mm_read_vector(o->x_file, n, complex_, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "--x: %s", err.msg);
    if (round_to_float)   /* as the random x is: each part rounded to nearest float */
        for (long long i = 0; i < (long long)n * (complex_ ? 2 : 1); i++)
            x[i] = (float)x[i];
    return x;
}

float *spmv_io_x_floats(const spmv_options *o, int n)
{
    spmv_error err;
    double *xd = spmv_io_x_doubles(o, n, 0, 1);
    float *x = spmv_alloc((size_t)n + 1, sizeof *x, "vector x", &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    for (int i = 0; i < n; i++)
        x[i] = (float)xd[i];
    free(xd);
    return x;
}

static void save_x(const spmv_options *o, const void *x, int is_float, int n, int complex_, int single)
{
    if (!o->save_x)
        return;
    char comment[1024];
    if (o->x_file)
        snprintf(comment, sizeof comment, "x of %s, read from %s, %s", spmv_prog, o->x_file,
                 precision_words(single, complex_));
    else
        snprintf(comment, sizeof comment, "x of %s, seeded random (--seed %llu), %s", spmv_prog,
                 (unsigned long long)o->seed, precision_words(single, complex_));
    spmv_error err;
    if (mm_write_vector(o->save_x, x, is_float, n, complex_, single ? 9 : 17, comment, &err))
        spmv_die(SPMV_EXIT_USAGE, "--save-x: %s", err.msg);
    if (!o->quiet)
        printf("saved    x to %s (%d entries)\n", o->save_x, n);
}

void spmv_io_save_x_floats(const spmv_options *o, const float *x, int n)
{
    save_x(o, x, 1, n, 0, 1);
}

void spmv_io_save_x_doubles(const spmv_options *o, const double *x, int n, int complex_, int round_to_float)
{
    save_x(o, x, 0, n, complex_, round_to_float);
}

void spmv_io_save_y(const spmv_options *o, const void *y, long long n, int complex_, int single, int pass)
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
    snprintf(comment, sizeof comment, "y = A x of %s, %s, check PASS", spmv_prog, precision_words(single, complex_));
    spmv_error err;
    if (mm_write_vector(o->save_y, y, single, n, complex_, single ? 9 : 17, comment, &err))
        spmv_die(SPMV_EXIT_USAGE, "--save-y: %s", err.msg);
    if (!o->quiet)
        printf("saved    y to %s (%lld entries)\n", o->save_y, n);
}
