/* vendor/cuda-mgpu-cg/solver.cu - the whole CG solve of one GPU's rows in
 * one persistent cooperative kernel (solver.h): launched once a solve on
 * every GPU, it runs every iteration and leaves the host nothing to do
 * until it ends.
 *
 * An iteration (step7-cg/reference/cg.h's, the stopping test first):
 *   A  q = A p over the GPU's rows, a group of `lanes` threads a row,
 *      and the shares of p.q                        reduction 1 (all GPUs)
 *   B  x += alpha p, r -= alpha q, the shares of r.r  reduction 2 (all GPUs)
 *   C  p = r + beta p over the GPU's rows; and over its ghosts, the same
 *      sum from the owner's r, read through peer memory     grid.sync()
 * A reduction is itself a barrier of all GPUs: once a GPU holds the total
 * of r.r, every GPU has finished its B, so the owner's r is final and C
 * may read it. That is why a GPU never waits for another GPU's p: it
 * computes its ghosts of p itself, from the owner's r and its own copy of
 * the ghosts' old p (the same fma on the same numbers as the owner's, so
 * the two copies stay equal to the bit). Two cross-GPU waits an
 * iteration, the two dots, and one more grid.sync() inside the GPU.
 * A restart (the host found the true residual short of the tolerance the
 * recurrence met) begins from the x the last launch left: p = x, its ghosts
 * from their owners' x, q = A p, r = b - q, p = r, the ghosts from r.
 *
 * The waits are flags numbered by reduction: a GPU's leader (block 0's
 * first thread) stores its sum, then the reduction's number with a
 * release store of system scope; a reader loads each GPU's flag with an
 * acquire load of system scope until it reaches that number, then its sum.
 * No read-modify-write atomics cross the bus: each flag has one writer. A
 * wait that lasts longer than part->wait_s gives up and ends the solve as
 * MGPU_HUNG instead of hanging the machine. */
#include "solver.h"

#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

/* Blocks a multiprocessor the compiler must leave registers for
 * (__launch_bounds__): 6 (1536 threads) on sm_90; Turing (sm_75) has room
 * for 1024 threads only */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define MIN_BLOCKS 4
#else
#define MIN_BLOCKS 6
#endif

static __device__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Until *flag >= e (an acquire load of scope S), or the deadline passes */
template <cuda::thread_scope S> static __device__ bool wait_flag(unsigned *flag, unsigned e, unsigned long long deadline)
{
    cuda::atomic_ref<unsigned, S> f(*flag);
    for (unsigned spin = 0;; spin++) {
        if (f.load(cuda::memory_order_acquire) >= e)
            return true;
        if ((spin & 255) == 255 && now_ns() > deadline)
            return false;
    }
}

template <typename T> static __device__ T warp_sum(T v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* p's next value, one expression for the owner's rows and for the ghosts */
template <typename T> static __device__ T next_p(T r, T beta, T p)
{
    return fma(beta, p, r);
}

static __device__ int owner(const mgpu_part &a, int c)
{
    int h = 0;
    while (c >= a.row0_of[h + 1])
        h++;
    return h;
}

/* The leader's part of reduction e: its GPU's sum to every mailbox, then
 * every GPU's sum from its own, added in GPU order; the total to its
 * blocks through state (NaN and MGPU_HUNG if a GPU never answered). */
static __device__ void leader(const mgpu_part &a, double mine, unsigned e)
{
    unsigned slot = e & 1;
    for (int t = 0; t < a.nto; t++) {
        mgpu_mbox *m = a.to[t];
        m->val[slot][a.g] = mine;
        cuda::atomic_ref<unsigned, cuda::thread_scope_system>(m->flag[a.g]).store(e, cuda::memory_order_release);
    }
    unsigned long long deadline = now_ns() + (unsigned long long)(a.wait_s * 1e9);
    double total = 0;
    for (int h = 0; h < a.ngpu; h++) {
        if (!wait_flag<cuda::thread_scope_system>(&a.mine->flag[h], e, deadline)) {
            a.state->end = MGPU_HUNG;
            a.state->hung_at = (int)e;
            total = __longlong_as_double(0x7ff8000000000000LL);
            break;
        }
        total += *(volatile double *)&a.mine->val[slot][h];
    }
    a.state->result = total;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(a.state->flag).store(e, cuda::memory_order_release);
}

/* Reduction e of every thread's v over every GPU: the same total in every
 * thread of every GPU; *hung set where a GPU gave up waiting. */
template <typename T>
static __device__ T all_sum(T v, unsigned e, const mgpu_part &a, cg::grid_group &grid, T *warps, T *total, int *hung)
{
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0)
        warps[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < MGPU_BLOCK / 32 ? warps[lane] : T(0);
        v = warp_sum(v);
        if (lane == 0)
            ((T *)a.partial)[blockIdx.x] = v;
    }
    grid.sync();
    if (blockIdx.x == 0 && w == 0) {   /* the GPU's sum: lane j adds blocks j, j + 32 ..., then the shuffle tree */
        const T *part = (const T *)a.partial;
        T s = 0;
        for (unsigned j = lane; j < gridDim.x; j += 32)
            s += part[j];
        s = warp_sum(s);
        if (lane == 0)
            leader(a, (double)s, e);
    }
    if (threadIdx.x == 0) {   /* the leader answers within wait_s: past twice that, something is broken */
        if (!wait_flag<cuda::thread_scope_device>(&a.state->flag, e, now_ns() + (unsigned long long)(2e9 * a.wait_s + 1e9)))
            __trap();
        *total = (T)*(volatile double *)&a.state->result;
        *hung = *(volatile int *)&a.state->end == MGPU_HUNG;
    }
    __syncthreads();
    return *total;
}

/* q = A p over this GPU's rows, a group of L threads a row (L a power of
 * two, at most a warp); returns this thread's share of p.q */
template <typename T, int L>
static __device__ T product(const mgpu_part &a, const int *__restrict__ ptr, const int *__restrict__ col,
                            const T *__restrict__ val, const T *p, T *q)
{
    const int lane = threadIdx.x & (L - 1);
    const int groups = gridDim.x * (MGPU_BLOCK / L), gid = (int)(blockIdx.x * MGPU_BLOCK + threadIdx.x) / L;
    const unsigned mask = L == 32 ? 0xffffffffu : ((1u << L) - 1) << ((threadIdx.x & 31) & ~(L - 1));
    const T *pown = p + a.row0;
    T acc = 0;
    for (int i = gid; i < a.nloc; i += groups) {
        T s = 0;
        for (int j = __ldg(ptr + i) + lane, end = __ldg(ptr + i + 1); j < end; j += L)
            s += __ldg(val + j) * p[__ldg(col + j)];
        for (int o = L / 2; o > 0; o >>= 1)
            s += __shfl_xor_sync(mask, s, o, L);
        if (lane == 0) {
            q[i] = s;
            acc += pown[i] * s;
        }
    }
    return acc;
}

template <typename T, int L>
__global__ void __launch_bounds__(MGPU_BLOCK, MIN_BLOCKS) mgpu_cg(const mgpu_part a)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ T warps[MGPU_BLOCK / 32];
    __shared__ T total;
    __shared__ int hung;
    const T *b = (const T *)a.b;
    T *x = (T *)a.x, *r = (T *)a.r, *q = (T *)a.q, *p = (T *)a.p, *pown = p + a.row0;
    const int tid = (int)(blockIdx.x * MGPU_BLOCK + threadIdx.x), nth = (int)(gridDim.x * MGPU_BLOCK);
    unsigned e = 0;

    T acc = 0, rr, pq = 0;
    if (!a.restart) {   /* x = 0, r = b, p = b on the own rows; the ghosts of p from their owners' b */
        for (int i = tid; i < a.nloc; i += nth) {
            T bi = b[i];
            x[i] = 0;
            r[i] = bi;
            pown[i] = bi;
            acc += bi * bi;
        }
        for (int k = tid; k < a.nghost; k += nth) {
            int c = a.ghost[k], h = owner(a, c);
            p[c] = ((const T *)a.b_of[h])[c - a.row0_of[h]];
        }
        rr = all_sum(acc, ++e, a, grid, warps, &total, &hung);
    } else {   /* from the x the last launch left (every GPU's final): p = x, q = A p, r = b - q, p = r */
        for (int i = tid; i < a.nloc; i += nth)
            pown[i] = x[i];
        for (int k = tid; k < a.nghost; k += nth) {
            int c = a.ghost[k], h = owner(a, c);
            p[c] = __ldcg((const T *)a.x_of[h] + (c - a.row0_of[h]));
        }
        grid.sync();
        product<T, L>(a, a.ptr, a.col, (const T *)a.val, p, q);
        grid.sync();
        for (int i = tid; i < a.nloc; i += nth) {
            T ri = b[i] - q[i];
            r[i] = ri;
            pown[i] = ri;
            acc += ri * ri;
        }
        rr = all_sum(acc, ++e, a, grid, warps, &total, &hung);   /* past it every GPU's r is final */
        for (int k = tid; k < a.nghost; k += nth) {
            int c = a.ghost[k], h = owner(a, c);
            p[c] = __ldcg((const T *)a.r_of[h] + (c - a.row0_of[h]));
        }
        grid.sync();
    }
    int it = 0, end = MGPU_MAXITER;
    while (!hung) {
        if (sqrt((double)rr) <= a.stop) {   /* the test before each iteration, as cg.h */
            end = MGPU_CONVERGED;
            break;
        }
        if (it == a.maxiter)
            break;
        acc = product<T, L>(a, a.ptr, a.col, (const T *)a.val, p, q);
        pq = all_sum(acc, ++e, a, grid, warps, &total, &hung);
        if (hung)
            break;
        if (!(pq > 0)) {   /* not positive definite, or NaN */
            end = MGPU_BREAKDOWN;
            break;
        }
        T alpha = rr / pq;
        acc = 0;
        for (int i = tid; i < a.nloc; i += nth) {
            x[i] += alpha * pown[i];
            T ri = r[i] - alpha * q[i];
            r[i] = ri;
            acc += ri * ri;
        }
        T rr1 = all_sum(acc, ++e, a, grid, warps, &total, &hung);
        if (hung)
            break;
        T beta = rr1 / rr;
        rr = rr1;
        for (int i = tid; i < a.nloc; i += nth)
            pown[i] = next_p(r[i], beta, pown[i]);
        for (int k = tid; k < a.nghost; k += nth) {   /* the owner's r: final since reduction 2 */
            int c = a.ghost[k], h = owner(a, c);
            p[c] = next_p(__ldcg((const T *)a.r_of[h] + (c - a.row0_of[h])), beta, p[c]);
        }
        it++;
        grid.sync();
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        a.state->iterations = it;
        if (a.state->end != MGPU_HUNG)
            a.state->end = end;
        a.state->rr = (double)rr;
        a.state->pq = (double)pq;
    }
}

typedef void (*kernel_fn)(const mgpu_part);
template <typename T> static kernel_fn pick_lanes(int lanes)
{
    switch (lanes) {
    case 1: return mgpu_cg<T, 1>;
    case 2: return mgpu_cg<T, 2>;
    case 4: return mgpu_cg<T, 4>;
    case 8: return mgpu_cg<T, 8>;
    case 16: return mgpu_cg<T, 16>;
    case 32: return mgpu_cg<T, 32>;
    }
    return NULL;
}
static kernel_fn pick(int single, int lanes)
{
    return single ? pick_lanes<float>(lanes) : pick_lanes<double>(lanes);
}

extern "C" int mgpu_grid_blocks(int single, int lanes, int nloc, int cap_per_sm, int *per_sm)
{
    kernel_fn k = pick(single, lanes);
    int dev = 0, sms = 0, nb = 0;
    *per_sm = 0;
    if (!k || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, MGPU_BLOCK, 0) != cudaSuccess)
        return -1;
    if (cap_per_sm > 0 && nb > cap_per_sm)
        nb = cap_per_sm;
    *per_sm = nb;
    long long most = (long long)nb * sms, need = ((long long)nloc * lanes + MGPU_BLOCK - 1) / MGPU_BLOCK;
    if (need < 1)
        need = 1;
    return (int)(need < most ? need : most);
}

extern "C" cudaError_t mgpu_launch(const mgpu_part *part, int blocks, cudaStream_t s)
{
    kernel_fn k = pick(part->single, part->lanes);
    if (!k)
        return cudaErrorInvalidValue;
    void *args[] = { (void *)part };
    return cudaLaunchCooperativeKernel((const void *)k, dim3((unsigned)blocks), dim3(MGPU_BLOCK), args, 0, s);
}
