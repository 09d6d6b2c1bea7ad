/* hb.c - Harwell-Boeing files into COO.
 *
 * A Harwell-Boeing file is a deck of Fortran cards:
 *   1  TITLE (A72) KEY (A8)
 *   2  TOTCRD PTRCRD INDCRD VALCRD RHSCRD              (5I14)
 *   3  MXTYPE (A3, 11X) NROW NCOL NNZERO NELTVL         (4I14)
 *   4  PTRFMT (A16) INDFMT (A16) VALFMT (A20) RHSFMT (A20)
 *   5  RHSTYP NRHS NRHSIX, only when RHSCRD > 0
 *   then PTRCRD cards of column pointers, INDCRD of row indices, VALCRD of
 *   values (absent for a pattern), RHSCRD of right-hand sides (skipped here).
 * The matrix is stored by columns (CSC, 1-based); turning it into COO is the
 * ccs2crs step of the thesis, finished by coo_to_csr.
 *
 * Numbers are read the way Fortran reads them: by column position, with the
 * format of the header (fields may touch: "-0.1234E+01-0.5678E+00"), blanks
 * ignored, a D exponent meaning E, an exponent that may lack its letter
 * ("1.0-3" is 1.0e-3), a kP scale factor that divides a value by 10^k only
 * when the field has no exponent, and an implied decimal point d digits from
 * the right when the field has no '.'. Decimal text goes to strtod whole, so
 * a value reads to the same double as the same text in a Matrix Market file.
 */
#include "readutil.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One Fortran format such as (1P,4E20.12): repeat fields of kind, width wide. */
typedef struct {
    int scale;      /* kP */
    int repeat;     /* fields per card */
    char kind;      /* I E D F G */
    int width, digits;
    char text[64];  /* as written (blanks dropped, uppercase), for messages */
} ffmt;

static int read_int(const char *s, size_t *i, int *v)
{
    size_t j = *i;
    long x = 0;
    while (isdigit((unsigned char)s[j]) && x < 100000)
        x = 10 * x + (s[j++] - '0');
    if (j == *i || isdigit((unsigned char)s[j]))
        return -1;
    *v = (int)x;
    *i = j;
    return 0;
}

/* why: a short reason on failure */
static int parse_fmt(const char *field, size_t n, ffmt *f, const char **why)
{
    char s[64];
    size_t m = 0, i = 0;
    memset(f, 0, sizeof *f);
    for (size_t k = 0; k < n && field[k]; k++) /* Fortran ignores blanks in a format */
        if (field[k] != ' ' && field[k] != '\t') {
            if (m + 1 >= sizeof s) {
                *why = "too long";
                return -1;
            }
            s[m++] = (char)toupper((unsigned char)field[k]);
        }
    s[m] = '\0';
    snprintf(f->text, sizeof f->text, "%s", s);
    if (m == 0) {
        *why = "empty";
        return -1;
    }
    if (s[i++] != '(') {
        *why = "does not start with '('";
        return -1;
    }
    int n1 = -1, neg = 0;
    if (s[i] == '-' || s[i] == '+')
        neg = s[i++] == '-';
    if (isdigit((unsigned char)s[i]) && read_int(s, &i, &n1)) {
        *why = "number too large";
        return -1;
    }
    f->repeat = 1;
    if (s[i] == 'P') { /* scale factor, then the descriptor with its own repeat */
        if (n1 < 0) {
            *why = "P without a scale factor";
            return -1;
        }
        f->scale = neg ? -n1 : n1;
        i++;
        if (s[i] == ',')
            i++;
        if (isdigit((unsigned char)s[i]) && read_int(s, &i, &f->repeat)) {
            *why = "number too large";
            return -1;
        }
    } else if (neg) {
        *why = "sign without a P scale factor";
        return -1;
    } else if (n1 >= 0) {
        f->repeat = n1;
    }
    if (!isalpha((unsigned char)s[i])) {
        *why = "expected an edit descriptor (I, E, D, F or G)";
        return -1;
    }
    f->kind = s[i++];
    if (!strchr("IEDFG", f->kind)) {
        *why = "unsupported edit descriptor (supported: I, E, D, F, G with a repeat count and an optional kP)";
        return -1;
    }
    if (read_int(s, &i, &f->width) || f->width < 1 || f->width > 100) {
        *why = "descriptor lacks a width in 1..100";
        return -1;
    }
    if (s[i] == '.') {
        i++;
        if (read_int(s, &i, &f->digits)) {
            *why = "no digit count after '.'";
            return -1;
        }
        int e;
        if (f->kind != 'I' && f->kind != 'F' && s[i] == 'E' && (i++, read_int(s, &i, &e))) {
            *why = "no exponent width after 'E'";
            return -1;
        }
    } else if (f->kind != 'I') {
        *why = "a real descriptor needs w.d";
        return -1;
    }
    if (s[i] != ')' || s[i + 1] != '\0') {
        *why = "unsupported: only one descriptor, like (10I8) or (1P,4E20.12)";
        return -1;
    }
    if (f->repeat < 1 || f->repeat * f->width > 1000) {
        *why = "repeat count out of range";
        return -1;
    }
    return 0;
}

/* The text of a field without blanks, uppercase. -1 if it does not fit. */
static int squeeze(const char *s, size_t n, char *out, size_t outsz)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (s[k] != ' ' && s[k] != '\t') {
            if (m + 1 >= outsz)
                return -1;
            out[m++] = (char)toupper((unsigned char)s[k]);
        }
    out[m] = '\0';
    return 0;
}

/* 0 ok, -1 not an integer, -2 out of range, -3 blank */
static int field_int(const char *s, size_t n, long long *v)
{
    char b[128];
    if (squeeze(s, n, b, sizeof b))
        return -1;
    if (!b[0])
        return -3;
    size_t i = (b[0] == '+' || b[0] == '-');
    if (!b[i])
        return -1;
    for (size_t k = i; b[k]; k++)
        if (!isdigit((unsigned char)b[k]))
            return -1;
    errno = 0;
    *v = strtoll(b, NULL, 10);
    return errno == ERANGE ? -2 : 0;
}

/* A real by Fortran input rules (see the top of the file).
 * 0 ok, -1 not a number, -2 out of range, -3 blank */
static int field_real(const char *s, size_t n, const ffmt *f, double *v)
{
    char b[128], t[160];
    if (squeeze(s, n, b, sizeof b))
        return -1;
    if (!b[0])
        return -3;
    if (f->kind == 'I') {
        long long x;
        int rc = field_int(s, n, &x);
        *v = (double)x;
        return rc;
    }
    size_t i = 0, m = 0;
    if (b[i] == '+' || b[i] == '-')
        t[m++] = b[i++];
    int digits = 0, point = 0;
    while (isdigit((unsigned char)b[i]) || (b[i] == '.' && !point)) {
        if (b[i] == '.')
            point = 1;
        else
            digits = 1;
        t[m++] = b[i++];
    }
    if (!digits)
        return -1;
    long exp = 0;
    int has_exp = 0;
    if (b[i]) {
        if (b[i] == 'E' || b[i] == 'D' || b[i] == 'Q')
            i++;
        else if (b[i] != '+' && b[i] != '-')
            return -1;
        int eneg = b[i] == '-';
        if (b[i] == '+' || b[i] == '-')
            i++;
        if (!isdigit((unsigned char)b[i]))
            return -1;
        for (; isdigit((unsigned char)b[i]); i++)
            if (exp < 100000)
                exp = 10 * exp + (b[i] - '0');
        if (b[i])
            return -1;
        if (eneg)
            exp = -exp;
        has_exp = 1;
    }
    if (!has_exp)
        exp = -f->scale;       /* kP on input: only a field without exponent is scaled */
    if (!point)
        exp -= f->digits;      /* no '.': the point sits d digits from the right */
    snprintf(t + m, sizeof t - m, "e%ld", exp);
    errno = 0;
    char *end;
    *v = strtod(t, &end);
    if (*end)
        return -1;
    return isfinite(*v) ? 0 : -2;
}

/* Walks the fields of a section card by card. */
typedef struct {
    rd_lines *L;
    const ffmt *f;
    const char *section;
    long long cards, card;  /* cards in the section, cards read */
    int pos;                /* next field on the current card */
    spmv_error *err;
} cards;

static int next_field(cards *C, const char **s, size_t *n)
{
    rd_lines *L = C->L;
    if (C->card == 0 || C->pos == C->f->repeat) {
        int rc = rd_next(L, C->err);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return spmv_fail(C->err, "%s:%ld: file ends in the %s section after %lld of its %lld cards",
                             L->path, L->line + 1, C->section, C->card, C->cards);
        C->card++;
        C->pos = 0;
    }
    size_t start = (size_t)C->pos * (size_t)C->f->width;
    if (start >= L->len || L->buf[start] == '\0')
        return spmv_fail(C->err, "%s:%ld: card ends before field %d (columns %zu-%zu) of format %s in the %s section",
                         L->path, L->line, C->pos + 1, start + 1, start + (size_t)C->f->width,
                         C->f->text, C->section);
    *s = L->buf + start;
    *n = L->len - start < (size_t)C->f->width ? L->len - start : (size_t)C->f->width;
    C->pos++;
    return 0;
}

static int bad_field(cards *C, const char *what, int rc, const char *s, size_t n)
{
    char q[200];
    rd_quote(s, n, q, sizeof q);
    size_t start = (size_t)(C->pos - 1) * (size_t)C->f->width;
    const char *why = rc == -3 ? "is blank" : rc == -2 ? "is out of range" :
                      C->f->kind == 'I' ? "is not an integer" : "is not a number";
    return spmv_fail(C->err, "%s:%ld: %s '%s' (columns %zu-%zu, format %s) %s", C->L->path, C->L->line,
                     what, q, start + 1, start + (size_t)C->f->width, C->f->text, why);
}

/* Header integer: the I14 field at columns [at, at+14) of the current line.
 * blank_ok: a blank field reads 0 (old files omit RHSCRD). */
static int header_int(rd_lines *L, size_t at, const char *name, int blank_ok, long long *v, spmv_error *err)
{
    const char *s = at < L->len ? L->buf + at : "";
    size_t n = at < L->len ? (L->len - at < 14 ? L->len - at : 14) : 0;
    int rc = field_int(s, n, v);
    if (rc == -3 && blank_ok) {
        *v = 0;
        return 0;
    }
    if (rc == 0 && *v >= 0)
        return 0;
    char q[200];
    rd_quote(s, n, q, sizeof q);
    if (rc == 0)
        return spmv_fail(err, "%s:%ld: %s is negative (%lld)", L->path, L->line, name, *v);
    return spmv_fail(err, "%s:%ld: %s '%s' (columns %zu-%zu) %s", L->path, L->line, name, q, at + 1,
                     at + 14, rc == -3 ? "is missing" : rc == -2 ? "is too large" : "is not an integer");
}

static int header_line(rd_lines *L, int which, spmv_error *err)
{
    static const char *const what[] = {"", "title", "card counts", "type and size", "formats", "right-hand-side"};
    int rc = rd_next(L, err);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        if (which == 1)
            return spmv_fail(err, "%s:1: empty file (expected a Harwell-Boeing header)", L->path);
        return spmv_fail(err, "%s:%d: file ends in the header: line %d (the %s line) is missing",
                         L->path, which, which, what[which]);
    }
    return 0;
}

static int get_fmt(rd_lines *L, size_t at, size_t width, const char *name, ffmt *f, spmv_error *err)
{
    const char *why;
    size_t n = at < L->len ? (L->len - at < width ? L->len - at : width) : 0;
    if (parse_fmt(at < L->len ? L->buf + at : "", n, f, &why) == 0)
        return 0;
    char q[200];
    rd_quote(at < L->len ? L->buf + at : "", n, q, sizeof q);
    return spmv_fail(err, "%s:%ld: %s '%s' (columns %zu-%zu) is not a format this reader handles: %s",
                     L->path, L->line, name, q, at + 1, at + width, why);
}

static long long cards_for(long long count, const ffmt *f)
{
    return (count + f->repeat - 1) / f->repeat;
}

static int read_hb(rd_lines *L, coo_matrix *A, rd_entries *E, long long **ptrp, spmv_error *err)
{
    const char *path = L->path;
    long long totcrd, ptrcrd, indcrd, valcrd, rhscrd, nrow, ncol, nnz, neltvl;

    if (header_line(L, 1, err) || header_line(L, 2, err))
        return -1;
    if (header_int(L, 0, "TOTCRD", 0, &totcrd, err) || header_int(L, 14, "PTRCRD", 0, &ptrcrd, err) ||
        header_int(L, 28, "INDCRD", 0, &indcrd, err) || header_int(L, 42, "VALCRD", 1, &valcrd, err) ||
        header_int(L, 56, "RHSCRD", 1, &rhscrd, err))
        return -1;
    long counts_line = L->line;

    if (header_line(L, 3, err))
        return -1;
    char type[4] = {0};
    for (int i = 0; i < 3; i++)
        type[i] = i < (int)L->len ? (char)toupper((unsigned char)L->buf[i]) : ' ';
    char q[200];
    rd_quote(L->buf, L->len < 3 ? L->len : 3, q, sizeof q);
    if (type[2] == 'E' && strchr("RCPI", type[0]) && type[0])
        return spmv_fail(err, "%s:3: elemental (unassembled) matrix, type '%s', is not supported; "
                         "only assembled matrices (third letter A)", path, q);
    if (!type[0] || !strchr("RCPI", type[0]) || !type[1] || !strchr("USHZR", type[1]) || type[2] != 'A')
        return spmv_fail(err, "%s:3: type code '%s' is not a Harwell-Boeing type (first letter R, C, P "
                         "or I; second U, S, H, Z or R; third A)", path, q);
    if (header_int(L, 14, "NROW", 0, &nrow, err) || header_int(L, 28, "NCOL", 0, &ncol, err) ||
        header_int(L, 42, "NNZERO", 0, &nnz, err) || header_int(L, 56, "NELTVL", 1, &neltvl, err))
        return -1;
    int complex_values = type[0] == 'C', pattern = type[0] == 'P';
    enum rd_symmetry sym = type[1] == 'S' ? RD_SYMMETRIC : type[1] == 'H' ? RD_HERMITIAN :
                           type[1] == 'Z' ? RD_SKEW : RD_GENERAL;
    if (sym == RD_HERMITIAN && !complex_values)
        return spmv_fail(err, "%s:3: type '%s': Hermitian needs complex values (first letter C)", path, q);
    if (sym == RD_SKEW && pattern)
        return spmv_fail(err, "%s:3: type '%s': a skew-symmetric pattern is not valid (the mirrored "
                         "entries would need values)", path, q);
    /* an entry: at least its row index, one character of a fixed-width field */
    if (rd_check_size(L, 3, nrow, ncol, nnz, sym, complex_values, 1, err))
        return -1;

    if (header_line(L, 4, err))
        return -1;
    ffmt pf, inf, vf;
    if (get_fmt(L, 0, 16, "PTRFMT", &pf, err) || get_fmt(L, 16, 16, "INDFMT", &inf, err) ||
        (!pattern && get_fmt(L, 32, 20, "VALFMT", &vf, err)))
        return -1;
    if (pf.kind != 'I')
        return spmv_fail(err, "%s:4: PTRFMT %s must be an integer format like (10I8)", path, pf.text);
    if (inf.kind != 'I')
        return spmv_fail(err, "%s:4: INDFMT %s must be an integer format like (10I8)", path, inf.text);
    if (rhscrd > 0 && header_line(L, 5, err))
        return -1;

    /* The card counts must match what the formats imply: a mismatch means the
     * header and the data disagree, and guessing which is right is not ours. */
    long long nval = pattern ? 0 : (complex_values ? 2 : 1) * nnz;
    if (ptrcrd != cards_for(ncol + 1, &pf))
        return spmv_fail(err, "%s:%ld: PTRCRD is %lld but %lld column pointers in format %s take %lld cards",
                         path, counts_line, ptrcrd, ncol + 1, pf.text, cards_for(ncol + 1, &pf));
    if (indcrd != cards_for(nnz, &inf))
        return spmv_fail(err, "%s:%ld: INDCRD is %lld but %lld row indices in format %s take %lld cards",
                         path, counts_line, indcrd, nnz, inf.text, cards_for(nnz, &inf));
    if (pattern && valcrd != 0)
        return spmv_fail(err, "%s:%ld: VALCRD is %lld but a pattern matrix (type %s) has no values",
                         path, counts_line, valcrd, type);
    if (!pattern && valcrd == 0 && nnz > 0)
        return spmv_fail(err, "%s:%ld: VALCRD is 0: type %s needs a value section (only type P has none)",
                         path, counts_line, type);
    if (!pattern && valcrd != cards_for(nval, &vf))
        return spmv_fail(err, "%s:%ld: VALCRD is %lld but %lld values in format %s take %lld cards",
                         path, counts_line, valcrd, nval, vf.text, cards_for(nval, &vf));
    if (totcrd != ptrcrd + indcrd + valcrd + rhscrd)
        return spmv_fail(err, "%s:%ld: TOTCRD is %lld but PTRCRD+INDCRD+VALCRD+RHSCRD = %lld",
                         path, counts_line, totcrd, ptrcrd + indcrd + valcrd + rhscrd);

    A->rows = (int)nrow;
    A->cols = (int)ncol;
    rd_set_names(&A->origin, path);
    snprintf(A->origin.format, sizeof A->origin.format, "harwell-boeing");
    snprintf(A->origin.field, sizeof A->origin.field, "%s",
             pattern ? "pattern" : complex_values ? "complex" : type[0] == 'I' ? "integer" : "real");

    /* column pointers */
    long long *ptr = spmv_alloc((size_t)(ncol + 1), sizeof *ptr, "column pointers", err);
    if (!ptr) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        return spmv_fail(err, "%s:3: %s", path, m);
    }
    *ptrp = ptr;
    cards C = {L, &pf, "column pointer", ptrcrd, 0, 0, err};
    const char *s;
    size_t n;
    for (long long j = 0; j <= ncol; j++) {
        if (next_field(&C, &s, &n))
            return -1;
        int rc = field_int(s, n, &ptr[j]);
        if (rc)
            return bad_field(&C, "column pointer", rc, s, n);
        if (j == 0 && ptr[0] != 1)
            return spmv_fail(err, "%s:%ld: first column pointer is %lld, must be 1", path, L->line, ptr[0]);
        if (j > 0 && ptr[j] < ptr[j - 1])
            return spmv_fail(err, "%s:%ld: column pointer %lld (%lld) is less than the one before (%lld); "
                             "pointers must not decrease", path, L->line, j + 1, ptr[j], ptr[j - 1]);
        if (ptr[j] > nnz + 1)
            return spmv_fail(err, "%s:%ld: column pointer %lld (%lld) is past NNZERO+1 = %lld",
                             path, L->line, j + 1, ptr[j], nnz + 1);
    }
    if (ptr[ncol] != nnz + 1)
        return spmv_fail(err, "%s:%ld: last column pointer is %lld, must be NNZERO+1 = %lld",
                         path, L->line, ptr[ncol], nnz + 1);

    /* row indices: the entries, checked against the symmetry as they come */
    rd_entries_init(E, path, sym, complex_values, nnz);
    C = (cards){L, &inf, "row index", indcrd, 0, 0, err};
    long long j = 0;
    for (long long k = 0; k < nnz; k++) {
        while (ptr[j + 1] - 1 <= k)
            j++;
        long long r;
        if (next_field(&C, &s, &n))
            return -1;
        int rc = field_int(s, n, &r);
        if (rc)
            return bad_field(&C, "row index", rc, s, n);
        if (r < 1 || r > nrow)
            return spmv_fail(err, "%s:%ld: row index %lld out of range 1..%lld (column %lld)",
                             path, L->line, r, nrow, j + 1);
        if (rd_entries_add(E, L->line, (int)(r - 1), (int)j, 1.0, 0.0, err))
            return -1;
    }

    /* values, filled into the entries in the same order */
    if (!pattern) {
        C = (cards){L, &vf, "value", valcrd, 0, 0, err};
        for (long long k = 0; k < nnz; k++) {
            for (int part = 0; part < 1 + complex_values; part++) {
                double v;
                if (next_field(&C, &s, &n))
                    return -1;
                int rc = field_real(s, n, &vf, &v);
                if (rc)
                    return bad_field(&C, complex_values ? (part ? "imaginary part" : "real part") : "value",
                                     rc, s, n);
                if (part)
                    E->im[k] = v;
                else
                    E->re[k] = v;
            }
            /* a Hermitian diagonal with an imaginary part is kept as stored (see readutil.c) */
        }
    }

    /* the right-hand sides: skipped, but they must be there */
    for (long long k = 0; k < rhscrd; k++) {
        int rc = rd_next(L, err);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return spmv_fail(err, "%s:%ld: file ends in the right-hand-side section after %lld of its %lld cards",
                             path, L->line + 1, k, rhscrd);
    }
    int rc;
    while ((rc = rd_next(L, err)) == 1) {
        size_t i = 0;
        while (i < L->len && (L->buf[i] == ' ' || L->buf[i] == '\t'))
            i++;
        if (i < L->len)
            return spmv_fail(err, "%s:%ld: more cards than the header declares (TOTCRD %lld after %ld header lines)",
                             path, L->line, totcrd, rhscrd > 0 ? 5L : 4L);
    }
    if (rc < 0)
        return -1;
    return rd_entries_finish(E, A, err);
}

int hb_read(const char *path, struct spmv_limits *lim, coo_matrix *A, spmv_error *err)
{
    rd_lines L;
    rd_entries E;
    long long *ptr = NULL;
    memset(A, 0, sizeof *A);
    rd_entries_init(&E, path, RD_GENERAL, 0, 0);
    if (rd_open(&L, path, err))
        return -1;
    L.lim = lim;
    int rc = read_hb(&L, A, &E, &ptr, err);
    rd_close(&L);
    free(ptr);
    if (rc) {
        rd_entries_free(&E);
        coo_free(A);
        memset(A, 0, sizeof *A);
    }
    return rc;
}
