/* io.c - --info, --save-matrix, --save-x, --save-y and --x; see io.h.
 *
 * The vector reader follows the matrix readers' rules (readutil.h): the same
 * line reader, the same whole-token number parsing, one "FILE:LINE: what" line
 * per defect, the declared size judged before anything is allocated.
 */
#include "io.h"

#include "clutil.h"
#include "readutil.h"

#include <ctype.h>
#include <errno.h>
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

/* ---- writing ------------------------------------------------------------ */

/* Write comment as '%' lines: one per line of the text, control bytes shown as '?'. */
static void put_comment(FILE *f, const char *comment)
{
    if (!comment)
        return;
    fputs("% ", f);
    for (const char *c = comment; *c; c++) {
        if (*c == '\n')
            fputs(c[1] ? "\n% " : "", f);
        else
            fputc(iscntrl((unsigned char)*c) ? '?' : *c, f);
    }
    fputc('\n', f);
}

static FILE *open_out(const char *path, spmv_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        spmv_fail(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

/* Close f; on any write error remove the partial file. */
static int close_out(FILE *f, const char *path, spmv_error *err)
{
    int bad = ferror(f);
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        remove(path);
        return spmv_fail(err, "cannot write %s: %s", path, strerror(e ? e : EIO));
    }
    return 0;
}

int mm_write_csr(const char *path, const csr_matrix *A, const char *comment, spmv_error *err)
{
    FILE *f = open_out(path, err);
    if (!f)
        return -1;
    fprintf(f, "%%%%MatrixMarket matrix coordinate %s general\n", A->im ? "complex" : "real");
    put_comment(f, comment);
    fprintf(f, "%d %d %lld\n", A->rows, A->cols, A->nnz);
    for (int r = 0; r < A->rows && !ferror(f); r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            if (A->im)
                fprintf(f, "%d %d %.17g %.17g\n", r + 1, A->col[k] + 1, A->re[k], A->im[k]);
            else
                fprintf(f, "%d %d %.17g\n", r + 1, A->col[k] + 1, A->re[k]);
        }
    return close_out(f, path, err);
}

int mm_write_vector(const char *path, const void *v, int is_float, long long n, int complex_, int digits,
                    const char *comment, spmv_error *err)
{
    FILE *f = open_out(path, err);
    if (!f)
        return -1;
    const float *vf = v;
    const double *vd = v;
    int w = complex_ ? 2 : 1;
    fprintf(f, "%%%%MatrixMarket matrix array %s general\n", complex_ ? "complex" : "real");
    put_comment(f, comment);
    fprintf(f, "%lld 1\n", n);
    for (long long i = 0; i < n * w && !ferror(f); i++) {
        double x = is_float ? (double)vf[i] : vd[i];
        fprintf(f, "%.*g%c", digits, x, complex_ && i % 2 == 0 ? ' ' : '\n');
    }
    return close_out(f, path, err);
}

/* ---- reading x ---------------------------------------------------------- */

#define VEC_BANNER "'%%%%MatrixMarket matrix array real general', or complex or integer"

/* The banner: %%MatrixMarket matrix array FIELD general. *fld: 'r' 'i' 'c'. */
static int vec_banner(rd_lines *L, char *fld, spmv_error *err)
{
    const char *path = L->path, *p = L->buf, *t;
    char q[200];
    size_t n = rd_token(&p, &t);
    if (!rd_word_is(t, n, "%%MatrixMarket")) {
        rd_quote(L->buf, L->len, q, sizeof q);
        return spmv_fail(err, "%s:1: not a Matrix Market banner: '%s' (expected " VEC_BANNER ")", path, q);
    }
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    if (!rd_word_is(t, n, "matrix"))
        return spmv_fail(err, "%s:1: banner object '%s' is not supported (expected " VEC_BANNER ")", path, q);
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    if (rd_word_is(t, n, "coordinate"))
        return spmv_fail(err, "%s:1: a 'coordinate' (sparse) file; x must be a dense 'array' file "
                         "(" VEC_BANNER ")", path);
    if (!rd_word_is(t, n, "array"))
        return spmv_fail(err, "%s:1: banner format '%s' is not supported (expected " VEC_BANNER ")", path, q);
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    if (rd_word_is(t, n, "real") || rd_word_is(t, n, "complex") || rd_word_is(t, n, "integer"))
        *fld = (char)tolower((unsigned char)t[0]);
    else
        return spmv_fail(err, "%s:1: field '%s' is not supported for x (real, complex or integer)", path, q);
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    if (!rd_word_is(t, n, "general"))
        return spmv_fail(err, "%s:1: symmetry '%s' is not supported for x (only 'general')", path, q);
    n = rd_token(&p, &t);
    if (n) {
        rd_quote(t, n, q, sizeof q);
        return spmv_fail(err, "%s:1: unexpected '%s' after the symmetry in the banner", path, q);
    }
    return 0;
}

static int vec_value(rd_lines *L, char fld, const char *what, const char *t, size_t n, double *out,
                     spmv_error *err)
{
    char q[200];
    if (n == 0)
        return spmv_fail(err, "%s:%ld: missing %s (a %s x has %s per line)", L->path, L->line, what,
                         fld == 'c' ? "complex" : fld == 'i' ? "integer" : "real",
                         fld == 'c' ? "'real imaginary'" : "one value");
    rd_quote(t, n, q, sizeof q);
    if (fld == 'i') {
        long long v;
        int rc = rd_parse_ll(t, n, &v);
        if (rc == -1)
            return spmv_fail(err, "%s:%ld: %s '%s' is not an integer (field is integer)", L->path, L->line, what, q);
        if (rc == -2)
            return spmv_fail(err, "%s:%ld: %s %s is out of range", L->path, L->line, what, q);
        *out = (double)v;
        return 0;
    }
    int rc = rd_parse_double(t, n, out);
    if (rc == -1)
        return spmv_fail(err, "%s:%ld: %s '%s' is not a number", L->path, L->line, what, q);
    if (rc == -2)
        return spmv_fail(err, "%s:%ld: %s %s is out of the range of a double", L->path, L->line, what, q);
    return 0;
}

static double *read_vector(rd_lines *L, long long want, int complex_, spmv_error *err)
{
    const char *path = L->path;
    int rc = rd_next(L, err);
    if (rc < 0)
        return NULL;
    if (rc == 0) {
        spmv_fail(err, "%s:1: empty file (expected the banner " VEC_BANNER ")", path);
        return NULL;
    }
    char fld = 'r';
    if (vec_banner(L, &fld, err))
        return NULL;
    if (fld == 'c' && !complex_) {
        spmv_fail(err, "%s:1: x is complex but this run is real (a complex x needs a complex run: "
                  "step6 --precision c or z)", path);
        return NULL;
    }
    while ((rc = rd_next(L, err)) == 1 && rd_blank_or_comment(L->buf))
        ;
    if (rc < 0)
        return NULL;
    if (rc == 0) {
        spmv_fail(err, "%s:%ld: file ends before the size line 'N 1'", path, L->line + 1);
        return NULL;
    }
    long long rows, cols;
    const char *p = L->buf, *t;
    const char *shape = "'N 1': a column of N values";
    if (rd_size_number(L, "row count", shape, &p, &rows, err) || rd_size_number(L, "column count", shape, &p, &cols, err))
        return NULL;
    size_t n = rd_token(&p, &t);
    if (n) {
        char q[200];
        rd_quote(t, n, q, sizeof q);
        spmv_fail(err, "%s:%ld: unexpected '%s' after the size line 'N 1' (an array file has no entry count)",
                  path, L->line, q);
        return NULL;
    }
    long size_line = L->line;
    if (cols != 1) {
        spmv_fail(err, "%s:%ld: x must be a column vector ('N 1' on the size line), not %lld x %lld%s",
                  path, size_line, rows, cols, rows == 1 ? ": write it as a column, e.g. mmwrite('x.mtx', x(:))" : "");
        return NULL;
    }
    if (rows != want) {
        spmv_fail(err, "%s:%ld: x has %lld entries but the matrix has %lld columns", path, size_line, rows, want);
        return NULL;
    }
    double *x = spmv_alloc((size_t)want * (complex_ ? 2 : 1) + 1, sizeof *x, "vector x", err);
    if (!x)
        return NULL;
    for (long long i = 0; i < want;) {
        rc = rd_next(L, err);
        if (rc < 0)
            goto fail;
        if (rc == 0) {
            spmv_fail(err, "%s:%ld: file ends after %lld of the %lld values declared on line %ld",
                      path, L->line + 1, i, want, size_line);
            goto fail;
        }
        if (rd_blank_or_comment(L->buf))
            continue;
        double re, im = 0;
        p = L->buf;
        n = rd_token(&p, &t);
        if (vec_value(L, fld, fld == 'c' ? "real part" : "value", t, n, &re, err))
            goto fail;
        if (fld == 'c') {
            n = rd_token(&p, &t);
            if (vec_value(L, fld, "imaginary part", t, n, &im, err))
                goto fail;
        }
        n = rd_token(&p, &t);
        if (n) {
            char q[200];
            rd_quote(t, n, q, sizeof q);
            spmv_fail(err, "%s:%ld: unexpected '%s' after the %s (one entry per line)", path, L->line, q,
                      fld == 'c' ? "imaginary part" : "value");
            goto fail;
        }
        if (complex_) {
            x[2 * i] = re;
            x[2 * i + 1] = im;
        } else {
            x[i] = re;
        }
        i++;
    }
    while ((rc = rd_next(L, err)) == 1)
        if (!rd_blank_or_comment(L->buf)) {
            spmv_fail(err, "%s:%ld: more values than the %lld declared on line %ld", path, L->line, want, size_line);
            goto fail;
        }
    if (rc < 0)
        goto fail;
    return x;
fail:
    free(x);
    return NULL;
}

double *mm_read_vector(const char *path, long long n, int complex_, spmv_error *err)
{
    rd_lines L;
    if (rd_open(&L, path, err))
        return NULL;
    double *x = read_vector(&L, n, complex_, err);
    rd_close(&L);
    return x;
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
