/*
 * segtri_prep.c -- the GPU segtri engine's preparation on the device: only
 * the coordinates travel (through the pinned buffers); the boxes, the
 * degenerate elements (the doubtful triangles decided exactly on the
 * host), the shared device grid and the block tables (the paper's per
 * cell, or the packed ones cut from the run of all pairs) are built on
 * the device, then the passes run over the whole input as one batch.
 */
#include <stdlib.h>
#include <string.h>
#include "segtri_gpu.h"

/* The triangles the device could not certify non-degenerate, decided
 * exactly on the host (xg__tri_is_degenerate, as the CPU engines); the
 * degenerate ones lose their boxes. */
static int screen_flagged(struct xg_segtri_job *J, struct xg_dmem *m,
                          double *d_bbox, const uint32_t *d_flag,
                          uint64_t nflag)
{
    struct xg_ctx *ctx = J->ctx;
    cudaStream_t s = J->gpu.s;
    uint32_t *h = malloc((nflag ? nflag : 1) * sizeof *h);
    const void *d_bad;
    uint64_t k, nbad = 0;
    int rc = XG_OK;
    if (!h)
        return xg__error(ctx, XG_ENOMEM, "out of memory for flagged "
                         "triangles");
    if (nflag &&
        ((rc = XG_CUDA(ctx, cudaMemcpyAsync(h, d_flag, nflag * sizeof *h,
                                            cudaMemcpyDeviceToHost, s))) !=
             XG_OK ||
         (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)) {
        free(h);
        return rc;
    }
    for (k = 0; k < nflag; k++)
        if (xg__tri_is_degenerate(&J->st->cnt, J->b->xyz + 9 * (size_t)h[k]))
            h[nbad++] = h[k];
    J->st->b_skipped += nbad;
    if (nbad &&
        (rc = xg__dmem_up(ctx, m, &d_bad, h, nbad * sizeof *h, s)) == XG_OK &&
        (rc = xg__cuda_clear_boxes(ctx, d_bbox, (const uint32_t *)d_bad,
                                   (uint32_t)nbad, s)) == XG_OK)
        rc = XG_CUDA(ctx, cudaStreamSynchronize(s));
    free(h);
    return rc;
}

/* Boxes and degenerate elements: a_skipped and b_skipped in st. */
static int boxes(struct xg_segtri_job *J, struct xg_dmem *m,
                 const double *d_seg, const double *d_tri, double *d_abox,
                 double *d_bbox)
{
    struct xg_ctx *ctx = J->ctx;
    cudaStream_t s = J->gpu.s;
    uint32_t na = (uint32_t)J->a->n, nb = (uint32_t)J->b->n;
    unsigned long long h_counts[2], *d_counts;
    uint32_t *d_flag;
    void *p;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, m, &p, (size_t)nb * sizeof(uint32_t))) !=
        XG_OK)
        return rc;
    d_flag = p;
    if ((rc = xg__dmem_alloc(ctx, m, &p, sizeof h_counts)) != XG_OK)
        return rc;
    d_counts = p;
    if ((rc = XG_CUDA(ctx, cudaMemsetAsync(d_counts, 0, sizeof h_counts,
                                           s))) != XG_OK ||
        (rc = xg__cuda_seg_boxes(ctx, d_seg, na, 3, d_abox, d_counts, s)) !=
            XG_OK ||
        (rc = xg__cuda_tri_boxes(ctx, d_tri, nb, d_bbox, d_flag,
                                 d_counts + 1, s)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(h_counts, d_counts,
                                           sizeof h_counts,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    J->st->a_skipped += h_counts[0];
    return screen_flagged(J, m, d_bbox, d_flag, h_counts[1]);
}

/* Device bytes the inputs of the whole run take, for the output's budget
 * (xg__segtri_passes). */
static uint64_t input_bytes(const struct xg_dgrid *dg, uint64_t na,
                            uint64_t nb, uint64_t nblocks, int packed,
                            uint64_t candidates)
{
    uint64_t bytes = na * (6 * 8 * 2 + 24) + nb * (9 * 8 + 48 + 24 + 4) +
                     (uint64_t)dg->ncell * 24 +
                     4 * (dg->refs[0] + dg->refs[1]) + nblocks * 20;
    if (packed)
        bytes += (na + nb) * 32 + (uint64_t)dg->ncell * 12 +
                 (candidates / XG_GPU_PACK_PAIRS + 2) * 4 + candidates * 8;
    return bytes;
}

/* The whole run prepared on the device (this file's header): the
 * coordinates uploaded, boxes, degenerate triangles, the grid dg and the
 * strategy's block tables built there, then the passes over the input as
 * one batch.  Device memory comes from m and dg, which the caller frees
 * whatever the outcome.  XG_OK or an XG_E* code, with the message in
 * J->ctx. */
static int prepared_run(struct xg_segtri_job *J, struct xg_dmem *m,
                        struct xg_dgrid *dg, const struct xg_opts *opt)
{
    struct xg_ctx *ctx = J->ctx;
    struct xg_stats *st = J->st;
    cudaStream_t s = J->gpu.s;
    uint32_t na = (uint32_t)J->a->n, nb = (uint32_t)J->b->n;
    struct xg_gpu_view v;
    struct xg_gpu_sched sc;
    double *d_seg, *d_tri, *d_abox, *d_bbox;
    uint64_t *d_w, *d_off, nblocks = 0;
    double t0 = xg__now(), t1;
    void *p;
    int k, rc;

    memset(&v, 0, sizeof v);
    memset(&sc, 0, sizeof sc);
#define ALLOC(dst, bytes)                                                  \
    do {                                                                   \
        if ((rc = xg__dmem_alloc(ctx, m, &p, (bytes))) != XG_OK)           \
            return rc;                                                     \
        (dst) = p;                                                         \
    } while (0)
    ALLOC(d_seg, (size_t)na * 6 * sizeof(double));
    ALLOC(d_tri, (size_t)nb * 9 * sizeof(double));
    if ((rc = xg__gpu_upload(ctx, d_seg, J->a->xyz, (size_t)na * 48)) !=
            XG_OK ||
        (rc = xg__gpu_upload(ctx, d_tri, J->b->xyz, (size_t)nb * 72)) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    t1 = xg__now();
    st->seconds[XG_STAGE_UPLOAD] += t1 - t0;

    ALLOC(d_abox, (size_t)na * 6 * sizeof(double));
    ALLOC(d_bbox, (size_t)nb * 6 * sizeof(double));
    if ((rc = boxes(J, m, d_seg, d_tri, d_abox, d_bbox)) != XG_OK)
        return rc;

    /* The grid, then the pairs and blocks of every cell. */
    if ((rc = xg__cuda_grid_build(ctx, d_abox, na, d_bbox, nb, opt->grid, dg,
                                  s)) != XG_OK)
        return rc;
    for (k = 0; k < 3; k++)
        st->grid[k] = dg->n[k];
    st->grid_refs_a = dg->refs[0];
    st->grid_refs_b = dg->refs[1];
    ALLOC(d_w, dg->ncell * sizeof(uint64_t));
    ALLOC(d_off, dg->ncell * sizeof(uint64_t));
    if ((rc = xg__cuda_blocks(ctx, dg->d_a_start, dg->d_b_start, dg->ncell,
                              XG_GPU_THREADS, d_w, d_off, &st->candidates,
                              &nblocks, s)) != XG_OK)
        return rc;
    v.d_seg = d_seg;
    v.d_tri = d_tri;
    v.d_a_cell = dg->d_a_cell;
    v.d_b_cell = dg->d_b_cell;
    v.d_a_start = dg->d_a_start;
    v.d_a_items = dg->d_a_items;
    v.d_b_start = dg->d_b_start;
    v.d_b_items = dg->d_b_items;
    v.c0 = 0;
    v.c1 = (uint32_t)dg->ncell;
    v.na = na;
    v.nb = nb;
    for (k = 0; k < 3; k++) {
        v.n[k] = dg->n[k];
        v.origin[k] = dg->lo[k];
    }
    if (J->go->strategy == XG_GPU_PACKED &&
        (dg->n[0] > XG_GPU_PACK_MAX_XY || dg->n[1] > XG_GPU_PACK_MAX_XY))
        J->go->strategy = XG_GPU_MULTI;     /* records cannot hold x, y */
    if (J->go->strategy == XG_GPU_PACKED &&
        (rc = xg__segtri_packed_setup(J, m, &v, &sc, d_w, dg->ncell,
                                      st->candidates)) != XG_OK)
        return rc;
    if (J->go->strategy == XG_GPU_MULTI) {
        ALLOC(sc.d_cell, nblocks * sizeof(uint32_t));
        ALLOC(sc.d_first, nblocks * sizeof(uint64_t));
        ALLOC(sc.d_last, nblocks * sizeof(uint64_t));
        sc.nblocks = nblocks;
        if ((rc = xg__cuda_tables(ctx, d_w, d_off, dg->ncell, nblocks,
                                  XG_GPU_THREADS, (uint32_t *)sc.d_cell,
                                  (uint64_t *)sc.d_first,
                                  (uint64_t *)sc.d_last, s)) != XG_OK)
            return rc;
    }
#undef ALLOC
    if ((rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t1;
    if (st->candidates == 0)
        return XG_OK;
    return xg__segtri_passes(J, &v, &sc,
                             input_bytes(dg, na, nb, nblocks,
                                         J->go->strategy == XG_GPU_PACKED,
                                         st->candidates),
                             dg->ncell, NULL, NULL);
}

int xg__segtri_device_run(struct xg_segtri_job *J, const struct xg_opts *opt)
{
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_dgrid dg;
    int rc;
    memset(&dg, 0, sizeof dg);
    rc = prepared_run(J, &m, &dg, opt);
    xg__cuda_grid_free(&dg);
    xg__dmem_free(&m);
    return rc;
}
