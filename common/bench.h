/* bench.h - timing, the bandwidth probe, the roofline and the result row.
 *
 * The FLOP and byte formulas live here and nowhere else:
 *   FLOPs                 2 per true nonzero (a multiply and an add); a complex
 *                         nonzero (step6, precisions c and z) counts 8 real
 *                         FLOPs: 4 multiplies and 2 adds for the product, 2 adds
 *                         to accumulate it
 *   model bytes (DIA)     the article's B bytes per 2 FLOPs for every stored
 *                         diagonal entry the kernel walks: B * ndiag * rows
 *   compulsory bytes      every input byte read once, y written once
 *   bound (GFLOP/s)       FLOPs / (bytes / measured bandwidth)
 */
#ifndef SPMV_BENCH_H
#define SPMV_BENCH_H

#include "check.h"
#include "clutil.h"
#include "matrix.h"
#include "options.h"

/* Median and minimum of n times (the array is sorted in place). */
void spmv_stats(double *ms, int n, double *median, double *min);

/* The bandwidth probe: a float4 copy between two buffers big enough to leave
 * the caches (bytes read plus bytes written) and a float4 read-and-sum of one
 * of them, on the device; the same with OpenMP loops on the host (step 0).
 * It is sampled between the timed runs of the kernel (spmv_time_runs), so the
 * bound and the time see the same machine: on a shared machine the bandwidth
 * left to us drifts by tens of percent within a second, and a probe taken
 * before or after the runs can disagree with them by that much.
 * SpMV mostly reads, and many memory systems read faster than they copy (a
 * CPU's write-allocate reads each written line first), so the bounds use the
 * larger of the two medians: a bound must not be beatable. */
#define SPMV_PROBE_MIN_SAMPLES 5
typedef struct {
    spmv_cl *cl;                 /* NULL: the host probe */
    int threads;                 /* the host probe's OpenMP threads */
    size_t bytes;                /* of each buffer */
    cl_program prog;
    cl_kernel copy, read;
    cl_mem a, b;
    double *ha, *hb, sink;
    double *copy_ms, *read_ms;   /* one per sample */
    int n, cap;
} spmv_probe;
typedef struct {
    double copy_gbs, read_gbs, gbs;   /* gbs: the larger, which the bounds use */
    int samples;                      /* 0: not measured (SPMV_PROBE_MB=0, or no timed runs) */
    size_t mib;
    int threads;                      /* host probe: its threads; 0 on a device */
} spmv_bandwidth;
/* cl NULL: the host probe with this many threads. NULL when SPMV_PROBE_MB=0
 * (no probe; SPMV_PROBE_MB=N: N MiB, for tests and simulators). */
spmv_probe *spmv_probe_open(spmv_cl *cl, int threads);
void spmv_probe_sample(spmv_probe *p);   /* one copy and one read, timed */
spmv_bandwidth spmv_probe_finish(spmv_probe *p);   /* medians; frees p (NULL: nothing measured) */
void spmv_bandwidth_print(const spmv_bandwidth *bw);   /* the probe line */

/* Bytes every DIA step must move at least: all stored diagonals (ndiag * rows
 * values), the offsets, x and y. */
double dia_compulsory_bytes(const dia_matrix *A);
/* The article's model: model_bytes per stored entry walked. */
double dia_model_bytes(const dia_matrix *A, int bytes_per_2flops);
/* CSR: values + column indices, row pointers, x, y. value_size 4, 8, 8 or 16. */
double csr_compulsory_bytes(const csr_matrix *A, int value_size);
/* CSR FLOPs: 2 per nonzero, 8 per nonzero in a complex precision (see above). */
double csr_flops(const csr_matrix *A, int complex_);
double spmv_bound_gflops(double flops, double bytes, double bw_gbs);

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
    double bw_gbs;              /* measured in this run */
    double max_rel_err;
    const char *check;          /* PASS FAIL SKIP */
} spmv_result;

#define SPMV_CSV_HEADER                                                                          \
    "step,kernel,device,driver,matrix,rows,cols,nnz,diags,precision,runs,ms_median,ms_min,gflops," \
    "gbs,bw_measured_gbs,bound_model_gflops,bound_compulsory_gflops,max_rel_err,check,date,git_rev"

/* Print the result lines (GFLOP/s, GB/s, bounds and % of each) when the check
 * passed, and append the CSV row (speeds 0 unless PASS) when csv != NULL. */
void spmv_report(const spmv_result *r, const char *csv);

/* Time runs: warmup untimed runs, then runs timed one by one (run returns its
 * milliseconds). With a probe, each timed run is preceded by one probe sample
 * and one untimed run (so the timed run finds the caches as a run of the
 * kernel leaves them), and the probe gets at least SPMV_PROBE_MIN_SAMPLES. */
void spmv_time_runs(double (*run)(void *ctx), void *ctx, int warmup, int runs, spmv_probe *probe,
                    double *median, double *min);
/* The same for an OpenCL kernel, timed with profiling events. */
void spmv_time_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, int warmup, int runs,
                      spmv_probe *probe, double *median, double *min);

/* Report a step that cannot run on this device (no images, no doubles):
 * one line, a SKIP row in the CSV, exit 3. */
void spmv_skip(const spmv_step *s, const spmv_options *o, const spmv_cl *cl, const char *kernel,
               const char *why) __attribute__((noreturn));

/* The matrix a DIA step runs: --matrix (read, converted, refused if not
 * banded) or the grid. Exits 2 with the reason on bad input. */
void spmv_load_dia(const spmv_options *o, size_t pitch_align, dia_matrix *A);
/* The matrix as CSR (step6), from a file or the grid. */
void spmv_load_csr(const spmv_options *o, csr_matrix *A);

/* The checked, timed run every OpenCL step makes:
 *   poison y with NaN, run once, read back, check against the reference;
 *   then poison again, warmup + timed runs with the bandwidth probe sampled
 *   between them, read back and check once more (a race or an unwritten row
 *   shows in either); print the check and the probe lines.
 * Exits 2 if local exceeds what the device or kernel allows. Returns 1 on PASS. */
typedef struct {
    double median, min;   /* ms; 0 when the first check failed */
    spmv_check check;
    spmv_bandwidth bw;    /* sampled between the timed runs */
} spmv_measure;
int spmv_measure_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, cl_mem y,
                        const spmv_ref *ref, int single, const spmv_options *o, spmv_measure *m);

/* Report a DIA step: result lines, roofline with the step's model bytes and
 * the bandwidth measured with it (m->bw), CSV row.
 * Returns the exit status (PASS 0, FAIL 1). */
int spmv_report_dia(const spmv_step *s, const char *kernel, const spmv_options *o, const spmv_cl *cl,
                    const dia_matrix *A, const spmv_measure *m);

/* The vector x of a run: seeded random from --seed (uniform in [-1, 1)).
 * Every step takes x from here, so options about x work in every step.
 * Exits 2 on failure. */
float *spmv_x_floats(const spmv_options *o, int n);
/* n entries (2n interleaved if complex), rounded to float if round_to_float. */
double *spmv_x_doubles(const spmv_options *o, int n, int complex_, int round_to_float);

/* Print the matrix line: name, rows, cols, nnz, diagonals. */
void spmv_print_dia(const dia_matrix *A);

#endif
