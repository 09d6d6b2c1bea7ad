/* reference/cg.c - the host's conjugate gradient in double, the true
 * residual, the symmetry test (cg.h). */
#include "cg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void spmv_d(const csr_matrix *A, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < A->rows; r++) {
        double s = 0;
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++)
            s += A->re[k] * x[A->col[k]];
        y[r] = s;
    }
}

static double dot_d(const double *a, const double *b, int n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

void spmv_cg_result_free(spmv_cg_result *res)
{
    free(res->history);
    res->history = NULL;
}

int spmv_cg_host(const csr_matrix *A, const double *b, double *x, double tol, int maxiter, spmv_cg_result *res,
                 spmv_error *err)
{
    memset(res, 0, sizeof *res);
    int n = A->rows;
    size_t n1 = n ? (size_t)n : 1;
    double *r = spmv_alloc(n1, sizeof *r, "CG vector r", err);
    double *p = r ? spmv_alloc(n1, sizeof *p, "CG vector p", err) : NULL;
    double *q = p ? spmv_alloc(n1, sizeof *q, "CG vector q", err) : NULL;
    res->history = q ? spmv_alloc((size_t)maxiter + 1, sizeof *res->history, "CG residual history", err) : NULL;
    if (!res->history) {
        free(r);
        free(p);
        free(q);
        return -1;
    }
    for (int i = 0; i < n; i++)
        x[i] = 0, r[i] = p[i] = b[i];
    double rr = dot_d(r, r, n), bnorm = sqrt(rr), thresh = tol * tol * rr;
    res->end = CG_MAXITER;
    int it = 0;
    for (;; it++) {
        res->history[it] = bnorm > 0 ? sqrt(rr) / bnorm : 0;
        if (rr <= thresh) {   /* b = 0 and tol = 0 too: rr = 0 is an exact solution */
            res->end = CG_CONVERGED;
            break;
        }
        if (it == maxiter)
            break;
        spmv_d(A, p, q);
        double pq = dot_d(p, q, n);
        if (!(pq > 0)) {
            res->end = CG_BREAKDOWN;
            res->pq = pq;
            break;
        }
        double alpha = rr / pq;
#pragma omp parallel for schedule(static)
        for (int i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        double rr1 = dot_d(r, r, n), beta = rr1 / rr;
        rr = rr1;
#pragma omp parallel for schedule(static)
        for (int i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
    }
    res->iterations = it;
    res->rel_residual = res->history[it];
    free(r);
    free(p);
    free(q);
    return 0;
}

double spmv_cg_true_residual(const csr_matrix *A, const double *b, const double *x)
{
    double rr = 0, bb = 0;
#pragma omp parallel for reduction(+ : rr, bb) schedule(static)
    for (int r = 0; r < A->rows; r++) {
        double s = b[r];
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++)
            s -= A->re[k] * x[A->col[k]];
        rr += s * s;
        bb += b[r] * b[r];
    }
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

/* a_rc as stored (columns ascending within a row), 0 if not stored */
static double entry(const csr_matrix *A, int r, int c)
{
    int lo = A->ptr[r], hi = A->ptr[r + 1] - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (A->col[mid] == c)
            return A->re[mid];
        if (A->col[mid] < c)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

int spmv_csr_symmetric(const csr_matrix *A, int *row, int *col)
{
    *row = *col = -1;
    if (A->rows != A->cols)
        return 0;
    int bad = A->rows;   /* the first row holding an entry that breaks symmetry */
#pragma omp parallel for reduction(min : bad) schedule(dynamic, 1024)
    for (int r = 0; r < A->rows; r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1] && r < bad; k++) {
            double a = A->re[k], t = entry(A, A->col[k], r);
            if (fabs(a - t) > 1e-12 * fmax(fabs(a), fabs(t)) || (A->im && A->im[k] != 0)) {
                bad = r;
                break;
            }
        }
    if (bad == A->rows)
        return 1;
    *row = bad;
    for (int k = A->ptr[bad]; k < A->ptr[bad + 1]; k++) {
        double a = A->re[k], t = entry(A, A->col[k], bad);
        if (fabs(a - t) > 1e-12 * fmax(fabs(a), fabs(t)) || (A->im && A->im[k] != 0)) {
            *col = A->col[k];
            break;
        }
    }
    return 0;
}
