/* choice/csrchoice.c - chapter 6's rule; see csrchoice.h. The numbers behind each
 * choice are in step6-csr/README.md, step6-csr/TUNING.md and
 * step6-csr/adaptive/TUNING.md. */
#include "csrchoice.h"
#include "precision.h"
#include "status.h"

#include <math.h>
#include <stdio.h>

#define MAX_DEFAULT_GROUP 32    /* a GPU's warp; wider groups only add barriers */
#define ENTRIES_PER_LANE 4      /* fewer, and the reduction costs more than the loads it shares out */
/* Short rows: none longer than SHORT_LONGEST, in a matrix of SHORT_ROWS rows
 * or more (below that, the product is over in the time of a launch whatever
 * the kernel: the real matrices of the chapter's table, 13,436 rows at most,
 * keep the choice they had). plots/irregular/short-rows.sh measured it on
 * --gen short (rows 1 to 15 long, means 8 down to 1, step6-csr/README.md). */
#define SHORT_LONGEST 15
#define SHORT_ROWS 65536
/* Medium rows: none longer than MEDIUM_LONGEST, a mean of MEDIUM_MEAN or
 * more, a spread under MEDIUM_SPREAD (--gen short's rows of 1 to 2M-1 have
 * 0.56-0.58), in SHORT_ROWS rows or more: the vector kernel on a GPU, each
 * lane loading MEDIUM_LOADS entries or fewer a pass (spmv_default_unroll).
 * step6-csr/TUNING.md, entry 1. */
#define MEDIUM_LONGEST 64
#define MEDIUM_MEAN 12
#define MEDIUM_SPREAD 0.75
#define MEDIUM_LOADS 8

spmv_row_stats spmv_row_lengths(const csr_matrix *A)
{
    spmv_row_stats st = { 0 };
    double sum2 = 0;
    int max = 0, empty = 0;
#pragma omp parallel for reduction(+ : sum2, empty) reduction(max : max)
    for (int r = 0; r < A->rows; r++) {
        int len = A->ptr[r + 1] - A->ptr[r];
        sum2 += (double)len * len;
        empty += len == 0;
        max = len > max ? len : max;
    }
    st.max = max, st.empty = empty, st.rows = A->rows;
    if (A->rows) {
        st.mean = (double)A->nnz / A->rows;
        double var = sum2 / A->rows - st.mean * st.mean;
        st.cv = st.mean > 0 && var > 0 ? sqrt(var) / st.mean : 0;
        st.typical = A->nnz ? sum2 / (double)A->nnz : 0;
    }
    printf("rows     length mean %.1f, max %d, spread (std/mean) %.2f, typical %.1f (the row an average "
           "nonzero is in), %d empty\n", st.mean, st.max, st.cv, st.typical, st.empty);
    return st;
}

/* The largest power of two not above a quarter of the typical row length (so
 * each lane takes about 4 entries or more), from 2 to 32: 16 for the grid's
 * 81 per row, 32 for a power-law matrix whose mean is 7 but whose nonzeros
 * mostly sit in rows of thousands. The mean alone chose 2 there, and left one
 * pair of work-items walking a 38,708-entry row. A group as wide as the row
 * leaves each lane one or two loads and then five barriers of reduction: on
 * the H100 the grid ran at 71% of its bound with 32 per row and at 92-94%
 * with 8 or 16 (step6-csr/README.md). */
int spmv_default_group(const spmv_row_stats *st)
{
    int g = 2;
    while (g * 2 * ENTRIES_PER_LANE <= st->typical && g * 2 <= MAX_DEFAULT_GROUP)
        g *= 2;
    return g;
}

/* The vector kernel's entries a lane a pass (VECTOR_UNROLL): where no row
 * is longer than MEDIUM_LONGEST, enough to cover the longest row in one pass
 * of the group, at most MEDIUM_LOADS; else 1, the thesis's loop. With 8-byte
 * values or wider (`value_bytes`) the group doubles first, to 32 at most:
 * on the H100 the 27-point rows in double ran at 1.11 of cuSPARSE with 8
 * lanes of 4 entries, 0.98 with 4 of 8, where float was level either way
 * and shorter rows wanted 4 lanes (step6-csr/TUNING.md). */
int spmv_default_unroll(const spmv_row_stats *st, int value_bytes, int *group)
{
    int u = 1;
    if (st->max > MEDIUM_LONGEST)
        return u;
    if (value_bytes >= 8 && *group * 2 <= MAX_DEFAULT_GROUP)
        *group *= 2;
    while (u * *group < st->max && u < MEDIUM_LOADS)
        u *= 2;
    return u;
}

/* Short rows (every row SHORT_LONGEST entries or fewer, SHORT_ROWS rows or
 * more): on a GPU the scalar kernel, whose work-item walks its few entries
 * with no reduction after them, where a group of 2 leaves lanes idle and
 * then adds; on a CPU the adaptive kernel, whose work-item walks a block of
 * rows in order as a C loop does, where a work-item per row pays a row's
 * setup for two or three entries. Measured on --gen short, 2M rows on the
 * H100 and 256K on PoCL, means 8 down to 1 (step6-csr/README.md): there
 * each was within 5% of the fastest kernel, float and double, where the
 * rows' spread had chosen vector-2 (0.65-0.94 of scalar on the H100) or
 * adaptive (0.70-0.77), and scalar on PoCL (0.77-0.89 of adaptive).
 * Otherwise, regular rows (spread under half the mean, none longer than an
 * adaptive block): on a GPU the vector kernel, whose groups read each row
 * coalesced with no block table; on a CPU the scalar kernel, whose
 * work-items each stream their own row. Medium rows of a wider spread
 * (MEDIUM_*: --gen short's 1 to 2M-1 past mean 12) on a GPU: the vector
 * kernel too, whose lanes load a whole row in one pass where the adaptive
 * kernel reached 0.69-0.72 of it in float (step6-csr/adaptive/TUNING.md,
 * entry 16; step6-csr/TUNING.md).
 * Rows of very different lengths: the adaptive kernel, which gives every
 * work-group the same number of nonzeros. */
const char *spmv_csr_choose(const spmv_row_stats *st, int gpu, int share, int group)
{
    (void)group;
    const char *choice = "adaptive";
    double cv = st->cv;
    int max = st->max;
    if (max <= SHORT_LONGEST && st->rows >= SHORT_ROWS) {
        choice = gpu ? "scalar" : "adaptive";
        printf("choice   %s: rows short (longest %d <= %d, %d rows): %s\n", choice, max, SHORT_LONGEST, st->rows,
               gpu ? "a row per work-item walks its few entries, with no reduction after them"
                   : "a work-item walks a block of rows in order, paying no setup per row");
    } else if (cv < 0.5 && max <= share) {
        choice = gpu ? "vector" : "scalar";
        printf("choice   %s: rows regular (spread %.2f of the mean, longest %d <= %d): %s\n", choice, cv, max, share,
               gpu ? "a group per row reads each row coalesced" : "a row per work-item streams it");
    } else if (gpu && max <= MEDIUM_LONGEST && st->mean >= MEDIUM_MEAN && cv < MEDIUM_SPREAD &&
               st->rows >= SHORT_ROWS) {
        choice = "vector";
        printf("choice   %s: rows medium (mean %.1f, longest %d <= %d, spread %.2f): a group per row, each "
               "lane's loads of a row in flight at once\n", choice, st->mean, max, MEDIUM_LONGEST, cv);
    } else {
        printf("choice   %s: rows irregular (spread %.2f of the mean%s%d longest): equal nonzeros per work-group\n",
               choice, cv, max > share ? ", one block is " : ", ", max > share ? share : max);
    }
    return choice;
}

char spmv_csr_precision(spmv_options *o, const csr_matrix *A)
{
    char p = o->precision;
    if (A->im && !spmv_prec_complex(p)) {
        if (o->precision_set)
            spmv_die(SPMV_EXIT_USAGE, "%s is complex: run it with --precision c or z (complex float or double), "
                     "not %c (%s)", A->origin.name, p, spmv_prec_name(p));
        p = 'c';
        printf("note     %s is complex: run in complex float (--precision z: complex double)\n", A->origin.name);
    }
    o->precision = p;
    return p;
}
