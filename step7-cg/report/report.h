/* report/report.h - how chapter 7's solve ended and what it leaves: the
 * check on the host (the true residual, the count against the host's CG
 * or, at --tol 0, r against b - A x) and the "check: PASS" line; the row's
 * times (report/row.h); --history and --save-x. */
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

/* How the solve ended, checked on the host: the true residual against --tol
 * (or, with no tolerance met, r against b - A x), the count against the
 * host's CG. Fills the row's solve fields; prints "check: PASS" or FAIL and
 * returns the verdict. */
int report_check(cg_dev *d, const cg_system *s, const cg_run *run, int k, int restarts, int fixed,
                 const spmv_cg_result *host, const double *xd, void *tmp, spmv_cg_row *row);

/* The row's times: the timed loop's median and total (host clock), the
 * profiled loop's parts an iteration (device clock) and its total */
void report_times(spmv_cg_row *row, const cg_dev *d, const cg_run *run, const cg_run *prof);

/* --history (the plain solve's recurrence, restarts included: the counts go
 * on) and --save-x, the latter only for a solve that passed */
void report_save(const spmv_options *o, int pass, const char *vname, const cg_system *s, cg_run *run,
                 const double *xd, double truer);

#endif
