/*
 * inside_kernels.cu -- the GPU point-in-solid engine's kernel
 * (inside_gpu.h): one thread per point, which finds its column
 * (xg__inside_column) and walks the column's runs, solid by solid, with
 * the cpu engine's functions (xg__walk_start, xg__walk_on: the exact box
 * pre-test and the interval filter), compiled for the device, so the two
 * cannot disagree.  Where the filter doubts, the (point, solid) pair
 * goes to the host whole.
 */
#include "inside_gpu.h"
#include "xg_cuda_dev.cuh"

/* The hit of point a in solid s (xg__inside_key): deferred when a filter
 * doubted, else the kind; nothing when the point is outside the solid. */
__device__ static inline void put(const xg_key_out &io, uint32_t a,
                                  uint32_t s, int kind, int doubt)
{
    if (!doubt && kind == XG_KIND_OUTSIDE)
        return;
    xg_append(io, xg__inside_key(a, s, kind, doubt));
}

/* Blocks of 256 threads and no early return: xg_warp_add needs every
 * lane. */
__global__ static void __launch_bounds__(256)
    k_inside(struct xg_inside_dev d, const double *pts, uint32_t n,
             uint32_t a0, xg_key_out io,
             unsigned long long *tally)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned pairs = 0, boxed = 0, deferred = 0;
    int64_t c = -1;
    double p[3];
    if (i < n) {
        p[0] = pts[3 * (size_t)i];
        p[1] = pts[3 * (size_t)i + 1];
        p[2] = pts[3 * (size_t)i + 2];
        c = xg__inside_column(d.n, d.lo, d.hi, d.inv, p);
    }
    if (c >= 0) {
        uint32_t k = d.d_run_start[c], k1 = d.d_run_start[c + 1];
        for (; k < k1; k++) {
            struct xg__run R = d.d_run[k];
            struct xg__walk w;
            int doubt;
            if (!xg__walk_start(p, &R, &w))
                continue;
            doubt = xg__walk_on(p, d.d_items, d.d_top, d.d_tri, d.d_box,
                                d.d_turn, &w, &boxed) == XG_RAY_DEFER;
            pairs += w.j - R.start + doubt;
            deferred += (unsigned)doubt;
            put(io, a0 + i, R.solid, xg__walk_kind(&w), doubt);
        }
    }
    xg_warp_add(tally, pairs);
    xg_warp_add(tally + 1, boxed);
    xg_warp_add(tally + 2, deferred);
}

extern "C" int xg__cuda_inside(struct xg_ctx *ctx, void *user,
                               void *d_out, uint64_t cap,
                               unsigned long long *d_n, cudaStream_t s)
{
    const struct xg_inside_pass *p = (const struct xg_inside_pass *)user;
    xg_key_out io = {(uint64_t *)d_out, cap, d_n};
    int rc;
    if (p->n == 0)
        return XG_OK;
    /* The tally of the pass that fits is the one kept. */
    if ((rc = XG_CUDA(ctx, cudaMemsetAsync(p->d_tally, 0,
                                           3 * sizeof *p->d_tally, s))) !=
        XG_OK)
        return rc;
    k_inside<<<(p->n + 255) / 256, 256, 0, s>>>(*p->dev, p->d_pts, p->n,
                                                p->a0, io, p->d_tally);
    return XG_CUDA(ctx, cudaGetLastError());
}

/* *d_bad = 1 when one of the n doubles at v is infinite or NaN
 * (xg__nonfinite_carry, the host's test). */
__global__ static void k_nonfinite(const uint64_t *v, size_t n,
                                   unsigned long long *d_bad)
{
    uint64_t bad = 0;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x,
           step = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += step)
        bad |= xg__nonfinite_carry(v[i]);
    if (bad >> 63)
        *d_bad = 1;     /* every writer writes 1 */
}

extern "C" int xg__cuda_nonfinite(struct xg_ctx *ctx, const double *d_v,
                                  size_t n, int *bad, cudaStream_t s)
{
    struct xg_dmem m = XG_DMEM_INIT;
    unsigned long long *d_bad, h_bad = 0;
    void *p;
    int rc;
    *bad = 0;
    if (n == 0)
        return XG_OK;
    if ((rc = xg__dmem_alloc(ctx, &m, &p, sizeof *d_bad)) == XG_OK &&
        (rc = XG_CUDA(ctx, cudaMemsetAsync(p, 0, sizeof *d_bad, s))) ==
            XG_OK) {
        d_bad = (unsigned long long *)p;
        k_nonfinite<<<1024, 256, 0, s>>>((const uint64_t *)d_v, n, d_bad);
        if ((rc = XG_CUDA(ctx, cudaGetLastError())) == XG_OK &&
            (rc = XG_CUDA(ctx, cudaMemcpyAsync(&h_bad, d_bad, sizeof h_bad,
                                               cudaMemcpyDeviceToHost,
                                               s))) == XG_OK)
            rc = XG_CUDA(ctx, cudaStreamSynchronize(s));
    }
    xg__dmem_free(&m);
    *bad = h_bad != 0;
    return rc;
}
