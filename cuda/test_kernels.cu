/*
 * test_kernels.cu -- kernels for the GPU tests only (tests/gpu_t.c,
 * tests/gpu_iv_t.c): the interval arithmetic, orient3d, incircle, the
 * segtri fast pass and the double-double construction evaluated on the
 * device, to compare with the host's and with exact arithmetic
 * (test_kernels.h).
 */
#include "test_kernels.h"

/* One thread per case (xg__cuda_orient3d_iv, test_kernels.h). */
__global__ static void k_orient3d(const double *d_pts, size_t n,
                                  struct xg_iv *d_out)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        const double *p = d_pts + 12 * k;
        d_out[k] = xg_orient3d_iv(p, p + 3, p + 6, p + 9);
    }
}

/* One thread per case (xg__cuda_iv_ops); the quotient by a divisor
 * containing zero is the whole line, as xg_iv_div's would be. */
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

/* One thread per case (xg__cuda_iv_more). */
__global__ static void k_iv_more(const struct xg_iv *d_iv, size_t n,
                                 struct xg_iv *d_out)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        struct xg_iv a = d_iv[2 * k], b = d_iv[2 * k + 1];
        struct xg_iv *o = d_out + XG_IV_MORE * k;
        unsigned e;
        o[0] = xg_iv_mul(a, b);
        o[1] = xg_iv_div(a, b);
        o[2] = xg_iv_sqr(a);
        for (e = 0; e < 8; e++)
            o[3 + e] = xg_iv_pow(a, e);
    }
}

/* One thread per case (xg__cuda_incircle_iv). */
__global__ static void k_incircle(const double *d_pts, size_t n,
                                  struct xg_iv *d_out)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        const double *p = d_pts + 8 * k;
        d_out[k] = xg_incircle_iv(p, p + 2, p + 4, p + 6);
    }
}

/* One thread per case (xg__cuda_segtri_fast); t is [0, 0] unless the
 * answer is PROPER or TOUCH. */
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

/* One thread per case (xg__cuda_plane_point_dd). */
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
    if (n == 0)
        return XG_OK;
    k_plane_point_dd<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(
        d_seg, d_tri, n, d_ok, d_p);
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_orient3d_iv(struct xg_ctx *ctx, const double *d_pts,
                                    size_t n, struct xg_iv *d_out,
                                    cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_orient3d<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(d_pts, n,
                                                                d_out);
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_iv_ops(struct xg_ctx *ctx, const struct xg_iv *d_iv,
                               size_t n, struct xg_iv *d_ops,
                               cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_iv_ops<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(d_iv, n,
                                                              d_ops);
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_segtri_fast(struct xg_ctx *ctx, const double *d_seg,
                                    const double *d_tri, size_t n, int *d_res,
                                    struct xg_iv *d_t, cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_segtri_fast<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(
        d_seg, d_tri, n, d_res, d_t);
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_iv_more(struct xg_ctx *ctx, const struct xg_iv *d_iv,
                                size_t n, struct xg_iv *d_out,
                                cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_iv_more<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(d_iv, n,
                                                               d_out);
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_incircle_iv(struct xg_ctx *ctx, const double *d_pts,
                                    size_t n, struct xg_iv *d_out,
                                    cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_incircle<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(d_pts, n,
                                                                d_out);
    return XG_CUDA(ctx, cudaGetLastError());
}
