/* device/device.c - one rank's device: sizes, buffers, the program, its
 * arguments, the vectors to and from the host (device/device.h) */
#include "device.h"
#include "../../step7-cg/device/sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEP7_KERNEL_PATH SPMV_STEP_DIR "/../step7-cg/kernel.cl"
#define STEP6_KERNEL_PATH SPMV_STEP_DIR "/../step6-csr/kernel.cl"

static const char *const KNAME[K_COUNT] = { NULL, "d8_pack", "d8_unpack", "d8_sums", "cg_dot", "cg_restart",
                                            "d8_update_r", "d8_update_xp", "d8_update_all" };

void device_sizes(dv *d, const spmv_options *o, int vector, int group, int gpu)
{
    spmv_cl *cl = d->cl;
    mpi_split *m = d->m;
    size_t local = cg_product_local(cl, o, vector, group);
    d->lanes = vector ? (size_t)group : 1, d->spmv_local = local;
    size_t rpw = local / d->lanes;   /* rows a work-group */
    d->ni = (int)(m->ninner / rpw * rpw);
    d->npq = (int)((m->nloc * d->lanes + local - 1) / local);
    size_t cg_local;
    d->ng = cg_vector_groups(cl, gpu, (size_t)m->nloc, &cg_local);
    for (int i = 0; i < K_COUNT; i++)
        d->local[i] = i == K_SPMV ? local : cg_local, d->global[i] = (size_t)d->ng * cg_local;
    size_t few[2] = { (size_t)m->send_total, (size_t)m->nghost };   /* the halo's kernels: no idle work-groups */
    for (int i = 0; i < 2; i++)
        if (few[i] < d->global[K_PACK + i])
            d->global[K_PACK + i] = spmv_round_up(few[i] ? few[i] : 1, cg_local);
    d->local[K_SUMS] = d->global[K_SUMS] = cg_one_group(cl, gpu);   /* one work-group */
}

/* Host memory the device copies to and from directly: a buffer allocated
 * in host memory (CL_MEM_ALLOC_HOST_PTR), mapped once for good (pinned, on
 * a GPU). The halo and the sums cross it every iteration; from ordinary
 * (pageable) memory a copy is staged through such memory by the driver,
 * and a read into it keeps the host waiting until the read is done. */
static void *pinned(dv *d, int i, size_t size, const char *what)
{
    cl_int e;
    d->pin[i] = clCreateBuffer(d->cl->ctx, CL_MEM_ALLOC_HOST_PTR, size, NULL, &e);
    void *h = e != CL_SUCCESS ? NULL : clEnqueueMapBuffer(d->cl->queue, d->pin[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                          0, size, 0, NULL, NULL, &e);
    if (!h || e != CL_SUCCESS)
        spmv_die(SPMV_EXIT_RESOURCES, "out of host memory for %s (%zu bytes): %s", what, size, cl_error_name(e));
    return h;
}

void device_buffers(dv *d)
{
    spmv_cl *cl = d->cl;
    mpi_split *m = d->m;
    size_t vs = (size_t)d->vsize, nl = (size_t)m->nloc, nv = nl + (size_t)m->nghost, st = (size_t)m->send_total;
    d->ptr = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (nl + 1) * sizeof(int), m->A.ptr, "row pointers");
    d->col = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (m->A.nnz ? (size_t)m->A.nnz : 1) * sizeof(int),
                            m->A.nnz ? m->A.col : NULL, "column indices");
    d->val = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (m->A.nnz ? (size_t)m->A.nnz : 1) * vs, m->A.nnz ? m->val : NULL,
                            "matrix values");
    d->b = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, nl * vs, m->b, "b");
    d->x = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, nv * vs, NULL, "x and its ghosts");
    d->r = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, nv * vs, NULL, "r and its ghosts");
    d->p = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, nv * vs, NULL, "p and its ghosts");
    d->s = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, nl * vs, NULL, "s");
    d->q = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (nl + (size_t)d->npq) * vs, NULL, "q and its shares of p.q");
    d->w = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (nl + (size_t)d->npq + (size_t)d->ng) * vs, NULL,
                          "w and the shares of w.r and r.r");
    d->part = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (size_t)d->ng * vs, NULL, "dot shares");
    d->idx = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (st ? st : 1) * sizeof(int), st ? m->send_idx : NULL,
                            "the entries others read");
    d->sendb = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (st ? st : 1) * vs, NULL, "the entries packed");
    d->sums = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, 2 * vs, NULL, "the sums of the shares");
    d->ghostb = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (m->nghost ? (size_t)m->nghost : 1) * vs, NULL, "the ghosts");
    spmv_error err;
    size_t most = nv > st ? nv : st;
    d->tmp = spmv_alloc(most, vs, "read-back", &err);
    if (!d->tmp)
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    d->sendh = pinned(d, 0, (st ? st : 1) * vs, "the halo sent");
    d->ghosth = pinned(d, 1, (m->nghost ? (size_t)m->nghost : 1) * vs, "the halo received");
    d->sumsh = pinned(d, 2, 2 * vs, "the sums read back");
    cl_int e;
    d->xq = clCreateCommandQueue(cl->ctx, cl->device, 0, &e);
    CL_CHECK_ERR(e);
}

static void arg(cl_kernel k, int i, size_t size, const void *v)
{
    CL_CHECK(clSetKernelArg(k, i, size, v));
}

static void bind_args(dv *d)
{
    d->local[K_SUMS] = cg_fit_group(d->cl, d->k[K_SUMS], d->local[K_SUMS]);   /* a power of two the kernel allows */
    d->global[K_SUMS] = d->local[K_SUMS];
    int n = d->m->nloc, st = d->m->send_total;
    size_t m = sizeof(cl_mem), scratch = d->local[K_DOT] * d->vsize;
    cl_kernel *k = d->k;
    arg(k[K_SPMV], 1, m, &d->ptr), arg(k[K_SPMV], 2, m, &d->col), arg(k[K_SPMV], 3, m, &d->val);
    arg(k[K_SPMV], 6, d->spmv_local * d->vsize, NULL);
    arg(k[K_PACK], 0, sizeof st, &st), arg(k[K_PACK], 1, m, &d->idx), arg(k[K_PACK], 3, m, &d->sendb);
    arg(k[K_UNPACK], 0, sizeof d->m->nghost, &d->m->nghost), arg(k[K_UNPACK], 1, sizeof n, &n);
    arg(k[K_UNPACK], 2, m, &d->ghostb);
    arg(k[K_SUMS], 6, m, &d->sums), arg(k[K_SUMS], 7, d->local[K_SUMS] * d->vsize, NULL);
    arg(k[K_DOT], 0, sizeof n, &n), arg(k[K_DOT], 3, m, &d->part), arg(k[K_DOT], 4, scratch, NULL);
    arg(k[K_RESTART], 0, sizeof n, &n), arg(k[K_RESTART], 1, m, &d->b), arg(k[K_RESTART], 3, m, &d->r);
    arg(k[K_RESTART], 4, m, &d->p), arg(k[K_RESTART], 5, m, &d->part), arg(k[K_RESTART], 6, scratch, NULL);
    arg(k[K_UPD_R], 0, sizeof n, &n), arg(k[K_UPD_R], 2, m, &d->q), arg(k[K_UPD_R], 3, m, &d->r);
    arg(k[K_UPD_R], 4, m, &d->part), arg(k[K_UPD_R], 5, scratch, NULL);
    arg(k[K_UPD_XP], 0, sizeof n, &n), arg(k[K_UPD_XP], 3, m, &d->x), arg(k[K_UPD_XP], 4, m, &d->p);
    arg(k[K_UPD_XP], 5, m, &d->r);
    cl_mem all[] = { d->x, d->p, d->s, d->r, d->w };
    arg(k[K_UPD_ALL], 0, sizeof n, &n), arg(k[K_UPD_ALL], 8, scratch, NULL);
    for (int i = 0; i < 5; i++)
        arg(k[K_UPD_ALL], 3 + i, m, &all[i]);
    for (int i = 0; i < K_COUNT; i++)
        spmv_cl_check_local(d->cl, k[i], d->local[i]);
}

cl_program device_program(dv *d, const spmv_options *o, char p, int vector, int group, int unroll, int gpu)
{
    char more[128], opts[1024];
    snprintf(more, sizeof more, " -DCG_FUSED -DQ_ROWS=%d -DNPQ=%d", d->m->nloc, d->npq);
    cg_program_options(opts, sizeof opts, d->cl, o, p, gpu, d->spmv_local, group, unroll, more);
    const char *src[3] = { STEP7_KERNEL_PATH, o->kernel_file, STEP6_KERNEL_PATH };
    cl_program prog = spmv_cl_build_files(d->cl, src, 3, opts);
    d->k[K_SPMV] = spmv_cl_kernel(prog, vector ? "csr_vector" : "csr_scalar");
    for (int i = 1; i < K_COUNT; i++)
        d->k[i] = spmv_cl_kernel(prog, KNAME[i]);
    bind_args(d);
    return prog;
}

void device_launch(dv *d, int i, size_t offset, size_t global, cl_event after, cl_event *done)
{
    cl_event ev = NULL;
    double t0 = now_ms();
    CL_CHECK(clEnqueueNDRangeKernel(d->cl->queue, d->k[i], 1, offset ? &offset : NULL, &global, &d->local[i],
                                    after ? 1 : 0, after ? &after : NULL, d->parts.on || done ? &ev : NULL));
    profile_kernel(&d->parts, i == K_SPMV, t0, ev);
    if (done)
        *done = ev;
    else if (ev)
        clReleaseEvent(ev);
}

/* On a GPU the host asks for the event's status again and again: a read of
 * a few bytes is back within microseconds, and a blocking wait may put the
 * thread to sleep and wake it later. On a CPU the device's threads need the
 * cores the host would spin on: a blocking wait. */
void device_wait(const dv *d, cl_event ev)
{
    if (!d->gpu) {
        CL_CHECK(clWaitForEvents(1, &ev));
        return;
    }
    cl_int st;
    do
        CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    while (st > CL_COMPLETE);
    if (st < 0)
        spmv_die(SPMV_EXIT_USAGE, "a command failed on the device: %s", cl_error_name(st));
}

/* The whole buffer in one write: oclgrind counts the bytes of a buffer past
 * a host write's end as never written, even those a kernel writes later. */
void device_write(dv *d, cl_mem buf, const void *src, int ghosts)
{
    size_t own = (size_t)d->m->nloc * d->vsize, all = own + (ghosts ? (size_t)d->m->nghost * d->vsize : 0);
    memset(d->tmp, 0, all);
    if (src)
        memcpy(d->tmp, src, own);
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, buf, CL_TRUE, 0, all, d->tmp, 0, NULL, NULL));
}

void device_read_x(dv *d, double *x)
{
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->x, CL_TRUE, 0, (size_t)d->m->nloc * d->vsize, d->tmp, 0, NULL, NULL));
    for (int i = 0; i < d->m->nloc; i++)
        x[i] = d->single ? ((float *)d->tmp)[i] : ((double *)d->tmp)[i];
}

void device_release(dv *d, cl_program prog)
{
    cl_mem bufs[] = { d->ptr, d->col, d->val, d->b, d->x, d->r, d->p, d->q, d->s, d->w, d->part, d->idx, d->sendb,
                      d->ghostb, d->sums };
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clReleaseMemObject(bufs[i]);
    void *host[3] = { d->sendh, d->ghosth, d->sumsh };
    for (int i = 0; i < 3; i++)
        CL_CHECK(clEnqueueUnmapMemObject(d->cl->queue, d->pin[i], host[i], 0, NULL, NULL));
    CL_CHECK(clFinish(d->cl->queue));
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(d->pin[i]);
    clReleaseCommandQueue(d->xq);
    for (int i = 0; i < K_COUNT; i++)
        clReleaseKernel(d->k[i]);
    clReleaseProgram(prog);
    free(d->tmp);
}
