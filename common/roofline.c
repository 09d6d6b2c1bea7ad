/* roofline.c - FLOPs, bytes and bounds; see roofline.h for the formulas. */
#include "roofline.h"

double dia_compulsory_bytes(const dia_matrix *A)
{
    return 4.0 * ((double)A->ndiag * A->rows + A->ndiag + A->cols + A->rows);
}

double dia_model_bytes(const dia_matrix *A, int bytes_per_2flops)
{
    return (double)bytes_per_2flops * A->ndiag * (double)A->rows;
}

double csr_compulsory_bytes(const csr_matrix *A, int value_size)
{
    return (double)A->nnz * (value_size + 4) + 4.0 * (A->rows + 1) + (double)value_size * (A->cols + A->rows);
}

double csr_flops(const csr_matrix *A, int complex_)
{
    return (complex_ ? 8.0 : 2.0) * (double)A->nnz;
}

double spmv_bound_gflops(double flops, double bytes, double bw_gbs)
{
    return bytes > 0 ? flops / (bytes / (bw_gbs * 1e9)) / 1e9 : 0.0;
}
