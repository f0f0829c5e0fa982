/*
 * boxes.cu -- boxes and degenerate elements on the device, for every GPU
 * engine (xg_cuda.h).  The rules are xg_boxes.h's and the triangle's
 * filter xg_filters.h's, the very code of the CPU engines' preparation
 * (pair_engine.c), so the grid sees the same boxes on both.
 */
#include "xg_cuda.h"

/* A zero-length segment (in 3D, or in x, y for DIM 2) gets no box and
 * is counted. */
template <int DIM>
__global__ static void k_seg_boxes(const double *d_seg, uint32_t n,
                                   double *d_box, unsigned long long *d_bad)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double s[6], b[6];
    for (int k = 0; k < 6; k++)
        s[k] = d_seg[6 * (size_t)i + k];
    if (DIM == 3 ? xg__seg_is_degenerate(s) : xg__seg2_is_degenerate(s)) {
        xg__box_none(b);
        atomicAdd(d_bad, 1ULL);
    } else if (DIM == 3) {
        xg__seg_box(s, b);
    } else {
        xg__seg2_box(s, b);
    }
    for (int k = 0; k < 6; k++)
        d_box[6 * (size_t)i + k] = b[k];
}

/* A triangle whose orientation the interval filter certifies nonzero is
 * not degenerate (the host's exact xg__tri_is_degenerate would find the
 * same sign); any other keeps its box for now and is listed in d_flag
 * for the host to decide exactly. */
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
    xg__tri_box(t, b);
    for (int k = 0; k < 6; k++)
        d_box[6 * (size_t)i + k] = b[k];
    if (!xg_tri_proper_iv(t))
        d_flag[atomicAdd(d_nflag, 1ULL)] = i;
}

/* One thread per listed element: d_box of element d_idx[k] marked "no
 * box" (a triangle the host found degenerate). */
__global__ static void k_clear_boxes(double *d_box, const uint32_t *d_idx,
                                     uint32_t n)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        xg__box_none(d_box + 6 * (size_t)d_idx[k]);
}

extern "C" int xg__cuda_seg_boxes(struct xg_ctx *ctx, const double *d_seg,
                                  uint32_t n, int dim, double *d_box,
                                  unsigned long long *d_bad,
                                  cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    if (dim == 3)
        k_seg_boxes<3><<<(n + 255) / 256, 256, 0, stream>>>(d_seg, n, d_box,
                                                            d_bad);
    else
        k_seg_boxes<2><<<(n + 255) / 256, 256, 0, stream>>>(d_seg, n, d_box,
                                                            d_bad);
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_tri_boxes(struct xg_ctx *ctx, const double *d_tri,
                                  uint32_t n, double *d_box, uint32_t *d_flag,
                                  unsigned long long *d_nflag,
                                  cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_tri_boxes<<<(n + 255) / 256, 256, 0, stream>>>(d_tri, n, d_box, d_flag,
                                                     d_nflag);
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_clear_boxes(struct xg_ctx *ctx, double *d_box,
                                    const uint32_t *d_idx, uint32_t n,
                                    cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_clear_boxes<<<(n + 255) / 256, 256, 0, stream>>>(d_box, d_idx, n);
    return XG_CUDA(ctx, cudaGetLastError());
}
