/* step6-csr/adaptive/host.h - the host side of chapter 6's adaptive kernel
 * (host.c): its work-group and share of nonzeros, the kernel the matrix
 * chooses, the blocks cut on the host, its build options and arguments.
 * ../main.c calls adaptive_open, adaptive_choose and adaptive_prepare in its
 * section 4, adaptive_args in section 6, adaptive_payback below its table
 * and adaptive_close in section 8.
 */
#ifndef STEP6_ADAPTIVE_HOST_H
#define STEP6_ADAPTIVE_HOST_H

#include "../choice/csrchoice.h"
#include "spmv.h"

/* The kernel source, built after ../kernel.cl (which defines what it uses) */
#define ADAPTIVE_KERNEL_PATH SPMV_STEP_DIR "/adaptive/kernel.cl"

/* The chapter's own options (../main.c's STEP.own), this kernel's: where rows
 * are cut (--split N) and how a cut row's pieces are added up (--combine
 * HOW); adaptive_prepare reads them. */
extern const spmv_option ADAPTIVE_OPTIONS[];

/* What the plan holds on the host (../main.c's STEP.holds, for the host's
 * estimate, capacity.h): at most 1 byte a row and 1 a nonzero at its default
 * work-groups (4 ints a block of 16 rows or more, and the long rows' lists) */
#define ADAPTIVE_HOLDS { .part = "the adaptive plan", .part_row = 1, .part_nnz = 1 }

/* The adaptive kernel's work-groups (kernel.cl explains the layout): rows
 * gathered into blocks of at most `share` nonzeros and `local` rows (`share`
 * rows when local is 1: one work-item walks the whole block); a row longer
 * than `share` whole, listed in whole_row (longest first; blocks of them come
 * first, so that they start first); a row longer than `split` cut into
 * chunks (chunks_of), each with a slot in `partials`: split row i (row
 * long_row[i]) owns slots long_slot[i] .. long_slot[i + 1] - 1. */
typedef struct {
    int *blocks, nblocks, nwhole, nwhole_blocks;
    int whole_from;           /* rows longer than this go whole (or are split) */
    int *whole_row;           /* the rows that go whole, longest first, three ints each (the row, its
                               * first nonzero, the next row's first): whole blocks index it */
    int *long_row, *long_slot, nlong, nslots;
    int min_lanes;            /* the fewest work-items a shared whole row gets (whole_lanes) */
    long long whole_nnz;      /* the whole rows' nonzeros */
    int nlone, lone_near;     /* rows walked alone by a work-group; walked neighbouring entries (1) or coalesced */
    int nstream;              /* blocks of rows (stream blocks) */
    long long stream_nnz;     /* their nonzeros */
} adaptive_plan;

typedef struct {
    size_t local, share;   /* work-items per work-group; nonzeros per block */
    size_t global;         /* one work-group per block */
    char opts[256];        /* its build options, in the program's (after -DGROUP_SIZE) */
    double prep_ms;        /* the host's cutting and copying, paid once per matrix */
    int single, cplx, vsize, combine, shared;
    adaptive_plan plan;
    cl_mem blocks, partials, long_row, long_slot, tally, whole_row;
} adaptive_kernel;

/* The work-group (LOCAL_SIZE) and the share (SHARE) from the device, the
 * precision p and --local-size (0: none): printed, and in the build options,
 * whichever kernels run. `runs`: the adaptive kernel runs (a bad
 * --local-size is then refused). */
void adaptive_open(adaptive_kernel *ad, const spmv_cl *cl, char p, size_t local_size, int runs);
/* The kernel the matrix chooses (step6-csr/choice/csrchoice.h's rule, printed with
 * why, then the vector kernel's `group` beside the adaptive kernel's block):
 * the adaptive kernel where rows are irregular (`st`), else scalar or vector
 * (`gpu`). */
const char *adaptive_choose(const adaptive_kernel *ad, const spmv_row_stats *st, int gpu, int group);
/* The matrix cut into blocks and copied to the device (timed: prep_ms), what
 * was made printed, the build options chosen (the combine, the loads), as
 * --split and --combine ask (ADAPTIVE_OPTIONS). */
void adaptive_prepare(adaptive_kernel *ad, const spmv_step *step, const spmv_options *o, spmv_cl *cl,
                      const csr_matrix *A);
/* csr_adaptive's arguments from `partial` on (k has the first six, those of
 * every kernel of the chapter), and its launches in l: itself, then the
 * fix-up kernel where split rows need it. Returns how many. */
int adaptive_args(adaptive_kernel *ad, cl_program prog, cl_kernel k, cl_mem d_y, spmv_launch l[2]);
/* Whether the host's preparation pays for itself: after how many products
 * the kernel (median `ms`) has gained it back on the best other (`other_ms`) */
void adaptive_payback(const adaptive_kernel *ad, double ms, double other_ms);
void adaptive_close(adaptive_kernel *ad);

#endif
