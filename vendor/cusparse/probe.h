/* vendor/cusparse/probe.h - the bandwidth probe of common/bench.c, in CUDA.
 *
 * The same two kernels on the same sizes: a float4 copy between two buffers
 * of 256 MiB (SPMV_PROBE_MB overrides, 0: none) and a float4 read-and-sum of
 * one of them, 16 float4 per thread, neighbouring threads on neighbouring
 * addresses; each timed with CUDA events. main.c samples it between the timed
 * cuSPARSE runs exactly as spmv_time_runs does between a step's, so the
 * compulsory bound of a cusparse row is comparable with step6's rows.
 * C linkage: main.c is C, this is compiled by nvcc. */
#ifndef SPMV_CUDA_PROBE_H
#define SPMV_CUDA_PROBE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t bytes;          /* of each buffer */
    void *a, *b;           /* device buffers */
    void *start, *stop;    /* cudaEvent_t */
    double *copy_ms, *read_ms;
    int n, cap;
} cuda_probe;

/* 0 and *p ready (one untimed sample taken), or a CUDA error code: 2 for out
 * of device memory, with msg filled. bytes is clipped to a quarter of the
 * device memory. */
int cuda_probe_open(cuda_probe *p, size_t bytes, char *msg, size_t msglen);
void cuda_probe_sample(cuda_probe *p);   /* one copy and one read, timed */
void cuda_probe_close(cuda_probe *p);

/* Queues one kernel of a single thread that runs `us` microseconds on the
 * default stream (what main.c's timing hides the host's part of a call
 * behind). */
void cuda_spin(double us);
/* The same on a stream (a cudaStream_t; NULL: the default stream). */
void cuda_spin_on(double us, void *stream);

#ifdef __cplusplus
}
#endif
#endif
