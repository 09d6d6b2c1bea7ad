/* csrchoice.c - chapter 6's rule; see csrchoice.h. The numbers behind each
 * choice are in step6-csr/README.md and step6-csr/adaptive/TUNING.md. */
#include "csrchoice.h"

#include <math.h>
#include <stdio.h>

#define MAX_DEFAULT_GROUP 32    /* a GPU's warp; wider groups only add barriers */
#define ENTRIES_PER_LANE 4      /* fewer, and the reduction costs more than the loads it shares out */

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
    st.max = max, st.empty = empty;
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

/* Regular rows (spread under half the mean, none longer than an adaptive
 * block): on a GPU the vector kernel, whose groups read each row coalesced
 * with no block table; on a CPU the scalar kernel, whose work-items each
 * stream their own row. Rows of very different lengths: the adaptive kernel,
 * which gives every work-group the same number of nonzeros. */
const char *spmv_csr_choose(const spmv_row_stats *st, int gpu, int share, int group)
{
    (void)group;
    const char *choice = "adaptive";
    double cv = st->cv;
    int max = st->max;
    if (cv < 0.5 && max <= share) {
        choice = gpu ? "vector" : "scalar";
        printf("choice   %s: rows regular (spread %.2f of the mean, longest %d <= %d): %s\n", choice, cv, max, share,
               gpu ? "a group per row reads each row coalesced" : "a row per work-item streams it");
    } else {
        printf("choice   %s: rows irregular (spread %.2f of the mean%s%d longest): equal nonzeros per work-group\n",
               choice, cv, max > share ? ", one block is " : ", ", max > share ? share : max);
    }
    return choice;
}
