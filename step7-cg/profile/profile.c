/* profile/profile.c - chapter 7's split of an iteration: profile/profile.h */
#include "profile.h"

#include <string.h>

/* The split: each finished command's time goes to its kind, and the time
 * between its start and the end of the command before it (the device idle:
 * a launch on its way, the host waiting or deciding) to the gaps. The parts
 * add up to the loop's span on the device's clock, from the first command's
 * start to the last one's end. A negative gap (two commands' times overlap)
 * is kept as it is, and its size noted. Reading the events while the loop
 * runs would put the host's reads into the loop: they wait for its end. */
static void drain(cg_profile *p)
{
    int i = 0;
    for (; i < p->npend; i++) {
        CL_CHECK(clWaitForEvents(1, &p->pend[i]));
        cl_ulong t0, t1;
        CL_CHECK(clGetEventProfilingInfo(p->pend[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
        CL_CHECK(clGetEventProfilingInfo(p->pend[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
        p->split.part_ms[p->pkind[i]] += (double)(t1 - t0) * 1e-6;
        if (p->have_last) {
            double gap = ((double)t0 - (double)p->last_end) * 1e-6;
            p->split.gaps_ms += gap;
            if (gap < 0)
                p->split.overlap_ms -= gap;
        }
        p->last_end = t1, p->have_last = 1;
        clReleaseEvent(p->pend[i]);
    }
    p->npend = 0;
}

cl_event *profile_event(cg_profile *p, int kind)
{
    if (!p->rec)
        return NULL;
    if (p->npend == PROFILE_PENDING)
        drain(p);
    p->pkind[p->npend] = kind;
    return &p->pend[p->npend++];
}

void profile_record(cg_profile *p, int on)
{
    if (!on)
        drain(p);
    else
        memset(&p->split, 0, sizeof p->split);
    p->rec = on, p->have_last = 0;
}

double profile_span(const cg_split *s)
{
    return s->part_ms[C_PRODUCT] + s->part_ms[C_VECTOR] + s->part_ms[C_READ] + s->gaps_ms;
}

int profile_median(const double *v, int n, double out[3])
{
    int order[16], m = n < 16 ? n : 16;
    for (int i = 0; i < m; i++) {
        int j = i;
        for (; j > 0 && v[order[j - 1]] > v[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    out[0] = v[order[(m - 1) / 2]], out[1] = v[order[0]], out[2] = v[order[m - 1]];
    return order[(m - 1) / 2];
}
