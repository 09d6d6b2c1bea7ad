/* step4-vector/kernel.cl - the article's fourth DIA kernel: float4, four
 * consecutive rows per work-item.
 *
 * What changed from step 3: work-item i computes rows 4i .. 4i+3. For each
 * diagonal it loads the four matrix values with one vload4, the four x values
 * x[col .. col+3] with one (unaligned) vload4 when they all lie inside x, and
 * accumulates in a float4; the four results leave with one vstore4.
 *
 * Why it should be faster: the bytes per 2 FLOPs stay the article's 8 (matrix
 * value 4 + x 4; the offsets are in local memory as in step 3), so the model
 * bound is step 3's. What changes is how the bytes move: 16-byte loads instead
 * of 4-byte ones, a quarter of the offset reads, bounds tests and loop
 * overhead, and four independent multiply-adds per iteration. It helps where
 * a 4-byte load could not keep the memory system busy (a CPU's vector units);
 * a GPU coalesces the scalar loads of step 3 already.
 *
 * Assumes: as step 3, and the pitch a multiple of 4 (the host's 32), so that
 * A[d*pitch + row .. row+3] stays inside diagonal d even for the last rows
 * (the padding is zero). y is exactly rows long: the kernel guards the store.
 * Any local size works; the global size is ceil(rows / 4) rounded up to it.
 *
 * Fixed from the published listing: its fast-path test `col < rows - 4` is
 * off by one (x[col+3] is inside while col + 3 < cols, i.e. col <= cols - 4)
 * and compares with rows where x has cols entries; its `vstore4(acc, 0, y+row)`
 * writes past the end of y when rows is not a multiple of 4, so the last
 * work-item stores only its rows that exist; and, as in step 3, the offsets
 * are copied whatever their number and the guard comes after the barrier.
 */
__kernel void dia_spmv(__global const float *A,
                       const int pitch,
                       const int rows,
                       const int cols,
                       const int diags,
                       __global const int *offsets,
                       __global const float *x,
                       __global float *y,
                       __local int *l_offsets)
{
    int row = get_global_id(0) * 4;
    for (int i = get_local_id(0); i < diags; i += get_local_size(0))
        l_offsets[i] = offsets[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (row >= rows)
        return;
    float4 accumulator = (float4)(0.0f);
    int matrix_offset = row;
    for (int diag = 0; diag < diags; diag++) {
        int col = row + l_offsets[diag];
        float4 m = vload4(0, A + matrix_offset);
        if (col >= 0 && col <= cols - 4) {
            accumulator += m * vload4(0, x + col);
        } else {
            /* an edge: x outside [0, cols) counts as zero (so does the matrix there) */
            float4 v = (float4)(0.0f);
            if (col >= 0 && col < cols)
                v.s0 = x[col];
            if (col + 1 >= 0 && col + 1 < cols)
                v.s1 = x[col + 1];
            if (col + 2 >= 0 && col + 2 < cols)
                v.s2 = x[col + 2];
            if (col + 3 >= 0 && col + 3 < cols)
                v.s3 = x[col + 3];
            accumulator += m * v;
        }
        matrix_offset += pitch;
    }
    if (row + 3 < rows) {
        vstore4(accumulator, 0, y + row);
    } else {
        y[row] = accumulator.s0;
        if (row + 1 < rows)
            y[row + 1] = accumulator.s1;
        if (row + 2 < rows)
            y[row + 2] = accumulator.s2;
    }
}
