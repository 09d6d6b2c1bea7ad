/* readutil.c - what the matrix readers share (readutil.h): the line reader,
 * the growing entry list, the symmetry expansion, the size check, and the
 * Matrix Market token rules that the vector reader (io.c) uses too.
 *
 * The readers (mmio.c, hb.c), the vector reader (io.c) and the dispatcher
 * (matrix_read.c) call in here; nothing here calls back into them.
 */
#include "readutil.h"
#include "capacity.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char rd_symmetry_name[4][16] = {"general", "symmetric", "skew-symmetric", "hermitian"};

/* ---- lines -------------------------------------------------------------- */

int rd_open(rd_lines *L, const char *path, spmv_error *err)
{
    memset(L, 0, sizeof *L);
    L->path = path;
    L->f = fopen(path, "rb");
    if (!L->f)
        return spmv_fail(err, "%s:0: cannot open: %s", path, strerror(errno));
    return 0;
}

void rd_close(rd_lines *L)
{
    if (L->f)
        fclose(L->f);
    free(L->buf);
    memset(L, 0, sizeof *L);
}

int rd_next(rd_lines *L, spmv_error *err)
{
    int c, any = 0;
    L->len = 0;
    while ((c = getc(L->f)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (c == '\0')
            return spmv_fail(err, "%s:%ld: NUL byte in the text (a binary or corrupted file?)",
                             L->path, L->line + 1);
        if (L->len + 1 >= L->cap) {
            if (L->cap >= RD_MAX_LINE)
                return spmv_fail(err, "%s:%ld: line longer than %d bytes (not a matrix file?)",
                                 L->path, L->line + 1, RD_MAX_LINE);
            size_t cap = L->cap ? 2 * L->cap : 256;
            char *b = realloc(L->buf, cap);
            if (!b)
                return spmv_fail(err, "%s:%ld: out of memory reading a line", L->path, L->line + 1);
            L->buf = b;
            L->cap = cap;
        }
        L->buf[L->len++] = (char)c;
    }
    if (ferror(L->f))
        return spmv_fail(err, "%s:%ld: read error: %s", L->path, L->line + 1, strerror(errno));
    if (!any)
        return 0;
    if (!L->buf) { /* an empty last line before EOF: give it a buffer */
        L->buf = malloc(256);
        if (!L->buf)
            return spmv_fail(err, "%s:%ld: out of memory reading a line", L->path, L->line + 1);
        L->cap = 256;
    }
    if (L->len > 0 && L->buf[L->len - 1] == '\r') /* files written on Windows */
        L->len--;
    L->buf[L->len] = '\0';
    L->line++;
    return 1;
}

void rd_quote(const char *s, size_t n, char *out, size_t outsz)
{
    size_t o = 0, i;
    for (i = 0; i < n && o + 5 < outsz && i < 40; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, outsz - o, "\\x%02x", c);
    }
    if (i < n && o + 4 < outsz) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

void rd_set_names(spmv_origin *o, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        n = (size_t)(dot - base);
    if (n >= sizeof o->name)
        n = sizeof o->name - 1;
    memcpy(o->name, base, n);
    o->name[n] = '\0';
    snprintf(o->source, sizeof o->source, "%s", path);
}

/* ---- entries ------------------------------------------------------------ */

void rd_entries_init(rd_entries *E, const char *path, enum rd_symmetry sym, int complex_values,
                     long long limit)
{
    memset(E, 0, sizeof *E);
    E->path = path;
    E->sym = sym;
    E->complex_values = complex_values;
    E->limit = limit;
}

void rd_entries_free(rd_entries *E)
{
    free(E->row);
    free(E->col);
    free(E->re);
    free(E->im);
    E->row = E->col = NULL;
    E->re = E->im = NULL;
    E->n = E->cap = 0;
}

/* Grow each array to cap entries in place where the allocator can. */
static int grow_to(rd_entries *E, long long cap, spmv_error *err)
{
    void *p;
    if (!(p = spmv_realloc(E->row, (size_t)cap, sizeof *E->row, "row indices", err)))
        return -1;
    E->row = p;
    if (!(p = spmv_realloc(E->col, (size_t)cap, sizeof *E->col, "column indices", err)))
        return -1;
    E->col = p;
    if (!(p = spmv_realloc(E->re, (size_t)cap, sizeof *E->re, "values", err)))
        return -1;
    E->re = p;
    if (E->complex_values) {
        if (!(p = spmv_realloc(E->im, (size_t)cap, sizeof *E->im, "imaginary parts", err)))
            return -1;
        E->im = p;
    }
    E->cap = cap;
    return 0;
}

static int grow(rd_entries *E, spmv_error *err)
{
    long long cap = E->cap ? 2 * E->cap : 4096;
    if (cap > E->limit)
        cap = E->limit;
    return grow_to(E, cap, err);
}

int rd_entries_add(rd_entries *E, long line, int r, int c, double re, double im, spmv_error *err)
{
    if (r == c) {
        if (E->sym == RD_SKEW)
            return spmv_fail(err, "%s:%ld: diagonal entry (%d,%d) in a skew-symmetric matrix "
                             "(its diagonal is zero and is not stored)", E->path, line, r + 1, c + 1);
        /* A Hermitian diagonal should be real, but some files store an imaginary
         * part there (CHOLMOD's cha.mtx does). Like SciPy's and Octave's mmread we
         * keep the entry as stored, so the course computes the same product. */
    } else if (E->sym != RD_GENERAL) {
        /* Mirroring a file that stores both triangles would add every entry twice. */
        if (r > c && !E->lower_line) {
            E->lower_line = line;
        }
        if (r < c && !E->upper_line) {
            E->upper_line = line;
        }
        if (E->lower_line && E->upper_line) {
            long other = r > c ? E->upper_line : E->lower_line;
            return spmv_fail(err, "%s:%ld: entry (%d,%d) is %s the diagonal but line %ld has one %s it; "
                             "a %s file stores one triangle only", E->path, line, r + 1, c + 1,
                             r > c ? "below" : "above", other, r > c ? "above" : "below",
                             rd_symmetry_name[E->sym]);
        }
    }
    if (E->n == E->cap) {
        if (E->n >= E->limit)
            return spmv_fail(err, "%s:%ld: more entries than the %lld declared", E->path, line, E->limit);
        spmv_error e;
        if (grow(E, &e) != 0)
            return spmv_fail(err, "%s:%ld: %s", E->path, line, e.msg);
    }
    E->row[E->n] = r;
    E->col[E->n] = c;
    E->re[E->n] = re;
    if (E->im)
        E->im[E->n] = im;
    E->n++;
    return 0;
}

int rd_check_size(const rd_lines *L, long line, long long rows, long long cols, long long stored,
                  enum rd_symmetry sym, int complex_values, int min_entry_bytes, spmv_error *err)
{
    const char *path = L->path;
    if (rows > INT_MAX - 1 || cols > INT_MAX - 1)
        return spmv_fail(err, "%s:%ld: %lld x %lld matrix: rows and columns are limited to %d",
                         path, line, rows, cols, INT_MAX - 1);
    if (sym != RD_GENERAL && rows != cols)
        return spmv_fail(err, "%s:%ld: a %s matrix must be square, this one is %lld x %lld",
                         path, line, rd_symmetry_name[sym], rows, cols);
    /* rows, cols < 2^31, so these products fit in a long long */
    long long most = rows * cols;
    const char *what = "rows*cols";
    if (sym == RD_SYMMETRIC || sym == RD_HERMITIAN) {
        most = rows * (rows + 1) / 2;
        what = "one triangle with its diagonal";
    } else if (sym == RD_SKEW) {
        most = rows * (rows - 1) / 2;
        what = "one triangle without its diagonal";
    }
    /* More entries than that only by repeating some (the loader sums them:
     * GraphBLAS's test files declare 3 x 1 with 4 entries), so the count is
     * then held to what the rest of the file can hold, each entry at least
     * min_entry_bytes long, its newline included (the last may lack one). */
    if (stored > most) {
        struct stat st;
        long at = ftell(L->f);
        if (at >= 0 && fstat(fileno(L->f), &st) == 0 && S_ISREG(st.st_mode)) {
            long long left = (long long)st.st_size - at, room = (left + 1) / min_entry_bytes;
            if (stored > room)
                return spmv_fail(err, "%s:%ld: %lld entries declared, more than %s of a %lld x %lld matrix holds "
                                 "(%lld) and more than the rest of the file can hold (%lld bytes: room for %lld "
                                 "entry lines of %d bytes or more)", path, line, stored, what, rows, cols, most, left, room,
                                 min_entry_bytes);
        }
    }
    /* before anything of this size exists: the run's memory and device limits
     * (capacity.h); a symmetric file may expand to twice its entries */
    long long total = sym == RD_GENERAL ? stored : 2 * stored;
    spmv_error e;
    spmv_size s = { .rows = rows, .cols = cols, .nnz = total, .complex_ = complex_values, .from = SPMV_FROM_FILE };
    if (spmv_fits(L->lim, &s, &e))
        return spmv_fail(err, "%s:%ld: %lld x %lld matrix with %lld entries declared: %s",
                         path, line, rows, cols, stored, e.msg);
    return 0;
}

/* The entries become A's arrays: a general matrix as they are, a symmetric
 * one after its mirror images are appended in place (no second copy). */
int rd_entries_finish(rd_entries *E, coo_matrix *A, spmv_error *err)
{
    long long diag = 0;
    for (long long k = 0; k < E->n; k++)
        diag += E->row[k] == E->col[k];
    long long total = E->sym == RD_GENERAL ? E->n : 2 * E->n - diag;
    if (total > E->cap || !E->row) {
        spmv_error e;
        if (grow_to(E, total ? total : 1, &e)) {
            rd_entries_free(E);
            memset(A, 0, sizeof *A);
            return spmv_fail(err, "%s:0: %s", E->path, e.msg);
        }
    }
    long long m = E->n;
    if (E->sym != RD_GENERAL) {
        for (long long k = 0; k < E->n; k++) {
            if (E->row[k] == E->col[k])
                continue;
            E->row[m] = E->col[k];
            E->col[m] = E->row[k];
            E->re[m] = E->sym == RD_SKEW ? -E->re[k] : E->re[k];
            if (E->im)
                E->im[m] = E->sym == RD_SKEW || E->sym == RD_HERMITIAN ? -E->im[k] : E->im[k];
            m++;
        }
    }
    A->row = E->row;
    A->col = E->col;
    A->re = E->re;
    A->im = E->complex_values ? E->im : NULL;
    A->nnz = total;
    A->origin.stored = E->n;
    A->origin.expanded = E->sym != RD_GENERAL;
    snprintf(A->origin.symmetry, sizeof A->origin.symmetry, "%s", rd_symmetry_name[E->sym]);
    E->row = E->col = NULL;
    E->re = E->im = NULL;
    E->n = E->cap = 0;
    return 0;
}

/* ---- Matrix Market tokens -------------------------------------------- */

/* Next blank-separated token of *p: start in *tok, length returned (0: none left). */
size_t rd_token(const char **p, const char **tok)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f')
        s++;
    *tok = s;
    while (*s && !(*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f'))
        s++;
    *p = s;
    return (size_t)(s - *tok);
}

int rd_word_is(const char *tok, size_t n, const char *w)
{
    if (strlen(w) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)tok[i]) != tolower((unsigned char)w[i]))
            return 0;
    return 1;
}

int rd_blank_or_comment(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f')
        s++;
    return *s == '\0' || *s == '%';
}

/* A whole token as a decimal integer: 0 ok, -1 not an integer, -2 out of range. */
int rd_parse_ll(const char *tok, size_t n, long long *v)
{
    char buf[64];
    size_t i = 0;
    if (n == 0 || n >= sizeof buf)
        return n ? -2 : -1;
    memcpy(buf, tok, n);
    buf[n] = '\0';
    if (buf[i] == '+' || buf[i] == '-')
        i++;
    if (!buf[i])
        return -1;
    for (; buf[i]; i++)
        if (!isdigit((unsigned char)buf[i]))
            return -1;
    errno = 0;
    *v = strtoll(buf, NULL, 10);
    return errno == ERANGE ? -2 : 0;
}

/* A whole token as a finite decimal number (no hex, inf or nan):
 * 0 ok, -1 not a number, -2 out of range. */
int rd_parse_double(const char *tok, size_t n, double *v)
{
    char buf[128];
    if (n == 0)
        return -1;
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, tok, n);
    buf[n] = '\0';
    int digits = 0;
    for (size_t i = 0; i < n; i++) {
        if (isdigit((unsigned char)buf[i]))
            digits = 1;
        else if (!strchr("+-.eE", buf[i]))
            return -1;
    }
    if (!digits)
        return -1;
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    if (*end)
        return -1;
    if (!isfinite(*v))
        return -2;
    return 0;
}

/* One number of a size line; `expected` says what the whole line should be. */
int rd_size_number(rd_lines *L, const char *what, const char *expected, const char **p, long long *v,
                   spmv_error *err)
{
    const char *t;
    char q[200];
    size_t n = rd_token(p, &t);
    if (n == 0)
        return spmv_fail(err, "%s:%ld: size line lacks the %s (expected %s)", L->path, L->line, what, expected);
    rd_quote(t, n, q, sizeof q);
    int rc = rd_parse_ll(t, n, v);
    if (rc == -1)
        return spmv_fail(err, "%s:%ld: %s '%s' in the size line is not an integer", L->path, L->line, what, q);
    if (rc == -2)
        return spmv_fail(err, "%s:%ld: %s %s in the size line is too large", L->path, L->line, what, q);
    if (*v < 0)
        return spmv_fail(err, "%s:%ld: negative %s %lld in the size line", L->path, L->line, what, *v);
    return 0;
}
