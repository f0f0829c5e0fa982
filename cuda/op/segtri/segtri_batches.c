/*
 * segtri_batches.c -- the GPU segtri engine's batches when the run is
 * prepared on the host (segtri_gpu.c): the grid's cells as one batch or
 * as planned ranges (xg__gpu_plan_batches), each range's elements
 * gathered with local numbers, a batch whose output does not fit cut in
 * half.  The batches go through the GPU engines' pipeline
 * (host/xg_pipe.h): gather, schedule and upload, the passes
 * (segtri_passes.c), the sorted hits down, on the calling thread; the
 * hits appended to the run's, in batch order, beside the next batch.
 */
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"
#include "host/xg_pipe.h"

/* The host arrays of one batch, numbered as the device sees them. */
struct hbatch {
    size_t c0, c1;
    uint32_t na, nb;
    const double *seg, *tri;
    const int32_t *a_cell, *b_cell;
    const uint32_t *a_start, *a_items, *b_start, *b_items; /* by c - c0 */
    const uint32_t *a_map, *b_map;  /* NULL: local = global */
};

/* Cells c0..c1-1 of the grid; whole: all of them as the grid holds them
 * (global numbers), else gathered into a batch of their own. */
struct range {
    size_t c0, c1;
    int whole;
};

/* The batches of a run prepared on the host, for the GPU engines'
 * pipeline (host/xg_pipe.h): the device stages on the calling thread,
 * the finish (the hits appended to J->out, in batch order) beside the
 * next batch's. */
struct seg_pipe {
    struct xg_segtri_job *J;
    struct range *todo;         /* a stack: the next batch on top */
    size_t ntodo, cap;
    /* the batch on the device */
    struct range cur;
    struct xg_gpu_batch gb;     /* its gathered arrays (cur.whole: none) */
    struct hbatch hb;
    struct xg_dmem m;           /* its inputs on the device */
    struct xg_gpu_view v;
    struct xg_gpu_sched sc;
    uint64_t in_bytes;
    struct xg_segtri_out o;     /* its passes' output */
    double keep_s;              /* the finishes' time */
};

/* A batch's output: its hits, numbered as the run's. */
struct seg_item {
    struct xg_gpu_hit *h;
    size_t n;
};

/* Cells c0..c1-1 (whole: the grid's own) on top of the stack, the next
 * batch: XG_OK or XG_ENOMEM. */
static int push(struct seg_pipe *P, size_t c0, size_t c1, int whole)
{
    if (xg__reserve((void **)&P->todo, &P->cap, P->ntodo + 1,
                    sizeof *P->todo) != XG_OK)
        return xg__error(P->J->ctx, XG_ENOMEM, "out of memory");
    P->todo[P->ntodo].c0 = c0;
    P->todo[P->ntodo].c1 = c1;
    P->todo[P->ntodo++].whole = whole;
    return XG_OK;
}

/* Whether batch k exists: the range on top of the stack. */
static int next(void *user, size_t k, double *done)
{
    struct seg_pipe *P = user;
    (void)k;
    (void)done;                 /* no progress: the run reports none */
    if (!P->ntodo)
        return 0;
    P->cur = P->todo[--P->ntodo];
    return 1;
}

/* The batch's host arrays: the grid's own for the whole input, else its
 * cells gathered with local numbers. */
static int gather(struct seg_pipe *P)
{
    struct xg_segtri_job *J = P->J;
    const struct xg_grid *g = J->g;
    struct hbatch *hb = &P->hb;
    double t0 = xg__now();
    int rc;
    hb->c0 = P->cur.c0;
    hb->c1 = P->cur.c1;
    if (P->cur.whole) {
        hb->na = (uint32_t)J->a->n;
        hb->nb = (uint32_t)J->b->n;
        hb->seg = J->a->xyz;
        hb->tri = J->b->xyz;
        hb->a_cell = g->a_cell;
        hb->b_cell = g->b_cell;
        hb->a_start = g->a_start;
        hb->a_items = g->a_items;
        hb->b_start = g->b_start;
        hb->b_items = g->b_items;
        hb->a_map = hb->b_map = NULL;
        return XG_OK;
    }
    rc = xg__gpu_batch_gather(g, J->a->xyz, J->b->xyz, hb->c0, hb->c1,
                              &P->gb);
    if (rc != XG_OK)
        return xg__error(J->ctx, rc, "out of memory gathering a GPU batch");
    J->st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    hb->na = P->gb.na;
    hb->nb = P->gb.nb;
    hb->seg = P->gb.seg;
    hb->tri = P->gb.tri;
    hb->a_cell = P->gb.a_cell;
    hb->b_cell = P->gb.b_cell;
    hb->a_start = P->gb.a_start;
    hb->a_items = P->gb.a_items;
    hb->b_start = P->gb.b_start;
    hb->b_items = P->gb.b_items;
    hb->a_map = P->gb.a_map;
    hb->b_map = P->gb.b_map;
    J->gathered = 1;
    return XG_OK;
}

/* The batch's schedule on the CPU: the multi-block tables into bt, or
 * the list strategy's pairs (the benchmark's). */
static int schedule(struct seg_pipe *P, struct xg_blocks *bt,
                    uint32_t **pairs)
{
    struct xg_segtri_job *J = P->J;
    struct xg_ctx *ctx = J->ctx;
    struct xg_gpu_opts *go = J->go;
    const struct hbatch *hb = &P->hb;
    int rc;
    if (go->strategy == XG_GPU_PACKED &&
        (J->g->n[0] > XG_GPU_PACK_MAX_XY || J->g->n[1] > XG_GPU_PACK_MAX_XY))
        go->strategy = XG_GPU_MULTI;        /* records cannot hold x, y */
    if (go->strategy == XG_GPU_MULTI) {
        size_t k;
        rc = xg__blocks_build(hb->a_start, hb->b_start, 0, hb->c1 - hb->c0,
                              XG_GPU_THREADS, bt);
        if (rc != XG_OK)
            return xg__error(ctx, rc, "out of memory for the block tables");
        for (k = 0; k < bt->n; k++)
            bt->cell[k] += (uint32_t)hb->c0;
        P->sc.nblocks = bt->n;
    } else if (go->strategy == XG_GPU_LIST) {
        const struct xg__gpu_bench *bench;
        if ((rc = xg__gpu_bench_get(ctx, "the paper's GPU strategy",
                                    &bench)) != XG_OK)
            return rc;
        if ((rc = bench->segtri_pairs(J->g, pairs, &P->sc.npairs)) != XG_OK)
            return xg__error(ctx, rc, "out of memory for the list of pairs");
    }
    return XG_OK;
}

/* The pipeline's upload: the batch's arrays gathered, its schedule on
 * the CPU, then both up. */
static int upload(void *user, size_t k)
{
    struct seg_pipe *P = user;
    struct xg_segtri_job *J = P->J;
    struct xg_ctx *ctx = J->ctx;
    const struct hbatch *hb = &P->hb;
    struct xg_gpu_view *v = &P->v;
    struct xg_gpu_sched *sc = &P->sc;
    struct xg_blocks bt = {0};
    uint32_t *pairs = NULL;
    cudaStream_t s = J->gpu.s;
    size_t ncell;
    double t0, t1;
    int i, rc;

    (void)k;
    memset(v, 0, sizeof *v);
    memset(sc, 0, sizeof *sc);
    memset(&P->o, 0, sizeof P->o);      /* its arena as XG_DMEM_INIT */
    if ((rc = gather(P)) != XG_OK)
        return rc;
    ncell = hb->c1 - hb->c0;
    t0 = xg__now();
    rc = schedule(P, &bt, &pairs);
    t1 = xg__now();
    J->st->seconds[XG_STAGE_PREPARE] += t1 - t0;
    if (rc != XG_OK)
        return rc;
    v->c0 = (uint32_t)hb->c0;
    v->c1 = (uint32_t)hb->c1;
    v->na = hb->na;
    v->nb = hb->nb;
    for (i = 0; i < 3; i++) {
        v->n[i] = J->g->n[i];
        v->origin[i] = J->g->lo[i];
    }
    P->in_bytes = (uint64_t)hb->na * 6 * 12 +
                  (uint64_t)hb->nb * (9 * 8 + 24) + (uint64_t)(ncell + 1) * 8 +
                  4 * (uint64_t)(hb->a_start[ncell] + hb->b_start[ncell]) +
                  bt.n * 20 + sc->npairs * 8;
#define UP(dst, src, bytes)                                              \
    if (rc == XG_OK)                                                     \
    rc = xg__dmem_up(ctx, &P->m, (const void **)&(dst), (src), (bytes), s)
    UP(v->d_seg, hb->seg, (size_t)hb->na * 6 * sizeof(double));
    UP(v->d_tri, hb->tri, (size_t)hb->nb * 9 * sizeof(double));
    UP(v->d_a_cell, hb->a_cell, (size_t)hb->na * 6 * sizeof(int32_t));
    UP(v->d_b_cell, hb->b_cell, (size_t)hb->nb * 6 * sizeof(int32_t));
    UP(v->d_a_start, hb->a_start, (ncell + 1) * sizeof(uint32_t));
    UP(v->d_b_start, hb->b_start, (ncell + 1) * sizeof(uint32_t));
    UP(v->d_a_items, hb->a_items, (size_t)hb->a_start[ncell] * 4);
    UP(v->d_b_items, hb->b_items, (size_t)hb->b_start[ncell] * 4);
    UP(sc->d_cell, bt.cell, bt.n * sizeof(uint32_t));
    UP(sc->d_first, bt.first, bt.n * sizeof(uint64_t));
    UP(sc->d_last, bt.last, bt.n * sizeof(uint64_t));
    UP(sc->d_pairs, pairs, (size_t)sc->npairs * 2 * sizeof(uint32_t));
#undef UP
    if (rc == XG_OK)
        rc = XG_CUDA(ctx, cudaStreamSynchronize(s));
    xg__blocks_free(&bt);
    free(pairs);
    J->st->seconds[XG_STAGE_UPLOAD] += xg__now() - t1;
    return rc;
}

/* The packed strategy's tables, built on the device. */
static int packed(struct seg_pipe *P, size_t ncell)
{
    struct xg_segtri_job *J = P->J;
    struct xg_ctx *ctx = J->ctx;
    uint64_t *d_w, *d_off, cand = 0, nbl = 0;
    double t1 = xg__now();
    void *p;
    int rc;
    if ((rc = xg__dmem_alloc(ctx, &P->m, &p, ncell * 8)) != XG_OK)
        return rc;
    d_w = p;
    if ((rc = xg__dmem_alloc(ctx, &P->m, &p, ncell * 8)) != XG_OK)
        return rc;
    d_off = p;
    if ((rc = xg__cuda_blocks(ctx, P->v.d_a_start, P->v.d_b_start, ncell,
                              XG_GPU_THREADS, d_w, d_off, &cand, &nbl,
                              J->gpu.s)) != XG_OK ||
        (rc = xg__segtri_packed_setup(J, &P->m, &P->v, &P->sc, d_w, ncell,
                                      cand)) != XG_OK)
        return rc;
    P->in_bytes += (uint64_t)(P->hb.na + P->hb.nb) * 32 +
                   (uint64_t)ncell * 28 +
                   (cand / XG_GPU_PACK_PAIRS + 2) * 4 + cand * 8;
    J->st->seconds[XG_STAGE_PREPARE] += xg__now() - t1;
    return XG_OK;
}

/* The pipeline's launch: the packed tables, then the count, interval
 * and refine passes.  A batch whose output does not fit is cut: the
 * whole input into gathered cells, a range into halves, the first half
 * made next. */
static int launch(void *user, size_t k)
{
    struct seg_pipe *P = user;
    size_t c0 = P->cur.c0, c1 = P->cur.c1, ncell = c1 - c0;
    int rc = XG_OK;
    (void)k;
    if (P->J->go->strategy == XG_GPU_PACKED)
        rc = packed(P, ncell);
    if (rc == XG_OK)
        rc = xg__segtri_launch(P->J, &P->o, &P->v, &P->sc, P->in_bytes,
                               ncell);
    if (rc != XG_GPU_SPLIT)
        return rc;
    if (P->cur.whole)
        rc = push(P, c0, c1, 0);
    else if (ncell > 1 && (rc = push(P, c0 + ncell / 2, c1, 0)) == XG_OK)
        rc = push(P, c0, c0 + ncell / 2, 0);
    else if (ncell <= 1)        /* never: one cell's output is not cut */
        return xg__error(P->J->ctx, XG_ENOMEM, "GPU output does not fit");
    return rc == XG_OK ? XG_PIPE_AGAIN : rc;
}

/* The pipeline's download: the hits sorted on the device, down, in the
 * run's numbers. */
static int download(void *user, size_t k, void *item)
{
    struct seg_pipe *P = user;
    struct seg_item *it = item;
    int rc;
    (void)k;
    if ((rc = xg__segtri_download(P->J, &P->o, &it->h, &it->n)) != XG_OK)
        return rc;
    if (P->hb.a_map)
        xg__segtri_renumber(it->h, it->n, P->hb.a_map, P->hb.b_map);
    return XG_OK;
}

/* The batch's device memory and gathered arrays back. */
static void release(void *user, size_t k)
{
    struct seg_pipe *P = user;
    (void)k;
    xg__dmem_free(&P->o.m);
    xg__dmem_free(&P->m);
    xg__gpu_batch_free(&P->gb);         /* zeroed: none (cur.whole) */
}

/* The pipeline's finish: the batch's hits appended to the run's. */
static int finish(void *user, size_t k, void *item, struct xg_ctx *err)
{
    struct seg_pipe *P = user;
    struct seg_item *it = item;
    double t0 = xg__now();
    int rc = xg__segtri_keep(P->J, err, it->h, it->n);
    (void)k;
    P->keep_s += xg__now() - t0;
    return rc;
}

/* A batch never finished: its hits freed. */
static void drop_hits(void *user, void *item)
{
    struct seg_item *it = item;
    (void)user;
    free(it->h);
}

/* The batches on the stack P->todo through the pipeline, at most depth
 * in flight (xg_pipe.h): 2, each batch's finish beside the next one's
 * device stages; 1, all on the calling thread. */
static int run_batches(struct seg_pipe *P, size_t depth)
{
    static const struct xg_pipe_ops ops = {next,    upload,  launch,
                                           download, release, NULL,
                                           finish,  drop_hits};
    struct xg_pipe p;
    int rc;
    memset(&p, 0, sizeof p);
    p.ops = &ops;
    p.user = P;
    p.item_size = sizeof(struct seg_item);
    p.depth = depth;
    rc = xg__pipe_run(P->J->ctx, &p);
    P->J->st->seconds[XG_STAGE_DOWNLOAD] += P->keep_s;
    return rc;
}

/* The batches of a run prepared on the host (contract in segtri_gpu.h):
 * the whole input in one batch when it takes at most half the budget
 * (the other half for the output), else in planned batches. */
int xg__segtri_host_run(struct xg_segtri_job *J)
{
    const struct xg_grid *g = J->g;
    struct xg_ctx *ctx = J->ctx;
    struct xg_gpu_opts *go = J->go;
    const struct xg_set *a = J->a;
    const struct xg_set *b = J->b;
    struct seg_pipe P;
    uint64_t full, budget = J->gpu.budget;
    size_t depth = 2;
    int rc;

    memset(&P, 0, sizeof P);            /* the arenas as XG_DMEM_INIT */
    P.J = J;
    full = (uint64_t)a->n * 6 * 12 + (uint64_t)b->n * (9 * 8 + 24) +
           (uint64_t)(g->ncell + 1) * 8 +
           4 * (uint64_t)(g->a_start[g->ncell] + g->b_start[g->ncell]) +
           (J->st->candidates / XG_GPU_THREADS + g->ncell) * 20;
    /* One batch, as a rule: on the calling thread, as no finish would
     * gain from a second one (its hits are taken, not copied). */
    if (full <= budget / 2) {
        depth = 1;
        rc = push(&P, 0, g->ncell, 1);
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
        for (i = nb; rc == XG_OK && i > 0; i--)     /* the first on top */
            rc = push(&P, bounds[i - 1], bounds[i], 0);
        free(bounds);
    }
    if (rc == XG_OK)
        rc = run_batches(&P, depth);
    free(P.todo);
    return rc;
}
