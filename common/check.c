/* check.c - reference product and checker; see check.h for the tolerance. */
#include "check.h"
#include "results.h"
#include "run.h"
#include "stopwatch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ref_alloc(spmv_ref *ref, long long n, int cplx, spmv_error *err)
{
    memset(ref, 0, sizeof *ref);
    ref->n = n;
    ref->complex_ = cplx;
    ref->y = spmv_alloc((size_t)n * (cplx ? 2 : 1), sizeof *ref->y, "reference result", err);
    ref->scale = spmv_alloc((size_t)n, sizeof *ref->scale, "reference scale", err);
    ref->len = spmv_alloc((size_t)n, sizeof *ref->len, "reference row lengths", err);
    ref->ibound = spmv_alloc((size_t)n, sizeof *ref->ibound, "reference integer bounds", err);
    if (!ref->y || !ref->scale || !ref->len || !ref->ibound) {
        spmv_ref_free(ref);
        return -1;
    }
    return 0;
}

void spmv_ref_free(spmv_ref *ref)
{
    free(ref->y);
    free(ref->scale);
    free(ref->len);
    free(ref->ibound);
    ref->y = ref->scale = ref->ibound = NULL;
    ref->len = NULL;
}

/* v is a whole number (the references mark a row all of whose terms are) */
static int integral(double v)
{
    return v == floor(v);
}

int dia_reference(spmv_run *run, const dia_matrix *A, const float *x, spmv_ref *ref, spmv_error *err)
{
    double t0 = spmv_now();
    if (ref_alloc(ref, A->rows, 0, err))
        return -1;
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < A->rows; r++) {
        double sum = 0, scale = 0;
        int len = 0, ints = 1;
        for (int d = 0; d < A->ndiag; d++) {
            long long c = (long long)r + A->offsets[d];
            if (c < 0 || c >= A->cols)
                continue;
            double a = A->values[(size_t)d * A->pitch + r];
            if (a == 0.0)
                continue;
            sum += a * x[c];
            scale += fabs(a) * fabs((double)x[c]);
            ints &= integral(a) && integral(x[c]);
            len++;
        }
        ref->y[r] = sum;
        ref->scale[r] = scale;
        ref->len[r] = len;
        ref->ibound[r] = ints ? scale : -1;
    }
    spmv_phase_add(run, SPMV_PH_REFERENCE, spmv_now() - t0);
    return 0;
}

int csr_reference(spmv_run *run, const csr_matrix *A, const double *x, spmv_ref *ref, spmv_error *err)
{
    double t0 = spmv_now();
    int cplx = A->im != NULL;
    if (ref_alloc(ref, A->rows, cplx, err))
        return -1;
    #pragma omp parallel for schedule(dynamic, 1024)
    for (int r = 0; r < A->rows; r++) {
        double re = 0, im = 0, scale = 0, bound = 0;
        int ints = 1;
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
            int c = A->col[k];
            if (cplx) {
                double ar = A->re[k], ai = A->im[k], xr = x[2 * c], xi = x[2 * c + 1];
                re += ar * xr - ai * xi;
                im += ar * xi + ai * xr;
                scale += hypot(ar, ai) * hypot(xr, xi);
                bound += (fabs(ar) + fabs(ai)) * (fabs(xr) + fabs(xi));
                ints &= integral(ar) && integral(ai) && integral(xr) && integral(xi);
            } else {
                re += A->re[k] * x[c];
                scale += fabs(A->re[k]) * fabs(x[c]);
                ints &= integral(A->re[k]) && integral(x[c]);
            }
        }
        ref->ibound[r] = !ints ? -1 : cplx ? bound : scale;
        if (cplx) {
            ref->y[2 * r] = re;
            ref->y[2 * r + 1] = im;
        } else {
            ref->y[r] = re;
        }
        ref->scale[r] = scale;
        ref->len[r] = A->ptr[r + 1] - A->ptr[r];
    }
    spmv_phase_add(run, SPMV_PH_REFERENCE, spmv_now() - t0);
    return 0;
}

/* Rows in parallel: the largest error is a maximum, the first bad row a
 * minimum and the bad rows a count, so the verdict and every number printed
 * are the same whatever the number of threads. */
spmv_check spmv_check_result(const spmv_ref *ref, const void *y_dev, int single)
{
    spmv_check c = { 1, 0.0, -1, 0.0, 0.0, 0, 0 };
    const float *yf = y_dev;
    const double *yd = y_dev;
    double eps = single ? 0x1.0p-24 : 0x1.0p-53;
    /* every integer up to here is held exactly: 2^24 in float; in double
     * 2^44, not 2^53, since step 6's last-chunk word (--combine last) keeps
     * a double sum to 45 bits, by design within the tolerance */
    double exact_below = single ? 0x1.0p24 : 0x1.0p44;
    int w = ref->complex_ ? 2 : 1;
    double max_err = 0;
    long long first_bad = ref->n, bad_rows = 0, exact_rows = 0;
    #pragma omp parallel for schedule(static) reduction(max : max_err) reduction(min : first_bad) \
        reduction(+ : bad_rows, exact_rows)
    for (long long r = 0; r < ref->n; r++) {
        /* a complex product adds one more rounding per term: double the
         * allowance; a row of integers that no partial sum can round: none */
        int exact = ref->ibound[r] >= 0 && ref->ibound[r] <= exact_below;
        double tol = exact ? 0 : eps * (ref->len[r] + 10) * ref->scale[r] * (ref->complex_ ? 2.0 : 1.0);
        exact_rows += exact && ref->len[r] > 0;
        double worst = 0;
        int bad = 0;
        for (int j = 0; j < w; j++) {
            size_t i = (size_t)r * w + j;
            double got = single ? (double)yf[i] : yd[i];
            double diff = fabs(got - ref->y[i]);
            if (!(diff <= tol))   /* NaN lands here */
                bad = 1;
            double rel = ref->scale[r] > 0 ? diff / ref->scale[r] : diff;
            if (isnan(rel))
                rel = INFINITY;
            if (rel > worst)
                worst = rel;
        }
        if (worst > max_err)
            max_err = worst;
        if (bad) {
            if (r < first_bad)
                first_bad = r;
            bad_rows++;
        }
    }
    c.max_err = max_err;
    c.exact_rows = exact_rows;
    if (bad_rows) {
        c.pass = 0;
        c.bad_rows = bad_rows;
        c.first_bad = first_bad;
        c.got = single ? (double)yf[(size_t)first_bad * w] : yd[(size_t)first_bad * w];
        c.want = ref->y[(size_t)first_bad * w];
    }
    return c;
}

void spmv_check_print(const spmv_run *run, const spmv_check *c)
{
    printf("check    max error %.3g (relative to sum|a||x| of its row)", c->max_err);
    if (c->pass && c->exact_rows) {
        printf(", within eps*(n+10); %lld rows of integers to the last bit\n", c->exact_rows);
    } else if (c->pass) {
        printf(", within eps*(n+10)\n");
    } else {
        printf("\ncheck    %lld bad rows; first bad row %lld: got %.9g, expected %.9g\n",
               c->bad_rows, c->first_bad, c->got, c->want);
    }
    fflush(stdout);   /* the verdict is a result line (results.h): after the lines above */
    fprintf(spmv_results(run), "check: %s\n", c->pass ? "PASS" : "FAIL");
}

float *spmv_random_floats(size_t n, uint64_t seed, spmv_error *err)
{
    float *x = spmv_alloc(n, sizeof *x, "vector x", err);
    if (!x)
        return NULL;
    uint64_t s = seed ^ 0x5eedf00dULL;
    #pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        x[i] = (float)spmv_rng_uniform_at(s, i);
    return x;
}

double *spmv_random_doubles(size_t n, uint64_t seed, int round_to_float, spmv_error *err)
{
    double *x = spmv_alloc(n, sizeof *x, "vector x", err);
    if (!x)
        return NULL;
    uint64_t s = seed ^ 0x5eedf00dULL;
    #pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        x[i] = spmv_rng_uniform_at(s, i);
        if (round_to_float)
            x[i] = (float)x[i];
    }
    return x;
}
