/* capacity.h - will a matrix fit? Asked before anything of its size exists.
 *
 * A run of a rows x cols matrix with nnz entries needs
 *   on the device  the matrix (CSR: row pointers, column indices and values;
 *                  DIA: ndiag x pitch values and the offsets), x and y: each
 *                  buffer within the device's largest allocation, all of them
 *                  within its memory, and every index within an int (the
 *                  kernels index with int);
 *   on the host    what the host side holds at its peak: the entries as read
 *                  (from a file), the matrix in CSR or DIA, x, and the double
 *                  reference (y, a scale and a length per row).
 * The readers ask right after the header and the generators before they
 * generate, so a three-line file that declares two billion rows is refused in
 * a millisecond with what would not fit, not after a minute and 15 GB.
 *
 * The device is recorded by spmv_cl_open, the step's format and precision by
 * its loader (load.c); until then, and in host code (step 0), the device
 * checks are skipped and only the host's memory is checked. Nothing here
 * allocates or exits.
 */
#ifndef SPMV_CAPACITY_H
#define SPMV_CAPACITY_H

#include "matrix.h"

/* The device of the run (name for the messages; sizes in bytes). */
void spmv_limits_device(const char *name, unsigned long long max_alloc, unsigned long long global_mem);
/* The step's format ('c' CSR, 'd' DIA) and the bytes of one device value
 * (4 float, 8 double or complex float, 16 complex double; 0: the file's own
 * field decides, 4 if real, 8 if complex). */
void spmv_limits_format(char format, int value_size);

/* Does a rows x cols matrix with nnz entries fit? complex_: complex values on
 * the host; from_file: its entries are held as read (COO) while CSR is built.
 * 0: yes; -1 with *err saying what would not fit (callers add where the size
 * came from: "FILE:LINE: " or "grid 8x8: "). For DIA, nnz is a lower bound of
 * the values stored: spmv_fits_dia checks them once the diagonals are known. */
int spmv_fits(long long rows, long long cols, long long nnz, int complex_, int from_file, spmv_error *err);
/* DIA: ndiag diagonals of pitch values each, on the host and the device. */
int spmv_fits_dia(long long rows, long long cols, long long ndiag, long long pitch, spmv_error *err);

/* Bytes of physical memory on this machine (0 if unknown). */
unsigned long long spmv_host_memory(void);

#endif
