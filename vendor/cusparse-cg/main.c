/* vendor/cusparse-cg/main.c - chapter 7's GPU yardstick: a conjugate gradient
 * of cusparseSpMV (q = A p) and cuBLAS (every vector operation) on exactly the
 * matrix and b step7 solves, in the two forms a CUDA user writes:
 *
 *   --kernel sample   NVIDIA's CUDA sample `conjugateGradient`: each dot read
 *                     back to the host, alpha and beta computed there, every
 *                     call launched by the host each iteration (row kernel
 *                     cusparse-cublas)
 *   --kernel graph    (default) the same calls, but cuBLAS in device pointer
 *                     mode: the dots stay in device memory, alpha and beta come
 *                     from two kernels of one thread (scalars.cu), and K
 *                     iterations are captured once as a CUDA graph and replayed
 *                     (row kernel cusparse-graph)
 *
 *   make cusparse                                         build/cusparse-cg, where nvcc and cuSPARSE are found
 *   build/cusparse-cg --gen poisson:nx=2048 --precision s --tol 0 --maxiter 200 --csv F
 *   build/cusparse-cg --matrix tests/data/1138_bus.mtx --precision d --tol 1e-8 --kernel sample
 *
 * The matrix and b are the course's (build/libspmv.a: the same loader, --gen
 * and seed as step7; b is drawn as x is, or read with --b FILE). From x0 = 0
 * each iteration is the sample's:
 *     p = r + beta p   cublasXscal, cublasXaxpy      (the first: cublasXcopy)
 *     q = A p          cusparseSpMV (CSR, CUSPARSE_SPMV_ALG_DEFAULT)
 *     pq = p . q       cublasXdot                      alpha = rr / pq
 *     x += alpha p     cublasXaxpy
 *     r -= alpha q     cublasXaxpy
 *     rr = r . r       cublasXdot                      beta = rr / rr_old
 * so 7 library calls and 16 vector passes (scal 2, axpy 3, SpMV 2, dot 2,
 * axpy 3, axpy 3, dot 1) besides the matrix, in both forms. It stops when
 * sqrt(rr) <= tol ||b|| or after --maxiter (step7-cg/reference/cg.h's test, before each
 * iteration); --tol 0 runs exactly --maxiter iterations (the timing runs).
 * pq <= 0 is a breakdown (status 1); --maxiter reached before --tol is status
 * 4, as step7. The flags, defaults, symmetry test, true residual and CSV row
 * are step7's (step7-cg/reference/cg.h); --history FILE writes iteration,rel_residual
 * (the recurrence).
 *
 * The graph form: cublasSetStream and cusparseSetStream on a stream of its
 * own, cuBLAS's workspace and cusparseSpMV's buffer allocated before, a few
 * iterations run once uncaptured (the libraries' kernels loaded), then K
 * iterations (--check-every K; default step7 fused's, sqrt(n) / 32 from 1 to
 * 32) captured once with cudaStreamBeginCapture, and the rest of --maxiter
 * once more. The device kernel makes the stopping test; once the solve has
 * ended it sets alpha = beta = 0, so the rest of a block changes nothing (the
 * row's extra_iterations). With a tolerance the host reads the state back
 * once per block; with --tol 0 never until the end.
 *
 * Timing. sample: an untimed solve of a few iterations first, then the solve,
 * each iteration timed on the host clock (it ends with the dot read back, so
 * the GPU is done); ms_per_iter is their median. graph: an untimed replay of
 * each graph, then the solve, each replay timed with CUDA events around it on
 * the stream; ms_per_iter is the median of replay time / its iterations.
 * The split, the GPU's own time in the SpMV and in the vector calls, queued
 * back to back behind a spin kernel and timed with CUDA events. sample: 20
 * SpMV calls, then 20 iterations' vector calls (the dots written to the
 * device); the rest of an iteration is launches and host waits. graph: 20
 * real iterations from x0 = 0, an event either side of each SpMV (CG's own
 * alpha and beta: cuBLAS may skip work for the zeros of an ended solve); the
 * rest is the replay less these, printed as it comes, negative where the
 * replay is the faster. The bound: the CUDA probe of vendor/cusparse/probe.cu,
 * sampled before the solve. The true residual ||b - A x|| / ||b|| is
 * recomputed on the host in double. One row of chapter 7's CG CSV (--csv).
 */
#include "../../step7-cg/reference/cg.h"
#include "../../step7-cg/report/check.h"
#include "../../step7-cg/report/row.h"
#include "cuda.h"
#include "precision.h"
#include "scalars.h"

#include <cublas_v2.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OPENCL_ONLY "it is an OpenCL option; cuSPARSE and cuBLAS choose their own kernels"
#define NOT_THE_GRID "the DIA grid is not symmetric; CG takes --gen poisson:nx=W[,ny=H] or --matrix FILE"
#define NOT_HERE "not in this yardstick (step7 takes it)"
static const spmv_step STEP = {
    .name = "cusparse-cg",
    .title = "a CG of cuSPARSE SpMV + cuBLAS on step7's matrix, the vendor reference: graph (device scalars, "
             "replayed as a CUDA graph) or sample (the CUDA sample conjugateGradient)",
    .kernel_path = "(none: cuSPARSE and cuBLAS are libraries)",
    .variants = "graph,sample",
    .default_variant = "graph",
    .takes = OPT_DEVICE | OPT_PRECISION | OPT_CG,
    .model_bytes = 0,
    .default_matrix = "--gen poisson:nx=512, the 5-point Laplacian on a 512 x 512 grid",
    .precisions = "sd",
    .refusals = (const spmv_note[]){
        { "--local-size", OPENCL_ONLY }, { "--kernel-file", OPENCL_ONLY }, { "--cl-opts", OPENCL_ONLY },
        { "--grid", NOT_THE_GRID }, { "--radius", NOT_THE_GRID },
        { "--x", "b is --b FILE" },
        { "--save-x", NOT_HERE }, { "--save-b", NOT_HERE }, { NULL, NULL } },
    .defaults = (const spmv_note[]){ { "--check-every", "step7 fused's, sqrt(n) / 32 from 1 to 32; graph only" },
                                     { NULL, NULL } },
    .exit_statuses = "0 solved and checked (or the fixed iterations of --tol 0 done and checked), 1 check failed "
                     "or breakdown (A not positive definite), 2 bad input or out of memory, 3 skipped (no CUDA "
                     "device), 4 --maxiter reached before --tol",
    /* chapter 7's own option, as step7 takes it (its default in .defaults) */
    .own = (const spmv_option[]){ { .name = "--check-every", .arg = "K", .after = "--maxiter",
                                    .help = "read the residual back every K iterations", .kind = SPMV_OWN_NUMBER,
                                    .lo = 1, .hi = 1000000 },
                                  { NULL } },
    /* the host's estimate (capacity.h): the allowance chapter 6 makes for its
     * adaptive plan, 1 byte a row and 1 a nonzero (this program makes no plan) */
    .holds = { .part = "the adaptive plan", .part_row = 1, .part_nnz = 1 },
};
#define KERNEL_SAMPLE "cusparse-cublas"   /* the rows' name since chapter 7 began: plots/cg-prep.awk reads it */
#define KERNEL_GRAPH "cusparse-graph"
#define CALLS_PER_ITER 7                  /* library calls; the graph form adds its 2 kernels */
#define PASSES_PER_ITER 16
#define BLAS_WORKSPACE (4 << 20)          /* cuBLAS's, set by hand so that no capture allocates one */
#define EVENT_RING 64                     /* replays timed at once (--tol 0 queues them all) */

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

static void skip(const spmv_options *o, const char *device, const char *why) __attribute__((noreturn));
static void skip(const spmv_options *o, const char *device, const char *why)
{
    printf("skipped: %s\n", why);
    spmv_cg_row r = { .step = "vendor", .kernel = strcmp(o->variant, "sample") ? KERNEL_GRAPH : KERNEL_SAMPLE,
                       .device = device, .driver = "cuSPARSE + cuBLAS",
                       .matrix = o->matrix ? o->matrix : o->gen ? o->gen : "-", .check = "SKIP",
                       .precision = o->precision, .check_every = 1, .rel_residual = -1, .true_residual = -1,
                       .tol = -1, .ms_per_iter = -1, .ms_total = -1, .spmv_ms = -1, .vector_ms = -1, .wait_ms = -1,
                       .launches = -1, .bytes = -1, .bytes_compulsory = -1, .bw_gbs = -1 };
    spmv_cg_csv(o->csv, &r);
    fflush(stdout);
    fprintf(stderr, "%s: skipped: %s\n", STEP.name, why);
    exit(SPMV_EXIT_SKIP);
}

/* ---- the solver's state on the device ---- */

typedef struct {
    cublasHandle_t blas;
    cusparseHandle_t sparse;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vp, vq;
    cudaDataType type;
    int n, single, graph;
    size_t vsize;
    void *x, *r, *p, *q, *b, *buf, *dots;   /* dots: two device scalars for the split's timing */
    cudaStream_t stream;                    /* graph: its own; sample: the default stream (0) */
    void *state;                            /* graph: the scalars and ints of scalars.h */
    void *workspace;                        /* graph: cuBLAS's */
    double *hist;                           /* graph, --history: r.r after each iteration (NULL: none) */
    int hist_cap;
    double stop;                            /* graph: tol ||b||, a kernel argument fixed at capture */
} cg_dev;

static const float ONE_F = 1, ZERO_F = 0;
static const double ONE_D = 1, ZERO_D = 0;

static void spmv_q(cg_dev *d)   /* q = A p */
{
    const void *one = d->single ? (const void *)&ONE_F : (const void *)&ONE_D;
    const void *zero = d->single ? (const void *)&ZERO_F : (const void *)&ZERO_D;
    SPARSE_CHECK(cusparseSpMV(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, one, d->A, d->vp, zero, d->vq, d->type,
                              CUSPARSE_SPMV_ALG_DEFAULT, d->buf));
}
static void dot(cg_dev *d, void *u, void *v, void *out)   /* out: host or device, by the pointer mode */
{
    if (d->single)
        BLAS_CHECK(cublasSdot(d->blas, d->n, u, 1, v, 1, out));
    else
        BLAS_CHECK(cublasDdot(d->blas, d->n, u, 1, v, 1, out));
}
static void axpy(cg_dev *d, double a, void *u, void *v)   /* v += a u; a from the host */
{
    float af = (float)a;
    if (d->single)
        BLAS_CHECK(cublasSaxpy(d->blas, d->n, &af, u, 1, v, 1));
    else
        BLAS_CHECK(cublasDaxpy(d->blas, d->n, &a, u, 1, v, 1));
}
static void scal(cg_dev *d, double a, void *v)
{
    float af = (float)a;
    if (d->single)
        BLAS_CHECK(cublasSscal(d->blas, d->n, &af, v, 1));
    else
        BLAS_CHECK(cublasDscal(d->blas, d->n, &a, v, 1));
}
static void copy(cg_dev *d, void *u, void *v)
{
    if (d->single)
        BLAS_CHECK(cublasScopy(d->blas, d->n, u, 1, v, 1));
    else
        BLAS_CHECK(cublasDcopy(d->blas, d->n, u, 1, v, 1));
}
static double host_dot(cg_dev *d, void *u, void *v)   /* the sample's dot: the result read back to the host */
{
    if (d->single) {
        float s = 0;
        dot(d, u, v, &s);
        return s;
    }
    double s = 0;
    dot(d, u, v, &s);
    return s;
}

typedef struct {
    int iterations, breakdown;
    long long launched;     /* graph: iterations replayed, the frozen ones after the end included */
    double rr, pq;          /* the last r.r and p.q */
    double *ms;             /* per iteration (sample) or per replay, per iteration (graph) (NULL: not kept) */
    int nms;                /* entries of ms */
    double *hist;           /* per iteration, the recurrence sqrt(rr) / ||b|| (NULL: not kept) */
} cg_run;

/* The CUDA sample's loop, from x0 = 0 (r = b, no first SpMV): stops at
 * sqrt(rr) <= tol ||b||, after maxiter iterations, or at pq <= 0. */
static void solve(cg_dev *d, double bnorm, double tol, long long maxiter, cg_run *run)
{
    size_t bytes = (size_t)d->n * d->vsize;
    CUDA_CHECK(cudaMemset(d->x, 0, bytes));
    CUDA_CHECK(cudaMemcpy(d->r, d->b, bytes, cudaMemcpyDeviceToDevice));
    BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_HOST));
    double rr = host_dot(d, d->r, d->r), rr_old = 0, stop = tol * bnorm;
    run->iterations = run->breakdown = run->nms = 0;
    run->pq = 0;
    CUDA_CHECK(cudaDeviceSynchronize());
    for (long long k = 0; k < maxiter && sqrt(rr) > stop; k++) {
        double t0 = spmv_now();
        if (k > 0) {
            scal(d, rr / rr_old, d->p);
            axpy(d, 1.0, d->r, d->p);
        } else {
            copy(d, d->r, d->p);
        }
        spmv_q(d);
        double pq = host_dot(d, d->p, d->q);
        run->pq = pq;
        if (!(pq > 0)) {   /* not positive definite (or NaN): nothing sensible to divide by */
            run->breakdown = 1;
            break;
        }
        double alpha = rr / pq;
        axpy(d, alpha, d->p, d->x);
        axpy(d, -alpha, d->q, d->r);
        rr_old = rr;
        rr = host_dot(d, d->r, d->r);
        CUDA_CHECK(cudaDeviceSynchronize());   /* as the sample: the iteration ends when the GPU does */
        if (run->ms)
            run->ms[run->nms++] = (spmv_now() - t0) * 1e3;
        if (run->hist)
            run->hist[k] = bnorm > 0 ? sqrt(rr) / bnorm : 0;
        run->iterations = (int)(k + 1);
    }
    run->launched = run->iterations;
    run->rr = rr;
}

/* ---- the graph form: the same calls, the scalars on the device ---- */

static void *slot(cg_dev *d, int i)   /* a scalar of scalars.h, in device memory */
{
    return (char *)d->state + (size_t)i * d->vsize;
}
static void axpy_at(cg_dev *d, int a, void *u, void *v)   /* v += s[a] u, s[a] read by cuBLAS on the device */
{
    if (d->single)
        BLAS_CHECK(cublasSaxpy(d->blas, d->n, slot(d, a), u, 1, v, 1));
    else
        BLAS_CHECK(cublasDaxpy(d->blas, d->n, slot(d, a), u, 1, v, 1));
}
static void scal_at(cg_dev *d, int a, void *v)
{
    if (d->single)
        BLAS_CHECK(cublasSscal(d->blas, d->n, slot(d, a), v, 1));
    else
        BLAS_CHECK(cublasDscal(d->blas, d->n, slot(d, a), v, 1));
}

/* An iteration after q = A p, in the order of the sample's, p updated last
 * (for the next one): nothing leaves the device, nothing waits. */
static void graph_vectors(cg_dev *d)
{
    dot(d, d->p, d->q, slot(d, CG_PQ));
    cg_scalars_alpha(d->single, d->state, d->stop, d->stream);   /* the test; alpha = rr / pq */
    axpy_at(d, CG_ALPHA, d->p, d->x);
    axpy_at(d, CG_NALPHA, d->q, d->r);
    dot(d, d->r, d->r, slot(d, CG_RR_NEW));
    cg_scalars_beta(d->single, d->state, d->hist, d->hist_cap, d->stream);   /* beta = rr_new / rr */
    scal_at(d, CG_BETA, d->p);
    axpy_at(d, CG_ONE, d->r, d->p);
}
static void graph_iteration(cg_dev *d)
{
    spmv_q(d);
    graph_vectors(d);
}

/* x = 0, r = b, p = r, rr = r.r, the state reset: queued on the stream */
static void graph_start(cg_dev *d)
{
    size_t bytes = (size_t)d->n * d->vsize;
    CUDA_CHECK(cudaMemsetAsync(d->x, 0, bytes, d->stream));
    CUDA_CHECK(cudaMemcpyAsync(d->r, d->b, bytes, cudaMemcpyDeviceToDevice, d->stream));
    copy(d, d->r, d->p);
    cg_scalars_init(d->single, d->state, d->stream);
    dot(d, d->r, d->r, slot(d, CG_RR));
    CUDA_CHECK(cudaGetLastError());
}

typedef struct {
    double s[CG_NSCAL];
    int i[CG_NINT];
} cg_state;
static void read_state(cg_dev *d, cg_state *h)   /* the one copy back: scalars and ints */
{
    unsigned char buf[CG_STATE_BYTES];
    CUDA_CHECK(cudaMemcpyAsync(buf, d->state, CG_STATE_BYTES, cudaMemcpyDeviceToHost, d->stream));
    CUDA_CHECK(cudaStreamSynchronize(d->stream));
    for (int i = 0; i < CG_NSCAL; i++) {
        float f = 0;
        double v = 0;
        if (d->single) {
            memcpy(&f, buf + i * sizeof f, sizeof f);
            v = f;
        } else {
            memcpy(&v, buf + i * sizeof v, sizeof v);
        }
        h->s[i] = v;
    }
    memcpy(h->i, buf + CG_INT_AT, sizeof h->i);
}

typedef struct {
    cudaGraphExec_t exec;
    int iters;
} cg_graph;

/* `iters` iterations captured once from the stream (the libraries' calls
 * and the two kernels, 9 launches each) and instantiated. */
static void capture(cg_dev *d, int iters, cg_graph *g)
{
    cudaGraph_t graph;
    CUDA_CHECK(cudaStreamBeginCapture(d->stream, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < iters; i++)
        graph_iteration(d);
    CUDA_CHECK(cudaStreamEndCapture(d->stream, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&g->exec, graph, 0));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaGraphUpload(g->exec, d->stream));
    g->iters = iters;
}

typedef struct {
    cudaEvent_t start[EVENT_RING], end[EVENT_RING];
    int iters[EVENT_RING], pending[EVENT_RING];
} replay_timer;
static void replay_collect(replay_timer *t, int j, cg_run *run)   /* replay j of the ring, done: its time */
{
    if (!t->pending[j])
        return;
    CUDA_CHECK(cudaEventSynchronize(t->end[j]));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t->start[j], t->end[j]));
    if (run->ms)
        run->ms[run->nms++] = ms / t->iters[j];
    t->pending[j] = 0;
}

/* The graph form's solve: replays of gk (K iterations) and, to end at
 * maxiter exactly, of grem; with a tolerance the state read back after each
 * replay, with --tol 0 after the last. Replays are timed with events, up to
 * EVENT_RING of them in flight. */
static void solve_graph(cg_dev *d, long long maxiter, cg_graph *gk, cg_graph *grem, replay_timer *t, cg_run *run)
{
    run->iterations = run->breakdown = run->nms = 0;
    run->launched = 0;
    run->pq = 0;
    graph_start(d);
    cg_state h;
    read_state(d, &h);   /* r.r of b, before the loop: b = 0 does no iteration */
    run->rr = h.s[CG_RR];
    if (!(sqrt(h.s[CG_RR]) > d->stop))
        return;
    long long launched = 0;
    int nb = 0;
    while (launched < maxiter) {
        cg_graph *g = maxiter - launched >= gk->iters ? gk : grem;
        int j = nb++ % EVENT_RING;
        replay_collect(t, j, run);
        CUDA_CHECK(cudaEventRecord(t->start[j], d->stream));
        CUDA_CHECK(cudaGraphLaunch(g->exec, d->stream));
        CUDA_CHECK(cudaEventRecord(t->end[j], d->stream));
        t->iters[j] = g->iters;
        t->pending[j] = 1;
        launched += g->iters;
        if (d->stop > 0) {   /* a tolerance: has the device's test ended it? */
            read_state(d, &h);
            replay_collect(t, j, run);
            if (h.i[CG_END] != CG_RUNNING)
                break;
        }
    }
    CUDA_CHECK(cudaStreamSynchronize(d->stream));
    for (int k = 0; k < EVENT_RING; k++)   /* in the order they ran */
        replay_collect(t, (nb + k) % EVENT_RING, run);
    read_state(d, &h);
    run->iterations = h.i[CG_DONE];
    run->launched = h.i[CG_LAUNCHED];
    run->rr = h.s[CG_RR];
    if (h.i[CG_END] == CG_END_BREAKDOWN) {
        run->breakdown = 1;
        run->pq = h.s[CG_PQ_BREAK];
    }
}

/* The sample's split: SpMV calls, then the vector calls of an iteration (the
 * dots to the device, so nothing waits for the host), `reps` of each queued
 * behind a spin kernel and timed with events: the GPU's own time per
 * iteration. */
static void split_sample(cg_dev *d, int reps, double *spmv_ms, double *vector_ms)
{
    cudaEvent_t e0, e1, e2;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    CUDA_CHECK(cudaEventCreate(&e2));
    BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_DEVICE));
    char *dots = d->dots;
    double scale = 1.0 / d->n;   /* keeps x and r finite over the repetitions */
    for (int pass = 0; pass < 2; pass++) {   /* the first untimed */
        cuda_spin(200.0 + 30.0 * reps * CALLS_PER_ITER);
        CUDA_CHECK(cudaEventRecord(e0, 0));
        for (int i = 0; i < reps; i++)
            spmv_q(d);
        CUDA_CHECK(cudaEventRecord(e1, 0));
        BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_HOST));
        for (int i = 0; i < reps; i++) {
            scal(d, 1.0, d->p);
            axpy(d, scale, d->r, d->p);
            BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_DEVICE));
            dot(d, d->p, d->q, dots);
            BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_HOST));
            axpy(d, scale, d->p, d->x);
            axpy(d, -scale, d->q, d->r);
            BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_DEVICE));
            dot(d, d->r, d->r, dots + d->vsize);
            BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_HOST));
        }
        CUDA_CHECK(cudaEventRecord(e2, 0));
        CUDA_CHECK(cudaEventSynchronize(e2));
    }
    float a = 0, b = 0;
    CUDA_CHECK(cudaEventElapsedTime(&a, e0, e1));
    CUDA_CHECK(cudaEventElapsedTime(&b, e1, e2));
    *spmv_ms = a / reps;
    *vector_ms = b / reps;
    BLAS_CHECK(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_HOST));
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaEventDestroy(e2));
}

/* The graph form's split: SPLIT_REPS real iterations, restarted from x0 = 0
 * with no stopping test (so alpha and beta are CG's own: with the zeros of an
 * ended solve the vector calls ran 19-32% faster on the H100), queued behind
 * a spin kernel on the solve's stream, an event before and after each SpMV:
 * the GPU's time in the SpMV and in the rest of each iteration (the vector
 * calls and the two kernels), which add up to these iterations queued back to
 * back. */
#define SPLIT_REPS 20
static void split_graph(cg_dev *d, double *spmv_ms, double *vector_ms)
{
    cudaEvent_t e[2 * SPLIT_REPS + 1];
    for (int i = 0; i <= 2 * SPLIT_REPS; i++)
        CUDA_CHECK(cudaEventCreate(&e[i]));
    double stop = d->stop, *hist = d->hist;
    d->stop = -1;
    d->hist = NULL;
    for (int pass = 0; pass < 2; pass++) {   /* the first untimed */
        graph_start(d);
        cuda_spin_on(200.0 + 40.0 * SPLIT_REPS * (CALLS_PER_ITER + 2), d->stream);
        for (int i = 0; i < SPLIT_REPS; i++) {
            CUDA_CHECK(cudaEventRecord(e[2 * i], d->stream));
            spmv_q(d);
            CUDA_CHECK(cudaEventRecord(e[2 * i + 1], d->stream));
            graph_vectors(d);
        }
        CUDA_CHECK(cudaEventRecord(e[2 * SPLIT_REPS], d->stream));
        CUDA_CHECK(cudaEventSynchronize(e[2 * SPLIT_REPS]));
    }
    CUDA_CHECK(cudaGetLastError());
    double a = 0, b = 0;
    for (int i = 0; i < SPLIT_REPS; i++) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e[2 * i], e[2 * i + 1]));
        a += ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e[2 * i + 1], e[2 * i + 2]));
        b += ms;
    }
    *spmv_ms = a / SPLIT_REPS;
    *vector_ms = b / SPLIT_REPS;
    d->stop = stop;
    d->hist = hist;
    for (int i = 0; i <= 2 * SPLIT_REPS; i++)
        CUDA_CHECK(cudaEventDestroy(e[i]));
}

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_run ctx;   /* the run's context (run.h); run is the solve's, below */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &ctx);
    const char *history = o.history;
    int graph = strcmp(o.variant, "sample") != 0;
    int check_every = spmv_own_int(&o, "--check-every", 0);
    if (check_every && !graph)
        spmv_die(SPMV_EXIT_USAGE, "--check-every: --kernel sample reads both dots back every iteration; "
                 "--kernel graph takes it");
    if (!o.matrix && !o.gen)
        o.gen = "poisson:nx=512";   /* step7's default matrix */
    o.x_file = o.b_file;            /* b is drawn or read as every step draws or reads x */
    cuda_device dev;
    open_device(&o, &dev, skip);

    /* 2. The matrix and b: step7's, from the same code */
    spmv_input in;
    spmv_read_csr(&ctx, &o, &dev.limits, &in);
    spmv_save_matrix(&ctx, &o, &in);
    csr_matrix A;
    spmv_load_csr(&ctx, &o, &in, &A);
    if (A.im)
        spmv_die(SPMV_EXIT_USAGE, "%s is complex: CG here is for real symmetric positive definite matrices",
                 A.origin.name);
    if (A.rows != A.cols)
        spmv_die(SPMV_EXIT_USAGE, "%s is %d x %d: CG needs a square matrix", A.origin.name, A.rows, A.cols);
    int brow, bcol;
    if (!spmv_csr_symmetric(&A, &brow, &bcol))
        spmv_die(SPMV_EXIT_USAGE, "%s is not symmetric (a(%d,%d) != a(%d,%d)): CG needs a symmetric positive "
                 "definite matrix", A.origin.name, brow + 1, bcol + 1, bcol + 1, brow + 1);
    char p = o.precision;
    int single = p == 's', n = A.rows;
    size_t vsize = single ? 4 : 8;
    if (single)
        csr_round_to_float(&ctx, &A);
    double *b = spmv_x_doubles(&ctx, &o, n, 0, single);
    double bnorm = 0;
    for (int i = 0; i < n; i++)
        bnorm += b[i] * b[i];
    bnorm = sqrt(bnorm);
    double tol = o.tol_set ? o.tol : single ? 1e-5 : 1e-10;   /* step7's defaults */
    long long maxiter = o.maxiter > 0 ? o.maxiter : 10LL * n;
    printf("matrix   %s: %d x %d, %lld nonzeros, %s\n", A.origin.name, n, n, A.nnz, spmv_prec_name(p));
    printf("solve    tol %g (relative to ||b||), maxiter %lld, from x0 = 0, no preconditioner\n", tol, maxiter);
    /* graph: K iterations a replay, step7 fused's default K (the same reads a solve) */
    int kblock = check_every ? check_every : (int)fmin(32, fmax(1, sqrt((double)n) / 32));
    if (graph)
        printf("form     graph: cuBLAS in device pointer mode, alpha and beta by 2 kernels on the device, %d "
               "iteration%s (9 launches each) captured once as a CUDA graph and replayed; the state read back %s\n",
               kblock, kblock == 1 ? "" : "s", tol > 0 ? "after each replay (--check-every)" : "once, at the end");
    else
        printf("form     sample: the CUDA sample's loop, 7 library calls an iteration launched by the host, both dots "
               "read back to the host for alpha and beta\n");

    /* 3. Device buffers: values as the precision stores them, int indices, zero-based */
    spmv_error err;
    void *val = spmv_prec_pack(&ctx, A.re, NULL, (size_t)A.nnz, p, &err);
    void *bd = val ? spmv_prec_pack_doubles(b, (size_t)n, single, &err) : NULL;
    if (!val || !bd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    cg_dev d;
    memset(&d, 0, sizeof d);
    d.n = n;
    d.single = single;
    d.graph = graph;
    d.vsize = vsize;
    d.type = single ? CUDA_R_32F : CUDA_R_64F;
    size_t vbytes = (size_t)n * vsize;
    void *d_ptr = dev_buffer(((size_t)n + 1) * sizeof(int), A.ptr, "row pointers", dev.name);
    void *d_col = dev_buffer((size_t)A.nnz * sizeof(int), A.col, "column indices", dev.name);
    void *d_val = dev_buffer((size_t)A.nnz * vsize, val, "matrix values", dev.name);
    d.b = dev_buffer(vbytes, bd, "b", dev.name);
    d.x = dev_buffer(vbytes, NULL, "x", dev.name);
    d.r = dev_buffer(vbytes, NULL, "r", dev.name);
    d.p = dev_buffer(vbytes, NULL, "p", dev.name);
    d.q = dev_buffer(vbytes, NULL, "q", dev.name);
    d.dots = dev_buffer(2 * vsize, NULL, "two scalars", dev.name);
    if (graph) {
        d.state = dev_buffer(CG_STATE_BYTES, NULL, "the solver's scalars", dev.name);
        d.workspace = dev_buffer(BLAS_WORKSPACE, NULL, "cuBLAS's workspace", dev.name);
        d.stop = tol * bnorm;
        if (history && maxiter > 0) {
            d.hist_cap = maxiter < INT_MAX ? (int)maxiter : INT_MAX;
            d.hist = dev_buffer((size_t)d.hist_cap * sizeof(double), NULL, "--history", dev.name);
        }
    }

    /* 4. The libraries: handles, descriptors, SpMV's work buffer */
    BLAS_CHECK(cublasCreate(&d.blas));
    SPARSE_CHECK(cusparseCreate(&d.sparse));
    SPARSE_CHECK(cusparseCreateCsr(&d.A, n, n, A.nnz, d_ptr, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, d.type));
    SPARSE_CHECK(cusparseCreateDnVec(&d.vp, n, d.p, d.type));
    SPARSE_CHECK(cusparseCreateDnVec(&d.vq, n, d.q, d.type));
    size_t buf_bytes = 0;
    SPARSE_CHECK(cusparseSpMV_bufferSize(d.sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                         single ? (const void *)&ONE_F : (const void *)&ONE_D, d.A, d.vp,
                                         single ? (const void *)&ZERO_F : (const void *)&ZERO_D, d.vq, d.type,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &buf_bytes));
    d.buf = dev_buffer(buf_bytes, NULL, "cuSPARSE's work buffer", dev.name);
    if (graph) {   /* a stream of its own (capture needs one), the scalars on the device */
        CUDA_CHECK(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
        SPARSE_CHECK(cusparseSetStream(d.sparse, d.stream));
        BLAS_CHECK(cublasSetStream(d.blas, d.stream));
        BLAS_CHECK(cublasSetWorkspace(d.blas, d.workspace, BLAS_WORKSPACE));   /* after SetStream: it resets it */
        BLAS_CHECK(cublasSetPointerMode(d.blas, CUBLAS_POINTER_MODE_DEVICE));
    }
    int rtv = 0, blasv = 0;
    BLAS_CHECK(cublasGetVersion(d.blas, &blasv));
    CUDA_CHECK(cudaRuntimeGetVersion(&rtv));
    char driver[320];
    snprintf(driver, sizeof driver, "%s; cuBLAS %d", dev.driver, blasv);

    /* 5. Work sizes: the libraries' choice */

    /* 6. The probe, an untimed warm-up solve, the timed solve, the split */
    spmv_bandwidth bw = { 0 };
    const char *mb = getenv("SPMV_PROBE_MB");
    if (!(mb && strcmp(mb, "0") == 0)) {
        cuda_probe probe;
        char msg[512];
        int rc = cuda_probe_open(&probe, mb && atoi(mb) > 0 ? (size_t)atoi(mb) << 20 : (size_t)256 << 20, msg,
                                 sizeof msg);
        if (rc)
            spmv_die(rc == 2 ? SPMV_EXIT_USAGE : SPMV_EXIT_FAIL, "%s", msg);
        while (probe.n < SPMV_PROBE_MIN_SAMPLES)
            cuda_probe_sample(&probe);
        CUDA_CHECK(cudaGetLastError());
        bw = probe_bandwidth(&probe);
        cuda_probe_close(&probe);
        printf("probe    copy %.1f GB/s (read + written), read %.1f GB/s: %zu MiB, median of %d before the solve; "
               "the bounds use %.1f\n", bw.copy_gbs, bw.read_gbs, bw.mib, bw.samples, bw.gbs);
    }
    cg_run run;
    memset(&run, 0, sizeof run);
    cg_graph gk = { 0 }, grem = { 0 };
    replay_timer timer;
    memset(&timer, 0, sizeof timer);
    if (graph) {
        for (int j = 0; j < EVENT_RING; j++) {
            CUDA_CHECK(cudaEventCreate(&timer.start[j]));
            CUDA_CHECK(cudaEventCreate(&timer.end[j]));
        }
        /* two iterations uncaptured: the libraries load their kernels, outside the capture */
        graph_start(&d);
        graph_iteration(&d);
        graph_iteration(&d);
        CUDA_CHECK(cudaStreamSynchronize(d.stream));
        CUDA_CHECK(cudaGetLastError());
        int k = maxiter < kblock ? (int)maxiter : kblock;
        if (k > 0)
            capture(&d, k, &gk);
        if (k > 0 && maxiter % k)
            capture(&d, (int)(maxiter % k), &grem);
        solve_graph(&d, gk.iters + grem.iters, &gk, &grem, &timer, &run);   /* warm-up: each graph once */
    } else {
        solve(&d, bnorm, tol, maxiter < 5 ? maxiter : 5, &run);   /* warm-up */
    }
    run.ms = calloc(maxiter > 0 ? (size_t)maxiter : 1, sizeof *run.ms);
    run.hist = history ? calloc(maxiter > 0 ? (size_t)maxiter : 1, sizeof *run.hist) : NULL;
    if (!run.ms || (history && !run.hist))
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for %lld iterations' times", maxiter);
    double t0 = spmv_now();
    if (graph)
        solve_graph(&d, maxiter, &gk, &grem, &timer, &run);
    else
        solve(&d, bnorm, tol, maxiter, &run);
    double ms_total = (spmv_now() - t0) * 1e3;
    int it = run.iterations;
    if (graph && run.hist && it > 0) {   /* r.r after each iteration, as the sample keeps it */
        double *rr = malloc(sizeof *rr * (size_t)it);
        if (!rr)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for --history");
        CUDA_CHECK(cudaMemcpy(rr, d.hist, sizeof *rr * (size_t)it, cudaMemcpyDeviceToHost));
        for (int k = 0; k < it; k++)
            run.hist[k] = bnorm > 0 ? sqrt(rr[k]) / bnorm : 0;
        free(rr);
    }
    double ms_iter = 0, ms_min = 0;
    double *sorted = malloc(sizeof *sorted * (size_t)(run.nms ? run.nms : 1));
    if (!sorted)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory");
    memcpy(sorted, run.ms, sizeof *sorted * (size_t)run.nms);
    if (it && run.nms)
        spmv_stats(sorted, run.nms, &ms_iter, &ms_min);
    free(sorted);
    double *x = malloc(sizeof *x * (size_t)(n ? n : 1));
    void *xh = malloc(vbytes ? vbytes : 1);
    if (!x || !xh)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for x");
    CUDA_CHECK(cudaMemcpy(xh, d.x, vbytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        x[i] = single ? ((float *)xh)[i] : ((double *)xh)[i];
    double spmv_ms = NAN, vector_ms = NAN, wait_ms = NAN;
    const char *split_env = getenv("SPMV_CG_SPLIT");
    if (it && !(split_env && strcmp(split_env, "0") == 0)) {
        if (graph)
            split_graph(&d, &spmv_ms, &vector_ms);   /* after x is read: it restarts the solve */
        else
            split_sample(&d, 20, &spmv_ms, &vector_ms);
        wait_ms = ms_iter - spmv_ms - vector_ms;   /* printed as it comes (negative where the parts overlap),
                                                     * not a measured part: the CSV leaves it empty */
    }

    /* 7. Report: the check, the time, the bound, the row */
    double rel = bnorm > 0 ? sqrt(run.rr) / bnorm : 0;
    double tr = spmv_cg_true_residual(&A, b, x);
    int converged = bnorm == 0 || (tol > 0 && rel <= tol && !run.breakdown);
    int extra = converged ? (int)(run.launched - it) : 0;   /* graph: replayed after the test ended it */
    int pass;
    if (run.breakdown)
        pass = 0;
    else if (converged) /* the true residual meets tol, within 2x (float: 10x): the sample's loop has no
                           restarts, so its x drifts from its recurrence where step7's is brought back */
        pass = isfinite(tr) && tr <= tol * (single ? 10.0 : 2.0);
    else                /* no tolerance met: the true residual follows the recurrence, as step7 asks */
        pass = isfinite(tr) && fabs(tr - rel) <= 0.1 * rel + 100 * (single ? 0x1p-24 : 0x1p-53) * sqrt((double)n);
    /* --maxiter before --tol: the iterations run passed their checks, but there is no solution (step7's verdict,
     * report/check.h, and its row: MAXITER, no time); a breakdown has failed already */
    int end = converged ? CG_CONVERGED : CG_MAXITER, fixed = tol == 0;
    const char *verdict = cg_verdict(pass, end, fixed);
    int timed = it && strcmp(verdict, "PASS") == 0;
    double bytes = spmv_cg_bytes(n, A.nnz, (int)vsize, PASSES_PER_ITER);
    double comp = spmv_cg_bytes(n, A.nnz, (int)vsize, SPMV_CG_COMPULSORY_PASSES);
    if (run.breakdown)
        printf("breakdown at iteration %d: p.Ap = %g <= 0: the matrix is not positive definite\n", it + 1, run.pq);
    printf("solve    %d iterations%s: recurrence %.3e, true residual %.3e (host, double)\n", it,
           tol == 0 ? " (fixed: --tol 0)" : converged ? ", converged" : ", NOT converged", rel, tr);
    if (graph && converged && it)
        printf("extra    %d iteration%s replayed past the one that met the tolerance (read back every %d)\n", extra,
               extra == 1 ? "" : "s", gk.iters);
    if (timed) {
        if (graph)
            printf("time     %.4f ms per iteration (median of %d replays, CUDA events around each; min %.4f), %.3f ms "
                   "in all (host clock: %.4f ms per iteration launched)\n", ms_iter, run.nms, ms_min, ms_total,
                   ms_total / (double)run.launched);
        else
            printf("time     %.4f ms per iteration (median of %d; min %.4f), %.3f ms in all (host clock)\n", ms_iter,
                   it, ms_min, ms_total);
        if (!isnan(spmv_ms))
            printf("split    SpMV %.4f ms, vector calls %.4f ms (GPU time, events), %s %.4f ms%s\n", spmv_ms,
                   vector_ms, graph ? "the replay less these two (the same calls queued back to back)"
                   : "launches and host waits", wait_ms, wait_ms < 0 ? ": negative, the replay is the faster" : "");
        if (bw.gbs > 0)
            printf("bound    %.1f%% of its own (matrix + %d passes), %.1f%% of the compulsory (matrix + %d passes) "
                   "at %.1f GB/s\n", 100.0 * bytes / (bw.gbs * 1e6) / ms_iter, PASSES_PER_ITER,
                   100.0 * comp / (bw.gbs * 1e6) / ms_iter, SPMV_CG_COMPULSORY_PASSES, bw.gbs);
    }
    cg_print_verdict(stdout, pass, end, fixed, it, tol);
    spmv_cg_row row = { .step = "vendor", .kernel = graph ? KERNEL_GRAPH : KERNEL_SAMPLE, .device = dev.name,
                        .driver = driver, .matrix = A.origin.name, .check = verdict, .rows = n,
                        .cols = n, .nnz = A.nnz, .precision = p, .iterations = it,
                        .check_every = graph ? (gk.iters ? gk.iters : kblock) : 1, .extra_iterations = extra,
                        .converged = converged, .rel_residual = rel, .true_residual = tr, .tol = tol,
                        .ms_per_iter = timed ? ms_iter : -1, .ms_total = timed ? ms_total : -1,
                        .spmv_ms = isnan(spmv_ms) ? -1 : spmv_ms, .vector_ms = isnan(vector_ms) ? -1 : vector_ms,
                        .wait_ms = NAN /* the rest is not measured, only the iteration less the parts: left empty */, .launches = CALLS_PER_ITER + 2 * graph,
                        .bytes = bytes, .bytes_compulsory = comp, .bw_gbs = bw.gbs > 0 ? bw.gbs : -1 };
    spmv_cg_csv(o.csv, &row);
    if (history) {
        FILE *h = fopen(history, "w");
        if (!h)
            spmv_die(SPMV_EXIT_USAGE, "--history %s: cannot write there", history);
        fprintf(h, "iteration,rel_residual\n0,%.6e\n", bnorm > 0 ? 1.0 : 0.0);
        for (int k = 0; k < it; k++)
            fprintf(h, "%d,%.6e\n", k + 1, run.hist[k]);
        fclose(h);
    }

    /* 8. Release */
    if (graph) {
        for (int j = 0; j < EVENT_RING; j++) {
            CUDA_CHECK(cudaEventDestroy(timer.start[j]));
            CUDA_CHECK(cudaEventDestroy(timer.end[j]));
        }
        if (gk.exec)
            CUDA_CHECK(cudaGraphExecDestroy(gk.exec));
        if (grem.exec)
            CUDA_CHECK(cudaGraphExecDestroy(grem.exec));
    }
    SPARSE_CHECK(cusparseDestroyDnVec(d.vp));
    SPARSE_CHECK(cusparseDestroyDnVec(d.vq));
    SPARSE_CHECK(cusparseDestroySpMat(d.A));
    SPARSE_CHECK(cusparseDestroy(d.sparse));
    BLAS_CHECK(cublasDestroy(d.blas));
    void *dbufs[] = { d_ptr, d_col, d_val, d.b, d.x, d.r, d.p, d.q, d.buf, d.dots, d.state, d.workspace, d.hist };
    for (size_t i = 0; i < sizeof dbufs / sizeof *dbufs; i++)
        if (dbufs[i])
            CUDA_CHECK(cudaFree(dbufs[i]));
    if (d.stream)
        CUDA_CHECK(cudaStreamDestroy(d.stream));
    free(run.ms);
    free(run.hist);
    free(x);
    free(xh);
    free(val);
    free(bd);
    free(b);
    csr_free(&A);
    if (run.breakdown || !pass)
        return SPMV_EXIT_FAIL;
    return tol > 0 && !converged ? 4 : SPMV_EXIT_PASS;   /* 4: --maxiter reached before --tol, as step7 */
}
