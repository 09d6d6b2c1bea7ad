/* step5-image/kernel.cl - the article's fifth DIA kernel: x read through an
 * image, so that it is fetched through the texture cache.
 *
 * What changed from step 4: x is a 2-D image of float4 texels (CL_RGBA,
 * CL_FLOAT) instead of a buffer. Float i lies in texel t = i / 4, and texel t
 * at (t & mask, t >> shift) with mask = width - 1, shift = log2(width): the
 * host makes the width a power of two. The four floats x[col .. col+3] start
 * anywhere in a texel, so read_x4 reads one texel (col % 4 == 0) or two and
 * swizzles, the article's four cases. (The three unaligned cases are one
 * shuffle2: written as a switch of swizzles, oclgrind 21.10 computed them
 * wrongly where PoCL did not, and tests/t_dia_oclgrind.sh runs this kernel.) The
 * sampler clamps to the border, which is zero for CL_RGBA, and the host pads
 * the last texels with zeros: every read outside x gives 0, so the bounds
 * tests on col and the slow path of step 4 are gone.
 *
 * Why it should be faster: the article counts x as free once the texture
 * cache holds it (neighbouring rows share nearly all their x), leaving the
 * matrix value alone: 4 bytes per 2 FLOPs instead of 8, a bound of B/2 GFLOP/s
 * at B GB/s. col % 4 is offset % 4 (row is a multiple of 4), the same for
 * every work-item of a diagonal, so the four cases do not diverge.
 *
 * Assumes: as step 4 (pitch a multiple of 4, padding zero, y exactly rows
 * long and guarded); x an image whose width is a power of two and whose
 * texels past x are zero. Any local size works.
 *
 * Fixed from the published listing: as in step 4 (the store of the last rows,
 * the offsets whatever their number, the guard after the barrier). The image
 * needs no fast-path test at all, so the listing's off-by-one is gone here by
 * construction; a col below zero shifts to a negative image row, which the
 * sampler clamps to zero like any other outside read.
 */
__constant sampler_t x_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

static float4 texel(__read_only image2d_t x, int t, int mask, int shift)
{
    return read_imagef(x, x_sampler, (int2)(t & mask, t >> shift));
}

/* x[col .. col+3], zero outside x. The article's four cases of col % 4: 0
 * is one aligned texel; 1, 2 and 3 take floats r .. r+3 of two neighbouring
 * texels (a.yzw b.x, a.zw b.xy, a.w b.xyz), which shuffle2 writes as one mask. */
static float4 read_x4(__read_only image2d_t x, int col, int mask, int shift)
{
    int t = col >> 2;   /* floor(col / 4), also for a negative col */
    float4 a = texel(x, t, mask, shift);
    uint r = col & 3;
    if (r == 0)
        return a;
    float4 b = texel(x, t + 1, mask, shift);
    return shuffle2(a, b, (uint4)(r, r + 1, r + 2, r + 3));
}

__kernel void dia_spmv(__global const float *A,
                       const int pitch,
                       const int rows,
                       const int cols,
                       const int diags,
                       __global const int *offsets,
                       __read_only image2d_t x,
                       __global float *y,
                       __local int *l_offsets)
{
    int row = get_global_id(0) * 4;
    for (int i = get_local_id(0); i < diags; i += get_local_size(0))
        l_offsets[i] = offsets[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (row >= rows)
        return;
    int mask = get_image_width(x) - 1;
    int shift = popcount(mask);
    float4 accumulator = (float4)(0.0f);
    int matrix_offset = row;
    for (int diag = 0; diag < diags; diag++) {
        int col = row + l_offsets[diag];
        float4 m = vload4(0, A + matrix_offset);
        accumulator += m * read_x4(x, col, mask, shift);
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
