/*
 * cell_pairs.cu -- the pairs of every cell of a device grid, numbered in
 * one run (xg__cuda_blocks, xg__cuda_tables; xg_cuda.h), for every GPU
 * engine: pairs per cell, a scan of the blocks (of th pairs) per cell,
 * then one thread per block finds its cell by binary search.  With
 * th = 1 the scan is that of the pairs themselves, each pair's number in
 * the run (red/blue's one thread per pair).  The multi-block tables are
 * those of xg__blocks_build (host/gpu_plan.c), built on the device.
 */
#include "xg_cub.cuh"
#include "xg_cuda_dev.cuh"

/* One thread per cell c: its pairs |A_c| |B_c| into d_w[c] and its
 * blocks of th pairs, ceil(w / th), into d_nblk[c] (scanned next). */
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

/* One thread per block b: its cell (the last whose first block, d_off
 * scanned, is <= b), and the pairs of the cell it takes, first .. last,
 * th at most. */
__global__ static void k_tables(const uint64_t *d_w, const uint64_t *d_off,
                                size_t ncell, uint64_t nblocks, unsigned th,
                                uint32_t *d_cell, uint64_t *d_first,
                                uint64_t *d_last)
{
    uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (b >= nblocks)
        return;
    size_t c = xg_last_le(d_off, ncell, b);
    uint64_t first = (b - d_off[c]) * th, w = d_w[c];
    d_cell[b] = (uint32_t)c;
    d_first[b] = first;
    d_last[b] = first + th - 1 < w ? first + th - 1 : w - 1;
}

/* The sum of d_w into *candidates, then d_off scanned in place: its own
 * scratch (a few kilobytes), freed on return, after the synchronization
 * that brings the totals back. */
static int blocks_scan(struct xg_ctx *ctx, struct xg_cub_tmp *t,
                       uint64_t *d_w, uint64_t *d_off, size_t ncell,
                       uint64_t *candidates, uint64_t *nblocks,
                       cudaStream_t stream)
{
    uint64_t last[2] = {0, 0}, *d_sum;
    void *p;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, t->m, &p, sizeof *d_sum)) != XG_OK)
        return rc;
    d_sum = (uint64_t *)p;
    if ((rc = XG_CUB(ctx, t, cub::DeviceReduce::Sum, d_w, d_sum, ncell,
                     stream)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(candidates, d_sum,
                                           sizeof *d_sum,
                                           cudaMemcpyDeviceToHost,
                                           stream))) != XG_OK)
        return rc;
    /* The last cell's blocks, before the scan overwrites them. */
    if ((rc = XG_CUDA(ctx, cudaMemcpyAsync(&last[0], d_off + ncell - 1,
                                           sizeof(uint64_t),
                                           cudaMemcpyDeviceToHost,
                                           stream))) != XG_OK ||
        (rc = XG_CUB(ctx, t, cub::DeviceScan::ExclusiveSum, d_off, d_off,
                     ncell, stream)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(&last[1], d_off + ncell - 1,
                                           sizeof(uint64_t),
                                           cudaMemcpyDeviceToHost,
                                           stream))) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(stream))) != XG_OK)
        return rc;
    *nblocks = last[0] + last[1];
    return XG_OK;
}

extern "C" int xg__cuda_blocks(struct xg_ctx *ctx, const uint32_t *d_as,
                               const uint32_t *d_bs, size_t ncell,
                               unsigned th, uint64_t *d_w, uint64_t *d_off,
                               uint64_t *candidates, uint64_t *nblocks,
                               cudaStream_t stream)
{
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_cub_tmp t = {&m, NULL, 0};
    int rc;
    if (ncell == 0) {
        *candidates = *nblocks = 0;
        return XG_OK;
    }
    k_cell_work<<<(unsigned)((ncell + 255) / 256), 256, 0, stream>>>(
        d_as, d_bs, ncell, th, d_w, d_off);
    if ((rc = XG_CUDA(ctx, cudaGetLastError())) != XG_OK)
        return rc;
    rc = blocks_scan(ctx, &t, d_w, d_off, ncell, candidates, nblocks,
                     stream);
    xg__dmem_free(&m);
    return rc;
}

extern "C" int xg__cuda_tables(struct xg_ctx *ctx, const uint64_t *d_w,
                               const uint64_t *d_off, size_t ncell,
                               uint64_t nblocks, unsigned th,
                               uint32_t *d_cell, uint64_t *d_first,
                               uint64_t *d_last, cudaStream_t stream)
{
    uint64_t nb = (nblocks + 255) / 256;
    if (nblocks == 0)
        return XG_OK;
    if (nb > 0x7fffffffULL)
        return xg__error(ctx, XG_ELIMIT, "too many blocks: %llu",
                         (unsigned long long)nblocks);
    k_tables<<<(unsigned)nb, 256, 0, stream>>>(d_w, d_off, ncell, nblocks, th,
                                               d_cell, d_first, d_last);
    return XG_CUDA(ctx, cudaGetLastError());
}
