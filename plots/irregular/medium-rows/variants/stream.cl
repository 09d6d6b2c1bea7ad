/* step6-csr/kernel.cl - CSR, the general format: the thesis's two kernels.
 *
 * What changed from step 5: the matrix is no longer stored by diagonals. CSR
 * keeps only the nonzeros, row after row (val, col), and where each row starts
 * (ptr, rows + 1 entries). Any sparsity pattern fits; nothing is padding.
 *
 *   csr_scalar  one work-item per row (the thesis's kernel 1)
 *   csr_vector  GROUP_SIZE work-items per row, partial sums reduced by a tree
 *               in local memory (the thesis's kernel 2); each lane loads
 *               VECTOR_UNROLL entries a pass (rows of up to 64: below)
 * The chapter's third kernel, csr_adaptive, is in adaptive/kernel.cl, built
 * after this file (as one program) when it runs: it uses MUL, ZERO and
 * group_sum from here.
 *
 * Why it should be fast, or not: each multiply-add reads a value and a 4-byte
 * column index, then gathers x[col]. Compulsory traffic per nonzero: 8 bytes
 * (float), 12 (double), 12 (complex float), 20 (complex double), plus row
 * pointers, x and y once. Scalar: neighbouring work-items walk different rows,
 * so on a GPU their loads are far apart (uncoalesced); on a CPU each work-item
 * streams its own row, which is what the caches like. Vector: the lanes of a
 * group read neighbouring entries of one row (coalesced on a GPU), at the cost
 * of a reduction and barriers per row.
 *
 * One source for the four precisions, chosen by build options (main.c prints
 * them): -DVALUE=float|double|float2|double2, -DCOMPLEX for the last two,
 * -DUSE_FP64 for double and double2. Complex numbers are (re, im) pairs.
 *
 * Assumes: ptr[0] = 0, ptr is non-decreasing, 0 <= col < cols; the host rounds
 * the global size up to whole work-groups (extra work-items compute nothing).
 * csr_vector: GROUP_SIZE a power of two, the work-group size a multiple of it,
 * `partial` holds one VALUE per work-item of the work-group.
 *
 * Fixed from the published listings: kernel 1 unrolled by 4 and read
 * AA[i+1..i+3] without checking that they are still in the row (past the end
 * of the array on the last row): here the unrolled loop stops 3 entries short
 * of the end and a second loop takes the rest. `__global read_only` is not
 * OpenCL C (read_only qualifies images); a read-only buffer is
 * `__global const`. Kernel 2 had one work-item add the 64 partial sums
 * serially, and a reduction that reads other work-items' sums without a
 * barrier between them relies on lockstep execution, which OpenCL never
 * promises (PoCL runs the work-items one after another): here the sum is a
 * tree with a barrier at every level, reached by every work-item.
 */
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef VALUE
#define VALUE float
#endif

#ifdef COMPLEX
/* (a.x + i a.y)(b.x + i b.y): 4 multiplies, 2 adds; accumulating adds 2 more */
#define MUL(a, b) ((VALUE)((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x))
#else
#define MUL(a, b) ((a) * (b))
#endif

#define ZERO ((VALUE)(0))

/* Chapter 7's hook. What a kernel below does with a row's sum (CSR_STORE),
 * and before and after its rows (CSR_BEGIN, CSR_DONE). In chapter 6: the
 * store alone, and nothing else, so these kernels are what they read as.
 * Chapter 7's fused conjugate gradient (step7-cg/kernel.cl, built before
 * this file) defines them to add up p_i * q_i over the work-group as each
 * q_i = (A p)_i is stored, and to write that sum after y's rows: p.Ap comes
 * out of the product itself instead of a second pass over p and q. Every
 * work-item reaches CSR_DONE (no return before it), so it may hold a
 * barrier. */
#ifndef CSR_STORE
#define CSR_BEGIN
#define CSR_STORE(row, sum) y[row] = (sum)
#define CSR_DONE
#endif

#ifdef WARP_SHUFFLE
/* NVIDIA (main.c, where the platform is NVIDIA's): the 32 work-items of a
 * warp, which run together, pass values register to register with PTX's
 * shfl.sync; 32 bits a shuffle, so a double takes two and a complex double
 * four. down(v, s): work-item i gets work-item i + s's v (of the same warp;
 * the last s get their own back). Every work-item of the warp must call it. */
static uint shfl_down32(uint v, int s)
{
    uint r;
    __asm__ __volatile__("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(s));
    return r;
}
/* a VALUE as 32-bit words (SHFL_WORDS), each shuffled, and back */
#if defined(COMPLEX) && defined(USE_FP64)
#define SHFL_WORDS uint4
#define SHFL_BITS(v) as_uint4(v)
#define SHFL_VALUE(b) as_double2(b)
#define SHFL_EACH(b, s) \
    (uint4)(shfl_down32((b).x, s), shfl_down32((b).y, s), shfl_down32((b).z, s), shfl_down32((b).w, s))
#elif defined(COMPLEX) || defined(USE_FP64)
#define SHFL_WORDS uint2
#define SHFL_BITS(v) as_uint2(v)
#ifdef COMPLEX
#define SHFL_VALUE(b) as_float2(b)
#else
#define SHFL_VALUE(b) as_double(b)
#endif
#define SHFL_EACH(b, s) (uint2)(shfl_down32((b).x, s), shfl_down32((b).y, s))
#else
#define SHFL_WORDS uint
#define SHFL_BITS(v) as_uint(v)
#define SHFL_VALUE(b) as_float(b)
#define SHFL_EACH(b, s) shfl_down32(b, s)
#endif
static VALUE shfl_down(VALUE v, int s)
{
    SHFL_WORDS b = SHFL_BITS(v);
    return SHFL_VALUE(SHFL_EACH(b, s));
}
#endif

/* The vector kernel's tree goes through shuffles where they are built (on
 * the H100, float, the 2048 x 2048 grid: 672 to 695 GFLOP/s); the adaptive
 * kernel decides for its own (adaptive/kernel.cl, SHUFFLE_ADAPTIVE). */
#ifdef WARP_SHUFFLE
#define SHUFFLE_VECTOR 1
#else
#define SHUFFLE_VECTOR 0
#endif

/* The sum over each group of t neighbouring work-items (t a power of two,
 * lane = the work-item's place in its group): v into partial[lid], then a
 * tree with a barrier at every level, reached by every work-item of the
 * work-group. Each group's first work-item (lane 0) gets its group's sum. With
 * `shuffle` (a constant, and only where WARP_SHUFFLE is built), a warp's
 * part of the tree is shuffles instead. */
static VALUE group_sum(__local VALUE *partial, int lid, int lane, int t, VALUE v, int shuffle)
{
#ifdef WARP_SHUFFLE
    if (shuffle) {
        /* within a warp by shuffles, no barrier: a group of t <= 32
         * work-items is done there; a larger group's warps each leave their
         * sum in partial[], and its first work-item adds them up */
        for (int s = (t < 32 ? t : 32) / 2; s > 0; s >>= 1)
            v += shfl_down(v, s);
        if (t <= 32)
            return v;
        if ((lid & 31) == 0)
            partial[lid >> 5] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane == 0)
            for (int w = 1; w < t / 32; w++)
                v += partial[(lid >> 5) + w];
        return v;
    }
#else
    (void)shuffle;
#endif
    partial[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = t / 2; s > 0; s >>= 1) {
        if (lane < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return partial[lid];
}

__kernel void csr_scalar(const int rows,
                         __global const int *restrict ptr,
                         __global const int *restrict col,
                         __global const VALUE *restrict val,
                         __global const VALUE *restrict x,
                         __global VALUE *restrict y,
                         __local VALUE *partial)
{
    (void)partial;   /* same arguments as csr_vector; unused here (but by CSR_DONE) */
    int row = get_global_id(0);
    CSR_BEGIN
    if (row < rows) {
        int k = ptr[row];
        int end = ptr[row + 1];
        VALUE sum = ZERO;
        /* unrolled by 4 while four entries remain in this row... */
        for (; k + 3 < end; k += 4)
            sum += MUL(val[k], x[col[k]]) + MUL(val[k + 1], x[col[k + 1]]) +
                   MUL(val[k + 2], x[col[k + 2]]) + MUL(val[k + 3], x[col[k + 3]]);
        /* ...and the last 0-3 one by one */
        for (; k < end; k++)
            sum += MUL(val[k], x[col[k]]);
        CSR_STORE(row, sum);
    }
    CSR_DONE
}

#ifndef GROUP_SIZE
#define GROUP_SIZE 32
#endif

/* VECTOR_UNROLL=U (spmv_default_unroll: rows of at most 64): lane j loads
 * entries j, j + G, ... j + (U-1)G of a pass (none past the row's end)
 * before it adds any, so a row of up to U x G is one pass with every load in
 * flight, where one entry a pass waits for each in turn (TUNING.md, entry 1:
 * the 27-point stencil on the H100 from 0.91 of cuSPARSE to 0.99 in float,
 * 0.98 to 1.11 in double). U = 1: one entry a pass, the thesis's loop. */
#ifndef VECTOR_UNROLL
#define VECTOR_UNROLL 1
#endif

/* experiment: a warp per 32 rows, its nonzeros streamed (CSR-stream at warp level);
 * --group-size 32, -DVECTOR_ROWS=32 (host global), -DVECTOR_UNROLL=U chunks of 32 a pass */
#ifndef MAXWG
#define MAXWG 256
#endif
#ifdef WARP_SHUFFLE
#define WSYNC() __asm__ __volatile__("bar.warp.sync -1;" ::: "memory")
#else
#define WSYNC() barrier(CLK_LOCAL_MEM_FENCE)
#endif
__kernel void csr_vector(const int rows,
                         __global const int *restrict ptr,
                         __global const int *restrict col,
                         __global const VALUE *restrict val,
                         __global const VALUE *restrict x,
                         __global VALUE *restrict y,
                         __local VALUE *partial)
{
    (void)partial;
    __local VALUE prod[MAXWG / 32][32 * VECTOR_UNROLL];
    int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
    size_t r0 = (get_group_id(0) * (get_local_size(0) / 32) + w) * 32;
    int myrow = r0 + lane < (size_t)rows ? (int)(r0 + lane) : -1;
    int ra = r0 < (size_t)rows ? (int)r0 : rows, rb = r0 + 32 < (size_t)rows ? (int)r0 + 32 : rows;
    int rl = myrow >= 0 ? myrow : rows;
    int s = ptr[rl], t = myrow >= 0 ? ptr[rl + 1] : s;
    int S = ptr[ra], T = ptr[rb];
    VALUE sum = ZERO;
    CSR_BEGIN
#define SLOADS(P)                                   \
    for (int u = 0; u < VECTOR_UNROLL; u++) {       \
        int e = (P) + lane + 32 * u;                \
        v[u] = e < T ? val[e] : ZERO;               \
        c[u] = e < T ? col[e] : 0;                  \
    }
    VALUE v[VECTOR_UNROLL];
    int c[VECTOR_UNROLL];
#ifdef PREFETCH
    SLOADS(S)
#endif
    for (int P = S; P < T; P += 32 * VECTOR_UNROLL) {
#ifndef PREFETCH
        SLOADS(P)
#endif
        for (int u = 0; u < VECTOR_UNROLL; u++)
            prod[w][lane + 32 * u] = P + lane + 32 * u < T ? MUL(v[u], x[c[u]]) : ZERO;
#ifdef PREFETCH
        SLOADS(P + 32 * VECTOR_UNROLL)
#endif
        WSYNC();
        int a = s > P ? s : P, b = t < P + 32 * VECTOR_UNROLL ? t : P + 32 * VECTOR_UNROLL;
        for (int e = a; e < b; e++)
            sum += prod[w][e - P];
        WSYNC();
    }
    if (myrow >= 0)
        CSR_STORE(myrow, sum);
    CSR_DONE
}
