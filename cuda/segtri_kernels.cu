/*
 * segtri_kernels.cu -- the GPU engine's kernels and their launchers.
 *
 * The predicate is not written here: every pair goes through
 * xg_segtri_fast() and xg_lerp_fast() of src/xg_filters.h, the formulas
 * the CPU engines run, evaluated with the directed-rounding intrinsics of
 * src/xg_interval.h.  This file only decides which pairs each thread
 * takes (the four strategies of the paper's Table 11.3) and where the
 * answers go.
 *
 * Built with -fmad=false: the interval code uses intrinsics that are
 * never contracted anyway, but the box test, the cell arithmetic and the
 * float estimate must not be fused either (the box test and ownership
 * rule have to agree bit for bit with the host's).
 */
#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include "xg_cuda.h"

struct pair_io {
    struct xg_gpu_hit *d_hit;
    uint64_t cap;
    unsigned long long *d_n;
};

enum { MODE_COUNT = 0, MODE_INTERVAL = 1 };

/* The box of a segment and of a triangle, as segtri_engine.c builds
 * them: exact minima and maxima, so the comparisons agree. */
__device__ static void seg_box(const double *s, double *box)
{
    for (int k = 0; k < 3; k++) {
        box[k] = s[k] < s[3 + k] ? s[k] : s[3 + k];
        box[3 + k] = s[k] < s[3 + k] ? s[3 + k] : s[k];
    }
}

__device__ static void tri_box(const double *t, double *box)
{
    for (int k = 0; k < 3; k++) {
        box[k] = box[3 + k] = t[k];
        for (int i = 1; i < 3; i++) {
            double v = t[3 * i + k];
            if (v < box[k])
                box[k] = v;
            if (v > box[3 + k])
                box[3 + k] = v;
        }
    }
}

/* The exact boxes of segment s and triangle t meet. */
__device__ static bool boxes_meet(const double *s, const double *t)
{
    double p[6], q[6];
    seg_box(s, p);
    tri_box(t, q);
    return p[0] <= q[3] && q[0] <= p[3] && p[1] <= q[4] && q[1] <= p[4] &&
           p[2] <= q[5] && q[2] <= p[5];
}

/* The count pass's estimate for one pair: shift in double, then round,
 * so that the float pass sees small numbers whose rounding is relative
 * to the local extent. */
__device__ static int count_estimate(const struct xg_gpu_view &v,
                                     const double *s, const double *t)
{
    float sf[6], tf[9];
    for (int k = 0; k < 6; k++)
        sf[k] = (float)(s[k] - v.origin[k % 3]);
    for (int k = 0; k < 9; k++)
        tf[k] = (float)(t[k] - v.origin[k % 3]);
    return xg_segtri_maybe_f(sf, tf);
}

/* The hit of pair (i, j) for a fast-pass answer r other than a miss, tt
 * its t: a deferral, or the kind with the point when the double enclosure
 * certifies it. */
__device__ static void make_hit(int r, uint32_t i, uint32_t j,
                                const double *s, struct xg_iv tt,
                                struct xg_gpu_hit &h)
{
    h.a = i;
    h.b = j;
    h.p[0] = h.p[1] = h.p[2] = 0.0;
    if (r == XG_SEGTRI_DEFER) {
        h.kind = 0;
        h.flag = XG_GPU_HIT_DEFER;
        return;
    }
    h.kind = r == XG_SEGTRI_PROPER ? XG_KIND_PROPER : XG_KIND_TOUCH;
    h.flag = xg_lerp_fast(s, s + 3, tt, 3, h.p) ? XG_GPU_HIT_DONE
                                                : XG_GPU_HIT_CONSTRUCT;
    if (h.flag != XG_GPU_HIT_DONE)
        h.p[0] = h.p[1] = h.p[2] = 0.0;
}

/* 0: boxes miss; 1: they meet but cell c does not own the pair (the
 * ownership rule of xg__grid_owns); 2: evaluate it here. */
__device__ static int box_and_owner(const struct xg_gpu_view &v, uint32_t c,
                                    const double *s, const double *t,
                                    uint32_t i, uint32_t j)
{
    if (!boxes_meet(s, t))
        return 0;
    const int32_t *ca = v.d_a_cell + 6 * (size_t)i;
    const int32_t *cb = v.d_b_cell + 6 * (size_t)j;
    int x = max(ca[0], cb[0]), y = max(ca[1], cb[1]), z = max(ca[2], cb[2]);
    size_t own = ((size_t)z * (size_t)v.n[1] + (size_t)y) * (size_t)v.n[0] +
                 (size_t)x;
    return own == c ? 2 : 1;
}

/* One pair.  Returns, for the count pass, 1 when the float estimate
 * keeps it; tally[0] counts box-meeting pairs another cell owns, tally[1]
 * those this cell owns.  The interval pass appends the answer and
 * returns 0. */
template <int MODE, int CHECK>
__device__ static int do_pair(const struct xg_gpu_view &v, uint32_t c,
                              uint32_t i, uint32_t j, const pair_io &io,
                              int *tally)
{
    double s[6], t[9];
    const double *ps = v.d_seg + 6 * (size_t)i, *pt = v.d_tri + 9 * (size_t)j;
    for (int k = 0; k < 6; k++)
        s[k] = ps[k];
    for (int k = 0; k < 9; k++)
        t[k] = pt[k];
    if (CHECK) {
        int r = box_and_owner(v, c, s, t, i, j);
        if (r)
            tally[r - 1]++;     /* [0] not owned, [1] owned */
        if (r != 2)
            return 0;
    }
    if (MODE == MODE_COUNT) {
        return count_estimate(v, s, t);
    } else {
        struct xg_iv tt = {0.0, 0.0};
        struct xg_gpu_hit h;
        int r = xg_segtri_fast(s, t, &tt);
        if (r == XG_SEGTRI_MISS)
            return 0;
        make_hit(r, i, j, s, tt, h);
        unsigned long long k = atomicAdd(io.d_n, 1ULL);
        if (k < io.cap)
            io.d_hit[k] = h;
        return 0;
    }
}

/* Adds the warp's counts with one atomic per warp.  Every kernel that
 * calls this lets all 32 lanes of every warp reach it (no early return,
 * blocks a multiple of 32), so the full mask is right; __activemask()
 * would not be, since lanes that left a loop at different times need
 * not be converged here. */
__device__ static void warp_count(unsigned long long *d_count, int keep,
                                  const int *tally)
{
    const unsigned full = 0xffffffffu;
    unsigned k = __reduce_add_sync(full, (unsigned)keep);
    unsigned o = __reduce_add_sync(full, (unsigned)tally[0]);
    unsigned w = __reduce_add_sync(full, (unsigned)tally[1]);
    if ((threadIdx.x & 31) == 0) {
        if (k)
            atomicAdd(d_count, (unsigned long long)k);
        if (o)
            atomicAdd(d_count + 1, (unsigned long long)o);
        if (w)
            atomicAdd(d_count + 2, (unsigned long long)w);
    }
}

/* Multi-block: block b takes pairs first[b]..last[b] of cell cell[b];
 * pair P is segment P % S_c, triangle P / S_c of the cell. */
template <int MODE>
__global__ static void k_multi(struct xg_gpu_view v, const uint32_t *d_cell,
                               const uint64_t *d_first,
                               const uint64_t *d_last, uint64_t b0,
                               pair_io io, unsigned long long *d_count)
{
    uint64_t b = b0 + blockIdx.x;
    uint32_t c = d_cell[b];
    uint64_t P = d_first[b] + threadIdx.x;
    int keep = 0, tally[2] = {0, 0};
    if (P <= d_last[b]) {
        uint32_t lc = c - v.c0;
        uint32_t a0 = v.d_a_start[lc], S = v.d_a_start[lc + 1] - a0;
        uint32_t t0 = v.d_b_start[lc], si, ti;
        if (P >> 32 == 0) {      /* the usual case: 32-bit division */
            si = (uint32_t)P % S;
            ti = (uint32_t)P / S;
        } else {
            si = (uint32_t)(P % S);
            ti = (uint32_t)(P / S);
        }
        keep = do_pair<MODE, 1>(v, c, v.d_a_items[a0 + si],
                                v.d_b_items[t0 + ti], io, tally);
    }
    if (MODE == MODE_COUNT)
        warp_count(d_count, keep, tally);
}

/* List of pairs: thread k takes pair (d_pairs[2k], d_pairs[2k+1]), whose
 * boxes meet and which its cell owns (the CPU checked). */
template <int MODE>
__global__ static void k_list(struct xg_gpu_view v, const uint32_t *d_pairs,
                              uint64_t npairs, pair_io io,
                              unsigned long long *d_count)
{
    uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int keep = 0, tally[2] = {0, 0};
    if (k < npairs)
        keep = do_pair<MODE, 0>(v, 0, d_pairs[2 * k], d_pairs[2 * k + 1], io,
                                tally);
    if (MODE == MODE_COUNT)
        warp_count(d_count, keep, tally);
}

/* One element per thread: SEGS = 1 takes segment k against the triangles
 * of every cell of its range, SEGS = 0 triangle k against the segments. */
template <int MODE, int SEGS>
__global__ static void k_elem(struct xg_gpu_view v, pair_io io,
                              unsigned long long *d_count)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = 0, tally[2] = {0, 0};
    if (k < (SEGS ? v.na : v.nb)) {
        const int32_t *cr = (SEGS ? v.d_a_cell : v.d_b_cell) + 6 * (size_t)k;
        const uint32_t *start = SEGS ? v.d_b_start : v.d_a_start;
        const uint32_t *items = SEGS ? v.d_b_items : v.d_a_items;
        /* An element outside the grid's region (or degenerate) has an
         * empty range marked by lo x > hi x alone: its y and z entries are
         * not set (grid.c), so they must not be read as loop bounds. */
        int z_hi = cr[0] <= cr[3] ? cr[5] : -1;
        for (int z = cr[0] <= cr[3] ? cr[2] : 0; z <= z_hi; z++)
            for (int y = cr[1]; y <= cr[4]; y++)
                for (int x = cr[0]; x <= cr[3]; x++) {
                    uint32_t c = (uint32_t)(((size_t)z * v.n[1] + y) * v.n[0] +
                                            x);
                    uint32_t lc = c - v.c0;
                    for (uint32_t r = start[lc]; r < start[lc + 1]; r++) {
                        uint32_t o = items[r];
                        keep += SEGS ? do_pair<MODE, 1>(v, c, k, o, io,
                                                        tally)
                                     : do_pair<MODE, 1>(v, c, o, k, io,
                                                        tally);
                    }
                }
    }
    if (MODE == MODE_COUNT)
        warp_count(d_count, keep, tally);
}

/* ---- multi-block, packed (ours) ----
 *
 * The count pass is the paper's scheme with blocks cut from the run of
 * all pairs rather than from each cell: pair G of the run is pair
 * G - pw[k] of the k-th cell with pairs, so a block of XG_GPU_PACK_PAIRS
 * pairs covers a part of one big cell or many small ones, and every lane
 * has work.  A thread still derives its pair (segment P % S_c, triangle
 * P / S_c).  The cheap test (float boxes, rounded outward from
 * coordinates shifted to the grid's origin, and the ownership rule on
 * exact cell numbers) runs on every candidate; the pairs that pass (17%
 * of the candidates at paper scale) queue in shared memory, get the float
 * estimate, and are written to a list.  The interval pass (k_plist) takes
 * that list, one pair per thread: the predicate runs on full warps, and
 * the candidates are enumerated once, not once per pass.  (The paper's
 * multi-block kernel, k_multi, keeps no list.) */
#define PK_THREADS 256
#define PK_ROUNDS (XG_GPU_PACK_PAIRS / PK_THREADS)

/* Appends hit h (when has) for a warp whose 32 lanes all call this:
 * one atomic per warp. */
__device__ static void warp_append(const pair_io &io, bool has,
                                   const struct xg_gpu_hit &h)
{
    const unsigned full = 0xffffffffu;
    unsigned m = __ballot_sync(full, has), lane = threadIdx.x & 31;
    unsigned long long base = 0;
    if (m == 0)
        return;
    if (lane == (unsigned)(__ffs(m) - 1))
        base = atomicAdd(io.d_n, (unsigned long long)__popc(m));
    base = __shfl_sync(full, base, __ffs(m) - 1);
    if (has) {
        unsigned long long k = base + __popc(m & ((1u << lane) - 1));
        if (k < io.cap)
            io.d_hit[k] = h;
    }
}

/* A block's cells, staged in shared memory: where each starts in the
 * block's run of pairs (clamped at 0; the first cell may have begun in
 * an earlier block), and its CSR starts, segment count and number. */
struct pk_stage {
    uint32_t first[XG_GPU_PACK_PAIRS + 1];
    uint32_t magic[XG_GPU_PACK_PAIRS + 1];  /* xg__pair_magic(S) */
    uint4 info[XG_GPU_PACK_PAIRS + 1];  /* a0, S, t0, local cell */
    uint2 queue[XG_GPU_PACK_PAIRS];     /* pairs whose float boxes meet */
    unsigned long long skip0;           /* pairs of the first cell before */
    unsigned long long base;            /* the queue's place in the list */
    unsigned qn;
};

__device__ static void load_pair(const struct xg_gpu_view &v, uint2 pr,
                                 double *s, double *t)
{
    const double *ps = v.d_seg + 6 * (size_t)pr.x;
    const double *pt = v.d_tri + 9 * (size_t)pr.y;
    for (int k = 0; k < 6; k++)
        s[k] = ps[k];
    for (int k = 0; k < 9; k++)
        t[k] = pt[k];
}

template <int MINB>
__global__ static void __launch_bounds__(PK_THREADS, MINB)
    k_packed(struct xg_gpu_view v, const uint32_t *d_pcell,
             const uint64_t *d_pw, const uint32_t *d_bcell, uint64_t total,
             uint64_t b0, unsigned long long *d_count, uint32_t *d_list)
{
    extern __shared__ __align__(16) unsigned char pk_smem[];
    struct pk_stage &sh = *(struct pk_stage *)pk_smem;
    uint64_t b = b0 + blockIdx.x;
    uint64_t G0 = b * XG_GPU_PACK_PAIRS;
    uint32_t n_here = (uint32_t)(G0 + XG_GPU_PACK_PAIRS < total
                                     ? XG_GPU_PACK_PAIRS
                                     : total - G0);
    uint32_t lo = d_bcell[b], nc = d_bcell[b + 1] - lo + 1;
    int tally[2] = {0, 0}, keep = 0;
    const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;

    for (uint32_t k = threadIdx.x; k < nc; k += PK_THREADS) {
        uint64_t w = d_pw[lo + k];
        uint32_t lc = d_pcell[lo + k];
        uint32_t a0 = v.d_a_start[lc];
        uint32_t S = v.d_a_start[lc + 1] - a0;
        sh.first[k] = w > G0 ? (uint32_t)(w - G0) : 0;
        sh.magic[k] = xg__pair_magic(S);
        sh.info[k] = make_uint4(a0, S, v.d_b_start[lc], lc);
        if (k == 0) {
            sh.skip0 = G0 - w;
            sh.qn = 0;
        }
    }
    __syncthreads();

    /* Every round's pair located (pair g of the block is in the last cell
     * whose first pair is <= g) and its two elements loaded before any
     * record is read, so that the loads of all rounds are in flight
     * together. */
    uint32_t ii[PK_ROUNDS], jj[PK_ROUNDS], cc[PK_ROUNDS], k = 0;
#pragma unroll
    for (int r = 0; r < PK_ROUNDS; r++) {
        uint32_t g = (uint32_t)r * PK_THREADS + threadIdx.x;
        cc[r] = UINT32_MAX;
        if (g < n_here) {
            uint32_t h = nc - 1;
            while (k < h) {     /* g grows with r: k is a lower bound */
                uint32_t m = k + (h - k + 1) / 2;
                if (sh.first[m] <= g)
                    k = m;
                else
                    h = m - 1;
            }
            uint4 in = sh.info[k];
            uint64_t P = (uint64_t)(g - sh.first[k]) + (k == 0 ? sh.skip0 : 0);
            uint32_t si, ti;
            if (P >> 32 == 0) {
                ti = xg__pair_split((uint32_t)P, in.y, sh.magic[k], &si);
            } else {
                si = (uint32_t)(P % in.y);
                ti = (uint32_t)(P / in.y);
            }
            ii[r] = v.d_a_items[in.x + si];
            jj[r] = v.d_b_items[in.z + ti];
            cc[r] = in.w + v.c0;
        }
    }
#pragma unroll
    for (int r = 0; r < PK_ROUNDS; r++) {
        bool pass = false;
        if (cc[r] != UINT32_MAX) {
            const uint4 *ra = v.d_a_rec + 2 * (size_t)ii[r];
            const uint4 *rb = v.d_b_rec + 2 * (size_t)jj[r];
            uint4 a0 = ra[0], a1 = ra[1], b0 = rb[0], b1 = rb[1];
            /* lo x,y,z = a0.xyz, hi x = a0.w, hi y,z = a1.xy */
            if (__uint_as_float(a0.x) <= __uint_as_float(b0.w) &&
                __uint_as_float(b0.x) <= __uint_as_float(a0.w) &&
                __uint_as_float(a0.y) <= __uint_as_float(b1.x) &&
                __uint_as_float(b0.y) <= __uint_as_float(a1.x) &&
                __uint_as_float(a0.z) <= __uint_as_float(b1.y) &&
                __uint_as_float(b0.z) <= __uint_as_float(a1.y)) {
                uint32_t x = max(a1.z & 0xffff, b1.z & 0xffff);
                uint32_t y = max(a1.z >> 16, b1.z >> 16);
                uint32_t z = max(a1.w, b1.w);
                pass = (z * (uint32_t)v.n[1] + y) * (uint32_t)v.n[0] + x ==
                       cc[r];
                tally[0] += !pass;
            }
        }
        unsigned m = __ballot_sync(full, pass);
        unsigned base = 0;
        if (m && lane == (unsigned)(__ffs(m) - 1))
            base = atomicAdd(&sh.qn, (unsigned)__popc(m));
        base = __shfl_sync(full, base, __ffs(m ? m : 1) - 1);
        if (pass)
            sh.queue[base + __popc(m & ((1u << lane) - 1))] =
                make_uint2(ii[r], jj[r]);
    }
    __syncthreads();
    unsigned n = sh.qn;
    /* The queue joins the list the interval pass takes (k_plist). */
    if (threadIdx.x == 0)
        sh.base = atomicAdd(d_count + 3, (unsigned long long)n);
    __syncthreads();
    for (unsigned q = threadIdx.x; q < n; q += PK_THREADS) {
        d_list[2 * (sh.base + q)] = sh.queue[q].x;
        d_list[2 * (sh.base + q) + 1] = sh.queue[q].y;
    }
    for (unsigned q = threadIdx.x; q < n; q += PK_THREADS) {
        double s[6], t[9];
        load_pair(v, sh.queue[q], s, t);
        if (boxes_meet(s, t)) {
            tally[1]++;
            keep += count_estimate(v, s, t);
        }
    }
    warp_count(d_count, keep, tally);
}

/* The packed strategy's interval pass: thread k takes pair k of the list
 * its count pass built (float boxes meet, the cell owns the pair), tests
 * the exact boxes, and runs xg_segtri_fast in its two halves, counting in
 * *d_cross the pairs that reach the edge tests (for the floor).  All 32
 * lanes of every warp reach the appends.  Left to itself the compiler
 * takes 92 registers, two blocks per SM; capped at three blocks (80
 * registers, 40 bytes spilled) the kernel ran 10% faster on the H200
 * (0.324 -> 0.291 ms at paper scale), the predicate's latency being
 * better hidden by the extra warps than the spill costs. */
#define PL_THREADS 256
__global__ static void __launch_bounds__(PL_THREADS, 3)
    k_plist(struct xg_gpu_view v, const uint32_t *d_pairs, uint64_t npairs,
            pair_io io, unsigned long long *d_cross)
{
    uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    struct xg_gpu_hit h = {};
    bool has = false;
    unsigned cross = 0;
    if (k < npairs) {
        double s[6], t[9];
        uint2 pr = make_uint2(d_pairs[2 * k], d_pairs[2 * k + 1]);
        load_pair(v, pr, s, t);
        if (boxes_meet(s, t)) {
            struct xg_iv sd, se, tt = {0.0, 0.0};
            int r = xg_segtri_plane(s, t, &sd, &se);
            if (r == XG_SEGTRI_CROSS) {
                cross = 1;
                r = xg_segtri_edges(s, t, sd, se, &tt);
            }
            if (r != XG_SEGTRI_MISS) {
                has = true;
                make_hit(r, pr.x, pr.y, s, tt, h);
            }
        }
    }
    warp_append(io, has, h);
    cross = __reduce_add_sync(0xffffffffu, cross);
    if ((threadIdx.x & 31) == 0 && cross)
        atomicAdd(d_cross, (unsigned long long)cross);
}

/* The packed count pass.  Occupancy is set by shared memory (three blocks
 * per SM), so the register cap of three blocks costs nothing. */
static int launch_packed(struct xg_ctx *ctx, const struct xg_gpu_view *v,
                         const struct xg_gpu_sched *s,
                         unsigned long long *d_count, cudaStream_t stream)
{
    const size_t smem = sizeof(struct pk_stage);
    XG_CUDA_TRY(ctx, cudaFuncSetAttribute(
                         k_packed<3>,
                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                         (int)smem));
    k_packed<3><<<(unsigned)s->nblocks, PK_THREADS, smem, stream>>>(
        *v, s->d_pcell, s->d_pw, s->d_bcell, s->total, 0, d_count,
        (uint32_t *)s->d_pairs);
    XG_CUDA_TRY(ctx, cudaGetLastError());
    return XG_OK;
}

/* The points the double enclosure left: the double-double stage
 * (xg_plane_point_dd), on the device. */
__global__ static void k_refine(struct xg_gpu_view v, struct xg_gpu_hit *d_hit,
                                uint32_t n, unsigned long long *d_done)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned done = 0;
    if (k < n && d_hit[k].flag == XG_GPU_HIT_CONSTRUCT) {
        struct xg_gpu_hit *h = &d_hit[k];
        const double *s = v.d_seg + 6 * (size_t)h->a;
        double p[3];
        if (xg_plane_point_dd(v.d_tri + 9 * (size_t)h->b, s, s + 3, p)) {
            h->p[0] = p[0];
            h->p[1] = p[1];
            h->p[2] = p[2];
            h->flag = XG_GPU_HIT_DONE_DD;
            done = 1;
        }
    }
    done = __reduce_add_sync(0xffffffffu, done);
    if ((threadIdx.x & 31) == 0 && done)
        atomicAdd(d_done, (unsigned long long)done);
}

extern "C" int xg__cuda_refine(struct xg_ctx *ctx, const struct xg_gpu_view *v,
                               struct xg_gpu_hit *d_hit, uint32_t n,
                               unsigned long long *d_done, cudaStream_t stream)
{
    if (n) {
        k_refine<<<(n + 255) / 256, 256, 0, stream>>>(*v, d_hit, n, d_done);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

/* The packed kernel's record of each element, 32 bytes (one memory
 * sector): its box in floats, rounded outward from coordinates shifted to
 * origin (containing the exact box, so the float test never drops a pair
 * whose boxes meet), and the cell of its box's low corner, x and y in 16
 * bits each (the caller checks the grid is that narrow), for the
 * ownership rule. */
__global__ static void k_records(const double *d_xyz, const int32_t *d_cell,
                                 uint32_t n, int pts, struct xg_gpu_origin o,
                                 uint4 *d_rec)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double *x = d_xyz + 3 * pts * (size_t)i;
    const int32_t *c = d_cell + 6 * (size_t)i;
    float f[6];
    for (int k = 0; k < 3; k++) {
        double lo = x[k], hi = x[k];
        for (int q = 1; q < pts; q++) {
            lo = fmin(lo, x[3 * q + k]);
            hi = fmax(hi, x[3 * q + k]);
        }
        f[k] = __double2float_rd(__dsub_rd(lo, o.o[k]));
        f[3 + k] = __double2float_ru(__dsub_ru(hi, o.o[k]));
    }
    d_rec[2 * (size_t)i] = make_uint4(__float_as_uint(f[0]),
                                      __float_as_uint(f[1]),
                                      __float_as_uint(f[2]),
                                      __float_as_uint(f[3]));
    d_rec[2 * (size_t)i + 1] = make_uint4(
        __float_as_uint(f[4]), __float_as_uint(f[5]),
        (uint32_t)(c[0] & 0xffff) | (uint32_t)c[1] << 16, (uint32_t)c[2]);
}

extern "C" int xg__cuda_records(struct xg_ctx *ctx, const double *d_xyz,
                                const int32_t *d_cell, uint32_t n, int pts,
                                const double origin[3], void *d_rec,
                                cudaStream_t stream)
{
    struct xg_gpu_origin o;
    o.o[0] = origin[0];
    o.o[1] = origin[1];
    o.o[2] = origin[2];
    if (n) {
        k_records<<<(n + 255) / 256, 256, 0, stream>>>(d_xyz, d_cell, n, pts,
                                                       o, (uint4 *)d_rec);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

/* The packed tables: the cells with pairs (d_pcell, local numbers), the
 * run of their pairs (d_pw, ncomp + 1 entries, the last the total), and
 * for each block the cell of its first pair (d_bcell, nblocks + 1; the
 * last entry is the last cell). */
struct nonzero_pairs {
    const uint64_t *w;
    __host__ __device__ bool operator()(uint32_t c) const { return w[c] != 0; }
};

__global__ static void k_gather_w(const uint64_t *d_w, const uint32_t *d_pcell,
                                  uint32_t ncomp, uint64_t *d_pw)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < ncomp)
        d_pw[k] = d_w[d_pcell[k]];
    else if (k == ncomp)
        d_pw[k] = 0;
}

__global__ static void k_bcell(const uint64_t *d_pw, uint32_t ncomp,
                               uint64_t nblocks, uint32_t *d_bcell)
{
    uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (b > nblocks)
        return;
    if (b == nblocks) {
        d_bcell[b] = ncomp - 1;
        return;
    }
    uint64_t G = b * XG_GPU_PACK_PAIRS;
    uint32_t lo = 0, hi = ncomp - 1;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo + 1) / 2;
        if (d_pw[m] <= G)
            lo = m;
        else
            hi = m - 1;
    }
    d_bcell[b] = lo;
}

extern "C" int xg__cuda_packed_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                                      size_t ncell, uint32_t *d_pcell,
                                      uint64_t *d_pw, uint32_t *d_bcell,
                                      uint64_t total, uint32_t *ncomp,
                                      uint64_t *nblocks, cudaStream_t stream)
{
    nonzero_pairs f = {d_w};
    uint32_t *end;
    uint64_t nb;
    *ncomp = 0;
    *nblocks = 0;
    if (ncell == 0 || total == 0)
        return XG_OK;
    end = thrust::copy_if(thrust::cuda::par.on(stream),
                          thrust::counting_iterator<uint32_t>(0),
                          thrust::counting_iterator<uint32_t>((uint32_t)ncell),
                          d_pcell, f);
    *ncomp = (uint32_t)(end - d_pcell);
    k_gather_w<<<(*ncomp + 1 + 255) / 256, 256, 0, stream>>>(d_w, d_pcell,
                                                             *ncomp, d_pw);
    XG_CUDA_TRY(ctx, cudaGetLastError());
    thrust::exclusive_scan(thrust::cuda::par.on(stream), d_pw,
                           d_pw + *ncomp + 1, d_pw, (uint64_t)0);
    nb = (total + XG_GPU_PACK_PAIRS - 1) / XG_GPU_PACK_PAIRS;
    if (nb > 0x7fffffffULL)
        return xg__error(ctx, XG_ELIMIT, "too many blocks: %llu",
                         (unsigned long long)nb);
    k_bcell<<<(unsigned)((nb + 1 + 255) / 256), 256, 0, stream>>>(
        d_pw, *ncomp, nb, d_bcell);
    XG_CUDA_TRY(ctx, cudaGetLastError());
    *nblocks = nb;
    return XG_OK;
}

template <int MODE>
static int launch(struct xg_ctx *ctx, int strategy,
                  const struct xg_gpu_view *v, const struct xg_gpu_sched *s,
                  pair_io io, unsigned long long *d_count,
                  cudaStream_t stream)
{
    const unsigned th = XG_GPU_THREADS;
    switch (strategy) {
    case XG_GPU_MULTI: {
        /* The tables were built with XG_GPU_THREADS pairs per block. */
        const uint64_t chunk = (uint64_t)1 << 30;
        for (uint64_t b0 = 0; b0 < s->nblocks; b0 += chunk) {
            uint64_t n = s->nblocks - b0 < chunk ? s->nblocks - b0 : chunk;
            k_multi<MODE><<<(unsigned)n, th, 0, stream>>>(
                *v, s->d_cell, s->d_first, s->d_last, b0, io, d_count);
            XG_CUDA_TRY(ctx, cudaGetLastError());
        }
        break;
    }
    case XG_GPU_PACKED:
        if (MODE == MODE_INTERVAL) {
            uint64_t nb = (s->npairs + PL_THREADS - 1) / PL_THREADS;
            if (nb > 0x7fffffffULL)
                return xg__error(ctx, XG_ELIMIT, "too many pairs for one "
                                 "launch: %llu",
                                 (unsigned long long)s->npairs);
            if (nb)
                k_plist<<<(unsigned)nb, PL_THREADS, 0, stream>>>(
                    *v, s->d_pairs, s->npairs, io, d_count);
            XG_CUDA_TRY(ctx, cudaGetLastError());
        } else if (s->nblocks) {
            int rc = launch_packed(ctx, v, s, d_count, stream);
            if (rc != XG_OK)
                return rc;
        }
        break;
    case XG_GPU_LIST:
        if (s->npairs) {
            uint64_t nb = (s->npairs + th - 1) / th;
            if (nb > 0x7fffffffULL)
                return xg__error(ctx, XG_ELIMIT, "too many pairs for one "
                                 "launch: %llu", (unsigned long long)s->npairs);
            k_list<MODE><<<(unsigned)nb, th, 0, stream>>>(*v, s->d_pairs,
                                                         s->npairs, io,
                                                         d_count);
            XG_CUDA_TRY(ctx, cudaGetLastError());
        }
        break;
    case XG_GPU_SEG:
        if (v->na) {
            k_elem<MODE, 1><<<(v->na + th - 1) / th, th, 0, stream>>>(
                *v, io, d_count);
            XG_CUDA_TRY(ctx, cudaGetLastError());
        }
        break;
    case XG_GPU_TRI:
        if (v->nb) {
            k_elem<MODE, 0><<<(v->nb + th - 1) / th, th, 0, stream>>>(
                *v, io, d_count);
            XG_CUDA_TRY(ctx, cudaGetLastError());
        }
        break;
    default:
        return xg__error(ctx, XG_EINVAL, "unknown GPU strategy %d", strategy);
    }
    return XG_OK;
}

extern "C" int xg__cuda_count(struct xg_ctx *ctx, int strategy,
                              const struct xg_gpu_view *v,
                              const struct xg_gpu_sched *s,
                              unsigned long long *d_count,
                              cudaStream_t stream)
{
    pair_io io = {NULL, 0, NULL};
    return launch<MODE_COUNT>(ctx, strategy, v, s, io, d_count, stream);
}

extern "C" int xg__cuda_intersect(struct xg_ctx *ctx, int strategy,
                                  const struct xg_gpu_view *v,
                                  const struct xg_gpu_sched *s,
                                  struct xg_gpu_hit *d_hit, uint64_t cap,
                                  unsigned long long *d_n,
                                  cudaStream_t stream)
{
    pair_io io = {d_hit, cap, d_n};
    return launch<MODE_INTERVAL>(ctx, strategy, v, s, io, d_n + 1, stream);
}

/* ---- preparation on the device ---- */

/* The boxes of segtri_engine.c: a zero-length segment has none (counted
 * in *d_bad); a triangle whose orientation the interval filter certifies
 * nonzero in one of the three axis projections is not degenerate (the
 * host's exact xg__tri_is_degenerate would find the same nonzero sign);
 * any other triangle keeps its box for now and is listed in d_flag for
 * the host to decide exactly. */
__global__ static void k_seg_boxes(const double *d_seg, uint32_t n,
                                   double *d_box, unsigned long long *d_bad)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double s[6], b[6];
    for (int k = 0; k < 6; k++)
        s[k] = d_seg[6 * (size_t)i + k];
    if (s[0] == s[3] && s[1] == s[4] && s[2] == s[5]) {
        b[0] = 1.0;
        b[3] = 0.0;
        b[1] = b[2] = b[4] = b[5] = 0.0;
        atomicAdd(d_bad, 1ULL);
    } else {
        seg_box(s, b);
    }
    for (int k = 0; k < 6; k++)
        d_box[6 * (size_t)i + k] = b[k];
}

__global__ static void k_tri_boxes(const double *d_tri, uint32_t n,
                                   double *d_box, uint32_t *d_flag,
                                   unsigned long long *d_nflag)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double t[9], b[6];
    for (int k = 0; k < 9; k++)
        t[k] = d_tri[9 * (size_t)i + k];
    tri_box(t, b);
    for (int k = 0; k < 6; k++)
        d_box[6 * (size_t)i + k] = b[k];
    bool sure = false;
    for (int drop = 0; drop < 3 && !sure; drop++) {
        int u = drop == 0 ? 1 : 0, w = drop == 2 ? 1 : 2;
        double p[2] = {t[u], t[w]}, q[2] = {t[3 + u], t[3 + w]},
               r[2] = {t[6 + u], t[6 + w]};
        int sg = xg_iv_sign(xg_orient2d_iv(p, q, r));
        sure = sg == XG_POS || sg == XG_NEG;
    }
    if (!sure)
        d_flag[atomicAdd(d_nflag, 1ULL)] = i;
}

__global__ static void k_clear_boxes(double *d_box, const uint32_t *d_idx,
                                     uint32_t n)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        double *b = d_box + 6 * (size_t)d_idx[k];
        b[0] = 1.0;
        b[3] = 0.0;
    }
}

extern "C" int xg__cuda_segtri_boxes(struct xg_ctx *ctx, const double *d_seg,
                                     uint32_t na, const double *d_tri,
                                     uint32_t nb, double *d_abox,
                                     double *d_bbox,
                                     unsigned long long *d_counts,
                                     uint32_t *d_flag, cudaStream_t stream)
{
    if (na) {
        k_seg_boxes<<<(na + 255) / 256, 256, 0, stream>>>(d_seg, na, d_abox,
                                                          d_counts);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    if (nb) {
        k_tri_boxes<<<(nb + 255) / 256, 256, 0, stream>>>(
            d_tri, nb, d_bbox, d_flag, d_counts + 1);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

extern "C" int xg__cuda_clear_boxes(struct xg_ctx *ctx, double *d_box,
                                    const uint32_t *d_idx, uint32_t n,
                                    cudaStream_t stream)
{
    if (n) {
        k_clear_boxes<<<(n + 255) / 256, 256, 0, stream>>>(d_box, d_idx, n);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

/* The multi-block tables of xg__blocks_build, on the device: pairs and
 * blocks per cell, a scan of the blocks, then one thread per block finds
 * its cell by binary search (the last cell whose first block is <= it). */
__global__ static void k_cell_work(const uint32_t *as, const uint32_t *bs,
                                   size_t ncell, unsigned th, uint64_t *d_w,
                                   uint64_t *d_nblk)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= ncell)
        return;
    uint64_t w = (uint64_t)(as[c + 1] - as[c]) * (uint64_t)(bs[c + 1] - bs[c]);
    d_w[c] = w;
    d_nblk[c] = (w + th - 1) / th;
}

__global__ static void k_tables(const uint64_t *d_w, const uint64_t *d_off,
                                size_t ncell, uint64_t nblocks, unsigned th,
                                uint32_t *d_cell, uint64_t *d_first,
                                uint64_t *d_last)
{
    uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (b >= nblocks)
        return;
    size_t lo = 0, hi = ncell;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (d_off[mid] <= b)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t first = (b - d_off[lo]) * th, w = d_w[lo];
    d_cell[b] = (uint32_t)lo;
    d_first[b] = first;
    d_last[b] = first + th - 1 < w ? first + th - 1 : w - 1;
}

extern "C" int xg__cuda_blocks(struct xg_ctx *ctx, const uint32_t *d_as,
                               const uint32_t *d_bs, size_t ncell,
                               unsigned th, uint64_t *d_w, uint64_t *d_off,
                               uint64_t *candidates, uint64_t *nblocks,
                               cudaStream_t stream)
{
    uint64_t last[2] = {0, 0};
    if (ncell == 0) {
        *candidates = *nblocks = 0;
        return XG_OK;
    }
    k_cell_work<<<(unsigned)((ncell + 255) / 256), 256, 0, stream>>>(
        d_as, d_bs, ncell, th, d_w, d_off);
    XG_CUDA_TRY(ctx, cudaGetLastError());
    *candidates = thrust::reduce(thrust::cuda::par.on(stream), d_w,
                                 d_w + ncell, (uint64_t)0);
    XG_CUDA_TRY(ctx, cudaMemcpyAsync(&last[0], d_off + ncell - 1,
                                     sizeof(uint64_t),
                                     cudaMemcpyDeviceToHost, stream));
    thrust::exclusive_scan(thrust::cuda::par.on(stream), d_off, d_off + ncell,
                           d_off, (uint64_t)0);
    XG_CUDA_TRY(ctx, cudaMemcpyAsync(&last[1], d_off + ncell - 1,
                                     sizeof(uint64_t),
                                     cudaMemcpyDeviceToHost, stream));
    XG_CUDA_TRY(ctx, cudaStreamSynchronize(stream));
    *nblocks = last[0] + last[1];
    return XG_OK;
}

extern "C" int xg__cuda_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                               const uint64_t *d_off, size_t ncell,
                               uint64_t nblocks, unsigned th,
                               uint32_t *d_cell, uint64_t *d_first,
                               uint64_t *d_last, cudaStream_t stream)
{
    if (nblocks) {
        uint64_t nb = (nblocks + 255) / 256;
        if (nb > 0x7fffffffULL)
            return xg__error(ctx, XG_ELIMIT, "too many blocks: %llu",
                             (unsigned long long)nblocks);
        k_tables<<<(unsigned)nb, 256, 0, stream>>>(d_w, d_off, ncell, nblocks,
                                                   th, d_cell, d_first,
                                                   d_last);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

/* ---- ordering ---- */

__global__ static void k_keys(const struct xg_gpu_hit *d_in, uint32_t n,
                              uint64_t *d_key, uint32_t *d_idx)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        d_key[k] = (uint64_t)d_in[k].a << 32 | d_in[k].b;
        d_idx[k] = k;
    }
}

__global__ static void k_gather(const struct xg_gpu_hit *d_in,
                                const uint32_t *d_idx, uint32_t n,
                                struct xg_gpu_hit *d_out)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        d_out[k] = d_in[d_idx[k]];
}

static size_t align256(size_t x) { return (x + 255) & ~(size_t)255; }

extern "C" int xg__cuda_sort_hits(struct xg_ctx *ctx,
                                  const struct xg_gpu_hit *d_in,
                                  struct xg_gpu_hit *d_out, uint32_t n,
                                  void *d_tmp, size_t *tmp_bytes,
                                  cudaStream_t stream)
{
    size_t cub_bytes = 0, kb = align256((size_t)n * 8 + 8),
           ib = align256((size_t)n * 4 + 4);
    XG_CUDA_TRY(ctx, cub::DeviceRadixSort::SortPairs(
                         NULL, cub_bytes, (uint64_t *)NULL, (uint64_t *)NULL,
                         (uint32_t *)NULL, (uint32_t *)NULL, n, 0, 64,
                         stream));
    if (!d_tmp) {
        *tmp_bytes = 2 * kb + 2 * ib + align256(cub_bytes);
        return XG_OK;
    }
    if (n == 0)
        return XG_OK;
    char *p = (char *)d_tmp;
    uint64_t *k_in = (uint64_t *)p, *k_out = (uint64_t *)(p + kb);
    uint32_t *i_in = (uint32_t *)(p + 2 * kb);
    uint32_t *i_out = (uint32_t *)(p + 2 * kb + ib);
    void *cub_tmp = p + 2 * kb + 2 * ib;
    unsigned th = 256, nb = (n + th - 1) / th;
    k_keys<<<nb, th, 0, stream>>>(d_in, n, k_in, i_in);
    XG_CUDA_TRY(ctx, cudaGetLastError());
    XG_CUDA_TRY(ctx, cub::DeviceRadixSort::SortPairs(cub_tmp, cub_bytes, k_in,
                                                     k_out, i_in, i_out, n, 0,
                                                     64, stream));
    k_gather<<<nb, th, 0, stream>>>(d_in, i_out, n, d_out);
    XG_CUDA_TRY(ctx, cudaGetLastError());
    return XG_OK;
}

/* ---- for the tests ---- */

__global__ static void k_orient3d(const double *d_pts, size_t n,
                                  struct xg_iv *d_out)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        const double *p = d_pts + 12 * k;
        d_out[k] = xg_orient3d_iv(p, p + 3, p + 6, p + 9);
    }
}

__global__ static void k_iv_ops(const struct xg_iv *d_iv, size_t n,
                                struct xg_iv *d_ops)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        struct xg_iv a = d_iv[2 * k], b = d_iv[2 * k + 1];
        d_ops[4 * k] = xg_iv_add(a, b);
        d_ops[4 * k + 1] = xg_iv_sub(a, b);
        d_ops[4 * k + 2] = xg_iv_mul(a, b);
        if (b.lo > 0.0 || b.hi < 0.0)
            d_ops[4 * k + 3] = xg_iv_div(a, b);
        else
            d_ops[4 * k + 3] = xg_iv_whole();
    }
}

__global__ static void k_segtri_fast(const double *d_seg, const double *d_tri,
                                     size_t n, int *d_res, struct xg_iv *d_t)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        struct xg_iv t = xg_iv_point(0.0);
        d_res[k] = xg_segtri_fast(d_seg + 6 * k, d_tri + 9 * k, &t);
        d_t[k] = t;
    }
}

__global__ static void k_plane_point_dd(const double *d_seg,
                                        const double *d_tri, size_t n,
                                        int *d_ok, double *d_p)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        const double *s = d_seg + 6 * k;
        d_ok[k] = xg_plane_point_dd(d_tri + 9 * k, s, s + 3, d_p + 3 * k);
    }
}

extern "C" int xg__cuda_plane_point_dd(struct xg_ctx *ctx,
                                       const double *d_seg,
                                       const double *d_tri, size_t n,
                                       int *d_ok, double *d_p,
                                       cudaStream_t stream)
{
    if (n) {
        k_plane_point_dd<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(
            d_seg, d_tri, n, d_ok, d_p);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

extern "C" int xg__cuda_orient3d_iv(struct xg_ctx *ctx, const double *d_pts,
                                    size_t n, struct xg_iv *d_out,
                                    cudaStream_t stream)
{
    if (n) {
        k_orient3d<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(d_pts, n,
                                                                    d_out);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

extern "C" int xg__cuda_iv_ops(struct xg_ctx *ctx, const struct xg_iv *d_iv,
                               size_t n, struct xg_iv *d_ops,
                               cudaStream_t stream)
{
    if (n) {
        k_iv_ops<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(d_iv, n,
                                                                  d_ops);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}

extern "C" int xg__cuda_segtri_fast(struct xg_ctx *ctx, const double *d_seg,
                                    const double *d_tri, size_t n, int *d_res,
                                    struct xg_iv *d_t, cudaStream_t stream)
{
    if (n) {
        k_segtri_fast<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(
            d_seg, d_tri, n, d_res, d_t);
        XG_CUDA_TRY(ctx, cudaGetLastError());
    }
    return XG_OK;
}
