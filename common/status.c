/* status.c - the program's name and spmv_die; see status.h. */
#define _GNU_SOURCE   /* program_invocation_short_name */
#include "status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *spmv_prog_name(void)
{
    return program_invocation_short_name;
}

void spmv_die(int status, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* one line: a message built from a file's content must not break it */
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    fflush(NULL);   /* stdout and the result lines (results.h) before the error */
    fprintf(stderr, "%s: error: %s\n", spmv_prog_name(), msg);
    exit(status);
}
