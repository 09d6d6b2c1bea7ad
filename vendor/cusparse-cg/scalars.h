/* vendor/cusparse-cg/scalars.h - the graph form's scalars on the device
 * (scalars.cu): alpha and beta computed by kernels of one thread from the dots
 * cuBLAS wrote to device memory, so that no iteration reads anything back and
 * the iteration can be captured as a CUDA graph. C linkage: main.c is C, this
 * is compiled by nvcc.
 *
 * The state is one device buffer of CG_STATE_BYTES: CG_NSCAL scalars of the
 * solve's precision (float or double; the slots below), then CG_NINT ints (at
 * byte CG_INT_AT) that the host reads back in one copy. */
#ifndef SPMV_CG_SCALARS_H
#define SPMV_CG_SCALARS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the scalar slots: r.r, p.q (cublasXdot writes it), the new r.r (cublasXdot),
 * alpha, -alpha, beta, the constant 1 (p += 1 r), and p.q at a breakdown */
enum { CG_RR, CG_PQ, CG_RR_NEW, CG_ALPHA, CG_NALPHA, CG_BETA, CG_ONE, CG_PQ_BREAK, CG_NSCAL };
/* the ints: how the solve ended (CG_RUNNING until it does), iterations done,
 * iterations launched (done + frozen ones), whether this iteration is done */
enum { CG_END, CG_DONE, CG_LAUNCHED, CG_ACTIVE, CG_NINT };
enum { CG_RUNNING, CG_END_CONVERGED, CG_END_BREAKDOWN };
#define CG_INT_AT (CG_NSCAL * 8)
#define CG_STATE_BYTES (CG_INT_AT + CG_NINT * 4)

/* state: the scalars zero but CG_ONE = 1, the ints zero */
void cg_scalars_init(int single, void *state, cudaStream_t s);
/* before the iteration's update: the test before each iteration (sqrt(rr) <=
 * stop: converged; p.q <= 0 or NaN: breakdown, p.q kept), then alpha = rr / pq
 * and -alpha, or 0 once the solve has ended (x and r then stay as they are) */
void cg_scalars_alpha(int single, void *state, double stop, cudaStream_t s);
/* after r.r: beta = rr_new / rr, rr = rr_new (and hist[done - 1] = rr_new in
 * double, where hist is not NULL and done <= cap), or beta = 0 once ended */
void cg_scalars_beta(int single, void *state, double *hist, int cap, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
