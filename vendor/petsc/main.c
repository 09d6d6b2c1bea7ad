/* vendor/petsc/main.c - chapter 7's cluster yardstick: PETSc's KSPCG, no
 * preconditioner, on step7's matrix, its rows split across MPI ranks; with
 * --ksp pipecg, PETSc's KSPPIPECG (chapter 8's yardstick).
 *
 *   make petsc                                          build/petsc-cg, where PETSc (petsc-dev) is found
 *   mpirun -n 2 build/petsc-cg --gen poisson:nx=1024 --tol 0 --maxiter 200 --csv F
 *   mpirun -n 2 build/petsc-cg --gen poisson:nx=1024 --tol 0 --maxiter 200 --ksp pipecg --csv F
 *   mpirun -n 2 build/petsc-cg --matrix tests/data/1138_bus.mtx --tol 1e-8
 *   mpirun -n 1 build/petsc-cg --matrix tests/data/bcsstk13.mtx --tol 1e-8 --pc icc --pcg-csv F
 *   (as root: mpirun --allow-run-as-root; more ranks than cores: --oversubscribe)
 *
 * The matrix: --gen poisson:nx=W[,ny=H] (common/gen.c's: 4 on the diagonal,
 * -1 per neighbour inside the grid), poisson3d or stencil27:nx=N[,ny=..][,nz=..]
 * (the 3-D boxes, 7 and 27 points), each rank assembling its own rows; or
 * --matrix FILE, a Matrix Market coordinate file (real or integer, general or
 * symmetric; `build/step7 --save-matrix F` writes one of any matrix), which
 * every rank scans keeping its own rows (symmetric entries mirrored,
 * duplicates summed, as the course's loader does). PETSc chooses the split
 * (PETSC_DECIDE: contiguous blocks of rows). b: the course's splitmix64 stream
 * with --seed, the same numbers as step7's (each rank draws its own rows), or
 * --b FILE (an array file). x0 = 0.
 * KSPCG with PCNONE, rtol --tol (relative to ||b||), atol 0, --maxiter;
 * --tol 0 runs exactly --maxiter iterations (the timing runs). --ksp pipecg:
 * KSPPIPECG (Ghysels and Vanroose's pipelined CG), its one reduction an
 * iteration (the norm and both dots, one MPI_Iallreduce) overlapped with the
 * product; the same norm (the recurrence's ||r||, unpreconditioned), so --tol
 * means what it means for KSPCG. The row's kernel: petsc-nN (KSPCG on N
 * ranks) or petsc-pipecg-nN. An untimed
 * solve of 5 iterations first; then each iteration is timed by a monitor on
 * MPI_Wtime, ms_per_iter their median. The true residual ||b - A x|| / ||b||
 * is MatMult and VecNorm, in double. The bound: a copy between two arrays on
 * every rank at once (256 MiB in all, SPMV_PROBE_MB), median of 5.
 * --pc none|jacobi|icc (chapter 9's yardstick): PCNONE (the default),
 * PCJACOBI (any ranks) or PCICC, IC(0) in the natural ordering (one rank);
 * the test stays on the unpreconditioned ||r||. The setup (PCSetUp, then the
 * rest of KSPSetUp) is timed on its own, before the untimed solve; with --pc
 * or --pcg-csv a "setup" line says it, and --pcg-csv FILE appends a row of
 * chapter 9's time-to-solution CSV (setup_ms, solve_ms, total_ms).
 * Debian's petsc-dev is PETSc in double precision: --precision s is skipped
 * (status 3); no float rows for PETSc.
 * Exit status, as step7's: 0 PASS, 1 FAIL (a breakdown, a true residual off
 * the mark), 2 bad input, 3 skipped, 4 --maxiter reached before --tol.
 * Defaults as step7's: --tol 1e-10 (double), --maxiter 10 n.
 */
#include <petscksp.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#ifndef SPMV_GIT_REV
#define SPMV_GIT_REV "unknown"
#endif

static const char *CG_HEADER =
    "step,kernel,device,driver,matrix,rows,cols,nnz,precision,iterations,check_every,extra_iterations,converged,"
    "rel_residual,true_residual,tol,ms_per_iter,ms_total,spmv_ms_per_iter,vector_ms_per_iter,wait_ms_per_iter,"
    "launches_per_iter,bytes_per_iter,bytes_compulsory_per_iter,bw_measured_gbs,pct_version_bound,pct_compulsory,"
    "check,date,git_rev";

/* chapter 9's time-to-solution CSV (step9-pcg/report/report.h's PCG_CSV_HEADER) */
static const char *PCG_HEADER =
    "step,kernel,device,driver,matrix,rows,nnz,precision,tol,iterations,converged,rel_residual,true_residual,"
    "setup_ms,solve_ms,total_ms,ms_per_iter,apply_ms_per_iter,levels,check,date,git_rev";

/* --pc: the names the rows carry, and PETSc's types */
enum { PC_NONE_, PC_JACOBI_, PC_ICC_ };
static const char *const PC_NAMES[] = { "none", "jacobi", "icc" };
static const char *const PC_TYPES[] = { PCNONE, PCJACOBI, PCICC };

/* ICC's answer to a pivot that is not positive: none, the breakdown reported as it is. Tried on
 * bcsstk01 (48 positive pivots: no shift needed) and bcsstk13 (79 of 2003 negative): PETSc's
 * MAT_SHIFT_POSITIVE_DEFINITE adds 1.5e12 to that diagonal (whose entries run from 6.4e4 to
 * 1.2e12), and CG with the factor then misses 1e-8 in 10 n iterations, Jacobi's 1504 (README) */
#define ICC_SHIFT MAT_SHIFT_NONE

static int rank = 0, nranks = 1;

/* one line on stderr (rank 0), status 2 on every rank */
static void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int status, const char *fmt, ...)
{
    if (rank == 0) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "petsc-cg: error: ");
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n");
        va_end(ap);
    }
    PetscFinalize();
    exit(status);
}

/* ---- the course's splitmix64 (common/matrix.c), b_i = uniform_at(seed ^ 0x5eedf00d, i) ---- */
static double uniform_at(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* ---- the command line ---- */
typedef struct {
    const char *gen, *matrix, *bfile, *csv, *pcgcsv;
    char precision;
    double tol;
    long long maxiter;   /* -1: 10 n */
    uint64_t seed;
    int pipe;            /* --ksp pipecg: KSPPIPECG */
    int pc, pc_given;    /* --pc: PC_NONE_, PC_JACOBI_, PC_ICC_; given on the command line */
} options;

static double number(const char *flag, const char *v, double lo)
{
    char *end;
    double d = v ? strtod(v, &end) : NAN;
    if (!v || *end || !(d >= lo) || isinf(d))
        die(2, "%s wants a number >= %g, not '%s'", flag, lo, v ? v : "(nothing)");
    return d;
}

static void usage(void)
{
    if (rank == 0)
        printf("usage: mpirun -n N petsc-cg (--gen poisson:nx=W[,ny=H] | --gen poisson3d|stencil27:nx=N[,ny,nz]\n"
               "                | --matrix FILE.mtx) [--precision d]\n"
               "                [--ksp cg|pipecg] [--pc none|jacobi|icc] [--tol T] [--maxiter N] [--seed S] [--b FILE]\n"
               "                [--csv FILE] [--pcg-csv FILE]\n"
               "PETSc's KSPCG, no preconditioner unless --pc, rows split across the ranks (vendor/petsc/README.md)\n"
               "  --ksp M   cg: KSPCG, three blocking reductions an iteration (default)\n"
               "            pipecg: KSPPIPECG, one nonblocking reduction an iteration, overlapped with the product\n"
               "  --pc P    none: PCNONE (default); jacobi: PCJACOBI; icc: PCICC, IC(0), natural ordering (one rank)\n"
               "  --csv FILE      append a row of chapter 7's CG CSV\n"
               "  --pcg-csv FILE  append a row of chapter 9's time-to-solution CSV (setup, solve, total)\n");
}

static void parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->precision = 'd';
    o->tol = -1;
    o->maxiter = -1;
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            PetscFinalize();
            exit(0);
        }
        int takes = 1;
        if (strcmp(a, "--gen") == 0 && v)
            o->gen = v;
        else if (strcmp(a, "--matrix") == 0 && v)
            o->matrix = v;
        else if (strcmp(a, "--b") == 0 && v)
            o->bfile = v;
        else if (strcmp(a, "--csv") == 0 && v)
            o->csv = v;
        else if (strcmp(a, "--pcg-csv") == 0 && v)
            o->pcgcsv = v;
        else if (strcmp(a, "--pc") == 0 && v) {
            int k = 0;
            while (k < 3 && strcmp(v, PC_NAMES[k]))
                k++;
            if (k == 3)
                die(2, "--pc wants none, jacobi or icc, not '%s'", v);
            o->pc = k;
            o->pc_given = 1;
        } else if (strcmp(a, "--ksp") == 0 && v) {
            if (strcmp(v, "cg") && strcmp(v, "pipecg"))
                die(2, "--ksp wants cg or pipecg, not '%s'", v);
            o->pipe = v[0] == 'p';
        } else if (strcmp(a, "--precision") == 0 && v) {
            if (strcmp(v, "s") && strcmp(v, "d"))
                die(2, "--precision wants s or d, not '%s'", v);
            o->precision = v[0];
        } else if (strcmp(a, "--tol") == 0)
            o->tol = number(a, v, 0);
        else if (strcmp(a, "--maxiter") == 0) {
            double m = number(a, v, 0);
            if (m != floor(m) || m > 2e9)
                die(2, "--maxiter wants a whole number from 0 to 2e9, not '%s'", v);
            o->maxiter = (long long)m;
        } else if (strcmp(a, "--seed") == 0) {
            double s = number(a, v, 0);
            if (s != floor(s))
                die(2, "--seed wants a whole number, not '%s'", v);
            o->seed = (uint64_t)s;
        } else if (strncmp(a, "-", 1) == 0 && a[1] != '-') {
            takes = v && v[0] != '-';   /* a PETSc option (-log_view, -ksp_monitor): PETSc reads it, and its value */
        } else if (!v && (strcmp(a, "--gen") == 0 || strcmp(a, "--matrix") == 0 || strcmp(a, "--b") == 0 ||
                          strcmp(a, "--csv") == 0 || strcmp(a, "--precision") == 0 || strcmp(a, "--ksp") == 0 ||
                          strcmp(a, "--pc") == 0 || strcmp(a, "--pcg-csv") == 0)) {
            die(2, "%s wants a value", a);
        } else {
            die(2, "unknown option '%s' (--help lists them)", a);
        }
        i += takes;
    }
    if (!!o->gen == !!o->matrix)
        die(2, "give one matrix: --gen poisson:nx=W[,ny=H] or --matrix FILE.mtx");
    if (o->pc == PC_ICC_ && nranks > 1)
        die(2, "--pc icc runs on one rank, not %d: PETSc's ICC factors a sequential matrix (mpirun -n 1)", nranks);
    if (o->tol < 0)
        o->tol = 1e-10;   /* step7's default in double */
}

/* ---- the matrix ---- */
typedef struct {
    char name[256];
    PetscInt n;
    long long nnz;
} matrix_info;

static void poisson(const char *spec, Mat *A, matrix_info *mi)
{
    long long W = 0, H = 0;
    char extra;
    if (sscanf(spec, "poisson:nx=%lld,ny=%lld%c", &W, &H, &extra) != 2) {
        H = 0;
        if (sscanf(spec, "poisson:nx=%lld%c", &W, &extra) != 1)
            die(2, "--gen: petsc-cg builds poisson:nx=W[,ny=H], poisson3d:nx=N[,ny,nz] and stencil27:nx=N[,ny,nz] "
                "only, not '%s'", spec);
        H = W;
    }
    if (W < 1 || H < 1 || W * H > 2147483647LL)
        die(2, "--gen %s: want 1 <= W, H and W * H < 2^31", spec);
    PetscInt n = (PetscInt)(W * H);
    MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 5, NULL, 4, NULL, A);
    PetscInt lo, hi;
    MatGetOwnershipRange(*A, &lo, &hi);
    for (PetscInt i = lo; i < hi; i++) {
        long long x = i % W, y = i / W;
        PetscInt cols[5];
        PetscScalar vals[5];
        int k = 0;
        /* columns ascending: y-1, x-1, diagonal, x+1, y+1 */
        if (y > 0) { cols[k] = i - (PetscInt)W; vals[k++] = -1; }
        if (x > 0) { cols[k] = i - 1; vals[k++] = -1; }
        cols[k] = i; vals[k++] = 4;
        if (x < W - 1) { cols[k] = i + 1; vals[k++] = -1; }
        if (y < H - 1) { cols[k] = i + (PetscInt)W; vals[k++] = -1; }
        MatSetValues(*A, 1, &i, k, cols, vals, INSERT_VALUES);
    }
    MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY);
    snprintf(mi->name, sizeof mi->name, "poisson:nx=%lld,ny=%lld", W, H);
    mi->n = n;
    mi->nnz = 5 * (long long)n - 2 * W - 2 * H;
}

/* --gen poisson3d and stencil27:nx=N[,ny=..][,nz=..] (common/gen.c's: 6 or
 * 26 on the diagonal, -1 per neighbour inside the box, 7 or 27 points;
 * row (z*ny + y)*nx + x), each rank assembling its own rows */
static void box3d(const char *spec, Mat *A, matrix_info *mi)
{
    int full = strncmp(spec, "stencil27", 9) == 0;
    const char *kind = full ? "stencil27" : "poisson3d";
    long long d[3] = { 0, 0, 0 };
    char buf[256];
    snprintf(buf, sizeof buf, "%s", strchr(spec, ':') ? strchr(spec, ':') + 1 : "");
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        long long v;
        char key[4], extra;
        if (sscanf(kv, "n%1[xyz]=%lld%c", key, &v, &extra) != 2 || v < 1 || v > 2147483646LL)
            die(2, "--gen %s takes nx=N[,ny=..][,nz=..], whole numbers >= 1, not '%s'", kind, kv);
        d[key[0] - 'x'] = v;
    }
    if (!d[0])
        die(2, "--gen %s needs nx=N (example: --gen %s:nx=100 or nx=60,ny=50,nz=40)", kind, kind);
    long long X = d[0], Y = d[1] ? d[1] : X, Z = d[2] ? d[2] : X;
    if (X * Y >= 2147483647LL || X * Y * Z >= 2147483647LL)
        die(2, "--gen %s: %lld x %lld x %lld is more than 2^31 rows", kind, X, Y, Z);
    PetscInt n = (PetscInt)(X * Y * Z), per = full ? 27 : 7;
    MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, per, NULL, per - 1, NULL, A);
    PetscInt lo, hi;
    MatGetOwnershipRange(*A, &lo, &hi);
    for (PetscInt i = lo; i < hi; i++) {
        long long x = i % X, y = i / X % Y, z = i / (X * Y);
        PetscInt cols[27];
        PetscScalar vals[27];
        int k = 0;
        /* columns ascending: dz, dy, dx from -1 to 1 */
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    if (z + dz < 0 || z + dz >= Z || y + dy < 0 || y + dy >= Y || x + dx < 0 || x + dx >= X ||
                        (!full && abs(dx) + abs(dy) + abs(dz) > 1))
                        continue;
                    cols[k] = i + (PetscInt)((dz * Y + dy) * X + dx);
                    vals[k++] = dx || dy || dz ? -1 : full ? 26 : 6;
                }
        MatSetValues(*A, 1, &i, k, cols, vals, INSERT_VALUES);
    }
    MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY);
    snprintf(mi->name, sizeof mi->name, "%s:nx=%lld,ny=%lld,nz=%lld", kind, X, Y, Z);
    mi->n = n;
    mi->nnz = full ? (3 * X - 2) * (3 * Y - 2) * (3 * Z - 2) : 7 * X * Y * Z - 2 * (X * Y + Y * Z + X * Z);
}

/* A Matrix Market coordinate file, scanned by every rank, each keeping its own
 * rows: one pass to count them (the preallocation), one to set them. */
static void read_mtx(const char *path, Mat *A, matrix_info *mi)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(2, "--matrix %s: cannot open it", path);
    char line[1024], obj[64], fmt[64], field[64], sym[64];
    if (!fgets(line, sizeof line, f) ||
        sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) != 4 ||
        strcasecmp(obj, "matrix") || strcasecmp(fmt, "coordinate"))
        die(2, "--matrix %s: not a Matrix Market coordinate file (petsc-cg reads those; step7 --save-matrix "
            "writes one of any matrix)", path);
    int pattern = strcasecmp(field, "pattern") == 0;
    if (!pattern && strcasecmp(field, "real") && strcasecmp(field, "integer"))
        die(2, "--matrix %s is %s: CG here is for real symmetric positive definite matrices", path, field);
    int symmetric = strcasecmp(sym, "symmetric") == 0;
    if (!symmetric && strcasecmp(sym, "general"))
        die(2, "--matrix %s is %s: want general or symmetric", path, sym);
    long long rows, cols, entries;
    do {
        if (!fgets(line, sizeof line, f))
            die(2, "--matrix %s: no size line", path);
    } while (line[0] == '%');
    if (sscanf(line, "%lld %lld %lld", &rows, &cols, &entries) != 3 || rows < 0 || cols < 0 || entries < 0)
        die(2, "--matrix %s: a bad size line: %s", path, line);
    if (rows != cols)
        die(2, "--matrix %s is %lld x %lld: CG needs a square matrix", path, rows, cols);
    if (rows > 2147483647LL)
        die(2, "--matrix %s: %lld rows, more than 2^31", path, rows);
    long data = ftell(f);
    PetscInt n = (PetscInt)rows, lo, hi;
    PetscLayout lay;
    PetscLayoutCreate(PETSC_COMM_WORLD, &lay);
    PetscLayoutSetSize(lay, n);
    PetscLayoutSetBlockSize(lay, 1);
    PetscLayoutSetUp(lay);
    PetscLayoutGetRange(lay, &lo, &hi);
    PetscInt nloc = hi - lo;
    PetscInt *dn = calloc((size_t)nloc + 1, sizeof *dn), *on = calloc((size_t)nloc + 1, sizeof *on);
    if (!dn || !on)
        die(2, "out of memory for the preallocation of %lld rows", (long long)nloc);
    for (int pass = 0; pass < 2; pass++) {
        fseek(f, data, SEEK_SET);
        for (long long e = 0; e < entries; e++) {
            long long i, j;
            double v = 1;
            if (!fgets(line, sizeof line, f) ||
                sscanf(line, pattern ? "%lld %lld" : "%lld %lld %lf", &i, &j, &v) != (pattern ? 2 : 3))
                die(2, "--matrix %s: entry %lld of %lld is missing or bad", path, e + 1, entries);
            if (i < 1 || i > rows || j < 1 || j > cols)
                die(2, "--matrix %s: entry %lld (%lld, %lld) is outside %lld x %lld", path, e + 1, i, j, rows, cols);
            for (int mirror = 0; mirror < 1 + (symmetric && i != j); mirror++) {
                PetscInt r = (PetscInt)(mirror ? j : i) - 1, c = (PetscInt)(mirror ? i : j) - 1;
                if (r < lo || r >= hi)
                    continue;
                if (pass == 0) {
                    if (c >= lo && c < hi)
                        dn[r - lo]++;
                    else
                        on[r - lo]++;
                } else {
                    PetscScalar s = v;
                    MatSetValues(*A, 1, &r, 1, &c, &s, ADD_VALUES);   /* duplicates summed */
                }
            }
        }
        if (pass == 0) {
            for (PetscInt r = 0; r < nloc; r++) {   /* counts with duplicates are upper bounds */
                dn[r] = dn[r] < nloc ? dn[r] : nloc;
                on[r] = on[r] < n - nloc ? on[r] : n - nloc;
            }
            MatCreateAIJ(PETSC_COMM_WORLD, nloc, nloc, n, n, 0, dn, 0, on, A);
        }
    }
    fclose(f);
    free(dn);
    free(on);
    PetscLayoutDestroy(&lay);
    MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(mi->name, sizeof mi->name, "%s", base);
    char *dot = strrchr(mi->name, '.');
    if (dot)
        *dot = 0;
    MatInfo info;
    MatGetInfo(*A, MAT_GLOBAL_SUM, &info);
    mi->n = n;
    mi->nnz = (long long)info.nz_used;
}

/* b from an array file: every rank reads it, keeping its own rows */
static void read_b(const char *path, Vec b, PetscInt n)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    long long m = 0, c = 0;
    if (!f || !fgets(line, sizeof line, f) || !strstr(line, "array"))
        die(2, "--b %s: want a Matrix Market array file of %lld entries", path, (long long)n);
    do {
        if (!fgets(line, sizeof line, f))
            die(2, "--b %s: no size line", path);
    } while (line[0] == '%');
    if (sscanf(line, "%lld %lld", &m, &c) != 2 || m != n || c != 1)
        die(2, "--b %s is %lld x %lld: want %lld x 1", path, m, c, (long long)n);
    PetscInt lo, hi;
    VecGetOwnershipRange(b, &lo, &hi);
    for (PetscInt i = 0; i < n; i++) {
        double v;
        if (fscanf(f, "%lf", &v) != 1)
            die(2, "--b %s: entry %lld is missing or bad", path, (long long)i + 1);
        if (i >= lo && i < hi)
            VecSetValue(b, i, v, INSERT_VALUES);
    }
    fclose(f);
    VecAssemblyBegin(b);
    VecAssemblyEnd(b);
}

/* ---- timing: a monitor that stamps every iteration ---- */
typedef struct {
    double *t;
    PetscInt n, cap;
} stamps;

static PetscErrorCode stamp(KSP ksp, PetscInt it, PetscReal rnorm, void *ctx)
{
    (void)ksp;
    (void)it;
    (void)rnorm;
    stamps *s = ctx;
    if (s->n < s->cap)
        s->t[s->n++] = MPI_Wtime();
    return 0;
}

/* KSPPIPECG tests iteration i's residual before it moves x, and its loop goes
 * on while i <= max_it: left alone it stops at max_it + 1 iterations, x one
 * step past the residual it reported. This test (the default one, plus
 * --maxiter) ends both methods at exactly --maxiter, r_maxiter tested. */
static PetscErrorCode converged_at_maxiter(KSP ksp, PetscInt n, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
    PetscInt maxit;
    PetscCall(KSPConvergedDefault(ksp, n, rnorm, reason, ctx));
    PetscCall(KSPGetTolerances(ksp, NULL, NULL, NULL, &maxit));
    if (*reason == KSP_CONVERGED_ITERATING && n >= maxit)
        *reason = KSP_DIVERGED_ITS;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* copy bandwidth of all ranks at once: 2 x bytes moved / the slowest rank's time, median of 5 */
static double copy_gbs(void)
{
    const char *mb = getenv("SPMV_PROBE_MB");
    long total = mb && *mb ? atol(mb) : 256;
    if (total <= 0)
        return 0;
    size_t each = ((size_t)total << 20) / (size_t)nranks / sizeof(double);
    double *a = malloc(each * sizeof *a), *c = malloc(each * sizeof *c), t[6];
    if (!a || !c)
        die(2, "out of memory for the bandwidth probe (SPMV_PROBE_MB=N for less)");
    for (size_t i = 0; i < each; i++)
        a[i] = c[i] = (double)i;
    for (int k = 0; k < 6; k++) {
        MPI_Barrier(PETSC_COMM_WORLD);
        double t0 = MPI_Wtime();
        memcpy(c, a, each * sizeof *a);
        double dt = MPI_Wtime() - t0, worst;
        MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
        t[k] = worst;
    }
    volatile double sink = c[each / 2];
    (void)sink;
    free(a);
    free(c);
    qsort(t + 1, 5, sizeof *t, cmp_double);
    return 2.0 * (double)each * sizeof(double) * nranks / t[3] / 1e9;
}

static void cpu_name(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ' || *c == '\t')
                    c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    if (f)
        fclose(f);
}

static void field(FILE *f, const char *s)   /* as common/report.c writes one: no comma, newline or quote */
{
    for (; *s; s++)
        fputc(*s == ',' || *s == '\n' || *s == '"' ? ' ' : *s, f);
    fputc(',', f);
}
static void num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.6g", v);
    fputc(',', f);
}

int main(int argc, char **argv)
{
    PetscInitialize(&argc, &argv, NULL, NULL);
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    MPI_Comm_size(PETSC_COMM_WORLD, &nranks);
    options o;
    parse(argc, argv, &o);
    /* kernel: chapter 7's row (petsc-nN, petsc-pipecg-nN; the PC named where there is one);
     * pkernel: chapter 9's, the PC always named (petsc-none-n1, petsc-icc-n1) */
    char kernel[48], pkernel[48], device[256], driver[256];
    snprintf(pkernel, sizeof pkernel, "petsc-%s%s-n%d", o.pipe ? "pipecg-" : "", PC_NAMES[o.pc], nranks);
    if (o.pc == PC_NONE_)
        snprintf(kernel, sizeof kernel, "petsc-%sn%d", o.pipe ? "pipecg-" : "", nranks);
    else
        snprintf(kernel, sizeof kernel, "%s", pkernel);
    cpu_name(device, sizeof device);
    char mpiv[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int mpilen = 0;
    MPI_Get_library_version(mpiv, &mpilen);
    mpiv[strcspn(mpiv, ",\n")] = 0;
    snprintf(driver, sizeof driver, "PETSc %d.%d.%d; %s; %d ranks", PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR,
             PETSC_VERSION_SUBMINOR, mpiv, nranks);
    if (o.precision == 's') {
        if (rank == 0) {
            printf("skipped: Debian's petsc-dev is PETSc in double precision; no float solve\n");
            fprintf(stderr, "petsc-cg: skipped: --precision s: this PETSc is built for double\n");
        }
        PetscFinalize();
        return 3;
    }

    /* the matrix and b */
    Mat A;
    matrix_info mi;
    if (o.gen && (strncmp(o.gen, "poisson3d:", 10) == 0 || strncmp(o.gen, "stencil27:", 10) == 0))
        box3d(o.gen, &A, &mi);
    else if (o.gen)
        poisson(o.gen, &A, &mi);
    else
        read_mtx(o.matrix, &A, &mi);
    PetscBool sym = PETSC_FALSE;
    MatIsSymmetric(A, 0.0, &sym);
    if (!sym)
        die(2, "%s is not symmetric: CG needs a symmetric positive definite matrix", mi.name);
    Vec b, x, r;
    MatCreateVecs(A, &x, &b);
    VecDuplicate(b, &r);
    if (o.bfile) {
        read_b(o.bfile, b, mi.n);
    } else {
        PetscInt lo, hi;
        VecGetOwnershipRange(b, &lo, &hi);
        PetscScalar *bv;
        VecGetArray(b, &bv);
        for (PetscInt i = lo; i < hi; i++)
            bv[i - lo] = uniform_at(o.seed ^ 0x5eedf00dULL, (uint64_t)i);
        VecRestoreArray(b, &bv);
    }
    PetscReal bnorm;
    VecNorm(b, NORM_2, &bnorm);
    long long maxiter = o.maxiter >= 0 ? o.maxiter : 10LL * mi.n;
    if (rank == 0) {
        printf("device   %s, %d MPI ranks (%s)\n", device, nranks, driver);
        printf("matrix   %s: %lld x %lld, %lld nonzeros, double, rows split across %d ranks\n", mi.name,
               (long long)mi.n, (long long)mi.n, mi.nnz, nranks);
        if (o.pc == PC_NONE_)
            printf("solve    %s, PCNONE, rtol %g, atol 0, maxiter %lld, from x0 = 0\n", o.pipe ? "KSPPIPECG" : "KSPCG",
                   o.tol, maxiter);
        else
            printf("solve    %s, %s, rtol %g on the unpreconditioned ||r||, atol 0, maxiter %lld, from x0 = 0\n",
                   o.pipe ? "KSPPIPECG" : "KSPCG",
                   o.pc == PC_ICC_ ? "PCICC (IC(0): no fill, natural ordering)" : "PCJACOBI (z = D^-1 r)", o.tol,
                   maxiter);
        if (o.pipe)
            printf("pipe     one reduction an iteration (||r||, r.u, w.u together), %s\n",
#if defined(PETSC_HAVE_MPI_NONBLOCKING_COLLECTIVES)
                   "an MPI_Iallreduce overlapped with the product");
#else
                   "a blocking MPI_Allreduce: this PETSc has no MPI-3 nonblocking reductions, nothing overlaps");
#endif
    }

    /* the solver */
    KSP ksp;
    PC pc;
    KSPCreate(PETSC_COMM_WORLD, &ksp);
    KSPSetOperators(ksp, A, A);
    KSPSetType(ksp, o.pipe ? KSPPIPECG : KSPCG);
    KSPGetPC(ksp, &pc);
    PCSetType(pc, PC_TYPES[o.pc]);
    if (o.pc == PC_ICC_) {   /* IC(0): A's own pattern, rows in the file's order; the shift below */
        PCFactorSetLevels(pc, 0);
        PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL);
        PCFactorSetShiftType(pc, ICC_SHIFT);
    }
    /* ||r||, the recurrence's, for both: KSPPIPECG takes it in its one reduction (with PCNONE its
     * natural norm sqrt(r.u) is the same number; the unpreconditioned one says so for any PC, and
     * keeps --tol the test on |b - A x| / |b| that chapter 9 uses with its preconditioners) */
    KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED);
    void *cctx;
    KSPConvergedDefaultCreate(&cctx);
    KSPSetConvergenceTest(ksp, converged_at_maxiter, cctx, KSPConvergedDefaultDestroy);
    KSPSetFromOptions(ksp);
    KSPType kt;
    KSPGetType(ksp, &kt);
    if (strcmp(kt, o.pipe ? KSPPIPECG : KSPCG))
        die(2, "-ksp_type %s: choose the method with --ksp cg|pipecg (the row's kernel names it)", kt);
    PCType pt;
    PCGetType(pc, &pt);
    if (strcmp(pt, PC_TYPES[o.pc]))
        die(2, "-pc_type %s: choose the preconditioner with --pc none|jacobi|icc (the row's kernel names it)", pt);
    if (o.pc == PC_ICC_) {
        PetscInt lev = 0;
        PCFactorGetLevels(pc, &lev);
        if (lev != 0)
            die(2, "-pc_factor_levels %d: --pc icc is IC(0) (the row's kernel names it)", (int)lev);
    }
    /* the setup, timed alone: PCSetUp (Jacobi: the inverted diagonal; ICC: the ordering, the
     * symbolic and the numeric factorization), then the rest of KSPSetUp (the method's work
     * vectors), whose own PCSetUp then finds the operator unchanged and does nothing; the
     * solves below reuse the preconditioner. The slowest rank's times. */
    MPI_Barrier(PETSC_COMM_WORLD);
    double s0 = MPI_Wtime();
    PCSetUp(pc);
    double s1 = MPI_Wtime();
    KSPSetUp(ksp);
    double s2 = MPI_Wtime(), setup_each[2] = { (s1 - s0) * 1e3, (s2 - s0) * 1e3 }, setup_max[2];
    MPI_Allreduce(setup_each, setup_max, 2, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    double pcsetup_ms = setup_max[0], setup_ms = setup_max[1];
    /* IC(0)'s pivots, counted in its factor (MatGetInertia): a pivot that is not positive makes
     * M = L D L^T indefinite, and CG with it breaks down (DIVERGED_INDEFINITE_PC) */
    PetscInt npos = -1, nneg = -1, nzero = -1;
    MatFactorShiftType shift = MAT_SHIFT_NONE;
    if (o.pc == PC_ICC_) {
        Mat F;
        PCFactorGetShiftType(pc, &shift);
        if (shift != MAT_SHIFT_NONE) {   /* PETSc's shift, asked for by -pc_factor_shift_type: the rows say so */
            snprintf(pkernel, sizeof pkernel, "petsc-%sicc-shift-n%d", o.pipe ? "pipecg-" : "", nranks);
            snprintf(kernel, sizeof kernel, "%s", pkernel);
        }
        PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
        if (PCFactorGetMatrix(pc, &F) || MatGetInertia(F, &nneg, &nzero, &npos))
            npos = nneg = nzero = -1;
        PetscPopErrorHandler();
    }
    double bw = copy_gbs();
    KSPSetTolerances(ksp, o.tol, 0.0, PETSC_DEFAULT, (PetscInt)(maxiter < 5 ? maxiter : 5));
    KSPSolve(ksp, b, x);   /* untimed */
    stamps st = { .t = malloc(sizeof(double) * (size_t)(maxiter + 2)), .n = 0, .cap = (PetscInt)maxiter + 2 };
    if (!st.t)
        die(2, "out of memory for %lld iterations' times", maxiter);
    KSPMonitorSet(ksp, stamp, &st, NULL);
    KSPSetTolerances(ksp, o.tol, 0.0, PETSC_DEFAULT, (PetscInt)maxiter);
    MPI_Barrier(PETSC_COMM_WORLD);
    double t0 = MPI_Wtime();
    KSPSolve(ksp, b, x);
    double ms_total = (MPI_Wtime() - t0) * 1e3;
    PetscInt its;
    KSPConvergedReason reason;
    PetscReal rnorm;
    KSPGetIterationNumber(ksp, &its);
    KSPGetConvergedReason(ksp, &reason);
    KSPGetResidualNorm(ksp, &rnorm);
    /* the monitor runs at iteration 0 (before the first) and after each: the gaps are the iterations */
    int nt = st.n > 1 ? (int)st.n - 1 : 0;
    double ms_iter = NAN;
    if (nt > 0) {
        double *g = malloc(sizeof *g * (size_t)nt);
        for (int k = 0; k < nt; k++)
            g[k] = (st.t[k + 1] - st.t[k]) * 1e3;
        qsort(g, (size_t)nt, sizeof *g, cmp_double);
        ms_iter = nt % 2 ? g[nt / 2] : 0.5 * (g[nt / 2 - 1] + g[nt / 2]);
        free(g);
    }
    /* the true residual, in double */
    MatMult(A, x, r);
    VecAYPX(r, -1.0, b);
    PetscReal tn;
    VecNorm(r, NORM_2, &tn);
    double tr = bnorm > 0 ? tn / bnorm : 0, rel = bnorm > 0 ? rnorm / bnorm : 0;
    int breakdown = reason == KSP_DIVERGED_INDEFINITE_MAT || reason == KSP_DIVERGED_BREAKDOWN ||
                    reason == KSP_DIVERGED_NANORINF || reason == KSP_DIVERGED_INDEFINITE_PC ||
                    reason == KSP_DIVERGED_PC_FAILED;
    int converged = bnorm == 0 || (o.tol > 0 && reason > 0);
    int pass;
    if (breakdown)
        pass = 0;
    else if (converged)   /* the true residual meets tol within 2x (KSPCG has no restarts; step7's has) */
        pass = isfinite(tr) && tr <= o.tol * 2.0;
    else                  /* no tolerance met: the true residual follows the recurrence, as step7 asks */
        pass = isfinite(tr) && fabs(tr - rel) <= 0.1 * rel + 100 * 0x1p-53 * sqrt((double)mi.n);
    double mat = (double)mi.nnz * 12 + ((double)mi.n + 1) * 4, comp = mat + 10.0 * mi.n * 8;
    if (rank == 0) {
        if (bw > 0)
            printf("probe    %.1f GB/s copy on %d ranks at once (read + write, median of 5)\n", bw, nranks);
        if (o.pc == PC_ICC_ && shift != MAT_SHIFT_NONE)
            printf("shift    %s (-pc_factor_shift_type): PETSc shifts the diagonal until every pivot is positive "
                   "(kernel %s); --pc icc alone does not\n", MatFactorShiftTypes[shift], pkernel);
        if (o.pc == PC_ICC_ && npos >= 0)
            printf("pivots   IC(0): %lld positive, %lld negative, %lld zero\n", (long long)npos, (long long)nneg,
                   (long long)nzero);
        if (breakdown && (reason == KSP_DIVERGED_INDEFINITE_PC || reason == KSP_DIVERGED_PC_FAILED))
            printf("breakdown: %s: the preconditioner is not positive definite (or its setup failed)\n",
                   KSPConvergedReasons[reason]);
        else if (breakdown)
            printf("breakdown: %s: the matrix is not positive definite (or the solve broke down)\n",
                   KSPConvergedReasons[reason]);
        printf("solve    %lld iterations%s (%s): recurrence %.3e, true residual %.3e\n", (long long)its,
               o.tol == 0 ? " (fixed: --tol 0)" : converged ? ", converged" : ", NOT converged",
               KSPConvergedReasons[reason], rel, tr);
        if (pass && nt > 0) {
            printf("time     %.4f ms per iteration (median of %d), %.3f ms in all (MPI_Wtime)\n", ms_iter, nt,
                   ms_total);
            if (bw > 0 && o.pc == PC_NONE_)   /* the model is plain CG's: no preconditioner's traffic */
                printf("bound    %.1f%% of the compulsory (matrix + 10 passes) at %.1f GB/s\n",
                       100.0 * comp / (bw * 1e6) / ms_iter, bw);
        }
        if (pass && (o.pc_given || o.pcgcsv))
            printf("setup    %.3f ms (PCSetUp: %.3f ms, the rest KSPSetUp's), then the solve %.3f ms: %.3f ms in all "
                   "(MPI_Wtime)\n", setup_ms, pcsetup_ms, ms_total, setup_ms + ms_total);
        /* --maxiter before --tol: the iterations run passed their checks, but there is no solution (step7's word) */
        const char *verdict = !pass ? "FAIL" : o.tol > 0 && !converged ? "MAXITER" : "PASS";
        printf("check: %s\n", verdict);
        if (o.csv) {
            FILE *f = fopen(o.csv, "a");
            if (!f)
                die(2, "--csv %s: cannot write there", o.csv);
            fseek(f, 0, SEEK_END);
            if (ftell(f) == 0)
                fprintf(f, "%s\n", CG_HEADER);
            char date[32];
            time_t now = time(NULL);
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
            int timed = pass && nt > 0;
            field(f, "vendor");
            field(f, kernel);
            field(f, device);
            field(f, driver);
            field(f, mi.name);
            fprintf(f, "%lld,%lld,%lld,d,%lld,1,0,%d,", (long long)mi.n, (long long)mi.n, mi.nnz, (long long)its,
                    converged);
            num(f, rel);
            num(f, tr);
            num(f, o.tol);
            num(f, timed ? ms_iter : NAN);
            num(f, timed ? ms_total : NAN);
            fprintf(f, ",,,,,");   /* the split, launches, bytes_per_iter: PETSc's own business */
            num(f, o.pc == PC_NONE_ ? comp : NAN);   /* plain CG's model; a preconditioner's traffic is not in it */
            num(f, bw > 0 ? bw : NAN);
            fputc(',', f);          /* pct_version_bound */
            num(f, timed && bw > 0 && o.pc == PC_NONE_ ? 100.0 * comp / (bw * 1e6) / ms_iter : NAN);
            field(f, verdict);
            field(f, date);
            fprintf(f, "%s\n", SPMV_GIT_REV);
            fclose(f);
        }
        if (o.pcgcsv) {   /* chapter 9's row: the time to solution, setup and solve; the times only for a PASS */
            FILE *f = fopen(o.pcgcsv, "a");
            if (!f)
                die(2, "--pcg-csv %s: cannot write there", o.pcgcsv);
            fseek(f, 0, SEEK_END);
            if (ftell(f) == 0)
                fprintf(f, "%s\n", PCG_HEADER);
            char date[32];
            time_t now = time(NULL);
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
            field(f, "vendor");
            field(f, pkernel);
            field(f, device);
            field(f, driver);
            field(f, mi.name);
            fprintf(f, "%lld,%lld,d,", (long long)mi.n, mi.nnz);
            num(f, o.tol);
            fprintf(f, "%lld,%d,", (long long)its, converged);
            num(f, rel);
            num(f, tr);
            num(f, pass ? setup_ms : NAN);
            num(f, pass ? ms_total : NAN);
            num(f, pass ? setup_ms + ms_total : NAN);
            num(f, pass && nt > 0 ? ms_iter : NAN);
            fprintf(f, ",,");       /* apply_ms_per_iter, levels: not measured here (PETSc's own business) */
            field(f, verdict);
            field(f, date);
            fprintf(f, "%s\n", SPMV_GIT_REV);
            fclose(f);
        }
    }
    free(st.t);
    KSPDestroy(&ksp);
    VecDestroy(&x);
    VecDestroy(&b);
    VecDestroy(&r);
    MatDestroy(&A);
    PetscFinalize();
    if (!pass)
        return 1;
    return o.tol > 0 && !converged ? 4 : 0;   /* 4: --maxiter reached before --tol, as step7 */
}
