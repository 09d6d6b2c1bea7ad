/* step2-aligned/kernel.cl - the article's second DIA kernel: diagonals padded
 * to a pitch, walked with a running index.
 *
 * What changed from step 1: the host pads every diagonal to a pitch that is a
 * multiple of 32 floats (128 bytes), so each diagonal starts on a 128-byte
 * boundary; the kernel walks the matrix with `matrix_offset += pitch` instead
 * of computing diag * pitch + row for every diagonal.
 *
 * Why it should be faster: a work-group of 32 rows now reads each diagonal as
 * whole 128-byte segments (one memory transaction on a GPU) instead of
 * straddling two, and the loop loses a multiply. The bytes moved per 2 FLOPs
 * stay the article's 12 (offset 4 + matrix value 4 + x 4): this step removes
 * wasted transactions, not compulsory traffic, so the model bound is step 1's.
 *
 * Assumes: diagonal d of row r at A[d*pitch + r], pitch a multiple of 32 and
 * >= rows, padding zero; the buffer base 128-byte aligned (OpenCL guarantees
 * it for a full-profile device). The global size is rounded up to whole
 * work-groups, so the extra work-items return before touching memory; any
 * local size works.
 *
 * Fixed from the published listing: as in step 1 (a by-value `__const`
 * argument, no guard for the rounded-up global size, col < rows for a square
 * matrix only); the running index is an int, as the listing's, which the host
 * keeps safe by refusing matrices of 2^31 stored values or more.
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
    int matrix_offset = row;
    for (int diag = 0; diag < diags; diag++) {
        int col = row + offsets[diag];
        if (col >= 0 && col < cols) {
            float m = A[matrix_offset];
            float v = x[col];
            accumulator += m * v;
        }
        matrix_offset += pitch;
    }
    y[row] = accumulator;
}
