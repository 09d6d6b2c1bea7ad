/* measure.h - timing, the bandwidth probe, and the checked, timed run of a kernel. */
#ifndef SPMV_MEASURE_H
#define SPMV_MEASURE_H

#include "check.h"
#include "clutil.h"
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
 * larger of the two medians: a bound must not be beatable.
 * On a CPU device the memory is the host's, and the OpenCL probe can read it
 * slower than plain C does (PoCL's read4 on 2 cores: 38-41 GB/s where OpenMP
 * read 55-62 GB/s in the same minute); a bound against the slower probe would
 * flatter the kernel. So there the host probe (C, OpenMP, a thread per compute
 * unit) is sampled beside the OpenCL one, both are printed, and the bounds use
 * the fastest of the four medians. Beside a device its threads are POSIX
 * threads, gone before the kernel runs (measure.c, spmv_probe_open_beside, says
 * why not OpenMP's). */
#define SPMV_PROBE_MIN_SAMPLES 5
typedef struct spmv_probe {
    spmv_cl *cl;                 /* NULL: the host probe */
    cl_context ctx;              /* the context it was opened in (spmv_measure_kernel keeps one) */
    struct spmv_probe *host;     /* on a CPU device: the host probe, sampled with it */
    int threads;                 /* the host probe's threads */
    int posix;                   /* its threads are POSIX threads (beside a CPU device), not OpenMP's */
    size_t bytes;                /* of each buffer */
    cl_program prog;
    cl_kernel copy, read;
    cl_mem a, b;
    double *ha, *hb, sink;
    double *copy_ms, *read_ms;   /* one per sample */
    int n, cap;
    int between;                 /* of the n samples, those taken between the timed runs */
} spmv_probe;
typedef struct {
    double copy_gbs, read_gbs, gbs;   /* gbs: the largest (of all four on a CPU device), which the bounds use */
    int samples;                      /* 0: not measured (SPMV_PROBE_MB=0, or no timed runs) */
    int between;                      /* of them, those taken between the timed runs (the rest after) */
    size_t mib;
    int threads;                      /* host probe: its threads; 0 on a device */
    double host_copy_gbs, host_read_gbs;   /* on a CPU device: the host probe sampled beside it */
    size_t host_mib;
    int host_threads;                 /* its threads; 0: no host probe beside the device's */
} spmv_bandwidth;
/* cl NULL: the host probe with this many threads; a CPU device: its probe and
 * the host's, a thread per compute unit. NULL when SPMV_PROBE_MB=0
 * (no probe; SPMV_PROBE_MB=N: N MiB, for tests and simulators). */
spmv_probe *spmv_probe_open(spmv_cl *cl, int threads);
/* The host probe as it runs beside a CPU device: its threads end with each
 * sample (POSIX threads), so none is left spinning when a kernel runs. */
spmv_probe *spmv_probe_open_beside(int threads);
void spmv_probe_sample(spmv_probe *p);   /* one copy and one read, timed (and the host's beside a CPU device) */
spmv_bandwidth spmv_probe_finish(spmv_probe *p);   /* medians; frees p (NULL: nothing measured) */
void spmv_bandwidth_print(const spmv_bandwidth *bw);   /* the probe line */

/* Time runs: warmup untimed runs, then runs timed one by one (run returns its
 * milliseconds). With a probe, each timed run is preceded by one probe sample
 * and one untimed run (so the timed run finds the caches as a run of the
 * kernel leaves them), and the probe gets at least SPMV_PROBE_MIN_SAMPLES. */
void spmv_time_runs(double (*run)(void *ctx), void *ctx, int warmup, int runs, spmv_probe *probe,
                    double *median, double *min);
/* The same for an OpenCL kernel, timed with profiling events. */
void spmv_time_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, int warmup, int runs,
                      spmv_probe *probe, double *median, double *min);
/* The same for kernels that make one run together (spmv_cl_run_seq). */
void spmv_time_seq(spmv_cl *cl, const spmv_launch *l, int n, int warmup, int runs, spmv_probe *probe,
                   double *median, double *min);

/* The timing every OpenCL step makes once its first run has passed its check.
 * Section 6 of main.c launches the kernel once on a y poisoned with NaN,
 * reads y back and checks it (m->check); then, if that passed, this:
 *   poisons y again, runs warmup untimed runs, then the timed runs with the
 *   device's bandwidth probe sampled between them (opened once per process,
 *   sampled afresh for every kernel measured), reads y back into y and checks
 *   it once more: a race or an unwritten row shows in either check. The worse
 *   check is kept, and a failed one drops the time.
 * If the first check failed, nothing runs. Prints nothing (report.h does).
 * Returns 1 if the check (still) passes. */
typedef struct {
    double median, min;   /* ms; 0 when a check failed */
    spmv_check check;
    spmv_bandwidth bw;    /* sampled between the timed runs */
} spmv_measure;
int spmv_measure_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, cl_mem d_y, float *y,
                        const spmv_ref *ref, const spmv_options *o, spmv_measure *m);
/* The same for a run made of n kernels in sequence (step 6's adaptive kernel
 * and its fix-up), timed from the first start to the last end; y holds
 * floats if single, else doubles (pairs if the reference is complex). */
int spmv_measure_seq(spmv_cl *cl, const spmv_launch *l, int n, cl_mem d_y, void *y, const spmv_ref *ref,
                     int single, const spmv_options *o, spmv_measure *m);

#endif
