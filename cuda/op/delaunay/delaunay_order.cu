/*
 * delaunay_order.cu -- the orderings of the GPU Delaunay engine, on the
 * device with CUB (xg_cub.cuh), their scratch in the run's arena:
 *   the merge: the points sorted by (x, y) (two stable radix sorts of
 *     their coordinates' bits), the lowest (fid, index) of each run of
 *     equal (x, y) kept (xg__dt_gpu_merge);
 *   the extremes: the points least in eight directions, the first
 *     polygon of the hull's search (xg__dt_gpu_extremes);
 *   the canonical order of the triangles (xg__dt_gpu_canonical).
 * Contracts in delaunay_gpu.h; the run that calls them is
 * delaunay_gpu.cu.
 */
#include "xg_cub.cuh"
#include "delaunay_gpu.h"

/* A 64-bit key of a finite double whose unsigned order is the double's
 * numeric order, -0 made +0 first (equal to it, as < says). */
__device__ static inline unsigned long long order_key(double v)
{
    unsigned long long u = (unsigned long long)__double_as_longlong(v + 0.0);
    return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
}

/* ---- the merge of equal (x, y) ---- */

/* Radix keys of one coordinate of the points in the order perm. */
__global__ static void k_sort_key(const double *xyz, const uint32_t *gid,
                                  const uint32_t *perm, uint32_t n, int axis,
                                  unsigned long long *key)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    key[k] = order_key(xyz[3 * (size_t)gid[perm[k]] + axis]);
}

/* keep[k]: sorted point k is the first of its (x, y). */
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
 * also counts the others whose z differs from the kept one's into *zd;
 * pos is the inclusive scan of keep. */
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

/* One pass of the merge's sort: keys k_in -> k_out carrying the point
 * numbers v_in -> v_out, stable, all 64 bits.  The scratch protocol's
 * signature (xg_cub.cuh), so that its size is asked of the same call. */
static cudaError_t xy_pass(void *d_tmp, size_t &bytes,
                           const unsigned long long *k_in,
                           unsigned long long *k_out, const uint32_t *v_in,
                           uint32_t *v_out, uint32_t n, cudaStream_t s)
{
    return cub::DeviceRadixSort::SortPairs(d_tmp, bytes, k_in, k_out, v_in,
                                           v_out, (int)n, 0, 64, s);
}

/* The order of the n points by y, then stably by x: the permutation of
 * 0 .. n-1 into w->d_idx (d_pos and the keys' two arrays its scratch). */
static int sort_xy(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                   const struct xg_dt_merge *w, uint32_t n, cudaStream_t s)
{
    unsigned nb = (n + 255) / 256;
    int ax, rc;
    if ((rc = xg__cuda_iota(ctx, w->d_idx, n, s)) != XG_OK)
        return rc;
    for (ax = 1; ax >= 0; ax--) {
        k_sort_key<<<nb, 256, 0, s>>>(w->d_xyz, w->d_gid, w->d_idx, n, ax,
                                      w->d_k0);
        if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
            (rc = XG_CUB(ctx, t, xy_pass, w->d_k0, w->d_k1, w->d_idx,
                         w->d_pos, n, s)) != XG_OK ||
            (rc = XG_CUDA(ctx, cudaMemcpyAsync(w->d_idx, w->d_pos,
                                               (size_t)n * 4,
                                               cudaMemcpyDeviceToDevice,
                                               s))) != XG_OK)
            return rc;
    }
    return XG_OK;
}

extern "C" int xg__dt_gpu_merge(struct xg_ctx *ctx, struct xg_dmem *arena,
                                struct xg_cub_tmp *t, struct xg_dt_merge *w,
                                uint32_t n, cudaStream_t s)
{
    unsigned nb = (n + 255) / 256;
    unsigned long long zd = 0;
    void *p;
    int rc;
    if ((rc = sort_xy(ctx, t, w, n, s)) != XG_OK)
        return rc;
    k_merge_flags<<<nb, 256, 0, s>>>(w->d_xyz, w->d_gid, w->d_idx, n,
                                     w->d_keep);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
        (rc = XG_CUB(ctx, t, cub::DeviceScan::InclusiveSum, w->d_keep,
                     w->d_pos, (int)n, s)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(&w->m, w->d_pos + n - 1, 4,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    if ((rc = xg__dmem_alloc(ctx, arena, &p, (size_t)w->m * 16)) != XG_OK)
        return rc;
    w->d_xy = (double *)p;
    if ((rc = xg__dmem_alloc(ctx, arena, &p, (size_t)w->m * 4)) != XG_OK)
        return rc;
    w->d_l2g = (uint32_t *)p;
    k_merge_out<<<nb, 256, 0, s>>>(w->d_xyz, w->d_fid, w->d_gid, w->d_idx, n,
                                   w->d_keep, w->d_pos, w->d_xy, w->d_l2g,
                                   w->d_zd);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(&zd, w->d_zd, 8,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    w->z_differ = zd;
    return XG_OK;
}

/* ---- the extremes ---- */

/* key[p] = the order key of a x + b y of local point p (rounded: the
 * hull's search needs extreme points only roughly; with a, b in -1, 0,
 * 1 and no fused operation, the same value on every run). */
__global__ static void k_dir_key(const double *xy, uint32_t m, double a,
                                 double b, unsigned long long *key)
{
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= m)
        return;
    key[p] = order_key(a * xy[2 * (size_t)p] + b * xy[2 * (size_t)p + 1]);
}

/* poly[2 i], poly[2 i + 1] = the coordinates of point idx[i], i < 8. */
__global__ static void k_poly(const double *xy, const int64_t *idx,
                              double *poly)
{
    int i = threadIdx.x;
    if (i < 8) {
        poly[2 * i] = xy[2 * (size_t)idx[i]];
        poly[2 * i + 1] = xy[2 * (size_t)idx[i] + 1];
    }
}

/* The arg-min of the m keys: the first least, as std::min_element's. */
static cudaError_t least(void *d_tmp, size_t &bytes,
                         const unsigned long long *key,
                         unsigned long long *d_min, int64_t *d_idx,
                         uint32_t m, cudaStream_t s)
{
    return cub::DeviceReduce::ArgMin(d_tmp, bytes, key, d_min, d_idx,
                                     (int64_t)m, s);
}

extern "C" int xg__dt_gpu_extremes(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                                   const double *d_xy, uint32_t m,
                                   unsigned long long *d_key,
                                   double poly[16], cudaStream_t s)
{
    /* counter-clockwise from -x: each polygon vertex minimises a x + b y */
    static const double dir[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    unsigned long long *d_min;
    int64_t *d_idx;
    double *d_poly;
    void *p;
    int i, rc;
    if ((rc = xg__dmem_alloc(ctx, t->m, &p, 8 * (8 + 8 + 16))) != XG_OK)
        return rc;
    d_min = (unsigned long long *)p;
    d_idx = (int64_t *)(d_min + 8);
    d_poly = (double *)(d_idx + 8);
    for (i = 0; i < 8; i++) {
        k_dir_key<<<(m + 255) / 256, 256, 0, s>>>(d_xy, m, dir[i][0],
                                                  dir[i][1], d_key);
        if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
            (rc = XG_CUB(ctx, t, least, d_key, d_min + i, d_idx + i, m,
                         s)) != XG_OK)
            return rc;
    }
    k_poly<<<1, 8, 0, s>>>(d_xy, d_idx, d_poly);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(poly, d_poly, 16 * sizeof *poly,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK)
        return rc;
    return XG_CUDA(ctx, cudaStreamSynchronize(s));
}

/* ---- the canonical order ---- */

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

/* The triangles back from their sorted keys and third vertices. */
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

/* The canonical order's sort: the keys' 56 bits, stable. */
static cudaError_t canon_pass(void *d_tmp, size_t &bytes,
                              const unsigned long long *k_in,
                              unsigned long long *k_out,
                              const uint32_t *v_in, uint32_t *v_out,
                              uint32_t n, cudaStream_t s)
{
    return cub::DeviceRadixSort::SortPairs(d_tmp, bytes, k_in, k_out, v_in,
                                           v_out, (int)n, 0, 56, s);
}

extern "C" int xg__dt_gpu_canonical(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                                    uint32_t *d_tri, uint32_t n,
                                    unsigned long long *d_k0,
                                    unsigned long long *d_k1,
                                    uint32_t *d_v0, uint32_t *d_v1,
                                    cudaStream_t s)
{
    unsigned nb = (n + 255) / 256;
    int rc;
    if (n == 0)
        return XG_OK;
    k_canon_key<<<nb, 256, 0, s>>>(d_tri, n, d_k0, d_v0);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
        (rc = XG_CUB(ctx, t, canon_pass, d_k0, d_k1, d_v0, d_v1, n, s)) !=
            XG_OK)
        return rc;
    k_canon_out<<<nb, 256, 0, s>>>(d_k1, d_v1, n, d_tri);
    return XG_CUDA(ctx, cudaGetLastError());
}

/* ---- their scratch ---- */

extern "C" int xg__dt_gpu_order_bytes(struct xg_ctx *ctx, size_t n,
                                      size_t *bytes, cudaStream_t s)
{
    const uint32_t N = (uint32_t)n, C = (uint32_t)(2 * n + 8);
    size_t b[4];
    int rc, k;
    *bytes = 0;
    if ((rc = XG_CUB_SIZE(ctx, &b[0], xy_pass, (unsigned long long *)NULL,
                          (unsigned long long *)NULL, (uint32_t *)NULL,
                          (uint32_t *)NULL, N, s)) != XG_OK ||
        (rc = XG_CUB_SIZE(ctx, &b[1], cub::DeviceScan::InclusiveSum,
                          (uint32_t *)NULL, (uint32_t *)NULL, (int)N,
                          s)) != XG_OK ||
        (rc = XG_CUB_SIZE(ctx, &b[2], least, (unsigned long long *)NULL,
                          (unsigned long long *)NULL, (int64_t *)NULL, N,
                          s)) != XG_OK ||
        (rc = XG_CUB_SIZE(ctx, &b[3], canon_pass, (unsigned long long *)NULL,
                          (unsigned long long *)NULL, (uint32_t *)NULL,
                          (uint32_t *)NULL, C, s)) != XG_OK)
        return rc;
    /* the scratch grows call by call: at most all four at once */
    for (k = 0; k < 4; k++)
        *bytes += b[k];
    return XG_OK;
}
