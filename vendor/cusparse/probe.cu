/* vendor/cusparse/probe.cu - the bandwidth probe of common/bench.c in CUDA
 * (see probe.h): the same copy and read kernels, timed with events. */
#include "probe.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 256
#define READ_PER_THREAD 16

__global__ void copy4(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i];
}

/* thread i reads i, i + n, i + 2n, ...: a warp reads 512 contiguous bytes at a time */
__global__ void read4(const float4 *__restrict__ a, float *__restrict__ out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = 0; k < READ_PER_THREAD; k++) {
        float4 v = a[i + k * n];
        s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
    }
    out[i] = s.x + s.y + s.z + s.w;
}

/* One thread that waits `ns` nanoseconds of the GPU's global timer, then
 * ends: the stream is busy while the host prepares the call queued behind
 * it (main.c, call_ms). */
__global__ void spin(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
}

extern "C" void cuda_spin_on(double us, void *stream)
{
    spin<<<1, 1, 0, (cudaStream_t)stream>>>((unsigned long long)(us * 1e3));
}

extern "C" void cuda_spin(double us)
{
    cuda_spin_on(us, NULL);
}

static float timed(cuda_probe *p, int which)
{
    size_t n4 = p->bytes / sizeof(float4), n = which ? n4 / READ_PER_THREAD : n4;
    unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
    cudaEventRecord((cudaEvent_t)p->start);
    if (which)
        read4<<<blocks, THREADS>>>((const float4 *)p->a, (float *)p->b, n);
    else
        copy4<<<blocks, THREADS>>>((const float4 *)p->a, (float4 *)p->b, n);
    cudaEventRecord((cudaEvent_t)p->stop);
    cudaEventSynchronize((cudaEvent_t)p->stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, (cudaEvent_t)p->start, (cudaEvent_t)p->stop);
    return ms;
}

extern "C" int cuda_probe_open(cuda_probe *p, size_t bytes, char *msg, size_t msglen)
{
    memset(p, 0, sizeof *p);
    size_t free_b = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_b, &total);
    if (e == cudaSuccess && bytes > total / 4)
        bytes = total / 4;
    bytes &= ~(size_t)((1 << 20) - 1);
    if (bytes < (1 << 20))
        bytes = 1 << 20;
    if (e == cudaSuccess)
        e = cudaMalloc(&p->a, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&p->b, bytes);
    if (e == cudaSuccess)
        e = cudaMemset(p->a, 0, bytes);   /* zeros are floats: no NaN slows the sum */
    if (e == cudaSuccess)
        e = cudaEventCreate((cudaEvent_t *)&p->start);
    if (e == cudaSuccess)
        e = cudaEventCreate((cudaEvent_t *)&p->stop);
    if (e != cudaSuccess) {
        snprintf(msg, msglen, "bandwidth probe of 2 x %zu MiB: %s (%s)", bytes >> 20, cudaGetErrorName(e),
                 cudaGetErrorString(e));
        cuda_probe_close(p);
        return e == cudaErrorMemoryAllocation ? 2 : 1;
    }
    p->bytes = bytes;
    cuda_probe_sample(p);   /* untimed: loads the module, touches the pages */
    e = cudaGetLastError();
    if (e != cudaSuccess) {
        snprintf(msg, msglen, "bandwidth probe kernels: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
        cuda_probe_close(p);
        return 1;
    }
    p->n = 0;
    return 0;
}

extern "C" void cuda_probe_sample(cuda_probe *p)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 16;
        double *c = (double *)realloc(p->copy_ms, sizeof *c * (size_t)cap);
        if (c)
            p->copy_ms = c;
        double *r = c ? (double *)realloc(p->read_ms, sizeof *r * (size_t)cap) : NULL;
        if (!c || !r) {
            fprintf(stderr, "cusparse: error: out of host memory for the bandwidth probe\n");
            exit(2);
        }
        p->read_ms = r;
        p->cap = cap;
    }
    p->copy_ms[p->n] = timed(p, 0);
    p->read_ms[p->n] = timed(p, 1);
    p->n++;
}

extern "C" void cuda_probe_close(cuda_probe *p)
{
    if (p->a)
        cudaFree(p->a);
    if (p->b)
        cudaFree(p->b);
    if (p->start)
        cudaEventDestroy((cudaEvent_t)p->start);
    if (p->stop)
        cudaEventDestroy((cudaEvent_t)p->stop);
    free(p->copy_ms);
    free(p->read_ms);
    memset(p, 0, sizeof *p);
}
