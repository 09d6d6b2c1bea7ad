/* load.c - the matrix of a run and its x: read or generated, converted, and
 * saved for outside tools when asked; see load.h. */
#include "load.h"
#include "capacity.h"
#include "check.h"
#include "formats/formats.h"
#include "precision.h"
#include "status.h"
#include "run.h"
#include "stopwatch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void spmv_print_dia(const dia_matrix *A)
{
    printf("matrix   %s: %d x %d, %lld nonzeros, %d diagonals (%.1f%% of the DIA storage is padding)\n",
           A->origin.name, A->rows, A->cols, A->nnz, A->ndiag,
           A->ndiag ? 100.0 * (1.0 - (double)A->nnz / ((double)A->ndiag * A->rows)) : 0.0);
}

/* The helpers below take what they need of the options: the grid, and
 * --estimate's flag (estimate) on the paths that may end in it. */

/* --estimate: the host's estimate, once the matrix's size is known, then
 * exit; printed before a refusal too (the device's limits, or the host's) */
static void estimate_print(int estimate, const spmv_limits *lim)
{
    if (!estimate || spmv_host_estimate(lim) <= 0)
        return;
    char line[768];
    spmv_host_estimate_line(lim, line, sizeof line);
    printf("host     needs %.1f MiB %s\n", spmv_host_estimate(lim) / 1048576.0, line);
    fflush(stdout);
}

static void estimate_exit(int estimate, const spmv_limits *lim)
{
    if (!estimate)
        return;
    estimate_print(estimate, lim);
    exit(SPMV_EXIT_PASS);
}

/* A matrix refused for its size (err): with --estimate, the estimate so far
 * first; one line, exit 2 */
static void refuse_size(int estimate, const spmv_limits *lim, const char *msg)
{
    estimate_print(estimate, lim);
    spmv_die(SPMV_EXIT_USAGE, "%s", msg);
}

/* --gen SPEC (seeded) or --matrix FILE (path), as CSR */
static void read_csr(const char *gen, const char *path, uint64_t seed, int estimate, spmv_limits *lim, csr_matrix *A)
{
    spmv_error err;
    if (gen) {
        if (csr_generate(gen, seed, lim, A, &err))
            refuse_size(estimate, lim, err.msg);
        return;
    }
    coo_matrix C;
    if (matrix_read(path, lim, &C, &err))
        refuse_size(estimate, lim, err.msg);
    int rc = coo_to_csr(&C, A, &err);
    coo_free(&C);
    if (rc)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
}

/* The grid of --grid, --radius and --seed */
typedef struct {
    int w, h, radius;
    uint64_t seed;
} grid_spec;

static grid_spec grid_of(const spmv_options *o)
{
    return (grid_spec){ .w = o->grid_w, .h = o->grid_h, .radius = o->radius, .seed = o->seed };
}

/* The grid's size against the run's limits, before any of it is built
 * (pitch_align 1 before the step has said its own: a lower bound); csr_too:
 * --info or --save-matrix build it as CSR too. */
static void check_grid(const grid_spec *g, int csr_too, int estimate, spmv_limits *lim, size_t pitch_align)
{
    spmv_error err;
    long long nnz;
    int ndiag;
    if (grid_shape(g->w, g->h, g->radius, &nnz, &ndiag, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    long long n = (long long)g->w * g->h;
    spmv_size s = { .rows = n, .cols = n, .nnz = nnz, .from = SPMV_FROM_GRID, .csr_too = csr_too };
    if (lim->format == 'd') {
        s.ndiag = ndiag;
        s.pitch = (long long)spmv_round_up((size_t)n, pitch_align);
    }
    if (spmv_fits(lim, &s, &err)) {
        estimate_print(estimate, lim);
        spmv_die(SPMV_EXIT_USAGE, "grid %dx%d radius %d (%lld rows, %lld nonzeros): %s; try a smaller --grid",
                 g->w, g->h, g->radius, n, nnz, err.msg);
    }
}

/* The grid as CSR (step 6, and --info or --save-matrix of a DIA step). */
static void grid_csr(const grid_spec *g, int csr_too, int estimate, spmv_limits *lim, csr_matrix *A)
{
    spmv_error err;
    check_grid(g, csr_too, estimate, lim, 1);
    estimate_exit(estimate, lim);   /* --estimate: nothing built (spmv_save_matrix never gets here with it) */
    if (csr_generate_grid(g->w, g->h, g->radius, g->seed, A, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
}

/* format and value_size: what the step will hold, for the size checks of
 * the readers (capacity.h), with what the step says it holds beside (its
 * spmv_step, which the parser gave the run) */
static void read_input(spmv_run *run, const spmv_options *o, const spmv_limits *device, char format,
                       char precision, spmv_input *in)
{
    double t0 = spmv_now();
    memset(in, 0, sizeof *in);
    if (device)
        in->limits = *device;
    in->limits.format = format;
    in->limits.precision = precision;
    in->limits.dia_max_diags = format == 'd' ? SPMV_DIA_MAX_DIAGS : 0;
    if (run && run->step)
        in->limits.holds = run->step->holds;
    in->grid = !o->matrix && !o->gen;
    if (!in->grid)
        read_csr(o->gen, o->matrix, o->seed, o->estimate, &in->limits, &in->csr);
    spmv_phase_add(run, SPMV_PH_MATRIX, spmv_now() - t0);
}

void spmv_read_dia(spmv_run *run, const spmv_options *o, const spmv_limits *device, spmv_input *in)
{
    read_input(run, o, device, 'd', 's', in);
}

void spmv_read_csr(spmv_run *run, const spmv_options *o, const spmv_limits *device, spmv_input *in)
{
    /* without --precision a file's size is judged by its own field (0: float or complex float) */
    read_input(run, o, device, 'c', o->precision_set ? o->precision : 0, in);
}

void spmv_load_dia(spmv_run *run, const spmv_options *o, spmv_input *in, size_t pitch_align, dia_matrix *A)
{
    double t0 = spmv_now();
    spmv_error err;
    grid_spec g = grid_of(o);
    if (!in->grid) {
        int rc = csr_to_dia(&in->csr, pitch_align, &in->limits, A, &err);
        csr_free(&in->csr);
        if (rc)
            refuse_size(o->estimate, &in->limits, err.msg);
    } else {
        check_grid(&g, o->info || o->save_matrix, o->estimate, &in->limits, pitch_align);
        estimate_exit(o->estimate, &in->limits);
        if (dia_generate_grid(g.w, g.h, g.radius, g.seed, pitch_align, A, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    }
    spmv_phase_add(run, SPMV_PH_MATRIX, spmv_now() - t0);
    estimate_exit(o->estimate, &in->limits);
    spmv_print_dia(A);
}

void spmv_load_csr(spmv_run *run, const spmv_options *o, spmv_input *in, csr_matrix *A)
{
    double t0 = spmv_now();
    grid_spec g = grid_of(o);
    if (in->grid)
        grid_csr(&g, o->info || o->save_matrix, o->estimate, &in->limits, A);
    else
        *A = in->csr;
    estimate_exit(o->estimate, &in->limits);
    memset(&in->csr, 0, sizeof in->csr);
    spmv_phase_add(run, SPMV_PH_MATRIX, spmv_now() - t0);
}

/* ---- --info and --save-matrix ------------------------------------------- */

int spmv_info_line(const csr_matrix *A, char *buf, size_t size, spmv_error *err)
{
    long long ndiag;
    if (csr_count_diagonals(A, &ndiag))
        return spmv_fail(err, "%s: out of memory counting the diagonals", A->origin.name);
    /* CSR order (rows, then columns ascending) is the same whatever the file's
     * order, so two files holding the same matrix give the same bits. */
    /* the Frobenius norm sqrt(sum |a_ij|^2), one real number also for a
     * complex matrix (|a|^2 = re^2 + im^2) */
    double sum_re = 0, sum_im = 0, sq = 0;
    for (long long k = 0; k < A->nnz; k++) {
        sum_re += A->re[k];
        sq += A->re[k] * A->re[k];
        if (A->im) {
            sum_im += A->im[k];
            sq += A->im[k] * A->im[k];
        }
    }
    const spmv_origin *o = &A->origin;
    int gen = strcmp(o->format, "generator") == 0;
    char sums[160];
    if (A->im)
        snprintf(sums, sizeof sums, "sum re %.17g im %.17g | frobenius %.17g", sum_re, sum_im, sqrt(sq));
    else
        snprintf(sums, sizeof sums, "sum %.17g | frobenius %.17g", sum_re, sqrt(sq));
    snprintf(buf, size, "%s%s | format %s | field %s | symmetry %s%s | rows %d | cols %d | stored %lld | "
             "nonzeros %lld | diagonals %lld | %s", gen ? "" : "file ", o->source, o->format, o->field,
             o->symmetry, o->expanded ? ", expanded" : "", A->rows, A->cols, o->stored, A->nnz, ndiag, sums);
    return 0;
}

/* The step's name in the comment of a file it saves */
static const char *saved_by(const spmv_run *run)
{
    return run && run->name ? run->name : spmv_prog_name();
}

/* --info (info), --save-matrix FILE (save_matrix); quiet: --quiet */
static void save_csr(const spmv_run *run, int info, const char *save_matrix, int quiet, const csr_matrix *A)
{
    spmv_error err;
    if (info) {
        char line[1536];
        if (spmv_info_line(A, line, sizeof line, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        printf("info     %s\n", line);
    }
    if (save_matrix) {
        const spmv_origin *g = &A->origin;
        char comment[1400];
        int n = snprintf(comment, sizeof comment, "written by %s --save-matrix: the matrix as loaded "
                         "(symmetry expanded, duplicates summed), %%.17g\nfrom %s (%s, %s, %s%s)", saved_by(run),
                         g->source, g->format, g->field, g->symmetry, g->expanded ? ", expanded" : "");
        if (strcmp(g->field, "pattern") == 0 && n > 0 && (size_t)n < sizeof comment)
            snprintf(comment + n, sizeof comment - (size_t)n,
                     "\npattern matrix: written as real, every stored entry 1.0");
        if (mm_write_csr(save_matrix, A, comment, &err))
            spmv_die(SPMV_EXIT_USAGE, "--save-matrix: %s", err.msg);
        if (!quiet)
            printf("saved    matrix to %s (%lld entries)\n", save_matrix, A->nnz);
    }
}

void spmv_save_matrix(spmv_run *run, const spmv_options *o, spmv_input *in)
{
    if (!o->info && !o->save_matrix)
        return;
    grid_spec g = grid_of(o);
    if (o->estimate) {   /* nothing built or written; the grid's CSR counted */
        if (in->grid)
            check_grid(&g, 1, 1, &in->limits, 1);
        return;
    }
    double t0 = spmv_now();
    if (in->grid) {
        csr_matrix C;
        grid_csr(&g, 1, 0, &in->limits, &C);
        save_csr(run, o->info, o->save_matrix, o->quiet, &C);
        csr_free(&C);
    } else {
        save_csr(run, o->info, o->save_matrix, o->quiet, &in->csr);
    }
    spmv_phase_add(run, SPMV_PH_MATRIX, spmv_now() - t0);
}

/* ---- x ------------------------------------------------------------------ */

/* x from --x FILE (path), rounded to the run's precision as the random x is. */
static double *read_x_doubles(const char *path, int n, int complex_, int round_to_float)
{
    spmv_error err;
    double *x = mm_read_vector(path, n, complex_, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "--x: %s", err.msg);
    if (round_to_float)   /* as the random x is: each part rounded to nearest float */
        for (long long i = 0; i < (long long)n * (complex_ ? 2 : 1); i++)
            x[i] = (float)x[i];
    return x;
}

static float *read_x_floats(const char *path, int n)
{
    spmv_error err;
    double *xd = read_x_doubles(path, n, 0, 1);
    float *x = spmv_alloc((size_t)n + 1, sizeof *x, "vector x", &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    for (int i = 0; i < n; i++)
        x[i] = (float)xd[i];
    free(xd);
    return x;
}

float *spmv_x_floats(spmv_run *run, const spmv_options *o, int n)
{
    double t0 = spmv_now();
    spmv_error err;
    float *x = o->x_file ? read_x_floats(o->x_file, n) : spmv_random_floats((size_t)n, o->seed, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_phase_add(run, SPMV_PH_X, spmv_now() - t0);
    return x;
}

double *spmv_x_doubles(spmv_run *run, const spmv_options *o, int n, int complex_, int round_to_float)
{
    double t0 = spmv_now();
    spmv_error err;
    double *x = o->x_file ? read_x_doubles(o->x_file, n, complex_, round_to_float)
                          : spmv_random_doubles((size_t)n * (complex_ ? 2 : 1), o->seed, round_to_float, &err);
    if (!x)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    spmv_phase_add(run, SPMV_PH_X, spmv_now() - t0);
    return x;
}

static void save_x(spmv_run *run, const spmv_options *o, const void *x, int is_float, int n, int complex_,
                   int single)
{
    if (!o->save_x)
        return;
    double t0 = spmv_now();
    char comment[1024];
    if (o->x_file)
        snprintf(comment, sizeof comment, "x of %s, read from %s, %s", saved_by(run), o->x_file,
                 spmv_prec_words(single, complex_));
    else
        snprintf(comment, sizeof comment, "x of %s, seeded random (--seed %llu), %s", saved_by(run),
                 (unsigned long long)o->seed, spmv_prec_words(single, complex_));
    spmv_error err;
    if (mm_write_vector(o->save_x, x, is_float, n, complex_, single ? 9 : 17, comment, &err))
        spmv_die(SPMV_EXIT_USAGE, "--save-x: %s", err.msg);
    if (!o->quiet)
        printf("saved    x to %s (%d entries)\n", o->save_x, n);
    spmv_phase_add(run, SPMV_PH_X, spmv_now() - t0);
}

double *spmv_read_vector(const char *path, const char *flag, int n, int single)
{
    spmv_error err;
    double *v = mm_read_vector(path, n, 0, &err);
    if (!v)
        spmv_die(SPMV_EXIT_USAGE, "%s: %s", flag, err.msg);
    if (single)
        for (int i = 0; i < n; i++)
            v[i] = (float)v[i];
    return v;
}

void spmv_save_vector(const char *path, const char *flag, const double *v, int n, int single, const char *comment)
{
    if (!path)
        return;
    spmv_error err;
    if (mm_write_vector(path, v, 0, n, 0, single ? 9 : 17, comment, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s: %s", flag, err.msg);
    printf("saved    %s to %s (%d entries)\n", flag + 7, path, n);
}

void spmv_save_x_floats(spmv_run *run, const spmv_options *o, const float *x, int n)
{
    save_x(run, o, x, 1, n, 0, 1);
}

void spmv_save_x_doubles(spmv_run *run, const spmv_options *o, const double *x, int n, int complex_,
                         int round_to_float)
{
    save_x(run, o, x, 0, n, complex_, round_to_float);
}
