/* step9-pcg/kernel.cl - preconditioned CG: chapter 7's fused loop with
 * z = M^-1 r in it, and the triangular solves of incomplete Cholesky.
 *
 * What changed from step 7: CG on A x = b takes about sqrt(kappa)
 * iterations. Preconditioned CG runs the same loop on a system whose
 * condition number is smaller, M^-1 A with M close to A and M z = r cheap to
 * solve: each iteration applies M^-1 once (z = M^-1 r), and alpha and beta
 * take r.z where CG took r.r (step9-pcg/README.md has the algorithm).
 *
 * The program is three files, built in this order as one: chapter 7's
 * kernel.cl with -DCG_FUSED (its FOR_EACH, wg_sum, sum_partials and the
 * product's hook, which adds up p.Ap), this file, then chapter 6's
 * kernel.cl (the product q = A p, csr_scalar or csr_vector, unchanged).
 * An iteration, fused as in chapter 7 (the host reads the state every K):
 *
 *   q = A p, and the partials of p.q            chapter 6's product
 *   pcg_alpha: r.r, r.z, p.q summed; the tests; alpha = r.z / p.q
 *   pcg_update_r: r -= alpha q, the partials of r.r (and of r.z where z
 *     needs no solve: none, z = r; Jacobi, z = r / diag(A))
 *   IC(0) only: z = U^-1 (L^-1 r) (below), then pcg_dot: the partials of r.z
 *   pcg_update_xp: beta = (new r.z) / (old r.z); x += alpha p; p = z + beta p
 *
 * The preconditioner is chosen when the program is built: -DPC_NONE (z is
 * r: chapter 7's fused CG), -DPC_JACOBI (z_i = r_i / a_ii, never stored),
 * -DPC_SOLVE (z a vector the triangular solves write).
 *
 * The triangular solves: T y = v, T = L (the diagonal last in each row; a
 * row reads the rows above it) or U = L^T (the diagonal first; a row reads
 * the rows below it). Row i needs y_j of the rows it reads first, so the
 * rows are grouped into levels (factor/factor.c computes them once): the rows of one
 * level read only rows of earlier levels, and are solved side by side.
 *   trsv_level: the rows of one level, one a work-item, one launch;
 *   trsv_chain: one work-group through a run of narrow levels, a barrier
 *     between two levels instead of a launch (--wide 1 launches each);
 *   trsv_sweep: one Jacobi sweep, y' = D^-1 (v - (T - D) y), every row at
 *     once: a few sweeps approximate the solve (Anzt, Chow and Dongarra).
 */
#ifndef VALUE
#define VALUE float
#endif

#if defined(PC_JACOBI)
#define Z(i) (r[i] * dinv[i])
#elif defined(PC_SOLVE)
#define Z(i) (z[i])
#else
#define Z(i) (r[i])
#endif

/* One work-group: r.r (the stopping test's), r.z (alpha's) and p.Ap (the
 * product's partials, after q's rows); the tests; alpha.
 * scal[0] = r.z, scal[1] = alpha, scal[2] = the p.Ap (or r.z) of a
 * breakdown, scal[3] = r.r; state[0] = 0 running, 1 converged, 2 breakdown
 * (once not 0 it stays, as in chapter 7); state[1] = iterations done. */
/* The tests and alpha, from r.r, r.z and p.Ap, by one work-item (pcg_alpha's,
 * pcg_persistent's); returns whether the iteration goes on. --kappa
 * (PCG_HISTORY): alpha and beta of the first PCG_HISTORY iterations kept
 * in scal[4 ..] for the Lanczos estimate (report.c) */
static int pcg_tests(const VALUE rr, const VALUE rz, const VALUE pq, const VALUE thresh, __global VALUE *scal,
                     __global int *state)
{
    scal[0] = rz;
    scal[3] = rr;
    if (rr <= thresh) {                     /* |r| as chapter 7 tests it: the same tolerance */
        state[0] = 1;
        return 0;
    }
    if (!(pq > 0) || !(rz > 0)) {           /* A or M not positive definite (NaN too) */
        state[0] = 2;
        scal[2] = pq > 0 ? rz : pq;
        return 0;
    }
    scal[1] = rz / pq;
#ifdef PCG_HISTORY
    if (state[1] < PCG_HISTORY)
        scal[4 + 2 * state[1]] = scal[1];
#endif
    state[1] += 1;
    return 1;
}
#ifdef PCG_HISTORY   /* beta of the iteration state[1] counts (pcg_tests has counted it), into the caller's scal */
#define KEEP_BETA(beta)                       \
    do {                                      \
        if (state[1] <= PCG_HISTORY)          \
            scal[4 + 2 * state[1] - 1] = beta; \
    } while (0)
#else
#define KEEP_BETA(beta) \
    do {                \
    } while (0)
#endif

__kernel void pcg_alpha(const int ng, __global const VALUE *restrict rr_part, __global const VALUE *restrict rz_part,
                        const int npq, __global const VALUE *restrict q, const int pq_at, const VALUE thresh,
                        __global VALUE *restrict scal, __global int *restrict state, __local VALUE *scratch)
{
    VALUE rr = sum_partials(scratch, ng, rr_part);
    VALUE rz = sum_partials(scratch, ng, rz_part);
    VALUE pq = sum_partials(scratch, npq, q + pq_at);
    if (get_local_id(0) == 0 && state[0] == 0)
        (void)pcg_tests(rr, rz, pq, thresh, scal, state);
}

/* r -= alpha q, the partials of r.r; of r.z too where z needs no solve */
__kernel void pcg_update_r(const int n, __global const VALUE *restrict q, __global VALUE *restrict r,
                           __global const VALUE *restrict dinv, __global const VALUE *restrict scal,
                           __global const int *restrict state, __global VALUE *restrict rr_part,
                           __global VALUE *restrict rz_part, __local VALUE *scratch)
{
    if (state[0] != 0)   /* the same for the whole work-group */
        return;
    VALUE alpha = scal[1], vr = 0, vz = 0;
    FOR_EACH(i, n) {
        VALUE ri = r[i] - alpha * q[i];
        r[i] = ri;
        vr += ri * ri;
#ifdef PC_JACOBI
        vz += ri * ri * dinv[i];
#endif
    }
    vr = wg_sum(scratch, vr);
#ifdef PC_JACOBI
    vz = wg_sum(scratch, vz);
#else
    vz = vr;   /* none: z = r; a solve: pcg_dot writes r.z after it */
#endif
    if (get_local_id(0) == 0) {
        rr_part[get_group_id(0)] = vr;
#ifndef PC_SOLVE
        rz_part[get_group_id(0)] = vz;
#endif
    }
}

/* After the solves: the partials of r.z */
__kernel void pcg_dot(const int n, __global const VALUE *restrict r, __global const VALUE *restrict z,
                      __global const int *restrict state, __global VALUE *restrict rz_part, __local VALUE *scratch)
{
    if (state[0] != 0)
        return;
    VALUE v = 0;
    FOR_EACH(i, n)
        v += r[i] * z[i];
    v = wg_sum(scratch, v);
    if (get_local_id(0) == 0)
        rz_part[get_group_id(0)] = v;
}

/* beta = (new r.z) / (old r.z); x += alpha p; p = z + beta p, in one sweep */
__kernel void pcg_update_xp(const int n, __global VALUE *restrict x, __global VALUE *restrict p,
                            __global const VALUE *restrict r, __global const VALUE *restrict z,
                            __global const VALUE *restrict dinv, __global VALUE *restrict scal,
                            __global const int *restrict state, const int ng, __global const VALUE *restrict rz_part,
                            __local VALUE *scratch)   /* scal written only with --kappa (PCG_HISTORY) */
{
    if (state[0] != 0)
        return;
    VALUE alpha = scal[1], beta = sum_partials(scratch, ng, rz_part) / scal[0];
    if (get_global_id(0) == 0)
        KEEP_BETA(beta);
    FOR_EACH(i, n) {
        VALUE pi = p[i];
        x[i] += alpha * pi;
        p[i] = Z(i) + beta * pi;
    }
}

/* A solve starts (or starts again) with r and z = M^-1 r: p = z, and the
 * partials of r.r and r.z. restart: r = b - q first (q = A x, the true
 * residual of the current x). */
__kernel void pcg_start(const int n, const int restart, __global const VALUE *restrict b,
                        __global const VALUE *restrict q, __global VALUE *restrict r, __global VALUE *restrict p,
                        __global const VALUE *restrict z, __global const VALUE *restrict dinv,
                        __global VALUE *restrict rr_part, __global VALUE *restrict rz_part, __local VALUE *scratch)
{
    VALUE vr = 0, vz = 0;
    FOR_EACH(i, n) {
        if (restart)
            r[i] = b[i] - q[i];
        VALUE ri = r[i], zi = Z(i);
        p[i] = zi;
        vr += ri * ri;
        vz += ri * zi;
    }
    vr = wg_sum(scratch, vr);
    vz = wg_sum(scratch, vz);
    if (get_local_id(0) == 0) {
        rr_part[get_group_id(0)] = vr;
        rz_part[get_group_id(0)] = vz;
    }
}

/* ---- the triangular solves ---- */

/* The level forms hold the factor by position in the level order
 * (device.c): the row at position k is i = order[k], and its entries are
 * at ptr[k] .. ptr[k + 1], in its own order (L: the diagonal last; U:
 * first). A level's rows are then side by side in memory, and nothing but
 * y needs a row solved before: a row's setup (its start, v_i, 1 / t_ii and
 * its first TRSV_AHEAD columns and values) is fetched before y is read. */
#define TRSV_AHEAD 4
typedef struct {
    int i, a, e;   /* the row; its off-diagonal entries a .. e */
    VALUE s, dinv;
    int c[TRSV_AHEAD];
    VALUE w[TRSV_AHEAD];
} trsv_pos;

static trsv_pos trsv_fetch(const int k, const int lower, __global const int *order, __global const int *ptr,
                           __global const int *col, __global const VALUE *val, __global const VALUE *v)
{
    trsv_pos r;
    int a = ptr[k], b = ptr[k + 1];
    r.i = order[k];
    r.s = v[r.i];
    r.dinv = lower ? val[b - 1] : val[a];
    r.a = lower ? a : a + 1;
    r.e = lower ? b - 1 : b;
#pragma unroll
    for (int j = 0; j < TRSV_AHEAD; j++)
        if (r.a + j < r.e) {
            r.c[j] = col[r.a + j];
            r.w[j] = val[r.a + j];
        }
    return r;
}

/* y_i = (v_i - sum_{j != i} t_ij y_j) / t_ii, the entries in their order;
 * the diagonal is stored as its reciprocal 1 / t_ii (device.c): a
 * multiplication, not a division */
static void trsv_finish(const trsv_pos r, __global const int *col, __global const VALUE *val, __global VALUE *y)
{
    VALUE s = r.s;
#pragma unroll
    for (int j = 0; j < TRSV_AHEAD; j++)
        if (r.a + j < r.e)
            s -= r.w[j] * y[r.c[j]];
    for (int k = r.a + TRSV_AHEAD; k < r.e; k++)
        s -= val[k] * y[col[k]];
    y[r.i] = s * r.dinv;
}

/* The rows at positions begin .. end-1 (one level), a row a work-item */
__kernel void trsv_level(const int begin, const int end, __global const int *restrict order, const int lower,
                         __global const int *restrict ptr, __global const int *restrict col,
                         __global const VALUE *restrict val, __global const VALUE *restrict v, __global VALUE *y)
{
    int k = begin + (int)get_global_id(0);
    if (k < end)
        trsv_finish(trsv_fetch(k, lower, order, ptr, col, val, v), col, val, y);
}

/* Levels l0 .. l1-1 by one work-group: each work-item strides over a
 * level's rows, then a barrier (whose global fence makes the level's y
 * visible to the whole work-group) before the next level. Each
 * work-item's first row of the next level is fetched before that barrier:
 * after it, only y's loads wait. On a GPU the work-group's size is fixed
 * at build time (CHAIN_WG, device/device.c), so that the compiler fits its
 * registers to it. */
__kernel
#ifdef CHAIN_WG
__attribute__((reqd_work_group_size(CHAIN_WG, 1, 1)))
#endif
void trsv_chain(const int l0, const int l1, __global const int *restrict lev_ptr,
                __global const int *restrict order, const int lower, __global const int *restrict ptr,
                __global const int *restrict col, __global const VALUE *restrict val,
                __global const VALUE *restrict v, __global VALUE *y)
{
    int lid = (int)get_local_id(0), ls = (int)get_local_size(0);
    int k = lev_ptr[l0] + lid, end = lev_ptr[l0 + 1];
    trsv_pos r;
    if (k < end)
        r = trsv_fetch(k, lower, order, ptr, col, val, v);
    for (int l = l0; l < l1; l++) {
        if (k < end) {
            trsv_finish(r, col, val, y);
            for (k += ls; k < end; k += ls)
                trsv_finish(trsv_fetch(k, lower, order, ptr, col, val, v), col, val, y);
        }
        if (l + 1 < l1) {   /* the next level's first row, before the barrier */
            k = end + lid;
            end = lev_ptr[l + 2];
            if (k < end)
                r = trsv_fetch(k, lower, order, ptr, col, val, v);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}

/* One Jacobi sweep of T y = v: y_out = D^-1 (v - (T - D) y_in), every row
 * at once; first (first != 0): y_out = D^-1 v (y_in not read). */
__kernel void trsv_sweep(const int n, const int first, const int lower, __global const int *restrict ptr,
                         __global const int *restrict col, __global const VALUE *restrict val,
                         __global const VALUE *restrict v, __global const VALUE *restrict y_in,
                         __global VALUE *restrict y_out)
{
    FOR_EACH(i, n) {
        int a = ptr[i], b = ptr[i + 1];
        VALUE dinv = lower ? val[b - 1] : val[a], s = v[i];
        if (!first)
            for (int k = lower ? a : a + 1; k < (lower ? b - 1 : b); k++)
                s -= val[k] * y_in[col[k]];
        y_out[i] = s * dinv;
    }
}

/* Synchronization-free (after Liu, Li, Hogg, Duff and Vinter, Euro-Par 2016):
 * no levels. A work-item a row (ROW_LANES 1; -DSYNC_LANES builds 2 to 32,
 * a row's entries summed side by side: TUNING.md, entry 8). Each lane takes some of the row's entries,
 * waits until the y_j each reads is no longer marked unsolved (trsv_mark,
 * launched first), and adds up its products; with 32 lanes the warp's sum
 * by shuffles; the row's first lane solves it and stores y_i, which is
 * what its readers wait on (one 4- or 8-byte store: a reader sees the
 * mark or the value, never a part). A row may
 * wait only on rows handed out before it: each work-group takes the next
 * rows from a counter (ticket[0]) when it starts, so the rows a row waits
 * on belong to work-groups already running, which finish without waiting
 * on it. That relies on what OpenCL 1.2 does not promise: a running
 * work-group keeps running while another spins, and lanes of one warp that
 * wait on each other's rows are scheduled apart (both hold on NVIDIA's GPUs
 * since Volta); device/device.c builds it only there (-DSYNC_FREE, with
 * WARP_SHUFFLE) and never on a CPU, where the first would not hold. A spin
 * is bounded all the same: past SPIN_LIMIT reads a lane gives up, the row
 * becomes NaN (which the checks then catch) and *fail is set. y is
 * volatile: each read goes to memory, not to an older copy in a core's
 * cache. (-DSYNC_FLAGS: the first form, a flag a row holding the solve's
 * stamp, raised after a membar.gl that makes y_i visible; TUNING.md,
 * entries 3 and 7.) The last work-group to finish (ticket[1] counts them)
 * sets both counters back to 0 for the next solve. */
#ifdef SYNC_FREE
#define SPIN_LIMIT (1 << 22)
#ifndef ROW_LANES
#define ROW_LANES 1
#endif
static VALUE shfl_down(VALUE v, int s);   /* chapter 6's kernel.cl, built after this file */
#if ROW_LANES > 1 && ROW_LANES < 32
/* A row's lanes a segment of a warp (-DSYNC_LANES, TUNING.md, entry 8):
 * the shuffle waits on the segment's own lanes (mask), not the whole warp,
 * whose other rows may be spinning on this one */
static uint seg_down32(uint v, int s, uint mask)
{
    uint r, c = ((32 - ROW_LANES) << 8) | 0x1f;
    __asm__ __volatile__("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(s), "r"(c), "r"(mask));
    return r;
}
static VALUE seg_down(VALUE v, int s, uint mask)
{
#ifdef USE_FP64
    uint2 b = as_uint2(v);
    return as_double((uint2)(seg_down32(b.x, s, mask), seg_down32(b.y, s, mask)));
#else
    return as_float(seg_down32(as_uint(v), s, mask));
#endif
}
#endif
#ifdef SYNC_RELEASE
/* (TUNING.md) the flag written with release and read with acquire, PTX 6.0's scoped forms, for the full fence */
static int acquire(__global volatile int *p)
{
    int v;
    __asm__ __volatile__("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
#define DONE(j) acquire(done + (j))
#define RAISE(i) __asm__ __volatile__("st.release.gpu.global.s32 [%0], %1;" ::"l"(done + (i)), "r"(stamp) : "memory")
#else
#define DONE(j) (done[j])
#define RAISE(i)                                                \
    do {                                                        \
        __asm__ __volatile__("membar.gl;" ::: "memory");        \
        done[i] = stamp;                                        \
    } while (0)
#endif
/* Every y_i marked unsolved before a solve: a NaN no arithmetic makes (a
 * signalling one, with its own payload), so that a row waits on the value
 * it reads itself, not on a flag and then the value (-DSYNC_FLAGS: the
 * flags; TUNING.md, entry 7) */
#ifdef USE_FP64
#define UNSOLVED_BITS 0x7FF4DEAD5EED0001UL
#define UNSOLVED as_double(UNSOLVED_BITS)
#define IS_UNSOLVED(x) (as_ulong(x) == UNSOLVED_BITS)
#else
#define UNSOLVED_BITS 0x7FA0BEEFU
#define UNSOLVED as_float(UNSOLVED_BITS)
#define IS_UNSOLVED(x) (as_uint(x) == UNSOLVED_BITS)
#endif
__kernel void trsv_mark(const int n, __global VALUE *y)
{
    FOR_EACH(i, n)
        y[i] = UNSOLVED;
}

__kernel void trsv_syncfree(const int n, const int lower, __global const int *restrict ptr,
                            __global const int *restrict col, __global const VALUE *restrict val,
                            __global const VALUE *restrict v, __global volatile VALUE *y, __global volatile int *done,
                            const int stamp, __global volatile int *ticket, __global volatile int *fail)
{
    __local int first;
    int lid = (int)get_local_id(0), lane = lid % ROW_LANES;
    if (lid == 0)
        first = atomic_add(ticket, (int)get_local_size(0) / ROW_LANES);
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = first + lid / ROW_LANES;
    if (s < n) {   /* the same for a row's lanes */
        int i = lower ? s : n - 1 - s, a = ptr[i], b = ptr[i + 1];
        VALUE part = 0;
        /* the row's entries from the farthest column to the nearest (L: up
         * the columns, U: down them): the rows solved last come last, while
         * the loads of the others are already under way (TUNING.md, entry 10) */
        int far = lower ? a : b - 1, step = lower ? 1 : -1;
#ifndef SYNC_FLAGS
        /* each entry's column and value loaded one entry ahead, before
         * the wait on the entry before: when y_j comes in, l_ij is already
         * here (in natural order the last y_j a row waits on is the row
         * before, solved just now; without this, l_ij's load followed
         * the wait; a guess: often from memory: TUNING.md, entry 15) */
        int len = b - a - 1, t = lane, jn = 0;
        VALUE an = 0;
        if (t < len)
            jn = col[far + step * t], an = val[far + step * t];
        for (; t < len; t += ROW_LANES) {
            int j = jn;
            VALUE w = an;
            if (t + ROW_LANES < len)
                jn = col[far + step * (t + ROW_LANES)], an = val[far + step * (t + ROW_LANES)];
            VALUE yj = y[j];
            for (int spins = 0; IS_UNSOLVED(yj); spins++) {
                if (spins == SPIN_LIMIT) {
                    *fail = 1;
                    yj = NAN;
                    break;
                }
                yj = y[j];
            }
            part += w * yj;
        }
#else
        for (int t = lane; t < b - a - 1; t += ROW_LANES) {
            int k = far + step * t, j = col[k];
            for (int spins = 0; DONE(j) != stamp; spins++)
                if (spins == SPIN_LIMIT) {
                    *fail = 1;
                    part = NAN;
                    break;
                }
            part += val[k] * y[j];
        }
#endif
#if ROW_LANES == 32
        for (int w = 16; w > 0; w >>= 1)
            part += shfl_down(part, w);
#elif ROW_LANES > 1
        uint seg = ((1u << ROW_LANES) - 1) << ((get_local_id(0) % 32) & ~(ROW_LANES - 1));
        for (int w = ROW_LANES / 2; w > 0; w >>= 1)
            part += seg_down(part, w, seg);
#endif
        if (lane == 0) {
            y[i] = (v[i] - part) * (lower ? val[b - 1] : val[a]);
#ifdef SYNC_FLAGS
            RAISE(i);
#endif
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0 && atomic_inc(ticket + 1) == (int)get_num_groups(0) - 1) {
        ticket[0] = 0;
        ticket[1] = 0;
    }
}
#endif

/* ---- The whole loop in one work-item (ic0-persistent: a CPU device) ----
 * On PoCL ic0's iteration on the collection's small files takes 46 to 51
 * us (medians), its two solves 2.1 to 5.2 (README.md, the PoCL tables);
 * the rest holds five more launches and a read-back an iteration. Here
 * the loop itself runs on the device, COUNT iterations a launch, with the
 * same tests and the same state as pcg_alpha's. r.r and r.z come in as
 * the partials pcg_start (or the last launch) left, and go out in the
 * first. Both solves read L alone, held by position in its order (device.c:
 * row order[k] at ptr[k], the diagonal last, as 1 / l_ii; the order L's
 * level order, or natural order where L's rows are long: persist_natural):
 * L's takes the rows one after another in that order;
 * L^T's takes L's rows in the reverse order, each as a column of L^T: once
 * z_j is known, z_j l_ji comes off z_i for each i < j of row j (as PETSc's
 * ICC solves from one triangle), so the solve needs no U (the check makes
 * U after the solve). The rows of a level read none of each other; in
 * natural order a grid's row reads the one just before it: TUNING.md,
 * entries 14 and 18, measure what the order changes. The loop's product and
 * solves are csr_rows, trsv_lower and trsv_upper, which csr_serial,
 * trsv_serial and trsv_serial_t run too: the checks run the loop's own
 * product and solves (not the p.q and r.z they add up on the way). */
#ifdef PC_SOLVE
/* q = A p, row after row; returns p.q */
static VALUE csr_rows(const int n, __global const int *ptr, __global const int *col, __global const VALUE *val,
                      __global const VALUE *p, __global VALUE *q)
{
    VALUE pq = 0;
    for (int i = 0; i < n; i++) {
        VALUE s = 0;
        for (int k = ptr[i]; k < ptr[i + 1]; k++)
            s += val[k] * p[col[k]];
        q[i] = s;
        pq += p[i] * s;
    }
    return pq;
}

/* L y = v, the rows in their order (L's level order, or natural) */
static void trsv_lower(const int n, __global const int *ptr, __global const int *col, __global const VALUE *val,
                       __global const int *order, __global const VALUE *v, __global VALUE *y)
{
    for (int k = 0; k < n; k++) {
        int i = order[k], a = ptr[k], b = ptr[k + 1];
        VALUE t = v[i];
        for (int j = a; j < b - 1; j++)
            t -= val[j] * y[col[j]];
        y[i] = t * val[b - 1];
    }
}

/* L^T z = (z as it comes), in place, L's rows in the reverse of that order;
 * returns r.z */
static VALUE trsv_upper(const int n, __global const int *ptr, __global const int *col, __global const VALUE *val,
                        __global const int *order, __global const VALUE *r, __global VALUE *z)
{
    VALUE rz = 0;
    for (int k = n - 1; k >= 0; k--) {
        int j = order[k], a = ptr[k], b = ptr[k + 1];
        VALUE zj = z[j] * val[b - 1];
        z[j] = zj;
        for (int m = a; m < b - 1; m++)
            z[col[m]] -= val[m] * zj;
        rz += r[j] * zj;
    }
    return rz;
}

/* q = A p as pcg_persistent makes it: what step9 checks its product with */
__kernel void csr_serial(const int n, __global const int *restrict ptr, __global const int *restrict col,
                         __global const VALUE *restrict val, __global const VALUE *restrict p,
                         __global VALUE *restrict q)
{
    (void)csr_rows(n, ptr, col, val, p, q);
}

/* L y = v as pcg_persistent solves it */
__kernel void trsv_serial(const int n, __global const int *restrict ptr, __global const int *restrict col,
                          __global const VALUE *restrict val, __global const int *restrict order,
                          __global const VALUE *restrict v, __global VALUE *restrict y)
{
    trsv_lower(n, ptr, col, val, order, v, y);
}

/* L^T z = v as pcg_persistent solves it: z = v, then in place */
__kernel void trsv_serial_t(const int n, __global const int *restrict ptr, __global const int *restrict col,
                            __global const VALUE *restrict val, __global const int *restrict order,
                            __global const VALUE *restrict v, __global VALUE *restrict z)
{
    for (int i = 0; i < n; i++)
        z[i] = v[i];
    (void)trsv_upper(n, ptr, col, val, order, v, z);
}

__kernel void pcg_persistent(const int n, const int count, const VALUE thresh, __global const int *restrict ptr,
                             __global const int *restrict col, __global const VALUE *restrict val,
                             __global const int *restrict lp, __global const int *restrict lc,
                             __global const VALUE *restrict lv, __global const int *restrict lo,
                             __global VALUE *restrict x, __global VALUE *restrict r, __global VALUE *restrict p,
                             __global VALUE *restrict q, __global VALUE *restrict z, const int ng,
                             __global VALUE *restrict rr_part, __global VALUE *restrict rz_part,
                             __global VALUE *restrict scal, __global int *restrict state)
{
    if (state[0] != 0)
        return;
    VALUE rr = 0, rz = 0;
    for (int g = 0; g < ng; g++) {
        rr += rr_part[g];
        rz += rz_part[g];
    }
    for (int it = 0; it < count; it++) {
        VALUE pq = csr_rows(n, ptr, col, val, p, q);   /* q = A p, p.q */
        if (!pcg_tests(rr, rz, pq, thresh, scal, state))   /* pcg_alpha's tests */
            break;
        VALUE alpha = scal[1];
        rr = 0;
        for (int i = 0; i < n; i++) {   /* x += alpha p; r -= alpha q, r.r */
            x[i] += alpha * p[i];
            VALUE ri = r[i] - alpha * q[i];
            r[i] = ri;
            rr += ri * ri;
        }
        trsv_lower(n, lp, lc, lv, lo, r, z);   /* z = L^-T (L^-1 r), r.z */
        VALUE rz_new = trsv_upper(n, lp, lc, lv, lo, r, z);
        VALUE beta = rz_new / rz;
        KEEP_BETA(beta);
        rz = rz_new;
        for (int i = 0; i < n; i++)   /* p = z + beta p */
            p[i] = z[i] + beta * p[i];
    }
    for (int g = 0; g < ng; g++) {
        rr_part[g] = g ? 0 : rr;
        rz_part[g] = g ? 0 : rz;
    }
}
#endif
