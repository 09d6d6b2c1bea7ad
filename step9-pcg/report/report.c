/* report/report.c - chapter 9's checks, table and row (report/report.h) */
#include "report.h"
#include "../../step7-cg/reference/cg.h"
#include "../../step7-cg/report/check.h"
#include "measure.h"
#include "precision.h"
#include "results.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define APPLY_RUNS 9   /* the apply alone: the median of this many */

static int launches(const pcg_dev *d)
{
    if (d->ver->pc != PC_SOLVE)
        return 4;
    if (d->ver->form == FORM_SWEEPS)
        return 5 + 2 * (d->sweeps + 1);
    if (d->ver->form == FORM_SYNCFREE)
        return 9;   /* each solve: trsv_mark, then trsv_syncfree */
    if (d->ver->form == FORM_PERSISTENT)
        return 0;   /* a launch every K iterations */
    return 5 + d->L.nseg + d->U.nseg;
}

void report_describe(const pcg_dev *d)
{
    printf("setup    %.3f ms: the ordering %.3f, IC(0) %.3f, the levels %.3f, the sizes %.3f, the buffers written "
           "%.3f (each timed on the host's clock)\n", (d->order_ms + d->factor_ms + d->levels_ms + d->sizes_ms +
           d->buffers_ms), d->order_ms, d->factor_ms, d->levels_ms, d->sizes_ms, d->buffers_ms);
    if (d->ver->form == FORM_PERSISTENT) {
        printf("cg       a launch every K iterations: pcg_persistent, one work-item, runs them (q = A p, the tests, "
               "r, z = L^-T (L^-1 r): L's rows one after another, then again in reverse as L^T's columns, x and p); "
               "the state read back after each launch\n");
        printf("levels   L's %d: L's solve takes the rows one after another in %s, U's (U = L^T, from L's "
               "rows) in the reverse (natural order where L's rows average %d entries or more)\n", d->L.lv.nlev,
               persist_natural(&d->f.L) ? "natural order" : "L's level order", PERSIST_LONG_ROW);
        return;
    }
    printf("cg       %d launches an iteration: the product, pcg_alpha, pcg_update_r, ", launches(d));
    if (d->ver->pc != PC_SOLVE) {
        printf("pcg_update_xp%s; the state read back every K iterations\n",
               d->ver->pc == PC_JACOBI ? " (z_i = r_i / a_ii, read from 1 / diag(A) in both updates)" : "");
        return;
    }
    if (d->ver->form == FORM_SWEEPS) {
        printf("the solves (%d Jacobi sweeps each, after y = D^-1 v), pcg_dot, pcg_update_xp\n", d->sweeps);
        printf("levels   L's exact solve would take %d levels (the widest %d rows); the sweeps ignore them\n",
               d->L.lv.nlev, d->L.lv.widest);
        return;
    }
    printf(d->ver->form == FORM_SYNCFREE ? "the solves of L and U (each y marked unsolved first), pcg_dot, "
           "pcg_update_xp\n" : "the solves of L and U, pcg_dot, pcg_update_xp\n");
    if (d->ver->form == FORM_SYNCFREE) {
        printf("levels   none used: two launches a solve, each row %s waiting on the values it reads (L's levels would be %d, %.1f "
               "rows a level on average, the widest %d)\n", d->lanes == 32 ? "a warp" : "a work-item", d->L.lv.nlev,
               d->L.lv.nlev ? (double)d->n / d->L.lv.nlev : 0.0, d->L.lv.widest);
        return;
    }
    const tri_dev *t[2] = { &d->L, &d->U };
    for (int i = 0; i < 2; i++)
        printf("levels   %s: %d levels, %.1f rows a level on average, the widest %d: %d launches (%d chains of "
               "narrow levels, one work-group of %zu each; %d levels of >= %d rows, a launch each)\n",
               i ? "U = L^T (up the rows)" : "L (down the rows)", t[i]->nlev,
               t[i]->nlev ? (double)d->n / t[i]->nlev : 0.0, t[i]->widest, t[i]->nseg, t[i]->chains,
               d->local[K_CHAIN], t[i]->nseg - t[i]->chains, d->wide);
}

/* How many eigenvalues of the symmetric tridiagonal (a, b) lie below x (Sturm) */
static int below(const double *a, const double *b, int m, double x)
{
    int count = 0;
    double q = 1;
    for (int i = 0; i < m; i++) {
        q = a[i] - x - (i ? b[i - 1] * b[i - 1] / q : 0);
        if (q == 0)
            q = -DBL_EPSILON * (fabs(a[i]) + fabs(x) + DBL_MIN);
        count += q < 0;
    }
    return count;
}

/* Its k-th smallest eigenvalue (k from 1), by bisection in [lo, hi] */
static double kth(const double *a, const double *b, int m, int k, double lo, double hi)
{
    for (int it = 0; it < 200 && hi - lo > 1e-15 * fmax(fabs(lo), fabs(hi)); it++) {
        double mid = 0.5 * (lo + hi);
        if (below(a, b, m, mid) >= k)
            hi = mid;
        else
            lo = mid;
    }
    return 0.5 * (lo + hi);
}

void report_kappa(const pcg_dev *d, const cg_system *s, const pcg_run *run)
{
    int m = run->kappa_m ? run->kappa_m : run->iterations;
    m = m < d->kappa ? m : d->kappa;
    if (!d->kappa)
        return;
    if (m < 2) {
        printf("kappa    not estimated: %d iteration%s, too few for Lanczos\n", m, m == 1 ? "" : "s");
        return;
    }
    size_t count = 4 + 2 * (size_t)m;
    double *h = malloc(count * sizeof *h), *a = malloc((size_t)m * sizeof *a), *b = malloc((size_t)m * sizeof *b);
    float *f = malloc(count * sizeof *f);
    if (!h || !a || !b || !f)
        spmv_die(SPMV_EXIT_RESOURCES, "out of host memory for --kappa's %d iterations", m);
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->scal, CL_TRUE, 0, count * (size_t)d->vsize,
                                 d->single ? (void *)f : (void *)h, 0, NULL, NULL));
    for (size_t i = 0; d->single && i < count; i++)
        h[i] = f[i];
    const double *al = h + 4;   /* al[2j] = alpha_j, al[2j + 1] = beta_j */
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < m; j++) {   /* T, and Gershgorin's bounds on its eigenvalues */
        a[j] = 1 / al[2 * j] + (j ? al[2 * j - 1] / al[2 * j - 2] : 0);
        b[j] = j < m - 1 ? sqrt(al[2 * j + 1]) / al[2 * j] : 0;
        double r = fabs(b[j]) + (j ? fabs(b[j - 1]) : 0);
        lo = fmin(lo, a[j] - r), hi = fmax(hi, a[j] + r);
    }
    double lmin = kth(a, b, m, 1, lo, hi), lmax = kth(a, b, m, m, lo, hi), kap = lmax / lmin;
    /* Ritz values lie within the spectrum (in exact arithmetic): the estimate is at most kappa, and close to it
     * only once the run has found the spectrum's ends, which a run cut short by --kappa or --maxiter may not */
    const char *cut = m < run->iterations ? "; from the first part of the run only, so maybe far below it"
                      : run->end != CG_CONVERGED ? "; the run did not converge, so maybe far below it" : "";
    printf("kappa    M^-1 A's extreme eigenvalues from the first %d iterations' alpha and beta (Lanczos): %.4g and "
           "%.4g, kappa %.4g (Ritz values: at most the true kappa%s)", m, lmin, lmax, kap, cut);
    if (s->tol > 0)   /* 2 ((sqrt k - 1)/(sqrt k + 1))^i <= tol from i = sqrt(k) / 2 ln(2 / tol) on */
        printf("; CG's bound on the error's A-norm over the first's, 2 ((sqrt k - 1)/(sqrt k + 1))^i, is below "
               "%.3g from i = %.0f on (this run: %d iterations)", s->tol, ceil(sqrt(kap) / 2 * log(2 / s->tol)),
               run->iterations);
    printf("\n");
    free(h), free(a), free(b), free(f);
}

void report_read_scalars(const pcg_dev *d, double scal[4])
{
    float f[4];
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->scal, CL_TRUE, 0, 4 * (size_t)d->vsize,
                                 d->single ? (void *)f : (void *)scal, 0, NULL, NULL));
    for (int i = 0; d->single && i < 4; i++)
        scal[i] = f[i];
}

double report_read_rr(const pcg_dev *d)
{
    double *part = malloc((size_t)d->ng * sizeof *part), s = 0;
    if (!part)
        spmv_die(SPMV_EXIT_RESOURCES, "out of host memory for the partials");
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->rr_part, CL_TRUE, 0, (size_t)d->ng * d->vsize, part, 0, NULL, NULL));
    for (int i = 0; i < d->ng; i++)
        s += d->single ? ((float *)part)[i] : part[i];
    free(part);
    return s;
}

/* n values of buf into v, in double */
static void read_vec(const pcg_dev *d, cl_mem buf, void *tmp, double *v)
{
    CL_CHECK(clEnqueueReadBuffer(d->cl->queue, buf, CL_TRUE, 0, (size_t)d->n * d->vsize, tmp, 0, NULL, NULL));
    for (int i = 0; i < d->n; i++)
        v[i] = d->single ? ((float *)tmp)[i] : ((double *)tmp)[i];
}

static void write_vec(const pcg_dev *d, cl_mem buf, void *tmp, const double *v)
{
    for (int i = 0; i < d->n; i++)
        if (d->single)
            ((float *)tmp)[i] = (float)v[i];
        else
            ((double *)tmp)[i] = v[i];
    CL_CHECK(clEnqueueWriteBuffer(d->cl->queue, buf, CL_TRUE, 0, (size_t)d->n * d->vsize, tmp, 0, NULL, NULL));
}

void report_read_x(const pcg_dev *d, void *tmp, double *xd)
{
    read_vec(d, d->x, tmp, xd);
    if (!d->perm)
        return;
    double *ordered = malloc((size_t)d->n * sizeof *ordered);   /* x of P A P^T: x_old[perm[i]] = x_new[i] */
    if (!ordered)
        spmv_die(SPMV_EXIT_RESOURCES, "out of host memory for the ordered x");
    memcpy(ordered, xd, (size_t)d->n * sizeof *xd);
    for (int i = 0; i < d->n; i++)
        xd[d->perm[i]] = ordered[i];
    free(ordered);
}

static double event_ns(cl_event e, cl_profiling_info what)
{
    cl_ulong ns = 0;
    CL_CHECK(clGetEventProfilingInfo(e, what, sizeof ns, &ns, NULL));
    return (double)ns;
}

double report_time_apply(pcg_dev *d, void (*apply)(pcg_dev *), double *host_ms)
{
    double t[APPLY_RUNS], median, min;
    apply(d);   /* once untimed */
    CL_CHECK(clFinish(d->cl->queue));
    if (host_ms) {
        for (int i = 0; i < APPLY_RUNS; i++) {
            double t0 = spmv_now();
            apply(d);
            CL_CHECK(clFinish(d->cl->queue));
            t[i] = (spmv_now() - t0) * 1e3;
        }
        spmv_stats(t, APPLY_RUNS, host_ms, &min);   /* common/measure.h: every step's median */
    }
    cl_event first[APPLY_RUNS] = { 0 }, last[APPLY_RUNS] = { 0 };
    for (int i = 0; i < APPLY_RUNS; i++) {   /* back to back: no wait between two runs */
        d->ev_first = &first[i], d->ev_last = &last[i];
        apply(d);
    }
    d->ev_first = d->ev_last = NULL;
    CL_CHECK(clFinish(d->cl->queue));
    for (int i = 0; i < APPLY_RUNS; i++) {
        cl_event end = last[i] ? last[i] : first[i];
        t[i] = (event_ns(end, CL_PROFILING_COMMAND_END) - event_ns(first[i], CL_PROFILING_COMMAND_START)) * 1e-6;
        CL_CHECK(clReleaseEvent(first[i]));
        if (last[i])
            CL_CHECK(clReleaseEvent(last[i]));
    }
    spmv_stats(t, APPLY_RUNS, &median, &min);
    return median;
}

/* The product once more, as chapter 7 checks it (report/check.h), on the
 * matrix the device holds (reordered for a coloring); ic0-persistent's own
 * product where that form ran */
static int check_product(pcg_dev *d, void *tmp, double *p, double *q)
{
    for (int i = 0; i < d->n; i++)
        p[i] = cg_product_p(i, d->single);
    write_vec(d, d->p, tmp, p);
    int k = d->k[K_CSR_SERIAL] ? K_CSR_SERIAL : K_SPMV;
    CL_CHECK(clEnqueueNDRangeKernel(d->cl->queue, d->k[k], 1, NULL, &d->global[k], &d->local[k], 0, NULL, NULL));
    read_vec(d, d->q, tmp, q);
    cg_product c = cg_product_compare(d->A, p, q, d->single);
    return cg_check_product(&c);
}

/* The sweeps' answer against the host's, in double: |y_i - yh_i| <= (S + 1)
 * (n_i + 10) eps mag_i, mag the same sweeps on absolute values */
static double sweeps_part(const tri_matrix *T, int sweeps, const double *v, const double *y, int single, int *row,
                          double *yh, double *mag, double *tmp)
{
    double eps = single ? FLT_EPSILON / 2 : DBL_EPSILON / 2, worst = 0;
    tri_sweeps(T, sweeps, v, yh, mag, tmp);
    *row = -1;
    for (int i = 0; i < T->n; i++) {
        double lim = (sweeps + 1.0) * (T->ptr[i + 1] - T->ptr[i] + 10) * eps * mag[i];
        double part = fabs(y[i] - yh[i]) / (lim > 0 ? lim : DBL_MIN);
        if (!(part <= worst)) {
            worst = part, *row = i;
            if (worst != worst)
                break;
        }
    }
    return worst;
}

/* Both triangular solves on a seeded random v (the product's p stream):
 * the device's L solve from v, its U solve from the device's own y */
static int check_solves(pcg_dev *d, void *tmp, void (*apply)(pcg_dev *), double *v, double *y, double *z)
{
    int frow;   /* the factor first: L L^T against A (+ the shift) on A's pattern, in double */
    double fpart = ic0_residual(d->A, &d->f, &frow);
    printf("check    L L^T against A%s on its pattern: the largest error is %.3g of (n_i + 2) eps (sum |l_im l_jm| + |a_ij|) "
           "(row %d) %s 1\n", d->f.shift > 0 ? " + shift diag(A)" : "", fpart, frow + 1, fpart <= 1 ? "<=" : "> the limit");
    spmv_error err;
    size_t n1 = d->n ? (size_t)d->n : 1;
    double *w = spmv_alloc(n1, 3 * sizeof *w, "the solves' check", &err);
    if (!w)
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    for (int i = 0; i < d->n; i++)
        v[i] = cg_product_p(i, d->single);
    write_vec(d, d->r, tmp, v);
    apply(d);
    read_vec(d, d->y, tmp, y);
    read_vec(d, d->z, tmp, z);
    int ok = fpart <= 1;
    if (!d->f.U.ptr && ic0_upper(d->A, &d->f, &err))   /* ic0-persistent's check: U's rows, made now */
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    const tri_matrix *T[2] = { &d->f.L, &d->f.U };
    const double *in[2] = { v, y }, *out[2] = { y, z };
    for (int i = 0; i < 2; i++) {
        int row;
        double part;
        if (d->ver->form == FORM_SWEEPS) {
            part = sweeps_part(T[i], d->sweeps, in[i], out[i], d->single, &row, w, w + n1, w + 2 * n1);
            printf("check    %s's %d sweeps against the host's in double: the largest error is %.3g of (S + 1) "
                   "(n_i + 10) eps |sweeps| (row %d) %s 1\n", i ? "U" : "L", d->sweeps, part, row + 1,
                   part <= 1 ? "<=" : "> the limit");
        } else {
            part = tri_check_exact(T[i], in[i], out[i], d->single, &row);
            printf("check    %s y = v on a seeded random v, row by row: the largest |v_i - sum_j t_ij y_j| is %.3g "
                   "of eps (n_i + 10) (sum_j |t_ij y_j| + |v_i|) (row %d) %s 1\n", i ? "U" : "L", part, row + 1,
                   part <= 1 ? "<=" : "> the limit");
        }
        ok = ok && part <= 1;
    }
    free(w);
    return ok;
}

int report_check(pcg_dev *d, const cg_system *s, const pcg_run *run, int fixed, const double *xd, void *tmp,
                 void (*apply)(pcg_dev *), pcg_row *row)
{
    double rel = s->bb > 0 ? sqrt(run->rr / s->bb) : 0, truer = spmv_cg_true_residual(&s->A, s->b, xd);
    *row = (pcg_row){ .kernel = d->ver->name, .iterations = run->iterations, .launches = launches(d),
                      .converged = run->end == CG_CONVERGED && !fixed, .true_residual = truer, .rel_residual = rel,
                      .tol = fixed ? 0 : s->tol, .setup_ms = run->setup_ms, .solve_ms = run->solve_ms,
                      .apply_ms = run->apply_ms, .lsolve_ms = run->lsolve_ms,
                      .lsolve_host_ms = run->lsolve_host_ms,
                      .factor_nnz = d->ver->pc == PC_SOLVE ? d->f.L.nnz : 0, .levels = d->ver->pc == PC_SOLVE ? d->L.lv.nlev : 0,
                      .check = "FAIL" };
    size_t n1 = s->n ? (size_t)s->n : 1;
    spmv_error err;
    double *w = spmv_alloc(n1, 3 * sizeof *w, "the checks", &err);
    if (!w)
        spmv_die(SPMV_EXIT_RESOURCES, "%s", err.msg);
    if (run->end == CG_BREAKDOWN) {
        fprintf(stderr, "%s: breakdown at iteration %d: %s = %.3g <= 0, so A (or M) is not positive definite\n",
                spmv_prog_name(), run->iterations + 1, run->bad <= 0 && d->ver->pc != PC_NONE ? "p.Ap or r.z" : "p.Ap",
                run->bad);
        (void)check_product(d, tmp, w, w + n1);
        fprintf(spmv_results(d->cl->run), "check: FAIL (breakdown)\n");
        free(w);
        return 0;
    }
    if (run->end == CG_CONVERGED && !fixed)
        printf("solve    converged in %d iterations: |r|/|b| = %.3g (the recurrence's) <= %.3g\n", run->iterations,
               rel, s->tol);
    else
        printf("solve    %d iterations%s: |r|/|b| = %.3g (the recurrence's)\n", run->iterations,
               fixed ? " (--tol 0)" : ", --maxiter reached", rel);
    if (run->restarts)
        printf("restarts %d (each a product, the solves and a pass over the vectors; timed with the solve)\n",
               run->restarts);
    printf("true     |b - A x|/|b| = %.3g (the host, in double, from the device's x%s)\n", truer,
           d->perm ? " put back in A's order" : "");
    int pass = run->end == CG_CONVERGED && !fixed
                   ? cg_check_meets(truer, s->tol, s->bb, run->restarts ? ": even after restarts (try --precision d)" : "")
                   : cg_check_follows(s->single, s->n, truer, rel);
    int product = check_product(d, tmp, w, w + n1);
    int solves = d->ver->pc == PC_SOLVE ? check_solves(d, tmp, apply, w, w + n1, w + 2 * n1) : 1;
    if (d->ver->form == FORM_SYNCFREE) {   /* a lane that gave up waiting (kernel.cl's SPIN_LIMIT) */
        int fail = 0;
        CL_CHECK(clEnqueueReadBuffer(d->cl->queue, d->fail, CL_TRUE, 0, sizeof fail, &fail, 0, NULL, NULL));
        printf("check    sync-free: %s\n", fail ? "a row waited past the limit and gave up (NaN): this device did "
               "not keep a waited-on work-group running" : "no row waited past the limit");
        solves = solves && !fail;
    }
    pass = pass && product && solves;
    free(w);
    fflush(stdout);
    cg_print_verdict(spmv_results(d->cl->run), pass, run->end, fixed, run->launched, s->tol);
    row->check = cg_verdict(pass, run->end, fixed);
    return pass;
}

void report_save(const spmv_options *o, int pass, const pcg_dev *d, const cg_system *s, const pcg_run *run,
                 const double *xd)
{
    if (!o->save_x)
        return;
    if (pass && (run->end == CG_CONVERGED || (o->tol_set && o->tol == 0))) {
        char comment[600];
        snprintf(comment, sizeof comment, "x of step9 (%s) on %s, %d iterations, %s", d->ver->name,
                 s->A.origin.name, run->iterations, spmv_prec_words(s->single, 0));
        spmv_save_vector(o->save_x, "--save-x", xd, s->n, s->single, comment);
    } else {
        printf("saved    nothing to %s: %s\n", o->save_x, pass ? "--maxiter came before --tol" : "the check failed");
    }
}

void report_table(const spmv_cl *cl, const cg_system *s, const pcg_row *rows, int nv)
{
    if (nv == 0)
        return;
    FILE *out = spmv_results(cl->run);
    fprintf(out, "==== time to solution: %s, %s, %d rows, %s, |r|/|b| <= %.3g\n", cl->device_name, s->A.origin.name,
            s->n, s->single ? "float" : "double", s->tol);
    fprintf(out, "%-14s %10s %11s %11s %11s %11s %11s %7s %9s %s\n", "version", "iterations", "setup ms", "solve ms",
            "total ms", "ms an iter", "apply ms", "levels", "vs cg", "check");
    const pcg_row *base = NULL;
    for (int i = 0; i < nv; i++)   /* cg solved, or stopped at --maxiter: then a version is faster by more */
        if (strcmp(rows[i].kernel, "cg") == 0 && (!strcmp(rows[i].check, "PASS") || !strcmp(rows[i].check, "MAXITER")))
            base = &rows[i];
    for (int i = 0; i < nv; i++) {
        const pcg_row *r = &rows[i];
        double total = r->setup_ms + r->solve_ms, it = r->iterations > 0 ? r->iterations : 1;
        char apply[32] = "-", lev[16] = "-", vs[32] = "-";
        if (!isnan(r->apply_ms))
            snprintf(apply, sizeof apply, "%.4f", r->apply_ms);
        if (r->levels)
            snprintf(lev, sizeof lev, "%d", r->levels);
        if (base && strcmp(r->check, "PASS") == 0)
            snprintf(vs, sizeof vs, "%s%.2fx", strcmp(base->check, "PASS") ? ">" : "",
                     (base->setup_ms + base->solve_ms) / total);
        fprintf(out, "%-14s %10d %11.3f %11.3f %11.3f %11.4f %11s %7s %9s %s\n", r->kernel, r->iterations, r->setup_ms,
                r->solve_ms, total, r->solve_ms / it, apply, lev, vs, r->check);
    }
    fprintf(out, "(vs cg: cg's total time over the version's, setup included: above 1x the version is faster; "
                 ">: cg stopped at --maxiter, unsolved)\n");
}

void report_csv(const spmv_options *o, const spmv_cl *cl, const cg_system *s, const pcg_row *r)
{
    if (!o->csv)
        return;
    FILE *f = spmv_csv_append(o->csv, PCG_CSV_HEADER);
    char date[32], drv[400];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(drv, sizeof drv, "%s %s", cl->platform_name, cl->driver);
    int timed = strcmp(r->check, "PASS") == 0 || strcmp(r->check, "MAXITER") == 0;   /* checked, and timed */
    fputs("step9,", f);
    spmv_csv_field(f, r->kernel), fputc(',', f);
    spmv_csv_field(f, cl->device_name), fputc(',', f);
    spmv_csv_field(f, drv), fputc(',', f);
    spmv_csv_field(f, s->A.origin.name);
    fprintf(f, ",%d,%lld,%c,%.6g,%d,%d,%.6g,%.6g", s->n, s->A.nnz, s->p, r->tol, r->iterations, r->converged,
            r->rel_residual, r->true_residual);
    if (timed)
        fprintf(f, ",%.6g,%.6g,%.6g,%.6g", r->setup_ms, r->solve_ms, r->setup_ms + r->solve_ms,
                r->solve_ms / (r->iterations > 0 ? r->iterations : 1));
    else
        fputs(",,,,", f);
    if (timed && !isnan(r->apply_ms))
        fprintf(f, ",%.6g", r->apply_ms);
    else
        fputc(',', f);
    if (r->levels)
        fprintf(f, ",%d,", r->levels);
    else
        fputs(",,", f);
    spmv_csv_field(f, r->check);
    fprintf(f, ",%s,%s\n", date, spmv_git_rev());
    if (fclose(f) != 0)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s", o->csv);
}

void report_trsv(const spmv_options *o, const pcg_dev *d, const cg_system *s, const pcg_row *r)
{
    if (d->ver->pc != PC_SOLVE)
        return;
    const char *trsv_csv = spmv_own_word(o, "--trsv-csv", NULL);
    double us = d->L.lv.nlev ? 1e3 * r->lsolve_ms / d->L.lv.nlev : 0;
    printf("trsv     L y = v alone: %.4f ms on the device's clock (events, median of %d; %.4f ms on the host's, each "
           "waited for), %d levels: %.3f us a level%s\n", r->lsolve_ms, APPLY_RUNS, r->lsolve_host_ms,
           d->L.lv.nlev, us, d->ver->form == FORM_SWEEPS ? " (the sweeps do not go level by level)" : "");
    if (!trsv_csv || d->ver->form == FORM_SWEEPS)
        return;
    FILE *f = spmv_csv_append(trsv_csv, TRSV_CSV_HEADER);
    char date[32], drv[400];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(drv, sizeof drv, "%s %s", d->cl->platform_name, d->cl->driver);
    fputs("step9,", f);
    spmv_csv_field(f, r->kernel), fputc(',', f);
    spmv_csv_field(f, d->cl->device_name), fputc(',', f);
    spmv_csv_field(f, drv), fputc(',', f);
    spmv_csv_field(f, s->A.origin.name);
    fprintf(f, ",%d,%lld,%c,%d,%.6g,%.6g,", s->n, r->factor_nnz, s->p, d->L.lv.nlev, r->lsolve_ms, us);
    spmv_csv_field(f, r->check);
    fprintf(f, ",%s,%s\n", date, spmv_git_rev());
    if (fclose(f) != 0)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --trsv-csv %s", trsv_csv);
}
