/* report.h - section 7 of every main.c: the check's verdict and the probe,
 * y saved for outside tools (--save-y), the result lines and the CSV row;
 * and the skip line. */
#ifndef SPMV_REPORT_H
#define SPMV_REPORT_H

#include <stdio.h>

#include "matrix.h"
#include "measure.h"
#include "options.h"

struct spmv_run;   /* run.h: the run reported, whose result lines (results.h) and setup (stopwatch.h) it prints */

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
void spmv_report(const struct spmv_run *run, const spmv_result *r, const char *csv);

/* Report a step that cannot run on this device (no images, no doubles):
 * one line, a SKIP row in the CSV, exit 3. */
void spmv_skip(const struct spmv_run *run, const spmv_step *s, const spmv_options *o, const spmv_cl *cl,
               const char *kernel, const char *why) __attribute__((noreturn));

/* The check's lines (its largest error, the first bad row, "check: PASS" or
 * "check: FAIL") and, when it passed, the bandwidth probe's. */
void spmv_report_check(const struct spmv_run *run, const spmv_measure *m);

/* --save-y: y of n rows (floats if single, else doubles; interleaved if
 * complex_) as a Matrix Market 'array' file, written only if pass; otherwise
 * says so and removes an old file there. Does nothing without --save-y.
 * Exits 2 if the file cannot be written. */
void spmv_save_y(const struct spmv_run *run, const spmv_options *o, const void *y, long long n, int complex_,
                 int single, int pass);

/* Report a DIA step: result lines, roofline with the step's model bytes and
 * the bandwidth measured with it (m->bw), CSV row.
 * Returns the exit status (PASS 0, FAIL 1). */
int spmv_report_dia(const struct spmv_run *run, const spmv_step *s, const char *kernel, const spmv_options *o,
                    const spmv_cl *cl, const dia_matrix *A, const spmv_measure *m);

/* The speed of a result, as its lines and its row give it: GFLOP/s and GB/s
 * of compulsory traffic at the median time (0 unless it passed its check and
 * was timed), and the bounds at its measured bandwidth. */
typedef struct {
    double gflops, gbs, bound_model, bound_compulsory;
} spmv_speed;
spmv_speed spmv_result_speed(const spmv_result *r);

/* Report a kernel of step 6 on its CSR matrix in the precision of --precision:
 * result lines, the compulsory bound (CSR has no model of the article's), CSV
 * row; *speed (if not NULL) gets the numbers, for step 6's comparison table.
 * Returns the exit status (PASS 0, FAIL 1). */
int spmv_report_csr(const struct spmv_run *run, const spmv_step *s, const char *kernel, const spmv_options *o,
                    const spmv_cl *cl, const csr_matrix *A, const spmv_measure *m, spmv_speed *speed);

/* A CSV file opened to append a row, its header first when the file is new
 * or empty (exits 2 if it cannot be written); a field written with its
 * commas, quotes and newlines as spaces. For a step with its own header. */
FILE *spmv_csv_append(const char *csv, const char *header);
void spmv_csv_field(FILE *f, const char *s);

/* The revision the course was built from (the CSV rows' git_rev column) */
const char *spmv_git_rev(void);

#endif
