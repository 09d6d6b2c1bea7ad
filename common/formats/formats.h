/* formats.h - the files the course reads and writes: Matrix Market (.mtx) and
 * Harwell-Boeing (.rua, .rsa, .psa, .cua, ...) matrices, and Matrix Market
 * vectors. These know files, not runs: what a run reads and saves (--matrix,
 * --x, --info, --save-*) is decided in common/load.c and common/report.c,
 * and what a run can hold is handed to the readers (spmv_limits, capacity.h),
 * which judge a header's sizes against it.
 *
 *   matrix_read.c   picks the reader by content, then by extension
 *   mmio.c          Matrix Market coordinate matrices, read
 *   hb.c            Harwell-Boeing matrices, read
 *   mmvector.c      a Matrix Market array vector (x), read
 *   mmwrite.c       a matrix and a vector written as Matrix Market files
 *   readutil.c/.h   what the readers share (private to this folder)
 *
 * Every function returns 0 (or the vector) on success and -1 (NULL) on
 * failure, with a one-line message in *err; reading errors read "FILE:LINE:
 * what was wrong". Nothing here exits.
 *
 * Vector files are column vectors, 'N 1' on the size line. A 1 x N file is
 * refused with a hint rather than guessed at: the course never transposes.
 */
#ifndef SPMV_FORMATS_H
#define SPMV_FORMATS_H

#include "matrix.h"

/* Read a Matrix Market or Harwell-Boeing file (chosen by content, then
 * extension), expanding symmetric, skew-symmetric and Hermitian storage.
 * The header's sizes are judged against lim's run (NULL: the host alone)
 * before anything of their size exists. */
int matrix_read(const char *path, struct spmv_limits *lim, coo_matrix *A, spmv_error *err);
int mm_read(const char *path, struct spmv_limits *lim, coo_matrix *A, spmv_error *err);
int hb_read(const char *path, struct spmv_limits *lim, coo_matrix *A, spmv_error *err);

/* Read a column vector of exactly n entries from an 'array' file (real,
 * integer or complex, general). complex_: the run is complex; a real file
 * then gets zero imaginary parts (2n values interleaved are returned), and a
 * complex file for a real run is refused. */
double *mm_read_vector(const char *path, long long n, int complex_, spmv_error *err);

/* A as '%%MatrixMarket matrix coordinate real|complex general', 1-based,
 * rows in order, %.17g. comment: extra '%' lines (may be NULL). A file that
 * could not be written whole is removed. */
int mm_write_csr(const char *path, const csr_matrix *A, const char *comment, spmv_error *err);

/* n values (2n interleaved re, im if complex_) as '%%MatrixMarket matrix array
 * real|complex general', 'n 1'. The values are floats if is_float, else
 * doubles; digits: 9 or 17. */
int mm_write_vector(const char *path, const void *v, int is_float, long long n, int complex_, int digits,
                    const char *comment, spmv_error *err);

#endif
