/* precision.h - the four value types of step6 (the thesis's sspmv, dspmv,
 * cspmv, zspmv) and the packing of host doubles into device arrays.
 *
 *   s  float             4 bytes     d  double            8 bytes
 *   c  complex float     8 bytes     z  complex double   16 bytes
 *
 * Complex values go to the device as interleaved (re, im) pairs, which is the
 * layout of float2 / double2 in OpenCL C and of x and y in check.h.
 */
#ifndef SPMV_PRECISION_H
#define SPMV_PRECISION_H

#include "matrix.h"

#include <stddef.h>

int spmv_prec_complex(char p);          /* c, z */
int spmv_prec_single(char p);           /* s, c: float arithmetic */
int spmv_prec_value_size(char p);       /* bytes of one value: 4, 8, 8, 16 */
const char *spmv_prec_name(char p);     /* "float", "double", "complex float", "complex double" */
const char *spmv_prec_cl_type(char p);  /* "float", "double", "float2", "double2" */
/* "single precision", "complex double precision", ...: the comment line of a saved vector */
const char *spmv_prec_words(int single, int complex_);

/* n values re[k] (+ i im[k]) as the device stores them in precision p: n
 * floats or doubles, or n interleaved pairs. im may be NULL (a real matrix in
 * a complex precision: imaginary parts zero); for a real p, im is ignored (the
 * caller refuses complex matrices there). Returns NULL with *err filled. Its
 * time is the run's buffers phase (run NULL: not timed). */
void *spmv_prec_pack(struct spmv_run *run, const double *re, const double *im, size_t n, char p, spmv_error *err);

/* The same, made from the matrix's own arrays where it can be, so the host
 * never holds the values twice: float and complex float are written in place
 * over A->re (the part no longer needed goes back to the system), double is
 * A->re itself; only complex double needs a new array. A->re and A->im are
 * taken (NULL afterwards; the caller frees the result). The values are the
 * same, bit for bit, as spmv_prec_pack's. */
void *spmv_prec_take(struct spmv_run *run, csr_matrix *A, char p, spmv_error *err);

/* count doubles (already interleaved if complex) as floats or doubles. */
void *spmv_prec_pack_doubles(const double *v, size_t count, int single, spmv_error *err);

#endif
