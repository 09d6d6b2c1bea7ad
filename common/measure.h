/* measure.h - timing and the bandwidth probe, on the host: no OpenCL here
 * (step 0 uses it alone). A device's probe, its kernels timed and the
 * checked, timed run of a kernel are measure_cl.h's. */
#ifndef SPMV_MEASURE_H
#define SPMV_MEASURE_H

#include "check.h"
#include "options.h"

#include <stddef.h>

typedef struct spmv_cl spmv_cl;   /* clutil.h: the device, only pointed to here */

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
typedef struct spmv_probe spmv_probe;
/* What a device's probe adds (measure_cl.c): its copy and read, timed, and
 * the release of its objects. */
typedef struct {
    void (*sample)(spmv_probe *p, double *copy_ms, double *read_ms);
    void (*close)(spmv_probe *p);
} spmv_probe_ops;
struct spmv_probe {
    spmv_cl *cl;                 /* NULL: the host probe */
    spmv_probe_ops ops;          /* a device's; { NULL, NULL }: the host probe */
    void *dev;                   /* the device's program, kernels and buffers */
    struct spmv_probe *host;     /* on a CPU device: the host probe, sampled with it */
    int threads;                 /* the host probe's threads */
    int posix;                   /* its threads are POSIX threads (beside a CPU device), not OpenMP's */
    size_t bytes;                /* of each buffer */
    double *ha, *hb, sink;
    double *copy_ms, *read_ms;   /* one per sample */
    int n, cap;
    int between;                 /* of the n samples, those taken between the timed runs */
};
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
/* The host probe with this many threads (OpenMP's); a device's is
 * spmv_probe_open (measure_cl.h). NULL when SPMV_PROBE_MB=0 (no probe;
 * SPMV_PROBE_MB=N: N MiB, for tests and simulators). */
spmv_probe *spmv_probe_open_host(int threads);
/* The host probe as it runs beside a CPU device: its threads end with each
 * sample (POSIX threads), so none is left spinning when a kernel runs. */
spmv_probe *spmv_probe_open_beside(int threads);
/* A probe of bytes, sampled once untimed: ops NULL, the host's arrays and
 * threads (posix: POSIX threads); else a device's (dev: its objects, which
 * ops->close releases; *ops is copied), with a host probe of `beside` threads
 * sampled with it (0: none). */
spmv_probe *spmv_probe_start(spmv_cl *cl, const spmv_probe_ops *ops, void *dev, size_t bytes, int threads,
                             int posix, int beside);
void spmv_probe_sample(spmv_probe *p);   /* one copy and one read, timed (and the host's beside a CPU device) */
spmv_bandwidth spmv_probe_medians(spmv_probe *p);   /* the medians so far; p stays open */
spmv_bandwidth spmv_probe_finish(spmv_probe *p);   /* medians; frees p (NULL: nothing measured) */
void spmv_bandwidth_print(const spmv_bandwidth *bw);   /* the probe line */

/* Time runs: warmup untimed runs, then runs timed one by one (run returns its
 * milliseconds). With a probe, each timed run is preceded by one probe sample
 * and one untimed run (so the timed run finds the caches as a run of the
 * kernel leaves them), and the probe gets at least SPMV_PROBE_MIN_SAMPLES. */
void spmv_time_runs(double (*run)(void *ctx), void *ctx, int warmup, int runs, spmv_probe *probe,
                    double *median, double *min);
/* A checked, timed run (measure_cl.h's spmv_measure_kernel, step 0's loop). */
typedef struct {
    double median, min;   /* ms; 0 when a check failed */
    spmv_check check;
    spmv_bandwidth bw;    /* sampled between the timed runs */
} spmv_measure;

#endif
