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
#include "reference/system.h"
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
    .takes = OPT_DEVICE | OPT_OPENCL | OPT_PRECISION | OPT_GROUP | OPT_CG | OPT_SOLUTION | OPT_CHECK_EVERY,
    .model_bytes = 0,   /* the bound is bytes per iteration, worked out below */
    .default_matrix = "--gen poisson:nx=256, the 5-point Laplacian on a 256 x 256 grid",
    .precisions = "sd",
    .defaults = (const spmv_note[]){ { "--local-size", "256" },
                                     { "--group-size", "from the rows' mean length" },
                                     { "--check-every", "sqrt(n) / 32, from 1 to 32; the fused solver only" },
                                     { NULL, NULL } },
    .refusals = (const spmv_note[]){
        { "--x", "the right-hand side of step7's system is --b FILE" },
        { "--grid", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },
        { "--radius", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },
        { "--runs", "a solve runs once, its iterations timed" },
        { "--warmup", "a solve runs once, its iterations timed" },
        { NULL, NULL } },
    .exit_statuses = "0 solved and checked (or the fixed iterations of --tol 0 done and checked), 1 check failed "
                     "or breakdown (A not positive definite), 2 bad input or out of memory, 3 skipped (the device "
                     "lacks cl_khr_fp64, which d needs), 4 --maxiter reached before --tol",
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
#define PROFILE_ITERATIONS 32   /* the split: this many iterations, or two of fused's blocks if more, profiled */
#define PROFILE_PENDING 4096    /* commands whose events wait to be read at their end (K up to 511; past
                                 * that, drain reads them mid-loop, and the split holds the host's reads) */
#define WARMUP_ITERATIONS 3     /* untimed, before them: the first launches compile and page in */
#define EXIT_MAXITER 4
#define MAX_RESTARTS 10         /* then the precision cannot reach --tol on this matrix: said so */
#define GAP_LIMIT 1             /* the --tol 0 check (check_gap): about 1/15 of it seen where all is right,
                                 * 12 with one q_i 1% off (2048^2, float, 100 iterations, PoCL) */
#ifndef WARP_SHUFFLES
#define WARP_SHUFFLES 1
#endif

enum { K_SPMV, K_DOT, K_RESTART, K_AXPY_X, K_AXPY_R, K_XPAY, K_ALPHA, K_UPD_R, K_UPD_XP, K_COUNT };
static const char *const KNAME[K_COUNT] = { NULL, "cg_dot", "cg_restart", "cg_axpy", "cg_axpy", "cg_xpay",
                                            "cg_alpha", "cg_update_r", "cg_update_xp" };
enum { C_PRODUCT, C_VECTOR, C_READ };   /* what a command of the loop is, for the split */

/* One version's solve on the device: its kernels, sizes and buffers; while
 * `rec` is set (the profiled iterations), every command's profiling event,
 * read back in order once the loop has ended (or PROFILE_PENDING are
 * waiting), so the split adds up. */
typedef struct {
    spmv_cl *cl;
    int fused, n, vsize, single;
    cl_kernel k[K_COUNT];
    size_t global[K_COUNT], local[K_COUNT];
    cl_mem ptr, col, val, b, x, r, p, q, part, scal, state;
    int ng, npq;            /* partials: the vector kernels' work-groups, the product's */
    size_t spmv_scratch, alpha_local;
    double bb;              /* b.b in double, on the host */
    const void *bhost;      /* b as the device stores it */
    int rec, npend, have_last;
    cl_event pend[PROFILE_PENDING];
    int pkind[PROFILE_PENDING];
    cl_ulong last_end;
    double part_ms[3], gaps_ms, overlap_ms;   /* device clock, summed over the loop */
} cg_dev;

typedef struct {
    int iterations, launched, end;   /* end: CG_CONVERGED, CG_MAXITER, CG_BREAKDOWN */
    double rr, pq;                   /* r.r at the end; p.Ap of a breakdown */
    double *block_ms;                /* wall time per iteration of each block between host reads */
    int nblocks, capblocks;          /* past capblocks, blocks go untimed (the loop's total still counts them) */
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

/* The split: each finished command's time goes to its kind, and the time
 * between its start and the end of the command before it (the device idle:
 * a launch on its way, the host waiting or deciding) to the gaps. The parts
 * add up to the loop's span on the device's clock, from the first command's
 * start to the last one's end. A negative gap (two commands' times overlap)
 * is kept as it is, and its size noted. Reading the events while the loop
 * runs would put the host's reads into the loop: they wait for its end. */
static void drain(cg_dev *d)
{
    int i = 0;
    for (; i < d->npend; i++) {
        CL_CHECK(clWaitForEvents(1, &d->pend[i]));
        cl_ulong t0, t1;
        CL_CHECK(clGetEventProfilingInfo(d->pend[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
        CL_CHECK(clGetEventProfilingInfo(d->pend[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
        d->part_ms[d->pkind[i]] += (double)(t1 - t0) * 1e-6;
        if (d->have_last) {
            double gap = ((double)t0 - (double)d->last_end) * 1e-6;
            d->gaps_ms += gap;
            if (gap < 0)
                d->overlap_ms -= gap;
        }
        d->last_end = t1, d->have_last = 1;
        clReleaseEvent(d->pend[i]);
    }
    d->npend = 0;
}

/* The event of a command just enqueued: kept for the split while recording */
static cl_event *event_for(cg_dev *d, int kind)
{
    if (!d->rec)
        return NULL;
    if (d->npend == PROFILE_PENDING)
        drain(d);
    d->pkind[d->npend] = kind;
    return &d->pend[d->npend++];
}

static void launch(cg_dev *d, int i)
{
    CL_CHECK(clEnqueueNDRangeKernel(d->cl->queue, d->k[i], 1, NULL, &d->global[i], &d->local[i], 0, NULL,
                                    event_for(d, i == K_SPMV ? C_PRODUCT : C_VECTOR)));
}

/* A blocking read: the host waits for every command before it */
static void read_back(cg_dev *d, cl_mem buf, size_t offset, size_t bytes, void *dst)
{
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, buf, CL_TRUE, offset, bytes, dst, 0, NULL, event_for(d, C_READ)));
}

/* The partials of a dot product, read back and added up in double */
static double read_sum(cg_dev *d, cl_mem buf, int count, void *tmp)
{
    read_back(d, buf, 0, (size_t)count * d->vsize, tmp);
    double s = 0;
    for (int i = 0; i < count; i++)
        s += d->single ? ((float *)tmp)[i] : ((double *)tmp)[i];
    return s;
}

/* The same, of r.r, outside the loop the split measures (its event not kept) */
static double outside_sum(cg_dev *d, void *tmp)
{
    int rec = d->rec;
    d->rec = 0;
    double s = read_sum(d, d->part, d->ng, tmp);
    d->rec = rec;
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
    (void)read_sum(d, d->part, d->ng, tmp);   /* and wait for it all */
}

static double now_ms(void)
{
    return spmv_now() * 1e3;
}

/* The loop's commands are recorded from its first to its last */
static void record(cg_dev *d, int on)
{
    if (!on)
        drain(d);
    else
        memset(d->part_ms, 0, sizeof d->part_ms), d->gaps_ms = d->overlap_ms = 0;
    d->rec = on, d->have_last = 0;
}

/* plain: alpha and beta on the host, from two blocking reads an iteration.
 * thresh < 0: no convergence test (the warm-up). */
static void solve_plain(cg_dev *d, int maxiter, double thresh, void *tmp, cg_run *run)
{
    double rr = outside_sum(d, tmp);   /* r.r = b.b from reset's dot, before the loop */
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
        double pq = read_sum(d, d->part, d->ng, tmp);        /* p.q: the host waits */
        if (!(pq > 0)) {
            run->end = CG_BREAKDOWN;
            run->pq = pq;
            break;
        }
        double alpha = rr / pq;
        spmv_cl_arg_value(d->k[K_AXPY_X], 1, d->single, alpha);
        launch(d, K_AXPY_X);                                  /* x += alpha p */
        spmv_cl_arg_value(d->k[K_AXPY_R], 1, d->single, -alpha);
        launch(d, K_AXPY_R);                                  /* r -= alpha q */
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 1, sizeof d->r, &d->r));
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 2, sizeof d->r, &d->r));
        launch(d, K_DOT);
        double rr1 = read_sum(d, d->part, d->ng, tmp);       /* r.r: the host waits again */
        spmv_cl_arg_value(d->k[K_XPAY], 1, d->single, rr1 / rr);
        launch(d, K_XPAY);                                    /* p = r + beta p */
        rr = rr1;
        double t = now_ms();
        if (run->nblocks < run->capblocks)
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
    spmv_cl_arg_value(d->k[K_ALPHA], 5, d->single, thresh < 0 ? -1.0 : thresh);
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
        read_back(d, d->state, 0, sizeof state, state);
        launched += kk;
        if (run->nblocks < run->capblocks)
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
        run->rr = outside_sum(d, tmp);
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
    (void)read_sum(d, d->part, d->ng, tmp);
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

/* The fixed-iteration check: the recurrence's r against b - A x, entry by
 * entry, in double. Rounding lets them drift apart by a few eps an iteration
 * at the scale of |A| |x| + |b|; a product or update that is wrong, even in
 * one entry, moves them apart by its error every iteration. */
static int check_gap(const cg_system *s, const double *x, cg_dev *d, int iterations, void *tmp)
{
    const csr_matrix *A = &s->A;
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->r, CL_TRUE, 0, (size_t)s->n * s->vsize, tmp, 0, NULL, NULL));
    spmv_error err;
    double *f = spmv_alloc((size_t)s->n ? (size_t)s->n : 1, 2 * sizeof *f, "the residual gap", &err);
    if (!f)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    double mean = 0;
    for (int i = 0; i < s->n; i++) {
        double ax = 0, aax = 0, ri = s->single ? ((float *)tmp)[i] : ((double *)tmp)[i];
        for (int j = A->ptr[i]; j < A->ptr[i + 1]; j++)
            ax += A->re[j] * x[A->col[j]], aax += fabs(A->re[j] * x[A->col[j]]);
        f[2 * i] = fabs(s->b[i] - ax - ri);
        f[2 * i + 1] = aax + fabs(s->b[i]);
        mean += f[2 * i + 1] / s->n;
    }
    double eps = s->single ? 0x1p-24 : 0x1p-53, worst = 0;
    int at = 0;
    for (int i = 0; i < s->n; i++) {
        double ratio = f[2 * i] / (eps * (iterations + 1) * (f[2 * i + 1] + mean));
        if (ratio > worst)
            worst = ratio, at = i;
    }
    int pass = worst <= GAP_LIMIT;
    printf("check    r against b - A x: the largest gap %.3g (row %d) is %.3g eps (k + 1) (|A| |x| + |b| + its mean) "
           "%s %d\n", f[2 * at], at + 1, worst, pass ? "<=" : "> the limit", GAP_LIMIT);
    free(f);
    return pass;
}

/* Chapter 6's rule picks the product; where it says adaptive, the nearest
 * that step 7 offers: on a GPU a group per row, on a CPU a row per
 * work-item (chapter 6's CPU shape). Returns 1 for csr_vector, with its
 * group and the entries a lane loads a pass as chapter 6 sets them
 * (-DVECTOR_UNROLL in --cl-opts replaces the latter). */
static int product_choice(const spmv_options *o, const spmv_row_stats *st, int gpu, int vsize, int *group,
                          int *unroll)
{
    *group = o->group ? o->group : spmv_default_group(st);
    int u = !o->cl_opts || !strstr(o->cl_opts, "VECTOR_UNROLL") ? spmv_default_unroll(st, o->group ? 0 : vsize, group)
                                                                 : 0;
    const char *choice = spmv_csr_choose(st, gpu, CHOICE_SHARE, *group);
    int adaptive = strcmp(choice, "adaptive") == 0;
    int vector = o->group || (adaptive ? gpu : strcmp(choice, "scalar") != 0);
    if (adaptive && !o->group)
        printf("choice   step7 offers scalar and vector: %s it is%s\n", vector ? "vector" : "scalar",
               vector ? ", a group per row on a GPU" : ", a row per work-item on a CPU");
    else if (o->group && strcmp(choice, "scalar") == 0)
        printf("choice   vector: --group-size %d asks for it\n", *group);
    *unroll = vector && u > 1 ? u : 0;
    return vector;
}

/* The product's work-groups of LOCAL_SIZE_SCALAR or _VECTOR; the vector
 * kernels: on a GPU, 256 work-items a group and enough groups to fill it;
 * on a CPU, one work-item a group (no barriers, which PoCL runs as loops
 * over the work-items) and a few groups a core, each streaming its own
 * stretch (kernel.cl, CONTIGUOUS) */
static void work_sizes(cg_dev *d, const spmv_options *o, int vector, int group, int unroll, int gpu)
{
    spmv_cl *cl = d->cl;
    size_t n1 = d->n ? (size_t)d->n : 1;
    size_t local = o->local_size ? o->local_size : vector ? LOCAL_SIZE_VECTOR : LOCAL_SIZE_SCALAR;
    if (vector && local % group)
        spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a multiple of the group size %d", local, group);
    while (local > cl->max_wg)
        local /= 2;
    size_t global = spmv_round_up(n1 * (vector ? group : 1), local);
    d->npq = (int)(global / local);
    d->spmv_scratch = vector ? local : 1;   /* the vector kernel's tree; fused, the p.q sum (set per version) */
    size_t cg_local = !gpu ? 1 : LOCAL_SIZE_CG < cl->max_wg ? LOCAL_SIZE_CG : cl->max_wg;
    size_t groups = (n1 + cg_local - 1) / cg_local,
           most = (size_t)cl->compute_units * (gpu ? GROUPS_PER_CU : GROUPS_PER_CORE);
    d->ng = (int)(groups < most ? groups : most ? most : 1);
    d->alpha_local = !gpu ? 1 : cl->max_wg < 1024 ? cl->max_wg : 1024;
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

/* cg_alpha: one work-group, as wide as this kernel may be, a power of two;
 * then every kernel's local size checked against the device */
static void alpha_size(cg_dev *d)
{
    if (d->k[K_ALPHA]) {
        size_t kmax = 0;
        CL_CHECK(clGetKernelWorkGroupInfo(d->k[K_ALPHA], d->cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                          &kmax, NULL));
        while (d->alpha_local > 1 && d->alpha_local > kmax)
            d->alpha_local /= 2;
        d->local[K_ALPHA] = d->global[K_ALPHA] = d->alpha_local;
    }
    if (d->fused && d->spmv_scratch == 1)
        d->spmv_scratch = d->local[K_SPMV];   /* the scalar product's p.q: a value per work-item */
    for (int i = 0; i < K_COUNT; i++)
        if (d->k[i])
            spmv_cl_check_local(d->cl, d->k[i], d->local[i]);
}

static void describe(const cg_dev *d, int k, int k_set)
{
    if (d->fused)
        printf("cg       fused: 4 launches an iteration (product with p.Ap, alpha, r with r.r, x and p), "
               "10 sweeps; the state read back every %d iterations (--check-every%s)\n", k,
               k_set ? "" : ", default: sqrt(n) / 32, from 1 to 32");
    else
        printf("cg       plain: 6 launches an iteration (product, dot, axpy, axpy, dot, xpay), 14 sweeps; "
               "2 blocking reads (p.Ap, r.r) for the host's alpha and beta\n");
}

/* A warm-up of a few iterations; the split over a few more, each command
 * profiled (prof: their loop on the host's clock); then the solve from
 * x = 0 (run), timed on the host's clock alone, for events cost time: where
 * the recurrence meets --tol but b - A x does not, a restart from there. x
 * comes back in xd. Returns the restarts. */
static int solve(cg_dev *d, const spmv_options *o, const cg_system *s, int maxiter, int k, double *xd,
                 void *tmp, cg_run *run, cg_run *prof)
{
    spmv_error err;
    int cap = maxiter < (1 << 20) ? maxiter + 1 : 1 << 20, fixed = o->tol_set && o->tol == 0, restarts = 0;
    run->block_ms = spmv_alloc((size_t)cap, sizeof *run->block_ms, "iteration times", &err);
    run->capblocks = cap;
    if (run->block_ms && o->history && !d->fused) {
        run->caphist = 1024;
        run->hist = spmv_alloc((size_t)run->caphist, sizeof *run->hist, "--history", &err);
    }
    if (!run->block_ms || (o->history && !d->fused && !run->hist))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    if (o->history && d->fused)
        printf("note     --history: the fused solve keeps none (the host sees its residual every %s)\n",
               "--check-every iterations at most");
    if (s->bb == 0) {   /* b = 0: x = 0 is the answer, no iteration */
        run->end = CG_CONVERGED;
        memset(xd, 0, (size_t)s->n * sizeof *xd);
        return 0;
    }
    double warm_ms[WARMUP_ITERATIONS + 1];
    cg_run warm = { .block_ms = warm_ms, .capblocks = WARMUP_ITERATIONS + 1 };
    int w = maxiter < WARMUP_ITERATIONS ? maxiter : WARMUP_ITERATIONS;
    reset(d, tmp);
    if (d->fused)
        solve_fused(d, w, -1, w, tmp, &warm);
    else
        solve_plain(d, w, -1, tmp, &warm);
    /* the split: the same loop, an event on every command (no test: it runs them all) */
    int pi = PROFILE_ITERATIONS > 2 * k ? PROFILE_ITERATIONS : 2 * k;
    pi = pi < maxiter ? pi : maxiter;
    double prof_ms[2 * PROFILE_ITERATIONS + 64 + 1];
    *prof = (cg_run){ .block_ms = prof_ms, .capblocks = 2 * PROFILE_ITERATIONS + 65 };
    reset(d, tmp);
    record(d, 1);
    if (d->fused)
        solve_fused(d, pi, -1, k, tmp, prof);
    else
        solve_plain(d, pi, -1, tmp, prof);
    record(d, 0);
    prof->block_ms = NULL;
    reset(d, tmp);
    for (;;) {   /* the solve, timed */
        if (d->fused)
            solve_fused(d, maxiter, s->tol * s->tol * s->bb, k, tmp, run);
        else
            solve_plain(d, maxiter, s->tol * s->tol * s->bb, tmp, run);
        CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->x, CL_TRUE, 0, (size_t)s->n * s->vsize, tmp, 0, NULL, NULL));
        for (int i = 0; i < s->n; i++)
            xd[i] = s->single ? ((float *)tmp)[i] : ((double *)tmp)[i];
        if (run->end != CG_CONVERGED || fixed)
            return restarts;
        /* the recurrence says converged: does x? (the host's residual, in double) */
        double t = spmv_cg_true_residual(&s->A, s->b, xd);
        if (t <= s->tol || run->launched >= maxiter || restarts == MAX_RESTARTS)
            return restarts;
        printf("restart  after %d iterations: |r|/|b| = %.3g by the recurrence, but |b - A x|/|b| = %.3g; "
               "r = b - A x, p = r, and on\n", run->iterations, sqrt(run->rr / s->bb), t);
        restarts++;
        restart(d, tmp);
    }
}

/* How the solve ended, checked on the host: the true residual against --tol
 * (or, with no tolerance met, r against b - A x), the count against the
 * host's CG. Fills the row's solve fields; prints "check: PASS" or FAIL. */
static int check_solve(cg_dev *d, const cg_system *s, const cg_run *run, int k, int restarts, int fixed,
                       const spmv_cg_result *host, const double *xd, void *tmp, spmv_cg_row *row)
{
    static char drv[400];
    snprintf(drv, sizeof drv, "%s %s", d->cl->platform_name, d->cl->driver);
    double rel = s->bb > 0 ? sqrt(run->rr / s->bb) : 0, truer = spmv_cg_true_residual(&s->A, s->b, xd);
    int extra = run->end == CG_CONVERGED ? run->launched - run->iterations : 0, pass;
    *row = (spmv_cg_row){ .step = "step7", .kernel = d->fused ? "fused" : "plain", .device = d->cl->device_name,
                          .driver = drv, .matrix = s->A.origin.name, .rows = s->n, .cols = s->n, .nnz = s->A.nnz,
                          .precision = s->p, .iterations = run->iterations, .check_every = k, .extra_iterations = extra,
                          .converged = run->end == CG_CONVERGED && !fixed, .rel_residual = rel,
                          .true_residual = truer, .tol = fixed ? 0 : s->tol, .check = "FAIL",
                          .launches = d->fused ? 4 : 6, .passes = d->fused ? 10 : 14,
                          .bytes = spmv_cg_bytes(s->n, s->A.nnz, s->vsize, d->fused ? 10 : 14),
                          .bytes_compulsory = spmv_cg_bytes(s->n, s->A.nnz, s->vsize, SPMV_CG_COMPULSORY_PASSES) };
    if (run->end == CG_BREAKDOWN) {
        fprintf(stderr, "step7: breakdown at iteration %d: p.Ap = %.3g <= 0, so the matrix is not positive "
                "definite (CG needs A symmetric positive definite)\n", run->iterations + 1, run->pq);
        fprintf(spmv_results(d->cl->run), "check: FAIL (breakdown)\n");
        return 0;
    }
    if (run->end == CG_CONVERGED)
        printf("solve    converged in %d iterations: |r|/|b| = %.3g (the recurrence's) <= %.3g\n", run->iterations,
               rel, s->tol);
    else
        printf("solve    %d iterations%s: |r|/|b| = %.3g (the recurrence's)%s\n", run->iterations,
               fixed ? " (--tol 0)" : ", --maxiter reached", rel, fixed ? "" : ", above --tol");
    if (restarts)
        printf("restarts %d (each one product and one pass over the vectors more, outside the timed loop)\n", restarts);
    if (d->fused && run->end == CG_CONVERGED)
        printf("extra    %d iteration%s launched past the one that met the tolerance (read back every %d)\n",
               extra, extra == 1 ? "" : "s", k);
    printf("true     |b - A x|/|b| = %.3g (the host, in double, from the device's x)\n", truer);
    if (run->end == CG_CONVERGED) {
        pass = truer <= s->tol || (s->bb == 0 && truer == 0);
        printf("check    the true residual %s the tolerance %.3g%s\n", pass ? "meets" : "misses", s->tol,
               pass ? "" : restarts ? ": even after restarts, rounding keeps x this far (try --precision d or "
               "a larger --tol)" : "");
    } else {
        /* no tolerance met: |b - A x| must follow the |r| the device's sums
         * say (a wrong dot), and r itself b - A x (a wrong product or update) */
        double eps = s->single ? 0x1p-24 : 0x1p-53, floor_ = 100 * eps * sqrt((double)s->n);
        int follows = fabs(truer - rel) <= 0.1 * rel + floor_;
        printf("check    the true residual %s the recurrence's within 10%% + %.2g\n", follows ? "follows" : "leaves",
               floor_);
        pass = check_gap(s, xd, d, run->launched, tmp) && follows;
    }
    if (!fixed && run->end == CG_CONVERGED && host->end == CG_CONVERGED) {
        /* double: the same iterations give the same count but near the
         * threshold; float: rounding slows CG down, so a wider margin */
        int margin = s->single ? host->iterations / 2 + 10 : 5 + host->iterations / 10;
        int diff = run->iterations - host->iterations, ok = abs(diff) <= margin;
        printf("check    %d iterations, the host's CG in double %d: %s (margin %d, %s)\n", run->iterations,
               host->iterations, ok ? "agree" : "DISAGREE", margin,
               s->single ? "float: half the host's count + 10" : "double: 5 + 10%");
        pass = pass && ok;
    } else if (!fixed) {
        printf("check    no iteration count to compare: %s\n", run->end != CG_CONVERGED ? "this solve did not converge"
               : "the host's CG did not converge");
    }
    fprintf(spmv_results(d->cl->run), "check: %s\n", pass ? "PASS" : "FAIL");
    row->check = pass ? "PASS" : "FAIL";
    return pass;
}

/* The row's times: the timed loop's median and total (host clock), the
 * profiled loop's parts an iteration (device clock) and its total */
static void row_times(spmv_cg_row *row, const cg_dev *d, cg_run *run, const cg_run *prof)
{
    double min;
    row->ms_per_iter = 0;
    if (run->nblocks > 0)
        spmv_stats(run->block_ms, run->nblocks, &row->ms_per_iter, &min);
    int it = prof->launched > 0 ? prof->launched : 1;
    row->ms_total = run->total_ms, row->loop_iterations = run->launched, row->blocks = run->nblocks;
    row->prof_iterations = prof->launched, row->prof_ms = prof->total_ms / it;
    row->spmv_ms = d->part_ms[C_PRODUCT] / it, row->vector_ms = d->part_ms[C_VECTOR] / it;
    row->reads_ms = d->part_ms[C_READ] / it, row->gaps_ms = d->gaps_ms / it, row->overlap_ms = d->overlap_ms / it;
    row->wait_ms = row->reads_ms + row->gaps_ms;
    row->blocks_what = d->fused ? "blocks between reads, per iteration" : "iterations";
    row->waits = d->fused ? (row->check_every == 1 ? "once an iteration" : "once a block") : "twice an iteration";
}

/* --history (the plain solve's recurrence, restarts included: the counts go
 * on) and --save-x, the latter only for a solve that passed */
static void save_outputs(const spmv_options *o, int pass, const char *vname, const cg_system *s, cg_run *run,
                         const double *xd, double truer)
{
    if (run->hist) {
        FILE *h = fopen(o->history, "w");
        if (!h)
            spmv_die(SPMV_EXIT_USAGE, "cannot write --history %s", o->history);
        fprintf(h, "iteration,rel_residual\n");
        for (int i = 0; i < run->nhist; i++)
            fprintf(h, "%d,%.9g\n", (int)run->hist[2 * i], run->hist[2 * i + 1]);
        if (fclose(h) != 0)
            spmv_die(SPMV_EXIT_USAGE, "cannot write --history %s", o->history);
        printf("saved    the residual before each of %d iterations to %s\n", run->nhist, o->history);
        free(run->hist);
        run->hist = NULL;
    }
    if (pass) {
        char comment[600];
        snprintf(comment, sizeof comment, "x of step7 (%s) on %s, %d iterations, |b-Ax|/|b| = %.3g, %s", vname,
                 s->A.origin.name, run->iterations, truer,
                 spmv_prec_words(s->single, 0));
        spmv_save_vector(o->save_x, "--save-x", xd, s->n, s->single, comment);
    } else if (o->save_x) {
        printf("saved    nothing to %s: the check failed\n", o->save_x);
    }
}

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_run ctx;   /* the run's context (run.h); run is a solve's, below */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &ctx);
    if (o.x_file)
        spmv_die(SPMV_EXIT_USAGE, "--x is the product's input in the other steps; the right-hand side of step7's "
                 "system is --b FILE");
    if (o.group && (o.group & (o.group - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d is not a power of two (try 2, 4, 8, 16 or 32)", o.group);
    if (!o.matrix && !o.gen && !o.grid_set)
        o.gen = "poisson:nx=256";   /* the grid of the other steps is not symmetric */
    spmv_cl cl;
    spmv_cl_open(&cl, &ctx, o.device);

    /* 2. The system (A symmetric, or refused, and b), and the host's CG in
     * double: the iteration count the device's must match */
    cg_system s;
    spmv_cg_read_system(&o, &cl, &STEP, &s);
    int n = s.n, fixed = o.tol_set && o.tol == 0;   /* --tol 0, a timing run: exactly --maxiter iterations */
    int maxiter = o.maxiter ? o.maxiter : (n < INT_MAX / 10 ? 10 * (n > 10 ? n : 10) : INT_MAX - 1);
    printf("b        %s, |b| = %.6g; x0 = 0%s\n", o.b_file ? o.b_file : "seeded random in [-1, 1)", sqrt(s.bb),
           fixed ? "; --tol 0: exactly --maxiter iterations, a timing run" : "");
    if (!fixed)
        printf("stop     at |r|/|b| <= %.3g (--tol%s) or after %d iterations (--maxiter)\n", s.tol,
               o.tol_set ? "" : s.single ? ", float's default" : ", double's default", maxiter);
    spmv_error err;
    spmv_cg_result host = { 0 };
    double *xh = spmv_alloc(n ? (size_t)n : 1, sizeof *xh, "host CG x", &err);
    double *xd = xh ? spmv_alloc(n ? (size_t)n : 1, sizeof *xd, "device x", &err) : NULL;
    if (!xd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_cg_host_count(&s, fixed, maxiter, xh, &host);

    /* 3. Device buffers: the matrix as chapter 6 stores it, b, and CG's x, r, p, q */
    cg_dev d = { .cl = &cl, .n = n, .vsize = s.vsize, .single = s.single, .bb = s.bb, .bhost = s.bd };
    size_t n1 = n ? (size_t)n : 1, nnz1 = s.A.nnz ? (size_t)s.A.nnz : 1, vs = (size_t)s.vsize;
    int gpu = (cl.type & CL_DEVICE_TYPE_GPU) != 0;   /* oclgrind's simulator too: the GPU path under its checks */
    d.ptr = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, (n1 + 1) * sizeof(int), s.A.ptr, "row pointers");
    d.col = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), s.A.nnz ? s.A.col : NULL, "column indices");
    d.val = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * vs, s.A.nnz ? s.val : NULL, "matrix values");
    d.b = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, n1 * vs, s.bd, "b");
    d.x = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, n1 * vs, NULL, "x");
    d.r = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, n1 * vs, NULL, "r");
    d.p = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, n1 * vs, NULL, "p");

    /* 4. Program and kernels: this step's kernel.cl, then chapter 6's (one
     * program; -DCG_FUSED turns on the hook in chapter 6's kernels); the
     * product chapter 6's rule chooses */
    int group, unroll, vector = product_choice(&o, &s.st, gpu, s.vsize, &group, &unroll);

    /* 5. Work sizes: the product's a row per work-item (or a group per row);
     * the vector kernels a few work-groups per compute unit, striding;
     * cg_alpha one work-group */
    work_sizes(&d, &o, vector, group, unroll, gpu);
    d.q = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, (n1 + (size_t)d.npq) * vs, NULL, "q and the p.q partials");
    d.part = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, (size_t)d.ng * vs, NULL, "dot partials");
    d.scal = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, 3 * vs, NULL, "alpha and r.r");
    d.state = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, "state");
    void *tmp = spmv_alloc(n1 > (size_t)d.ng + 3 ? n1 : (size_t)d.ng + 3, vs, "read-back", &err);
    if (!tmp)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    int shuffle = WARP_SHUFFLES && cl.ptx && gpu && d.local[K_SPMV] % 32 == 0;

    /* 6. Each version: program, arguments, a warm-up, a profiled loop for the
     * split, the solve from x = 0 timed without events, checked on the host */
    spmv_cg_row rows[2];
    int nv = 0, status = SPMV_EXIT_PASS;
    spmv_probe *probe = spmv_probe_open(&cl, 0);
    for (int fused = 0; fused < 2; fused++) {
        if (strcmp(o.variant, fused ? "plain" : "fused") == 0)
            continue;
        d.fused = fused;
        const char *vname = fused ? "fused" : "plain";
        char opts[1024];
        snprintf(opts, sizeof opts, "-DVALUE=%s%s%s -DGROUP_SIZE=%d%s%.0d%s%s%s%s", spmv_prec_cl_type(s.p),
                 s.single ? "" : " -DUSE_FP64", shuffle ? " -DWARP_SHUFFLE" : "", group,
                 unroll ? " -DVECTOR_UNROLL=" : "", unroll, fused ? " -DCG_FUSED" : "",
                 gpu ? "" : " -DCONTIGUOUS", o.cl_opts ? " " : "", o.cl_opts ? o.cl_opts : "");
        const char *src[2] = { o.kernel_file, STEP6_KERNEL_PATH };
        printf("==== %s\n", vname);
        cl_program prog = spmv_cl_build_files(&cl, src, 2, opts);
        memset(d.k, 0, sizeof d.k);
        d.k[K_SPMV] = spmv_cl_kernel(prog, vector ? "csr_vector" : "csr_scalar");
        for (int i = 1; i < K_COUNT; i++)
            if ((i >= K_ALPHA) == fused || i <= K_RESTART)
                d.k[i] = spmv_cl_kernel(prog, KNAME[i]);
        alpha_size(&d);
        bind_args(&d);
        int k = fused ? (o.check_every ? o.check_every : (int)fmin(32, fmax(1, sqrt((double)n) / 32))) : 1;
        describe(&d, k, o.check_every);
        cg_run run = { 0 }, prof = { 0 };
        int restarts = solve(&d, &o, &s, maxiter, k, xd, tmp, &run, &prof);

        /* 7. Check on the host (the true residual, the count against the
         * host's CG or, at --tol 0, r against b - A x) and keep the result */
        spmv_cg_row *row = &rows[nv++];
        int pass = check_solve(&d, &s, &run, k, restarts, fixed, &host, xd, tmp, row);
        save_outputs(&o, pass, vname, &s, &run, xd, row->true_residual);
        if (run.end == CG_BREAKDOWN) {
            nv--;   /* no time, no row */
        } else {
            row_times(row, &d, &run, &prof);
        }
        if (!pass)
            status = SPMV_EXIT_FAIL;
        else if (run.end == CG_MAXITER && !fixed && status == SPMV_EXIT_PASS)
            status = EXIT_MAXITER;   /* a failed check outranks --maxiter reached */
        for (int i = 0; probe && i < SPMV_PROBE_MIN_SAMPLES; i++)
            spmv_probe_sample(probe);
        free(run.block_ms), free(run.hist);
        for (int i = 0; i < K_COUNT; i++)
            if (d.k[i])
                clReleaseKernel(d.k[i]);
        clReleaseProgram(prog);
    }

    /* 8. Report (common/report.h): every version against the one bandwidth
     * the probe measured after each version's solve; then release */
    spmv_bandwidth bw = probe ? spmv_probe_finish(probe) : (spmv_bandwidth){ 0 };
    if (nv)
        spmv_bandwidth_print(&bw);
    for (int i = 0; i < nv; i++) {
        rows[i].bw_gbs = bw.gbs;
        spmv_cg_report(&ctx, &rows[i], o.csv);
    }
    cl_mem bufs[] = { d.ptr, d.col, d.val, d.b, d.x, d.r, d.p, d.q, d.part, d.scal, d.state };
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clReleaseMemObject(bufs[i]);
    spmv_cl_close(&cl);
    spmv_cg_result_free(&host);
    free(tmp), free(s.val), free(s.bd), free(s.b), free(xh), free(xd);
    csr_free(&s.A);   /* its values: the host's double copy */
    return status;
}
