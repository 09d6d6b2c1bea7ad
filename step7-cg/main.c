/* step7-cg/main.c - host program of chapter 7: SpMV at work, a conjugate
 * gradient solver on chapter 6's CSR kernels, plain, fused and pipelined.
 *
 *   make step7 run                                        the default Poisson matrix, every version
 *   build/step7 --gen poisson:nx=1024 --kernel pipelined  one version
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
 * before --tol (report/check.h).
 *
 * This file is the lesson: the commands, the reduction, each version's
 * iteration (solve_plain; solve_fused, fused and pipelined), the solve around them, and main()
 * in every step's sections, the work sizes before the buffers they size.
 * Beside it: the device's setup (device/: sizes, buffers, programs,
 * arguments), the split's events (profile/), the check, the row and the
 * saved files (report/), the host's CG and the system (reference/).
 */
#include "device/device.h"
#include "device/sizes.h"
#include "profile/profile.h"
#include "reference/cg.h"
#include "reference/system.h"
#include "report/check.h"
#include "report/report.h"
#include "report/row.h"
#include "spmv.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "step7",
    .title = "a conjugate-gradient solver on chapter 6's CSR kernels: plain (a kernel per operation), fused and "
             "pipelined",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "plain,fused,pipelined,all",
    .default_variant = "all",
    .takes = OPT_DEVICE | OPT_OPENCL | OPT_PRECISION | OPT_GROUP | OPT_CG | OPT_SOLUTION,
    .model_bytes = 0,   /* the bound is bytes per iteration (report/row.h) */
    .default_matrix = "--gen poisson:nx=256, the 5-point Laplacian on a 256 x 256 grid",
    .precisions = "sd",
    .defaults = (const spmv_note[]){ { "--local-size", "256" },
                                     { "--group-size", "from the rows' mean length" },
                                     { "--check-every", "sqrt(n) / 32, from 1 to 32; fused and pipelined only" },
                                     { NULL, NULL } },
    .refusals = CG_REFUSALS("step7"),
    .exit_statuses = CG_EXIT_STATUSES,
    /* the chapter's own option (its default in .defaults) */
    .own = (const spmv_option[]){ { .name = "--check-every", .arg = "K", .after = "--maxiter",
                                    .help = "read the residual back every K iterations", .kind = SPMV_OWN_NUMBER,
                                    .lo = 1, .hi = 1000000 },
                                  { NULL } },
    /* the host's estimate (capacity.h): the allowance chapter 6 makes for its
     * adaptive plan, 1 byte a row and 1 a nonzero (this step makes no plan) */
    .holds = { .part = "the adaptive plan", .part_row = 1, .part_nnz = 1 },
};

#define PROFILE_ITERATIONS 32   /* the split: this many iterations, or two of fused's blocks if more, profiled */
#define PROFILE_ROUNDS 5        /* ...in rounds, each followed by the same loop without events: medians */
#define WARMUP_ITERATIONS 3     /* untimed, before them: the first launches compile and page in */
#define MAX_RESTARTS 10         /* then the precision cannot reach --tol on this matrix: said so */

/* A kernel of the loop, its event kept while the split records the loop */
static void launch(cg_dev *d, int i)
{
    CL_CHECK(clEnqueueNDRangeKernel(d->cl->queue, d->k[i], 1, NULL, &d->global[i], &d->local[i], 0, NULL,
                                    profile_event(&d->profile, i == K_SPMV ? C_PRODUCT : C_VECTOR)));
}

/* A blocking read: the host waits for every command before it */
static void read_back(cg_dev *d, cl_mem buf, size_t offset, size_t bytes, void *dst)
{
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, buf, CL_TRUE, offset, bytes, dst, 0, NULL,
                                 profile_event(&d->profile, C_READ)));
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
static double outside_sum(cg_dev *d, cl_mem part, void *tmp)
{
    int rec = d->profile.rec;
    d->profile.rec = 0;
    double s = read_sum(d, part, d->ng, tmp);
    d->profile.rec = rec;
    return s;
}

static double now_ms(void)
{
    return spmv_now() * 1e3;
}

/* plain: alpha and beta on the host, from two blocking reads an iteration.
 * thresh < 0: no convergence test (the warm-up). */
static void solve_plain(cg_dev *d, int maxiter, double thresh, void *tmp, cg_run *run)
{
    double rr = outside_sum(d, d->part, tmp);   /* r.r = b.b from reset's dot, before the loop */
    run->end = CG_MAXITER;
    double t0 = now_ms(), tb = t0;
    int it = run->iterations;   /* after a restart, the count goes on */
    for (;; it++) {
        report_residual(run, it, d->bb > 0 ? sqrt(rr / d->bb) : 0);   /* after a restart: the true residual */
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

/* fused and pipelined: the device runs on alone; the host reads its state
 * every k iterations */
static void solve_fused(cg_dev *d, int maxiter, double thresh, int k, void *tmp, cg_run *run)
{
    if (d->persist)
        spmv_cl_arg_value(d->k[K_PERSIST], 2, d->single, thresh < 0 ? -1.0 : thresh);
    if (d->pipelined)
        for (int i = 0; i < 2; i++)
            spmv_cl_arg_value(d->k[K_PIPE_A + i], 9, d->single, thresh < 0 ? -1.0 : thresh);
    else
        spmv_cl_arg_value(d->k[K_ALPHA], 5, d->single, thresh < 0 ? -1.0 : thresh);
    int ph = 0;   /* pipelined: 0, the r.r partials are read from part (written to part2); 1, the other way */
    int state[2] = { 0, 0 };
    run->end = CG_MAXITER;
    double t0 = now_ms();
    int launched = run->launched;   /* after a restart, the count goes on */
    while (launched < maxiter) {
        int kk = maxiter - launched < k ? maxiter - launched : k;
        double tb = now_ms();
        if (d->persist) {   /* (CG_PERSIST) the block's kk iterations in one launch */
            CL_CHECK(clSetKernelArg(d->k[K_PERSIST], 1, sizeof kk, &kk));
            launch(d, K_PERSIST);
        } else {
            for (int j = 0; j < kk; j++) {
                if (d->pipelined) {
                    launch(d, K_SPMV);           /* q = A p, and the partials of p.q and q.q */
                    launch(d, K_PIPE_A + ph);    /* the tests, alpha, beta; x, r, p, and the partials of r.r */
                    ph ^= 1;
                } else {
                    launch(d, K_SPMV);     /* q = A p, and the partials of p.q */
                    launch(d, K_ALPHA);    /* the tests, alpha */
                    launch(d, K_UPD_R);    /* r -= alpha q, and the partials of r.r */
                    launch(d, K_UPD_XP);   /* beta; x += alpha p; p = r + beta p */
                }
                clFlush(d->cl->queue);
            }
        }
        read_back(d, d->state, 0, sizeof state, state);
        launched += kk;
        if (run->nblocks < run->capblocks)
            run->block_ms[run->nblocks++] = (now_ms() - tb) / kk;
        if (state[0] != 0)
            break;
    }
    run->total_ms += now_ms() - t0;
    if (d->persist) {
        int bar[3];
        read_back(d, d->bar, 0, sizeof bar, bar);
        if (bar[2])
            spmv_die(SPMV_EXIT_RESOURCES, "cg_persist: a work-group waited at the grid's barrier past its limit: "
                     "this device did not run every work-group at once");
    }
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
        run->rr = outside_sum(d, ph ? d->part2 : d->part, tmp);
        if (thresh >= 0 && run->rr <= thresh)
            run->end = CG_CONVERGED;
    }
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
    if (d->last_group) {   /* the counts of the product's work-groups done, after their pairs and sums */
        size_t nb = CG_PAIR_BLOCKS(d->npq), at = (size_t)d->n + 2 * (size_t)d->npq + 2 * nb + 2;
        memset(tmp, 0, (nb + 1) * d->vsize);
        CL_CHECK(clEnqueueWriteBuffer(q, d->q, CL_TRUE, at * d->vsize, (nb + 1) * d->vsize, tmp, 0, NULL, NULL));
    }
    CL_CHECK(clSetKernelArg(d->k[K_DOT], 1, sizeof d->r, &d->r));
    CL_CHECK(clSetKernelArg(d->k[K_DOT], 2, sizeof d->r, &d->r));
    launch(d, K_DOT);
    (void)read_sum(d, d->part, d->ng, tmp);   /* and wait for it all */
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

/* A warm-up of a few iterations; the split over a few more, each command
 * profiled (prof: their loop on the host's clock); then the solve from
 * x = 0 (run), timed on the host's clock alone, for events cost time: where
 * the recurrence meets --tol but b - A x does not, a restart from there. x
 * comes back in xd. Returns the restarts. */
static int solve(cg_dev *d, const spmv_options *o, const cg_system *s, int maxiter, int k, double *xd,
                 void *tmp, cg_run *run, cg_run *prof)
{
    int fixed = o->tol_set && o->tol == 0, restarts = 0;
    report_start(run, o, d->fused, maxiter);
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
    /* the split: the same loop, an event on every command (no test: it
     * runs them all), then without events, in turn, a few rounds from x = 0;
     * the round of median span is kept, beside the median without events */
    int pi = PROFILE_ITERATIONS > 2 * k ? PROFILE_ITERATIONS : 2 * k;
    pi = pi < maxiter ? pi : maxiter;
    int rounds = maxiter / pi < PROFILE_ROUNDS ? (maxiter / pi > 1 ? maxiter / pi : 1) : PROFILE_ROUNDS;
    double blk[2 * PROFILE_ITERATIONS + 65], dev[PROFILE_ROUNDS], bare[PROFILE_ROUNDS];
    cg_split kept[PROFILE_ROUNDS];
    cg_run pr[PROFILE_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        cg_run un = { .block_ms = blk, .capblocks = 2 * PROFILE_ITERATIONS + 65 };
        pr[r] = un;
        reset(d, tmp);
        for (int with = 1; with >= 0; with--) {   /* with events, then without */
            cg_run *c = with ? &pr[r] : &un;
            profile_record(&d->profile, with);
            if (d->fused)
                solve_fused(d, pi, -1, k, tmp, c);
            else
                solve_plain(d, pi, -1, tmp, c);
        }
        profile_record(&d->profile, 0);
        kept[r] = d->profile.split;
        dev[r] = profile_span(&kept[r]) / (pr[r].launched > 0 ? pr[r].launched : 1);
        bare[r] = un.total_ms / (un.launched > 0 ? un.launched : 1);
    }
    double spread[3];
    int m = profile_median(dev, rounds, spread);
    *prof = pr[m];
    prof->block_ms = NULL, prof->rounds = rounds;
    memcpy(prof->dev_ms, spread, sizeof spread);
    profile_median(bare, rounds, prof->bare_ms);
    d->profile.split = kept[m];
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
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    spmv_cg_host_count(&s, fixed, maxiter, xh, &host);

    /* 3. Work sizes (device/sizes.h): the product chapter 6's rule chooses,
     * a row per work-item (or a group per row); the vector kernels a few
     * work-groups per compute unit, striding; cg_alpha one work-group */
    int gpu = (cl.type & CL_DEVICE_TYPE_GPU) != 0;   /* oclgrind's simulator too: the GPU path under its checks */
    cg_dev d = { .cl = &cl, .n = n, .vsize = s.vsize, .single = s.single, .bb = s.bb, .bhost = s.bd };
    int group, unroll, vector = cg_product_choice(STEP.name, &o, &s.st, gpu, s.vsize, &group, &unroll);
    device_sizes(&d, &o, vector, group, unroll, gpu);

    /* 4. Device buffers: the matrix as chapter 6 stores it, b, CG's x, r,
     * p, q and the partials of the dots; tmp, the host's to read them into */
    void *tmp = device_buffers(&d, &s);

    spmv_cg_row rows[3];
    int nv = 0, status = SPMV_EXIT_PASS;
    spmv_probe *probe = spmv_probe_open(&cl, 0);
    for (int v = 0; v < 3; v++) {   /* plain, fused, pipelined */
        d.fused = v >= 1, d.pipelined = v == 2;
        const char *vname = CG_VERSION_NAME(&d);
        if (strcmp(o.variant, "all") != 0 && strcmp(o.variant, vname) != 0)
            continue;
        printf("==== %s\n", vname);

        /* 5. Each version's program and kernels, their arguments: this
         * step's kernel.cl, then chapter 6's, as one program (-DCG_FUSED
         * turns on the hook in chapter 6's kernels) */
        cl_program prog = device_program(&d, &o, s.p, vector, group, unroll, gpu);
        int k = d.fused ? spmv_own_int(&o, "--check-every", (int)fmin(32, fmax(1, sqrt((double)n) / 32))) : 1;
        device_describe(&d, k, spmv_own_int(&o, "--check-every", 0));

        /* 6. Run: a warm-up, a profiled loop for the split, the solve from
         * x = 0 timed without events */
        cg_run run = { 0 }, prof = { 0 };
        int restarts = solve(&d, &o, &s, maxiter, k, xd, tmp, &run, &prof);

        /* 7. Check on the host (the true residual, the count against the
         * host's CG or, at --tol 0, r against b - A x) and keep the result */
        spmv_cg_row *row = &rows[nv++];
        int pass = report_check(&d, &s, &run, k, restarts, fixed, &host, xd, tmp, row);
        report_save(&o, pass, vname, &s, &run, xd, row->true_residual);
        if (run.end == CG_BREAKDOWN)
            nv--;   /* no time, no row */
        else
            report_times(row, &d, &run, &prof);
        status = cg_exit_status(status, pass, run.end, fixed);
        for (int i = 0; probe && i < SPMV_PROBE_MIN_SAMPLES; i++)
            spmv_probe_sample(probe);
        free(run.block_ms), free(run.hist);
        device_release_program(&d, prog);
    }

    /* 8. Report (report/row.h): every version against the one bandwidth
     * the probe measured after each version's solve; then release */
    spmv_bandwidth bw = probe ? spmv_probe_finish(probe) : (spmv_bandwidth){ 0 };
    if (nv)
        spmv_bandwidth_print(&bw);
    for (int i = 0; i < nv; i++) {
        rows[i].bw_gbs = bw.gbs;
        spmv_cg_report(&ctx, &rows[i], o.csv);
    }
    device_release(&d);
    spmv_cl_close(&cl);
    spmv_cg_result_free(&host);
    free(tmp), free(s.val), free(s.bd), free(s.b), free(xh), free(xd);
    csr_free(&s.A);   /* its values: the host's double copy */
    return status;
}
