/* step9-pcg/main.c - host program of chapter 9: preconditioned CG. Chapter
 * 7's fused CG with z = M^-1 r in its loop: M = diag(A) (Jacobi) or
 * L L^T, the incomplete Cholesky factor IC(0), whose triangular solves run
 * on the device by levels, in natural order or after a multicolor ordering,
 * or approximately by a few Jacobi sweeps.
 *
 *   make step9 run                                        Poisson 256², every version, the time-to-solution table
 *   build/step9 --matrix tests/data/bcsstk13.mtx --precision d
 *   build/step9 --gen poisson:nx=1024 --kernel ic0-color
 *   build/step9 --matrix tests/data/494_bus.mtx --precision d --kernel ic0-sweeps --sweeps 4
 *
 * Solves A x = b (A symmetric positive definite) from x = 0 to |r|/|b| <=
 * --tol, as chapter 7 does, with each version; checks each answer on the
 * host (the true residual in double, the product once more, the factor and
 * the triangular solves); prints each version's iterations, setup and solve
 * time side by side. Exit status: 0 solved and checked, 1 a check failed or a
 * breakdown, 2 bad input (or no incomplete factor), 3 skipped, 4 --maxiter
 * before --tol.
 *
 * This file is the lesson: the preconditioner's apply (the triangular
 * solves' launches), the iteration, the solve around it, and main() in every
 * step's sections. Beside it: the preconditioner's setup, the sizes, buffers
 * and program (device/), IC(0), the levels and the coloring on the host
 * (factor/), the checks, the table and the row (report/).
 */
#include "../step7-cg/reference/system.h"
#include "../step7-cg/report/check.h"
#include "device/device.h"
#include "report/report.h"
#include "spmv.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pcg_version VERSIONS[] = {
    { "cg", PC_NONE, 0, FORM_LEVELS, "no preconditioner: chapter 7's fused CG" },
    { "jacobi", PC_JACOBI, 0, FORM_LEVELS, "M = diag(A), applied inside the updates" },
    { "ic0", PC_SOLVE, 0, FORM_LEVELS, "IC(0), natural order, exact solves by levels" },
    { "ic0-color", PC_SOLVE, 1, FORM_LEVELS, "IC(0) after a multicolor ordering: a level a color" },
    { "ic0-sweeps", PC_SOLVE, 0, FORM_SWEEPS, "IC(0), natural order, each solve approximated by Jacobi sweeps" },
    { "ic0-syncfree", PC_SOLVE, 0, FORM_SYNCFREE, "IC(0), natural order, exact solves, each row waiting on the values it reads" },
    { "ic0-persistent", PC_SOLVE, 0, FORM_PERSISTENT, "IC(0), natural order, the whole loop in one work-item: a launch every K iterations" },
};
#define NVERSIONS ((int)(sizeof VERSIONS / sizeof *VERSIONS))

static const spmv_step STEP = {
    .name = "step9",
    .title = "preconditioned CG: Jacobi and incomplete Cholesky, the triangular solve on the device",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "cg,jacobi,ic0,ic0-color,ic0-sweeps,ic0-syncfree,ic0-persistent,all",
    .default_variant = "all",
    .takes = OPT_DEVICE | OPT_OPENCL | OPT_PRECISION | OPT_GROUP | OPT_CG | OPT_SOLUTION,
    .default_matrix = "--gen poisson:nx=256, the 5-point Laplacian on a 256 x 256 grid",
    .precisions = "sd",
    .defaults = (const spmv_note[]){ { "--check-every", "sqrt(n) / 32, from 1 to 32 (cg, jacobi); 1 (IC(0)); "
                                       "256 (ic0-persistent)" },
                                     { "--sweeps", "3" },
                                     { "--wide", "4096 rows on a CPU, 8 x the chain's work-group on a GPU" },
                                     { NULL, NULL } },
    .refusals = CG_REFUSALS("step9"),
    .exit_statuses = CG_EXIT_STATUSES,
    .own = (const spmv_option[]){
        { .name = "--check-every", .arg = "K", .after = "--maxiter", .help = "read the state back every K iterations",
          .kind = SPMV_OWN_NUMBER, .lo = 1, .hi = 1000000 },
        { .name = "--sweeps", .arg = "S", .after = "--check-every",
          .help = "ic0-sweeps: Jacobi sweeps a triangular solve, after y = D^-1 v", .kind = SPMV_OWN_NUMBER,
          .lo = 0, .hi = 1000 },
        { .name = "--wide", .arg = "ROWS", .after = "--sweeps",
          .help = "a level of at least ROWS rows gets its own launch; narrower ones are chained",
          .kind = SPMV_OWN_NUMBER, .lo = 1, .hi = INT_MAX },
        { .name = "--trsv-csv", .arg = "FILE", .after = "--csv",
          .help = "append a row for L's solve alone (its time, its levels) to FILE", .kind = SPMV_OWN_PATH },
        { .name = "--kappa", .arg = "M", .after = "--wide",
          .help = "estimate kappa(M^-1 A) from the first M iterations' alpha and beta (Lanczos)",
          .kind = SPMV_OWN_NUMBER, .lo = 2, .hi = 100000 },
        { NULL } },
    .holds = { .part = "the incomplete factor and its levels", .part_row = 24, .part_nnz = 12 },
};

#define WARMUP_ITERATIONS 3
#define MAX_RESTARTS 10

/* One launch; while d->ev_first is set (report.c's timing of the apply),
 * its event is kept: the first command's and the last's */
static void launch(pcg_dev *d, int i, size_t global)
{
    cl_event e = NULL;
    CL_CHECK(clEnqueueNDRangeKernel(d->cl->queue, d->k[i], 1, NULL, &global, &d->local[i], 0, NULL,
                                    d->ev_first ? &e : NULL));
    if (!e)
        return;
    if (!*d->ev_first)
        *d->ev_first = e;
    else {
        if (*d->ev_last)
            CL_CHECK(clReleaseEvent(*d->ev_last));
        *d->ev_last = e;
    }
}

/* T y = v on the device, exactly: each scheduled run of levels one launch,
 * a chain (one work-group, a barrier between levels) or one wide level
 * (a work-item a row). v and y are never the same buffer. */
static void tri_levels_solve(pcg_dev *d, const tri_dev *t, cl_mem v, cl_mem y)
{
    cl_kernel kc = d->k[K_CHAIN], kl = d->k[K_LEVEL];
    cl_mem a[] = { t->ptr, t->col, t->val, v, y };
    CL_CHECK(clSetKernelArg(kc, 2, sizeof t->lev_ptr, &t->lev_ptr));
    CL_CHECK(clSetKernelArg(kc, 3, sizeof t->order, &t->order));
    CL_CHECK(clSetKernelArg(kc, 4, sizeof t->lower, &t->lower));
    CL_CHECK(clSetKernelArg(kl, 2, sizeof t->order, &t->order));
    CL_CHECK(clSetKernelArg(kl, 3, sizeof t->lower, &t->lower));
    for (int i = 0; i < 5; i++) {
        CL_CHECK(clSetKernelArg(kc, 5 + i, sizeof(cl_mem), &a[i]));
        CL_CHECK(clSetKernelArg(kl, 4 + i, sizeof(cl_mem), &a[i]));
    }
    for (int s = 0; s < t->nseg; s++) {
        const tri_seg *g = &t->seg[s];
        if (g->chain) {
            CL_CHECK(clSetKernelArg(kc, 0, sizeof g->lo, &g->lo));
            CL_CHECK(clSetKernelArg(kc, 1, sizeof g->hi, &g->hi));
            launch(d, K_CHAIN, d->local[K_CHAIN]);
        } else {
            int begin = t->lv.lev_ptr[g->lo], end = t->lv.lev_ptr[g->hi];
            CL_CHECK(clSetKernelArg(kl, 0, sizeof begin, &begin));
            CL_CHECK(clSetKernelArg(kl, 1, sizeof end, &end));
            launch(d, K_LEVEL, spmv_round_up((size_t)(end - begin), d->local[K_LEVEL]));
        }
    }
}

/* T y = v approximately: y = D^-1 v, then --sweeps Jacobi sweeps, each
 * reading the last y and writing the other buffer (t as the spare), so that
 * the last lands in y */
static void tri_sweeps_solve(pcg_dev *d, const tri_dev *t, cl_mem v, cl_mem y)
{
    cl_kernel k = d->k[K_SWEEP];
    cl_mem a[] = { t->ptr, t->col, t->val, v };
    CL_CHECK(clSetKernelArg(k, 2, sizeof t->lower, &t->lower));
    for (int i = 0; i < 4; i++)
        CL_CHECK(clSetKernelArg(k, 3 + i, sizeof(cl_mem), &a[i]));
    for (int s = 0; s <= d->sweeps; s++) {
        int first = s == 0;
        cl_mem out = (d->sweeps - s) % 2 ? d->t : y, in = out == y ? d->t : y;
        CL_CHECK(clSetKernelArg(k, 1, sizeof first, &first));
        CL_CHECK(clSetKernelArg(k, 7, sizeof in, &in));
        CL_CHECK(clSetKernelArg(k, 8, sizeof out, &out));
        launch(d, K_SWEEP, d->global[K_SWEEP]);
    }
}

/* T y = v exactly, with no levels: each row (a warp, or a work-item)
 * waiting on the values of the rows it reads, marked unsolved first
 * (kernel.cl; NVIDIA's GPUs only) */
static void tri_syncfree_solve(pcg_dev *d, const tri_dev *t, cl_mem v, cl_mem y)
{
    cl_kernel k = d->k[K_SYNC];
    cl_mem a[] = { t->ptr, t->col, t->val, v, y, t->done };
    d->stamp++;
    CL_CHECK(clSetKernelArg(k, 1, sizeof t->lower, &t->lower));
    for (int i = 0; i < 6; i++)
        CL_CHECK(clSetKernelArg(k, 2 + i, sizeof(cl_mem), &a[i]));
    CL_CHECK(clSetKernelArg(k, 8, sizeof d->stamp, &d->stamp));
    CL_CHECK(clSetKernelArg(k, 9, sizeof t->ticket, &t->ticket));
    CL_CHECK(clSetKernelArg(d->k[K_MARK], 1, sizeof y, &y));
    launch(d, K_MARK, d->global[K_MARK]);   /* y = "unsolved" (kernel.cl: the value variant waits on it) */
    launch(d, K_SYNC, spmv_round_up((size_t)d->n * d->lanes, d->local[K_SYNC]));   /* d->lanes a row */
}

/* L y = v (K_SERIAL) or L^T y = v (K_SERIAL_T), row after row in its
 * order (L's level order, or natural), in one work-item (ic0-persistent: a CPU device) */
static void tri_serial_solve(pcg_dev *d, int which, cl_mem v, cl_mem y)
{
    CL_CHECK(clSetKernelArg(d->k[which], 5, sizeof v, &v));
    CL_CHECK(clSetKernelArg(d->k[which], 6, sizeof y, &y));
    launch(d, which, 1);
}

/* z = M^-1 r = U^-1 (L^-1 r): the two triangular solves (IC(0) only: none
 * and Jacobi apply M^-1 inside pcg_update_r and pcg_update_xp) */
static void apply(pcg_dev *d)
{
    if (d->ver->form == FORM_PERSISTENT) {
        tri_serial_solve(d, K_SERIAL, d->r, d->y);
        tri_serial_solve(d, K_SERIAL_T, d->y, d->z);
    } else if (d->ver->form == FORM_SWEEPS) {
        tri_sweeps_solve(d, &d->L, d->r, d->y);
        tri_sweeps_solve(d, &d->U, d->y, d->z);
    } else if (d->ver->form == FORM_SYNCFREE) {
        tri_syncfree_solve(d, &d->L, d->r, d->y);
        tri_syncfree_solve(d, &d->U, d->y, d->z);
    } else {
        tri_levels_solve(d, &d->L, d->r, d->y);
        tri_levels_solve(d, &d->U, d->y, d->z);
    }
}

/* L's solve alone (the table's time of a triangular solve) */
static void apply_L(pcg_dev *d)
{
    if (d->ver->form == FORM_PERSISTENT)
        tri_serial_solve(d, K_SERIAL, d->r, d->y);
    else if (d->ver->form == FORM_SWEEPS)
        tri_sweeps_solve(d, &d->L, d->r, d->y);
    else if (d->ver->form == FORM_SYNCFREE)
        tri_syncfree_solve(d, &d->L, d->r, d->y);
    else
        tri_levels_solve(d, &d->L, d->r, d->y);
}

/* One iteration: chapter 7's fused CG, with z = M^-1 r between the update
 * of r and that of p */
static void iteration(pcg_dev *d)
{
    launch(d, K_SPMV, d->global[K_SPMV]);       /* q = A p, and the partials of p.q */
    launch(d, K_ALPHA, d->global[K_ALPHA]);     /* the tests; alpha = r.z / p.q */
    launch(d, K_UPD_R, d->global[K_UPD_R]);     /* r -= alpha q, the partials of r.r (and r.z: none, Jacobi) */
    if (d->ver->pc == PC_SOLVE) {
        apply(d);                                /* z = U^-1 L^-1 r */
        launch(d, K_DOT, d->global[K_DOT]);      /* the partials of r.z */
    }
    launch(d, K_UPD_XP, d->global[K_UPD_XP]);   /* beta; x += alpha p; p = z + beta p */
}

/* z = M^-1 r, p = z and the partials, from the r in place (restart: r =
 * b - A x first) */
static void start(pcg_dev *d, int restart)
{
    if (restart) {
        CL_CHECK(clSetKernelArg(d->k[K_SPMV], 4, sizeof d->x, &d->x));
        launch(d, K_SPMV, d->global[K_SPMV]);   /* q = A x */
        CL_CHECK(clSetKernelArg(d->k[K_SPMV], 4, sizeof d->p, &d->p));
        CL_CHECK(clSetKernelArg(d->k[K_START], 1, sizeof restart, &restart));
        launch(d, K_START, d->global[K_START]);   /* r = b - q (and a p the next launch replaces) */
        restart = 0;
        CL_CHECK(clSetKernelArg(d->k[K_START], 1, sizeof restart, &restart));
    }
    if (d->ver->pc == PC_SOLVE)
        apply(d);
    launch(d, K_START, d->global[K_START]);
}

/* x = 0, r = b, the state: then start */
static void reset(pcg_dev *d, const void *b, void *tmp)
{
    size_t bytes = (size_t)d->n * d->vsize;
    int zero[2] = { 0, 0 };
    memset(tmp, 0, bytes > 4 * (size_t)d->vsize ? bytes : 4 * (size_t)d->vsize);
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, d->x, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, d->r, CL_TRUE, 0, bytes, b, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, d->state, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, d->scal, CL_TRUE, 0, 4 * (size_t)d->vsize, tmp, 0, NULL, NULL));
    start(d, 0);
    CL_CHECK(clFinish(d->cl->queue));
}

/* The loop: iterations in blocks of k, the state read back after each;
 * thresh < 0 runs them all (no test) */
static void loop(pcg_dev *d, int maxiter, double thresh, int k, pcg_run *run)
{
    spmv_cl_arg_value(d->k[K_ALPHA], 6, d->single, thresh < 0 ? -1.0 : thresh);
    if (d->k[K_PERSIST])
        spmv_cl_arg_value(d->k[K_PERSIST], 2, d->single, thresh < 0 ? -1.0 : thresh);
    int state[2] = { 0, 0 };
    double t0 = spmv_now();
    while (run->launched < maxiter && state[0] == 0) {
        int kk = maxiter - run->launched < k ? maxiter - run->launched : k;
        if (d->k[K_PERSIST]) {   /* ic0-persistent: the kk iterations in one launch */
            CL_CHECK(clSetKernelArg(d->k[K_PERSIST], 1, sizeof kk, &kk));
            launch(d, K_PERSIST, 1);
        } else
            for (int j = 0; j < kk; j++) {
                iteration(d);
                clFlush(d->cl->queue);
            }
        CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->state, CL_TRUE, 0, sizeof state, state, 0, NULL, NULL));
        run->launched += kk;
    }
    run->solve_ms += (spmv_now() - t0) * 1e3;
    run->iterations = state[1];
    run->end = state[0] == 1 ? CG_CONVERGED : state[0] == 2 ? CG_BREAKDOWN : CG_MAXITER;
    double scal[4];
    report_read_scalars(d, scal);
    run->rr = scal[3], run->bad = scal[2];
    if (run->end == CG_MAXITER)   /* none of the iterations tested the last r: the host does */
        run->rr = report_read_rr(d);
}

/* The warm-up, then the solve from x = 0, timed on the host's clock; where
 * the recurrence meets --tol but b - A x does not, a restart from there. x
 * (in the system's own order) comes back in xd. */
static void solve(pcg_dev *d, const cg_system *s, int maxiter, int fixed, int k, double *xd, void *tmp,
                  pcg_run *run)
{
    pcg_run warm = { 0 };
    reset(d, d->bdev, tmp);
    loop(d, maxiter < WARMUP_ITERATIONS ? maxiter : WARMUP_ITERATIONS, -1, 1, &warm);
    reset(d, d->bdev, tmp);
    double thresh = fixed ? -1 : s->tol * s->tol * s->bb;
    for (;;) {
        loop(d, maxiter, thresh, k, run);
        report_read_x(d, tmp, xd);
        if (run->end != CG_CONVERGED || fixed)
            break;
        double t = spmv_cg_true_residual(&s->A, s->b, xd);   /* the recurrence says converged: does x? */
        if (t <= s->tol || run->launched >= maxiter || run->restarts == MAX_RESTARTS)
            break;
        printf("restart  after %d iterations: |r|/|b| = %.3g by the recurrence, |b - A x|/|b| = %.3g: r = b - A x, "
               "z = M^-1 r, p = z, and on\n", run->iterations, sqrt(run->rr / s->bb), t);
        run->restarts++;
        run->kappa_m = run->kappa_m ? run->kappa_m : run->iterations;   /* Lanczos: the first stretch only */
        int zero = 0;
        CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, d->state, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
        double t0 = spmv_now();
        start(d, 1);
        CL_CHECK(clFinish(d->cl->queue));
        run->solve_ms += (spmv_now() - t0) * 1e3;
    }
}

/* ic0-syncfree only where it cannot hang (kernel.cl says why), ic0-persistent
 * only on a CPU (on a GPU one work-item would solve every row): skipped in
 * "all", refused when asked for */
static int version_runs_here(const pcg_version *v, const spmv_cl *cl, int gpu, int asked)
{
    if (v->form == FORM_SYNCFREE && !device_sync_free_ok(cl, gpu)) {
        if (asked)
            spmv_die(SPMV_EXIT_USAGE, "ic0-syncfree waits across work-groups, which only NVIDIA's GPUs (Volta "
                     "or later) are known to allow; on %s run ic0 (levels)", cl->device_name);
        printf("==== %s: skipped: it runs on NVIDIA's GPUs only (kernel.cl says why)\n", v->name);
        return 0;
    }
    if (v->form == FORM_PERSISTENT && gpu && !(cl->type & CL_DEVICE_TYPE_CPU)) {   /* Oclgrind says both */
        if (asked)
            spmv_die(SPMV_EXIT_USAGE, "ic0-persistent runs the whole loop in one work-item, a CPU device's form; "
                     "on %s run ic0, ic0-syncfree or ic0-sweeps", cl->device_name);
        printf("==== %s: skipped: a CPU device's form (one work-item)\n", v->name);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_run ctx;
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &ctx);
    if (o.x_file)
        spmv_die(SPMV_EXIT_USAGE, "--x is the product's input in the other steps; the right-hand side of step9's "
                 "system is --b FILE");
    if (!o.matrix && !o.gen)
        o.gen = "poisson:nx=256";
    spmv_cl cl;
    spmv_cl_open(&cl, &ctx, o.device);

    /* 2. The system: A symmetric (or refused) and b, as chapter 7 reads it */
    cg_system s;
    spmv_cg_read_system(&o, &cl, &STEP, &s);
    int n = s.n, fixed = o.tol_set && o.tol == 0;
    int maxiter = o.maxiter ? o.maxiter : (n < INT_MAX / 10 ? 10 * (n > 10 ? n : 10) : INT_MAX - 1);
    printf("b        %s, |b| = %.6g; x0 = 0%s\n", o.b_file ? o.b_file : "seeded random in [-1, 1)", sqrt(s.bb),
           fixed ? "; --tol 0: exactly --maxiter iterations" : "");
    if (!fixed)
        printf("stop     at |r|/|b| <= %.3g (--tol%s), the same test for every version, or after %d iterations\n",
               s.tol, o.tol_set ? "" : ", the precision's default", maxiter);
    spmv_error err;
    double *xd = spmv_alloc(n ? (size_t)n : 1, sizeof *xd, "device x", &err);
    if (!xd)
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);

    pcg_row rows[NVERSIONS];
    int nv = 0, status = SPMV_EXIT_PASS, gpu = (cl.type & CL_DEVICE_TYPE_GPU) != 0;
    for (int v = 0; v < NVERSIONS; v++) {
        if (strcmp(o.variant, "all") != 0 && strcmp(o.variant, VERSIONS[v].name) != 0)
            continue;
        if (!version_runs_here(&VERSIONS[v], &cl, gpu, strcmp(o.variant, "all") != 0))
            continue;
        printf("==== %s: %s\n", VERSIONS[v].name, VERSIONS[v].what);
        pcg_dev d = { .cl = &cl, .ver = &VERSIONS[v], .n = n, .vsize = s.vsize, .single = s.single, .gpu = gpu,
                      .sweeps = spmv_own_int(&o, "--sweeps", 3), .kappa = spmv_own_int(&o, "--kappa", 0) };
        d.wide = spmv_own_int(&o, "--wide", 0);   /* 0: device_sizes's default */

        /* 3. The preconditioner on the host (timed: the setup): Jacobi's
         * diagonal, or the ordering, IC(0) and the levels of its solves */
        double t0 = spmv_now();
        device_precondition(&d, &s);

        /* 4. Work sizes: the product by chapter 6's rule, the vector
         * kernels, the triangular solves' chains and levels */
        double t1 = spmv_now();
        device_sizes(&d, &o, &s);
        double t2 = spmv_now();
        d.sizes_ms = (t2 - t1) * 1e3;

        /* 5. Device buffers (the setup ends when they are written), then
         * the program (three files) and its arguments, not timed */
        void *tmp = device_buffers(&d, &s);
        CL_CHECK(clFinish(cl.queue));
        double t3 = spmv_now();
        d.buffers_ms = (t3 - t2) * 1e3;
        pcg_run run = { .setup_ms = (t3 - t0) * 1e3 };
        device_program(&d, &o, &s);
        report_describe(&d);
        int k = spmv_own_int(&o, "--check-every", d.ver->form == FORM_PERSISTENT ? 256 : d.ver->pc == PC_SOLVE ? 1
                             : (int)fmin(32, fmax(1, sqrt((double)n) / 32)));

        /* 6. Run: the solve from x = 0, timed; then the preconditioner's
         * apply alone, timed over a few runs */
        solve(&d, &s, maxiter, fixed, k, xd, tmp, &run);
        report_kappa(&d, &s, &run);
        run.apply_ms = d.ver->pc == PC_SOLVE ? report_time_apply(&d, apply, NULL) : NAN;
        run.lsolve_ms = d.ver->pc == PC_SOLVE ? report_time_apply(&d, apply_L, &run.lsolve_host_ms) : NAN;

        /* 7. Check on the host: the true residual, the product once more,
         * the triangular solves row by row; the verdict */
        pcg_row *row = &rows[nv++];
        int pass = report_check(&d, &s, &run, fixed, xd, tmp, apply, row);
        status = cg_exit_status(status, pass, run.end, fixed);
        report_save(&o, pass, &d, &s, &run, xd);
        report_trsv(&o, &d, &s, row);
        free(tmp);
        device_release(&d);
    }

    /* 8. Report: every version's time to solution, side by side */
    report_table(&cl, &s, rows, nv);
    for (int i = 0; i < nv; i++)
        report_csv(&o, &cl, &s, &rows[i]);
    spmv_cl_close(&cl);
    free(s.val), free(s.bd), free(s.b), free(xd);
    csr_free(&s.A);
    return status;
}
