/* precision.c - value types of step6; see precision.h. */
#include "precision.h"
#include "run.h"
#include "stopwatch.h"

#include <stdlib.h>
#include <string.h>

int spmv_prec_complex(char p) { return p == 'c' || p == 'z'; }
int spmv_prec_single(char p) { return p == 's' || p == 'c'; }
int spmv_prec_value_size(char p) { return (spmv_prec_single(p) ? 4 : 8) * (spmv_prec_complex(p) ? 2 : 1); }

const char *spmv_prec_name(char p)
{
    switch (p) {
    case 's': return "float";
    case 'd': return "double";
    case 'c': return "complex float";
    case 'z': return "complex double";
    default: return "?";
    }
}

const char *spmv_prec_words(int single, int complex_)
{
    return complex_ ? (single ? "complex single precision" : "complex double precision")
                    : (single ? "single precision" : "double precision");
}

const char *spmv_prec_cl_type(char p)
{
    switch (p) {
    case 's': return "float";
    case 'd': return "double";
    case 'c': return "float2";
    case 'z': return "double2";
    default: return "?";
    }
}

void *spmv_prec_pack(spmv_run *run, const double *re, const double *im, size_t n, char p, spmv_error *err)
{
    int cplx = spmv_prec_complex(p), single = spmv_prec_single(p), w = cplx ? 2 : 1;
    double t0 = spmv_now();
    void *out = spmv_alloc(n ? n * w : 1, single ? sizeof(float) : sizeof(double), "device values", err);
    if (!out)
        return NULL;
    float *f = out;
    double *d = out;
    #pragma omp parallel for schedule(static)
    for (size_t k = 0; k < n; k++) {
        double v[2] = { re[k], cplx && im ? im[k] : 0.0 };
        for (int j = 0; j < w; j++) {
            if (single)
                f[k * w + j] = (float)v[j];
            else
                d[k * w + j] = v[j];
        }
    }
    spmv_phase_add(run, SPMV_PH_BUFFERS, spmv_now() - t0);
    return out;
}

void *spmv_prec_pack_doubles(const double *v, size_t count, int single, spmv_error *err)
{
    void *out = spmv_alloc(count ? count : 1, single ? sizeof(float) : sizeof(double), "device vector", err);
    if (!out)
        return NULL;
    float *f = out;
    if (single) {
        #pragma omp parallel for schedule(static)
        for (size_t i = 0; i < count; i++)
            f[i] = (float)v[i];
    } else if (count) {
        memcpy(out, v, count * sizeof *v);
    }
    return out;
}

void *spmv_prec_take(spmv_run *run, csr_matrix *A, char p, spmv_error *err)
{
    double t0 = spmv_now();
    size_t n = (size_t)A->nnz;
    int cplx = spmv_prec_complex(p);
    double *re = A->re, *im = A->im;
    void *out = re;
    if (p == 'z' || !re) {
        out = spmv_prec_pack(NULL, re, im, n, p, err);   /* timed below, once */
        if (!out)
            return NULL;
        free(re);
    } else if (p == 's') {
        /* float k goes to bytes 4k..4k+3 of the array that holds double k at
         * 8k: below it, so in rounds [2^i, 2^(i+1)) each round writes only what
         * the round before has read, and a round's items run in parallel */
        float *f = (float *)(void *)re;
        if (n)
            f[0] = (float)re[0];
        for (size_t lo = 1; lo < n; lo *= 2) {
            size_t hi = 2 * lo < n ? 2 * lo : n;
            #pragma omp parallel for schedule(static) if (hi - lo > 65536)
            for (size_t k = lo; k < hi; k++)
                f[k] = (float)re[k];
        }
        spmv_release_tail(re, n * sizeof(float), n * sizeof(double));
    } else if (p == 'c') {
        /* pair k (two floats) takes exactly the 8 bytes of double k */
        float *f = (float *)(void *)re;
        #pragma omp parallel for schedule(static)
        for (size_t k = 0; k < n; k++) {
            float a = (float)re[k], b = im ? (float)im[k] : 0.0f;
            f[2 * k] = a;
            f[2 * k + 1] = b;
        }
    }
    free(im);   /* complex double has its own copy; the others never need it again */
    A->re = A->im = NULL;
    (void)cplx;
    spmv_phase_add(run, SPMV_PH_BUFFERS, spmv_now() - t0);
    return out;
}
