/* capacity.c - will a matrix fit this run? See capacity.h for what is counted. */
#include "capacity.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
    char device[256];             /* "": no device recorded */
    double max_alloc, global_mem;
    char format;                  /* 'c', 'd', 0 */
    int value_size;               /* 0: the file's field decides (4 real, 8 complex) */
} run = { "", 0, 0, 0, 4 };

void spmv_limits_device(const char *name, unsigned long long max_alloc, unsigned long long global_mem)
{
    snprintf(run.device, sizeof run.device, "%s", name ? name : "the device");
    run.max_alloc = (double)max_alloc;
    run.global_mem = (double)global_mem;
}

void spmv_limits_format(char format, int value_size)
{
    run.format = format;
    run.value_size = value_size > 0 ? value_size : 0;
}

unsigned long long spmv_host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : 0;
}

#define GIB(b) ((b) / 1073741824.0)

/* One device buffer: within the largest allocation? */
static int fits_buffer(const char *what, double bytes, spmv_error *err)
{
    if (run.device[0] && run.max_alloc > 0 && bytes > run.max_alloc)
        return spmv_fail(err, "%s would take %.1f GiB on the device, more than %s allows in one "
                         "buffer (%.1f GiB)", what, GIB(bytes), run.device, GIB(run.max_alloc));
    return 0;
}

static int fits_device(double total, const char *parts, spmv_error *err)
{
    if (run.device[0] && run.global_mem > 0 && total > run.global_mem)
        return spmv_fail(err, "%s would take %.1f GiB on the device, more than the %.1f GiB of %s",
                         parts, GIB(total), GIB(run.global_mem), run.device);
    return 0;
}

/* The host side's peak, against three quarters of the machine's memory: the
 * rest is for the OpenCL runtime, the bandwidth probe and everything else. */
static int fits_host(double matrix, double as_read, double x, double ref, spmv_error *err)
{
    double total = matrix + as_read + x + ref, mem = (double)spmv_host_memory();
    if (mem > 0 && total > 0.75 * mem) {
        char read[64] = "";
        if (as_read > 0)
            snprintf(read, sizeof read, "the entries as read %.1f, ", GIB(as_read));
        return spmv_fail(err, "the host side would need %.1f GiB (%sthe matrix %.1f, x %.1f, the reference %.1f), "
                         "more than 3/4 of this machine's %.1f GiB", GIB(total), read, GIB(matrix), GIB(x),
                         GIB(ref), GIB(mem));
    }
    return 0;
}

int spmv_fits(long long rows, long long cols, long long nnz, int complex_, int from_file, spmv_error *err)
{
    double r = (double)rows, c = (double)cols, n = (double)nnz, w = complex_ ? 2 : 1,
           vs = run.value_size ? run.value_size : 4 * w;
    if (run.format != 'd' && nnz > INT_MAX - 1)
        return spmv_fail(err, "%lld nonzeros: the kernels index with int, so at most %d", nnz, INT_MAX - 1);
    /* the host: CSR (also on the way to DIA from a file), x and the reference */
    double csr = 4.0 * (r + 1) + n * (4 + 8 * w), as_read = from_file ? n * (8 + 8 * w) : 0;
    double matrix = run.format == 'd' ? 4.0 * n + (from_file ? csr : 0) : csr;
    double x = run.format == 'd' ? 4.0 * c : 8.0 * w * c, ref = r * (8 * w + 8 + 4);
    if (run.format == 'd') {
        /* at least one value per nonzero; spmv_fits_dia checks the diagonals */
        if (fits_buffer("the values (at least one per nonzero)", 4.0 * n, err) || fits_buffer("x", 4.0 * c, err) ||
            fits_buffer("y", 4.0 * r, err) || fits_device(4.0 * (n + c + r), "the values, x and y", err))
            return -1;
    } else if (run.format == 'c') {
        if (fits_buffer("the row pointers", 4.0 * (r + 1), err) || fits_buffer("the column indices", 4.0 * n, err) ||
            fits_buffer("the values", vs * n, err) || fits_buffer("x", vs * c, err) || fits_buffer("y", vs * r, err) ||
            fits_device(4.0 * (r + 1) + (4 + vs) * n + vs * (c + r), "the matrix, x and y", err))
            return -1;
    }
    return fits_host(matrix, as_read, x, ref, err);
}

int spmv_fits_dia(long long rows, long long cols, long long ndiag, long long pitch, spmv_error *err)
{
    double values = (double)ndiag * (double)pitch, r = (double)rows, c = (double)cols;
    if (values >= 2147483647.0)
        return spmv_fail(err, "%lld diagonals of %lld values: more than 2^31 values, and the kernels index "
                         "with int", ndiag, pitch);
    if (fits_buffer("the DIA values", 4.0 * values, err) || fits_buffer("x", 4.0 * c, err) ||
        fits_buffer("y", 4.0 * r, err) ||
        fits_device(4.0 * (values + ndiag + c + r), "the DIA values, x and y", err))
        return -1;
    return fits_host(4.0 * values + 4.0 * ndiag, 0, 4.0 * c, 20.0 * r, err);
}
