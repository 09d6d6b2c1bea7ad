/* profile/profile.h - chapter 8's split of an iteration: in the profiled
 * loop every part is waited for and timed alone (one call where it ends:
 * profile_part, or profile_kernel for a kernel); what is left of the loop
 * goes to the host's part, so the parts tile it. The report takes the
 * slowest rank's (profile_gather). Also the host's clock every time of the
 * chapter reads. */
#ifndef STEP8_PROFILE_H
#define STEP8_PROFILE_H

#include "spmv.h"

/* the parts of an iteration, each timed alone in the profiled loop; P_HOST:
 * the rest of the loop on the host's clock (the time from one part's end to
 * the next one's start: launches, arguments, the host's arithmetic; and of
 * a kernel's time from its launch to the host seeing it done, what the
 * device's clock did not count), so the parts but P_PRODUCT (a share of
 * P_KERNELS) tile the loop */
enum { P_KERNELS, P_HALO_READ, P_HALO_MPI, P_HALO_WRITE, P_RED_READ, P_RED_MPI, P_HOST, P_PRODUCT, P_COUNT };

/* One rank's profiled loop, as it runs */
typedef struct {
    int on;                   /* the profiled loop: every part waited for and timed */
    double part_ms[P_COUNT];
    double start, mark;       /* where the loop began, and the last part ended, on the host's clock */
} cg_parts;

/* The profiled loop as reported: the slowest rank's, an iteration */
typedef struct {
    double part[P_COUNT], ms;   /* each part, and the whole loop */
    int iterations, rank;
} cg_prof;

/* The host's clock, ms (MPI_Wtime) */
double now_ms(void);

/* The profiled loop begins (its parts at 0), and ends: the queue finished,
 * the rest since the last part the host's; returns the loop's time. */
void profile_begin(cg_parts *p);
double profile_end(cg_parts *p, cl_command_queue queue);

/* In the profiled loop (nothing otherwise): a part that began at t0 (the
 * host's clock) ends, ev (if not NULL) waited for first; a kernel launched
 * at t0 ends, its event waited for and its time on the device's clock the
 * kernels' part (product: the product's share too). */
void profile_part(cg_parts *p, int part, double t0, cl_event ev);
void profile_kernel(cg_parts *p, int product, double t0, cl_event ev);

/* The parts of the profiled loop, per iteration, of the rank whose loop
 * took longest (every rank calls it): one rank's parts tile its loop (the
 * largest of each part over the ranks would not: one rank's wait in MPI is
 * another's kernels) */
cg_prof profile_gather(const cg_parts *p, int rank, int iterations, double total_ms);

#endif
