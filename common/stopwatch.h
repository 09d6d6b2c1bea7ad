/* stopwatch.h - where the host's time goes before the first kernel run.
 *
 * Every phase of the setup adds its wall time to the run's (run.h: the
 * device, the matrix, x, the reference, the buffers, the program build); the
 * report prints them beside the kernel's time, so a run whose host side takes
 * seconds around a kernel of milliseconds says so. */
#ifndef SPMV_STOPWATCH_H
#define SPMV_STOPWATCH_H

enum spmv_phase { SPMV_PH_DEVICE, SPMV_PH_MATRIX, SPMV_PH_X, SPMV_PH_REFERENCE, SPMV_PH_BUFFERS, SPMV_PH_BUILD,
                  SPMV_PH_COUNT };

struct spmv_run;   /* run.h: the run whose setup is timed */

double spmv_now(void);                          /* seconds, monotonic */
/* Add seconds to the run's phase p (run NULL: nothing is kept). */
void spmv_phase_add(struct spmv_run *run, enum spmv_phase p, double seconds);
/* The run's setup so far: the sum of the phases, and each phase (may be NULL). */
double spmv_setup_seconds(const struct spmv_run *run, double phases[SPMV_PH_COUNT]);
/* "1.23 s (device 0.21, matrix 0.80, ...)": the phases that took 5 ms or more. */
void spmv_setup_text(const struct spmv_run *run, char *buf, int size);

#endif
