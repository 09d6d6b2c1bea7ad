/* device/device.h - chapter 7's solve on its one device: its kernels, their
 * work sizes and buffers (cg_dev), each version's program and the kernels'
 * arguments; what one solve did (cg_run). main.c's solves enqueue the
 * commands; everything they enqueue is set up here. */
#ifndef STEP7_DEVICE_H
#define STEP7_DEVICE_H

#include "../profile/profile.h"
#include "../reference/system.h"
#include "spmv.h"

enum { K_SPMV, K_DOT, K_RESTART, K_AXPY_X, K_AXPY_R, K_XPAY, K_ALPHA, K_UPD_R, K_UPD_XP, K_PIPE_A, K_PIPE_B,
       K_PERSIST, K_COUNT };

/* One version's solve on the device: its kernels, sizes and buffers, and
 * the events of the loop the split records (profile/profile.h). */
typedef struct {
    spmv_cl *cl;
    int fused, pipelined, n, vsize, single;   /* fused: the device runs the loop (fused and pipelined) */
    int last_group;         /* pipelined on NVIDIA: the product adds up its own pairs (kernel.cl, CG_LAST_GROUP) */
    cl_kernel k[K_COUNT];
    size_t global[K_COUNT], local[K_COUNT];
    cl_mem ptr, col, val, b, x, r, p, q, part, part2, scal, state;   /* part2: pipelined's other r.r partials */
    int persist;            /* (TUNING.md, CG_PERSIST) pipelined in one launch a block, a grid barrier between halves */
    cl_mem pers, bar;       /* its pairs and r.r partials; its barrier's count, generation and failure */
    int ng, npq;            /* partials: the vector kernels' work-groups, the product's */
    size_t spmv_scratch, alpha_local;
    double bb;              /* b.b in double, on the host */
    const void *bhost;      /* b as the device stores it */
    cg_profile profile;
} cg_dev;

/* pipelined on NVIDIA: the blocks of 256 work-groups (kernel.cl's CG_BLOCK)
 * whose pairs are added up first */
#define CG_PAIR_BLOCKS(npq) (((npq) + 255) / 256)

/* A version's name, launches and sweeps an iteration */
#define CG_VERSION_NAME(d) ((d)->pipelined ? "pipelined" : (d)->fused ? "fused" : "plain")
#define CG_LAUNCHES(d) ((d)->pipelined ? 2 : (d)->fused ? 4 : 6)
#define CG_SWEEPS(d) ((d)->pipelined ? 9 : (d)->fused ? 10 : 14)

/* What one solve did */
typedef struct {
    int iterations, launched, end;   /* end: CG_CONVERGED, CG_MAXITER, CG_BREAKDOWN */
    double rr, pq;                   /* r.r at the end; p.Ap of a breakdown */
    double *block_ms;                /* wall time per iteration of each block between host reads */
    int nblocks, capblocks;          /* past capblocks, blocks go untimed (the loop's total still counts them) */
    double total_ms;
    double *hist;                    /* --history (plain): (iteration, |r|/|b|) before each, or NULL */
    int nhist, caphist;
    /* the split's rounds (solve in main.c): how many, the profiled ones' span on the device's clock and
     * the loop without events on the host's, each an iteration: the median, the least and the most */
    int rounds;
    double dev_ms[3], bare_ms[3];
} cg_run;

/* The work sizes: the product's a row per work-item (a group per row,
 * vector), the vector kernels a few work-groups per compute unit, striding
 * (device/sizes.h); said on the "spmv" lines. */
void device_sizes(cg_dev *d, const spmv_options *o, int vector, int group, int unroll, int gpu);

/* The buffers: the matrix as chapter 6 stores it, b, CG's x, r, p, q (with
 * the product's partials of p.q after q's n rows), the vector kernels'
 * partials, the fused version's scalars and state. Returns a host buffer
 * to read them back into (n values, or the partials and 3 if more). */
void *device_buffers(cg_dev *d, const cg_system *s);

/* A version's program: this step's kernel.cl (--kernel-file), then chapter
 * 6's, -DCG_FUSED for the fused one (the hook in chapter 6's kernels); its
 * kernels into d->k, cg_alpha's one work-group sized, every argument set
 * that stays for the solve. */
cl_program device_program(cg_dev *d, const spmv_options *o, char p, int vector, int group, int unroll, int gpu);

/* The "cg" line: what an iteration of this version launches and reads */
void device_describe(const cg_dev *d, int k, int k_set);

/* Release a version's program and kernels; then, at the end, the buffers */
void device_release_program(cg_dev *d, cl_program prog);
void device_release(cg_dev *d);

#endif
