/* options.h - the command line of every step: one vocabulary of options,
 * each step taking the groups it uses (`--help` prints the step's own). */
#ifndef SPMV_OPTIONS_H
#define SPMV_OPTIONS_H

#include "capacity.h"

#include <stddef.h>
#include <stdint.h>

/* The groups of options a step takes (spmv_step.takes); common/options.c's
 * table gives each option its group. Every step takes the rest: --matrix,
 * --gen, --seed, --info, --save-matrix, --csv, --quiet, --estimate, --help;
 * and --kernel NAME where it has variants. An option of one chapter alone
 * is in that chapter's table (spmv_step.own, below). */
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
    OPT_CG = 1 << 10,         /* a solver: --tol, --maxiter, --b, --history */
    OPT_SOLUTION = 1 << 11,   /* a solver's vectors written: --save-b, --save-x (the solution) */
};

/* A step's word on one option: its default, or why it refuses it. */
typedef struct {
    const char *option;       /* "--block" */
    const char *text;         /* "4096 rows" */
} spmv_note;

/* An option one chapter owns (chapter 6's --split, chapter 7's
 * --check-every): in a table of the chapter's (spmv_step.own), which
 * spmv_parse reads as it reads its own: the value checked (a bad one: one
 * line, status 2), kept in spmv_options.own and read back by name
 * (spmv_own_int, spmv_own_word); --help lists it after the option `after`,
 * with the help text and the default given here. */
enum { SPMV_OWN_NUMBER = 1, SPMV_OWN_WORD, SPMV_OWN_PATH };   /* PATH: a file name, read as a word */
#define SPMV_OWN_MAX 5        /* a step's own options at most */

typedef struct {
    const char *name, *arg;   /* "--split", "N" */
    const char *after;        /* --help lists it after this option ("--group-size"; NULL: last) */
    const char *help;         /* "%s": the step's name */
    const char *def;          /* "(default ...)" in --help; NULL: none (spmv_step.defaults may say it) */
    int kind;                 /* SPMV_OWN_NUMBER: a whole number from lo to hi; SPMV_OWN_WORD: one of words;
                               * SPMV_OWN_PATH: a file name (spmv_own_word reads it) */
    int lo, hi;
    const char *words;        /* SPMV_OWN_WORD: "count,last,fixup" */
} spmv_option;

typedef struct spmv_step {
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
    const spmv_option *own;            /* the step's own options, {NULL} last; NULL: none */
    spmv_holds holds;                  /* what the step keeps on the host beside every step's arrays,
                                        * for the host's estimate (capacity.h) */
} spmv_step;

/* The value of one of the step's own options, as parsed */
typedef struct {
    int given;
    int number;               /* SPMV_OWN_NUMBER */
    const char *word;         /* the value as given */
} spmv_own_value;

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
    int threads, block, group;
    int quiet;
    int info;                 /* --info: print the matrix summary line (common/load.h) */
    int estimate;             /* --estimate: print the host memory the run would need, exit (capacity.h) */
    const char *x_file;       /* --x FILE: x from a Matrix Market array file */
    const char *save_x, *save_y, *save_matrix;   /* --save-x/-y/-matrix FILE */
    int grid_set;             /* --grid or --radius given (a solver's default matrix is not the grid) */
    /* OPT_CG */
    double tol;               /* --tol: relative residual to reach; 0: run exactly --maxiter iterations */
    int tol_set, maxiter;     /* maxiter 0: the solver's default */
    const char *b_file, *save_b;         /* --b FILE: the right-hand side; --save-b FILE */
    const char *history;                 /* --history FILE: the residual of every iteration (CSV) */
    /* the step's own options (spmv_step.own), in its table's order */
    const spmv_option *own_table;
    spmv_own_value own[SPMV_OWN_MAX];
} spmv_options;

struct spmv_run;   /* run.h: the run the caller keeps */

/* Parse argv into o; on --help print the step's usage and exit 0; on a bad
 * flag, or one the step does not take, print one line (with the options it
 * takes) and exit 2. Starts the caller's run (run.h): the step (its name,
 * what it holds), no setup timed yet, the result lines kept apart with
 * --quiet. */
void spmv_parse(int argc, char **argv, const spmv_step *step, spmv_options *o, struct spmv_run *run);

/* The value of the step's own option NAME (its spmv_step.own), or dflt if
 * it was not given. A name the step does not own is the program's mistake:
 * said, and abort. */
int spmv_own_int(const spmv_options *o, const char *name, int dflt);
const char *spmv_own_word(const spmv_options *o, const char *name, const char *dflt);

#endif
