/* vendor/cuda-mgpu-cg/main.c - chapter 8's yardstick from the CUDA side:
 * chapter 7's CG over the GPUs of one node, in one process, with no host in
 * the loop. Each GPU runs the whole solve of its rows in one persistent
 * cooperative kernel (solver.cu); the GPUs add up their dots through small
 * mailboxes and read each other's r through peer memory. Where step8 goes
 * through the host twice an iteration (MPI_Allreduce) and stages its halo
 * there, this is what the same GPUs do when nothing leaves them.
 *
 *   make cusparse                                  build/cuda-mgpu-cg, where nvcc is found
 *   build/cuda-mgpu-cg --gpus 2 --gen poisson:nx=4096,ny=8192 --precision s --tol 0 --maxiter 200 --csv F
 *   build/cuda-mgpu-cg --matrix tests/data/1138_bus.mtx --precision d --tol 1e-8
 *
 * The system is chapter 7's (step7-cg/reference/system.c: the same loader,
 * --gen, seed and b as step7 and step8), split as step8 splits it (GPU g of
 * G owns a block of n / G rows, the first n mod G one more). The host's CG
 * in double (reference/cg.c) gives the count a converged solve is held to;
 * the true residual is recomputed on the host in double from the gathered x,
 * and where the recurrence met --tol and it did not, the solve is restarted
 * from r = b - A x, as step8 does (at most 10 times; a launch each).
 * The row is chapter 8's (step8-mpi/report/report.c's header); its profile columns
 * are empty: the kernel runs the whole solve, nothing inside it is timed.
 *
 * The time: one untimed launch of a few iterations, then --runs solves,
 * each launch timed on the host clock from the first GPU's launch to the
 * last GPU's end (a restart's launch added, the host's check between them
 * not); ms_per_iter is the median solve's time over its iterations (the
 * start's pass and reduction included).
 * SPMV_MGPU_SYNC=host sends the dots through one mailbox in host memory
 * instead of each GPU's own (README: the two measured).
 */
#include "../../step7-cg/reference/cg.h"
#include "../../step7-cg/reference/system.h"
#include "../../step8-mpi/split/rows.h"
#include "cuda.h"
#include "precision.h"
#include "results.h"
#include "solver.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_RUNS 5
#define WARMUP_ITERATIONS 10
#define MAX_RESTARTS 10   /* step8's */
#define CHOICE_SHARE 4096 /* chapter 6's rule as step7 and step8 ask it */
#define WAIT_S 10.0   /* a GPU that waits this long for another gives up: the solve ends, FAIL */
static const spmv_step STEP = {
    .name = "cuda-mgpu-cg",
    .title = "chapter 7's CG over the GPUs of one node, one persistent cooperative kernel a GPU, no host in the "
             "loop: chapter 8's CUDA yardstick\n\n"
             "Its own options (with the course's below):\n"
             "  --gpus G            CUDA devices 0 .. G-1 (CUDA_VISIBLE_DEVICES picks them) (default: every one "
             "visible)\n"
             "  --runs N            timed solves after one untimed; ms an iteration is the median's (default 5)",
    .kernel_path = "(none: solver.cu, compiled by nvcc)",
    .takes = OPT_PRECISION | OPT_CG | OPT_GROUP,
    .model_bytes = 0,
    .default_matrix = "--gen poisson:nx=256, the 5-point Laplacian on a 256 x 256 grid (step8's)",
    .precisions = "sd",
    .refusals = (const spmv_note[]){
        { "--device", "the GPUs are CUDA devices 0 .. G-1 of --gpus G; CUDA_VISIBLE_DEVICES picks them" },
        { "--local-size", "blocks of 256 threads, as many as fit (a cooperative launch)" },
        { "--kernel-file", "the kernel is CUDA, compiled into the program" },
        { "--cl-opts", "the kernel is CUDA, compiled into the program" },
        { "--grid", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },
        { "--radius", "the grid's random weights are not symmetric; CG takes --gen poisson:nx=W[,ny=H]" },
        { "--x", "the right-hand side is --b FILE" },
        { "--warmup", "one untimed solve of a few iterations, always" },
        { "--save-x", "not in this yardstick (step8 takes it)" },
        { "--save-b", "not in this yardstick (step8 takes it)" },
        { NULL, NULL } },
    .defaults = (const spmv_note[]){ { "--group-size", "chapter 6's group, 2 on the Poisson rows; here 1 to 32, threads a row of the product" },
                                     { NULL, NULL } },
    .exit_statuses = "0 solved and checked (or the fixed iterations of --tol 0 done and checked), 1 check failed "
                     "or breakdown (A not positive definite), 2 bad input, no CUDA device or out of memory, 4 "
                     "--maxiter reached before --tol",
    /* the host's estimate (capacity.h): the allowance chapter 6 makes for its
     * adaptive plan, 1 byte a row and 1 a nonzero (this program makes no plan) */
    .holds = { .part = "the adaptive plan", .part_row = 1, .part_nnz = 1 },
};
#define CSV_HEADER                                                                                          \
    "step,kernel,ranks,device,driver,matrix,rows,nnz,precision,iterations,converged,rel_residual,true_residual," \
    "tol,ms_per_iter,ms_total,prof_ms_per_iter,kernels_ms,halo_read_ms,halo_mpi_ms,halo_write_ms,"            \
    "reduce_read_ms,allreduce_ms,reductions,rows_max,ghosts_max,halo_values,check,date,git_rev,product_ms"
#define REDUCTIONS 2   /* an iteration: p.Ap and r.r, as step8's classic version */

/* --gpus G, --runs N: this yardstick's own, taken out of argv before the
 * course's parser reads the rest */
static int take_int(int *argc, char **argv, const char *flag, int lo, int hi, int def)
{
    size_t len = strlen(flag);
    int value = def, out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, flag) == 0) {
            if (i + 1 >= *argc)
                spmv_die(SPMV_EXIT_USAGE, "%s needs a value (see %s --help)", flag, STEP.name);
            v = argv[++i];
        } else if (strncmp(a, flag, len) == 0 && a[len] == '=') {
            v = a + len + 1;
        } else {
            argv[out++] = argv[i];
            continue;
        }
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (errno || end == v || *end || x < lo || x > hi)
            spmv_die(SPMV_EXIT_USAGE, "%s wants a whole number from %d to %d, not '%s' (see %s --help)", flag, lo, hi,
                     v, STEP.name);
        value = (int)x;
    }
    *argc = out;
    argv[out] = NULL;
    return value;
}

typedef struct {
    int ngpu, host_box, blocks[MGPU_MAX], per_sm[MGPU_MAX];
    mgpu_part part[MGPU_MAX];
    cudaStream_t stream[MGPU_MAX];
    mgpu_mbox *box[MGPU_MAX];   /* each GPU's (peer), or box[0] alone in host memory */
    mgpu_state st[MGPU_MAX];    /* what each GPU's kernel left */
} mgpu;

/* One launch on every GPU (restart: from the x the last one left): the
 * states and mailboxes zeroed, the kernels launched one after the other
 * (none waits for the host), every GPU waited for. Returns the host clock's
 * ms from the first launch to the last GPU's end. */
static double launch_all(mgpu *m, double stop, int maxiter, int restart)
{
    for (int g = 0; g < m->ngpu; g++) {
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaMemsetAsync(m->part[g].state, 0, sizeof(mgpu_state), m->stream[g]));
        if (!m->host_box)
            CUDA_CHECK(cudaMemsetAsync(m->box[g], 0, sizeof(mgpu_mbox), m->stream[g]));
        m->part[g].stop = stop;
        m->part[g].maxiter = maxiter;
        m->part[g].restart = restart;
    }
    if (m->host_box)
        memset(m->box[0], 0, sizeof(mgpu_mbox));
    for (int g = 0; g < m->ngpu; g++)
        CUDA_CHECK(cudaStreamSynchronize(m->stream[g]));
    double t0 = spmv_now();
    for (int g = 0; g < m->ngpu; g++) {
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(mgpu_launch(&m->part[g], m->blocks[g], m->stream[g]));
    }
    for (int g = 0; g < m->ngpu; g++)
        CUDA_CHECK(cudaStreamSynchronize(m->stream[g]));
    double ms = (spmv_now() - t0) * 1e3;
    for (int g = 0; g < m->ngpu; g++) {
        CUDA_CHECK(cudaMemcpy(&m->st[g], m->part[g].state, sizeof(mgpu_state), cudaMemcpyDeviceToHost));
        if (m->st[g].end == MGPU_HUNG)
            spmv_die(SPMV_EXIT_FAIL, "GPU %d waited more than %g s for the others' sums at reduction %d: the GPUs "
                     "did not run together (another program on one of them?)", g, WAIT_S, m->st[g].hung_at);
    }
    for (int g = 1; g < m->ngpu; g++)   /* every GPU added the same numbers: the same decisions */
        if (m->st[g].iterations != m->st[0].iterations || m->st[g].end != m->st[0].end ||
            memcmp(&m->st[g].rr, &m->st[0].rr, sizeof(double)) != 0)
            spmv_die(SPMV_EXIT_FAIL, "GPU %d ended after %d iterations (r.r %.17g), GPU 0 after %d (r.r %.17g): "
                     "their sums differ", g, m->st[g].iterations, m->st[g].rr, m->st[0].iterations, m->st[0].rr);
    return ms;
}

/* x of every GPU into x (n values, double, global order); xv: room for the
 * largest block as the GPUs store it */
static void gather_x(const mgpu *m, int single, int vsize, void *xv, double *x)
{
    for (int g = 0; g < m->ngpu; g++) {
        const mgpu_part *a = &m->part[g];
        CUDA_CHECK(cudaMemcpy(xv, a->x, (size_t)a->nloc * (size_t)vsize, cudaMemcpyDeviceToHost));
        for (int i = 0; i < a->nloc; i++)
            x[a->row0 + i] = single ? ((float *)xv)[i] : ((double *)xv)[i];
    }
}

typedef struct {
    int iterations, end, restarts;   /* in all launches; MGPU_* of the last */
    double rr, pq, truer, ms;        /* ms: the launches' time alone */
} solve_result;

/* A solve as step8 makes it: from x = 0, restarted from r = b - A x (at
 * most MAX_RESTARTS times, within maxiter iterations in all) where the
 * recurrence met --tol and the true residual, recomputed on the host from
 * the gathered x, did not. x is gathered (and *truer set) where that test
 * needs it, and always when `last` (which also prints the restarts). */
static void solve(mgpu *m, const cg_system *s, int fixed, int maxiter, void *xv, double *x, int last,
                  solve_result *res)
{
    memset(res, 0, sizeof *res);
    double stop = fixed ? 0 : s->tol * sqrt(s->bb);
    for (;;) {
        res->ms += launch_all(m, stop, maxiter - res->iterations, res->restarts > 0);
        res->iterations += m->st[0].iterations;
        res->end = m->st[0].end;
        res->rr = m->st[0].rr, res->pq = m->st[0].pq;
        int may_restart = res->end == MGPU_CONVERGED && !fixed;
        if (!may_restart && !last)
            return;
        gather_x(m, s->single, s->vsize, xv, x);
        res->truer = s->bb > 0 ? spmv_cg_true_residual(&s->A, s->b, x) : 0;
        if (!(may_restart && res->truer > s->tol && res->iterations < maxiter && res->restarts < MAX_RESTARTS))
            return;
        if (last)
            printf("restart  after %d iterations: |r|/|b| = %.3g by the recurrence, but |b - A x|/|b| = %.3g; "
                   "r = b - A x, p = r, and on\n", res->iterations, sqrt(res->rr / s->bb), res->truer);
        res->restarts++;
    }
}

int main(int argc, char **argv)
{
    /* 1. Options and the GPUs */
    int want_gpus = take_int(&argc, argv, "--gpus", 1, MGPU_MAX, 0);
    int runs = take_int(&argc, argv, "--runs", 1, 1000, DEFAULT_RUNS);
    spmv_run run;
    spmv_options o;
    spmv_parse(argc, argv, &STEP, &o, &run);
    if (o.history)
        spmv_die(SPMV_EXIT_USAGE, "--history: %s keeps no residual history (step7 --kernel plain --history does)",
                 STEP.name);
    if (o.group && (o.group > 32 || (o.group & (o.group - 1))))
        spmv_die(SPMV_EXIT_USAGE, "--group-size %d: threads a row are 1, 2, 4, 8, 16 or 32", o.group);
    if (!o.matrix && !o.gen)
        o.gen = "poisson:nx=256";   /* step8's default matrix */
    int count = 0;
    cudaError_t ce = cudaGetDeviceCount(&count);
    if (ce != cudaSuccess || count == 0)
        spmv_die(SPMV_EXIT_USAGE, "no CUDA device (%s): %s needs NVIDIA GPUs and their driver",
                 ce != cudaSuccess ? cudaGetErrorString(ce) : "none found", STEP.name);
    int ngpu = want_gpus ? want_gpus : count < MGPU_MAX ? count : MGPU_MAX;
    if (ngpu > count)
        spmv_die(SPMV_EXIT_USAGE, "--gpus %d: CUDA sees %d device%s (CUDA_VISIBLE_DEVICES picks them)", ngpu, count,
                 count == 1 ? "" : "s");
    mgpu m;
    memset(&m, 0, sizeof m);
    m.ngpu = ngpu;
    const char *sync = getenv("SPMV_MGPU_SYNC");
    if (sync && *sync && strcmp(sync, "host") != 0 && strcmp(sync, "peer") != 0)
        spmv_die(SPMV_EXIT_USAGE, "SPMV_MGPU_SYNC=%s: peer (each GPU's own mailbox, the default) or host (one in "
                 "host memory)", sync);
    m.host_box = sync && strcmp(sync, "host") == 0;
    char name[256] = "";
    size_t mem_min = 0;
    int dv = 0, rt = 0;
    for (int g = 0; g < ngpu; g++) {
        struct cudaDeviceProp p;
        CUDA_CHECK(cudaGetDeviceProperties(&p, g));
        if (!p.cooperativeLaunch)
            spmv_die(SPMV_EXIT_USAGE, "CUDA device %d (%s) cannot launch a cooperative kernel, which %s runs", g,
                     p.name, STEP.name);
        printf("gpu %-4d %s: compute capability %d.%d, %d multiprocessors, %.1f GiB\n", g, p.name, p.major, p.minor,
               p.multiProcessorCount, p.totalGlobalMem / 1073741824.0);
        if (g == 0)
            snprintf(name, sizeof name, "%s", p.name);
        if (g == 0 || p.totalGlobalMem < mem_min)
            mem_min = p.totalGlobalMem;
    }
    for (int g = 0; g < ngpu; g++)   /* each GPU reads the others' r and b, and (peer) writes their mailboxes */
        for (int h = 0; h < ngpu; h++) {
            int ok = 0;
            if (h == g)
                continue;
            CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, g, h));
            if (!ok)
                spmv_die(SPMV_EXIT_USAGE, "CUDA devices %d and %d cannot reach each other's memory (peer access), "
                         "which the ghosts of p are read through: run --gpus 1, or pick GPUs that can with "
                         "CUDA_VISIBLE_DEVICES", g, h);
            CUDA_CHECK(cudaSetDevice(g));
            cudaError_t pe = cudaDeviceEnablePeerAccess(h, 0);
            if (pe == cudaErrorPeerAccessAlreadyEnabled)
                (void)cudaGetLastError();
            else
                CUDA_CHECK(pe);
        }
    CUDA_CHECK(cudaDriverGetVersion(&dv));
    CUDA_CHECK(cudaRuntimeGetVersion(&rt));
    char kdrv[64], driver[160];
    nvidia_driver(kdrv, sizeof kdrv);
    /* no commas: the CSV writer would turn them into spaces */
    snprintf(driver, sizeof driver, "CUDA %d.%d%s%s%s", dv / 1000, dv % 1000 / 10, *kdrv ? " (NVIDIA driver " : "",
             kdrv, *kdrv ? ")" : "");
    printf("gpus     %d of %d, each a block of rows%s; %s; CUDA runtime %d.%d\n", ngpu, count,
           ngpu > 1 ? ", peer access between every pair" : "", driver, rt / 1000, rt % 1000 / 10);

    /* 2. The system (chapter 7's), the host's CG */
    spmv_cl cl;   /* what reference/system.c asks of a device: its name, doubles, the size checks, the run */
    memset(&cl, 0, sizeof cl);
    cl.run = &run;
    snprintf(cl.device_name, sizeof cl.device_name, "%s", name);
    cl.fp64 = 1;
    char label[300];
    snprintf(label, sizeof label, "%d x %s", ngpu, name);
    spmv_limits_device(&cl.limits, label, 0, (unsigned long long)mem_min * (unsigned long long)ngpu,
                       SPMV_MEM_DEVICE);
    cg_system s;
    memset(&s, 0, sizeof s);
    spmv_cg_read_system(&o, &cl, &STEP, &s);
    int n = s.n, single = s.single, vsize = s.vsize, fixed = o.tol_set && o.tol == 0;
    if (ngpu > n)
        spmv_die(SPMV_EXIT_USAGE, "%d GPUs for %d rows: a GPU needs at least one row (--gpus %d at most)", ngpu, n, n);
    int maxiter = o.maxiter ? o.maxiter : (n < INT_MAX / 10 ? 10 * (n > 10 ? n : 10) : INT_MAX - 1);
    double bnorm = sqrt(s.bb);
    printf("b        %s, |b| = %.6g; x0 = 0%s\n", o.b_file ? o.b_file : "seeded random in [-1, 1)", bnorm,
           fixed ? "; --tol 0: exactly --maxiter iterations, a timing run" : "");
    spmv_cg_result host = { 0 };
    spmv_error err;
    double *xh = fixed ? NULL : spmv_alloc((size_t)n, sizeof *xh, "host CG x", &err);
    double *x = spmv_alloc((size_t)n, sizeof *x, "x gathered", &err);
    unsigned char *mark = x ? spmv_alloc((size_t)n, 1, "the ghost marks", &err) : NULL;
    int *ghost = mark ? spmv_alloc((size_t)n, sizeof *ghost, "the ghosts", &err) : NULL;
    void *xv = ghost ? spmv_alloc((size_t)n, (size_t)vsize, "x read back", &err) : NULL;
    if (!xv || (!fixed && !xh))
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    memset(mark, 0, (size_t)n);
    spmv_cg_host_count(&s, fixed, maxiter, xh, &host);

    /* 3. The split and each GPU's buffers: its rows of A (global columns),
     * b, x, r, q, all of p, its ghosts, its state and (peer) mailbox */
    int group = o.group ? o.group : spmv_default_group(&s.st);   /* chapter 6's rule, as step8 asks it */
    const char *choice = o.group ? "vector" : spmv_csr_choose(&s.st, 1, CHOICE_SHARE, group);
    int lanes = strcmp(choice, "scalar") == 0 ? 1 : group;
    long long rows_max = 0, ghosts_max = 0, halo = 0;
    for (int g = 0; g < ngpu; g++) {
        mgpu_part *a = &m.part[g];
        a->g = g, a->ngpu = ngpu, a->n = n, a->single = single, a->lanes = lanes, a->wait_s = WAIT_S;
        split_rows(n, ngpu, g, &a->row0, &a->nloc);
        for (int h = 0, nl; h < ngpu; h++)
            split_rows(n, ngpu, h, &a->row0_of[h], &nl);
        a->row0_of[ngpu] = n;
        int r0 = a->row0, nl = a->nloc, ng = 0;
        long long e0 = s.A.ptr[r0], ne = s.A.ptr[r0 + nl] - e0;
        for (long long k = e0; k < e0 + ne; k++) {
            int c = s.A.col[k];
            if (c < r0 || c >= r0 + nl)
                mark[c] = 1;
        }
        for (int c = 0; c < n; c++)
            if (mark[c])
                ghost[ng++] = c, mark[c] = 0;
        int *lptr = spmv_alloc((size_t)nl + 1, sizeof *lptr, "a GPU's row pointers", &err);
        if (!lptr)
            spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
        for (int i = 0; i <= nl; i++)
            lptr[i] = (int)(s.A.ptr[r0 + i] - e0);
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream[g], cudaStreamNonBlocking));
        size_t vb = (size_t)nl * (size_t)vsize;
        a->ptr = dev_buffer(((size_t)nl + 1) * sizeof(int), lptr, "row pointers", name);
        a->col = dev_buffer((size_t)ne * sizeof(int), s.A.col + e0, "column indices", name);
        a->val = dev_buffer((size_t)ne * (size_t)vsize, (const char *)s.val + e0 * vsize, "matrix values", name);
        a->b = dev_buffer(vb, (const char *)s.bd + (size_t)r0 * (size_t)vsize, "b", name);
        a->x = dev_buffer(vb, NULL, "x", name);
        a->r = dev_buffer(vb, NULL, "r", name);
        a->q = dev_buffer(vb, NULL, "q", name);
        a->p = dev_buffer((size_t)n * (size_t)vsize, NULL, "p (all n entries)", name);
        a->ghost = dev_buffer((size_t)ng * sizeof(int), ghost, "the ghosts' indices", name);
        a->nghost = ng;
        a->state = dev_buffer(sizeof(mgpu_state), NULL, "the solve's state", name);
        if (!m.host_box)
            m.box[g] = dev_buffer(sizeof(mgpu_mbox), NULL, "the mailbox", name);
        free(lptr);
        int owners = 0;
        for (int h = 0, k = 0; h < ngpu; h++) {
            int from = k;
            while (k < ng && ghost[k] < a->row0_of[h + 1])
                k++;
            owners += k > from;
        }
        printf("gpu %-4d rows %d-%d (%lld nonzeros), %d ghosts from %d GPU%s\n", g, r0 + 1, r0 + nl, ne, ng, owners,
               owners == 1 ? "" : "s");
        rows_max = nl > rows_max ? nl : rows_max;
        ghosts_max = ng > ghosts_max ? ng : ghosts_max;
        halo += ng;
    }
    if (m.host_box) {   /* one mailbox every GPU writes and reads across the bus */
        CUDA_CHECK(cudaHostAlloc((void **)&m.box[0], sizeof(mgpu_mbox), cudaHostAllocMapped | cudaHostAllocPortable));
        void *dptr;
        CUDA_CHECK(cudaHostGetDevicePointer(&dptr, m.box[0], 0));
        for (int g = 0; g < ngpu; g++)
            m.part[g].to[0] = m.part[g].mine = dptr, m.part[g].nto = 1;
    }
    for (int g = 0; g < ngpu; g++) {
        mgpu_part *a = &m.part[g];
        for (int h = 0; h < ngpu; h++) {
            a->r_of[h] = m.part[h].r;
            a->b_of[h] = m.part[h].b;
            a->x_of[h] = m.part[h].x;
            if (!m.host_box)
                a->to[h] = m.box[h];
        }
        if (!m.host_box)
            a->nto = ngpu, a->mine = m.box[g];
    }

    /* 4. The kernel: solver.cu's, for this precision and group */
    printf("kernel   mgpu_cg<%s, %d>: the whole solve, one cooperative launch a GPU; %d thread%s a row of the "
           "product%s; per iteration %d sums over the GPUs (%s) and one grid.sync(), the ghosts of p from their "
           "owners' r\n", single ? "float" : "double", lanes, lanes, lanes == 1 ? "" : "s",
           o.group ? " (--group-size)" : lanes == 1 ? " (chapter 6's rule: scalar)" : " (chapter 6's rule: its group)",
           REDUCTIONS,
           m.host_box ? "through one mailbox in host memory, SPMV_MGPU_SYNC=host"
                      : ngpu > 1 ? "each GPU's sum written into every GPU's mailbox" : "one GPU: its own mailbox");

    /* 5. Work sizes: on each GPU as many blocks as fit at once (a
     * cooperative launch), no more than the rows need; SPMV_MGPU_PER_SM=N
     * at most N a multiprocessor (README: 4 and 6 measured) */
    const char *cap_env = getenv("SPMV_MGPU_PER_SM");
    int cap = cap_env ? atoi(cap_env) : 0;
    if (cap_env && (cap < 1 || cap > 64))
        spmv_die(SPMV_EXIT_USAGE, "SPMV_MGPU_PER_SM=%s: blocks a multiprocessor, 1 to 64", cap_env);
    for (int g = 0; g < ngpu; g++) {
        CUDA_CHECK(cudaSetDevice(g));
        m.blocks[g] = mgpu_grid_blocks(single, lanes, m.part[g].nloc, cap, &m.per_sm[g]);
        if (m.blocks[g] < 1)
            spmv_die(SPMV_EXIT_FAIL, "no block of the kernel fits on CUDA device %d (%s)", g,
                     cudaGetErrorString(cudaGetLastError()));
        m.part[g].partial = dev_buffer((size_t)m.blocks[g] * (size_t)vsize, NULL, "the blocks' sums", name);
        printf("grid %-4d %d blocks of %d threads (%d a multiprocessor)\n", g, m.blocks[g], MGPU_BLOCK, m.per_sm[g]);
    }

    /* 6. An untimed launch of a few iterations, then the timed solves */
    launch_all(&m, -1, maxiter < WARMUP_ITERATIONS ? maxiter : WARMUP_ITERATIONS, 0);
    double *ms = spmv_alloc((size_t)runs, sizeof *ms, "the solves' times", &err);
    if (!ms)
        spmv_die(SPMV_EXIT_USAGE, "%s", err.msg);
    solve_result res = { 0 };
    for (int k = 0; k < runs; k++) {
        solve(&m, &s, fixed, maxiter, xv, x, k == runs - 1, &res);
        ms[k] = res.ms;
    }
    int it = res.iterations, end = res.end;
    double ms_solve = 0, ms_min = 0;
    spmv_stats(ms, runs, &ms_solve, &ms_min);

    /* 7. The check (step8's: the true residual, the count against the host's
     * CG), the time, the row */
    int converged = end == MGPU_CONVERGED, pass;
    double rel = s.bb > 0 ? sqrt(res.rr / s.bb) : 0, truer = res.truer;
    FILE *out = spmv_results(&run);
    if (end == MGPU_BREAKDOWN) {
        fprintf(stderr, "%s: breakdown at iteration %d: p.Ap = %g <= 0, so the matrix is not positive definite "
                "(CG needs A symmetric positive definite)\n", STEP.name, it + 1, res.pq);
        pass = 0;
    } else {
        if (converged)
            printf("solve    converged in %d iterations: |r|/|b| = %.3g (the recurrence's) <= %.3g\n", it, rel, s.tol);
        else
            printf("solve    %d iterations%s: |r|/|b| = %.3g (the recurrence's)\n", it,
                   fixed ? " (--tol 0)" : ", --maxiter reached", rel);
        if (res.restarts)
            printf("restarts %d (each one product and one pass more, inside the timed solves)\n", res.restarts);
        printf("true     |b - A x|/|b| = %.3g (the host, in double, from the gathered x)\n", truer);
        if (converged) {
            pass = truer <= s.tol || (s.bb == 0 && truer == 0);
            printf("check    the true residual %s the tolerance %.3g\n", pass ? "meets" : "misses", s.tol);
        } else {
            double eps = single ? 0x1p-24 : 0x1p-53, floor_ = 100 * eps * sqrt((double)n);
            pass = fabs(truer - rel) <= 0.1 * rel + floor_;
            printf("check    the true residual %s the recurrence's within 10%% + %.2g\n", pass ? "follows" : "leaves",
                   floor_);
        }
        if (!fixed && converged && host.end == CG_CONVERGED) {   /* step8's margins */
            int margin = single ? host.iterations / 2 + 10 : 5 + host.iterations / 10;
            int ok = abs(it - host.iterations) <= margin;
            printf("check    %d iterations, the host's CG in double %d: %s (margin %d, %s)\n", it, host.iterations,
                   ok ? "agree" : "DISAGREE", margin, single ? "float: half the host's count + 10" : "double: 5 + 10%");
            pass = pass && ok;
        }
    }
    double ms_iter = it > 0 ? ms_solve / it : 0;
    if (pass && it > 0)
        fprintf(out, "time     %.4f ms an iteration (median of %d solves, host clock from the first launch to the last "
                "GPU's end; min %.4f), %.3f ms a solve; %d GPU%s\n", ms_iter, runs, ms_min / it, ms_solve, ngpu,
                ngpu == 1 ? "" : "s");
    fprintf(out, "check: %s\n", pass ? "PASS" : "FAIL");
    if (o.csv) {
        FILE *f = spmv_csv_append(o.csv, CSV_HEADER);
        char date[32];
        time_t t = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t));
        fprintf(f, "cuda-mgpu,mgpu-n%d,%d,", ngpu, ngpu);
        spmv_csv_field(f, name), fputc(',', f), spmv_csv_field(f, driver), fputc(',', f);
        spmv_csv_field(f, s.A.origin.name);
        fprintf(f, ",%d,%lld,%c,%d,%d,%.6g,%.6g,%.3g,", n, s.A.nnz, s.p, it, converged && !fixed, rel, truer,
                fixed ? 0 : s.tol);
        if (pass && it > 0)
            fprintf(f, "%.6g,%.6g,", ms_iter, ms_solve);
        else
            fprintf(f, ",,");
        fprintf(f, ",,,,,,,%d,%lld,%lld,%lld,%s,%s,%s,\n", REDUCTIONS, rows_max, ghosts_max, halo,
                pass ? "PASS" : "FAIL", date, spmv_git_rev());
        if (fclose(f) != 0)
            spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s", o.csv);
    }

    /* 8. Release */
    for (int g = 0; g < ngpu; g++) {
        mgpu_part *a = &m.part[g];
        CUDA_CHECK(cudaSetDevice(g));
        const void *bufs[] = { a->ptr, a->col, a->val, a->b, a->x, a->r, a->q, a->p, a->ghost, a->state, a->partial,
                               m.host_box ? NULL : m.box[g] };
        for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
            if (bufs[i])
                CUDA_CHECK(cudaFree((void *)bufs[i]));
        CUDA_CHECK(cudaStreamDestroy(m.stream[g]));
    }
    if (m.host_box)
        CUDA_CHECK(cudaFreeHost(m.box[0]));
    spmv_cg_result_free(&host);
    free(ms), free(xv), free(ghost), free(mark), free(x), free(xh);
    free(s.val), free(s.bd), free(s.b);
    csr_free(&s.A);
    if (!pass)
        return SPMV_EXIT_FAIL;
    return !fixed && !converged ? 4 : SPMV_EXIT_PASS;   /* 4: --maxiter reached before --tol, as step7 and step8 */
}
