/* factor/factor.h - chapter 9's preconditioners on the host, in double:
 * the incomplete Cholesky factor IC(0) of A on A's lower pattern, its
 * transpose, the level sets of a triangular solve, a greedy multicolor
 * ordering, and the host's own triangular solves the device's are checked
 * against. All in double; the device gets the factor rounded to its
 * precision. Every function that can fail returns -1 with one line in err. */
#ifndef STEP9_FACTOR_H
#define STEP9_FACTOR_H

#include "matrix.h"

/* A triangular matrix in CSR, the diagonal stored in every row: last in a
 * lower row (L), first in an upper row (U = L^T). */
typedef struct {
    int n, lower;
    long long nnz;
    int *ptr, *col;
    double *val;
} tri_matrix;

/* The level sets of a solve with T: level(i) = 1 + the largest level of
 * the rows row i reads (0 if none); L's solve goes down the rows, U's up.
 * order: the rows by level (ascending row within a level); lev_ptr: level l
 * is order[lev_ptr[l] .. lev_ptr[l+1]). */
typedef struct {
    int nlev, widest;
    int *order, *lev_ptr;
} tri_levels;
int tri_levels_make(const tri_matrix *T, tri_levels *lv, spmv_error *err);
void tri_levels_free(tri_levels *lv);

/* IC(0): L with L L^T = A + shift diag(A) on A's lower pattern (and only
 * there: the fill a complete factor would make is dropped). shift starts
 * at 0; where a pivot is not positive the factor is made again with a
 * shift, 1e-3 doubled until every pivot is (the last try 1.024: then -1, "not
 * positive definite enough"). tries: the factorizations made. */
typedef struct {
    tri_matrix L, U;   /* U = L^T */
    double shift;
    int tries;
} ic_factor;

/* In two calls, the levels of L's pattern between them: ic0_pattern makes
 * L's pattern (and fails where a diagonal entry is missing or not
 * positive); ic0_values, given lv = tri_levels_make(&f->L), its values,
 * the rows of a level side by side on the host's cores (OpenMP, each
 * thread with a column map of n ints, IC0_MAP_BYTES at most in all; one
 * thread where the levels average fewer than IC0_ROWS_A_THREAD rows for
 * each of the host's threads or A has fewer than 64 IC0_WIDE rows: the
 * threads' start costs more there; TUNING.md, entries 11 and 16). The factor is the same whatever the threads: each row is made the
 * same way from rows of earlier levels. ic0_upper then makes U = L^T as
 * rows of its own (every form but the persistent one, which solves with
 * L's rows alone, and whose check makes U after the solve). */
int ic0_pattern(const csr_matrix *A, ic_factor *f, spmv_error *err);
int ic0_values(const csr_matrix *A, ic_factor *f, const tri_levels *lv, spmv_error *err);
int ic0_upper(const csr_matrix *A, ic_factor *f, spmv_error *err);
void ic0_free(ic_factor *f);
#define IC0_MAP_BYTES ((size_t)256 << 20)
#define IC0_ROWS_A_THREAD 16
#define IC0_WIDE 256

/* L L^T against A + shift diag(A) on every entry of A's lower pattern, in
 * double: the worst |(L L^T)_ij - a_ij| over (n_i + 2) eps sum_m |l_im l_jm|
 * (the rounding a correct factor may make); *row the row of that entry. */
double ic0_residual(const csr_matrix *A, const ic_factor *f, int *row);

/* A greedy coloring of A's graph (rows i and j adjacent where a_ij != 0),
 * rows in natural order, each the smallest color none of its neighbours
 * has; perm: the rows ordered by color (perm[new] = old), ncolors. */
int color_greedy(const csr_matrix *A, int *perm, int *ncolors, spmv_error *err);

/* B = P A P^T for perm[new] = old: B's row new is A's row perm[new], its
 * columns renumbered and sorted. */
int csr_permute(const csr_matrix *A, const int *perm, csr_matrix *B, spmv_error *err);

/* The host's solves, in double: y = T^-1 v (exact substitution), and the
 * approximate one of `sweeps` Jacobi sweeps from y = D^-1 v (D T's
 * diagonal), with mag, where not NULL, the same recursion on absolute
 * values (the size the rounding of each row is measured against). */
void tri_solve(const tri_matrix *T, const double *v, double *y);
void tri_sweeps(const tri_matrix *T, int sweeps, const double *v, double *y, double *mag, double *tmp);

/* A solve's answer y held row by row: |v_i - sum_j t_ij y_j| over
 * eps (n_i + 10) sum_j |t_ij y_j| (eps the precision's unit roundoff), the
 * worst row's part in *row; a NaN is infinitely wrong. */
double tri_check_exact(const tri_matrix *T, const double *v, const double *y, int single, int *row);

#endif
