/* report/report.c - chapter 7's check, times and outputs: report/report.h */
#include "report.h"
#include "check.h"
#include "precision.h"
#include "results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAP_LIMIT 1   /* the --tol 0 check (check_gap): about 1/15 of it seen where all is right,
                       * 12 with one q_i 1% off (2048^2, float, 100 iterations, PoCL) */

void report_start(cg_run *run, const spmv_options *o, int fused, int maxiter)
{
    spmv_error err;
    int cap = maxiter < (1 << 20) ? maxiter + 1 : 1 << 20;
    run->block_ms = spmv_alloc((size_t)cap, sizeof *run->block_ms, "iteration times", &err);
    run->capblocks = cap;
    if (run->block_ms && o->history && !fused) {
        run->caphist = 1024;
        run->hist = spmv_alloc((size_t)run->caphist, sizeof *run->hist, "--history", &err);
    }
    if (!run->block_ms || (o->history && !fused && !run->hist))
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    if (o->history && fused)
        printf("note     --history: the fused solve keeps none (the host sees its residual every %s)\n",
               "--check-every iterations at most");
}

void report_residual(cg_run *run, int it, double rel)
{
    if (!run->hist)
        return;
    if (2 * run->nhist + 2 > run->caphist) {
        spmv_error err;
        double *h = spmv_realloc(run->hist, (size_t)run->caphist * 2, sizeof *h, "--history", &err);
        if (!h)
            spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
        run->hist = h, run->caphist *= 2;
    }
    run->hist[2 * run->nhist] = it;
    run->hist[2 * run->nhist++ + 1] = rel;
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
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
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

int report_check(cg_dev *d, const cg_system *s, const cg_run *run, int k, int restarts, int fixed,
                 const spmv_cg_result *host, const double *xd, void *tmp, spmv_cg_row *row)
{
    static char drv[400];
    snprintf(drv, sizeof drv, "%s %s", d->cl->platform_name, d->cl->driver);
    double rel = s->bb > 0 ? sqrt(run->rr / s->bb) : 0, truer = spmv_cg_true_residual(&s->A, s->b, xd);
    int extra = run->end == CG_CONVERGED ? run->launched - run->iterations : 0, pass;
    *row = (spmv_cg_row){ .step = "step7", .kernel = CG_VERSION_NAME(d), .device = d->cl->device_name,
                          .driver = drv, .matrix = s->A.origin.name, .rows = s->n, .cols = s->n, .nnz = s->A.nnz,
                          .precision = s->p, .iterations = run->iterations, .check_every = k, .extra_iterations = extra,
                          .converged = run->end == CG_CONVERGED && !fixed, .rel_residual = rel,
                          .true_residual = truer, .tol = fixed ? 0 : s->tol, .check = "FAIL",
                          .launches = CG_LAUNCHES(d), .passes = CG_SWEEPS(d),
                          .bytes = spmv_cg_bytes(s->n, s->A.nnz, s->vsize, CG_SWEEPS(d)),
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
        pass = cg_check_meets(truer, s->tol, s->bb, restarts ? ": even after restarts, rounding keeps x this far "
                              "(try --precision d or a larger --tol)" : "");
    } else {
        /* no tolerance met: |b - A x| must follow the |r| the device's sums
         * say (a wrong dot), and r itself b - A x (a wrong product or update) */
        int follows = cg_check_follows(s->single, s->n, truer, rel);
        pass = check_gap(s, xd, d, run->launched, tmp) && follows;
    }
    if (!fixed && run->end == CG_CONVERGED && host->end == CG_CONVERGED) {
        int ok = cg_check_count(s->single, run->iterations, host->iterations);
        pass = pass && ok;
    } else if (!fixed) {
        printf("check    no iteration count to compare: %s\n", run->end != CG_CONVERGED ? "this solve did not converge"
               : "the host's CG did not converge");
    }
    fprintf(spmv_results(d->cl->run), "check: %s\n", pass ? "PASS" : "FAIL");
    row->check = pass ? "PASS" : "FAIL";
    return pass;
}

void report_times(spmv_cg_row *row, const cg_dev *d, const cg_run *run, const cg_run *prof)
{
    const cg_profile *p = &d->profile;
    double min;
    row->ms_per_iter = 0;
    if (run->nblocks > 0)
        spmv_stats(run->block_ms, run->nblocks, &row->ms_per_iter, &min);
    int it = prof->launched > 0 ? prof->launched : 1;
    row->ms_total = run->total_ms, row->loop_iterations = run->launched, row->blocks = run->nblocks;
    row->prof_iterations = prof->launched, row->prof_ms = prof->total_ms / it;
    row->spmv_ms = p->part_ms[C_PRODUCT] / it, row->vector_ms = p->part_ms[C_VECTOR] / it;
    row->reads_ms = p->part_ms[C_READ] / it, row->gaps_ms = p->gaps_ms / it, row->overlap_ms = p->overlap_ms / it;
    row->wait_ms = row->reads_ms + row->gaps_ms;
    row->blocks_what = d->fused ? "blocks between reads, per iteration" : "iterations";
    row->waits = d->fused ? (row->check_every == 1 ? "once an iteration" : "once a block") : "twice an iteration";
}

void report_save(const spmv_options *o, int pass, const char *vname, const cg_system *s, cg_run *run,
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
