/* spmv.h - everything a step includes: the formats, the OpenCL plumbing, the
 * command line, the reference and checker, timing and roofline. */
#ifndef SPMV_H
#define SPMV_H
#include "bench.h"
#include "check.h"
#include "clutil.h"
#include "matrix.h"
#include "options.h"
#endif
