/* step6-csr/adaptive/kernel.cl - csr_adaptive, chapter 6's third kernel: an
 * equal share of the nonzeros per work-group; and csr_adaptive_fixup, which
 * adds up the pieces of a cut row where the device needs a second kernel.
 *
 * Built after ../kernel.cl, as one program (../main.c, section 4): it uses
 * what that file defines (VALUE, MUL, ZERO, group_sum and, on NVIDIA's
 * platform, the warp shuffles). host.c cuts the matrix into blocks and
 * chooses the build options below; TUNING.md holds the measurements behind
 * each choice.
 *
 * Scalar and vector hand out rows; on a matrix whose rows range from 1 to
 * 40,000 entries, the work-item or group that draws the long row works alone
 * while the rest of the device waits. CSR-Adaptive (Greathouse and Daga,
 * SC'14; what clSPARSE ships) hands out nonzeros instead. The host cuts the
 * rows once into blocks (host.c, plan_blocks), each holding at most SHARE
 * nonzeros:
 *   a stream block   consecutive whole rows, SHARE nonzeros at most, at most
 *                    one row per work-item: the work-group multiplies all its
 *                    nonzeros into local memory in coalesced sweeps (every
 *                    work-item one entry per sweep, whatever row it belongs
 *                    to), then sums each row out of local memory, with as many
 *                    work-items per row as fit (a power of two, t);
 *   a long row       one row longer than SHARE, whole: the work-group walks
 *                    it straight from memory, as the vector kernel would
 *                    with a group as wide as the work-group (or, SHARED_ROWS,
 *                    several rows longer than LOCAL_SIZE, up to a few
 *                    thousand entries, share a work-group, 8 or 16
 *                    work-items or more each, on a GPU: host.c shared_rows
 *                    and whole_lanes); the host
 *                    puts these blocks first, longest first, so they start
 *                    first;
 *   a chunk          a piece of a row so long that one work-group alone
 *                    would finish it after the rest of the matrix (longer
 *                    than the host's `split`), walked from memory by the
 *                    whole work-group, neighbouring entries per work-item
 *                    (below); the host chooses how many pieces (host.c,
 *                    chunks_of).
 * A split row's chunks are added up one of three ways (host.c picks the
 * first that the device allows, --combine names one):
 *   count  (-DCOUNT_CHUNKS; every precision) one kernel: each chunk stores
 *          its sum in its slot and counts itself in with one atomic
 *          increment, behind a fence of device scope; the last chunk's
 *          work-group adds the row's slots up, in slot order (chunk_counted_in,
 *          below, says why the fence, and how each device gets one).
 *   fixup  csr_adaptive_fixup adds each split row's partial sums, in slot
 *          order (the same order every run), into y: a second kernel in the
 *          same queue, which starts only once the first has finished, and
 *          that is all the ordering it needs. On the H100 a second kernel
 *          costs 8-15 us, as much as a whole small product.
 *   last   (-DLAST_CHUNK; float and double) one kernel: every chunk adds its
 *          sum into its row's `tally`, one 64-bit word that holds both the
 *          sum so far and how many chunks are in it, with one compare-and-
 *          swap (atom_cmpxchg, cl_khr_int64_base_atomics); the chunk that
 *          brings the count to the row's number of chunks knows it is the
 *          last, and writes y and puts the word back to zero for the next
 *          run. One word is the point: OpenCL 1.2 orders nothing between two
 *          addresses across work-groups (a count in one word and sums stored
 *          in others need a fence of device scope, which NVIDIA's OpenCL does
 *          not have: it reports fences of work-group scope only, and on the
 *          H100 that version failed its check in 3 runs of 3), but every
 *          atomic operation on one word sees the one before it. The order in
 *          which chunks arrive changes from run to run, and so may the last
 *          bits of y. A float sum and a 32-bit count fill the word; a double
 *          fills it alone, so the count takes its 8 lowest bits (at most 255
 *          chunks, host.c's limit; the sum so far is kept to 45 bits, and
 *          the last chunk adds its own in full: that rounding, at most 255
 *          times 2^-45 of the row's sum |a||x|, is inside the checker's eps
 *          times the row's length, as long as each chunk has 256 entries or
 *          more, which the split rows' chunks have by far).
 *          Complex values are two numbers: they take the count, or the
 *          fix-up kernel.
 * Either way nobody waits for anybody (OpenCL does not promise that
 * work-groups run at the same time, so a work-group that spun on another
 * could wait forever).
 * blocks[4w .. 4w+3] describe work-group w: for a stream block its first
 * row, the row after its last, and its nonzeros' bounds (ptr of those two
 * rows, copied by the host: see "Latency" below); for whole long rows
 * (first, end, -1, near), the rows whole_row[first .. end - 1] (one, or several
 * that share the work-group: host.c, whole_lanes; three ints each; near 1: a
 * row alone walked neighbouring entries, host.c plan_blocks); for a chunk
 * the split row's number i (long_row[i] is the row, long_slot[i] its first
 * slot, long_slot[i + 1] the next row's), -(slot + 1), and the chunk's
 * nonzeros' bounds (as a stream block's: see "Latency").
 *
 * Latency. A stream block of 512 double entries is done in a few sweeps, so
 * what it costs is mostly waiting: for each load whose address comes from
 * the load before it. Reading blocks[], then ptr[first] to find where the
 * block's nonzeros start, then col, then x, then ptr again after the barrier
 * to find each row's bounds, is five waits in a row; with the bounds in
 * blocks[] and each work-item's row bounds loaded beside the products,
 * three. On the H100 that took double power-law mean 188 from 187-190 to
 * 195-197 GFLOP/s, mean 7 from 172-176 to 181-185, rows of 100-300 from
 * 179-181 to 187-188; float 0-2% (TUNING.md). Whole
 * rows likewise: whole_row[] holds each row's bounds beside it, so a
 * work-group reads whole_row[], then col, not whole_row[], then ptr, then
 * col (1-2% in double once rows share work-groups, float level).
 *
 * On a CPU (LOCAL_SIZE 1) the same blocks, shaped as chapter 4 shaped DIA for
 * a CPU: one work-item per block walks its rows one after another, straight
 * from memory, with no local memory and no barriers (PoCL runs a work-group's
 * work-items in a loop, and every barrier cuts that loop in two); the host
 * then puts up to SHARE rows in a block, and SHARE is a few thousand.
 *
 * Assumes: the work-group size is LOCAL_SIZE, a power of two; SHARE (build
 * option) nonzeros fit local memory (`prod`, SHARE values, passed by the host
 * rather than declared here: oclgrind 21.10 takes every store of a float2 or
 * double2 into a kernel-scope __local array for an uninitialized value);
 * one work-group per block.
 */

/* Warp shuffles (../kernel.cl, on NVIDIA's platform) in this kernel's trees
 * too: complex float power-law mean 188 gained 5%, but double mean 15 lost
 * 12% (TUNING.md, warp shuffles); so off, unless -DSHUFFLE_ADAPTIVE=1
 * (--cl-opts). */
#ifndef WARP_SHUFFLE
#undef SHUFFLE_ADAPTIVE
#define SHUFFLE_ADAPTIVE 0
#elif !defined(SHUFFLE_ADAPTIVE)
#define SHUFFLE_ADAPTIVE 0
#endif

#ifndef SHARE
#define SHARE 1024
#endif

#ifdef LAST_CHUNK
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#ifdef USE_FP64
#define TALLY_COUNT 0xffL   /* the count in the 8 lowest bits of the double */
static long tally_word(double sum, long count)
{
    return ((as_long(sum) + 0x80L) & ~TALLY_COUNT) | count;   /* the sum rounded to 45 bits */
}
static double tally_sum(long w) { return as_double(w & ~TALLY_COUNT); }
static long tally_count(long w) { return w & TALLY_COUNT; }
#else
static long tally_word(float sum, long count) { return (count << 32) | (long)as_uint(sum); }
static float tally_sum(long w) { return as_float((uint)w); }
static long tally_count(long w) { return w >> 32; }
#endif

/* A chunk's sum into its row's tally word; the last of the row's `chunks`
 * writes y[row]. The first guess of the word is 0 (no chunk in yet); a
 * compare-and-swap that finds another value retries from what it found. */
static void chunk_into_tally(volatile __global long *tally, long chunks, VALUE sum, __global VALUE *y_row)
{
    long seen = 0;
    for (;;) {
        long was = atom_cmpxchg(tally, seen, tally_word(tally_sum(seen) + sum, tally_count(seen) + 1));
        if (was == seen)
            break;
        seen = was;
    }
    if (tally_count(seen) + 1 == chunks) {
        *y_row = tally_sum(seen) + sum;
        atom_xchg(tally, 0L);   /* ready for the next run */
    }
}
#define CHUNK_DONE(sum) chunk_into_tally(tally + lr, long_slot[lr + 1] - s0, (sum), y + split_row)
#elif defined(COUNT_CHUNKS)
/* --combine count: each chunk stores its sum in its slot, then counts itself
 * in with one atomic increment of its row's counter; the chunk that brings
 * the count to the row's number of chunks is the last, and adds the row's
 * slots up, in slot order (the same sum every run, whatever order the chunks
 * came in), into y. Nobody retries and nobody waits. What makes it right is
 * a fence of device scope on each side of the increment: a release before
 * it (this chunk's sum is out, to every work-group, before its count is),
 * an acquire after it in the last chunk (it sees every sum the counts said
 * were out). Without it, the last chunk may read a slot before the sum
 * stored there reaches it. OpenCL C 3.0 names that fence
 * (atomic_work_item_fence at memory_scope_device), where the device offers
 * it; NVIDIA's OpenCL offers fences of work-group scope only, but passes
 * inline PTX through to its compiler, and PTX has the fence (membar.gl),
 * so there (PTX_FENCE) the kernel says it in PTX. The counter is the low
 * 32 bits of the row's tally word, zero between runs. */
#ifdef PTX_FENCE
#define DEVICE_FENCE() __asm__ __volatile__("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device)
#endif
/* A chunk's sum out to its slot, then counted in: whether it was its row's
 * last. The last then adds the row's slots up (below, and at the end of
 * csr_adaptive: on a GPU its whole work-group, each work-item a few slots,
 * then a tree), reading them through a volatile pointer (from memory, not
 * from a cache this work-item may have filled earlier), and puts the count
 * back to zero for the next run. */
static int chunk_counted_in(volatile __global VALUE *partials, volatile __global int *count, int n, int slot,
                            VALUE sum)
{
    partials[slot] = sum;
    DEVICE_FENCE();   /* release: the sum is out before the count says so */
    return atomic_inc(count) == n - 1;
}
#define ROW_COUNT ((volatile __global int *)(tally + lr))
#define CHUNK_COUNTED_IN(sum) chunk_counted_in(partials, ROW_COUNT, long_slot[lr + 1] - s0, slot, (sum))
static void chunk_done_alone(volatile __global VALUE *partials, volatile __global int *count, int s0, int n,
                             int slot, VALUE sum, __global VALUE *y_row)
{
    if (!chunk_counted_in(partials, count, n, slot, sum))
        return;
    DEVICE_FENCE();   /* acquire: every sum counted in is seen */
    VALUE total = ZERO;
    for (int i = s0; i < s0 + n; i++)
        total += partials[i];   /* slot order: the same sum every run */
    *y_row = total;
    atomic_xchg(count, 0);
}
#define CHUNK_DONE(sum) chunk_done_alone(partials, ROW_COUNT, s0, long_slot[lr + 1] - s0, slot, (sum), y + split_row)
#else
#define CHUNK_DONE(sum) (partials[slot] = (sum))
#endif
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#if LOCAL_SIZE == 1
/* Entries k0 .. k1 - 1 of a row, as one work-item on a CPU walks them: four
 * running sums, not one. Each addition waits for the one before it on the
 * same sum (about four cycles on a current core), so with one sum a long row
 * costs four cycles an entry whatever the memory does; four sums keep four
 * in flight. On PoCL (2 cores) this took the grid from 5.3-5.5 to 9.0-9.2
 * GFLOP/s; a matrix of rows mostly shorter than four (power-law mean 7)
 * lost 8-17% to the extra additions (TUNING.md). */
static VALUE walk_sum(__global const int *restrict col, __global const VALUE *restrict val,
                      __global const VALUE *restrict x, int k0, int k1)
{
    VALUE s0 = ZERO, s1 = ZERO, s2 = ZERO, s3 = ZERO;
    int k = k0;
    for (; k + 3 < k1; k += 4) {
        s0 += MUL(val[k], x[col[k]]);
        s1 += MUL(val[k + 1], x[col[k + 1]]);
        s2 += MUL(val[k + 2], x[col[k + 2]]);
        s3 += MUL(val[k + 3], x[col[k + 3]]);
    }
    for (; k < k1; k++)
        s0 += MUL(val[k], x[col[k]]);
    return (s0 + s1) + (s2 + s3);
}
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void csr_adaptive(const int rows,
                  __global const int *restrict ptr,
                  __global const int *restrict col,
                  __global const VALUE *restrict val,
                  __global const VALUE *restrict x,
                  __global VALUE *restrict y,
                  __local VALUE *partial,
                  __global const int *restrict blocks,
                  __global VALUE *restrict partials,
                  __global const int *restrict long_slot,
                  __local VALUE *prod,
                  __global long *tally,
                  __global const int *restrict whole_row,
                  __global const int *restrict long_row)
{
    (void)rows;
    (void)partials;
    (void)tally;
    size_t w = get_group_id(0);
    int first = blocks[4 * w], end = blocks[4 * w + 1], nz0 = blocks[4 * w + 2], nz1 = blocks[4 * w + 3];
    /* a stream block and a chunk carry their nonzeros' bounds: no load of
     * ptr stands between the block and its first products */
    int whole = nz0 < 0;   /* whole rows (first, end, -1, near): their bounds are their rows' */
    int near = whole && nz1;   /* a row alone, walked neighbouring entries (host.c, plan_blocks) */
    if (whole)
        nz0 = 0;
    /* a chunk (its split row's number lr, -(slot + 1), its bounds): the
     * row, and where the row's slots start, come in beside the products */
    int lr = end < 0 ? first : 0;
    int slot = -end - 1;
    int s0 = end < 0 ? long_slot[lr] : 0;
    int split_row = end < 0 ? long_row[lr] : 0;
    (void)split_row;
#if LOCAL_SIZE == 1
    (void)partial;
    (void)prod;
    (void)near;
    if (end >= 0) {
        /* rows first .. end - 1, or whole_row[first .. end - 1] */
        for (int i = first; i < end; i++) {
            if (whole)   /* whole_row[3i ..]: the row, its bounds */
                y[whole_row[3 * i]] = walk_sum(col, val, x, whole_row[3 * i + 1], whole_row[3 * i + 2]);
            else
                y[i] = walk_sum(col, val, x, ptr[i], ptr[i + 1]);
        }
        return;
    }
    CHUNK_DONE(walk_sum(col, val, x, nz0, nz1));
#else
    int lid = get_local_id(0);
#ifdef COUNT_CHUNKS
    __local int chunk_last;   /* this chunk was its row's last (work-item 0 tells the others) */
#endif
    VALUE sum = ZERO;
    int t = 1, lane = 0, row = -1, i0 = 0, i1 = 0;
    /* The kind of block is the same for the whole work-group, so every
     * work-item takes the same branches; the barriers stand outside them all
     * the same (PoCL, which runs a work-group as a loop, cuts it at each). */
    int walk = whole || end < 0;   /* long rows, whole (first, end, -1), or a chunk of one */
    if (walk) {
        if (whole) {
            /* whole rows whole_row[first .. end - 1], t work-items each (the
             * host puts in as many as leave each enough work) */
            int nrows = end - first;
            while (t < LOCAL_SIZE && 2 * t * nrows <= LOCAL_SIZE)
                t *= 2;
            if (lid / t < nrows) {
                int i = 3 * (first + lid / t);   /* (row, its bounds) */
                row = whole_row[i];
                nz0 = whole_row[i + 1];
                nz1 = whole_row[i + 2];
            }
        } else {
            t = LOCAL_SIZE;
        }
        lane = lid & (t - 1);
        /* walked straight from memory, two ways. Coalesced (SHARED_ROWS:
         * host.c, shared_rows and whole_lanes): work-item `lane` takes
         * entries k, k + t, k + 2t, k + 3t, so each load of a warp is one
         * run of memory, four gathers in flight; for rows that share a
         * work-group, and for rows alone when there are more of them than
         * the device runs at once (throughput decides). Neighbouring: four
         * neighbouring entries per work-item and sweep (one 16-byte load of
         * columns, four gathers in flight), then the last few one by one;
         * for a chunk of a cut row, one sweep or two, and for a row alone
         * when such rows all start at once (`near`: each is a chain of
         * waits, and latency decides; on the H100 this took the arrow
         * matrix from 7.9 to 11.5 GFLOP/s in double, TUNING.md). Every row alone walked neighbouring, a matrix of 8,192
         * rows of 8,000-16,000 entries ran at 162 GFLOP/s in double, coalesced
         * at 435 (each load of a warp then spans 32 x 16 bytes of columns and
         * uses a quarter of each 32-byte piece of values it fetches;
         * TUNING.md). The coalesced loop is compiled in only on a
         * GPU. */
#ifdef SHARED_ROWS
        if (whole && !near) {
            int k = nz0 + lane;
#ifdef COALESCED_EIGHT
            /* (double: host.c, wide_options) eight entries a work-item and
             * sweep while eight remain, eight gathers in flight; then fours */
            for (; k + 7 * t < nz1; k += 8 * t) {
                int c0 = col[k], c1 = col[k + t], c2 = col[k + 2 * t], c3 = col[k + 3 * t];
                int c4 = col[k + 4 * t], c5 = col[k + 5 * t], c6 = col[k + 6 * t], c7 = col[k + 7 * t];
                VALUE v0 = val[k], v1 = val[k + t], v2 = val[k + 2 * t], v3 = val[k + 3 * t];
                VALUE v4 = val[k + 4 * t], v5 = val[k + 5 * t], v6 = val[k + 6 * t], v7 = val[k + 7 * t];
                sum += ((MUL(v0, x[c0]) + MUL(v1, x[c1])) + (MUL(v2, x[c2]) + MUL(v3, x[c3]))) +
                       ((MUL(v4, x[c4]) + MUL(v5, x[c5])) + (MUL(v6, x[c6]) + MUL(v7, x[c7])));
            }
#endif
            for (; k + 3 * t < nz1; k += 4 * t)
                sum += ((MUL(val[k], x[col[k]]) + MUL(val[k + t], x[col[k + t]])) + MUL(val[k + 2 * t], x[col[k + 2 * t]])) +
                       MUL(val[k + 3 * t], x[col[k + 3 * t]]);
            for (; k < nz1; k += t)
                sum += MUL(val[k], x[col[k]]);
        } else
#endif
        {
#ifdef WALK_EIGHT
            /* (8-byte values and more: host.c, wide_options) while at least
             * 16 sweeps of the work-group remain (a long row alone, or a
             * long chunk: --combine last cuts few), eight neighbouring
             * entries per work-item and sweep: eight gathers in flight, half
             * the sweeps */
            if (nz1 - nz0 >= 16 * LOCAL_SIZE) {
                int n8 = (nz1 - nz0) / 8;
                for (int q = lid; q < n8; q += LOCAL_SIZE) {
                    int b = nz0 + 8 * q;
                    int4 c = vload4(0, col + b), d = vload4(1, col + b);
                    sum += ((MUL(val[b], x[c.x]) + MUL(val[b + 1], x[c.y])) + (MUL(val[b + 2], x[c.z]) + MUL(val[b + 3], x[c.w]))) +
                           ((MUL(val[b + 4], x[d.x]) + MUL(val[b + 5], x[d.y])) + (MUL(val[b + 6], x[d.z]) + MUL(val[b + 7], x[d.w])));
                }
                nz0 += 8 * n8;
            }
#endif
            int n4 = (nz1 - nz0) / 4;
            for (int q = lid; q < n4; q += LOCAL_SIZE) {
                int b = nz0 + 4 * q;
                int4 c = vload4(0, col + b);
                sum += ((MUL(val[b], x[c.x]) + MUL(val[b + 1], x[c.y])) + MUL(val[b + 2], x[c.z])) + MUL(val[b + 3], x[c.w]);
            }
            for (int k = nz0 + 4 * n4 + lid; k < nz1; k += LOCAL_SIZE)
                sum += MUL(val[k], x[col[k]]);
        }
    } else {
        /* t work-items per row, the most that fit (the host puts at most
         * LOCAL_SIZE rows in a block); each loads its row's bounds now, so
         * that they come in with the products, not after the barrier. (The
         * same loop as the whole rows' above, on purpose: computed once
         * before the branch, for both, the double kernel ran 4-15% slower on
         * the H100 on the power-law matrices; float level.) */
        int nrows = end - first;
        while (t < LOCAL_SIZE && 2 * t * nrows <= LOCAL_SIZE)
            t *= 2;
        lane = lid & (t - 1);
        if (lid / t < nrows) {
            row = first + lid / t;
            i0 = ptr[row] - nz0 + lane;
            i1 = ptr[row + 1] - nz0;
        }
        /* 1. every product of the block into local memory, LOCAL_SIZE at a time */
#ifdef PRODUCTS_IN_FLIGHT
        /* (8-byte values and more: host.c, wide_options) a work-item's
         * SHARE / LOCAL_SIZE entries loaded all at once, then all their
         * gathers, then the stores: two waits for memory, not two a sweep */
#define PER_ITEM ((SHARE + LOCAL_SIZE - 1) / LOCAL_SIZE)
        int cj[PER_ITEM];
        VALUE vj[PER_ITEM], xj[PER_ITEM];
#pragma unroll
        for (int j = 0; j < PER_ITEM; j++) {
            int k = nz0 + lid + j * LOCAL_SIZE;
            cj[j] = k < nz1 ? col[k] : 0;
            vj[j] = k < nz1 ? val[k] : ZERO;
        }
#pragma unroll
        for (int j = 0; j < PER_ITEM; j++)
            xj[j] = nz0 + lid + j * LOCAL_SIZE < nz1 ? x[cj[j]] : ZERO;
#pragma unroll
        for (int j = 0; j < PER_ITEM; j++)
            if (nz0 + lid + j * LOCAL_SIZE < nz1)
                prod[lid + j * LOCAL_SIZE] = MUL(vj[j], xj[j]);
#else
        for (int k = nz0 + lid; k < nz1; k += LOCAL_SIZE)
            prod[k - nz0] = MUL(val[k], x[col[k]]);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* 2. the sums */
    for (int i = i0; i < i1; i += t)
        sum += prod[i];
#ifdef PARTIAL_IN_PROD
    /* (double: host.c, partial_in_prod) the tree in prod, which holds at
     * least LOCAL_SIZE values, once every work-item has read its products:
     * one barrier more, 2 KB less local memory a work-group, and what the
     * device does not give to local memory it keeps as cache for x (on the
     * H100 16 KB more a work-group cost power-law mean 188 7% in double;
     * TUNING.md, local memory) */
    __local VALUE *tree = prod;
    (void)partial;
    if (!walk && t > (SHUFFLE_ADAPTIVE ? 32 : 1))   /* (with shuffles a tree of 32 stays in registers) */
        barrier(CLK_LOCAL_MEM_FENCE);
#else
    __local VALUE *tree = partial;
#endif
    if (t > 1)   /* a tree over the t work-items of each row (all LOCAL_SIZE for a long row) */
        sum = group_sum(tree, lid, lane, t, sum, SHUFFLE_ADAPTIVE);
#ifdef COUNT_CHUNKS
    if (end < 0) {
        /* a chunk: work-item 0 holds its sum. If it was the row's last, the
         * work-group adds the row's n slots up, in the same order every run:
         * work-item i takes slots i, i + LOCAL_SIZE..., then a tree. */
        if (lid == 0)
            chunk_last = CHUNK_COUNTED_IN(sum);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (chunk_last) {   /* the same for the whole work-group */
            DEVICE_FENCE();   /* acquire: every sum counted in is seen */
            volatile __global VALUE *slots = partials;
            int n = long_slot[lr + 1] - s0;
            VALUE total = ZERO;
            for (int i = lid; i < n; i += LOCAL_SIZE)
                total += slots[s0 + i];
            /* (every work-item read tree[] above, before the last barrier) */
            total = group_sum(tree, lid, lid, LOCAL_SIZE, total, SHUFFLE_ADAPTIVE);
            if (lid == 0) {
                y[split_row] = total;
                atomic_xchg(ROW_COUNT, 0);   /* ready for the next run */
            }
        }
        return;
    }
#endif
    if (lane == 0) {
        if (end < 0)
            CHUNK_DONE(sum);
        else if (row >= 0)
            y[row] = sum;
    }
#endif
}

/* One work-group per long row (one work-item on a CPU): its chunks' partial
 * sums, read in parallel and added by a tree, in the same order every run. */
#ifndef FIXUP_SIZE
#define FIXUP_SIZE 64
#endif
__kernel __attribute__((reqd_work_group_size(FIXUP_SIZE, 1, 1)))
void csr_adaptive_fixup(__global const int *restrict long_row,
                        __global const int *restrict long_slot,
                        __global const VALUE *restrict partials,
                        __global VALUE *restrict y)
{
    int i = get_group_id(0);   /* the grid is one work-group per long row */
#if FIXUP_SIZE == 1
    VALUE sum = ZERO;
    for (int p = long_slot[i]; p < long_slot[i + 1]; p++)
        sum += partials[p];
    y[long_row[i]] = sum;
#else
    __local VALUE part[FIXUP_SIZE];
    int lid = get_local_id(0);
    VALUE sum = ZERO;
    for (int p = long_slot[i] + lid; p < long_slot[i + 1]; p += FIXUP_SIZE)
        sum += partials[p];
    sum = group_sum(part, lid, lid, FIXUP_SIZE, sum, SHUFFLE_ADAPTIVE);
    if (lid == 0)
        y[long_row[i]] = sum;
#endif
}
