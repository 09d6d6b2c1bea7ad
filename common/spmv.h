/* spmv.h - everything a step includes: the formats, the OpenCL plumbing, the
 * command line, the reference and checker, timing and roofline, and the
 * Matrix Market files through which outside tools check a run (io.h). */
#ifndef SPMV_H
#define SPMV_H
#include "bench.h"
#include "check.h"
#include "clutil.h"
#include "io.h"
#include "matrix.h"
#include "options.h"
#include "stopwatch.h"
#endif
