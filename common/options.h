/* options.h - the command line of every step: one vocabulary of options,
 * each step taking the groups it uses (`--help` prints the step's own). */
#ifndef SPMV_OPTIONS_H
#define SPMV_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* The groups of options a step takes (spmv_step.takes); common/options.c's
 * table gives each option its group. Every step takes the rest: --matrix,
 * --gen, --seed, --info, --save-matrix, --csv, --quiet, --estimate, --help;
 * and --kernel NAME where it has variants. */
enum {
    OPT_GRID = 1 << 0,        /* --grid, --radius: the article's grid */
    OPT_PRODUCT = 1 << 1,     /* y = A x: --x, --save-x (x), --save-y, --runs, --warmup */
    OPT_DEVICE = 1 << 2,      /* --device SEL */
    OPT_OPENCL = 1 << 3,      /* --local-size, --kernel-file, --cl-opts */
    OPT_HOST = 1 << 4,        /* the step runs on the host: --device, --local-size, --kernel-file and --cl-opts
                                 are taken, as every step takes them, and not used (one note) */
    OPT_PRECISION = 1 << 5,   /* --precision, one of spmv_step.precisions */
    OPT_THREADS = 1 << 6,     /* --threads N */
    OPT_BLOCK = 1 << 7,       /* --block N */
    OPT_GROUP = 1 << 8,       /* --group-size N */
    OPT_SPLIT = 1 << 9,       /* --split N, --combine count|last|fixup */
    OPT_CG = 1 << 10,         /* a solver: --tol, --maxiter, --b, --history */
    OPT_SOLUTION = 1 << 11,   /* a solver's vectors written: --save-b, --save-x (the solution) */
    OPT_CHECK_EVERY = 1 << 12,   /* --check-every K (step7's fused solver) */
};

/* A step's word on one option: its default, or why it refuses it. */
typedef struct {
    const char *option;       /* "--block" */
    const char *text;         /* "4096 rows" */
} spmv_note;

typedef struct {
    const char *name;         /* "step1" */
    const char *title;        /* "naive DIA kernel, one work-item per row" */
    const char *kernel_path;  /* the step's kernel.cl, fixed at build time */
    const char *variants;     /* "scalar,vector" for --kernel NAME; NULL if one kernel */
    const char *default_variant;
    unsigned takes;           /* OPT_* groups of options the step takes */
    int model_bytes;          /* the article's bytes per 2 FLOPs: 12, 8 or 4 */
    /* what --help says (NULL: the usual) */
    const char *default_matrix;        /* "--gen poisson:nx=256, ..."; NULL: the article's grid */
    const char *precisions;            /* OPT_PRECISION: "sdcz" or "sd"; NULL: "sdcz" */
    const spmv_note *defaults;         /* the step's own defaults, {NULL, NULL} last */
    const spmv_note *refusals;         /* why it refuses an option, said with the refusal, {NULL, NULL} last */
    const char *exit_statuses;         /* NULL: 0 check passed, 1 check failed, 2 bad input or out of memory */
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
    int precision_set;        /* --precision given; else a CSR step may follow the file's own field */
    int threads, block, group, split;
    const char *combine;      /* --combine last|fixup: how split rows are added up (step6) */
    int quiet;
    int info;                 /* --info: print the matrix summary line (common/load.h) */
    int estimate;             /* --estimate: print the host memory the run would need, exit (capacity.h) */
    const char *x_file;       /* --x FILE: x from a Matrix Market array file */
    const char *save_x, *save_y, *save_matrix;   /* --save-x/-y/-matrix FILE */
    int grid_set;             /* --grid or --radius given (a solver's default matrix is not the grid) */
    /* OPT_CG, OPT_CHECK_EVERY */
    double tol;               /* --tol: relative residual to reach; 0: run exactly --maxiter iterations */
    int tol_set, maxiter, check_every;   /* maxiter, check_every 0: the solver's default */
    const char *b_file, *save_b;         /* --b FILE: the right-hand side; --save-b FILE */
    const char *history;                 /* --history FILE: the residual of every iteration (CSV) */
} spmv_options;

struct spmv_run;   /* run.h: the run the caller keeps */

/* Parse argv into o; on --help print the step's usage and exit 0; on a bad
 * flag, or one the step does not take, print one line (with the options it
 * takes) and exit 2. Starts the caller's run (run.h): the step's name, no
 * setup timed yet, the result lines kept apart with --quiet. */
void spmv_parse(int argc, char **argv, const spmv_step *step, spmv_options *o, struct spmv_run *run);

#endif
