/* results.h - where the result lines go.
 *
 * The result lines of a run (the check's verdict, time, speed, bounds, a
 * skip) are written to spmv_results(run); everything else a step prints goes
 * to stdout. Normally both are the terminal. With --quiet, stdout is sent to
 * /dev/null and the run (run.h) keeps the real standard output for its
 * results, so any line a step or common/ prints is dropped unless it is
 * written there as a result. Errors go to stderr either way. */
#ifndef SPMV_RESULTS_H
#define SPMV_RESULTS_H

#include <stdio.h>

struct spmv_run;   /* run.h: the run whose results they are */

/* The run's result stream: stdout, or the standard output kept by --quiet
 * (run NULL: stdout). */
FILE *spmv_results(const struct spmv_run *run);
/* From now on only the run's result lines reach standard output (--quiet). */
void spmv_quiet(struct spmv_run *run);

#endif
