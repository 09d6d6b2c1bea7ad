/* readutil.h - what the matrix readers (mmio.c, hb.c), the vector reader
 * (mmvector.c) and the dispatcher (matrix_read.c) share; private to them.
 *
 * A line reader that never truncates silently and never trusts the file, the
 * growing entry list the readers fill, and the one place where symmetric,
 * skew-symmetric and Hermitian storage is expanded into the full COO matrix.
 * Implemented in readutil.c. Every failing function fills *err with
 * "FILE:LINE: what was wrong" and returns -1.
 */
#ifndef SPMV_READUTIL_H
#define SPMV_READUTIL_H

#include "formats.h"

#include <stdio.h>

/* Longest line accepted. Real matrix files stay below a few hundred bytes;
 * a longer line is almost surely not a matrix file, and reading it whole
 * would let a file ask for any amount of memory. */
#define RD_MAX_LINE (1 << 20)

typedef struct {
    FILE *f;
    const char *path;
    long line;          /* number of the line in buf, 1-based; 0 before the first */
    char *buf;          /* the line without its '\n' (and without a final '\r') */
    size_t len, cap;
    struct spmv_limits *lim;   /* the run the sizes are judged against (capacity.h); NULL: the host alone */
} rd_lines;

int rd_open(rd_lines *L, const char *path, spmv_error *err);
/* 1: a line is in L->buf; 0: end of file; -1: error (NUL byte, overlong line, read error) */
int rd_next(rd_lines *L, spmv_error *err);
void rd_close(rd_lines *L);

/* Copy at most 40 bytes of s[0..n) into out, escaping what is not printable,
 * so an error message quoting a piece of a binary file stays one clean line. */
void rd_quote(const char *s, size_t n, char *out, size_t outsz);

/* Fill A->origin.name (base name without extension) and .source from path. */
void rd_set_names(spmv_origin *o, const char *path);

enum rd_symmetry { RD_GENERAL, RD_SYMMETRIC, RD_SKEW, RD_HERMITIAN };
extern const char rd_symmetry_name[4][16];

/* Stored entries as read (0-based), growing on demand up to `limit`, so a file
 * that declares many entries and then ends early costs no big allocation. */
typedef struct {
    const char *path;
    enum rd_symmetry sym;
    int complex_values;
    long long n, cap, limit;
    int *row, *col;
    double *re, *im;
    long lower_line, upper_line;    /* first line with an entry below / above the diagonal */
} rd_entries;

void rd_entries_init(rd_entries *E, const char *path, enum rd_symmetry sym, int complex_values,
                     long long limit);
/* Check an entry against the symmetry (skew diagonal, Hermitian diagonal,
 * entries in both triangles) and append it. line: where it was read. */
int rd_entries_add(rd_entries *E, long line, int r, int c, double re, double im, spmv_error *err);
/* Would rows x cols with `stored` entries (expanded for a symmetry) fit the
 * run of L->lim (capacity.h), before anything of that size exists? A count
 * above what the matrix holds (repeated entries, summed) must fit in the
 * rest of the file (L->f, read up to the header), min_entry_bytes an entry. */
int rd_check_size(const rd_lines *L, long line, long long rows, long long cols, long long stored,
                  enum rd_symmetry sym, int complex_values, int min_entry_bytes, spmv_error *err);
/* Expand the symmetry into A (rows, cols and origin already set by the caller
 * except nnz/expanded/stored) and free E. On failure frees E and zeroes A. */
int rd_entries_finish(rd_entries *E, coo_matrix *A, spmv_error *err);
void rd_entries_free(rd_entries *E);

/* The Matrix Market token rules, used by mmio.c and by the vector reader (mmvector.c).
 * rd_token: next blank-separated token of *p, its length (0: none left).
 * rd_parse_ll / rd_parse_double: the whole token as a decimal integer / a finite
 * decimal number: 0 ok, -1 not a number, -2 out of range. */
size_t rd_token(const char **p, const char **tok);
/* Is the token tok[0..n) the word w, ignoring case? (cha.mtx spells its
 * symmetry "Hermitian") */
int rd_word_is(const char *tok, size_t n, const char *w);
int rd_blank_or_comment(const char *s);
int rd_parse_ll(const char *tok, size_t n, long long *v);
int rd_parse_double(const char *tok, size_t n, double *v);

/* One number of a Matrix Market size line; `expected` describes the
 * whole line for the message. */
int rd_size_number(rd_lines *L, const char *what, const char *expected, const char **p, long long *v,
                   spmv_error *err);

#endif
