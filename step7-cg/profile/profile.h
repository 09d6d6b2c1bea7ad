/* profile/profile.h - chapter 7's split of an iteration: while a loop is
 * recorded (solve's profiled iterations), every command the solve enqueues
 * gives its profiling event here (profile_event: the one hook, in main.c's
 * launch and read_back); read back in order once the loop has ended (or
 * PROFILE_PENDING are waiting), so that the parts add up. */
#ifndef STEP7_PROFILE_H
#define STEP7_PROFILE_H

#include "spmv.h"

#define PROFILE_PENDING 4096    /* commands whose events wait to be read at their end (K up to 511; past
                                 * that, drain reads them mid-loop, and the split holds the host's reads) */

enum { C_PRODUCT, C_VECTOR, C_READ };   /* what a command of the loop is, for the split */

/* A recorded loop's parts (device clock, summed over the loop) */
typedef struct {
    double part_ms[3], gaps_ms, overlap_ms;
} cg_split;

typedef struct {
    int rec, npend, have_last;
    cl_event pend[PROFILE_PENDING];
    int pkind[PROFILE_PENDING];
    cl_ulong last_end;
    cg_split split;
} cg_profile;

/* Where the event of a command about to be enqueued goes: NULL unless a
 * loop is recorded; kind is C_PRODUCT, C_VECTOR or C_READ. */
cl_event *profile_event(cg_profile *p, int kind);

/* The loop's commands are recorded from its first (on = 1: the parts set
 * to 0) to its last (on = 0: every event read back into the parts). */
void profile_record(cg_profile *p, int on);

/* The loop's span on the device's clock: its parts added up */
double profile_span(const cg_split *s);

/* Of n values (n >= 1, at most 16): the index of the median (the lower of
 * the two middle ones), and the median, the least and the most into out */
int profile_median(const double *v, int n, double out[3]);

#endif
