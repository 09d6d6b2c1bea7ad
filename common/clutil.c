/* clutil.c - OpenCL plumbing; see clutil.h. */
#include "clutil.h"
#include "capacity.h"
#include "measure.h"
#include "run.h"
#include "stopwatch.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *cl_error_name(cl_int code)
{
    switch (code) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    E(CL_INVALID_IMAGE_SIZE) E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL_DEFINITION) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_LINKER_OPTIONS)
    E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL driver registered with the ICD loader)";
    default: return "unknown OpenCL error";
    }
}

void cl_check(cl_int code, const char *call, const char *file, int line)
{
    if (code == CL_SUCCESS)
        return;
    if (code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_RESOURCES)
        spmv_die(SPMV_EXIT_USAGE, "%s failed with %s (%d) at %s:%d: out of device memory or resources; "
                 "try a smaller --grid or matrix", call, cl_error_name(code), code, file, line);
    fflush(stdout);
    fprintf(stderr, "%s: error: %s failed with %s (%d) at %s:%d\n", spmv_prog_name(), call,
            cl_error_name(code), code, file, line);
    exit(SPMV_EXIT_FAIL);
}

/* ---- device discovery ---- */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    int p, d;
} dev_ref;

static int all_devices(dev_ref **out)
{
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(0, NULL, &np);
    if (e == -1001 || np == 0) {
        *out = NULL;
        return 0;
    }
    CL_CHECK(e);
    cl_platform_id *ps = calloc(np, sizeof *ps);
    CL_CHECK(clGetPlatformIDs(np, ps, NULL));
    int n = 0, cap = 16;
    dev_ref *list = malloc(sizeof *list * cap);
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue;
        cl_device_id *ds = calloc(nd, sizeof *ds);
        CL_CHECK(clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, nd, ds, NULL));
        for (cl_uint d = 0; d < nd; d++) {
            if (n == cap)
                list = realloc(list, sizeof *list * (cap *= 2));
            list[n++] = (dev_ref){ ps[p], ds[d], (int)p, (int)d };
        }
        free(ds);
    }
    free(ps);
    *out = list;
    return n;
}

static void str_info(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    buf[0] = 0;
    clGetDeviceInfo(d, what, len, buf, NULL);
    buf[len - 1] = 0;
}

/* OpenCL 3.0 names, from CL/cl.h (this code targets 1.2's API) */
#define SPMV_CL_ATOMIC_FENCE_CAPABILITIES 0x1064
#define SPMV_CL_FENCE_DEVICE_ACQ_REL ((1 << 1) | (1 << 5))   /* ORDER_ACQ_REL | SCOPE_DEVICE */

static int has_extension(cl_device_id d, const char *ext)
{
    size_t len = 0;
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &len);
    char *s = calloc(len + 1, 1);
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, len, s, NULL);
    int found = 0;
    for (char *t = strtok(s, " "); t; t = strtok(NULL, " "))
        found |= strcmp(t, ext) == 0;
    free(s);
    return found;
}

static int contains_ci(const char *hay, const char *needle);

static void describe(spmv_cl *cl)
{
    cl_device_id d = cl->device;
    clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof cl->platform_name, cl->platform_name, NULL);
    cl->platform_name[sizeof cl->platform_name - 1] = 0;
    str_info(d, CL_DEVICE_NAME, cl->device_name, sizeof cl->device_name);
    str_info(d, CL_DRIVER_VERSION, cl->driver, sizeof cl->driver);
    str_info(d, CL_DEVICE_VERSION, cl->version, sizeof cl->version);
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof cl->type, &cl->type, NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof cl->global_mem, &cl->global_mem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof cl->max_alloc, &cl->max_alloc, NULL);
    clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof cl->local_mem, &cl->local_mem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof cl->max_wg, &cl->max_wg, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cl->compute_units, &cl->compute_units, NULL);
    clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    cl->image_support = img == CL_TRUE;
    cl->image2d_max_w = cl->image2d_max_h = 0;
    if (cl->image_support) {
        clGetDeviceInfo(d, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t), &cl->image2d_max_w, NULL);
        clGetDeviceInfo(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(size_t), &cl->image2d_max_h, NULL);
    }
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
    cl->fp64 = fp != 0 || has_extension(d, "cl_khr_fp64");
    cl->int64_atomics = has_extension(d, "cl_khr_int64_base_atomics");
    /* OpenCL 3.0's query (older devices answer with an error, and have none):
     * a fence that orders memory for the whole device, not only a work-group */
    cl_bitfield fence = 0;
    cl->device_fence = 0;
    if (strncmp(cl->version, "OpenCL 3.", 9) == 0 &&
        clGetDeviceInfo(d, SPMV_CL_ATOMIC_FENCE_CAPABILITIES, sizeof fence, &fence, NULL) == CL_SUCCESS)
        cl->device_fence = (fence & SPMV_CL_FENCE_DEVICE_ACQ_REL) == SPMV_CL_FENCE_DEVICE_ACQ_REL;
    cl->ptx = contains_ci(cl->platform_name, "NVIDIA");
}

static const char *type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

static const char no_device_hint[] =
    "no OpenCL device found: install a driver (on Debian/Ubuntu: apt-get install pocl-opencl-icd "
    "for the CPU), or run `make deps`";

void spmv_cl_list(void)
{
    dev_ref *list;
    int n = all_devices(&list);
    if (n == 0)
        spmv_die(SPMV_EXIT_USAGE, "%s", no_device_hint);
    printf("%-5s %-4s %-40s %-9s %9s %6s %6s  %s\n", "SEL", "type", "device", "memory", "max alloc",
           "images", "double", "platform / driver");
    for (int i = 0; i < n; i++) {
        spmv_cl c;
        memset(&c, 0, sizeof c);
        c.platform = list[i].platform;
        c.device = list[i].device;
        describe(&c);
        char sel[16];
        snprintf(sel, sizeof sel, "%d:%d", list[i].p, list[i].d);
        printf("%-5s %-4s %-40.40s %6.1f GiB %6.1f GiB %6s %6s  %s / %s\n", sel, type_name(c.type),
               c.device_name, c.global_mem / 1073741824.0, c.max_alloc / 1073741824.0,
               c.image_support ? "yes" : "no", c.fp64 ? "yes" : "no", c.platform_name, c.driver);
    }
    free(list);
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* The device SEL names, described in *cl (no context yet): every step's
 * choice, and `devices --type`'s; of several that match (every GPU, say),
 * the nth modulo their number, which *matches (if not NULL) is set to.
 * Exits 2 when none matches. */
static void pick_device(spmv_cl *cl, const char *sel, int nth, int *matches)
{
    memset(cl, 0, sizeof *cl);
    if (!sel || !*sel)
        sel = getenv("SPMV_DEVICE");
    dev_ref *list;
    int n = all_devices(&list), count = 0;
    if (n == 0)
        spmv_die(SPMV_EXIT_USAGE, "%s", no_device_hint);
    int *hit = calloc((size_t)n, sizeof *hit);
    if (!hit)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory listing %d OpenCL devices", n);
    int p, d;
    char tail;
    for (int i = 0; i < n; i++) {
        spmv_cl c;
        memset(&c, 0, sizeof c);
        c.platform = list[i].platform;
        c.device = list[i].device;
        describe(&c);
        int match;
        if (!sel || !*sel || strcasecmp(sel, "gpu") == 0)
            match = (c.type & CL_DEVICE_TYPE_GPU) != 0;
        else if (strcasecmp(sel, "cpu") == 0)
            match = (c.type & CL_DEVICE_TYPE_CPU) != 0;
        else if (sscanf(sel, "%d:%d%c", &p, &d, &tail) == 2)
            match = list[i].p == p && list[i].d == d;
        else
            match = contains_ci(c.platform_name, sel) || contains_ci(c.device_name, sel);
        if (match)
            hit[count++] = i;
    }
    if (count == 0 && (!sel || !*sel))
        hit[count++] = 0;   /* no GPU: the first device */
    if (count == 0) {
        free(list), free(hit);
        spmv_die(SPMV_EXIT_USAGE, "no OpenCL device matches '%s': see `make devices` for the list "
                 "(SEL is P:D, cpu, gpu or part of a name)", sel);
    }
    int pick = hit[(nth < 0 ? 0 : nth) % count];
    if (matches)
        *matches = count;
    cl->platform = list[pick].platform;
    cl->device = list[pick].device;
    cl->platform_index = list[pick].p;
    cl->device_index = list[pick].d;
    free(list), free(hit);
    describe(cl);
}

const char *spmv_cl_type(const char *sel)
{
    spmv_cl cl;
    pick_device(&cl, sel, 0, NULL);
    return type_name(cl.type);
}

void spmv_cl_open(spmv_cl *cl, spmv_run *run, const char *sel)
{
    spmv_cl_open_nth(cl, run, sel, 0, NULL);
}

void spmv_cl_open_nth(spmv_cl *cl, spmv_run *run, const char *sel, int nth, int *matches)
{
    double t0 = spmv_now();
    pick_device(cl, sel, nth, matches);
    cl->run = run;
    cl_int err;
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform, 0 };
    cl->ctx = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
    CL_CHECK_ERR(err);
    cl->queue = clCreateCommandQueue(cl->ctx, cl->device, CL_QUEUE_PROFILING_ENABLE, &err);
    CL_CHECK_ERR(err);
    printf("device   %d:%d %s (%s), %s\n", cl->platform_index, cl->device_index, cl->device_name,
           type_name(cl->type), cl->platform_name);
    printf("driver   %s, %s, %.1f GiB\n", cl->driver, cl->version, cl->global_mem / 1073741824.0);
    /* so a matrix too large for this device is refused before it is built
     * (the loader is handed cl->limits) */
    spmv_limits_device(&cl->limits, cl->device_name, cl->max_alloc, cl->global_mem,
                       (cl->type & CL_DEVICE_TYPE_CPU) ? SPMV_MEM_HOST : SPMV_MEM_DEVICE);
    spmv_phase_add(run, SPMV_PH_DEVICE, spmv_now() - t0);
}

void spmv_cl_close(spmv_cl *cl)
{
    spmv_probe_finish(cl->probe);   /* its buffers before their context */
    cl->probe = NULL;
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->ctx)
        clReleaseContext(cl->ctx);
    cl->queue = NULL;
    cl->ctx = NULL;
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        spmv_die(SPMV_EXIT_USAGE, "cannot open kernel source %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0 || n > (1L << 24)) {
        fclose(f);
        spmv_die(SPMV_EXIT_USAGE, "kernel source %s is not a readable text file", path);
    }
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    fclose(f);
    s[got] = 0;
    *len = got;
    return s;
}

cl_program spmv_cl_build(spmv_cl *cl, const char *path, const char *opts)
{
    return spmv_cl_build_files(cl, &path, 1, opts);
}

/* At s, "<kernel>:N:": the name NVIDIA's compiler gives the program's
 * source, which ignores #line and counts lines through all the files.
 * Returns N and sets *end to the ':' after it; 0 when s starts no such name. */
static long source_line(const char *s, const char *eol, char **end)
{
    const char *e = *s == '<' ? memchr(s, '>', (size_t)(eol - s)) : NULL;
    if (!e || e + 2 >= eol || e[1] != ':' || !isdigit((unsigned char)e[2]))
        return 0;
    long ln = strtol(e + 2, end, 10);
    return **end == ':' ? ln : 0;
}

/* The log with each such name and N (the first on a line, at its start or
 * after a space) turned into "path:M" of the file line N is in (first[i]:
 * the line of the whole where file i starts). Only when every #line named
 * its file: a compiler that honours them names the files itself. */
char *spmv_build_log_files(const char *log, const char *const *paths, const int *first, int n)
{
    size_t longest = 0, lines = 1;
    for (int i = 0; i < n; i++)
        longest = strlen(paths[i]) > longest ? strlen(paths[i]) : longest;
    for (const char *p = log; *p; p++)
        lines += *p == '\n';
    size_t cap = strlen(log) + lines * (longest + 24) + 1, used = 0;
    char *out = malloc(cap);
    if (!out)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the build log");
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        eol = eol ? eol + 1 : p + strlen(p);
        for (const char *s = p; s < eol; s++) {
            char *end = NULL;
            long ln = (s == p || s[-1] == ' ') ? source_line(s, eol, &end) : 0;
            if (ln <= 0)
                continue;
            int f = 0;
            for (int i = 1; i < n; i++)
                if (ln >= first[i])
                    f = i;
            memcpy(out + used, p, (size_t)(s - p));   /* at most longest + 21 bytes for "<...>:N" */
            used += (size_t)(s - p);
            used += (size_t)snprintf(out + used, cap - used, "%s:%ld", paths[f], ln - first[f] + 1);
            p = end;
            break;
        }
        memcpy(out + used, p, (size_t)(eol - p));
        used += (size_t)(eol - p);
        p = eol;
    }
    out[used] = 0;
    return out;
}

static int count_lines(const char *s, size_t len)
{
    int k = 0;
    for (size_t i = 0; i < len; i++)
        k += s[i] == '\n';
    return k;
}

cl_program spmv_cl_build_files(spmv_cl *cl, const char *const *paths, int n, const char *opts)
{
    /* each file opens with a #line, so that the build log counts its lines
     * from 1 and names it; a compiler that ignores #line (NVIDIA's) has its
     * log mapped back to the files (spmv_build_log_files) */
    enum { MAX_FILES = 4 };
    const char *src[2 * MAX_FILES];
    char *text[MAX_FILES], line[MAX_FILES][1200], names[2048] = "";
    size_t len[2 * MAX_FILES];
    int ns = 0, first[MAX_FILES], lines = 1, named = 1;
    if (n < 1 || n > MAX_FILES)
        spmv_die(SPMV_EXIT_USAGE, "a program is built from 1 to %d kernel source files, not %d", MAX_FILES, n);
    for (int i = 0; i < n; i++) {
        int plain = strchr(paths[i], '"') || strchr(paths[i], '\\') || strlen(paths[i]) > 1000;
        named &= !plain;
        if (plain)
            snprintf(line[i], sizeof line[i], "%s#line 1\n", i ? "\n" : "");
        else
            snprintf(line[i], sizeof line[i], "%s#line 1 \"%s\"\n", i ? "\n" : "", paths[i]);
        src[ns] = line[i], len[ns++] = strlen(line[i]);
        lines += count_lines(line[i], strlen(line[i]));
        text[i] = read_text(paths[i], &len[ns]);
        first[i] = lines;
        lines += count_lines(text[i], len[ns]);
        src[ns++] = text[i];
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? " + " : "", paths[i]);
        printf("kernel   %s\n", paths[i]);
    }
    cl_int err;
    cl_program prog = clCreateProgramWithSource(cl->ctx, (cl_uint)ns, src, len, &err);
    CL_CHECK_ERR(err);
    for (int i = 0; i < n; i++)
        free(text[i]);
    printf("build    \"%s\"\n", opts ? opts : "");
    double t0 = spmv_now();
    err = clBuildProgram(prog, 1, &cl->device, opts, NULL, NULL);
    spmv_phase_add(cl->run, SPMV_PH_BUILD, spmv_now() - t0);
    size_t loglen = 0;
    clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
    char *log = calloc(loglen + 1, 1);
    clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
    int has_log = 0;
    for (char *p = log; *p; p++)
        has_log |= !isspace((unsigned char)*p);
    if (named && has_log) {
        char *relabelled = spmv_build_log_files(log, paths, first, n);
        free(log);
        log = relabelled;
    }
    if (err != CL_SUCCESS) {
        fflush(stdout);
        fprintf(stderr, "----- build log for %s -----\n%s\n-----\n", names, log);
        free(log);
        clReleaseProgram(prog);
        spmv_die(SPMV_EXIT_USAGE, "building %s failed with %s: the log above says where", names,
                 cl_error_name(err));
    }
    if (has_log && getenv("SPMV_BUILD_LOG"))
        printf("build log:\n%s\n", log);
    free(log);
    return prog;
}

cl_kernel spmv_cl_kernel(cl_program prog, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (err == CL_INVALID_KERNEL_NAME)
        spmv_die(SPMV_EXIT_USAGE, "the kernel source has no kernel named %s", name);
    CL_CHECK_ERR(err);
    return k;
}

cl_mem spmv_cl_buffer(spmv_cl *cl, cl_mem_flags flags, size_t bytes, const void *host, const char *what)
{
    if (bytes == 0)
        bytes = 4;
    if (bytes > cl->max_alloc)
        spmv_die(SPMV_EXIT_USAGE, "%s needs %.1f MiB, more than this device allows in one buffer "
                 "(%.1f MiB): out of device memory; try a smaller --grid or matrix", what,
                 bytes / 1048576.0, cl->max_alloc / 1048576.0);
    /* On a CPU device the device's memory is the host's: a read-only buffer
     * uses the host array in place instead of a copy of it (half the memory,
     * and no copy to wait for). The array must then outlive the buffer and stay
     * as it is, which every step does: it releases its buffers first.
     * Oclgrind, a CPU device too, tracks which bytes a kernel reads before they
     * are written and counts a host array used in place as unwritten: it gets
     * a copy. */
    int in_place = (cl->type & CL_DEVICE_TYPE_CPU) && (flags & CL_MEM_READ_ONLY) &&
                   !contains_ci(cl->platform_name, "oclgrind");
    /* On a GPU the array is written into a new buffer by the queue rather
     * than copied in by clCreateBuffer: NVIDIA's driver took 221 to 258 ms
     * for 300 MiB from malloc'd memory with CL_MEM_COPY_HOST_PTR and 39 to
     * 53 ms with a blocking clEnqueueWriteBuffer (H200, three rounds each;
     * step9-pcg/TUNING.md, entry 11). Below 1 MiB the copy stays: a wait
     * each costs more there. */
    int write = host && !(cl->type & CL_DEVICE_TYPE_CPU) && cl->queue && bytes >= ((size_t)1 << 20);
    if (host && !write)
        flags |= in_place ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR;
    cl_int err;
    double t0 = spmv_now();
    cl_mem m = clCreateBuffer(cl->ctx, flags, bytes, write ? NULL : (void *)host, &err);
    if (write && err == CL_SUCCESS) {
        err = clEnqueueWriteBuffer(cl->queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            clReleaseMemObject(m);
    }
    spmv_phase_add(cl->run, SPMV_PH_BUFFERS, spmv_now() - t0);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
        err == CL_OUT_OF_HOST_MEMORY || err == CL_INVALID_BUFFER_SIZE)
        spmv_die(SPMV_EXIT_USAGE, "%s needs %.1f MiB: out of device memory (%s); "
                 "try a smaller --grid or matrix", what, bytes / 1048576.0, cl_error_name(err));
    CL_CHECK_ERR(err);
    return m;
}

void spmv_cl_arg_value(cl_kernel k, int arg, int single, double v)
{
    float f = (float)v;
    if (single)
        CL_CHECK(clSetKernelArg(k, arg, sizeof f, &f));
    else
        CL_CHECK(clSetKernelArg(k, arg, sizeof v, &v));
}

double spmv_event_ms(cl_event ev)
{
    cl_ulong t0 = 0, t1 = 0;
    CL_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CL_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    return (double)(t1 - t0) * 1e-6;
}

double spmv_cl_run(spmv_cl *cl, cl_kernel k, size_t global, size_t local)
{
    spmv_launch l = { k, global, local };
    return spmv_cl_run_seq(cl, &l, 1);
}

double spmv_cl_run_seq(spmv_cl *cl, const spmv_launch *l, int n)
{
    cl_event ev[SPMV_MAX_LAUNCHES];
    if (n < 1 || n > SPMV_MAX_LAUNCHES)
        spmv_die(SPMV_EXIT_USAGE, "internal: %d kernels in one run (1 to %d)", n, SPMV_MAX_LAUNCHES);
    for (int i = 0; i < n; i++) {
        size_t global = l[i].global, local = l[i].local;
        CL_CHECK(clEnqueueNDRangeKernel(cl->queue, l[i].k, 1, NULL, &global, local ? &local : NULL, 0, NULL,
                                        &ev[i]));
    }
    CL_CHECK(clWaitForEvents(n, ev));
    for (int i = 0; i < n; i++) {
        cl_int status;
        CL_CHECK(clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
        if (status < 0)
            cl_check(status, "kernel execution", __FILE__, __LINE__);
    }
    /* from the first kernel's start to the last one's end: the gap between
     * them is part of the cost of needing two */
    cl_ulong t0 = 0, t1 = 0;
    CL_CHECK(clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CL_CHECK(clGetEventProfilingInfo(ev[n - 1], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    for (int i = 0; i < n; i++)
        clReleaseEvent(ev[i]);
    return t1 > t0 ? (double)(t1 - t0) * 1e-6 : 0.0;
}

void spmv_cl_check_local(spmv_cl *cl, cl_kernel k, size_t local)
{
    size_t kmax = 0;
    CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
    if (local > cl->max_wg || local > kmax)
        spmv_die(SPMV_EXIT_USAGE, "work-group size %zu is more than this device and kernel allow (%zu): "
                 "choose a smaller --local-size", local, kmax < cl->max_wg ? kmax : cl->max_wg);
}

void spmv_cl_poison(spmv_cl *cl, cl_mem buf, size_t bytes)
{
    float nan = NAN;
    CL_CHECK(clEnqueueFillBuffer(cl->queue, buf, &nan, sizeof nan, 0, bytes & ~(size_t)3, 0, NULL, NULL));
    CL_CHECK(clFinish(cl->queue));
}
