/* split/rows.h - chapter 8's blocks of rows: of n rows split P ways, rank q
 * owns the global rows [row0, row0 + nloc), n / P each, the first n mod P
 * one more. No MPI here: the CUDA yardstick (vendor/cuda-mgpu-cg) hands its
 * GPUs the same blocks. */
#ifndef STEP8_ROWS_H
#define STEP8_ROWS_H

/* Rows [row0, row0 + nloc) of n for rank of size. */
static inline void split_rows(int n, int size, int rank, int *row0, int *nloc)
{
    int base = n / size, rem = n % size;
    *row0 = rank * base + (rank < rem ? rank : rem);
    *nloc = base + (rank < rem);
}

#endif
