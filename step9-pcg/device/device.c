/* device/device.c - chapter 9's setup: the preconditioner on the host, the
 * sizes, buffers, program and arguments (device/device.h) */
#include "device.h"
#include "../../step7-cg/device/sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* chapter 7's kernels (the vector kernels' helpers and the product's hook)
 * and chapter 6's (the product), built around this step's kernel.cl */
#define STEP7_KERNEL_PATH SPMV_STEP_DIR "/../step7-cg/kernel.cl"
#define STEP6_KERNEL_PATH SPMV_STEP_DIR "/../step6-csr/kernel.cl"
#ifndef CHAIN_LOCAL_GPU
#define CHAIN_LOCAL_GPU 256    /* a chain's one work-group on a GPU, fixed at build time (NVIDIA's compiler
                                  * allows trsv_chain no more: TUNING.md, entries 1 and 6) */
#endif
#ifndef WIDE_GPU
#define WIDE_GPU 8             /* ...and a level of 8 times as many rows gets its own launch */
#endif
#define WIDE_CPU 4096          /* on a CPU a chain is one work-item: a level of 4096 rows is spread over the cores */

static const char *const KNAME[K_COUNT] = { NULL, "pcg_alpha", "pcg_update_r", "pcg_dot", "pcg_update_xp",
                                            "pcg_start", "trsv_level", "trsv_chain", "trsv_sweep",
                                            "trsv_syncfree", "trsv_mark", "pcg_persistent", "trsv_serial",
                                            "trsv_serial_t", "csr_serial" };

static void die_err(const spmv_error *err)
{
    spmv_die(SPMV_EXIT_RESOURCES, "%s", err->msg);
}

void device_precondition(pcg_dev *d, const cg_system *s)
{
    spmv_error err;
    const pcg_version *v = d->ver;
    int n = s->n;
    d->A = &s->A;
    d->bh = s->b;
    double t0 = spmv_now();
    if (v->color) {   /* the rows by color, the system reordered: P A P^T (P x) = P b */
        d->perm = spmv_alloc(n ? (size_t)n : 1, sizeof(int), "the ordering", &err);
        if (!d->perm || color_greedy(&s->A, d->perm, &d->ncolors, &err) || csr_permute(&s->A, d->perm, &d->Ap, &err))
            die_err(&err);
        d->bh = spmv_alloc(n ? (size_t)n : 1, sizeof(double), "the ordered b", &err);
        if (!d->bh)
            die_err(&err);
        for (int i = 0; i < n; i++)
            d->bh[i] = s->b[d->perm[i]];
        d->A = &d->Ap;
        printf("order    %d colors (greedy, rows in natural order): the rows of one color share no entry; "
               "rows ordered by color, A and b with them\n", d->ncolors);
    }
    double t1 = spmv_now();
    d->order_ms = (t1 - t0) * 1e3;
    if (v->pc != PC_SOLVE)
        return;
    if (ic0_pattern(d->A, &d->f, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    double t2 = spmv_now();
    if (tri_levels_make(&d->f.L, &d->L.lv, &err))   /* from L's pattern: the factor's rows go level by level */
        die_err(&err);
    double t3 = spmv_now();
    if (ic0_values(d->A, &d->f, &d->L.lv, &err) || (v->form != FORM_PERSISTENT && ic0_upper(d->A, &d->f, &err)))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    double t4 = spmv_now();
    d->factor_ms = (t2 - t1 + t4 - t3) * 1e3;
    printf("factor   IC(0) on A's lower pattern, %lld entries, in double%s", d->f.L.nnz,
           d->f.shift > 0 ? "" : "; no shift\n");
    if (d->f.shift > 0)
        printf("; a pivot was not positive: A + %g diag(A) factored (%d tries)\n", d->f.shift, d->f.tries);
    if (v->form == FORM_LEVELS && tri_levels_make(&d->f.U, &d->U.lv, &err))   /* only the levels' solve uses U's */
        die_err(&err);
    d->levels_ms = (t3 - t2 + spmv_now() - t4) * 1e3;
}

/* The schedule of one factor's solve: consecutive narrow levels chained */
static void schedule(tri_dev *t, int wide, spmv_error *err)
{
    tri_levels *lv = &t->lv;
    t->nlev = lv->nlev, t->widest = lv->widest;
    t->seg = spmv_alloc(lv->nlev ? (size_t)lv->nlev : 1, sizeof(tri_seg), "the solve's schedule", err);
    if (!t->seg)
        die_err(err);
    t->nseg = t->chains = 0;
    for (int l = 0; l < lv->nlev; l++) {
        int w = lv->lev_ptr[l + 1] - lv->lev_ptr[l], chain = w < wide;
        if (chain && t->nseg && t->seg[t->nseg - 1].chain)
            t->seg[t->nseg - 1].hi = l + 1;
        else {
            t->seg[t->nseg++] = (tri_seg){ l, l + 1, chain };
            t->chains += chain;
        }
    }
}

void device_sizes(pcg_dev *d, const spmv_options *o, const cg_system *s)
{
    spmv_cl *cl = d->cl;
    size_t n1 = d->n ? (size_t)d->n : 1;
    int group, unroll, vector = cg_product_choice("step9", o, &s->st, d->gpu, s->vsize, &group, &unroll);
    size_t local = cg_product_local(cl, o, vector, group);
    size_t global = spmv_round_up(n1 * (vector ? group : 1), local);
    d->npq = (int)(global / local);
    d->spmv_scratch = local;   /* the p.q sum: a value per work-item (and the vector kernel's tree) */
    size_t cg_local;
    d->ng = cg_vector_groups(cl, d->gpu, n1, &cg_local);
    for (int i = 0; i < K_COUNT; i++) {
        d->local[i] = i == K_SPMV ? local : cg_local;
        d->global[i] = i == K_SPMV ? global : (size_t)d->ng * cg_local;
    }
    d->local[K_ALPHA] = d->global[K_ALPHA] = cg_one_group(cl, d->gpu);
    d->local[K_CHAIN] = d->global[K_CHAIN] = d->gpu ? (CHAIN_LOCAL_GPU < cl->max_wg ? CHAIN_LOCAL_GPU : cl->max_wg) : 1;
    d->local[K_LEVEL] = d->gpu ? cg_local : 1;
    d->local[K_PERSIST] = d->global[K_PERSIST] = d->local[K_SERIAL] = d->global[K_SERIAL] = 1;   /* one work-item */
    d->local[K_SERIAL_T] = d->global[K_SERIAL_T] = d->local[K_CSR_SERIAL] = d->global[K_CSR_SERIAL] = 1;
    if (!d->wide)
        d->wide = d->gpu ? WIDE_GPU * (int)d->local[K_CHAIN] : WIDE_CPU;
    printf("spmv     chapter 6's csr_%s: global %zu, local %zu%s\n", vector ? "vector" : "scalar", global, local,
           vector ? "" : " (a row a work-item)");
    d->group = group, d->unroll = unroll, d->vector = vector;
}

/* a host array kept until the version is released (common/clutil.h: on a
 * CPU a read-only buffer uses its host array in place) */
static void *kept_alloc(pcg_dev *d, size_t count, size_t size, const char *what)
{
    if (d->nkept == (int)(sizeof d->kept / sizeof *d->kept))
        spmv_die(SPMV_EXIT_RESOURCES, "step9 keeps more host arrays than device.h holds (%s)", what);
    spmv_error err;
    void *out = spmv_alloc(count ? count : 1, size, what, &err);
    if (!out)
        die_err(&err);
    d->kept[d->nkept++] = out;
    return out;
}

/* values in the device's precision, kept */
static void *device_values(pcg_dev *d, const double *v, long long count, const char *what)
{
    int single = d->single;
    void *out = kept_alloc(d, (size_t)count, single ? sizeof(float) : sizeof(double), what);
    for (long long i = 0; i < count; i++)
        if (single)
            ((float *)out)[i] = (float)v[i];
        else
            ((double *)out)[i] = v[i];
    return out;
}

/* ic0-persistent's order: L's level order where its rows are short (a
 * grid's row reads the row just before it, so in natural order each row
 * waits on the last), natural order where they average PERSIST_LONG_ROW
 * entries or more (measured: TUNING.md, entries 14 and 18; a guess at why:
 * the loads, not that wait, take the time, and the rows are read as they lie) */
int persist_natural(const tri_matrix *T)
{
    return T->n > 0 && T->nnz >= (long long)PERSIST_LONG_ROW * T->n;
}

/* The factor as the device holds it: each row's diagonal entry as its
 * reciprocal (the kernels multiply: no division, whose code is long). The
 * level forms hold it by position in the level order (kernel.cl,
 * trsv_fetch): the rows of a level side by side, row order[k] at ptr[k];
 * the sweeps and the sync-free solve, row by row. */
static void tri_upload(pcg_dev *d, tri_dev *t, const tri_matrix *T)
{
    size_t n1 = (size_t)T->n + 1, nnz1 = T->nnz ? (size_t)T->nnz : 1;
    /* in double the copy is what the device gets, kept; in float, rounded from it */
    double *copy = d->single ? malloc(nnz1 * sizeof *copy) : kept_alloc(d, nnz1, sizeof *copy, "the factor's values");
    if (!copy)
        spmv_die(SPMV_EXIT_RESOURCES, "out of host memory for the factor's values");
    const int *ptr = T->ptr, *col = T->col;
    int by_level = d->ver->form == FORM_LEVELS || (d->ver->form == FORM_PERSISTENT && !persist_natural(T));
    if (by_level) {
        int *pp = kept_alloc(d, n1, sizeof(int), "the factor by level"), *pc = kept_alloc(d, nnz1, sizeof(int), "the factor by level");
        pp[0] = 0;
        for (int k = 0; k < T->n; k++) {
            int i = t->lv.order[k], a = T->ptr[i], len = T->ptr[i + 1] - a;
            memcpy(pc + pp[k], T->col + a, (size_t)len * sizeof(int));
            memcpy(copy + pp[k], T->val + a, (size_t)len * sizeof(double));
            pp[k + 1] = pp[k] + len;
        }
        ptr = pp, col = pc;
    } else
        memcpy(copy, T->val, (size_t)T->nnz * sizeof *copy);
    for (int i = 0; i < T->n; i++) {
        int at = T->lower ? ptr[i + 1] - 1 : ptr[i];
        copy[at] = 1 / copy[at];
    }
    void *val = copy;
    if (d->single) {
        val = device_values(d, copy, T->nnz, "the factor's values");
        free(copy);
    }
    t->lower = T->lower;
    t->ptr = spmv_cl_buffer(d->cl, CL_MEM_READ_ONLY, n1 * sizeof(int), ptr, "the factor's row pointers");
    t->col = spmv_cl_buffer(d->cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), col, "the factor's columns");
    t->val = spmv_cl_buffer(d->cl, CL_MEM_READ_ONLY, nnz1 * d->vsize, val, "the factor's values");
    if (by_level)
        t->order = spmv_cl_buffer(d->cl, CL_MEM_READ_ONLY, (n1 - 1 ? n1 - 1 : 1) * sizeof(int), t->lv.order,
                                  "the rows by level");
    else if (d->ver->form == FORM_PERSISTENT) {   /* natural order: the order the identity */
        int *id = kept_alloc(d, n1, sizeof(int), "the rows in order");
        for (int i = 0; i < T->n; i++)
            id[i] = i;
        t->order = spmv_cl_buffer(d->cl, CL_MEM_READ_ONLY, (n1 - 1 ? n1 - 1 : 1) * sizeof(int), id, "the rows in order");
    }
    if (d->ver->form == FORM_LEVELS)   /* the persistent form walks the order alone */
        t->lev_ptr = spmv_cl_buffer(d->cl, CL_MEM_READ_ONLY, ((size_t)t->lv.nlev + 1) * sizeof(int),
                                    t->lv.lev_ptr, "the levels' starts");
    if (d->ver->form == FORM_SYNCFREE && d->local[K_SPMV] % 32)
        spmv_die(SPMV_EXIT_USAGE, "ic0-syncfree sums a row by warp shuffles, which chapter 6 builds only for a "
                 "--local-size that is a multiple of 32 (not %zu)", d->local[K_SPMV]);
    if (d->ver->form == FORM_SYNCFREE) {   /* the flags, 0 (no solve's stamp), and the counter */
        int *zero = calloc(n1, sizeof(int));
        if (!zero)
            spmv_die(SPMV_EXIT_RESOURCES, "out of host memory for the solve's flags");
        t->done = spmv_cl_buffer(d->cl, CL_MEM_READ_WRITE, (n1 - 1 ? n1 - 1 : 1) * sizeof(int), zero, "the flags");
        t->ticket = spmv_cl_buffer(d->cl, CL_MEM_READ_WRITE, 2 * sizeof(int), zero, "the rows' counters");
        free(zero);
    }
}

static void bind(cl_kernel k, int at, size_t size, const void *v)
{
    CL_CHECK(clSetKernelArg(k, (cl_uint)at, size, v));
}
#define BIND(k, at, v) bind((k), (at), sizeof(v), &(v))

static void bind_args(pcg_dev *d)
{
    int n = d->n, zero = 0;
    cl_kernel *k = d->k;
    cl_mem sa[] = { d->ptr, d->col, d->val, d->p, d->q };
    BIND(k[K_SPMV], 0, n);
    for (int i = 0; i < 5; i++)
        BIND(k[K_SPMV], 1 + i, sa[i]);
    bind(k[K_SPMV], 6, d->spmv_scratch * d->vsize, NULL);
    size_t scratch = d->local[K_UPD_R] * d->vsize;
    cl_mem al[] = { d->rr_part, d->rz_part };
    BIND(k[K_ALPHA], 0, d->ng);
    BIND(k[K_ALPHA], 1, al[0]), BIND(k[K_ALPHA], 2, al[1]);
    BIND(k[K_ALPHA], 3, d->npq), BIND(k[K_ALPHA], 4, d->q), BIND(k[K_ALPHA], 5, n);
    BIND(k[K_ALPHA], 7, d->scal), BIND(k[K_ALPHA], 8, d->state);
    bind(k[K_ALPHA], 9, d->local[K_ALPHA] * d->vsize, NULL);
    cl_mem ur[] = { d->q, d->r, d->dinv, d->scal, d->state, d->rr_part, d->rz_part };
    BIND(k[K_UPD_R], 0, n);
    for (int i = 0; i < 7; i++)
        BIND(k[K_UPD_R], 1 + i, ur[i]);
    bind(k[K_UPD_R], 8, scratch, NULL);
    cl_mem dt[] = { d->r, d->z, d->state, d->rz_part };
    BIND(k[K_DOT], 0, n);
    for (int i = 0; i < 4; i++)
        BIND(k[K_DOT], 1 + i, dt[i]);
    bind(k[K_DOT], 5, scratch, NULL);
    cl_mem xp[] = { d->x, d->p, d->r, d->z, d->dinv, d->scal, d->state };
    BIND(k[K_UPD_XP], 0, n);
    for (int i = 0; i < 7; i++)
        BIND(k[K_UPD_XP], 1 + i, xp[i]);
    BIND(k[K_UPD_XP], 8, d->ng), BIND(k[K_UPD_XP], 9, d->rz_part);
    bind(k[K_UPD_XP], 10, scratch, NULL);
    cl_mem st[] = { d->b, d->q, d->r, d->p, d->z, d->dinv, d->rr_part, d->rz_part };
    BIND(k[K_START], 0, n), BIND(k[K_START], 1, zero);
    for (int i = 0; i < 8; i++)
        BIND(k[K_START], 2 + i, st[i]);
    bind(k[K_START], 10, scratch, NULL);
    BIND(k[K_SWEEP], 0, n);
    if (k[K_SYNC])
        BIND(k[K_SYNC], 0, n), BIND(k[K_SYNC], 10, d->fail), BIND(k[K_MARK], 0, n);
    if (k[K_PERSIST]) {   /* all but count (1) and thresh (2): main.c's loop sets them */
        cl_mem pa[] = { d->ptr, d->col, d->val, d->L.ptr, d->L.col, d->L.val, d->L.order, d->x, d->r, d->p, d->q, d->z };
        BIND(k[K_PERSIST], 0, n);
        for (int i = 0; i < 12; i++)
            BIND(k[K_PERSIST], 3 + i, pa[i]);
        BIND(k[K_PERSIST], 15, d->ng), BIND(k[K_PERSIST], 16, al[0]), BIND(k[K_PERSIST], 17, al[1]);
        BIND(k[K_PERSIST], 18, d->scal), BIND(k[K_PERSIST], 19, d->state);
        cl_mem lt[] = { d->L.ptr, d->L.col, d->L.val, d->L.order };
        BIND(k[K_SERIAL], 0, n), BIND(k[K_SERIAL_T], 0, n);
        for (int i = 0; i < 4; i++)   /* T y = v's factor, both solves: L's rows */
            BIND(k[K_SERIAL], 1 + i, lt[i]), BIND(k[K_SERIAL_T], 1 + i, lt[i]);
        for (int i = 0; i < 3; i++)   /* q = A p */
            BIND(k[K_CSR_SERIAL], 1 + i, pa[i]);
        BIND(k[K_CSR_SERIAL], 0, n), BIND(k[K_CSR_SERIAL], 4, d->p), BIND(k[K_CSR_SERIAL], 5, d->q);
    }
}

void *device_buffers(pcg_dev *d, const cg_system *s)
{
    spmv_cl *cl = d->cl;
    const csr_matrix *A = d->A;
    size_t n1 = d->n ? (size_t)d->n : 1, nnz1 = A->nnz ? (size_t)A->nnz : 1, vs = (size_t)d->vsize;
    void *val = d->A == &s->A ? NULL : device_values(d, A->re, A->nnz, "the ordered values");
    void *bd = d->bh == s->b ? NULL : device_values(d, d->bh, d->n, "the ordered b");
    d->ptr = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (n1 + 1) * sizeof(int), A->ptr, "row pointers");
    d->col = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), A->nnz ? A->col : NULL, "column indices");
    d->val = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, nnz1 * vs, A->nnz ? (val ? val : s->val) : NULL, "matrix values");
    d->b = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, n1 * vs, bd ? bd : s->bd, "b");
    d->bdev = bd ? bd : s->bd;
    const char *vn[] = { "x", "r", "p", "z", "y", "t" };
    cl_mem *vb[] = { &d->x, &d->r, &d->p, &d->z, &d->y, &d->t };
    for (int i = 0; i < 6; i++)
        *vb[i] = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (i < 3 || d->ver->pc == PC_SOLVE ? n1 : 1) * vs, NULL, vn[i]);
    d->q = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (n1 + (size_t)d->npq) * vs, NULL, "q and the product's partials");
    d->rr_part = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (size_t)d->ng * vs, NULL, "r.r partials");
    d->rz_part = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (size_t)d->ng * vs, NULL, "r.z partials");
    d->scal = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, (4 + 2 * (size_t)d->kappa) * vs, NULL,
                             "r.z, alpha and r.r (and --kappa's alpha and beta)");
    int zero = 0;
    d->state = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, "state");
    d->fail = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, sizeof(int), &zero, "a sync-free spin's failure");
    double *dinv = NULL;
    spmv_error err;
    if (d->ver->pc == PC_JACOBI) {   /* 1 / a_ii (a_ii > 0 checked: not positive definite otherwise) */
        dinv = spmv_alloc(n1, sizeof(double), "1 / diag(A)", &err);
        if (!dinv)
            die_err(&err);
        for (int i = 0; i < d->n; i++) {
            double a = 0;
            for (int k = A->ptr[i]; k < A->ptr[i + 1]; k++)
                a = A->col[k] == i ? A->re[k] : a;
            if (!(a > 0))
                spmv_die(SPMV_EXIT_USAGE, "a_%d,%d = %g is not positive: A is not positive definite", i + 1,
                         i + 1, a);
            dinv[i] = 1 / a;
        }
    }
    void *dv = dinv ? device_values(d, dinv, d->n, "1 / diag(A)") : NULL;
    d->dinv = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, (dv ? n1 : 1) * vs, dv, "1 / diag(A)");
    free(dinv);
    if (d->ver->pc == PC_SOLVE) {
        tri_upload(d, &d->L, &d->f.L);
        if (d->ver->form != FORM_PERSISTENT)   /* its U solve reads L's rows (kernel.cl) */
            tri_upload(d, &d->U, &d->f.U);
        if (d->ver->form == FORM_LEVELS) {
            schedule(&d->L, d->wide, &err);
            schedule(&d->U, d->wide, &err);
        }
    }
    void *tmp = spmv_alloc(n1 > (size_t)d->ng + 4 ? n1 : (size_t)d->ng + 4, vs, "read-back", &err);
    if (!tmp)
        die_err(&err);
    return tmp;
}

void device_program(pcg_dev *d, const spmv_options *o, const cg_system *s)
{
    spmv_cl *cl = d->cl;
    char opts[1024];
    /* sync-free: a work-item a row (TUNING.md, entries 8 and 10: the fastest, or level with a warp, wherever
     * both were run) */
    d->lanes = 1;
#ifdef SYNC_LANES
    d->lanes = SYNC_LANES;   /* a build's own (TUNING.md, entry 8): 1, 2, 4, 8, 16 or 32 */
#endif
    char extra[128];
    if (d->ver->form == FORM_SYNCFREE)
        snprintf(extra, sizeof extra, " -DCG_FUSED -DPC_SOLVE -DSYNC_FREE -DROW_LANES=%d", d->lanes);
    else if (d->ver->pc == PC_SOLVE && d->gpu)   /* the chain's work-group, fixed: kernel.cl, trsv_chain */
        snprintf(extra, sizeof extra, " -DCG_FUSED -DPC_SOLVE -DCHAIN_WG=%zu", d->local[K_CHAIN]);
    else
        snprintf(extra, sizeof extra, " -DCG_FUSED %s", d->ver->pc == PC_SOLVE ? "-DPC_SOLVE"
                 : d->ver->pc == PC_JACOBI ? "-DPC_JACOBI" : "-DPC_NONE");
    if (d->kappa)   /* the first d->kappa iterations' alpha and beta kept (kernel.cl, report_kappa) */
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " -DPCG_HISTORY=%d", d->kappa);
    cg_program_options(opts, sizeof opts, cl, o, s->p, d->gpu, d->local[K_SPMV], d->group, d->unroll, extra);
    const char *src[3] = { STEP7_KERNEL_PATH, o->kernel_file, STEP6_KERNEL_PATH };
    d->prog = spmv_cl_build_files(cl, src, 3, opts);
    d->k[K_SPMV] = spmv_cl_kernel(d->prog, d->vector ? "csr_vector" : "csr_scalar");
    for (int i = 1; i < K_COUNT; i++)
        if (((i != K_SYNC && i != K_MARK) || d->ver->form == FORM_SYNCFREE) &&
            ((i != K_PERSIST && i != K_SERIAL && i != K_SERIAL_T && i != K_CSR_SERIAL) || d->ver->form == FORM_PERSISTENT))
            d->k[i] = spmv_cl_kernel(d->prog, KNAME[i]);
    d->local[K_ALPHA] = d->global[K_ALPHA] = cg_fit_group(cl, d->k[K_ALPHA], d->local[K_ALPHA]);
    size_t chain = d->local[K_CHAIN];
    d->local[K_CHAIN] = d->global[K_CHAIN] = cg_fit_group(cl, d->k[K_CHAIN], chain);
    if (d->gpu && d->ver->pc == PC_SOLVE && d->local[K_CHAIN] != chain)   /* built for CHAIN_WG = chain */
        spmv_die(SPMV_EXIT_RESOURCES, "%s allows trsv_chain a work-group of %zu, not the %zu it was built for: "
                 "make step9 CFLAGS_step9=-DCHAIN_LOCAL_GPU=%zu", cl->device_name, d->local[K_CHAIN], chain,
                 d->local[K_CHAIN]);
    for (int i = 0; i < K_COUNT; i++)
        if (d->k[i])
            spmv_cl_check_local(cl, d->k[i], d->local[i]);
    bind_args(d);
}

int device_sync_free_ok(const spmv_cl *cl, int gpu)
{
    cl_uint major = 0;   /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
    return gpu && cl->ptx &&
           clGetDeviceInfo(cl->device, 0x4000, sizeof major, &major, NULL) == CL_SUCCESS && major >= 7;
}

void device_release(pcg_dev *d)
{
    for (int i = 0; i < K_COUNT; i++)
        if (d->k[i])
            clReleaseKernel(d->k[i]);
    if (d->prog)
        clReleaseProgram(d->prog);
    cl_mem bufs[] = { d->ptr, d->col, d->val, d->b, d->x, d->r, d->p, d->q, d->z, d->y, d->t, d->dinv,
                      d->rr_part, d->rz_part, d->scal, d->state, d->fail, d->L.ptr, d->L.col, d->L.val,
                      d->L.order, d->L.lev_ptr, d->L.done, d->L.ticket, d->U.ptr, d->U.col, d->U.val, d->U.order,
                      d->U.lev_ptr, d->U.done, d->U.ticket };
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        if (bufs[i])
            clReleaseMemObject(bufs[i]);
    free(d->L.seg), free(d->U.seg);
    tri_levels_free(&d->L.lv), tri_levels_free(&d->U.lv);
    ic0_free(&d->f);
    if (d->perm)
        free(d->bh);
    for (int i = 0; i < d->nkept; i++)
        free(d->kept[i]);
    free(d->perm), free(d->Ap.ptr), free(d->Ap.col), free(d->Ap.re);
}
