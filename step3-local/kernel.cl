/* step3-local/kernel.cl - the article's third DIA kernel: the offsets in local
 * memory.
 *
 * What changed from step 2: every work-item of a row used to load the same
 * offsets[diag] from global memory. Now the work-group copies the offsets into
 * local memory once, waits at a barrier, and the loop reads them from there.
 *
 * Why it should be faster: per multiply-add (2 FLOPs) the loop now loads from
 * global memory only the matrix value (4 bytes) and x[col] (4 bytes): 8 bytes
 * per 2 FLOPs instead of 12, so the bound rises from B/6 to B/4 GFLOP/s at a
 * bandwidth of B GB/s. The copy itself is diags * 4 bytes per work-group,
 * small next to diags * local_size * 8.
 *
 * Assumes: as step 2 (pitch a multiple of 32, padding zero, 128-byte aligned
 * buffer), plus l_offsets sized by the host to diags ints (argument 8,
 * clSetKernelArg(k, 8, diags * sizeof(int), NULL)). Any local size and any
 * number of diagonals work: each work-item copies every local_size-th offset.
 *
 * Fixed from the published listing: its `__local int l_offsets[256]` and
 * `if (get_local_id(0) < diags) l_offsets[lid] = offsets[lid]` copied at most
 * 256 offsets and only local_size of them (a group of 64 work-items on a
 * 317-diagonal matrix left 253 offsets unset), so we size the array from the
 * host and copy with a strided loop. The guard of the rounded-up global size
 * moves after the barrier: a work-item that returned before it would leave
 * the others waiting for it (undefined behaviour, a hang on some GPUs).
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
    int row = get_global_id(0);
    for (int i = get_local_id(0); i < diags; i += get_local_size(0))
        l_offsets[i] = offsets[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (row >= rows)
        return;
    float accumulator = 0.0f;
    int matrix_offset = row;
    for (int diag = 0; diag < diags; diag++) {
        int col = row + l_offsets[diag];
        if (col >= 0 && col < cols) {
            float m = A[matrix_offset];
            float v = x[col];
            accumulator += m * v;
        }
        matrix_offset += pitch;
    }
    y[row] = accumulator;
}
