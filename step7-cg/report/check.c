/* report/check.c - a CG solve's checks on the host: report/check.h */
#include "check.h"
#include "../reference/cg.h"
#include "status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int cg_check_meets(double truer, double tol, double bb, const char *why_not)
{
    int pass = truer <= tol || (bb == 0 && truer == 0);
    printf("check    the true residual %s the tolerance %.3g%s\n", pass ? "meets" : "misses", tol, pass ? "" : why_not);
    return pass;
}

int cg_check_follows(int single, int n, double truer, double rel)
{
    double eps = single ? 0x1p-24 : 0x1p-53, floor_ = 100 * eps * sqrt((double)n);
    int follows = fabs(truer - rel) <= 0.1 * rel + floor_;
    printf("check    the true residual %s the recurrence's within 10%% + %.2g\n", follows ? "follows" : "leaves",
           floor_);
    return follows;
}

int cg_check_count(int single, int iterations, int host_iterations)
{
    int margin = single ? host_iterations / 2 + 10 : 5 + host_iterations / 10;
    int ok = abs(iterations - host_iterations) <= margin;
    printf("check    %d iterations, the host's CG in double %d: %s (margin %d, %s)\n", iterations, host_iterations,
           ok ? "agree" : "DISAGREE", margin, single ? "float: half the host's count + 10" : "double: 5 + 10%");
    return ok;
}

int cg_exit_status(int status, int pass, int end, int fixed)
{
    if (!pass)
        return SPMV_EXIT_FAIL;
    if (end == CG_MAXITER && !fixed && status == SPMV_EXIT_PASS)
        return SPMV_EXIT_MAXITER;
    return status;
}
