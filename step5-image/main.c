/* step5-image/main.c - host program of chapter 5: x read through an image.
 *
 *   make step5 run                      build and run on the default device
 *   make step5 run ARGS="--grid 2048"   any option of --help
 *
 * Skips (status 3, reported by `make run` as "skipped") where the device has
 * no images or x needs more image rows than the device allows.
 *
 * The sections below appear in the same order in every step, so that
 * `make diff STEP=N` shows only what the chapter changes.
 */
#include "image/climage.h"
#include "spmv.h"

#include <stdio.h>
#include <stdlib.h>

static const spmv_step STEP = {
    .name = "step5",
    .title = "DIA with float4 rows and x read through a 2-D image",
    .kernel_path = SPMV_KERNEL_PATH,
    .takes = OPT_GRID | OPT_PRODUCT | OPT_DEVICE | OPT_OPENCL,
    .model_bytes = 4,    /* matrix value per multiply-add: x comes through the texture cache */
    .defaults = (const spmv_note[]){ { "--local-size", "128" }, { NULL, NULL } },
    .exit_statuses = "0 check passed, 1 check failed, 2 bad input or out of memory, 3 skipped (the device "
                     "has no images, or x needs more image rows than it allows)",
    .holds = { .x_device = 8 },   /* the host's estimate (capacity.h): x's texels and the image, 8 bytes a column */
};

/* Each diagonal starts on a 128-byte boundary: the pitch is a multiple of 32
 * floats. A device buffer starts at CL_DEVICE_MEM_BASE_ADDR_ALIGN, which a
 * full-profile device keeps at least the size of a long16 (128 bytes), so
 * every diagonal does too. */
#define PITCH_ALIGN 32
#define LOCAL_SIZE 128

int main(int argc, char **argv)
{
    /* 1. Options (common/options.h) and device (common/clutil.h) */
    spmv_run run;
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &run);
    spmv_cl cl;
    spmv_cl_open(&cl, &run, o.device);

    /* 2. The matrix and x (common/load.h; --info and --save-* see them as read),
     * and the reference y (common/check.h) */
    spmv_input in;
    spmv_read_dia(&run, &o, &cl.limits, &in);
    spmv_save_matrix(&run, &o, &in);
    dia_matrix A;
    spmv_load_dia(&run, &o, &in, PITCH_ALIGN, &A);
    float *x = spmv_x_floats(&run, &o, A.cols);
    spmv_save_x_floats(&run, &o, x, A.cols);
    spmv_error err;
    spmv_ref ref;
    float *y = spmv_alloc((size_t)A.rows, sizeof *y, "y", &err);
    if (!y || dia_reference(&run, &A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Device buffers: x first, as an image, since it may not fit */
    size_t img_w, img_h;
    char why[512];
    cl_mem d_x = spmv_cl_image_floats(&cl, x, (size_t)A.cols, &img_w, &img_h, why, sizeof why);
    if (!d_x)
        spmv_skip(&run, &STEP, &o, &cl, "image", why);
    printf("image    x in %zu x %zu float4 texels (CL_RGBA, CL_FLOAT)\n", img_w, img_h);
    cl_mem d_A = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, A.ndiag * A.pitch * sizeof(float), A.values, "matrix values");
    cl_mem d_off = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, A.ndiag * sizeof(int), A.offsets, "offsets");
    cl_mem d_y = spmv_cl_buffer(&cl, CL_MEM_WRITE_ONLY, A.rows * sizeof(float), NULL, "y");

    /* 4. Kernel and its arguments */
    cl_program prog = spmv_cl_build(&cl, o.kernel_file, o.cl_opts);
    cl_kernel k = spmv_cl_kernel(prog, "dia_spmv");
    int pitch = (int)A.pitch;
    CL_CHECK(clSetKernelArg(k, 0, sizeof d_A, &d_A));
    CL_CHECK(clSetKernelArg(k, 1, sizeof pitch, &pitch));
    CL_CHECK(clSetKernelArg(k, 2, sizeof A.rows, &A.rows));
    CL_CHECK(clSetKernelArg(k, 3, sizeof A.cols, &A.cols));
    CL_CHECK(clSetKernelArg(k, 4, sizeof A.ndiag, &A.ndiag));
    CL_CHECK(clSetKernelArg(k, 5, sizeof d_off, &d_off));
    CL_CHECK(clSetKernelArg(k, 6, sizeof d_x, &d_x));
    CL_CHECK(clSetKernelArg(k, 7, sizeof d_y, &d_y));
    /* The local copy of the offsets, sized here rather than fixed in the kernel
     * (the article's l_offsets[256] stops at 256 diagonals) */
    size_t l_bytes = (size_t)(A.ndiag > 0 ? A.ndiag : 1) * sizeof(int);
    if (l_bytes > cl.local_mem)
        spmv_die(SPMV_EXIT_USAGE, "%d offsets need %zu bytes of local memory; this device has %llu",
                 A.ndiag, l_bytes, (unsigned long long)cl.local_mem);
    CL_CHECK(clSetKernelArg(k, 8, l_bytes, NULL));

    /* 5. Work sizes: one work-item per four rows, rounded up to whole work-groups.
     * The pitch (a multiple of 32) keeps the vload4 of the last rows inside
     * their diagonal; the kernel guards the rows past the end of y itself. */
    size_t local = o.local_size ? o.local_size : LOCAL_SIZE;
    size_t global = spmv_round_up(((size_t)A.rows + 3) / 4, local);
    printf("launch   global %zu, local %zu (one work-item per four rows)\n", global, local);
    spmv_cl_check_local(&cl, k, local);

    /* 6. Run once on a y of NaN (a row the kernel skips stays NaN), read y
     * back and check it (common/check.h); only then time it (common/measure.h) */
    spmv_cl_poison(&cl, d_y, A.rows * sizeof(float));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, d_y, CL_TRUE, 0, A.rows * sizeof(float), y, 0, NULL, NULL));
    spmv_measure m = { .check = spmv_check_result(&ref, y, 1) };
    spmv_measure_kernel(&cl, k, global, local, d_y, y, &ref, o.warmup, o.runs, &m);

    /* 7. Report (common/report.h): the check, y to --save-y, the time against
     * the bandwidth measured between the timed runs, on this device */
    spmv_report_check(&run, &m);
    spmv_save_y(&run, &o, y, A.rows, 0, 1, m.check.pass);
    int status = spmv_report_dia(&run, &STEP, "image", &o, &cl, &A, &m);

    /* 8. Release */
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseMemObject(d_A);
    clReleaseMemObject(d_off);
    clReleaseMemObject(d_x);
    clReleaseMemObject(d_y);
    spmv_cl_close(&cl);
    spmv_ref_free(&ref);
    free(y);
    free(x);
    dia_free(&A);
    return status;
}
