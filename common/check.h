/* check.h - the reference product (double accumulation) and the checker.
 *
 * The reference computes y = A x in double from exactly the numbers the device
 * sees (values and x already rounded to the device precision), and for every
 * row the scale sum_j |a_ij| |x_j| and the row length n_i. A device result
 * passes when, in every row,
 *
 *     |y_i - y_ref_i| <= eps * (n_i + 10) * sum_j |a_ij| |x_j|
 *
 * with eps the unit round-off of the precision (2^-24 single, 2^-53 double):
 * the classic bound for a sum of n products in any order (Higham, gamma_n),
 * with room for fused multiply-adds. An empty row must give exactly 0, and a
 * NaN (the poison left in a row nobody wrote) always fails.
 *
 * Exactly, where rounding cannot happen: a row whose values and x entries
 * are all integers, with sum_j |a_ij| |x_j| at most 2^24 (single) or 2^44
 * (double: step 6's last-chunk word keeps 45 bits; complex: sum_j
 * (|re a|+|im a|)(|re x|+|im x|)), has every product
 * and every partial sum, in any order, an integer the precision holds, so
 * its y must equal the reference to the last bit. On a long row of random
 * signs the tolerance above is about as large as the row's sum itself (a
 * row of 46,500 float products passed with 1,000 of them added up); with
 * integers the check sees a single product missing.
 */
#ifndef SPMV_CHECK_H
#define SPMV_CHECK_H

#include "matrix.h"

typedef struct {
    long long n;       /* rows */
    int complex_;      /* y holds (re, im) pairs */
    double *y;         /* n or 2n values */
    double *scale;     /* n: sum |a||x| (complex: |a||x| with complex magnitudes) */
    int *len;          /* n: entries in the row */
    double *ibound;    /* n: the bound on the row's partial sums if every term is an integer, else -1 */
} spmv_ref;

struct spmv_run;   /* run.h: the run whose setup the reference is timed in (NULL: none) */

/* y = A x for DIA with float x. */
int dia_reference(struct spmv_run *run, const dia_matrix *A, const float *x, spmv_ref *ref, spmv_error *err);
/* y = A x for CSR; x is double (interleaved re, im if A is complex). */
int csr_reference(struct spmv_run *run, const csr_matrix *A, const double *x, spmv_ref *ref, spmv_error *err);
void spmv_ref_free(spmv_ref *ref);

typedef struct {
    int pass;
    double max_err;        /* max over rows of |y - y_ref| / scale (absolute where scale is 0) */
    long long first_bad;   /* -1 if none */
    double got, want;      /* first bad row's values (real part) */
    long long bad_rows;
    long long exact_rows;  /* rows of integers, checked to the last bit */
} spmv_check;

/* y_dev: n (or 2n) floats if single, doubles if double. */
spmv_check spmv_check_result(const spmv_ref *ref, const void *y_dev, int single);
/* Print "check: max error ..., PASS|FAIL" lines (the verdict to the run's
 * results, results.h). */
void spmv_check_print(const struct spmv_run *run, const spmv_check *c);

/* Seeded random vectors, uniform in [-1, 1). */
float *spmv_random_floats(size_t n, uint64_t seed, spmv_error *err);
double *spmv_random_doubles(size_t n, uint64_t seed, int round_to_float, spmv_error *err);

#endif
