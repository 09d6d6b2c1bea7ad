/* results.h - where the result lines go.
 *
 * The result lines of a run (the check's verdict, time, speed, bounds, a
 * skip) are written to spmv_results(); everything else a step prints goes to
 * stdout. Normally both are the terminal. With --quiet, stdout is sent to
 * /dev/null and spmv_results() keeps the real standard output, so any line a
 * step or common/ prints is dropped unless it is written here as a result.
 * Errors go to stderr either way. */
#ifndef SPMV_RESULTS_H
#define SPMV_RESULTS_H

#include <stdio.h>

FILE *spmv_results(void);
/* From now on only result lines reach standard output (--quiet). */
void spmv_quiet(void);

#endif
