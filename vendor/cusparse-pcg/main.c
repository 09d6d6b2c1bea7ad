/* vendor/cusparse-pcg/main.c - chapter 9's GPU yardstick: a preconditioned
 * conjugate gradient of cuSPARSE and cuBLAS in the form of NVIDIA's CUDA
 * sample conjugateGradientPrecond, its preconditioner the incomplete
 * Cholesky factor IC(0) of cusparseXcsric02, on exactly the matrix and b the
 * course solves (build/libspmv.a: step7's and step9's loader, --gen and seed).
 *
 *   make cusparse                                          build/cusparse-pcg, where nvcc and cuSPARSE are found
 *   build/cusparse-pcg --gen poisson:nx=512 --pcg-csv pcg.csv
 *   build/cusparse-pcg --matrix tests/data/bcsstk01.rsa --tol 1e-8
 *   build/cusparse-pcg --gen poisson:nx=512 --spsv-only --trsv-csv trsv.csv
 *
 * The setup, before the first iteration: A and b uploaded, A's values copied
 * into L's (A's own row pointers and columns: csric02 writes L over the lower
 * triangle and leaves the upper one as it was), csric02's analysis (a
 * structural zero, a row without its diagonal, is said and is status 1), the
 * factorization (a numerical zero said by csric02_zeroPivot; a negative or
 * NaN pivot found on the host in L's diagonal), then one cuSPARSE matrix of
 * L (fill mode lower, non-unit diagonal: cusparseSpSV reads no entry above
 * the diagonal) and two cusparseSpSV descriptors analysed: L y = r
 * (CUSPARSE_OPERATION_NON_TRANSPOSE) and L^T z = y (CUSPARSE_OPERATION_
 * TRANSPOSE of the same L, as NVIDIA's IC(0) example CUDALibrarySamples
 * cuSPARSE/cg does: no upper matrix is built).
 *
 * Each iteration, from x0 = 0 (r = b), is the sample's:
 *     z = L^-T L^-1 r     cusparseSpSV_solve twice (y = L^-1 r between)
 *     rz = r . z          cublasXdot, read back      (rz <= 0: M not positive definite)
 *     p = z + beta p      cublasXscal + cublasXaxpy, beta = rz / rz_old (the first: cublasXcopy)
 *     q = A p             cusparseSpMV (CSR, CUSPARSE_SPMV_ALG_DEFAULT)
 *     pq = p . q          cublasXdot, read back      alpha = rz / pq (pq <= 0: breakdown)
 *     x += alpha p        cublasXaxpy
 *     r -= alpha q        cublasXaxpy
 *     rr = r . r          cublasXdot, read back      the stopping test
 * 10 library calls. The sample also copies r and z aside (two cublasXcopy)
 * to compute the last r . z once more for beta, and computes r . z twice an
 * iteration; here the last one is kept on the host: the same numbers. It
 * stops when sqrt(rr) <= tol ||b|| before an iteration (the course's test,
 * on the unpreconditioned residual: step7-cg/reference/cg.h) or after
 * --maxiter; --tol 0 runs exactly --maxiter iterations.
 *
 * Timing. The setup twice: once untimed (the libraries load their kernels),
 * then timed on the host clock between two cudaDeviceSynchronize; the solve
 * (a warm-up of 3 iterations after the untimed setup) on the host clock (each
 * iteration ends with a dot read back); the preconditioner's apply, the two
 * solves alone, in a loop of their own afterwards: 20 runs, each between two
 * CUDA events, the median. --spsv-only: the factor, then each solve alone, 5
 * warm-ups and the median of 50 runs between CUDA events.
 *
 * Checks on the host, in double: the solve's true residual ||b - A x|| /
 * ||b|| must meet --tol (step7's cg_check_meets); each triangular solve
 * (--spsv-only), into a y poisoned with NaN first, row by row:
 * |v_i - sum_j t_ij y_j| <= eps (n_i + 10) sum_j |t_ij y_j|. Rows: --pcg-csv
 * (step9's header), --trsv-csv (two rows: L and L^T). Without a CUDA device:
 * one line, SKIP rows, status 3.
 */
#define _DEFAULT_SOURCE   /* on_exit (glibc): --help adds this program's own options after the course's */
#include "../../step7-cg/reference/cg.h"
#include "../../step7-cg/report/check.h"
#include "cuda.h"
#include "precision.h"
#include "results.h"

#include <cublas_v2.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OPENCL_ONLY "it is an OpenCL option; cuSPARSE and cuBLAS choose their own kernels"
#define NOT_THE_GRID "the DIA grid is not symmetric; PCG takes --gen poisson:nx=W[,ny=H] or --matrix FILE"
#define NOT_HERE "not in this yardstick (step9 takes it)"
static const spmv_step STEP = {
    .name = "cusparse-pcg",
    .title = "a preconditioned CG of cuSPARSE and cuBLAS on step9's system, the vendor reference: IC(0) by "
             "cusparseXcsric02, its two triangular solves by cusparseSpSV, in the form of the CUDA sample "
             "conjugateGradientPrecond",
    .kernel_path = "(none: cuSPARSE and cuBLAS are libraries)",
    .takes = OPT_DEVICE | OPT_PRECISION | OPT_CG,
    .model_bytes = 0,
    .default_matrix = "--gen poisson:nx=512, the 5-point Laplacian on a 512 x 512 grid",
    .precisions = "sd",
    .refusals = (const spmv_note[]){
        { "--local-size", OPENCL_ONLY }, { "--kernel-file", OPENCL_ONLY }, { "--cl-opts", OPENCL_ONLY },
        { "--grid", NOT_THE_GRID }, { "--radius", NOT_THE_GRID },
        { "--x", "b is --b FILE" },
        { "--save-x", NOT_HERE }, { "--save-b", NOT_HERE }, { NULL, NULL } },
    .defaults = (const spmv_note[]){ { "--precision", "d" }, { NULL, NULL } },
    .exit_statuses = "0 solved and checked (or the fixed iterations of --tol 0 done and checked; --spsv-only: "
                     "both solves checked), 1 check failed, a pivot of IC(0) not positive, or breakdown, 2 bad "
                     "input or out of memory, 3 skipped (no CUDA device), 4 --maxiter reached before --tol",
    /* the host's estimate (capacity.h): L's values, its transpose and levels
     * (the checks), x, y, the solves' vectors read back */
    .holds = { .part = "IC(0)'s factor, its transpose and levels", .part_row = 48, .part_nnz = 24 },
};
#define KERNEL_PCG "cusparse-ic0"
#define KERNEL_SPSV "cusparse-spsv"
#define KERNEL_SPSV_T "cusparse-spsv-t"
#define PCG_HEADER                                                                                          \
    "step,kernel,device,driver,matrix,rows,nnz,precision,tol,iterations,converged,rel_residual,"          \
    "true_residual,setup_ms,solve_ms,total_ms,ms_per_iter,apply_ms_per_iter,levels,check,date,git_rev"
#define TRSV_HEADER \
    "step,kernel,device,driver,matrix,rows,nnz_factor,precision,levels,ms_per_solve,us_per_level,check,date,git_rev"
#define WARMUP_ITERATIONS 3   /* the untimed solve after the untimed setup */
#define APPLY_RUNS 20         /* the preconditioner's apply alone, after the solve */
#define SPSV_WARMUPS 5        /* --spsv-only */
#define SPSV_RUNS 50

/* ---- this program's own flags, read before the course's parser ---- */

static struct {
    int spsv_only;
    const char *pcg_csv, *trsv_csv;
} own;

static int in_parse;   /* spmv_parse is reading argv: its --help ends the program with exit(0) */
static void own_help(int status, void *arg)   /* on_exit: after the course's --help text */
{
    (void)arg;
    if (!in_parse || status != 0)
        return;
    printf("\nThis yardstick's own options:\n"
           "  --spsv-only         factor, then time cusparseSpSV_solve alone, L y = r and L^T z = y, each\n"
           "                      checked row by row on the host (no solve)\n"
           "  --pcg-csv FILE      append the solve's row to FILE (step9's PCG header, written when new;\n"
           "                      --csv FILE is the same)\n"
           "  --trsv-csv FILE     --spsv-only: append a row for each solve to FILE (header when new)\n");
}

/* Take --spsv-only, --pcg-csv FILE and --trsv-csv FILE (or =FILE) out of
 * argv; the rest goes to spmv_parse. Returns the new argc. */
static int take_own(int argc, char **argv)
{
    int m = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const char **file = len == 9 && strncmp(a, "--pcg-csv", 9) == 0    ? &own.pcg_csv
                            : len == 10 && strncmp(a, "--trsv-csv", 10) == 0 ? &own.trsv_csv
                                                                              : NULL;
        if (len == 11 && strncmp(a, "--spsv-only", 11) == 0) {
            if (eq)
                spmv_die(SPMV_EXIT_USAGE, "--spsv-only takes no value");
            own.spsv_only = 1;
        } else if (file) {
            if (!eq && i + 1 >= argc)
                spmv_die(SPMV_EXIT_USAGE, "%s needs a value (a CSV file)", a);
            *file = eq ? eq + 1 : argv[++i];
            if (!**file)
                spmv_die(SPMV_EXIT_USAGE, "%.*s needs a file name", (int)len, a);
        } else {
            if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
                on_exit(own_help, NULL);
            argv[m++] = argv[i];
        }
    }
    argv[m] = NULL;
    return m;
}

/* ---- the rows: step9's PCG header, and the triangular solves' ---- */

typedef struct {
    const char *kernel, *device, *driver, *matrix, *check;
    long long rows, nnz;
    char precision;
    double tol;
    int iterations, converged, levels;   /* levels 0: none (empty) */
    double rel, truer, setup_ms, solve_ms, apply_ms;   /* negative or NaN: empty */
} pcg_row;

typedef struct {
    const char *kernel, *device, *driver, *matrix, *check;
    long long rows, nnz_factor;
    char precision;
    int levels;
    double ms;   /* negative or NaN: empty */
} trsv_row;

static void num(FILE *f, double v)   /* a number, or an empty field */
{
    if (v >= 0)
        fprintf(f, ",%.6g", v);
    else
        fputc(',', f);
}

static void row_end(FILE *f, const char *check, const char *csv)
{
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fputc(',', f);
    spmv_csv_field(f, check);
    fprintf(f, ",%s,%s\n", date, spmv_git_rev());
    if (fclose(f) != 0)
        spmv_die(SPMV_EXIT_USAGE, "cannot write %s: %s", csv, strerror(errno));
}

static FILE *row_start(const char *csv, const char *header, const char *kernel, const char *device,
                       const char *driver, const char *matrix)
{
    FILE *f = spmv_csv_append(csv, header);
    fputs("vendor,", f);
    spmv_csv_field(f, kernel), fputc(',', f);
    spmv_csv_field(f, device), fputc(',', f);
    spmv_csv_field(f, driver), fputc(',', f);
    spmv_csv_field(f, matrix);
    return f;
}

/* One row of step9's PCG file; the times only for a PASS */
static void pcg_csv(const char *csv, const pcg_row *r)
{
    if (!csv)
        return;
    FILE *f = row_start(csv, PCG_HEADER, r->kernel, r->device, r->driver, r->matrix);
    int timed = strcmp(r->check, "PASS") == 0;
    fprintf(f, ",%lld,%lld,%c", r->rows, r->nnz, r->precision);
    num(f, r->tol);
    fprintf(f, ",%d,%d", r->iterations, r->converged);
    num(f, r->rel);
    num(f, r->truer);
    num(f, timed ? r->setup_ms : -1);
    num(f, timed ? r->solve_ms : -1);
    num(f, timed ? r->setup_ms + r->solve_ms : -1);
    num(f, timed && r->iterations > 0 ? r->solve_ms / r->iterations : -1);
    num(f, timed ? r->apply_ms : -1);
    if (r->levels > 0)
        fprintf(f, ",%d", r->levels);
    else
        fputc(',', f);
    row_end(f, r->check, csv);
}

/* One row of the triangular solves' file; the time only for a PASS */
static void trsv_csv(const char *csv, const trsv_row *r)
{
    if (!csv)
        return;
    FILE *f = row_start(csv, TRSV_HEADER, r->kernel, r->device, r->driver, r->matrix);
    int timed = strcmp(r->check, "PASS") == 0;
    fprintf(f, ",%lld,%lld,%c", r->rows, r->nnz_factor, r->precision);
    if (r->levels > 0)
        fprintf(f, ",%d", r->levels);
    else
        fputc(',', f);
    num(f, timed ? r->ms : -1);
    num(f, timed && r->levels > 0 ? r->ms * 1e3 / r->levels : -1);
    row_end(f, r->check, csv);
}

/* Rows without a result (SKIP, or FAIL before any solve): the form's own */
static void empty_rows(const spmv_options *o, const char *device, const char *driver, const char *matrix,
                       long long rows, long long nnz, long long nnz_factor, int levels, const char *check)
{
    if (!own.spsv_only) {
        pcg_row r = { .kernel = KERNEL_PCG, .device = device, .driver = driver, .matrix = matrix, .check = check,
                      .rows = rows, .nnz = nnz, .precision = o->precision, .tol = -1, .levels = levels,
                      .rel = -1, .truer = -1 };
        pcg_csv(own.pcg_csv, &r);
    } else {
        for (int t = 0; t < 2; t++) {
            trsv_row r = { .kernel = t ? KERNEL_SPSV_T : KERNEL_SPSV, .device = device, .driver = driver,
                           .matrix = matrix, .check = check, .rows = rows, .nnz_factor = nnz_factor,
                           .precision = o->precision, .levels = levels, .ms = -1 };
            trsv_csv(own.trsv_csv, &r);
        }
    }
}

static void skip(const spmv_options *o, const char *device, const char *why) __attribute__((noreturn));
static void skip(const spmv_options *o, const char *device, const char *why)
{
    printf("skipped: %s\n", why);
    empty_rows(o, device, "cuSPARSE + cuBLAS", o->matrix ? o->matrix : o->gen ? o->gen : "-", 0, 0, 0, 0, "SKIP");
    fflush(stdout);
    fprintf(stderr, "%s: skipped: %s\n", STEP.name, why);
    exit(SPMV_EXIT_SKIP);
}

static void blas_check(cublasStatus_t s, const char *call, const char *file, int line)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return;
    if (s == CUBLAS_STATUS_ALLOC_FAILED)
        spmv_die(SPMV_EXIT_USAGE, "%s failed with %s at %s:%d: out of device memory; try a smaller matrix", call,
                 cublasGetStatusName(s), file, line);
    spmv_die(SPMV_EXIT_FAIL, "%s failed with %s (%d: %s) at %s:%d", call, cublasGetStatusName(s), (int)s,
             cublasGetStatusString(s), file, line);
}
#define BLAS_CHECK(call) blas_check((call), #call, __FILE__, __LINE__)

/* ---- the solver's state on the device ---- */

typedef struct {
    cublasHandle_t blas;
    cusparseHandle_t sparse;
    cudaDataType type;
    int n, single;
    long long nnz;
    size_t vsize;
    int *ptr, *col;                      /* A's pattern, L's too */
    void *val, *lval;                    /* A's values; L over a copy of them (csric02) */
    void *b, *x, *r, *y, *z, *p, *q;     /* y = L^-1 r, z = L^-T y */
    cusparseDnVecDescr_t vr, vy, vz, vp, vq;
    /* the setup's (setup_open ... setup_close) */
    cusparseSpMatDescr_t A, L;
    cusparseSpSVDescr_t sl, slt;         /* L y = r; L^T z = y */
    void *buf_mv, *buf_l, *buf_lt;
} pcg_dev;

static const float ONE_F = 1, ZERO_F = 0;
static const double ONE_D = 1, ZERO_D = 0;
#define ONE(d) ((d)->single ? (const void *)&ONE_F : (const void *)&ONE_D)
#define ZERO(d) ((d)->single ? (const void *)&ZERO_F : (const void *)&ZERO_D)

static void spmv_q(pcg_dev *d)   /* q = A p */
{
    SPARSE_CHECK(cusparseSpMV(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, ONE(d), d->A, d->vp, ZERO(d), d->vq,
                              d->type, CUSPARSE_SPMV_ALG_DEFAULT, d->buf_mv));
}
static void solve_l(pcg_dev *d)   /* y = L^-1 r */
{
    SPARSE_CHECK(cusparseSpSV_solve(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, ONE(d), d->L, d->vr, d->vy, d->type,
                                    CUSPARSE_SPSV_ALG_DEFAULT, d->sl));
}
static void solve_lt(pcg_dev *d)   /* z = L^-T y: the transpose of the same lower matrix */
{
    SPARSE_CHECK(cusparseSpSV_solve(d->sparse, CUSPARSE_OPERATION_TRANSPOSE, ONE(d), d->L, d->vy, d->vz, d->type,
                                    CUSPARSE_SPSV_ALG_DEFAULT, d->slt));
}
static void apply(pcg_dev *d)   /* z = M^-1 r = L^-T L^-1 r */
{
    solve_l(d);
    solve_lt(d);
}
static double host_dot(pcg_dev *d, void *u, void *v)   /* the sample's dot: read back to the host */
{
    if (d->single) {
        float s = 0;
        BLAS_CHECK(cublasSdot(d->blas, d->n, u, 1, v, 1, &s));
        return s;
    }
    double s = 0;
    BLAS_CHECK(cublasDdot(d->blas, d->n, u, 1, v, 1, &s));
    return s;
}
static void axpy(pcg_dev *d, double a, void *u, void *v)   /* v += a u */
{
    float af = (float)a;
    if (d->single)
        BLAS_CHECK(cublasSaxpy(d->blas, d->n, &af, u, 1, v, 1));
    else
        BLAS_CHECK(cublasDaxpy(d->blas, d->n, &a, u, 1, v, 1));
}
static void scal(pcg_dev *d, double a, void *v)
{
    float af = (float)a;
    if (d->single)
        BLAS_CHECK(cublasSscal(d->blas, d->n, &af, v, 1));
    else
        BLAS_CHECK(cublasDscal(d->blas, d->n, &a, v, 1));
}
static void copy(pcg_dev *d, void *u, void *v)
{
    if (d->single)
        BLAS_CHECK(cublasScopy(d->blas, d->n, u, 1, v, 1));
    else
        BLAS_CHECK(cublasDcopy(d->blas, d->n, u, 1, v, 1));
}

/* ---- the setup: IC(0) by csric02, then the solves' analyses ---- */

/* csric02 (deprecated in CUDA 12, present in 13: its deprecation warnings
 * alone are silenced here) over lval, a copy of A's values: L in the lower
 * triangle. Returns -1, or the 0-based row of a zero pivot (*structural: no
 * diagonal entry, found by the analysis; else a numerical zero). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static int factor_ic0(pcg_dev *d, int *structural)
{
    cusparseMatDescr_t m;
    csric02Info_t info;
    SPARSE_CHECK(cusparseCreateMatDescr(&m));
    SPARSE_CHECK(cusparseSetMatType(m, CUSPARSE_MATRIX_TYPE_GENERAL));
    SPARSE_CHECK(cusparseSetMatIndexBase(m, CUSPARSE_INDEX_BASE_ZERO));
    SPARSE_CHECK(cusparseCreateCsric02Info(&info));
    int bytes = 0, nnz = (int)d->nnz;
    if (d->single)
        SPARSE_CHECK(cusparseScsric02_bufferSize(d->sparse, d->n, nnz, m, d->lval, d->ptr, d->col, info, &bytes));
    else
        SPARSE_CHECK(cusparseDcsric02_bufferSize(d->sparse, d->n, nnz, m, d->lval, d->ptr, d->col, info, &bytes));
    void *buf = dev_buffer((size_t)bytes, NULL, "csric02's work buffer", "the GPU");
    if (d->single)
        SPARSE_CHECK(cusparseScsric02_analysis(d->sparse, d->n, nnz, m, d->lval, d->ptr, d->col, info,
                                               CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf));
    else
        SPARSE_CHECK(cusparseDcsric02_analysis(d->sparse, d->n, nnz, m, d->lval, d->ptr, d->col, info,
                                               CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf));
    int at = -1;
    cusparseStatus_t s = cusparseXcsric02_zeroPivot(d->sparse, info, &at);
    *structural = s == CUSPARSE_STATUS_ZERO_PIVOT;
    if (!*structural) {
        SPARSE_CHECK(s);
        if (d->single)
            SPARSE_CHECK(cusparseScsric02(d->sparse, d->n, nnz, m, d->lval, d->ptr, d->col, info,
                                          CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf));
        else
            SPARSE_CHECK(cusparseDcsric02(d->sparse, d->n, nnz, m, d->lval, d->ptr, d->col, info,
                                          CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf));
        s = cusparseXcsric02_zeroPivot(d->sparse, info, &at);
        if (s != CUSPARSE_STATUS_ZERO_PIVOT) {
            SPARSE_CHECK(s);
            at = -1;
        }
    }
    SPARSE_CHECK(cusparseDestroyCsric02Info(info));
    SPARSE_CHECK(cusparseDestroyMatDescr(m));
    CUDA_CHECK(cudaFree(buf));
    return at;
}
#pragma GCC diagnostic pop

/* Everything before the first iteration: A and b uploaded, IC(0), L's
 * matrix (fill mode lower, non-unit diagonal) and its two solves analysed,
 * SpMV's buffer. Returns factor_ic0's zero pivot (-1: none). */
static int setup_open(pcg_dev *d, const csr_matrix *A, const void *val, const void *bd, int *structural)
{
    size_t vbytes = (size_t)d->n * d->vsize;
    CUDA_CHECK(cudaMemcpy(d->ptr, A->ptr, ((size_t)d->n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->col, A->col, (size_t)d->nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->val, val, (size_t)d->nnz * d->vsize, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->b, bd, vbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d->lval, d->val, (size_t)d->nnz * d->vsize, cudaMemcpyDeviceToDevice));
    int at = factor_ic0(d, structural);
    if (at >= 0)
        return at;
    SPARSE_CHECK(cusparseCreateCsr(&d->A, d->n, d->n, d->nnz, d->ptr, d->col, d->val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, d->type));
    SPARSE_CHECK(cusparseCreateCsr(&d->L, d->n, d->n, d->nnz, d->ptr, d->col, d->lval, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, d->type));
    cusparseFillMode_t lower = CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t non_unit = CUSPARSE_DIAG_TYPE_NON_UNIT;
    SPARSE_CHECK(cusparseSpMatSetAttribute(d->L, CUSPARSE_SPMAT_FILL_MODE, &lower, sizeof lower));
    SPARSE_CHECK(cusparseSpMatSetAttribute(d->L, CUSPARSE_SPMAT_DIAG_TYPE, &non_unit, sizeof non_unit));
    size_t bl = 0, blt = 0, bmv = 0;
    SPARSE_CHECK(cusparseSpSV_createDescr(&d->sl));
    SPARSE_CHECK(cusparseSpSV_createDescr(&d->slt));
    SPARSE_CHECK(cusparseSpSV_bufferSize(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, ONE(d), d->L, d->vr, d->vy,
                                         d->type, CUSPARSE_SPSV_ALG_DEFAULT, d->sl, &bl));
    SPARSE_CHECK(cusparseSpSV_bufferSize(d->sparse, CUSPARSE_OPERATION_TRANSPOSE, ONE(d), d->L, d->vy, d->vz,
                                         d->type, CUSPARSE_SPSV_ALG_DEFAULT, d->slt, &blt));
    d->buf_l = dev_buffer(bl, NULL, "cusparseSpSV's buffer (L)", "the GPU");
    d->buf_lt = dev_buffer(blt, NULL, "cusparseSpSV's buffer (L^T)", "the GPU");
    SPARSE_CHECK(cusparseSpSV_analysis(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, ONE(d), d->L, d->vr, d->vy,
                                       d->type, CUSPARSE_SPSV_ALG_DEFAULT, d->sl, d->buf_l));
    SPARSE_CHECK(cusparseSpSV_analysis(d->sparse, CUSPARSE_OPERATION_TRANSPOSE, ONE(d), d->L, d->vy, d->vz, d->type,
                                       CUSPARSE_SPSV_ALG_DEFAULT, d->slt, d->buf_lt));
    SPARSE_CHECK(cusparseSpMV_bufferSize(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, ONE(d), d->A, d->vp, ZERO(d),
                                         d->vq, d->type, CUSPARSE_SPMV_ALG_DEFAULT, &bmv));
    d->buf_mv = dev_buffer(bmv, NULL, "cusparseSpMV's buffer", "the GPU");
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    return -1;
}

static void setup_close(pcg_dev *d)
{
    SPARSE_CHECK(cusparseSpSV_destroyDescr(d->sl));
    SPARSE_CHECK(cusparseSpSV_destroyDescr(d->slt));
    SPARSE_CHECK(cusparseDestroySpMat(d->L));
    SPARSE_CHECK(cusparseDestroySpMat(d->A));
    CUDA_CHECK(cudaFree(d->buf_l));
    CUDA_CHECK(cudaFree(d->buf_lt));
    CUDA_CHECK(cudaFree(d->buf_mv));
    d->buf_l = d->buf_lt = d->buf_mv = NULL;
}

/* ---- the solve: the sample's loop ---- */

typedef struct {
    int iterations, end;   /* end: CG_CONVERGED, CG_MAXITER or CG_BREAKDOWN (cg.h) */
    double rr, bad;        /* the last r.r; the r.z or p.q of a breakdown */
    const char *bad_what;
    double *hist;          /* per iteration, sqrt(rr) / ||b|| after it (NULL: not kept) */
} pcg_run;

/* From x0 = 0 (r = b): stops at sqrt(rr) <= tol ||b|| (before an
 * iteration), after maxiter iterations, or at r.z <= 0 or p.q <= 0. */
static void solve(pcg_dev *d, double bnorm, double tol, long long maxiter, pcg_run *run)
{
    size_t bytes = (size_t)d->n * d->vsize;
    CUDA_CHECK(cudaMemset(d->x, 0, bytes));
    CUDA_CHECK(cudaMemcpy(d->r, d->b, bytes, cudaMemcpyDeviceToDevice));
    double rr = host_dot(d, d->r, d->r), rz_old = 0, stop = tol * bnorm;
    run->iterations = 0;
    run->end = CG_MAXITER;
    for (long long k = 0; k < maxiter; k++) {
        if (isnan(rr)) {   /* a NaN met no tolerance */
            run->end = CG_BREAKDOWN, run->bad = rr, run->bad_what = "r.r";
            break;
        }
        if (!(sqrt(rr) > stop)) {
            run->end = CG_CONVERGED;
            break;
        }
        apply(d);   /* z = L^-T L^-1 r */
        double rz = host_dot(d, d->r, d->z);
        if (!(rz > 0)) {   /* M = L L^T not positive definite (or NaN) */
            run->end = CG_BREAKDOWN, run->bad = rz, run->bad_what = "r.z";
            break;
        }
        if (k == 0) {
            copy(d, d->z, d->p);
        } else {
            scal(d, rz / rz_old, d->p);
            axpy(d, 1.0, d->z, d->p);
        }
        spmv_q(d);
        double pq = host_dot(d, d->p, d->q);
        if (!(pq > 0)) {   /* A not positive definite (or NaN) */
            run->end = CG_BREAKDOWN, run->bad = pq, run->bad_what = "p.Ap";
            break;
        }
        double alpha = rz / pq;
        axpy(d, alpha, d->p, d->x);
        axpy(d, -alpha, d->q, d->r);
        rr = host_dot(d, d->r, d->r);
        rz_old = rz;
        if (run->hist)
            run->hist[k] = bnorm > 0 ? sqrt(rr) / bnorm : 0;
        run->iterations = (int)(k + 1);
    }
    if (run->end == CG_MAXITER && !isnan(rr) && !(sqrt(rr) > stop))
        run->end = CG_CONVERGED;   /* the last iteration met it */
    CUDA_CHECK(cudaDeviceSynchronize());
    run->rr = rr;
}

/* The median of `runs` calls of fn, each between two CUDA events on the
 * default stream (the handles'), after `warmups` untimed calls. */
static double time_events(pcg_dev *d, void (*fn)(pcg_dev *), int warmups, int runs)
{
    cudaEvent_t *e = malloc(sizeof *e * 2 * (size_t)runs);
    double *ms = malloc(sizeof *ms * (size_t)runs);
    if (!e || !ms)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the timings");
    for (int i = 0; i < 2 * runs; i++)
        CUDA_CHECK(cudaEventCreate(&e[i]));
    for (int i = 0; i < warmups; i++)
        fn(d);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < runs; i++) {
        CUDA_CHECK(cudaEventRecord(e[2 * i], 0));
        fn(d);
        CUDA_CHECK(cudaEventRecord(e[2 * i + 1], 0));
    }
    CUDA_CHECK(cudaEventSynchronize(e[2 * runs - 1]));
    CUDA_CHECK(cudaGetLastError());
    for (int i = 0; i < runs; i++) {
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, e[2 * i], e[2 * i + 1]));
        ms[i] = t;
    }
    for (int i = 0; i < 2 * runs; i++)
        CUDA_CHECK(cudaEventDestroy(e[i]));
    double med = 0, min = 0;
    spmv_stats(ms, runs, &med, &min);
    free(e);
    free(ms);
    return med;
}

/* ---- the host's side: L's pattern, its levels, the solves' check ---- */

typedef struct {
    int n;
    long long nnz;
    int *ptr, *col;
    double *val;
} tri_host;

static void tri_alloc(tri_host *t, int n, long long nnz)
{
    t->n = n;
    t->nnz = nnz;
    t->ptr = calloc((size_t)n + 1, sizeof *t->ptr);
    t->col = malloc(sizeof *t->col * (size_t)(nnz ? nnz : 1));
    t->val = malloc(sizeof *t->val * (size_t)(nnz ? nnz : 1));
    if (!t->ptr || !t->col || !t->val)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the incomplete factor");
}
static void tri_free(tri_host *t)
{
    free(t->ptr), free(t->col), free(t->val);
}

/* L: A's lower triangle (the diagonal included), its values from lv (A's
 * layout, NULL: zeros) */
static void lower_of(const csr_matrix *A, const double *lv, tri_host *L)
{
    long long m = 0;
    for (int i = 0; i < A->rows; i++)
        for (int k = A->ptr[i]; k < A->ptr[i + 1]; k++)
            m += A->col[k] <= i;
    tri_alloc(L, A->rows, m);
    m = 0;
    for (int i = 0; i < A->rows; i++) {
        for (int k = A->ptr[i]; k < A->ptr[i + 1]; k++)
            if (A->col[k] <= i) {
                L->col[m] = A->col[k];
                L->val[m++] = lv ? lv[k] : 0;
            }
        L->ptr[i + 1] = (int)m;
    }
}

/* U = L^T, rows sorted */
static void transpose_of(const tri_host *L, tri_host *U)
{
    tri_alloc(U, L->n, L->nnz);
    for (long long k = 0; k < L->nnz; k++)
        U->ptr[L->col[k] + 1]++;
    for (int i = 0; i < L->n; i++)
        U->ptr[i + 1] += U->ptr[i];
    int *next = malloc(sizeof *next * (size_t)(L->n ? L->n : 1));
    if (!next)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the incomplete factor");
    memcpy(next, U->ptr, sizeof *next * (size_t)L->n);
    for (int i = 0; i < L->n; i++)
        for (int k = L->ptr[i]; k < L->ptr[i + 1]; k++) {
            int at = next[L->col[k]]++;
            U->col[at] = i;
            U->val[at] = L->val[k];
        }
    free(next);
}

/* L's level count: level(i) = 1 + the largest level of the columns j < i of
 * row i (1 for a row of the diagonal alone); L^T's is the same */
static int levels_of(const tri_host *L)
{
    int *lev = malloc(sizeof *lev * (size_t)(L->n ? L->n : 1)), top = 0;
    if (!lev)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the levels");
    for (int i = 0; i < L->n; i++) {
        int l = 0;
        for (int k = L->ptr[i]; k < L->ptr[i + 1]; k++)
            if (L->col[k] < i && lev[L->col[k]] > l)
                l = lev[L->col[k]];
        lev[i] = l + 1;
        if (lev[i] > top)
            top = lev[i];
    }
    free(lev);
    return top;
}

/* T y = v row by row in double: the worst row's |v_i - sum_j t_ij y_j| over
 * its limit eps (n_i + 10) sum_j |t_ij y_j| (a NaN: infinite); *row -1: none */
static double tri_worst(const tri_host *T, const double *v, const double *y, double eps, int *row)
{
    double worst = 0;
    *row = -1;
    for (int i = 0; i < T->n; i++) {
        double s = v[i], mag = 0;
        for (int k = T->ptr[i]; k < T->ptr[i + 1]; k++) {
            double t = T->val[k] * y[T->col[k]];
            s -= t;
            mag += fabs(t);
        }
        double lim = eps * (T->ptr[i + 1] - T->ptr[i] + 10) * mag;
        double part = lim > 0 ? fabs(s) / lim : s == 0 ? 0 : INFINITY;
        if (isnan(part))
            part = INFINITY;
        if (*row < 0 || part > worst)
            worst = part, *row = i;
    }
    return worst;
}

static void read_doubles(const pcg_dev *d, const void *dev, double *h, size_t count, void *tmp)
{
    CUDA_CHECK(cudaMemcpy(tmp, dev, count * d->vsize, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < count; i++)
        h[i] = d->single ? ((const float *)tmp)[i] : ((const double *)tmp)[i];
}

/* One solve of --spsv-only, into its output poisoned with NaN, checked row by
 * row; then timed if it passed. Returns the check. */
static int spsv_one(pcg_dev *d, const tri_host *T, const char *name, int levels, void (*fn)(pcg_dev *),
                    void *out, const double *v, double *yh, void *tmp, double eps, double *ms, FILE *res)
{
    size_t bytes = (size_t)d->n * d->vsize;
    CUDA_CHECK(cudaMemset(out, 0xff, bytes));   /* all ones: NaN in float and in double */
    fn(d);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    read_doubles(d, out, yh, (size_t)d->n, tmp);
    int row;
    double worst = tri_worst(T, v, yh, eps, &row);
    int pass = worst <= 1;
    printf("check    %s row by row against the host in double: the worst row %d at %.3g of its limit eps (n_i + "
           "10) sum_j |t_ij y_j|\n", name, row + 1, worst);
    *ms = NAN;
    if (pass) {
        *ms = time_events(d, fn, SPSV_WARMUPS, SPSV_RUNS);
        fprintf(res, "spsv     %s solve %.4f ms, levels %d, %.3f us a level (median of %d, CUDA events)\n", name,
                *ms, levels, levels ? *ms * 1e3 / levels : 0.0, SPSV_RUNS);
    }
    fprintf(res, "check: %s (%s)\n", pass ? "PASS" : "FAIL", name);
    return pass;
}

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_run ctx;
    spmv_options o;
    argc = take_own(argc, argv);
    in_parse = 1;
    spmv_parse(argc, argv, &STEP, &o, &ctx);
    in_parse = 0;
    if (o.csv && own.pcg_csv && strcmp(o.csv, own.pcg_csv) != 0)
        spmv_die(SPMV_EXIT_USAGE, "--csv %s and --pcg-csv %s name two files for one row: give one", o.csv,
                 own.pcg_csv);
    if (own.spsv_only && (own.pcg_csv || o.csv))
        spmv_die(SPMV_EXIT_USAGE, "%s: --spsv-only runs no solve; its rows go to --trsv-csv FILE",
                 own.pcg_csv ? "--pcg-csv" : "--csv");
    if (o.csv)
        own.pcg_csv = o.csv;   /* step9's --csv: the same header */
    if (!own.spsv_only && own.trsv_csv)
        spmv_die(SPMV_EXIT_USAGE, "--trsv-csv: the solves are timed alone with --spsv-only; a solve's row is "
                 "--pcg-csv FILE");
    if (own.spsv_only && (o.tol_set || o.maxiter || o.history))
        spmv_die(SPMV_EXIT_USAGE, "%s: --spsv-only runs no solve (it times the triangular solves alone)",
                 o.tol_set ? "--tol" : o.maxiter ? "--maxiter" : "--history");
    if (!o.precision_set)
        o.precision = 'd', o.precision_set = 1;   /* this yardstick's default */
    if (!o.matrix && !o.gen)
        o.gen = "poisson:nx=512";
    o.x_file = o.b_file;   /* b is drawn or read as every step draws or reads x */
    cuda_device dev;
    open_device(&o, &dev, skip);

    /* 2. The matrix and b: the course's, from the same code */
    spmv_input in;
    spmv_read_csr(&ctx, &o, &dev.limits, &in);
    spmv_save_matrix(&ctx, &o, &in);
    csr_matrix A;
    spmv_load_csr(&ctx, &o, &in, &A);
    if (A.im)
        spmv_die(SPMV_EXIT_USAGE, "%s is complex: PCG here is for real symmetric positive definite matrices",
                 A.origin.name);
    if (A.rows != A.cols)
        spmv_die(SPMV_EXIT_USAGE, "%s is %d x %d: PCG needs a square matrix", A.origin.name, A.rows, A.cols);
    int brow, bcol;
    if (!spmv_csr_symmetric(&A, &brow, &bcol))
        spmv_die(SPMV_EXIT_USAGE, "%s is not symmetric (a(%d,%d) != a(%d,%d)): PCG needs a symmetric positive "
                 "definite matrix", A.origin.name, brow + 1, bcol + 1, bcol + 1, brow + 1);
    char p = o.precision;
    int single = p == 's', n = A.rows;
    size_t vsize = single ? 4 : 8, vbytes = (size_t)n * vsize;
    double eps = single ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    if (single)
        csr_round_to_float(&ctx, &A);
    double *b = spmv_x_doubles(&ctx, &o, n, 0, single);
    double bb = 0;
    for (int i = 0; i < n; i++)
        bb += b[i] * b[i];
    double bnorm = sqrt(bb);
    double tol = o.tol_set ? o.tol : single ? 1e-5 : 1e-10;   /* step7's defaults */
    long long maxiter = o.maxiter > 0 ? o.maxiter : 10LL * n;
    int fixed = tol == 0;
    tri_host L;
    lower_of(&A, NULL, &L);   /* the pattern now, csric02's values after the setup */
    int levels = levels_of(&L);
    printf("matrix   %s: %d x %d, %lld nonzeros, %s\n", A.origin.name, n, n, A.nnz, spmv_prec_name(p));
    printf("factor   IC(0) by cusparseXcsric02 on A's pattern: L has %lld entries (A's lower triangle), %d levels "
           "(the host's count, from L's pattern)\n", L.nnz, levels);
    if (own.spsv_only)
        printf("form     --spsv-only: cusparseSpSV_solve alone, L y = r (r = b) and L^T z = y (the transpose "
               "operation on L), each checked, then %d warm-ups and the median of %d runs\n", SPSV_WARMUPS,
               SPSV_RUNS);
    else
        printf("form     the CUDA sample conjugateGradientPrecond's loop: cusparseSpSV_solve with L and L^T (the "
               "transpose operation on L), cusparseSpMV, 3 cublasXdot read back, 3 cublasXaxpy and a cublasXscal "
               "an iteration; tol %g relative to ||b|| on the unpreconditioned residual, maxiter %lld, x0 = 0\n",
               tol, maxiter);

    /* 3. Device buffers: values as the precision stores them, int indices, zero-based */
    spmv_error err;
    void *val = spmv_prec_pack(&ctx, A.re, NULL, (size_t)A.nnz, p, &err);
    void *bd = val ? spmv_prec_pack_doubles(b, (size_t)n, single, &err) : NULL;
    if (!val || !bd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    pcg_dev d;
    memset(&d, 0, sizeof d);
    d.n = n;
    d.nnz = A.nnz;
    d.single = single;
    d.vsize = vsize;
    d.type = single ? CUDA_R_32F : CUDA_R_64F;
    d.ptr = dev_buffer(((size_t)n + 1) * sizeof(int), NULL, "row pointers", dev.name);
    d.col = dev_buffer((size_t)A.nnz * sizeof(int), NULL, "column indices", dev.name);
    d.val = dev_buffer((size_t)A.nnz * vsize, NULL, "matrix values", dev.name);
    d.lval = dev_buffer((size_t)A.nnz * vsize, NULL, "the incomplete factor", dev.name);
    void **vecs[] = { &d.b, &d.x, &d.r, &d.y, &d.z, &d.p, &d.q };
    for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++)
        *vecs[i] = dev_buffer(vbytes, NULL, "a vector", dev.name);

    /* 4. The libraries: handles, the vectors' descriptors */
    BLAS_CHECK(cublasCreate(&d.blas));
    SPARSE_CHECK(cusparseCreate(&d.sparse));
    BLAS_CHECK(cublasSetPointerMode(d.blas, CUBLAS_POINTER_MODE_HOST));
    SPARSE_CHECK(cusparseCreateDnVec(&d.vr, n, d.r, d.type));
    SPARSE_CHECK(cusparseCreateDnVec(&d.vy, n, d.y, d.type));
    SPARSE_CHECK(cusparseCreateDnVec(&d.vz, n, d.z, d.type));
    SPARSE_CHECK(cusparseCreateDnVec(&d.vp, n, d.p, d.type));
    SPARSE_CHECK(cusparseCreateDnVec(&d.vq, n, d.q, d.type));
    int blasv = 0;
    BLAS_CHECK(cublasGetVersion(d.blas, &blasv));
    char driver[320];
    snprintf(driver, sizeof driver, "%s; cuBLAS %d", dev.driver, blasv);

    /* 5. The setup (twice: the first untimed, and a few iterations after
     * it, so that the libraries' kernels are loaded), a zero pivot said */
    FILE *res = spmv_results(&ctx);
    int structural = 0, zero = -1;
    pcg_run run;
    memset(&run, 0, sizeof run);
    double setup_ms = NAN;
    for (int pass = own.spsv_only ? 1 : 0; pass < 2 && zero < 0; pass++) {
        CUDA_CHECK(cudaDeviceSynchronize());
        double t0 = spmv_now();
        zero = setup_open(&d, &A, val, bd, &structural);
        setup_ms = (spmv_now() - t0) * 1e3;
        if (zero < 0 && pass == 0) {
            solve(&d, bnorm, tol, maxiter < WARMUP_ITERATIONS ? maxiter : WARMUP_ITERATIONS, &run);
            setup_close(&d);
        }
    }
    double *lv = malloc(sizeof *lv * (size_t)(A.nnz ? A.nnz : 1));
    void *tmp = malloc((size_t)(A.nnz > n ? A.nnz : n) * vsize + 1);
    if (!lv || !tmp)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the incomplete factor");
    int bad = zero;
    double pivot = 0;
    if (zero < 0) {   /* csric02 finds zeros; a negative pivot or a NaN, the host finds in L's diagonal */
        read_doubles(&d, d.lval, lv, (size_t)A.nnz, tmp);
        for (int i = 0; i < n && bad < 0; i++)
            for (int k = A.ptr[i]; k < A.ptr[i + 1]; k++)
                if (A.col[k] == i && !(lv[k] > 0 && isfinite(lv[k])))
                    bad = i, pivot = lv[k];
    }
    if (bad >= 0) {
        empty_rows(&o, dev.name, driver, A.origin.name, n, A.nnz, L.nnz, levels, "FAIL");
        fflush(stdout);
        if (zero >= 0)
            spmv_die(SPMV_EXIT_FAIL, "IC(0) of %s: csric02_zeroPivot finds a %s zero pivot at row %d%s: A is not "
                     "positive definite, or IC(0) breaks down on it (step9 shifts the diagonal there)",
                     A.origin.name, structural ? "structural" : "numerical", zero + 1,
                     structural ? " (no diagonal entry)" : "");
        spmv_die(SPMV_EXIT_FAIL, "IC(0) of %s: the pivot of row %d is %g, not positive: A is not positive definite, "
                 "or IC(0) breaks down on it (step9 shifts the diagonal there)", A.origin.name, bad + 1, pivot);
    }
    for (int i = 0, m = 0; i < n; i++)   /* L's values, csric02's, into the host's copy of its pattern */
        for (int k = A.ptr[i]; k < A.ptr[i + 1]; k++)
            if (A.col[k] <= i)
                L.val[m++] = lv[k];

    int status;
    if (own.spsv_only) {
        /* 6. --spsv-only: each solve checked, then timed alone */
        tri_host U;
        transpose_of(&L, &U);
        double *v = malloc(sizeof *v * (size_t)(n ? n : 1)), *yh = malloc(sizeof *yh * (size_t)(n ? n : 1));
        if (!v || !yh)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for the solves' check");
        CUDA_CHECK(cudaMemcpy(d.r, d.b, vbytes, cudaMemcpyDeviceToDevice));
        read_doubles(&d, d.r, v, (size_t)n, tmp);
        double ms_l, ms_lt;
        int pass_l = spsv_one(&d, &L, "L", levels, solve_l, d.y, v, yh, tmp, eps, &ms_l, res);
        read_doubles(&d, d.y, v, (size_t)n, tmp);   /* L^T z = y, the y the device solved (and timed) */
        int pass_lt = pass_l && spsv_one(&d, &U, "L^T", levels, solve_lt, d.z, v, yh, tmp, eps, &ms_lt, res);
        /* 7. Report: the rows */
        for (int t = 0; t < 2; t++) {
            int ok = t ? pass_lt : pass_l;
            trsv_row r = { .kernel = t ? KERNEL_SPSV_T : KERNEL_SPSV, .device = dev.name, .driver = driver,
                           .matrix = A.origin.name, .check = ok ? "PASS" : "FAIL", .rows = n, .nnz_factor = L.nnz,
                           .precision = p, .levels = levels, .ms = ok ? (t ? ms_lt : ms_l) : -1 };
            trsv_csv(own.trsv_csv, &r);
        }
        status = pass_l && pass_lt ? SPMV_EXIT_PASS : SPMV_EXIT_FAIL;
        free(v), free(yh);
        tri_free(&U);
    } else {
        /* 6. The solve, timed; then the apply alone */
        run.hist = o.history ? calloc(maxiter > 0 ? (size_t)maxiter : 1, sizeof *run.hist) : NULL;
        if (o.history && !run.hist)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for --history");
        double t0 = spmv_now();
        solve(&d, bnorm, tol, maxiter, &run);
        double solve_ms = (spmv_now() - t0) * 1e3;
        int it = run.iterations;
        double *x = malloc(sizeof *x * (size_t)(n ? n : 1));
        if (!x)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for x");
        read_doubles(&d, d.x, x, (size_t)n, tmp);
        CUDA_CHECK(cudaMemcpy(d.r, d.b, vbytes, cudaMemcpyDeviceToDevice));   /* the apply's input: b */
        double apply_ms = time_events(&d, apply, 1, APPLY_RUNS);

        /* 7. Report: the check, the time, the row */
        double rel = bnorm > 0 ? sqrt(run.rr) / bnorm : 0;
        double tr = spmv_cg_true_residual(&A, b, x);
        int pass;
        printf("residual %d iterations%s: recurrence %.3e, true residual %.3e (host, double)\n", it,
               fixed ? " (fixed: --tol 0)" : run.end == CG_CONVERGED ? ", converged" : ", NOT converged", rel, tr);
        if (run.end == CG_BREAKDOWN) {
            printf("breakdown at iteration %d: %s = %g%s: A (or M = L L^T) is not positive definite\n", it + 1,
                   run.bad_what, run.bad, isnan(run.bad) ? "" : " <= 0");
            pass = 0;
        } else if (run.end == CG_CONVERGED && !fixed) {
            pass = isfinite(tr) && cg_check_meets(tr, tol, bb, ": the recurrence met it, x drifted from it (the "
                                                  "sample's loop has no restart)");
        } else {
            pass = isfinite(tr) && cg_check_follows(single, n, tr, rel);
        }
        if (pass) {
            fprintf(res, "setup    %.3f ms (A and b uploaded, csric02's analysis and factorization, the 2 "
                    "cusparseSpSV analyses, the buffers; host clock, after an untimed setup)\n", setup_ms);
            fprintf(res, "solve    %.3f ms, %d iterations, %.4f ms an iteration (host clock: each iteration reads "
                    "3 dots back)\n", solve_ms, it, it ? solve_ms / it : 0.0);
            fprintf(res, "apply    %.4f ms an iteration: the 2 cusparseSpSV solves alone (median of %d, CUDA "
                    "events); %d levels each\n", apply_ms, APPLY_RUNS, levels);
        }
        cg_print_verdict(res, pass, run.end, fixed, it, tol);
        pcg_row r = { .kernel = KERNEL_PCG, .device = dev.name, .driver = driver, .matrix = A.origin.name,
                      .check = cg_verdict(pass, run.end, fixed), .rows = n, .nnz = A.nnz, .precision = p,
                      .tol = tol, .iterations = it, .converged = run.end == CG_CONVERGED && !fixed,
                      .levels = levels, .rel = rel, .truer = tr, .setup_ms = setup_ms, .solve_ms = solve_ms,
                      .apply_ms = apply_ms };
        pcg_csv(own.pcg_csv, &r);
        if (o.history) {
            FILE *h = fopen(o.history, "w");
            if (!h)
                spmv_die(SPMV_EXIT_USAGE, "--history %s: cannot write there", o.history);
            fprintf(h, "iteration,rel_residual\n0,%.6e\n", bnorm > 0 ? 1.0 : 0.0);
            for (int k = 0; k < it; k++)
                fprintf(h, "%d,%.6e\n", k + 1, run.hist[k]);
            if (fclose(h) != 0)
                spmv_die(SPMV_EXIT_USAGE, "--history %s: cannot write there", o.history);
        }
        status = cg_exit_status(SPMV_EXIT_PASS, pass, run.end, fixed);
        free(x);
        free(run.hist);
    }

    /* 8. Release */
    setup_close(&d);
    cusparseDnVecDescr_t dv[] = { d.vr, d.vy, d.vz, d.vp, d.vq };
    for (size_t i = 0; i < sizeof dv / sizeof *dv; i++)
        SPARSE_CHECK(cusparseDestroyDnVec(dv[i]));
    SPARSE_CHECK(cusparseDestroy(d.sparse));
    BLAS_CHECK(cublasDestroy(d.blas));
    void *bufs[] = { d.ptr, d.col, d.val, d.lval, d.b, d.x, d.r, d.y, d.z, d.p, d.q };
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        CUDA_CHECK(cudaFree(bufs[i]));
    tri_free(&L);
    free(lv);
    free(tmp);
    free(val);
    free(bd);
    free(b);
    csr_free(&A);
    return status;
}
