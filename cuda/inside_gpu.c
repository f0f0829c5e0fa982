/*
 * inside_gpu.c -- the GPU point-in-solid engine (xg__inside_gpu_run,
 * reached through xg__gpu_inside), host side.
 *
 * The host prepares the solids as the cpu engine does
 * (xg__solids_prepare: grouping, the closed check, the columns) and
 * uploads them once.  The points follow in batches that fit the device
 * memory budget; each batch goes through the output protocol
 * (gpu_output.c) with one thread per point (inside_kernels.cu, or the
 * seed's method, inside_seed.cu), its hits -- one per (point, solid) the
 * point is in, or whose filter doubted -- come back sorted by (point,
 * solid), and the CPU threads decide the doubted pairs exactly, in
 * place, then write the batch's records (and outside records) in order
 * (xg__inside_finish, inside_finish.c).
 */
#include <stdlib.h>
#include <string.h>
#include "inside_gpu.h"
#include "xg_inside.h"
#include "xg_thread.h"

/* Device bytes per hit while a batch is finished on the device: the hit,
 * its sorted copy, two 64-bit sort keys, two indices, and the radix
 * sort's scratch (about the keys again). */
#define HIT_BYTES (2 * sizeof(struct xg_gpu_hit) + 2 * 8 + 2 * 4 + 32)
#define POINT_BYTES (3 * sizeof(double))
#define MAX_BATCH ((uint64_t)1 << 28)   /* points; 2^32 hits at most */

/* ---- the device side ---- */

/* The solids into arena m and dev (the resident part of the run). */
static int upload_solids(struct xg_ctx *ctx, struct xg_dmem *m,
                         const struct xg__solids *S, struct xg_inside_dev *dev)
{
    const struct xg_grid *g = &S->g;
    size_t ncell = g->ncell, refs = g->b_start[ncell];
    struct { const void *h; size_t bytes; const void **d; } up[8];
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
        void *p;
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
    return XG_OK;
}

static uint64_t resident_bytes(const struct xg__solids *S)
{
    return S->ntri * (9 * 8 + 6 * 8 + 1) + (S->nsolid + 1) * 4 +
           (S->g.ncell + 1) * 4 + (uint64_t)S->g.b_start[S->g.ncell] * 12 +
           S->nrun * sizeof *S->run + 3 * 8 + 4096;
}

/* One batch of n points from a0 through the device into hits: *h_hit
 * (sorted; caller frees) and *nhit.  XG_GPU_SPLIT when its hits would
 * not fit the room left. */
static int batch_hits(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                      const struct xg_inside_dev *dev, const double *xyz,
                      uint32_t a0, uint32_t n, int method,
                      unsigned long long *d_tally, uint64_t room,
                      double ratio, struct xg_gpu_hit **h_hit,
                      uint64_t *nhit, struct xg_stats *st)
{
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_inside_pass pass;
    struct xg_gpu_fill fill;
    struct xg_gpu_hit *d_hit;
    unsigned long long tally[3];
    double t0 = xg__now();
    void *p;
    int rc;

    *h_hit = NULL;
    if ((rc = xg__dmem_alloc(ctx, &m, &p, (size_t)n * POINT_BYTES)) !=
            XG_OK ||
        (rc = xg__gpu_upload(ctx, p, xyz + 3 * (size_t)a0,
                             (size_t)n * POINT_BYTES)) != XG_OK)
        goto out;
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    pass.dev = dev;
    pass.d_pts = p;
    pass.n = n;
    pass.a0 = a0;
    pass.d_tally = d_tally;
    xg__gpu_fill_init(&fill,
                      method == XG__IN_SEED ? xg__cuda_inside_seed
                                            : xg__cuda_inside,
                      &pass, (uint64_t)(ratio * n) + 1024);
    fill.max_cap = (room - (uint64_t)n * POINT_BYTES) / HIT_BYTES;
    if (fill.cap > fill.max_cap)
        fill.cap = fill.max_cap;
    t0 = xg__now();
    if ((rc = xg__gpu_fill(ctx, &m, &fill, &d_hit, gpu->s)) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(tally, d_tally, sizeof tally,
                                           cudaMemcpyDeviceToHost,
                                           gpu->s))) != XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(gpu->s))) != XG_OK)
        goto out;
    st->seconds[XG_STAGE_INTERSECT] += xg__now() - t0;
    st->candidates += tally[0];
    st->bbox_pairs += tally[1];
    st->deferred += tally[2];
    if ((rc = xg__gpu_download_sorted(ctx, &m, d_hit, fill.n, h_hit, st,
                                      gpu->s)) == XG_OK)
        *nhit = fill.n;
out:
    xg__dmem_free(&m);
    return rc;
}

int xg__inside_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       int method, struct xg_contacts *out,
                       struct xg_stats *st)
{
    struct xg__solids S;
    struct xg_gpu gpu;
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_inside_dev dev;
    struct xg__inside_finish f;
    unsigned long long *d_tally = NULL;
    uint64_t room = 0, done = 0, batch;
    double ratio = 0.5, t0;
    void *p;
    int rc, opened = 0;

    st->engine = XG_ENGINE_GPU;
    st->threads = 1;
    st->a_count = a->n;
    st->b_count = b->n;
    free(out->v);
    memset(out, 0, sizeof *out);
    memset(&f, 0, sizeof f);
    memset(&dev, 0, sizeof dev);
    t0 = xg__now();
    rc = xg__solids_prepare(ctx, b, opt, xg__threads(ctx), &S, st);
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    if (rc == XG_OK &&
        xg__inside_finish_init(&f, &S, a->xyz, method, opt->outside,
                               xg__threads(ctx)) != XG_OK)
        rc = xg__error(ctx, XG_ENOMEM, "out of memory");
    if (rc != XG_OK)
        goto done;

    /* The solids once; no triangles: every point is outside. */
    if (S.ntri && a->n) {
        if ((rc = xg__gpu_open(ctx, opt, &gpu)) != XG_OK)
            goto done;
        opened = 1;
        t0 = xg__now();
        if ((rc = upload_solids(ctx, &m, &S, &dev)) != XG_OK ||
            (rc = xg__dmem_alloc(ctx, &m, &p, 3 * sizeof *d_tally)) != XG_OK)
            goto done;
        d_tally = p;
        st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
        if (resident_bytes(&S) + 64 * (POINT_BYTES + HIT_BYTES) > gpu.budget) {
            rc = xg__error(ctx, XG_ENOMEM, "the GPU memory budget (%llu "
                           "bytes) does not hold the solids",
                           (unsigned long long)gpu.budget);
            goto done;
        }
        room = gpu.budget - resident_bytes(&S);
    }
    batch = S.ntri ? room / (POINT_BYTES + HIT_BYTES) : MAX_BATCH;
    if (batch > MAX_BATCH)
        batch = MAX_BATCH;
    while (done < a->n) {
        uint32_t n = (uint32_t)(a->n - done < batch ? a->n - done : batch);
        struct xg_gpu_hit *h_hit = NULL;
        uint64_t nhit = 0;
        if (ctx && ctx->progress &&
            ctx->progress((double)done / (double)a->n, ctx->progress_user)) {
            rc = xg__error(ctx, XG_ECANCEL, "cancelled");
            goto done;
        }
        if (S.ntri) {
            rc = batch_hits(ctx, &gpu, &dev, a->xyz, (uint32_t)done, n,
                            method, d_tally, room, ratio, &h_hit, &nhit, st);
            if (rc == XG_GPU_SPLIT && n > 1) {
                batch = n / 2;      /* more hits than room: smaller */
                continue;
            }
            if (rc == XG_GPU_SPLIT)
                rc = xg__error(ctx, XG_ENOMEM, "the GPU memory budget "
                               "does not hold one point's hits");
            if (rc != XG_OK) {
                free(h_hit);
                goto done;
            }
            ratio = 1.1 * (double)nhit / (double)n;
        }
        t0 = xg__now();
        rc = xg__inside_finish(ctx, &f, h_hit, nhit, (uint32_t)done, n, out);
        free(h_hit);
        st->seconds[XG_STAGE_EXACT] += xg__now() - t0;
        if (rc != XG_OK)
            goto done;
        done += n;
    }
    /* counted here, so that xg__pair_end need not read them all */
    xg__inside_finish_stats(&f, st);
done:
    xg__dmem_free(&m);
    if (opened)
        xg__gpu_close(&gpu);
    xg__solids_free(&S);
    xg__inside_finish_free(&f);
    return rc;
}
