/* matrix.c - formats, conversions, the grid generator and the random numbers. */
#include "matrix.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int spmv_fail(spmv_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

size_t spmv_round_up(size_t n, size_t align)
{
    if (align <= 1)
        return n;
    return (n + align - 1) / align * align;
}

/* Physical memory of this machine: nothing may ask for more than half of it. */
static size_t host_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return (size_t)1 << 34;
    return (size_t)pages * (size_t)page / 2;
}

void *spmv_alloc(size_t count, size_t size, const char *what, spmv_error *err)
{
    if (count == 0)
        count = 1;
    if (size != 0 && count > SIZE_MAX / size) {
        spmv_fail(err, "%s would need more than %zu bytes: too large", what, (size_t)SIZE_MAX);
        return NULL;
    }
    size_t bytes = count * size, limit = host_memory_limit();
    if (bytes > limit) {
        spmv_fail(err, "%s would need %.1f GiB, more than half of this machine's memory (%.1f GiB)",
                  what, bytes / 1073741824.0, 2.0 * limit / 1073741824.0);
        return NULL;
    }
    /* 64-byte alignment: a cache line on the host, and what CL_MEM_USE_HOST_PTR likes */
    void *p = NULL;
    if (posix_memalign(&p, 64, spmv_round_up(bytes, 64)) != 0) {
        spmv_fail(err, "out of memory allocating %s (%.1f MiB)", what, bytes / 1048576.0);
        return NULL;
    }
    return p;
}

void coo_free(coo_matrix *A)
{
    free(A->row);
    free(A->col);
    free(A->re);
    free(A->im);
    A->row = A->col = NULL;
    A->re = A->im = NULL;
}

void csr_free(csr_matrix *A)
{
    free(A->ptr);
    free(A->col);
    free(A->re);
    free(A->im);
    A->ptr = A->col = NULL;
    A->re = A->im = NULL;
}

void dia_free(dia_matrix *A)
{
    free(A->offsets);
    free(A->values);
    A->offsets = NULL;
    A->values = NULL;
}

/* splitmix64: tiny, fast, and the same on every machine */
void spmv_rng_seed(spmv_rng *g, uint64_t seed) { g->s = seed; }

uint64_t spmv_rng_next(spmv_rng *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double spmv_rng_uniform(spmv_rng *g)
{
    return (double)(spmv_rng_next(g) >> 11) * 0x1.0p-52 - 1.0;
}
