/* tests/unit.c - unit tests of common/: the generator, every conversion, the
 * reference and the checker; and chapter 7's host CG
 * (step7-cg/reference/cg.c). Prints "PASS name" / "FAIL name: why" lines
 * (tests/t_common_unit.sh counts them). Real matrices are read from the directories
 * given on the command line, when there are any. */
#include "../step7-cg/reference/cg.h"
#include "capacity.h"
#include "formats/formats.h"
#include "precision.h"
#include "spmv.h"

#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;

static void result(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void result(int ok, const char *name, const char *fmt, ...)
{
    if (ok) {
        printf("PASS %s\n", name);
        return;
    }
    failures++;
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    printf("FAIL %s: %s\n", name, why);
}

/* Dense copy of any format, for comparisons on small matrices. */
static double *dense_of_csr(const csr_matrix *A)
{
    double *d = calloc((size_t)A->rows * A->cols, sizeof *d);
    for (int r = 0; r < A->rows; r++)
        for (int k = A->ptr[r]; k < A->ptr[r + 1]; k++)
            d[(size_t)r * A->cols + A->col[k]] += A->re[k];
    return d;
}

static double *dense_of_dia(const dia_matrix *A)
{
    double *d = calloc((size_t)A->rows * A->cols, sizeof *d);
    for (int g = 0; g < A->ndiag; g++)
        for (int r = 0; r < A->rows; r++) {
            long long c = (long long)r + A->offsets[g];
            float v = A->values[(size_t)g * A->pitch + r];
            if (c >= 0 && c < A->cols)
                d[(size_t)r * A->cols + c] += v;
            else if (v != 0.0f)
                d[0] = NAN;   /* a value stored outside the matrix is a bug */
        }
    return d;
}

static int same_dense(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(a[i] == b[i]))
            return 0;
    return 1;
}

static void test_generator(void)
{
    spmv_error err;
    dia_matrix A;
    result(grid_stencil_points(5) == 81, "stencil R=5 has 81 points", "got %d", grid_stencil_points(5));
    result(grid_stencil_points(10) == 317, "stencil R=10 has 317 points", "got %d", grid_stencil_points(10));
    result(grid_stencil_points(0) == 1, "stencil R=0 has 1 point", "got %d", grid_stencil_points(0));

    int rc = dia_generate_grid(64, 48, 5, 1, 32, &A, &err);
    result(rc == 0 && A.ndiag == 81, "64x48 R=5: 81 diagonals", "rc %d, %d diagonals", rc, A.ndiag);
    /* 11 bands: offsets cluster around dy*w for dy = -5..5, each band dx = -k..k */
    int bands = 0, ok = 1;
    for (int dy = -5; dy <= 5; dy++) {
        int k = 0;
        while (k * k + dy * dy <= 25)
            k++;
        k--;   /* |dx| <= k in this band */
        int count = 0;
        for (int d = 0; d < A.ndiag; d++)
            if (A.offsets[d] >= dy * 64 - k && A.offsets[d] <= dy * 64 + k)
                count++;
        bands += count > 0;
        ok &= count == 2 * k + 1;
    }
    result(bands == 11 && ok, "64x48 R=5: 11 bands of 2k+1 diagonals", "bands %d, widths ok %d", bands, ok);
    int asc = 1;
    for (int d = 1; d < A.ndiag; d++)
        asc &= A.offsets[d] > A.offsets[d - 1];
    result(asc && A.offsets[0] == -5 * 64 && A.offsets[80] == 5 * 64, "offsets ascend from -5w to 5w",
           "first %d last %d", A.offsets[0], A.offsets[A.ndiag - 1]);
    result(A.pitch % 32 == 0 && A.pitch >= (size_t)A.rows, "pitch padded to 32", "pitch %zu", A.pitch);
    /* true nonzeros: count the links inside the grid by brute force */
    long long links = 0;
    for (int j = 0; j < 48; j++)
        for (int i = 0; i < 64; i++)
            for (int dy = -5; dy <= 5; dy++)
                for (int dx = -5; dx <= 5; dx++)
                    links += dx * dx + dy * dy <= 25 && i + dx >= 0 && i + dx < 64 && j + dy >= 0 && j + dy < 48;
    result(A.nnz == links, "nnz counts links inside the grid", "nnz %lld, links %lld", A.nnz, links);
    /* padding and out-of-grid slots are zero, links are not */
    long long nonzero = 0;
    for (size_t i = 0; i < (size_t)A.ndiag * A.pitch; i++)
        nonzero += A.values[i] != 0.0f;
    result(nonzero == links, "exactly the links are nonzero", "%lld nonzero values", nonzero);
    dia_matrix B;
    dia_generate_grid(64, 48, 5, 1, 32, &B, &err);
    result(memcmp(A.values, B.values, A.ndiag * A.pitch * sizeof(float)) == 0, "same seed, same matrix", "differs");
    dia_free(&B);
    dia_generate_grid(64, 48, 5, 2, 32, &B, &err);
    result(memcmp(A.values, B.values, A.ndiag * A.pitch * sizeof(float)) != 0, "another seed, another matrix",
           "identical");
    dia_free(&B);
    dia_free(&A);

    /* narrow grid: offsets coincide, a row still sees each neighbour once */
    rc = dia_generate_grid(3, 7, 5, 1, 1, &A, &err);
    long long l3 = 0;
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 3; i++)
            for (int dy = -5; dy <= 5; dy++)
                for (int dx = -5; dx <= 5; dx++)
                    l3 += dx * dx + dy * dy <= 25 && i + dx >= 0 && i + dx < 3 && j + dy >= 0 && j + dy < 7;
    result(rc == 0 && A.nnz == l3 && A.ndiag < 81, "3x7 grid: coinciding offsets merged", "nnz %lld want %lld, %d diags",
           A.nnz, l3, A.ndiag);
    dia_free(&A);
    rc = dia_generate_grid(1, 1, 5, 1, 1, &A, &err);
    result(rc == 0 && A.ndiag == 1 && A.nnz == 1 && A.offsets[0] == 0, "1x1 grid: one entry", "%d diags", A.ndiag);
    dia_free(&A);
    rc = dia_generate_grid(0, 5, 5, 1, 1, &A, &err);
    result(rc == -1 && strstr(err.msg, "at least 1"), "0-wide grid refused", "rc %d '%s'", rc, err.msg);
    rc = dia_generate_grid(60000, 60000, 5, 1, 1, &A, &err);
    result(rc == -1 && strstr(err.msg, "at most"), "2^31 points refused",
           "rc %d '%s'", rc, err.msg);
}

/* --gen poisson: the 5-point Laplacian, checked entry by entry against its
 * definition on sizes that are not multiples of anything, and thin ones */
static void test_poisson(void)
{
    static const int sizes[][2] = { { 37, 29 }, { 45, 31 }, { 1, 1 }, { 1, 7 }, { 9, 1 }, { 2, 2 }, { 64, 3 } };
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        int W = sizes[t][0], H = sizes[t][1], n = W * H;
        char spec[64], name[192];
        if (t % 2)
            snprintf(spec, sizeof spec, "poisson:nx=%d,ny=%d", W, H);
        else if (W == H)
            snprintf(spec, sizeof spec, "poisson:nx=%d", W);
        else
            snprintf(spec, sizeof spec, "poisson:ny=%d,nx=%d", H, W);
        csr_matrix A;
        spmv_error err;
        int rc = csr_generate(spec, 5, NULL, &A, &err);
        int ok = rc == 0 && A.rows == n && A.cols == n && A.nnz == 5LL * n - 2 * W - 2 * H && A.ptr[0] == 0 &&
                 A.ptr[n] == A.nnz;
        double *D = ok ? dense_of_csr(&A) : NULL;
        int bad = -1;
        for (int i = 0; D && i < n && bad < 0; i++) {
            int x = i % W, y = i / W;
            for (int j = 0; j < n && bad < 0; j++) {
                int xj = j % W, yj = j / W, d = abs(x - xj) + abs(y - yj);
                double want = i == j ? 4 : d == 1 ? -1 : 0;
                if (D[(size_t)i * n + j] != want || D[(size_t)i * n + j] != D[(size_t)j * n + i])
                    bad = i;
            }
            for (int k = A.ptr[i]; k + 1 < A.ptr[i + 1]; k++)
                if (A.col[k] >= A.col[k + 1])
                    bad = i;
        }
        snprintf(name, sizeof name, "gen %s: %d rows, 5n-2W-2H nonzeros, 4/-1 stencil, symmetric, ascending", spec, n);
        result(ok && D && bad < 0, name, "rc %d '%s', nnz %lld, first bad row %d", rc, rc ? err.msg : "",
               rc ? 0 : A.nnz, bad);
        if (t == 0)
            result(rc == 0 && strcmp(A.origin.name, "poisson:nx=37,ny=29") == 0, "gen poisson: its name",
                   "got '%s'", rc ? "" : A.origin.name);
        free(D);
        if (rc == 0)
            csr_free(&A);
    }
    csr_matrix A;
    spmv_error err;
    int rc = csr_generate("poisson:ny=4", 1, NULL, &A, &err);
    result(rc == -1 && strstr(err.msg, "needs nx=W"), "gen poisson: nx required", "rc %d '%s'", rc, err.msg);
    rc = csr_generate("poisson:nx=4,rows=3", 1, NULL, &A, &err);
    result(rc == -1 && strstr(err.msg, "takes nx, ny, not 'rows'"), "gen poisson: unknown key", "rc %d '%s'", rc,
           err.msg);
    rc = csr_generate("poisson:nx=50000,ny=50000", 1, NULL, &A, &err);
    result(rc == -1 && strstr(err.msg, "2^31"), "gen poisson: 2^31 rows refused", "rc %d '%s'", rc, err.msg);
    rc = csr_generate("poisson:nx=2.5", 1, NULL, &A, &err);
    result(rc == -1 && strstr(err.msg, "whole number"), "gen poisson: nx=2.5 refused", "rc %d '%s'", rc, err.msg);
}

/* --gen poisson3d and stencil27: checked entry by entry against their
 * definition (7 points: |dx|+|dy|+|dz| <= 1; 27: max |d| <= 1) on odd boxes,
 * thin ones and one point; symmetric, columns ascending, the nonzeros of the
 * closed forms, 7 or 27 in an inside row; the same bits on 1 and 2 threads;
 * the host's CG converges on both (symmetric positive definite); bad specs */
static int same_csr(const csr_matrix *a, const csr_matrix *b);

static void test_box(void)
{
    static const int sizes[][3] = { { 5, 4, 3 }, { 1, 1, 1 }, { 1, 1, 7 }, { 2, 2, 2 }, { 3, 3, 3 }, { 6, 1, 5 },
                                    { 4, 4, 4 } };
    for (int full = 0; full < 2; full++)
        for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
            int X = sizes[t][0], Y = sizes[t][1], Z = sizes[t][2], n = X * Y * Z;
            const char *kind = full ? "stencil27" : "poisson3d";
            char spec[64], name[256];
            if (X == Y && Y == Z)
                snprintf(spec, sizeof spec, "%s:nx=%d", kind, X);
            else if (t % 2)
                snprintf(spec, sizeof spec, "%s:nz=%d,nx=%d,ny=%d", kind, Z, X, Y);
            else
                snprintf(spec, sizeof spec, "%s:nx=%d,ny=%d,nz=%d", kind, X, Y, Z);
            long long want_nnz = full ? (3LL * X - 2) * (3 * Y - 2) * (3 * Z - 2)
                                      : 7LL * n - 2 * ((long long)X * Y + Y * Z + X * Z);
            csr_matrix A;
            spmv_error err;
            int rc = csr_generate(spec, 5, NULL, &A, &err);
            int ok = rc == 0 && A.rows == n && A.cols == n && A.nnz == want_nnz && A.ptr[0] == 0 && A.ptr[n] == A.nnz;
            double *D = ok ? dense_of_csr(&A) : NULL;
            int bad = -1;
            for (int i = 0; D && i < n && bad < 0; i++) {
                int x = i % X, y = i / X % Y, z = i / (X * Y);
                for (int j = 0; j < n && bad < 0; j++) {
                    int dx = abs(x - j % X), dy = abs(y - j / X % Y), dz = abs(z - j / (X * Y));
                    int near = full ? dx <= 1 && dy <= 1 && dz <= 1 : dx + dy + dz <= 1;
                    double want = i == j ? (full ? 26 : 6) : near ? -1 : 0;
                    if (D[(size_t)i * n + j] != want || D[(size_t)i * n + j] != D[(size_t)j * n + i])
                        bad = i;
                }
                for (int k = A.ptr[i]; k + 1 < A.ptr[i + 1]; k++)
                    if (A.col[k] >= A.col[k + 1])
                        bad = i;
                int inside = x > 0 && x < X - 1 && y > 0 && y < Y - 1 && z > 0 && z < Z - 1;
                if (inside && A.ptr[i + 1] - A.ptr[i] != (full ? 27 : 7))
                    bad = i;
            }
            snprintf(name, sizeof name, "gen %s: %d rows, %s nonzeros, %s stencil, symmetric, ascending", spec, n,
                     full ? "(3nx-2)(3ny-2)(3nz-2)" : "7n-2(nx ny+ny nz+nx nz)", full ? "26/-1 27-point" : "6/-1 7-point");
            result(ok && D && bad < 0, name, "rc %d '%s', nnz %lld (want %lld), first bad row %d", rc, rc ? err.msg : "",
                   rc ? 0 : A.nnz, want_nnz, bad);
            if (t == 0) {
                char want_name[64];
                snprintf(want_name, sizeof want_name, "%s:nx=5,ny=4,nz=3", kind);
                result(rc == 0 && strcmp(A.origin.name, want_name) == 0, full ? "gen stencil27: its name"
                       : "gen poisson3d: its name", "got '%s'", rc ? "" : A.origin.name);
            }
            free(D);
            if (rc == 0)
                csr_free(&A);
        }
    /* larger, on 1 and 2 threads: the same bits; the host's CG converges (SPD) */
    for (int full = 0; full < 2; full++) {
        const char *spec = full ? "stencil27:nx=23,ny=19,nz=17" : "poisson3d:nx=23,ny=19,nz=17";
        csr_matrix G[2];
        spmv_error err;
        int rc = 0;
        for (int t = 0; t < 2; t++) {
            omp_set_num_threads(t + 1);
            rc |= csr_generate(spec, 1, NULL, &G[t], &err);
        }
        omp_set_num_threads(2);
        char name[128];
        snprintf(name, sizeof name, "gen %s: 1 and 2 threads, same bits", spec);
        result(rc == 0 && same_csr(&G[0], &G[1]), name, "rc %d", rc);
        int r0, c0, n = G[0].rows;
        double *b = malloc(sizeof(double) * (size_t)n), *x = malloc(sizeof(double) * (size_t)n);
        for (int i = 0; i < n; i++)
            b[i] = spmv_rng_uniform_at(9, (uint64_t)i);
        spmv_cg_result res;
        rc = rc || spmv_csr_symmetric(&G[0], &r0, &c0) != 1 || spmv_cg_host(&G[0], b, x, 1e-10, 1000, &res, &err);
        double tr = rc ? 1 : spmv_cg_true_residual(&G[0], b, x);
        snprintf(name, sizeof name, "gen %s: symmetric, the host's CG converges to 1e-10", spec);
        result(rc == 0 && res.end == CG_CONVERGED && tr <= 1e-9, name, "rc %d end %d, true residual %g", rc,
               rc ? -1 : (int)res.end, tr);
        if (rc == 0)
            spmv_cg_result_free(&res);
        free(b);
        free(x);
        csr_free(&G[0]);
        csr_free(&G[1]);
    }
    static const struct {
        const char *spec, *says;
    } bad[] = {
        { "poisson3d:ny=4", "needs nx=N" },
        { "stencil27", "needs nx=N" },
        { "poisson3d:nx=4,rows=3", "takes nx, ny, nz, not 'rows'" },
        { "stencil27:nx=4,ny", "not key=value" },
        { "poisson3d:nx=2.5", "whole number" },
        { "stencil27:nx=0", "from 1" },
        { "stencil27:nx=-3", "from 1" },
        { "poisson3d:nx=abc", "from 1" },
        { "poisson3d:nx=1300", "2^31 rows" },
        { "stencil27:nx=2147483646", "2^31 rows" },
        { "poisson3d:nx=2147483646,ny=2,nz=2147483646", "2^31 rows" },
        { "stencil27:nx=440", "nonzeros, more than 2^31" },
        { "poisson3d:nx=1290", "nonzeros, more than 2^31" },
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        csr_matrix A;
        spmv_error err;
        char name[128];
        int rc = csr_generate(bad[t].spec, 1, NULL, &A, &err);
        snprintf(name, sizeof name, "gen %s: refused (%s)", bad[t].spec, bad[t].says);
        result(rc == -1 && strstr(err.msg, bad[t].says), name, "rc %d '%s'", rc, rc ? err.msg : "");
        if (rc == 0)
            csr_free(&A);
    }
}

/* step7-cg/reference/cg.c: the host's CG solves Poisson to its tolerance (the true
 * residual too), stops at once for b = 0, breaks down on an indefinite
 * matrix, runs exactly maxiter with tol 0; the symmetry test */
static void test_cg(void)
{
    csr_matrix A;
    spmv_error err;
    int rc = csr_generate("poisson:nx=23,ny=17", 1, NULL, &A, &err);
    int n = A.rows, r0, c0;
    double *b = malloc(sizeof(double) * (size_t)n), *x = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        b[i] = spmv_rng_uniform_at(9, (uint64_t)i);
    spmv_cg_result res;
    rc = rc || spmv_cg_host(&A, b, x, 1e-10, 1000, &res, &err);
    double t = rc ? 1 : spmv_cg_true_residual(&A, b, x);
    result(rc == 0 && res.end == CG_CONVERGED && res.iterations > 10 && res.iterations < 200 && t <= 1e-10 &&
           res.history[0] == 1 && res.history[res.iterations] == res.rel_residual && res.rel_residual <= 1e-10,
           "cg: Poisson 23x17 to 1e-10, the true residual too", "rc %d end %d, %d iterations, true %g", rc, res.end,
           res.iterations, t);
    spmv_cg_result_free(&res);
    rc = spmv_cg_host(&A, b, x, 0, 7, &res, &err);
    result(rc == 0 && res.end == CG_MAXITER && res.iterations == 7, "cg: tol 0 runs exactly maxiter", "%d iterations",
           res.iterations);
    spmv_cg_result_free(&res);
    for (int i = 0; i < n; i++)
        b[i] = 0;
    rc = spmv_cg_host(&A, b, x, 1e-6, 100, &res, &err);
    result(rc == 0 && res.end == CG_CONVERGED && res.iterations == 0 && x[0] == 0 && x[n - 1] == 0,
           "cg: b = 0 gives x = 0 after 0 iterations", "%d iterations", res.iterations);
    spmv_cg_result_free(&res);
    int sym = spmv_csr_symmetric(&A, &r0, &c0);
    result(sym == 1, "cg: Poisson is symmetric", "row %d col %d", r0, c0);
    A.re[A.ptr[5]] += 1e-6;   /* a(5,4) off its mirror a(4,5): row 4 is the first to see it */
    sym = spmv_csr_symmetric(&A, &r0, &c0);
    result(sym == 0 && r0 == 4 && c0 == 5, "cg: one entry off its mirror is found (row 4, column 5)", "row %d col %d",
           r0, c0);
    /* indefinite: -4 on the diagonal of row 0 instead of 4, b = e0 */
    A.re[A.ptr[5]] -= 1e-6;
    A.re[A.ptr[0]] = -4;
    b[0] = 1;
    rc = spmv_cg_host(&A, b, x, 1e-8, 100, &res, &err);
    result(rc == 0 && res.end == CG_BREAKDOWN && res.iterations == 0 && res.pq == -4, "cg: breakdown at p.Ap = -4",
           "end %d, %d iterations, pq %g", res.end, res.iterations, res.pq);
    spmv_cg_result_free(&res);
    free(b);
    free(x);
    csr_free(&A);
}

/* random sparse COO with duplicates, some empty rows */
static void random_coo(coo_matrix *C, int rows, int cols, long long nnz, uint64_t seed)
{
    spmv_error err;
    memset(C, 0, sizeof *C);
    C->rows = rows;
    C->cols = cols;
    C->nnz = nnz;
    C->row = spmv_alloc((size_t)nnz, sizeof(int), "t", &err);
    C->col = spmv_alloc((size_t)nnz, sizeof(int), "t", &err);
    C->re = spmv_alloc((size_t)nnz, sizeof(double), "t", &err);
    spmv_rng g;
    spmv_rng_seed(&g, seed);
    for (long long k = 0; k < nnz; k++) {
        C->row[k] = (int)(spmv_rng_next(&g) % (uint64_t)(rows > 3 ? rows - 2 : rows));   /* last rows empty */
        C->col[k] = (int)(spmv_rng_next(&g) % (uint64_t)cols);
        /* multiples of 1/1024: sums of duplicates stay exact in float, which DIA holds */
        C->re[k] = floor(spmv_rng_uniform(&g) * 1024) / 1024 + 1.0 / 2048;
    }
    snprintf(C->origin.name, sizeof C->origin.name, "random%dx%d", rows, cols);
}

static void test_conversions(void)
{
    spmv_error err;
    int shapes[][2] = { { 1, 1 }, { 7, 7 }, { 37, 29 }, { 29, 37 }, { 100, 100 } };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int rows = shapes[s][0], cols = shapes[s][1];
        char name[128];
        coo_matrix C, C2;
        csr_matrix R, R2;
        dia_matrix D;
        random_coo(&C, rows, cols, (long long)rows * cols / 3 + 1, 42 + s);
        /* dense of the COO itself, duplicates summed */
        double *want = calloc((size_t)rows * cols, sizeof *want);
        for (long long k = 0; k < C.nnz; k++)
            want[(size_t)C.row[k] * cols + C.col[k]] += C.re[k];
        int rc = coo_to_csr(&C, &R, &err);
        double *got = dense_of_csr(&R);
        int sorted = 1;
        for (int r = 0; r < R.rows; r++)
            for (int k = R.ptr[r] + 1; k < R.ptr[r + 1]; k++)
                sorted &= R.col[k] > R.col[k - 1];
        snprintf(name, sizeof name, "COO->CSR %dx%d sums duplicates, sorts rows", rows, cols);
        result(rc == 0 && same_dense(want, got, (size_t)rows * cols) && sorted, name, "rc %d sorted %d", rc, sorted);
        free(got);

        rc = csr_to_coo(&R, &C2, &err) || coo_to_csr(&C2, &R2, &err);
        snprintf(name, sizeof name, "CSR->COO->CSR %dx%d round trip", rows, cols);
        result(rc == 0 && R2.nnz == R.nnz && memcmp(R.ptr, R2.ptr, sizeof(int) * (rows + 1)) == 0 &&
                   memcmp(R.col, R2.col, sizeof(int) * R.nnz) == 0 && memcmp(R.re, R2.re, sizeof(double) * R.nnz) == 0,
               name, "rc %d", rc);

        rc = csr_to_dia(&R, 32, NULL, &D, &err);
        long long nd = -1;
        csr_count_diagonals(&R, &nd);
        if (rc == 0) {
            got = dense_of_dia(&D);
            snprintf(name, sizeof name, "CSR->DIA %dx%d same matrix, %lld diagonals", rows, cols, nd);
            result(same_dense(want, got, (size_t)rows * cols) && D.ndiag == nd && D.pitch % 32 == 0, name,
                   "ndiag %d", D.ndiag);
            free(got);
            csr_matrix R3;
            rc = dia_to_csr(&D, &R3, &err);
            snprintf(name, sizeof name, "DIA->CSR %dx%d round trip", rows, cols);
            result(rc == 0 && R3.nnz == R.nnz && memcmp(R.col, R3.col, sizeof(int) * R.nnz) == 0, name, "rc %d %s",
                   rc, rc ? err.msg : "");
            if (rc == 0)
                csr_free(&R3);
            dia_free(&D);
        } else {
            snprintf(name, sizeof name, "CSR->DIA %dx%d refused only by the stated rule", rows, cols);
            result(nd > SPMV_DIA_MAX_DIAGS || (double)nd * rows > SPMV_DIA_MAX_FILL * R.nnz, name, "%s", err.msg);
        }
        free(want);
        coo_free(&C);
        coo_free(&C2);
        csr_free(&R);
        csr_free(&R2);
    }
    /* grid: DIA -> CSR -> DIA gives back the generated matrix */
    dia_matrix G, G2;
    csr_matrix R;
    dia_generate_grid(37, 29, 5, 3, 32, &G, &err);
    int rc = dia_to_csr(&G, &R, &err) || csr_to_dia(&R, 32, NULL, &G2, &err);
    result(rc == 0 && G2.ndiag == G.ndiag && G2.nnz == G.nnz &&
               memcmp(G.offsets, G2.offsets, sizeof(int) * G.ndiag) == 0 &&
               memcmp(G.values, G2.values, sizeof(float) * G.ndiag * G.pitch) == 0,
           "grid DIA->CSR->DIA round trip", "rc %d", rc);
    /* the refusal rule: a matrix with too many diagonals */
    coo_matrix C;
    random_coo(&C, 2000, 2000, 3000, 9);
    csr_matrix W;
    dia_matrix D;
    coo_to_csr(&C, &W, &err);
    rc = csr_to_dia(&W, 1, NULL, &D, &err);
    result(rc == -1 && strstr(err.msg, "step6-csr") && strstr(err.msg, "diagonals"),
           "scattered matrix refused for DIA, suggests step6-csr", "rc %d '%s'", rc, err.msg);
    coo_free(&C);
    csr_free(&W);
    csr_free(&R);
    dia_free(&G);
    dia_free(&G2);
}

static void test_reference_and_check(void)
{
    spmv_error err;
    dia_matrix A;
    dia_generate_grid(37, 29, 5, 5, 32, &A, &err);
    float *x = spmv_random_floats((size_t)A.cols, 5, &err);
    spmv_ref ref;
    dia_reference(NULL, &A, x, &ref, &err);
    /* the same product through CSR */
    csr_matrix R;
    dia_to_csr(&A, &R, &err);
    double *xd = malloc(sizeof *xd * A.cols);
    for (int i = 0; i < A.cols; i++)
        xd[i] = x[i];
    spmv_ref ref2;
    csr_reference(NULL, &R, xd, &ref2, &err);
    double worst = 0;
    for (int r = 0; r < A.rows; r++)
        worst = fmax(worst, fabs(ref.y[r] - ref2.y[r]));
    result(worst < 1e-12, "DIA and CSR references agree", "differ by %g", worst);

    float *y = malloc(sizeof *y * A.rows);
    for (int r = 0; r < A.rows; r++)
        y[r] = (float)ref.y[r];
    spmv_check c = spmv_check_result(&ref, y, 1);
    result(c.pass, "rounded reference passes", "max err %g", c.max_err);
    y[123] = NAN;
    c = spmv_check_result(&ref, y, 1);
    result(!c.pass && c.first_bad == 123, "a NaN row fails", "pass %d first %lld", c.pass, c.first_bad);
    y[123] = (float)ref.y[123];
    /* dropping one product (an off-by-one) must fail */
    int r0 = 500, d0 = 40;
    y[r0] = (float)(ref.y[r0] - (double)A.values[(size_t)d0 * A.pitch + r0] * x[r0 + A.offsets[d0]]);
    c = spmv_check_result(&ref, y, 1);
    result(!c.pass && c.first_bad == r0, "one dropped product fails", "pass %d", c.pass);
    y[r0] = (float)ref.y[r0];
    /* an error of a few ulps of the row's scale passes */
    y[r0] = (float)(ref.y[r0] + 8 * 0x1.0p-24 * ref.scale[r0]);
    c = spmv_check_result(&ref, y, 1);
    result(c.pass, "rounding-size error passes", "max err %g", c.max_err);
    free(y);
    spmv_ref_free(&ref);
    spmv_ref_free(&ref2);
    csr_free(&R);
    free(xd);
    free(x);
    dia_free(&A);

    /* complex: (1+2i)(3+4i) = -5+10i */
    csr_matrix Z;
    memset(&Z, 0, sizeof Z);
    int ptr[2] = { 0, 1 }, col[1] = { 0 };
    double re[1] = { 1 }, im[1] = { 2 }, xz[2] = { 3, 4 };
    Z.rows = Z.cols = 1;
    Z.nnz = 1;
    Z.ptr = ptr;
    Z.col = col;
    Z.re = re;
    Z.im = im;
    csr_reference(NULL, &Z, xz, &ref, &err);
    result(ref.complex_ && ref.y[0] == -5 && ref.y[1] == 10, "complex reference", "got %g%+gi", ref.y[0], ref.y[1]);
    double yz[2] = { -5, 10 + 1e-9 };
    c = spmv_check_result(&ref, yz, 0);
    result(!c.pass, "complex imaginary error fails in double", "passed");
    spmv_ref_free(&ref);

    /* integers, checked to the last bit: one row of 40,000 entries of +-1 and
     * +-2 times an x of +-1, +-3 (sum |a||x| at most 240,000 < 2^24). Off by
     * one is far inside eps * (n + 10) * sum |a||x| (about 0.4 here), and
     * fails; with one value 2^23 the bound passes 2^24, and the tolerance
     * is back */
    enum { NI = 40000 };
    int *iptr = malloc(2 * sizeof *iptr), *icol = malloc(NI * sizeof *icol);
    double *ival = malloc(NI * sizeof *ival), *ix = malloc(NI * sizeof *ix);
    csr_matrix I;
    memset(&I, 0, sizeof I);
    if (!iptr || !icol || !ival || !ix) {
        result(0, "integer check: memory", "out of memory");
        free(iptr), free(icol), free(ival), free(ix);
        return;
    }
    iptr[0] = 0;
    iptr[1] = NI;
    for (int j = 0; j < NI; j++) {
        icol[j] = j;
        ival[j] = (j % 3 ? 1 : -2);
        ix[j] = (j % 7 < 3 ? 3 : -1);
    }
    I.rows = 1;
    I.cols = NI;
    I.nnz = NI;
    I.ptr = iptr;
    I.col = icol;
    I.re = ival;
    csr_reference(NULL, &I, ix, &ref, &err);
    float yi = (float)ref.y[0];
    c = spmv_check_result(&ref, &yi, 1);
    result(c.pass && c.exact_rows == 1 && (double)yi == ref.y[0], "integer row: exact y passes, checked exactly",
           "pass %d exact %lld", c.pass, c.exact_rows);
    yi += 1;
    c = spmv_check_result(&ref, &yi, 1);
    result(!c.pass && 1 < 0x1.0p-24 * (NI + 10) * ref.scale[0], "integer row: off by one fails (the tolerance would pass it)",
           "pass %d", c.pass);
    spmv_ref_free(&ref);
    ival[0] = 0x1.0p23;
    csr_reference(NULL, &I, ix, &ref, &err);
    yi = (float)ref.y[0] + 1;
    c = spmv_check_result(&ref, &yi, 1);
    result(c.pass && c.exact_rows == 0, "integer row past 2^24: the tolerance again", "pass %d exact %lld", c.pass,
           c.exact_rows);
    c = spmv_check_result(&ref, (double[]){ ref.y[0] + 1 }, 0);
    result(!c.pass && c.exact_rows == 1, "the same row in double: exact (below 2^44)", "pass %d exact %lld", c.pass,
           c.exact_rows);
    spmv_ref_free(&ref);
    ival[0] = 0.5;
    csr_reference(NULL, &I, ix, &ref, &err);
    c = spmv_check_result(&ref, (double[]){ ref.y[0] + 1e-12 }, 0);
    result(c.pass && c.exact_rows == 0, "a row with a fraction: the tolerance", "pass %d exact %lld", c.pass,
           c.exact_rows);
    spmv_ref_free(&ref);
    free(iptr), free(icol), free(ival), free(ix);
}

static void test_alloc(void)
{
    spmv_error err;
    void *p = spmv_alloc((size_t)1 << 40, 1 << 20, "a huge array", &err);
    result(p == NULL && strstr(err.msg, "a huge array"), "absurd allocation refused", "%s", err.msg);
    p = spmv_alloc(SIZE_MAX / 2, 4, "overflow", &err);
    result(p == NULL, "size overflow refused", "allocated");
}

/* A CSR run without --precision judges a file by its own field (value size 0):
 * a complex file's values are pairs, twice a real file's on the device. */
static void test_capacity_by_field(void)
{
    spmv_error err;
    spmv_size real = { .rows = 10, .cols = 10, .nnz = 100, .complex_ = 0, .from = SPMV_FROM_FILE };
    spmv_size cplx = real;
    cplx.complex_ = 1;
    /* 100 floats fit one buffer, 100 pairs do not */
    spmv_limits lim;
    spmv_limits_device(&lim, "a small device", 600, 1 << 20, SPMV_MEM_DEVICE);
    lim.format = 'c', lim.precision = 0;
    int real_ok = spmv_fits(&lim, &real, &err) == 0;
    int cplx_no = spmv_fits(&lim, &cplx, &err) != 0 && strstr(err.msg, "the values");
    result(real_ok && cplx_no, "capacity: without --precision a complex file's values count 8 bytes",
           "real fits %d, complex refused %d (%s)", real_ok, cplx_no, err.msg);
    lim.precision = 's';
    result(spmv_fits(&lim, &cplx, &err) == 0, "capacity: --precision s counts 4 bytes a value", "%s", err.msg);
}

/* A build log from a compiler that ignores #line (NVIDIA's "<kernel>:N:",
 * N counted through both files) names each file and its own line; what
 * already names a file, and the lines between, stay as they are. */
static void test_build_log(void)
{
    const char *paths[] = { "kernel.cl", "adaptive/kernel.cl" };
    const int first[] = { 2, 209 };   /* each file after its #line */
    const char *log = "<kernel>:22:1: error: unknown type name 'garbage'\n"
                      "garbage here\n^\n"
                      "<kernel>:450:6: error: program scope variable\n"
                      "<kernel>: warning: no line\n"
                      "mine.cl:4:2: note: named already\n"
                      "<kernel>:209:1: error: the first line of the second file\n"
                      "error: <kernel>:22:13: expected ';'\n"
                      "error: adaptive/kernel.cl:5:1: named by its #line\n"
                      "note: in x.c:3: not a kernel file";
    const char *want = "kernel.cl:21:1: error: unknown type name 'garbage'\n"
                       "garbage here\n^\n"
                       "adaptive/kernel.cl:242:6: error: program scope variable\n"
                       "<kernel>: warning: no line\n"
                       "mine.cl:4:2: note: named already\n"
                       "adaptive/kernel.cl:1:1: error: the first line of the second file\n"
                       "error: kernel.cl:21:13: expected ';'\n"
                       "error: adaptive/kernel.cl:5:1: named by its #line\n"
                       "note: in x.c:3: not a kernel file";
    char *got = spmv_build_log_files(log, paths, first, 2);
    result(strcmp(got, want) == 0, "build log: \"<kernel>:N:\" becomes the file and its own line", "got:\n%s", got);
    free(got);
}

/* A real matrix: CSR -> COO -> CSR is the identity, and CSR -> DIA -> CSR too
 * where the DIA rule accepts it (values rounded to float for that one). */
static void test_file(const char *path)
{
    spmv_error err;
    coo_matrix C, C2;
    csr_matrix R, R2;
    char name[600];
    if (matrix_read(path, NULL, &C, &err)) {
        snprintf(name, sizeof name, "read %s", path);
        result(0, name, "%s", err.msg);
        return;
    }
    int rc = coo_to_csr(&C, &R, &err) || csr_to_coo(&R, &C2, &err) || coo_to_csr(&C2, &R2, &err);
    snprintf(name, sizeof name, "%s: CSR->COO->CSR round trip", C.origin.name);
    result(rc == 0 && R.nnz == R2.nnz && memcmp(R.ptr, R2.ptr, sizeof(int) * (R.rows + 1)) == 0 &&
               memcmp(R.col, R2.col, sizeof(int) * R.nnz) == 0 && memcmp(R.re, R2.re, sizeof(double) * R.nnz) == 0,
           name, "rc %d", rc);
    if (!R.im) {
        csr_round_to_float(NULL, &R);
        dia_matrix D;
        long long nd;
        csr_count_diagonals(&R, &nd);
        if (csr_to_dia(&R, 32, NULL, &D, &err) == 0) {
            csr_matrix R3;
            /* explicit zeros in a file are not nonzeros in DIA: compare without them */
            long long nz = 0;
            for (long long k = 0; k < R.nnz; k++)
                nz += R.re[k] != 0.0;
            rc = dia_to_csr(&D, &R3, &err);
            int same = rc == 0 && R3.nnz == nz;
            for (int r = 0, k3 = 0; same && r < R.rows; r++)
                for (int k = R.ptr[r]; k < R.ptr[r + 1]; k++)
                    if (R.re[k] != 0.0) {
                        same &= R3.col[k3] == R.col[k] && R3.re[k3] == R.re[k];
                        k3++;
                    }
            snprintf(name, sizeof name, "%s: CSR->DIA->CSR round trip (%lld diagonals)", C.origin.name, nd);
            result(same, name, "rc %d nnz %lld vs %lld", rc, rc ? 0 : R3.nnz, nz);
            if (rc == 0)
                csr_free(&R3);
            dia_free(&D);
        } else {
            snprintf(name, sizeof name, "%s: DIA refused by the stated rule (%lld diagonals)", C.origin.name, nd);
            result(nd > SPMV_DIA_MAX_DIAGS || (double)nd * R.rows > SPMV_DIA_MAX_FILL * R.nnz, name, "%s", err.msg);
        }
    }
    coo_free(&C);
    coo_free(&C2);
    csr_free(&R);
    csr_free(&R2);
}

/* spmv_time_runs: every timed run preceded by one probe sample and one
 * untimed run; at least SPMV_PROBE_MIN_SAMPLES samples; the median and
 * minimum of the timed runs only. A fake run logs which call it was. */
typedef struct {
    spmv_probe *probe;
    int calls;
    int samples_at[64];   /* the probe's sample count at each call */
} fake_run;

static double fake(void *ctx)
{
    fake_run *f = ctx;
    f->samples_at[f->calls] = f->probe ? f->probe->n : -1;
    f->calls++;
    return (double)f->calls;   /* a distinct time per call: the timed ones are 4, 6, 8 ... */
}

static void test_time_runs(void)
{
    setenv("SPMV_PROBE_MB", "1", 1);   /* a small host probe */
    for (int runs = 1; runs <= 7; runs += 3) {
        fake_run f = { 0 };
        f.probe = spmv_probe_open(NULL, 1);
        double median, min;
        spmv_time_runs(fake, &f, 2, runs, f.probe, &median, &min);
        int ok = f.probe && f.calls == 2 + 2 * runs;
        for (int i = 0; ok && i < runs; i++)   /* calls 2+2i (untimed) and 3+2i (timed) follow sample i+1 */
            ok = f.samples_at[2 + 2 * i] == i + 1 && f.samples_at[3 + 2 * i] == i + 1;
        int want_samples = runs > SPMV_PROBE_MIN_SAMPLES ? runs : SPMV_PROBE_MIN_SAMPLES;
        int samples = f.probe ? f.probe->n : 0;
        spmv_bandwidth bw = spmv_probe_finish(f.probe);
        /* timed calls return 4, 6, ..., 2 + 2 runs */
        double want_min = 4, want_median = runs % 2 ? 4 + 2 * (runs / 2) : 3 + runs;
        char name[64];
        snprintf(name, sizeof name, "time_runs interleaves the probe, %d runs", runs);
        result(ok && samples == want_samples && bw.samples == want_samples && bw.gbs > 0 && min == want_min &&
               median == want_median, name, "calls %d, samples %d (want %d), bw %g GB/s, median %g min %g",
               f.calls, samples, want_samples, bw.gbs, median, min);
    }
    fake_run f = { 0 };
    double median, min;
    spmv_time_runs(fake, &f, 1, 3, NULL, &median, &min);
    result(f.calls == 4 && min == 2 && median == 3, "time_runs without a probe", "calls %d, median %g, min %g",
           f.calls, median, min);
    /* Beside a CPU device, nothing of the probe may run once a sample is
     * done: OpenMP's threads went on spinning for milliseconds and took the
     * cores from the kernel's timed run (a 3.5-ms product on PoCL timed at
     * 6). The process's CPU time while this thread sleeps 40 ms is what
     * other threads burn: a spinning thread shows as milliseconds of it. */
    struct timespec nap = { 0, 60 * 1000 * 1000 }, pause = { 0, 40 * 1000 * 1000 };
    nanosleep(&nap, NULL);   /* earlier OpenMP loops' threads stop spinning */
    spmv_probe *beside = spmv_probe_open_beside(2);
    double burnt = 1e9;
    for (int i = 0; beside && i < 3; i++) {   /* the least of three: a busy machine only adds */
        spmv_probe_sample(beside);
        struct timespec c0, c1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        nanosleep(&pause, NULL);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        double ms = (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-6;
        if (ms < burnt)
            burnt = ms;
    }
    spmv_bandwidth bb = spmv_probe_finish(beside);
    result(beside && bb.samples == 3 && bb.gbs > 0 && burnt < 2.0,
           "the host probe beside a device leaves no thread running after a sample",
           "%.1f ms of CPU time burnt in a 40-ms sleep after a sample (%d samples, %g GB/s)", burnt, bb.samples,
           bb.gbs);
    setenv("SPMV_PROBE_MB", "0", 1);
    result(spmv_probe_open(NULL, 1) == NULL, "SPMV_PROBE_MB=0: no probe", "a probe was opened");
    spmv_bandwidth none = spmv_probe_finish(NULL);
    result(none.samples == 0 && none.gbs == 0, "no probe: no bandwidth", "%d samples", none.samples);
    unsetenv("SPMV_PROBE_MB");
}

/* ---- the parallel host code gives the same bits with 1 thread and with 2 ---- */

static int same_csr(const csr_matrix *a, const csr_matrix *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->nnz == b->nnz &&
           memcmp(a->ptr, b->ptr, sizeof(int) * ((size_t)a->rows + 1)) == 0 &&
           memcmp(a->col, b->col, sizeof(int) * (size_t)a->nnz) == 0 &&
           memcmp(a->re, b->re, sizeof(double) * (size_t)a->nnz) == 0 &&
           (!a->im) == (!b->im) && (!a->im || memcmp(a->im, b->im, sizeof(double) * (size_t)a->nnz) == 0);
}

static void test_parallel(void)
{
    spmv_error err;
    csr_matrix G[2], C[2], F;
    dia_matrix D[2], E[2];
    spmv_ref R[2];
    spmv_check K[2];
    float *xf[2];
    double *xd[2];
    coo_matrix coo;
    /* a COO with duplicates and rows out of order, so the sort and the sums run */
    random_coo(&coo, 3001, 2999, 60000, 11);
    for (int t = 0; t < 2; t++) {
        omp_set_num_threads(t + 1);
        csr_generate_grid(97, 83, 5, 7, &G[t], &err);
        dia_generate_grid(97, 83, 5, 7, 32, &D[t], &err);
        coo_to_csr(&coo, &C[t], &err);
        csr_to_dia(&G[t], 16, NULL, &E[t], &err);
        xf[t] = spmv_random_floats(100003, 5, &err);
        xd[t] = spmv_random_doubles(8151, 5, 0, &err);
        csr_reference(NULL, &G[t], xd[t], &R[t], &err);
        /* y a little off in every 97th row: the checker's counts and first bad row */
        double *y = malloc(sizeof *y * (size_t)R[t].n);
        for (long long r = 0; r < R[t].n; r++)
            y[r] = R[t].y[r] + (r % 97 == 5 ? 1e-3 : 1e-15 * R[t].scale[r]);
        K[t] = spmv_check_result(&R[t], y, 0);
        free(y);
    }
    omp_set_num_threads(2);
    result(G[0].nnz > 0 && same_csr(&G[0], &G[1]), "parallel: csr_generate_grid, 1 and 2 threads, same bits", "differ");
    result(D[0].ndiag == D[1].ndiag && memcmp(D[0].values, D[1].values, sizeof(float) * D[0].ndiag * D[0].pitch) == 0,
           "parallel: dia_generate_grid, 1 and 2 threads, same bits", "differ");
    result(C[0].nnz > 0 && C[0].nnz < coo.nnz && same_csr(&C[0], &C[1]),
           "parallel: coo_to_csr with duplicates, 1 and 2 threads, same bits", "nnz %lld %lld", C[0].nnz, C[1].nnz);
    result(E[0].ndiag == E[1].ndiag && E[0].nnz == E[1].nnz &&
           memcmp(E[0].values, E[1].values, sizeof(float) * E[0].ndiag * E[0].pitch) == 0,
           "parallel: csr_to_dia, 1 and 2 threads, same bits", "differ");
    result(memcmp(xf[0], xf[1], sizeof(float) * 100003) == 0 && memcmp(xd[0], xd[1], sizeof(double) * 8151) == 0,
           "parallel: random x, 1 and 2 threads, same bits", "differ");
    /* the parallel vector is the serial stream: draw i is the (i+1)-th number */
    spmv_rng g;
    spmv_rng_seed(&g, 5 ^ 0x5eedf00dULL);
    int stream = 1;
    for (int i = 0; i < 8151; i++)
        stream &= xd[0][i] == spmv_rng_uniform(&g);
    result(stream, "parallel: random x is the serial stream of the seed", "differs");
    result(memcmp(R[0].y, R[1].y, sizeof(double) * (size_t)R[0].n) == 0 &&
           memcmp(R[0].scale, R[1].scale, sizeof(double) * (size_t)R[0].n) == 0,
           "parallel: csr_reference, 1 and 2 threads, same bits", "differ");
    result(!K[0].pass && K[0].bad_rows == K[1].bad_rows && K[0].first_bad == 5 && K[1].first_bad == 5 &&
           K[0].max_err == K[1].max_err && K[0].got == K[1].got,
           "parallel: the checker, 1 and 2 threads, same verdict and numbers",
           "bad %lld/%lld first %lld/%lld", K[0].bad_rows, K[1].bad_rows, K[0].first_bad, K[1].first_bad);
    /* the CSR generator is the DIA generator converted, bit for bit */
    dia_matrix D1;
    dia_generate_grid(97, 83, 5, 7, 1, &D1, &err);
    int rc = dia_to_csr(&D1, &F, &err);
    result(rc == 0 && same_csr(&F, &G[0]), "csr_generate_grid = dia_to_csr(dia_generate_grid)", "differ");
    /* grid_shape counts what the generators build */
    long long nnz;
    int nd;
    grid_shape(97, 83, 5, &nnz, &nd, &err);
    result(nnz == G[0].nnz && nd == D[0].ndiag, "grid_shape counts the nonzeros and diagonals",
           "%lld %d vs %lld %d", nnz, nd, G[0].nnz, D[0].ndiag);
    /* spmv_prec_take gives spmv_prec_pack's bits, from the matrix's own arrays */
    const char precs[] = "sdcz";
    for (int i = 0; i < 4; i++) {
        csr_matrix T;
        dia_to_csr(&D1, &T, &err);
        char p = precs[i];
        if (spmv_prec_complex(p)) {
            T.im = malloc(sizeof(double) * (size_t)T.nnz);
            for (long long k = 0; k < T.nnz; k++)
                T.im[k] = -T.re[k] / 3;
        }
        void *want = spmv_prec_pack(NULL, T.re, T.im, (size_t)T.nnz, p, &err);
        void *got = spmv_prec_take(NULL, &T, p, &err);
        char name[64];
        snprintf(name, sizeof name, "spmv_prec_take = spmv_prec_pack (%c)", p);
        result(got && want && !T.re && !T.im && memcmp(got, want, (size_t)T.nnz * spmv_prec_value_size(p)) == 0,
               name, "differ");
        free(want);
        free(got);
        csr_free(&T);
    }
    csr_free(&F);
    dia_free(&D1);
    for (int t = 0; t < 2; t++) {
        csr_free(&G[t]);
        csr_free(&C[t]);
        dia_free(&D[t]);
        dia_free(&E[t]);
        free(xf[t]);
        free(xd[t]);
        spmv_ref_free(&R[t]);
    }
    coo_free(&coo);
}

int main(int argc, char **argv)
{
    test_generator();
    test_poisson();
    test_box();
    test_cg();
    test_conversions();
    test_reference_and_check();
    test_alloc();
    test_capacity_by_field();
    test_build_log();
    test_time_runs();
    test_parallel();
    for (int i = 1; i < argc; i++)
        test_file(argv[i]);
    return failures ? 1 : 0;
}
