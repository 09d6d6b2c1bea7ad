/* stopwatch.h - where the host's time goes before the first kernel run.
 *
 * Every phase of the setup adds its wall time here (the device, the matrix,
 * x, the reference, the buffers, the program build); the report prints them
 * beside the kernel's time, so a run whose host side takes seconds around a
 * kernel of milliseconds says so. */
#ifndef SPMV_STOPWATCH_H
#define SPMV_STOPWATCH_H

enum spmv_phase { SPMV_PH_DEVICE, SPMV_PH_MATRIX, SPMV_PH_X, SPMV_PH_REFERENCE, SPMV_PH_BUFFERS, SPMV_PH_BUILD,
                  SPMV_PH_COUNT };

double spmv_now(void);                          /* seconds, monotonic */
void spmv_phase_add(enum spmv_phase p, double seconds);
/* The setup so far: the sum of the phases, and each phase (may be NULL). */
double spmv_setup_seconds(double phases[SPMV_PH_COUNT]);
/* "1.23 s (device 0.21, matrix 0.80, ...)": the phases that took 5 ms or more. */
void spmv_setup_text(char *buf, int size);

#endif
