/* split/split.h - chapter 8's split of a matrix over MPI ranks: each rank's
 * block of rows, its rows renumbered (interior first), the entries of the
 * other blocks it reads (its ghosts), and the plan that sends and receives
 * them each iteration.
 *
 *   rank q owns the global rows [row0, row0 + nloc): n / P each, the first
 *   n mod P ranks one more. Its local matrix has its rows in a new order:
 *   first the interior rows (every column in the block), then the boundary
 *   rows (at least one column in another block). Columns are local too:
 *   [0, nloc) the block's own entries in the same new order, [nloc, nloc +
 *   nghost) the ghosts, sorted by global index, so the ghosts of one owner
 *   are one stretch. A vector the product reads has nloc + nghost entries;
 *   every other vector nloc.
 *
 * The plan (split_localize): each rank tells every other which of its
 * entries it needs (MPI_Alltoall of counts, MPI_Alltoallv of the indices);
 * from then on an iteration moves values only: split_exchange. */
#ifndef STEP8_SPLIT_H
#define STEP8_SPLIT_H

#include "matrix.h"
#include "rows.h"

#include <mpi.h>

typedef struct {
    int rank, size;          /* this rank, of size */
    int n;                   /* the whole matrix's rows */
    int row0, nloc;          /* this rank's rows: global [row0, row0 + nloc) */
    int ninner;              /* local rows 0 .. ninner-1 read no ghost */
    int nghost;              /* entries of other blocks read, after the nloc own ones */
    int *perm;               /* local row i is global row row0 + perm[i] */
    csr_matrix A;            /* nloc rows, local columns (above); values in A.re, double, or NULL */
    void *val;               /* the values as the device stores them (float or double) */
    void *b;                 /* b's rows, in local order, as the device stores them */
    int vsize;               /* bytes of a value: 4 or 8 */
    /* the plan: ghosts come from nrecv ranks, entries go to nsend ranks */
    int nrecv, nsend;
    int *recv_rank, *recv_count, *recv_at;   /* ghosts [recv_at[k], + recv_count[k]) come from recv_rank[k] */
    int *send_rank, *send_count, *send_at;   /* send_idx[send_at[k] ..] (local rows) go to send_rank[k] */
    int *send_idx, send_total;
    int send_stretch;        /* >= 0: send_idx is send_stretch, + 1, ... in order, one stretch of a vector
                                (a grid split in rows: the boundary rows); -1: not */
    MPI_Request *req;        /* nrecv + nsend */
} mpi_split;

/* Rank 0 hands each rank its rows of A (CSR, global columns; values as the
 * device stores them, vsize bytes each) and of b; every rank fills m's
 * block and its local matrix with global columns. A and b are read on rank 0
 * only (NULL elsewhere). Exits 2 if this rank is out of memory. */
void split_scatter(const csr_matrix *A, const void *val, const void *b, int n, int vsize, mpi_split *m);

/* Renumber the rows and columns (interior rows first, ghosts after), and
 * build the plan with the other ranks. Prints nothing. */
void split_localize(mpi_split *m);

/* One exchange: the values of send_idx (packed in send, in its order) go
 * out, the ghosts come into ghost (nghost values). MPI_Irecv, MPI_Isend,
 * MPI_Waitall. */
void split_exchange(mpi_split *m, const void *send, void *ghost, MPI_Datatype type);

/* x (nloc values in local order, double) into the whole vector on rank 0
 * (n values, global order); xall is NULL on other ranks. */
void split_gather(const mpi_split *m, const double *x, double *xall);

void split_free(mpi_split *m);

#endif
