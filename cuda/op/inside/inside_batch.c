/*
 * inside_batch.c -- the device's side of the GPU point-in-solid engine
 * (inside_run.h): the solids go up once, and each batch of points goes
 * through the output protocol (gpu_output.c) with one thread per point
 * (inside_kernels.cu), its hits -- one per (point, solid) the point is
 * in, or whose filter doubted, 8-byte keys (xg__inside_key) -- sorted by
 * (point, solid) on the device and downloaded.
 */
#include <stdlib.h>
#include <string.h>
#include "inside_run.h"

/* The solids into arena m and dev (contract in inside_run.h). */
int xg__inside_upload_solids(struct xg_ctx *ctx, struct xg_dmem *m,
                             const struct xg__solids *S,
                             struct xg_inside_dev *dev,
                             unsigned long long **d_tally)
{
    const struct xg_grid *g = &S->g;
    size_t ncell = g->ncell, refs = g->b_start[ncell];
    struct { const void *h; size_t bytes; const void **d; } up[8];
    void *p;
    int k, rc;
    up[0].h = S->tri, up[0].bytes = S->ntri * 9 * sizeof(double);
    up[0].d = (const void **)&dev->d_tri;
    up[1].h = g->b_box, up[1].bytes = S->ntri * 6 * sizeof(double);
    up[1].d = (const void **)&dev->d_box;
    up[2].h = S->tri_start, up[2].bytes = (S->nsolid + 1) * sizeof(uint32_t);
    up[2].d = (const void **)&dev->d_tri_start;
    up[3].h = S->run_start, up[3].bytes = (ncell + 1) * sizeof(uint32_t);
    up[3].d = (const void **)&dev->d_run_start;
    up[4].h = g->b_items, up[4].bytes = refs * sizeof(uint32_t);
    up[4].d = (const void **)&dev->d_items;
    up[5].h = S->turn, up[5].bytes = S->ntri;
    up[5].d = (const void **)&dev->d_turn;
    up[6].h = S->run, up[6].bytes = S->nrun * sizeof *S->run;
    up[6].d = (const void **)&dev->d_run;
    up[7].h = S->top, up[7].bytes = refs * sizeof *S->top;
    up[7].d = (const void **)&dev->d_top;
    for (k = 0; k < 8; k++) {
        if ((rc = xg__dmem_alloc(ctx, m, &p, up[k].bytes)) != XG_OK ||
            (up[k].bytes &&
             (rc = xg__gpu_upload(ctx, p, up[k].h, up[k].bytes)) != XG_OK))
            return rc;
        *up[k].d = p;
    }
    dev->nsolid = (uint32_t)S->nsolid;
    for (k = 0; k < 3; k++) {
        dev->n[k] = g->n[k];
        dev->lo[k] = g->lo[k];
        dev->hi[k] = g->hi[k];
        dev->inv[k] = g->inv[k];
    }
    if ((rc = xg__dmem_alloc(ctx, m, &p, 3 * sizeof **d_tally)) != XG_OK)
        return rc;
    *d_tally = p;
    return XG_OK;
}

/* Device bytes the solids take once up: what xg__inside_upload_solids allocates,
 * and a page of slack. */
uint64_t xg__inside_resident_bytes(const struct xg__solids *S)
{
    return S->ntri * (9 * 8 + 6 * 8 + 1) + (S->nsolid + 1) * 4 +
           (S->g.ncell + 1) * 4 + (uint64_t)S->g.b_start[S->g.ncell] * 12 +
           S->nrun * sizeof *S->run + 3 * 8 + 4096;
}

/* Whether all the points stay on the device beside the solids (contract
 * in inside_run.h). */
int xg__inside_points_stay(const struct xg__solids *S, uint64_t pts,
                           uint64_t budget)
{
    return xg__inside_resident_bytes(S) + pts + 64 * XG_IN_HIT_BYTES <=
           budget;
}

/* Batch b's points on the device (contract in inside_run.h): where all
 * of them are up, the batch's share of them, else its own upload. */
int xg__inside_batch_up(struct xg_ctx *ctx, const double *xyz,
                        const double *d_all, struct xg_inside_dbatch *b,
                        struct xg_stats *st)
{
    uint64_t pts = d_all ? 0 : (uint64_t)b->n * XG_IN_POINT_BYTES;
    double t0 = xg__now();
    void *p = NULL;
    int rc;
    if (d_all)
        p = (void *)(d_all + 3 * (size_t)b->a0);
    else if ((rc = xg__dmem_alloc(ctx, &b->m, &p, pts)) != XG_OK ||
             (rc = xg__gpu_upload(ctx, p, xyz + 3 * (size_t)b->a0, pts)) !=
                 XG_OK)
        return rc;
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    b->pts = pts;
    b->pass.d_pts = p;
    return XG_OK;
}

/* Batch b's filling pass (contract in inside_run.h): through the
 * output protocol with a first room from the batch before, the tally
 * read back. */
int xg__inside_batch_fill(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                          const struct xg_inside_dev *dev,
                          xg_gpu_fill_fn fill_fn,
                          unsigned long long *d_tally, uint64_t room,
                          double ratio, struct xg_inside_dbatch *b,
                          struct xg_stats *st)
{
    struct xg_gpu_fill *fill = &b->fill;
    unsigned long long tally[3];
    uint32_t n = b->n;
    double t0;
    int rc;
    b->pass.dev = dev;
    b->pass.n = n;
    b->pass.a0 = b->a0;
    b->pass.d_tally = d_tally;
    /* Room for one hit per point at least: 8 bytes a point of device
     * memory spares the second pass that a batch denser than the one
     * before would cost (a lattice's slabs cross more or less of the
     * solids). */
    xg__gpu_fill_init(fill, fill_fn, &b->pass,
                      (uint64_t)(ratio > 1.0 ? ratio * n : n) + 1024);
    fill->item_bytes = sizeof(uint64_t);     /* xg__inside_key */
    fill->max_cap = (room - b->pts) / XG_IN_HIT_BYTES;
    if (fill->cap > fill->max_cap)
        fill->cap = fill->max_cap;
    t0 = xg__now();
    if ((rc = xg__gpu_fill(ctx, &b->m, fill, &b->d_hit, gpu->s)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(tally, d_tally, sizeof tally,
                                           cudaMemcpyDeviceToHost,
                                           gpu->s))) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(gpu->s))) != XG_OK)
        return rc;
    st->seconds[XG_STAGE_INTERSECT] += xg__now() - t0;
    st->candidates += tally[0];
    st->bbox_pairs += tally[1];
    st->deferred += tally[2];
    b->deferred = tally[2];
    return XG_OK;
}

/* Batch b's hits sorted on the device and downloaded (contract in
 * inside_run.h). */
int xg__inside_batch_down(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                          struct xg_inside_dbatch *b, uint64_t **h_hit,
                          uint64_t *nhit, struct xg_stats *st)
{
    void *h = NULL;
    int rc = xg__gpu_download_sorted(ctx, &b->m, &b->fill, b->d_hit, &h, st,
                                     gpu->s);
    if (rc == XG_OK) {
        *h_hit = h;
        *nhit = b->fill.n;
    }
    return rc;
}
