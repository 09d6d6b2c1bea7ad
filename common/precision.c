/* precision.c - value types of step6; see precision.h. */
#include "precision.h"

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

void *spmv_prec_pack(const double *re, const double *im, size_t n, char p, spmv_error *err)
{
    int cplx = spmv_prec_complex(p), single = spmv_prec_single(p), w = cplx ? 2 : 1;
    void *out = spmv_alloc(n ? n * w : 1, single ? sizeof(float) : sizeof(double), "device values", err);
    if (!out)
        return NULL;
    float *f = out;
    double *d = out;
    for (size_t k = 0; k < n; k++) {
        double v[2] = { re[k], cplx && im ? im[k] : 0.0 };
        for (int j = 0; j < w; j++) {
            if (single)
                f[k * w + j] = (float)v[j];
            else
                d[k * w + j] = v[j];
        }
    }
    return out;
}

void *spmv_prec_pack_doubles(const double *v, size_t count, int single, spmv_error *err)
{
    void *out = spmv_alloc(count ? count : 1, single ? sizeof(float) : sizeof(double), "device vector", err);
    if (!out)
        return NULL;
    if (single)
        for (size_t i = 0; i < count; i++)
            ((float *)out)[i] = (float)v[i];
    else if (count)
        memcpy(out, v, count * sizeof *v);
    return out;
}
