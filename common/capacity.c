/* capacity.c - will a matrix fit this run? See capacity.h for what is counted. */
#include "capacity.h"
#include "precision.h"

#include <limits.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the program's runtime holds on the host beside its arrays, measured
 * as the peak resident size of a 16x16 grid without the probe
 * (SPMV_PROBE_MB=0): PoCL, a CPU device, 83 MiB; step 0, with no device,
 * 2.3 MiB. A GPU's runtime (OpenCL or CUDA) is counted at more: NVIDIA's
 * OpenCL on an H100 holds 108 MiB once its context is made, 123 MiB at the
 * peak of a 16x16 run whose kernel is in the driver's compile cache
 * (~/.nv/ComputeCache), and about 70 MiB more, at any size, on the run that
 * compiles it (CUDA_CACHE_DISABLE=1: 195 MiB). */
#define RUNTIME_HOST (8.0 * 1048576)
#define RUNTIME_CPU_DEVICE (128.0 * 1048576)
#define RUNTIME_GPU (256.0 * 1048576)

void spmv_limits_device(spmv_limits *lim, const char *name, unsigned long long max_alloc,
                        unsigned long long global_mem, int memory)
{
    memset(lim, 0, sizeof *lim);
    snprintf(lim->device, sizeof lim->device, "%s", name ? name : "the device");
    lim->max_alloc = (double)max_alloc;
    lim->global_mem = (double)global_mem;
    lim->memory = memory;
}

/* The precision the step will run in: the one asked, else float or complex
 * float as the matrix's own field says (a file read without --precision) */
static char prec_of(const spmv_limits *run, const spmv_size *s)
{
    return run->precision ? run->precision : s->complex_ ? 'c' : 's';
}

unsigned long long spmv_host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : 0;
}

/* ---- the memory available ----------------------------------------------- */

/* "Key:   N kB" of /proc/meminfo, in bytes; -1 if absent */
static double meminfo(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    char line[256];
    double v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            v = strtod(line + n + 1, NULL) * 1024;
            break;
        }
    fclose(f);
    return v;
}

/* the first number in a file, -1 if none ("max" in a cgroup's limit: none) */
static double file_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[64] = "";
    char *ok = fgets(buf, sizeof buf, f);
    fclose(f);
    char *end;
    double v = ok ? strtod(buf, &end) : 0;
    return ok && end != buf && v > 0 ? v : -1;
}

/* A field of /proc/self/statm in bytes (0: the pages this process maps, its
 * address space, what ulimit -v limits; 1: those resident, what it holds now:
 * its runtime is already out of MemAvailable, and the estimate counts it too) */
static double statm(int field)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    long v[2] = { 0, 0 };
    int got = fscanf(f, "%ld %ld", &v[0], &v[1]);
    fclose(f);
    return got > field ? (double)v[field] * (double)sysconf(_SC_PAGESIZE) : 0;
}

double spmv_host_available(char *src, size_t size)
{
    const char *env = getenv("SPMV_HOST_MEM_MB");
    if (env && *env) {
        char *end;
        double mb = strtod(env, &end);
        if (end != env && !*end && mb > 0) {
            snprintf(src, size, "SPMV_HOST_MEM_MB=%s", env);
            return mb * 1048576;
        }
    }
    double own = statm(1), avail = meminfo("MemAvailable");
    if (avail >= 0) {
        snprintf(src, size, "MemAvailable");
    } else if ((avail = meminfo("MemFree")) >= 0) {   /* kernels before 3.14 */
        double cached = meminfo("Cached"), buffers = meminfo("Buffers");
        avail += (cached > 0 ? cached : 0) + (buffers > 0 ? buffers : 0);
        snprintf(src, size, "MemFree, Cached and Buffers");
    } else {
        snprintf(src, size, "3/4 of the physical memory");
        return 0.75 * (double)spmv_host_memory();
    }
    avail += own;
    /* a container's limit: cgroup v2, then v1 (a limit near 2^63 is none) */
    double limit = file_number("/sys/fs/cgroup/memory.max"), used = file_number("/sys/fs/cgroup/memory.current");
    if (limit < 0) {
        limit = file_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
        used = file_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
    }
    if (limit > 0 && limit < 1e18) {
        double room = limit - (used > 0 ? used : 0) + own;
        if (room < avail) {
            avail = room;
            snprintf(src, size, "the cgroup's memory limit");
        }
    }
    /* the process's own address space (ulimit -v): what it maps counts, so
     * the mappings it has already take from it */
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double room = (double)rl.rlim_cur - statm(0) + own;
        if (room < avail) {
            avail = room > 0 ? room : 0;
            snprintf(src, size, "ulimit -v");
        }
    }
    return avail;
}

/* ---- the device --------------------------------------------------------- */

#define GIB(b) ((b) / 1073741824.0)

/* One device buffer: within the largest allocation? */
static int fits_buffer(const spmv_limits *run, const char *what, double bytes, spmv_error *err)
{
    if (run->device[0] && run->max_alloc > 0 && bytes > run->max_alloc)
        return spmv_fail(err, "%s would take %.1f GiB on the device, more than %s allows in one "
                         "buffer (%.1f GiB): out of device memory", what, GIB(bytes), run->device,
                         GIB(run->max_alloc));
    return 0;
}

static int fits_device(const spmv_limits *run, double total, const char *parts, spmv_error *err)
{
    if (run->device[0] && run->global_mem > 0 && total > run->global_mem)
        return spmv_fail(err, "%s would take %.1f GiB on the device, more than the %.1f GiB of %s: "
                         "out of device memory", parts, GIB(total), GIB(run->global_mem), run->device);
    return 0;
}

/* ---- the host's phases -------------------------------------------------- */

typedef struct {
    const char *name;
    int n;
    const char *what[12];
    double bytes[12];
    double total;
} phase;

static void add(phase *p, const char *what, double bytes)
{
    if (bytes <= 0 || p->n == 12)
        return;
    p->what[p->n] = what;
    p->bytes[p->n++] = bytes;
    p->total += bytes;
}

size_t spmv_probe_bytes(int gpu, unsigned long long max_alloc, unsigned long long global_mem)
{
    /* 256 MiB leaves a GPU's caches (the H100's L2 is 50 MB); 128 MiB
     * leaves a CPU's, and on a CPU device (whose buffers are host memory,
     * touched page by page when the probe opens) the smaller size keeps the
     * probe's set-up to a fraction of a second. SPMV_PROBE_MB: another size,
     * for tests and simulators; 0: no probe. */
    size_t bytes = (size_t)(gpu ? 256 : 128) << 20;
    const char *mb = getenv("SPMV_PROBE_MB");
    if (mb && strcmp(mb, "0") == 0)
        return 0;
    if (mb && atoi(mb) > 0)
        bytes = (size_t)atoi(mb) << 20;
    /* a device's buffers (0: not known, or the host's arrays) */
    if (max_alloc > 0 && bytes > max_alloc)
        bytes = max_alloc;
    if (global_mem > 0 && bytes > global_mem / 4)
        bytes = global_mem / 4;
    return bytes & ~(size_t)((1 << 20) - 1);
}

/* The bandwidth probe's host bytes (measure.c): two arrays on the host (step
 * 0), two buffers of the CPU device and two beside them; a GPU's are its own. */
static double probe_bytes(const spmv_limits *run)
{
    if (run->memory == SPMV_MEM_DEVICE)
        return 0;
    double host = (double)spmv_probe_bytes(0, 0, 0);
    if (run->memory == 0)
        return 2 * host;
    double dev = (double)spmv_probe_bytes(0, (unsigned long long)run->max_alloc, (unsigned long long)run->global_mem);
    return 2 * dev + 2 * host;
}

/* The phases of the run s describes; returns the largest, with its parts.
 * In bytes: COO 4 + 4 + 8 a value (16 complex); CSR 4 a row and 4 + 8 a
 * value; DIA 4 a slot of ndiag x pitch; the diagonal maps (convert.c) 1 + 4
 * a diagonal of rows + cols; the reference (check.h) y 8 (16 complex), the
 * scale 8, the length 4 and the integer bound 8 a row; and what the step
 * holds beside them, as it says (spmv_holds). Arrays are counted while they
 * are alive: a conversion holds its input and its output. */
static phase host_peak(const spmv_limits *run, const spmv_size *s)
{
    double r = (double)s->rows, c = (double)s->cols, n = (double)s->nnz, wr = s->complex_ ? 2 : 1;
    double csr = 4 * (r + 1) + n * (4 + 8 * wr), coo = n * (8 + 8 * wr);
    phase ph[6];
    int np = 0;
    memset(ph, 0, sizeof ph);
    if (s->from == SPMV_FROM_FILE) {
        phase *p = &ph[np++];
        p->name = "reading";
        add(p, "the entries as read", coo);
        p = &ph[np++];
        p->name = "converting to CSR";
        add(p, "the entries as read", coo);
        add(p, "CSR", csr + 4 * (r + 1));
    } else if (s->from == SPMV_FROM_CSR || (s->from == SPMV_FROM_GRID && run->format != 'd')) {
        phase *p = &ph[np++];
        p->name = s->from == SPMV_FROM_GRID ? "building" : "generating";
        add(p, "CSR", csr);
    }
    int dev = run->memory != 0, cpu = run->memory == SPMV_MEM_HOST, staged = run->memory == SPMV_MEM_DEVICE;
    const spmv_holds *h = &run->holds;
    double own = h->part_row * r + h->part_nnz * n;   /* the step's part, h->part */
    if (run->format == 'd') {
        double dia = s->ndiag > 0 ? 4.0 * (double)s->ndiag * (double)s->pitch + 4.0 * (double)s->ndiag : 4 * n;
        if (s->from != SPMV_FROM_GRID) {
            phase *p = &ph[np++];
            p->name = "converting to DIA";
            add(p, "CSR", csr);
            add(p, "DIA", dia);
            add(p, "the diagonal maps", 5 * (r + c));
        } else if (s->csr_too) {
            phase *p = &ph[np++];
            p->name = "building CSR for --info";
            add(p, "CSR", csr);
            add(p, "the diagonal map", r + c);
        }
        phase *p = &ph[np++];
        p->name = "running";
        add(p, "DIA", dia);
        add(p, "x", 4 * c + (dev ? h->x_device * c : 0));   /* and its copies on a device */
        add(p, "y", 4 * r + (cpu ? 4 * r : 0));   /* and the CPU device's */
        add(p, "the reference", 28 * r);
        add(p, h->part, h->part ? own : 0);
        add(p, "the buffers staged", staged ? dia + 4 * c + 4 * r : 0);
        add(p, "the probe", probe_bytes(run));
    } else if (run->format == 'c') {
        int wv = spmv_prec_complex(prec_of(run, s)) ? 2 : 1;
        double vs = spmv_prec_value_size(prec_of(run, s));
        double base = 4 * (r + 1) + 4 * n, vals = 8 * n * wv, x = 8 * wv * c, y = vs * r, ref = (20 + 8 * wv) * r;
        phase *p = &ph[np++];
        p->name = "computing the reference";
        add(p, "CSR", base + vals);
        add(p, "x", x);
        add(p, "y", y);
        add(p, "the reference", ref);
        if (prec_of(run, s) == 'z' && !run->keeps_values) {
            phase *q = &ph[np++];
            *q = *p;
            q->name = "packing the values";
            add(q, "the packed values", 16 * n);
        }
        p = &ph[np++];
        p->name = "running";
        add(p, "CSR", base + (run->keeps_values ? vals : 0) + vs * n);
        add(p, "x", x + vs * c + (dev ? h->x_device * c : 0));
        add(p, "y", y + (cpu ? y : 0));
        add(p, "the reference", ref);
        add(p, h->part, h->part ? own : 0);
        add(p, "the buffers staged", staged ? base + vs * (n + c + r) : 0);
        add(p, "the probe", probe_bytes(run));
    }
    int top = 0;
    for (int i = 0; i < np; i++) {
        if (run->format)   /* a step, not a tool */
            add(&ph[i], "the runtime", cpu ? RUNTIME_CPU_DEVICE : staged ? RUNTIME_GPU : RUNTIME_HOST);
        if (ph[i].total > ph[top].total)
            top = i;
    }
    return ph[top];
}

/* bytes in KiB below a MiB, MiB below a GiB, else GiB */
static const char *amount(double b, char *buf, size_t size)
{
    if (b < 1048576.0)
        snprintf(buf, size, "%.0f KiB", b / 1024.0);
    else if (b < 1073741824.0)
        snprintf(buf, size, "%.0f MiB", b / 1048576.0);
    else
        snprintf(buf, size, "%.1f GiB", GIB(b));
    return buf;
}

/* "at its peak, running (DIA 300 MiB, x 1 MiB, ...)" */
static void describe(const phase *p, char *buf, size_t size)
{
    char a[32];
    int k = snprintf(buf, size, "at its peak, %s (", p->name);
    for (int i = 0; i < p->n && k > 0 && (size_t)k < size; i++)
        k += snprintf(buf + k, size - (size_t)k, "%s%s %s", i ? ", " : "", p->what[i],
                      amount(p->bytes[i], a, sizeof a));
    if (k > 0 && (size_t)k < size)
        snprintf(buf + k, size - (size_t)k, ")");
}

static int fits_host(spmv_limits *run, const spmv_size *s, spmv_error *err)
{
    phase p = host_peak(run, s);
    char src[64], need[400], a[32];
    double avail = spmv_host_available(src, sizeof src);
    describe(&p, need, sizeof need);
    if (p.total >= run->estimate) {
        run->estimate = p.total;
        snprintf(run->line, sizeof run->line, "%s; %.1f MiB available (%s)", need, avail / 1048576.0, src);
    }
    char b[32];
    if (avail > 0 && p.total > avail)
        return spmv_fail(err, "the host would need %s %s, more than the %s available (%s)",
                         amount(p.total, b, sizeof b), need, amount(avail, a, sizeof a), src);
    return 0;
}

double spmv_host_estimate(const spmv_limits *lim)
{
    return lim ? lim->estimate : 0;
}

void spmv_host_estimate_line(const spmv_limits *lim, char *buf, size_t size)
{
    snprintf(buf, size, "%s", lim && lim->line[0] ? lim->line : "nothing estimated");
}

/* ---- the check ---------------------------------------------------------- */

/* The absolute limits first (int indices), then the host (can it hold the
 * matrix at all?), then the device. */
int spmv_fits(spmv_limits *lim, const spmv_size *s, spmv_error *err)
{
    spmv_limits none = { .device = "" };   /* a tool's: no device, no format */
    spmv_limits *run = lim ? lim : &none;
    double r = (double)s->rows, c = (double)s->cols, n = (double)s->nnz;
    int vs = run->format == 'c' ? spmv_prec_value_size(prec_of(run, s)) : 4;
    if (run->format != 'd' && s->nnz > INT_MAX - 1)
        return spmv_fail(err, "%lld nonzeros: the kernels index with int, so at most %d", s->nnz, INT_MAX - 1);
    double values = s->ndiag > 0 ? (double)s->ndiag * (double)s->pitch : n;
    if (s->ndiag > 0 && values >= 2147483647.0)
        return spmv_fail(err, "%lld diagonals of %lld values: more than 2^31 values, and the kernels index "
                         "with int", s->ndiag, s->pitch);
    if (fits_host(run, s, err))
        return -1;
    if (run->format == 'd') {
        const char *what = s->ndiag > 0 ? "the DIA values" : "the values (at least one per nonzero)";
        return fits_buffer(run, what, 4.0 * values, err) || fits_buffer(run, "x", 4.0 * c, err) ||
               fits_buffer(run, "y", 4.0 * r, err) ||
               fits_device(run, 4.0 * (values + (s->ndiag > 0 ? (double)s->ndiag : 0) + c + r),
                           s->ndiag > 0 ? "the DIA values, x and y" : "the values, x and y", err) ? -1 : 0;
    }
    if (run->format == 'c')
        return fits_buffer(run, "the row pointers", 4.0 * (r + 1), err) || fits_buffer(run, "the column indices", 4.0 * n, err) ||
               fits_buffer(run, "the values", vs * n, err) || fits_buffer(run, "x", vs * c, err) ||
               fits_buffer(run, "y", vs * r, err) ||
               fits_device(run, 4.0 * (r + 1) + (4 + vs) * n + vs * (c + r), "the matrix, x and y", err) ? -1 : 0;
    return 0;
}
