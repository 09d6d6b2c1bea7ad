/* stopwatch.c - the host's setup time by phase; see stopwatch.h. */
#define _POSIX_C_SOURCE 200809L
#include "stopwatch.h"

#include <stdio.h>
#include <time.h>

static double spent[SPMV_PH_COUNT];
static const char *const names[SPMV_PH_COUNT] = { "device", "matrix", "x", "reference", "buffers", "build" };

double spmv_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

void spmv_phase_add(enum spmv_phase p, double seconds)
{
    if (p >= 0 && p < SPMV_PH_COUNT)
        spent[p] += seconds;
}

double spmv_setup_seconds(double phases[SPMV_PH_COUNT])
{
    double total = 0;
    for (int i = 0; i < SPMV_PH_COUNT; i++) {
        total += spent[i];
        if (phases)
            phases[i] = spent[i];
    }
    return total;
}

void spmv_setup_text(char *buf, int size)
{
    int n = snprintf(buf, (size_t)size, "%.2f s (", spmv_setup_seconds(NULL));
    const char *sep = "";
    for (int i = 0; i < SPMV_PH_COUNT && n > 0 && n < size; i++)
        if (spent[i] >= 0.005) {
            n += snprintf(buf + n, (size_t)(size - n), "%s%s %.2f", sep, names[i], spent[i]);
            sep = ", ";
        }
    if (n > 0 && n < size)
        snprintf(buf + n, (size_t)(size - n), ")");
}
