/* vendor/cusparse-cg/scalars.cu - the graph form's alpha and beta on the
 * device (scalars.h): three kernels of one thread each. They carry the state
 * that chapter 7's fused solver keeps in its cg_alpha kernel: the stopping
 * test before each iteration, and once the solve has ended, alpha = beta = 0,
 * so that the iterations still in a replayed block change neither x nor r. */
#include "scalars.h"

#include <cuda_runtime.h>

template <typename T> __global__ void init_k(T *s, int *st)
{
    for (int i = 0; i < CG_NSCAL; i++)
        s[i] = 0;
    s[CG_ONE] = 1;
    for (int i = 0; i < CG_NINT; i++)
        st[i] = 0;
}

template <typename T> __global__ void alpha_k(T *s, int *st, double stop)
{
    int active = 0;
    if (st[CG_END] == CG_RUNNING) {
        if (sqrt((double)s[CG_RR]) <= stop) {
            st[CG_END] = CG_END_CONVERGED;
        } else if (!(s[CG_PQ] > 0)) {   /* not positive definite, or NaN */
            st[CG_END] = CG_END_BREAKDOWN;
            s[CG_PQ_BREAK] = s[CG_PQ];
        } else {
            active = 1;
        }
    }
    st[CG_ACTIVE] = active;
    st[CG_LAUNCHED]++;
    st[CG_DONE] += active;
    s[CG_ALPHA] = active ? s[CG_RR] / s[CG_PQ] : (T)0;
    s[CG_NALPHA] = -s[CG_ALPHA];
}

template <typename T> __global__ void beta_k(T *s, int *st, double *hist, int cap)
{
    if (!st[CG_ACTIVE]) {
        s[CG_BETA] = 0;   /* p = r: bounded while the block runs out */
        return;
    }
    s[CG_BETA] = s[CG_RR_NEW] / s[CG_RR];
    s[CG_RR] = s[CG_RR_NEW];
    int k = st[CG_DONE] - 1;
    if (hist && k >= 0 && k < cap)
        hist[k] = (double)s[CG_RR_NEW];
}

static int *ints(void *state)
{
    return (int *)((char *)state + CG_INT_AT);
}

extern "C" void cg_scalars_init(int single, void *state, cudaStream_t s)
{
    if (single)
        init_k<float><<<1, 1, 0, s>>>((float *)state, ints(state));
    else
        init_k<double><<<1, 1, 0, s>>>((double *)state, ints(state));
}

extern "C" void cg_scalars_alpha(int single, void *state, double stop, cudaStream_t s)
{
    if (single)
        alpha_k<float><<<1, 1, 0, s>>>((float *)state, ints(state), stop);
    else
        alpha_k<double><<<1, 1, 0, s>>>((double *)state, ints(state), stop);
}

extern "C" void cg_scalars_beta(int single, void *state, double *hist, int cap, cudaStream_t s)
{
    if (single)
        beta_k<float><<<1, 1, 0, s>>>((float *)state, ints(state), hist, cap);
    else
        beta_k<double><<<1, 1, 0, s>>>((double *)state, ints(state), hist, cap);
}
