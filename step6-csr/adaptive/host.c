/* step6-csr/adaptive/host.c - the host side of chapter 6's adaptive kernel
 * (kernel.cl beside this file says what the kernel does with what is made
 * here). build/step6 runs it for --kernel adaptive and --kernel all:
 *
 *   build/step6 --gen powerlaw:rows=262144,mean=15 --kernel adaptive
 *   build/step6 --gen arrow:rows=46500 --kernel adaptive --split 10000 --combine fixup
 *
 * What it decides, in the order ../main.c asks: the work-group and the share
 * of nonzeros per block (adaptive_open); the kernel the matrix chooses
 * (adaptive_choose, chapter 6's rule in step6-csr/choice/csrchoice.c); where rows are
 * cut and how the pieces of a cut row are added up, the blocks, their device
 * buffers and the build options (adaptive_prepare); the kernel's arguments
 * and launches (adaptive_args).
 * Each choice says what was measured for it; TUNING.md holds the
 * measurements. A -DNAME=N in CFLAGS_step6 changes the numbers that say so,
 * for a comparison.
 */
#include "host.h"
#include "precision.h"
#include "stopwatch.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const spmv_option ADAPTIVE_OPTIONS[] = {
    { .name = "--split", .arg = "N", .after = "--group-size",
      .help = "rows longer than N nonzeros are cut across work-groups (adaptive kernel)",
      .def = "from the matrix and the device", .kind = SPMV_OWN_NUMBER, .lo = 1, .hi = INT_MAX },
    { .name = "--combine", .arg = "HOW", .after = "--split",
      .help = "how a split row's pieces are added: count (in the kernel, by the last piece, counted in with an "
              "atomic increment; needs a fence of device scope), last (in the kernel, by the last piece, through "
              "one 64-bit atomic word; float and double) or fixup (a second kernel)",
      .def = "the first of these the device allows", .kind = SPMV_OWN_WORD, .words = "count,last,fixup" },
    { NULL },
};

#define LOCAL_SIZE_ADAPTIVE 256 /* on a GPU; 1 on a CPU (kernel.cl) */
#define FIXUP_SIZE 64           /* adaptive's fix-up: work-items per split row (1 on a CPU) */
#ifndef SHARE_CPU
#define SHARE_CPU 8192          /* adaptive on a CPU: nonzeros per block, one work-item each */
#endif

/* Adaptive on a GPU: nonzeros per work-item in a block, so a block's share is
 * LOCAL_SIZE_ADAPTIVE times this. Measured on the H100 (TUNING.md): 3 for
 * float, 2 for complex float, 4 for complex double; each beat its neighbours
 * on the power-law matrices there, by 2-21%. Double was 2 too, until its tree
 * moved into the products' memory (partial_in_prod) and its shared rows went
 * eight entries a sweep: then 3 took power-law mean 188 from 0.91x cuSPARSE
 * to 0.97-0.98x, mean 15 level (TUNING.md). -DSHARE_PER_ITEM=N (CFLAGS_step6)
 * sets one number for all four. */
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

/* Adaptive on a GPU with values of 8 bytes or more (double, complex float,
 * complex double), three changes to how the kernel loads (kernel.cl):
 * PRODUCTS_IN_FLIGHT (a stream block's loads all issued before its first
 * gather), WALK_EIGHT (a long row alone walked eight entries per work-item
 * and sweep) and, in double, COALESCED_EIGHT (a row walked coalesced, eight
 * entries a work-item and sweep) and PARTIAL_IN_PROD (partial_in_prod).
 * Measured on the H100 (TUNING.md), with rows cut from a work-group's share
 * (choose_split): double power-law mean 15 0.89x cuSPARSE to 0.99-1.03x, rows
 * of 300-2,000 entries 1.10x to 1.29x, complex double mean 15 and 7 +6-11%
 * (the first two, with NEXT_COLUMNS, a whole row's next column indices loaded
 * first, which COALESCED_EIGHT replaced); in float each cost a power-law
 * matrix 2-10%, so float keeps the plain kernel, and complex the plain
 * shared-row walk (with the last two, complex double lost 1-13% on four
 * matrices of seven). -DWIDE_TUNING=0 (CFLAGS_step6) turns them off, for the
 * comparison. */
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

/* Where a long row is cut. A work-group that walks a whole row of n nonzeros
 * takes about as long as a compute unit takes for n nonzeros of any rows, so
 * a row longer than one compute unit's share of the matrix would still be
 * running when the rest is done. But a cut costs something. Added up by a
 * second kernel (csr_adaptive_fixup), 8-15 us on the H100, about what one
 * work-group's walk of half a megabyte of row costs (the arrow's 46,500-entry
 * row, 372 KB in float, went faster whole in float and cut in the wider
 * precisions), and on PoCL a launch costs tens of microseconds: so then a row
 * is cut only when it is longer than both a compute unit's share and
 * SPLIT_MIN_BYTES of values and column indices (65,536 entries in float,
 * 43,690 in double and complex float, 26,214 in complex double). Added up by
 * its last chunk, in the kernel, a cut costs a few compare-and-swaps: on the
 * H100 the arrow's row went 1.3-2x faster cut than whole from 20,000 entries
 * up (TUNING.md), so then the floor is SPLIT_MIN_BYTES_LAST (16,384 entries
 * in float, 10,922 in double). --split N (asked) puts the line at N instead. */
#define SPLIT_MIN_BYTES (512 << 10)

#define SPLIT_MIN_BYTES_LAST (128 << 10)

/* Added up by a count (--combine count), a cut costs one atomic increment
 * a chunk and, in the last, a sum of the row's slots; the floor is the
 * last-chunk word's (SPLIT_MIN_BYTES_COUNT): on the H100 eight rows of
 * 2,700 entries in double went slower cut (0.66-0.69x cuSPARSE) than whole
 * (0.75-0.77x), the arrow's 46,500 far faster (TUNING.md). */
#ifndef SPLIT_MIN_BYTES_COUNT
#define SPLIT_MIN_BYTES_COUNT SPLIT_MIN_BYTES_LAST
#endif

/* With 8-byte values on a GPU (wide_tuned), a row is cut from a work-group's
 * share: a compute unit's share over the SPLIT_GROUPS work-groups it runs at
 * once (an H100 multiprocessor runs 2,048 work-items, 8 work-groups of 256;
 * OpenCL does not say how many). A work-group alone on a row holds one of
 * those places, not the whole compute unit: on the H100, double power-law
 * mean 15's longest row, 19,548 entries (a compute unit's share is 29,808),
 * walked whole, finished last, and the matrix ran at 0.89x cuSPARSE; cut
 * above 10,922 entries, 0.96-0.98x (TUNING.md). In float, cut there,
 * power-law mean 188 lost 4% and mean 15 2%, so float keeps a compute unit's
 * share. SPLIT_GROUPS work-groups a compute unit is also what one wave of the
 * device runs (plan_blocks: how a row alone is walked). */
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
 * second kernel (--combine fixup) or counted in (--combine count), as many as
 * blocks of `share`: every work-group the same share of nonzeros, a stream
 * block's (on the H100 the arrow's row in chunks of a block, 512 entries in
 * double, ran 0.97x cuSPARSE in double and complex double against 0.85-0.92x
 * in chunks of a compute unit's share, 1,056 entries, one sweep of the
 * work-group and a few entries more: TUNING.md). Added up in the kernel
 * through one atomic word (--combine last), far fewer: the chunks'
 * compare-and-swaps on that word come one after another (on the H100 about
 * 0.3 us each: 195 chunks of 512 took 61 us where the whole product takes
 * 10), while a work-group walks a chunk of c entries in about c / 1,000 us,
 * so n chunks of a row cost about len / (1,000 n) + 0.3 n us, least at n =
 * sqrt(len / 300). Measured, fewer and longer chunks did as well or better: n
 * = sqrt(len / LAST_ENTRIES_PER_CAS), 1,000 (TUNING.md); at most TALLY_MAX in
 * double (kernel.cl). */
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
 * 600-1,000 entries went from 218 to 350 GFLOP/s in float, TUNING.md).
 * But never fewer than finish the row within a compute unit's share of the
 * matrix (per_cu nonzeros for the whole work-group, per_cu * t / local for
 * t of its work-items), the rule that decides where rows are cut
 * (choose_split): on a small matrix the work-group that walks its longest
 * row with 32 work-items is still walking when the rest is done (on the
 * H100, power-law of 20,000 rows, mean 15, in double: 18-20 us, against 13.5
 * with that row's work spread; TUNING.md).
 * WHOLE_MIN_LANES was 32, a warp: 16 took double power-law mean 188 from
 * 0.97x cuSPARSE to 0.99-1.00x, complex float mean 188 +2-4%, mean 15 within
 * 1-2%; 8 took mean 188 to 1.00-1.01x but cost double mean 15 5-6%.
 * So 8 (WHOLE_MIN_LANES_BULK) only where the whole rows are the bulk of
 * the work, a WHOLE_BULK_PARTS-th of the nonzeros or more (plan_blocks),
 * and only for real values (bulk_lanes): there the whole rows are what the
 * device spends its time on, and eight work-items a row leave twice as many
 * rows a work-group; where they are a few rows among many short ones
 * (power-law mean 15 and 7: 11-15% of the nonzeros) each is a chain of
 * waits that must end in time, and keeps 16. On the H100, three rounds:
 * power-law mean 188 (46% of its nonzeros in whole rows) +3-5% in float,
 * +0-2% in double; complex float mean 188 +2-3% but rows of 300-2,000
 * entries -4-5%, complex double level to -2% (TUNING.md).
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
 * (TUNING.md). A CPU walks each row whole anyway. */
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
     * (kernel.cl; TUNING.md). The block's fourth int
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
 * 64-bit atomics; else the fix-up kernel. --combine names one (asked; NULL:
 * none); the one asked for that cannot be is refused with why_not. */
static int choose_combine(const char *asked, int cplx, const spmv_cl *cl, const char **why_not)
{
    const char *no_count = cl->device_fence || cl->ptx ? NULL
                           : "this device offers no fence of device scope (OpenCL 3.0's atomic_work_item_fence) "
                             "and is not NVIDIA's (inline PTX)";
    const char *no_last = cplx ? "a complex sum is two numbers, and one 64-bit word holds one beside the count"
                          : !cl->int64_atomics ? "this device has no cl_khr_int64_base_atomics"
                          : NULL;
    asked = asked ? asked : "";
    *why_not = strcmp(asked, "count") == 0 ? no_count : strcmp(asked, "last") == 0 ? no_last : NULL;
    if (strcmp(asked, "fixup") == 0 || *why_not)
        return COMBINE_FIXUP;
    if (strcmp(asked, "last") == 0)
        return COMBINE_LAST;
    if (strcmp(asked, "count") == 0 || !no_count)
        return COMBINE_COUNT;
    return no_last ? COMBINE_FIXUP : COMBINE_LAST;
}

void adaptive_open(adaptive_kernel *ad, const spmv_cl *cl, char p, size_t local_size, int runs)
{
    memset(ad, 0, sizeof *ad);
    ad->single = spmv_prec_single(p), ad->cplx = spmv_prec_complex(p), ad->vsize = spmv_prec_value_size(p);
    ad->combine = COMBINE_FIXUP;
    size_t local = local_size ? local_size : cl->type == CL_DEVICE_TYPE_GPU ? LOCAL_SIZE_ADAPTIVE : 1;
    if (runs && (local & (local - 1)))
        spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a power of two: the adaptive kernel's tree "
                 "reduction halves the work-group (try 64, 128 or 256)", local);
    while (local > cl->max_wg)
        local /= 2;
    /* SHARE nonzeros per block, as many as local memory holds beside the
     * reduction's LOCAL_SIZE values (half of it, so two work-groups fit) */
    size_t share = local > 1 ? local * share_per_item(ad->single, ad->cplx) : SHARE_CPU;
    while (local > 1 && share > local && (share + local) * ad->vsize > cl->local_mem / 2)
        share /= 2;
    ad->local = local, ad->share = share, ad->global = local;
    snprintf(ad->opts, sizeof ad->opts, " -DLOCAL_SIZE=%zu -DSHARE=%zu -DFIXUP_SIZE=%zu", local, share,
             local > 1 ? (size_t)FIXUP_SIZE : 1);
}

/* The kernel the matrix chooses: chapter 6's rule (step6-csr/choice/csrchoice.c), with
 * this kernel's block as the longest regular row; then what each candidate
 * would run with */
const char *adaptive_choose(const adaptive_kernel *ad, const spmv_row_stats *st, int gpu, int group)
{
    const char *choice = spmv_csr_choose(st, gpu, (int)ad->share, group);
    printf("         (vector: group %d from the typical row; adaptive: blocks of %zu nonzeros, local %zu)\n", group,
           ad->share, ad->local);
    return choice;
}

/* what adaptive_prepare made, one line each */
static void print_plan(const adaptive_kernel *ad, const csr_matrix *A, const spmv_cl *cl, int split,
                       const char *split_why, long long per_cu, long long wave)
{
    const adaptive_plan *pl = &ad->plan;
    printf("prep     adaptive: %d blocks (%d long rows whole, %d chunks of %d rows longer than %d), cut and "
           "copied in %.3f ms on the host\n", pl->nblocks, pl->nwhole, pl->nslots, pl->nlong, split, ad->prep_ms);
    printf("cut      rows longer than %d nonzeros are cut across work-groups (%s)\n", split, split_why);
    if (pl->nstream)
        printf("stream   %d blocks of rows, %lld nonzeros: %.1f%% of their shares filled\n", pl->nstream,
               pl->stream_nnz, 100.0 * pl->stream_nnz / ((double)pl->nstream * (double)ad->share));
    if (ad->shared && pl->nwhole)
        printf("whole    %d rows longer than %d in %d work-groups, %.1f%% of the nonzeros (rows of under %d "
               "entries share one, %d work-items or more each%s, as many as finish it within a compute unit's "
               "share, %lld nonzeros)\n",
               pl->nwhole, pl->whole_from, pl->nwhole_blocks, 100.0 * (double)pl->whole_nnz / (double)A->nnz,
               (int)ad->local * WHOLE_ENTRIES_PER_LANE, pl->min_lanes,
               pl->min_lanes < WHOLE_MIN_LANES ? " (real values, whole rows the bulk of the work)" : "", per_cu);
    if (ad->shared && pl->nlone)
        printf("alone    %d rows walked by a work-group each, %s (%s one wave, %lld work-groups: %s)\n", pl->nlone,
               pl->lone_near ? "four neighbouring entries a work-item" : "coalesced",
               pl->lone_near ? "no more than" : "more than", wave,
               pl->lone_near ? "they start at once, latency decides" : "they queue, throughput decides");
    static const char *combine_how[] = {
        "fixup: split rows added up by a second kernel",
        "last: each split row added up by its last chunk, in the kernel (one 64-bit atomic word per row)",
        "count: each chunk's sum in its slot, counted in by an atomic increment; the last chunk adds the "
        "row's slots up, in the kernel (a fence of device scope: ",
    };
    if (pl->nlong)
        printf("combine  %s%s\n", combine_how[ad->combine],
               ad->combine != COMBINE_COUNT ? "" : cl->device_fence ? "OpenCL 3.0)" : "inline PTX, membar.gl)");
}

void adaptive_prepare(adaptive_kernel *ad, const spmv_step *step, const spmv_options *o, spmv_cl *cl,
                      const csr_matrix *A)
{
    double t0 = spmv_now();
    int single = ad->single, cplx = ad->cplx, local = (int)ad->local, share = (int)ad->share;
    int split_asked = spmv_own_int(o, "--split", 0);
    const char *combine = spmv_own_word(o, "--combine", NULL), *why_not;
    ad->combine = choose_combine(combine, cplx, cl, &why_not);
    if (why_not) {
        if (!cplx || strcmp(combine, "count") == 0)   /* the device lacks it: a skip, as for double */
            spmv_skip(cl->run, step, o, cl, "adaptive", why_not);
        spmv_die(SPMV_EXIT_USAGE, "--combine %s: %s; use --combine fixup or count", combine, why_not);
    }
    /* a compute unit's share of the matrix: where rows are cut, and how
     * many work-items a shared whole row gets (whole_lanes) */
    unsigned cus = cl->compute_units ? cl->compute_units : 1;
    long long per_cu = A->nnz / (long long)cus;
    char split_why[160];
    int groups = wide_tuned(ad->local, single, cplx) ? SPLIT_GROUPS : 1;
    int split = choose_split(per_cu, cus, groups, share, ad->vsize + sizeof(int), ad->combine, split_asked, split_why,
                             sizeof split_why);
    ad->shared = shared_rows(local);
    long long wave = (long long)cus * SPLIT_GROUPS;   /* work-groups the device runs at once (SPLIT_GROUPS) */
    adaptive_plan *pl = &ad->plan;
    spmv_error err;
    if (plan_blocks(A, share, split, local, ad->combine, single, ad->shared, bulk_lanes(cplx), per_cu, wave, pl, &err))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    if (!pl->nlong)
        ad->combine = COMBINE_FIXUP;   /* no split row, nothing to add up (and no kernel to add it) */
    ad->blocks = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, ((size_t)pl->nblocks * 4 + 4) * sizeof(int), pl->blocks,
                                "adaptive blocks");
    ad->partials = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, ((size_t)pl->nslots + 1) * ad->vsize, NULL,
                                  "long rows' partial sums");
    ad->long_slot = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, ((size_t)pl->nlong + 1) * sizeof(int), pl->long_slot,
                                   "long rows' slots");
    ad->whole_row = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, ((size_t)pl->nwhole * 3 + 3) * sizeof(int), pl->whole_row,
                                   "whole rows");
    ad->long_row = spmv_cl_buffer(cl, CL_MEM_READ_ONLY, ((size_t)pl->nlong + 1) * sizeof(int), pl->long_row,
                                  "long rows");
    /* one 64-bit word per split row, zero between runs (kernel.cl, LAST_CHUNK) */
    long long *zeros = calloc((size_t)pl->nlong + 1, sizeof *zeros);
    if (!zeros)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for %d split rows", pl->nlong);
    ad->tally = spmv_cl_buffer(cl, CL_MEM_READ_WRITE, ((size_t)pl->nlong + 1) * sizeof *zeros, zeros,
                               "split rows' tally words");
    free(zeros);
    CL_CHECK(clFinish(cl->queue));
    ad->prep_ms = (spmv_now() - t0) * 1e3;
    ad->global = (size_t)(pl->nblocks ? pl->nblocks : 1) * ad->local;
    print_plan(ad, A, cl, split, split_why, per_cu, wave);

    /* the build options: the combine (the count's fence OpenCL C 3.0's where
     * the device has it, else PTX's: choose_combine), shared rows, and how
     * the loads go with 8-byte values */
    const char *combine_opts[] = { "", " -DLAST_CHUNK",
                                   cl->device_fence ? " -DCOUNT_CHUNKS -cl-std=CL3.0" : " -DCOUNT_CHUNKS -DPTX_FENCE" };
    size_t n = strlen(ad->opts);
    snprintf(ad->opts + n, sizeof ad->opts - n, "%s%s%s%s", combine_opts[ad->combine],
             ad->shared ? " -DSHARED_ROWS" : "", wide_options(ad->local, single, cplx),
             partial_in_prod(ad->local, single, cplx) ? " -DPARTIAL_IN_PROD" : "");
}

int adaptive_args(adaptive_kernel *ad, cl_program prog, cl_kernel k, cl_mem d_y, spmv_launch l[2])
{
    /* no `partial` where the tree is kept in the products' memory (kernel.cl PARTIAL_IN_PROD) */
    size_t partial = partial_in_prod(ad->local, ad->single, ad->cplx) ? 1 : ad->local;
    CL_CHECK(clSetKernelArg(k, 6, partial * ad->vsize, NULL));
    CL_CHECK(clSetKernelArg(k, 7, sizeof ad->blocks, &ad->blocks));
    CL_CHECK(clSetKernelArg(k, 8, sizeof ad->partials, &ad->partials));
    CL_CHECK(clSetKernelArg(k, 9, sizeof ad->long_slot, &ad->long_slot));
    CL_CHECK(clSetKernelArg(k, 10, (ad->local > 1 ? ad->share : 1) * ad->vsize, NULL));
    CL_CHECK(clSetKernelArg(k, 11, sizeof ad->tally, &ad->tally));
    CL_CHECK(clSetKernelArg(k, 12, sizeof ad->whole_row, &ad->whole_row));
    CL_CHECK(clSetKernelArg(k, 13, sizeof ad->long_row, &ad->long_row));
    l[0] = (spmv_launch){ k, ad->global, ad->local };
    if (!ad->plan.nlong || ad->combine != COMBINE_FIXUP)
        return 1;
    /* the split rows' partial sums added once every block is done */
    cl_kernel fix = spmv_cl_kernel(prog, "csr_adaptive_fixup");
    CL_CHECK(clSetKernelArg(fix, 0, sizeof ad->long_row, &ad->long_row));
    CL_CHECK(clSetKernelArg(fix, 1, sizeof ad->long_slot, &ad->long_slot));
    CL_CHECK(clSetKernelArg(fix, 2, sizeof ad->partials, &ad->partials));
    CL_CHECK(clSetKernelArg(fix, 3, sizeof d_y, &d_y));
    size_t fixup_local = ad->local > 1 ? FIXUP_SIZE : 1;
    l[1] = (spmv_launch){ fix, (size_t)ad->plan.nlong * fixup_local, fixup_local };
    return 2;
}

void adaptive_payback(const adaptive_kernel *ad, double ms, double other_ms)
{
    if (ms <= 0 || other_ms <= 0)
        return;
    /* the host's cutting is paid once per matrix, the kernel's gain every multiply */
    double gain = other_ms - ms;
    if (gain > 0)
        printf("prep     adaptive's %.3f ms of host preparation pays for itself after %.0f multiplies "
               "(%.4f ms faster than the best other kernel here)\n", ad->prep_ms, ceil(ad->prep_ms / gain), gain);
    else
        printf("prep     adaptive is not faster than the best other kernel here: its %.3f ms of host "
               "preparation never pays for itself on this matrix and device\n", ad->prep_ms);
}

void adaptive_close(adaptive_kernel *ad)
{
    cl_mem *m[] = { &ad->blocks, &ad->partials, &ad->long_row, &ad->whole_row, &ad->long_slot, &ad->tally };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        if (*m[i])
            clReleaseMemObject(*m[i]);
    plan_free(&ad->plan);
}
