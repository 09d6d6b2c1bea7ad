/* status.h - how every binary of the course ends: its exit statuses, and
 * spmv_die for a user's mistake (one line naming the cause, then exit). No
 * OpenCL here: step 0, the readers and the loader use it without a device.
 */
#ifndef SPMV_STATUS_H
#define SPMV_STATUS_H

/* Exit statuses shared by every binary. */
enum { SPMV_EXIT_PASS = 0, SPMV_EXIT_FAIL = 1, SPMV_EXIT_USAGE = 2, SPMV_EXIT_SKIP = 3 };

/* The program's name in messages and in the comments of the files it saves
 * ("step1"): named once, by the option parser, as argv[0] names a process;
 * "spmv" until then. */
void spmv_set_prog(const char *name);
const char *spmv_prog_name(void);

/* "step1: error: MSG" on stderr, one line, then exit(status). */
void spmv_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
