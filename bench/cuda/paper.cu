/*
 * paper.cu -- the kernels of the paper's GPU strategies (paper.h), for
 * the benchmark only, outside the library.  Each pair goes through the product's code
 * (do_pair of segtri_pair.cuh, xg__redblue_hit of xg_gpu_hit.h): the
 * strategies differ only in which pairs each thread takes.
 */
#include "op/segtri/segtri_pair.cuh"
#include "paper.h"

/* List of pairs: thread k takes pair (d_pairs[2k], d_pairs[2k+1]), whose
 * boxes meet and which its cell owns (the CPU checked). */
template <int MODE>
__global__ static void k_list(struct xg_gpu_view v, const uint32_t *d_pairs,
                              uint64_t npairs, xg_hit_out io,
                              unsigned long long *d_count)
{
    uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int keep = 0, tally[2] = {0, 0};
    if (k < npairs)
        keep = do_pair<MODE, 0>(v, 0, d_pairs[2 * k], d_pairs[2 * k + 1], io,
                                tally);
    if (MODE == MODE_COUNT)
        warp_count(d_count, keep, tally);
}

/* One element per thread: SEGS = 1 takes segment k against the triangles
 * of every cell of its range, SEGS = 0 triangle k against the segments. */
template <int MODE, int SEGS>
__global__ static void k_elem(struct xg_gpu_view v, xg_hit_out io,
                              unsigned long long *d_count)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = 0, tally[2] = {0, 0};
    if (k < (SEGS ? v.na : v.nb)) {
        const int32_t *cr = (SEGS ? v.d_a_cell : v.d_b_cell) + 6 * (size_t)k;
        const uint32_t *start = SEGS ? v.d_b_start : v.d_a_start;
        const uint32_t *items = SEGS ? v.d_b_items : v.d_a_items;
        /* An element outside the grid's region (or degenerate) has an
         * empty range, lo x > hi x: no cell. */
        int z_hi = cr[0] <= cr[3] ? cr[5] : -1;
        for (int z = cr[0] <= cr[3] ? cr[2] : 0; z <= z_hi; z++)
            for (int y = cr[1]; y <= cr[4]; y++)
                for (int x = cr[0]; x <= cr[3]; x++) {
                    uint32_t c = xg__cell_index(v.n, x, y, z);
                    uint32_t lc = c - v.c0;
                    for (uint32_t r = start[lc]; r < start[lc + 1]; r++) {
                        uint32_t o = items[r];
                        keep += SEGS ? do_pair<MODE, 1>(v, c, k, o, io,
                                                        tally)
                                     : do_pair<MODE, 1>(v, c, o, k, io,
                                                        tally);
                    }
                }
    }
    if (MODE == MODE_COUNT)
        warp_count(d_count, keep, tally);
}

template <int MODE>
static int launch(struct xg_ctx *ctx, int strategy,
                  const struct xg_gpu_view *v, const struct xg_gpu_sched *s,
                  xg_hit_out io, unsigned long long *d_count,
                  cudaStream_t stream)
{
    const unsigned th = XG_GPU_THREADS;
    switch (strategy) {
    case XG_GPU_LIST: {
        uint64_t nb = (s->npairs + th - 1) / th;
        if (s->npairs == 0)
            return XG_OK;
        if (nb > 0x7fffffffULL)
            return xg__error(ctx, XG_ELIMIT, "too many pairs for one "
                             "launch: %llu", (unsigned long long)s->npairs);
        k_list<MODE><<<(unsigned)nb, th, 0, stream>>>(*v, s->d_pairs,
                                                     s->npairs, io, d_count);
        break;
    }
    case XG_GPU_SEG:
        if (v->na == 0)
            return XG_OK;
        k_elem<MODE, 1><<<(v->na + th - 1) / th, th, 0, stream>>>(*v, io,
                                                                  d_count);
        break;
    case XG_GPU_TRI:
        if (v->nb == 0)
            return XG_OK;
        k_elem<MODE, 0><<<(v->nb + th - 1) / th, th, 0, stream>>>(*v, io,
                                                                  d_count);
        break;
    default:
        return xg__error(ctx, XG_EINVAL, "not a paper strategy: %d",
                         strategy);
    }
    return XG_CUDA(ctx, cudaGetLastError());
}

extern "C" int xg__cuda_paper_segtri(struct xg_ctx *ctx, int mode,
                                     int strategy,
                                     const struct xg_gpu_view *v,
                                     const struct xg_gpu_sched *s,
                                     struct xg_gpu_hit *d_hit, uint64_t cap,
                                     unsigned long long *d_n,
                                     unsigned long long *d_count,
                                     cudaStream_t stream)
{
    xg_hit_out io = {d_hit, cap, d_n};
    if (mode == MODE_COUNT)
        return launch<MODE_COUNT>(ctx, strategy, v, s, io, d_count, stream);
    return launch<MODE_INTERVAL>(ctx, strategy, v, s, io, d_count, stream);
}

/* ---- red/blue: one thread per listed pair ---- */

__global__ static void k_redblue_list(const double *d_a, const double *d_b,
                                      const uint32_t *d_pairs, uint64_t np,
                                      xg_hit_out io)
{
    uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    struct xg_gpu_hit h;
    uint32_t i, j;
    if (k >= np)
        return;
    i = d_pairs[2 * k];
    j = d_pairs[2 * k + 1];
    if (xg__redblue_hit(d_a + 6 * (size_t)i, d_b + 6 * (size_t)j, i, j, &h))
        xg_append(io, h);
}

extern "C" int xg__cuda_paper_redblue(struct xg_ctx *ctx, void *user,
                                      void *d_out, uint64_t cap,
                                      unsigned long long *d_n,
                                      cudaStream_t stream)
{
    const struct xg_paper_redblue_pass *p =
        (const struct xg_paper_redblue_pass *)user;
    xg_hit_out io = {(struct xg_gpu_hit *)d_out, cap, d_n};
    if (p->npairs == 0)
        return XG_OK;
    k_redblue_list<<<(unsigned)((p->npairs + 255) / 256), 256, 0, stream>>>(
        p->d_a, p->d_b, p->d_pairs, p->npairs, io);
    return XG_CUDA(ctx, cudaGetLastError());
}
