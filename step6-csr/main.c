/* step6-csr/main.c - host program of chapter 6: CSR, scalar, vector and
 * adaptive (load-balanced) kernels, in four precisions.
 *
 *   make step6 run                                  every kernel, default matrix set
 *   build/step6 --matrix tests/data/young1c.mtx --precision z --kernel vector --group-size 8
 *   build/step6 --gen powerlaw:rows=262144,mean=15  an irregular matrix
 *   build/step6 --grid 1024 --precision d           any option of --help
 *
 * Without --kernel every kernel runs on the same matrix and a table compares
 * them, with the one the matrix's row lengths choose marked. The adaptive
 * kernel's host side is adaptive/host.c. The sections below appear in the
 * same order in every step, so that `make diff STEP=6` shows only what the
 * chapter changes.
 */
#include "adaptive/host.h"
#include "choice/csrchoice.h"
#include "precision.h"
#include "spmv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "step6",
    .title = "CSR: scalar (row per work-item), vector (group per row) and adaptive (nonzeros per work-group)",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "scalar,vector,adaptive,all",
    .default_variant = "all",
    .takes = OPT_GRID | OPT_PRODUCT | OPT_DEVICE | OPT_OPENCL | OPT_PRECISION | OPT_GROUP,
    .model_bytes = 0,   /* CSR has no DIA model; the bound is the compulsory traffic */
    .precisions = "sdcz",
    .defaults = (const spmv_note[]){ { "--precision", "the file's: s, or c for a complex file" },
                                     { "--local-size", "128 scalar, 256 vector" },
                                     { "--group-size", "from the rows' mean length" },
                                     { NULL, NULL } },
    .exit_statuses = "0 check passed, 1 check failed, 2 bad input or out of memory, 3 skipped (the device lacks "
                     "cl_khr_fp64, which d and z need, or the atomics --combine needs)",
    .own = ADAPTIVE_OPTIONS,     /* the chapter's own options, the adaptive kernel's --split and --combine */
    .holds = ADAPTIVE_HOLDS,     /* its plan, in the host's estimate (capacity.h) */
};

#define LOCAL_SIZE_SCALAR 128
#define LOCAL_SIZE_VECTOR 256   /* several rows per work-group: 256 / group size */
/* On NVIDIA's platform the tree reductions (kernel.cl group_sum) go through
 * warp shuffles in inline PTX (WARP_SHUFFLE), with no barrier; only where
 * every work-group is whole warps (a multiple of 32 work-items), since a
 * shuffle needs all 32. -DWARP_SHUFFLES=0 (CFLAGS_step6) turns it off. */
#ifndef WARP_SHUFFLES
#define WARP_SHUFFLES 1
#endif

/* The vector kernel's work-group: --local-size, a multiple of the group (a
 * row's group stays inside one work-group), or LOCAL_SIZE_VECTOR */
static size_t vector_local(const spmv_cl *cl, size_t local, int group)
{
    if (local && local % group)
        spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a multiple of the group size %d: the vector "
                 "kernel keeps each row's group inside one work-group", local, group);
    if ((size_t)group > cl->max_wg)
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d is more than this device's work-group limit (%zu)",
                 group, cl->max_wg);
    if (!local)
        for (local = LOCAL_SIZE_VECTOR > group ? LOCAL_SIZE_VECTOR : group; local > cl->max_wg;)
            local /= 2;
    return local;
}

typedef struct {
    const char *name, *kernel, *how;
    int run;   /* --kernel chose it */
    char label[32];
    size_t local, global;
    spmv_measure m;
    spmv_speed speed;
} kernel_run;

/* The comparison table of this matrix, * marking the matrix's choice; then
 * whether the adaptive kernel's host preparation pays for itself */
static void print_table(const kernel_run *runs, const char *choice, const csr_matrix *A, const spmv_row_stats *st,
                        const spmv_cl *cl, char p, const adaptive_kernel *ad)
{
    printf("\n%-14s %9s %9s %10s %6s %7s | %-11s %9s %9s %12s  %s\n", "matrix", "rows", "cols", "nnz", "mean",
           "max", "kernel", "GFLOP/s", "probe", "% compulsory", "check");
    double best_other = 0;
    for (int i = 0; i < 3; i++) {
        const kernel_run *kr = &runs[i];
        if (!kr->run)
            continue;
        double g = kr->speed.gflops, bound = kr->speed.bound_compulsory;
        char pct[32] = "-", probe[32] = "-", label[40];
        if (g > 0 && bound > 0) {
            snprintf(pct, sizeof pct, "%.1f%%", 100.0 * g / bound);
            snprintf(probe, sizeof probe, "%.1f GB/s", kr->m.bw.gbs);
        }
        snprintf(label, sizeof label, "%s%s", kr->label, strcmp(kr->name, choice) == 0 ? " *" : "");
        printf("%-14.14s %9d %9d %10lld %6.1f %7d | %-11s %9.3f %9s %12s  %s\n", A->origin.name, A->rows, A->cols,
               A->nnz, st->mean, st->max, label, g, probe, pct, kr->m.check.pass ? "PASS" : "FAIL");
        if (i < 2 && g > 0 && (best_other == 0 || kr->m.median < best_other))
            best_other = kr->m.median;
    }
    printf("(%s, %s; GFLOP/s counts %s; each kernel's bound from the probe sampled between its own runs)\n",
           cl->device_name, spmv_prec_name(p), spmv_prec_complex(p) ? "8 per complex nonzero" : "2 per nonzero");
    if (runs[2].run)
        adaptive_payback(ad, runs[2].m.median, best_other);
}

/* The vector kernel's group (work-items per row) and, for rows of at most
 * 64, the entries a lane loads a pass (kernel.cl's VECTOR_UNROLL: opt[0] the
 * build option, opt[1] the words for the ---- line), with wide values a wider
 * group; --group-size sets the one, a -DVECTOR_UNROLL in --cl-opts the other */
static int vector_shape(const spmv_options *o, const spmv_row_stats *st, int vsize, char opt[2][64])
{
    int group = o->group ? o->group : spmv_default_group(st), unroll = 0;
    if (!o->cl_opts || !strstr(o->cl_opts, "VECTOR_UNROLL"))
        unroll = spmv_default_unroll(st, o->group ? 0 : vsize, &group);
    opt[0][0] = opt[1][0] = '\0';
    if (unroll)
        snprintf(opt[0], 64, " -DVECTOR_UNROLL=%d", unroll);
    if (unroll > 1)
        snprintf(opt[1], 64, ", %d entries a lane a pass", unroll);
    return group;
}

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_run run;
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &run);
    if (o.group && (o.group & (o.group - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d is not a power of two: the vector kernel's tree "
                 "reduction halves the group (try 4, 8, 16, 32 or 64)", o.group);
    spmv_cl cl;
    spmv_cl_open(&cl, &run, o.device);

    /* 2. The matrix and x (common/load.h; --info and --save-* see them as read),
     * and the reference y (common/check.h) */
    spmv_input in;
    spmv_read_csr(&run, &o, &cl.limits, &in);
    spmv_save_matrix(&run, &o, &in);
    csr_matrix A;
    spmv_load_csr(&run, &o, &in, &A);
    spmv_error err;
    char p = spmv_csr_precision(&o, &A);   /* --precision, else the file's own */
    if (!spmv_prec_single(p) && !cl.fp64)
        spmv_skip(&run, &STEP, &o, &cl, o.variant, "this device has no cl_khr_fp64, which --precision d and z need");
    if (spmv_prec_complex(p) && !A.im) {   /* a real matrix in a complex precision: imaginary parts zero */
        if (!(A.im = spmv_alloc((size_t)A.nnz ? (size_t)A.nnz : 1, sizeof *A.im, "imaginary parts", &err)))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        memset(A.im, 0, (size_t)A.nnz * sizeof *A.im);
    }
    int single = spmv_prec_single(p), cplx = spmv_prec_complex(p), vsize = spmv_prec_value_size(p);
    if (single)
        csr_round_to_float(&run, &A);   /* the reference sees the numbers the device sees */
    printf("matrix   %s: %d x %d, %lld nonzeros\n", A.origin.name, A.rows, A.cols, A.nnz);
    spmv_row_stats st = spmv_row_lengths(&A);   /* chapter 6's rule: step6-csr/choice/csrchoice.h */
    printf("values   %s (%d bytes), x and y interleaved (re, im)%s\n", spmv_prec_name(p), vsize,
           cplx ? "" : " only when complex");
    double *x = spmv_x_doubles(&run, &o, A.cols, cplx, single);
    spmv_save_x_doubles(&run, &o, x, A.cols, cplx, single);
    spmv_ref ref;
    size_t y_bytes = (size_t)A.rows * vsize;
    void *y = spmv_alloc(A.rows ? (size_t)A.rows : 1, vsize, "y", &err);
    if (!y || csr_reference(&run, &A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Device buffers: values as the precision stores them, int indices */
    void *val = spmv_prec_take(&run, &A, p, &err);   /* A's values become the device's: no second copy */
    void *xd = val ? spmv_prec_pack_doubles(x, (size_t)A.cols * (cplx ? 2 : 1), single, &err) : NULL;
    if (!val || !xd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    size_t nnz1 = A.nnz ? (size_t)A.nnz : 1, cols1 = A.cols ? (size_t)A.cols : 1;
    cl_mem d_ptr = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, ((size_t)A.rows + 1) * sizeof(int), A.ptr, "row pointers");
    cl_mem d_col = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), A.nnz ? A.col : NULL, "column indices");
    cl_mem d_val = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * vsize, A.nnz ? val : NULL, "matrix values");
    cl_mem d_x = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, cols1 * vsize, A.cols ? xd : NULL, "x");
    cl_mem d_y = spmv_cl_buffer(&cl, CL_MEM_WRITE_ONLY, ((size_t)A.rows ? (size_t)A.rows : 1) * vsize, NULL, "y");

    /* 4. Program and kernels: the precision and the vector kernel's group
     * size chosen by build options; the adaptive kernel's blocks cut on the
     * host (adaptive/host.c), its kernel.cl built after this step's (the file
     * --kernel-file replaces is that of the kernel --kernel names) */
    kernel_run runs[3] = { { "scalar", "csr_scalar", "one work-item per row", .label = "scalar" },
                           { "vector", "csr_vector", "a group of work-items per row", .label = "vector" },
                           { "adaptive", "csr_adaptive", "an equal share of nonzeros per work-group",
                             .label = "adaptive" } };
    for (int i = 0; i < 3; i++)
        runs[i].run = strcmp(o.variant, "all") == 0 || strcmp(o.variant, runs[i].name) == 0;
    char unroll[2][64];
    int group = vector_shape(&o, &st, vsize, unroll);
    if (o.group && !runs[1].run)
        printf("note     --group-size is the vector kernel's; the others do not use it\n");
    adaptive_kernel ad;
    adaptive_open(&ad, &cl, o.precision, o.local_size, runs[2].run);
    const char *choice = adaptive_choose(&ad, &st, cl.type == CL_DEVICE_TYPE_GPU, group);   /* printed */
    snprintf(runs[1].label, sizeof runs[1].label, "vector-%d", group);
    if (runs[2].run)
        adaptive_prepare(&ad, &STEP, &o, &cl, &A);
    int shuffle = WARP_SHUFFLES && cl.ptx && cl.type == CL_DEVICE_TYPE_GPU && o.local_size % 32 == 0 &&
                  ad.local % 32 == 0;
    char opts[1024];
    snprintf(opts, sizeof opts, "-DVALUE=%s%s%s%s -DGROUP_SIZE=%d%s%s%s%s", spmv_prec_cl_type(p),
             cplx ? " -DCOMPLEX" : "", single ? "" : " -DUSE_FP64", shuffle ? " -DWARP_SHUFFLE" : "", group,
             unroll[0], ad.opts, o.cl_opts ? " " : "", o.cl_opts ? o.cl_opts : "");
    int own = strcmp(o.variant, "adaptive") == 0 && o.kernel_file != STEP.kernel_path;
    const char *src[2] = { own ? STEP.kernel_path : o.kernel_file, own ? o.kernel_file : ADAPTIVE_KERNEL_PATH };
    cl_program prog = spmv_cl_build_files(&cl, src, runs[2].run ? 2 : 1, opts);

    /* 5. Work sizes: scalar, one work-item per row; vector, `group` per row,
     * whole groups inside a work-group; adaptive, one work-group per block
     * (adaptive_args) */
    runs[0].local = o.local_size ? o.local_size : LOCAL_SIZE_SCALAR;
    runs[0].global = spmv_round_up(A.rows ? (size_t)A.rows : 1, runs[0].local);
    runs[1].local = runs[1].run ? vector_local(&cl, o.local_size, group) : 1;
    runs[1].global = spmv_round_up((A.rows ? (size_t)A.rows : 1) * group, runs[1].local);

    /* 6. Each kernel: its arguments, one run checked, then timed */
    int status = SPMV_EXIT_PASS;
    for (int i = 0; i < 3; i++) {
        kernel_run *kr = &runs[i];
        if (!kr->run)
            continue;
        cl_kernel k = spmv_cl_kernel(prog, kr->kernel);
        CL_CHECK(clSetKernelArg(k, 0, sizeof A.rows, &A.rows));
        CL_CHECK(clSetKernelArg(k, 1, sizeof d_ptr, &d_ptr));
        CL_CHECK(clSetKernelArg(k, 2, sizeof d_col, &d_col));
        CL_CHECK(clSetKernelArg(k, 3, sizeof d_val, &d_val));
        CL_CHECK(clSetKernelArg(k, 4, sizeof d_x, &d_x));
        CL_CHECK(clSetKernelArg(k, 5, sizeof d_y, &d_y));
        /* the vector kernel's tree, a value per work-item (scalar: unused) */
        if (i < 2)
            CL_CHECK(clSetKernelArg(k, 6, (i == 0 ? 1 : kr->local) * vsize, NULL));
        spmv_launch l[2] = { { k, kr->global, kr->local } };
        int nl = i == 2 ? adaptive_args(&ad, prog, k, d_y, l) : 1;   /* and its fix-up kernel, if any */
        printf("---- %s: global %zu, local %zu (%s%s%s)\n", kr->label, l[0].global, l[0].local, kr->how,
               i == 1 ? unroll[1] : "",
               nl > 1 ? "; then the fix-up kernel, a work-group per split row" : "");
        /* run once on a y of NaN, read y back and check it (common/check.h);
         * only then time it (common/measure.h) */
        spmv_cl_poison(&cl, d_y, y_bytes);
        for (int j = 0; j < nl; j++) {
            spmv_cl_check_local(&cl, l[j].k, l[j].local);
            CL_CHECK(clEnqueueNDRangeKernel(cl.queue, l[j].k, 1, NULL, &l[j].global, &l[j].local, 0, NULL, NULL));
        }
        CL_CHECK(clEnqueueReadBuffer(cl.queue, d_y, CL_TRUE, 0, y_bytes, y, 0, NULL, NULL));
        kr->m = (spmv_measure){ .check = spmv_check_result(&ref, y, single) };
        spmv_measure_seq(&cl, l, nl, d_y, y, &ref, single, o.warmup, o.runs, &kr->m);
        for (int j = 0; j < nl; j++)
            clReleaseKernel(l[j].k);
        /* 7. Report (common/report.h): the check, y to --save-y, the time
         * against the bandwidth measured between its timed runs, on this device */
        spmv_report_check(&run, &kr->m);
        spmv_save_y(&run, &o, y, A.rows, cplx, single, kr->m.check.pass);
        if (spmv_report_csr(&run, &STEP, kr->label, &o, &cl, &A, &kr->m, &kr->speed) != SPMV_EXIT_PASS)
            status = SPMV_EXIT_FAIL;
    }
    print_table(runs, choice, &A, &st, &cl, p, &ad);

    /* 8. Release */
    clReleaseProgram(prog);
    adaptive_close(&ad);
    cl_mem bufs[] = { d_ptr, d_col, d_val, d_x, d_y };
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(bufs[i]);
    spmv_cl_close(&cl);
    spmv_ref_free(&ref);
    free(y);
    free(val);
    free(xd);
    free(x);
    csr_free(&A);
    return status;
}
