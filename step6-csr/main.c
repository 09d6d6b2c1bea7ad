/* step6-csr/main.c - host program of chapter 6: CSR, scalar and vector kernels,
 * in four precisions.
 *
 *   make step6 run                                  both kernels, default matrix set
 *   build/step6 --matrix tests/data/young1c.mtx --precision z --kernel vector --group-size 8
 *   build/step6 --grid 1024 --precision d           any option of --help
 *
 * Without --kernel both kernels run on the same matrix and a table compares
 * them. The sections below appear in the same order in every step, so that
 * `make diff STEP=6` shows only what the chapter changes.
 */
#include "precision.h"
#include "spmv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "step6",
    .title = "CSR: scalar (row per work-item) and vector (group per row) kernels",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "scalar,vector,both",
    .default_variant = "both",
    .extras = OPT_PRECISION | OPT_GROUP,
    .model_bytes = 0,   /* CSR has no DIA model; the bound is the compulsory traffic */
};

#define LOCAL_SIZE_SCALAR 128
#define LOCAL_SIZE_VECTOR 256   /* several rows per work-group: 256 / group size */
#define MAX_DEFAULT_GROUP 32    /* a GPU's warp; wider groups only add barriers */
#define ENTRIES_PER_LANE 4      /* fewer, and the reduction costs more than the loads it shares out */

/* The vector kernel's default: the largest power of two not above a quarter
 * of the mean row length (so each lane takes about 4 entries or more), from 2
 * to 32: 16 for the grid's 81 per row, 2 for west0067's 4.4. A group as wide as
 * the row leaves each lane one or two loads and then five barriers of
 * reduction: on the H100 the grid ran at 71% of its bound with 32 per row and
 * at 92-94% with 8 or 16 (step6-csr/README.md). */
static int default_group(const csr_matrix *A)
{
    double mean = A->rows ? (double)A->nnz / A->rows : 0;
    int g = 2;
    while (g * 2 * ENTRIES_PER_LANE <= mean && g * 2 <= MAX_DEFAULT_GROUP)
        g *= 2;
    return g;
}

typedef struct {
    const char *name;
    char label[32];
    size_t local, global;
    spmv_measure m;
    int ran;
} kernel_run;

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o);
    char p = o.precision;
    if (o.group && (o.group & (o.group - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d is not a power of two: the vector kernel's tree "
                 "reduction halves the group (try 4, 8, 16, 32 or 64)", o.group);
    spmv_cl cl;
    spmv_cl_open(&cl, o.device);

    /* 2. The matrix, x, and the reference y */
    csr_matrix A;
    spmv_load_csr(&o, &A);
    spmv_error err;
    if (A.im && !spmv_prec_complex(p))
        spmv_die(SPMV_EXIT_USAGE, "%s is complex: run it with --precision c or z (complex float or double), "
                 "not %c (%s)", A.origin.name, p, spmv_prec_name(p));
    if (!spmv_prec_single(p) && !cl.fp64)
        spmv_skip(&STEP, &o, &cl, o.variant, "this device has no cl_khr_fp64, which --precision d and z need");
    if (spmv_prec_complex(p) && !A.im) {
        /* a real matrix in a complex precision: imaginary parts zero */
        A.im = spmv_alloc((size_t)A.nnz ? (size_t)A.nnz : 1, sizeof *A.im, "imaginary parts", &err);
        if (!A.im)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        memset(A.im, 0, (size_t)A.nnz * sizeof *A.im);
    }
    int single = spmv_prec_single(p), cplx = spmv_prec_complex(p), vsize = spmv_prec_value_size(p);
    if (single)
        csr_round_to_float(&A);   /* the reference sees the numbers the device sees */
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
    double *x = spmv_x_doubles(&o, A.cols, cplx, single);
    spmv_ref ref;
    if (csr_reference(&A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Device buffers: values as the precision stores them, int indices */
    void *val = spmv_prec_take(&A, p, &err);   /* A's values become the device's: no second copy */
    void *xd = val ? spmv_prec_pack_doubles(x, (size_t)A.cols * (cplx ? 2 : 1), single, &err) : NULL;
    if (!val || !xd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    size_t nnz1 = A.nnz ? (size_t)A.nnz : 1, cols1 = A.cols ? (size_t)A.cols : 1;
    cl_mem d_ptr = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, ((size_t)A.rows + 1) * sizeof(int), A.ptr, "row pointers");
    cl_mem d_col = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), A.nnz ? A.col : NULL, "column indices");
    cl_mem d_val = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * vsize, A.nnz ? val : NULL, "matrix values");
    cl_mem d_x = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, cols1 * vsize, A.cols ? xd : NULL, "x");
    cl_mem d_y = spmv_cl_buffer(&cl, CL_MEM_WRITE_ONLY, ((size_t)A.rows ? (size_t)A.rows : 1) * vsize, NULL, "y");

    /* 4. Program, kernels and their arguments: one source, the precision and
     * the vector kernel's group size chosen by build options */
    int run_scalar = strcmp(o.variant, "vector") != 0, run_vector = strcmp(o.variant, "scalar") != 0;
    int group = o.group ? o.group : default_group(&A);
    if (o.group && !run_vector)
        printf("note     --group-size is the vector kernel's; the scalar kernel has one work-item per row\n");
    char opts[1024];
    snprintf(opts, sizeof opts, "-DVALUE=%s%s%s -DGROUP_SIZE=%d%s%s", spmv_prec_cl_type(p), cplx ? " -DCOMPLEX" : "",
             single ? "" : " -DUSE_FP64", group, o.cl_opts ? " " : "", o.cl_opts ? o.cl_opts : "");
    cl_program prog = spmv_cl_build(&cl, o.kernel_file, opts);

    kernel_run runs[2] = { { .name = "scalar" }, { .name = "vector" } };
    snprintf(runs[0].label, sizeof runs[0].label, "scalar");
    snprintf(runs[1].label, sizeof runs[1].label, "vector-%d", group);

    /* 5. Work sizes: scalar, one work-item per row; vector, `group` per row,
     * whole groups inside a work-group */
    runs[0].local = o.local_size ? o.local_size : LOCAL_SIZE_SCALAR;
    runs[0].global = spmv_round_up(A.rows ? (size_t)A.rows : 1, runs[0].local);
    if (run_vector) {
        size_t local = o.local_size;
        if (local && local % group)
            spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a multiple of the group size %d: the vector "
                     "kernel keeps each row's group inside one work-group", local, group);
        if ((size_t)group > cl.max_wg)
            spmv_die(SPMV_EXIT_USAGE, "--group-size %d is more than this device's work-group limit (%zu)",
                     group, cl.max_wg);
        if (!local)
            for (local = LOCAL_SIZE_VECTOR > group ? LOCAL_SIZE_VECTOR : group; local > cl.max_wg;)
                local /= 2;
        runs[1].local = local;
        runs[1].global = spmv_round_up((A.rows ? (size_t)A.rows : 1) * group, local);
    }

    /* 6. Check, then time, each kernel */
    int status = SPMV_EXIT_PASS;
    for (int i = 0; i < 2; i++) {
        kernel_run *kr = &runs[i];
        if (!(i == 0 ? run_scalar : run_vector))
            continue;
        cl_kernel k = spmv_cl_kernel(prog, i == 0 ? "csr_scalar" : "csr_vector");
        CL_CHECK(clSetKernelArg(k, 0, sizeof A.rows, &A.rows));
        CL_CHECK(clSetKernelArg(k, 1, sizeof d_ptr, &d_ptr));
        CL_CHECK(clSetKernelArg(k, 2, sizeof d_col, &d_col));
        CL_CHECK(clSetKernelArg(k, 3, sizeof d_val, &d_val));
        CL_CHECK(clSetKernelArg(k, 4, sizeof d_x, &d_x));
        CL_CHECK(clSetKernelArg(k, 5, sizeof d_y, &d_y));
        CL_CHECK(clSetKernelArg(k, 6, (i == 0 ? 1 : kr->local) * vsize, NULL));
        printf("---- %s: global %zu, local %zu (%s)\n", kr->label, kr->global, kr->local,
               i == 0 ? "one work-item per row" : "a group of work-items per row");
        spmv_measure_kernel(&cl, k, kr->global, kr->local, d_y, &ref, single, &o, &kr->m);
        kr->ran = 1;
        clReleaseKernel(k);
        /* 7. Report against the bandwidth measured between its timed runs, on this device */
        spmv_result r;
        memset(&r, 0, sizeof r);
        r.step = STEP.name;
        r.kernel = kr->label;
        r.cl = &cl;
        r.matrix = A.origin.name;
        r.rows = A.rows;
        r.cols = A.cols;
        r.nnz = A.nnz;
        r.precision = p;
        r.runs = o.runs;
        r.ms_median = kr->m.median;
        r.ms_min = kr->m.min;
        r.flops = csr_flops(&A, cplx);
        r.bytes_compulsory = csr_compulsory_bytes(&A, vsize);
        r.bw_gbs = kr->m.bw.gbs;
        r.max_rel_err = kr->m.check.max_err;
        r.check = kr->m.check.pass ? "PASS" : "FAIL";
        spmv_report(&r, o.csv);
        if (!kr->m.check.pass)
            status = SPMV_EXIT_FAIL;
    }

    /* the comparison table of this matrix */
    double flops = csr_flops(&A, cplx), bytes = csr_compulsory_bytes(&A, vsize);
    printf("\n%-14s %9s %9s %10s %6s %7s | %-10s %9s %9s %12s  %s\n", "matrix", "rows", "cols", "nnz", "mean",
           "max", "kernel", "GFLOP/s", "probe", "% compulsory", "check");
    for (int i = 0; i < 2; i++) {
        kernel_run *kr = &runs[i];
        if (!kr->ran)
            continue;
        double g = kr->m.check.pass && kr->m.median > 0 ? flops / (kr->m.median * 1e-3) / 1e9 : 0;
        double bound = spmv_bound_gflops(flops, bytes, kr->m.bw.gbs);
        char pct[32] = "-", probe[32] = "-";
        if (g > 0 && bound > 0) {
            snprintf(pct, sizeof pct, "%.1f%%", 100.0 * g / bound);
            snprintf(probe, sizeof probe, "%.1f GB/s", kr->m.bw.gbs);
        }
        printf("%-14.14s %9d %9d %10lld %6.1f %7d | %-10s %9.3f %9s %12s  %s\n", A.origin.name, A.rows, A.cols,
               A.nnz, mean, maxlen, kr->label, g, probe, pct, kr->m.check.pass ? "PASS" : "FAIL");
    }
    printf("(%s, %s; GFLOP/s counts %s; each kernel's bound from the probe sampled between its own runs)\n",
           cl.device_name, spmv_prec_name(p), cplx ? "8 per complex nonzero" : "2 per nonzero");

    /* 8. Release */
    clReleaseProgram(prog);
    clReleaseMemObject(d_ptr);
    clReleaseMemObject(d_col);
    clReleaseMemObject(d_val);
    clReleaseMemObject(d_x);
    clReleaseMemObject(d_y);
    spmv_cl_close(&cl);
    spmv_ref_free(&ref);
    free(val);
    free(xd);
    free(x);
    csr_free(&A);
    return status;
}
