/* io.h - the course checked from outside: a matrix summary, and x, y and the
 * matrix written as Matrix Market files that Octave, SciPy and Julia read as
 * they are; x read from such a file.
 *
 *   --info             one line: where the matrix came from, its format, field,
 *                      symmetry, sizes, diagonals, sum and Frobenius norm
 *   --save-matrix F    the matrix as loaded (symmetry expanded, duplicates
 *                      summed) as a 'coordinate ... general' file, %.17g
 *   --save-x F         x exactly as the run uses it, as an 'array' file
 *   --save-y F         y of the checked run, only when its check passed
 *   --x F              x from an 'array' file instead of the seeded random one
 *
 * The matrix is summarised and saved as read, before any conversion (DIA
 * rounds to float and may refuse the matrix) and before rounding to float.
 * Vectors are written with %.9g when the run is single precision (enough for
 * every float to read back to itself) and %.17g otherwise (the same for
 * doubles), so saving x and reading it back with --x gives the same y.
 *
 * Vector files are column vectors, 'N 1' on the size line. A 1 x N file is
 * refused with a hint rather than guessed at: the course never transposes.
 */
#ifndef SPMV_IO_H
#define SPMV_IO_H

#include "matrix.h"
#include "options.h"

/* ---- the library: 0 on success, -1 with a one-line message in *err ---- */

/* The --info line (without a newline) for A as read. */
int spmv_info_line(const csr_matrix *A, char *buf, size_t size, spmv_error *err);

/* ---- the hooks the shared code calls; they exit 2 on failure ---- */

/* --info and --save-matrix, on the matrix as read. */
void spmv_io_matrix(const spmv_options *o, const csr_matrix *A);
/* The same for a generated DIA matrix (converted to CSR only if asked). */
void spmv_io_dia(const spmv_options *o, const dia_matrix *A);

/* x from --x FILE, rounded to the run's precision as the random x is. */
float *spmv_io_x_floats(const spmv_options *o, int n);
double *spmv_io_x_doubles(const spmv_options *o, int n, int complex_, int round_to_float);
/* --save-x of the x the run uses (doubles: rounded to float if round_to_float). */
void spmv_io_save_x_floats(const spmv_options *o, const float *x, int n);
void spmv_io_save_x_doubles(const spmv_options *o, const double *x, int n, int complex_, int round_to_float);

/* --save-y: y of n rows (floats if single, else doubles; interleaved if
 * complex_). Written only if pass; otherwise says so and leaves no file. */
void spmv_io_save_y(const spmv_options *o, const void *y, long long n, int complex_, int single, int pass);

#endif
