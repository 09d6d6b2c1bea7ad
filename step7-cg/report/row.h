/* report/row.h - a row of chapter 7's CG results file (plots/data/cg-<device>.csv)
 * and the lines that print it: one solve of the course's (step7) or of a
 * yardstick's (vendor/cusparse-cg builds this file); and the bytes of a CG
 * iteration, the bound those lines and rows set the time against. */
#ifndef STEP7_ROW_H
#define STEP7_ROW_H

#include "spmv.h"

/* The bytes of one CG iteration: the matrix once (values, column indices,
 * row pointers) and `passes` sweeps over n-vectors of value_size bytes. The
 * compulsory count is SPMV_CG_COMPULSORY_PASSES, the pipelined version's: q = Ap reads p and writes q
 * (2); r -= alpha q, with r.r, reads r and q and writes r (3); x += alpha p
 * and p = r + beta p, in one sweep, read x, p and r and write x and p (5). */
#define SPMV_CG_COMPULSORY_PASSES 9
double spmv_cg_bytes(long long rows, long long nnz, int value_size, int passes);

/* One row of the CG results file: one solve. A negative number, or NULL,
 * leaves its field empty (a tool that cannot tell). */
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
    const char *check;              /* PASS, FAIL or MAXITER (report/check.h, cg_verdict) */
    /* the printed split (spmv_cg_report), not in the file: spmv_ms,
     * vector_ms, reads_ms and gaps_ms (wait_ms is the last two) add up to the
     * profiled iterations on the device's clock; prof_ms is them on the host's */
    double reads_ms, gaps_ms, overlap_ms;   /* an iteration: read-backs, between commands, of which overlaps */
    int passes;                             /* the vector sweeps of bytes (the bytes line) */
    double prof_ms;
    int prof_iterations;
    int rounds;                             /* the split's rounds, each with the loop without events after it */
    double dev_ms[3], bare_ms[3];           /* an iteration over them: median, least, most (device's clock
                                             * with events; host's clock without) */
    int blocks, loop_iterations;            /* the median's blocks; the iterations of the timed loop */
    const char *blocks_what, *waits;        /* what a block is; how often the host waits */
} spmv_cg_row;

/* Append the row to csv (the header first if the file is new or empty);
 * exits 2 if it cannot be written. A row not PASS gets no times. */
void spmv_cg_csv(const char *csv, const spmv_cg_row *r);

/* A solve's result lines (time, split, launches, bytes, bound against
 * r->bw_gbs, the bandwidth of the whole run), when it passed; then the row
 * to csv (if not NULL). */
void spmv_cg_report(const struct spmv_run *run, const spmv_cg_row *r, const char *csv);

#endif
