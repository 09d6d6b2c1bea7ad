/* status.h - how every binary of the course ends: its exit statuses, and
 * spmv_die for a user's mistake (one line naming the cause, then exit). No
 * OpenCL here: step 0, the readers and the loader use it without a device.
 */
#ifndef SPMV_STATUS_H
#define SPMV_STATUS_H

/* Exit statuses shared by every binary. Out of host or device memory is
 * SPMV_EXIT_RESOURCES, the same 2 as a bad input: the user's fix is the same
 * kind (a smaller matrix, another device). SPMV_EXIT_MAXITER: a solver
 * (chapters 7 and 8) stopped at --maxiter before --tol. */
enum { SPMV_EXIT_PASS = 0, SPMV_EXIT_FAIL = 1, SPMV_EXIT_USAGE = 2, SPMV_EXIT_RESOURCES = 2, SPMV_EXIT_SKIP = 3,
       SPMV_EXIT_MAXITER = 4 };

/* The program's name in its messages ("step1"): the last part of the path it
 * was started by, as argv[0] names a process (glibc's
 * program_invocation_short_name; nothing is kept here). */
const char *spmv_prog_name(void);

/* "step1: error: MSG" on stderr, one line, then exit(status). */
void spmv_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
