/* matrix.h - the sparse formats of the course and the conversions between them.
 *
 * COO is what readers produce, CSR is what step6 runs, DIA is what steps 0-5
 * run. Values are kept in double on the host (complex as a second array of
 * imaginary parts); a step rounds them to its device precision before it
 * computes the reference, so the reference and the kernel see the same
 * numbers.
 *
 * Every function that can fail on user input returns 0 on success and -1 on
 * failure, with a one-line message in *err (no newline), and frees whatever it
 * had allocated. Nothing here exits.
 */
#ifndef SPMV_MATRIX_H
#define SPMV_MATRIX_H

#include <stddef.h>
#include <stdint.h>

struct spmv_limits;   /* capacity.h: what a size is judged against */
struct spmv_run;      /* run.h: the run whose setup time a conversion adds to (NULL: none) */

typedef struct {
    char msg[512];
} spmv_error;

/* printf-style: fill err->msg; always returns -1 so callers can `return spmv_fail(...)` */
int spmv_fail(spmv_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Where a matrix came from, as read (for --info and the CSV "matrix" column). */
typedef struct {
    char name[256];     /* short name: file base name, or "grid2048x2048r5" */
    char source[512];   /* file path, or the generator and its parameters */
    char format[32];    /* "matrix-market", "harwell-boeing", "generator" */
    char field[16];     /* "real", "integer", "pattern", "complex" as read */
    char symmetry[24];  /* "general", "symmetric", "skew-symmetric", "hermitian" */
    int expanded;       /* 1 if a symmetry was expanded to the full matrix */
    long long stored;   /* entries stored in the file (before expansion) */
} spmv_origin;

/* Coordinate format: nnz entries (row[k], col[k]) = re[k] + i*im[k], 0-based.
 * im is NULL for a real matrix. Entries are in no particular order. */
typedef struct {
    int rows, cols;
    long long nnz;
    int *row, *col;
    double *re, *im;
    spmv_origin origin;
} coo_matrix;

/* Compressed sparse row: row r holds entries ptr[r] .. ptr[r+1]-1, columns
 * sorted ascending within a row, duplicates summed. nnz < 2^31 (the device
 * uses int indices). */
typedef struct {
    int rows, cols;
    long long nnz;
    int *ptr, *col;
    double *re, *im;
    spmv_origin origin;
} csr_matrix;

/* Diagonal format, the article's layout: diagonal d holds A(r, r + offsets[d])
 * at values[d * pitch + r], zero where that column falls outside the matrix or
 * the entry is not stored. pitch >= rows; padding is zero. Single precision,
 * as in the article. nnz counts true nonzeros: the FLOP count is 2 * nnz. */
typedef struct {
    int rows, cols, ndiag;
    size_t pitch;
    int *offsets;       /* ascending */
    float *values;      /* ndiag * pitch floats, 64-byte aligned */
    long long nnz;
    spmv_origin origin;
} dia_matrix;

/* The rule for refusing CSR -> DIA: DIA stores rows * ndiag values, which is
 * only worth it while that is not much more than the nonzeros. */
#define SPMV_DIA_MAX_DIAGS 1024
#define SPMV_DIA_MAX_FILL 20.0

void coo_free(coo_matrix *A);
void csr_free(csr_matrix *A);
void dia_free(dia_matrix *A);

/* Round n up to a multiple of align (align >= 1). */
size_t spmv_round_up(size_t n, size_t align);

/* Allocation that refuses absurd sizes and reports them instead of crashing.
 * what names the array for the message. Returns NULL with *err filled. */
void *spmv_alloc(size_t count, size_t size, const char *what, spmv_error *err);
/* The same limits for an array that grows (realloc: p is kept on failure;
 * no alignment beyond malloc's). */
void *spmv_realloc(void *p, size_t count, size_t size, const char *what, spmv_error *err);

/* Give the pages of bytes used..size of an spmv_alloc'ed array back to the
 * system (the array keeps its address and size; those bytes read as zero if
 * touched again). For arrays that shrink in place. */
void spmv_release_tail(void *p, size_t used, size_t size);

/* The article's matrix: a w x h grid, point (i, j) is row j*w + i, linked to
 * every (i+dx, j+dy) inside the grid with dx^2 + dy^2 <= radius^2 (itself
 * included), weights uniform in [-1, 1) from the seed. Built straight into DIA
 * with pitch rounded up to pitch_align floats. */
int dia_generate_grid(int w, int h, int radius, uint64_t seed, size_t pitch_align,
                      dia_matrix *A, spmv_error *err);
/* The same matrix straight into CSR (columns ascending), without the DIA
 * arrays: the same values, bit for bit, as dia_to_csr of dia_generate_grid. */
int csr_generate_grid(int w, int h, int radius, uint64_t seed, csr_matrix *A, spmv_error *err);
/* An irregular matrix from a spec (common/gen.c): powerlaw:rows=N,mean=M,exp=A,
 * uniform:rows=N,min=a,max=b, arrow:rows=N, short:rows=N,mean=M,band=B
 * (cols=C where it applies); poisson:nx=W,ny=H (5 points), poisson3d and
 * stencil27:nx=..,ny=..,nz=.. (7 and 27 points; symmetric positive definite,
 * no random numbers). The same seed gives the same matrix whatever the
 * number of threads. */
/* Its size is judged against lim's run first (capacity.h; NULL: the host
 * alone), and a DIA step's (lim->dia_max_diags) refuses a matrix with more
 * diagonals from its first rows, before drawing the rest. */
int csr_generate(const char *spec, uint64_t seed, struct spmv_limits *lim, csr_matrix *A, spmv_error *err);
/* How many (dx, dy) with dx^2 + dy^2 <= r^2: the diagonal count on a wide grid. */
int grid_stencil_points(int radius);
/* The grid's nonzeros and distinct diagonals, counted without building it, so
 * its size can be checked first (capacity.h). */
int grid_shape(int w, int h, int radius, long long *nnz, int *ndiag, spmv_error *err);

/* Conversions. Inputs are left untouched; outputs are freshly allocated. */
int coo_to_csr(const coo_matrix *A, csr_matrix *B, spmv_error *err);   /* sums duplicates */
int csr_to_coo(const csr_matrix *A, coo_matrix *B, spmv_error *err);
/* refuses, see above; and what lim's run cannot hold (capacity.h; NULL: the host alone) */
int csr_to_dia(const csr_matrix *A, size_t pitch_align, struct spmv_limits *lim, dia_matrix *B, spmv_error *err);
int dia_to_csr(const dia_matrix *A, csr_matrix *B, spmv_error *err);   /* true nonzeros only */

/* Count the distinct occupied diagonals of a CSR matrix. */
int csr_count_diagonals(const csr_matrix *A, long long *ndiag);

/* Round every value to float, in place (for single and complex-single runs);
 * its time is the run's matrix phase. */
void csr_round_to_float(struct spmv_run *run, csr_matrix *A);

/* Deterministic random numbers: the same seed gives the same matrix and
 * vector on every machine. */
typedef struct { uint64_t s; } spmv_rng;
void spmv_rng_seed(spmv_rng *g, uint64_t seed);
uint64_t spmv_rng_next(spmv_rng *g);
double spmv_rng_uniform(spmv_rng *g);   /* [-1, 1) */
/* Draw i (0-based) of the stream seeded with seed: the same number as the
 * (i+1)-th spmv_rng_uniform after spmv_rng_seed(g, seed). */
double spmv_rng_uniform_at(uint64_t seed, uint64_t i);

#endif
