/* device/ranks.c - each rank: its rank, its device, its rows (device/ranks.h) */
#define _GNU_SOURCE   /* sched_getaffinity: the cores mpirun left this rank */
#include "ranks.h"
#include "precision.h"

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ranks_launcher_rank(void)
{
    const char *v[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK" };
    for (int i = 0; i < 3; i++)
        if (getenv(v[i]))
            return atoi(getenv(v[i]));
    return 0;
}

/* Each rank's device: the nth that --device matches, n its rank on this
 * node; rank 0 first (a refusal there stops the run before the others
 * look). On a CPU, PoCL starts a thread per core it sees in every rank:
 * unless POCL_MAX_PTHREAD_COUNT says otherwise, each rank gets the cores
 * mpirun bound it to (Open MPI binds each rank to a core for up to 2 ranks,
 * one rank alone included, to a socket beyond), or its share of the node's
 * where it is bound to none (mpirun --bind-to none). */
void ranks_open_device(spmv_run *run, const spmv_options *o, spmv_cl *cl, int rank, int *local_rank,
                       int *local_size)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, local_rank);
    MPI_Comm_size(node, local_size);
    MPI_Comm_free(&node);
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN), mine = online;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        mine = CPU_COUNT(&set);
    long threads = mine < online ? mine : mine / *local_size;
    if (!getenv("POCL_MAX_PTHREAD_COUNT") && (mine < online || *local_size > 1)) {
        char v[32];
        snprintf(v, sizeof v, "%ld", threads > 1 ? threads : 1);
        setenv("POCL_MAX_PTHREAD_COUNT", v, 1);
    }
    if (rank != 0)
        MPI_Barrier(MPI_COMM_WORLD);
    int matches = 0;
    spmv_cl_open_nth(cl, run, o->device, *local_rank, &matches);
    if (rank == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks    %d on this node, %d device%s match%s --device: rank r takes device r mod %d; rank 0 may "
               "run on %ld of %ld cores%s%s\n", *local_size, matches, matches == 1 ? "" : "s", matches == 1 ? "es" : "",
               matches, mine, online, getenv("POCL_MAX_PTHREAD_COUNT") ? ", PoCL threads a rank: " : "",
               getenv("POCL_MAX_PTHREAD_COUNT") ? getenv("POCL_MAX_PTHREAD_COUNT") : "");
}

void ranks_read_and_split(const spmv_step *step, spmv_options *o, const spmv_cl *cl, cg_system *s, mpi_split *m,
                          sys_info *si)
{
    memset(si, 0, sizeof *si);
    if (m->rank == 0) {
        spmv_cg_read_system(o, cl, step, s);
        if (m->size > s->n)
            spmv_die(SPMV_EXIT_USAGE, "%d ranks for %d rows: a rank needs at least one row (run at most %d ranks)",
                     m->size, s->n, s->n);
        *si = (sys_info){ .n = s->n, .nnz = s->A.nnz, .p = s->p, .tol = s->tol, .bb = s->bb, .st = s->st, .ok = 1 };
    }
    MPI_Bcast(si, sizeof *si, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (si->p == 'd' && !cl->fp64)
        spmv_skip(cl->run, step, o, cl, o->variant,
                  "this rank's device has no cl_khr_fp64, which --precision d needs");
    int vsize = spmv_prec_value_size(si->p);
    split_scatter(m->rank == 0 ? &s->A : NULL, m->rank == 0 ? s->val : NULL, m->rank == 0 ? s->bd : NULL, si->n,
                  vsize, m);
    split_localize(m);
}

void ranks_describe(const mpi_split *m, const spmv_cl *cl)
{
    struct {
        char dev[300];
        int row0, nloc, ninner, nghost, nrecv, send_total, nsend, stretch;
    } me, *all = NULL;
    snprintf(me.dev, sizeof me.dev, "%d:%d %s", cl->platform_index, cl->device_index, cl->device_name);
    me.row0 = m->row0, me.nloc = m->nloc, me.ninner = m->ninner, me.nghost = m->nghost;
    me.nrecv = m->nrecv, me.send_total = m->send_total, me.nsend = m->nsend, me.stretch = m->send_stretch >= 0;
    if (m->rank == 0 && !(all = malloc((size_t)m->size * sizeof *all)))
        spmv_die(SPMV_EXIT_RESOURCES, "out of host memory describing %d ranks", m->size);
    MPI_Gather(&me, sizeof me, MPI_BYTE, all, sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (int q = 0; q < m->size && m->rank == 0; q++)
        printf("rank %-3d %s: rows %d-%d, %d interior, %d ghosts from %d rank%s, %d entries to %d rank%s%s\n", q,
               all[q].dev, all[q].row0 + 1, all[q].row0 + all[q].nloc, all[q].ninner, all[q].nghost, all[q].nrecv,
               all[q].nrecv == 1 ? "" : "s", all[q].send_total, all[q].nsend, all[q].nsend == 1 ? "" : "s",
               !all[q].send_total ? "" : all[q].stretch ? " (one stretch: read as it is)" : " (packed)");
    free(all);
}
