/* reference/cg.h - chapter 7's conjugate gradient on the host, in double: the reference
 * the device's solve is held to (its iteration count, its residual history),
 * and the true residual of any x, recomputed from the matrix itself.
 *
 * The method is the textbook one (Hestenes and Stiefel), from x0 = 0:
 *
 *     r = b, p = r, rr = r.r
 *     until sqrt(rr) <= tol * |b| or maxiter iterations:
 *         q = A p;  pq = p.q           (pq <= 0: A is not positive definite)
 *         alpha = rr / pq
 *         x += alpha p;  r -= alpha q
 *         rr' = r.r;  beta = rr' / rr;  rr = rr'
 *         p = r + beta p
 *
 * The stopping test comes before each iteration, so an exact solution (rr =
 * 0, b = 0 included) stops at once, and tol = 0 runs exactly maxiter
 * iterations. The device's solvers (step7-cg) make the same test at the same
 * place, so their counts can be compared one for one.
 *
 * Also here: the test every CG solve makes first (A symmetric). The row of
 * the CG results file and the bytes of an iteration are chapter 7's
 * report/row.h's. Chapter 7 and its yardstick vendor/cusparse-cg build
 * this file; common/ never includes it. */
#ifndef SPMV_CG_H
#define SPMV_CG_H

#include "matrix.h"

/* How a solve ended. */
enum { CG_CONVERGED, CG_MAXITER, CG_BREAKDOWN };

typedef struct {
    int iterations;        /* iterations done */
    int end;               /* CG_CONVERGED, CG_MAXITER (tol not met), CG_BREAKDOWN (pq <= 0 at iterations + 1) */
    double rel_residual;   /* the recurrence's sqrt(rr) / |b| at the end (0 for b = 0) */
    double pq;             /* the breakdown's p.Ap */
    double *history;       /* iterations + 1 entries: sqrt(rr) / |b| before each iteration, and at the end */
} spmv_cg_result;

/* Solve A x = b (A square, real) in double; x gets the solution (n entries).
 * Returns 0, or -1 with *err if out of memory. res->history is allocated
 * (spmv_cg_result_free). */
int spmv_cg_host(const csr_matrix *A, const double *b, double *x, double tol, int maxiter, spmv_cg_result *res,
                 spmv_error *err);
void spmv_cg_result_free(spmv_cg_result *res);

/* |b - A x| / |b| in double (|b - A x| alone if b = 0). */
double spmv_cg_true_residual(const csr_matrix *A, const double *b, const double *x);

/* 1 if A is square and a_ij = a_ji for every stored entry (a missing entry
 * counts as 0), within a relative 1e-12; else 0, with the first entry that
 * breaks it in *row, *col (-1, -1 if A is not square). */
int spmv_csr_symmetric(const csr_matrix *A, int *row, int *col);

#endif
