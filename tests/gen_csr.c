/* tests/gen_csr.c - write a Matrix Market file with the row shapes that catch
 * CSR indexing bugs: empty rows (the first and the last among them), rows of
 * length 1, rows of 2-3 entries (shorter than an unrolled step), one very long
 * row (every column: more than 10,000 when cols is), and random rows between.
 * Values are seeded random, so a wrong index shows in the result.
 *
 *   build/tests/gen_csr OUT.mtx ROWS COLS SEED [real|complex]
 *
 * Exit status 0, or 2 with one line on bad arguments or a write error.
 */
#include "matrix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "gen_csr: %s%s\n", msg, arg ? arg : "");
    exit(2);
}

static long arg_long(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        die("bad number: ", s);
    return v;
}

/* the length of row r: the shapes above, deterministic from r */
static long row_length(long r, long rows, long cols, spmv_rng *g)
{
    if (r == rows / 2 && rows > 2)
        return cols;                      /* the long row */
    if (r == 0 || r == rows - 1 || r % 7 == 3)
        return 0;
    if (r % 5 == 1)
        return 1;
    if (r % 5 == 2)
        return 2 + (long)(spmv_rng_next(g) % 2);
    long n = 4 + (long)(spmv_rng_next(g) % 100);
    return n < cols ? n : cols;
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 6)
        die("usage: gen_csr OUT.mtx ROWS COLS SEED [real|complex]", NULL);
    long rows = arg_long(argv[2], 1, 10000000), cols = arg_long(argv[3], 1, 10000000);
    uint64_t seed = (uint64_t)arg_long(argv[4], 0, 1L << 62);
    int cplx = argc == 6 && strcmp(argv[5], "complex") == 0;
    if (argc == 6 && !cplx && strcmp(argv[5], "real") != 0)
        die("the field is real or complex, not ", argv[5]);
    spmv_rng g;
    spmv_rng_seed(&g, seed);
    long long nnz = 0;
    for (long r = 0; r < rows; r++)
        nnz += row_length(r, rows, cols, &g);
    FILE *f = fopen(argv[1], "w");
    if (!f)
        die("cannot write ", argv[1]);
    fprintf(f, "%%%%MatrixMarket matrix coordinate %s general\n", cplx ? "complex" : "real");
    fprintf(f, "%% gen_csr %ld %ld %llu: empty, length-1, short, long and random rows\n", rows, cols,
            (unsigned long long)seed);
    fprintf(f, "%ld %ld %lld\n", rows, cols, nnz);
    spmv_rng_seed(&g, seed);   /* the same lengths again */
    spmv_rng v;
    spmv_rng_seed(&v, seed * 7919 + 1);
    for (long r = 0; r < rows; r++) {
        long n = row_length(r, rows, cols, &g);
        /* n consecutive columns from a random start, wrapping: distinct, and
         * a row that wraps is stored in two runs (the reader sorts them) */
        long start = n < cols ? (long)(spmv_rng_next(&v) % (uint64_t)cols) : 0;
        for (long j = 0; j < n; j++) {
            long c = (start + j) % cols;
            if (cplx)
                fprintf(f, "%ld %ld %.17g %.17g\n", r + 1, c + 1, spmv_rng_uniform(&v), spmv_rng_uniform(&v));
            else
                fprintf(f, "%ld %ld %.17g\n", r + 1, c + 1, spmv_rng_uniform(&v));
        }
    }
    if (fclose(f) != 0)
        die("cannot write ", argv[1]);
    return 0;
}
