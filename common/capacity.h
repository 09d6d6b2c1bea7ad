/* capacity.h - will a matrix fit? Asked before anything of its size exists.
 *
 * A run of a rows x cols matrix with nnz entries needs
 *   on the device  the matrix (CSR: row pointers, column indices and values;
 *                  DIA: ndiag x pitch values and the offsets), x and y: each
 *                  buffer within the device's largest allocation, all of them
 *                  within its memory, and every index within an int (the
 *                  kernels index with int);
 *   on the host    its peak: the largest of the phases a run goes through,
 *                  each with what is alive at once (capacity.c counts them):
 *                  reading (the entries as read, COO), converting to CSR
 *                  (COO and CSR), generating (CSR), converting to DIA (CSR,
 *                  DIA padded to its pitch, the diagonal maps), and running
 *                  (the step's matrix, x, y, the double reference, the
 *                  device's y on a CPU device, the bandwidth probe, and what
 *                  the step says it keeps beside them: spmv_holds), plus an
 *                  allowance for the OpenCL (or CUDA) runtime.
 * The host's peak is held against the memory available: SPMV_HOST_MEM_MB if
 * set (tests pretend a smaller or larger host with it), else MemAvailable of
 * /proc/meminfo plus what the program already holds (its runtime, counted in
 * the estimate), within the cgroup's limit if it has one; without
 * /proc/meminfo, 3/4 of the physical memory.
 * The readers ask right after the header and the generators before they
 * generate, so a three-line file that declares two billion rows is refused in
 * a millisecond with what would not fit, not after a minute and 15 GB.
 *
 * What the run is (its device, the step's format, precision and holds) is
 * passed to every check in a spmv_limits: spmv_cl_open fills the device's
 * part (the CUDA yardsticks' open_device theirs), the loader (load.c) the
 * step's (its spmv_step, through the run the parser started), and
 * the readers and generators are handed it. Without a device (step 0, the
 * tools, a NULL spmv_limits) the device checks are skipped and only the
 * host's memory is checked. Nothing here allocates or exits.
 */
#ifndef SPMV_CAPACITY_H
#define SPMV_CAPACITY_H

#include "matrix.h"

/* Where the device's memory is: the host's (a CPU device: its buffers count
 * on the host) or its own (a GPU: its runtime may stage the buffers it is
 * given on the host, so they count there too). */
enum { SPMV_MEM_HOST = 1, SPMV_MEM_DEVICE = 2 };

/* What a step keeps on the host while it runs, beside the arrays every step
 * of its format keeps (its matrix, x, y, the reference): its own copies and
 * plans, which the step tells (spmv_step.holds) and capacity.c adds to the
 * running phase without knowing which step it is. In bytes. */
typedef struct {
    double x_device;          /* a column of x, on a device: the copies of x beside the host's (the
                               * device's buffer, an image's texels, x with a halo); counted in "x" */
    const char *part;         /* a part of the step's own ("the adaptive plan"); NULL: none */
    double part_row, part_nnz;   /* its bytes a row and a nonzero */
} spmv_holds;

/* What a size is judged against: the run's device and the step's format.
 * spmv_fits also keeps here the largest host estimate it has made. */
typedef struct spmv_limits {
    char device[256];           /* the device's name for the messages; "": no device */
    double max_alloc, global_mem;   /* bytes, 0: unknown */
    int memory;                 /* SPMV_MEM_*, 0: no device (step 0, the tools) */
    int keeps_values;           /* the program keeps the values as read beside the copy it gives the
                                 * device (cuSPARSE's program) instead of converting them in place */
    char format;                /* the step's: 'c' CSR, 'd' DIA, 0: a tool */
    char precision;             /* 's' 'd' 'c' 'z' (DIA: 's'); 0: the file's own field decides */
    long long dia_max_diags;    /* a DIA step's limit (SPMV_DIA_MAX_DIAGS): csr_generate refuses a
                                 * matrix of more diagonals before generating it; 0: none */
    spmv_holds holds;           /* what the step keeps beside (its spmv_step's) */
    double estimate;            /* the largest host estimate so far (bytes; 0 before any) */
    char line[640];             /* and what it was made of */
} spmv_limits;

/* The device of the run (name for the messages; sizes in bytes, 0: unknown),
 * in lim, whose other fields are zeroed. */
void spmv_limits_device(spmv_limits *lim, const char *name, unsigned long long max_alloc,
                        unsigned long long global_mem, int memory);

/* How a matrix reaches the step's format, for the host's phases */
enum {
    SPMV_FROM_FILE = 1,   /* entries read (COO), converted to CSR */
    SPMV_FROM_CSR,        /* in hand as CSR (generated, or read and converted) */
    SPMV_FROM_GRID,       /* the grid, built straight into the step's format */
};

typedef struct {
    long long rows, cols, nnz;   /* nnz: the entries; at a header, at most (symmetric: doubled) */
    int complex_;                /* complex values as read */
    int from;                    /* SPMV_FROM_* */
    long long ndiag, pitch;      /* DIA once its diagonals are known; 0: at least nnz values */
    int csr_too;                 /* a DIA step's grid is also built as CSR (--info, --save-matrix) */
} spmv_size;

/* Does it fit lim's run (NULL: no device, a tool's format)? 0: yes; -1 with
 * *err saying what would not fit (callers add where the size came from:
 * "FILE:LINE: " or "grid 8x8: "). The host's estimate is kept in lim. */
int spmv_fits(spmv_limits *lim, const spmv_size *s, spmv_error *err);

/* The largest host estimate of lim's run so far (bytes; 0 before any), and
 * one line saying it: the estimate, its phase and parts, the memory
 * available and where that came from (--estimate prints it). */
double spmv_host_estimate(const spmv_limits *lim);
void spmv_host_estimate_line(const spmv_limits *lim, char *buf, size_t size);

/* Bytes this program may hold on the host, and where that came from
 * ("MemAvailable", "SPMV_HOST_MEM_MB", ...); 0 if unknown. */
double spmv_host_available(char *src, size_t size);

/* The bytes of each of the bandwidth probe's two arrays: 256 MiB on a GPU,
 * 128 MiB on a CPU (a device or the host), or SPMV_PROBE_MB's; within a
 * device's largest buffer and a quarter of its memory where given (> 0), in
 * whole MiB. 0: no probe (SPMV_PROBE_MB=0). A size like the others here:
 * the host's estimate counts it, and the probe (measure.c) opens with it. */
size_t spmv_probe_bytes(int gpu, unsigned long long max_alloc, unsigned long long global_mem);

/* Bytes of physical memory on this machine (0 if unknown). */
unsigned long long spmv_host_memory(void);

#endif
