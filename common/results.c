/* results.c - the stream of result lines; see results.h. */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "run.h"

#include <unistd.h>

FILE *spmv_results(const spmv_run *run)
{
    return run && run->results ? run->results : stdout;
}

void spmv_quiet(spmv_run *run)
{
    if (run->results)
        return;
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return;   /* nothing to keep the results on: print everything rather than nothing */
    }
    if (!freopen("/dev/null", "w", stdout)) {
        fclose(f);
        return;
    }
    run->results = f;
}
