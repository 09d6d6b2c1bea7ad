/* step4-vector/cpu/kernel.cl - chapter 4's product shaped for a CPU
 * (`--kernel cpu`): dia_spmv_cpu. Its host side is cpu/host.c, which
 * build/step4 runs for --kernel cpu.
 *
 * A GPU wants one work-item per row or four: tens of thousands of them, each
 * doing a little, their neighbouring loads merged by the hardware. A CPU has
 * a few cores. PoCL runs a work-group on one core as a loop over its
 * work-items, so the float4 kernel (../kernel.cl) becomes: for each 4 rows,
 * 81 loads of A that lie `pitch` floats apart, 81 edge tests, 81 short vector
 * FMAs. The caches see 81 streams that each advance 16 bytes per visit.
 *
 * Here a work-item owns `block` consecutive rows and turns the loops around:
 * for each diagonal it streams that diagonal's values for its rows, the
 * matching window of x and its block of y, all in order, four diagonals per
 * pass so that y is loaded and stored once per four multiply-adds. Nothing in
 * the inner loop tests anything: the host pads x with `halo` zeros on both
 * sides, so x[row + offset] is inside the buffer for every row and diagonal
 * (the matrix already holds zeros where the column falls outside). Three or
 * five unit-stride streams and no branch: the compiler makes SIMD code of it.
 * A block of rows keeps its part of y in the core's cache (65536 rows: 256
 * KiB, an L2), so in memory y is written once; long blocks also give the
 * hardware prefetcher long streams. The host runs one work-item per
 * work-group (PoCL's work-group loop is then not in the way) and several
 * blocks per core for load balance.
 *
 * Bytes per 2 FLOPs: the matrix value (4), with x and y from cache: the 4 of
 * step 5's model, reached by loop order instead of an image.
 *
 * Assumes: the pitch of the other kernels; x holds cols + 2 * halo floats,
 * x[halo + c] the matrix's column c, zero elsewhere, and halo >= -offset and
 * halo >= rows - cols + offset for every offset; block >= 1; any local size.
 * Writes only y[lo .. hi), hi <= rows.
 */
__kernel void dia_spmv_cpu(__global const float *restrict A,
                           const int pitch,
                           const int rows,
                           const int cols,
                           const int diags,
                           __global const int *restrict offsets,
                           __global const float *restrict x,
                           __global float *restrict y,
                           const int block,
                           const int halo)
{
    (void)cols;   /* the zeros of the halo stand for the columns outside */
    /* long: block x work-items may pass INT_MAX on the last ones */
    long lo_l = (long)get_global_id(0) * block;
    if (lo_l >= rows)
        return;
    int lo = (int)lo_l;
    int hi = rows - lo > block ? lo + block : rows;
    __global const float *xh = x + halo;
    for (int row = lo; row < hi; row++)
        y[row] = 0.0f;
    int diag = 0;
    for (; diag + 3 < diags; diag += 4) {
        __global const float *a0 = A + (size_t)diag * pitch, *a1 = a0 + pitch, *a2 = a1 + pitch, *a3 = a2 + pitch;
        __global const float *x0 = xh + offsets[diag], *x1 = xh + offsets[diag + 1],
                             *x2 = xh + offsets[diag + 2], *x3 = xh + offsets[diag + 3];
        for (int row = lo; row < hi; row++)
            y[row] += a0[row] * x0[row] + a1[row] * x1[row] + a2[row] * x2[row] + a3[row] * x3[row];
    }
    for (; diag < diags; diag++) {   /* the last 0-3 diagonals */
        __global const float *a = A + (size_t)diag * pitch, *xd = xh + offsets[diag];
        for (int row = lo; row < hi; row++)
            y[row] += a[row] * xd[row];
    }
}
