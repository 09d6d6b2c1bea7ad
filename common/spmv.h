/* spmv.h - everything a step includes: common/'s modules, in the order the
 * numbered sections of every main.c call them.
 *   1  options.h    the one command line, and the run it starts (run.h:
 *                   what the run keeps, the caller's); clutil.h: the device
 *   2  load.h       the matrix and x, read or generated, and --info,
 *                   --save-matrix, --save-x; check.h: the reference y
 *   3  clutil.h     device buffers
 *   4  clutil.h     the program and the kernel (the arguments are OpenCL's own)
 *   5  clutil.h     the work sizes checked against the device
 *   6  check.h      the check of the first run (the launch and the read-back
 *                   are OpenCL's own); measure_cl.h: the timed runs
 *   7  report.h     the check's verdict, --save-y, the result lines, the CSV row
 *   8  clutil.h     release
 * Below them: matrix.h (the formats in memory and the conversions), roofline.h
 * (the FLOP and byte formulas), stopwatch.h (the setup's time by phase);
 * formats/ (the files read and written) serves load.c and report.c, and no
 * step includes it. */
#ifndef SPMV_H
#define SPMV_H
#include "options.h"
#include "run.h"
#include "clutil.h"
#include "load.h"
#include "check.h"
#include "measure.h"
#include "measure_cl.h"
#include "report.h"
#include "matrix.h"
#include "roofline.h"
#include "stopwatch.h"
#endif
