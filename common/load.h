/* load.h - section 2 of every main.c: the matrix of a run and its x, read or
 * generated, and what the run saves of them for outside tools (Octave, SciPy,
 * Julia read the files as they are; the files are common/formats/'s).
 *
 * A step loads its matrix in three calls, so that --info and --save-matrix see
 * it as read, before the step's format can refuse it:
 *
 *     spmv_input in;
 *     spmv_read_dia(&run, &o, &cl.limits, &in);        --matrix or --gen read as
 *                                                      CSR; the grid: nothing
 *                                                      built yet
 *     spmv_save_matrix(&run, &o, &in);                 --info, --save-matrix
 *     spmv_load_dia(&run, &o, &in, PITCH_ALIGN, &A);   as DIA (the grid is built
 *                                                      straight into it), or
 *                                                      refused
 *
 * (step 6: spmv_read_csr, spmv_save_matrix, spmv_load_csr). Then x:
 * spmv_x_floats, and spmv_save_x_floats for --save-x. Every call exits 2
 * with the reason on bad input. run (run.h) is the caller's: each call's time
 * is its matrix or x phase, and it names the step in the files saved (NULL:
 * not timed, the program's name).
 *
 *   --info             one line: where the matrix came from, its format, field,
 *                      symmetry, sizes, diagonals, sum and Frobenius norm
 *   --save-matrix F    the matrix as read (symmetry expanded, duplicates
 *                      summed) as a 'coordinate ... general' file, %.17g
 *   --save-x F         x exactly as the run uses it, as an 'array' file
 *   --x F              x from an 'array' file instead of the seeded random one
 *   (--save-y F        y of the checked run: report.h)
 *
 * The matrix is summarised and saved as read, before any conversion (DIA
 * rounds to float and may refuse the matrix) and before rounding to float.
 * Vectors are written with %.9g when the run is single precision (enough for
 * every float to read back to itself) and %.17g otherwise (the same for
 * doubles), so saving x and reading it back with --x gives the same y.
 */
#ifndef SPMV_LOAD_H
#define SPMV_LOAD_H

#include "capacity.h"
#include "matrix.h"
#include "options.h"

struct spmv_run;   /* run.h */

/* The matrix as read. The grid is not read but built, straight into the
 * step's format, by spmv_load_dia or spmv_load_csr. */
typedef struct {
    int grid;          /* 1: the grid of --grid, --radius and --seed */
    csr_matrix csr;    /* otherwise: --matrix FILE or --gen SPEC, as read */
    spmv_limits limits;   /* the run's: the device's, the step's format (capacity.h) */
} spmv_input;

/* Read --matrix or --gen for a DIA step or for step 6's CSR (sizes are
 * judged against that format on the device as soon as a file's header is
 * read). device: the device's limits (spmv_cl's limits, filled by
 * spmv_cl_open); NULL: none, the host alone (step 0). */
void spmv_read_dia(struct spmv_run *run, const spmv_options *o, const spmv_limits *device, spmv_input *in);
void spmv_read_csr(struct spmv_run *run, const spmv_options *o, const spmv_limits *device, spmv_input *in);
/* --info and --save-matrix on the matrix as read (the grid is generated as
 * CSR for them, only when asked). Does nothing without them. */
void spmv_save_matrix(struct spmv_run *run, const spmv_options *o, spmv_input *in);
/* The matrix as DIA, each diagonal padded to a multiple of pitch_align
 * floats: converted (refused if not banded) or the grid built; prints the
 * matrix line. in is used up. */
void spmv_load_dia(struct spmv_run *run, const spmv_options *o, spmv_input *in, size_t pitch_align, dia_matrix *A);
/* The matrix as CSR (step 6): as read, or the grid built. in is used up. */
void spmv_load_csr(struct spmv_run *run, const spmv_options *o, spmv_input *in, csr_matrix *A);

/* The vector x of a run: seeded random from --seed (uniform in [-1, 1)), or
 * read from --x FILE and rounded the same way. Every step takes x from here,
 * so options about x work in every step. */
float *spmv_x_floats(struct spmv_run *run, const spmv_options *o, int n);
/* n entries (2n interleaved if complex), rounded to float if round_to_float. */
double *spmv_x_doubles(struct spmv_run *run, const spmv_options *o, int n, int complex_, int round_to_float);
/* --save-x: x as the run uses it (doubles: single precision if round_to_float).
 * Does nothing without it. */
void spmv_save_x_floats(struct spmv_run *run, const spmv_options *o, const float *x, int n);
void spmv_save_x_doubles(struct spmv_run *run, const spmv_options *o, const double *x, int n, int complex_,
                         int round_to_float);

/* A real vector of n entries from an 'array' file (step 7's --b), rounded to
 * float if single; exits 2 naming flag if it cannot. */
double *spmv_read_vector(const char *path, const char *flag, int n, int single);
/* Any other real vector of a run (step 7's b and its solution x) to path as
 * an 'array' file, %.9g if single else %.17g, under the comment; flag
 * ("--save-b") names it in messages. Does nothing if path is NULL. */
void spmv_save_vector(const char *path, const char *flag, const double *v, int n, int single, const char *comment);

/* Print the matrix line: name, rows, cols, nnz, diagonals. */
void spmv_print_dia(const dia_matrix *A);
/* The --info line (without a newline) for A as read; -1 with *err if out of memory. */
int spmv_info_line(const csr_matrix *A, char *buf, size_t size, spmv_error *err);

#endif
