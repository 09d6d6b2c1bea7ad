/* report/report.h - how each version of chapter 8's solve ended, on rank 0:
 * the check (step7-cg/report/check.h: the true residual, the classic
 * version's count against the host's CG), the time and the split (the
 * slowest rank's, profile/profile.h), --save-x; then the rows of chapter
 * 8's CSV, its own header: the parts of an iteration and the split's sizes. */
#ifndef STEP8_REPORT_H
#define STEP8_REPORT_H

#include "../../step7-cg/reference/cg.h"
#include "../device/device.h"
#include "../device/ranks.h"
#include "../profile/profile.h"
#include "spmv.h"

/* One version's result */
typedef struct {
    const char *kernel;
    int iterations, end, restarts, pass, timed;
    double rel, truer, ms, total_ms;
    cg_prof prof;             /* the profiled loop, the slowest rank's */
} version_result;

/* The solve's numbers into v, on every rank: its end, its count, the
 * recurrence's residual, the median iteration on rank 0's clock */
void report_result(version_result *v, const cg_run *run, double bb);

/* Rank 0: the check, "check: PASS" or FAIL; a version that passed, its
 * time and split and its x (gathered in xall) to --save-x. Returns the
 * verdict. */
int report_check(const spmv_run *run, const spmv_options *o, const cg_system *s, const sys_info *si, int fixed,
                 const spmv_cg_result *host, const double *xall, int ranks, const version_result *v);

/* Every rank: the split's sizes to rank 0, which prints the two versions'
 * counts side by side and writes each version's row to --csv */
void report_rows(const spmv_run *run, const spmv_options *o, const version_result *res, int nv, const mpi_split *m,
                 const spmv_cl *cl, const cg_system *s, int fixed);

#endif
