/* convert.c - COO <-> CSR <-> DIA, and the article's grid generator. */
#include "matrix.h"
#include "capacity.h"
#include "run.h"
#include "stopwatch.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- COO -> CSR ----
 * Count the entries of each row, place them in file order (a counting sort,
 * no buffer beside the CSR arrays), then sort each row by column and sum its
 * duplicates, rows in parallel. A row is sorted by (column, place in the
 * file), so duplicates are summed in file order and the result is the same
 * bit for bit whatever the number of threads. */

typedef struct { int col, pos; double re, im; } entry;

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->col != y->col)
        return (x->col > y->col) - (x->col < y->col);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Sort row [lo, hi) by column and sum duplicates to its front: returns the
 * distinct count. scratch holds hi - lo entries. */
static size_t sort_row(int *col, double *re, double *im, size_t lo, size_t hi, entry *scratch)
{
    int sorted = 1;
    for (size_t k = lo + 1; k < hi && sorted; k++)
        sorted = col[k - 1] < col[k];
    if (sorted)
        return hi - lo;
    size_t n = hi - lo;
    for (size_t k = 0; k < n; k++)
        scratch[k] = (entry){ col[lo + k], (int)k, re[lo + k], im ? im[lo + k] : 0.0 };
    qsort(scratch, n, sizeof *scratch, entry_cmp);
    size_t out = 0;
    for (size_t k = 0; k < n; k++) {
        if (out > 0 && col[lo + out - 1] == scratch[k].col) {
            re[lo + out - 1] += scratch[k].re;
            if (im)
                im[lo + out - 1] += scratch[k].im;
        } else {
            col[lo + out] = scratch[k].col;
            re[lo + out] = scratch[k].re;
            if (im)
                im[lo + out] = scratch[k].im;
            out++;
        }
    }
    return out;
}

int coo_to_csr(const coo_matrix *A, csr_matrix *B, spmv_error *err)
{
    memset(B, 0, sizeof *B);
    if (A->nnz >= INT_MAX)
        return spmv_fail(err, "%s has %lld nonzeros; the kernels index with int, so at most %d",
                         A->origin.name, A->nnz, INT_MAX - 1);
    size_t n = (size_t)A->nnz, rows = (size_t)A->rows;
    int cplx = A->im != NULL;
    B->ptr = spmv_alloc(rows + 1, sizeof *B->ptr, "CSR row pointers", err);
    int *next = B->ptr ? spmv_alloc(rows + 1, sizeof *next, "CSR conversion buffer", err) : NULL;
    B->col = next ? spmv_alloc(n, sizeof *B->col, "CSR column indices", err) : NULL;
    B->re = B->col ? spmv_alloc(n, sizeof *B->re, "CSR values", err) : NULL;
    if (B->re && cplx)
        B->im = spmv_alloc(n, sizeof *B->im, "CSR values", err);
    if (!B->re || (cplx && !B->im)) {
        free(next);
        csr_free(B);
        return -1;
    }
    memset(B->ptr, 0, (rows + 1) * sizeof *B->ptr);
    for (size_t k = 0; k < n; k++)
        B->ptr[A->row[k] + 1]++;
    for (size_t r = 0; r < rows; r++)
        B->ptr[r + 1] += B->ptr[r];
    memcpy(next, B->ptr, (rows + 1) * sizeof *next);
    for (size_t k = 0; k < n; k++) {
        int at = next[A->row[k]]++;
        B->col[at] = A->col[k];
        B->re[at] = A->re[k];
        if (cplx)
            B->im[at] = A->im[k];
    }
    /* next[r]: the distinct entries of row r, once sorted */
    int failed = 0;
    #pragma omp parallel reduction(| : failed)
    {
        entry *scratch = NULL;
        size_t cap = 0;
        #pragma omp for schedule(dynamic, 256)
        for (size_t r = 0; r < rows; r++) {
            size_t lo = (size_t)B->ptr[r], hi = (size_t)B->ptr[r + 1];
            if (hi - lo > cap && !failed) {
                free(scratch);
                cap = hi - lo;
                scratch = malloc(cap * sizeof *scratch);
                if (!scratch) {
                    cap = 0;
                    failed = 1;
                }
            }
            next[r] = failed ? 0 : (int)sort_row(B->col, B->re, B->im, lo, hi, scratch);
        }
        free(scratch);
    }
    if (failed) {
        free(next);
        csr_free(B);
        return spmv_fail(err, "out of memory sorting the rows of %s", A->origin.name);
    }
    /* close the gaps the duplicates left (in place: entries only move forward) */
    size_t out = 0;
    for (size_t r = 0; r < rows; r++) {
        size_t lo = (size_t)B->ptr[r], m = (size_t)next[r];
        if (out != lo) {
            memmove(B->col + out, B->col + lo, m * sizeof *B->col);
            memmove(B->re + out, B->re + lo, m * sizeof *B->re);
            if (cplx)
                memmove(B->im + out, B->im + lo, m * sizeof *B->im);
        }
        B->ptr[r] = (int)out;
        out += m;
    }
    B->ptr[rows] = (int)out;
    free(next);
    B->rows = A->rows;
    B->cols = A->cols;
    B->nnz = (long long)out;
    B->origin = A->origin;
    return 0;
}

int csr_to_coo(const csr_matrix *A, coo_matrix *B, spmv_error *err)
{
    memset(B, 0, sizeof *B);
    size_t n = (size_t)A->nnz;
    B->row = spmv_alloc(n, sizeof *B->row, "COO row indices", err);
    B->col = spmv_alloc(n, sizeof *B->col, "COO column indices", err);
    B->re = spmv_alloc(n, sizeof *B->re, "COO values", err);
    if (A->im)
        B->im = spmv_alloc(n, sizeof *B->im, "COO values", err);
    if (!B->row || !B->col || !B->re || (A->im && !B->im)) {
        coo_free(B);
        return -1;
    }
    for (int r = 0; r < A->rows; r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            B->row[k] = r;
            B->col[k] = A->col[k];
            B->re[k] = A->re[k];
            if (A->im)
                B->im[k] = A->im[k];
        }
    B->rows = A->rows;
    B->cols = A->cols;
    B->nnz = A->nnz;
    B->origin = A->origin;
    return 0;
}

/* DIA's padding is zero; the pages are first touched by the threads that
 * will fill them. */
static void zero_floats(float *v, size_t n)
{
    #pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        v[i] = 0.0f;
}

/* Diagonal offsets live in (-rows, cols): index them by offset + rows - 1.
 * Rows in parallel; a flag is only ever set to 1, written atomically. */
static unsigned char *occupied_diagonals(const csr_matrix *A, long long *ndiag, spmv_error *err)
{
    size_t span = (size_t)A->rows + (size_t)A->cols;
    unsigned char *seen = spmv_alloc(span, 1, "diagonal map", err);
    if (!seen)
        return NULL;
    memset(seen, 0, span);
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < A->rows; r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            size_t d = (size_t)((long long)A->col[k] - r + A->rows - 1);
            if (!seen[d]) {
                #pragma omp atomic write
                seen[d] = 1;
            }
        }
    long long count = 0;
    for (size_t d = 0; d < span; d++)
        count += seen[d];
    *ndiag = count;
    return seen;
}

int csr_count_diagonals(const csr_matrix *A, long long *ndiag)
{
    spmv_error err;
    unsigned char *seen = occupied_diagonals(A, ndiag, &err);
    free(seen);
    return seen ? 0 : -1;
}

int csr_to_dia(const csr_matrix *A, size_t pitch_align, spmv_limits *lim, dia_matrix *B, spmv_error *err)
{
    memset(B, 0, sizeof *B);
    if (A->im)
        return spmv_fail(err, "%s is complex; the DIA steps are single precision real: use step6-csr",
                         A->origin.name);
    long long nd;
    unsigned char *seen = occupied_diagonals(A, &nd, err);
    if (!seen)
        return -1;
    double fill = A->nnz ? (double)nd * A->rows / (double)A->nnz : 0.0;
    if (nd > SPMV_DIA_MAX_DIAGS || fill > SPMV_DIA_MAX_FILL) {
        free(seen);
        return spmv_fail(err,
                         "%s has %lld occupied diagonals: DIA would store %.1fx its %lld nonzeros "
                         "(the DIA steps accept at most %d diagonals and %.0fx); run it in CSR with step6-csr",
                         A->origin.name, nd, fill, A->nnz, SPMV_DIA_MAX_DIAGS, SPMV_DIA_MAX_FILL);
    }
    B->rows = A->rows;
    B->cols = A->cols;
    B->ndiag = (int)nd;
    B->nnz = 0;
    B->pitch = spmv_round_up((size_t)A->rows, pitch_align);
    spmv_error e;
    spmv_size s = { .rows = A->rows, .cols = A->cols, .nnz = A->nnz, .from = SPMV_FROM_CSR, .ndiag = nd,
                    .pitch = (long long)B->pitch };
    if (spmv_fits(lim, &s, &e)) {
        free(seen);
        memset(B, 0, sizeof *B);
        return spmv_fail(err, "%s in DIA: %s", A->origin.name, e.msg);
    }
    B->offsets = spmv_alloc(nd, sizeof *B->offsets, "DIA offsets", err);
    B->values = spmv_alloc(nd * B->pitch, sizeof *B->values, "DIA values", err);
    int *slot = spmv_alloc((size_t)A->rows + A->cols, sizeof *slot, "DIA conversion buffer", err);
    if (!B->offsets || !B->values || !slot) {
        free(seen);
        free(slot);
        dia_free(B);
        return -1;
    }
    int d = 0;
    for (size_t i = 0; i < (size_t)A->rows + A->cols; i++)
        if (seen[i]) {
            slot[i] = d;
            B->offsets[d++] = (int)((long long)i - A->rows + 1);
        }
    free(seen);
    float *values = B->values;
    size_t pitch = B->pitch;
    zero_floats(values, (size_t)nd * pitch);
    long long nnz = 0;
    #pragma omp parallel for schedule(static) reduction(+ : nnz)
    for (int r = 0; r < A->rows; r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            size_t i = (size_t)((long long)A->col[k] - r + A->rows - 1);
            values[(size_t)slot[i] * pitch + r] = (float)A->re[k];
            nnz++;
        }
    B->nnz = nnz;
    free(slot);
    B->origin = A->origin;
    return 0;
}

/* The stored entries of DIA row r (columns ascend with the offsets), written
 * to col/re when they are not NULL; returns how many. */
static int dia_row(const dia_matrix *A, int r, int *col, double *re)
{
    int n = 0;
    for (int d = 0; d < A->ndiag; d++) {
        long long c = (long long)r + A->offsets[d];
        float v = A->values[(size_t)d * A->pitch + r];
        if (c >= 0 && c < A->cols && v != 0.0f) {
            if (col) {
                col[n] = (int)c;
                re[n] = v;
            }
            n++;
        }
    }
    return n;
}

int dia_to_csr(const dia_matrix *A, csr_matrix *B, spmv_error *err)
{
    memset(B, 0, sizeof *B);
    if (A->nnz >= INT_MAX)
        return spmv_fail(err, "%s has %lld nonzeros; CSR kernels index with int, so at most %d",
                         A->origin.name, A->nnz, INT_MAX - 1);
    B->ptr = spmv_alloc((size_t)A->rows + 1, sizeof *B->ptr, "CSR row pointers", err);
    B->col = spmv_alloc((size_t)A->nnz, sizeof *B->col, "CSR column indices", err);
    B->re = spmv_alloc((size_t)A->nnz, sizeof *B->re, "CSR values", err);
    if (!B->ptr || !B->col || !B->re) {
        csr_free(B);
        return -1;
    }
    /* count each row, add up, then fill the rows in parallel */
    B->ptr[0] = 0;
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < A->rows; r++)
        B->ptr[r + 1] = dia_row(A, r, NULL, NULL);
    long long k = 0;
    for (int r = 0; r <= A->rows; r++) {
        k += B->ptr[r];
        B->ptr[r] = (int)(k < INT_MAX ? k : INT_MAX);
    }
    if (k != A->nnz) {
        csr_free(B);
        return spmv_fail(err, "%s: DIA holds %lld nonzero values but counts %lld (a zero weight?)",
                         A->origin.name, k, A->nnz);
    }
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < A->rows; r++)
        dia_row(A, r, B->col + B->ptr[r], B->re + B->ptr[r]);
    B->rows = A->rows;
    B->cols = A->cols;
    B->nnz = A->nnz;
    B->origin = A->origin;
    return 0;
}

void csr_round_to_float(spmv_run *run, csr_matrix *A)
{
    double t0 = spmv_now();
    double *re = A->re, *im = A->im;
    #pragma omp parallel for schedule(static)
    for (long long k = 0; k < A->nnz; k++) {
        re[k] = (float)re[k];
        if (im)
            im[k] = (float)im[k];
    }
    spmv_phase_add(run, SPMV_PH_MATRIX, spmv_now() - t0);
}

/* ---- the article's matrix ---- */

int grid_stencil_points(int radius)
{
    int n = 0;
    for (int dy = -radius; dy <= radius; dy++)
        for (int dx = -radius; dx <= radius; dx++)
            n += dx * dx + dy * dy <= radius * radius;
    return n;
}

/* The stencil points that land inside a w x h grid for some row, in the order
 * the weights are drawn: dy, then dx, ascending. For any one row that is also
 * the order of the columns, (j + dy) * w + i + dx. off: the nd distinct
 * offsets dy*w + dx, ascending; slot[q]: the diagonal of point q. On a narrow
 * grid two points can share an offset (w = 3: (2, 0) and (-1, 1) both give
 * 2), but for any one row at most one of them lies inside the grid, so each
 * diagonal is still well defined. */
typedef struct {
    int n, nd;
    int *dx, *dy, *off, *slot;
} stencil;

static void stencil_free(stencil *S)
{
    free(S->dx);
    free(S->dy);
    free(S->off);
    free(S->slot);
}

static int grid_check(int w, int h, int radius, spmv_error *err)
{
    if (w < 1 || h < 1)
        return spmv_fail(err, "grid %dx%d: both sides must be at least 1", w, h);
    if (radius < 0 || radius > 100)
        return spmv_fail(err, "radius %d: must be 0 to 100", radius);
    if ((long long)w * h >= INT_MAX)
        return spmv_fail(err, "grid %dx%d has %lld points; rows are int, so at most %d",
                         w, h, (long long)w * h, INT_MAX - 1);
    return 0;
}

static int stencil_make(int w, int h, int radius, stencil *S, spmv_error *err)
{
    if (grid_check(w, h, radius, err))
        return -1;
    size_t npts = (size_t)grid_stencil_points(radius) + 1;
    S->n = S->nd = 0;
    S->dx = malloc(sizeof(int) * npts);
    S->dy = malloc(sizeof(int) * npts);
    S->off = malloc(sizeof(int) * npts);
    S->slot = malloc(sizeof(int) * npts);
    if (!S->dx || !S->dy || !S->off || !S->slot) {
        stencil_free(S);
        return spmv_fail(err, "out of memory building the stencil");
    }
    for (int dy = -radius; dy <= radius; dy++)
        for (int dx = -radius; dx <= radius; dx++)
            if (dx * dx + dy * dy <= radius * radius && abs(dx) < w && abs(dy) < h) {
                S->dx[S->n] = dx;
                S->dy[S->n++] = dy;
            }
    for (int q = 0; q < S->n; q++) {
        int o = S->dy[q] * w + S->dx[q], s = 0;
        while (s < S->nd && S->off[s] != o)
            s++;
        if (s == S->nd)
            S->off[S->nd++] = o;
    }
    for (int i = 1; i < S->nd; i++)   /* insertion sort: at most a few hundred */
        for (int j = i; j > 0 && S->off[j - 1] > S->off[j]; j--) {
            int t = S->off[j]; S->off[j] = S->off[j - 1]; S->off[j - 1] = t;
        }
    for (int q = 0; q < S->n; q++) {
        int o = S->dy[q] * w + S->dx[q], s = 0;
        while (S->off[s] != o)
            s++;
        S->slot[q] = s;
    }
    return 0;
}

int grid_shape(int w, int h, int radius, long long *nnz, int *ndiag, spmv_error *err)
{
    stencil S;
    if (stencil_make(w, h, radius, &S, err))
        return -1;
    long long n = 0;
    for (int q = 0; q < S.n; q++)
        n += (long long)(w - abs(S.dx[q])) * (h - abs(S.dy[q]));
    *nnz = n;
    *ndiag = S.nd;
    stencil_free(&S);
    return 0;
}

/* A weight is never exactly zero, so a true nonzero is never mistaken for padding. */
static float grid_weight(spmv_rng *g)
{
    float v;
    do
        v = (float)spmv_rng_uniform(g);
    while (v == 0.0f);
    return v;
}

/* Each row has its own random stream (seeded from the seed and the row), so
 * rows are generated in parallel and the matrix is the same for a given seed
 * whatever the number of threads, in DIA and in CSR. */
static void grid_row_seed(spmv_rng *g, uint64_t seed, int r)
{
    spmv_rng_seed(g, seed * 0x9e3779b97f4a7c15ULL + (uint64_t)r);
}

/* Row r of the grid: its weights, drawn from the row's stream in stencil
 * order, go to DIA (dia: diagonal slot * pitch + r) or to CSR (col, re:
 * the row's entries, columns ascending). Returns how many. */
static int grid_row(const stencil *S, int w, int h, uint64_t seed, int r, float *dia, size_t pitch, int *col,
                    double *re)
{
    int i = r % w, j = r / w, k = 0;
    spmv_rng g;
    grid_row_seed(&g, seed, r);
    for (int q = 0; q < S->n; q++) {
        int x = i + S->dx[q], y = j + S->dy[q];
        if (x < 0 || x >= w || y < 0 || y >= h)
            continue;
        float v = grid_weight(&g);
        if (dia) {
            dia[(size_t)S->slot[q] * pitch + r] = v;
        } else {
            col[k] = y * w + x;
            re[k] = v;
        }
        k++;
    }
    return k;
}

static void grid_origin(spmv_origin *o, int w, int h, int radius, uint64_t seed, long long nnz)
{
    snprintf(o->name, sizeof o->name, "grid%dx%dr%d", w, h, radius);
    snprintf(o->source, sizeof o->source, "generator: %dx%d grid, radius %d, seed %llu",
             w, h, radius, (unsigned long long)seed);
    snprintf(o->format, sizeof o->format, "generator");
    snprintf(o->field, sizeof o->field, "real");
    snprintf(o->symmetry, sizeof o->symmetry, "general");
    o->expanded = 0;
    o->stored = nnz;
}

int dia_generate_grid(int w, int h, int radius, uint64_t seed, size_t pitch_align,
                      dia_matrix *A, spmv_error *err)
{
    memset(A, 0, sizeof *A);
    stencil S;
    if (stencil_make(w, h, radius, &S, err))
        return -1;
    int n = w * h, nd = S.nd;
    A->rows = A->cols = n;
    A->ndiag = nd;
    A->pitch = spmv_round_up((size_t)n, pitch_align);
    A->offsets = spmv_alloc((size_t)nd, sizeof *A->offsets, "DIA offsets", err);
    A->values = spmv_alloc((size_t)nd * A->pitch, sizeof *A->values, "DIA values", err);
    if (!A->offsets || !A->values) {
        stencil_free(&S);
        dia_free(A);
        return -1;
    }
    memcpy(A->offsets, S.off, sizeof(int) * nd);
    float *values = A->values;
    size_t pitch = A->pitch;
    zero_floats(values, (size_t)nd * pitch);
    long long nnz = 0;
    #pragma omp parallel for reduction(+ : nnz) schedule(static)
    for (int r = 0; r < n; r++)
        nnz += grid_row(&S, w, h, seed, r, values, pitch, NULL, NULL);
    A->nnz = nnz;
    stencil_free(&S);
    grid_origin(&A->origin, w, h, radius, seed, nnz);
    return 0;
}

int csr_generate_grid(int w, int h, int radius, uint64_t seed, csr_matrix *A, spmv_error *err)
{
    memset(A, 0, sizeof *A);
    long long total;
    int nd;
    if (grid_shape(w, h, radius, &total, &nd, err))
        return -1;
    int n = w * h;   /* checked by grid_shape: below 2^31 */
    if (total >= INT_MAX)
        return spmv_fail(err, "grid %dx%d with radius %d has %lld nonzeros; the kernels index with int, "
                         "so at most %d", w, h, radius, total, INT_MAX - 1);
    stencil S;
    if (stencil_make(w, h, radius, &S, err))
        return -1;
    A->ptr = spmv_alloc((size_t)n + 1, sizeof *A->ptr, "CSR row pointers", err);
    A->col = A->ptr ? spmv_alloc((size_t)total, sizeof *A->col, "CSR column indices", err) : NULL;
    A->re = A->col ? spmv_alloc((size_t)total, sizeof *A->re, "CSR values", err) : NULL;
    if (!A->re) {
        stencil_free(&S);
        csr_free(A);
        return -1;
    }
    int *ptr = A->ptr, *col = A->col;
    double *re = A->re;
    ptr[0] = 0;
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < n; r++) {
        int i = r % w, j = r / w, len = 0;
        for (int q = 0; q < S.n; q++)
            len += i + S.dx[q] >= 0 && i + S.dx[q] < w && j + S.dy[q] >= 0 && j + S.dy[q] < h;
        ptr[r + 1] = len;
    }
    for (int r = 0; r < n; r++)
        ptr[r + 1] += ptr[r];
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < n; r++)
        grid_row(&S, w, h, seed, r, NULL, 0, col + ptr[r], re + ptr[r]);
    stencil_free(&S);
    A->rows = A->cols = n;
    A->nnz = ptr[n];
    grid_origin(&A->origin, w, h, radius, seed, A->nnz);
    return 0;
}
