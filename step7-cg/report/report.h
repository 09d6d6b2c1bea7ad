/* report/report.h - how chapter 7's solve ended and what it leaves: the
 * check on the host (the product run once more on a seeded random p, the
 * true residual, the count against the host's CG or, with no tolerance
 * met, r against b - A x) and the verdict line, "check: PASS", FAIL or
 * MAXITER (report/check.h); the row's times (report/row.h); --history and
 * --save-x. */
#ifndef STEP7_REPORT_H
#define STEP7_REPORT_H

#include "../device/device.h"
#include "../reference/cg.h"
#include "../reference/system.h"
#include "row.h"

/* A solve's records, before it starts: the block times (up to maxiter + 1,
 * at most 2^20) and, for the plain version, --history's residuals (the
 * fused one keeps none: said so). Exits 2 out of memory. */
void report_start(cg_run *run, const spmv_options *o, int fused, int maxiter);

/* --history: the residual |r|/|b| before iteration `it` (the array grows
 * as the solve goes); nothing without --history */
void report_residual(cg_run *run, int it, double rel);

/* How the solve ended, checked on the host: the product once more (its
 * p overwritten: the solve is over), the true residual against --tol (or,
 * with no tolerance met, against the recurrence's, and r against b - A x),
 * the count against the host's CG. Fills the row's solve fields, its check
 * the verdict's word; prints the verdict line and returns the check (1
 * passed, MAXITER too: cg_exit_status tells it apart). */
int report_check(cg_dev *d, const cg_system *s, const cg_run *run, int k, int restarts, int fixed,
                 const spmv_cg_result *host, const double *xd, void *tmp, spmv_cg_row *row);

/* The row's times: the timed loop's median and total (host clock), the
 * profiled loop's parts an iteration (device clock) and its total */
void report_times(spmv_cg_row *row, const cg_dev *d, const cg_run *run, const cg_run *prof);

/* --history (the plain solve's recurrence, restarts included: the counts go
 * on) and --save-x, the latter only for a solve that passed and met --tol
 * (or ran --tol 0's iterations); else one line says why not */
void report_save(const spmv_options *o, int pass, const char *vname, const cg_system *s, cg_run *run,
                 const double *xd, double truer);

#endif
