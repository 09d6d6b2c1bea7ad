/* measure_cl.h - the device's side of measure.h: its bandwidth probe, its
 * kernels timed with profiling events, and the checked, timed run of a
 * kernel every OpenCL step makes. */
#ifndef SPMV_MEASURE_CL_H
#define SPMV_MEASURE_CL_H

#include "clutil.h"
#include "measure.h"

/* cl's probe; a CPU device's with the host's sampled beside it, a thread per
 * compute unit (cl NULL: spmv_probe_open_host(threads)). NULL when
 * SPMV_PROBE_MB=0. */
spmv_probe *spmv_probe_open(spmv_cl *cl, int threads);
/* spmv_time_runs for an OpenCL kernel, timed with profiling events. */
void spmv_time_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, int warmup, int runs,
                      spmv_probe *probe, double *median, double *min);
/* The same for kernels that make one run together (spmv_cl_run_seq). */
void spmv_time_seq(spmv_cl *cl, const spmv_launch *l, int n, int warmup, int runs, spmv_probe *probe,
                   double *median, double *min);

/* The timing every OpenCL step makes once its first run has passed its check.
 * Section 6 of main.c launches the kernel once on a y poisoned with NaN,
 * reads y back and checks it (m->check); then, if that passed, this:
 *   poisons y again, runs warmup untimed runs, then the timed runs with the
 *   device's bandwidth probe sampled between them (opened once per device,
 *   kept in cl->probe, sampled afresh for every kernel measured), reads y
 *   back into y and checks it once more: a race or an unwritten row shows in
 *   either check. The worse check is kept, and a failed one drops the time.
 * If the first check failed, nothing runs. Prints nothing (report.h does).
 * Returns 1 if the check (still) passes. */
int spmv_measure_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, cl_mem d_y, float *y,
                        const spmv_ref *ref, int warmup, int runs, spmv_measure *m);
/* The same for a run made of n kernels in sequence (step 6's adaptive kernel
 * and its fix-up), timed from the first start to the last end; y holds
 * floats if single, else doubles (pairs if the reference is complex). */
int spmv_measure_seq(spmv_cl *cl, const spmv_launch *l, int n, cl_mem d_y, void *y, const spmv_ref *ref,
                     int single, int warmup, int runs, spmv_measure *m);

#endif
