/* vendor/cusparse/cuda.c - what both CUDA yardsticks share (build/cusparse,
 * chapter 6's, and build/cusparse-cg, chapter 7's): the error checks, device
 * buffers, step6's --device read as a CUDA device, and the probe's bandwidth
 * (cuda.h). C, compiled with the course's flags against the CUDA runtime's and
 * cuSPARSE's C APIs. */
#include "cuda.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- errors: the call, the error's name, file:line, as CL_CHECK does ---- */

void cuda_check(cudaError_t e, const char *call, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    if (e == cudaErrorMemoryAllocation)
        spmv_die(SPMV_EXIT_USAGE, "%s failed with %s at %s:%d: out of device memory; try a smaller --grid or "
                 "matrix", call, cudaGetErrorName(e), file, line);
    spmv_die(SPMV_EXIT_FAIL, "%s failed with %s (%d: %s) at %s:%d", call, cudaGetErrorName(e), (int)e,
             cudaGetErrorString(e), file, line);
}

void sparse_check(cusparseStatus_t s, const char *call, const char *file, int line)
{
    if (s == CUSPARSE_STATUS_SUCCESS)
        return;
    if (s == CUSPARSE_STATUS_ALLOC_FAILED || s == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES)
        spmv_die(SPMV_EXIT_USAGE, "%s failed with %s at %s:%d: out of device memory or resources; try a "
                 "smaller --grid or matrix", call, cusparseGetErrorName(s), file, line);
    spmv_die(SPMV_EXIT_FAIL, "%s failed with %s (%d: %s) at %s:%d", call, cusparseGetErrorName(s), (int)s,
             cusparseGetErrorString(s), file, line);
}

/* A device buffer, copied from host if host != NULL; out of memory is exit 2
 * naming what and how much, as spmv_cl_buffer says it. */
void *dev_buffer(size_t bytes, const void *host, const char *what, const char *device)
{
    void *d = NULL;
    cudaError_t e = cudaMalloc(&d, bytes ? bytes : 1);
    if (e == cudaErrorMemoryAllocation)
        spmv_die(SPMV_EXIT_USAGE, "%s needs %.1f MiB: out of device memory (%s); try a smaller --grid or matrix",
                 what, bytes / 1048576.0, device);
    CUDA_CHECK(e);
    if (host && bytes)
        CUDA_CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* ---- the device: step6's --device SEL, read as a CUDA device ---- */

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return n == 0;
}

/* The NVIDIA kernel driver's version, where Linux shows it ("" elsewhere). */
void nvidia_driver(char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    char line[512];
    if (fgets(line, sizeof line, f)) {
        char *m = strstr(line, "Module");
        for (char *t = m ? strtok(m, " \t\n") : NULL; t; t = strtok(NULL, " \t\n"))
            if (isdigit((unsigned char)t[0]) && strchr(t, '.')) {
                snprintf(buf, len, "%s", t);
                break;
            }
    }
    fclose(f);
}

/* SEL as step6 reads it (--device, else SPMV_DEVICE): empty or "gpu", the
 * first CUDA device; "cpu", none (skip); "N" or "P:D", CUDA device N or D (an
 * OpenCL index counts OpenCL's devices; with one NVIDIA platform it is the
 * same GPU); else a case-insensitive piece of the name, which is what
 * plots/figures.sh passes: the OpenCL device name of step6's rows. */
void open_device(const spmv_options *o, cuda_device *d, cuda_skip_fn skip)
{
    char why[512];
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        snprintf(why, sizeof why, "no CUDA device (%s): cuSPARSE needs an NVIDIA GPU and its driver",
                 e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        skip(o, "-", why);
    }
    const char *sel = o->device && *o->device ? o->device : getenv("SPMV_DEVICE");
    int pick = -1;
    char names[1024] = "";
    for (int i = 0; i < n; i++) {
        struct cudaDeviceProp p;
        CUDA_CHECK(cudaGetDeviceProperties(&p, i));
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%d: %s", i ? ", " : "", i, p.name);
        if (pick < 0 && sel && *sel && strcasecmp(sel, "gpu") && strcasecmp(sel, "cpu") &&
            !isdigit((unsigned char)sel[0]) && contains_nocase(p.name, sel))
            pick = i;
    }
    if (!sel || !*sel || strcasecmp(sel, "gpu") == 0) {
        pick = 0;
    } else if (strcasecmp(sel, "cpu") == 0) {
        skip(o, "-", "--device cpu: cuSPARSE runs on NVIDIA GPUs only");
    } else if (isdigit((unsigned char)sel[0])) {
        const char *colon = strchr(sel, ':');
        pick = atoi(colon ? colon + 1 : sel);
        if (pick >= n) {
            snprintf(why, sizeof why, "--device %s: there is no CUDA device %d (CUDA sees %s)", sel, pick, names);
            skip(o, "-", why);
        }
        if (colon)
            printf("note     --device %s is an OpenCL index; cuSPARSE takes CUDA device %d\n", sel, pick);
    } else if (pick < 0) {
        snprintf(why, sizeof why, "--device %s names no CUDA device (CUDA sees %s)", sel, names);
        skip(o, "-", why);
    }
    struct cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, pick));
    CUDA_CHECK(cudaSetDevice(pick));
    int rt = 0, dv = 0, maj = 0, min = 0, patch = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&rt));
    CUDA_CHECK(cudaDriverGetVersion(&dv));
    SPARSE_CHECK(cusparseGetProperty(MAJOR_VERSION, &maj));
    SPARSE_CHECK(cusparseGetProperty(MINOR_VERSION, &min));
    SPARSE_CHECK(cusparseGetProperty(PATCH_LEVEL, &patch));
    char kdrv[64];
    nvidia_driver(kdrv, sizeof kdrv);
    d->index = pick;
    d->global_mem = p.totalGlobalMem;
    snprintf(d->name, sizeof d->name, "%s", p.name);
    /* no commas: the CSV writer would turn them into spaces */
    snprintf(d->driver, sizeof d->driver, "cuSPARSE %d.%d.%d; CUDA runtime %d.%d; NVIDIA driver %s%sCUDA %d.%d", maj,
             min, patch, rt / 1000, rt % 1000 / 10, kdrv, *kdrv ? " for " : "for ", dv / 1000, dv % 1000 / 10);
    printf("device   CUDA %d: %s (compute capability %d.%d, %d multiprocessors, %.1f GiB)\n", pick, p.name, p.major,
           p.minor, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0);
    printf("library  %s\n", d->driver);
    /* for the size checks (common/capacity.h): a GPU of its own memory, and
     * the values kept as read beside their packed copy (spmv_prec_pack) */
    spmv_limits_device(&d->limits, d->name, 0, p.totalGlobalMem, SPMV_MEM_DEVICE);
    d->limits.keeps_values = 1;
}

/* The bandwidth of the probe samples, as spmv_probe_finish computes it. */
spmv_bandwidth probe_bandwidth(cuda_probe *p)
{
    spmv_bandwidth bw = { 0 };
    double copy_ms, read_ms, min;
    spmv_stats(p->copy_ms, p->n, &copy_ms, &min);
    spmv_stats(p->read_ms, p->n, &read_ms, &min);
    bw.samples = p->n;
    bw.mib = p->bytes >> 20;
    bw.copy_gbs = 2.0 * p->bytes / (copy_ms * 1e-3) / 1e9;
    bw.read_gbs = (p->bytes + p->bytes / 64.0) / (read_ms * 1e-3) / 1e9;   /* one float written per 16 float4 */
    bw.gbs = bw.copy_gbs > bw.read_gbs ? bw.copy_gbs : bw.read_gbs;
    return bw;
}

