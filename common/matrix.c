/* matrix.c - formats, conversions, the grid generator and the random numbers. */
#define _DEFAULT_SOURCE   /* madvise */
#include "matrix.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* count * size bytes, or 0 with *err filled when that is absurd. */
static size_t checked_bytes(size_t count, size_t size, const char *what, spmv_error *err)
{
    if (count == 0)
        count = 1;
    if (size != 0 && count > SIZE_MAX / size) {
        spmv_fail(err, "%s would need more than %zu bytes: too large", what, (size_t)SIZE_MAX);
        return 0;
    }
    size_t bytes = count * size, limit = host_memory_limit();
    if (bytes > limit) {
        spmv_fail(err, "%s would need %.1f GiB, more than half of this machine's memory (%.1f GiB)",
                  what, bytes / 1073741824.0, 2.0 * limit / 1073741824.0);
        return 0;
    }
    return bytes;
}

void *spmv_realloc(void *p, size_t count, size_t size, const char *what, spmv_error *err)
{
    size_t bytes = checked_bytes(count, size, what, err);
    if (!bytes)
        return NULL;
    void *q = realloc(p, bytes);
    if (!q)
        spmv_fail(err, "out of memory allocating %s (%.1f MiB)", what, bytes / 1048576.0);
    return q;
}

void *spmv_alloc(size_t count, size_t size, const char *what, spmv_error *err)
{
    size_t bytes = checked_bytes(count, size, what, err);
    if (!bytes)
        return NULL;
    /* 64-byte alignment: a cache line on the host, and what CL_MEM_USE_HOST_PTR
     * likes. A large array is aligned to 2 MiB and asks for huge pages: a first
     * touch then faults once per 2 MiB instead of once per 4 KiB, which is most
     * of the cost of building a large matrix on a virtual machine. */
    size_t align = bytes >= ((size_t)8 << 20) ? (size_t)2 << 20 : 64;
    void *p = NULL;
    if (posix_memalign(&p, align, spmv_round_up(bytes, align)) != 0) {
        spmv_fail(err, "out of memory allocating %s (%.1f MiB)", what, bytes / 1048576.0);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    if (align > 64)
        madvise(p, spmv_round_up(bytes, align), MADV_HUGEPAGE);   /* a hint: its failure changes nothing */
#endif
    return p;
}

void spmv_release_tail(void *p, size_t used, size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    if (!p || page <= 0)
        return;
    uintptr_t from = ((uintptr_t)p + used + (uintptr_t)page - 1) / (uintptr_t)page * (uintptr_t)page;
    uintptr_t to = ((uintptr_t)p + size) / (uintptr_t)page * (uintptr_t)page;
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);   /* a hint: its failure changes nothing */
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

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double to_uniform(uint64_t z) { return (double)(z >> 11) * 0x1.0p-52 - 1.0; }

uint64_t spmv_rng_next(spmv_rng *g) { return mix(g->s += 0x9e3779b97f4a7c15ULL); }

double spmv_rng_uniform(spmv_rng *g) { return to_uniform(spmv_rng_next(g)); }

/* The state after i + 1 steps is seed + (i + 1) * the increment: any draw of
 * the stream can be computed on its own, so vectors fill in parallel. */
double spmv_rng_uniform_at(uint64_t seed, uint64_t i)
{
    return to_uniform(mix(seed + (i + 1) * 0x9e3779b97f4a7c15ULL));
}
