/* roofline.h - the FLOP and byte formulas, here and nowhere else:
 *   FLOPs                 2 per true nonzero (a multiply and an add); a complex
 *                         nonzero (step6, precisions c and z) counts 8 real
 *                         FLOPs: 4 multiplies and 2 adds for the product, 2 adds
 *                         to accumulate it
 *   model bytes (DIA)     the article's B bytes per 2 FLOPs for every stored
 *                         diagonal entry the kernel walks: B * ndiag * rows
 *   compulsory bytes      every input byte read once, y written once
 *   bound (GFLOP/s)       FLOPs / (bytes / measured bandwidth)
 */
#ifndef SPMV_ROOFLINE_H
#define SPMV_ROOFLINE_H

#include "matrix.h"

/* Bytes every DIA step must move at least: all stored diagonals (ndiag * rows
 * values), the offsets, x and y. */
double dia_compulsory_bytes(const dia_matrix *A);
/* The article's model: model_bytes per stored entry walked. */
double dia_model_bytes(const dia_matrix *A, int bytes_per_2flops);
/* CSR: values + column indices, row pointers, x, y. value_size 4, 8, 8 or 16. */
double csr_compulsory_bytes(const csr_matrix *A, int value_size);
/* CSR FLOPs: 2 per nonzero, 8 per nonzero in a complex precision (see above). */
double csr_flops(const csr_matrix *A, int complex_);
double spmv_bound_gflops(double flops, double bytes, double bw_gbs);

#endif
