/* spmv.h - everything a step includes: common/'s modules, in the order the
 * numbered sections of every main.c call them.
 *   1. options.h     the one command line          clutil.h   the device
 *   2. load.h        the matrix and x, read or generated; --info, --save-matrix,
 *                    --save-x                      check.h    the reference y
 *   3-5. clutil.h    buffers, program, kernel, work-group sizes
 *   6. check.h       the check of the first run    measure.h  the timed runs
 *   7. report.h      the verdict, --save-y, the result lines, the CSV row
 *   8. clutil.h      release
 * Below them: matrix.h (the formats in memory and the conversions), roofline.h
 * (the FLOP and byte formulas), stopwatch.h (the setup's time by phase), and
 * formats/ (the files read and written), which no step includes. */
#ifndef SPMV_H
#define SPMV_H
#include "options.h"
#include "clutil.h"
#include "load.h"
#include "check.h"
#include "measure.h"
#include "report.h"
#include "matrix.h"
#include "roofline.h"
#include "stopwatch.h"
#endif
