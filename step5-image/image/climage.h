/* image/climage.h - a float vector held in a 2-D image of float4 texels (step5).
 *
 * Layout, the article's: float i lies in texel t = i / 4, component i % 4, and
 * texel t at (t & (width - 1), t >> log2(width)). The width is a power of two
 * so a kernel finds the coordinates with a mask and a shift. Texels past the
 * end of the vector are zero, and a sampler with CLK_ADDRESS_CLAMP returns
 * zero outside the image, so reads of x outside [0, n) give 0 either way.
 */
#ifndef SPMV_CLIMAGE_H
#define SPMV_CLIMAGE_H

#include "clutil.h"

/* The article's width: 4096 texels (16384 floats) per image row. */
#define SPMV_IMAGE_WIDTH 4096

/* A read-only CL_RGBA / CL_FLOAT image holding x[0 .. n-1], width the largest
 * power of two <= SPMV_IMAGE_WIDTH the device allows. Returns NULL and a
 * one-line reason in why when the device has no images, lacks the format,
 * or the vector needs more rows than CL_DEVICE_IMAGE2D_MAX_HEIGHT: the step
 * then skips (spmv_skip). Exits 2 when the device runs out of memory.
 * SPMV_IMAGE2D_MAX_H (tests only) lowers the height limit; 0 acts as a device
 * without images. */
cl_mem spmv_cl_image_floats(spmv_cl *cl, const float *x, size_t n, size_t *width, size_t *height,
                            char *why, size_t why_len);

#endif
