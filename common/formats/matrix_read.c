/* matrix_read.c - matrix_read() picks the reader (mmio.c or hb.c); the helpers
 * both readers share are in readutil.c.
 *
 * The choice is made by content first (a Matrix Market banner, a Harwell-Boeing
 * type code on line 3), then by extension, so a renamed file still reads and a
 * file that is neither gets one message naming both formats.
 */
#include "readutil.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- dispatch ----------------------------------------------------------- */

static int ext_is(const char *path, const char *ext)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        return 0;
    for (dot++; *dot && *ext; dot++, ext++)
        if (tolower((unsigned char)*dot) != *ext)
            return 0;
    return *dot == '\0' && *ext == '\0';
}

/* .rua .rsa .psa .cua ...: the Harwell-Boeing type code as extension; also .hb */
static int ext_is_hb(const char *path)
{
    if (ext_is(path, "hb"))
        return 1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base || strlen(dot) != 4)
        return 0;
    return strchr("rcpi", tolower((unsigned char)dot[1])) && strchr("usahzr", tolower((unsigned char)dot[2])) &&
           strchr("ae", tolower((unsigned char)dot[3]));
}

int matrix_read(const char *path, struct spmv_limits *lim, coo_matrix *A, spmv_error *err)
{
    memset(A, 0, sizeof *A);
    /* Look at the first bytes and lines without trusting them: a binary file
     * must not reach the line reader's limits before getting a clear answer. */
    FILE *f = fopen(path, "rb");
    if (!f)
        return spmv_fail(err, "%s:0: cannot open: %s", path, strerror(errno));
    char head[4][96];
    int nlines = 0, binary = 0;
    size_t got = 0;
    memset(head, 0, sizeof head);
    int c, col = 0;
    unsigned char first2[2] = {0, 0};
    while (nlines < 4 && (c = getc(f)) != EOF) {
        if (got < 2)
            first2[got] = (unsigned char)c;
        got++;
        if (c == '\n') {
            nlines++;
            col = 0;
            continue;
        }
        if (c == '\0')
            binary = 1;
        if (col < 95)
            head[nlines][col++] = (char)c;
        if (got > 4096)
            break;
    }
    int read_error = ferror(f);
    fclose(f);
    if (read_error)
        return spmv_fail(err, "%s:1: read error: %s", path, strerror(errno));
    if (got >= 2 && first2[0] == 0x1f && first2[1] == 0x8b)
        return spmv_fail(err, "%s:1: gzip-compressed file; decompress it first (gunzip)", path);
    if (strncmp(head[0], "%%MatrixMarket", 14) == 0 || ext_is(path, "mtx") || ext_is(path, "mm"))
        return mm_read(path, lim, A, err);
    int hb_type = 0;
    if (!binary && strlen(head[2]) >= 3 && head[3][0] == '(')
        hb_type = strchr("RCPIrcpi", head[2][0]) && strchr("USHZRushzr", head[2][1]) &&
                  strchr("AEae", head[2][2]);
    if (hb_type || ext_is_hb(path))
        return hb_read(path, lim, A, err);
    if (got == 0)
        return spmv_fail(err, "%s:1: empty file: neither Matrix Market nor Harwell-Boeing", path);
    return spmv_fail(err, "%s:1: neither a Matrix Market file (first line '%%%%MatrixMarket matrix "
                     "coordinate ...') nor a Harwell-Boeing file (type code like RUA on line 3, "
                     "format like (10I8) on line 4, or extension .rua/.rsa/.psa/.cua/...)%s", path,
                     binary ? "; it holds NUL bytes, a binary file?" : "");
}
