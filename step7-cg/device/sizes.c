/* device/sizes.c - the product's choice and CG's work sizes: device/sizes.h */
#include "sizes.h"
#include "precision.h"

#include <stdio.h>
#include <string.h>

/* chapter 6's warp shuffles in the product's sums (its -DWARP_SHUFFLE);
 * -DWARP_SHUFFLES=0 in CFLAGS builds the tree of barriers instead */
#ifndef WARP_SHUFFLES
#define WARP_SHUFFLES 1
#endif

int cg_product_choice(const char *step, const spmv_options *o, const spmv_row_stats *st, int gpu, int vsize,
                      int *group, int *unroll)
{
    *group = o->group ? o->group : spmv_default_group(st);
    int u = !o->cl_opts || !strstr(o->cl_opts, "VECTOR_UNROLL") ? spmv_default_unroll(st, o->group ? 0 : vsize, group)
                                                                 : 0;
    const char *choice = spmv_csr_choose(st, gpu, CG_CHOICE_SHARE, *group);
    int adaptive = strcmp(choice, "adaptive") == 0;
    int vector = o->group || (adaptive ? gpu : strcmp(choice, "scalar") != 0);
    if (adaptive && !o->group)
        printf("choice   %s offers scalar and vector: %s it is%s\n", step, vector ? "vector" : "scalar",
               vector ? ", a group per row on a GPU" : ", a row per work-item on a CPU");
    else if (o->group && strcmp(choice, "scalar") == 0)
        printf("choice   vector: --group-size %d asks for it\n", *group);
    *unroll = vector && u > 1 ? u : 0;
    return vector;
}

size_t cg_product_local(const spmv_cl *cl, const spmv_options *o, int vector, int group)
{
    size_t local = o->local_size ? o->local_size : CG_LOCAL_SIZE;
    if (vector && local % group)
        spmv_die(SPMV_EXIT_USAGE, "--local-size %zu is not a multiple of the group size %d", local, group);
    while (local > cl->max_wg)
        local /= 2;
    return local;
}

int cg_vector_groups(const spmv_cl *cl, int gpu, size_t rows, size_t *local)
{
    *local = !gpu ? 1 : CG_LOCAL_SIZE < cl->max_wg ? CG_LOCAL_SIZE : cl->max_wg;
    size_t groups = (rows + *local - 1) / *local,
           most = (size_t)cl->compute_units * (gpu ? CG_GROUPS_PER_CU : CG_GROUPS_PER_CORE);
    return (int)(groups < most ? groups : most ? most : 1);
}

size_t cg_one_group(const spmv_cl *cl, int gpu)
{
    return !gpu ? 1 : cl->max_wg < 1024 ? cl->max_wg : 1024;
}

size_t cg_fit_group(const spmv_cl *cl, cl_kernel k, size_t local)
{
    size_t kmax = 0;
    CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
    while (local > 1 && local > kmax)
        local /= 2;
    return local;
}

void cg_program_options(char *opts, size_t size, const spmv_cl *cl, const spmv_options *o, char p, int gpu,
                        size_t spmv_local, int group, int unroll, const char *more)
{
    int shuffle = WARP_SHUFFLES && cl->ptx && gpu && spmv_local % 32 == 0;
    snprintf(opts, size, "-DVALUE=%s%s%s -DGROUP_SIZE=%d%s%.0d%s%s%s%s", spmv_prec_cl_type(p),
             p == 's' ? "" : " -DUSE_FP64", shuffle ? " -DWARP_SHUFFLE" : "", group, unroll ? " -DVECTOR_UNROLL=" : "",
             unroll, more, gpu ? "" : " -DCONTIGUOUS", o->cl_opts ? " " : "", o->cl_opts ? o->cl_opts : "");
}
