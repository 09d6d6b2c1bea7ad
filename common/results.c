/* results.c - the stream of result lines; see results.h. */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <unistd.h>

static FILE *out;

FILE *spmv_results(void) { return out ? out : stdout; }

void spmv_quiet(void)
{
    if (out)
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
    out = f;
}
