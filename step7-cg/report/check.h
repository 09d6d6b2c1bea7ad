/* report/check.h - what a CG solve's answer is held to on the host, and how
 * the program ends: chapter 7's checks, which chapter 8 makes the same way
 * on the x its rank 0 gathers (the Makefile builds this file into step8:
 * USES_step8). Each prints its "check" line. */
#ifndef STEP7_CHECK_H
#define STEP7_CHECK_H

/* --help's exit statuses of a CG solve (common/status.h's values) */
#define CG_EXIT_STATUSES                                                                                        \
    "0 solved and checked (or the fixed iterations of --tol 0 done and checked), 1 check failed or breakdown " \
    "(A not positive definite), 2 bad input or out of memory, 3 skipped (the device lacks cl_khr_fp64, which " \
    "d needs), 4 --maxiter reached before --tol"

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

/* The program's status after one more version: a failed check (1) outranks
 * --maxiter reached before --tol (4), which outranks a pass (0). */
int cg_exit_status(int status, int pass, int end, int fixed);

#endif
