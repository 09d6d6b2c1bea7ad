/* step4-vector/cpu/host.h - the host side of `--kernel cpu` (host.c). */
#ifndef STEP4_CPU_HOST_H
#define STEP4_CPU_HOST_H

#include "spmv.h"

/* The whole run of dia_spmv_cpu (cpu/kernel.cl) after ../main.c has parsed
 * the options: device, matrix, buffers, launch, check, time, report. Returns
 * the exit status. */
int step4_cpu(spmv_run *run, const spmv_step *step, const spmv_options *o);

#endif
