/* options.h - the one command line every step shares (`--help` prints it). */
#ifndef SPMV_OPTIONS_H
#define SPMV_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* Flags only some steps take; a step names the ones it accepts. */
enum {
    OPT_PRECISION = 1 << 0,   /* --precision s|d|c|z */
    OPT_THREADS = 1 << 1,     /* --threads N */
    OPT_BLOCK = 1 << 2,       /* --block N */
    OPT_GROUP = 1 << 3,       /* --group-size N */
    OPT_NO_DEVICE = 1 << 4,   /* the step runs on the host: --device, --local-size, --kernel-file and
                                 --cl-opts are taken, as every step takes them, and not used (one note) */
    OPT_SPLIT = 1 << 5,       /* --split N, --combine last|fixup */
    OPT_CG = 1 << 6,          /* a solver (step7): --tol, --maxiter, --b, --save-b, --check-every; --save-x
                                 writes the solution */
};

typedef struct {
    const char *name;         /* "step1" */
    const char *title;        /* "naive DIA kernel, one work-item per row" */
    const char *kernel_path;  /* the step's kernel.cl, fixed at build time */
    const char *variants;     /* "scalar,vector" for --kernel NAME; NULL if one kernel */
    const char *default_variant;
    unsigned extras;          /* OPT_* flags the step accepts */
    int model_bytes;          /* the article's bytes per 2 FLOPs: 12, 8 or 4 */
} spmv_step;

typedef struct {
    int grid_w, grid_h, radius;
    const char *matrix;
    const char *gen;          /* --gen SPEC: an irregular matrix (common/gen.c) */
    int runs, warmup;
    size_t local_size;        /* 0: the step's default */
    const char *device;
    const char *csv;
    uint64_t seed;
    const char *kernel_file;  /* the step's kernel.cl unless --kernel-file FILE.cl */
    const char *variant;      /* --kernel NAME */
    const char *cl_opts;
    char precision;           /* 's' 'd' 'c' 'z' */
    int precision_set;        /* --precision given; else step 6 follows the file (load.h spmv_csr_precision) */
    int threads, block, group, split;
    const char *combine;      /* --combine last|fixup: how split rows are added up (step6) */
    int quiet;
    int info;                 /* --info: print the matrix summary line (common/load.h) */
    int estimate;             /* --estimate: print the host memory the run would need, exit (capacity.h) */
    const char *x_file;       /* --x FILE: x from a Matrix Market array file */
    const char *save_x, *save_y, *save_matrix;   /* --save-x/-y/-matrix FILE */
    int grid_set;             /* --grid or --radius given (a solver's default matrix is not the grid) */
    /* OPT_CG */
    double tol;               /* --tol: relative residual to reach; 0: run exactly --maxiter iterations */
    int tol_set, maxiter, check_every;   /* maxiter, check_every 0: the solver's default */
    const char *b_file, *save_b;         /* --b FILE: the right-hand side; --save-b FILE */
    const char *history;                 /* --history FILE: the residual of every iteration (CSV) */
} spmv_options;

/* Parse argv; on --help print usage and exit 0; on a bad flag print one line
 * and the usage hint, exit 2. Names the program (spmv_set_prog). */
void spmv_parse(int argc, char **argv, const spmv_step *step, spmv_options *o);

#endif
