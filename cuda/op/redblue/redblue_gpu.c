/*
 * redblue_gpu.c -- the GPU red/blue engine (xg__redblue_gpu_run, reached
 * through xg__gpu_redblue), host side.
 *
 * Only the segments travel.  The GPU computes the boxes (boxes.cu), builds
 * the grid (the shared device grid of grid_gpu.cu), numbers the pairs of
 * every cell in one run (cell_pairs.cu), and one thread takes one pair
 * (redblue_kernels.cu): box test, the ownership rule of the CPU engines
 * (so no pair is evaluated twice and no de-duplication is needed), then
 * the filter, through the output protocol.  The hits are sorted by (a, b)
 * on the GPU, and what the GPU could not certify (a deferred pair, a
 * point its interval cannot round) is decided on the CPU threads by
 * xg__gpu_finish with the pair's ops, in place, so the order stays.
 *
 * XG__RB_PAPER, the paper's method (section 11.3.4), is the benchmark's
 * (bench/cuda/paper.c), reached through the table it registers
 * (gpu_bench.h).
 */
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"
#include "redblue_gpu.h"

/* Boxes, degenerate segments (counted in st), the device grid and the
 * run of all pairs; then the pairs, sorted, into contacts. */
static int ours(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                struct xg_dmem *m, struct xg_dgrid *g,
                const struct xg_set *a, const struct xg_set *b,
                const struct xg_opts *opt, const double *d_a,
                const double *d_b, struct xg_contacts *out,
                struct xg_stats *st)
{
    cudaStream_t s = gpu->s;
    uint32_t na = (uint32_t)a->n, nb = (uint32_t)b->n;
    unsigned long long h_bad[2], *d_bad;
    double *d_abox, *d_bbox;
    uint64_t *d_w, *d_first, total = 0;
    struct xg_gpu_fill fill;
    struct xg_redblue_pass pr;
    double t0 = xg__now();
    int cells[3] = {opt->grid[0], opt->grid[1], 1};
    void *p;
    int rc;

    if ((rc = xg__dmem_alloc(ctx, m, &p, (size_t)na * 6 * sizeof(double))) !=
        XG_OK)
        return rc;
    d_abox = p;
    if ((rc = xg__dmem_alloc(ctx, m, &p, (size_t)nb * 6 * sizeof(double))) !=
        XG_OK)
        return rc;
    d_bbox = p;
    if ((rc = xg__dmem_alloc(ctx, m, &p, sizeof h_bad)) != XG_OK)
        return rc;
    d_bad = p;
    if ((rc = XG_CUDA(ctx, cudaMemsetAsync(d_bad, 0, sizeof h_bad, s))) !=
            XG_OK ||
        (rc = xg__cuda_seg_boxes(ctx, d_a, na, 2, d_abox, d_bad, s)) !=
            XG_OK ||
        (rc = xg__cuda_seg_boxes(ctx, d_b, nb, 2, d_bbox, d_bad + 1, s)) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(h_bad, d_bad, sizeof h_bad,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    st->a_skipped += h_bad[0];
    st->b_skipped += h_bad[1];
    /* The shared device grid, flat in z (one layer). */
    if ((rc = xg__cuda_grid_build(ctx, d_abox, na, d_bbox, nb,
                                  opt->grid[0] > 0 && opt->grid[1] > 0
                                      ? cells
                                      : NULL,
                                  g, s)) != XG_OK)
        return rc;
    st->grid[0] = g->n[0];
    st->grid[1] = g->n[1];
    st->grid[2] = g->n[2];
    st->grid_refs_a = g->refs[0];
    st->grid_refs_b = g->refs[1];

    /* The pairs of all cells as one run: th = 1, each cell's first pair. */
    if ((rc = xg__dmem_alloc(ctx, m, &p, g->ncell * sizeof *d_w)) != XG_OK)
        return rc;
    d_w = p;
    if ((rc = xg__dmem_alloc(ctx, m, &p, g->ncell * sizeof *d_first)) !=
        XG_OK)
        return rc;
    d_first = p;
    if ((rc = xg__cuda_blocks(ctx, g->d_a_start, g->d_b_start, g->ncell, 1,
                              d_w, d_first, &st->candidates, &total, s)) !=
        XG_OK)
        return rc;
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;

    pr.d_a = d_a;
    pr.d_b = d_b;
    pr.d_abox = d_abox;
    pr.d_bbox = d_bbox;
    pr.g = g;
    pr.d_first = d_first;
    pr.total = total;
    xg__gpu_fill_init(&fill, xg__cuda_redblue_pairs, &pr,
                      xg__redblue_hits_guess(a, b));
    return xg__gpu_contacts(ctx, m, &fill, xg__redblue_ops, a->xyz, b->xyz,
                            0, out, st, s);
}

int xg__redblue_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                        const struct xg_set *b, const struct xg_opts *opt,
                        int method, struct xg_contacts *out,
                        struct xg_stats *st)
{
    const struct xg__gpu_bench *bench = NULL;
    struct xg_gpu gpu;
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_dgrid g;
    double *d_a, *d_b, t0;
    void *p;
    int rc;

    xg__gpu_run_begin(a, b, out, st);
    memset(&g, 0, sizeof g);
    if (method == XG__RB_PAPER &&
        (rc = xg__gpu_bench_get(ctx, "the paper's GPU red/blue method",
                                &bench)) != XG_OK)
        return rc;
    if ((rc = xg__gpu_open(ctx, opt, &gpu)) != XG_OK)
        return rc;
    t0 = xg__now();
    if ((rc = xg__dmem_alloc(ctx, &m, &p, a->n * 6 * sizeof(double))) !=
        XG_OK)
        goto done;
    d_a = p;
    if ((rc = xg__dmem_alloc(ctx, &m, &p, b->n * 6 * sizeof(double))) !=
        XG_OK)
        goto done;
    d_b = p;
    if ((rc = xg__gpu_upload(ctx, d_a, a->xyz, a->n * 6 * sizeof(double))) !=
            XG_OK ||
        (rc = xg__gpu_upload(ctx, d_b, b->xyz, b->n * 6 * sizeof(double))) !=
            XG_OK)
        goto done;
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    if (bench)
        rc = bench->redblue(ctx, &gpu, a, b, opt, d_a, d_b, out, st);
    else
        rc = ours(ctx, &gpu, &m, &g, a, b, opt, d_a, d_b, out, st);
done:
    xg__cuda_grid_free(&g);
    xg__dmem_free(&m);
    xg__gpu_close(&gpu);
    return rc;
}
