/* tools/touch.c - what a first write to freshly allocated memory costs
 * on this machine against a second write (chapter 9's TUNING.md, entry
 * 14, ran it on the course's 2-core machine). Not part of any chapter and
 * not built by `make`:
 *
 *   cc -O1 tools/touch.c -o build/touch && build/touch [MiB]
 *
 * MiB (default 100): the array's size. Three rounds, each a malloc, a
 * memset (the first touch), a memset again, and a free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 100;
    if (mib < 1 || mib > 65536) {
        fprintf(stderr, "touch: MiB must be 1 to 65536\n");
        return 2;
    }
    size_t n = (size_t)mib << 20;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        char *p = malloc(n);
        if (!p) {
            fprintf(stderr, "touch: out of memory for %ld MiB\n", mib);
            return 2;
        }
        memset(p, 1, n);
        __asm__ __volatile__("" : : "r"(p) : "memory");   /* the writes stay */
        double t1 = now();
        memset(p, 2, n);
        __asm__ __volatile__("" : : "r"(p) : "memory");
        double t2 = now();
        printf("%ld MiB: the first write %.1f ms (malloc included), the second %.1f ms\n", mib, (t1 - t0) * 1e3,
               (t2 - t1) * 1e3);
        free(p);
    }
    return 0;
}
