/* step6-csr/main.c - host program of chapter 6: CSR, scalar, vector and
 * adaptive (load-balanced) kernels, in four precisions.
 *
 *   make step6 run                                  every kernel, default matrix set
 *   build/step6 --matrix tests/data/young1c.mtx --precision z --kernel vector --group-size 8
 *   build/step6 --gen powerlaw:rows=262144,mean=15  an irregular matrix
 *   build/step6 --grid 1024 --precision d           any option of --help
 *
 * Without --kernel every kernel runs on the same matrix and a table compares
 * them, with the one the matrix's row lengths choose marked. The sections below appear in the same order in every step, so that
 * `make diff STEP=6` shows only what the chapter changes.
 */
#include "precision.h"
#include "spmv.h"
#include "stopwatch.h"

#include <stdio.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "step6",
    .title = "CSR: scalar (row per work-item), vector (group per row) and adaptive (nonzeros per work-group)",
    .kernel_path = SPMV_KERNEL_PATH,
    .variants = "scalar,vector,adaptive,all",
    .default_variant = "all",
    .extras = OPT_PRECISION | OPT_GROUP | OPT_SPLIT,
    .model_bytes = 0,   /* CSR has no DIA model; the bound is the compulsory traffic */
};

#define LOCAL_SIZE_SCALAR 128
#define LOCAL_SIZE_VECTOR 256   /* several rows per work-group: 256 / group size */
#define MAX_DEFAULT_GROUP 32    /* a GPU's warp; wider groups only add barriers */
#define ENTRIES_PER_LANE 4      /* fewer, and the reduction costs more than the loads it shares out */

#define LOCAL_SIZE_ADAPTIVE 256 /* on a GPU; 1 on a CPU (kernel.cl) */
#define FIXUP_SIZE 64           /* adaptive's fix-up: work-items per split row (1 on a CPU) */
#ifndef SHARE_CPU
#define SHARE_CPU 8192          /* adaptive on a CPU: nonzeros per block, one work-item each */
#endif

/* Adaptive on a GPU: nonzeros per work-item in a block, so a block's share is
 * LOCAL_SIZE_ADAPTIVE times this. Measured on the H100 (chapter 6, "Tuning the
 * share"): 3 for float, 2 for complex float, 4 for complex double; each
 * beat its neighbours on the power-law matrices there, by 2-21%. Double was
 * 2 too, until its tree moved into the products' memory (partial_in_prod)
 * and its shared rows went eight entries a sweep: then 3 took power-law
 * mean 188 from 0.91x cuSPARSE to 0.97-0.98x, mean 15 level (chapter 6,
 * "Local memory is cache").
 * -DSHARE_PER_ITEM=N (CFLAGS_step6) sets one number for all four. */
static size_t share_per_item(int single, int cplx)
{
#ifdef SHARE_PER_ITEM
    (void)single;
    (void)cplx;
    return SHARE_PER_ITEM;
#else
    if (single)
        return cplx ? 2 : 3;
    return cplx ? 4 : 3;
#endif
}

/* What the choices below look at: row lengths. `typical` is the length of the
 * row an average nonzero sits in (sum len^2 / sum len): on the grid it is the
 * mean (81); on a power-law matrix, whose few long rows hold much of the
 * nonzeros, it is far above the mean. */
typedef struct {
    double mean, cv, typical;
    int max, empty;
} row_stats;

static row_stats row_lengths(const csr_matrix *A)
{
    row_stats st = { 0 };
    double sum2 = 0;
    int max = 0, empty = 0;
#pragma omp parallel for reduction(+ : sum2, empty) reduction(max : max)
    for (int r = 0; r < A->rows; r++) {
        int len = A->ptr[r + 1] - A->ptr[r];
        sum2 += (double)len * len;
        empty += len == 0;
        max = len > max ? len : max;
    }
    st.max = max;
    st.empty = empty;
    if (A->rows) {
        st.mean = (double)A->nnz / A->rows;
        double var = sum2 / A->rows - st.mean * st.mean;
        st.cv = st.mean > 0 && var > 0 ? sqrt(var) / st.mean : 0;
        st.typical = A->nnz ? sum2 / (double)A->nnz : 0;
    }
    return st;
}

/* The vector kernel's default: the largest power of two not above a quarter
 * of the typical row length (so each lane takes about 4 entries or more), from
 * 2 to 32: 16 for the grid's 81 per row, 32 for a power-law matrix whose mean
 * is 7 but whose nonzeros mostly sit in rows of thousands. The mean alone
 * chose 2 there, and left one pair of work-items walking a 38,708-entry row.
 * A group as wide as the row leaves each lane one or two loads and then five
 * barriers of reduction: on the H100 the grid ran at 71% of its bound with 32
 * per row and at 92-94% with 8 or 16 (step6-csr/README.md). */
static int default_group(const row_stats *st)
{
    int g = 2;
    while (g * 2 * ENTRIES_PER_LANE <= st->typical && g * 2 <= MAX_DEFAULT_GROUP)
        g *= 2;
    return g;
}

/* The kernel the matrix chooses, and why (one line). Regular rows (spread
 * under half the mean, none longer than an adaptive block): on a GPU the
 * vector kernel, whose groups read each row coalesced with no block table; on
 * a CPU the scalar kernel, whose work-items each stream their own row. Rows of
 * very different lengths: the adaptive kernel, which gives every work-group
 * the same number of nonzeros. */
static const char *choose_kernel(const row_stats *st, int share, int gpu, char *why, size_t size)
{
    if (st->cv < 0.5 && st->max <= share) {
        snprintf(why, size, "rows regular (spread %.2f of the mean, longest %d <= %d): %s", st->cv, st->max,
                 share, gpu ? "a group per row reads each row coalesced" : "a row per work-item streams it");
        return gpu ? "vector" : "scalar";
    }
    snprintf(why, size, "rows irregular (spread %.2f of the mean%s%d longest): equal nonzeros per work-group",
             st->cv, st->max > share ? ", one block is " : ", ", st->max > share ? share : st->max);
    return "adaptive";
}

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

/* Adaptive on a GPU with values of 8 bytes or more (double, complex float,
 * complex double), three changes to how the kernel loads (kernel.cl):
 * PRODUCTS_IN_FLIGHT (a stream block's loads all issued before its first
 * gather), WALK_EIGHT (a long row alone walked eight entries per work-item
 * and sweep) and, in double, COALESCED_EIGHT (a row walked coalesced, eight
 * entries a work-item and sweep) and PARTIAL_IN_PROD (partial_in_prod).
 * Measured on the H100
 * (chapter 6, "Eight-byte values"), with rows cut from a work-group's share
 * (choose_split): double power-law mean 15 0.89x cuSPARSE to 0.99-1.03x,
 * rows of 300-2,000 entries 1.10x to 1.29x, complex double mean 15 and 7
 * +6-11% (the first two, with NEXT_COLUMNS, a whole row's next column
 * indices loaded first, which COALESCED_EIGHT replaced: chapter 6, "Local
 * memory is cache"); in float each cost a power-law matrix 2-10%, so float
 * keeps the plain kernel, and complex the plain shared-row walk (with the
 * last two, complex double lost 1-13% on four matrices of seven).
 * -DWIDE_TUNING=0
 * (CFLAGS_step6) turns them off, for the comparison. */
#ifndef WIDE_TUNING
#define WIDE_TUNING 1
#endif
static int wide_tuned(size_t local, int single, int cplx)
{
    return WIDE_TUNING && local > 1 && (!single || cplx);
}
/* Double on a GPU: the reduction's tree kept in the products' local memory
 * (kernel.cl PARTIAL_IN_PROD), so the `partial` argument is not needed; the
 * one place that decides both the build option and the argument's size */
static int partial_in_prod(size_t local, int single, int cplx)
{
    return wide_tuned(local, single, cplx) && !cplx;
}
static const char *wide_options(size_t local, int single, int cplx)
{
    if (!wide_tuned(local, single, cplx))
        return "";
    return cplx ? " -DPRODUCTS_IN_FLIGHT -DWALK_EIGHT" : " -DPRODUCTS_IN_FLIGHT -DWALK_EIGHT -DCOALESCED_EIGHT";
}

/* On NVIDIA's platform the tree reductions (kernel.cl group_sum) go
 * through warp shuffles in inline PTX (WARP_SHUFFLE): the 32 work-items of
 * a warp add up in registers, with no barrier; only where every work-group
 * is whole warps (a work-group size a multiple of 32), since a shuffle
 * needs all 32. -DWARP_SHUFFLES=0 (CFLAGS_step6) turns it off, for the
 * comparison. */
#ifndef WARP_SHUFFLES
#define WARP_SHUFFLES 1
#endif
static int warp_shuffle(const spmv_cl *cl, size_t asked_local, size_t alocal)
{
    return WARP_SHUFFLES && cl->ptx && cl->type == CL_DEVICE_TYPE_GPU && asked_local % 32 == 0 && alocal % 32 == 0;
}

/* Where a long row is cut. A work-group that walks a whole row of n
 * nonzeros takes about as long as a compute unit takes for n nonzeros of any
 * rows, so a row longer than one compute unit's share of the matrix would
 * still be running when the rest is done. But a cut costs something. Added
 * up by a second kernel (csr_adaptive_fixup), 8-15 us on the H100, about
 * what one work-group's walk of half a megabyte of row costs (the arrow's
 * 46,500-entry row, 372 KB in float, went faster whole in float and cut in
 * the wider precisions), and on PoCL a launch costs tens of microseconds: so
 * then a row is cut only when it is longer than both a compute unit's share
 * and SPLIT_MIN_BYTES of values and column indices (65,536 entries in float,
 * 43,690 in double and complex float, 26,214 in complex double). Added up
 * by its last chunk, in the kernel, a cut costs a few compare-and-swaps: on
 * the H100 the arrow's row went 1.3-2x faster cut than whole from 20,000
 * entries up (chapter 6, "One kernel or two"), so then the floor is
 * SPLIT_MIN_BYTES_LAST (16,384 entries in float, 10,922 in double).
 * --split N (asked) puts the line at N instead. */
#define SPLIT_MIN_BYTES (512 << 10)

#define SPLIT_MIN_BYTES_LAST (128 << 10)

/* Added up by a count (--combine count), a cut costs one atomic increment
 * a chunk and, in the last, a sum of the row's slots; the floor is the
 * last-chunk word's (SPLIT_MIN_BYTES_COUNT): on the H100 eight rows of
 * 2,700 entries in double went slower cut (0.66-0.69x cuSPARSE) than whole
 * (0.75-0.77x), the arrow's 46,500 far faster (chapter 6, "Counted in"). */
#ifndef SPLIT_MIN_BYTES_COUNT
#define SPLIT_MIN_BYTES_COUNT SPLIT_MIN_BYTES_LAST
#endif

/* With 8-byte values on a GPU (wide_tuned), a row is cut from a work-group's
 * share: a compute unit's share over the SPLIT_GROUPS work-groups it runs
 * at once (an H100 multiprocessor runs 2,048 work-items, 8 work-groups of
 * 256; OpenCL does not say how many). A work-group alone on a row holds
 * one of those places, not the whole compute unit: on the H100, double
 * power-law mean 15's longest row, 19,548 entries (a compute unit's share is
 * 29,808), walked whole, finished last, and the matrix ran at 0.89x
 * cuSPARSE; cut above 10,922 entries, 0.96-0.98x (chapter 6, "Eight-byte
 * values"). In float, cut there, power-law mean 188 lost 4% and mean 15
 * 2%, so float keeps a compute unit's share. SPLIT_GROUPS work-groups a
 * compute unit is also what one wave of the device runs (plan_blocks: how a
 * row alone is walked). */
#define SPLIT_GROUPS 8

/* How a split row's chunks are added up (choose_combine) */
enum { COMBINE_FIXUP, COMBINE_LAST, COMBINE_COUNT };

static int choose_split(long long per_cu, unsigned compute_units, int groups, int share, size_t entry_bytes,
                        int combine, int asked, char *why, size_t size)
{
    static const long long floor_bytes[] = { SPLIT_MIN_BYTES, SPLIT_MIN_BYTES_LAST, SPLIT_MIN_BYTES_COUNT };
    static const char *combine_name[] = { "fixup", "last", "count" };
    long long floor = floor_bytes[combine] / (long long)entry_bytes;
    long long per_group = per_cu / groups;
    long long split = asked ? asked : per_group > floor ? (per_group < INT_MAX ? per_group : INT_MAX) : floor;
    if (split <= share)   /* a row of a block or less is never cut */
        snprintf(why, size, "a block's share: a row of a block or less is never cut");
    else if (asked)
        snprintf(why, size, "--split %d", asked);
    else if (per_group > floor && groups > 1)
        snprintf(why, size, "a work-group's share, %lld nonzeros: a compute unit's share of %u compute units, "
                 "%lld, over the %d work-groups it runs at once", per_group, compute_units, per_cu, groups);
    else if (per_group > floor)
        snprintf(why, size, "a compute unit's share, %lld nonzeros of %u compute units", per_cu, compute_units);
    else
        snprintf(why, size, "the floor for --combine %s, %lld KB of values and column indices",
                 combine_name[combine], floor_bytes[combine] >> 10);
    return split > share ? (int)split : share;
}

/* The piece of the plan that starts at row r, and the row after it: a row
 * longer than `split` (cut into chunks), a row longer than `whole` (walked
 * whole, in a block of its own or shared: whole <= share), or a stream
 * block of the rows that fit (at most max_rows of them, `share` nonzeros).
 * split >= share (choose_split). */
enum { PIECE_STREAM, PIECE_WHOLE, PIECE_SPLIT };

static int next_piece(const csr_matrix *A, int r, int share, int whole, int split, int max_rows, int *next)
{
    int len = A->ptr[r + 1] - A->ptr[r];
    if (len > whole) {
        *next = r + 1;
        return len > split ? PIECE_SPLIT : PIECE_WHOLE;
    }
    int r1 = r;
    while (r1 < A->rows && r1 - r < max_rows && A->ptr[r1 + 1] - A->ptr[r] <= share &&
           A->ptr[r1 + 1] - A->ptr[r1] <= whole)
        r1++;
    *next = r1;
    return PIECE_STREAM;
}

/* How many chunks a split row of `len` nonzeros is cut into. Added up by a
 * second kernel (--combine fixup) or counted in (--combine count), as many
 * as blocks of `share`: every work-group the same share of nonzeros, a
 * stream block's (on the H100 the arrow's row in chunks of a block, 512
 * entries in double, ran 0.97x cuSPARSE in double and complex double
 * against 0.85-0.92x in chunks of a compute unit's share, 1,056 entries,
 * one sweep of the work-group and a few entries more: chapter 6, "Counted
 * in"). Added up in the kernel through one atomic word
 * (--combine last), far fewer: the chunks' compare-and-swaps on that word
 * come one after another (on the H100 about 0.3 us each: 195 chunks of 512
 * took 61 us where the whole product takes 10), while a work-group walks a
 * chunk of c entries in about c / 1,000 us, so n chunks of a row cost about
 * len / (1,000 n) + 0.3 n us, least at n = sqrt(len / 300). Measured,
 * fewer and longer chunks did as well or better: n = sqrt(len /
 * LAST_ENTRIES_PER_CAS), 1,000 (chapter 6, "One kernel or two"); at most
 * TALLY_MAX in double (kernel.cl). */
#ifndef LAST_ENTRIES_PER_CAS
#define LAST_ENTRIES_PER_CAS 1000
#endif
#define TALLY_MAX 255
static long long chunks_of(long long len, int share, int combine, int single)
{
    if (combine != COMBINE_LAST)
        return (len + share - 1) / share;
    long long n = (long long)ceil(sqrt((double)len / LAST_ENTRIES_PER_CAS));
    if (n < 2)
        n = 2;
    if (!single && n > TALLY_MAX)
        n = TALLY_MAX;
    return n;
}

static void plan_free(adaptive_plan *pl)
{
    free(pl->blocks);
    free(pl->long_row);
    free(pl->long_slot);
    free(pl->whole_row);
}

struct whole_row {
    int len, row;
};

static int longer_first(const void *a, const void *b)
{
    const struct whole_row *p = a, *q = b;
    return p->len != q->len ? (p->len < q->len ? 1 : -1) : (p->row > q->row) - (p->row < q->row);
}

/* Work-items per whole row. Shared (kernel.cl SHARED_ROWS; shared_rows()
 * says when): the most (a power of two, at most the work-group) that still
 * leaves each WHOLE_ENTRIES_PER_LANE entries or more, and at least
 * WHOLE_MIN_LANES (half a warp); the rest of the work-group takes the next
 * rows.
 * A 1,000-entry row walked by 256 work-items keeps most of them busy for one
 * sweep, then pays a tree of eight barriers: with 32 per row, eight such
 * rows share a work-group and its tree of five (on the H100 rows of
 * 600-1,000 entries went from 218 to 350 GFLOP/s in float, chapter 6).
 * But never fewer than finish the row within a compute unit's share of the
 * matrix (per_cu nonzeros for the whole work-group, per_cu * t / local for
 * t of its work-items), the rule that decides where rows are cut
 * (choose_split): on a small matrix the work-group that walks its longest
 * row with 32 work-items is still walking when the rest is done (on the
 * H100, power-law of 20,000 rows, mean 15, in double: 18-20 us, against 13.5
 * with that row's work spread; chapter 6, "Small matrices").
 * WHOLE_MIN_LANES was 32, a warp: 16 took double power-law mean 188 from
 * 0.97x cuSPARSE to 0.99-1.00x, complex float mean 188 +2-4%, mean 15 within
 * 1-2%; 8 took mean 188 to 1.00-1.01x but cost double mean 15 5-6%
 * (chapter 6, "Half a warp a row").
 * So 8 (WHOLE_MIN_LANES_BULK) only where the whole rows are the bulk of
 * the work, a WHOLE_BULK_PARTS-th of the nonzeros or more (plan_blocks),
 * and only for real values (bulk_lanes): there the whole rows are what the
 * device spends its time on, and eight work-items a row leave twice as many
 * rows a work-group; where they are a few rows among many short ones
 * (power-law mean 15 and 7: 11-15% of the nonzeros) each is a chain of
 * waits that must end in time, and keeps 16. On the H100, three rounds:
 * power-law mean 188 (46% of its nonzeros in whole rows) +3-5% in float,
 * +0-2% in double; complex float mean 188 +2-3% but rows of 300-2,000
 * entries -4-5%, complex double level to -2% (chapter 6, "Eight for the
 * bulk").
 * Not shared: the whole work-group. */
#ifndef WHOLE_ENTRIES_PER_LANE
#define WHOLE_ENTRIES_PER_LANE 32
#endif
#ifndef WHOLE_MIN_LANES
#define WHOLE_MIN_LANES 16
#endif
#ifndef WHOLE_CU_BOUND
#define WHOLE_CU_BOUND 1
#endif
#ifndef WHOLE_MIN_LANES_BULK
#define WHOLE_MIN_LANES_BULK 8
#endif
#ifndef WHOLE_BULK_PARTS
#define WHOLE_BULK_PARTS 4
#endif
static int bulk_lanes(int cplx)
{
    return cplx ? WHOLE_MIN_LANES : WHOLE_MIN_LANES_BULK;
}
static int whole_lanes(int len, int local, int shared, long long per_cu, int min_lanes)
{
    int t = local;
    while (shared && t > min_lanes && (long long)t * WHOLE_ENTRIES_PER_LANE > len &&
           (!WHOLE_CU_BOUND || (long long)len * local <= per_cu * (t / 2)))
        t /= 2;
    return t;
}

/* When whole rows share work-groups: on a GPU, always (every row longer
 * than the work-group then goes whole, not only those longer than a block).
 * On the H100, float: rows of 600-1,000 entries 350.6 to 412.1 GFLOP/s,
 * power-law mean 188 254.7 to 273.3; double, once blocks carried their
 * bounds (kernel.cl, "Latency"): power-law mean 188 195 to 205-210, mean 60
 * 150-154 to 158-159, mean 15 and 100 1-3% slower; complex float mean 188
 * +7%, complex double mean 15 and 7 +5-6%, rows of 600-1,000 +20-27%
 * (chapter 6, "Five waits or three"). A CPU walks each row whole anyway. */
static int shared_rows(int local)
{
    return local > 1;
}

static int plan_blocks(const csr_matrix *A, int share, int split, int local, int combine, int single, int shared,
                       int bulk_min_lanes, long long per_cu, long long wave, adaptive_plan *pl, spmv_error *err)
{
    memset(pl, 0, sizeof *pl);
    long long nb = 0, nwhole = 0, nlong = 0, nslots = 0, whole_nnz = 0;
    int max_rows = local > 1 ? local : share;
    int whole = shared && local < share ? local : share;
    /* count first, so the arrays are allocated once at their size */
    for (int r = 0, next; r < A->rows; r = next) {
        switch (next_piece(A, r, share, whole, split, max_rows, &next)) {
        case PIECE_SPLIT: {
            long long c = chunks_of(A->ptr[r + 1] - A->ptr[r], share, combine, single);
            nb += c, nslots += c, nlong++;
            break;
        }
        case PIECE_WHOLE:
            nb++, nwhole++;
            whole_nnz += A->ptr[r + 1] - A->ptr[r];
            break;
        default:
            nb++;
        }
    }
    if (nb >= INT_MAX / 4 || nslots >= INT_MAX)   /* blocks[4 * b], an int index */
        return spmv_fail(err, "%s needs %lld adaptive blocks: too many for int indices", A->origin.name, nb);
    pl->blocks = spmv_alloc((size_t)nb * 4 + 4, sizeof(int), "adaptive blocks", err);
    pl->long_row = pl->blocks ? spmv_alloc((size_t)nlong + 1, sizeof(int), "long rows", err) : NULL;
    pl->long_slot = pl->long_row ? spmv_alloc((size_t)nlong + 1, sizeof(int), "long row slots", err) : NULL;
    pl->whole_row = pl->long_slot ? spmv_alloc((size_t)nwhole * 3 + 3, sizeof(int), "whole rows", err) : NULL;
    struct whole_row *order = pl->whole_row ? spmv_alloc((size_t)nwhole + 1, sizeof *order, "whole rows", err) : NULL;
    if (!order) {
        plan_free(pl);
        return -1;
    }
    /* the whole long rows' blocks come first (at most one each: blocks 0 ..
     * nwhole - 1 are kept for them), the rest follow in row order */
    int w = 0, b = (int)nwhole, l = 0, slot = 0;
    for (int r = 0, next; r < A->rows; r = next) {
        switch (next_piece(A, r, share, whole, split, max_rows, &next)) {
        case PIECE_SPLIT:
            pl->long_row[l] = r;
            pl->long_slot[l] = slot;
            /* chunk j of n: entries len * j / n up to len * (j + 1) / n of the row */
            long long len = A->ptr[r + 1] - A->ptr[r], n = chunks_of(len, share, combine, single);
            for (long long j = 0; j < n; j++, b++) {
                pl->blocks[4 * b] = l;
                pl->blocks[4 * b + 1] = -(slot++ + 1);
                pl->blocks[4 * b + 2] = A->ptr[r] + (int)(len * j / n);
                pl->blocks[4 * b + 3] = A->ptr[r] + (int)(len * (j + 1) / n);
            }
            l++;
            break;
        case PIECE_WHOLE:
            order[w++] = (struct whole_row){ A->ptr[r + 1] - A->ptr[r], r };
            break;
        default:
            pl->blocks[4 * b] = r;
            pl->blocks[4 * b + 1] = next;
            pl->blocks[4 * b + 2] = A->ptr[r];
            pl->blocks[4 * b + 3] = A->ptr[next];
            pl->stream_nnz += A->ptr[next] - A->ptr[r];
            pl->nstream++;
            b++;
        }
    }
    /* the longest whole rows first: a work-group that draws one late would
     * finish after the rest (the longest-job-first rule of scheduling); then
     * as many rows a block as leave each whole_lanes() work-items, the
     * block's longest row deciding: (first, end, -1, near), whole_row[first .. end - 1] */
    qsort(order, (size_t)w, sizeof *order, longer_first);
    /* A row alone in its work-group (the longest, so the first) is walked
     * four neighbouring entries a work-item where such rows are no more
     * than one wave of the device (`wave` work-groups at once): all of them
     * start at once and each is a chain of waits, so latency decides.
     * More, and they queue for the device like any other work: throughput
     * decides, and they are walked coalesced, as shared rows are
     * (kernel.cl; chapter 6, "Many long rows"). The block's fourth int
     * says which: 1 neighbouring, 0 coalesced. */
    int min_lanes = whole_nnz * WHOLE_BULK_PARTS >= A->nnz ? bulk_min_lanes : WHOLE_MIN_LANES;
    pl->min_lanes = min_lanes;
    pl->whole_nnz = whole_nnz;
    int lone = 0;
    while (lone < w && whole_lanes(order[lone].len, local, shared, per_cu, min_lanes) == local)
        lone++;
    int near = local > 1 && lone <= wave;
    int wb = 0;
    for (int i = 0; i < w; wb++) {
        int k = local / whole_lanes(order[i].len, local, shared, per_cu, min_lanes);
        pl->blocks[4 * wb] = i;
        pl->blocks[4 * wb + 2] = -1;
        pl->blocks[4 * wb + 3] = k == 1 && near;
        i = i + k < w ? i + k : w;
        pl->blocks[4 * wb + 1] = i;
    }
    pl->nlone = lone;
    pl->lone_near = near && lone > 0;
    for (int i = 0; i < w; i++) {
        int r = order[i].row;
        pl->whole_row[3 * i] = r;
        pl->whole_row[3 * i + 1] = A->ptr[r];
        pl->whole_row[3 * i + 2] = A->ptr[r + 1];
    }
    free(order);
    if (wb < w)
        memmove(pl->blocks + 4 * wb, pl->blocks + 4 * w, (size_t)(b - w) * 4 * sizeof(int));
    b -= w - wb;
    /* after the last block, an empty one (rows, rows): what a matrix with no
     * rows runs, since a launch needs at least one work-group */
    pl->blocks[4 * b] = pl->blocks[4 * b + 1] = A->rows;
    pl->blocks[4 * b + 2] = pl->blocks[4 * b + 3] = 0;
    pl->long_slot[l] = slot;
    pl->nblocks = b;
    pl->nwhole = w;
    pl->nwhole_blocks = wb;
    pl->whole_from = whole;
    pl->nlong = l;
    pl->nslots = slot;
    return 0;
}

/* How the split rows' chunks are added up (kernel.cl), the first that the
 * device allows: count (each chunk's sum in its slot, an atomic count, the
 * last chunk adds the slots up), where the device has a fence of device
 * scope (OpenCL 3.0) or takes one in inline PTX (NVIDIA); last (one 64-bit
 * word that holds the count and the sum, float and double), where it has
 * 64-bit atomics; else the fix-up kernel. --combine names one; the one asked
 * for that cannot be is refused with why_not. */
static int choose_combine(const spmv_options *o, int cplx, const spmv_cl *cl, const char **why_not)
{
    const char *no_count = cl->device_fence || cl->ptx ? NULL
                           : "this device offers no fence of device scope (OpenCL 3.0's atomic_work_item_fence) "
                             "and is not NVIDIA's (inline PTX)";
    const char *no_last = cplx ? "a complex sum is two numbers, and one 64-bit word holds one beside the count"
                          : !cl->int64_atomics ? "this device has no cl_khr_int64_base_atomics"
                          : NULL;
    const char *asked = o->combine ? o->combine : "";
    *why_not = strcmp(asked, "count") == 0 ? no_count : strcmp(asked, "last") == 0 ? no_last : NULL;
    if (strcmp(asked, "fixup") == 0 || *why_not)
        return COMBINE_FIXUP;
    if (strcmp(asked, "last") == 0)
        return COMBINE_LAST;
    if (strcmp(asked, "count") == 0 || !no_count)
        return COMBINE_COUNT;
    return no_last ? COMBINE_FIXUP : COMBINE_LAST;
}

typedef struct {
    const char *name;
    char label[32];
    size_t local, global;
    spmv_measure m;
    spmv_speed speed;
    int ran;
} kernel_run;

int main(int argc, char **argv)
{
    /* 1. Options and device */
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o);
    if (o.group && (o.group & (o.group - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d is not a power of two: the vector kernel's tree "
                 "reduction halves the group (try 4, 8, 16, 32 or 64)", o.group);
    spmv_cl cl;
    spmv_cl_open(&cl, o.device);

    /* 2. The matrix and x (common/load.h; --info and --save-* see them as read),
     * and the reference y (common/check.h) */
    spmv_input in;
    spmv_read_csr(&o, &in);
    spmv_save_matrix(&o, &in);
    csr_matrix A;
    spmv_load_csr(&o, &in, &A);
    spmv_error err;
    char p = spmv_csr_precision(&o, &A);   /* --precision, else the file's own */
    if (!spmv_prec_single(p) && !cl.fp64)
        spmv_skip(&STEP, &o, &cl, o.variant, "this device has no cl_khr_fp64, which --precision d and z need");
    if (spmv_prec_complex(p) && !A.im) {
        /* a real matrix in a complex precision: imaginary parts zero */
        A.im = spmv_alloc((size_t)A.nnz ? (size_t)A.nnz : 1, sizeof *A.im, "imaginary parts", &err);
        if (!A.im)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        memset(A.im, 0, (size_t)A.nnz * sizeof *A.im);
    }
    int single = spmv_prec_single(p), cplx = spmv_prec_complex(p), vsize = spmv_prec_value_size(p);
    if (single)
        csr_round_to_float(&A);   /* the reference sees the numbers the device sees */
    row_stats st = row_lengths(&A);
    printf("matrix   %s: %d x %d, %lld nonzeros\n", A.origin.name, A.rows, A.cols, A.nnz);
    printf("rows     length mean %.1f, max %d, spread (std/mean) %.2f, typical %.1f (the row an average "
           "nonzero is in), %d empty\n", st.mean, st.max, st.cv, st.typical, st.empty);
    printf("values   %s (%d bytes), x and y interleaved (re, im)%s\n", spmv_prec_name(p), vsize,
           cplx ? "" : " only when complex");
    double *x = spmv_x_doubles(&o, A.cols, cplx, single);
    spmv_save_x_doubles(&o, x, A.cols, cplx, single);
    spmv_ref ref;
    size_t y_bytes = (size_t)A.rows * vsize;
    void *y = spmv_alloc(A.rows ? (size_t)A.rows : 1, vsize, "y", &err);
    if (!y || csr_reference(&A, x, &ref, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);

    /* 3. Device buffers: values as the precision stores them, int indices */
    void *val = spmv_prec_take(&A, p, &err);   /* A's values become the device's: no second copy */
    void *xd = val ? spmv_prec_pack_doubles(x, (size_t)A.cols * (cplx ? 2 : 1), single, &err) : NULL;
    if (!val || !xd)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    size_t nnz1 = A.nnz ? (size_t)A.nnz : 1, cols1 = A.cols ? (size_t)A.cols : 1;
    cl_mem d_ptr = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, ((size_t)A.rows + 1) * sizeof(int), A.ptr, "row pointers");
    cl_mem d_col = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * sizeof(int), A.nnz ? A.col : NULL, "column indices");
    cl_mem d_val = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, nnz1 * vsize, A.nnz ? val : NULL, "matrix values");
    cl_mem d_x = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, cols1 * vsize, A.cols ? xd : NULL, "x");
    cl_mem d_y = spmv_cl_buffer(&cl, CL_MEM_WRITE_ONLY, ((size_t)A.rows ? (size_t)A.rows : 1) * vsize, NULL, "y");

    /* 4. Program, kernels and their arguments: one source, the precision, the
     * vector kernel's group size and the adaptive kernel's block chosen by
     * build options; the adaptive kernel's blocks cut on the host, timed */
    int run_k[3] = { 0 };
    const char *names[3] = { "scalar", "vector", "adaptive" };
    for (int i = 0; i < 3; i++)
        run_k[i] = strcmp(o.variant, "all") == 0 || strcmp(o.variant, names[i]) == 0;
    int group = o.group ? o.group : default_group(&st);
    if (o.group && !run_k[1])
        printf("note     --group-size is the vector kernel's; the others do not use it\n");
    int gpu = cl.type == CL_DEVICE_TYPE_GPU;
    size_t alocal = o.local_size ? o.local_size : gpu ? LOCAL_SIZE_ADAPTIVE : 1;
    if (run_k[2] && (alocal & (alocal - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a power of two: the adaptive kernel's tree "
                 "reduction halves the work-group (try 64, 128 or 256)", alocal);
    while (alocal > cl.max_wg)
        alocal /= 2;
    /* SHARE nonzeros per block, as many as local memory holds beside the
     * reduction's LOCAL_SIZE values (half of it, so two work-groups fit) */
    size_t share = alocal > 1 ? alocal * share_per_item(single, cplx) : SHARE_CPU;
    while (alocal > 1 && share > alocal && (share + alocal) * vsize > cl.local_mem / 2)
        share /= 2;
    char why[256];
    const char *choice = choose_kernel(&st, (int)share, gpu, why, sizeof why);
    printf("choice   %s: %s\n", choice, why);
    printf("         (vector: group %d from the typical row; adaptive: blocks of %zu nonzeros, local %zu)\n",
           group, share, alocal);
    adaptive_plan plan = { 0 };
    cl_mem d_blocks = NULL, d_partials = NULL, d_long_row = NULL, d_long_slot = NULL, d_tally = NULL, d_whole_row = NULL;
    int combine = COMBINE_FIXUP;   /* how split rows are added up (choose_combine) */
    int shared = 0;   /* whole rows share work-groups (kernel.cl SHARED_ROWS) */
    double prep_ms = 0;
    if (run_k[2]) {
        double t0 = spmv_now();
        const char *why_not;
        combine = choose_combine(&o, cplx, &cl, &why_not);
        if (why_not) {
            if (!cplx || strcmp(o.combine, "count") == 0)   /* the device lacks it: a skip, as for double */
                spmv_skip(&STEP, &o, &cl, "adaptive", why_not);
            spmv_die(SPMV_EXIT_USAGE, "--combine %s: %s; use --combine fixup or count", o.combine, why_not);
        }
        /* a compute unit's share of the matrix: where rows are cut, and how
         * many work-items a shared whole row gets (whole_lanes) */
        unsigned cus = cl.compute_units ? cl.compute_units : 1;
        long long per_cu = A.nnz / (long long)cus;
        char split_why[160];
        int groups = wide_tuned(alocal, single, cplx) ? SPLIT_GROUPS : 1;
        int split = choose_split(per_cu, cus, groups, (int)share, vsize + sizeof(int), combine, o.split, split_why,
                                 sizeof split_why);
        shared = shared_rows((int)alocal);
        long long wave = (long long)cus * SPLIT_GROUPS;   /* work-groups the device runs at once (SPLIT_GROUPS) */
        if (plan_blocks(&A, (int)share, split, (int)alocal, combine, single, shared, bulk_lanes(cplx), per_cu, wave,
                        &plan, &err))
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        if (!plan.nlong)
            combine = COMBINE_FIXUP;   /* no split row, nothing to add up (and no kernel to add it) */
        d_blocks = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, ((size_t)plan.nblocks * 4 + 4) * sizeof(int), plan.blocks,
                                  "adaptive blocks");
        d_partials = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, ((size_t)plan.nslots + 1) * vsize, NULL,
                                    "long rows' partial sums");
        d_long_slot = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, ((size_t)plan.nlong + 1) * sizeof(int),
                                     plan.long_slot, "long rows' slots");
        d_whole_row = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, ((size_t)plan.nwhole * 3 + 3) * sizeof(int), plan.whole_row,
                                     "whole rows");
        d_long_row = spmv_cl_buffer(&cl, CL_MEM_READ_ONLY, ((size_t)plan.nlong + 1) * sizeof(int), plan.long_row,
                                    "long rows");
        /* one 64-bit word per split row, zero between runs (kernel.cl, LAST_CHUNK) */
        long long *zeros = calloc((size_t)plan.nlong + 1, sizeof *zeros);
        if (!zeros)
            spmv_die(SPMV_EXIT_USAGE, "out of host memory for %d split rows", plan.nlong);
        d_tally = spmv_cl_buffer(&cl, CL_MEM_READ_WRITE, ((size_t)plan.nlong + 1) * sizeof *zeros, zeros,
                                 "split rows' tally words");
        free(zeros);
        CL_CHECK(clFinish(cl.queue));
        prep_ms = (spmv_now() - t0) * 1e3;
        printf("prep     adaptive: %d blocks (%d long rows whole, %d chunks of %d rows longer than %d), cut and "
               "copied in %.3f ms on the host\n", plan.nblocks, plan.nwhole, plan.nslots, plan.nlong, split, prep_ms);
        printf("cut      rows longer than %d nonzeros are cut across work-groups (%s)\n", split, split_why);
        if (plan.nstream)
            printf("stream   %d blocks of rows, %lld nonzeros: %.1f%% of their shares filled\n", plan.nstream,
                   plan.stream_nnz, 100.0 * plan.stream_nnz / ((double)plan.nstream * (double)share));
        if (shared && plan.nwhole)
            printf("whole    %d rows longer than %d in %d work-groups, %.1f%% of the nonzeros (rows of under %d "
                   "entries share one, %d work-items or more each%s, as many as finish it within a compute unit's "
                   "share, %lld nonzeros)\n",
                   plan.nwhole, plan.whole_from, plan.nwhole_blocks, 100.0 * (double)plan.whole_nnz / (double)A.nnz,
                   (int)alocal * WHOLE_ENTRIES_PER_LANE, plan.min_lanes,
                   plan.min_lanes < WHOLE_MIN_LANES ? " (real values, whole rows the bulk of the work)" : "", per_cu);
        if (shared && plan.nlone)
            printf("alone    %d rows walked by a work-group each, %s (%s one wave, %lld work-groups: %s)\n", plan.nlone,
                   plan.lone_near ? "four neighbouring entries a work-item" : "coalesced",
                   plan.lone_near ? "no more than" : "more than", wave,
                   plan.lone_near ? "they start at once, latency decides" : "they queue, throughput decides");
        static const char *combine_how[] = {
            "fixup: split rows added up by a second kernel",
            "last: each split row added up by its last chunk, in the kernel (one 64-bit atomic word per row)",
            "count: each chunk's sum in its slot, counted in by an atomic increment; the last chunk adds the "
            "row's slots up, in the kernel (a fence of device scope: ",
        };
        if (plan.nlong)
            printf("combine  %s%s\n", combine_how[combine],
                   combine != COMBINE_COUNT ? "" : cl.device_fence ? "OpenCL 3.0)" : "inline PTX, membar.gl)");
    }
    /* the count's fence: OpenCL C 3.0's where the device has it, else PTX's (choose_combine) */
    const char *combine_opts[] = { "", " -DLAST_CHUNK",
                                   cl.device_fence ? " -DCOUNT_CHUNKS -cl-std=CL3.0" : " -DCOUNT_CHUNKS -DPTX_FENCE" };

    size_t fixup_local = alocal > 1 ? FIXUP_SIZE : 1;
    char opts[1024];
    snprintf(opts, sizeof opts,
             "-DVALUE=%s%s%s%s -DGROUP_SIZE=%d -DLOCAL_SIZE=%zu -DSHARE=%zu -DFIXUP_SIZE=%zu%s%s%s%s%s%s",
             spmv_prec_cl_type(p), cplx ? " -DCOMPLEX" : "", single ? "" : " -DUSE_FP64",
             warp_shuffle(&cl, o.local_size, alocal) ? " -DWARP_SHUFFLE" : "", group, alocal, share,
             fixup_local, combine_opts[combine], shared ? " -DSHARED_ROWS" : "",
             run_k[2] ? wide_options(alocal, single, cplx) : "",
             run_k[2] && partial_in_prod(alocal, single, cplx) ? " -DPARTIAL_IN_PROD" : "", o.cl_opts ? " " : "",
             o.cl_opts ? o.cl_opts : "");
    cl_program prog = spmv_cl_build(&cl, o.kernel_file, opts);

    kernel_run runs[3] = { { .name = "scalar" }, { .name = "vector" }, { .name = "adaptive" } };
    snprintf(runs[0].label, sizeof runs[0].label, "scalar");
    snprintf(runs[1].label, sizeof runs[1].label, "vector-%d", group);
    snprintf(runs[2].label, sizeof runs[2].label, "adaptive");

    /* 5. Work sizes: scalar, one work-item per row; vector, `group` per row,
     * whole groups inside a work-group; adaptive, one work-group per block */
    runs[0].local = o.local_size ? o.local_size : LOCAL_SIZE_SCALAR;
    runs[0].global = spmv_round_up(A.rows ? (size_t)A.rows : 1, runs[0].local);
    if (run_k[1]) {
        size_t local = o.local_size;
        if (local && local % group)
            spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a multiple of the group size %d: the vector "
                     "kernel keeps each row's group inside one work-group", local, group);
        if ((size_t)group > cl.max_wg)
            spmv_die(SPMV_EXIT_USAGE, "--group-size %d is more than this device's work-group limit (%zu)",
                     group, cl.max_wg);
        if (!local)
            for (local = LOCAL_SIZE_VECTOR > group ? LOCAL_SIZE_VECTOR : group; local > cl.max_wg;)
                local /= 2;
        runs[1].local = local;
        runs[1].global = spmv_round_up((A.rows ? (size_t)A.rows : 1) * group, local);
    }
    runs[2].local = alocal;
    runs[2].global = (size_t)(plan.nblocks ? plan.nblocks : 1) * alocal;

    /* 6. Each kernel: its arguments, one run checked, then timed */
    static const char *how[3] = { "one work-item per row", "a group of work-items per row",
                                  "an equal share of nonzeros per work-group" };
    int status = SPMV_EXIT_PASS;
    for (int i = 0; i < 3; i++) {
        kernel_run *kr = &runs[i];
        if (!run_k[i])
            continue;
        static const char *kname[3] = { "csr_scalar", "csr_vector", "csr_adaptive" };
        cl_kernel k = spmv_cl_kernel(prog, kname[i]);
        CL_CHECK(clSetKernelArg(k, 0, sizeof A.rows, &A.rows));
        CL_CHECK(clSetKernelArg(k, 1, sizeof d_ptr, &d_ptr));
        CL_CHECK(clSetKernelArg(k, 2, sizeof d_col, &d_col));
        CL_CHECK(clSetKernelArg(k, 3, sizeof d_val, &d_val));
        CL_CHECK(clSetKernelArg(k, 4, sizeof d_x, &d_x));
        CL_CHECK(clSetKernelArg(k, 5, sizeof d_y, &d_y));
        /* no `partial`: the scalar kernel, and kernel.cl PARTIAL_IN_PROD */
        int no_partial = i == 0 || (i == 2 && partial_in_prod(alocal, single, cplx));
        CL_CHECK(clSetKernelArg(k, 6, (no_partial ? 1 : kr->local) * vsize, NULL));
        if (i == 2) {
            CL_CHECK(clSetKernelArg(k, 7, sizeof d_blocks, &d_blocks));
            CL_CHECK(clSetKernelArg(k, 8, sizeof d_partials, &d_partials));
            CL_CHECK(clSetKernelArg(k, 9, sizeof d_long_slot, &d_long_slot));
            CL_CHECK(clSetKernelArg(k, 10, (alocal > 1 ? share : 1) * vsize, NULL));
            CL_CHECK(clSetKernelArg(k, 11, sizeof d_tally, &d_tally));
            CL_CHECK(clSetKernelArg(k, 12, sizeof d_whole_row, &d_whole_row));
            CL_CHECK(clSetKernelArg(k, 13, sizeof d_long_row, &d_long_row));
        }
        /* the adaptive kernel's split rows: their partial sums added once every block is done */
        spmv_launch l[2] = { { k, kr->global, kr->local } };
        int nl = 1;
        cl_kernel fix = NULL;
        if (i == 2 && plan.nlong && combine == COMBINE_FIXUP) {
            fix = spmv_cl_kernel(prog, "csr_adaptive_fixup");
            CL_CHECK(clSetKernelArg(fix, 0, sizeof d_long_row, &d_long_row));
            CL_CHECK(clSetKernelArg(fix, 1, sizeof d_long_slot, &d_long_slot));
            CL_CHECK(clSetKernelArg(fix, 2, sizeof d_partials, &d_partials));
            CL_CHECK(clSetKernelArg(fix, 3, sizeof d_y, &d_y));
            l[nl++] = (spmv_launch){ fix, (size_t)plan.nlong * fixup_local, fixup_local };
        }
        printf("---- %s: global %zu, local %zu (%s%s)\n", kr->label, kr->global, kr->local, how[i],
               fix ? "; then the fix-up kernel, a work-group per split row" : "");
        for (int j = 0; j < nl; j++)
            spmv_cl_check_local(&cl, l[j].k, l[j].local);
        /* run once on a y of NaN, read y back and check it (common/check.h);
         * only then time it (common/measure.h) */
        spmv_cl_poison(&cl, d_y, y_bytes);
        for (int j = 0; j < nl; j++)
            CL_CHECK(clEnqueueNDRangeKernel(cl.queue, l[j].k, 1, NULL, &l[j].global, &l[j].local, 0, NULL, NULL));
        CL_CHECK(clEnqueueReadBuffer(cl.queue, d_y, CL_TRUE, 0, y_bytes, y, 0, NULL, NULL));
        kr->m = (spmv_measure){ .check = spmv_check_result(&ref, y, single) };
        spmv_measure_seq(&cl, l, nl, d_y, y, &ref, single, &o, &kr->m);
        kr->ran = 1;
        clReleaseKernel(k);
        if (fix)
            clReleaseKernel(fix);
        /* 7. Report (common/report.h): the check, y to --save-y, the time
         * against the bandwidth measured between its timed runs, on this device */
        spmv_report_check(&kr->m);
        spmv_save_y(&o, y, A.rows, cplx, single, kr->m.check.pass);
        if (spmv_report_csr(&STEP, kr->label, &o, &cl, &A, &kr->m, &kr->speed) != SPMV_EXIT_PASS)
            status = SPMV_EXIT_FAIL;
    }

    /* the comparison table of this matrix; * marks the matrix's choice */
    printf("\n%-14s %9s %9s %10s %6s %7s | %-11s %9s %9s %12s  %s\n", "matrix", "rows", "cols", "nnz", "mean",
           "max", "kernel", "GFLOP/s", "probe", "% compulsory", "check");
    double best_other = 0;
    for (int i = 0; i < 3; i++) {
        kernel_run *kr = &runs[i];
        if (!kr->ran)
            continue;
        double g = kr->speed.gflops, bound = kr->speed.bound_compulsory;
        char pct[32] = "-", probe[32] = "-", label[40];
        if (g > 0 && bound > 0) {
            snprintf(pct, sizeof pct, "%.1f%%", 100.0 * g / bound);
            snprintf(probe, sizeof probe, "%.1f GB/s", kr->m.bw.gbs);
        }
        snprintf(label, sizeof label, "%s%s", kr->label, strcmp(kr->name, choice) == 0 ? " *" : "");
        printf("%-14.14s %9d %9d %10lld %6.1f %7d | %-11s %9.3f %9s %12s  %s\n", A.origin.name, A.rows, A.cols,
               A.nnz, st.mean, st.max, label, g, probe, pct, kr->m.check.pass ? "PASS" : "FAIL");
        if (i < 2 && g > 0 && (best_other == 0 || kr->m.median < best_other))
            best_other = kr->m.median;
    }
    printf("(%s, %s; GFLOP/s counts %s; each kernel's bound from the probe sampled between its own runs)\n",
           cl.device_name, spmv_prec_name(p), cplx ? "8 per complex nonzero" : "2 per nonzero");
    if (runs[2].ran && runs[2].m.median > 0 && best_other > 0) {
        /* the host's cutting is paid once per matrix, the kernel's gain every multiply */
        double gain = best_other - runs[2].m.median;
        if (gain > 0)
            printf("prep     adaptive's %.3f ms of host preparation pays for itself after %.0f multiplies "
                   "(%.4f ms faster than the best other kernel here)\n", prep_ms, ceil(prep_ms / gain), gain);
        else
            printf("prep     adaptive is not faster than the best other kernel here: its %.3f ms of host "
                   "preparation never pays for itself on this matrix and device\n", prep_ms);
    }

    /* 8. Release */
    clReleaseProgram(prog);
    if (d_blocks) {
        clReleaseMemObject(d_blocks);
        clReleaseMemObject(d_partials);
        clReleaseMemObject(d_long_row);
        clReleaseMemObject(d_whole_row);
        clReleaseMemObject(d_long_slot);
        clReleaseMemObject(d_tally);
    }
    plan_free(&plan);
    clReleaseMemObject(d_ptr);
    clReleaseMemObject(d_col);
    clReleaseMemObject(d_val);
    clReleaseMemObject(d_x);
    clReleaseMemObject(d_y);
    spmv_cl_close(&cl);
    spmv_ref_free(&ref);
    free(y);
    free(val);
    free(xd);
    free(x);
    csr_free(&A);
    return status;
}
