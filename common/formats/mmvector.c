/* mmvector.c - a vector (x) read from a Matrix Market 'array' file (formats.h).
 *
 * The vector reader follows the matrix readers' rules (readutil.h): the same
 * line reader, the same whole-token number parsing, one "FILE:LINE: what" line
 * per defect, the declared size judged before anything is allocated.
 */
#include "readutil.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
