/* cg.h - chapter 7's conjugate gradient on the host, in double: the reference
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
 * Also here: the test every CG solve makes first (A symmetric), and the
 * row of the CG results file (report.c writes it). */
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

/* One row of the CG results file (plots/data/cg-<device>.csv): one solve of
 * the course's or of a yardstick. A negative number, or NULL, leaves its
 * field empty (a tool that cannot tell). */
#define SPMV_CG_CSV_HEADER                                                                               \
    "step,kernel,device,driver,matrix,rows,cols,nnz,precision,iterations,check_every,extra_iterations,"  \
    "converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,spmv_ms_per_iter,vector_ms_per_iter," \
    "wait_ms_per_iter,launches_per_iter,bytes_per_iter,bytes_compulsory_per_iter,bw_measured_gbs,"       \
    "pct_version_bound,pct_compulsory,check,date,git_rev"
typedef struct {
    const char *step, *kernel, *device, *driver, *matrix;
    long long rows, cols, nnz;
    char precision;                 /* 's' or 'd' */
    int iterations, check_every, extra_iterations, converged;
    double rel_residual, true_residual, tol;
    double ms_per_iter, ms_total, spmv_ms, vector_ms, wait_ms, launches;
    double bytes, bytes_compulsory, bw_gbs;   /* pct_* follow from these and ms_per_iter */
    const char *check;              /* PASS or FAIL */
    /* the printed split (spmv_cg_report), not in the file: spmv_ms,
     * vector_ms, reads_ms and gaps_ms (wait_ms is the last two) add up to the
     * profiled iterations on the device's clock; prof_ms is them on the host's */
    double reads_ms, gaps_ms, overlap_ms;   /* an iteration: read-backs, between commands, of which overlaps */
    double prof_ms;
    int prof_iterations;
    int blocks, loop_iterations;            /* the median's blocks; the iterations of the timed loop */
    const char *blocks_what, *waits;        /* what a block is; how often the host waits */
} spmv_cg_row;
/* Append the row to csv (the header first if the file is new or empty);
 * exits 2 if it cannot be written. A row not PASS gets no times. */
void spmv_cg_csv(const char *csv, const spmv_cg_row *r);
/* A solve's result lines (time, split, launches, bytes, bound against
 * r->bw_gbs, the bandwidth of the whole run), when it passed; then the row
 * to csv (if not NULL). */
void spmv_cg_report(const spmv_cg_row *r, const char *csv);

/* The bytes of one CG iteration: the matrix once (values, column indices,
 * row pointers) and `passes` sweeps over n-vectors of value_size bytes. The
 * compulsory count is SPMV_CG_COMPULSORY_PASSES: q = Ap reads p and writes q
 * (2); r -= alpha q, with r.r, reads r and q and writes r (3); x += alpha p
 * and p = r + beta p, in one sweep, read x, p and r and write x and p (5). */
#define SPMV_CG_COMPULSORY_PASSES 10
double spmv_cg_bytes(long long rows, long long nnz, int value_size, int passes);

#endif
