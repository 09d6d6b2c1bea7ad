/* tools/upload.c - how fast an OpenCL device takes an array from the host,
 * four ways (chapter 9's TUNING.md, entry 11, measured it on the H200):
 * clCreateBuffer with CL_MEM_COPY_HOST_PTR; a blocking clEnqueueWriteBuffer
 * from malloc'd memory; a memcpy into pinned memory (CL_MEM_ALLOC_HOST_PTR,
 * mapped) and its write; 16 MiB chunks through two pinned buffers.
 * Not part of any chapter and not built by `make`:
 *
 *   cc -O2 tools/upload.c -o build/upload -lOpenCL && build/upload [MiB]
 *
 * Uses the first GPU of the first platform; MiB (default 300) the array's
 * size. Prints one line a round, three rounds. Exit 2 with one line where
 * there is no GPU or a call fails. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
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

#define CHECK(x)                                                                       \
    do {                                                                               \
        cl_int e_ = (x);                                                               \
        if (e_ != CL_SUCCESS) {                                                        \
            fprintf(stderr, "upload: %s failed (%d)\n", #x, e_);                       \
            exit(2);                                                                   \
        }                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 300, bytes = mib << 20, chunk = (size_t)16 << 20;
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    if (mib == 0 || mib > 65536 || clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "upload: no OpenCL GPU (or MiB not in 1..65536)\n");
        return 2;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    char *h = malloc(bytes);
    if (!h) {
        fprintf(stderr, "upload: out of host memory for %zu MiB\n", mib);
        return 2;
    }
    memset(h, 1, bytes);
    for (int r = 0; r < 3; r++) {
        double t0 = now();   /* 1. copied in by clCreateBuffer */
        cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
        CHECK(err);
        CHECK(clFinish(q));
        double copy = now() - t0;
        CHECK(clReleaseMemObject(m));
        t0 = now();   /* 2. written by the queue, from malloc'd memory */
        m = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
        CHECK(err);
        CHECK(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, h, 0, NULL, NULL));
        double write = now() - t0;
        CHECK(clReleaseMemObject(m));
        t0 = now();   /* 3. through pinned memory: allocate and map it, copy into it, write from it */
        cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
        CHECK(err);
        void *ph = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
        CHECK(err);
        double t1 = now(), pinmap = t1 - t0;
        memcpy(ph, h, bytes);
        double t2 = now();
        m = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
        CHECK(err);
        CHECK(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, ph, 0, NULL, NULL));
        double t3 = now();
        CHECK(clEnqueueUnmapMemObject(q, pin, ph, 0, NULL, NULL));
        CHECK(clFinish(q));
        CHECK(clReleaseMemObject(m));
        CHECK(clReleaseMemObject(pin));
        t0 = now();   /* 4. chunks through two pinned buffers, a copy beside a write */
        pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, 2 * chunk, NULL, &err);
        CHECK(err);
        char *p2 = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_WRITE, 0, 2 * chunk, 0, NULL, NULL, &err);
        CHECK(err);
        m = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
        CHECK(err);
        cl_event ev[2] = { NULL, NULL };
        for (size_t o = 0, k = 0; o < bytes; o += chunk, k ^= 1) {
            size_t n = bytes - o < chunk ? bytes - o : chunk;
            if (ev[k]) {
                CHECK(clWaitForEvents(1, &ev[k]));
                CHECK(clReleaseEvent(ev[k]));
            }
            memcpy(p2 + k * chunk, h + o, n);
            CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, o, n, p2 + k * chunk, 0, NULL, &ev[k]));
        }
        CHECK(clFinish(q));
        double chunks = now() - t0;
        for (int k = 0; k < 2; k++)
            if (ev[k])
                CHECK(clReleaseEvent(ev[k]));
        CHECK(clEnqueueUnmapMemObject(q, pin, p2, 0, NULL, NULL));
        CHECK(clFinish(q));
        CHECK(clReleaseMemObject(m));
        CHECK(clReleaseMemObject(pin));
        printf("upload %zu MiB r%d: COPY_HOST_PTR %.1f ms; write from malloc %.1f ms; pinned: alloc+map %.1f, "
               "memcpy %.1f, write %.1f ms; 16 MiB chunks through pinned %.1f ms\n", mib, r, copy * 1e3,
               write * 1e3, pinmap * 1e3, (t2 - t1) * 1e3,
               (t3 - t2) * 1e3, chunks * 1e3);
    }
    free(h);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
