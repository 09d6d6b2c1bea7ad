/* device/sizes.h - the product chapter 6's rule picks, and the work sizes of
 * CG's kernels and the options of their program: chapter 7's choices, which
 * chapter 8 makes the same way on each rank's device (the Makefile builds
 * this file into step8: USES_step8). */
#ifndef STEP7_SIZES_H
#define STEP7_SIZES_H

#include "../../step6-csr/choice/csrchoice.h"
#include "spmv.h"

#define CG_LOCAL_SIZE 256      /* the product's and the vector kernels' work-groups. Chapter 6's scalar is 128;
                                * 256 leaves the fused product half as many partial sums of p.Ap, 2-4% faster
                                * an iteration on the H100 (TUNING.md) */
#define CG_GROUPS_PER_CU 8     /* the vector kernels' work-groups: enough to fill a GPU, each strides over the vector */
#define CG_GROUPS_PER_CORE 4   /* on a CPU: a few stretches a core, so a late core leaves little behind */
#define CG_CHOICE_SHARE 4096   /* a row longer than this is one the adaptive kernel would cut: vector here */

/* Chapter 6's rule picks the product; where it says adaptive, the nearest
 * that chapters 7 and 8 offer: on a GPU a group per row, on a CPU a row per
 * work-item (chapter 6's CPU shape), said on a "choice" line naming `step`.
 * Returns 1 for csr_vector, with its group and the entries a lane loads a
 * pass as chapter 6 sets them (-DVECTOR_UNROLL in --cl-opts replaces the
 * latter). */
int cg_product_choice(const char *step, const spmv_options *o, const spmv_row_stats *st, int gpu, int vsize,
                      int *group, int *unroll);

/* The product's work-group: --local-size or CG_LOCAL_SIZE, halved to what
 * the device allows; a vector product's must hold whole groups (exits 2). */
size_t cg_product_local(const spmv_cl *cl, const spmv_options *o, int vector, int group);

/* The vector kernels over `rows` rows: on a GPU, CG_LOCAL_SIZE work-items a
 * group (or the device's most) and enough groups to fill it; on a CPU, one
 * work-item a group (no barriers, which PoCL runs as loops over the
 * work-items) and a few groups a core, each streaming its own stretch
 * (kernel.cl, CONTIGUOUS). Returns the groups; *local their size. */
int cg_vector_groups(const spmv_cl *cl, int gpu, size_t rows, size_t *local);

/* A kernel of one work-group (cg_alpha, d8_sums): as wide as the device
 * allows up to 1024 on a GPU, 1 on a CPU; then halved to a power of two the
 * kernel itself allows (cg_fit_group, once it is built). */
size_t cg_one_group(const spmv_cl *cl, int gpu);
size_t cg_fit_group(const spmv_cl *cl, cl_kernel k, size_t local);

/* The program's options: the value type, the product's group (and unroll),
 * warp shuffles where chapter 6 builds them, `more` (the chapter's own -D),
 * the vector kernels' CPU layout, then --cl-opts. */
void cg_program_options(char *opts, size_t size, const spmv_cl *cl, const spmv_options *o, char p, int gpu,
                        size_t spmv_local, int group, int unroll, const char *more);

#endif
