/* reference/system.c - the system of a CG solve: reference/system.h */
#include "system.h"
#include "cg.h"
#include "precision.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#define HOST_CG_BUDGET 4e9   /* nonzeros x iterations the host's CG may take (a few seconds) */

void spmv_cg_read_system(spmv_options *o, const spmv_cl *cl, const spmv_step *step, cg_system *s)
{
    spmv_input in;
    spmv_read_csr(cl->run, o, &cl->limits, &in);
    spmv_save_matrix(cl->run, o, &in);
    csr_matrix *A = &s->A;
    spmv_load_csr(cl->run, o, &in, A);
    int brow, bcol;
    if (A->rows != A->cols)
        spmv_die(SPMV_EXIT_USAGE, "%s is %d x %d: CG solves a square system (a symmetric positive definite "
                 "matrix)", A->origin.name, A->rows, A->cols);
    if (A->im)
        spmv_die(SPMV_EXIT_USAGE, "%s is complex: %s solves real symmetric positive definite systems",
                 A->origin.name, step->name);
    if (!spmv_csr_symmetric(A, &brow, &bcol))
        spmv_die(SPMV_EXIT_USAGE, "%s is not symmetric (a(%d,%d) != a(%d,%d), 1-based): CG needs a symmetric "
                 "positive definite matrix", A->origin.name, brow + 1, bcol + 1, bcol + 1, brow + 1);
    s->p = spmv_csr_precision(o, A);
    if (s->p != 's' && s->p != 'd')
        spmv_die(SPMV_EXIT_USAGE, "--precision %c: %s solves in s (float) or d (double)", s->p, step->name);
    if (s->p == 'd' && !cl->fp64)
        spmv_skip(cl->run, step, o, cl, o->variant, "this device has no cl_khr_fp64, which --precision d needs");
    s->single = s->p == 's', s->vsize = spmv_prec_value_size(s->p), s->n = A->rows;
    if (s->single)
        csr_round_to_float(cl->run, A);   /* the host's CG and residual see the numbers the device sees */
    printf("matrix   %s: %d x %d, %lld nonzeros, symmetric\n", A->origin.name, A->rows, A->cols, A->nnz);
    s->st = spmv_row_lengths(A);
    s->tol = o->tol_set ? o->tol : s->single ? 1e-5 : 1e-10;
    spmv_error err;
    int n = s->n;
    s->b = o->b_file ? spmv_read_vector(o->b_file, "--b", n, s->single)
                     : spmv_random_doubles(n ? (size_t)n : 1, o->seed, s->single, &err);
    if (!s->b)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    char comment[600];
    snprintf(comment, sizeof comment, "b of %s on %s, %s (--seed %llu), %s", step->name, A->origin.name,
             o->b_file ? "read" : "seeded random", (unsigned long long)o->seed, spmv_prec_words(s->single, 0));
    spmv_save_vector(o->save_b, "--save-b", s->b, n, s->single, comment);
    s->bb = 0;
    for (int i = 0; i < n; i++)
        s->bb += s->b[i] * s->b[i];
    /* A's values go to the device array; the host keeps a double copy */
    s->val = spmv_prec_take(cl->run, A, s->p, &err);
    s->ah = s->val ? spmv_alloc(A->nnz ? (size_t)A->nnz : 1, sizeof *s->ah, "values", &err) : NULL;
    s->bd = s->ah ? spmv_prec_pack_doubles(s->b, (size_t)n, s->single, &err) : NULL;
    if (!s->bd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    for (long long k = 0; k < A->nnz; k++)
        s->ah[k] = s->single ? ((float *)s->val)[k] : ((double *)s->val)[k];
    A->re = s->ah;
}

/* The host's CG in double (step7-cg/reference/cg.c): its iteration count is the one the
 * device's must match. Within a budget of a few seconds; past it, or at
 * --tol 0, there is no count to compare, and the output says so. */
void spmv_cg_host_count(const cg_system *s, int fixed, int maxiter, double *xh, spmv_cg_result *host)
{
    spmv_error err;
    int cap = (int)fmin(maxiter, fmax(1, HOST_CG_BUDGET / (s->A.nnz ? (double)s->A.nnz : 1)));
    if (fixed) {
        printf("host CG  not run: --tol 0 has no count to compare; r is held to b - A x instead\n");
        host->end = CG_MAXITER;
        return;
    }
    if (spmv_cg_host(&s->A, s->b, xh, s->tol, cap, host, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    printf("host CG  %d iterations in double (step7-cg/reference/cg.c), %s\n", host->iterations,
           host->end == CG_CONVERGED ? "converged" : host->end == CG_BREAKDOWN ? "broke down"
           : cap < maxiter ? "not converged within its budget (nonzeros x iterations <= 4e9): no count to compare"
                           : "not converged");
}
