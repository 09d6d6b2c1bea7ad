/* step8-mpi/main.c - host program of chapter 8: chapter 7's CG past one
 * device, its rows split over MPI ranks, each rank with its own OpenCL device.
 *
 *   make step8 run                                              2 ranks, the default Poisson matrix
 *   mpirun -q -n 2 build/step8 --gen poisson:nx=1024 --precision d --tol 0 --maxiter 200
 *   mpirun -q -n 4 build/step8 --matrix tests/data/bcsstk13.mtx --precision d --kernel single
 *   (as root add --allow-run-as-root; more ranks than cores, --oversubscribe)
 *
 * Rank 0 reads the system (step7-cg/reference/system.h) and hands each rank
 * a block of rows (split/split.h); each rank finds the entries of the other
 * blocks its rows read (its ghosts) and who sends them. An iteration
 * exchanges those entries of p (of r in the single version) while the
 * device computes the rows that need none, and adds the ranks' shares of
 * each dot product with MPI_Allreduce: two an iteration in the classic
 * version, one in the single version (Chronopoulos and Gear). Rank 0
 * gathers x and checks it as step 7 does: the true residual in double, the
 * count against the host's CG. Exit status as step 7's (0 solved, 1 check
 * failed or breakdown, 2 bad input, 3 skipped, 4 --maxiter reached), the
 * same from every rank. The sections appear in the same order in every step.
 */
#define _GNU_SOURCE   /* sched_getaffinity: the cores mpirun left this rank */
#include "../step6-csr/choice/csrchoice.h"
#include "../step7-cg/reference/cg.h"
#include "../step7-cg/reference/system.h"
#include "split/split.h"
#include "precision.h"
#include "results.h"
#include "spmv.h"

#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const spmv_step STEP = {
    .name = "step8",
    .title = "chapter 7's CG over MPI ranks, each with its own device: classic (two reductions) and single (one)",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "classic,single,all",
    .default_variant = "all",
    .takes = OPT_DEVICE | OPT_OPENCL | OPT_PRECISION | OPT_GROUP | OPT_CG | OPT_SOLUTION,
    .model_bytes = 0,
    .default_matrix = "--gen poisson:nx=256, the 5-point Laplacian on a 256 x 256 grid",
    .precisions = "sd",
    .defaults = (const spmv_note[]){ { "--local-size", "256" },
                                     { "--device", "gpu (else the first device); rank r takes the r-th of those "
                                                   "that match on its node, modulo their number" },
                                     { NULL, NULL } },
    .refusals = (const spmv_note[]){
        { "--x", "the right-hand side of step8's system is --b FILE" },
        { "--grid", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },
        { "--radius", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },
        { "--runs", "a solve runs once, its iterations timed" },
        { "--warmup", "a solve runs once, its iterations timed" },
        { NULL, NULL } },
    .exit_statuses = "0 solved and checked (or the fixed iterations of --tol 0 done and checked), 1 check failed "
                     "or breakdown (A not positive definite), 2 bad input or out of memory, 3 skipped (the device "
                     "lacks cl_khr_fp64, which d needs), 4 --maxiter reached before --tol; every rank the same",
};

#define STEP7_KERNEL_PATH SPMV_STEP_DIR "/../step7-cg/kernel.cl"
#define STEP6_KERNEL_PATH SPMV_STEP_DIR "/../step6-csr/kernel.cl"
#define LOCAL_SIZE 256          /* the product's and the vector kernels' work-groups, as step 7's */
#define GROUPS_PER_CU 8         /* the vector kernels' work-groups on a GPU, each striding */
#define GROUPS_PER_CORE 4       /* on a CPU */
#define CHOICE_SHARE 4096       /* as step 7: a row longer than this is one the adaptive kernel would cut */
#define PROFILE_ITERATIONS 32   /* the split: this many iterations, each part timed alone */
#define WARMUP_ITERATIONS 3
#define EXIT_MAXITER 4
#define MAX_RESTARTS 10
#define HOST_CG_BUDGET 4e9      /* nonzeros x iterations the host's CG may take (step 7's) */
#ifndef WARP_SHUFFLES
#define WARP_SHUFFLES 1
#endif

enum { K_SPMV, K_PACK, K_UNPACK, K_SUMS, K_DOT, K_RESTART, K_UPD_R, K_UPD_XP, K_UPD_ALL, K_COUNT };
static const char *const KNAME[K_COUNT] = { NULL, "d8_pack", "d8_unpack", "d8_sums", "cg_dot", "cg_restart", "d8_update_r", "d8_update_xp",
                                            "d8_update_all" };
/* the parts of an iteration, each timed alone in the profiled loop; P_HOST:
 * the rest of the loop on the host's clock (the time from one part's end to
 * the next one's start: launches, arguments, the host's arithmetic; and of
 * a kernel's time from its launch to the host seeing it done, what the
 * device's clock did not count), so the parts but P_PRODUCT (a share of
 * P_KERNELS) tile the loop */
enum { P_KERNELS, P_HALO_READ, P_HALO_MPI, P_HALO_WRITE, P_RED_READ, P_RED_MPI, P_HOST, P_PRODUCT, P_COUNT };

/* One rank's solve on its device */
typedef struct {
    spmv_cl *cl;
    mpi_split *m;
    int single, vsize, one;   /* one: the single-reduction version */
    int gpu;                  /* a GPU: the host spins on its events (wait_for) */
    MPI_Datatype vt;
    cl_kernel k[K_COUNT];
    size_t global[K_COUNT], local[K_COUNT];
    int ni;                   /* the interior launch's rows: a whole number of the product's work-groups */
    size_t lanes, spmv_local; /* the product's work-items a row, work-group */
    cl_mem ptr, col, val, b, x, r, p, q, s, w, part, idx, sendb, ghostb, sums;
    int ng, npq;              /* shares: the vector kernels' work-groups, the product's */
    cl_command_queue xq;      /* the halo's copies, beside the kernels' queue */
    cl_mem pin[3];            /* pinned host memory: the halo sent, received, the sums */
    void *sendh, *ghosth, *sumsh, *tmp;
    int prof;                 /* the profiled loop: every part waited for and timed */
    double part_ms[P_COUNT];
    double mark;              /* the profiled loop: where the last part ended, on the host's clock */
} dv;

typedef struct {
    int iterations, end;      /* CG_CONVERGED, CG_MAXITER, CG_BREAKDOWN */
    double rr, pq;            /* r.r; the breakdown's p.Ap */
    double alpha, beta;       /* single: the state carried between iterations */
    double *it_ms;            /* rank 0's wall time of each iteration */
    int nit, capit;
    double total_ms;
} cg_run;

static double now_ms(void)
{
    return MPI_Wtime() * 1e3;
}

/* The profiled loop: a part that began at t0 (the host's clock) is done,
 * ms of it the part's own; the time since the last part ended, and the rest
 * of [t0, now] (a kernel's launch and the host's wait around the device's
 * time), go to the host's part */
static void part_done(dv *d, int part, double t0, double ms)
{
    double t = now_ms();
    d->part_ms[P_HOST] += (t0 - d->mark) + (t - t0 - ms);
    d->part_ms[part] += ms;
    d->mark = t;
}

/* Wait for ev. On a GPU the host asks for its status again and again: a
 * read of a few bytes is back within microseconds, and a blocking wait may
 * put the thread to sleep and wake it later. On a CPU the device's threads
 * need the cores the host would spin on: a blocking wait. */
static void wait_for(const dv *d, cl_event ev)
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

/* A kernel over [offset, offset + global), after the event `after` (NULL:
 * none) and giving its own in `done` (NULL: none); in the profiled loop
 * waited for, its time (the device's clock) added to the kernels' part */
static void launch_at(dv *d, int i, size_t offset, size_t global, cl_event after, cl_event *done)
{
    cl_event ev = NULL;
    double t0 = now_ms();
    CL_CHECK(clEnqueueNDRangeKernel(d->cl->queue, d->k[i], 1, offset ? &offset : NULL, &global, &d->local[i],
                                    after ? 1 : 0, after ? &after : NULL, d->prof || done ? &ev : NULL));
    if (d->prof) {
        CL_CHECK(clWaitForEvents(1, &ev));
        double ms = spmv_event_ms(ev);
        part_done(d, P_KERNELS, t0, ms);
        if (i == K_SPMV)
            d->part_ms[P_PRODUCT] += ms;   /* the product's share of the kernels */
    }
    if (done)
        *done = ev;
    else if (ev)
        clReleaseEvent(ev);
}

static void launch(dv *d, int i)
{
    launch_at(d, i, 0, d->global[i], NULL, NULL);
}

/* out = A v over this rank's rows, the halo of v exchanged on the way: the
 * entries the other ranks read packed and read back; the interior rows
 * launched (the device busy while the host exchanges); the ghosts
 * written and copied after v's own entries; the boundary rows. The copies
 * go through a queue of their own (d->xq), each after the kernel it needs
 * by an event: the read runs beside the interior rows, not before them. */
static void product(dv *d, cl_mem v, cl_mem out)
{
    mpi_split *m = d->m;
    cl_kernel ks = d->k[K_SPMV];
    cl_event packed, got = NULL, wrote = NULL;
    double t;
    CL_CHECK(clSetKernelArg(ks, 4, sizeof v, &v));
    CL_CHECK(clSetKernelArg(ks, 5, sizeof out, &out));
    if (m->send_total) {
        cl_mem from = d->sendb;
        size_t at = 0;
        if (m->send_stretch >= 0) {   /* the entries sent are one stretch of v, in order: read it, no pack */
            CL_CHECK(clEnqueueMarkerWithWaitList(d->cl->queue, 0, NULL, &packed));
            from = v, at = (size_t)m->send_stretch * d->vsize;
        } else {
            CL_CHECK(clSetKernelArg(d->k[K_PACK], 2, sizeof v, &v));
            launch_at(d, K_PACK, 0, d->global[K_PACK], NULL, &packed);
        }
        t = now_ms();
        CL_CHECK(clEnqueueReadBuffer(d->xq, from, CL_FALSE, at, (size_t)m->send_total * d->vsize, d->sendh, 1,
                                     &packed, &got));
        CL_CHECK(clFlush(d->xq));
        clReleaseEvent(packed);
        if (d->prof)
            CL_CHECK(clWaitForEvents(1, &got)), part_done(d, P_HALO_READ, t, now_ms() - t);
    }
    if (d->ni > 0) {   /* 1. the interior rows */
        CL_CHECK(clSetKernelArg(ks, 0, sizeof d->ni, &d->ni));
        launch_at(d, K_SPMV, 0, (size_t)d->ni * d->lanes, NULL, NULL);
    }
    CL_CHECK(clFlush(d->cl->queue));
    if (got)   /* 2. the exchange, while they run */
        wait_for(d, got), clReleaseEvent(got);
    if (m->size > 1) {
        t = now_ms();
        split_exchange(m, d->sendh, d->ghosth, d->vt);
        if (d->prof)
            part_done(d, P_HALO_MPI, t, now_ms() - t);
        if (m->nghost) {   /* into their own buffer, then after v's own entries: d8_unpack */
            t = now_ms();
            CL_CHECK(clEnqueueWriteBuffer(d->xq, d->ghostb, CL_FALSE, 0, (size_t)m->nghost * d->vsize, d->ghosth, 0,
                                          NULL, &wrote));
            CL_CHECK(clFlush(d->xq));
            if (d->prof)
                CL_CHECK(clWaitForEvents(1, &wrote)), part_done(d, P_HALO_WRITE, t, now_ms() - t);
            CL_CHECK(clSetKernelArg(d->k[K_UNPACK], 3, sizeof v, &v));
            launch_at(d, K_UNPACK, 0, d->global[K_UNPACK], wrote, NULL);
            clReleaseEvent(wrote);
        }
    }
    if (d->ni < m->nloc) {   /* 3. the boundary rows, from a global offset */
        CL_CHECK(clSetKernelArg(ks, 0, sizeof m->nloc, &m->nloc));
        size_t offset = (size_t)d->ni * d->lanes;
        launch_at(d, K_SPMV, offset, spmv_round_up((size_t)m->nloc * d->lanes - offset, d->spmv_local), NULL, NULL);
    }
}

/* This rank's part of one or two dot products: the shares (na values in
 * buf a from value at_a on; nb in b from at_b) added up on the device
 * (d8_sums, one work-group), the one or two sums read back (the read waits
 * for the device), then added over the ranks in double: MPI_Allreduce. */
static void reduce(dv *d, cl_mem a, int at_a, int na, cl_mem b, int at_b, int nb, double *sums)
{
    cl_kernel k = d->k[K_SUMS];
    int nsum = nb ? 2 : 1;
    CL_CHECK(clSetKernelArg(k, 0, sizeof na, &na));
    CL_CHECK(clSetKernelArg(k, 1, sizeof a, &a));
    CL_CHECK(clSetKernelArg(k, 2, sizeof at_a, &at_a));
    CL_CHECK(clSetKernelArg(k, 3, sizeof nb, &nb));
    CL_CHECK(clSetKernelArg(k, 4, sizeof b, &b));
    CL_CHECK(clSetKernelArg(k, 5, sizeof at_b, &at_b));
    launch(d, K_SUMS);
    double t = now_ms();
    cl_event got;
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->sums, CL_FALSE, 0, (size_t)nsum * d->vsize, d->sumsh, 0, NULL, &got));
    CL_CHECK(clFlush(d->cl->queue));
    wait_for(d, got);
    clReleaseEvent(got);
    for (int j = 0; j < nsum; j++)
        sums[j] = d->single ? ((float *)d->sumsh)[j] : ((double *)d->sumsh)[j];
    if (d->prof)
        part_done(d, P_RED_READ, t, now_ms() - t);
    t = now_ms();
    MPI_Allreduce(MPI_IN_PLACE, sums, nsum, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (d->prof)
        part_done(d, P_RED_MPI, t, now_ms() - t);
}

/* A vector from the host: its nloc own entries from src (NULL: zeros), its
 * ghosts zero where it has room for them (x, r, p). The whole buffer in one
 * write: oclgrind counts the bytes of a buffer past a host write's end as
 * never written, even those a kernel writes later. */
static void write_vec(dv *d, cl_mem buf, const void *src, int ghosts)
{
    size_t own = (size_t)d->m->nloc * d->vsize, all = own + (ghosts ? (size_t)d->m->nghost * d->vsize : 0);
    memset(d->tmp, 0, all);
    if (src)
        memcpy(d->tmp, src, own);
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, buf, CL_TRUE, 0, all, d->tmp, 0, NULL, NULL));
}

/* A start: from x = 0 (r = b), or a restart from the current x (r = b - A x,
 * p = r); r.r summed over the ranks; the single version also w = A r, w.r,
 * and its first alpha */
static void start(dv *d, int from_x, cg_run *run)
{
    if (!from_x) {
        write_vec(d, d->x, NULL, 1);
        write_vec(d, d->r, d->m->b, 1);
        write_vec(d, d->p, d->one ? NULL : d->m->b, 1);
        if (d->one)
            write_vec(d, d->s, NULL, 0);
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 1, sizeof d->r, &d->r));
        CL_CHECK(clSetKernelArg(d->k[K_DOT], 2, sizeof d->r, &d->r));
        launch(d, K_DOT);
    } else {
        cl_mem ax = d->one ? d->w : d->q;
        product(d, d->x, ax);
        CL_CHECK(clSetKernelArg(d->k[K_RESTART], 2, sizeof ax, &ax));
        launch(d, K_RESTART);
    }
    reduce(d, d->part, 0, d->ng, d->part, 0, 0, &run->rr);
    if (d->one) {
        product(d, d->r, d->w);
        reduce(d, d->w, d->m->nloc, d->npq, d->w, 0, 0, &run->pq);   /* the first p.Ap = r.Ar */
        run->beta = 0;
        run->alpha = run->pq > 0 ? run->rr / run->pq : 0;
    }
}

static void keep_time(cg_run *run, double t0)
{
    if (run->nit < run->capit)
        run->it_ms[run->nit++] = now_ms() - t0;
}

/* The test before each iteration, where the host's CG makes it: converged
 * (r.r <= thresh; thresh < 0: no test, the warm-up and the profiled loop),
 * or --maxiter iterations done */
static int stop_before(cg_run *run, int maxiter, double thresh)
{
    if (thresh >= 0 && run->rr <= thresh) {
        run->end = CG_CONVERGED;
        return 1;
    }
    return run->iterations == maxiter;
}

/* classic: two reductions an iteration */
static void solve_classic(dv *d, int maxiter, double thresh, cg_run *run)
{
    run->end = CG_MAXITER;
    for (;; run->iterations++) {
        if (stop_before(run, maxiter, thresh))
            break;
        double t0 = now_ms(), pq, rr1;
        product(d, d->p, d->q);                                  /* q = A p, the shares of p.q */
        reduce(d, d->q, d->m->nloc, d->npq, d->q, 0, 0, &pq);      /* reduction 1 */
        if (!(pq > 0)) {
            run->end = CG_BREAKDOWN, run->pq = pq;
            break;
        }
        double alpha = run->rr / pq;
        spmv_cl_arg_value(d->k[K_UPD_R], 1, d->single, alpha);
        launch(d, K_UPD_R);                                      /* r -= alpha q, the shares of r.r */
        reduce(d, d->part, 0, d->ng, d->part, 0, 0, &rr1);         /* reduction 2 */
        spmv_cl_arg_value(d->k[K_UPD_XP], 1, d->single, alpha);
        spmv_cl_arg_value(d->k[K_UPD_XP], 2, d->single, rr1 / run->rr);
        launch(d, K_UPD_XP);                                     /* x += alpha p; p = r + beta p */
        run->rr = rr1;
        keep_time(run, t0);
    }
}

/* single (Chronopoulos and Gear): one reduction an iteration, of r.r and w.r;
 * alpha, beta and the next p.Ap carried in run from start() and each
 * iteration (alpha 0: that p.Ap was not positive) */
static void solve_single(dv *d, int maxiter, double thresh, cg_run *run)
{
    run->end = CG_MAXITER;
    for (;; run->iterations++) {
        if (stop_before(run, maxiter, thresh))
            break;
        if (!(run->alpha > 0)) {
            run->end = CG_BREAKDOWN;
            break;
        }
        double t0 = now_ms(), sums[2];
        spmv_cl_arg_value(d->k[K_UPD_ALL], 1, d->single, run->alpha);
        spmv_cl_arg_value(d->k[K_UPD_ALL], 2, d->single, run->beta);
        launch(d, K_UPD_ALL);                                    /* p, s, x, r; the shares of r.r */
        product(d, d->r, d->w);                                  /* w = A r, the shares of w.r */
        reduce(d, d->w, d->m->nloc, d->npq, d->w, d->m->nloc + d->npq, d->ng, sums);   /* the one reduction */
        double rr1 = sums[1], beta = rr1 / run->rr;
        run->pq = sums[0] - beta * rr1 / run->alpha;              /* the next p.Ap, without computing it */
        run->alpha = run->pq > 0 ? rr1 / run->pq : 0;
        run->rr = rr1, run->beta = beta;
        keep_time(run, t0);
    }
}

static void run_solve(dv *d, int maxiter, double thresh, cg_run *run)
{
    if (d->one)
        solve_single(d, maxiter, thresh, run);
    else
        solve_classic(d, maxiter, thresh, run);
}

/* x back from the device, in double, local order */
static void read_x(dv *d, double *x)
{
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->x, CL_TRUE, 0, (size_t)d->m->nloc * d->vsize, d->tmp, 0, NULL, NULL));
    for (int i = 0; i < d->m->nloc; i++)
        x[i] = d->single ? ((float *)d->tmp)[i] : ((double *)d->tmp)[i];
}

/* A warm-up; the profiled loop (each part waited for and timed alone); then
 * the solve from x = 0, timed on rank 0's clock, restarted from r = b - A x
 * where the recurrence met --tol and the true residual (rank 0, in double,
 * on the gathered x) did not. Returns the restarts; x gathered in xall on
 * rank 0, the true residual in *truer. */
static int solve(dv *d, const cg_system *s, double tol, int maxiter, double *xl, double *xall, double *truer,
                 cg_run *run, cg_run *prof)
{
    int w = maxiter < WARMUP_ITERATIONS ? maxiter : WARMUP_ITERATIONS, restarts = 0;
    double warm_ms[WARMUP_ITERATIONS + 1];
    cg_run warm = { .it_ms = warm_ms, .capit = WARMUP_ITERATIONS + 1 };
    start(d, 0, &warm);
    run_solve(d, w, -1, &warm);
    int pi = maxiter < PROFILE_ITERATIONS ? maxiter : PROFILE_ITERATIONS;
    memset(d->part_ms, 0, sizeof d->part_ms);
    start(d, 0, prof);
    d->prof = 1;
    double t0 = now_ms();
    d->mark = t0;
    run_solve(d, pi, -1, prof);
    CL_CHECK(clFinish(d->cl->queue));
    double t1 = now_ms();
    prof->total_ms = t1 - t0;
    d->part_ms[P_HOST] += t1 - d->mark;   /* the loop's end: its last host arithmetic, the queue finished */
    d->prof = 0;
    double thresh = tol * tol * s->bb;
    MPI_Bcast(&thresh, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    start(d, 0, run);
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = now_ms();
        run_solve(d, maxiter, thresh, run);
        CL_CHECK(clFinish(d->cl->queue));
        run->total_ms += now_ms() - t0;
        read_x(d, xl);
        split_gather(d->m, xl, xall);
        int again = 0;
        if (d->m->rank == 0) {
            *truer = s->bb > 0 ? spmv_cg_true_residual(&s->A, s->b, xall) : 0;
            again = run->end == CG_CONVERGED && tol > 0 && *truer > tol && run->iterations < maxiter &&
                    restarts < MAX_RESTARTS;
            if (again)
                printf("restart  after %d iterations: |r|/|b| = %.3g by the recurrence, but |b - A x|/|b| = %.3g; "
                       "r = b - A x, p = r, and on\n", run->iterations, sqrt(run->rr / s->bb), *truer);
        }
        MPI_Bcast(&again, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!again)
            return restarts;
        restarts++;
        start(d, 1, run);
    }
}

/* ---- setup ---- */

/* What every rank needs of the system rank 0 read */
typedef struct {
    int n, ok;
    long long nnz;
    char p;
    double tol, bb;
    spmv_row_stats st;
} sys_info;

/* Rank 0 reads the system (the others wait); more ranks than rows is
 * refused there; every rank gets its block of rows and builds its plan */
static void read_and_split(spmv_options *o, const spmv_cl *cl, cg_system *s, mpi_split *m, sys_info *si)
{
    memset(si, 0, sizeof *si);
    if (m->rank == 0) {
        spmv_cg_read_system(o, cl, &STEP, s);
        if (m->size > s->n)
            spmv_die(SPMV_EXIT_USAGE, "%d ranks for %d rows: a rank needs at least one row (run at most %d ranks)",
                     m->size, s->n, s->n);
        *si = (sys_info){ .n = s->n, .nnz = s->A.nnz, .p = s->p, .tol = s->tol, .bb = s->bb, .st = s->st, .ok = 1 };
    }
    MPI_Bcast(si, sizeof *si, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (si->p == 'd' && !cl->fp64)
        spmv_skip(cl->run, &STEP, o, cl, o->variant,
                  "this rank's device has no cl_khr_fp64, which --precision d needs");
    int vsize = spmv_prec_value_size(si->p);
    split_scatter(m->rank == 0 ? &s->A : NULL, m->rank == 0 ? s->val : NULL, m->rank == 0 ? s->bd : NULL, si->n,
                  vsize, m);
    split_localize(m);
}

/* Each rank's device: the nth that --device matches, n its rank on this
 * node; rank 0 first (a refusal there stops the run before the others
 * look). On a CPU, PoCL starts a thread per core it sees in every rank:
 * unless POCL_MAX_PTHREAD_COUNT says otherwise, each rank gets the cores
 * mpirun bound it to (Open MPI binds each rank to a core for up to 2 ranks,
 * one rank alone included, to a socket beyond), or its share of the node's
 * where it is bound to none (mpirun --bind-to none). */
static void open_device(spmv_run *run, const spmv_options *o, spmv_cl *cl, int rank, int *local_rank,
                        int *local_size)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, local_rank);
    MPI_Comm_size(node, local_size);
    MPI_Comm_free(&node);
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN), mine = online;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        mine = CPU_COUNT(&set);
    long threads = mine < online ? mine : mine / *local_size;
    if (!getenv("POCL_MAX_PTHREAD_COUNT") && (mine < online || *local_size > 1)) {
        char v[32];
        snprintf(v, sizeof v, "%ld", threads > 1 ? threads : 1);
        setenv("POCL_MAX_PTHREAD_COUNT", v, 1);
    }
    if (rank != 0)
        MPI_Barrier(MPI_COMM_WORLD);
    int matches = 0;
    spmv_cl_open_nth(cl, run, o->device, *local_rank, &matches);
    if (rank == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks    %d on this node, %d device%s match%s --device: rank r takes device r mod %d; rank 0 may "
               "run on %ld of %ld cores%s%s\n", *local_size, matches, matches == 1 ? "" : "s", matches == 1 ? "es" : "",
               matches, mine, online, getenv("POCL_MAX_PTHREAD_COUNT") ? ", PoCL threads a rank: " : "",
               getenv("POCL_MAX_PTHREAD_COUNT") ? getenv("POCL_MAX_PTHREAD_COUNT") : "");
}

/* Rank 0 prints each rank's device and share: rows, interior rows, ghosts,
 * and whether the entries it sends are one stretch (read as it is) */
static void describe_ranks(const mpi_split *m, const spmv_cl *cl)
{
    struct {
        char dev[300];
        int row0, nloc, ninner, nghost, nrecv, send_total, nsend, stretch;
    } me, *all = NULL;
    snprintf(me.dev, sizeof me.dev, "%d:%d %s", cl->platform_index, cl->device_index, cl->device_name);
    me.row0 = m->row0, me.nloc = m->nloc, me.ninner = m->ninner, me.nghost = m->nghost;
    me.nrecv = m->nrecv, me.send_total = m->send_total, me.nsend = m->nsend, me.stretch = m->send_stretch >= 0;
    if (m->rank == 0 && !(all = malloc((size_t)m->size * sizeof *all)))
        spmv_die(SPMV_EXIT_USAGE, "out of host memory describing %d ranks", m->size);
    MPI_Gather(&me, sizeof me, MPI_BYTE, all, sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (int q = 0; q < m->size && m->rank == 0; q++)
        printf("rank %-3d %s: rows %d-%d, %d interior, %d ghosts from %d rank%s, %d entries to %d rank%s%s\n", q,
               all[q].dev, all[q].row0 + 1, all[q].row0 + all[q].nloc, all[q].ninner, all[q].nghost, all[q].nrecv,
               all[q].nrecv == 1 ? "" : "s", all[q].send_total, all[q].nsend, all[q].nsend == 1 ? "" : "s",
               !all[q].send_total ? "" : all[q].stretch ? " (one stretch: read as it is)" : " (packed)");
    free(all);
}

/* Work sizes, buffers and arguments: the product's a row per work-item (a
 * group per row, vector), its interior launch rounded down to whole
 * work-groups; the vector kernels a few work-groups per compute unit */
static void setup_sizes(dv *d, const spmv_options *o, int vector, int group, int gpu)
{
    spmv_cl *cl = d->cl;
    mpi_split *m = d->m;
    size_t local = o->local_size ? o->local_size : LOCAL_SIZE;
    if (vector && local % group)
        spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a multiple of the group size %d", local, group);
    while (local > cl->max_wg)
        local /= 2;
    d->lanes = vector ? (size_t)group : 1, d->spmv_local = local;
    size_t rpw = local / d->lanes;   /* rows a work-group */
    d->ni = (int)(m->ninner / rpw * rpw);
    d->npq = (int)((m->nloc * d->lanes + local - 1) / local);
    size_t cg_local = !gpu ? 1 : LOCAL_SIZE < cl->max_wg ? LOCAL_SIZE : cl->max_wg;
    size_t groups = ((size_t)m->nloc + cg_local - 1) / cg_local,
           most = (size_t)cl->compute_units * (gpu ? GROUPS_PER_CU : GROUPS_PER_CORE);
    d->ng = (int)(groups < most ? groups : most ? most : 1);
    for (int i = 0; i < K_COUNT; i++)
        d->local[i] = i == K_SPMV ? local : cg_local, d->global[i] = (size_t)d->ng * cg_local;
    size_t few[2] = { (size_t)m->send_total, (size_t)m->nghost };   /* the halo's kernels: no idle work-groups */
    for (int i = 0; i < 2; i++)
        if (few[i] < d->global[K_PACK + i])
            d->global[K_PACK + i] = spmv_round_up(few[i] ? few[i] : 1, cg_local);
    d->local[K_SUMS] = d->global[K_SUMS] = !gpu ? 1 : cl->max_wg < 1024 ? cl->max_wg : 1024;   /* one work-group */
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
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for %s (%zu bytes): %s", what, size, cl_error_name(e));
    return h;
}

static void make_buffers(dv *d)
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
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    d->sendh = pinned(d, 0, (st ? st : 1) * vs, "the halo sent");
    d->ghosth = pinned(d, 1, (m->nghost ? (size_t)m->nghost : 1) * vs, "the halo received");
    d->sumsh = pinned(d, 2, 2 * vs, "the sums read back");
    cl_int e;
    d->xq = clCreateCommandQueue(cl->ctx, cl->device, 0, &e);
    CL_CHECK_ERR(e);
}

/* Everything make_buffers and build_program made */
static void release(dv *d, cl_program prog)
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

static void arg(cl_kernel k, int i, size_t size, const void *v)
{
    CL_CHECK(clSetKernelArg(k, i, size, v));
}

static void bind_args(dv *d)
{
    size_t kmax = 0;   /* d8_sums: one work-group, a power of two the kernel allows */
    CL_CHECK(clGetKernelWorkGroupInfo(d->k[K_SUMS], d->cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
    while (d->local[K_SUMS] > 1 && d->local[K_SUMS] > kmax)
        d->local[K_SUMS] /= 2;
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

/* One program from step 7's kernel.cl, this step's (--kernel-file) and
 * chapter 6's, the rank's rows and shares as -D; its kernels into d->k */
static cl_program build_program(dv *d, const spmv_options *o, char p, int vector, int group, int unroll, int gpu)
{
    int shuffle = WARP_SHUFFLES && d->cl->ptx && gpu && d->spmv_local % 32 == 0;
    char opts[1024];
    snprintf(opts, sizeof opts, "-DVALUE=%s%s%s -DGROUP_SIZE=%d%s%.0d -DCG_FUSED -DQ_ROWS=%d -DNPQ=%d%s%s%s",
             spmv_prec_cl_type(p), d->single ? "" : " -DUSE_FP64", shuffle ? " -DWARP_SHUFFLE" : "", group,
             unroll ? " -DVECTOR_UNROLL=" : "", unroll, d->m->nloc, d->npq, gpu ? "" : " -DCONTIGUOUS",
             o->cl_opts ? " " : "", o->cl_opts ? o->cl_opts : "");
    const char *src[3] = { STEP7_KERNEL_PATH, o->kernel_file, STEP6_KERNEL_PATH };
    cl_program prog = spmv_cl_build_files(d->cl, src, 3, opts);
    d->k[K_SPMV] = spmv_cl_kernel(prog, vector ? "csr_vector" : "csr_scalar");
    for (int i = 1; i < K_COUNT; i++)
        d->k[i] = spmv_cl_kernel(prog, KNAME[i]);
    return prog;
}

/* Chapter 6's rule picks the product, as in step 7 (the adaptive kernel's
 * place taken by vector on a GPU, scalar on a CPU); every rank the same,
 * from the whole matrix's rows */
static int product_choice(const spmv_options *o, const spmv_row_stats *st, int gpu, int vsize, int *group, int *unroll)
{
    *group = o->group ? o->group : spmv_default_group(st);
    int u = !o->cl_opts || !strstr(o->cl_opts, "VECTOR_UNROLL") ? spmv_default_unroll(st, o->group ? 0 : vsize, group)
                                                                 : 0;
    const char *choice = spmv_csr_choose(st, gpu, CHOICE_SHARE, *group);
    int adaptive = strcmp(choice, "adaptive") == 0;
    int vector = o->group || (adaptive ? gpu : strcmp(choice, "scalar") != 0);
    if (adaptive && !o->group)   /* only rank 0's standard output is kept */
        printf("choice   step8 offers scalar and vector: %s it is%s\n", vector ? "vector" : "scalar",
               vector ? ", a group per row on a GPU" : ", a row per work-item on a CPU");
    *unroll = vector && u > 1 ? u : 0;
    return vector;
}

/* ---- the check and the report (rank 0) ---- */

typedef struct {
    const char *kernel;
    int iterations, end, restarts, pass, prof_it, prof_rank;
    double rel, truer, ms, total_ms, prof_ms, part[P_COUNT];
} version_result;

/* The parts of the profiled loop, per iteration, of the rank whose loop
 * took longest: one rank's parts tile its loop (the largest of each part
 * over the ranks would not: one rank's wait in MPI is another's kernels) */
static void gather_parts(const dv *d, const cg_run *prof, version_result *v)
{
    int it = prof->iterations > 0 ? prof->iterations : 1;
    double mine[P_COUNT + 1];
    for (int i = 0; i < P_COUNT; i++)
        mine[i] = d->part_ms[i] / it;
    mine[P_COUNT] = prof->total_ms / it;
    struct { double ms; int rank; } me = { mine[P_COUNT], d->m->rank }, slowest;
    MPI_Allreduce(&me, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Bcast(mine, P_COUNT + 1, MPI_DOUBLE, slowest.rank, MPI_COMM_WORLD);
    memcpy(v->part, mine, sizeof v->part);
    v->prof_ms = mine[P_COUNT], v->prof_it = prof->iterations, v->prof_rank = slowest.rank;
}

static int check_version(const spmv_run *run, const cg_system *s, const sys_info *si, int fixed,
                         const spmv_cg_result *host, version_result *v)
{
    int pass;
    if (v->end == CG_BREAKDOWN) {
        fprintf(stderr, "step8: breakdown at iteration %d: p.Ap <= 0, so the matrix is not positive definite "
                "(CG needs A symmetric positive definite)\n", v->iterations + 1);
        return 0;
    }
    if (v->end == CG_CONVERGED)
        printf("solve    converged in %d iterations: |r|/|b| = %.3g (the recurrence's) <= %.3g\n", v->iterations,
               v->rel, si->tol);
    else
        printf("solve    %d iterations%s: |r|/|b| = %.3g (the recurrence's)\n", v->iterations,
               fixed ? " (--tol 0)" : ", --maxiter reached", v->rel);
    if (v->restarts)
        printf("restarts %d, from r = b - A x (each costs a product and the iterations the recurrence then "
               "retakes; outside the timed iterations' median)\n", v->restarts);
    printf("true     |b - A x|/|b| = %.3g (rank 0, in double, from the gathered x)\n", v->truer);
    if (v->end == CG_CONVERGED) {
        pass = v->truer <= si->tol || (si->bb == 0 && v->truer == 0);
        printf("check    the true residual %s the tolerance %.3g\n", pass ? "meets" : "misses", si->tol);
    } else {
        double eps = s->single ? 0x1p-24 : 0x1p-53, floor_ = 100 * eps * sqrt((double)si->n);
        pass = fabs(v->truer - v->rel) <= 0.1 * v->rel + floor_;
        printf("check    the true residual %s the recurrence's within 10%% + %.2g\n", pass ? "follows" : "leaves",
               floor_);
    }
    int one = strcmp(v->kernel, "single") == 0;
    if (!fixed && v->end == CG_CONVERGED && host->end == CG_CONVERGED && one) {
        /* not a check: the host's CG is the classic recurrence, not this
         * one, whose derived p.Ap drifts further on an ill-conditioned A
         * (README: the rounding it costs); a solution the true residual
         * passes is correct however many iterations it took */
        int extra = v->iterations - host->iterations;
        printf("rounding single %d iterations against the host CG's %d: the rewrite costs %d (%+.0f%%)%s\n",
               v->iterations, host->iterations, extra, 100.0 * extra / (host->iterations ? host->iterations : 1),
               v->restarts ? ", its restarts included" : "");
    } else if (!fixed && v->end == CG_CONVERGED && host->end == CG_CONVERGED) {
        /* step 7's margins: the same recurrence as the host's, summed in
         * another order */
        int margin = s->single ? host->iterations / 2 + 10 : 5 + host->iterations / 10;
        int ok = abs(v->iterations - host->iterations) <= margin;
        printf("check    %d iterations, the host's CG in double %d: %s (margin %d, %s)\n", v->iterations,
               host->iterations, ok ? "agree" : "DISAGREE", margin, s->single ? "float: half the host's count + 10"
               : "double: 5 + 10%");
        pass = pass && ok;
    }
    fprintf(spmv_results(run), "check: %s\n", pass ? "PASS" : "FAIL");
    return pass;
}

static void report(const spmv_run *run, const version_result *v, int ranks)
{
    const double *p = v->part;
    double halo = p[P_HALO_READ] + p[P_HALO_MPI] + p[P_HALO_WRITE], red = p[P_RED_READ] + p[P_RED_MPI];
    double sum = p[P_KERNELS] + halo + red + p[P_HOST];
    FILE *out = spmv_results(run);
    fprintf(out, "time     %.4f ms an iteration (median, rank 0's clock; %d ranks), %.1f ms in all\n", v->ms, ranks,
            v->total_ms);
    fprintf(out, "split    kernels %.4f (the product %.4f of them) + halo %.4f (read %.4f, MPI %.4f, write %.4f) + "
            "reductions %.4f (read %.4f, allreduce %.4f) + host %.4f (launches and waits between the parts) = %.4f ms "
            "an iteration, %.0f%% of the profiled loop's %.4f (%d iterations, each part waited for and timed alone; "
            "rank %d's, the slowest)\n", p[P_KERNELS], p[P_PRODUCT], halo, p[P_HALO_READ], p[P_HALO_MPI],
            p[P_HALO_WRITE], red, p[P_RED_READ], p[P_RED_MPI], p[P_HOST], sum, 100 * sum / v->prof_ms, v->prof_ms,
            v->prof_it, v->prof_rank);
}

#define CSV_HEADER                                                                                          \
    "step,kernel,ranks,device,driver,matrix,rows,nnz,precision,iterations,converged,rel_residual,true_residual," \
    "tol,ms_per_iter,ms_total,prof_ms_per_iter,kernels_ms,halo_read_ms,halo_mpi_ms,halo_write_ms,"            \
    "reduce_read_ms,allreduce_ms,reductions,rows_max,ghosts_max,halo_values,check,date,git_rev,product_ms,"   \
    "host_ms,restarts"

/* One row of chapter 8's CSV (its own header: the parts of an iteration and
 * the split's sizes; rows_max, ghosts_max: the largest rank's; halo_values:
 * all ranks' ghosts, the values an exchange moves) */
static void write_csv(const char *csv, const version_result *v, const mpi_split *m, const spmv_cl *cl,
                      const cg_system *s, int tol0, const long long *sizes)
{
    FILE *f = spmv_csv_append(csv, CSV_HEADER);
    char date[32];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t));
    const double *p = v->part;
    int ok = v->pass;
    char drv[400];
    snprintf(drv, sizeof drv, "%s %s", cl->platform_name, cl->driver);
    fprintf(f, "step8,%s-n%d,%d,", v->kernel, m->size, m->size);
    spmv_csv_field(f, cl->device_name), fputc(',', f), spmv_csv_field(f, drv), fputc(',', f);
    spmv_csv_field(f, s->A.origin.name);
    fprintf(f, ",%d,%lld,%c,%d,%d,%.6g,%.6g,%.3g,", s->n, s->A.nnz, s->p, v->iterations,
            v->end == CG_CONVERGED && !tol0, v->rel, v->truer, tol0 ? 0 : s->tol);
    if (ok)
        fprintf(f, "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,", v->ms, v->total_ms, v->prof_ms, p[P_KERNELS],
                p[P_HALO_READ], p[P_HALO_MPI], p[P_HALO_WRITE], p[P_RED_READ], p[P_RED_MPI]);
    else
        fprintf(f, ",,,,,,,,,");
    fprintf(f, "%d,%lld,%lld,%lld,%s,%s,%s,", strcmp(v->kernel, "single") == 0 ? 1 : 2, sizes[0], sizes[1], sizes[2],
            ok ? "PASS" : "FAIL", date, spmv_git_rev());
    if (ok)
        fprintf(f, "%.6g,%.6g", p[P_PRODUCT], p[P_HOST]);
    else
        fprintf(f, ",");
    fprintf(f, ",%d\n", v->restarts);
    if (fclose(f) != 0)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s", csv);
}

/* ---- the program ---- */

/* This process's rank as the launcher set it before MPI_Init (Open MPI,
 * PMIx, MPICH's PMI); 0 run alone */
static int launch_rank(void)
{
    const char *v[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK" };
    for (int i = 0; i < 3; i++)
        if (getenv(v[i]))
            return atoi(getenv(v[i]));
    return 0;
}

int main(int argc, char **argv)
{
    /* 1. Options (rank 0 speaks: the others' output goes nowhere, and their
     * errors too while they parse the same command line; before MPI_Init,
     * so that --help and a bad option end every rank at once), MPI, devices */
    mpi_split m = { 0 };
    int err_fd = dup(STDERR_FILENO);
    if (launch_rank() != 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
        return SPMV_EXIT_USAGE;
    spmv_run ctx;   /* the run's context (run.h); run is a solve's, below */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &ctx);
    if (o.x_file)
        spmv_die(SPMV_EXIT_USAGE, "--x is the product's input in the other steps; the right-hand side of step8's "
                 "system is --b FILE");
    if (o.history)
        spmv_die(SPMV_EXIT_USAGE, "--history: step8 keeps no residual history (step7 --kernel plain --history does)");
    if (o.group && (o.group & (o.group - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d is not a power of two (try 2, 4, 8, 16 or 32)", o.group);
    if (err_fd >= 0)
        dup2(err_fd, STDERR_FILENO), close(err_fd);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m.size);
    if (!o.matrix && !o.gen && !o.grid_set)
        o.gen = "poisson:nx=256";
    spmv_cl cl;
    int local_rank, local_size;
    open_device(&ctx, &o, &cl, m.rank, &local_rank, &local_size);

    /* 2. The system on rank 0, the host's CG there; each rank its rows */
    cg_system s = { 0 };
    sys_info si;
    read_and_split(&o, &cl, &s, &m, &si);
    int fixed = o.tol_set && o.tol == 0, n = si.n;
    int maxiter = o.maxiter ? o.maxiter : (n < INT_MAX / 10 ? 10 * (n > 10 ? n : 10) : INT_MAX - 1);
    spmv_cg_result host = { 0 };
    spmv_error err;
    double *xall = NULL, *xh = NULL, *xl = spmv_alloc((size_t)m.nloc, sizeof *xl, "this rank's x", &err);
    if (m.rank == 0) {
        printf("b        %s, |b| = %.6g; x0 = 0%s\n", o.b_file ? o.b_file : "seeded random in [-1, 1)", sqrt(si.bb),
               fixed ? "; --tol 0: exactly --maxiter iterations, a timing run" : "");
        xall = xl ? spmv_alloc((size_t)n, sizeof *xall, "x gathered", &err) : NULL;
        xh = xall ? spmv_alloc((size_t)n, sizeof *xh, "host CG x", &err) : NULL;
        if (!xh)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        spmv_cg_host_count(&s, fixed, maxiter, xh, &host);
    }
    if (!xl)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    describe_ranks(&m, &cl);

    /* 3. Device buffers: this rank's rows of A, b, the vectors (those the
     * product reads with room for their ghosts) */
    int gpu = (cl.type & CL_DEVICE_TYPE_GPU) != 0, vsize = spmv_prec_value_size(si.p);
    dv d = { .cl = &cl, .m = &m, .single = si.p == 's', .vsize = vsize, .vt = vsize == 4 ? MPI_FLOAT : MPI_DOUBLE,
             .gpu = gpu };

    /* 4. Program and kernels: step 7's kernel.cl, this step's, chapter 6's,
     * as one program; the product chapter 6's rule picks */
    int group, unroll, vector = product_choice(&o, &si.st, gpu, vsize, &group, &unroll);

    /* 5. Work sizes */
    setup_sizes(&d, &o, vector, group, gpu);
    make_buffers(&d);
    cl_program prog = build_program(&d, &o, si.p, vector, group, unroll, gpu);
    bind_args(&d);
    if (m.rank == 0)
        printf("spmv     chapter 6's csr_%s, work-groups of %zu: the interior rows first (%d, whole work-groups), "
               "then the rest from a global offset\n", vector ? "vector" : "scalar", d.spmv_local, d.ni);

    /* 6. Each version: a warm-up, the profiled loop, the solve timed */
    version_result res[2];
    int nv = 0, status = SPMV_EXIT_PASS;
    for (int one = 0; one < 2; one++) {
        const char *vname = one ? "single" : "classic";
        if (strcmp(o.variant, "all") != 0 && strcmp(o.variant, vname) != 0)
            continue;
        d.one = one;
        if (m.rank == 0)
            printf("==== %s\ncg       %s\n", vname, one ? "single: one MPI_Allreduce an iteration (r.r and w.r "
                   "together), one halo exchange (of r); 11 sweeps" : "classic: two MPI_Allreduce an iteration "
                   "(p.Ap, then r.r), one halo exchange (of p); 10 sweeps");
        cg_run run = { 0 }, prof = { 0 };
        run.capit = maxiter < (1 << 20) ? maxiter + 1 : 1 << 20;
        run.it_ms = spmv_alloc((size_t)run.capit, sizeof *run.it_ms, "iteration times", &err);
        if (!run.it_ms)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        version_result *v = &res[nv++];
        *v = (version_result){ .kernel = vname };
        v->restarts = solve(&d, &s, fixed ? 0 : si.tol, maxiter, xl, xall, &v->truer, &run, &prof);
        gather_parts(&d, &prof, v);

        /* 7. Check on rank 0 (the true residual, the count against the
         * host's CG), the verdict sent to every rank */
        v->iterations = run.iterations, v->end = run.end, v->total_ms = run.total_ms;
        v->rel = si.bb > 0 ? sqrt(run.rr / si.bb) : 0;
        double min;
        if (run.nit > 0)
            spmv_stats(run.it_ms, run.nit, &v->ms, &min);
        if (m.rank == 0) {
            v->pass = check_version(&ctx, &s, &si, fixed, &host, v);
            if (v->pass && run.nit > 0)
                report(&ctx, v, m.size);
            if (v->pass && o.save_x) {
                char comment[600];
                snprintf(comment, sizeof comment, "x of step8 (%s, %d ranks) on %s, %d iterations, |b-Ax|/|b| = %.3g, "
                         "%s", vname, m.size, s.A.origin.name, v->iterations, v->truer, spmv_prec_words(d.single, 0));
                spmv_save_vector(o.save_x, "--save-x", xall, n, d.single, comment);
            }
        }
        MPI_Bcast(&v->pass, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!v->pass)
            status = SPMV_EXIT_FAIL;
        else if (run.end == CG_MAXITER && !fixed && status == SPMV_EXIT_PASS)
            status = EXIT_MAXITER;
        free(run.it_ms);
    }

    /* 8. The rows (rank 0), the iteration counts side by side; release */
    long long mine[3] = { m.nloc, m.nghost, m.nghost }, sizes[3];
    MPI_Reduce(mine, sizes, 2, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine[2], &sizes[2], 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (m.rank == 0) {
        if (nv == 2 && res[0].end == CG_CONVERGED && res[1].end == CG_CONVERGED)
            fprintf(spmv_results(&ctx), "rounding classic %d iterations, single %d: the rewrite costs %d\n",
                    res[0].iterations, res[1].iterations, res[1].iterations - res[0].iterations);
        for (int i = 0; o.csv && i < nv; i++)
            write_csv(o.csv, &res[i], &m, &cl, &s, fixed, sizes);
    }
    release(&d, prog);
    spmv_cl_close(&cl);
    if (m.rank == 0) {
        spmv_cg_result_free(&host);
        free(s.val), free(s.bd), free(s.b), free(xh), free(xall);
        csr_free(&s.A);
    }
    free(xl);
    split_free(&m);
    MPI_Finalize();
    return status;
}
