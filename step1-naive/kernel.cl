/* step1-naive/kernel.cl - the article's first DIA kernel: one work-item per row.
 *
 * What it does: work-item `row` walks every diagonal, and where the diagonal
 * has a column inside the matrix it multiplies the stored value by x[col].
 *
 * Why it is not fast (yet): for each of the 2 FLOPs of a multiply-add it loads
 * an offset (4 bytes), a matrix value (4 bytes) and an element of x (4 bytes):
 * 12 bytes per 2 FLOPs, so at B GB/s it can reach at most B/6 GFLOP/s. Nearby
 * work-items read nearby values of a diagonal (coalesced), but nothing is done
 * to keep offsets or x on chip.
 *
 * Assumes: diagonal d of row r at A[d*pitch + r] with pitch >= rows; the host
 * rounds the global size up to a multiple of the work-group size, so the
 * extra work-items must return before touching memory.
 *
 * Fixed from the published listing: `__const int rows` is not valid OpenCL C
 * for a by-value argument (it is plain `const int`); the listing also had no
 * guard for a global size rounded up past the last row, and assumed a square
 * matrix (col < rows): we pass cols.
 */
__kernel void dia_spmv(__global const float *A,
                       const int pitch,
                       const int rows,
                       const int cols,
                       const int diags,
                       __global const int *offsets,
                       __global const float *x,
                       __global float *y)
{
    int row = get_global_id(0);
    if (row >= rows)
        return;
    float accumulator = 0.0f;
    for (int diag = 0; diag < diags; diag++) {
        int col = row + offsets[diag];
        if (col >= 0 && col < cols) {
            float m = A[diag * pitch + row];
            float v = x[col];
            accumulator += m * v;
        }
    }
    y[row] = accumulator;
}
