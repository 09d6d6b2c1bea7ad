/* load.h - the matrix of a run (a file or the grid) and its vector x. */
#ifndef SPMV_LOAD_H
#define SPMV_LOAD_H

#include "matrix.h"
#include "options.h"

/* The matrix a DIA step runs: --matrix (read, converted, refused if not
 * banded) or the grid. Exits 2 with the reason on bad input. */
void spmv_load_dia(const spmv_options *o, size_t pitch_align, dia_matrix *A);
/* The matrix as CSR (step6), from a file or the grid. */
void spmv_load_csr(const spmv_options *o, csr_matrix *A);

/* The vector x of a run: seeded random from --seed (uniform in [-1, 1)).
 * Every step takes x from here, so options about x work in every step.
 * Exits 2 on failure. */
float *spmv_x_floats(const spmv_options *o, int n);
/* n entries (2n interleaved if complex), rounded to float if round_to_float. */
double *spmv_x_doubles(const spmv_options *o, int n, int complex_, int round_to_float);

/* Print the matrix line: name, rows, cols, nnz, diagonals. */
void spmv_print_dia(const dia_matrix *A);

#endif
