/*
 * delaunay_gpu.cu -- the GPU Delaunay engine (xg__delaunay_gpu_run,
 * reached through the engine table's delaunay entry): the points merged
 * and sorted on the device, the hull's corners found on the host, then
 * the rounds of delaunay_core.cuh (the method is described there) driven
 * by delaunay_run.cuh, and the real triangles brought back as set indices
 * in the canonical order (xg__dt_canonical).
 */
#include <algorithm>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <thrust/sequence.h>
#include <thrust/copy.h>
#include <thrust/scan.h>
#include <thrust/extrema.h>
#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include "xg_cuda.h"
#include "delaunay_gpu.h"
#include "delaunay_core.cuh"
extern "C" {
#include "xg_delaunay.h"
}

struct dt_env {
    struct dt_d d;
    struct xg_ctx *ctx;
    struct xg_counters *cnt;
    struct dt_q *hq;
    uint32_t ctr[DT_C_COUNT];
    uint64_t questions, rounds, flip_rounds;
    double t_loc, t_flip;
    cudaStream_t s;
};

#define DT_KERNEL(f)                                                       \
    __global__ static void __launch_bounds__(256) k_##f(struct dt_d d)     \
    {                                                                      \
        uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;                \
        if (i < d.n && (d.dyn < 0 || i < d.cnt[d.dyn]))                    \
            f(&d, i);                                                      \
    }
DT_KERNEL(dt_walk)
DT_KERNEL(dt_hint)
DT_KERNEL(dt_insert)
DT_KERNEL(dt_fixup)
DT_KERNEL(dt_test)
DT_KERNEL(dt_apply)
DT_KERNEL(dt_flip_claim)
DT_KERNEL(dt_flip)
DT_KERNEL(dt_compact)
DT_KERNEL(dt_init_pt)
DT_KERNEL(dt_mark_done)
DT_KERNEL(dt_hullcand)
DT_KERNEL(dt_collect)
DT_KERNEL(dt_rotate)
DT_KERNEL(dt_round_start)
DT_KERNEL(dt_gather)

/* n threads; DYN: those past cnt[ci] idle (a length left on the device,
 * n its bound) */
#define DT_LAUNCH_DYN(E, f, num, ci)                                       \
    do {                                                                   \
        uint32_t n_ = (num);                                               \
        (E)->d.n = n_;                                                     \
        (E)->d.dyn = (ci);                                                 \
        if (n_)                                                            \
            k_##f<<<(n_ + 255) / 256, 256, 0, (E)->s>>>((E)->d);           \
    } while (0)
#define DT_LAUNCH(E, f, num) DT_LAUNCH_DYN(E, f, num, -1)

static int dt_h2d(struct dt_env *E, void *d, const void *h, size_t b)
{
    if (!b)
        return XG_OK;
    return XG_CUDA(E->ctx, cudaMemcpyAsync(d, h, b, cudaMemcpyHostToDevice,
                                           E->s));
}

/* Synchronises: every kernel before it has run (and its errors show). */
static int dt_d2h(struct dt_env *E, void *h, const void *d, size_t b)
{
    int rc;
    if ((rc = XG_CUDA(E->ctx, cudaGetLastError())) != XG_OK)
        return rc;
    if (b && (rc = XG_CUDA(E->ctx, cudaMemcpyAsync(h, d, b,
                                                   cudaMemcpyDeviceToHost,
                                                   E->s))) != XG_OK)
        return rc;
    return XG_CUDA(E->ctx, cudaStreamSynchronize(E->s));
}

#include "delaunay_run.cuh"

/* ---- the merge of equal (x, y): sorted by (x, y), the lowest (fid,
 * index) of each run kept ---- */

/* Radix keys of one coordinate of the points in the order perm: the
 * bits of a double turned so that unsigned order is numeric order, -0
 * made +0 first (equal to it). */
__global__ static void k_sort_key(const double *xyz, const uint32_t *gid,
                                  const uint32_t *perm, uint32_t n, int axis,
                                  unsigned long long *key)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    double v;
    unsigned long long u;
    if (k >= n)
        return;
    v = xyz[3 * (size_t)gid[perm[k]] + axis] + 0.0;
    u = (unsigned long long)__double_as_longlong(v);
    key[k] = (u >> 63) ? ~u : (u | 0x8000000000000000ull);
}

/* local points by a x + b y (a, b in -1, 0, 1; rounded: the hull's
 * candidates need extreme points only roughly) */
struct dt_dir_less {
    const double *xy;
    double a, b;
    __device__ bool operator()(uint32_t p, uint32_t q) const
    {
        return a * xy[2 * (size_t)p] + b * xy[2 * (size_t)p + 1] <
               a * xy[2 * (size_t)q] + b * xy[2 * (size_t)q + 1];
    }
};

/* keep[k]: sorted point k is the first of its (x, y); head[k] its run's
 * first; and the kept points' local arrays.  *zd counts merged points
 * whose z differs from the kept one's. */
__global__ static void k_merge_flags(const double *xyz, const uint32_t *gid,
                                     const uint32_t *idx, uint32_t n,
                                     uint32_t *keep)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    if (k == 0) {
        keep[k] = 1;
    } else {
        const double *p = xyz + 3 * (size_t)gid[idx[k]];
        const double *q = xyz + 3 * (size_t)gid[idx[k - 1]];
        keep[k] = !(p[0] == q[0] && p[1] == q[1]);
    }
}

/* The kept points' local arrays: each run of equal (x, y) keeps its
 * point of lowest (fid, index), found by the run's first thread, which
 * also counts the others whose z differs from the kept one's. */
__global__ static void k_merge_out(const double *xyz, const int64_t *fid,
                                   const uint32_t *gid, const uint32_t *idx,
                                   uint32_t n, const uint32_t *keep,
                                   const uint32_t *pos, double *xy,
                                   uint32_t *l2g, unsigned long long *zd)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x, h, g, best;
    unsigned long long z = 0;
    if (k >= n || !keep[k])
        return;
    best = gid[idx[k]];
    for (h = k + 1; h < n && !keep[h]; h++) {
        g = gid[idx[h]];
        if (fid ? (fid[g] < fid[best] || (fid[g] == fid[best] && g < best))
                : g < best)
            best = g;
    }
    for (h = k; h < n && (h == k || !keep[h]); h++) {
        g = gid[idx[h]];
        z += g != best && xyz[3 * (size_t)g + 2] != xyz[3 * (size_t)best + 2];
    }
    if (z)
        atomicAdd(zd, z);
    h = pos[k] - 1;                         /* inclusive scan */
    xy[2 * (size_t)h] = xyz[3 * (size_t)best];
    xy[2 * (size_t)h + 1] = xyz[3 * (size_t)best + 1];
    l2g[h] = best;
}

/* The canonical order on the device (xg__dt_canonical's): each triangle
 * rotated to start at its smallest index; then, since a directed edge
 * (v0, v1) lies in one counter-clockwise triangle only, ascending
 * (v0, v1, v2) is ascending (v0, v1): one 56-bit radix key. */
__global__ static void k_canon_key(const uint32_t *t, uint32_t n,
                                   unsigned long long *key, uint32_t *val)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x, a, b, c;
    if (k >= n)
        return;
    a = t[3 * (size_t)k];
    b = t[3 * (size_t)k + 1];
    c = t[3 * (size_t)k + 2];
    if (b < a && b < c) {
        uint32_t x = a;
        a = b; b = c; c = x;
    } else if (c < a && c < b) {
        uint32_t x = c;
        c = b; b = a; a = x;
    }
    key[k] = ((unsigned long long)a << 28) | b;
    val[k] = c;
}

__global__ static void k_canon_out(const unsigned long long *key,
                                   const uint32_t *val, uint32_t n,
                                   uint32_t *t)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    t[3 * (size_t)k] = (uint32_t)(key[k] >> 28);
    t[3 * (size_t)k + 1] = (uint32_t)(key[k] & ((1u << 28) - 1));
    t[3 * (size_t)k + 2] = val[k];
}

static int dmalloc(struct xg_ctx *ctx, struct xg_dmem *m, void *pp,
                   size_t bytes)
{
    return xg__dmem_alloc(ctx, m, (void **)pp, bytes);
}

extern "C" uint64_t xg__delaunay_gpu_bytes(size_t npts, size_t n,
                                           int has_fid, size_t sort_tmp)
{
    const uint64_t N = n, c = 2 * N + 8;
    uint64_t b = (uint64_t)npts * (3 * sizeof(double) +
                                   (has_fid ? sizeof(int64_t) : 0));
    b += N * (4 + 3 * 4 + 2 * 8);           /* gid; idx keep pos; keys */
    b += sort_tmp;
    b += N * (16 + 4);                      /* the merged points, l2g */
    /* triangles: tv ta claim stamp amark newloc act act_next cand */
    b += c * (12 + 12 + 8 + 4 + 4 + 12 + 4 + 4 + 12);
    /* per point: loc kind hkey hsign hring pend pend_next */
    b += N * (4 + 1 + 8 * DT_HINTS + DT_HINTS + 1 + 4 + 4);
    b += N * 16;                            /* the hull's candidates */
    b += ((uint64_t)1 << 18) * sizeof(struct dt_q) + 4 * DT_C_COUNT + 8;
    return b + 64 * 256 + ((uint64_t)1 << 20);  /* alignment, slack */
}

/* Progress between rounds: the share of the points inserted. */
static int dt_cancelled(struct dt_env *E, uint32_t npend)
{
    return xg__cancelled_at(E->ctx, 0.9 * (double)(E->d.m - npend) /
                                        (double)E->d.m);
}

extern "C" int xg__delaunay_gpu_run(struct xg_ctx *ctx,
                                    const struct xg_set *pts,
                                    const uint32_t *gid, size_t n,
                                    const struct xg_opts *opt,
                                    struct xg_triangles *out,
                                    struct xg_stats *st)
{
    struct xg_gpu gpu;
    struct xg_dmem M = XG_DMEM_INIT;
    struct dt_env E;
    struct xg_stats st0;
    double t0, *hxy = NULL, *d_xyz = NULL, *d_xy = NULL;
    int64_t *d_fid = NULL;
    uint32_t *d_gid = NULL, *d_idx = NULL, *d_keep = NULL, *d_pos = NULL;
    uint32_t *d_l2g = NULL, *hc = NULL, *hh = NULL, npend = 0, k, m, i;
    unsigned long long *d_zd = NULL, zd = 0, *d_k0 = NULL, *d_k1 = NULL;
    int rc, opened = 0, canon = 0;

    if (!st) {
        memset(&st0, 0, sizeof st0);
        st = &st0;
    }
    memset(&E, 0, sizeof E);
    free(out->v);
    memset(out, 0, sizeof *out);
    E.ctx = ctx;
    E.cnt = &st->cnt;
    st->a_count = n;
    if (n > XG_DT_MAX_POINTS)
        return xg__error(ctx, XG_ELIMIT, "%zu points: the limit is 2^28",
                         n);
    if (n < 3)
        return xg__error(ctx, XG_EDEGENERATE, "fewer than three distinct "
                         "points");
    if ((rc = xg__gpu_open(ctx, opt, &gpu)) != XG_OK)
        return rc;
    opened = 1;
    E.s = gpu.s;
    {
        /* refused before anything is allocated, with the estimate: a
         * triangulation cannot be cut into batches the way the contact
         * engines' points are */
        size_t tb_merge = 0, tb_canon = 0;
        uint64_t need;
        if ((rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                                   NULL, tb_merge,
                                   (unsigned long long *)NULL,
                                   (unsigned long long *)NULL,
                                   (uint32_t *)NULL, (uint32_t *)NULL,
                                   (int)n, 0, 64, gpu.s))) != XG_OK ||
            (rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                                   NULL, tb_canon,
                                   (unsigned long long *)NULL,
                                   (unsigned long long *)NULL,
                                   (uint32_t *)NULL, (uint32_t *)NULL,
                                   (int)(2 * n + 8), 0, 56, gpu.s))) !=
                XG_OK)
            goto done;
        need = xg__delaunay_gpu_bytes(pts->n, n, pts->fid != NULL,
                                      tb_merge + tb_canon);
        if (need > gpu.budget) {
            rc = xg__error(ctx, XG_ENOMEM, "the GPU memory budget (%.2f "
                           "GiB) does not hold the triangulation of %zu "
                           "points (about %.2f GiB); use the cpu engine",
                           (double)gpu.budget / 1073741824.0, n,
                           (double)need / 1073741824.0);
            goto done;
        }
    }

    /* upload, merge, sort */
    t0 = xg__now();
    /* through the context's pinned buffers, complete on return */
    if ((rc = dmalloc(ctx, &M, &d_xyz, pts->n * 3 * sizeof(double))) !=
            XG_OK ||
        (rc = dmalloc(ctx, &M, &d_gid, n * sizeof(uint32_t))) != XG_OK ||
        (pts->fid && (rc = dmalloc(ctx, &M, &d_fid,
                                   pts->n * sizeof(int64_t))) != XG_OK) ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(gpu.s))) != XG_OK ||
        (rc = xg__gpu_upload(ctx, d_xyz, pts->xyz,
                             pts->n * 3 * sizeof(double))) != XG_OK ||
        (rc = xg__gpu_upload(ctx, d_gid, gid, n * sizeof(uint32_t))) !=
            XG_OK ||
        (pts->fid && (rc = xg__gpu_upload(ctx, d_fid, pts->fid,
                                          pts->n * sizeof(int64_t))) !=
                         XG_OK))
        goto done;
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    t0 = xg__now();
    if ((rc = dmalloc(ctx, &M, &d_idx, n * 4)) != XG_OK ||
        (rc = dmalloc(ctx, &M, &d_keep, n * 4)) != XG_OK ||
        (rc = dmalloc(ctx, &M, &d_pos, n * 4)) != XG_OK ||
        (rc = dmalloc(ctx, &M, &d_k0, n * 8)) != XG_OK ||
        (rc = dmalloc(ctx, &M, &d_k1, n * 8)) != XG_OK ||
        (rc = dmalloc(ctx, &M, &d_zd, 8)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemsetAsync(d_zd, 0, 8, gpu.s))) != XG_OK)
        goto done;
    {
        /* by y, then stably by x: two radix sorts */
        unsigned nb = (unsigned)((n + 255) / 256);
        size_t tb = 0;
        void *tmp = NULL;
        int ax;
        thrust::sequence(thrust::cuda::par.on(gpu.s), d_idx, d_idx + n);
        if ((rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                                   NULL, tb, d_k0, d_k1, d_idx, d_pos,
                                   (int)n, 0, 64, gpu.s))) != XG_OK ||
            (rc = dmalloc(ctx, &M, &tmp, tb)) != XG_OK)
            goto done;
        for (ax = 1; ax >= 0; ax--) {
            k_sort_key<<<nb, 256, 0, gpu.s>>>(d_xyz, d_gid, d_idx,
                                              (uint32_t)n, ax, d_k0);
            if ((rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                                       tmp, tb, d_k0, d_k1, d_idx, d_pos,
                                       (int)n, 0, 64, gpu.s))) != XG_OK ||
                (rc = XG_CUDA(ctx, cudaMemcpyAsync(
                                       d_idx, d_pos, n * 4,
                                       cudaMemcpyDeviceToDevice, gpu.s))) !=
                    XG_OK)
                goto done;
        }
        k_merge_flags<<<nb, 256, 0, gpu.s>>>(d_xyz, d_gid, d_idx,
                                             (uint32_t)n, d_keep);
        thrust::inclusive_scan(thrust::cuda::par.on(gpu.s), d_keep,
                               d_keep + n, d_pos);
        if ((rc = XG_CUDA(ctx, cudaMemcpyAsync(&m, d_pos + n - 1, 4,
                                               cudaMemcpyDeviceToHost,
                                               gpu.s))) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaStreamSynchronize(gpu.s))) != XG_OK)
            goto done;
        if ((rc = dmalloc(ctx, &M, &d_xy, (size_t)m * 16)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &d_l2g, (size_t)m * 4)) != XG_OK)
            goto done;
        k_merge_out<<<nb, 256, 0, gpu.s>>>(d_xyz, d_fid, d_gid, d_idx,
                                           (uint32_t)n, d_keep, d_pos, d_xy,
                                           d_l2g, d_zd);
        if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaMemcpyAsync(&zd, d_zd, 8,
                                               cudaMemcpyDeviceToHost,
                                               gpu.s))) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaStreamSynchronize(gpu.s))) != XG_OK)
            goto done;
    }
    st->a_skipped = n - m;
    st->z_differ = zd;
    if (m < 3) {
        rc = xg__error(ctx, XG_EDEGENERATE, "fewer than three distinct "
                       "points");
        goto done;
    }
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;

    /* the engine's arrays */
    t0 = xg__now();
    E.d.xy = d_xy;
    E.d.m = m;
    E.d.cap = 2 * m + 8;
    E.d.qcap = 1u << 18;
    E.d.l2g = d_l2g;
    if (!(E.hq = (struct dt_q *)malloc(E.d.qcap * sizeof *E.hq))) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory");
        goto done;
    }
    {
        size_t c = E.d.cap;
        if ((rc = dmalloc(ctx, &M, &E.d.tv, 12 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.ta, 12 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.claim, 8 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.stamp, 4 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.amark, 4 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.newloc, 12 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.act, 4 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.act_next, 4 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.cand, 12 * c)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.loc, 4 * (size_t)m)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.kind, (size_t)m)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.hkey,
                          8 * DT_HINTS * (size_t)m)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.hsign,
                          DT_HINTS * (size_t)m)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.hring, (size_t)m)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.pend, 4 * (size_t)m)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.pend_next,
                          4 * (size_t)m)) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.q,
                          E.d.qcap * sizeof(struct dt_q))) != XG_OK ||
            (rc = dmalloc(ctx, &M, &E.d.cnt, 4 * DT_C_COUNT)) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaMemsetAsync(E.d.claim, 0xff, 8 * c,
                                               gpu.s))) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaMemsetAsync(E.d.stamp, 0, 4 * c,
                                               gpu.s))) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaMemsetAsync(E.d.amark, 0, 4 * c,
                                               gpu.s))) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaMemsetAsync(E.d.cnt, 0, 4 * DT_C_COUNT,
                                               gpu.s))) != XG_OK)
            goto done;
    }

    /* the hull: candidates not certified inside the octagon of the
     * points extreme in x, y, x + y, x - y, then exactly */
    {
        /* the directions, counter-clockwise from -x: each polygon vertex
         * minimises a x + b y */
        static const double dir[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                         {-1, 0}, {-1, -1}, {0, -1},
                                         {1, -1}};
        thrust::counting_iterator<uint32_t> c0(0), c1(m);
        uint32_t nc;
        E.d.npoly = 8;
        for (i = 0; i < 8; i++) {
            dt_dir_less dl = {d_xy, dir[i][0], dir[i][1]};
            uint32_t v = *thrust::min_element(thrust::cuda::par.on(gpu.s),
                                              c0, c1, dl);
            if ((rc = dt_d2h(&E, E.d.poly + 2 * i, d_xy + 2 * (size_t)v,
                             16)) != XG_OK)
                goto done;
        }
        dt_poly_dedup(&E.d);
        if ((rc = dt_set_ctr(&E, DT_C_NPEND, 0)) != XG_OK)
            goto done;
        DT_LAUNCH(&E, dt_hullcand, m);
        if ((rc = dt_get_ctr(&E)) != XG_OK)
            goto done;
        nc = E.ctr[DT_C_NPEND];
        /* the candidates in lexicographic (= local) order, and their
         * coordinates, to the host */
        if (!(hc = (uint32_t *)malloc((size_t)nc * 4 + 4)) ||
            !(hh = (uint32_t *)malloc((size_t)nc * 4 + 4)) ||
            !(hxy = (double *)malloc((size_t)nc * 16 + 16))) {
            rc = xg__error(ctx, XG_ENOMEM, "out of memory");
            goto done;
        }
        if ((rc = dt_d2h(&E, hc, E.d.pend_next, (size_t)nc * 4)) != XG_OK)
            goto done;
        std::sort(hc, hc + nc);
        if ((rc = dmalloc(ctx, &M, &E.d.cxy, (size_t)nc * 16)) != XG_OK ||
            (rc = dt_h2d(&E, E.d.pend_next, hc, (size_t)nc * 4)) != XG_OK)
            goto done;
        DT_LAUNCH(&E, dt_gather, nc);
        if ((rc = dt_d2h(&E, hxy, E.d.cxy, (size_t)nc * 16)) != XG_OK)
            goto done;
        k = dt_hull(E.cnt, hxy, hc, nc, hh);
    }
    if (k < 3) {
        rc = xg__error(ctx, XG_EDEGENERATE, "all points are collinear");
        goto done;
    }
    if ((rc = dt_start(&E, hh, k, &npend)) != XG_OK ||
        (rc = dt_rounds(&E, npend, dt_cancelled)) != XG_OK)
        goto done;
    st->seconds[XG_STAGE_INTERSECT] += xg__now() - t0;
    if (getenv("XG_DT_PROFILE"))
        fprintf(stderr, "gpu delaunay: %u points, %u hull corners, %llu "
                "rounds, %llu flip rounds, %llu host signs; locate %.3f s, "
                "flips %.3f s, all rounds %.3f s\n", m, k,
                (unsigned long long)E.rounds,
                (unsigned long long)E.flip_rounds,
                (unsigned long long)E.questions, E.t_loc, E.t_flip,
                xg__now() - t0);

    /* the real triangles, as set indices */
    t0 = xg__now();
    {
        uint32_t ntri, nreal;
        if ((rc = dt_get_ctr(&E)) != XG_OK)
            goto done;
        ntri = E.ctr[DT_C_NTRI];
        E.d.outt = E.d.newloc;
        if ((rc = dt_set_ctr(&E, DT_C_NPEND, 0)) != XG_OK)
            goto done;
        DT_LAUNCH(&E, dt_collect, ntri);
        if ((rc = dt_get_ctr(&E)) != XG_OK)
            goto done;
        nreal = E.ctr[DT_C_NPEND];
        if (pts->n <= XG_DT_MAX_POINTS && nreal) {
            unsigned long long *k0 = E.d.claim, *k1 =
                (unsigned long long *)E.d.hkey;
            uint32_t *v0 = E.d.act, *v1 = E.d.act_next;
            void *tmp = NULL;
            size_t tb = 0;
            unsigned nb = (nreal + 255) / 256;
            k_canon_key<<<nb, 256, 0, gpu.s>>>(E.d.outt, nreal, k0, v0);
            if ((rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                                       NULL, tb, k0, k1, v0, v1, (int)nreal,
                                       0, 56, gpu.s))) != XG_OK ||
                (rc = dmalloc(ctx, &M, &tmp, tb)) != XG_OK ||
                (rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                                       tmp, tb, k0, k1, v0, v1, (int)nreal,
                                       0, 56, gpu.s))) != XG_OK)
                goto done;
            k_canon_out<<<nb, 256, 0, gpu.s>>>(k1, v1, nreal, E.d.outt);
            canon = 1;
        }
        if ((rc = dt_sync_up(&E)) != XG_OK)
            goto done;
        /* on huge pages where the system has them: the first touch of
         * 10^7 points' triangles costs as much as the copy */
        out->v = (uint32_t(*)[3])xg__big_alloc((size_t)nreal * 12 + 12);
        if (!out->v) {
            rc = xg__error(ctx, XG_ENOMEM, "out of memory");
            goto done;
        }
        if ((rc = xg__gpu_download(ctx, out->v, E.d.outt,
                                   (size_t)nreal * 12)) != XG_OK)
            goto done;
        out->n = out->cap = nreal;
        st->bbox_pairs = nreal;
        st->candidates = E.rounds;
        st->deferred = E.questions;
    }
    st->seconds[XG_STAGE_DOWNLOAD] += xg__now() - t0;
    if (!canon) {
        t0 = xg__now();
        rc = xg__dt_canonical(out->v, out->n, pts->n, xg__threads(ctx));
        if (rc != XG_OK)
            rc = xg__error(ctx, rc, "out of memory");
        st->seconds[XG_STAGE_UNIQUE] += xg__now() - t0;
    }
done:
    if (rc != XG_OK) {
        free(out->v);
        memset(out, 0, sizeof *out);
    }
    xg__dmem_free(&M);
    if (opened)
        xg__gpu_close(&gpu);
    free(hxy);
    free(hc);
    free(hh);
    free(E.hq);
    return rc;
}
