/* step4-vector/cpu/host.c - the host side of chapter 4's product shaped for a
 * CPU (cpu/kernel.cl says how and why). build/step4 runs it for --kernel cpu:
 *
 *   make step4 run ARGS="--kernel cpu"
 *   make step4 run ARGS="--kernel cpu --block 4096"   rows per work-item
 *
 * The sections are those of every main.c, from the device on (../main.c has
 * parsed the options). What differs from ../main.c: x is padded with a halo
 * of zeros (section 3), a work-item owns a block of rows and adds into y in
 * place (sections 3 to 5), and the model bound counts the matrix value alone
 * (section 7).
 */
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel source when no --kernel-file is given: beside this file. */
#define CPU_KERNEL_PATH SPMV_STEP_DIR "/cpu/kernel.cl"

/* As ../main.c: each diagonal starts on a 128-byte boundary. */
#define PITCH_ALIGN 32
#define LOCAL_SIZE 128   /* on a GPU; on a CPU one work-item per work-group */

/* Rows per work-item. On a CPU, a block's y (65536 rows: 256 KiB) stays in
 * cache while the diagonals stream through it, and there are at least 4
 * blocks per core for load balance; a multiple of 16 rows keeps every
 * block's streams on 64-byte lines. On a GPU, 1: neighbouring work-items then
 * read neighbouring rows, as in step 1, which is what coalescing wants. */
#define CPU_BLOCK_MAX 65536
#define CPU_BLOCK_MIN 16
#define CPU_BLOCKS_PER_CORE 4
static int default_block(const spmv_cl *cl, int rows)
{
    if (!(cl->type & CL_DEVICE_TYPE_CPU))
        return 1;
    long parts = CPU_BLOCKS_PER_CORE * (long)(cl->compute_units ? cl->compute_units : 1);
    long per = ((long)rows + parts - 1) / parts;
    per = (per + CPU_BLOCK_MIN - 1) / CPU_BLOCK_MIN * CPU_BLOCK_MIN;
    return per < CPU_BLOCK_MIN ? CPU_BLOCK_MIN : per > CPU_BLOCK_MAX ? CPU_BLOCK_MAX : (int)per;
}

int step4_cpu(spmv_run *run, const spmv_step *step, const spmv_options *o)
{
    /* 1. Device (common/clutil.h); the options are ../main.c's */
    spmv_cl cl;
    spmv_cl_open(&cl, run, o->device);

    /* 2. The matrix and x (common/load.h; --info and --save-* see them as read),
     * and the reference y (common/check.h) */
    spmv_input in;
    spmv_read_dia(run, o, &cl.limits, &in);
    spmv_save_matrix(run, o, &in);
    dia_matrix A;
    spmv_load_dia(run, o, &in, PITCH_ALIGN, &A);
    float *x = spmv_x_floats(run, o, A.cols);
    spmv_save_x_floats(run, o, x, A.cols);
    spmv_error err;
    spmv_ref ref;
    float *y = spmv_alloc((size_t)A.rows, sizeof *y, "y", &err);
    if (!y || dia_reference(run, &A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Device buffers: x with a halo of zeros on both sides, so the kernel
     * tests no column (kernel.cl says why); y is read too: the kernel adds
     * into it in place */
    int halo = 0;
    for (int d = 0; d < A.ndiag; d++) {
        int need = A.offsets[d] < 0 ? -A.offsets[d] : A.rows - A.cols + A.offsets[d];
        halo = need > halo ? need : halo;
    }
    size_t x_len = (size_t)A.cols + 2 * (size_t)halo;
    float *xh = spmv_alloc(x_len, sizeof *xh, "x with its halo", &err);
    if (!xh)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    memset(xh, 0, x_len * sizeof *xh);
    memcpy(xh + halo, x, (size_t)A.cols * sizeof *x);
    cl_mem d_A = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, A.ndiag * A.pitch * sizeof(float), A.values, "matrix values");
    cl_mem d_off = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, A.ndiag * sizeof(int), A.offsets, "offsets");
    cl_mem d_x = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, x_len * sizeof(float), xh, "x");
    cl_mem d_y = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, A.rows * sizeof(float), NULL, "y");

    /* 4. Kernel and its arguments: those of the float4 kernel, then the
     * block and the halo */
    const char *kernel_file = o->kernel_file == step->kernel_path ? CPU_KERNEL_PATH : o->kernel_file;
    cl_program prog = spmv_cl_build(&cl, kernel_file, o->cl_opts);
    cl_kernel k = spmv_cl_kernel(prog, "dia_spmv_cpu");
    int pitch = (int)A.pitch;
    int block = o->block ? o->block : default_block(&cl, A.rows);
    CL_CHECK(clSetKernelArg(k, 0, sizeof d_A, &d_A));
    CL_CHECK(clSetKernelArg(k, 1, sizeof pitch, &pitch));
    CL_CHECK(clSetKernelArg(k, 2, sizeof A.rows, &A.rows));
    CL_CHECK(clSetKernelArg(k, 3, sizeof A.cols, &A.cols));
    CL_CHECK(clSetKernelArg(k, 4, sizeof A.ndiag, &A.ndiag));
    CL_CHECK(clSetKernelArg(k, 5, sizeof d_off, &d_off));
    CL_CHECK(clSetKernelArg(k, 6, sizeof d_x, &d_x));
    CL_CHECK(clSetKernelArg(k, 7, sizeof d_y, &d_y));
    CL_CHECK(clSetKernelArg(k, 8, sizeof block, &block));
    CL_CHECK(clSetKernelArg(k, 9, sizeof halo, &halo));

    /* 5. Work sizes: one work-item per block of rows, alone in its work-group
     * on a CPU (PoCL then runs the block's loops as they are written) */
    size_t items = ((size_t)A.rows + block - 1) / block;
    size_t local = o->local_size ? o->local_size : (cl.type & CL_DEVICE_TYPE_CPU) ? 1 : LOCAL_SIZE;
    size_t global = spmv_round_up(items ? items : 1, local);
    printf("launch   global %zu, local %zu (one work-item per block of %d rows, %u compute units)\n", global,
           local, block, cl.compute_units);
    spmv_cl_check_local(&cl, k, local);

    /* 6. Run once on a y of NaN (a row the kernel skips stays NaN), read y
     * back and check it (common/check.h); only then time it (common/measure.h) */
    spmv_cl_poison(&cl, d_y, A.rows * sizeof(float));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, d_y, CL_TRUE, 0, A.rows * sizeof(float), y, 0, NULL, NULL));
    spmv_measure m = { .check = spmv_check_result(&ref, y, 1) };
    spmv_measure_kernel(&cl, k, global, local, d_y, y, &ref, o->warmup, o->runs, &m);

    /* 7. Report (common/report.h): the check, y to --save-y, the time against
     * the bandwidth measured between the timed runs, on this device. The
     * model counts the matrix value alone: x and y come from the cache */
    spmv_report_check(run, &m);
    spmv_save_y(run, o, y, A.rows, 0, 1, m.check.pass);
    char kname[32];
    if (o->block)   /* the default block follows the device and the size: "cpu" */
        snprintf(kname, sizeof kname, "cpu-b%d", block);
    else
        snprintf(kname, sizeof kname, "cpu");
    spmv_step cpu_step = *step;
    cpu_step.model_bytes = 4;
    int status = spmv_report_dia(run, &cpu_step, kname, o, &cl, &A, &m);

    /* 8. Release */
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseMemObject(d_A);
    clReleaseMemObject(d_off);
    clReleaseMemObject(d_x);
    clReleaseMemObject(d_y);
    spmv_cl_close(&cl);
    spmv_ref_free(&ref);
    free(xh);
    free(y);
    free(x);
    dia_free(&A);
    return status;
}
