/* options.c - command-line parsing shared by every step: one table of
 * options, each in a group (options.h); a step takes the groups it names, and
 * its --help lists those alone, with its own defaults, and the options of
 * its own table (spmv_step.own) among them. */
#include "options.h"

#include "results.h"
#include "run.h"
#include "status.h"

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
#define ALWAYS 0              /* the group of the options every step takes */

enum {
    O_GRID, O_RADIUS, O_MATRIX, O_GEN, O_SEED, O_PRECISION,
    O_INFO, O_X, O_SAVE_X, O_B, O_SAVE_B, O_SAVE_Y, O_SAVE_MATRIX, O_HISTORY,
    O_RUNS, O_WARMUP, O_DEVICE, O_LOCAL_SIZE, O_KERNEL_FILE, O_CL_OPTS, O_KERNEL,
    O_THREADS, O_BLOCK, O_GROUP, O_TOL, O_MAXITER,
    O_CSV, O_QUIET, O_ESTIMATE, O_HELP,
};
enum { SEC_MATRIX, SEC_CHECK, SEC_RUN, SEC_COUNT };
#define OPT_VARIANTS (1u << 31)   /* --kernel NAME: a step with variants takes it */

/* Its text in arrays, not pointers: a table of pointers is data the loader
 * relocates (nm: d, .data.rel.ro); this one is read-only data (r), as every
 * table of common/ is. "": none. */
typedef struct {
    int id;
    char name[16], arg[10];   /* arg "": a flag without a value */
    unsigned group;           /* OPT_*, or ALWAYS */
    int section;
    char help[416];           /* "%s": the step's name */
    char def[40];             /* the default, unless the step says its own (spmv_step.defaults) */
} option;

/* In the order --help lists them. A name may appear twice, in two groups no
 * step takes together (--save-x: x of a product, or a solver's solution). */
static const option TABLE[] = {
    { O_GRID, "--grid", "WxH | W", OPT_GRID, SEC_MATRIX, "grid of W x H points, one row each (W alone: square)", "" },
    { O_RADIUS, "--radius", "R", OPT_GRID, SEC_MATRIX,
      "link every neighbour with dx^2+dy^2 <= R^2 (R=5: 81 diagonals)", "" },
    { O_MATRIX, "--matrix", "FILE", ALWAYS, SEC_MATRIX, "read a Matrix Market (.mtx) or Harwell-Boeing file instead",
      "" },
    { O_GEN, "--gen", "SPEC", ALWAYS, SEC_MATRIX,
      "generate an irregular matrix instead: powerlaw:rows=N[,mean=M][,exp=A], "
      "uniform:rows=N[,min=a][,max=b], arrow:rows=N (cols=C: not square), "
      "short:rows=N[,mean=M][,band=B] (rows of 1 to 2M-1 near the diagonal); "
      "poisson:nx=W[,ny=H], the 5-point Laplacian on a W x H grid (symmetric); "
      "poisson3d:nx=N[,ny=..][,nz=..] (7 points: 6 and -1) and "
      "stencil27:nx=N[,ny=..][,nz=..] (3x3x3: 26 and -1) on a 3-D box, both SPD", "" },
    { O_SEED, "--seed", "S", ALWAYS, SEC_MATRIX, "", "1" },   /* help: of x, or of b (OPT_CG) */
    { O_PRECISION, "--precision", "P", OPT_PRECISION, SEC_MATRIX, "", "s" },   /* help from spmv_step.precisions */
    { O_INFO, "--info", "", ALWAYS, SEC_CHECK, "print one line about the matrix as read: sizes, sum, Frobenius norm",
      "" },
    { O_X, "--x", "FILE", OPT_PRODUCT, SEC_CHECK, "read x from an array file ('N 1', real or complex) instead of --seed",
      "" },
    { O_SAVE_X, "--save-x", "FILE", OPT_PRODUCT, SEC_CHECK, "write x as the run uses it, as an array file", "" },
    { O_SAVE_Y, "--save-y", "FILE", OPT_PRODUCT, SEC_CHECK, "write y as an array file, only if the check passed", "" },
    { O_B, "--b", "FILE", OPT_CG, SEC_CHECK, "the right-hand side from an array file ('N 1') instead of --seed", "" },
    { O_SAVE_B, "--save-b", "FILE", OPT_SOLUTION, SEC_CHECK, "write b as the solve uses it, as an array file", "" },
    { O_SAVE_X, "--save-x", "FILE", OPT_SOLUTION, SEC_CHECK, "write the solution x, only if the check passed", "" },
    { O_SAVE_MATRIX, "--save-matrix", "FILE", ALWAYS, SEC_CHECK,
      "write the matrix as read (symmetry expanded) as a coordinate file", "" },
    { O_HISTORY, "--history", "FILE", OPT_CG, SEC_CHECK, "|r|/|b| before each iteration, as CSV (iteration,rel_residual)",
      "" },
    { O_RUNS, "--runs", "N", OPT_PRODUCT, SEC_RUN,
      "timed runs; the median and minimum are reported; before "
      "each, one bandwidth probe sample and one untimed run", "10" },
    { O_WARMUP, "--warmup", "N", OPT_PRODUCT, SEC_RUN, "untimed runs first", "2" },
    { O_TOL, "--tol", "T", OPT_CG, SEC_RUN,
      "stop at a relative residual |r|/|b| <= T; 0: run exactly --maxiter "
      "iterations (a timing run)", "1e-5 float, 1e-10 double" },
    { O_MAXITER, "--maxiter", "N", OPT_CG, SEC_RUN, "stop after N iterations", "10 n, n the rows" },
    { O_DEVICE, "--device", "SEL", OPT_DEVICE, SEC_RUN,
      "P:D, cpu, gpu, or part of a name (or SPMV_DEVICE); see `make devices`", "" },
    { O_LOCAL_SIZE, "--local-size", "L", OPT_OPENCL, SEC_RUN, "work-group size", "the step's own" },
    { O_KERNEL_FILE, "--kernel-file", "FILE", OPT_OPENCL, SEC_RUN, "build this kernel source (FILE.cl)", "" },
    { O_CL_OPTS, "--cl-opts", "\"...\"", OPT_OPENCL, SEC_RUN, "OpenCL build options", "" },
    /* `make run ARGS="--device gpu"` gives every step the same line */
    { O_DEVICE, "--device", "SEL", OPT_HOST, SEC_RUN,
      "taken, as every step takes it, and not used: %s runs on the host, in C", "" },
    { O_LOCAL_SIZE, "--local-size", "L", OPT_HOST, SEC_RUN, "taken and not used, as --device", "" },
    { O_KERNEL_FILE, "--kernel-file", "FILE", OPT_HOST, SEC_RUN, "taken and not used, as --device", "" },
    { O_CL_OPTS, "--cl-opts", "\"...\"", OPT_HOST, SEC_RUN, "taken and not used, as --device", "" },
    { O_KERNEL, "--kernel", "NAME", OPT_VARIANTS, SEC_RUN, "", "" },   /* help from spmv_step.variants */
    { O_THREADS, "--threads", "N", OPT_THREADS, SEC_RUN, "OpenMP threads", "1: the article's serial loop" },
    { O_BLOCK, "--block", "N", OPT_BLOCK, SEC_RUN, "rows per block", "" },
    { O_GROUP, "--group-size", "N", OPT_GROUP, SEC_RUN, "work-items per row (vector kernel)", "" },
    { O_CSV, "--csv", "FILE", ALWAYS, SEC_RUN, "append one result row to FILE (header when new)", "" },
    { O_QUIET, "--quiet", "", ALWAYS, SEC_RUN, "print only the result lines (check, time, speed, bound; errors on stderr)",
      "" },
    { O_ESTIMATE, "--estimate", "", ALWAYS, SEC_RUN,
      "print the host memory the run would need at its peak, and the memory "
      "available, then exit (SPMV_HOST_MEM_MB=N pretends the host has N MiB)", "" },
    { O_HELP, "--help", "", ALWAYS, SEC_RUN, "this text", "" },
};
#define NOPT (sizeof TABLE / sizeof *TABLE)

/* The options a chapter owns (its spmv_step.own, where its parsing, help and
 * default are): only their names here, so that a step without one refuses it
 * as an option of the course's one vocabulary that this step does not take,
 * not as an unknown word. */
static const char OWNED[][16] = { "--split", "--combine", "--check-every" };
#define NOWNED (sizeof OWNED / sizeof *OWNED)

static const char SECTION[SEC_COUNT][72] = {
    "",   /* the matrix: a heading with the step's default */
    "Checking it yourself (Matrix Market files for Octave, SciPy, Julia):",
    "Running:",
};

static unsigned groups(const spmv_step *s)
{
    return s->takes | (s->variants ? OPT_VARIANTS : 0u);
}

static int takes(const spmv_step *s, const option *r)
{
    return r->group == ALWAYS || (r->group & groups(s));
}

static const char *note_of(const spmv_note *list, const char *name)
{
    for (const spmv_note *n = list; n && n->option; n++)
        if (strcmp(n->option, name) == 0)
            return n->text;
    return NULL;
}

static const char *precisions(const spmv_step *s)
{
    return s->precisions ? s->precisions : "sdcz";
}

static const char *precision_word(char p)
{
    switch (p) {
    case 's': return "s (float)";
    case 'd': return "d (double)";
    case 'c': return "c (complex float)";
    default: return "z (complex double)";
    }
}

/* "s, d, c or z" (words: "s (float), d (double) ...") */
static void precision_list(const spmv_step *s, int words, char *out, size_t size)
{
    const char *p = precisions(s);
    size_t n = strlen(p), len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 < n ? ", " : " or ";
        char one[2] = { p[i], '\0' };
        len += (size_t)snprintf(out + len, size - len, "%s%s", sep, words ? precision_word(p[i]) : one);
    }
}

static const char *default_of(const spmv_step *s, const option *r)
{
    const char *own = note_of(s->defaults, r->name);
    if (own)
        return own;
    if (r->id == O_KERNEL)
        return s->default_variant;
    if (r->id == O_KERNEL_FILE && r->group == OPT_OPENCL)
        return s->kernel_path;
    if (r->group == OPT_HOST)
        return NULL;
    return r->def[0] ? r->def : NULL;
}

#define HELP_WIDTH 100   /* columns of --help */
#define HELP_INDENT 22   /* where an option's help starts */

/* TEXT from column AT on, wrapped at word boundaries to HELP_WIDTH, each
 * further line indented by INDENT; a newline after. */
static void print_wrapped(const char *text, int at, int indent)
{
    int col = at, first = 1;
    for (const char *p = text; *p;) {
        int word = (int)strcspn(p, " ");
        if (!first && col + 1 + word > HELP_WIDTH) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (!first) {
            putchar(' ');
            col++;
        }
        printf("%.*s", word, p);
        col += word;
        first = 0;
        p += word;
        while (*p == ' ')
            p++;
    }
    putchar('\n');
}

/* One option's lines: the name and its argument in 20 columns, then the
 * help and the default, wrapped. */
static void print_entry(const spmv_step *s, const char *name, const char *arg, const char *text, const char *def)
{
    char head[48];
    snprintf(head, sizeof head, "%s%s%s", name, arg[0] ? " " : "", arg);
    char body[1024];
    snprintf(body, sizeof body, text, s->name);   /* the help: a literal, "%s" at most once */
    size_t len = strlen(body);
    if (def)
        snprintf(body + len, sizeof body - len, " (default %s)", def);
    printf("  %-19s ", head);
    if (strlen(head) > 19)
        printf("\n%*s", HELP_INDENT, "");
    print_wrapped(body, HELP_INDENT, HELP_INDENT);
}

/* A row of TABLE, with the step's words for it */
static void print_option(const spmv_step *s, const option *r)
{
    char help[512], variants[256];
    const char *text = r->help;
    if (r->id == O_PRECISION) {
        precision_list(s, 1, help, sizeof help);
        text = help;
    } else if (r->id == O_SEED) {
        text = s->takes & OPT_CG ? "seed of b and of --gen's random values" : "seed of the random weights and of x";
    } else if (r->id == O_KERNEL) {
        snprintf(variants, sizeof variants, "which kernel: %s", s->variants);
        text = variants;
    }
    print_entry(s, r->name, r->arg, text, default_of(s, r));
}

/* ---- the step's own options (spmv_step.own) ------------------------------ */

static size_t own_count(const spmv_step *s)
{
    size_t n = 0;
    while (s->own && s->own[n].name)
        n++;
    return n;
}

/* The step's own option NAME: its place in the table, or -1 */
static int own_index(const spmv_step *s, const char *name)
{
    for (size_t k = 0; k < own_count(s); k++)
        if (strcmp(s->own[k].name, name) == 0)
            return (int)k;
    return -1;
}

static void print_own(const spmv_step *s, const spmv_option *d)
{
    const char *def = note_of(s->defaults, d->name);
    print_entry(s, d->name, d->arg, d->help, def ? def : d->def);
}

/* The step's own options listed after the option NAME (NULL: those listed
 * last), each followed by those after it: to print (list NULL) or to add to
 * list, ", "-separated, as taken_list does. */
static void own_after(const spmv_step *s, const char *name, char *list, size_t size)
{
    for (size_t k = 0; k < own_count(s); k++) {
        const spmv_option *d = &s->own[k];
        if (name ? !d->after || strcmp(d->after, name) != 0 : d->after != NULL)
            continue;
        if (!list) {
            print_own(s, d);
        } else {
            size_t len = strlen(list);
            snprintf(list + len, size - len, "%s%s", len ? ", " : "", d->name);
        }
        own_after(s, d->name, list, size);
    }
}

static void usage(const spmv_step *s)
{
    printf("%s - %s\n\n", s->name, s->title);
    printf("usage: %s [options]\n", s->name);
    for (int sec = 0; sec < SEC_COUNT; sec++) {
        if (sec == SEC_MATRIX && s->default_matrix)
            printf("\nThe matrix (default: %s):\n", s->default_matrix);
        else if (sec == SEC_MATRIX)
            printf("\nThe matrix (default: the article's %dx%d grid, radius %d):\n", DEFAULT_GRID, DEFAULT_GRID,
                   DEFAULT_RADIUS);
        else
            printf("\n%s\n", SECTION[sec]);
        for (size_t i = 0; i < NOPT; i++)
            if (TABLE[i].section == sec && takes(s, &TABLE[i])) {
                print_option(s, &TABLE[i]);
                own_after(s, TABLE[i].name, NULL, 0);
            }
        if (sec == SEC_RUN)
            own_after(s, NULL, NULL, 0);
    }
    char exits[512];
    snprintf(exits, sizeof exits, "Exit status: %s.", s->exit_statuses ? s->exit_statuses
                                                       : "0 check passed, 1 check failed, 2 bad input or out of memory");
    putchar('\n');
    print_wrapped(exits, 0, (int)strlen("Exit status: "));
}

/* The option NAME as this step takes it, or NULL */
static const option *find(const spmv_step *s, const char *name)
{
    for (size_t i = 0; i < NOPT; i++)
        if (strcmp(TABLE[i].name, name) == 0 && takes(s, &TABLE[i]))
            return &TABLE[i];
    return NULL;
}

/* "--grid, --radius, ..., --help": the options the step takes, in the order
 * of its --help */
static void taken_list(const spmv_step *s, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < NOPT; i++) {
        if (!takes(s, &TABLE[i]))
            continue;
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", len ? ", " : "", TABLE[i].name);
        own_after(s, TABLE[i].name, out, size);
    }
    own_after(s, NULL, out, size);
}

static void bad(const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    spmv_die(SPMV_EXIT_USAGE, "%s (see %s --help)", msg, spmv_prog_name());
}

/* An option the step does not take: one line, why where the step says, and
 * the options it takes. */
static void refuse(const spmv_step *s, const char *name)
{
    const char *own = note_of(s->refusals, name);
    int known = own != NULL;
    for (size_t i = 0; i < NOPT; i++)
        known |= strcmp(TABLE[i].name, name) == 0;
    for (size_t i = 0; i < NOWNED; i++)
        known |= strcmp(OWNED[i], name) == 0;
    char why[512] = "";
    if (own)
        snprintf(why, sizeof why, ": %s", own);
    else if (strcmp(name, "--kernel") == 0 && (s->takes & OPT_OPENCL))
        snprintf(why, sizeof why, ": %s has one kernel, so --kernel has nothing to choose; for a kernel source "
                 "file use --kernel-file FILE.cl", s->name);
    else if (strcmp(name, "--kernel") == 0)
        snprintf(why, sizeof why, ": %s has no --kernel choice", s->name);
    char list[1024];
    taken_list(s, list, sizeof list);
    if (known)
        spmv_die(SPMV_EXIT_USAGE, "%s does not take %s%s; it takes %s", s->name, name, why, list);
    spmv_die(SPMV_EXIT_USAGE, "unknown option %s; %s takes %s", name, s->name, list);
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

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void parse_grid(const char *v, spmv_options *o)
{
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
}

/* --kernel NAME: a name among the step's kernels; a source file is --kernel-file */
static void parse_kernel(const spmv_step *s, const char *v, spmv_options *o)
{
    if (has_variant(s->variants, v)) {
        o->variant = v;
        return;
    }
    if ((ends_with(v, ".cl") || strchr(v, '/')) && (s->takes & OPT_OPENCL))
        bad("--kernel chooses among the step's kernels by name; for a kernel source file use --kernel-file %s%s", v,
            "");
    bad("--kernel wants one of %s, not '%s'", s->variants, v);
}

/* --kernel-file FILE: a source file; a kernel's name here is the other flag's job */
static void parse_kernel_file(const spmv_step *s, const char *v, spmv_options *o)
{
    if (s->variants && has_variant(s->variants, v) && access(v, F_OK) != 0)
        bad("--kernel-file wants a kernel source file, not the kernel name '%s': to choose a kernel, use --kernel %s",
            v, v);
    if (!ends_with(v, ".cl") && access(v, F_OK) != 0)
        bad("--kernel-file wants a kernel source file (FILE.cl), not '%s'%s", v,
            s->variants ? "; to choose one of the step's kernels, use --kernel NAME" : "");
    o->kernel_file = v;
}

/* Store one option's value. */
static void set(const spmv_step *s, const option *r, const char *v, spmv_options *o)
{
    switch (r->id) {
    case O_GRID: parse_grid(v, o); o->grid_set = 1; break;
    case O_RADIUS: o->radius = (int)parse_int(r->name, v, 0, 100); o->grid_set = 1; break;
    case O_MATRIX: o->matrix = v; break;
    case O_GEN: o->gen = v; break;
    case O_SEED: o->seed = (uint64_t)parse_int(r->name, v, 0, LLONG_MAX); break;
    case O_PRECISION:
        if (strlen(v) != 1 || !strchr(precisions(s), v[0])) {
            char list[64];
            precision_list(s, 0, list, sizeof list);
            bad("--precision wants %s, not '%s'", list, v);
        }
        o->precision = v[0];
        o->precision_set = 1;
        break;
    case O_INFO: o->info = 1; break;
    case O_X: o->x_file = v; break;
    case O_SAVE_X: o->save_x = v; break;
    case O_SAVE_Y: o->save_y = v; break;
    case O_B: o->b_file = v; break;
    case O_SAVE_B: o->save_b = v; break;
    case O_SAVE_MATRIX: o->save_matrix = v; break;
    case O_HISTORY: o->history = v; break;
    case O_RUNS: o->runs = (int)parse_int(r->name, v, 1, 100000); break;
    case O_WARMUP: o->warmup = (int)parse_int(r->name, v, 0, 100000); break;
    case O_DEVICE: o->device = v; break;
    case O_LOCAL_SIZE: o->local_size = (size_t)parse_int(r->name, v, 1, 1 << 20); break;
    case O_KERNEL_FILE: parse_kernel_file(s, v, o); break;
    case O_CL_OPTS: o->cl_opts = v; break;
    case O_KERNEL: parse_kernel(s, v, o); break;
    case O_THREADS: o->threads = (int)parse_int(r->name, v, 1, 1024); break;
    case O_BLOCK: o->block = (int)parse_int(r->name, v, 1, INT_MAX); break;
    case O_GROUP: o->group = (int)parse_int(r->name, v, 1, 1024); break;
    case O_TOL: {
        char *end;
        errno = 0;
        double t = strtod(v, &end);
        if (errno || end == v || *end || !(t >= 0 && t < 1))
            bad("--tol wants a relative residual from 0 to below 1 (1e-6, say), not '%s'%s", v, "");
        o->tol = t;
        o->tol_set = 1;
        break;
    }
    case O_MAXITER: o->maxiter = (int)parse_int(r->name, v, 1, INT_MAX - 1); break;
    case O_CSV: o->csv = v; break;
    case O_QUIET: o->quiet = 1; break;
    case O_ESTIMATE: o->estimate = 1; break;
    case O_HELP: usage(s); exit(0);
    }
}

/* "count, last or fixup" of "count,last,fixup" */
static void word_list(const char *words, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (const char *p = words; *p && len < size;) {
        size_t n = strcspn(p, ",");
        const char *sep = len == 0 ? "" : p[n] ? ", " : " or ";
        len += (size_t)snprintf(out + len, size - len, "%s%.*s", sep, (int)n, p);
        p += n + (p[n] == ',');
    }
}

/* Store the value of the step's own option k */
static void set_own(const spmv_step *s, int k, const char *v, spmv_options *o)
{
    const spmv_option *d = &s->own[k];
    spmv_own_value *val = &o->own[k];
    if (d->kind == SPMV_OWN_NUMBER) {
        val->number = (int)parse_int(d->name, v, d->lo, d->hi);
    } else if (d->kind == SPMV_OWN_WORD && !has_variant(d->words, v)) {
        char list[256], msg[512];
        word_list(d->words, list, sizeof list);
        snprintf(msg, sizeof msg, "%s wants %s, not '%%s'%%s", d->name, list);
        bad(msg, v, "");
    }
    val->word = v;
    val->given = 1;
}

/* The step's own option NAME, or abort: a name the program asks for that its
 * table does not hold is the program's mistake */
static const spmv_own_value *own_value(const spmv_options *o, const char *name, int kind)
{
    for (int k = 0; o->own_table && o->own_table[k].name; k++)
        if (strcmp(o->own_table[k].name, name) == 0 &&
            (o->own_table[k].kind == kind || (kind == SPMV_OWN_WORD && o->own_table[k].kind == SPMV_OWN_PATH)))
            return &o->own[k];
    fprintf(stderr, "%s: internal error: no option %s of that kind in the step's own table (spmv_step.own)\n",
            spmv_prog_name(), name);
    abort();
}

int spmv_own_int(const spmv_options *o, const char *name, int dflt)
{
    const spmv_own_value *v = own_value(o, name, SPMV_OWN_NUMBER);
    return v->given ? v->number : dflt;
}

const char *spmv_own_word(const spmv_options *o, const char *name, const char *dflt)
{
    const spmv_own_value *v = own_value(o, name, SPMV_OWN_WORD);
    return v->given ? v->word : dflt;
}

void spmv_parse(int argc, char **argv, const spmv_step *s, spmv_options *o, spmv_run *run)
{
    memset(run, 0, sizeof *run);
    run->name = s->name;
    run->step = s;
    if (own_count(s) > SPMV_OWN_MAX) {
        fprintf(stderr, "%s: internal error: more than %d options in the step's own table\n", s->name, SPMV_OWN_MAX);
        abort();
    }
    memset(o, 0, sizeof *o);
    o->own_table = s->own;
    o->grid_w = o->grid_h = DEFAULT_GRID;
    o->radius = DEFAULT_RADIUS;
    o->runs = DEFAULT_RUNS;
    o->warmup = DEFAULT_WARMUP;
    o->seed = 1;
    o->kernel_file = s->kernel_path;
    o->variant = s->default_variant;
    o->precision = 's';
    char unused[256] = "";   /* the OpenCL options a step on the host was given */

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0)
            a = "--help";
        if (strncmp(a, "--", 2) != 0)
            bad("unexpected argument '%s'%s", a, "");
        /* --flag, --flag VALUE or --flag=VALUE */
        char name[64];
        const char *v = NULL, *eq = strchr(a, '=');
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
        const option *r = find(s, name);
        int own = r ? -1 : own_index(s, name);
        if (!r && own < 0)
            refuse(s, name);
        int wants = r ? r->arg[0] != '\0' : 1;
        if (wants && eq) {
            v = eq + 1;
        } else if (wants) {
            if (i + 1 >= argc)
                bad("%s needs a value%s", a, "");
            v = argv[++i];
        } else if (eq) {
            bad("%s takes no value%s", name, "");
        }
        if (own >= 0) {
            set_own(s, own, v, o);
            continue;
        }
        if (r->group == OPT_HOST) {
            /* `make run ARGS="--device gpu"` gives them to every step: taken, noted once below */
            if (r->id == O_LOCAL_SIZE)
                parse_int(r->name, v, 1, 1 << 20);
            if (!strstr(unused, r->name)) {
                size_t n = strlen(unused);
                snprintf(unused + n, sizeof unused - n, "%s%s %s", n ? ", " : "", r->name,
                         r->id == O_DEVICE ? v : "...");
            }
            continue;
        }
        set(s, r, v, o);
    }
    int grid_given = o->grid_set;
    if (o->matrix && grid_given)
        bad("--matrix and --grid/--radius choose the matrix two ways: give one%s%s", "", "");
    if (o->quiet)
        spmv_quiet(run);
    if (unused[0])
        printf("note     %s runs on the host, in C, on no OpenCL device: %s not used\n", s->name, unused);
    if (o->gen && (o->matrix || grid_given))
        bad("--gen and %s choose the matrix two ways: give one%s", o->matrix ? "--matrix" : "--grid/--radius", "");
}
