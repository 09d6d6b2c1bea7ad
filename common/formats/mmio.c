/* mmio.c - Matrix Market coordinate files into COO.
 *
 *   %%MatrixMarket matrix coordinate FIELD SYMMETRY     FIELD: real integer pattern complex
 *   % comments                                          SYMMETRY: general symmetric
 *   rows cols entries                                             skew-symmetric hermitian
 *   i j [value [imaginary]]      (1-based, one entry per line)
 *
 * Every number is parsed with strtoll/strtod and checked whole: a reader that
 * used atoi would turn "1x" into 1 and a truncated file into a silently
 * smaller matrix. The declared size is judged before anything is allocated.
 */
#include "readutil.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum field { F_REAL, F_INTEGER, F_PATTERN, F_COMPLEX };
/* arrays, not pointers: read-only data, nothing for the loader to relocate */
static const char field_name[][8] = {"real", "integer", "pattern", "complex"};

/* Parse one 1-based index token into a 0-based int in [0, limit). */
static int parse_index(const char *path, long line, const char *what, const char *tok, size_t n,
                       long long limit, int *out, spmv_error *err)
{
    char q[200];
    long long v;
    if (n == 0)
        return spmv_fail(err, "%s:%ld: missing %s index", path, line, what);
    int rc = rd_parse_ll(tok, n, &v);
    rd_quote(tok, n, q, sizeof q);
    if (rc == -1)
        return spmv_fail(err, "%s:%ld: %s index '%s' is not an integer", path, line, what, q);
    if (rc == -2 || v < 1 || v > limit)
        return spmv_fail(err, "%s:%ld: %s index %s out of range 1..%lld", path, line, what, q, limit);
    *out = (int)(v - 1);
    return 0;
}

static int parse_value(const char *path, long line, const char *what, enum field fld, const char *tok,
                       size_t n, double *out, spmv_error *err)
{
    char q[200];
    if (n == 0)
        return spmv_fail(err, "%s:%ld: missing %s (a %s entry is: row col %s)", path, line, what,
                         field_name[fld], fld == F_COMPLEX ? "real imaginary" : "value");
    rd_quote(tok, n, q, sizeof q);
    if (fld == F_INTEGER) {
        long long v;
        int rc = rd_parse_ll(tok, n, &v);
        if (rc == -1)
            return spmv_fail(err, "%s:%ld: %s '%s' is not an integer (field is integer)", path, line, what, q);
        if (rc == -2)
            return spmv_fail(err, "%s:%ld: %s %s is out of range", path, line, what, q);
        *out = (double)v;
        return 0;
    }
    int rc = rd_parse_double(tok, n, out);
    if (rc == -1)
        return spmv_fail(err, "%s:%ld: %s '%s' is not a number", path, line, what, q);
    if (rc == -2)
        return spmv_fail(err, "%s:%ld: %s %s is out of the range of a double", path, line, what, q);
    return 0;
}

/* The banner: %%MatrixMarket matrix coordinate FIELD SYMMETRY */
static int parse_banner(rd_lines *L, enum field *fld, enum rd_symmetry *sym, spmv_error *err)
{
    const char *path = L->path, *p = L->buf, *t;
    char q[200];
    size_t n = rd_token(&p, &t);
    if (!rd_word_is(t, n, "%%MatrixMarket")) {
        rd_quote(L->buf, L->len, q, sizeof q);
        return spmv_fail(err, "%s:1: not a Matrix Market banner: '%s' (expected "
                         "'%%%%MatrixMarket matrix coordinate FIELD SYMMETRY')", path, q);
    }
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    if (!rd_word_is(t, n, "matrix"))
        return spmv_fail(err, "%s:1: banner object '%s' is not supported (only 'matrix')", path, q);
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    if (rd_word_is(t, n, "array"))
        return spmv_fail(err, "%s:1: 'array' (dense) format is not supported; only 'coordinate' "
                         "(sparse) files are read", path);
    if (!rd_word_is(t, n, "coordinate"))
        return spmv_fail(err, "%s:1: banner format '%s' is not supported (only 'coordinate')", path, q);
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    int f = -1;
    for (int i = 0; i < 4; i++)
        if (rd_word_is(t, n, field_name[i]))
            f = i;
    if (f < 0)
        return spmv_fail(err, "%s:1: field '%s' is not supported (supported: real, integer, "
                         "pattern, complex)", path, q);
    n = rd_token(&p, &t);
    rd_quote(t, n, q, sizeof q);
    int s = -1;
    for (int i = 0; i < 4; i++)
        if (rd_word_is(t, n, rd_symmetry_name[i]))
            s = i;
    if (s < 0)
        return spmv_fail(err, "%s:1: symmetry '%s' is not supported (supported: general, "
                         "symmetric, skew-symmetric, hermitian)", path, q);
    n = rd_token(&p, &t);
    if (n) {
        rd_quote(t, n, q, sizeof q);
        return spmv_fail(err, "%s:1: unexpected '%s' after the symmetry in the banner", path, q);
    }
    if (s == RD_HERMITIAN && f != F_COMPLEX)
        return spmv_fail(err, "%s:1: hermitian symmetry needs the complex field, not %s "
                         "(a real Hermitian matrix is 'symmetric')", path, field_name[f]);
    if (s == RD_SKEW && f == F_PATTERN)
        return spmv_fail(err, "%s:1: pattern skew-symmetric is not a valid combination "
                         "(the mirrored entries would need values)", path);
    *fld = (enum field)f;
    *sym = (enum rd_symmetry)s;
    return 0;
}

static int read_mm(rd_lines *L, coo_matrix *A, rd_entries *E, spmv_error *err)
{
    const char *path = L->path;
    enum field fld = F_REAL;
    enum rd_symmetry sym = RD_GENERAL;
    int rc = rd_next(L, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return spmv_fail(err, "%s:1: empty file (expected the banner '%%%%MatrixMarket matrix "
                         "coordinate FIELD SYMMETRY')", path);
    if (parse_banner(L, &fld, &sym, err))
        return -1;

    /* size line, after comments and blank lines */
    while ((rc = rd_next(L, err)) == 1 && rd_blank_or_comment(L->buf))
        ;
    if (rc < 0)
        return -1;
    if (rc == 0)
        return spmv_fail(err, "%s:%ld: file ends before the size line 'rows cols entries'", path, L->line + 1);
    long long rows, cols, stored;
    const char *p = L->buf, *t;
    const char *want = "'rows cols entries'";
    if (rd_size_number(L, "row count", want, &p, &rows, err) || rd_size_number(L, "column count", want, &p, &cols, err) ||
        rd_size_number(L, "entry count", want, &p, &stored, err))
        return -1;
    size_t n = rd_token(&p, &t);
    if (n) {
        char q[200];
        rd_quote(t, n, q, sizeof q);
        return spmv_fail(err, "%s:%ld: unexpected '%s' after the size line 'rows cols entries'", path, L->line, q);
    }
    long size_line = L->line;
    /* the shortest entry line: "1 1\n", "1 1 1\n", "1 1 1 1\n" */
    int min_entry = fld == F_PATTERN ? 4 : fld == F_COMPLEX ? 8 : 6;
    if (rd_check_size(L, size_line, rows, cols, stored, sym, fld == F_COMPLEX, min_entry, err))
        return -1;

    A->rows = (int)rows;
    A->cols = (int)cols;
    rd_set_names(&A->origin, path);
    snprintf(A->origin.format, sizeof A->origin.format, "matrix-market");
    snprintf(A->origin.field, sizeof A->origin.field, "%s", field_name[fld]);

    rd_entries_init(E, path, sym, fld == F_COMPLEX, stored);
    const char *form = fld == F_PATTERN ? "row col" : fld == F_COMPLEX ? "row col real imaginary" : "row col value";
    while (E->n < stored) {
        rc = rd_next(L, err);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return spmv_fail(err, "%s:%ld: file ends after %lld of the %lld entries declared on line %ld",
                             path, L->line + 1, E->n, stored, size_line);
        if (rd_blank_or_comment(L->buf))
            continue;
        int r, c;
        double re = 1.0, im = 0.0;
        p = L->buf;
        n = rd_token(&p, &t);
        if (parse_index(path, L->line, "row", t, n, rows, &r, err))
            return -1;
        n = rd_token(&p, &t);
        if (parse_index(path, L->line, "column", t, n, cols, &c, err))
            return -1;
        if (fld != F_PATTERN) {
            n = rd_token(&p, &t);
            if (parse_value(path, L->line, fld == F_COMPLEX ? "real part" : "value", fld, t, n, &re, err))
                return -1;
        }
        if (fld == F_COMPLEX) {
            n = rd_token(&p, &t);
            if (n == 0)
                return spmv_fail(err, "%s:%ld: complex entry lacks its imaginary part "
                                 "(expected 'row col real imaginary')", path, L->line);
            if (parse_value(path, L->line, "imaginary part", fld, t, n, &im, err))
                return -1;
        }
        n = rd_token(&p, &t);
        if (n) {
            char q[200];
            rd_quote(t, n, q, sizeof q);
            return spmv_fail(err, "%s:%ld: unexpected '%s' after the entry (a %s entry is '%s')",
                             path, L->line, q, field_name[fld], form);
        }
        if (rd_entries_add(E, L->line, r, c, re, im, err))
            return -1;
    }
    /* nothing but comments and blank lines may follow */
    while ((rc = rd_next(L, err)) == 1)
        if (!rd_blank_or_comment(L->buf))
            return spmv_fail(err, "%s:%ld: more entries than the %lld declared on line %ld",
                             path, L->line, stored, size_line);
    if (rc < 0)
        return -1;
    return rd_entries_finish(E, A, err);
}

int mm_read(const char *path, struct spmv_limits *lim, coo_matrix *A, spmv_error *err)
{
    rd_lines L;
    rd_entries E;
    memset(A, 0, sizeof *A);
    rd_entries_init(&E, path, RD_GENERAL, 0, 0);
    if (rd_open(&L, path, err))
        return -1;
    L.lim = lim;
    int rc = read_mm(&L, A, &E, err);
    rd_close(&L);
    if (rc) {
        rd_entries_free(&E);
        coo_free(A);
        memset(A, 0, sizeof *A);
    }
    return rc;
}
