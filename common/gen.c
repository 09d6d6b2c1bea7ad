/* gen.c - irregular matrices without downloads (--gen SPEC).
 *
 * Most real matrices are not grids: their rows have very different lengths
 * (a circuit's supply net, a web page's in-links, an LP's linking row). These
 * generators make such matrices at any size, from the seed alone, so that
 * every machine builds the same one:
 *
 *   powerlaw:rows=N[,cols=C][,mean=M][,exp=A]   row lengths from a Pareto law of
 *                             shape A (default 1.6) scaled to mean M (default 15):
 *                             most rows short, a few very long (the smaller A,
 *                             the heavier the tail)
 *   uniform:rows=N[,cols=C][,min=a][,max=b]     row lengths uniform in [a, b]
 *   arrow:rows=N                                a full first row and first
 *                             column, and the diagonal: one row holds a third
 *                             of the nonzeros
 *   short:rows=N[,mean=M][,band=B]              very short rows near the
 *                             diagonal (a road network, a mesh of low degree):
 *                             lengths 1 to k, mean M (default 2.5: 1 to 4, each
 *                             as likely), columns within a band of B (default
 *                             32) around the diagonal; square
 *   poisson:nx=W[,ny=H]                         not irregular, and no random
 *                             numbers: the 5-point 2-D Laplacian on a W x H
 *                             grid (ny = nx if not given), Dirichlet boundary,
 *                             chapter 7's symmetric positive definite matrix.
 *                             Row i = y*W + x holds 4 on the diagonal and -1 for
 *                             each neighbour (x+-1, y+-1) inside the grid,
 *                             columns ascending: n = W*H rows, 5n - 2W - 2H
 *                             nonzeros
 *   poisson3d:nx=N[,ny=..][,nz=..]              the 7-point 3-D Laplacian on an
 *                             nx x ny x nz box (ny, nz = nx if not given),
 *                             Dirichlet boundary: 6 on the diagonal, -1 for each
 *                             of the 6 neighbours inside the box. Row
 *                             i = (z*ny + y)*nx + x, x fastest, columns
 *                             ascending: n = nx*ny*nz rows,
 *                             7n - 2(nx*ny + ny*nz + nx*nz) nonzeros
 *   stencil27:nx=N[,ny=..][,nz=..]              the full 3x3x3 neighbourhood on
 *                             the same box (the rows of trilinear hexahedral
 *                             finite elements): 26 on the diagonal, -1 for each
 *                             of the 26 neighbours inside the box,
 *                             (3nx-2)(3ny-2)(3nz-2) nonzeros. Symmetric
 *                             positive definite: diagonally dominant, strictly
 *                             on the boundary rows, and irreducible (not the
 *                             FEM's values, 8/3 and -1/6, -1/12, 0 on faces:
 *                             those are not exact in float, and a stored 0,
 *                             a product of nothing, lets a kernel skip it unseen)
 *
 * Columns are distinct and uniformly random within a row (within its band for
 * short), values uniform in [-1, 1). Each row draws from its own stream (seed, row), so the matrix does
 * not depend on the number of OpenMP threads that build it.
 */
#include "capacity.h"
#include "matrix.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GEN_POWERLAW, GEN_UNIFORM, GEN_ARROW, GEN_SHORT, GEN_POISSON };

typedef struct {
    int kind;
    long long rows, cols;
    double mean, exponent;
    long long min, max;
    long long band;   /* short: columns within this many around the diagonal */
    int cols_set;
    long long nx, ny;   /* poisson */
} gen_spec;

/* (0, 1]: never 0, so a Pareto draw is finite */
static double unit_open0(spmv_rng *g)
{
    return (double)((spmv_rng_next(g) >> 11) + 1) * 0x1.0p-53;
}

static int parse_num(const char *key, const char *v, double lo, double hi, double *out, spmv_error *err)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (errno || end == v || *end || !(d >= lo && d <= hi))
        return spmv_fail(err, "--gen: %s wants a number from %g to %g, not '%s'", key, lo, hi, v);
    *out = d;
    return 0;
}

/* short: lengths 1 to k, each as likely, have the mean (k + 1) / 2; a mean M
 * between two such means draws from 1..k or 1..k+1 (k = floor(2M - 1)) with
 * the weights that make the mean M. The longest row is then ceil(2M - 1). */
static long long short_longest(double mean)
{
    return (long long)ceil(2 * mean - 1 - 1e-9);
}

static int parse_spec(const char *spec, gen_spec *s, spmv_error *err)
{
    memset(s, 0, sizeof *s);
    s->mean = 15;
    s->exponent = 1.6;
    s->min = 1;
    s->max = 32;
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    if (klen == 8 && strncmp(spec, "powerlaw", 8) == 0)
        s->kind = GEN_POWERLAW;
    else if (klen == 7 && strncmp(spec, "uniform", 7) == 0)
        s->kind = GEN_UNIFORM;
    else if (klen == 5 && strncmp(spec, "arrow", 5) == 0)
        s->kind = GEN_ARROW;
    else if (klen == 5 && strncmp(spec, "short", 5) == 0)
        s->kind = GEN_SHORT, s->mean = 2.5, s->band = 32;
    else if (klen == 7 && strncmp(spec, "poisson", 7) == 0)
        s->kind = GEN_POISSON;
    else
        return spmv_fail(err, "--gen wants powerlaw:..., uniform:..., arrow:..., short:..., poisson:..., "
                         "poisson3d:... or stencil27:..., not '%.*s' "
                         "(example: --gen powerlaw:rows=262144,mean=15,exp=1.6)", (int)klen, spec);
    char buf[256];
    if (strlen(spec) >= sizeof buf)
        return spmv_fail(err, "--gen: the spec is longer than %zu characters", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", colon ? colon + 1 : "");
    int rows_set = 0, min_set = 0, max_set = 0, band_set = 0;
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return spmv_fail(err, "--gen: '%s' is not key=value", kv);
        *eq = 0;
        const char *k = kv, *v = eq + 1;
        double d;
        int ok_key = 1;
        if (s->kind == GEN_POISSON) {
            if (strcmp(k, "nx") != 0 && strcmp(k, "ny") != 0)
                return spmv_fail(err, "--gen poisson takes nx, ny, not '%s'", k);
            if (parse_num(k, v, 1, INT_MAX - 1, &d, err))
                return -1;
            if (d != floor(d))
                return spmv_fail(err, "--gen poisson: %s wants a whole number, not '%s'", k, v);
            *(k[1] == 'x' ? &s->nx : &s->ny) = (long long)d;
        } else if (strcmp(k, "rows") == 0) {
            if (parse_num(k, v, 1, INT_MAX - 1, &d, err))
                return -1;
            s->rows = (long long)d, rows_set = 1;
        } else if (strcmp(k, "cols") == 0 && s->kind != GEN_ARROW && s->kind != GEN_SHORT) {
            if (parse_num(k, v, 1, INT_MAX - 1, &d, err))
                return -1;
            s->cols = (long long)d, s->cols_set = 1;
        } else if (strcmp(k, "mean") == 0 && s->kind == GEN_POWERLAW) {
            if (parse_num(k, v, 0.01, 1e9, &s->mean, err))
                return -1;
        } else if (strcmp(k, "mean") == 0 && s->kind == GEN_SHORT) {
            if (parse_num(k, v, 1, 1e6, &s->mean, err))
                return -1;
        } else if (strcmp(k, "band") == 0 && s->kind == GEN_SHORT) {
            if (parse_num(k, v, 1, INT_MAX - 1, &d, err))
                return -1;
            s->band = (long long)d, band_set = 1;
        } else if (strcmp(k, "exp") == 0 && s->kind == GEN_POWERLAW) {
            if (parse_num(k, v, 1.05, 100, &s->exponent, err))
                return -1;
        } else if (strcmp(k, "min") == 0 && s->kind == GEN_UNIFORM) {
            if (parse_num(k, v, 0, INT_MAX - 1, &d, err))
                return -1;
            s->min = (long long)d, min_set = 1;
        } else if (strcmp(k, "max") == 0 && s->kind == GEN_UNIFORM) {
            if (parse_num(k, v, 0, INT_MAX - 1, &d, err))
                return -1;
            s->max = (long long)d, max_set = 1;
        } else {
            ok_key = 0;
        }
        if (!ok_key)
            return spmv_fail(err, "--gen %.*s takes %s, not '%s'", (int)klen, spec,
                             s->kind == GEN_POWERLAW ? "rows, cols, mean, exp"
                             : s->kind == GEN_UNIFORM ? "rows, cols, min, max"
                             : s->kind == GEN_SHORT ? "rows, mean, band" : "rows", k);
    }
    if (s->kind == GEN_POISSON) {
        if (!s->nx)
            return spmv_fail(err, "--gen poisson needs nx=W (example: --gen poisson:nx=1024 or nx=300,ny=200)");
        if (!s->ny)
            s->ny = s->nx;
        if (s->nx * s->ny >= INT_MAX)
            return spmv_fail(err, "--gen poisson: %lld x %lld is more than 2^31 rows; the device indexes "
                             "with int", s->nx, s->ny);
        s->rows = s->cols = s->nx * s->ny;
        return 0;
    }
    if (!rows_set)
        return spmv_fail(err, "--gen %.*s needs rows=N", (int)klen, spec);
    if (!s->cols_set)
        s->cols = s->rows;
    if (s->kind == GEN_UNIFORM) {
        if (!max_set && min_set && s->min > s->max)
            s->max = s->min;
        if (s->min > s->max)
            return spmv_fail(err, "--gen uniform: min=%lld is more than max=%lld", s->min, s->max);
        if (s->max > s->cols)
            return spmv_fail(err, "--gen uniform: max=%lld is more than the %lld columns", s->max, s->cols);
    }
    if (s->kind == GEN_SHORT) {
        if (!band_set && s->band > s->cols)   /* the default band, on fewer rows */
            s->band = s->cols;
        if (s->band > s->cols)
            return spmv_fail(err, "--gen short: band=%lld is more than the %lld columns", s->band, s->cols);
        if (short_longest(s->mean) > s->band)
            return spmv_fail(err, "--gen short: mean=%g makes rows of up to %lld entries, more than the "
                             "band=%lld holds", s->mean, short_longest(s->mean), s->band);
    }
    if (s->kind == GEN_POWERLAW && s->mean > (double)s->cols)
        return spmv_fail(err, "--gen powerlaw: mean=%g is more than the %lld columns", s->mean, s->cols);
    return 0;
}

/* The row's length. Pareto: x_min / U^(1/a) has mean a x_min / (a - 1), so
 * x_min = mean (a - 1) / a; rounded to the nearest integer, at most cols. */
static long long row_length(const gen_spec *s, long long r, spmv_rng *g)
{
    switch (s->kind) {
    case GEN_POWERLAW: {
        double xmin = s->mean * (s->exponent - 1) / s->exponent;
        double len = floor(xmin * pow(unit_open0(g), -1.0 / s->exponent) + 0.5);
        return len > (double)s->cols ? s->cols : (long long)len;
    }
    case GEN_UNIFORM:
        return s->min + (long long)(unit_open0(g) * (double)(s->max - s->min + 1) - 1e-9);
    case GEN_SHORT: {
        double k = floor(2 * s->mean - 1 + 1e-9), wider = 2 * s->mean - 1 - k;   /* the weight of 1..k+1 */
        if (unit_open0(g) <= wider)
            k += 1;
        return 1 + (long long)(unit_open0(g) * k - 1e-9);
    }
    default:   /* arrow: the first row full; the others the first column and the diagonal */
        return r == 0 ? s->cols : 2;
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* len distinct columns of [0, cols), sorted. Few of many: draw, sort, drop
 * repeats, draw the missing ones again. Many of few: selection sampling
 * (Knuth's algorithm S), one pass over the columns. */
static void draw_columns(int *col, long long len, long long cols, spmv_rng *g)
{
    if (len * 4 >= cols) {
        long long need = len;
        for (long long c = 0; c < cols && need > 0; c++)
            if ((double)(cols - c) * unit_open0(g) <= (double)need)
                col[len - need--] = (int)c;
        return;
    }
    long long have = 0;
    while (have < len) {
        for (long long k = have; k < len; k++)
            col[k] = (int)(spmv_rng_next(g) % (uint64_t)cols);
        qsort(col, (size_t)len, sizeof *col, cmp_int);
        have = 0;
        for (long long k = 0; k < len; k++)
            if (have == 0 || col[k] != col[have - 1])
                col[have++] = col[k];
    }
}

/* Row r's own random stream: its length, then its columns and values, so any
 * row can be drawn alone and the matrix is the same whatever the threads. */
static void row_stream(spmv_rng *g, uint64_t seed, long long r)
{
    spmv_rng_seed(g, (seed ^ 0x6e6e7a11ULL) * 0x9e3779b97f4a7c15ULL + (uint64_t)r);
}

/* Row r's len columns, ascending, drawn from its stream after its length */
static void row_columns(const gen_spec *s, long long r, long long len, int *col, spmv_rng *g)
{
    if (s->kind == GEN_ARROW && r > 0) {
        col[0] = 0;
        col[1] = (int)r;   /* r < cols: arrow is square and r > 0 */
    } else if (s->kind == GEN_SHORT) {   /* the band centred on the diagonal, moved inside at the edges */
        long long lo = r - s->band / 2;
        lo = lo < 0 ? 0 : lo > s->cols - s->band ? s->cols - s->band : lo;
        draw_columns(col, len, s->band, g);
        for (long long k = 0; k < len; k++)
            col[k] += (int)lo;
    } else {
        draw_columns(col, len, s->cols, g);
    }
}

static void spec_name(const gen_spec *s, uint64_t seed, char *name, size_t size)
{
    char shape[48];
    if (s->cols_set && s->cols != s->rows)
        snprintf(shape, sizeof shape, "%lldx%lld", s->rows, s->cols);
    else
        snprintf(shape, sizeof shape, "%lld", s->rows);
    if (s->kind == GEN_POWERLAW)
        snprintf(name, size, "powerlaw%s-m%g-e%g-s%llu", shape, s->mean, s->exponent, (unsigned long long)seed);
    else if (s->kind == GEN_UNIFORM)
        snprintf(name, size, "uniform%s-%lld-%lld-s%llu", shape, s->min, s->max, (unsigned long long)seed);
    else if (s->kind == GEN_SHORT)
        snprintf(name, size, "short%s-m%g-b%lld-s%llu", shape, s->mean, s->band, (unsigned long long)seed);
    else
        snprintf(name, size, "arrow%s-s%llu", shape, (unsigned long long)seed);
}

/* A DIA step's limit on diagonals (spmv_limits' dia_max_diags; 0: a CSR
 * step, none). A matrix that a DIA step cannot hold is refused from its
 * first rows, drawn from the same streams as the whole, before the whole is
 * drawn: 2e9 random rows would take minutes and tens of GB only to be
 * refused by csr_to_dia. */
/* The distinct diagonals (col - row) of the first rows; -1 with *err once
 * more than dia_limit are seen. The matrix holds these rows, so it has at
 * least as many diagonals: nothing a DIA step would accept is refused. */
static int dia_probe(const char *spec, const gen_spec *s, uint64_t seed, long long dia_limit, spmv_error *err)
{
    size_t tsize = 1;
    while (tsize < 2 * (size_t)(dia_limit + 1))
        tsize <<= 1;
    long long *tab = malloc(tsize * sizeof *tab);
    int *col = malloc((size_t)dia_limit * sizeof *col);
    if (!tab || !col) {
        free(tab);
        free(col);
        return spmv_fail(err, "--gen %s: out of host memory", spec);
    }
    for (size_t i = 0; i < tsize; i++)
        tab[i] = LLONG_MIN;
    long long seen = 0, probe = s->rows < 4 * dia_limit ? s->rows : 4 * dia_limit, drawn = 0;
    for (long long r = 0; r < probe && seen <= dia_limit; r++) {
        drawn = r + 1;
        spmv_rng g;
        row_stream(&g, seed, r);
        long long len = row_length(s, r, &g);
        if (len > dia_limit) {   /* distinct columns: as many diagonals in this row alone */
            seen = len;
            break;
        }
        row_columns(s, r, len, col, &g);
        for (long long k = 0; k < len && seen <= dia_limit; k++) {
            long long d = (long long)col[k] - r;
            size_t h = (size_t)((uint64_t)d * 0x9e3779b97f4a7c15ULL >> 32) & (tsize - 1);   /* Fibonacci hashing */
            while (tab[h] != LLONG_MIN && tab[h] != d)
                h = (h + 1) & (tsize - 1);
            if (tab[h] == LLONG_MIN) {
                tab[h] = d;
                seen++;
            }
        }
    }
    free(tab);
    free(col);
    if (seen <= dia_limit)
        return 0;
    return spmv_fail(err, "--gen %s: more than %lld occupied diagonals in its first %lld rows (the DIA steps "
                     "accept at most %lld); run it in CSR with step6-csr", spec, dia_limit,
                     drawn, dia_limit);
}

/* spmv_fits for a generated matrix of at least nnz nonzeros (exactly `drawn`
 * once the row lengths are drawn, -1 before), its message led by the spec */
static int gen_fits(spmv_limits *lim, const char *spec, long long rows, long long cols, long long nnz,
                    long long drawn, spmv_error *err)
{
    spmv_size s = { .rows = rows, .cols = cols, .nnz = nnz, .from = SPMV_FROM_CSR };
    if (!spmv_fits(lim, &s, err))
        return 0;
    char msg[sizeof err->msg], count[48] = "";
    snprintf(msg, sizeof msg, "%s", err->msg);
    if (drawn >= 0)
        snprintf(count, sizeof count, " (%lld nonzeros)", drawn);
    return spmv_fail(err, "--gen %s%s: %s", spec, count, msg);
}

/* The rest of a generated square matrix's origin (its name is the caller's) */
static void square_origin(spmv_origin *o, const char *spec, long long nnz)
{
    snprintf(o->source, sizeof o->source, "generator --gen %s", spec);
    snprintf(o->format, sizeof o->format, "generator");
    snprintf(o->field, sizeof o->field, "real");
    snprintf(o->symmetry, sizeof o->symmetry, "general");
    o->stored = nnz;
}

/* A square n x n CSR matrix of nnz entries, its arrays allocated (not
 * filled); -1 with *err and nothing kept when memory is short */
static int square_alloc(csr_matrix *A, long long n, long long nnz, spmv_error *err)
{
    A->ptr = spmv_alloc((size_t)n + 1, sizeof *A->ptr, "row pointers", err);
    A->col = A->ptr ? spmv_alloc(nnz ? (size_t)nnz : 1, sizeof *A->col, "column indices", err) : NULL;
    A->re = A->col ? spmv_alloc(nnz ? (size_t)nnz : 1, sizeof *A->re, "values", err) : NULL;
    if (!A->re) {
        csr_free(A);
        return -1;
    }
    A->rows = A->cols = (int)n;
    A->nnz = nnz;
    return 0;
}

/* The Poisson matrix, row by row: (x, y-1), (x-1, y), the diagonal, (x+1, y),
 * (x, y+1), the order of their columns. Row i's first entry is at
 * 5i - (boundary neighbours missing in rows before it), counted directly so
 * that rows fill in parallel. */
static long long poisson_start(long long W, long long H, long long i)
{
    long long y = i / W, x = i % W;
    /* rows before i: each would have 5, minus one per missing neighbour:
     * the first grid row misses its y-1 (W rows, or x of them if i is there),
     * every grid row misses x-1 at x = 0 and x+1 at x = W-1, the last grid
     * row misses y+1 */
    long long full = 5 * i;
    long long miss = y > 0 ? W : x;                       /* y-1 in grid row 0 */
    miss += y + (x > 0);                                  /* x-1 at x = 0 */
    miss += y;                                            /* x+1 at x = W-1 (row y's is not before i) */
    miss += y == H - 1 ? x : 0;                           /* y+1 in the last grid row */
    return full - miss;
}

static int poisson_generate(const char *spec, const gen_spec *s, spmv_limits *lim, csr_matrix *A, spmv_error *err)
{
    long long W = s->nx, H = s->ny, n = W * H, nnz = 5 * n - 2 * W - 2 * H;
    if (gen_fits(lim, spec, n, n, nnz, nnz, err))
        return -1;
    if (nnz >= INT_MAX)
        return spmv_fail(err, "--gen %s: %lld nonzeros, more than 2^31; the device indexes with int", spec, nnz);
    if (square_alloc(A, n, nnz, err))
        return -1;
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; i++) {
        long long y = i / W, x = i % W, k = poisson_start(W, H, i);
        A->ptr[i] = (int)k;
        if (y > 0)
            A->col[k] = (int)(i - W), A->re[k++] = -1;
        if (x > 0)
            A->col[k] = (int)(i - 1), A->re[k++] = -1;
        A->col[k] = (int)i, A->re[k++] = 4;
        if (x < W - 1)
            A->col[k] = (int)(i + 1), A->re[k++] = -1;
        if (y < H - 1)
            A->col[k] = (int)(i + W), A->re[k++] = -1;
    }
    A->ptr[n] = (int)nnz;
    spmv_origin *o = &A->origin;
    snprintf(o->name, sizeof o->name, "poisson:nx=%lld,ny=%lld", W, H);
    square_origin(o, spec, nnz);
    return 0;
}

/* The 3-D boxes, poisson3d and stencil27: no random numbers, so their own
 * parser and builder, apart from the random kinds' */
typedef struct {
    int full;             /* stencil27: the whole 3x3x3 neighbourhood; else the 7 points */
    long long nx, ny, nz;
} box_spec;

/* 1 if spec names a 3-D box (with or without its ':') */
static int box_kind(const char *spec, int *full)
{
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    if (klen == 9 && strncmp(spec, "poisson3d", 9) == 0)
        return *full = 0, 1;
    if (klen == 9 && strncmp(spec, "stencil27", 9) == 0)
        return *full = 1, 1;
    return 0;
}

/* nx, ny, nz: each a whole number from 1; ny and nz default to nx. The rows
 * and the nonzeros must each stay below 2^31 (the device indexes with int):
 * checked here, in long long, before anything of their size exists. */
static int box_parse(const char *spec, box_spec *b, spmv_error *err)
{
    memset(b, 0, sizeof *b);
    box_kind(spec, &b->full);
    const char *kind = b->full ? "stencil27" : "poisson3d", *colon = strchr(spec, ':');
    char buf[256];
    if (strlen(spec) >= sizeof buf)
        return spmv_fail(err, "--gen: the spec is longer than %zu characters", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", colon ? colon + 1 : "");
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return spmv_fail(err, "--gen %s: '%s' is not key=value", kind, kv);
        *eq = 0;
        const char *k = kv, *v = eq + 1;
        long long *dim = strcmp(k, "nx") == 0 ? &b->nx : strcmp(k, "ny") == 0 ? &b->ny
                         : strcmp(k, "nz") == 0 ? &b->nz : NULL;
        if (!dim)
            return spmv_fail(err, "--gen %s takes nx, ny, nz, not '%s'", kind, k);
        double d;
        if (parse_num(k, v, 1, INT_MAX - 1, &d, err))
            return -1;
        if (d != floor(d))
            return spmv_fail(err, "--gen %s: %s wants a whole number, not '%s'", kind, k, v);
        *dim = (long long)d;
    }
    if (!b->nx)
        return spmv_fail(err, "--gen %s needs nx=N (example: --gen %s:nx=100 or nx=60,ny=50,nz=40)", kind, kind);
    if (!b->ny)
        b->ny = b->nx;
    if (!b->nz)
        b->nz = b->nx;
    /* each factor < 2^31: the first product < 2^62; the second only once the first is below 2^31 */
    if (b->nx * b->ny >= INT_MAX || b->nx * b->ny * b->nz >= INT_MAX)
        return spmv_fail(err, "--gen %s: %lld x %lld x %lld is more than 2^31 rows; the device indexes with int",
                         kind, b->nx, b->ny, b->nz);
    return 0;
}

/* The nonzeros, in closed form. 7 points: 7 per row, minus one for each
 * neighbour outside, two faces of the box per axis; 27 points: per axis,
 * 3 offsets for each point but the two ends (2 each): 3n-2 pairs, and the
 * neighbourhood is their product. */
static long long box_nnz(const box_spec *b)
{
    long long X = b->nx, Y = b->ny, Z = b->nz;
    if (b->full)
        return (3 * X - 2) * (3 * Y - 2) * (3 * Z - 2);
    return 7 * X * Y * Z - 2 * (X * Y + Y * Z + X * Z);
}

/* Row (x, y, z): its neighbours (x+dx, y+dy, z+dz) inside the box in the
 * order dz, dy, dx from -1 to 1, which is the order of their columns: the
 * natural order is that of (z, y, x). Without col and re, only counted. */
static int box_row(const box_spec *b, long long x, long long y, long long z, int *col, double *re)
{
    long long X = b->nx, Y = b->ny, Z = b->nz, i = (z * Y + y) * X + x;
    int k = 0;
    if (!b->full) {   /* the same order, the 7 points written out (5 times faster than the loops) */
        long long nb[7] = { z > 0 ? i - X * Y : -1, y > 0 ? i - X : -1, x > 0 ? i - 1 : -1, i,
                            x < X - 1 ? i + 1 : -1, y < Y - 1 ? i + X : -1, z < Z - 1 ? i + X * Y : -1 };
        for (int t = 0; t < 7; t++)
            if (nb[t] >= 0) {
                if (col)
                    col[k] = (int)nb[t], re[k] = t == 3 ? 6 : -1;
                k++;
            }
        return k;
    }
    for (int dz = -1; dz <= 1; dz++) {
        if (z + dz < 0 || z + dz >= Z)
            continue;
        for (int dy = -1; dy <= 1; dy++) {
            if (y + dy < 0 || y + dy >= Y)
                continue;
            for (int dx = -1; dx <= 1; dx++) {
                if (x + dx < 0 || x + dx >= X || (!b->full && abs(dx) + abs(dy) + abs(dz) > 1))
                    continue;
                if (col) {
                    int self = !dx && !dy && !dz;
                    col[k] = (int)(i + (dz * Y + dy) * X + dx);
                    re[k] = self ? (b->full ? 26 : 6) : -1;
                }
                k++;
            }
        }
    }
    return k;
}

static int box_generate(const char *spec, spmv_limits *lim, csr_matrix *A, spmv_error *err)
{
    box_spec b;
    if (box_parse(spec, &b, err))
        return -1;
    const char *kind = b.full ? "stencil27" : "poisson3d";
    long long X = b.nx, Y = b.ny, Z = b.nz, n = X * Y * Z, lines = Y * Z, nnz = box_nnz(&b);
    if (nnz >= INT_MAX)
        return spmv_fail(err, "--gen %s: %lld x %lld x %lld makes %lld nonzeros, more than 2^31; the device "
                         "indexes with int", kind, X, Y, Z, nnz);
    if (gen_fits(lim, spec, n, n, nnz, nnz, err))
        return -1;
    if (square_alloc(A, n, nnz, err))
        return -1;
    /* pass 1: each row's length, counted; then the prefix sum (n < 2^31 adds: milliseconds) */
#pragma omp parallel for schedule(static)
    for (long long l = 0; l < lines; l++)
        for (long long x = 0; x < X; x++)
            A->ptr[l * X + x + 1] = box_row(&b, x, l % Y, l / Y, NULL, NULL);
    A->ptr[0] = 0;
    for (long long i = 0; i < n; i++)
        A->ptr[i + 1] += A->ptr[i];   /* at most nnz < 2^31 */
    /* pass 2: the entries, each row at its place */
#pragma omp parallel for schedule(static)
    for (long long l = 0; l < lines; l++)
        for (long long x = 0; x < X; x++) {
            long long i = l * X + x;
            box_row(&b, x, l % Y, l / Y, A->col + A->ptr[i], A->re + A->ptr[i]);
        }
    spmv_origin *o = &A->origin;
    snprintf(o->name, sizeof o->name, "%s:nx=%lld,ny=%lld,nz=%lld", kind, X, Y, Z);
    square_origin(o, spec, nnz);
    return 0;
}

int csr_generate(const char *spec, uint64_t seed, spmv_limits *lim, csr_matrix *A, spmv_error *err)
{
    memset(A, 0, sizeof *A);
    int full;
    if (box_kind(spec, &full))   /* 27 diagonals at most: no DIA probe needed */
        return box_generate(spec, lim, A, err);
    gen_spec s;
    if (parse_spec(spec, &s, err))
        return -1;
    if (s.kind == GEN_POISSON)   /* five diagonals at most: no DIA probe needed */
        return poisson_generate(spec, &s, lim, A, err);
    int rows = (int)s.rows, cols = (int)s.cols;
    /* what must fit before any array of the matrix's size exists: the rows
     * with their fewest nonzeros now, every nonzero once their lengths are drawn */
    long long least = s.kind == GEN_UNIFORM ? s.rows * s.min : s.kind == GEN_ARROW ? 3 * s.rows - 2
                      : s.kind == GEN_SHORT ? s.rows : 0;
    if (gen_fits(lim, spec, s.rows, s.cols, least, -1, err))
        return -1;
    if (lim && lim->dia_max_diags > 0 && dia_probe(spec, &s, seed, lim->dia_max_diags, err))
        return -1;
    A->ptr = spmv_alloc((size_t)rows + 1, sizeof *A->ptr, "row pointers", err);
    if (!A->ptr)
        return -1;
    /* pass 1: the row lengths, each from its row's stream; then their prefix sum */
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; r++) {
        spmv_rng g;
        row_stream(&g, seed, r);
        A->ptr[r + 1] = (int)row_length(&s, r, &g);   /* at most cols < 2^31 */
    }
    long long nnz = 0;
    for (int r = 0; r < rows; r++) {
        long long len = A->ptr[r + 1];
        A->ptr[r] = (int)(nnz < INT_MAX ? nnz : 0);
        nnz += len;
        if (nnz >= INT_MAX) {
            free(A->ptr);
            A->ptr = NULL;
            return spmv_fail(err, "--gen %s: more than 2^31 nonzeros by row %d; the device indexes with int "
                             "(try fewer rows or a smaller mean)", spec, r);
        }
    }
    A->ptr[rows] = (int)nnz;
    A->rows = rows;
    A->cols = cols;
    A->nnz = nnz;
    if (gen_fits(lim, spec, rows, cols, nnz, nnz, err)) {
        csr_free(A);
        return -1;
    }
    size_t n1 = nnz ? (size_t)nnz : 1;
    A->col = spmv_alloc(n1, sizeof *A->col, "column indices", err);
    A->re = A->col ? spmv_alloc(n1, sizeof *A->re, "values", err) : NULL;
    if (!A->re) {
        csr_free(A);
        return -1;
    }
    /* pass 2: columns and values, each row from the same stream as its length */
#pragma omp parallel for schedule(dynamic, 256)
    for (int r = 0; r < rows; r++) {
        spmv_rng g;
        row_stream(&g, seed, r);
        long long len = row_length(&s, r, &g);
        row_columns(&s, r, len, A->col + A->ptr[r], &g);
        for (long long k = 0; k < len; k++)
            A->re[A->ptr[r] + k] = spmv_rng_uniform(&g);
    }
    spmv_origin *o = &A->origin;
    spec_name(&s, seed, o->name, sizeof o->name);
    snprintf(o->source, sizeof o->source, "generator --gen %s --seed %llu", spec, (unsigned long long)seed);
    snprintf(o->format, sizeof o->format, "generator");
    snprintf(o->field, sizeof o->field, "real");
    snprintf(o->symmetry, sizeof o->symmetry, "general");
    o->stored = nnz;
    return 0;
}
