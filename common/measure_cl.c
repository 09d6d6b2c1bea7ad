/* measure_cl.c - the device's side of measure.h: the OpenCL bandwidth
 * probe, kernels timed with profiling events, and the checked, timed run
 * (measure_cl.h). The host's side (measure.c) links no OpenCL, for step 0. */
#include "measure_cl.h"
#include "capacity.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    spmv_cl *cl;
    const spmv_launch *l;
    int n;
} cl_run_ctx;

static double cl_run(void *ctx)
{
    cl_run_ctx *c = ctx;
    return spmv_cl_run_seq(c->cl, c->l, c->n);
}

void spmv_time_seq(spmv_cl *cl, const spmv_launch *l, int n, int warmup, int runs, spmv_probe *probe,
                   double *median, double *min)
{
    cl_run_ctx c = { cl, l, n };
    spmv_time_runs(cl_run, &c, warmup, runs, probe, median, min);
}

void spmv_time_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, int warmup, int runs,
                      spmv_probe *probe, double *median, double *min)
{
    spmv_launch l = { k, global, local };
    spmv_time_seq(cl, &l, 1, warmup, runs, probe, median, min);
}

static const char probe_src[] =
    "__kernel void copy4(__global const float4 *restrict a, __global float4 *restrict b)\n"
    "{ size_t i = get_global_id(0); b[i] = a[i]; }\n"
    /* Every work-item sums 16 float4. On a GPU neighbouring work-items must
     * read neighbouring addresses (coalescing): item i reads i, i + n, i + 2n...
     * A CPU core runs a work-group's items one after another, so there each
     * item reads a contiguous run: item i reads 16i .. 16i + 15. */
    "__kernel void read4(__global const float4 *restrict a, __global float *restrict out)\n"
    "{ size_t i = get_global_id(0), n = get_global_size(0); float4 s = (float4)(0.0f);\n"
    "#ifdef CONTIGUOUS\n"
    "  for (int k = 0; k < 16; k++) s += a[16 * i + k];\n"
    "#else\n"
    "  for (int k = 0; k < 16; k++) s += a[i + k * n];\n"
    "#endif\n"
    "  out[i] = s.x + s.y + s.z + s.w; }\n";

/* The device's part of a probe: its program, kernels and buffers */
typedef struct {
    cl_program prog;
    cl_kernel copy, read;
    cl_mem a, b;
} cl_probe;

static void cl_sample(spmv_probe *p, double *copy_ms, double *read_ms)
{
    cl_probe *d = p->dev;
    size_t n4 = p->bytes / 16;
    *copy_ms = spmv_cl_run(p->cl, d->copy, n4, 0);
    *read_ms = spmv_cl_run(p->cl, d->read, n4 / 16, 0);   /* 16 float4 per work-item */
}

static void cl_close(spmv_probe *p)
{
    cl_probe *d = p->dev;
    clReleaseMemObject(d->a);
    clReleaseMemObject(d->b);
    clReleaseKernel(d->copy);
    clReleaseKernel(d->read);
    clReleaseProgram(d->prog);
    free(d);
}

spmv_probe *spmv_probe_open(spmv_cl *cl, int threads)
{
    if (!cl)
        return spmv_probe_open_host(threads);
    size_t bytes = spmv_probe_bytes(!(cl->type & CL_DEVICE_TYPE_CPU), cl->max_alloc, cl->global_mem);
    if (!bytes)
        return NULL;
    cl_probe *d = calloc(1, sizeof *d);
    if (!d)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the bandwidth probe");
    cl_int err;
    const char *src = probe_src;
    d->prog = clCreateProgramWithSource(cl->ctx, 1, &src, NULL, &err);
    CL_CHECK_ERR(err);
    CL_CHECK(clBuildProgram(d->prog, 1, &cl->device, cl->type & CL_DEVICE_TYPE_CPU ? "-DCONTIGUOUS" : "",
                            NULL, NULL));
    d->copy = spmv_cl_kernel(d->prog, "copy4");
    d->read = spmv_cl_kernel(d->prog, "read4");
    d->a = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, bytes, NULL, "bandwidth probe");
    d->b = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, bytes, NULL, "bandwidth probe");
    float one = 1.0f;
    CL_CHECK(clEnqueueFillBuffer(cl->queue, d->a, &one, sizeof one, 0, bytes, 0, NULL, NULL));
    CL_CHECK(clSetKernelArg(d->copy, 0, sizeof d->a, &d->a));
    CL_CHECK(clSetKernelArg(d->copy, 1, sizeof d->b, &d->b));
    CL_CHECK(clSetKernelArg(d->read, 0, sizeof d->a, &d->a));
    CL_CHECK(clSetKernelArg(d->read, 1, sizeof d->b, &d->b));
    /* on a CPU device the host probe is sampled beside it, a thread per compute unit */
    spmv_probe_ops ops = { cl_sample, cl_close };
    return spmv_probe_start(cl, &ops, d, bytes, 0, 0, cl->type & CL_DEVICE_TYPE_CPU ? (int)cl->compute_units : 0);
}

/* One probe for the device: a step that measures several kernels (step6)
 * samples the same buffers for each, instead of allocating and filling 512
 * MiB again, which on a CPU device costs seconds of page faults. Kept in the
 * caller's spmv_cl, which closes it (spmv_cl_close). */
static spmv_probe *device_probe(spmv_cl *cl)
{
    spmv_probe *p = cl->probe;
    if (p) {
        p->n = 0;
        if (p->host)
            p->host->n = 0;
        return p;
    }
    return cl->probe = spmv_probe_open(cl, 0);
}

/* ---- the timed run, after the first check ---- */

static void read_back(spmv_cl *cl, cl_mem y, void *host, size_t bytes)
{
    CL_CHECK(clEnqueueReadBuffer(cl->queue, y, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
}

int spmv_measure_seq(spmv_cl *cl, const spmv_launch *l, int n, cl_mem d_y, void *y, const spmv_ref *ref,
                     int single, int warmup, int runs, spmv_measure *m)
{
    m->median = m->min = 0;
    memset(&m->bw, 0, sizeof m->bw);
    if (!m->check.pass)
        return 0;
    size_t bytes = (size_t)ref->n * (ref->complex_ ? 2 : 1) * (single ? 4 : 8);
    spmv_cl_poison(cl, d_y, bytes);
    spmv_probe *probe = device_probe(cl);
    spmv_time_seq(cl, l, n, warmup, runs, probe, &m->median, &m->min);
    m->bw = spmv_probe_medians(probe);
    read_back(cl, d_y, y, bytes);
    spmv_check again = spmv_check_result(ref, y, single);
    if (!again.pass || again.max_err > m->check.max_err)
        m->check = again;
    if (!again.pass)
        m->median = m->min = 0;
    return m->check.pass;
}

int spmv_measure_kernel(spmv_cl *cl, cl_kernel k, size_t global, size_t local, cl_mem d_y, float *y,
                        const spmv_ref *ref, int warmup, int runs, spmv_measure *m)
{
    spmv_launch l = { k, global, local };
    return spmv_measure_seq(cl, &l, 1, d_y, y, ref, 1, warmup, runs, m);
}
