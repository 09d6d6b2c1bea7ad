/* clutil.h - the OpenCL plumbing every step shares: device choice, error
 * checking with error names, program build with the full log, buffers that
 * fail with a clear message, profiling-event timing. */
#ifndef SPMV_CLUTIL_H
#define SPMV_CLUTIL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stddef.h>

#include "capacity.h"
#include "status.h"

struct spmv_run;     /* run.h: the run the device serves */
struct spmv_probe;   /* measure.h: a bandwidth probe */

typedef struct spmv_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;      /* in order, profiling enabled */
    int platform_index, device_index;
    char platform_name[256], device_name[256], driver[128], version[128];
    cl_device_type type;
    cl_ulong global_mem, max_alloc, local_mem;
    size_t max_wg;
    cl_uint compute_units;       /* a CPU's cores (hardware threads), a GPU's multiprocessors */
    int image_support, fp64;
    int int64_atomics;        /* cl_khr_int64_base_atomics: 64-bit atom_cmpxchg on global memory */
    int device_fence;         /* OpenCL C 3.0's atomic_work_item_fence at device scope, acquire-release */
    int ptx;                  /* NVIDIA's platform: its compiler takes inline PTX (asm) in OpenCL C */
    size_t image2d_max_w, image2d_max_h;
    spmv_limits limits;       /* this device, for the size checks (capacity.h): spmv_read_dia's second argument */
    struct spmv_run *run;     /* the run it serves (spmv_cl_open's): its device, buffers and build phases are timed
                                 there (NULL: not timed) */
    struct spmv_probe *probe; /* its bandwidth probe, opened by the first kernel measured on it and kept for the
                                 next (measure_cl.h); closed by spmv_cl_close */
} spmv_cl;

const char *cl_error_name(cl_int code);
void cl_check(cl_int code, const char *call, const char *file, int line);
#define CL_CHECK(call) cl_check((call), #call, __FILE__, __LINE__)
/* For calls that return an object and report through their last argument. */
#define CL_CHECK_ERR(err) cl_check((err), "(previous call)", __FILE__, __LINE__)

/* Select by SEL: NULL/"" (SPMV_DEVICE, else the first GPU, else the first
 * device), "P:D", "cpu", "gpu", or a case-insensitive piece of the platform or
 * device name. Prints platform, device, driver and version. Exits 2 when none.
 * run: the run it serves (kept in cl->run; NULL: none). */
void spmv_cl_open(spmv_cl *cl, struct spmv_run *run, const char *sel);
/* The same, of the devices SEL matches (every GPU of "gpu" or of no SEL),
 * the nth modulo their number (set in *matches if not NULL): an MPI rank's
 * device is its rank on the node modulo them (chapter 8). */
void spmv_cl_open_nth(spmv_cl *cl, struct spmv_run *run, const char *sel, int nth, int *matches);
/* Its probe, queue and context released. */
void spmv_cl_close(spmv_cl *cl);
/* Every platform and device with its index and what matters to the course. */
void spmv_cl_list(void);
/* The type of the device SEL selects, as spmv_cl_open would: "GPU", "CPU",
 * "accelerator" or "other" (`devices --type SEL`). Exits 2 when none. */
const char *spmv_cl_type(const char *sel);

/* Build the program in path with opts; prints the options, and on failure the
 * whole build log (sized from the query), then exits 2. */
cl_program spmv_cl_build(spmv_cl *cl, const char *path, const char *opts);
/* The same for a program whose source is n files (at most 4), one after
 * another: a later file may use what an earlier one defines (step 6's
 * adaptive/kernel.cl uses its kernel.cl). A "kernel" line for each. */
cl_program spmv_cl_build_files(spmv_cl *cl, const char *const *paths, int n, const char *opts);
/* The build log with "<kernel>:N:" (NVIDIA's compiler ignores #line and
 * counts lines through all the files) turned into "path:M:" of the file
 * line N is in; first[i] is the line where file i starts. Returns a new
 * string. */
char *spmv_build_log_files(const char *log, const char *const *paths, const int *first, int n);
cl_kernel spmv_cl_kernel(cl_program prog, const char *name);

/* A buffer of bytes, copied from host if host != NULL (on a CPU device a
 * CL_MEM_READ_ONLY buffer uses the host array in place: release the buffer
 * before freeing or changing the array). Checks the device's limits first and
 * turns allocation failures into "out of device memory" (exit 2) naming what
 * and how much. */
cl_mem spmv_cl_buffer(spmv_cl *cl, cl_mem_flags flags, size_t bytes, const void *host, const char *what);

/* Set kernel argument arg, a VALUE of the kernel's precision, to v: a float
 * when single, else a double (the solvers' alpha and beta). */
void spmv_cl_arg_value(cl_kernel k, int arg, int single, double v);

/* Time of a finished kernel from its profiling event, in milliseconds. */
double spmv_event_ms(cl_event ev);

/* Enqueue kernel over a 1-D range and wait; returns kernel time in ms. */
double spmv_cl_run(spmv_cl *cl, cl_kernel k, size_t global, size_t local);
/* A run made of kernels one after another in the queue (step 6's adaptive
 * kernel and its fix-up): time from the first start to the last end, in ms. */
#define SPMV_MAX_LAUNCHES 4
typedef struct {
    cl_kernel k;
    size_t global, local;   /* local 0: the implementation chooses */
} spmv_launch;
double spmv_cl_run_seq(spmv_cl *cl, const spmv_launch *l, int n);

/* Exit 2 with the fix (a smaller --local-size) if work-groups of local
 * work-items are more than the device or the kernel allows; 0: the
 * implementation chooses. Before the first launch, so a student's too-large
 * --local-size is one clear line, not CL_INVALID_WORK_GROUP_SIZE. */
void spmv_cl_check_local(spmv_cl *cl, cl_kernel k, size_t local);

/* Fill a float buffer with NaN so a row the kernel never writes fails the check. */
void spmv_cl_poison(spmv_cl *cl, cl_mem buf, size_t bytes);

#endif
