/* step7-cg/main.c - host program of chapter 7: SpMV at work, a conjugate
 * gradient solver on chapter 6's CSR kernels, plain and fused.
 *
 *   make step7 run                                        the default Poisson matrix, both versions
 *   build/step7 --gen poisson:nx=1024 --kernel fused      one version
 *   build/step7 --matrix tests/data/bcsstk13.mtx --precision d --save-x x.mtx
 *   build/step7 --gen poisson:nx=2048 --tol 0 --maxiter 200 --csv cg.csv   a timing run
 *   build/step7 --matrix tests/data/1138_bus.mtx --kernel plain --history h.csv   |r|/|b| per iteration
 *
 * Solves A x = b for a symmetric positive definite A from x = 0 (step7-cg/reference/cg.h
 * has the method), on the device, and checks the answer on the host: the
 * true residual |b - A x| / |b| in double, and the iteration count against
 * the host's own CG in double. Exit status: 0 solved and checked (or the
 * fixed iterations of --tol 0 done and checked), 1 check failed or breakdown
 * (A not positive definite), 2 bad input, 3 skipped, 4 --maxiter reached
 * before --tol. The sections below appear in the same order in every step.
 */
#include "../step6-csr/choice/csrchoice.h"
#include "reference/cg.h"
#include "precision.h"
#include "results.h"
#include "spmv.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "step7",
    .title = "a conjugate-gradient solver on chapter 6's CSR kernels: plain (a kernel per operation) and fused",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "plain,fused,all",
    .default_variant = "all",
    .extras = OPT_PRECISION | OPT_GROUP | OPT_CG,
    .model_bytes = 0,   /* the bound is bytes per iteration, worked out below */
};

/* chapter 6's kernels, built after this step's kernel.cl (a path fixed at build time) */
#define STEP6_KERNEL_PATH SPMV_STEP_DIR "/../step6-csr/kernel.cl"
#define LOCAL_SIZE_SCALAR 256   /* chapter 6's is 128; 256 leaves the fused product half as many
                                 * partial sums of p.Ap, 2-4% faster an iteration on the H100 (TUNING.md) */
#define LOCAL_SIZE_VECTOR 256
#define LOCAL_SIZE_CG 256       /* the vector kernels */
#define GROUPS_PER_CU 8         /* their work-groups: enough to fill a GPU, each strides over the vector */
#define GROUPS_PER_CORE 4       /* on a CPU: a few stretches a core, so a late core leaves little behind */
#define CHOICE_SHARE 4096       /* a row longer than this is one the adaptive kernel would cut: vector here */
#define PROFILE_ITERATIONS 20   /* the split between kernels is measured over these, before the solve */
#define EXIT_MAXITER 4
#define MAX_RESTARTS 10         /* then the precision cannot reach --tol on this matrix: said so */
#ifndef WARP_SHUFFLES
#define WARP_SHUFFLES 1
#endif

enum { K_SPMV, K_DOT, K_RESTART, K_AXPY_X, K_AXPY_R, K_XPAY, K_ALPHA, K_UPD_R, K_UPD_XP, K_COUNT };
static const char *const KNAME[K_COUNT] = { NULL, "cg_dot", "cg_restart", "cg_axpy", "cg_axpy", "cg_xpay",
                                            "cg_alpha", "cg_update_r", "cg_update_xp" };

/* One version's solve on the device: its kernels, sizes and what a solve gives back. */
typedef struct {
    spmv_cl *cl;
    int fused, n, vsize, single;
    cl_kernel k[K_COUNT];
    size_t global[K_COUNT], local[K_COUNT];
    cl_mem b, x, r, p, q, part, scal, state;
    int ng, npq;            /* partials: the vector kernels' work-groups, the product's */
    double bb;              /* b.b in double, on the host */
    const void *bhost;      /* b as the device stores it */
    /* profiling: device time by kind of kernel, or NULL */
    double *prof_spmv, *prof_vec;
} cg_dev;

typedef struct {
    int iterations, launched, end;   /* end: CG_CONVERGED, CG_MAXITER, CG_BREAKDOWN */
    double rr, pq;                   /* r.r at the end; p.Ap of a breakdown */
    double *block_ms;                /* wall time per iteration of each block between host reads */
    int nblocks;
    double total_ms;
    double *hist;                    /* --history (plain): (iteration, |r|/|b|) before each, or NULL */
    int nhist, caphist;
} cg_run;

/* --history: one more residual (the array grows as the solve goes) */
static void remember(cg_run *run, int it, double rel)
{
    if (!run->hist)
        return;
    if (2 * run->nhist + 2 > run->caphist) {
        spmv_error err;
        double *h = spmv_realloc(run->hist, (size_t)run->caphist * 2, sizeof *h, "--history", &err);
        if (!h)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        run->hist = h, run->caphist *= 2;
    }
    run->hist[2 * run->nhist] = it;
    run->hist[2 * run->nhist++ + 1] = rel;
}

static void set_value(cl_kernel k, int arg, const cg_dev *d, double v)
{
    float f = (float)v;
    if (d->single)
        CL_CHECK(clSetKernelArg(k, arg, sizeof f, &f));
    else
        CL_CHECK(clSetKernelArg(k, arg, sizeof v, &v));
}

/* Enqueue kernel i; with profiling, its device time goes to its kind. */
static void launch(cg_dev *d, int i)
{
    cl_event ev;
    int prof = d->prof_spmv != NULL;
    CL_CHECK(clEnqueueNDRangeKernel(d->cl->queue, d->k[i], 1, NULL, &d->global[i], &d->local[i], 0, NULL,
                                    prof ? &ev : NULL));
    if (prof) {
        CL_CHECK(clWaitForEvents(1, &ev));
        *(i == K_SPMV ? d->prof_spmv : d->prof_vec) += spmv_event_ms(ev);
        clReleaseEvent(ev);
    }
}

/* The partials of a dot product, read back (a blocking read: the host waits
 * for every kernel before it) and added up in double */
static double read_sum(cg_dev *d, cl_mem buf, size_t offset, int count, void *tmp)
{
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, buf, CL_TRUE, offset * d->vsize, (size_t)count * d->vsize, tmp, 0,
                                 NULL, NULL));
    double s = 0;
    for (int i = 0; i < count; i++)
        s += d->single ? ((float *)tmp)[i] : ((double *)tmp)[i];
    return s;
}

/* x = 0, r = p = b, the partials of r.r, the state: a solve starts here.
 * Written from the host (not clEnqueueFillBuffer or CopyBuffer, which
 * oclgrind does not count as writes, and this is not the timed loop). */
static void reset(cg_dev *d, void *tmp)
{
    size_t bytes = (size_t)d->n * d->vsize;
    int zero[3] = { 0, 0, 0 };
    cl_command_queue q = d->cl->queue;
    memset(tmp, 0, bytes);
    CL_CHECK(clEnqueueWriteBuffer(q, d->x, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(q, d->r, CL_TRUE, 0, bytes, d->bhost, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(q, d->p, CL_TRUE, 0, bytes, d->bhost, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(q, d->state, CL_TRUE, 0, 2 * sizeof(int), zero, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(q, d->scal, CL_TRUE, 0, 3 * (size_t)d->vsize, tmp, 0, NULL, NULL));
    CL_CHECK(clSetKernelArg(d->k[K_DOT], 1, sizeof d->r, &d->r));
    CL_CHECK(clSetKernelArg(d->k[K_DOT], 2, sizeof d->r, &d->r));
    launch(d, K_DOT);
    (void)read_sum(d, d->part, 0, d->ng, tmp);   /* and wait for it all */
}

static double now_ms(void)
{
    return spmv_now() * 1e3;
}

/* plain: alpha and beta on the host, from two blocking reads an iteration.
 * thresh < 0: no convergence test (the profiled iterations). */
static void solve_plain(cg_dev *d, int maxiter, double thresh, void *tmp, cg_run *run)
{
    double rr = read_sum(d, d->part, 0, d->ng, tmp);   /* r.r = b.b from reset's dot */
    run->end = CG_MAXITER;
    double t0 = now_ms(), tb = t0;
    int it = run->iterations;   /* after a restart, the count goes on */
    for (;; it++) {
        remember(run, it, d->bb > 0 ? sqrt(rr / d->bb) : 0);   /* after a restart: the true residual */
        if (thresh >= 0 && rr <= thresh) {
            run->end = CG_CONVERGED;
            break;
        }
        if (it == maxiter)
            break;
        launch(d, K_SPMV);                                    /* q = A p */
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 1, sizeof d->p, &d->p));
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 2, sizeof d->q, &d->q));
        launch(d, K_DOT);
        double pq = read_sum(d, d->part, 0, d->ng, tmp);     /* p.q: the host waits */
        if (!(pq > 0)) {
            run->end = CG_BREAKDOWN;
            run->pq = pq;
            break;
        }
        double alpha = rr / pq;
        set_value(d->k[K_AXPY_X], 1, d, alpha);
        launch(d, K_AXPY_X);                                  /* x += alpha p */
        set_value(d->k[K_AXPY_R], 1, d, -alpha);
        launch(d, K_AXPY_R);                                  /* r -= alpha q */
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 1, sizeof d->r, &d->r));
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 2, sizeof d->r, &d->r));
        launch(d, K_DOT);
        double rr1 = read_sum(d, d->part, 0, d->ng, tmp);    /* r.r: the host waits again */
        set_value(d->k[K_XPAY], 1, d, rr1 / rr);
        launch(d, K_XPAY);                                    /* p = r + beta p */
        rr = rr1;
        double t = now_ms();
        run->block_ms[run->nblocks++] = t - tb;
        tb = t;
    }
    CL_CHECK(clFinish(d->cl->queue));
    run->total_ms += now_ms() - t0;
    run->iterations = run->launched = it;
    run->rr = rr;
}

/* fused: the device runs on alone; the host reads its state every k iterations */
static void solve_fused(cg_dev *d, int maxiter, double thresh, int k, void *tmp, cg_run *run)
{
    set_value(d->k[K_ALPHA], 5, d, thresh < 0 ? -1.0 : thresh);
    int state[2] = { 0, 0 };
    run->end = CG_MAXITER;
    double t0 = now_ms();
    int launched = run->launched;   /* after a restart, the count goes on */
    while (launched < maxiter) {
        int kk = maxiter - launched < k ? maxiter - launched : k;
        double tb = now_ms();
        for (int j = 0; j < kk; j++) {
            launch(d, K_SPMV);     /* q = A p, and the partials of p.q */
            launch(d, K_ALPHA);    /* the tests, alpha */
            launch(d, K_UPD_R);    /* r -= alpha q, and the partials of r.r */
            launch(d, K_UPD_XP);   /* beta; x += alpha p; p = r + beta p */
            clFlush(d->cl->queue);
        }
        CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->state, CL_TRUE, 0, sizeof state, state, 0, NULL, NULL));
        launched += kk;
        run->block_ms[run->nblocks++] = (now_ms() - tb) / kk;
        if (state[0] != 0)
            break;
    }
    run->total_ms += now_ms() - t0;
    run->launched = launched;
    run->iterations = state[1];
    double scal[3] = { 0, 0, 0 };
    float scalf[3];
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->scal, CL_TRUE, 0, 3 * d->vsize, d->single ? (void *)scalf : scal,
                                 0, NULL, NULL));
    for (int i = 0; d->single && i < 3; i++)
        scal[i] = scalf[i];
    if (state[0] == 2) {
        run->end = CG_BREAKDOWN;
        run->pq = scal[2];
        run->rr = scal[0];
    } else if (state[0] == 1) {
        run->end = CG_CONVERGED;
        run->rr = scal[0];
    } else {
        /* maxiter launched, none of them tested the last r: the host does */
        run->rr = read_sum(d, d->part, 0, d->ng, tmp);
        if (thresh >= 0 && run->rr <= thresh)
            run->end = CG_CONVERGED;
    }
}

/* r = b - A x, p = r, the partials of r.r; the fused state running again */
static void restart(cg_dev *d, void *tmp)
{
    CL_CHECK(clSetKernelArg(d->k[K_SPMV], 4, sizeof d->x, &d->x));
    launch(d, K_SPMV);
    CL_CHECK(clSetKernelArg(d->k[K_SPMV], 4, sizeof d->p, &d->p));
    launch(d, K_RESTART);
    int zero = 0;
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, d->state, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
    (void)read_sum(d, d->part, 0, d->ng, tmp);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o);
    if (o.x_file)
        spmv_die(SPMV_EXIT_USAGE, "--x is the product's input in the other steps; the right-hand side of step7's "
                 "system is --b FILE");
    if (o.group && (o.group & (o.group - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d is not a power of two (try 2, 4, 8, 16 or 32)", o.group);
    if (!o.matrix && !o.gen && !o.grid_set)
        o.gen = "poisson:nx=256";   /* the grid of the other steps is not symmetric */
    spmv_cl cl;
    spmv_cl_open(&cl, o.device);

    /* 2. The matrix (symmetric, or refused) and b, and the host's CG in
     * double: the iteration count the device's must match */
    spmv_input in;
    spmv_read_csr(&o, &cl.limits, &in);
    spmv_save_matrix(&o, &in);
    csr_matrix A;
    spmv_load_csr(&o, &in, &A);
    int brow, bcol;
    if (A.rows != A.cols)
        spmv_die(SPMV_EXIT_USAGE, "%s is %d x %d: CG solves a square system (a symmetric positive definite "
                 "matrix)", A.origin.name, A.rows, A.cols);
    if (A.im)
        spmv_die(SPMV_EXIT_USAGE, "%s is complex: step7 solves real symmetric positive definite systems",
                 A.origin.name);
    if (!spmv_csr_symmetric(&A, &brow, &bcol))
        spmv_die(SPMV_EXIT_USAGE, "%s is not symmetric (a(%d,%d) != a(%d,%d), 1-based): CG needs a symmetric "
                 "positive definite matrix", A.origin.name, brow + 1, bcol + 1, bcol + 1, brow + 1);
    char p = spmv_csr_precision(&o, &A);
    if (p != 's' && p != 'd')
        spmv_die(SPMV_EXIT_USAGE, "--precision %c: step7 solves in s (float) or d (double)", p);
    if (p == 'd' && !cl.fp64)
        spmv_skip(&STEP, &o, &cl, o.variant, "this device has no cl_khr_fp64, which --precision d needs");
    int single = p == 's', vsize = spmv_prec_value_size(p), n = A.rows;
    if (single)
        csr_round_to_float(&A);   /* the host's CG and residual see the numbers the device sees */
    printf("matrix   %s: %d x %d, %lld nonzeros, symmetric\n", A.origin.name, A.rows, A.cols, A.nnz);
    spmv_row_stats st = spmv_row_lengths(&A);
    double tol = o.tol_set ? o.tol : single ? 1e-5 : 1e-10;
    int fixed = o.tol_set && o.tol == 0;   /* a timing run: exactly --maxiter iterations */
    int maxiter = o.maxiter ? o.maxiter : (n < INT_MAX / 10 ? 10 * (n > 10 ? n : 10) : INT_MAX - 1);
    spmv_error err;
    double *b = o.b_file ? spmv_read_vector(o.b_file, "--b", n, single)
                         : spmv_random_doubles(n ? (size_t)n : 1, o.seed, single, &err);
    if (!b)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    char comment[600];
    snprintf(comment, sizeof comment, "b of step7 on %s, %s (--seed %llu), %s", A.origin.name,
             o.b_file ? "read" : "seeded random", (unsigned long long)o.seed, spmv_prec_words(single, 0));
    spmv_save_vector(o.save_b, "--save-b", b, n, single, comment);
    double bb = 0;
    for (int i = 0; i < n; i++)
        bb += b[i] * b[i];
    printf("b        %s, |b| = %.6g; x0 = 0%s\n", o.b_file ? o.b_file : "seeded random in [-1, 1)", sqrt(bb),
           fixed ? "; --tol 0: exactly --maxiter iterations, a timing run" : "");
    if (!fixed)
        printf("stop     at |r|/|b| <= %.3g (--tol%s) or after %d iterations (--maxiter)\n", tol,
               o.tol_set ? "" : single ? ", float's default" : ", double's default", maxiter);
    spmv_cg_result host = { 0 };
    double *xh = spmv_alloc(n ? (size_t)n : 1, sizeof *xh, "host CG x", &err);
    double *xd = xh ? spmv_alloc(n ? (size_t)n : 1, sizeof *xd, "device x", &err) : NULL;
    if (!xd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    /* the host's CG: as many iterations as a few seconds allow */
    int host_ran = !fixed && (double)A.nnz * (maxiter < 20000 ? maxiter : 20000) <= 4e9;
    if (host_ran) {
        if (spmv_cg_host(&A, b, xh, tol, maxiter < 20000 ? maxiter : 20000, &host, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        printf("host CG  %d iterations in double (step7-cg/reference/cg.c), %s\n", host.iterations,
               host.end == CG_CONVERGED ? "converged" : host.end == CG_BREAKDOWN ? "broke down" : "not converged");
    }

    /* 3. Device buffers: the matrix as chapter 6 stores it, b, and CG's x, r, p, q */
    void *val = spmv_prec_take(&A, p, &err);
    /* A's values went to the device array; the host keeps a double copy for the residual */
    csr_matrix Ah = A;
    Ah.re = spmv_alloc(A.nnz ? (size_t)A.nnz : 1, sizeof *Ah.re, "values", &err);
    void *bd = Ah.re && val ? spmv_prec_pack_doubles(b, (size_t)n, single, &err) : NULL;
    if (!bd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    for (long long k = 0; k < A.nnz; k++)
        Ah.re[k] = single ? ((float *)val)[k] : ((double *)val)[k];
    cg_dev d = { .cl = &cl, .n = n, .vsize = vsize, .single = single, .bb = bb, .bhost = bd };
    size_t n1 = n ? (size_t)n : 1, nnz1 = A.nnz ? (size_t)A.nnz : 1;
    int gpu = (cl.type & CL_DEVICE_TYPE_GPU) != 0;   /* oclgrind's simulator too: the GPU path under its checks */

    /* 4. Program and kernels: this step's kernel.cl, then chapter 6's (one
     * program; -DCG_FUSED turns on the hook in chapter 6's kernels); the
     * product chapter 6's rule chooses */
    int group = o.group ? o.group : spmv_default_group(&st);
    const char *choice = spmv_csr_choose(&st, gpu, CHOICE_SHARE, group);
    /* where the rule says adaptive, the nearest that step 7 offers: on a GPU
     * a group per row, on a CPU a row per work-item (chapter 6's CPU shape) */
    int adaptive = strcmp(choice, "adaptive") == 0;
    int vector = o.group || (adaptive ? gpu : strcmp(choice, "scalar") != 0);
    if (adaptive && !o.group)
        printf("choice   step7 offers scalar and vector: %s it is%s\n", vector ? "vector" : "scalar",
               vector ? ", a group per row on a GPU" : ", a row per work-item on a CPU");
    else if (o.group && strcmp(choice, "scalar") == 0)
        printf("choice   vector: --group-size %d asks for it\n", group);
    size_t spmv_local = o.local_size ? o.local_size : vector ? LOCAL_SIZE_VECTOR : LOCAL_SIZE_SCALAR;
    if (vector && spmv_local % group)
        spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a multiple of the group size %d", spmv_local, group);
    while (spmv_local > cl.max_wg)
        spmv_local /= 2;
    size_t spmv_global = spmv_round_up(n1 * (vector ? group : 1), spmv_local);
    int shuffle = WARP_SHUFFLES && cl.ptx && gpu && spmv_local % 32 == 0;
    d.npq = (int)(spmv_global / spmv_local);
    /* the vector kernels: on a GPU, 256 work-items a group and enough groups
     * to fill it; on a CPU, one work-item a group (no barriers, which PoCL
     * runs as loops over the work-items) and a few groups a core, each
     * streaming its own stretch (kernel.cl, CONTIGUOUS) */
    size_t cg_local = !gpu ? 1 : LOCAL_SIZE_CG < cl.max_wg ? LOCAL_SIZE_CG : cl.max_wg;
    size_t groups = (n1 + cg_local - 1) / cg_local,
           most = (size_t)cl.compute_units * (gpu ? GROUPS_PER_CU : GROUPS_PER_CORE);
    d.ng = (int)(groups < most ? groups : most ? most : 1);
    size_t alpha_local = !gpu ? 1 : cl.max_wg < 1024 ? cl.max_wg : 1024;
    printf("spmv     chapter 6's csr_%s: global %zu, local %zu (%s)\n", vector ? "vector" : "scalar", spmv_global,
           spmv_local, STEP6_KERNEL_PATH);
    if (vector)
        printf("         group %d work-items per row\n", group);
    cl_mem d_ptr = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, (n1 + 1) * sizeof(int), A.ptr, "row pointers");
    cl_mem d_col = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), A.nnz ? A.col : NULL, "column indices");
    cl_mem d_val = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * vsize, A.nnz ? val : NULL, "matrix values");
    d.b = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, n1 * vsize, bd, "b");
    d.x = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, n1 * vsize, NULL, "x");
    d.r = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, n1 * vsize, NULL, "r");
    d.p = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, n1 * vsize, NULL, "p");
    d.q = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, (n1 + (size_t)d.npq) * vsize, NULL, "q and the p.q partials");
    d.part = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, (size_t)d.ng * vsize, NULL, "dot partials");
    d.scal = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, 3 * (size_t)vsize, NULL, "alpha and r.r");
    d.state = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, "state");
    size_t tmp_count = (size_t)(d.ng > d.npq ? d.ng : d.npq) + 3;
    void *tmp = spmv_alloc(tmp_count > n1 ? tmp_count : n1, vsize, "read-back", &err);
    if (!tmp)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    int versions[2], nv = 0;
    if (strcmp(o.variant, "fused") != 0)
        versions[nv++] = 0;
    if (strcmp(o.variant, "plain") != 0)
        versions[nv++] = 1;
    int status = SPMV_EXIT_PASS;
    spmv_probe *probe = spmv_probe_open(&cl, 0);
    for (int vi = 0; vi < nv; vi++) {
        d.fused = versions[vi];
        const char *vname = d.fused ? "fused" : "plain";
        char opts[1024];
        snprintf(opts, sizeof opts, "-DVALUE=%s%s%s -DGROUP_SIZE=%d%s%s%s%s", spmv_prec_cl_type(p),
                 single ? "" : " -DUSE_FP64", shuffle ? " -DWARP_SHUFFLE" : "", group, d.fused ? " -DCG_FUSED" : "",
                 gpu ? "" : " -DCONTIGUOUS",
                 o.cl_opts ? " " : "", o.cl_opts ? o.cl_opts : "");
        const char *src[2] = { o.kernel_file, STEP6_KERNEL_PATH };
        printf("==== %s\n", vname);
        cl_program prog = spmv_cl_build_files(&cl, src, 2, opts);
        memset(d.k, 0, sizeof d.k);
        d.k[K_SPMV] = spmv_cl_kernel(prog, vector ? "csr_vector" : "csr_scalar");
        for (int i = 1; i < K_COUNT; i++)
            if ((i >= K_ALPHA) == d.fused || i <= K_RESTART)
                d.k[i] = spmv_cl_kernel(prog, KNAME[i]);

        /* 5. Work sizes: the product's a row per work-item (or a group per
         * row), in work-groups of LOCAL_SIZE_SCALAR or _VECTOR; the vector
         * kernels a few work-groups per compute unit, striding; cg_alpha one
         * work-group */
        if (d.k[K_ALPHA]) {   /* one work-group: as wide as this kernel may be, a power of two */
            size_t kmax = 0;
            CL_CHECK(clGetKernelWorkGroupInfo(d.k[K_ALPHA], cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
            while (alpha_local > 1 && alpha_local > kmax)
                alpha_local /= 2;
        }
        for (int i = 0; i < K_COUNT; i++) {
            d.local[i] = i == K_SPMV ? spmv_local : i == K_ALPHA ? alpha_local : cg_local;
            d.global[i] = i == K_SPMV ? spmv_global : i == K_ALPHA ? alpha_local : (size_t)d.ng * cg_local;
            if (d.k[i])
                spmv_cl_check_local(&cl, d.k[i], d.local[i]);
        }

        /* 6. Arguments; the split measured over a few profiled iterations
         * (which also warm up), then the solve, timed, from x = 0 again */
        cl_kernel ks = d.k[K_SPMV];
        CL_CHECK(clSetKernelArg(ks, 0, sizeof n, &n));
        CL_CHECK(clSetKernelArg(ks, 1, sizeof d_ptr, &d_ptr));
        CL_CHECK(clSetKernelArg(ks, 2, sizeof d_col, &d_col));
        CL_CHECK(clSetKernelArg(ks, 3, sizeof d_val, &d_val));
        CL_CHECK(clSetKernelArg(ks, 4, sizeof d.p, &d.p));
        CL_CHECK(clSetKernelArg(ks, 5, sizeof d.q, &d.q));
        CL_CHECK(clSetKernelArg(ks, 6, (vector || d.fused ? spmv_local : 1) * vsize, NULL));
        CL_CHECK(clSetKernelArg(d.k[K_DOT], 0, sizeof n, &n));
        CL_CHECK(clSetKernelArg(d.k[K_DOT], 3, sizeof d.part, &d.part));
        CL_CHECK(clSetKernelArg(d.k[K_DOT], 4, cg_local * vsize, NULL));
        cl_mem rs[] = { d.b, d.q, d.r, d.p, d.part };
        CL_CHECK(clSetKernelArg(d.k[K_RESTART], 0, sizeof n, &n));
        for (int i = 0; i < 5; i++)
            CL_CHECK(clSetKernelArg(d.k[K_RESTART], 1 + i, sizeof(cl_mem), &rs[i]));
        CL_CHECK(clSetKernelArg(d.k[K_RESTART], 6, cg_local * vsize, NULL));
        if (!d.fused) {
            cl_mem ax[3][2] = { { d.p, d.x }, { d.q, d.r }, { d.r, d.p } };
            for (int i = 0; i < 3; i++) {
                CL_CHECK(clSetKernelArg(d.k[K_AXPY_X + i], 0, sizeof n, &n));
                CL_CHECK(clSetKernelArg(d.k[K_AXPY_X + i], 2, sizeof(cl_mem), &ax[i][0]));
                CL_CHECK(clSetKernelArg(d.k[K_AXPY_X + i], 3, sizeof(cl_mem), &ax[i][1]));
            }
        } else {
            int pq_at = n;   /* the product's partials follow q's n rows */
            cl_kernel ka = d.k[K_ALPHA], kr = d.k[K_UPD_R], kx = d.k[K_UPD_XP];
            CL_CHECK(clSetKernelArg(ka, 0, sizeof d.ng, &d.ng));
            CL_CHECK(clSetKernelArg(ka, 1, sizeof d.part, &d.part));
            CL_CHECK(clSetKernelArg(ka, 2, sizeof d.npq, &d.npq));
            CL_CHECK(clSetKernelArg(ka, 3, sizeof d.q, &d.q));
            CL_CHECK(clSetKernelArg(ka, 4, sizeof pq_at, &pq_at));
            CL_CHECK(clSetKernelArg(ka, 6, sizeof d.scal, &d.scal));
            CL_CHECK(clSetKernelArg(ka, 7, sizeof d.state, &d.state));
            CL_CHECK(clSetKernelArg(ka, 8, alpha_local * vsize, NULL));
            cl_mem ra[] = { d.q, d.r, d.scal, d.state, d.part };
            CL_CHECK(clSetKernelArg(kr, 0, sizeof n, &n));
            for (int i = 0; i < 5; i++)
                CL_CHECK(clSetKernelArg(kr, 1 + i, sizeof(cl_mem), &ra[i]));
            CL_CHECK(clSetKernelArg(kr, 6, cg_local * vsize, NULL));
            cl_mem xa[] = { d.x, d.p, d.r, d.scal, d.state };
            CL_CHECK(clSetKernelArg(kx, 0, sizeof n, &n));
            for (int i = 0; i < 5; i++)
                CL_CHECK(clSetKernelArg(kx, 1 + i, sizeof(cl_mem), &xa[i]));
            CL_CHECK(clSetKernelArg(kx, 6, sizeof d.ng, &d.ng));
            CL_CHECK(clSetKernelArg(kx, 7, sizeof d.part, &d.part));
            CL_CHECK(clSetKernelArg(kx, 8, cg_local * vsize, NULL));
        }
        int k = d.fused ? (o.check_every ? o.check_every : (int)fmin(32, fmax(1, sqrt((double)n) / 32))) : 1;
        if (d.fused)
            printf("cg       fused: 4 launches an iteration (product with p.Ap, alpha, r with r.r, x and p), "
                   "10 sweeps; the state read back every %d iterations (--check-every%s)\n", k,
                   o.check_every ? "" : ", default: sqrt(n) / 32, from 1 to 32");
        else
            printf("cg       plain: 6 launches an iteration (product, dot, axpy, axpy, dot, xpay), 14 sweeps; "
                   "2 blocking reads (p.Ap, r.r) for the host's alpha and beta\n");
        cg_run run = { 0 }, prof = { 0 };
        if (o.history && !d.fused) {
            run.caphist = 1024;
            if (!(run.hist = spmv_alloc((size_t)run.caphist, sizeof *run.hist, "--history", &err)))
                spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        } else if (o.history) {
            printf("note     --history: the fused solve keeps none (the host sees its residual every %s)\n",
                   "--check-every iterations at most");
        }
        int cap = maxiter + 1, pit = maxiter < PROFILE_ITERATIONS ? maxiter : PROFILE_ITERATIONS;
        run.block_ms = spmv_alloc((size_t)(bb > 0 ? cap : 1), sizeof *run.block_ms, "iteration times", &err);
        prof.block_ms = spmv_alloc((size_t)pit + 1, sizeof *prof.block_ms, "iteration times", &err);
        if (!run.block_ms || !prof.block_ms)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        double spmv_ms = 0, vec_ms = 0;
        int restarts = 0;
        if (bb > 0) {
            d.prof_spmv = &spmv_ms, d.prof_vec = &vec_ms;
            reset(&d, tmp);
            spmv_ms = vec_ms = 0;
            if (d.fused)
                solve_fused(&d, pit, -1, pit, tmp, &prof);
            else
                solve_plain(&d, pit, -1, tmp, &prof);
            d.prof_spmv = d.prof_vec = NULL;
            int pn = prof.launched > 0 ? prof.launched : 1;
            spmv_ms /= pn, vec_ms /= pn;
            reset(&d, tmp);
            for (;;) {
                if (d.fused)
                    solve_fused(&d, maxiter, tol * tol * bb, k, tmp, &run);
                else
                    solve_plain(&d, maxiter, tol * tol * bb, tmp, &run);
                CL_CHECK(clEnqueueReadBuffer(cl.queue, d.x, CL_TRUE, 0, n1 * vsize, tmp, 0, NULL, NULL));
                if (run.end != CG_CONVERGED || fixed)
                    break;
                /* the recurrence says converged: does x? (the host's residual, in double) */
                for (int i = 0; i < n; i++)
                    xd[i] = single ? ((float *)tmp)[i] : ((double *)tmp)[i];
                double t = spmv_cg_true_residual(&Ah, b, xd);
                if (t <= tol || run.launched >= maxiter || restarts == MAX_RESTARTS)
                    break;
                printf("restart  after %d iterations: |r|/|b| = %.3g by the recurrence, but |b - A x|/|b| = %.3g; "
                       "r = b - A x, p = r, and on\n", run.iterations, sqrt(run.rr / bb), t);
                restarts++;
                restart(&d, tmp);
            }
        } else {   /* b = 0: x = 0 is the answer, no iteration */
            run.end = CG_CONVERGED;
            memset(tmp, 0, n1 * vsize);
        }
        for (int i = 0; i < n; i++)
            xd[i] = single ? ((float *)tmp)[i] : ((double *)tmp)[i];
        for (int s = 0; probe && s < SPMV_PROBE_MIN_SAMPLES; s++)
            spmv_probe_sample(probe);

        /* 7. Report: how the solve ended, checked on the host; the time per
         * iteration against the bytes of this version and the fewest CG needs */
        double rel = bb > 0 ? sqrt(run.rr / bb) : 0, truer = spmv_cg_true_residual(&Ah, b, xd);
        int extra = run.end == CG_CONVERGED ? run.launched - run.iterations : 0;
        int vstatus = SPMV_EXIT_PASS;
        if (run.end == CG_BREAKDOWN) {
            fprintf(stderr, "step7: breakdown at iteration %d: p.Ap = %.3g <= 0, so the matrix is not positive "
                    "definite (CG needs A symmetric positive definite)\n", run.iterations + 1, run.pq);
            printf("check: FAIL (breakdown)\n");
            status = SPMV_EXIT_FAIL;
            free(run.block_ms);
            free(prof.block_ms);
            free(run.hist);
            for (int i = 0; i < K_COUNT; i++)
                if (d.k[i])
                    clReleaseKernel(d.k[i]);
            clReleaseProgram(prog);
            continue;
        }
        if (run.end == CG_CONVERGED)
            printf("solve    converged in %d iterations: |r|/|b| = %.3g (the recurrence's) <= %.3g\n", run.iterations,
                   rel, tol);
        else
            printf("solve    %d iterations%s: |r|/|b| = %.3g (the recurrence's)%s\n", run.iterations,
                   fixed ? " (--tol 0)" : ", --maxiter reached", rel, fixed ? "" : ", above --tol");
        if (restarts)
            printf("restarts %d (each one product and one sweep more, outside the timed loop)\n", restarts);
        if (d.fused && run.end == CG_CONVERGED)
            printf("extra    %d iteration%s launched past the one that met the tolerance (read back every %d)\n",
                   extra, extra == 1 ? "" : "s", k);
        printf("true     |b - A x|/|b| = %.3g (the host, in double, from the device's x)\n", truer);
        double eps = single ? 0x1p-24 : 0x1p-53;
        int pass;
        if (run.end == CG_CONVERGED) {
            pass = truer <= tol || (bb == 0 && truer == 0);
            printf("check    the true residual %s the tolerance %.3g%s\n", pass ? "meets" : "misses", tol,
                   pass ? "" : restarts ? ": even after restarts, rounding keeps x this far (try --precision d or "
                   "a larger --tol)" : "");
        } else {
            /* no tolerance met: the true residual must follow the recurrence */
            double floor_ = 100 * eps * sqrt((double)n);
            pass = fabs(truer - rel) <= 0.1 * rel + floor_;
            printf("check    the true residual %s the recurrence's within 10%% + %.2g\n", pass ? "follows" : "leaves",
                   floor_);
        }
        if (host_ran && run.end == CG_CONVERGED && host.end == CG_CONVERGED) {
            /* double: the same iterations give the same count but near the
             * threshold; float: rounding slows CG down, so a wider margin */
            int margin = single ? host.iterations / 2 + 10 : 5 + host.iterations / 10;
            int diff = run.iterations - host.iterations, ok = abs(diff) <= margin;
            printf("check    %d iterations, the host's CG in double %d: %s (margin %d, %s)\n", run.iterations,
                   host.iterations, ok ? "agree" : "DISAGREE", margin,
                   single ? "float: half the host's count + 10" : "double: 5 + 10%");
            pass = pass && ok;
        }
        if (run.hist) {   /* the plain solve's recurrence, restarts included (the counts go on) */
            FILE *h = fopen(o.history, "w");
            if (!h)
                spmv_die(SPMV_EXIT_USAGE, "cannot write --history %s", o.history);
            fprintf(h, "iteration,rel_residual\n");
            for (int i = 0; i < run.nhist; i++)
                fprintf(h, "%d,%.9g\n", (int)run.hist[2 * i], run.hist[2 * i + 1]);
            if (fclose(h) != 0)
                spmv_die(SPMV_EXIT_USAGE, "cannot write --history %s", o.history);
            printf("saved    the residual before each of %d iterations to %s\n", run.nhist, o.history);
            free(run.hist);
        }
        FILE *out = spmv_results();
        fprintf(out, "check: %s\n", pass ? "PASS" : "FAIL");
        if (!pass)
            vstatus = SPMV_EXIT_FAIL;
        else if (run.end == CG_MAXITER && !fixed)
            vstatus = EXIT_MAXITER;
        double ms = 0;
        if (run.nblocks > 0) {
            qsort(run.block_ms, (size_t)run.nblocks, sizeof *run.block_ms, cmp_double);
            ms = run.block_ms[run.nblocks / 2];
        }
        int passes = d.fused ? 10 : 14, launches = d.fused ? 4 : 6;
        double bytes = spmv_cg_bytes(n, A.nnz, vsize, passes),
               bytes_c = spmv_cg_bytes(n, A.nnz, vsize, SPMV_CG_COMPULSORY_PASSES);
        spmv_bandwidth bw = { 0 };
        if (probe) {   /* this version's samples; the probe opens again for the next */
            bw = spmv_probe_finish(probe);
            probe = vi + 1 < nv ? spmv_probe_open(&cl, 0) : NULL;
        }
        if (pass && ms > 0) {
            double wait = ms - spmv_ms - vec_ms;
            spmv_bandwidth_print(&bw);
            fprintf(out, "time     %.4f ms an iteration (median over %d %s), %.2f ms the whole loop\n", ms,
                    run.nblocks, d.fused ? "blocks between reads, per iteration" : "iterations", run.total_ms);
            fprintf(out, "split    product %.4f ms, vector kernels %.4f ms, launches and host waits %.4f ms an "
                    "iteration (profiling events over %d iterations)\n", spmv_ms, vec_ms, wait > 0 ? wait : 0,
                    prof.launched);
            fprintf(out, "launches %d an iteration; the host waits %s\n", launches,
                    d.fused ? (k == 1 ? "once an iteration" : "once a block") : "twice an iteration");
            fprintf(out, "bytes    %.4g MB an iteration (matrix once + %d sweeps), compulsory %.4g MB (+ %d)\n",
                    bytes / 1e6, passes, bytes_c / 1e6, SPMV_CG_COMPULSORY_PASSES);
            if (bw.gbs > 0)
                fprintf(out, "bound    %.4f ms at %.1f GB/s: %.1f%% of this version's bound, %.1f%% of the "
                        "compulsory %.4f ms\n", bytes / (bw.gbs * 1e6), bw.gbs, 100 * bytes / (bw.gbs * 1e6) / ms,
                        100 * bytes_c / (bw.gbs * 1e6) / ms, bytes_c / (bw.gbs * 1e6));
        }
        char drv[400];
        snprintf(drv, sizeof drv, "%s %s", cl.platform_name, cl.driver);
        spmv_cg_row row = { .step = "step7", .kernel = vname, .device = cl.device_name, .driver = drv,
                            .matrix = A.origin.name, .rows = n, .cols = n, .nnz = A.nnz, .precision = p,
                            .iterations = run.iterations, .check_every = k, .extra_iterations = extra,
                            .converged = run.end == CG_CONVERGED && !fixed, .rel_residual = rel,
                            .true_residual = truer, .tol = fixed ? 0 : tol, .ms_per_iter = ms,
                            .ms_total = run.total_ms, .spmv_ms = spmv_ms, .vector_ms = vec_ms,
                            .wait_ms = fmax(0, ms - spmv_ms - vec_ms), .launches = launches, .bytes = bytes,
                            .bytes_compulsory = bytes_c, .bw_gbs = bw.gbs, .check = pass ? "PASS" : "FAIL" };
        spmv_cg_csv(o.csv, &row);
        if (pass) {
            snprintf(comment, sizeof comment, "x of step7 (%s) on %s, %d iterations, |b-Ax|/|b| = %.3g, %s", vname,
                     A.origin.name, run.iterations, truer, spmv_prec_words(single, 0));
            spmv_save_vector(o.save_x, "--save-x", xd, n, single, comment);
        } else if (o.save_x) {
            printf("saved    nothing to %s: the check failed\n", o.save_x);
        }
        if (status != SPMV_EXIT_FAIL && vstatus != SPMV_EXIT_PASS)
            status = vstatus;   /* a failed check outranks --maxiter reached */
        free(run.block_ms);
        free(prof.block_ms);
        for (int i = 0; i < K_COUNT; i++)
            if (d.k[i])
                clReleaseKernel(d.k[i]);
        clReleaseProgram(prog);
    }
    if (probe)
        spmv_probe_finish(probe);

    /* 8. Release */
    cl_mem bufs[] = { d_ptr, d_col, d_val, d.b, d.x, d.r, d.p, d.q, d.part, d.scal, d.state };
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clReleaseMemObject(bufs[i]);
    spmv_cl_close(&cl);
    spmv_cg_result_free(&host);
    free(tmp);
    free(val);
    free(bd);
    free(b);
    free(xh);
    free(xd);
    free(Ah.re);
    csr_free(&A);
    return status;
}
