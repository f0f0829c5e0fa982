/*
 * segtri_kernels.cu -- the GPU segtri engine's product kernels and their
 * launchers: the multi-block strategy (the paper's scheme, kept as the
 * fallback of grids too wide for packed records), the packed strategy
 * (ours, the default) and the double-double stage.  The paper's other
 * strategies, for the benchmark only, are bench/cuda/paper.cu's, reached
 * through the table a benchmark registers (gpu_bench.h).
 *
 * The predicate is not written here: every pair goes through do_pair
 * (segtri_pair.cuh), that is xg_segtri_fast() and xg_lerp_fast() of
 * src/xg_filters.h and the boxes and ownership rule of src/xg_boxes.h,
 * the formulas the CPU engines run, evaluated with the directed-rounding
 * intrinsics of src/xg_interval.h.  This file only decides which pairs
 * each thread takes and where the answers go.
 *
 * Built with -fmad=false: the interval code uses intrinsics that are
 * never contracted anyway, but the box test, the cell arithmetic and the
 * float estimate must not be fused either (the box test and ownership
 * rule have to agree bit for bit with the host's).
 */
#include "segtri_pair.cuh"
#include "gpu_bench.h"

/* Multi-block: block b takes pairs first[b]..last[b] of cell cell[b];
 * pair P is segment P % S_c, triangle P / S_c of the cell. */
template <int MODE>
__global__ static void k_multi(struct xg_gpu_view v, const uint32_t *d_cell,
                               const uint64_t *d_first,
                               const uint64_t *d_last, uint64_t b0,
                               xg_hit_out io,
                               unsigned long long *d_count)
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

/* A block's cells, held in shared memory: where each starts in the
 * block's run of pairs (clamped at 0; the first cell may have begun in
 * an earlier block), and its CSR starts, segment count and number. */
struct pk_shared {
    uint32_t first[XG_GPU_PACK_PAIRS + 1];
    uint32_t magic[XG_GPU_PACK_PAIRS + 1];  /* xg__pair_magic(S) */
    uint4 info[XG_GPU_PACK_PAIRS + 1];  /* a0, S, t0, local cell */
    uint2 queue[XG_GPU_PACK_PAIRS];     /* pairs whose float boxes meet */
    unsigned long long skip0;           /* pairs of the first cell before */
    unsigned long long base;            /* the queue's place in the list */
    unsigned qn;
};

/* The packed count pass (above), block b0 + blockIdx.x: its cells from
 * d_bcell and d_pw into shared memory, its pairs located and tested
 * (float boxes, ownership), the kept ones queued, appended to d_list
 * (d_count[3] their number) and estimated; d_count as xg__cuda_count
 * says.  MINB: the blocks per SM the registers are capped for. */
template <int MINB>
__global__ static void __launch_bounds__(PK_THREADS, MINB)
    k_packed(struct xg_gpu_view v, const uint32_t *d_pcell,
             const uint64_t *d_pw, const uint32_t *d_bcell, uint64_t total,
             uint64_t b0, unsigned long long *d_count, uint32_t *d_list)
{
    extern __shared__ __align__(16) unsigned char pk_smem[];
    struct pk_shared &sh = *(struct pk_shared *)pk_smem;
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
                /* low cell x, y = a1.z (16 bits each), z = a1.w */
                const int32_t la[3] = {(int32_t)(a1.z & 0xffff),
                                       (int32_t)(a1.z >> 16), (int32_t)a1.w};
                const int32_t lb[3] = {(int32_t)(b1.z & 0xffff),
                                       (int32_t)(b1.z >> 16), (int32_t)b1.w};
                pass = xg__owner(v.n, la, lb) == cc[r];
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
        load_pair(v, sh.queue[q].x, sh.queue[q].y, s, t);
        if (seg_tri_boxes_meet(s, t)) {
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
            xg_hit_out io, unsigned long long *d_cross)
{
    uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    struct xg_gpu_hit h = {};
    bool has = false;
    unsigned cross = 0;
    if (k < npairs) {
        double s[6], t[9];
        uint32_t i = d_pairs[2 * k], j = d_pairs[2 * k + 1];
        load_pair(v, i, j, s, t);
        if (seg_tri_boxes_meet(s, t)) {
            struct xg_iv sd, se, tt = {0.0, 0.0};
            int r = xg_segtri_plane(s, t, &sd, &se);
            if (r == XG_SEGTRI_CROSS) {
                cross = 1;
                r = xg_segtri_edges(s, t, sd, se, &tt);
            }
            if (r != XG_SEGTRI_MISS) {
                has = true;
                xg__segtri_hit(r, i, j, s, tt, &h);
            }
        }
    }
    xg_warp_append(io, has, h);
    xg_warp_add(d_cross, cross);
}

/* The packed count pass.  Occupancy is set by shared memory (three blocks
 * per SM), so the register cap of three blocks costs nothing. */
static int launch_packed(struct xg_ctx *ctx, const struct xg_gpu_view *v,
                         const struct xg_gpu_sched *s,
                         unsigned long long *d_count, cudaStream_t stream)
{
    const size_t smem = sizeof(struct pk_shared);
    int rc = XG_CUDA(ctx, cudaFuncSetAttribute(
                              k_packed<3>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)smem));
    if (rc != XG_OK)
        return rc;
    k_packed<3><<<(unsigned)s->nblocks, PK_THREADS, smem, stream>>>(
        *v, s->d_pcell, s->d_pw, s->d_bcell, s->total, 0, d_count,
        (uint32_t *)s->d_pairs);
    return XG_CUDA(ctx, cudaGetLastError());
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
    xg_warp_add(d_done, done);
}

extern "C" int xg__cuda_refine(struct xg_ctx *ctx, const struct xg_gpu_view *v,
                               struct xg_gpu_hit *d_hit, uint32_t n,
                               unsigned long long *d_done, cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_refine<<<(n + 255) / 256, 256, 0, stream>>>(*v, d_hit, n, d_done);
    return XG_CUDA(ctx, cudaGetLastError());
}

/* Launches strategy's pass of MODE (the count, or the interval pass
 * writing through io) over the schedule s; the paper's list and per-
 * element strategies through the benchmark table (gpu_bench.h).  XG_OK,
 * a CUDA error, XG_ELIMIT, XG_ENOTSUP for a paper's strategy in a build
 * without the table, or XG_EINVAL for an unknown strategy. */
template <int MODE>
static int launch(struct xg_ctx *ctx, int strategy,
                  const struct xg_gpu_view *v, const struct xg_gpu_sched *s,
                  xg_hit_out io, unsigned long long *d_count,
                  cudaStream_t stream)
{
    int rc;
    switch (strategy) {
    case XG_GPU_MULTI: {
        /* The tables were built with XG_GPU_THREADS pairs per block. */
        const uint64_t chunk = (uint64_t)1 << 30;
        for (uint64_t b0 = 0; b0 < s->nblocks; b0 += chunk) {
            uint64_t n = s->nblocks - b0 < chunk ? s->nblocks - b0 : chunk;
            k_multi<MODE><<<(unsigned)n, XG_GPU_THREADS, 0, stream>>>(
                *v, s->d_cell, s->d_first, s->d_last, b0, io, d_count);
            if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK)
                return rc;
        }
        return XG_OK;
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
            return XG_CUDA(ctx, cudaGetLastError());
        }
        return s->nblocks ? launch_packed(ctx, v, s, d_count, stream) : XG_OK;
    case XG_GPU_LIST:
    case XG_GPU_SEG:
    case XG_GPU_TRI: {
        const struct xg__gpu_bench *bench;
        if ((rc = xg__gpu_bench_get(ctx, "the paper's GPU strategy",
                                    &bench)) != XG_OK)
            return rc;
        return bench->segtri_pass(ctx, MODE, strategy, v, s, io.d_hit,
                                  io.cap, io.d_n, d_count, stream);
    }
    default:
        return xg__error(ctx, XG_EINVAL, "unknown GPU strategy %d", strategy);
    }
}

extern "C" int xg__cuda_count(struct xg_ctx *ctx, int strategy,
                              const struct xg_gpu_view *v,
                              const struct xg_gpu_sched *s,
                              unsigned long long *d_count,
                              cudaStream_t stream)
{
    xg_hit_out io = {NULL, 0, NULL};
    return launch<MODE_COUNT>(ctx, strategy, v, s, io, d_count, stream);
}

extern "C" int xg__cuda_intersect(struct xg_ctx *ctx, void *user,
                                  void *d_out, uint64_t cap,
                                  unsigned long long *d_n,
                                  cudaStream_t stream)
{
    const struct xg_segtri_pass *p = (const struct xg_segtri_pass *)user;
    xg_hit_out io = {(struct xg_gpu_hit *)d_out, cap, d_n};
    return launch<MODE_INTERVAL>(ctx, p->strategy, p->v, p->sc, io, d_n + 1,
                                 stream);
}
