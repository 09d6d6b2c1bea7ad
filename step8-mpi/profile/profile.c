/* profile/profile.c - chapter 8's split of an iteration: profile/profile.h */
#include "profile.h"

#include <mpi.h>
#include <string.h>

double now_ms(void)
{
    return MPI_Wtime() * 1e3;
}

/* A part that began at t0 (the host's clock) is done, ms of it the part's
 * own; the time since the last part ended, and the rest of [t0, now] (a
 * kernel's launch and the host's wait around the device's time), go to the
 * host's part */
static void part_done(cg_parts *p, int part, double t0, double ms)
{
    double t = now_ms();
    p->part_ms[P_HOST] += (t0 - p->mark) + (t - t0 - ms);
    p->part_ms[part] += ms;
    p->mark = t;
}

void profile_begin(cg_parts *p)
{
    memset(p->part_ms, 0, sizeof p->part_ms);
    p->on = 1;
    p->start = p->mark = now_ms();
}

double profile_end(cg_parts *p, cl_command_queue queue)
{
    CL_CHECK(clFinish(queue));
    double t1 = now_ms();
    p->part_ms[P_HOST] += t1 - p->mark;   /* the loop's end: its last host arithmetic, the queue finished */
    p->on = 0;
    return t1 - p->start;
}

void profile_part(cg_parts *p, int part, double t0, cl_event ev)
{
    if (!p->on)
        return;
    if (ev)
        CL_CHECK(clWaitForEvents(1, &ev));
    part_done(p, part, t0, now_ms() - t0);
}

void profile_kernel(cg_parts *p, int product, double t0, cl_event ev)
{
    if (!p->on)
        return;
    CL_CHECK(clWaitForEvents(1, &ev));
    double ms = spmv_event_ms(ev);
    part_done(p, P_KERNELS, t0, ms);
    if (product)
        p->part_ms[P_PRODUCT] += ms;   /* the product's share of the kernels */
}

cg_prof profile_gather(const cg_parts *p, int rank, int iterations, double total_ms)
{
    int it = iterations > 0 ? iterations : 1;
    double mine[P_COUNT + 1];
    for (int i = 0; i < P_COUNT; i++)
        mine[i] = p->part_ms[i] / it;
    mine[P_COUNT] = total_ms / it;
    struct { double ms; int rank; } me = { mine[P_COUNT], rank }, slowest;
    MPI_Allreduce(&me, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Bcast(mine, P_COUNT + 1, MPI_DOUBLE, slowest.rank, MPI_COMM_WORLD);
    cg_prof v = { .ms = mine[P_COUNT], .iterations = iterations, .rank = slowest.rank };
    memcpy(v.part, mine, sizeof v.part);
    return v;
}
