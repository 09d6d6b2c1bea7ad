/* image/climage.c - a float vector held in a 2-D image of float4 texels (step5). */
#include "climage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_rgba_float(spmv_cl *cl)
{
    cl_uint n = 0;
    CL_CHECK(clGetSupportedImageFormats(cl->ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n));
    cl_image_format *f = calloc(n ? n : 1, sizeof *f);
    if (!f)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the image formats");
    CL_CHECK(clGetSupportedImageFormats(cl->ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, n, f, NULL));
    int found = 0;
    for (cl_uint i = 0; i < n; i++)
        found |= f[i].image_channel_order == CL_RGBA && f[i].image_channel_data_type == CL_FLOAT;
    free(f);
    return found;
}

cl_mem spmv_cl_image_floats(spmv_cl *cl, const float *x, size_t n, size_t *width, size_t *height,
                            char *why, size_t why_len)
{
    size_t max_w = cl->image2d_max_w, max_h = cl->image2d_max_h;
    int images = cl->image_support;
    const char *env = getenv("SPMV_IMAGE2D_MAX_H");
    if (env) {
        max_h = (size_t)strtoull(env, NULL, 10);
        images = images && max_h > 0;
    }
    if (!images) {
        snprintf(why, why_len, "%s has no image support (CL_DEVICE_IMAGE_SUPPORT is false)", cl->device_name);
        return NULL;
    }
    if (!has_rgba_float(cl)) {
        snprintf(why, why_len, "%s has no CL_RGBA / CL_FLOAT 2-D images", cl->device_name);
        return NULL;
    }
    size_t w = 1;
    while (w * 2 <= SPMV_IMAGE_WIDTH && w * 2 <= max_w)
        w *= 2;
    size_t texels = (n + 3) / 4;
    size_t h = texels ? (texels + w - 1) / w : 1;
    if (h > max_h) {
        snprintf(why, why_len, "x has %zu floats: %zu image rows of %zu texels, more than this device "
                 "allows (CL_DEVICE_IMAGE2D_MAX_HEIGHT = %zu)", n, h, w, max_h);
        return NULL;
    }
    float *host = calloc(w * h * 4, sizeof *host);
    if (!host)
        spmv_die(SPMV_EXIT_USAGE, "out of host memory for the image of x (%zu x %zu texels)", w, h);
    memcpy(host, x, n * sizeof *x);
    cl_image_format fmt = { CL_RGBA, CL_FLOAT };
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = w;
    desc.image_height = h;
    cl_int err;
    cl_mem img = clCreateImage(cl->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &desc, host, &err);
    free(host);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY)
        spmv_die(SPMV_EXIT_USAGE, "the image of x (%zu x %zu texels, %.1f MiB): out of device memory (%s); "
                 "try a smaller --grid or matrix", w, h, w * h * 16 / 1048576.0, cl_error_name(err));
    CL_CHECK_ERR(err);
    *width = w;
    *height = h;
    return img;
}
