/* report.h - the result lines, the CSV row, and the skip line. */
#ifndef SPMV_REPORT_H
#define SPMV_REPORT_H

#include "clutil.h"
#include "matrix.h"
#include "measure.h"
#include "options.h"

typedef struct {
    const char *step, *kernel;
    const spmv_cl *cl;          /* NULL for host code: device and driver then name the CPU */
    /* A program that times its device without OpenCL (vendor/cusparse) names
     * it here: device and driver fill those columns, timer says on the time
     * line what was timed. NULL: from cl, or the host CPU. */
    const char *device, *driver, *timer;
    const char *matrix;
    int rows, cols;
    long long nnz;
    int diags;
    char precision;
    int runs;
    double ms_median, ms_min;
    double flops, bytes_model, bytes_compulsory;
    spmv_bandwidth bw;          /* measured in this run: the bounds use bw.gbs; the CSV keeps
                                 * it and the copy and read medians (all 0: not measured) */
    double max_rel_err;
    const char *check;          /* PASS FAIL SKIP */
} spmv_result;

/* bw_copy_gbs and bw_read_gbs, the probe's two medians (on a CPU device each
 * the faster of the OpenCL and the host probe's), came last: an older file
 * is this header without them, and plots/migrate.sh adds them empty. */
#define SPMV_CSV_HEADER                                                                          \
    "step,kernel,device,driver,matrix,rows,cols,nnz,diags,precision,runs,ms_median,ms_min,gflops," \
    "gbs,bw_measured_gbs,bound_model_gflops,bound_compulsory_gflops,max_rel_err,check,date,git_rev," \
    "bw_copy_gbs,bw_read_gbs"

/* Print the result lines (GFLOP/s, GB/s, bounds and % of each) when the check
 * passed, and append the CSV row (speeds 0 unless PASS) when csv != NULL. */
void spmv_report(const spmv_result *r, const char *csv);

/* Report a step that cannot run on this device (no images, no doubles):
 * one line, a SKIP row in the CSV, exit 3. */
void spmv_skip(const spmv_step *s, const spmv_options *o, const spmv_cl *cl, const char *kernel,
               const char *why) __attribute__((noreturn));

/* Report a DIA step: result lines, roofline with the step's model bytes and
 * the bandwidth measured with it (m->bw), CSV row.
 * Returns the exit status (PASS 0, FAIL 1). */
int spmv_report_dia(const spmv_step *s, const char *kernel, const spmv_options *o, const spmv_cl *cl,
                    const dia_matrix *A, const spmv_measure *m);

#endif
