/* mmwrite.c - Matrix Market files written: a CSR matrix as a 'coordinate'
 * file and a vector as an 'array' file (formats.h). A file that could not be
 * written whole is removed, so no half file passes for a result.
 */
#include "formats.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

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
