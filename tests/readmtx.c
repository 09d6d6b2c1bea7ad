/* readmtx.c - read one matrix file with matrix_read() and say what came out.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 -Icommon common/[all].c tests/readmtx.c -lm
 *        -o build/tests/readmtx      (the Makefile does this for every tests/[name].c)
 * Run:   readmtx FILE          one line: rows cols nnz stored field symmetry expanded and
 *                              the sums of the real and imaginary parts
 *        readmtx --dump FILE   every entry "r c re im" (0-based, as in the COO the reader
 *                              returns), sorted by row, column, value; %.17g so that two
 *                              files holding the same matrix give identical text
 * A file the reader refuses: "readmtx: error: MSG" on stderr, exit status 2.
 * The sums are taken in the sorted order, so they do not depend on the file format.
 */
#include "formats/formats.h"
#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const coo_matrix *g_A;

static int by_position(const void *a, const void *b)
{
    long long i = *(const long long *)a, j = *(const long long *)b;
    const coo_matrix *A = g_A;
    if (A->row[i] != A->row[j])
        return A->row[i] < A->row[j] ? -1 : 1;
    if (A->col[i] != A->col[j])
        return A->col[i] < A->col[j] ? -1 : 1;
    if (A->re[i] != A->re[j])
        return A->re[i] < A->re[j] ? -1 : 1;
    double ii = A->im ? A->im[i] : 0.0, ij = A->im ? A->im[j] : 0.0;
    if (ii != ij)
        return ii < ij ? -1 : 1;
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: readmtx [--dump] FILE   (Matrix Market .mtx or Harwell-Boeing .rua/.rsa/...)\n");
    return 2;
}

int main(int argc, char **argv)
{
    int dump = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dump") == 0)
            dump = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage();
        else if (path)
            return usage();
        else
            path = argv[i];
    }
    if (!path)
        return usage();

    coo_matrix A;
    spmv_error err;
    if (matrix_read(path, NULL, &A, &err) != 0) {
        fprintf(stderr, "readmtx: error: %s\n", err.msg);
        return 2;
    }
    long long *order = malloc(((size_t)A.nnz + 1) * sizeof *order);
    if (!order) {
        fprintf(stderr, "readmtx: error: out of memory sorting %lld entries\n", A.nnz);
        coo_free(&A);
        return 2;
    }
    for (long long k = 0; k < A.nnz; k++)
        order[k] = k;
    g_A = &A;
    qsort(order, (size_t)A.nnz, sizeof *order, by_position);

    double sum_re = 0.0, sum_im = 0.0;
    for (long long k = 0; k < A.nnz; k++) {
        long long e = order[k];
        double im = A.im ? A.im[e] : 0.0;
        sum_re += A.re[e];
        sum_im += im;
        if (dump)
            printf("%d %d %.17g %.17g\n", A.row[e], A.col[e], A.re[e], im);
    }
    if (!dump)
        printf("rows %d cols %d nnz %lld stored %lld field %s symmetry %s expanded %d sum_re %.17g sum_im %.17g\n",
               A.rows, A.cols, A.nnz, A.origin.stored, A.origin.field, A.origin.symmetry,
               A.origin.expanded, sum_re, sum_im);
    free(order);
    coo_free(&A);
    return 0;
}
