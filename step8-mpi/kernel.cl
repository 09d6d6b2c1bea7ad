/* step8-mpi/kernel.cl - the kernels of one rank's share of a distributed CG.
 *
 * What changed from step 7: a rank holds a block of the rows, so a dot
 * product on the device is only this rank's share; the host adds the ranks'
 * shares with MPI_Allreduce, and alpha and beta come back to the device as
 * arguments. The product is still chapter 6's csr_scalar or csr_vector, run
 * twice an iteration over the local matrix (split/split.h): first the
 * interior rows, which read only this rank's entries, while the host
 * exchanges the halo; then the boundary rows, which read the ghosts (the
 * entries after the nloc own ones). main.c builds step 7's kernel.cl (its
 * FOR_EACH, wg_sum, sum_partials, update_r, update_xp, cg_dot, cg_restart,
 * and with -DCG_FUSED its hook on chapter 6's product), this file, then
 * chapter 6's kernel.cl, as one program:
 *
 *   classic (two reductions an iteration, the textbook CG of
 *   step7-cg/reference/cg.h):
 *     product q = A p, with this rank's share of p.q   -> MPI_Allreduce: alpha
 *     d8_update_r: r -= alpha q, with the share of r.r  -> MPI_Allreduce: beta
 *     d8_update_xp: x += alpha p; p = r + beta p
 *   single (Chronopoulos and Gear, 1989: one reduction an iteration):
 *     d8_update_all: p = r + beta p; s = w + beta s; x += alpha p;
 *                    r -= alpha s, with the share of r.r
 *     product w = A r, with the share of w.r           -> MPI_Allreduce of both
 *     (the host: beta = rr'/rr, alpha = rr' / (w.r - beta rr' / alpha))
 *
 * Where the shares go: the product's after its output's Q_ROWS rows, one
 * slot a work-group; d8_update_all's after those (at Q_ROWS + NPQ), so one
 * read brings both; d8_update_r's into part. The product's slot is its
 * work-group's place in the whole range (get_global_id / get_local_size):
 * the boundary launch starts at a global offset, and its slots follow the
 * interior launch's.
 *
 * Assumes: Q_ROWS (this rank's rows) and NPQ (the product's work-groups over
 * all its rows) given with -D; the interior launch ends at a whole
 * work-group (main.c rounds the interior rows down to one).
 */

/* Chapter 7's hook (main.c builds with -DCG_FUSED: step 7's kernel.cl
 * defines it, chapter 6's kernels call it), the slot of each work-group's
 * share moved to its place in the whole range: both launches' slots follow
 * q's Q_ROWS rows, one after another. (The macro is expanded where chapter
 * 6's kernels use it, after this file.) */
#undef CG_PQ_SLOT
#define CG_PQ_SLOT (Q_ROWS + get_global_id(0) / get_local_size(0))

/* out[k] = v[idx[k]]: the entries the other ranks read, packed for one read */
__kernel void d8_pack(const int count, __global const int *restrict idx, __global const VALUE *restrict v,
                      __global VALUE *restrict out)
{
    FOR_EACH(k, count)
        out[k] = v[idx[k]];
}

/* v[n + k] = ghost[k]: the ghosts the host wrote (into a buffer of their
 * own, whole), after v's own n entries. Not a host write at an offset:
 * oclgrind's check of uninitialized values counts the bytes of a buffer
 * past a host write's end as never written, even those a kernel wrote. */
__kernel void d8_unpack(const int count, const int n, __global const VALUE *restrict ghost,
                        __global VALUE *restrict v)
{
    FOR_EACH(k, count)
        v[n + k] = ghost[k];
}

/* One work-group: out[0] = the sum of a[at_a ..] (na values), out[1] = of
 * b[at_b ..] (nb; 0: none). The shares of a dot product added up on the
 * device, so the host reads one value, not one a work-group (65,536 of the
 * product's at 4096^2). */
__kernel void d8_sums(const int na, __global const VALUE *restrict a, const int at_a, const int nb,
                      __global const VALUE *restrict b, const int at_b, __global VALUE *restrict out,
                      __local VALUE *scratch)
{
    VALUE sa = sum_partials(scratch, na, a + at_a), sb = sum_partials(scratch, nb, b + at_b);
    if (get_local_id(0) == 0) {
        out[0] = sa;
        out[1] = sb;
    }
}

/* classic: r -= alpha q; part[group] = this work-group's share of r.r
 * (step 7's update_r, alpha an argument here) */
__kernel void d8_update_r(const int n, const VALUE alpha, __global const VALUE *restrict q,
                          __global VALUE *restrict r, __global VALUE *restrict part, __local VALUE *scratch)
{
    update_r(n, alpha, q, r, part, scratch);
}

/* classic: x += alpha p; p = r + beta p, in one sweep (step 7's update_xp) */
__kernel void d8_update_xp(const int n, const VALUE alpha, const VALUE beta, __global VALUE *restrict x,
                           __global VALUE *restrict p, __global const VALUE *restrict r)
{
    update_xp(n, alpha, beta, x, p, r);
}

/* single: the four updates in one sweep (5 vectors read, 4 written); the
 * share of the new r.r goes to w[Q_ROWS + NPQ + group] */
__kernel void d8_update_all(const int n, const VALUE alpha, const VALUE beta, __global VALUE *restrict x,
                            __global VALUE *restrict p, __global VALUE *restrict s, __global VALUE *restrict r,
                            __global VALUE *restrict w, __local VALUE *scratch)
{
    VALUE v = 0;
    FOR_EACH(i, n) {
        VALUE pi = r[i] + beta * p[i], si = w[i] + beta * s[i], ri = r[i] - alpha * si;
        p[i] = pi;
        s[i] = si;
        x[i] += alpha * pi;
        r[i] = ri;
        v += ri * ri;
    }
    v = wg_sum(scratch, v);
    if (get_local_id(0) == 0)
        w[Q_ROWS + NPQ + get_group_id(0)] = v;
}
