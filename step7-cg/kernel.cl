/* step7-cg/kernel.cl - the conjugate gradient's vector kernels: plain, fused and pipelined.
 *
 * What changed from step 6: SpMV is no longer the whole program but one step
 * of a loop. This file is built first, then chapter 6's own kernel.cl
 * (../step6-csr/kernel.cl) after it as one program: the product q = A p is
 * chapter 6's csr_scalar or csr_vector, unchanged. Around it, the rest of an
 * iteration of CG (step7-cg/reference/cg.h has the algorithm):
 *
 *   plain (-UCG_FUSED): one kernel per operation, as a BLAS offers them:
 *     SpMV q = A p;  cg_dot p.q;  cg_axpy x += alpha p;  cg_axpy r -= alpha q;
 *     cg_dot r.r;  cg_xpay p = r + beta p.
 *     Each dot leaves one partial sum per work-group, which the host reads
 *     back (a blocking read) and adds up, to compute alpha and beta there and
 *     pass them to the next kernels as arguments. 6 launches and 2 waits for
 *     the host per iteration; 14 sweeps over n-vectors.
 *   fused (-DCG_FUSED): 10 sweeps, and no host in the loop:
 *     SpMV q = A p that also adds up p.q (chapter 6's CSR_STORE hook, below);
 *     cg_alpha (one work-group): rr and pq from the partials, alpha, the
 *       convergence test and the breakdown test, all on the device;
 *     cg_update_r: r -= alpha q, adding up r.r;
 *     cg_update_xp: beta from the r.r partials, x += alpha p, p = r + beta p.
 *     4 launches per iteration; 10 sweeps: SpMV reads p and writes q (2),
 *     update_r reads r, q and writes r (3), update_xp reads x, p, r and writes
 *     x, p (5). The host reads the state every K iterations (--check-every).
 *   pipelined (-DCG_PIPELINED): 2 launches and 9 sweeps: the product also
 *     adds up p.Ap and Ap.Ap; cg_pipelined takes alpha and beta from them
 *     and updates x, r and p in one sweep (below, at cg_pipelined).
 *
 * Why it should be faster: on the 5-point Poisson matrix in float the matrix
 * is 5 x (4 + 4) + 4 = 44 bytes a row (values, column indices, a row pointer)
 * and the vectors of plain's 14 sweeps (a sweep: one n-vector read or written
 * once) 14 x 4 = 56: the vectors move more bytes than the matrix. Fusing
 * cuts them to 40 (pipelined to 36), and the host's two round trips per
 * iteration go (on the H200 at a million rows in float, plain's iteration
 * takes 0.0876 ms and fused's 0.0411: README.md).
 *
 * Assumes: VALUE is float or double (-DUSE_FP64 for double); the vector
 * kernels run any number of work-groups of any size (each work-item strides
 * over the vector), `scratch` holds one VALUE per work-item; cg_alpha runs as
 * one work-group. The fused SpMV writes its work-group's p.q after q's n
 * rows: q has room for one VALUE per work-group of the product there.
 */
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef VALUE
#define VALUE float
#endif

/* Which entries of an n-vector a work-item takes. On a GPU (the default)
 * neighbouring work-items take neighbouring entries, striding by the whole
 * range: each load of a warp is one coalesced transaction. On a CPU
 * (-DCONTIGUOUS, main.c) each work-item takes one contiguous stretch: a core
 * streams its own cache lines, as a C loop would. */
#ifdef CONTIGUOUS
#define FOR_EACH(i, n)                                                                              \
    for (int len_ = (int)(((long)(n) + get_global_size(0) - 1) / get_global_size(0)),                 \
             i = (int)get_global_id(0) * len_, end_ = min(i + len_, (n)); i < end_; i++)
#else
#define FOR_EACH(i, n) for (int i = get_global_id(0); i < (n); i += get_global_size(0))
#endif

/* The sum of v over the work-group, for every work-item (any work-group
 * size; on a GPU a tree over the next power of two, a barrier at every
 * level). The
 * first barrier lets the caller's earlier use of `s` finish. */
static VALUE wg_sum(__local VALUE *s, VALUE v)
{
    int lid = get_local_id(0), n = get_local_size(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
#ifdef CONTIGUOUS
    /* a CPU runs the work-items between two barriers as a loop: fewer
     * barriers, fewer loops; the first work-item adds them up */
    if (lid == 0) {
        for (int j = 1; j < n; j++)
            v += s[j];
        s[0] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#else
    int h = 1;
    while (h * 2 < n)
        h *= 2;
    for (; h > 0; h >>= 1) {
        if (lid < h && lid + h < n)
            s[lid] += s[lid + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    VALUE sum = s[0];
    barrier(CLK_LOCAL_MEM_FENCE);   /* everyone has read s[0] before s is reused */
    return sum;
}

/* The sum of part[0..count) over the work-group: each work-item strides, then
 * the tree. Every work-group that calls it on the same part with the same
 * size gets the same bits. */
static VALUE sum_partials(__local VALUE *s, int count, __global const VALUE *part)
{
    /* four loads in flight (cg_alpha's one work-group adds up a partial per
     * work-group of the product: 65,536 at 4096^2 for the scalar product's
     * work-groups of 256 rows, 256 a work-item where cg_alpha is 256 wide, as
     * on the H100) */
    int i = get_local_id(0), st = get_local_size(0);
    VALUE v0 = 0, v1 = 0, v2 = 0, v3 = 0;
    for (; i + 3 * st < count; i += 4 * st) {
        v0 += part[i];
        v1 += part[i + st];
        v2 += part[i + 2 * st];
        v3 += part[i + 3 * st];
    }
    for (; i < count; i += st)
        v0 += part[i];
    return wg_sum(s, (v0 + v1) + (v2 + v3));
}

#if defined(CG_PIPELINED) || defined(CG_FUSED)
/* The work-group's sum of a value of each work-item, in the hooks below. On
 * NVIDIA, chapter 6's group_sum over the whole work-group: shuffles within
 * each warp, one barrier, the first work-item adds the warps' sums (main.c
 * builds WARP_SHUFFLE only where the product's work-group is whole warps).
 * With the tree of barriers the fused iteration was slower than plain's on
 * the H100 (4096^2, float), in a run that also used another product kernel:
 * TUNING.md. Elsewhere the vector kernels' tree, wg_sum. */
#ifdef WARP_SHUFFLE
#define CG_PQ_SUM(v) \
    (barrier(CLK_LOCAL_MEM_FENCE), group_sum(partial, get_local_id(0), get_local_id(0), get_local_size(0), v, 1))
#else
#define CG_PQ_SUM(v) wg_sum(partial, v)
#endif
#endif

#ifdef CG_PIPELINED
/* The pipelined version's hook: as each q_i = (A p)_i is stored, p_i q_i and
 * q_i q_i are added up, and the work-group's two sums go after q's rows as a
 * pair, y[rows + 2 group] = p.q and y[rows + 2 group + 1] = q.q: cg_pipelined
 * needs both to take alpha and beta without another pass. */
#define CSR_BEGIN VALUE cg_pq = 0, cg_qq = 0;
#define CSR_STORE(row, sum)          \
    do {                             \
        VALUE q_ = (sum);            \
        y[row] = q_;                 \
        cg_pq += x[row] * q_;        \
        cg_qq += q_ * q_;            \
    } while (0)
#ifdef CG_LAST_GROUP
/* On NVIDIA (main.c builds it there): the product's pairs are added up in
 * the product itself, by the work-groups that finish last, so cg_pipelined
 * reads two sums instead of each of its work-groups adding up every pair
 * again (TUNING.md: at 4096^2, 65,536 pairs for each of its 1,056
 * work-groups on the H200). Two levels: each block of CG_BLOCK work-groups
 * counts itself in, and the last of a block adds up its block's pairs; the
 * last block to finish adds up the blocks' sums. Before it counts itself in,
 * a work-group makes its pair visible to the whole device (PTX's membar.gl,
 * CUDA's __threadfence); the last ones read the pairs from L2 (ld.global.cg),
 * not a core's own cache. OpenCL 1.2 does not promise this ordering across
 * work-groups; NVIDIA's hardware keeps it, as the CUDA samples'
 * threadFenceReduction relies on. Each sum is added in a fixed order,
 * whichever work-group is last: the same bits every run. After q's rows:
 * the pairs (2 a work-group), the blocks' sums (2 a block), the two sums,
 * then the counts (an int a slot: a block's, then the blocks'), each set
 * back to 0 by the last work-group that reads it, for the next launch. */
#define CG_BLOCK 256
#define CG_FENCE() __asm__ __volatile__("membar.gl;" ::: "memory")
static VALUE load_l2(__global const VALUE *p)
{
    VALUE v;
#ifdef USE_FP64
    __asm__ __volatile__("ld.global.cg.f64 %0, [%1];" : "=d"(v) : "l"(p));
#else
    __asm__ __volatile__("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
#endif
    return v;
}
/* the sums of count pairs, over the work-group (for every work-item) */
static void pairs_sum(__local VALUE *s, __global const VALUE *pairs, int count, VALUE *a, VALUE *b)
{
    VALUE a0 = 0, b0 = 0;
    for (int i = get_local_id(0); i < count; i += get_local_size(0)) {
        a0 += load_l2(pairs + 2 * i);
        b0 += load_l2(pairs + 2 * i + 1);
    }
    *a = wg_sum(s, a0);
    *b = wg_sum(s, b0);
}
static void pairs_done(__local VALUE *s, __global VALUE *tail, VALUE pq, VALUE qq)
{
    int g = get_group_id(0), ng = get_num_groups(0), nb = (ng + CG_BLOCK - 1) / CG_BLOCK, lid = get_local_id(0);
    int blk = g / CG_BLOCK, first = blk * CG_BLOCK, in_blk = min(CG_BLOCK, ng - first);
    __global VALUE *blocks = tail + 2 * ng, *sums = blocks + 2 * nb;
    __global int *count = (__global int *)(sums + 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        tail[2 * g] = pq;
        tail[2 * g + 1] = qq;
        CG_FENCE();
        s[0] = atomic_inc(count + blk) == in_blk - 1 ? 1 : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (s[0] == 0)   /* the same for the whole work-group */
        return;
    CG_FENCE();
    VALUE a, b;
    pairs_sum(s, tail + 2 * first, in_blk, &a, &b);   /* the last of its block */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        blocks[2 * blk] = a;
        blocks[2 * blk + 1] = b;
        count[blk] = 0;
        CG_FENCE();
        s[0] = atomic_inc(count + nb) == nb - 1 ? 1 : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (s[0] == 0)
        return;
    CG_FENCE();
    pairs_sum(s, blocks, nb, &a, &b);   /* the last block */
    if (lid == 0) {
        sums[0] = a;
        sums[1] = b;
        count[nb] = 0;
    }
}
#define CSR_DONE                                             \
    {                                                        \
        VALUE pq_ = CG_PQ_SUM(cg_pq);                        \
        VALUE qq_ = CG_PQ_SUM(cg_qq);                        \
        pairs_done(partial, y + rows, pq_, qq_);             \
    }
#else
#define CSR_DONE                                          \
    {                                                     \
        VALUE pq_ = CG_PQ_SUM(cg_pq);                     \
        VALUE qq_ = CG_PQ_SUM(cg_qq);                     \
        if (get_local_id(0) == 0) {                       \
            y[rows + 2 * get_group_id(0)] = pq_;          \
            y[rows + 2 * get_group_id(0) + 1] = qq_;      \
        }                                                 \
    }
#endif
#elif defined(CG_FUSED)
/* Chapter 6's hook (../step6-csr/kernel.cl): each row's q_i = (A p)_i is
 * stored as in chapter 6, and p_i * q_i added to the work-item's share of
 * p.q; after the rows, the work-group's sum goes to y[CG_PQ_SLOT], by
 * default y[rows + group]. x is p here, y is q. (Chapter 8 moves the slot:
 * its product runs in two launches.) */
#ifndef CG_PQ_SLOT
#define CG_PQ_SLOT (rows + get_group_id(0))
#endif
#define CSR_BEGIN VALUE cg_pq = 0;
#define CSR_STORE(row, sum)          \
    do {                             \
        VALUE q_ = (sum);            \
        y[row] = q_;                 \
        cg_pq += x[row] * q_;        \
    } while (0)
#define CSR_DONE                                     \
    {                                                \
        VALUE pq_ = CG_PQ_SUM(cg_pq);                \
        if (get_local_id(0) == 0)                    \
            y[CG_PQ_SLOT] = pq_;                     \
    }
#endif

/* ---- the vector kernels, both versions ---- */

/* part[group] = this work-group's share of a.b */
__kernel void cg_dot(const int n, __global const VALUE *restrict a, __global const VALUE *restrict b,
                     __global VALUE *restrict part, __local VALUE *scratch)
{
    VALUE v = 0;
    FOR_EACH(i, n)
        v += a[i] * b[i];
    v = wg_sum(scratch, v);
    if (get_local_id(0) == 0)
        part[get_group_id(0)] = v;
}

/* r = b - q, where q = A x: the true residual of the current x, and p = r,
 * with this work-group's share of r.r in part[group]. CG starts again from
 * there when its recurrence met the tolerance but the true residual did not
 * (rounding in x's and r's updates lets them drift apart). */
__kernel void cg_restart(const int n, __global const VALUE *restrict b, __global const VALUE *restrict q,
                         __global VALUE *restrict r, __global VALUE *restrict p, __global VALUE *restrict part,
                         __local VALUE *scratch)
{
    VALUE v = 0;
    FOR_EACH(i, n) {
        VALUE ri = b[i] - q[i];
        r[i] = ri;
        p[i] = ri;
        v += ri * ri;
    }
    v = wg_sum(scratch, v);
    if (get_local_id(0) == 0)
        part[get_group_id(0)] = v;
}

/* ---- plain: what a BLAS offers, alpha and beta from the host ---- */

/* y += alpha x */
__kernel void cg_axpy(const int n, const VALUE alpha, __global const VALUE *restrict x, __global VALUE *restrict y)
{
    FOR_EACH(i, n)
        y[i] += alpha * x[i];
}

/* p = r + beta p */
__kernel void cg_xpay(const int n, const VALUE beta, __global const VALUE *restrict r, __global VALUE *restrict p)
{
    FOR_EACH(i, n)
        p[i] = r[i] + beta * p[i];
}

/* ---- fused: alpha and beta never leave the device ----
 * scal[0] = r.r at the start of the iteration, scal[1] = alpha, scal[2] = the
 * p.Ap of a breakdown; state[0] = 0 running, 1 converged, 2 breakdown (once
 * not 0 it stays: cg_alpha still adds up the partials but writes nothing,
 * the two updates return at once, and the product, chapter 6's, still runs
 * in full; the x of the iteration that met the tolerance is kept, however
 * many more iterations the host launched before it looked); state[1] =
 * iterations done. */

/* One work-group: r.r (from cg_update_r's partials, or cg_dot's at the
 * start) and p.Ap (from the product's), the tests, alpha. */
__kernel void cg_alpha(const int nrr, __global const VALUE *restrict rr_part, const int npq,
                       __global const VALUE *restrict q, const int pq_at, const VALUE thresh,
                       __global VALUE *restrict scal, __global int *restrict state, __local VALUE *scratch)
{
    VALUE rr = sum_partials(scratch, nrr, rr_part);
    VALUE pq = sum_partials(scratch, npq, q + pq_at);   /* the product's partials, after q's rows */
    if (get_local_id(0) == 0 && state[0] == 0) {
        scal[0] = rr;
        if (rr <= thresh) {           /* before the iteration, as the host's CG tests */
            state[0] = 1;
        } else if (!(pq > 0)) {       /* NaN too */
            state[0] = 2;
            scal[2] = pq;
        } else {
            scal[1] = rr / pq;
            state[1] += 1;
        }
    }
}

/* r -= alpha q; part[group] = this work-group's share of the new r.r (here
 * and in chapter 8's classic version, whose alpha comes as an argument).
 * The kernels that call it say restrict; a helper that said it too would
 * leave, once inlined, an LLVM intrinsic oclgrind 21.10 cannot run. */
static void update_r(const int n, const VALUE alpha, __global const VALUE *q, __global VALUE *r,
                     __global VALUE *part, __local VALUE *scratch)
{
    VALUE v = 0;
    FOR_EACH(i, n) {
        VALUE ri = r[i] - alpha * q[i];
        r[i] = ri;
        v += ri * ri;
    }
    v = wg_sum(scratch, v);
    if (get_local_id(0) == 0)
        part[get_group_id(0)] = v;
}

/* x += alpha p; p = r + beta p, in one sweep (here and in chapter 8) */
static void update_xp(const int n, const VALUE alpha, const VALUE beta, __global VALUE *x, __global VALUE *p,
                      __global const VALUE *r)
{
    FOR_EACH(i, n) {
        VALUE pi = p[i];
        x[i] += alpha * pi;
        p[i] = r[i] + beta * pi;
    }
}

/* r -= alpha q; rr_part[group] = this work-group's share of the new r.r */
__kernel void cg_update_r(const int n, __global const VALUE *restrict q, __global VALUE *restrict r,
                          __global const VALUE *restrict scal, __global const int *restrict state,
                          __global VALUE *restrict rr_part, __local VALUE *scratch)
{
    if (state[0] != 0)   /* the same for the whole work-group: no barrier in update_r is skipped by some */
        return;
    update_r(n, scal[1], q, r, rr_part, scratch);
}

/* beta = (new r.r) / (old r.r); x += alpha p; p = r + beta p, in one sweep */
__kernel void cg_update_xp(const int n, __global VALUE *restrict x, __global VALUE *restrict p,
                           __global const VALUE *restrict r, __global const VALUE *restrict scal,
                           __global const int *restrict state, const int nrr,
                           __global const VALUE *restrict rr_part, __local VALUE *scratch)
{
    if (state[0] != 0)
        return;
    update_xp(n, scal[1], sum_partials(scratch, nrr, rr_part) / scal[0], x, p, r);
}

/* The pipelined update: x += alpha p; r -= alpha q; p = r + beta p, in one
 * sweep; returns this work-item's share of the new r.r */
static VALUE pipe_update(const int n, const VALUE alpha, const VALUE beta, __global VALUE *x, __global VALUE *r,
                         __global VALUE *p, __global const VALUE *q)
{
    VALUE v = 0;
    FOR_EACH(i, n) {
        VALUE pi = p[i], ri = r[i] - alpha * q[i];
        x[i] += alpha * pi;
        r[i] = ri;
        p[i] = ri + beta * pi;
        v += ri * ri;
    }
    return v;
}

/* ---- pipelined: 2 launches an iteration, 9 sweeps ----
 * After Rupp, Weinbub, Juengel and Grasser, "Pipelined iterative solvers
 * with kernel fusion for graphics processing units" (ACM TOMS, 2016), as
 * ViennaCL runs it: the product (the hook above) leaves the partials of p.Ap
 * and Ap.Ap; then one kernel, in every work-group, adds up those and the
 * partials of r.r, takes alpha = r.r / p.Ap and the next r.r without another
 * pass: since r.Ap = p.Ap,
 *   |r - alpha Ap|^2 = r.r - 2 alpha p.Ap + alpha^2 Ap.Ap = alpha^2 Ap.Ap - r.r,
 * so beta = (alpha^2 Ap.Ap - r.r) / r.r; and updates x, r and p in one sweep
 * (reads x, p, q, r; writes x, r, p), adding up the new r.r as it writes r,
 * for the next iteration's alpha and its test. Every work-group adds up the
 * same partials in the same order, so all take the same alpha, beta and
 * decision; work-group 0 alone writes scal and state (nothing in the kernel
 * reads them). The r.r partials it reads (rr_in) and those it writes
 * (rr_out) are two buffers, swapped every iteration (main.c): a work-group
 * still reading the old ones never sees a new one.
 * The tests, as cg_alpha's: r.r <= thresh (converged; thresh < 0: none),
 * p.Ap not > 0 (breakdown). Then nothing is updated and rr_out gets rr_in,
 * so every later launch finds the same partials and makes the same
 * decision, and the x of the iteration that met the tolerance is kept. */
__kernel void cg_pipelined(const int n, __global VALUE *restrict x, __global VALUE *restrict r,
                           __global VALUE *restrict p, __global const VALUE *restrict q, const int npq,
                           const int nrr, __global const VALUE *restrict rr_in, __global VALUE *restrict rr_out,
                           const VALUE thresh, __global VALUE *restrict scal, __global int *restrict state,
                           __local VALUE *scratch)
{
    VALUE rr = sum_partials(scratch, nrr, rr_in);
    /* the product's pairs (p.Ap, Ap.Ap) after q's rows: each work-item strides over pairs */
#ifdef CG_LAST_GROUP
    int nb = (npq + CG_BLOCK - 1) / CG_BLOCK;   /* the product's last work-groups added them up */
    VALUE pq = q[n + 2 * npq + 2 * nb], qq = q[n + 2 * npq + 2 * nb + 1];
#else
    VALUE pq = 0, qq = 0;
    for (int i = get_local_id(0); i < npq; i += get_local_size(0)) {
        pq += q[n + 2 * i];
        qq += q[n + 2 * i + 1];
    }
    pq = wg_sum(scratch, pq);
    qq = wg_sum(scratch, qq);
#endif
    int lead = get_group_id(0) == 0 && get_local_id(0) == 0;
    int done = thresh >= 0 && rr <= thresh, broken = !done && !(pq > 0);   /* NaN too */
    if (done || broken) {
        if (get_local_id(0) == 0)
            rr_out[get_group_id(0)] = rr_in[get_group_id(0)];
        if (lead) {
            state[0] = done ? 1 : 2;
            scal[0] = rr;
            scal[2] = pq;
        }
        return;
    }
    VALUE alpha = rr / pq, beta = (alpha * alpha * qq - rr) / rr;
    if (lead) {
        scal[0] = rr;
        scal[1] = alpha;
        state[1] += 1;
    }
    VALUE v = wg_sum(scratch, pipe_update(n, alpha, beta, x, r, p, q));
    if (get_local_id(0) == 0)
        rr_out[get_group_id(0)] = v;
}

#ifdef CG_PERSIST
/* (TUNING.md) The pipelined iteration, COUNT of them in one launch on a
 * grid every work-group of which runs at once (NVIDIA: as many work-groups
 * as the host launches, a few a multiprocessor), a grid-wide barrier
 * between its two halves: the product with p.Ap and Ap.Ap, then alpha,
 * beta and x, r, p with r.r, as cg_pipelined. OpenCL 1.2 does not promise
 * that the work-groups run at once: a spin past PERSIST_SPIN sets bar[2]
 * and the launch ends, which the host reports. */
#define PERSIST_SPIN (1 << 26)
static int grid_sync(__global volatile int *bar, __local int *ok)
{
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        int gen = bar[1], spins = 0;
        __asm__ __volatile__("membar.gl;" ::: "memory");
        if (atomic_inc(bar) == (int)get_num_groups(0) - 1) {
            bar[0] = 0;
            __asm__ __volatile__("membar.gl;" ::: "memory");
            atomic_inc(bar + 1);
        } else
            while (bar[1] == gen && ++spins < PERSIST_SPIN)
                ;
        if (spins >= PERSIST_SPIN)
            bar[2] = 1;
        __asm__ __volatile__("membar.gl;" ::: "memory");
        *ok = bar[2] == 0;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    return *ok;
}
/* the sum of part[0..count), every work-group the same */
static VALUE grid_partials(__local VALUE *s, __global const VALUE *part, int count, int stride)
{
    VALUE v = 0;
    for (int i = get_local_id(0); i < count; i += get_local_size(0))
        v += part[stride * i];
    return wg_sum(s, v);
}
__kernel void cg_persist(const int n, const int count, const VALUE thresh, __global const int *restrict ptr,
                         __global const int *restrict col, __global const VALUE *restrict val, __global VALUE *x,
                         __global VALUE *r, __global VALUE *p, __global VALUE *q, const int nrr,
                         __global VALUE *rrp, __global VALUE *pair, __global VALUE *scal, __global int *state,
                         __global volatile int *bar, __local VALUE *scratch)
{
    __local int ok;
    if (state[0] != 0)
        return;
    int g = get_group_id(0), ng = get_num_groups(0), lid = get_local_id(0);
    int gid = get_global_id(0), gs = get_global_size(0);
    VALUE rr = grid_partials(scratch, rrp, nrr, 1);
    for (int it = 0; it < count; it++) {
        VALUE pq = 0, qq = 0;
        for (int i = gid; i < n; i += gs) {   /* q = A p, a row a work-item, as chapter 6's csr_scalar */
            VALUE s = 0;
            for (int k = ptr[i]; k < ptr[i + 1]; k++)
                s += val[k] * p[col[k]];
            q[i] = s;
            pq += p[i] * s;
            qq += s * s;
        }
        pq = wg_sum(scratch, pq);
        qq = wg_sum(scratch, qq);
        if (lid == 0)
            pair[2 * g] = pq, pair[2 * g + 1] = qq;
        if (!grid_sync(bar, &ok))
            break;
        pq = grid_partials(scratch, pair, ng, 2);
        qq = grid_partials(scratch, pair + 1, ng, 2);
        int done = thresh >= 0 && rr <= thresh, broken = !done && !(pq > 0);
        if (done || broken) {
            if (g == 0 && lid == 0) {
                state[0] = done ? 1 : 2;
                scal[0] = rr;
                scal[2] = pq;
            }
            break;
        }
        VALUE alpha = rr / pq, beta = (alpha * alpha * qq - rr) / rr;
        if (g == 0 && lid == 0) {
            scal[0] = rr;
            scal[1] = alpha;
            state[1] += 1;
        }
        VALUE v = wg_sum(scratch, pipe_update(n, alpha, beta, x, r, p, q));
        if (lid == 0)
            pair[2 * ng + g] = v;
        if (!grid_sync(bar, &ok))
            break;
        rr = grid_partials(scratch, pair + 2 * ng, ng, 1);
    }
    if (g == 0)   /* r.r for the next launch and the host: the partials' first, the rest 0 */
        for (int i = lid; i < nrr; i += get_local_size(0))
            rrp[i] = i ? 0 : rr;
}
#endif
