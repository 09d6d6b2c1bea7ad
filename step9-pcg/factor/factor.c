/* factor/factor.c - IC(0), its levels, a coloring and the host's solves
 * (factor/factor.h) */
#include "factor.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static void tri_free(tri_matrix *T)
{
    free(T->ptr), free(T->col), free(T->val);
    memset(T, 0, sizeof *T);
}

static int tri_alloc(tri_matrix *T, int n, long long nnz, int lower, spmv_error *err)
{
    memset(T, 0, sizeof *T);
    T->n = n, T->nnz = nnz, T->lower = lower;
    T->ptr = spmv_alloc((size_t)n + 1, sizeof(int), "the factor's row pointers", err);
    T->col = T->ptr ? spmv_alloc(nnz ? (size_t)nnz : 1, sizeof(int), "the factor's columns", err) : NULL;
    T->val = T->col ? spmv_alloc(nnz ? (size_t)nnz : 1, sizeof(double), "the factor's values", err) : NULL;
    if (!T->val) {
        tri_free(T);
        return -1;
    }
    return 0;
}

/* L's pattern: A's entries with column <= row (the diagonal last, as A's
 * columns are sorted), the rows side by side; fails where a row has no
 * diagonal entry */
static int lower_pattern(const csr_matrix *A, tri_matrix *L, spmv_error *err)
{
    int n = A->rows, nodiag = INT_MAX;
    long long nnz = 0;
#pragma omp parallel for reduction(+ : nnz) schedule(static) if (n >= IC0_WIDE * 64)
    for (int i = 0; i < n; i++)
        for (int k = A->ptr[i]; k < A->ptr[i + 1] && A->col[k] <= i; k++)
            nnz++;
    if (tri_alloc(L, n, nnz, 1, err))
        return -1;
    L->ptr[0] = 0;
    for (int i = 0; i < n; i++) {   /* row i's length: its entries up to the diagonal */
        int k = A->ptr[i];
        while (k < A->ptr[i + 1] && A->col[k] <= i)
            k++;
        L->ptr[i + 1] = L->ptr[i] + (k - A->ptr[i]);
    }
#pragma omp parallel for reduction(min : nodiag) schedule(static) if (n >= IC0_WIDE * 64)
    for (int i = 0; i < n; i++) {
        int a = L->ptr[i], len = L->ptr[i + 1] - a;
        memcpy(L->col + a, A->col + A->ptr[i], (size_t)len * sizeof(int));
        if ((len == 0 || L->col[a + len - 1] != i) && i < nodiag)
            nodiag = i;
    }
    if (nodiag != INT_MAX) {
        tri_free(L);
        return spmv_fail(err, "row %d has no diagonal entry: A is not positive definite", nodiag + 1);
    }
    return 0;
}

/* Row i of the factor of A + shift diag(A) on L's pattern (left-looking):
 * l_ij = (a_ij - sum_{m<j} l_im l_jm) / l_jj for j < i, the sum over the
 * columns rows i and j share; l_ii = sqrt(a_ii - sum l_im^2). pos[m]:
 * where column m sits in row i (-1 where not in its pattern; left so).
 * Returns 0 where the pivot is not positive (kept unrooted), else 1. */
static int factor_row(const csr_matrix *A, tri_matrix *L, double shift, int *pos, int i)
{
    int a = L->ptr[i], b = L->ptr[i + 1];
    for (int k = a, ka = A->ptr[i]; k < b; k++, ka++) {   /* A's row starts with L's entries, in order */
        L->val[k] = A->re[ka] * (L->col[k] == i ? 1 + shift : 1);
        pos[L->col[k]] = k;
    }
    for (int k = a; k < b - 1; k++) {   /* the off-diagonal entries, in column order */
        int j = L->col[k];
        double s = L->val[k];
        for (int kj = L->ptr[j]; kj < L->ptr[j + 1] - 1; kj++)   /* row j's columns m < j */
            if (pos[L->col[kj]] >= 0)
                s -= L->val[pos[L->col[kj]]] * L->val[kj];
        L->val[k] = s / L->val[L->ptr[j + 1] - 1];
    }
    double d = L->val[b - 1];
    for (int k = a; k < b - 1; k++)
        d -= L->val[k] * L->val[k];
    for (int k = a; k < b; k++)
        pos[L->col[k]] = -1;
    if (!(d > 0)) {
        L->val[b - 1] = d;
        return 0;
    }
    L->val[b - 1] = sqrt(d);
    return 1;
}

/* One factorization. Row i reads only rows j < i of its pattern, all of
 * earlier levels: the rows of a level are factored side by side, one
 * OpenMP thread a row, each thread with its own pos. Stops after the first
 * level with a row whose pivot is not positive and returns the smallest
 * such row of it, or -1. */
static int factor_once(const csr_matrix *A, tri_matrix *L, const tri_levels *lv, double shift, int **pos,
                       int threads)
{
    int bad = INT_MAX;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        int *p = pos[omp_get_thread_num()];
        for (int l = 0; l < lv->nlev; l++) {
#pragma omp for schedule(static)
            for (int k = lv->lev_ptr[l]; k < lv->lev_ptr[l + 1]; k++) {
                int i = lv->order[k];
                if (!factor_row(A, L, shift, p, i)) {
#pragma omp critical
                    bad = i < bad ? i : bad;
                }
            }
            if (bad != INT_MAX)   /* read by all after the for's barrier: all stop at this level */
                break;
        }
    }
    return bad == INT_MAX ? -1 : bad;
}

/* U = L^T: column j of L is row j of U, the diagonal first. A's pattern
 * is symmetric (step7's reader refuses a matrix that is not), so row i of
 * U has the columns of A's row i from i on; the value at (i, j) is l_ji,
 * found in row j of L by bisection. The rows side by side. */
static int transpose(const csr_matrix *A, const tri_matrix *L, tri_matrix *U, spmv_error *err)
{
    int n = L->n, bad = INT_MAX;
    if (tri_alloc(U, n, L->nnz, 0, err))
        return -1;
    U->ptr[0] = 0;
    for (int i = 0; i < n; i++)   /* A's row less L's entries, and the diagonal */
        U->ptr[i + 1] = U->ptr[i] + (A->ptr[i + 1] - A->ptr[i]) - (L->ptr[i + 1] - L->ptr[i]) + 1;
    if (U->ptr[n] != L->nnz) {
        tri_free(U);
        return spmv_fail(err, "A's pattern is not symmetric: U has %d entries, L %lld", U->ptr[n], L->nnz);
    }
#pragma omp parallel for reduction(min : bad) schedule(static) if (n >= IC0_WIDE * 64)
    for (int i = 0; i < n; i++) {
        int at = U->ptr[i];
        U->col[at] = i;
        U->val[at++] = L->val[L->ptr[i + 1] - 1];
        for (int ka = A->ptr[i] + (L->ptr[i + 1] - L->ptr[i]); ka < A->ptr[i + 1]; ka++, at++) {
            int j = A->col[ka], lo = L->ptr[j], hi = L->ptr[j + 1] - 1;   /* l_ji in row j's columns < j */
            while (lo < hi) {
                int mid = lo + (hi - lo) / 2;
                if (L->col[mid] < i)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (L->col[lo] != i && i < bad)
                bad = i;
            U->col[at] = j;
            U->val[at] = L->val[lo];
        }
    }
    if (bad != INT_MAX) {
        tri_free(U);
        return spmv_fail(err, "A's pattern is not symmetric: row %d", bad + 1);
    }
    return 0;
}

int ic0_pattern(const csr_matrix *A, ic_factor *f, spmv_error *err)
{
    memset(f, 0, sizeof *f);
    if (lower_pattern(A, &f->L, err))
        return -1;
    for (int i = 0; i < A->rows; i++) {
        double aii = A->re[A->ptr[i] + (f->L.ptr[i + 1] - 1 - f->L.ptr[i])];   /* L's last entry, A's too */
        if (!(aii > 0)) {
            ic0_free(f);
            return spmv_fail(err, "a_%d,%d = %g is not positive: A is not positive definite", i + 1, i + 1, aii);
        }
    }
    return 0;
}

int ic0_values(const csr_matrix *A, ic_factor *f, const tri_levels *lv, spmv_error *err)
{
    /* a column map a thread, at most IC0_MAP_BYTES of them in all */
    size_t map = (A->rows ? (size_t)A->rows : 1) * sizeof(int);
    int most = omp_get_max_threads();
    int threads = lv->nlev && A->rows / lv->nlev >= IC0_ROWS_A_THREAD * most && A->rows >= IC0_WIDE * 64 ? most : 1;
    if ((size_t)threads * map > IC0_MAP_BYTES)
        threads = IC0_MAP_BYTES / map > 1 ? (int)(IC0_MAP_BYTES / map) : 1;
    int *pos[threads];
    for (int t = 0; t < threads; t++) {
        pos[t] = spmv_alloc(map / sizeof(int), sizeof(int), "IC(0)'s column map", err);
        if (!pos[t]) {
            while (t--)
                free(pos[t]);
            ic0_free(f);
            return -1;
        }
        memset(pos[t], 0xff, map);   /* -1 */
    }
    int bad = -1;
    for (f->shift = 0;; f->shift = f->shift ? 2 * f->shift : 1e-3) {
        f->tries++;
        bad = factor_once(A, &f->L, lv, f->shift, pos, threads);
        if (bad < 0 || f->shift >= 1)
            break;
    }
    for (int t = 0; t < threads; t++)
        free(pos[t]);
    if (bad >= 0) {
        ic0_free(f);
        return spmv_fail(err, "IC(0) meets a pivot <= 0 at row %d even with A + %g diag(A): A is not positive "
                         "definite enough for an incomplete factor", bad + 1, f->shift);
    }
    return 0;
}

int ic0_upper(const csr_matrix *A, ic_factor *f, spmv_error *err)
{
    if (transpose(A, &f->L, &f->U, err)) {
        ic0_free(f);
        return -1;
    }
    return 0;
}

void ic0_free(ic_factor *f)
{
    tri_free(&f->L);
    tri_free(&f->U);
}

double ic0_residual(const csr_matrix *A, const ic_factor *f, int *row)
{
    const tri_matrix *L = &f->L;
    double worst = 0;
    *row = -1;
    for (int i = 0; i < L->n; i++)
        for (int k = L->ptr[i]; k < L->ptr[i + 1]; k++) {
            int j = L->col[k], ki = L->ptr[i], kj = L->ptr[j];
            double s = 0, mag = 0;
            while (ki < L->ptr[i + 1] && kj < L->ptr[j + 1]) {   /* rows i and j of L, merged */
                if (L->col[ki] < L->col[kj])
                    ki++;
                else if (L->col[ki] > L->col[kj])
                    kj++;
                else {
                    s += L->val[ki] * L->val[kj];
                    mag += fabs(L->val[ki] * L->val[kj]);
                    ki++, kj++;
                }
            }
            double a = A->re[A->ptr[i] + (k - L->ptr[i])] * (i == j ? 1 + f->shift : 1);
            double lim = (L->ptr[i + 1] - L->ptr[i] + 2) * DBL_EPSILON / 2 * (mag + fabs(a));
            double part = fabs(s - a) / (lim > 0 ? lim : DBL_MIN);
            if (!(part <= worst))
                worst = part, *row = i;   /* a NaN sticks */
            if (worst != worst)
                return worst;
        }
    return worst;
}

int tri_levels_make(const tri_matrix *T, tri_levels *lv, spmv_error *err)
{
    int n = T->n;
    memset(lv, 0, sizeof *lv);
    int *level = spmv_alloc(n ? (size_t)n : 1, sizeof(int), "the levels", err);
    lv->order = level ? spmv_alloc(n ? (size_t)n : 1, sizeof(int), "the rows by level", err) : NULL;
    lv->lev_ptr = lv->order ? spmv_alloc((size_t)n + 2, sizeof(int), "the levels' starts", err) : NULL;
    if (!lv->lev_ptr) {
        free(level), tri_levels_free(lv);
        return -1;
    }
    for (int s = 0; s < n; s++) {   /* L down the rows, U up: each row after the rows it reads */
        int i = T->lower ? s : n - 1 - s, l = 0;
        for (int k = T->ptr[i]; k < T->ptr[i + 1]; k++)
            if (T->col[k] != i && level[T->col[k]] + 1 > l)
                l = level[T->col[k]] + 1;
        level[i] = l;
        if (l + 1 > lv->nlev)
            lv->nlev = l + 1;
    }
    memset(lv->lev_ptr, 0, ((size_t)lv->nlev + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        lv->lev_ptr[level[i] + 1]++;
    for (int l = 0; l < lv->nlev; l++) {
        if (lv->lev_ptr[l + 1] > lv->widest)
            lv->widest = lv->lev_ptr[l + 1];
        lv->lev_ptr[l + 1] += lv->lev_ptr[l];
    }
    int *fill = spmv_alloc((size_t)lv->nlev + 1, sizeof(int), "the levels' counters", err);
    if (!fill) {
        free(level), tri_levels_free(lv);
        return -1;
    }
    memcpy(fill, lv->lev_ptr, ((size_t)lv->nlev + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        lv->order[fill[level[i]]++] = i;
    free(fill), free(level);
    return 0;
}

void tri_levels_free(tri_levels *lv)
{
    free(lv->order), free(lv->lev_ptr);
    memset(lv, 0, sizeof *lv);
}

int color_greedy(const csr_matrix *A, int *perm, int *ncolors, spmv_error *err)
{
    int n = A->rows;
    int *color = spmv_alloc(n ? (size_t)n : 1, sizeof(int), "the colors", err);
    int *seen = color ? spmv_alloc((size_t)n + 2, sizeof(int), "the colors seen", err) : NULL;
    if (!seen) {
        free(color);
        return -1;
    }
    for (int i = 0; i < n + 2; i++)
        seen[i] = -1;
    int nc = 0;
    for (int i = 0; i < n; i++) {
        for (int k = A->ptr[i]; k < A->ptr[i + 1]; k++)
            if (A->col[k] < i)   /* the neighbours colored so far */
                seen[color[A->col[k]]] = i;
        int c = 0;
        while (seen[c] == i)
            c++;
        color[i] = c;
        if (c + 1 > nc)
            nc = c + 1;
    }
    /* the rows by color, ascending within a color (a counting sort; seen reused) */
    memset(seen, 0, ((size_t)nc + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        seen[color[i] + 1]++;
    for (int c = 0; c < nc; c++)
        seen[c + 1] += seen[c];
    for (int i = 0; i < n; i++)
        perm[seen[color[i]]++] = i;
    *ncolors = nc;
    free(color), free(seen);
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const long long *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

int csr_permute(const csr_matrix *A, const int *perm, csr_matrix *B, spmv_error *err)
{
    int n = A->rows;
    memset(B, 0, sizeof *B);
    B->rows = B->cols = n, B->nnz = A->nnz, B->origin = A->origin;
    int *inv = spmv_alloc(n ? (size_t)n : 1, sizeof(int), "the inverse permutation", err);
    B->ptr = inv ? spmv_alloc((size_t)n + 1, sizeof(int), "the ordered row pointers", err) : NULL;
    B->col = B->ptr ? spmv_alloc(A->nnz ? (size_t)A->nnz : 1, sizeof(int), "the ordered columns", err) : NULL;
    B->re = B->col ? spmv_alloc(A->nnz ? (size_t)A->nnz : 1, sizeof(double), "the ordered values", err) : NULL;
    int width = 0;
    for (int i = 0; i < n; i++)
        width = A->ptr[i + 1] - A->ptr[i] > width ? A->ptr[i + 1] - A->ptr[i] : width;
    long long *pair = B->re ? spmv_alloc(width ? 2 * (size_t)width : 2, sizeof(long long), "a row's entries", err)
                            : NULL;
    if (!pair) {
        free(inv), free(B->ptr), free(B->col), free(B->re);
        memset(B, 0, sizeof *B);
        return -1;
    }
    for (int i = 0; i < n; i++)
        inv[perm[i]] = i;
    B->ptr[0] = 0;
    for (int i = 0; i < n; i++) {
        int r = perm[i], len = A->ptr[r + 1] - A->ptr[r];
        for (int k = 0; k < len; k++) {
            pair[2 * k] = inv[A->col[A->ptr[r] + k]];
            memcpy(&pair[2 * k + 1], &A->re[A->ptr[r] + k], sizeof(double));
        }
        qsort(pair, (size_t)len, 2 * sizeof(long long), cmp_pair);
        for (int k = 0; k < len; k++) {
            B->col[B->ptr[i] + k] = (int)pair[2 * k];
            memcpy(&B->re[B->ptr[i] + k], &pair[2 * k + 1], sizeof(double));
        }
        B->ptr[i + 1] = B->ptr[i] + len;
    }
    free(inv), free(pair);
    return 0;
}

/* row i's diagonal and the range of its other entries */
#define TRI_ROW(T, i, d, k0, k1)                                                                            \
    double d = (T)->lower ? (T)->val[(T)->ptr[(i) + 1] - 1] : (T)->val[(T)->ptr[i]];                      \
    int k0 = (T)->lower ? (T)->ptr[i] : (T)->ptr[i] + 1, k1 = (T)->lower ? (T)->ptr[(i) + 1] - 1 : (T)->ptr[(i) + 1]

void tri_solve(const tri_matrix *T, const double *v, double *y)
{
    for (int s = 0; s < T->n; s++) {
        int i = T->lower ? s : T->n - 1 - s;
        TRI_ROW(T, i, d, k0, k1);
        double sum = v[i];
        for (int k = k0; k < k1; k++)
            sum -= T->val[k] * y[T->col[k]];
        y[i] = sum / d;
    }
}

void tri_sweeps(const tri_matrix *T, int sweeps, const double *v, double *y, double *mag, double *tmp)
{
    int n = T->n;
    for (int pass = 0; pass < 2; pass++) {   /* y, then mag on absolute values */
        double *out = pass ? mag : y;
        if (!out)
            continue;
        for (int i = 0; i < n; i++) {
            TRI_ROW(T, i, d, k0, k1);
            (void)k0, (void)k1;
            out[i] = pass ? fabs(v[i] / d) : v[i] / d;
        }
        for (int s = 0; s < sweeps; s++) {
            for (int i = 0; i < n; i++) {
                TRI_ROW(T, i, d, k0, k1);
                double sum = pass ? fabs(v[i]) : v[i];
                for (int k = k0; k < k1; k++)
                    sum += pass ? fabs(T->val[k]) * out[T->col[k]] : -T->val[k] * out[T->col[k]];
                tmp[i] = pass ? sum / fabs(d) : sum / d;
            }
            memcpy(out, tmp, (size_t)n * sizeof(double));
        }
    }
}

double tri_check_exact(const tri_matrix *T, const double *v, const double *y, int single, int *row)
{
    double eps = single ? FLT_EPSILON / 2 : DBL_EPSILON / 2, worst = 0;
    *row = -1;
    for (int i = 0; i < T->n; i++) {
        double s = v[i], mag = fabs(v[i]);
        for (int k = T->ptr[i]; k < T->ptr[i + 1]; k++) {
            s -= T->val[k] * y[T->col[k]];
            mag += fabs(T->val[k] * y[T->col[k]]);
        }
        double lim = eps * (T->ptr[i + 1] - T->ptr[i] + 10) * mag;
        double part = fabs(s) / (lim > 0 ? lim : DBL_MIN);
        if (!(part <= worst)) {
            worst = part, *row = i;
            if (worst != worst)
                return worst;
        }
    }
    return worst;
}
