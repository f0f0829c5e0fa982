/*
 * sort_hits.cu -- the hits of any GPU engine sorted by (a, b) on the
 * device (xg__cuda_sort_hits, xg_cuda.h): a radix sort of 64-bit keys
 * a << 32 | b with the hits' indices, then a gather.  Sorting the keys
 * and not the 40-byte hits moves a fifth of the bytes per pass.  Keys
 * that are the whole hit (inside's, xg__inside_key) sort alone
 * (xg__cuda_sort_keys).  And the numbers 0 .. n-1 that a sort carries
 * beside its keys or a selection picks from (xg__cuda_iota).
 */
#include <cub/device/device_radix_sort.cuh>
#include "xg_cuda.h"

/* One thread per hit k: its key a << 32 | b and its index k. */
__global__ static void k_keys(const struct xg_gpu_hit *d_in, uint32_t n,
                              uint64_t *d_key, uint32_t *d_idx)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) {
        d_key[k] = (uint64_t)d_in[k].a << 32 | d_in[k].b;
        d_idx[k] = k;
    }
}

/* One thread per place k: d_out[k] = the hit the sorted indices name. */
__global__ static void k_gather(const struct xg_gpu_hit *d_in,
                                const uint32_t *d_idx, uint32_t n,
                                struct xg_gpu_hit *d_out)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        d_out[k] = d_in[d_idx[k]];
}

/* x rounded up to a multiple of 256 bytes: each part of the one scratch
 * buffer starts aligned as cudaMalloc's own allocations do. */
static size_t align256(size_t x) { return (x + 255) & ~(size_t)255; }

extern "C" int xg__cuda_sort_hits(struct xg_ctx *ctx,
                                  const struct xg_gpu_hit *d_in,
                                  struct xg_gpu_hit *d_out, uint32_t n,
                                  void *d_tmp, size_t *tmp_bytes,
                                  cudaStream_t stream)
{
    size_t cub_bytes = 0, kb = align256((size_t)n * 8 + 8),
           ib = align256((size_t)n * 4 + 4);
    int rc;
    if ((rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                               NULL, cub_bytes, (uint64_t *)NULL,
                               (uint64_t *)NULL, (uint32_t *)NULL,
                               (uint32_t *)NULL, n, 0, 64, stream))) != XG_OK)
        return rc;
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
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK ||
        (rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortPairs(
                               cub_tmp, cub_bytes, k_in, k_out, i_in, i_out,
                               n, 0, 64, stream))) != XG_OK)
        return rc;
    k_gather<<<nb, th, 0, stream>>>(d_in, i_out, n, d_out);
    return XG_CUDA(ctx, cudaGetLastError());
}

/* Keys that carry their whole hit (xg__inside_key) sort alone: no
 * indices, no gather. */
extern "C" int xg__cuda_sort_keys(struct xg_ctx *ctx, const uint64_t *d_in,
                                  uint64_t *d_out, uint32_t n, void *d_tmp,
                                  size_t *tmp_bytes, cudaStream_t stream)
{
    size_t cub_bytes = 0;
    int rc;
    if ((rc = XG_CUDA(ctx, cub::DeviceRadixSort::SortKeys(
                               NULL, cub_bytes, (const uint64_t *)NULL,
                               (uint64_t *)NULL, n, 0, 64, stream))) != XG_OK)
        return rc;
    if (!d_tmp) {
        *tmp_bytes = align256(cub_bytes);
        return XG_OK;
    }
    if (n == 0)
        return XG_OK;
    return XG_CUDA(ctx, cub::DeviceRadixSort::SortKeys(d_tmp, cub_bytes, d_in,
                                                       d_out, n, 0, 64,
                                                       stream));
}

/* One thread per k: d_v[k] = k. */
__global__ static void k_iota(uint32_t *d_v, uint32_t n)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        d_v[k] = k;
}

extern "C" int xg__cuda_iota(struct xg_ctx *ctx, uint32_t *d_v, uint32_t n,
                             cudaStream_t stream)
{
    if (n == 0)
        return XG_OK;
    k_iota<<<(n + 255) / 256, 256, 0, stream>>>(d_v, n);
    return XG_CUDA(ctx, cudaGetLastError());
}
