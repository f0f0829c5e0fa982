/*
 * test_kernels.h -- launchers for the GPU tests only (test_kernels.cu):
 * the shared formulas of xg_interval.h, xg_filters.h and xg_dd.h run on
 * the device, for tests/gpu_t.c to compare with the host and with exact
 * arithmetic.  Not installed.
 */
#ifndef XG_TEST_KERNELS_H
#define XG_TEST_KERNELS_H

#include "xg_cuda.h"
#ifdef __cplusplus
extern "C" {
#endif

/* d_out[i] = xg_orient3d_iv of the 4 points d_pts[12i..]; and
 * d_ops[4i..4i+3] = add, sub, mul, div of the intervals (d_iv[2i],
 * d_iv[2i+1]). */
int xg__cuda_orient3d_iv(struct xg_ctx *ctx, const double *d_pts, size_t n,
                         struct xg_iv *d_out, cudaStream_t stream);
int xg__cuda_iv_ops(struct xg_ctx *ctx, const struct xg_iv *d_iv, size_t n,
                    struct xg_iv *d_ops, cudaStream_t stream);
/* The operations by signs and the powers (tests/gpu_iv_t): for a =
 * d_iv[2i], b = d_iv[2i+1], d_out[XG_IV_MORE i ..] = mul(a, b), div(a,
 * b), sqr(a), pow(a, 0), ..., pow(a, 7). */
#define XG_IV_MORE 11
int xg__cuda_iv_more(struct xg_ctx *ctx, const struct xg_iv *d_iv, size_t n,
                     struct xg_iv *d_out, cudaStream_t stream);
/* d_out[i] = xg_incircle_iv of the 4 points (2D) d_pts[8i..]. */
int xg__cuda_incircle_iv(struct xg_ctx *ctx, const double *d_pts, size_t n,
                         struct xg_iv *d_out, cudaStream_t stream);
/* The fast pass on the device, pair i = seg 6i, tri 9i: d_res[i] =
 * XG_SEGTRI_*, d_t[i] its t. */
int xg__cuda_segtri_fast(struct xg_ctx *ctx, const double *d_seg,
                         const double *d_tri, size_t n, int *d_res,
                         struct xg_iv *d_t, cudaStream_t stream);
/* xg_plane_point_dd on the device, case i = segment 6i, triangle 9i:
 * d_ok[i] its answer, d_p[3i..] the point. */
int xg__cuda_plane_point_dd(struct xg_ctx *ctx, const double *d_seg,
                            const double *d_tri, size_t n, int *d_ok,
                            double *d_p, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* XG_TEST_KERNELS_H */
