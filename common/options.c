/* options.c - command-line parsing shared by every step. */
#include "options.h"

#include "status.h"
#include "results.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_GRID 512
#define DEFAULT_RADIUS 5
#define DEFAULT_RUNS 10
#define DEFAULT_WARMUP 2

static void usage(const spmv_step *s)
{
    printf("%s - %s\n\n", s->name, s->title);
    printf("usage: %s [options]\n\n", s->name);
    printf("The matrix (default: the article's %dx%d grid, radius %d):\n", DEFAULT_GRID, DEFAULT_GRID,
           DEFAULT_RADIUS);
    printf("  --grid WxH | W      grid of W x H points, one row each (W alone: square)\n");
    printf("  --radius R          link every neighbour with dx^2+dy^2 <= R^2 (R=5: 81 diagonals)\n");
    printf("  --matrix FILE       read a Matrix Market (.mtx) or Harwell-Boeing file instead\n");
    printf("  --gen SPEC          generate an irregular matrix instead: powerlaw:rows=N[,mean=M][,exp=A],\n"
           "                      uniform:rows=N[,min=a][,max=b], arrow:rows=N (cols=C: not square),\n"
           "                      short:rows=N[,mean=M][,band=B] (rows of 1 to 2M-1 near the diagonal);\n"
           "                      poisson:nx=W[,ny=H], the 5-point Laplacian on a W x H grid (symmetric);\n"
           "                      poisson3d:nx=N[,ny=..][,nz=..] (7 points: 6 and -1) and\n"
           "                      stencil27:nx=N[,ny=..][,nz=..] (3x3x3: 26 and -1) on a 3-D box, both SPD\n");
    printf("  --seed S            seed of the random weights and of x (default 1)\n");
    if (s->extras & OPT_PRECISION)
        printf("  --precision P       s (float), d (double), c (complex float), z (complex double)\n");
    printf("\nChecking it yourself (Matrix Market files for Octave, SciPy, Julia):\n");
    printf("  --info              print one line about the matrix as read: sizes, sum, Frobenius norm\n");
    printf("  --x FILE            read x from an array file ('N 1', real or complex) instead of --seed\n");
    printf("  --save-x FILE       write x as the run uses it, as an array file\n");
    printf("  --save-y FILE       write y as an array file, only if the check passed\n");
    printf("  --save-matrix FILE  write the matrix as read (symmetry expanded) as a coordinate file\n");
    printf("\nRunning:\n");
    printf("  --runs N            timed runs (default %d); the median and minimum are reported; before\n"
           "                      each, one bandwidth probe sample and one untimed run\n", DEFAULT_RUNS);
    printf("  --warmup N          untimed runs first (default %d)\n", DEFAULT_WARMUP);
    if (!(s->extras & OPT_NO_DEVICE)) {
        printf("  --device SEL        P:D, cpu, gpu, or part of a name (or SPMV_DEVICE); see `make devices`\n");
        printf("  --local-size L      work-group size (default: the step's own)\n");
        printf("  --kernel-file FILE  build this kernel source (FILE.cl) instead of %s\n", s->kernel_path);
        printf("  --cl-opts \"...\"     OpenCL build options\n");
    } else {
        /* `make run ARGS="--device gpu"` gives every step the same line */
        printf("  --device SEL        taken, as every step takes it, and not used: %s runs on the host, in C\n",
               s->name);
        printf("  --local-size L      taken and not used, as --device\n");
        printf("  --kernel-file FILE  taken and not used, as --device\n");
        printf("  --cl-opts \"...\"     taken and not used, as --device\n");
    }
    if (s->variants)
        printf("  --kernel NAME       which kernel: %s (default %s)\n", s->variants, s->default_variant);
    if (s->extras & OPT_THREADS)
        printf("  --threads N         OpenMP threads (default 1: the article's serial loop)\n");
    if (s->extras & OPT_BLOCK)
        printf("  --block N           rows per block\n");
    if (s->extras & OPT_GROUP)
        printf("  --group-size N      work-items per row (vector kernel)\n");
    if (s->extras & OPT_SPLIT) {
        printf("  --split N           rows longer than N nonzeros are cut across work-groups (adaptive\n"
               "                      kernel; default from the matrix and the device)\n");
        printf("  --combine HOW       how a split row's pieces are added: count (in the kernel, by the last\n"
               "                      piece, counted in with an atomic increment; needs a fence of device\n"
               "                      scope), last (in the kernel, by the last piece, through one 64-bit\n"
               "                      atomic word; float and double) or fixup (a second kernel); default the\n"
               "                      first of these the device allows\n");
    }
    if (s->extras & OPT_CG) {
        printf("  --tol T             stop at a relative residual |r|/|b| <= T (default 1e-5 float, 1e-10\n"
               "                      double); 0: run exactly --maxiter iterations (a timing run)\n");
        printf("  --maxiter N         stop after N iterations (default 10 n, n the rows)\n");
        printf("  --check-every K     fused: read the residual back every K iterations (default: printed)\n");
        printf("  --b FILE            the right-hand side from an array file ('N 1') instead of --seed\n");
        printf("  --save-b FILE       write b as the solve uses it, as an array file\n");
        printf("  --history FILE      plain: |r|/|b| before each iteration, as CSV (iteration,rel_residual)\n");
        printf("  (--save-x FILE      writes the solution x, only if the check passed)\n");
    }
    printf("  --csv FILE          append one result row to FILE (header when new)\n");
    printf("  --quiet             print only the result lines (check, time, speed, bound; errors on stderr)\n");
    printf("  --estimate          print the host memory the run would need at its peak, and the memory\n"
           "                      available, then exit (SPMV_HOST_MEM_MB=N pretends the host has N MiB)\n");
    printf("  --help              this text\n");
    printf("\nExit status: 0 check passed, 1 check failed%s, 2 bad input or out of memory, "
           "3 skipped (the device lacks a feature)%s.\n", s->extras & OPT_CG ? " or breakdown (not positive definite)" : "",
           s->extras & OPT_CG ? ", 4 --maxiter reached before --tol" : "");
}

static void bad(const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    spmv_die(SPMV_EXIT_USAGE, "%s (see %s --help)", msg, spmv_prog_name());
}

static long long parse_int(const char *flag, const char *v, long long lo, long long hi)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        char range[96];
        snprintf(range, sizeof range, "%lld to %lld", lo, hi);
        char msg[256];
        snprintf(msg, sizeof msg, "%s wants a whole number from %s, not '%%s'%%s", flag, range);
        bad(msg, v, "");
    }
    return x;
}

static int has_variant(const char *list, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = list; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && strncmp(p, v, n) == 0)
            return 1;
        p = comma ? comma + 1 : p + len;
    }
    return 0;
}

/* The OpenCL flags: every step takes them; a step on the host (OPT_NO_DEVICE)
 * does not use them. */
static int device_flag(const char *flag)
{
    static const char *device[] = { "--device", "--local-size", "--cl-opts", "--kernel-file" };
    for (size_t i = 0; i < sizeof device / sizeof *device; i++)
        if (strcmp(flag, device[i]) == 0)
            return 1;
    return 0;
}

/* The flags that take a value, and which steps accept them. */
static int known_flag(const spmv_step *s, const char *flag)
{
    static const char *common[] = { "--grid", "--radius", "--matrix", "--gen", "--runs", "--warmup", "--seed", "--csv",
                                    "--kernel", "--x", "--save-x", "--save-y", "--save-matrix" };
    for (size_t i = 0; i < sizeof common / sizeof *common; i++)
        if (strcmp(flag, common[i]) == 0)
            return 1;
    if (device_flag(flag))
        return 1;
    return ((s->extras & OPT_PRECISION) && strcmp(flag, "--precision") == 0) ||
           ((s->extras & OPT_THREADS) && strcmp(flag, "--threads") == 0) ||
           ((s->extras & OPT_BLOCK) && strcmp(flag, "--block") == 0) ||
           ((s->extras & OPT_GROUP) && strcmp(flag, "--group-size") == 0) ||
           ((s->extras & OPT_SPLIT) && (strcmp(flag, "--split") == 0 || strcmp(flag, "--combine") == 0)) ||
           ((s->extras & OPT_CG) && (strcmp(flag, "--tol") == 0 || strcmp(flag, "--maxiter") == 0 ||
                                     strcmp(flag, "--check-every") == 0 || strcmp(flag, "--b") == 0 ||
                                     strcmp(flag, "--save-b") == 0 || strcmp(flag, "--history") == 0));
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

void spmv_parse(int argc, char **argv, const spmv_step *s, spmv_options *o)
{
    spmv_set_prog(s->name);
    memset(o, 0, sizeof *o);
    o->grid_w = o->grid_h = DEFAULT_GRID;
    o->radius = DEFAULT_RADIUS;
    o->runs = DEFAULT_RUNS;
    o->warmup = DEFAULT_WARMUP;
    o->seed = 1;
    o->kernel_file = s->kernel_path;
    o->variant = s->default_variant;
    o->precision = 's';
    int grid_set = 0, radius_set = 0;
    char unused[256] = "";   /* the OpenCL flags a step on the host was given */

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(s);
            exit(0);
        }
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        if (strcmp(a, "--info") == 0) {
            o->info = 1;
            continue;
        }
        if (strcmp(a, "--estimate") == 0) {
            o->estimate = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0)
            bad("unexpected argument '%s'%s", a, "");
        /* every other flag takes a value: --flag VALUE or --flag=VALUE */
        char flag[64];
        const char *v, *eq = strchr(a, '=');
        if (eq) {
            snprintf(flag, sizeof flag, "%.*s", (int)(eq - a) < 63 ? (int)(eq - a) : 63, a);
            v = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", a);
            if (!known_flag(s, flag))
                bad("unknown option %s%s", flag, "");
            if (i + 1 >= argc)
                bad("%s needs a value%s", a, "");
            v = argv[++i];
        }
        int dev = !(s->extras & OPT_NO_DEVICE);
        if (!dev && device_flag(flag)) {
            /* `make run ARGS="--device gpu"` gives them to every step: taken, noted once below */
            if (strcmp(flag, "--local-size") == 0)
                parse_int(flag, v, 1, 1 << 20);
            if (!strstr(unused, flag)) {
                size_t n = strlen(unused);
                snprintf(unused + n, sizeof unused - n, "%s%s %s", n ? ", " : "", flag,
                         strcmp(flag, "--device") == 0 ? v : "...");
            }
            continue;
        }
        if (strcmp(flag, "--grid") == 0) {
            char *end;
            errno = 0;
            long w = strtol(v, &end, 10), h = w;
            if (!errno && end != v && (*end == 'x' || *end == 'X')) {
                const char *hs = end + 1;
                h = strtol(hs, &end, 10);
                if (end == hs)
                    h = -1;
            }
            if (errno || end == v || *end || w < 1 || h < 1 || w > 1000000 || h > 1000000)
                bad("--grid wants W or WxH with sides from 1 to 1000000, not '%s'%s", v, "");
            if ((long long)w * h >= INT_MAX)
                bad("--grid %s has more than 2^31 points: too large%s", v, "");
            o->grid_w = (int)w;
            o->grid_h = (int)h;
            grid_set = 1;
        } else if (strcmp(flag, "--radius") == 0) {
            o->radius = (int)parse_int(flag, v, 0, 100);
            radius_set = 1;
        } else if (strcmp(flag, "--matrix") == 0) {
            o->matrix = v;
        } else if (strcmp(flag, "--gen") == 0) {
            o->gen = v;
        } else if (strcmp(flag, "--runs") == 0) {
            o->runs = (int)parse_int(flag, v, 1, 100000);
        } else if (strcmp(flag, "--warmup") == 0) {
            o->warmup = (int)parse_int(flag, v, 0, 100000);
        } else if (strcmp(flag, "--seed") == 0) {
            o->seed = (uint64_t)parse_int(flag, v, 0, LLONG_MAX);
        } else if (strcmp(flag, "--csv") == 0) {
            o->csv = v;
        } else if (strcmp(flag, "--x") == 0) {
            o->x_file = v;
        } else if (strcmp(flag, "--save-x") == 0) {
            o->save_x = v;
        } else if (strcmp(flag, "--save-y") == 0) {
            o->save_y = v;
        } else if (strcmp(flag, "--save-matrix") == 0) {
            o->save_matrix = v;
        } else if (dev && strcmp(flag, "--device") == 0) {
            o->device = v;
        } else if (dev && strcmp(flag, "--local-size") == 0) {
            o->local_size = (size_t)parse_int(flag, v, 1, 1 << 20);
        } else if (dev && strcmp(flag, "--cl-opts") == 0) {
            o->cl_opts = v;
        } else if (dev && strcmp(flag, "--kernel-file") == 0) {
            /* a source file; a kernel's name here is the other flag's job */
            if (s->variants && has_variant(s->variants, v) && access(v, F_OK) != 0)
                bad("--kernel-file wants a kernel source file, not the kernel name '%s': to choose a kernel, "
                    "use --kernel %s", v, v);
            if (!ends_with(v, ".cl") && access(v, F_OK) != 0)
                bad("--kernel-file wants a kernel source file (FILE.cl), not '%s'%s", v,
                    s->variants ? "; to choose one of the step's kernels, use --kernel NAME" : "");
            o->kernel_file = v;
        } else if (strcmp(flag, "--kernel") == 0) {
            /* a name among the step's kernels; a source file is --kernel-file */
            int file = ends_with(v, ".cl") || strchr(v, '/');
            if (s->variants && has_variant(s->variants, v))
                o->variant = v;
            else if (file && dev)
                bad("--kernel chooses among the step's kernels by name; for a kernel source file use "
                    "--kernel-file %s%s", v, "");
            else if (s->variants)
                bad("--kernel wants one of %s, not '%s'", s->variants, v);
            else if (dev)
                bad("%s has one kernel, so --kernel has nothing to choose; for a kernel source file use "
                    "--kernel-file FILE.cl, not --kernel %s", s->name, v);
            else
                bad("%s has no --kernel choice (not '%s')", s->name, v);
        } else if ((s->extras & OPT_PRECISION) && strcmp(flag, "--precision") == 0) {
            if (strlen(v) != 1 || !strchr("sdcz", v[0]))
                bad("--precision wants s, d, c or z, not '%s'%s", v, "");
            o->precision = v[0];
            o->precision_set = 1;
        } else if ((s->extras & OPT_THREADS) && strcmp(flag, "--threads") == 0) {
            o->threads = (int)parse_int(flag, v, 1, 1024);
        } else if ((s->extras & OPT_BLOCK) && strcmp(flag, "--block") == 0) {
            o->block = (int)parse_int(flag, v, 1, INT_MAX);
        } else if ((s->extras & OPT_GROUP) && strcmp(flag, "--group-size") == 0) {
            o->group = (int)parse_int(flag, v, 1, 1024);
        } else if ((s->extras & OPT_SPLIT) && strcmp(flag, "--split") == 0) {
            o->split = (int)parse_int(flag, v, 1, INT_MAX);
        } else if ((s->extras & OPT_SPLIT) && strcmp(flag, "--combine") == 0) {
            if (strcmp(v, "count") != 0 && strcmp(v, "last") != 0 && strcmp(v, "fixup") != 0)
                bad("--combine wants count, last or fixup, not '%s'%s", v, "");
            o->combine = v;
        } else if ((s->extras & OPT_CG) && strcmp(flag, "--tol") == 0) {
            char *end;
            errno = 0;
            double t = strtod(v, &end);
            if (errno || end == v || *end || !(t >= 0 && t < 1))
                bad("--tol wants a relative residual from 0 to below 1 (1e-6, say), not '%s'%s", v, "");
            o->tol = t;
            o->tol_set = 1;
        } else if ((s->extras & OPT_CG) && strcmp(flag, "--maxiter") == 0) {
            o->maxiter = (int)parse_int(flag, v, 1, INT_MAX - 1);
        } else if ((s->extras & OPT_CG) && strcmp(flag, "--check-every") == 0) {
            o->check_every = (int)parse_int(flag, v, 1, 1000000);
        } else if ((s->extras & OPT_CG) && strcmp(flag, "--b") == 0) {
            o->b_file = v;
        } else if ((s->extras & OPT_CG) && strcmp(flag, "--save-b") == 0) {
            o->save_b = v;
        } else if ((s->extras & OPT_CG) && strcmp(flag, "--history") == 0) {
            o->history = v;
        } else {
            bad("unknown option %s%s", flag, "");
        }
    }
    o->grid_set = grid_set || radius_set;
    if (o->matrix && (grid_set || radius_set))
        bad("--matrix and --grid/--radius choose the matrix two ways: give one%s%s", "", "");
    if (o->quiet)
        spmv_quiet();
    if (unused[0])
        printf("note     %s runs on the host, in C, on no OpenCL device: %s not used\n", s->name, unused);
    if (o->gen && (o->matrix || grid_set || radius_set))
        bad("--gen and %s choose the matrix two ways: give one%s", o->matrix ? "--matrix" : "--grid/--radius", "");
}
