/* reference/system.h - the system a CG solve of the course starts from: A
 * (read or generated, square, real and symmetric, or refused with one line)
 * in the solve's precision, with a double copy of its values for the host's
 * checks, and b (--b FILE, or seeded random). Chapter 7 reads it on its one
 * device; chapter 8's rank 0 reads it and hands each rank its rows. */
#ifndef SPMV_CG_SYSTEM_H
#define SPMV_CG_SYSTEM_H

#include "../../step6-csr/choice/csrchoice.h"
#include "cg.h"
#include "spmv.h"

typedef struct {
    csr_matrix A;     /* its values (A.re): the host's double copy */
    char p;           /* 's' or 'd' */
    int single, vsize, n;
    double *b, bb, tol;   /* b in double (rounded to float for s), b.b, --tol or the precision's default */
    void *val, *bd;   /* A's values and b as the device stores them */
    double *ah;       /* A's values in double, for the host */
    spmv_row_stats st;
} cg_system;

/* Read, check and print the system (a "matrix" line); --save-matrix and
 * --save-b. Exits 2 on a bad or non-symmetric matrix, 3 (skipped) for d on
 * a device without cl_khr_fp64; messages name step->name. */
void spmv_cg_read_system(spmv_options *o, const spmv_cl *cl, const spmv_step *step, cg_system *s);

/* The host's CG in double (reference/cg.c) on the system, from x = 0, into
 * xh: the iteration count a device's solve must match. Within a budget of
 * nonzeros x iterations <= 4e9 (a few seconds); past it, or at --tol 0
 * (fixed), there is no count to compare (host->end is not CG_CONVERGED), and
 * the "host CG" line says so. Exits 2 out of memory. */
void spmv_cg_host_count(const cg_system *s, int fixed, int maxiter, double *xh, spmv_cg_result *host);

#endif
