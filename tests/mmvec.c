/* mmvec.c - check the files a step wrote with --save-matrix, --save-x and
 * --save-y, with the course's own reader and checker but none of its kernels.
 *
 * Build: the Makefile builds every tests/[name].c into build/tests/NAME.
 * Run:   mmvec check A.mtx x.mtx y.mtx P       y against the double reference of
 *                                              A x with the checker's tolerance
 *        mmvec agree A.mtx x.mtx y1.mtx y2.mtx P   two results agree row by row
 *                                              within the checker's tolerance
 *                                              (twice it: each may be off by one)
 *        mmvec residual A.mtx x.mtx y.mtx      norm(A*x - y) / norm(A*x), what the
 *                                              Octave and SciPy lines of chapter 0's Check it yourself print
 * P is the run's precision, s d c or z: for s and c the matrix is rounded to
 * float first, as the run rounded it (the saved matrix is the one read, in full).
 * Prints one line; exit 0 pass, 1 fail, 2 a file could not be read.
 */
#include "check.h"
#include "formats/formats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: mmvec check A x y P | agree A x y1 y2 P | residual A x y   (P: s d c z)\n");
    return 2;
}

static int die(const spmv_error *err)
{
    fprintf(stderr, "mmvec: error: %s\n", err->msg);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5)
        return usage();
    const char *cmd = argv[1];
    int agree = strcmp(cmd, "agree") == 0, residual = strcmp(cmd, "residual") == 0;
    if (!(strcmp(cmd, "check") == 0 && argc == 6) && !(agree && argc == 7) && !(residual && argc == 5))
        return usage();
    char prec = residual ? 'd' : argv[argc - 1][0];
    if (!strchr("sdcz", prec) || (!residual && argv[argc - 1][1]))
        return usage();
    int single = prec == 's' || prec == 'c';

    spmv_error err;
    coo_matrix C;
    csr_matrix A;
    if (matrix_read(argv[2], NULL, &C, &err))
        return die(&err);
    int rc = coo_to_csr(&C, &A, &err);
    coo_free(&C);
    if (rc)
        return die(&err);
    int cplx = A.im != NULL || prec == 'c' || prec == 'z';
    if (cplx && !A.im) {   /* a real matrix in a complex run: zero imaginary parts */
        A.im = calloc((size_t)A.nnz + 1, sizeof *A.im);
        if (!A.im)
            return fprintf(stderr, "mmvec: error: out of memory\n"), 2;
    }
    if (single)
        csr_round_to_float(NULL, &A);
    double *x = mm_read_vector(argv[3], A.cols, cplx, &err);
    if (!x)
        return die(&err);
    int w = cplx ? 2 : 1;
    if (single)
        for (long long i = 0; i < (long long)A.cols * w; i++)
            x[i] = (float)x[i];
    double *y1 = mm_read_vector(argv[4], A.rows, cplx, &err);
    if (!y1)
        return die(&err);
    double *y2 = agree ? mm_read_vector(argv[5], A.rows, cplx, &err) : NULL;
    if (agree && !y2)
        return die(&err);

    spmv_ref ref;
    if (csr_reference(NULL, &A, x, &ref, &err))
        return die(&err);
    int status = 0;
    if (residual) {
        double num = 0, den = 0;
        for (long long i = 0; i < (long long)A.rows * w; i++) {
            num += (ref.y[i] - y1[i]) * (ref.y[i] - y1[i]);
            den += ref.y[i] * ref.y[i];
        }
        printf("residual %.3g (norm(A*x - y) / norm(A*x))\n", den > 0 ? sqrt(num / den) : sqrt(num));
    } else if (!agree) {
        float *yf = malloc(((size_t)A.rows * w + 1) * sizeof *yf);
        if (!yf)
            return fprintf(stderr, "mmvec: error: out of memory\n"), 2;
        for (long long i = 0; i < (long long)A.rows * w; i++)
            yf[i] = (float)y1[i];
        spmv_check c = spmv_check_result(&ref, single ? (const void *)yf : (const void *)y1, single);
        printf("check %s: max error %.3g, %lld bad rows\n", c.pass ? "PASS" : "FAIL", c.max_err, c.bad_rows);
        status = !c.pass;
        free(yf);
    } else {
        /* the checker's rule, with room for both results' errors */
        double eps = single ? 0x1.0p-24 : 0x1.0p-53, worst = 0;
        long long bad = 0, first = -1;
        for (long long r = 0; r < A.rows; r++) {
            double tol = 2.0 * eps * (ref.len[r] + 10) * ref.scale[r] * (cplx ? 2.0 : 1.0);
            for (int j = 0; j < w; j++) {
                double d = fabs(y1[r * w + j] - y2[r * w + j]);
                double rel = ref.scale[r] > 0 ? d / ref.scale[r] : d;
                if (!(d <= tol)) {
                    bad++;
                    if (first < 0)
                        first = r;
                    rel = isnan(rel) ? INFINITY : rel;
                }
                if (rel > worst)
                    worst = rel;
            }
        }
        printf("agree %s: max difference %.3g of sum|a||x|, %lld bad values, first bad row %lld\n",
               bad ? "FAIL" : "PASS", worst, bad, first);
        status = bad != 0;
    }
    spmv_ref_free(&ref);
    free(x);
    free(y1);
    free(y2);
    csr_free(&A);
    return status;
}
