/*
 * redblue_kernels.cu -- the GPU red/blue engine's kernel (redblue_gpu.h):
 * one thread per pair of the run of all pairs of the device grid's
 * cells.  The box test and the ownership rule (xg_boxes.h) and the
 * filter (xg__redblue_hit: xg_redblue_fast and xg_lerp_fast of
 * xg_filters.h) are the CPU engines' code, so no pair is evaluated twice
 * and nothing needs de-duplication.
 */
#include "redblue_gpu.h"
#include "xg_cuda_dev.cuh"

/* The device grid's arrays a pair kernel reads. */
struct rb_grid {
    int n[3];
    size_t ncell;
    const int32_t *a_cell, *b_cell;
    const uint32_t *as, *ai, *bs, *bi;
};

/* Pair k of the run: its cell c is the last whose first pair is <= k;
 * pair k - first[c] of the cell is A element r / |B_c|, B element
 * r % |B_c|. */
__global__ static void k_pairs(const double *a, const double *b,
                               const double *abox, const double *bbox,
                               struct rb_grid g, const uint64_t *first,
                               uint64_t total, xg_hit_out io)
{
    uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (k >= total)
        return;
    size_t c = xg_last_le(first, g.ncell, k);
    uint64_t r = k - first[c];
    uint32_t nbc = g.bs[c + 1] - g.bs[c];
    uint32_t i = g.ai[g.as[c] + (uint32_t)(r / nbc)];
    uint32_t j = g.bi[g.bs[c] + (uint32_t)(r % nbc)];
    struct xg_gpu_hit h;
    if (!xg__boxes_meet(abox + 6 * (size_t)i, bbox + 6 * (size_t)j) ||
        xg__owner(g.n, g.a_cell + 6 * (size_t)i, g.b_cell + 6 * (size_t)j) !=
            c)
        return;
    if (xg__redblue_hit(a + 6 * (size_t)i, b + 6 * (size_t)j, i, j, &h))
        xg_append(io, h);
}

extern "C" int xg__cuda_redblue_pairs(struct xg_ctx *ctx, void *user,
                                      void *d_out, uint64_t cap,
                                      unsigned long long *d_n,
                                      cudaStream_t stream)
{
    const struct xg_redblue_pass *p = (const struct xg_redblue_pass *)user;
    const struct xg_dgrid *g = p->g;
    xg_hit_out io = {(struct xg_gpu_hit *)d_out, cap, d_n};
    struct rb_grid rg;
    if (p->total == 0)
        return XG_OK;
    rg.n[0] = g->n[0];
    rg.n[1] = g->n[1];
    rg.n[2] = g->n[2];
    rg.ncell = g->ncell;
    rg.a_cell = g->d_a_cell;
    rg.b_cell = g->d_b_cell;
    rg.as = g->d_a_start;
    rg.ai = g->d_a_items;
    rg.bs = g->d_b_start;
    rg.bi = g->d_b_items;
    k_pairs<<<(unsigned)((p->total + 255) / 256), 256, 0, stream>>>(
        p->d_a, p->d_b, p->d_abox, p->d_bbox, rg, p->d_first, p->total, io);
    return XG_CUDA(ctx, cudaGetLastError());
}
