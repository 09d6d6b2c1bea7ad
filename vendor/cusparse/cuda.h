/* vendor/cusparse/cuda.h - what both CUDA yardsticks share (cuda.c): errors
 * named as CL_CHECK names them, device buffers whose lack of memory is exit 2,
 * step6's --device SEL read as a CUDA device, and the bandwidth of the CUDA
 * probe's samples (probe.h) as spmv_probe_finish computes it. */
#ifndef SPMV_VENDOR_CUDA_H
#define SPMV_VENDOR_CUDA_H

#include "capacity.h"
#include "spmv.h"

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include "probe.h"

void cuda_check(cudaError_t e, const char *call, const char *file, int line);
void sparse_check(cusparseStatus_t s, const char *call, const char *file, int line);
#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)
#define SPARSE_CHECK(call) sparse_check((call), #call, __FILE__, __LINE__)

/* A device buffer, copied from host if host != NULL; out of memory is exit 2. */
void *dev_buffer(size_t bytes, const void *host, const char *what, const char *device);

typedef struct {
    int index;
    char name[256], driver[256];
    size_t global_mem;
    spmv_limits limits;   /* this GPU, for the size checks (capacity.h): spmv_read_csr's second argument */
} cuda_device;

/* The NVIDIA kernel driver's version, where Linux shows it ("" elsewhere). */
void nvidia_driver(char *buf, size_t len);

/* What a program does when there is no CUDA device to run on: write its SKIP
 * row and exit 3. */
typedef void (*cuda_skip_fn)(const spmv_options *o, const char *device, const char *why) __attribute__((noreturn));

/* --device SEL (else SPMV_DEVICE) as a CUDA device, opened and printed; skip()
 * where there is none or SEL names none. */
void open_device(const spmv_options *o, cuda_device *d, cuda_skip_fn skip);

/* The bandwidth of the probe's samples, as spmv_probe_finish computes it. */
spmv_bandwidth probe_bandwidth(cuda_probe *p);

#endif
