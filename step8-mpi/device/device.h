/* device/device.h - one rank's solve on its device: the kernels, their work
 * sizes, buffers and arguments (dv), the one program; what one solve did
 * (cg_run); the vectors written and read from the host. main.c's solves
 * enqueue the commands; everything they enqueue is set up here. */
#ifndef STEP8_DEVICE_H
#define STEP8_DEVICE_H

#include "../profile/profile.h"
#include "../split/split.h"
#include "spmv.h"

#include <mpi.h>

enum { K_SPMV, K_PACK, K_UNPACK, K_SUMS, K_DOT, K_RESTART, K_UPD_R, K_UPD_XP, K_UPD_ALL, K_COUNT };

/* One rank's solve on its device */
typedef struct {
    spmv_cl *cl;
    mpi_split *m;
    int single, vsize, one;   /* one: the single-reduction version */
    int gpu;                  /* a GPU: the host spins on its events (device_wait) */
    MPI_Datatype vt;
    cl_kernel k[K_COUNT];
    size_t global[K_COUNT], local[K_COUNT];
    int ni;                   /* the interior launch's rows: a whole number of the product's work-groups */
    size_t lanes, spmv_local; /* the product's work-items a row, work-group */
    cl_mem ptr, col, val, b, x, r, p, q, s, w, part, idx, sendb, ghostb, sums;
    int ng, npq;              /* shares: the vector kernels' work-groups, the product's */
    cl_command_queue xq;      /* the halo's copies, beside the kernels' queue */
    cl_mem pin[3];            /* pinned host memory: the halo sent, received, the sums */
    void *sendh, *ghosth, *sumsh, *tmp;
    cg_parts parts;           /* the profiled loop's (profile/profile.h) */
} dv;

/* What one solve did */
typedef struct {
    int iterations, end;      /* CG_CONVERGED, CG_MAXITER, CG_BREAKDOWN */
    double rr, pq;            /* r.r; the breakdown's p.Ap */
    double alpha, beta;       /* single: the state carried between iterations */
    double *it_ms;            /* rank 0's wall time of each iteration */
    int nit, capit;
    double total_ms;
} cg_run;

/* Work sizes: the product's a row per work-item (a group per row, vector),
 * its interior launch rounded down to whole work-groups; the vector kernels
 * a few work-groups per compute unit (step7-cg/device/sizes.h); the halo's
 * kernels no more than their entries; d8_sums one work-group */
void device_sizes(dv *d, const spmv_options *o, int vector, int group, int gpu);

/* The buffers: this rank's rows of A, b, the vectors (those the product
 * reads with room for their ghosts), the halo's and the sums' (pinned host
 * memory beside them), the read-back buffer; the halo's queue */
void device_buffers(dv *d);

/* One program from step 7's kernel.cl, this step's (--kernel-file) and
 * chapter 6's, the rank's rows and shares as -D; its kernels into d->k,
 * d8_sums' one work-group sized, every argument set that stays */
cl_program device_program(dv *d, const spmv_options *o, char p, int vector, int group, int unroll, int gpu);

/* A kernel over [offset, offset + global), after the event `after` (NULL:
 * none) and giving its own in `done` (NULL: none); in the profiled loop
 * waited for, its time (the device's clock) added to the kernels' part */
void device_launch(dv *d, int i, size_t offset, size_t global, cl_event after, cl_event *done);

/* Wait for ev: on a GPU spinning on its status, on a CPU blocking (device.c
 * says why); exits if the command failed */
void device_wait(const dv *d, cl_event ev);

/* A vector from the host: its nloc own entries from src (NULL: zeros), its
 * ghosts zero where it has room for them (ghosts: x, r, p) */
void device_write(dv *d, cl_mem buf, const void *src, int ghosts);

/* x back from the device, in double, local order */
void device_read_x(dv *d, double *x);

/* Everything device_buffers and device_program made */
void device_release(dv *d, cl_program prog);

#endif
