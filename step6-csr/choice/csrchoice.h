/* choice/csrchoice.h - chapter 6's rule: which CSR kernel a matrix's row lengths
 * choose (scalar, vector or adaptive) and the vector kernel's group. Step 6
 * prints it and marks its choice in the table; step 7 asks it which product
 * to run. It looks only at the row pointers, never at the device's speed: a
 * rule a student can apply by hand to the "rows" line. And the precision a
 * matrix runs in when --precision does not say: its file's own field. */
#ifndef SPMV_CSRCHOICE_H
#define SPMV_CSRCHOICE_H

#include "matrix.h"
#include "options.h"

/* Row lengths: the mean, the spread (std/mean), the typical length (that of
 * the row an average nonzero sits in: sum len^2 / sum len; on the grid the
 * mean, 81; on a power-law matrix, whose few long rows hold much of the
 * nonzeros, far above it), the longest, how many rows are empty, and how
 * many rows there are. */
typedef struct {
    double mean, cv, typical;
    int max, empty;
    int rows;
} spmv_row_stats;

/* A's row lengths, measured and printed (one "rows" line) */
spmv_row_stats spmv_row_lengths(const csr_matrix *A);
/* The vector kernel's group (work-items per row) for these rows: a power of
 * two from 2 to 32 */
int spmv_default_group(const spmv_row_stats *st);
/* The vector kernel's entries a lane loads a pass (-DVECTOR_UNROLL) for
 * these rows, values of `value_bytes`, and the group *group (which it may
 * widen): 1, 2, 4 or 8 */
int spmv_default_unroll(const spmv_row_stats *st, int value_bytes, int *group);
/* The kernel these rows choose, "scalar", "vector" or "adaptive", printed
 * with why (one "choice" line). `gpu`: the device is a GPU; `share`: the
 * adaptive kernel's nonzeros per block (its longest row kept whole);
 * `group`: the vector kernel's group (printed by the caller, beside its
 * other numbers). */
const char *spmv_csr_choose(const spmv_row_stats *st, int gpu, int share, int group);

/* The precision of a CSR run on A, set in o->precision: --precision if given
 * (a real one for a complex matrix is refused: exit 2), else the file's own,
 * complex float for a complex matrix (one line says so) and float for a real
 * one. */
char spmv_csr_precision(spmv_options *o, const csr_matrix *A);

#endif
