/* device/device.c - chapter 7's device: sizes, buffers, programs, arguments
 * (device/device.h) */
#include "device.h"
#include "sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* chapter 6's kernels, built after this step's kernel.cl (a path fixed at build time) */
#define STEP6_KERNEL_PATH SPMV_STEP_DIR "/../step6-csr/kernel.cl"

static const char *const KNAME[K_COUNT] = { NULL, "cg_dot", "cg_restart", "cg_axpy", "cg_axpy", "cg_xpay",
                                            "cg_alpha", "cg_update_r", "cg_update_xp", "cg_pipelined",
                                            "cg_pipelined", "cg_persist" };
#ifndef PERSIST_LOCAL   /* (TUNING.md) 4 x 256 a multiprocessor: the fastest at 1024² on the H200 */
#define PERSIST_LOCAL 256
#endif
#ifndef PERSIST_PER_CU
#define PERSIST_PER_CU 4
#endif

void device_sizes(cg_dev *d, const spmv_options *o, int vector, int group, int unroll, int gpu)
{
    spmv_cl *cl = d->cl;
    size_t n1 = d->n ? (size_t)d->n : 1;
    size_t local = cg_product_local(cl, o, vector, group);
    size_t global = spmv_round_up(n1 * (vector ? group : 1), local);
    d->npq = (int)(global / local);
    d->spmv_scratch = vector ? local : 1;   /* the vector kernel's tree; fused, the p.q sum (set per version) */
    size_t cg_local;
    d->ng = cg_vector_groups(cl, gpu, n1, &cg_local);
    d->alpha_local = cg_one_group(cl, gpu);
    for (int i = 0; i < K_COUNT; i++) {
        d->local[i] = i == K_SPMV ? local : cg_local;
        d->global[i] = i == K_SPMV ? global : (size_t)d->ng * cg_local;
    }
    printf("spmv     chapter 6's csr_%s: global %zu, local %zu (%s)\n", vector ? "vector" : "scalar", global,
           local, STEP6_KERNEL_PATH);
    if (vector)
        printf("         group %d work-items per row%s\n", group, unroll ? ", each loading several entries a pass "
               "(-DVECTOR_UNROLL, chapter 6)" : "");
}

void *device_buffers(cg_dev *d, const cg_system *s)
{
    spmv_cl *cl = d->cl;
    size_t n1 = d->n ? (size_t)d->n : 1, nnz1 = s->A.nnz ? (size_t)s->A.nnz : 1, vs = (size_t)d->vsize;
    d->ptr = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (n1 + 1) * sizeof(int), s->A.ptr, "row pointers");
    d->col = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), s->A.nnz ? s->A.col : NULL, "column indices");
    d->val = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, nnz1 * vs, s->A.nnz ? s->val : NULL, "matrix values");
    d->b = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, n1 * vs, s->bd, "b");
    d->x = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, n1 * vs, NULL, "x");
    d->r = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, n1 * vs, NULL, "r");
    d->p = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, n1 * vs, NULL, "p");
    size_t tail = 2 * (size_t)d->npq + 3 * (size_t)CG_PAIR_BLOCKS(d->npq) + 3;
    d->q = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (n1 + tail) * vs, NULL,
                          "q and the product's partials (p.q; pipelined: p.q and q.q, their sums and counts)");
    d->part = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (size_t)d->ng * vs, NULL, "dot partials");
    d->part2 = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (size_t)d->ng * vs, NULL, "pipelined's other r.r partials");
    d->scal = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, 3 * vs, NULL, "alpha and r.r");
    d->state = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, "state");
    spmv_error err;
    void *tmp = spmv_alloc(n1 > (size_t)d->ng + 3 ? n1 : (size_t)d->ng + 3, vs, "read-back", &err);
    if (!tmp)
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    return tmp;
}

/* (CG_PERSIST) cg_persist's buffers (the grid's pairs and r.r partials;
 * the barrier) and its arguments but count (1) and thresh (2), which the
 * solve sets */
static void bind_persist(cg_dev *d)
{
    size_t ngp = d->global[K_PERSIST] / PERSIST_LOCAL;
    int zero[3] = { 0, 0, 0 };
    d->pers = spmv_cl_buffer(d->cl, CL_MEM_READ_WRITE, 3 * ngp * d->vsize, NULL, "the grid's partials");
    d->bar = spmv_cl_buffer(d->cl, CL_MEM_READ_WRITE, sizeof zero, zero, "the grid's barrier");
    cl_kernel kp = d->k[K_PERSIST];
    cl_mem a1[] = { d->ptr, d->col, d->val, d->x, d->r, d->p, d->q };
    CL_CHECK(clSetKernelArg(kp, 0, sizeof d->n, &d->n));
    for (int j = 0; j < 7; j++)
        CL_CHECK(clSetKernelArg(kp, 3 + j, sizeof(cl_mem), &a1[j]));
    CL_CHECK(clSetKernelArg(kp, 10, sizeof d->ng, &d->ng));
    cl_mem a2[] = { d->part, d->pers, d->scal, d->state, d->bar };
    for (int j = 0; j < 5; j++)
        CL_CHECK(clSetKernelArg(kp, 11 + j, sizeof(cl_mem), &a2[j]));
    CL_CHECK(clSetKernelArg(kp, 16, PERSIST_LOCAL * (size_t)d->vsize, NULL));
    printf("cg       (CG_PERSIST) pipelined in one launch a block: %zu work-groups of %d\n", ngp, PERSIST_LOCAL);
}

/* The kernels' arguments: the product's as in chapter 6 (x is p, y is q),
 * then each vector kernel's buffers and its scratch of one VALUE a work-item */
static void bind_args(cg_dev *d)
{
    int n = d->n;
    cl_kernel ks = d->k[K_SPMV];
    cl_mem sa[] = { d->ptr, d->col, d->val, d->p, d->q };
    CL_CHECK(clSetKernelArg(ks, 0, sizeof n, &n));
    for (int i = 0; i < 5; i++)
        CL_CHECK(clSetKernelArg(ks, 1 + i, sizeof(cl_mem), &sa[i]));
    CL_CHECK(clSetKernelArg(ks, 6, d->spmv_scratch * d->vsize, NULL));
    size_t scratch = d->local[K_DOT] * d->vsize;
    CL_CHECK(clSetKernelArg(d->k[K_DOT], 0, sizeof n, &n));
    CL_CHECK(clSetKernelArg(d->k[K_DOT], 3, sizeof d->part, &d->part));
    CL_CHECK(clSetKernelArg(d->k[K_DOT], 4, scratch, NULL));
    cl_mem rs[] = { d->b, d->q, d->r, d->p, d->part };
    CL_CHECK(clSetKernelArg(d->k[K_RESTART], 0, sizeof n, &n));
    for (int i = 0; i < 5; i++)
        CL_CHECK(clSetKernelArg(d->k[K_RESTART], 1 + i, sizeof(cl_mem), &rs[i]));
    CL_CHECK(clSetKernelArg(d->k[K_RESTART], 6, scratch, NULL));
    if (!d->fused) {   /* x += alpha p, r -= alpha q, p = r + beta p: alpha and beta set each iteration */
        cl_mem ax[3][2] = { { d->p, d->x }, { d->q, d->r }, { d->r, d->p } };
        for (int i = 0; i < 3; i++) {
            CL_CHECK(clSetKernelArg(d->k[K_AXPY_X + i], 0, sizeof n, &n));
            CL_CHECK(clSetKernelArg(d->k[K_AXPY_X + i], 2, sizeof(cl_mem), &ax[i][0]));
            CL_CHECK(clSetKernelArg(d->k[K_AXPY_X + i], 3, sizeof(cl_mem), &ax[i][1]));
        }
        return;
    }
    if (d->persist)
        bind_persist(d);
    if (d->pipelined) {   /* two kernels, the r.r partials read from one buffer and written to the other */
        for (int i = 0; i < 2; i++) {
            cl_kernel kp = d->k[K_PIPE_A + i];
            cl_mem in = i ? d->part2 : d->part, out = i ? d->part : d->part2;
            cl_mem xrpq[] = { d->x, d->r, d->p, d->q };
            CL_CHECK(clSetKernelArg(kp, 0, sizeof n, &n));
            for (int j = 0; j < 4; j++)
                CL_CHECK(clSetKernelArg(kp, 1 + j, sizeof(cl_mem), &xrpq[j]));
            CL_CHECK(clSetKernelArg(kp, 5, sizeof d->npq, &d->npq));
            CL_CHECK(clSetKernelArg(kp, 6, sizeof d->ng, &d->ng));
            CL_CHECK(clSetKernelArg(kp, 7, sizeof in, &in));
            CL_CHECK(clSetKernelArg(kp, 8, sizeof out, &out));
            CL_CHECK(clSetKernelArg(kp, 10, sizeof d->scal, &d->scal));
            CL_CHECK(clSetKernelArg(kp, 11, sizeof d->state, &d->state));
            CL_CHECK(clSetKernelArg(kp, 12, scratch, NULL));
        }
        return;
    }
    int pq_at = n;   /* the product's partials follow q's n rows */
    cl_kernel ka = d->k[K_ALPHA], kr = d->k[K_UPD_R], kx = d->k[K_UPD_XP];
    CL_CHECK(clSetKernelArg(ka, 0, sizeof d->ng, &d->ng));
    CL_CHECK(clSetKernelArg(ka, 1, sizeof d->part, &d->part));
    CL_CHECK(clSetKernelArg(ka, 2, sizeof d->npq, &d->npq));
    CL_CHECK(clSetKernelArg(ka, 3, sizeof d->q, &d->q));
    CL_CHECK(clSetKernelArg(ka, 4, sizeof pq_at, &pq_at));
    CL_CHECK(clSetKernelArg(ka, 6, sizeof d->scal, &d->scal));
    CL_CHECK(clSetKernelArg(ka, 7, sizeof d->state, &d->state));
    CL_CHECK(clSetKernelArg(ka, 8, d->alpha_local * d->vsize, NULL));
    cl_mem ra[] = { d->q, d->r, d->scal, d->state, d->part };
    CL_CHECK(clSetKernelArg(kr, 0, sizeof n, &n));
    for (int i = 0; i < 5; i++)
        CL_CHECK(clSetKernelArg(kr, 1 + i, sizeof(cl_mem), &ra[i]));
    CL_CHECK(clSetKernelArg(kr, 6, scratch, NULL));
    cl_mem xa[] = { d->x, d->p, d->r, d->scal, d->state };
    CL_CHECK(clSetKernelArg(kx, 0, sizeof n, &n));
    for (int i = 0; i < 5; i++)
        CL_CHECK(clSetKernelArg(kx, 1 + i, sizeof(cl_mem), &xa[i]));
    CL_CHECK(clSetKernelArg(kx, 6, sizeof d->ng, &d->ng));
    CL_CHECK(clSetKernelArg(kx, 7, sizeof d->part, &d->part));
    CL_CHECK(clSetKernelArg(kx, 8, scratch, NULL));
}

cl_program device_program(cg_dev *d, const spmv_options *o, char p, int vector, int group, int unroll, int gpu)
{
    char opts[1024];
    d->last_group = d->pipelined && gpu && d->cl->ptx;
#ifdef CG_PERSIST
    d->persist = d->last_group;
#endif
    cg_program_options(opts, sizeof opts, d->cl, o, p, gpu, d->local[K_SPMV], group, unroll,
                       d->persist ? " -DCG_PIPELINED -DCG_LAST_GROUP -DCG_PERSIST"
                       : d->last_group ? " -DCG_PIPELINED -DCG_LAST_GROUP"
                       : d->pipelined ? " -DCG_PIPELINED" : d->fused ? " -DCG_FUSED" : "");
    const char *src[2] = { o->kernel_file, STEP6_KERNEL_PATH };
    cl_program prog = spmv_cl_build_files(d->cl, src, 2, opts);
    memset(d->k, 0, sizeof d->k);
    d->k[K_SPMV] = spmv_cl_kernel(prog, vector ? "csr_vector" : "csr_scalar");
    for (int i = 1; i < K_COUNT; i++) {
        int version = i <= K_RESTART ? -1 : i <= K_XPAY ? 0 : i <= K_UPD_XP ? 1 : 2;   /* -1: every version's */
        if ((version < 0 || version == d->fused + d->pipelined) && (i != K_PERSIST || d->persist))
            d->k[i] = spmv_cl_kernel(prog, KNAME[i]);
    }
    /* cg_alpha: one work-group, as wide as this kernel may be, a power of
     * two; then every kernel's local size checked against the device */
    if (d->k[K_ALPHA]) {
        d->alpha_local = cg_fit_group(d->cl, d->k[K_ALPHA], d->alpha_local);
        d->local[K_ALPHA] = d->global[K_ALPHA] = d->alpha_local;
    }
    if (d->persist) {   /* cg_persist's grid: PERSIST_PER_CU work-groups a compute unit */
        d->local[K_PERSIST] = PERSIST_LOCAL;
        d->global[K_PERSIST] = (size_t)PERSIST_PER_CU * d->cl->compute_units * PERSIST_LOCAL;
    }
    if (d->fused && d->spmv_scratch == 1)
        d->spmv_scratch = d->local[K_SPMV];   /* the scalar product's p.q: a value per work-item */
    for (int i = 0; i < K_COUNT; i++)
        if (d->k[i])
            spmv_cl_check_local(d->cl, d->k[i], d->local[i]);
    bind_args(d);
    return prog;
}

void device_describe(const cg_dev *d, int k, int k_set)
{
    if (d->pipelined)
        printf("cg       pipelined: 2 launches an iteration (product with p.Ap and Ap.Ap; alpha, beta and x, r, p "
               "with r.r), 9 sweeps; the state read back every %d iterations (--check-every%s)\n", k,
               k_set ? "" : ", default: sqrt(n) / 32, from 1 to 32");
    else if (d->fused)
        printf("cg       fused: 4 launches an iteration (product with p.Ap, alpha, r with r.r, x and p), "
               "10 sweeps; the state read back every %d iterations (--check-every%s)\n", k,
               k_set ? "" : ", default: sqrt(n) / 32, from 1 to 32");
    else
        printf("cg       plain: 6 launches an iteration (product, dot, axpy, axpy, dot, xpay), 14 sweeps; "
               "2 blocking reads (p.Ap, r.r) for the host's alpha and beta\n");
}

void device_release_program(cg_dev *d, cl_program prog)
{
    for (int i = 0; i < K_COUNT; i++)
        if (d->k[i])
            clReleaseKernel(d->k[i]);
    clReleaseProgram(prog);
}

void device_release(cg_dev *d)
{
    cl_mem bufs[] = { d->ptr, d->col, d->val, d->b, d->x, d->r, d->p, d->q, d->part, d->part2, d->scal, d->state };
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clReleaseMemObject(bufs[i]);
    if (d->pers)
        clReleaseMemObject(d->pers), clReleaseMemObject(d->bar);
}
