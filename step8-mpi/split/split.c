/* split/split.c - the rows of each rank, its ghosts and the plan: split.h */
#include "split.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

#define TAG_ROWS 81
#define TAG_HALO 82

static void *take(size_t count, size_t size, const char *what)
{
    spmv_error err;
    void *p = spmv_alloc(count ? count : 1, size, what, &err);
    if (!p)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    return p;
}

/* the rank whose block holds global row c */
static int owner(int n, int size, int c)
{
    int base = n / size, rem = n % size, big = rem * (base + 1);
    return c < big ? c / (base + 1) : rem + (c - big) / base;
}

void split_scatter(const csr_matrix *A, const void *val, const void *b, int n, int vsize, mpi_split *m)
{
    MPI_Datatype vt = vsize == 4 ? MPI_FLOAT : MPI_DOUBLE;
    m->n = n, m->vsize = vsize;
    split_rows(n, m->size, m->rank, &m->row0, &m->nloc);
    csr_matrix *L = &m->A;
    memset(L, 0, sizeof *L);
    L->rows = m->nloc, L->cols = n;
    L->ptr = take((size_t)m->nloc + 1, sizeof(int), "this rank's row pointers");
    if (m->rank == 0) {
        for (int q = m->size - 1; q >= 0; q--) {   /* rank 0's own rows last: its copy stays */
            int r0, nl;
            split_rows(n, m->size, q, &r0, &nl);
            long long e0 = A->ptr[r0], ne = A->ptr[r0 + nl] - e0;
            for (int i = 0; i <= nl; i++)
                L->ptr[i] = (int)(A->ptr[r0 + i] - e0);
            if (q == 0) {
                L->nnz = ne;
                L->col = take((size_t)ne, sizeof(int), "this rank's column indices");
                m->val = take((size_t)ne, (size_t)vsize, "this rank's values");
                m->b = take((size_t)nl, (size_t)vsize, "this rank's b");
                memcpy(L->col, A->col + e0, (size_t)ne * sizeof(int));
                memcpy(m->val, (const char *)val + e0 * vsize, (size_t)ne * vsize);
                memcpy(m->b, (const char *)b + (size_t)r0 * vsize, (size_t)nl * vsize);
                break;
            }
            MPI_Send(L->ptr, nl + 1, MPI_INT, q, TAG_ROWS, MPI_COMM_WORLD);
            MPI_Send(A->col + e0, (int)ne, MPI_INT, q, TAG_ROWS, MPI_COMM_WORLD);
            MPI_Send((const char *)val + e0 * vsize, (int)ne, vt, q, TAG_ROWS, MPI_COMM_WORLD);
            MPI_Send((const char *)b + (size_t)r0 * vsize, nl, vt, q, TAG_ROWS, MPI_COMM_WORLD);
        }
    } else {
        MPI_Recv(L->ptr, m->nloc + 1, MPI_INT, 0, TAG_ROWS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        L->nnz = L->ptr[m->nloc];
        L->col = take((size_t)L->nnz, sizeof(int), "this rank's column indices");
        m->val = take((size_t)L->nnz, (size_t)vsize, "this rank's values");
        m->b = take((size_t)m->nloc, (size_t)vsize, "this rank's b");
        MPI_Recv(L->col, (int)L->nnz, MPI_INT, 0, TAG_ROWS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(m->val, (int)L->nnz, vt, 0, TAG_ROWS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(m->b, m->nloc, vt, 0, TAG_ROWS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void split_localize(mpi_split *m)
{
    csr_matrix *L = &m->A;
    int nl = m->nloc, r0 = m->row0, P = m->size;
    /* 1. which rows read another block; the ghosts, sorted and unique */
    int *outside = take((size_t)nl, sizeof(int), "the boundary rows");
    long long nout = 0;
    for (int i = 0; i < nl; i++) {
        outside[i] = 0;
        for (int k = L->ptr[i]; k < L->ptr[i + 1]; k++)
            if (L->col[k] < r0 || L->col[k] >= r0 + nl)
                outside[i] = 1, nout++;
    }
    int *ghost = take((size_t)nout, sizeof(int), "the ghosts");
    long long g = 0;
    for (int i = 0; i < nl; i++)
        for (int k = L->ptr[i]; outside[i] && k < L->ptr[i + 1]; k++)
            if (L->col[k] < r0 || L->col[k] >= r0 + nl)
                ghost[g++] = L->col[k];
    qsort(ghost, (size_t)g, sizeof *ghost, cmp_int);
    int ng = 0;
    for (long long k = 0; k < g; k++)
        if (ng == 0 || ghost[ng - 1] != ghost[k])
            ghost[ng++] = ghost[k];
    m->nghost = ng;
    /* 2. the new order: interior rows, then boundary rows */
    m->perm = take((size_t)nl, sizeof(int), "the row order");
    int *inv = take((size_t)nl, sizeof(int), "the row order");
    int at = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nl; i++)
            if (outside[i] == pass)
                m->perm[at] = i, inv[i] = at++;
    m->ninner = 0;
    while (m->ninner < nl && !outside[m->perm[m->ninner]])
        m->ninner++;
    /* 3. the local matrix: rows in the new order, columns local */
    int *ptr = take((size_t)nl + 1, sizeof(int), "the local row pointers");
    int *col = take((size_t)L->nnz, sizeof(int), "the local columns");
    char *val = take((size_t)L->nnz, (size_t)m->vsize, "the local values"), *b = take((size_t)nl, (size_t)m->vsize, "b");
    ptr[0] = 0;
    for (int i = 0; i < nl; i++) {
        int old = m->perm[i], e = ptr[i];
        for (int k = L->ptr[old]; k < L->ptr[old + 1]; k++, e++) {
            int c = L->col[k];
            if (c >= r0 && c < r0 + nl) {
                col[e] = inv[c - r0];
            } else {
                int *hit = bsearch(&c, ghost, (size_t)ng, sizeof *ghost, cmp_int);
                col[e] = nl + (int)(hit - ghost);
            }
            memcpy(val + (size_t)e * m->vsize, (char *)m->val + (size_t)k * m->vsize, (size_t)m->vsize);
        }
        ptr[i + 1] = e;
        memcpy(b + (size_t)i * m->vsize, (char *)m->b + (size_t)old * m->vsize, (size_t)m->vsize);
    }
    free(L->ptr), free(L->col), free(m->val), free(m->b);
    L->ptr = ptr, L->col = col, L->cols = nl + ng, m->val = val, m->b = b;
    /* 4. the plan: how many ghosts from each rank, told to each */
    int *need = take((size_t)P, sizeof(int), "the plan"), *give = take((size_t)P, sizeof(int), "the plan");
    int *need_at = take((size_t)P, sizeof(int), "the plan"), *give_at = take((size_t)P, sizeof(int), "the plan");
    memset(need, 0, (size_t)P * sizeof(int));
    for (int k = 0; k < ng; k++)
        need[owner(m->n, P, ghost[k])]++;
    MPI_Alltoall(need, 1, MPI_INT, give, 1, MPI_INT, MPI_COMM_WORLD);
    long long total = 0;
    for (int q = 0; q < P; q++)
        need_at[q] = q ? need_at[q - 1] + need[q - 1] : 0, give_at[q] = (int)total, total += give[q];
    m->send_total = (int)total;
    m->send_idx = take((size_t)total, sizeof(int), "the entries others read");
    MPI_Alltoallv(ghost, need, need_at, MPI_INT, m->send_idx, give, give_at, MPI_INT, MPI_COMM_WORLD);
    m->send_stretch = total ? inv[m->send_idx[0] - r0] : -1;
    for (long long k = 0; k < total; k++) {
        m->send_idx[k] = inv[m->send_idx[k] - r0];   /* a global row of this block, as a local row */
        if (m->send_idx[k] != m->send_stretch + k)
            m->send_stretch = -1;
    }
    m->recv_rank = take((size_t)P, sizeof(int), "the plan"), m->recv_count = take((size_t)P, sizeof(int), "the plan");
    m->recv_at = take((size_t)P, sizeof(int), "the plan"), m->send_rank = take((size_t)P, sizeof(int), "the plan");
    m->send_count = take((size_t)P, sizeof(int), "the plan"), m->send_at = take((size_t)P, sizeof(int), "the plan");
    m->nrecv = m->nsend = 0;
    for (int q = 0; q < P; q++) {
        if (need[q])
            m->recv_rank[m->nrecv] = q, m->recv_count[m->nrecv] = need[q], m->recv_at[m->nrecv++] = need_at[q];
        if (give[q])
            m->send_rank[m->nsend] = q, m->send_count[m->nsend] = give[q], m->send_at[m->nsend++] = give_at[q];
    }
    m->req = take((size_t)(m->nrecv + m->nsend), sizeof(MPI_Request), "the plan");
    free(outside), free(ghost), free(inv), free(need), free(give), free(need_at), free(give_at);
}

void split_exchange(mpi_split *m, const void *send, void *ghost, MPI_Datatype type)
{
    int k = 0;
    for (int i = 0; i < m->nrecv; i++)
        MPI_Irecv((char *)ghost + (size_t)m->recv_at[i] * m->vsize, m->recv_count[i], type, m->recv_rank[i],
                  TAG_HALO, MPI_COMM_WORLD, &m->req[k++]);
    for (int i = 0; i < m->nsend; i++)
        MPI_Isend((const char *)send + (size_t)m->send_at[i] * m->vsize, m->send_count[i], type, m->send_rank[i],
                  TAG_HALO, MPI_COMM_WORLD, &m->req[k++]);
    MPI_Waitall(k, m->req, MPI_STATUSES_IGNORE);
}

void split_gather(const mpi_split *m, const double *x, double *xall)
{
    double *xb = take((size_t)m->nloc, sizeof *xb, "x in row order");
    for (int i = 0; i < m->nloc; i++)
        xb[m->perm[i]] = x[i];
    int *count = NULL, *at = NULL;
    if (m->rank == 0) {
        count = take((size_t)m->size, sizeof(int), "the gather"), at = take((size_t)m->size, sizeof(int), "the gather");
        for (int q = 0; q < m->size; q++)
            split_rows(m->n, m->size, q, &at[q], &count[q]);
    }
    MPI_Gatherv(xb, m->nloc, MPI_DOUBLE, xall, count, at, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    free(xb), free(count), free(at);
}

void split_free(mpi_split *m)
{
    free(m->A.ptr), free(m->A.col), free(m->val), free(m->b), free(m->perm), free(m->send_idx);
    free(m->recv_rank), free(m->recv_count), free(m->recv_at), free(m->send_rank), free(m->send_count);
    free(m->send_at), free(m->req);
    memset(m, 0, sizeof *m);
}
