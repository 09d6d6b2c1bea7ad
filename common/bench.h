/* bench.h - timing, the bandwidth probe, the roofline, the result row, and
 * the matrix of a run; each in a file of its own:
 *   load.h       the matrix (a file or the grid) and x
 *   measure.h    timing, the bandwidth probe, the checked and timed run
 *   roofline.h   the FLOP and byte formulas, the bounds
 *   report.h     the result lines and the CSV row
 */
#ifndef SPMV_BENCH_H
#define SPMV_BENCH_H

#include "load.h"
#include "measure.h"
#include "report.h"
#include "roofline.h"

#endif
