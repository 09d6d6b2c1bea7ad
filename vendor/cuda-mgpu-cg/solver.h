/* vendor/cuda-mgpu-cg/solver.h - the C side's view of solver.cu: one GPU's
 * part of the solve (its rows, its vectors, where the other GPUs' r and b
 * are, where the dots are sent and received), the launch of its persistent
 * cooperative kernel, and what the kernel leaves behind.
 *
 * Every GPU g owns the global rows [row0, row0 + nloc). Its A rows keep
 * their global column indices; p has all n entries, of which the kernel
 * writes the GPU's own rows and its ghosts (the other GPUs' rows its rows
 * read) and no others. x, r, q and b have nloc entries. The pointers are
 * device pointers (the mailboxes may be host memory, mapped).
 *
 * The dots are added in three steps: each block's threads (warp shuffles,
 * then the block's warps), the blocks of a GPU (after grid.sync(), one warp
 * of block 0 in a fixed order: lane j adds blocks j, j + 32 ..., then the
 * warp's shuffle tree), the GPUs (block 0's first thread, the
 * GPU's "leader", writes its sum to every mailbox in `to`, then reads each
 * GPU's sum from `mine` in GPU order and hands the total to its own blocks
 * through `state`). Every GPU adds the same numbers in the same order, so
 * every GPU takes the same decisions (stop, breakdown) and nothing else is
 * exchanged. */
#ifndef MGPU_SOLVER_H
#define MGPU_SOLVER_H

#include <cuda_runtime_api.h>

#define MGPU_MAX 16          /* GPUs in one solve */
#define MGPU_BLOCK 256       /* threads a block */

/* A GPU's mailbox: flag[h] is the last reduction (numbered from 1 in each
 * solve) whose sum GPU h has written, val[e & 1][h] the sum of reduction e
 * (two slots: h may write reduction e + 1 before a slow reader has read e,
 * never e + 2, which needs that reader's e + 1). Zeroed before each solve. */
typedef struct {
    unsigned flag[MGPU_MAX];
    double val[2][MGPU_MAX];
} mgpu_mbox;

/* A GPU's own state, in its memory: the leader's handing-on of each total
 * (flag, result), then what the solve ended with. Zeroed before each solve. */
enum { MGPU_RUNNING, MGPU_CONVERGED, MGPU_MAXITER, MGPU_BREAKDOWN, MGPU_HUNG };
typedef struct {
    unsigned flag;           /* the last reduction whose total is in result */
    int iterations, end;     /* MGPU_* */
    int hung_at;             /* MGPU_HUNG: the reduction a wait gave up on */
    double result;
    double rr, pq;           /* r.r at the end; the breakdown's p.Ap */
} mgpu_state;

typedef struct {
    int g, ngpu;             /* this GPU, of ngpu */
    int n, row0, nloc;       /* the matrix's rows; this GPU's */
    int single, lanes;       /* float (else double); threads a row in the product: 1, 2, 4, 8, 16, 32 */
    const int *ptr, *col;    /* nloc + 1 row pointers from 0, global columns */
    const void *val, *b;
    void *x, *r, *q, *p;     /* p: n entries, the others nloc */
    void *partial;           /* one value a block */
    int nghost;
    const int *ghost;        /* the ghosts' global indices, ascending */
    const void *r_of[MGPU_MAX], *b_of[MGPU_MAX], *x_of[MGPU_MAX];   /* each GPU's r, b and x: peer memory */
    int row0_of[MGPU_MAX + 1];                     /* each GPU's first row; row0_of[ngpu] = n */
    mgpu_mbox *to[MGPU_MAX]; /* where the leader writes its sums: every GPU's mailbox, or one in host memory */
    int nto;
    mgpu_mbox *mine;         /* where it reads them */
    mgpu_state *state;
    double stop;             /* stop when sqrt(r.r) <= stop; < 0: never (the warm-up) */
    int maxiter;
    int restart;             /* 0: from x = 0; 1: from the x the last launch left, r = b - A x, p = r */
    double wait_s;           /* a wait for another GPU longer than this gives up (MGPU_HUNG) */
} mgpu_part;

#ifdef __cplusplus
extern "C" {
#endif

/* The blocks of one GPU's grid (the current device's): as many as fit on it
 * at once (a cooperative launch needs them all resident), cap_per_sm a
 * multiprocessor at most (0: no cap), no more than the rows need; *per_sm
 * gets the blocks a multiprocessor. -1 on an error (cudaGetLastError). */
int mgpu_grid_blocks(int single, int lanes, int nloc, int cap_per_sm, int *per_sm);

/* Launch the part's kernel on the current device, on stream s (returns at
 * once: the kernels of all GPUs must be running together). */
cudaError_t mgpu_launch(const mgpu_part *part, int blocks, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
