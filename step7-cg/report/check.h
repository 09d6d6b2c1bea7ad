/* report/check.h - what a CG solve's answer is held to on the host, and how
 * the program ends: chapter 7's checks, which chapter 8 makes the same way
 * on the x and the q its rank 0 gathers (the Makefile builds this file into
 * step8: USES_step8). Each prints its "check" line; then the verdict line. */
#ifndef STEP7_CHECK_H
#define STEP7_CHECK_H

#include "matrix.h"

#include <stdio.h>

/* --help's exit statuses of a CG solve (common/status.h's values) */
#define CG_EXIT_STATUSES                                                                                        \
    "0 solved and checked (or the fixed iterations of --tol 0 done and checked), 1 check failed or breakdown " \
    "(A not positive definite), 2 bad input or out of memory, 3 skipped (the device lacks cl_khr_fp64, which " \
    "d needs), 4 --maxiter reached before --tol"

/* --help's refusals of a CG solve, STEP its name ("step7"): the other
 * chapters' inputs a symmetric system does not take */
#define CG_REFUSALS(STEP)                                                                                     \
    (const spmv_note[]){                                                                                      \
        { "--x", "the right-hand side of " STEP "'s system is --b FILE" },                                   \
        { "--grid", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },      \
        { "--radius", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },    \
        { "--runs", "a solve runs once, its iterations timed" },                                              \
        { "--warmup", "a solve runs once, its iterations timed" },                                            \
        { NULL, NULL } }

/* A converged solve: the true residual |b - A x| / |b| meets --tol (b = 0:
 * x = 0 exactly). why_not follows the line when it does not. */
int cg_check_meets(double truer, double tol, double bb, const char *why_not);

/* No tolerance met (--maxiter, --tol 0): the true residual follows the
 * recurrence's |r|/|b| within 10% + 100 eps sqrt(n), or a dot, a product or
 * an update was wrong. */
int cg_check_follows(int single, int n, double truer, double rel);

/* The iteration count against the host's CG in double: double, the same
 * iterations summed in another order, within 5 + 10%; float, whose rounding
 * slows CG down, within half the host's count + 10. */
int cg_check_count(int single, int iterations, int host_iterations);

/* The product checked by itself, whatever the solve did, at any iteration
 * count: after the solve the version's own product kernel runs once more,
 * its arguments as the solve left them, on a p of its own, seeded random in
 * [-1, 1) (entry i of the whole vector: cg_product_p; the course's rule for
 * a check's input, not what the solve left: check.c says what that p gave),
 * and each row of q is held to A p in double, from the values the device
 * holds (A.re), by common/check.h's tolerance for every product of the
 * course: |q_i - (A p)_i| <= eps (n_i + 10) sum_j |a_ij p_j|, eps the
 * precision's unit roundoff, n_i the row's entries (a row whose sum is 0
 * must give exactly 0; a NaN fails). cg_product_compare finds the row
 * where the error is the largest part of its limit (check.c: that part
 * measured, right and wrong); cg_check_product prints its "check" line and
 * says whether the part is at most 1. */
#define CG_PRODUCT_SEED 0x9e1d7ULL
double cg_product_p(long long i, int single);
typedef struct {
    double err, ratio;   /* the worst row's |q_i - (A p)_i|, and that over its limit */
    long long row;       /* 0-based; -1: no rows */
} cg_product;
cg_product cg_product_compare(const csr_matrix *A, const double *p, const double *q, int single);
int cg_check_product(const cg_product *c);

/* The verdict line (the run's results, results.h): "check: FAIL" when a
 * check failed; "check: MAXITER (...)" when --maxiter came before --tol
 * (not --tol 0) and every check of the iterations run passed: no solution,
 * no PASS; else "check: PASS". cg_verdict is its word, the CSV's check. */
const char *cg_verdict(int pass, int end, int fixed);
void cg_print_verdict(FILE *out, int pass, int end, int fixed, int iterations, double tol);

/* The program's status after one more version: a failed check (1) outranks
 * --maxiter reached before --tol (4), which outranks a pass (0). */
int cg_exit_status(int status, int pass, int end, int fixed);

#endif
