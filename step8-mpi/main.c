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
 * version, one in the single version (Chronopoulos and Gear). After it,
 * each rank's product runs once more, checked as step 7's is, and rank 0
 * checks the x it gathers: the true residual in double, the count against
 * the host's CG. Exit status as step 7's (0 solved, 1 check failed or
 * breakdown, 2 bad input, 3 skipped, 4 --maxiter reached), every rank's.
 *
 * This file is the lesson: each version's iteration, the product with its
 * halo, the reductions, the solve, and main() in step 7's sections. Beside
 * it: each rank's device and rows (device/), the profiled loop's parts
 * (profile/), the check and the CSV (report/), the rows' split (split/).
 */
#include "../step7-cg/reference/cg.h"
#include "../step7-cg/reference/system.h"
#include "../step7-cg/device/sizes.h"
#include "../step7-cg/report/check.h"
#include "device/device.h"
#include "device/ranks.h"
#include "profile/profile.h"
#include "report/report.h"
#include "split/split.h"
#include "precision.h"
#include "spmv.h"

#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    .refusals = CG_REFUSALS("step8"),
    .exit_statuses = CG_EXIT_STATUSES "; every rank the same",
    .holds = { .part = "the adaptive plan", .part_row = 1, .part_nnz = 1 },   /* chapter 6's allowance (capacity.h) */
};

#define PROFILE_ITERATIONS 32   /* the split: this many iterations, each part timed alone */
#define WARMUP_ITERATIONS 3
#define MAX_RESTARTS 10

static void launch(dv *d, int i)
{
    device_launch(d, i, 0, d->global[i], NULL, NULL);
}

/* The product with its halo and the reduction over the ranks, below the loops */
static void product(dv *d, cl_mem v, cl_mem out);
static void reduce(dv *d, cl_mem a, int at_a, int na, cl_mem b, int at_b, int nb, double *sums);

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
            device_launch(d, K_PACK, 0, d->global[K_PACK], NULL, &packed);
        }
        t = now_ms();
        CL_CHECK(clEnqueueReadBuffer(d->xq, from, CL_FALSE, at, (size_t)m->send_total * d->vsize, d->sendh, 1,
                                     &packed, &got));
        CL_CHECK(clFlush(d->xq));
        clReleaseEvent(packed);
        profile_part(&d->parts, P_HALO_READ, t, got);
    }
    if (d->ni > 0) {   /* 1. the interior rows */
        CL_CHECK(clSetKernelArg(ks, 0, sizeof d->ni, &d->ni));
        device_launch(d, K_SPMV, 0, (size_t)d->ni * d->lanes, NULL, NULL);
    }
    CL_CHECK(clFlush(d->cl->queue));
    if (got)   /* 2. the exchange, while they run */
        device_wait(d, got), clReleaseEvent(got);
    if (m->size > 1) {
        t = now_ms();
        split_exchange(m, d->sendh, d->ghosth, d->vt);
        profile_part(&d->parts, P_HALO_MPI, t, NULL);
        if (m->nghost) {   /* into their own buffer, then after v's own entries: d8_unpack */
            t = now_ms();
            CL_CHECK(clEnqueueWriteBuffer(d->xq, d->ghostb, CL_FALSE, 0, (size_t)m->nghost * d->vsize, d->ghosth, 0,
                                          NULL, &wrote));
            CL_CHECK(clFlush(d->xq));
            profile_part(&d->parts, P_HALO_WRITE, t, wrote);
            CL_CHECK(clSetKernelArg(d->k[K_UNPACK], 3, sizeof v, &v));
            device_launch(d, K_UNPACK, 0, d->global[K_UNPACK], wrote, NULL);
            clReleaseEvent(wrote);
        }
    }
    if (d->ni < m->nloc) {   /* 3. the boundary rows, from a global offset */
        CL_CHECK(clSetKernelArg(ks, 0, sizeof m->nloc, &m->nloc));
        size_t offset = (size_t)d->ni * d->lanes;
        size_t global = spmv_round_up((size_t)m->nloc * d->lanes - offset, d->spmv_local);
        device_launch(d, K_SPMV, offset, global, NULL, NULL);
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
    device_wait(d, got);
    clReleaseEvent(got);
    for (int j = 0; j < nsum; j++)
        sums[j] = d->single ? ((float *)d->sumsh)[j] : ((double *)d->sumsh)[j];
    profile_part(&d->parts, P_RED_READ, t, NULL);
    t = now_ms();
    MPI_Allreduce(MPI_IN_PLACE, sums, nsum, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    profile_part(&d->parts, P_RED_MPI, t, NULL);
}

/* A start: from x = 0 (r = b), or a restart from the current x (r = b - A x,
 * p = r); r.r summed over the ranks; the single version also w = A r, w.r,
 * and its first alpha */
static void start(dv *d, int from_x, cg_run *run)
{
    if (!from_x) {
        device_write(d, d->x, NULL, 1);
        device_write(d, d->r, d->m->b, 1);
        device_write(d, d->p, d->one ? NULL : d->m->b, 1);
        if (d->one)
            device_write(d, d->s, NULL, 0);
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

static void run_solve(dv *d, int maxiter, double thresh, cg_run *run)
{
    if (d->one)
        solve_single(d, maxiter, thresh, run);
    else
        solve_classic(d, maxiter, thresh, run);
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
    start(d, 0, prof);
    profile_begin(&d->parts);
    run_solve(d, pi, -1, prof);
    prof->total_ms = profile_end(&d->parts, d->cl->queue);
    double thresh = tol * tol * s->bb;
    MPI_Bcast(&thresh, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    start(d, 0, run);
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now_ms();
        run_solve(d, maxiter, thresh, run);
        CL_CHECK(clFinish(d->cl->queue));
        run->total_ms += now_ms() - t0;
        device_read_x(d, xl);
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

int main(int argc, char **argv)
{
    /* 1. Options (rank 0 speaks: the others' output goes nowhere, and their
     * errors too while they parse the same command line; before MPI_Init,
     * so that --help and a bad option end every rank at once), MPI, devices */
    mpi_split m = { 0 };
    int err_fd = dup(STDERR_FILENO);
    if (ranks_launcher_rank() != 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
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
    ranks_open_device(&ctx, &o, &cl, m.rank, &local_rank, &local_size);

    /* 2. The system on rank 0, the host's CG there; each rank its rows
     * (device/ranks.h, split/split.h) */
    cg_system s = { 0 };
    sys_info si;
    ranks_read_and_split(&STEP, &o, &cl, &s, &m, &si);
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
            spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
        spmv_cg_host_count(&s, fixed, maxiter, xh, &host);
    }
    if (!xl)
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    ranks_describe(&m, &cl);

    /* 3. Work sizes (step7-cg/device/sizes.h): the product chapter 6's rule
     * picks, every rank the same from the whole matrix's rows, its interior
     * launch in whole work-groups; the vector kernels a few work-groups per
     * compute unit; d8_sums one work-group */
    int gpu = (cl.type & CL_DEVICE_TYPE_GPU) != 0, vsize = spmv_prec_value_size(si.p);
    dv d = { .cl = &cl, .m = &m, .single = si.p == 's', .vsize = vsize, .vt = vsize == 4 ? MPI_FLOAT : MPI_DOUBLE,
             .gpu = gpu };
    int group, unroll, vector = cg_product_choice(STEP.name, &o, &si.st, gpu, vsize, &group, &unroll);
    device_sizes(&d, &o, vector, group, gpu);

    /* 4. Device buffers: this rank's rows of A, b, the vectors (those the
     * product reads with room for their ghosts), the halo's and the sums'
     * in pinned host memory; the halo's queue */
    device_buffers(&d);

    /* 5. Program, kernels and their arguments: step 7's kernel.cl, this
     * step's, chapter 6's, as one program */
    cl_program prog = device_program(&d, &o, si.p, vector, group, unroll, gpu);
    if (m.rank == 0)
        printf("spmv     chapter 6's csr_%s, work-groups of %zu: the interior rows first (%d, whole work-groups), "
               "then the rest from a global offset\n", vector ? "vector" : "scalar", d.spmv_local, d.ni);

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

        /* 6. Run each version: a warm-up, the profiled loop (its parts, the
         * slowest rank's), the solve timed */
        cg_run run = { 0 }, prof = { 0 };
        run.capit = maxiter < (1 << 20) ? maxiter + 1 : 1 << 20;
        run.it_ms = spmv_alloc((size_t)run.capit, sizeof *run.it_ms, "iteration times", &err);
        if (!run.it_ms)
            spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
        version_result *v = &res[nv++];
        *v = (version_result){ .kernel = vname };
        v->restarts = solve(&d, &s, fixed ? 0 : si.tol, maxiter, xl, xall, &v->truer, &run, &prof);
        v->prof = profile_gather(&d.parts, m.rank, prof.iterations, prof.total_ms);

        /* 7. Check: every rank's product once more (a seeded random p), then on rank 0
         * the true residual and the count against the host's CG; the verdict to every rank */
        report_result(v, &run, si.bb);
        report_product(&d, product, &s, v);
        v->pass = report_check(&ctx, &o, &s, &si, fixed, &host, xall, &m, v);
        status = cg_exit_status(status, v->pass, run.end, fixed);
        free(run.it_ms);
    }

    /* 8. Report: the iteration counts side by side, the rows (rank 0);
     * release */
    report_rows(&ctx, &o, res, nv, &m, &cl, &s, fixed);
    device_release(&d, prog);
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
