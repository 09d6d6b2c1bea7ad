/* stopwatch.c - the host's setup time by phase; see stopwatch.h. */
#define _POSIX_C_SOURCE 200809L
#include "stopwatch.h"
#include "run.h"

#include <stdio.h>
#include <time.h>

/* the phases' names, in enum spmv_phase's order */
static const char names[SPMV_PH_COUNT][10] = { "device", "matrix", "x", "reference", "buffers", "build" };

double spmv_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

void spmv_phase_add(spmv_run *run, enum spmv_phase p, double seconds)
{
    if (run && p >= 0 && p < SPMV_PH_COUNT)
        run->spent[p] += seconds;
}

double spmv_setup_seconds(const spmv_run *run, double phases[SPMV_PH_COUNT])
{
    double total = 0;
    for (int i = 0; i < SPMV_PH_COUNT; i++) {
        double s = run ? run->spent[i] : 0;
        total += s;
        if (phases)
            phases[i] = s;
    }
    return total;
}

void spmv_setup_text(const spmv_run *run, char *buf, int size)
{
    double spent[SPMV_PH_COUNT];
    int n = snprintf(buf, (size_t)size, "%.2f s (", spmv_setup_seconds(run, spent));
    const char *sep = "";
    for (int i = 0; i < SPMV_PH_COUNT && n > 0 && n < size; i++)
        if (spent[i] >= 0.005) {
            n += snprintf(buf + n, (size_t)(size - n), "%s%s %.2f", sep, names[i], spent[i]);
            sep = ", ";
        }
    if (n > 0 && n < size)
        snprintf(buf + n, (size_t)(size - n), ")");
}
