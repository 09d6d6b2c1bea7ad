/* device/ranks.h - each rank of chapter 8: its rank before MPI_Init, its
 * device (the nth that --device matches on its node), its rows of the
 * system rank 0 reads (split/split.h), and the line rank 0 prints for each. */
#ifndef STEP8_RANKS_H
#define STEP8_RANKS_H

#include "../../step7-cg/reference/system.h"
#include "../split/split.h"
#include "spmv.h"

/* What every rank needs of the system rank 0 read */
typedef struct {
    int n, ok;
    long long nnz;
    char p;
    double tol, bb;
    spmv_row_stats st;
} sys_info;

/* This process's rank as the launcher set it before MPI_Init (Open MPI,
 * PMIx, MPICH's PMI); 0 run alone */
int ranks_launcher_rank(void);

/* Each rank's device: the nth that --device matches, n its rank on this
 * node; rank 0 first (a refusal there stops the run before the others
 * look). PoCL's threads a rank: the cores mpirun left it (ranks.c). */
void ranks_open_device(spmv_run *run, const spmv_options *o, spmv_cl *cl, int rank, int *local_rank,
                       int *local_size);

/* Rank 0 reads the system (the others wait); more ranks than rows is
 * refused there; every rank gets its block of rows and builds its plan */
void ranks_read_and_split(const spmv_step *step, spmv_options *o, const spmv_cl *cl, cg_system *s, mpi_split *m,
                          sys_info *si);

/* Rank 0 prints each rank's device and share: rows, interior rows, ghosts,
 * and whether the entries it sends are one stretch (read as it is) */
void ranks_describe(const mpi_split *m, const spmv_cl *cl);

#endif
