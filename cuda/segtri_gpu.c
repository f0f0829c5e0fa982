/*
 * segtri_gpu.c -- the GPU engine of xg_segtri, host side: where a run is
 * prepared, and its end.  (The paper's section 11.3.5.)
 *
 *   on the device  when the whole input, its boxes and a grid fit half the
 *                  memory budget (segtri_prep.c): only the coordinates
 *                  travel;
 *   on the host    otherwise, or when the output turns out not to fit, or
 *                  for the paper's list-of-pairs strategy (the
 *                  benchmark's, gpu_bench.h): the grid is
 *                  built on the CPU, and its cells are cut into ranges
 *                  that fit (xg__gpu_plan_batches), each range's elements
 *                  gathered with local numbers; a range whose output does
 *                  not fit is halved.
 * Either way the same passes run over each batch (segtri_passes.c), and
 * the hits, sorted by (a, b), become contacts on the CPU threads
 * (xg__gpu_finish): the entries the device could not settle (a deferred
 * classification or an uncertified point) go to GMP there.
 */
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"

/* The host arrays of one batch, numbered as the device sees them. */
struct hbatch {
    size_t c0, c1;
    uint32_t na, nb;
    const double *seg, *tri;
    const int32_t *a_cell, *b_cell;
    const uint32_t *a_start, *a_items, *b_start, *b_items; /* by c - c0 */
    const uint32_t *a_map, *b_map;  /* NULL: local = global */
};

/* A batch's schedule on the CPU, its upload, then the passes. */
static int host_batch(struct xg_segtri_job *J, struct xg_dmem *m,
                      const struct hbatch *hb)
{
    struct xg_ctx *ctx = J->ctx;
    struct xg_stats *st = J->st;
    struct xg_gpu_opts *go = J->go;
    cudaStream_t s = J->gpu.s;
    struct xg_gpu_view v;
    struct xg_gpu_sched sc;
    struct xg_blocks bt = {0};
    uint32_t *pairs = NULL;
    size_t ncell = hb->c1 - hb->c0, k;
    uint64_t in_bytes;
    double t0 = xg__now(), t1;
    int rc = XG_OK;

    memset(&v, 0, sizeof v);
    memset(&sc, 0, sizeof sc);
    if (go->strategy == XG_GPU_PACKED &&
        (J->g->n[0] > XG_GPU_PACK_MAX_XY || J->g->n[1] > XG_GPU_PACK_MAX_XY))
        go->strategy = XG_GPU_MULTI;        /* records cannot hold x, y */
    /* Schedule, on the CPU. */
    if (go->strategy == XG_GPU_MULTI) {
        rc = xg__blocks_build(hb->a_start, hb->b_start, 0, ncell,
                              XG_GPU_THREADS, &bt);
        if (rc != XG_OK)
            return xg__error(ctx, rc, "out of memory for the block tables");
        for (k = 0; k < bt.n; k++)
            bt.cell[k] += (uint32_t)hb->c0;
        sc.nblocks = bt.n;
    } else if (go->strategy == XG_GPU_LIST) {
        const struct xg__gpu_bench *bench;
        if ((rc = xg__gpu_bench_get(ctx, "the paper's GPU strategy",
                                    &bench)) != XG_OK)
            return rc;
        if ((rc = bench->segtri_pairs(J->g, &pairs, &sc.npairs)) != XG_OK)
            return xg__error(ctx, rc, "out of memory for the list of pairs");
    }
    t1 = xg__now();
    st->seconds[XG_STAGE_PREPARE] += t1 - t0;

    /* Upload. */
    v.c0 = (uint32_t)hb->c0;
    v.c1 = (uint32_t)hb->c1;
    v.na = hb->na;
    v.nb = hb->nb;
    for (k = 0; k < 3; k++) {
        v.n[k] = J->g->n[k];
        v.origin[k] = J->g->lo[k];
    }
    in_bytes = (uint64_t)hb->na * 6 * 12 + (uint64_t)hb->nb * (9 * 8 + 24) +
               (uint64_t)(ncell + 1) * 8 +
               4 * (uint64_t)(hb->a_start[ncell] + hb->b_start[ncell]) +
               bt.n * 20 + sc.npairs * 8;
#define UP(dst, src, bytes)                                              \
    if (rc == XG_OK)                                                     \
        rc = xg__dmem_up(ctx, m, (const void **)&(dst), (src), (bytes), s)
    UP(v.d_seg, hb->seg, (size_t)hb->na * 6 * sizeof(double));
    UP(v.d_tri, hb->tri, (size_t)hb->nb * 9 * sizeof(double));
    UP(v.d_a_cell, hb->a_cell, (size_t)hb->na * 6 * sizeof(int32_t));
    UP(v.d_b_cell, hb->b_cell, (size_t)hb->nb * 6 * sizeof(int32_t));
    UP(v.d_a_start, hb->a_start, (ncell + 1) * sizeof(uint32_t));
    UP(v.d_b_start, hb->b_start, (ncell + 1) * sizeof(uint32_t));
    UP(v.d_a_items, hb->a_items, (size_t)hb->a_start[ncell] * 4);
    UP(v.d_b_items, hb->b_items, (size_t)hb->b_start[ncell] * 4);
    UP(sc.d_cell, bt.cell, bt.n * sizeof(uint32_t));
    UP(sc.d_first, bt.first, bt.n * sizeof(uint64_t));
    UP(sc.d_last, bt.last, bt.n * sizeof(uint64_t));
    UP(sc.d_pairs, pairs, (size_t)sc.npairs * 2 * sizeof(uint32_t));
#undef UP
    if (rc == XG_OK)
        rc = XG_CUDA(ctx, cudaStreamSynchronize(s));
    xg__blocks_free(&bt);
    free(pairs);
    st->seconds[XG_STAGE_UPLOAD] += xg__now() - t1;
    if (rc != XG_OK)
        return rc;
    if (go->strategy == XG_GPU_PACKED) {
        uint64_t *d_w, *d_off, cand = 0, nbl = 0;
        void *p;
        t1 = xg__now();
        if ((rc = xg__dmem_alloc(ctx, m, &p, ncell * 8)) != XG_OK)
            return rc;
        d_w = p;
        if ((rc = xg__dmem_alloc(ctx, m, &p, ncell * 8)) != XG_OK)
            return rc;
        d_off = p;
        if ((rc = xg__cuda_blocks(ctx, v.d_a_start, v.d_b_start, ncell,
                                  XG_GPU_THREADS, d_w, d_off, &cand, &nbl,
                                  s)) != XG_OK ||
            (rc = xg__segtri_packed_setup(J, m, &v, &sc, d_w, ncell,
                                          cand)) != XG_OK)
            return rc;
        in_bytes += (uint64_t)(hb->na + hb->nb) * 32 + (uint64_t)ncell * 28 +
                    (cand / XG_GPU_PACK_PAIRS + 2) * 4 + cand * 8;
        st->seconds[XG_STAGE_PREPARE] += xg__now() - t1;
    }
    return xg__segtri_passes(J, &v, &sc, in_bytes, ncell, hb->a_map,
                             hb->b_map);
}

static int run_batch(struct xg_segtri_job *J, const struct hbatch *hb)
{
    struct xg_dmem m = XG_DMEM_INIT;
    int rc = host_batch(J, &m, hb);
    xg__dmem_free(&m);
    return rc;
}

/* Cells c0..c1-1 gathered into a batch of their own; halved when the
 * output does not fit. */
static int run_range(struct xg_segtri_job *J, size_t c0, size_t c1)
{
    struct xg_gpu_batch gb;
    struct hbatch hb;
    double t0 = xg__now();
    int rc = xg__gpu_batch_gather(J->g, J->a->xyz, J->b->xyz, c0, c1, &gb);
    if (rc != XG_OK)
        return xg__error(J->ctx, rc, "out of memory gathering a GPU batch");
    J->st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    hb.c0 = c0;
    hb.c1 = c1;
    hb.na = gb.na;
    hb.nb = gb.nb;
    hb.seg = gb.seg;
    hb.tri = gb.tri;
    hb.a_cell = gb.a_cell;
    hb.b_cell = gb.b_cell;
    hb.a_start = gb.a_start;
    hb.a_items = gb.a_items;
    hb.b_start = gb.b_start;
    hb.b_items = gb.b_items;
    hb.a_map = gb.a_map;
    hb.b_map = gb.b_map;
    J->gathered = 1;
    rc = run_batch(J, &hb);
    xg__gpu_batch_free(&gb);
    if (rc == XG_GPU_SPLIT) {
        size_t mid = c0 + (c1 - c0) / 2;
        rc = run_range(J, c0, mid);
        if (rc == XG_OK)
            rc = run_range(J, mid, c1);
    }
    return rc;
}

/* The grid g built on the host (st filled by xg__segtri_prepare); the
 * whole input in one batch when it takes at most half the budget (the
 * other half for the output), else in planned batches. */
static int host_run(struct xg_segtri_job *J, const struct xg_grid *g)
{
    struct xg_ctx *ctx = J->ctx;
    struct xg_gpu_opts *go = J->go;
    const struct xg_set *a = J->a;
    const struct xg_set *b = J->b;
    uint64_t full, budget = J->gpu.budget;
    int rc;

    full = (uint64_t)a->n * 6 * 12 + (uint64_t)b->n * (9 * 8 + 24) +
           (uint64_t)(g->ncell + 1) * 8 +
           4 * (uint64_t)(g->a_start[g->ncell] + g->b_start[g->ncell]) +
           (J->st->candidates / XG_GPU_THREADS + g->ncell) * 20;
    if (full <= budget / 2) {
        struct hbatch hb;
        hb.c0 = 0;
        hb.c1 = g->ncell;
        hb.na = (uint32_t)a->n;
        hb.nb = (uint32_t)b->n;
        hb.seg = a->xyz;
        hb.tri = b->xyz;
        hb.a_cell = g->a_cell;
        hb.b_cell = g->b_cell;
        hb.a_start = g->a_start;
        hb.a_items = g->a_items;
        hb.b_start = g->b_start;
        hb.b_items = g->b_items;
        hb.a_map = hb.b_map = NULL;
        rc = run_batch(J, &hb);
        if (rc == XG_GPU_SPLIT)
            rc = run_range(J, 0, g->ncell);
    } else if (go->strategy != XG_GPU_MULTI &&
               go->strategy != XG_GPU_PACKED) {
        rc = xg__error(ctx, XG_ENOMEM, "the %s strategy needs the whole "
                       "input on the GPU (%llu bytes, budget %llu); only the "
                       "multi-block strategy works in batches",
                       go->strategy == XG_GPU_LIST  ? "list-of-pairs"
                       : go->strategy == XG_GPU_SEG ? "segment-per-thread"
                                                    : "triangle-per-thread",
                       (unsigned long long)full, (unsigned long long)budget);
    } else {
        size_t *bounds = NULL, nb = 0, i;
        double t1 = xg__now();
        rc = xg__gpu_plan_batches(g, XG_GPU_THREADS, budget / 2, &bounds,
                                  &nb);
        J->st->seconds[XG_STAGE_PREPARE] += xg__now() - t1;
        for (i = 0; rc == XG_OK && i < nb; i++)
            rc = run_range(J, bounds[i], bounds[i + 1]);
        free(bounds);
        if (rc == XG_GPU_SPLIT)
            rc = xg__error(ctx, XG_ENOMEM, "GPU output does not fit");
    }
    return rc;
}

static int cmp_hit(const void *x, const void *y)
{
    const struct xg_gpu_hit *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* The job's hits into contacts.  Batches are each sorted on the device;
 * gathered batches interleave, and are merged here. */
static int finish(struct xg_segtri_job *J, struct xg_contacts *out)
{
    if (J->gathered)
        qsort(J->out.v, J->out.n, sizeof *J->out.v, cmp_hit);
    return xg__gpu_finish(J->ctx, xg__segtri_ops, J->a->xyz, J->b->xyz,
                          J->out.v, J->out.n, 0, out, J->st,
                          &J->go->construct_fail);
}

/* Preparation on the device when the whole input, its boxes and a grid
 * of about one cell and a few references per element take at most half
 * the budget (the list strategy is built on the CPU by definition). */
static int fits_device(const struct xg_segtri_job *J,
                       const struct xg_opts *opt)
{
    const int *c = opt->grid;
    uint64_t cells = c[0] > 0 && c[1] > 0 && c[2] > 0
                         ? (uint64_t)c[0] * (uint64_t)c[1] * (uint64_t)c[2]
                         : J->a->n + J->b->n;
    uint64_t full = (uint64_t)J->a->n * (6 * 8 * 2 + 24 + 32 + 64) +
                    (uint64_t)J->b->n * (9 * 8 + 48 + 24 + 32 + 4 + 64) +
                    cells * 60;
    return J->go->strategy != XG_GPU_LIST && full <= J->gpu.budget / 2 &&
           J->a->n < UINT32_MAX && J->b->n < UINT32_MAX;
}

int xg__segtri_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       struct xg_gpu_opts *gopt, struct xg_contacts *out,
                       struct xg_stats *st)
{
    struct xg_segtri_job J;
    struct xg_grid g;
    double t0 = xg__now();
    size_t c;
    int rc, have_grid = 0;

    memset(&J, 0, sizeof J);
    memset(&g, 0, sizeof g);
    out->n = 0;
    J.ctx = ctx;
    J.a = a;
    J.b = b;
    J.go = gopt;
    J.st = st;
    J.g = &g;
    gopt->count_bound = gopt->hits = gopt->relaunches = gopt->batches = 0;
    gopt->not_owned = gopt->construct_fail = gopt->refined = 0;
    gopt->plane_crossings = 0;
    gopt->count_seconds = gopt->interval_seconds = 0.0;
    gopt->count_kernel_seconds = gopt->interval_kernel_seconds = 0.0;
    gopt->device_prep = 0;
    if (gopt->strategy < 0 || gopt->strategy >= XG_GPU_NSTRAT)
        return xg__error(ctx, XG_EINVAL, "unknown GPU strategy %d",
                         gopt->strategy);
    /* the paper's strategies but the multi-block one are the
     * benchmark's: refused before any work where it has not linked them */
    if (gopt->strategy != XG_GPU_MULTI && gopt->strategy != XG_GPU_PACKED) {
        const struct xg__gpu_bench *bench;
        if ((rc = xg__gpu_bench_get(ctx, "the paper's GPU strategy",
                                    &bench)) != XG_OK)
            return rc;
    }
    if ((rc = xg__gpu_open(ctx, opt, &J.gpu)) != XG_OK)
        return rc;

    if (fits_device(&J, opt)) {
        struct xg_stats st0 = *st;
        struct xg_gpu_opts go0 = *gopt;
        rc = xg__segtri_device_run(&J, opt);
        if (rc != XG_GPU_SPLIT) {
            gopt->device_prep = 1;
            if (rc == XG_OK && st->candidates)
                rc = finish(&J, out);
            goto done;
        }
        /* The output does not fit: start over, prepared on the host. */
        *st = st0;
        *gopt = go0;
        free(J.out.v);
        memset(&J.out, 0, sizeof J.out);
        t0 = xg__now();
    }

    rc = xg__segtri_prepare(ctx, a, b, opt, xg__threads(ctx), &g, st);
    if (rc != XG_OK)
        goto done;
    have_grid = 1;
    for (c = 0; c < g.ncell; c++)
        st->candidates += (uint64_t)(g.a_start[c + 1] - g.a_start[c]) *
                          (g.b_start[c + 1] - g.b_start[c]);
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    if (st->candidates == 0)
        goto done;
    rc = host_run(&J, &g);
    if (rc == XG_OK)
        rc = finish(&J, out);
done:
    xg__gpu_close(&J.gpu);
    free(J.out.v);
    if (have_grid)
        xg__grid_free(&g);
    return rc;
}
