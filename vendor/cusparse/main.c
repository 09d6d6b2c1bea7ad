/* vendor/cusparse/main.c - the vendor library as chapter 6's reference:
 * NVIDIA cuSPARSE's cusparseSpMV on exactly the matrix step6 runs, checked,
 * timed and reported the way step6 checks, times and reports its kernels.
 *
 *   make cusparse                                   build/cusparse, where nvcc and cuSPARSE are found
 *   build/cusparse --grid 2048 --precision s        step6's command line (--help lists it)
 *   build/cusparse --matrix tests/data/young1c.mtx --precision z --csv plots/data/mine.csv
 *
 * The matrix, x, the reference, the checker and the result row are the
 * course's own (build/libspmv.a: the same loader, generator and seed as
 * step6, so both programs multiply the same numbers); the CUDA runtime and
 * cuSPARSE are called through their C APIs, and only the bandwidth probe is
 * CUDA C (probe.cu). Both CSR algorithms run: CUSPARSE_SPMV_CSR_ALG1 and
 * ALG2, one work buffer from cusparseSpMV_bufferSize, allocated once for the
 * larger of the two; cusparseSpMV_preprocess once per algorithm, timed apart
 * (SPMV_CUSPARSE_PREPROCESS=0 leaves it out). The time is the call alone
 * between two CUDA events, the host's part of it hidden behind a spin
 * kernel queued first (call_ms), so that it is the GPU's time, as step6's
 * profiling events are. Without --kernel the CSV row, kernel `cusparse`,
 * is the faster algorithm; --kernel alg1 or alg2 runs one, row cusparse-alg1
 * or cusparse-alg2.
 *
 * The sections follow step6-csr/main.c, so `diff step6-csr/main.c
 * vendor/cusparse/main.c` shows what the library replaces.
 */
#include "../../step6-csr/choice/csrchoice.h"
#include "cuda.h"
#include "precision.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#define OPENCL_ONLY "it is an OpenCL option; cuSPARSE chooses its own kernels and launch (--kernel takes alg1, " \
                    "alg2 or both)"
static const spmv_step STEP = {
    .name = "cusparse",
    .title = "NVIDIA cuSPARSE's cusparseSpMV (CSR ALG1 and ALG2) on step6's matrix: the vendor reference",
    .kernel_path = "(none: cuSPARSE is a library)",
    .variants = "alg1,alg2,both",
    .default_variant = "both",
    .takes = OPT_GRID | OPT_PRODUCT | OPT_DEVICE | OPT_PRECISION,
    .model_bytes = 0,   /* as step6: the bound is the compulsory traffic */
    .precisions = "sdcz",
    .defaults = (const spmv_note[]){ { "--precision", "the file's: s, or c for a complex file" }, { NULL, NULL } },
    .refusals = (const spmv_note[]){
        { "--local-size", OPENCL_ONLY }, { "--kernel-file", OPENCL_ONLY }, { "--cl-opts", OPENCL_ONLY }, { NULL, NULL } },
    .exit_statuses = "0 check passed, 1 check failed, 2 bad input or out of memory, 3 skipped (no CUDA device, or "
                     "it lacks what the precision needs)",
    /* the host's estimate (capacity.h): the allowance chapter 6 makes for its
     * adaptive plan, 1 byte a row and 1 a nonzero (this program makes no plan) */
    .holds = { .part = "the adaptive plan", .part_row = 1, .part_nnz = 1 },
};
#define ROW_STEP "step6"   /* its rows sit beside step6's in the CSV and the figure */

/* Write a SKIP row and exit 3, as spmv_skip does for an OpenCL step. */
static void skip(const spmv_options *o, const char *device, const char *why) __attribute__((noreturn));
static void skip(const spmv_options *o, const char *device, const char *why)
{
    printf("skipped: %s\n", why);
    if (o->csv) {
        spmv_result r;
        memset(&r, 0, sizeof r);
        r.step = ROW_STEP;
        r.kernel = "cusparse";
        r.device = device;
        r.driver = "cuSPARSE";
        r.matrix = o->matrix ? o->matrix : "-";
        r.precision = o->precision;
        r.check = "SKIP";
        spmv_report(NULL, &r, o->csv);   /* the row alone: a SKIP prints no result line */
    }
    fflush(stdout);
    fprintf(stderr, "%s: skipped: %s\n", STEP.name, why);
    exit(SPMV_EXIT_SKIP);
}

/* ---- one cusparseSpMV call, timed with events around it alone ---- */

typedef struct {
    cusparseHandle_t h;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t x, y;
    const void *alpha, *beta;
    cudaDataType type;
    cusparseSpMVAlg_t alg;
    void *buf;
    cudaEvent_t e0, e1;
    double spin_us;   /* the spin kernel queued before e0; 0: none */
} spmv_call;

/* Events around the call alone measure more than the GPU's work: e0 is
 * passed as soon as it is queued on an idle GPU, and the GPU then waits
 * while the host works through cusparseSpMV (checks, then one to three
 * launches). On the H100 that was 6-8 us a call, 7-15% of a power-law
 * product and 45% of the arrow's (step6-csr/adaptive/TUNING.md, "Whose
 * time"). step6's profiling events time the kernels alone. So a kernel of one thread that
 * spins for spin_us goes first: e0 passes when it ends, by which time the
 * call's kernels are queued behind it. If the host is not done when it
 * ends (e0 already passed when cusparseSpMV returns), the spin doubles and
 * the call is timed again. SPMV_CUSPARSE_SPIN_US sets the first spin (0:
 * none, the events around the host's call as they stand). */
#define SPIN_US 50.0
#define SPIN_US_MAX 20000.0
static double call_ms(spmv_call *c)
{
    for (;;) {
        if (c->spin_us > 0)
            cuda_spin(c->spin_us);
        CUDA_CHECK(cudaEventRecord(c->e0, 0));
        SPARSE_CHECK(cusparseSpMV(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE, c->alpha, c->A, c->x, c->beta, c->y,
                                  c->type, c->alg, c->buf));
        cudaError_t waiting = c->spin_us > 0 ? cudaEventQuery(c->e0) : cudaErrorNotReady;
        CUDA_CHECK(cudaEventRecord(c->e1, 0));
        CUDA_CHECK(cudaEventSynchronize(c->e1));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, c->e0, c->e1));
        if (waiting == cudaErrorNotReady || c->spin_us >= SPIN_US_MAX)
            return ms;
        if (waiting != cudaSuccess)
            CUDA_CHECK(waiting);
        c->spin_us *= 2;   /* the GPU caught up with the host: again, with a longer spin */
    }
}

/* spmv_measure_kernel for the library call: poison y with NaN, run once, check;
 * then poison again, warmup runs, and timed runs each preceded by one probe
 * sample and one untimed run (spmv_time_runs), check once more. */
static void measure(spmv_call *c, void *d_y, void *host, size_t ybytes, const spmv_ref *ref, int single,
                    const spmv_run *run, const spmv_options *o, spmv_measure *m)
{
    memset(m, 0, sizeof *m);
    CUDA_CHECK(cudaMemset(d_y, 0xff, ybytes));   /* all ones: NaN in float and in double */
    call_ms(c);
    CUDA_CHECK(cudaMemcpy(host, d_y, ybytes, cudaMemcpyDeviceToHost));
    m->check = spmv_check_result(ref, host, single);
    if (m->check.pass) {
        CUDA_CHECK(cudaMemset(d_y, 0xff, ybytes));
        size_t probe_bytes = (size_t)256 << 20;
        const char *mb = getenv("SPMV_PROBE_MB");
        int probing = !(mb && strcmp(mb, "0") == 0);
        if (mb && atoi(mb) > 0)
            probe_bytes = (size_t)atoi(mb) << 20;
        cuda_probe probe;
        char msg[512];
        if (probing) {
            int rc = cuda_probe_open(&probe, probe_bytes, msg, sizeof msg);
            if (rc)
                spmv_die(rc == 2 ? SPMV_EXIT_USAGE : SPMV_EXIT_FAIL, "%s%s", msg,
                         rc == 2 ? ": out of device memory; try a smaller --grid or matrix" : "");
        }
        for (int i = 0; i < o->warmup; i++)
            call_ms(c);
        double *ms = malloc(sizeof *ms * (size_t)o->runs);
        if (!ms)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for the timings");
        for (int i = 0; i < o->runs; i++) {
            if (probing) {
                cuda_probe_sample(&probe);
                call_ms(c);   /* untimed: the caches as a run of SpMV leaves them, not as the probe does */
            }
            ms[i] = call_ms(c);
        }
        if (probing) {
            while (probe.n < SPMV_PROBE_MIN_SAMPLES)
                cuda_probe_sample(&probe);
            CUDA_CHECK(cudaGetLastError());
            m->bw = probe_bandwidth(&probe);
            m->bw.between = o->runs < probe.n ? o->runs : probe.n;   /* one sample before each timed run */
            cuda_probe_close(&probe);
        }
        spmv_stats(ms, o->runs, &m->median, &m->min);
        free(ms);
        CUDA_CHECK(cudaMemcpy(host, d_y, ybytes, cudaMemcpyDeviceToHost));
        spmv_check again = spmv_check_result(ref, host, single);
        if (!again.pass || again.max_err > m->check.max_err)
            m->check = again;
        if (!again.pass)
            m->median = m->min = 0;
    }
    spmv_check_print(run, &m->check);
    if (m->check.pass) {
        spmv_bandwidth_print(&m->bw);
        printf("time     %.4f ms median, %.4f ms min over %d runs (cusparseSpMV alone, CUDA events, ", m->median,
               m->min, o->runs);
        if (c->spin_us > 0)
            printf("behind a %.0f us spin: the GPU's time)\n", c->spin_us);
        else
            printf("the host's part included: SPMV_CUSPARSE_SPIN_US=0)\n");
    }
    spmv_save_y(run, o, host, ref->n, ref->complex_, single, m->check.pass);
}

static cudaDataType value_type(char p)
{
    return p == 's' ? CUDA_R_32F : p == 'd' ? CUDA_R_64F : p == 'c' ? CUDA_C_32F : CUDA_C_64F;
}

typedef struct {
    const char *name, *label;
    cusparseSpMVAlg_t alg;
    double pre_ms;
    spmv_measure m;
    int ran;
} alg_run;

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_run run;
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &run);
    cuda_device dev;
    open_device(&o, &dev, skip);

    /* 2. The matrix, x, and the reference y: step6's, from the same code */
    spmv_input in;
    spmv_read_csr(&run, &o, &dev.limits, &in);
    spmv_save_matrix(&run, &o, &in);
    csr_matrix A;
    spmv_load_csr(&run, &o, &in, &A);
    spmv_error err;
    char p = spmv_csr_precision(&o, &A);   /* --precision, else the file's own */
    if (spmv_prec_complex(p) && !A.im) {
        /* a real matrix in a complex precision: imaginary parts zero */
        A.im = spmv_alloc((size_t)A.nnz ? (size_t)A.nnz : 1, sizeof *A.im, "imaginary parts", &err);
        if (!A.im)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        memset(A.im, 0, (size_t)A.nnz * sizeof *A.im);
    }
    int single = spmv_prec_single(p), cplx = spmv_prec_complex(p), vsize = spmv_prec_value_size(p);
    if (single)
        csr_round_to_float(&run, &A);   /* the reference sees the numbers the device sees */
    int maxlen = 0, empty = 0;
    for (int r = 0; r < A.rows; r++) {
        int len = A.ptr[r + 1] - A.ptr[r];
        maxlen = len > maxlen ? len : maxlen;
        empty += len == 0;
    }
    double mean = A.rows ? (double)A.nnz / A.rows : 0;
    printf("matrix   %s: %d x %d, %lld nonzeros, row length mean %.1f, max %d, %d empty rows\n",
           A.origin.name, A.rows, A.cols, A.nnz, mean, maxlen, empty);
    printf("values   %s (%d bytes), x and y interleaved (re, im)%s\n", spmv_prec_name(p), vsize,
           cplx ? "" : " only when complex");
    double *x = spmv_x_doubles(&run, &o, A.cols, cplx, single);
    spmv_save_x_doubles(&run, &o, x, A.cols, cplx, single);
    spmv_ref ref;
    if (csr_reference(&run, &A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Device buffers: values as the precision stores them (cuComplex is an
     * interleaved pair, as float2 is), int indices, zero-based */
    void *val = spmv_prec_pack(&run, A.re, A.im, (size_t)A.nnz, p, &err);
    void *xd = val ? spmv_prec_pack_doubles(x, (size_t)A.cols * (cplx ? 2 : 1), single, &err) : NULL;
    if (!val || !xd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    size_t ybytes = (size_t)A.rows * vsize;
    void *host_y = malloc(ybytes ? ybytes : 1);
    if (!host_y)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for y");
    void *d_ptr = dev_buffer(((size_t)A.rows + 1) * sizeof(int), A.ptr, "row pointers", dev.name);
    void *d_col = dev_buffer((size_t)A.nnz * sizeof(int), A.col, "column indices", dev.name);
    void *d_val = dev_buffer((size_t)A.nnz * vsize, val, "matrix values", dev.name);
    void *d_x = dev_buffer((size_t)A.cols * vsize, xd, "x", dev.name);
    void *d_y = dev_buffer(ybytes, NULL, "y", dev.name);

    /* 4. The library: a handle, the descriptors, y = 1 * A x + 0 * y, and one
     * work buffer for both algorithms, allocated once */
    spmv_call c;
    memset(&c, 0, sizeof c);
    static const double one_d[2] = { 1, 0 }, zero_d[2] = { 0, 0 };
    static const float one_f[2] = { 1, 0 }, zero_f[2] = { 0, 0 };
    c.alpha = single ? (const void *)one_f : (const void *)one_d;
    c.beta = single ? (const void *)zero_f : (const void *)zero_d;
    c.type = value_type(p);
    SPARSE_CHECK(cusparseCreate(&c.h));
    SPARSE_CHECK(cusparseCreateDnVec(&c.x, A.cols, d_x, c.type));
    SPARSE_CHECK(cusparseCreateDnVec(&c.y, A.rows, d_y, c.type));
    CUDA_CHECK(cudaEventCreate(&c.e0));
    CUDA_CHECK(cudaEventCreate(&c.e1));
    const char *spin_env = getenv("SPMV_CUSPARSE_SPIN_US");
    c.spin_us = SPIN_US;
    if (spin_env && *spin_env) {
        char *end;
        c.spin_us = strtod(spin_env, &end);
        if (*end || !(c.spin_us >= 0 && c.spin_us <= SPIN_US_MAX))
            spmv_die(SPMV_EXIT_USAGE, "SPMV_CUSPARSE_SPIN_US=%s: give microseconds from 0 (no spin) to %.0f",
                     spin_env, SPIN_US_MAX);
    }
    alg_run runs[2] = { { .name = "alg1", .label = "CUSPARSE_SPMV_CSR_ALG1", .alg = CUSPARSE_SPMV_CSR_ALG1 },
                        { .name = "alg2", .label = "CUSPARSE_SPMV_CSR_ALG2", .alg = CUSPARSE_SPMV_CSR_ALG2 } };
    int run_alg[2] = { strcmp(o.variant, "alg2") != 0, strcmp(o.variant, "alg1") != 0 };
    /* a matrix descriptor per algorithm: preprocessing leaves its state in the descriptor */
    cusparseSpMatDescr_t mats[2] = { NULL, NULL };
    size_t buf_bytes = 0;
    for (int i = 0; i < 2; i++) {
        if (!run_alg[i])
            continue;
        SPARSE_CHECK(cusparseCreateCsr(&mats[i], A.rows, A.cols, A.nnz, d_ptr, d_col, d_val, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, c.type));
        size_t b = 0;
        SPARSE_CHECK(cusparseSpMV_bufferSize(c.h, CUSPARSE_OPERATION_NON_TRANSPOSE, c.alpha, mats[i], c.x, c.beta,
                                             c.y, c.type, runs[i].alg, &b));
        buf_bytes = b > buf_bytes ? b : buf_bytes;
    }
    c.buf = dev_buffer(buf_bytes, NULL, "cuSPARSE's work buffer", dev.name);
    const char *pre_env = getenv("SPMV_CUSPARSE_PREPROCESS");
    int preprocess = !(pre_env && strcmp(pre_env, "0") == 0);
    printf("buffer   %zu bytes of work buffer (cusparseSpMV_bufferSize, the larger of the algorithms run), "
           "allocated once\n", buf_bytes);

    /* 5. Work sizes: the library's choice */

    /* 6. Check, then time, each algorithm */
    int status = SPMV_EXIT_PASS;
    for (int i = 0; i < 2; i++) {
        alg_run *ar = &runs[i];
        if (!run_alg[i])
            continue;
        c.A = mats[i];
        c.alg = ar->alg;
        printf("---- %s: cusparseSpMV, %s\n", ar->name, ar->label);
        if (preprocess) {
            /* its state lives in the work buffer and this algorithm's descriptor:
             * the next algorithm's preprocessing reuses the buffer, after this
             * one is done with it */
            CUDA_CHECK(cudaEventRecord(c.e0, 0));
            cusparseStatus_t st = cusparseSpMV_preprocess(c.h, CUSPARSE_OPERATION_NON_TRANSPOSE, c.alpha, c.A, c.x,
                                                          c.beta, c.y, c.type, c.alg, c.buf);
            CUDA_CHECK(cudaEventRecord(c.e1, 0));
            CUDA_CHECK(cudaEventSynchronize(c.e1));
            if (st == CUSPARSE_STATUS_NOT_SUPPORTED) {
                printf("prep     cusparseSpMV_preprocess: not supported for %s here; SpMV runs without it\n",
                       ar->label);
            } else {
                SPARSE_CHECK(st);
                float ms = 0;
                CUDA_CHECK(cudaEventElapsedTime(&ms, c.e0, c.e1));
                ar->pre_ms = ms;
                printf("prep     cusparseSpMV_preprocess %.4f ms, once for this matrix and algorithm (not in the "
                       "time below)\n", ar->pre_ms);
            }
        } else {
            printf("prep     none (SPMV_CUSPARSE_PREPROCESS=0)\n");
        }
        measure(&c, d_y, host_y, ybytes, &ref, single, &run, &o, &ar->m);
        ar->ran = 1;
        if (!ar->m.check.pass)
            status = SPMV_EXIT_FAIL;
    }

    /* 7. Report: the table of both algorithms, then the row: the faster one
     * (kernel `cusparse`), or the one --kernel named */
    double flops = csr_flops(&A, cplx), bytes = csr_compulsory_bytes(&A, vsize);
    printf("\n%-14s %9s %9s %10s %6s %7s | %-10s %9s %9s %12s  %s\n", "matrix", "rows", "cols", "nnz", "mean",
           "max", "kernel", "GFLOP/s", "probe", "% compulsory", "check");
    int best = -1;
    for (int i = 0; i < 2; i++) {
        alg_run *ar = &runs[i];
        if (!ar->ran)
            continue;
        double g = ar->m.check.pass && ar->m.median > 0 ? flops / (ar->m.median * 1e-3) / 1e9 : 0;
        double bound = spmv_bound_gflops(flops, bytes, ar->m.bw.gbs);
        char pct[32] = "-", probe[32] = "-";
        if (g > 0 && bound > 0) {
            snprintf(pct, sizeof pct, "%.1f%%", 100.0 * g / bound);
            snprintf(probe, sizeof probe, "%.1f GB/s", ar->m.bw.gbs);
        }
        printf("%-14.14s %9d %9d %10lld %6.1f %7d | %-10s %9.3f %9s %12s  %s\n", A.origin.name, A.rows, A.cols,
               A.nnz, mean, maxlen, ar->name, g, probe, pct, ar->m.check.pass ? "PASS" : "FAIL");
        /* the row is the faster that passed; a failure is reported over any pass */
        if (best < 0 || (!ar->m.check.pass && runs[best].m.check.pass) ||
            (ar->m.check.pass == runs[best].m.check.pass && ar->m.median < runs[best].m.median))
            best = i;
    }
    printf("(%s, %s; GFLOP/s counts %s; each algorithm's bound from the probe sampled between its own runs)\n",
           dev.name, spmv_prec_name(p), cplx ? "8 per complex nonzero" : "2 per nonzero");
    alg_run *ar = &runs[best];
    char kernel[32];
    snprintf(kernel, sizeof kernel, "cusparse%s%s", strcmp(o.variant, "both") ? "-" : "",
             strcmp(o.variant, "both") ? ar->name : "");
    printf("\n---- %s: %s%s\n", kernel, ar->label,
           strcmp(o.variant, "both") ? "" : ar->m.check.pass ? ", the faster" : ", the one that failed");
    spmv_result r;
    memset(&r, 0, sizeof r);
    r.step = ROW_STEP;
    r.kernel = kernel;
    r.device = dev.name;
    r.driver = dev.driver;
    r.timer = c.spin_us > 0 ? "cusparseSpMV alone, CUDA events behind a spin kernel: the GPU's time"
                            : "cusparseSpMV alone, CUDA events, the host's part included";
    r.matrix = A.origin.name;
    r.rows = A.rows;
    r.cols = A.cols;
    r.nnz = A.nnz;
    r.precision = p;
    r.runs = o.runs;
    r.ms_median = ar->m.median;
    r.ms_min = ar->m.min;
    r.flops = flops;
    r.bytes_compulsory = bytes;
    r.bw = ar->m.bw;
    r.max_rel_err = ar->m.check.max_err;
    r.check = ar->m.check.pass ? "PASS" : "FAIL";
    spmv_report(&run, &r, o.csv);

    /* 8. Release */
    for (int i = 0; i < 2; i++)
        if (mats[i])
            SPARSE_CHECK(cusparseDestroySpMat(mats[i]));
    SPARSE_CHECK(cusparseDestroyDnVec(c.x));
    SPARSE_CHECK(cusparseDestroyDnVec(c.y));
    SPARSE_CHECK(cusparseDestroy(c.h));
    CUDA_CHECK(cudaEventDestroy(c.e0));
    CUDA_CHECK(cudaEventDestroy(c.e1));
    void *dbufs[] = { c.buf, d_ptr, d_col, d_val, d_x, d_y };
    for (size_t i = 0; i < sizeof dbufs / sizeof *dbufs; i++)
        CUDA_CHECK(cudaFree(dbufs[i]));
    spmv_ref_free(&ref);
    free(host_y);
    free(val);
    free(xd);
    free(x);
    csr_free(&A);
    return status;
}
