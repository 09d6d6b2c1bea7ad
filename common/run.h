/* run.h - what one run of a step keeps while it runs, in a struct its main.c
 * owns: common/ keeps no state of its own.
 *
 *     spmv_run run;
 *     spmv_options o;
 *     spmv_parse(argc, argv, &STEP, &o, &run);   fills both
 *
 * and the calls that print a result line, time a phase of the setup or name
 * the step in a saved file are handed &run (spmv_cl_open keeps it in the
 * spmv_cl, for the device's phases). NULL where a caller keeps no run (the
 * unit tests, the tools): results on stdout, nothing timed.
 */
#ifndef SPMV_RUN_H
#define SPMV_RUN_H

#include "stopwatch.h"

#include <stdio.h>

struct spmv_step;   /* options.h */

typedef struct spmv_run {
    const char *name;              /* the step's ("step1"): the comment of every file the run saves */
    const struct spmv_step *step;  /* the step (options.h): the loader reads what it holds (capacity.h) */
    FILE *results;                 /* where the result lines go (results.h); NULL: stdout */
    double spent[SPMV_PH_COUNT];   /* the host's setup so far, seconds by phase (stopwatch.h) */
} spmv_run;

#endif
