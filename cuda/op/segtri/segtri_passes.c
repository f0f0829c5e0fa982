/*
 * segtri_passes.c -- the passes of the GPU segtri engine over one batch
 * whose arrays are on the device, however it was prepared (segtri_gpu.h):
 *   count     a float pass gives an estimate from above of the output (the
 *             packed count pass also lists the pairs that pass its cheap
 *             test), and the room gets 5% slack;
 *   intersect the interval pass, through the output protocol (xg_gpu_fill:
 *             relaunched with more room when the estimate fell short);
 *   refine    the points the double intervals left, in double-double on
 *             the device (xg_dd.h);
 *   download  the hits sorted by (a, b) on the device, a sparse list.
 * Pairs met in several cells are evaluated only by the cell that owns
 * them (xg__owner), so nothing repeats.
 */
#include <stdlib.h>
#include <string.h>
#include "segtri_gpu.h"

/* Slack of the output room over the count pass's estimate. */
#define DEFAULT_SLACK 0.05

int xg__segtri_packed_setup(struct xg_segtri_job *J, struct xg_dmem *m,
                            struct xg_gpu_view *v, struct xg_gpu_sched *sc,
                            const uint64_t *d_w, size_t ncell, uint64_t total)
{
    struct xg_ctx *ctx = J->ctx;
    cudaStream_t s = J->gpu.s;
    void *p, *ra, *rb;
    uint32_t ncomp = 0;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, m, &ra, (size_t)v->na * 32)) != XG_OK ||
        (rc = xg__dmem_alloc(ctx, m, &rb, (size_t)v->nb * 32)) != XG_OK ||
        (rc = xg__cuda_records(ctx, v->d_seg, v->d_a_cell, v->na, 2,
                               v->origin, ra, s)) != XG_OK ||
        (rc = xg__cuda_records(ctx, v->d_tri, v->d_b_cell, v->nb, 3,
                               v->origin, rb, s)) != XG_OK)
        return rc;
    v->d_a_rec = (const uint4 *)ra;
    v->d_b_rec = (const uint4 *)rb;
    if ((rc = xg__dmem_alloc(ctx, m, &p, ncell * sizeof(uint32_t))) != XG_OK)
        return rc;
    sc->d_pcell = p;
    if ((rc = xg__dmem_alloc(ctx, m, &p, (ncell + 1) * sizeof(uint64_t))) !=
        XG_OK)
        return rc;
    sc->d_pw = p;
    if ((rc = xg__dmem_alloc(ctx, m, &p, (total / XG_GPU_PACK_PAIRS + 2) *
                                             sizeof(uint32_t))) != XG_OK)
        return rc;
    sc->d_bcell = p;
    sc->total = total;
    /* The list the count pass builds for the interval pass: room for
     * every candidate. */
    if ((rc = xg__dmem_alloc(ctx, m, &p, total * 2 * sizeof(uint32_t))) !=
        XG_OK)
        return rc;
    sc->d_pairs = p;
    return xg__cuda_packed_tables(ctx, d_w, ncell, (uint32_t *)sc->d_pcell,
                                  (uint64_t *)sc->d_pw,
                                  (uint32_t *)sc->d_bcell, total, &ncomp,
                                  &sc->nblocks, s);
}

/* The count pass: an estimate from above of the output.  h_count: the
 * four counters of xg__cuda_count. */
static int count_pass(struct xg_segtri_job *J, struct xg_dmem *m,
                      const struct xg_gpu_view *v,
                      const struct xg_gpu_sched *sc,
                      unsigned long long h_count[4])
{
    struct xg_ctx *ctx = J->ctx;
    cudaStream_t s = J->gpu.s;
    cudaEvent_t ev[2];
    unsigned long long *d_count;
    void *p;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, m, &p, 4 * sizeof *h_count)) != XG_OK)
        return rc;
    d_count = p;
    /* Events around the kernels alone, for the floor comparison. */
    if ((rc = xg__gpu_events(ctx, ev)) != XG_OK)
        return rc;
    if ((rc = XG_CUDA(ctx, cudaMemsetAsync(d_count, 0, 4 * sizeof *h_count,
                                           s))) == XG_OK &&
        (rc = XG_CUDA(ctx, cudaEventRecord(ev[0], s))) == XG_OK &&
        (rc = xg__cuda_count(ctx, J->go->strategy, v, sc, d_count, s)) ==
            XG_OK &&
        (rc = XG_CUDA(ctx, cudaEventRecord(ev[1], s))) == XG_OK &&
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(h_count, d_count,
                                           4 * sizeof *h_count,
                                           cudaMemcpyDeviceToHost, s))) ==
            XG_OK &&
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) == XG_OK)
        J->go->count_kernel_seconds += xg__gpu_elapsed(ev);
    xg__gpu_events_free(ev);
    return rc;
}

/* The points the double enclosure left, in double-double. */
static int refine_pass(struct xg_segtri_job *J, struct xg_dmem *m,
                       const struct xg_gpu_view *v, struct xg_gpu_hit *d_hit,
                       uint64_t n)
{
    struct xg_ctx *ctx = J->ctx;
    cudaStream_t s = J->gpu.s;
    unsigned long long h_done = 0, *d_done;
    void *p;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, m, &p, sizeof h_done)) != XG_OK)
        return rc;
    d_done = p;
    if ((rc = XG_CUDA(ctx, cudaMemsetAsync(d_done, 0, sizeof h_done, s))) !=
            XG_OK ||
        (rc = xg__cuda_refine(ctx, v, d_hit, (uint32_t)n, d_done, s)) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaMemcpyAsync(&h_done, d_done, sizeof h_done,
                                           cudaMemcpyDeviceToHost, s))) !=
            XG_OK ||
        (rc = XG_CUDA(ctx, cudaStreamSynchronize(s))) != XG_OK)
        return rc;
    J->go->refined += h_done;
    return XG_OK;
}

/* The n hits at h renumbered from a batch's local numbers to the run's
 * (contract in segtri_gpu.h). */
void xg__segtri_renumber(struct xg_gpu_hit *h, size_t n,
                         const uint32_t *a_map, const uint32_t *b_map)
{
    size_t k;
    for (k = 0; k < n; k++) {
        h[k].a = a_map[h[k].a];
        h[k].b = b_map[h[k].b];
    }
}

/* Appends the n hits at h to the job's (contract in segtri_gpu.h): taken
 * as they are when the job has none (one batch). */
int xg__segtri_keep(struct xg_segtri_job *J, struct xg_ctx *ctx,
                    struct xg_gpu_hit *h, size_t n)
{
    struct xg_segtri_hits *o = &J->out;
    if (o->n == 0) {
        free(o->v);
        o->v = h;
        o->n = n;
        o->cap = n ? n : 1;
        return XG_OK;
    }
    if (xg__reserve((void **)&o->v, &o->cap, o->n + n, sizeof *o->v) !=
        XG_OK) {
        free(h);
        return xg__error(ctx, XG_ENOMEM, "out of memory for the GPU hits");
    }
    memcpy(o->v + o->n, h, n * sizeof *h);
    o->n += n;
    free(h);
    return XG_OK;
}

/* Count, interval and refine over one batch on the device (contract in
 * segtri_gpu.h). */
int xg__segtri_launch(struct xg_segtri_job *J, struct xg_segtri_out *o,
                      const struct xg_gpu_view *v,
                      const struct xg_gpu_sched *psc, uint64_t in_bytes,
                      size_t ncell)
{
    struct xg_stats *st = J->st;
    struct xg_gpu_opts *go = J->go;
    struct xg_gpu_fill *fill = &o->fill;
    unsigned long long h_count[4];
    uint64_t room;
    double t0 = xg__now(), t1;
    int rc;

    o->sc = *psc;
    if ((rc = count_pass(J, &o->m, v, &o->sc, h_count)) != XG_OK)
        return rc;
    t1 = xg__now();
    go->count_seconds += t1 - t0;
    st->seconds[XG_STAGE_INTERSECT] += t1 - t0;
    if (go->strategy == XG_GPU_PACKED)
        o->sc.npairs = h_count[3];      /* the list the count pass built */
    go->count_bound += h_count[0];
    go->not_owned += h_count[1];
    st->bbox_pairs += h_count[2];

    o->pass.strategy = go->strategy;
    o->pass.v = v;
    o->pass.sc = &o->sc;
    if (go->slack < 0)
        room = 1;
    else
        room = (uint64_t)((double)h_count[0] *
                          (1.0 + (go->slack > 0 ? go->slack
                                                : DEFAULT_SLACK))) + 16;
    xg__gpu_fill_init(fill, xg__cuda_intersect, &o->pass, room);
    /* Room for the hits, their sorted copy and the sort's scratch within
     * the budget, or a batch cut smaller (multi-block strategies). */
    if (ncell > 1 &&
        (go->strategy == XG_GPU_MULTI || go->strategy == XG_GPU_PACKED))
        fill->max_cap = J->gpu.budget > in_bytes
                            ? (J->gpu.budget - in_bytes) / XG_GPU_HIT_BYTES
                            : 0;
    rc = xg__gpu_fill(J->ctx, &o->m, fill, &o->d_hit, J->gpu.s);
    go->relaunches += fill->relaunches;
    if (rc != XG_OK)
        return rc;
    go->interval_kernel_seconds += fill->kernel_seconds;
    go->plane_crossings += fill->tally;
    t0 = xg__now();
    go->interval_seconds += t0 - t1;
    st->seconds[XG_STAGE_INTERSECT] += t0 - t1;
    go->hits += fill->n;

    if ((rc = refine_pass(J, &o->m, v, o->d_hit, fill->n)) != XG_OK)
        return rc;
    st->seconds[XG_STAGE_EXACT] += xg__now() - t0;
    return XG_OK;
}

/* The batch's hits sorted on the device and downloaded (contract in
 * segtri_gpu.h). */
int xg__segtri_download(struct xg_segtri_job *J, struct xg_segtri_out *o,
                        struct xg_gpu_hit **h, size_t *n)
{
    void *h_hit = NULL;
    int rc = xg__gpu_download_sorted(J->ctx, &o->m, &o->fill, o->d_hit,
                                     &h_hit, J->st, J->gpu.s);
    if (rc != XG_OK)
        return rc;
    *h = h_hit;
    *n = o->fill.n;
    J->go->batches++;
    return XG_OK;
}

/* The passes over one batch (contract in segtri_gpu.h): launched,
 * downloaded, kept at once. */
int xg__segtri_passes(struct xg_segtri_job *J, const struct xg_gpu_view *v,
                      const struct xg_gpu_sched *psc, uint64_t in_bytes,
                      size_t ncell, const uint32_t *a_map,
                      const uint32_t *b_map)
{
    struct xg_segtri_out o;
    struct xg_gpu_hit *h = NULL;
    size_t n = 0;
    int rc;

    memset(&o, 0, sizeof o);            /* its arena as XG_DMEM_INIT */
    if ((rc = xg__segtri_launch(J, &o, v, psc, in_bytes, ncell)) == XG_OK &&
        (rc = xg__segtri_download(J, &o, &h, &n)) == XG_OK) {
        double t0 = xg__now();
        if (a_map)
            xg__segtri_renumber(h, n, a_map, b_map);
        rc = xg__segtri_keep(J, J->ctx, h, n);
        J->st->seconds[XG_STAGE_DOWNLOAD] += xg__now() - t0;
    }
    xg__dmem_free(&o.m);
    return rc;
}
