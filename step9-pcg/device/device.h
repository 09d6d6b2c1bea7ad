/* device/device.h - chapter 9's solve on its device: each version's
 * preconditioner set up on the host (the factor, its ordering and levels),
 * the buffers and the program, the kernels' arguments, and the schedule of
 * a triangular solve's launches. main.c's loops enqueue the commands;
 * everything they enqueue is set up here. */
#ifndef STEP9_DEVICE_H
#define STEP9_DEVICE_H

#include "../../step7-cg/reference/system.h"
#include "../factor/factor.h"
#include "spmv.h"

enum { K_SPMV, K_ALPHA, K_UPD_R, K_DOT, K_UPD_XP, K_START, K_LEVEL, K_CHAIN, K_SWEEP, K_SYNC, K_MARK, K_PERSIST,
       K_SERIAL, K_SERIAL_T, K_CSR_SERIAL, K_COUNT };
enum { PC_NONE, PC_JACOBI, PC_SOLVE };   /* what z = M^-1 r costs: nothing, a scaling, two triangular solves */
/* exact by levels, approximate by Jacobi sweeps, exact with each row waiting on the values it reads, the
 * whole loop in one work-item */
enum { FORM_LEVELS, FORM_SWEEPS, FORM_SYNCFREE, FORM_PERSISTENT };

/* A version of the chapter: its preconditioner, the rows' order, the solve's form */
typedef struct {
    const char *name;
    int pc, color, form;
    const char *what;
} pcg_version;

/* A run of levels a triangular solve launches as one: a chain (one
 * work-group, a barrier between levels) or a single wide level */
typedef struct {
    int lo, hi, chain;
} tri_seg;

/* ic0-persistent solves in natural order where L's rows average this many
 * entries or more, in L's level order elsewhere (device.c, persist_natural) */
#ifndef PERSIST_LONG_ROW
#define PERSIST_LONG_ROW 8
#endif
int persist_natural(const tri_matrix *T);

/* One triangular factor on the device, with its levels and their schedule */
typedef struct {
    int lower, nlev, widest, nseg, chains;
    cl_mem ptr, col, val, order, lev_ptr, done, ticket;   /* done, ticket: the sync-free solve's flags and counter */
    tri_seg *seg;
    tri_levels lv;   /* the host's */
} tri_dev;

/* One version's solve on the device */
typedef struct {
    spmv_cl *cl;
    const pcg_version *ver;
    int n, vsize, single, gpu, sweeps, wide;
    cl_program prog;
    cl_kernel k[K_COUNT];
    size_t global[K_COUNT], local[K_COUNT];
    int vector, group, unroll;   /* the product chapter 6's rule picks (chapter 7's device/sizes.h) */
    cl_mem ptr, col, val, b, x, r, p, q, z, y, t, dinv, rr_part, rz_part, scal, state, fail;
    int kappa;                   /* --kappa M: alpha and beta of the first M iterations kept (0: none) */
    int ng, npq, stamp, lanes;   /* lanes: the sync-free solve's work-items a row (1; -DSYNC_LANES 2 to 32) */   /* stamp: the sync-free solves so far (each raises its rows' flags to its own) */
    size_t spmv_scratch;
    /* the host's side of the preconditioner */
    ic_factor f;             /* PC_SOLVE: L and U = L^T in double */
    int *perm, ncolors;      /* color: the rows by color (perm[new] = old) */
    csr_matrix Ap;           /* color: P A P^T; else unused */
    const csr_matrix *A;     /* the matrix the device solves with: A or P A P^T */
    double *bh;              /* b in that order, in double */
    const void *bdev;        /* ...and as the device stores it */
    tri_dev L, U;
    double order_ms, factor_ms, levels_ms, sizes_ms, buffers_ms;   /* the setup's parts, each timed */
    cl_event *ev_first, *ev_last;   /* set: launch() keeps the first and the last command's events there */
    void *kept[10];          /* host arrays a CPU device's read-only buffers use in place: freed with them */
    int nkept;
} pcg_dev;

/* The host's part of the setup: Jacobi's 1 / a_ii, or the ordering, IC(0)
 * and its levels (factor/factor.h); prints what it made ("order", "factor",
 * "levels" lines). Exits 2 with one line where A has no incomplete factor. */
void device_precondition(pcg_dev *d, const cg_system *s);

/* The work sizes (the product by chapter 6's rule, as chapter 7 picks it;
 * the vector kernels; a chain's one work-group) and the triangular solves'
 * schedule: a level of at least d->wide rows its own launch, the narrower
 * ones between two such in one chain. Prints the "spmv" and "solve" lines. */
void device_sizes(pcg_dev *d, const spmv_options *o, const cg_system *s);

/* The buffers: the matrix, the factor and its levels as the device stores
 * them; b, x, r, p, q, z and the solves' y and t; the partials, scalars and
 * state. Returns a host buffer of n values (or the partials and 4, if more)
 * to read into. */
void *device_buffers(pcg_dev *d, const cg_system *s);

/* The program: chapter 7's kernel.cl (-DCG_FUSED), this chapter's
 * (--kernel-file), chapter 6's, with -DPC_NONE, -DPC_JACOBI or -DPC_SOLVE;
 * every argument that stays for the solve set. */
void device_program(pcg_dev *d, const spmv_options *o, const cg_system *s);

/* Whether the sync-free solve may run here: an NVIDIA GPU of compute
 * capability 7 (Volta) or later (its cl_nv_device_attribute_query), whose
 * warps' lanes waiting on each other are scheduled apart (kernel.cl) */
int device_sync_free_ok(const spmv_cl *cl, int gpu);

/* Release one version's kernels, program, buffers and host factor */
void device_release(pcg_dev *d);

#endif
