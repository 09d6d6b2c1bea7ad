/* tools/cg-beta.c - where chapter 7's pipelined version loses iterations:
 * CG on the host, in double, four ways, on one symmetric Matrix Market
 * file (step7-cg/TUNING.md, "The pipelined version's beta", ran it):
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
 *   cc -O2 tools/cg-beta.c -o build/cg-beta -lm
 *   build/cg-beta tests/data/494_bus.mtx [M ...]     (default M: 10 50 200)
 *
 * Reads "coordinate real symmetric" files only; exit 2 with one line on
 * anything else. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, *ptr, *col;
    double *val;
} csr;

static void die(const char *what, const char *path)
{
    fprintf(stderr, "cg-beta: %s: %s\n", path, what);
    exit(2);
}

/* both triangles of a symmetric coordinate file, rows in order */
static csr read_mm(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot open", path);
    char line[1024];
    if (!fgets(line, sizeof line, f) || !strstr(line, "coordinate") || !strstr(line, "real") ||
        !strstr(line, "symmetric"))
        die("not a coordinate real symmetric Matrix Market file", path);
    do
        if (!fgets(line, sizeof line, f))
            die("no size line", path);
    while (line[0] == '%');
    int n, m;
    long nz;
    if (sscanf(line, "%d %d %ld", &n, &m, &nz) != 3 || n != m || n <= 0 || nz <= 0 || nz > 100000000L)
        die("a bad size line", path);
    int *ri = malloc(2 * nz * sizeof *ri), *ci = malloc(2 * nz * sizeof *ci);
    double *v = malloc(2 * nz * sizeof *v);
    csr A = { n, calloc((size_t)n + 1, sizeof(int)), NULL, NULL };
    if (!ri || !ci || !v || !A.ptr)
        die("out of memory", path);
    long k = 0;
    for (long e = 0; e < nz; e++) {
        int i, j;
        double a;
        if (fscanf(f, "%d %d %lf", &i, &j, &a) != 3 || i < 1 || j < 1 || i > n || j > n)
            die("a bad entry", path);
        ri[k] = i - 1, ci[k] = j - 1, v[k++] = a;
        if (i != j)
            ri[k] = j - 1, ci[k] = i - 1, v[k++] = a;
    }
    fclose(f);
    for (long e = 0; e < k; e++)
        A.ptr[ri[e] + 1]++;
    for (int i = 0; i < n; i++)
        A.ptr[i + 1] += A.ptr[i];
    A.col = malloc(k * sizeof *A.col), A.val = malloc(k * sizeof *A.val);
    int *at = malloc((size_t)n * sizeof *at);
    if (!A.col || !A.val || !at)
        die("out of memory", path);
    memcpy(at, A.ptr, (size_t)n * sizeof *at);
    for (long e = 0; e < k; e++) {
        A.col[at[ri[e]]] = ci[e];
        A.val[at[ri[e]]++] = v[e];
    }
    free(ri), free(ci), free(v), free(at);
    return A;
}

static void spmv(const csr *A, const double *x, double *y)
{
    for (int i = 0; i < A->n; i++) {
        double s = 0;
        for (int k = A->ptr[i]; k < A->ptr[i + 1]; k++)
            s += A->val[k] * x[A->col[k]];
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
static int cg(const csr *A, const double *b, int how, int every, int maxiter)
{
    int n = A->n;
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
    csr A = read_mm(argv[1]);
    double *b = malloc((size_t)A.n * sizeof *b);
    if (!b)
        die("out of memory", argv[1]);
    unsigned long long s = 42;
    for (int i = 0; i < A.n; i++) {   /* a 64-bit LCG's top 53 bits, in [-1, 1) */
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
    }
    int maxiter = 100 * A.n;
    printf("%s, %d rows: textbook %d, pipelined %d", argv[1], A.n, cg(&A, b, TEXTBOOK, 0, maxiter),
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
