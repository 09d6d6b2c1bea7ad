/* measure.c - timing and the bandwidth probe, on the host; a device's probe
 * and the checked, timed run of a kernel are measure_cl.c's. */
#define _POSIX_C_SOURCE 200809L
#include "measure.h"
#include "capacity.h"
#include "check.h"
#include "status.h"
#include "stopwatch.h"

#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void spmv_stats(double *ms, int n, double *median, double *min)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    *min = ms[0];
    *median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

void spmv_time_runs(double (*run)(void *ctx), void *ctx, int warmup, int runs, spmv_probe *probe,
                    double *median, double *min)
{
    for (int i = 0; i < warmup; i++)
        run(ctx);
    double *ms = malloc(sizeof *ms * (size_t)(runs > 0 ? runs : 1));
    if (!ms)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the timings");
    for (int i = 0; i < runs; i++) {
        if (probe) {
            spmv_probe_sample(probe);
            run(ctx);   /* untimed: the caches as a run of the kernel leaves them, not as the probe does */
        }
        ms[i] = run(ctx);
    }
    if (probe)
        probe->between = probe->n;
    while (probe && probe->n < SPMV_PROBE_MIN_SAMPLES)
        spmv_probe_sample(probe);
    spmv_stats(ms, runs, median, min);
    free(ms);
}

/* ---- bandwidth probes ---- */

/* The host probe's loops over its two arrays of n doubles: the copy b = a,
 * then a read of b, each timed from all threads' start to all threads' end
 * (thread 0 reads the clock between barriers that all threads pass); or,
 * the first time, the first touch of the pages (untimed). Each thread takes
 * the same contiguous part of the arrays in every loop, so it reads the
 * pages it touched first. The same work for OpenMP's threads (step 0, whose
 * kernel is OpenMP too) and for POSIX threads (beside a CPU device:
 * spmv_probe_open_beside says why). */
typedef struct {
    spmv_probe *p;
    pthread_barrier_t *bar;   /* POSIX threads; NULL: an OpenMP team */
    int t, nt, touch;
    double sum, t0, t1, t2;
} host_part;

static void part_sync(host_part *h)
{
    if (h->bar) {
        pthread_barrier_wait(h->bar);
    } else {
        #pragma omp barrier
    }
}

static void host_part_run(host_part *h)
{
    double *a = h->p->ha, *b = h->p->hb;
    /* [i0, i1): a multiple of 4 doubles but the last thread's */
    size_t n = h->p->bytes / sizeof(double), q = n / 4;
    size_t i0 = 4 * (q * (size_t)h->t / (size_t)h->nt);
    size_t i1 = h->t + 1 == h->nt ? n : 4 * (q * (size_t)(h->t + 1) / (size_t)h->nt);
    if (h->touch) {
        for (size_t i = i0; i < i1; i++)
            a[i] = b[i] = (double)i;
        return;
    }
    part_sync(h);
    if (h->t == 0)
        h->t0 = spmv_now();
    for (size_t i = i0; i < i1; i++)
        b[i] = a[i];
    part_sync(h);
    if (h->t == 0)
        h->t1 = spmv_now();
    double s = 0;
    for (size_t i = i0; i < i1; i += 4)
        s += (b[i] + b[i + 1]) + (b[i + 2] + b[i + 3]);
    h->sum = s;
    part_sync(h);
    if (h->t == 0)
        h->t2 = spmv_now();
}

static void *host_thread(void *arg)
{
    host_part_run(arg);
    return NULL;
}

/* One pass of the host probe's threads: copy_ms NULL, the first touch; else
 * a timed copy and read. */
static void host_loops(spmv_probe *p, double *copy_ms, double *read_ms)
{
    int nt = p->threads;
    host_part *h = calloc((size_t)nt, sizeof *h);
    pthread_t *th = calloc((size_t)nt, sizeof *th);
    pthread_barrier_t bar;
    if (!h || !th || (p->posix && pthread_barrier_init(&bar, NULL, (unsigned)nt) != 0))
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
    for (int t = 0; t < nt; t++)
        h[t] = (host_part){ .p = p, .bar = p->posix ? &bar : NULL, .t = t, .nt = nt, .touch = !copy_ms };
    if (p->posix) {
        /* threads 1 .. nt - 1 started, thread 0 is this one */
        for (int t = 1; t < nt; t++)
            if (pthread_create(&th[t], NULL, host_thread, &h[t]) != 0)
                spmv_die(SPMV_EXIT_USAGE, "cannot start the bandwidth probe's threads");
        host_part_run(&h[0]);
        for (int t = 1; t < nt; t++)
            pthread_join(th[t], NULL);
        pthread_barrier_destroy(&bar);
    } else {
        #pragma omp parallel num_threads(nt)
        {
            /* the team may be smaller than asked: its own size decides the parts */
            host_part *mine = &h[omp_get_thread_num()];
            mine->nt = omp_get_num_threads();
            host_part_run(mine);
        }
    }
    if (copy_ms) {
        for (int t = 0; t < nt; t++)
            p->sink += h[t].sum;   /* read at the end through a volatile: the sum is not optimised away */
        *copy_ms = (h[0].t1 - h[0].t0) * 1e3;
        *read_ms = (h[0].t2 - h[0].t1) * 1e3;
    }
    free(h);
    free(th);
}

spmv_probe *spmv_probe_open_host(int threads)
{
    size_t bytes = spmv_probe_bytes(0, 0, 0);
    return bytes ? spmv_probe_start(NULL, NULL, NULL, bytes, threads, 0, 0) : NULL;
}

/* The host probe beside a CPU device: POSIX threads, not OpenMP. OpenMP's
 * threads do not stop when a loop ends: they spin, waiting for the next loop,
 * for some milliseconds (libgomp's default, unless OMP_WAIT_POLICY=passive),
 * and there they took the cores from the OpenCL runs that follow the probe.
 * On PoCL (2 cores) that doubled the median time of a 3.5-ms product
 * (power-law mean 15, float, the adaptive kernel: 6.0 ms against 3.3-3.6
 * with OMP_WAIT_POLICY=passive or without the probe), and moved it by tens
 * of percent from run to run; runs of 15 ms (step 4's grid) were not
 * touched. These threads are gone before the kernel runs. */
spmv_probe *spmv_probe_open_beside(int threads)
{
    size_t bytes = spmv_probe_bytes(0, 0, 0);
    return bytes ? spmv_probe_start(NULL, NULL, NULL, bytes, threads, 1, 0) : NULL;
}

spmv_probe *spmv_probe_start(spmv_cl *cl, const spmv_probe_ops *ops, void *dev, size_t bytes, int threads,
                             int posix, int beside)
{
    spmv_probe *p = calloc(1, sizeof *p);
    if (!p)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
    p->cl = cl;
    if (ops)
        p->ops = *ops;
    p->dev = dev;
    p->threads = threads < 1 ? 1 : threads;
    p->bytes = bytes;
    p->posix = posix;
    if (!ops) {
        size_t n = bytes / sizeof(double);
        p->ha = malloc(n * sizeof *p->ha);
        p->hb = malloc(n * sizeof *p->hb);
        if (!p->ha || !p->hb)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
        host_loops(p, NULL, NULL);   /* first touch, by the threads that will use the pages */
    }
    if (beside)
        p->host = spmv_probe_open_beside(beside);
    spmv_probe_sample(p);   /* untimed: compiles, touches the pages */
    p->n = 0;
    if (p->host)
        p->host->n = 0;
    return p;
}

void spmv_probe_sample(spmv_probe *p)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 16;
        double *c = realloc(p->copy_ms, sizeof *c * (size_t)cap);
        if (c)
            p->copy_ms = c;
        double *r = c ? realloc(p->read_ms, sizeof *r * (size_t)cap) : NULL;
        if (!c || !r)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
        p->read_ms = r;
        p->cap = cap;
    }
    double copy_ms, read_ms;
    if (p->ops.sample)
        p->ops.sample(p, &copy_ms, &read_ms);
    else
        host_loops(p, &copy_ms, &read_ms);
    p->copy_ms[p->n] = copy_ms;
    p->read_ms[p->n] = read_ms;
    p->n++;
    if (p->host)
        spmv_probe_sample(p->host);
}

spmv_bandwidth spmv_probe_medians(spmv_probe *p)
{
    spmv_bandwidth bw = { 0 };
    if (!p || !p->n)
        return bw;
    double copy_ms, read_ms, min;
    spmv_stats(p->copy_ms, p->n, &copy_ms, &min);
    spmv_stats(p->read_ms, p->n, &read_ms, &min);
    bw.samples = p->n;
    bw.between = p->between < p->n ? p->between : p->n;
    bw.mib = p->bytes >> 20;
    bw.threads = p->ops.sample ? 0 : p->threads;
    bw.copy_gbs = 2.0 * p->bytes / (copy_ms * 1e-3) / 1e9;
    /* the device's read kernel also writes one float per 16 float4 read */
    bw.read_gbs = (p->bytes + (p->ops.sample ? p->bytes / 64.0 : 0.0)) / (read_ms * 1e-3) / 1e9;
    bw.gbs = bw.copy_gbs > bw.read_gbs ? bw.copy_gbs : bw.read_gbs;
    if (p->host) {
        spmv_bandwidth h = spmv_probe_medians(p->host);
        bw.host_copy_gbs = h.copy_gbs;
        bw.host_read_gbs = h.read_gbs;
        bw.host_mib = h.mib;
        bw.host_threads = h.threads;
        if (h.gbs > bw.gbs)
            bw.gbs = h.gbs;
    }
    return bw;
}

static void probe_close(spmv_probe *p)
{
    if (p->host)
        probe_close(p->host);
    if (p->ops.close)
        p->ops.close(p);
    volatile double sink = p->sink;
    (void)sink;
    free(p->ha);
    free(p->hb);
    free(p->copy_ms);
    free(p->read_ms);
    free(p);
}

spmv_bandwidth spmv_probe_finish(spmv_probe *p)
{
    spmv_bandwidth bw = spmv_probe_medians(p);
    if (p)
        probe_close(p);
    return bw;
}

void spmv_bandwidth_print(const spmv_bandwidth *bw)
{
    if (!bw->samples) {
        printf("probe    skipped (SPMV_PROBE_MB=0): no bounds\n");
        return;
    }
    char who[48] = "";
    if (bw->threads)
        snprintf(who, sizeof who, "host, %d thread%s, ", bw->threads, bw->threads > 1 ? "s" : "");
    /* --runs below SPMV_PROBE_MIN_SAMPLES: the rest of the samples follow the runs */
    char taken[64];
    if (bw->between == bw->samples)
        snprintf(taken, sizeof taken, "%d between the timed runs", bw->samples);
    else
        snprintf(taken, sizeof taken, "%d (%d between the timed runs, %d after them)", bw->samples, bw->between,
                 bw->samples - bw->between);
    printf("probe    %s%zu MiB, median of %s: copy %.1f GB/s (read + written), "
           "read %.1f GB/s", who, bw->mib, taken, bw->copy_gbs, bw->read_gbs);
    if (!bw->host_threads) {
        printf("; bounds use %.1f\n", bw->gbs);
        return;
    }
    printf(" (OpenCL)\n");
    printf("probe    host, %d thread%s, %zu MiB, sampled beside it: copy %.1f GB/s, read %.1f GB/s (C, POSIX threads); "
           "bounds use %.1f, the fastest of the four\n", bw->host_threads, bw->host_threads > 1 ? "s" : "",
           bw->host_mib, bw->host_copy_gbs, bw->host_read_gbs, bw->gbs);
}
