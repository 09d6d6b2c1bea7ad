/* convert.c - COO <-> CSR <-> DIA, and the article's grid generator. */
#include "matrix.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- COO -> CSR: counting sort by row, then sort each row by column and sum duplicates ---- */

typedef struct { int col; double re, im; } entry;

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    return (x->col > y->col) - (x->col < y->col);
}

int coo_to_csr(const coo_matrix *A, csr_matrix *B, spmv_error *err)
{
    memset(B, 0, sizeof *B);
    if (A->nnz >= INT_MAX)
        return spmv_fail(err, "%s has %lld nonzeros; the kernels index with int, so at most %d",
                         A->origin.name, A->nnz, INT_MAX - 1);
    size_t n = (size_t)A->nnz;
    int cplx = A->im != NULL;
    entry *tmp = spmv_alloc(n, sizeof *tmp, "CSR conversion buffer", err);
    B->ptr = spmv_alloc((size_t)A->rows + 1, sizeof *B->ptr, "CSR row pointers", err);
    if (!tmp || !B->ptr)
        goto fail;
    memset(B->ptr, 0, ((size_t)A->rows + 1) * sizeof *B->ptr);
    for (size_t k = 0; k < n; k++)
        B->ptr[A->row[k] + 1]++;
    for (int r = 0; r < A->rows; r++)
        B->ptr[r + 1] += B->ptr[r];
    int *next = spmv_alloc((size_t)A->rows + 1, sizeof *next, "CSR conversion buffer", err);
    if (!next)
        goto fail;
    memcpy(next, B->ptr, ((size_t)A->rows + 1) * sizeof *next);
    for (size_t k = 0; k < n; k++) {
        entry e = { A->col[k], A->re[k], cplx ? A->im[k] : 0.0 };
        tmp[next[A->row[k]]++] = e;
    }
    free(next);
    /* sort each row, merge duplicates in place, compact */
    size_t out = 0;
    for (int r = 0; r < A->rows; r++) {
        size_t lo = (size_t)B->ptr[r], hi = (size_t)B->ptr[r + 1];
        qsort(tmp + lo, hi - lo, sizeof *tmp, entry_cmp);
        B->ptr[r] = (int)out;
        for (size_t k = lo; k < hi; k++) {
            if (out > (size_t)B->ptr[r] && tmp[out - 1].col == tmp[k].col) {
                tmp[out - 1].re += tmp[k].re;
                tmp[out - 1].im += tmp[k].im;
            } else {
                tmp[out++] = tmp[k];
            }
        }
    }
    B->ptr[A->rows] = (int)out;
    B->col = spmv_alloc(out, sizeof *B->col, "CSR column indices", err);
    B->re = spmv_alloc(out, sizeof *B->re, "CSR values", err);
    if (cplx)
        B->im = spmv_alloc(out, sizeof *B->im, "CSR values", err);
    if (!B->col || !B->re || (cplx && !B->im))
        goto fail;
    for (size_t k = 0; k < out; k++) {
        B->col[k] = tmp[k].col;
        B->re[k] = tmp[k].re;
        if (cplx)
            B->im[k] = tmp[k].im;
    }
    free(tmp);
    B->rows = A->rows;
    B->cols = A->cols;
    B->nnz = (long long)out;
    B->origin = A->origin;
    return 0;
fail:
    free(tmp);
    csr_free(B);
    return -1;
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

/* Diagonal offsets live in (-rows, cols): index them by offset + rows - 1. */
static unsigned char *occupied_diagonals(const csr_matrix *A, long long *ndiag, spmv_error *err)
{
    size_t span = (size_t)A->rows + (size_t)A->cols;
    unsigned char *seen = spmv_alloc(span, 1, "diagonal map", err);
    if (!seen)
        return NULL;
    memset(seen, 0, span);
    long long count = 0;
    for (int r = 0; r < A->rows; r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            size_t d = (size_t)((long long)A->col[k] - r + A->rows - 1);
            if (!seen[d]) {
                seen[d] = 1;
                count++;
            }
        }
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

int csr_to_dia(const csr_matrix *A, size_t pitch_align, dia_matrix *B, spmv_error *err)
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
    memset(B->values, 0, (size_t)nd * B->pitch * sizeof *B->values);
    for (int r = 0; r < A->rows; r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            size_t i = (size_t)((long long)A->col[k] - r + A->rows - 1);
            B->values[(size_t)slot[i] * B->pitch + r] = (float)A->re[k];
            B->nnz++;
        }
    free(slot);
    B->origin = A->origin;
    return 0;
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
    /* offsets ascend, so columns come out sorted within each row */
    size_t k = 0;
    for (int r = 0; r < A->rows; r++) {
        B->ptr[r] = (int)k;
        for (int d = 0; d < A->ndiag; d++) {
            long long c = (long long)r + A->offsets[d];
            float v = A->values[(size_t)d * A->pitch + r];
            if (c >= 0 && c < A->cols && v != 0.0f && k < (size_t)A->nnz) {
                B->col[k] = (int)c;
                B->re[k] = v;
                k++;
            }
        }
    }
    B->ptr[A->rows] = (int)k;
    if (k != (size_t)A->nnz) {
        csr_free(B);
        return spmv_fail(err, "%s: DIA holds %zu nonzero values but counts %lld (a zero weight?)",
                         A->origin.name, k, A->nnz);
    }
    B->rows = A->rows;
    B->cols = A->cols;
    B->nnz = A->nnz;
    B->origin = A->origin;
    return 0;
}

void csr_round_to_float(csr_matrix *A)
{
    for (long long k = 0; k < A->nnz; k++) {
        A->re[k] = (float)A->re[k];
        if (A->im)
            A->im[k] = (float)A->im[k];
    }
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

/* A weight is never exactly zero, so a true nonzero is never mistaken for padding. */
static float grid_weight(spmv_rng *g)
{
    float v;
    do
        v = (float)spmv_rng_uniform(g);
    while (v == 0.0f);
    return v;
}

int dia_generate_grid(int w, int h, int radius, uint64_t seed, size_t pitch_align,
                      dia_matrix *A, spmv_error *err)
{
    memset(A, 0, sizeof *A);
    if (w < 1 || h < 1)
        return spmv_fail(err, "grid %dx%d: both sides must be at least 1", w, h);
    if (radius < 0 || radius > 100)
        return spmv_fail(err, "radius %d: must be 0 to 100", radius);
    if ((long long)w * h >= INT_MAX)
        return spmv_fail(err, "grid %dx%d has %lld points; rows are int, so at most %d",
                         w, h, (long long)w * h, INT_MAX - 1);
    int n = w * h;
    /* Stencil points (dx, dy) map to offsets dy*w + dx. On a narrow grid two
     * points can share an offset (w = 3: (2, 0) and (-1, 1) both give 2), but
     * for any one row at most one of them lies inside the grid, so each
     * diagonal is still well defined. Collect the distinct offsets. */
    int npts = grid_stencil_points(radius);
    int *pdx = malloc(sizeof(int) * npts), *pdy = malloc(sizeof(int) * npts);
    int *off = malloc(sizeof(int) * npts), *pslot = malloc(sizeof(int) * npts);
    if (!pdx || !pdy || !off || !pslot) {
        free(pdx); free(pdy); free(off); free(pslot);
        return spmv_fail(err, "out of memory building the stencil");
    }
    int p = 0, nd = 0;
    for (int dy = -radius; dy <= radius; dy++)
        for (int dx = -radius; dx <= radius; dx++) {
            if (dx * dx + dy * dy > radius * radius)
                continue;
            /* a point that never lands inside the grid makes no diagonal */
            if (abs(dx) >= w || abs(dy) >= h)
                continue;
            long long o = (long long)dy * w + dx;
            pdx[p] = dx;
            pdy[p] = dy;
            int s = 0;
            while (s < nd && off[s] != o)
                s++;
            if (s == nd)
                off[nd++] = (int)o;
            pslot[p++] = s;
        }
    /* sort offsets ascending, remapping slots */
    int *order = malloc(sizeof(int) * (nd ? nd : 1)), *rank = malloc(sizeof(int) * (nd ? nd : 1));
    if (!order || !rank) {
        free(pdx); free(pdy); free(off); free(pslot); free(order); free(rank);
        return spmv_fail(err, "out of memory building the stencil");
    }
    for (int i = 0; i < nd; i++)
        order[i] = i;
    for (int i = 1; i < nd; i++)
        for (int j = i; j > 0 && off[order[j - 1]] > off[order[j]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (int i = 0; i < nd; i++)
        rank[order[i]] = i;

    A->rows = A->cols = n;
    A->ndiag = nd;
    A->pitch = spmv_round_up((size_t)n, pitch_align);
    A->offsets = spmv_alloc((size_t)nd, sizeof *A->offsets, "DIA offsets", err);
    A->values = spmv_alloc((size_t)nd * A->pitch, sizeof *A->values, "DIA values", err);
    if (!A->offsets || !A->values) {
        free(pdx); free(pdy); free(off); free(pslot); free(order); free(rank);
        dia_free(A);
        return -1;
    }
    for (int i = 0; i < nd; i++)
        A->offsets[i] = off[order[i]];
    memset(A->values, 0, (size_t)nd * A->pitch * sizeof *A->values);
    /* Each row has its own random stream (seeded from the seed and the row), so
     * rows can be generated in parallel and the matrix is still the same for a
     * given seed whatever the number of threads. */
    long long nnz = 0;
    #pragma omp parallel for reduction(+ : nnz) schedule(static)
    for (int r = 0; r < n; r++) {
        int i = r % w, j = r / w;
        spmv_rng g;
        spmv_rng_seed(&g, seed * 0x9e3779b97f4a7c15ULL + (uint64_t)r);
        for (int q = 0; q < p; q++) {
            int x = i + pdx[q], y = j + pdy[q];
            if (x < 0 || x >= w || y < 0 || y >= h)
                continue;
            A->values[(size_t)rank[pslot[q]] * A->pitch + r] = grid_weight(&g);
            nnz++;
        }
    }
    A->nnz = nnz;
    free(pdx); free(pdy); free(off); free(pslot); free(order); free(rank);

    spmv_origin *o = &A->origin;
    snprintf(o->name, sizeof o->name, "grid%dx%dr%d", w, h, radius);
    snprintf(o->source, sizeof o->source, "generator: %dx%d grid, radius %d, seed %llu",
             w, h, radius, (unsigned long long)seed);
    snprintf(o->format, sizeof o->format, "generator");
    snprintf(o->field, sizeof o->field, "real");
    snprintf(o->symmetry, sizeof o->symmetry, "general");
    o->expanded = 0;
    o->stored = nnz;
    return 0;
}
