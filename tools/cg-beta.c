/* tools/cg-beta.c - where chapter 7's pipelined version loses iterations:
 * CG on the host, in double, four ways, on one symmetric matrix file
 * (step7-cg/TUNING.md, "The pipelined version's beta", ran it):
 *
 *   textbook    beta = r'.r' / r.r, as plain and fused take it
 *   pipelined   beta = (alpha^2 Ap.Ap - r.r) / r.r, as cg_pipelined takes
 *               it (r.r itself summed from r, as its kernel does)
 *   replaced    pipelined, and every M iterations r = b - A x (residual
 *               replacement: r.r from it, p kept)
 *   restarted   pipelined, and every M iterations r = b - A x and p = r
 *
 * Each to |r|/|b| <= 1e-10 (the recurrence's r), from x0 = 0, b seeded
 * random in [-1, 1) (not step7's b: compare the columns of one run).
 * Not part of any chapter and not built by `make`:
 *
 *   make build/libspmv.a
 *   cc -O2 -Icommon tools/cg-beta.c build/libspmv.a -fopenmp -lOpenCL -lm -o build/cg-beta
 *   build/cg-beta tests/data/494_bus.mtx [M ...]     (default M: 10 50 200)
 *
 * Reads the file as every chapter does (common/formats: Matrix Market or
 * Harwell-Boeing); exit 2 with one line on a file it cannot read or a
 * matrix that is not square and real. */
#include "formats/formats.h"
#include "matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, const char *path)
{
    if (path)
        fprintf(stderr, "cg-beta: %s: %s\n", path, what);
    else
        fprintf(stderr, "cg-beta: %s\n", what);
    exit(2);
}

/* the file as every chapter reads it (common/formats: Matrix Market or
 * Harwell-Boeing, symmetric storage expanded), as CSR */
static csr_matrix read_matrix(const char *path)
{
    spmv_error err;
    coo_matrix C;
    csr_matrix A;
    if (matrix_read(path, NULL, &C, &err) || coo_to_csr(&C, &A, &err))
        die(err.msg, NULL);   /* the message names the file */
    coo_free(&C);
    if (A.rows != A.cols || A.im)
        die("not a square real matrix", path);
    return A;
}

static void spmv(const csr_matrix *A, const double *x, double *y)
{
    for (int i = 0; i < A->rows; i++) {
        double s = 0;
        for (int k = A->ptr[i]; k < A->ptr[i + 1]; k++)
            s += A->re[k] * x[A->col[k]];
        y[i] = s;
    }
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

enum { TEXTBOOK, PIPELINED, REPLACED, RESTARTED };

/* iterations to |r| <= 1e-10 |b| (maxiter: -1) */
static int cg(const csr_matrix *A, const double *b, int how, int every, int maxiter)
{
    int n = A->rows;
    double *x = calloc(n, sizeof *x), *r = malloc(n * sizeof *r), *p = malloc(n * sizeof *p),
           *q = malloc(n * sizeof *q);
    if (!x || !r || !p || !q)
        die("out of memory", "the vectors");
    memcpy(r, b, n * sizeof *r);
    memcpy(p, b, n * sizeof *p);
    double bb = dot(n, b, b), rr = bb, thresh = 1e-20 * bb;
    int it = 0;
    for (; it < maxiter && rr > thresh; it++) {
        if (how >= REPLACED && it > 0 && it % every == 0) {   /* r = b - A x */
            spmv(A, x, q);
            for (int i = 0; i < n; i++) {
                r[i] = b[i] - q[i];
                if (how == RESTARTED)
                    p[i] = r[i];
            }
            rr = dot(n, r, r);
        }
        spmv(A, p, q);
        double pq = dot(n, p, q), qq = dot(n, q, q), alpha = rr / pq;
        if (!(pq > 0))
            break;
        for (int i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        double rr_new = dot(n, r, r);
        double beta = how == TEXTBOOK ? rr_new / rr : (alpha * alpha * qq - rr) / rr;
        for (int i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
        rr = rr_new;
    }
    free(x), free(r), free(p), free(q);
    return rr <= thresh ? it : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: cg-beta FILE.mtx [M ...]\n");
        return 2;
    }
    csr_matrix A = read_matrix(argv[1]);
    double *b = malloc((size_t)A.rows * sizeof *b);
    if (!b)
        die("out of memory", argv[1]);
    unsigned long long s = 42;
    for (int i = 0; i < A.rows; i++) {   /* a 64-bit LCG's top 53 bits, in [-1, 1) */
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
    }
    int maxiter = 100 * A.rows;
    printf("%s, %d rows: textbook %d, pipelined %d", argv[1], A.rows, cg(&A, b, TEXTBOOK, 0, maxiter),
           cg(&A, b, PIPELINED, 0, maxiter));
    int ms[] = { 10, 50, 200 }, nm = argc > 2 ? argc - 2 : 3;
    for (int j = 0; j < nm; j++) {
        int m = argc > 2 ? atoi(argv[2 + j]) : ms[j];
        if (m < 1)
            die("M must be a positive count", argv[2 + j]);
        printf("; every %d: replaced %d, restarted %d", m, cg(&A, b, REPLACED, m, maxiter),
               cg(&A, b, RESTARTED, m, maxiter));
    }
    printf(" (iterations to |r|/|b| <= 1e-10; -1: not in %d)\n", maxiter);
    return 0;
}
