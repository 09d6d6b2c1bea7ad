/* report/report.h - how each version of chapter 8's solve ended, on rank 0:
 * the check (step7-cg/report/check.h: every rank's product once more, the
 * true residual, the classic version's count against the host's CG), the
 * verdict line, the time and the split (the
 * slowest rank's, profile/profile.h), --save-x; then the rows of chapter
 * 8's CSV, its own header: the parts of an iteration and the split's sizes. */
#ifndef STEP8_REPORT_H
#define STEP8_REPORT_H

#include "../../step7-cg/reference/cg.h"
#include "../../step7-cg/report/check.h"
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
    cg_product product;       /* rank 0: the product once more against A p (report_product) */
} version_result;

/* main.c's product: out = A v over this rank's rows, the halo of v exchanged */
typedef void report_product_fn(dv *d, cl_mem v, cl_mem out);

/* The solve's numbers into v, on every rank: its end, its count, the
 * recurrence's residual, the median iteration on rank 0's clock */
void report_result(version_result *v, const cg_run *run, double bb);

/* Every rank: the product checked by itself (step7-cg/report/check.h),
 * after the solve: each rank writes its rows of a p seeded random by
 * global row (cg_product_p) and runs main.c's product once more, its halo
 * exchanged as in the solve; q's rows gathered on rank 0 (as x is), which
 * compares them with A p in double, the whole matrix's, into v->product. */
void report_product(dv *d, report_product_fn *product, const cg_system *s, version_result *v);

/* Every rank: rank 0 checks (the product, the true residual, the count)
 * and prints the verdict line, "check: PASS", FAIL, or MAXITER where
 * --maxiter came before --tol (step7-cg/report/check.h); a version that
 * passed, its time and split and its x (gathered in xall) to --save-x (or
 * a line saying why not). Returns the check (1 passed, MAXITER too: the
 * exit status tells it apart), sent to every rank. */
int report_check(const spmv_run *run, const spmv_options *o, const cg_system *s, const sys_info *si, int fixed,
                 const spmv_cg_result *host, const double *xall, const mpi_split *m, const version_result *v);

/* Every rank: the split's sizes to rank 0, which prints the two versions'
 * counts side by side and writes each version's row to --csv */
void report_rows(const spmv_run *run, const spmv_options *o, const version_result *res, int nv, const mpi_split *m,
                 const spmv_cl *cl, const cg_system *s, int fixed);

#endif
