/* step4-vector/main.c - host program of chapter 4: float4, four rows per work-item.
 *
 *   make step4 run                      build and run on the default device
 *   make step4 run ARGS="--grid 2048"   any option of --help
 *
 * The sections below appear in the same order in every step, so that
 * `make diff STEP=N` shows only what the chapter changes.
 */
#include "spmv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "step4",
    .title = "DIA with float4: four consecutive rows per work-item",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "vector,cpu",
    .default_variant = "vector",
    .extras = OPT_BLOCK,
    .model_bytes = 8,    /* matrix value + x per multiply-add: the offsets stay on chip */
};

/* Each diagonal starts on a 128-byte boundary: the pitch is a multiple of 32
 * floats. A device buffer starts at CL_DEVICE_MEM_BASE_ADDR_ALIGN, which a
 * full-profile device keeps at least the size of a long16 (128 bytes), so
 * every diagonal does too. */
#define PITCH_ALIGN 32
#define LOCAL_SIZE 128

/* --kernel cpu: rows per work-item. On a CPU, a block's y (65536 rows: 256 KiB)
 * stays in cache while the diagonals stream through it, and there are at least
 * 4 blocks per core for load balance; a multiple of 16 rows keeps every
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

int main(int argc, char **argv)
{
    /* 1. Options (common/options.h) and device (common/clutil.h) */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o);
    spmv_cl cl;
    spmv_cl_open(&cl, o.device);

    /* 2. The matrix and x (common/load.h; --info and --save-* see them as read),
     * and the reference y (common/check.h) */
    spmv_input in;
    spmv_read_dia(&o, &in);
    spmv_save_matrix(&o, &in);
    dia_matrix A;
    spmv_load_dia(&o, &in, PITCH_ALIGN, &A);
    float *x = spmv_x_floats(&o, A.cols);
    spmv_save_x_floats(&o, x, A.cols);
    spmv_error err;
    spmv_ref ref;
    float *y = spmv_alloc((size_t)A.rows, sizeof *y, "y", &err);
    if (!y || dia_reference(&A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Device buffers */
    cl_mem d_A = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, A.ndiag * A.pitch * sizeof(float), A.values, "matrix values");
    cl_mem d_off = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, A.ndiag * sizeof(int), A.offsets, "offsets");
    /* --kernel cpu reads x with a halo of zeros on both sides instead of testing
     * each column (kernel.cl says why); the other kernel reads x as it is */
    int cpu = strcmp(o.variant, "cpu") == 0;
    int halo = 0;
    for (int d = 0; cpu && d < A.ndiag; d++) {
        int need = A.offsets[d] < 0 ? -A.offsets[d] : A.rows - A.cols + A.offsets[d];
        halo = need > halo ? need : halo;
    }
    size_t x_len = (size_t)A.cols + 2 * (size_t)halo;
    float *xh = NULL;
    if (cpu) {
        xh = spmv_alloc(x_len, sizeof *xh, "x with its halo", &err);
        if (!xh)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        memset(xh, 0, x_len * sizeof *xh);
        memcpy(xh + halo, x, (size_t)A.cols * sizeof *x);
    }
    cl_mem d_x = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, x_len * sizeof(float), cpu ? xh : x, "x");
    /* the cpu kernel adds into y in place: it reads y too */
    cl_mem d_y = spmv_cl_buffer(&cl, cpu ? CL_MEM_READ_WRITE : CL_MEM_WRITE_ONLY, A.rows * sizeof(float), NULL, "y");

    /* 4. Kernel and its arguments */
    cl_program prog = spmv_cl_build(&cl, o.kernel_file, o.cl_opts);
    cl_kernel k = spmv_cl_kernel(prog, cpu ? "dia_spmv_cpu" : "dia_spmv");
    int pitch = (int)A.pitch;
    CL_CHECK(clSetKernelArg(k, 0, sizeof d_A, &d_A));
    CL_CHECK(clSetKernelArg(k, 1, sizeof pitch, &pitch));
    CL_CHECK(clSetKernelArg(k, 2, sizeof A.rows, &A.rows));
    CL_CHECK(clSetKernelArg(k, 3, sizeof A.cols, &A.cols));
    CL_CHECK(clSetKernelArg(k, 4, sizeof A.ndiag, &A.ndiag));
    CL_CHECK(clSetKernelArg(k, 5, sizeof d_off, &d_off));
    CL_CHECK(clSetKernelArg(k, 6, sizeof d_x, &d_x));
    CL_CHECK(clSetKernelArg(k, 7, sizeof d_y, &d_y));
    int block = o.block ? o.block : default_block(&cl, A.rows);
    if (cpu) {
        CL_CHECK(clSetKernelArg(k, 8, sizeof block, &block));
        CL_CHECK(clSetKernelArg(k, 9, sizeof halo, &halo));
    } else {
        if (o.block)
            printf("note     --block is the cpu kernel's (--kernel cpu); the vector kernel takes four rows per work-item\n");
        /* The local copy of the offsets, sized here rather than fixed in the
         * kernel (the article's l_offsets[256] stops at 256 diagonals) */
        size_t l_bytes = (size_t)(A.ndiag > 0 ? A.ndiag : 1) * sizeof(int);
        if (l_bytes > cl.local_mem)
            spmv_die(SPMV_EXIT_USAGE, "%d offsets need %zu bytes of local memory; this device has %llu",
                     A.ndiag, l_bytes, (unsigned long long)cl.local_mem);
        CL_CHECK(clSetKernelArg(k, 8, l_bytes, NULL));
    }

    /* 5. Work sizes: one work-item per four rows, rounded up to whole work-groups.
     * The pitch (a multiple of 32) keeps the vload4 of the last rows inside
     * their diagonal; the kernel guards the rows past the end of y itself.
     * The cpu kernel: one work-item per block of rows, alone in its work-group
     * on a CPU (PoCL then runs the block's loops as they are written). */
    size_t local, global;
    if (cpu) {
        size_t items = ((size_t)A.rows + block - 1) / block;
        local = o.local_size ? o.local_size : (cl.type & CL_DEVICE_TYPE_CPU) ? 1 : LOCAL_SIZE;
        global = spmv_round_up(items ? items : 1, local);
        printf("launch   global %zu, local %zu (one work-item per block of %d rows, %u compute units)\n", global,
               local, block, cl.compute_units);
    } else {
        local = o.local_size ? o.local_size : LOCAL_SIZE;
        global = spmv_round_up(((size_t)A.rows + 3) / 4, local);
        printf("launch   global %zu, local %zu (one work-item per four rows)\n", global, local);
    }
    spmv_cl_check_local(&cl, k, local);

    /* 6. Run once on a y of NaN (a row the kernel skips stays NaN), read y
     * back and check it (common/check.h); only then time it (common/measure.h) */
    spmv_cl_poison(&cl, d_y, A.rows * sizeof(float));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, d_y, CL_TRUE, 0, A.rows * sizeof(float), y, 0, NULL, NULL));
    spmv_measure m = { .check = spmv_check_result(&ref, y, 1) };
    spmv_measure_kernel(&cl, k, global, local, d_y, y, &ref, &o, &m);

    /* 7. Report (common/report.h): the check, y to --save-y, the time against
     * the bandwidth measured between the timed runs, on this device */
    spmv_report_check(&m);
    spmv_save_y(&o, y, A.rows, 0, 1, m.check.pass);
    char kname[32];
    if (cpu && o.block)   /* the default block follows the device and the size: "cpu" */
        snprintf(kname, sizeof kname, "cpu-b%d", block);
    else
        snprintf(kname, sizeof kname, "%s", cpu ? "cpu" : "vector");
    spmv_step step = STEP;
    if (cpu)
        step.model_bytes = 4;   /* the matrix value alone: x and y come from the cache */
    int status = spmv_report_dia(&step, kname, &o, &cl, &A, &m);

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
