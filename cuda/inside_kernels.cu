/*
 * inside_kernels.cu -- the GPU point-in-solid engine's kernel
 * (inside_gpu.h): one thread per point, which finds its column
 * (xg__inside_column) and walks the column's triangles solid by solid
 * with the exact box pre-test (xg__ray_box_holds) and the interval filter
 * (xg_ray_tri_fast): the cpu engine's code (xg__inside_column_point),
 * compiled for the device, so the two cannot disagree.  Where the filter
 * doubts, the (point, solid) pair goes to the host whole.
 */
#include "inside_gpu.h"
#include "xg_cuda_dev.cuh"
extern "C" {
#include "xg_inside.h"
}

/* The hit of point a in solid s: DEFER when a filter doubted, else the
 * kind; nothing when the point is outside the solid. */
__device__ static inline void put(const struct xg_hit_out &io, uint32_t a,
                                  uint32_t s, int on, int parity, int doubt)
{
    struct xg_gpu_hit h;
    if (!doubt && !on && !parity)
        return;
    h.a = a;
    h.b = s;
    h.kind = doubt ? 0 : on ? XG_KIND_BOUNDARY : XG_KIND_INSIDE;
    h.flag = doubt ? XG_GPU_HIT_DEFER : XG_GPU_HIT_DONE;
    h.p[0] = h.p[1] = h.p[2] = 0.0;     /* the host has the point */
    xg_append(io, h);
}

/* Blocks of 256 threads and no early return: xg_warp_add needs every
 * lane. */
__global__ static void __launch_bounds__(256)
    k_inside(struct xg_inside_dev d, const double *pts, uint32_t n,
             uint32_t a0, struct xg_hit_out io,
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
        uint32_t j = d.d_start[c], j1 = d.d_start[c + 1], cur = UINT32_MAX;
        int parity = 0, on = 0, doubt = 0;
        pairs = j1 - j;
        for (; j < j1; j++) {
            uint32_t t = __ldg(d.d_items + j), s = __ldg(d.d_solid + t);
            int r, tested;
            if (s != cur) {
                if (cur != UINT32_MAX)
                    put(io, a0 + i, cur, on, parity, doubt);
                deferred += doubt;
                cur = s;
                parity = on = doubt = 0;
            }
            if (on || doubt)
                continue;
            r = xg__inside_test(p, d.d_tri + 9 * (size_t)t,
                                d.d_box + 6 * (size_t)t, __ldg(d.d_turn + t),
                                &tested);
            boxed += (unsigned)tested;
            if (r == XG_RAY_DEFER) {
                doubt = 1;
                continue;
            }
            on = r == XG_RAY_ON;
            parity ^= r == XG_RAY_CROSS;
        }
        if (cur != UINT32_MAX)
            put(io, a0 + i, cur, on, parity, doubt);
        deferred += doubt;
    }
    xg_warp_add(tally, pairs);
    xg_warp_add(tally + 1, boxed);
    xg_warp_add(tally + 2, deferred);
}

extern "C" int xg__cuda_inside(struct xg_ctx *ctx, void *user,
                               struct xg_gpu_hit *d_hit, uint64_t cap,
                               unsigned long long *d_n, cudaStream_t s)
{
    const struct xg_inside_pass *p = (const struct xg_inside_pass *)user;
    struct xg_hit_out io = {d_hit, cap, d_n};
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
