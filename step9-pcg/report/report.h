/* report/report.h - what a chapter 9 solve did, what its answer is held to,
 * and how it is reported: the "check" lines, the verdict, --save-x, the
 * time-to-solution table and a row of the chapter's CSV. */
#ifndef STEP9_REPORT_H
#define STEP9_REPORT_H

#include "../device/device.h"
#include "run.h"

/* What one version's solve did */
typedef struct {
    int iterations, launched, end, restarts;   /* end: CG_CONVERGED, CG_MAXITER, CG_BREAKDOWN */
    double rr, bad;                            /* r.r at the end; the p.Ap or r.z of a breakdown */
    double setup_ms, solve_ms, apply_ms;       /* apply: z = M^-1 r alone (NaN: none to time) */
    double lsolve_ms, lsolve_host_ms;          /* L y = v alone: the device's clock (events), the host's */
    int kappa_m;                               /* the iterations before the first restart (0: none) */
} pcg_run;

/* --kappa M: M^-1 A's extreme eigenvalues from the first min(M, iterations
 * before a restart) iterations' alpha and beta, the Lanczos tridiagonal PCG
 * builds (T_jj = 1/alpha_j + beta_{j-1}/alpha_{j-1}, T_j,j+1 =
 * sqrt(beta_j)/alpha_j), by bisection; prints the "kappa" line: kappa and
 * the iterations CG's bound 2 ((sqrt k - 1)/(sqrt k + 1))^i says the
 * tolerance takes. Nothing without --kappa. */
void report_kappa(const pcg_dev *d, const cg_system *s, const pcg_run *run);

/* One version's line of the table and row of the CSV */
typedef struct {
    const char *kernel;
    int iterations, converged, launches, levels;   /* levels: of L's solve (0: no solve) */
    double true_residual, rel_residual, tol, setup_ms, solve_ms, apply_ms, lsolve_ms, lsolve_host_ms;
    long long factor_nnz;
    const char *check;
} pcg_row;

#define PCG_CSV_HEADER                                                                                              \
    "step,kernel,device,driver,matrix,rows,nnz,precision,tol,iterations,converged,rel_residual,true_residual,"     \
    "setup_ms,solve_ms,total_ms,ms_per_iter,apply_ms_per_iter,levels,check,date,git_rev"

/* The "cg" line: what an iteration launches; the solves' levels, chains and widths */
void report_describe(const pcg_dev *d);

/* Read the scalars (r.z, alpha, the p.Ap of a breakdown, r.r) into double;
 * read x back into xd in the system's order (the ordering undone) */
void report_read_scalars(const pcg_dev *d, double scal[4]);
double report_read_rr(const pcg_dev *d);   /* r.r from the last update's partials */
void report_read_x(const pcg_dev *d, void *tmp, double *xd);

/* z = M^-1 r alone, on the r the solve left: the median of a few runs, ms,
 * on the device's clock (from its first command's start to its last one's
 * end, profiling events; the runs queued back to back, as cusparse-pcg
 * times SpSV between CUDA events); host_ms (if not NULL): the median on
 * the host's clock, each run waited for (the launches' cost included) */
double report_time_apply(pcg_dev *d, void (*apply)(pcg_dev *), double *host_ms);

/* The checks, each a "check" line: the true residual |b - A x|/|b| in double
 * meets --tol (or follows the recurrence where no tolerance was met); the
 * product once more on a seeded random p (chapter 7's check); each
 * triangular solve on a seeded random v: the exact solve row by row,
 * |v_i - sum_j t_ij y_j| <= eps (n_i + 10) sum_j |t_ij y_j|, the sweeps
 * against the host's sweeps in double within (S + 1)(n_i + 10) eps of their
 * size. Then the verdict line. Returns 1 when every check passed; fills row. */
int report_check(pcg_dev *d, const cg_system *s, const pcg_run *run, int fixed, const double *xd, void *tmp,
                 void (*apply)(pcg_dev *), pcg_row *row);

/* --save-x: a checked solution only */
void report_save(const spmv_options *o, int pass, const pcg_dev *d, const cg_system *s, const pcg_run *run,
                 const double *xd);

/* L's solve alone: its "trsv" line, and with --trsv-csv a row of the
 * chapter's triangular-solve CSV (TRSV_CSV_HEADER) */
#define TRSV_CSV_HEADER "step,kernel,device,driver,matrix,rows,nnz_factor,precision,levels,ms_per_solve,us_per_level,check,date,git_rev"
void report_trsv(const spmv_options *o, const pcg_dev *d, const cg_system *s, const pcg_row *r);

/* The time-to-solution table, every version beside the first (cg) */
void report_table(const spmv_cl *cl, const cg_system *s, const pcg_row *rows, int nv);
void report_csv(const spmv_options *o, const spmv_cl *cl, const cg_system *s, const pcg_row *r);

#endif
