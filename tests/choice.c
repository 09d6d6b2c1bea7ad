/* tests/choice.c - chapter 6's rule (step6-csr/choice/csrchoice.c) on one matrix, for a
 * GPU or a CPU, without a device: what build/step6 would print and choose
 * there.
 *
 *   build/tests/choice KIND:SHARE[,KIND:SHARE...] [--matrix FILE | --gen SPEC | --grid WxH --radius R] [--seed S]
 *
 * KIND is gpu or cpu; SHARE the adaptive kernel's block (step6's "blocks of N
 * nonzeros": on a GPU 768 in float and double, 512 in complex float, 1024 in
 * complex double; on a CPU 8192). Prints step6's "rows" line, then for each
 * KIND:SHARE its "choice" line and "kernel KIND SHARE NAME" (the vector
 * kernel as vector-G, its default group). Bad arguments: one line on
 * stderr, exit status 2.
 */
#include "../step6-csr/choice/csrchoice.h"
#include "spmv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spmv_step STEP = {
    .name = "choice",
    .title = "chapter 6's rule on one matrix",
    .kernel_path = "",
    .variants = NULL,
    .default_variant = "",
    .takes = OPT_GRID,   /* the matrix options: --matrix, --gen, --grid, --seed */
};

static int usage(void)
{
    fprintf(stderr, "usage: choice KIND:SHARE[,KIND:SHARE...] [--matrix FILE | --gen SPEC | --grid WxH ...] "
            "[--seed S]   (KIND: gpu or cpu)\n");
    return 2;
}

int main(int argc, char **argv)
{
    enum { MAX_ASKED = 16 };
    int gpu[MAX_ASKED], share[MAX_ASKED], n = 0;
    if (argc < 2)
        return usage();
    for (const char *p = argv[1]; *p; n++) {
        int used = 0;
        char kind[4];
        if (n == MAX_ASKED || sscanf(p, "%3[a-z]:%d%n", kind, &share[n], &used) != 2 || share[n] < 1 ||
            (strcmp(kind, "gpu") != 0 && strcmp(kind, "cpu") != 0) || (p[used] && p[used] != ','))
            return usage();
        gpu[n] = strcmp(kind, "gpu") == 0;
        p += used + (p[used] == ',');
    }
    if (n == 0)
        return usage();
    argv[1] = argv[0];   /* the rest is the steps' own command line */
    spmv_run run;
    spmv_options o;
    spmv_parse(argc - 1, argv + 1, &STEP, &o, &run);
    spmv_input in;
    spmv_read_csr(&run, &o, NULL, &in);
    csr_matrix A;
    spmv_load_csr(&run, &o, &in, &A);
    spmv_row_stats st = spmv_row_lengths(&A);
    int group = spmv_default_group(&st);
    for (int i = 0; i < n; i++) {
        const char *k = spmv_csr_choose(&st, gpu[i], share[i], group);
        printf("kernel %s %d %s", gpu[i] ? "gpu" : "cpu", share[i], k);
        if (strcmp(k, "vector") == 0)
            printf("-%d", group);
        printf("\n");
    }
    csr_free(&A);
    return 0;
}
