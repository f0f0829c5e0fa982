/*
 * inside_gpu.c -- the GPU point-in-solid engine (xg__inside_gpu_run,
 * reached through xg__gpu_inside), host side.
 *
 * The host prepares the solids as the cpu engine does
 * (xg__solids_prepare: grouping, the closed check, the columns) and
 * uploads them once; meanwhile all the points go up, checked for
 * non-finite coordinates on the way (this engine's check, not
 * xg__pair_begin's), when they take at most a share of the device
 * memory (else each batch uploads its own).  The points then go through
 * in batches that fit the device memory budget, four at least for a
 * large set; each batch goes through the output protocol (gpu_output.c)
 * with one thread per point (inside_kernels.cu, or the seed's method,
 * inside_seed.cu), its hits -- one per (point, solid) the point is in,
 * or whose filter doubted, 8-byte keys (xg__inside_key) -- come back
 * sorted by (point, solid), and the CPU threads decide the doubted pairs
 * exactly, in place, then write the batch's records (and outside
 * records) in order (xg__inside_finish, inside_finish.c), while the
 * device works on the next batch.
 */
#include <stdlib.h>
#include <string.h>
#include "inside_gpu.h"
#include "xg_inside.h"
#include "xg_thread.h"

/* Device bytes per hit while a batch is finished on the device: the key,
 * its sorted copy, and the radix sort's scratch (about the keys again,
 * with room to spare). */
#define HIT_BYTES (4 * sizeof(uint64_t))
#define POINT_BYTES (3 * sizeof(double))
#define MAX_BATCH ((uint64_t)1 << 28)   /* points; 2^32 hits at most */
/* All points go up while the host prepares the solids when they take at
 * most 1/EARLY_SHARE of the device budget. */
#define EARLY_SHARE 2
/* Batches of at most 1/PIPE_BATCHES of the points (but not below
 * PIPE_MIN_BATCH), so that the host finishes one while the device works
 * on the next. */
#define PIPE_BATCHES 8
#define PIPE_MIN_BATCH ((uint64_t)1 << 21)

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
 * (sorted; caller frees) and *nhit.  The points are at d_all + 3 a0
 * when all of them went up before the batches (d_all not NULL), else
 * the batch uploads its own.  XG_GPU_SPLIT when its hits would not fit
 * room (bytes for the batch's points and hits). */
static int batch_hits(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                      const struct xg_inside_dev *dev, const double *xyz,
                      const double *d_all, uint32_t a0, uint32_t n,
                      int method, unsigned long long *d_tally, uint64_t room,
                      double ratio, uint64_t **h_hit,
                      uint64_t *nhit, struct xg_stats *st)
{
    struct xg_dmem m = XG_DMEM_INIT;
    struct xg_inside_pass pass;
    struct xg_gpu_fill fill;
    void *d_hit, *h = NULL;
    unsigned long long tally[3];
    uint64_t pts = d_all ? 0 : (uint64_t)n * POINT_BYTES;
    double t0 = xg__now();
    void *p = NULL;
    int rc;

    *h_hit = NULL;
    if (d_all)
        p = (void *)(d_all + 3 * (size_t)a0);
    else if ((rc = xg__dmem_alloc(ctx, &m, &p, pts)) != XG_OK ||
             (rc = xg__gpu_upload(ctx, p, xyz + 3 * (size_t)a0, pts)) !=
                 XG_OK)
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
    fill.item_bytes = sizeof(uint64_t);     /* xg__inside_key */
    fill.max_cap = (room - pts) / HIT_BYTES;
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
    if ((rc = xg__gpu_download_sorted(ctx, &m, &fill, d_hit, &h, st,
                                      gpu->s)) == XG_OK) {
        *h_hit = h;
        *nhit = fill.n;
    }
out:
    xg__dmem_free(&m);
    return rc;
}

/* ---- the host's work beside the device's ----
 * Two things run beside each other through xg__parallel(2, ...), tid 0
 * on the calling thread (which holds the device): the upload of all the
 * points while the host prepares the solids (the points do not depend on
 * them), and each batch's device part while the host finishes the batch
 * before (the records are appended in batch order, one finish at a
 * time).  The side that is not the calling thread's reports its error
 * in a context of its own, copied into the caller's after the join, so
 * that two failures never write one message at once. */

/* The solids checked and prepared (tid 0) while the points go up
 * (tid 1), checked as they pass (the coordinates' check is this
 * engine's: inside_ops' gpu_checks_finite). */
struct prep_job {
    struct xg_ctx *ctx, up;     /* up: the upload's context */
    const struct xg_set *b;
    const struct xg_opts *opt;
    struct xg__solids *S;
    struct xg_stats *st;
    void *d_pts;
    const double *xyz;
    size_t n;                   /* doubles */
    int device, rc, up_rc, a_bad;
    double prep_s, up_s;
};

static void prep_worker(void *arg, int tid)
{
    struct prep_job *j = arg;
    double t0 = xg__now();
    if (tid == 0) {
        j->rc = xg__inside_check_finite(j->ctx, j->b, 0);
        if (j->rc == XG_OK)
            j->rc = xg__solids_prepare(j->ctx, j->b, j->opt,
                                       xg__threads(j->ctx), j->S, j->st);
        j->prep_s = xg__now() - t0;
        return;
    }
    /* a new thread starts on device 0: the run's device first */
    j->up_rc = XG_CUDA(&j->up, cudaSetDevice(j->device));
    if (j->up_rc == XG_OK)
        j->up_rc = xg__gpu_upload_finite(&j->up, j->d_pts, j->xyz, j->n,
                                         &j->a_bad);
    j->up_s = xg__now() - t0;
}

/* The device part of one batch (tid 0) while the batch before is
 * finished (tid 1). */
struct step_job {
    struct xg_ctx *ctx, fin;    /* fin: the finish's context */
    /* the device part: points a0 .. a0+n-1 (n = 0: none) */
    const struct xg_gpu *gpu;
    const struct xg_inside_dev *dev;
    const double *xyz, *d_all;
    uint32_t a0, n;
    int method;
    unsigned long long *d_tally;
    uint64_t room;
    double ratio;
    uint64_t *hit;
    uint64_t nhit;
    struct xg_stats *st;
    int rc;
    /* the finish: hits fhit of points fa0 .. fa0+fn-1 */
    struct xg__inside_finish *f;
    uint64_t *fhit;
    uint64_t fnhit;
    uint32_t fa0, fn;
    struct xg_contacts *out;
    int frc;
    double fin_s;
};

static void step_worker(void *arg, int tid)
{
    struct step_job *j = arg;
    double t0 = xg__now();
    if (tid == 0) {
        j->hit = NULL;
        j->nhit = 0;
        j->rc = j->n ? batch_hits(j->ctx, j->gpu, j->dev, j->xyz, j->d_all,
                                  j->a0, j->n, j->method, j->d_tally,
                                  j->room, j->ratio, &j->hit, &j->nhit,
                                  j->st)
                     : XG_OK;
        return;
    }
    j->frc = xg__inside_finish(&j->fin, j->f, j->fhit, j->fnhit, j->fa0,
                               j->fn, j->out);
    j->fin_s = xg__now() - t0;
}

/* The context's error from a side's own: rc, with its message. */
static int side_error(struct xg_ctx *ctx, const struct xg_ctx *side, int rc)
{
    return rc == XG_OK ? rc : xg__error(ctx, rc, "%s", side->errmsg);
}

int xg__inside_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       int method, struct xg_contacts *out,
                       struct xg_stats *st)
{
    struct xg__solids S;
    struct xg_gpu gpu;
    struct xg_dmem m = XG_DMEM_INIT, mp = XG_DMEM_INIT;
    struct xg_inside_dev dev;
    struct xg__inside_finish f;
    struct prep_job pj;
    struct step_job sj;
    unsigned long long *d_tally = NULL;
    const double *d_all = NULL;
    uint64_t room = 0, done = 0, batch, pts = a->n * POINT_BYTES;
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
    memset(&S, 0, sizeof S);
    memset(&sj, 0, sizeof sj);
    memset(&pj, 0, sizeof pj);
    memset(&gpu, 0, sizeof gpu);

    /* The device first, so that the points can go up while the host
     * prepares the solids, when they take at most an EARLY_SHARE of the
     * budget (else each batch uploads its own). */
    if (a->n && b->n) {
        if ((rc = xg__gpu_open(ctx, opt, &gpu)) != XG_OK)
            goto done;
        opened = 1;
        /* without the room, each batch uploads its own */
        if (ctx && pts <= gpu.budget / EARLY_SHARE &&
            xg__dmem_alloc(ctx, &mp, &pj.d_pts, pts) != XG_OK) {
            cudaGetLastError();
            pj.d_pts = NULL;
        }
    }
    pj.ctx = ctx;
    pj.b = b;
    pj.opt = opt;
    pj.S = &S;
    pj.st = st;
    pj.xyz = a->xyz;
    pj.n = 3 * a->n;
    pj.device = gpu.device;
    /* The points' check first, as xg__pair_begin makes it: here when
     * they do not go up now. */
    if (!pj.d_pts && (rc = xg__inside_check_finite(ctx, a, 1)) != XG_OK)
        goto done;
    if (pj.d_pts) {
        pj.up = *ctx;           /* its device, threads and pinned buffers */
        pj.up.progress = NULL;
        pj.up.errmsg[0] = '\0';
    }
    if (xg__parallel(pj.d_pts ? 2 : 1, prep_worker, &pj) != XG_OK) {
        rc = xg__error(ctx, XG_ENOMEM, "cannot start threads");
        goto done;
    }
    /* pinned buffers the upload made on first use are the context's */
    if (pj.d_pts) {
        ctx->gpu = pj.up.gpu;
        ctx->gpu_free = pj.up.gpu_free;
    }
    st->seconds[XG_STAGE_PREPARE] += pj.prep_s;
    st->seconds[XG_STAGE_UPLOAD] += pj.up_s;
    /* the points' error first, with the check's message */
    if (pj.d_pts && (pj.a_bad || pj.up_rc != XG_OK) &&
        (rc = xg__inside_check_finite(ctx, a, 1)) != XG_OK)
        goto done;
    if ((rc = pj.rc) != XG_OK ||
        (rc = side_error(ctx, &pj.up, pj.up_rc)) != XG_OK)
        goto done;
    if (S.nsolid >= XG__IN_MAX_SOLIDS) {
        rc = xg__error(ctx, XG_ELIMIT, "the gpu engine takes fewer than "
                       "2^30 solids (%zu)", (size_t)S.nsolid);
        goto done;
    }
    d_all = pj.d_pts;
    if (xg__inside_finish_init(&f, &S, a->xyz, a->n, method, opt->outside,
                               xg__threads(ctx)) != XG_OK) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory");
        goto done;
    }

    /* The solids once; no triangles: every point is outside. */
    if (S.ntri && a->n) {
        t0 = xg__now();
        if ((rc = upload_solids(ctx, &m, &S, &dev)) != XG_OK ||
            (rc = xg__dmem_alloc(ctx, &m, &p, 3 * sizeof *d_tally)) != XG_OK)
            goto done;
        d_tally = p;
        st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
        /* the points up already, when the rest still fits beside them */
        if (d_all && resident_bytes(&S) + pts + 64 * HIT_BYTES > gpu.budget) {
            xg__dmem_free(&mp);
            d_all = NULL;
        }
        if (resident_bytes(&S) + 64 * (POINT_BYTES + HIT_BYTES) > gpu.budget) {
            rc = xg__error(ctx, XG_ENOMEM, "the GPU memory budget (%llu "
                           "bytes) does not hold the solids",
                           (unsigned long long)gpu.budget);
            goto done;
        }
        room = gpu.budget - resident_bytes(&S) - (d_all ? pts : 0);
    }
    batch = !S.ntri ? MAX_BATCH
            : d_all ? room / HIT_BYTES
                    : room / (POINT_BYTES + HIT_BYTES);
    if (batch > MAX_BATCH)
        batch = MAX_BATCH;
    /* PIPE_BATCHES at least, so that the host finishes one while the
     * device works on the next */
    if (S.ntri && batch > PIPE_MIN_BATCH &&
        batch > (a->n + PIPE_BATCHES - 1) / PIPE_BATCHES)
        batch = (a->n + PIPE_BATCHES - 1) / PIPE_BATCHES > PIPE_MIN_BATCH
                    ? (a->n + PIPE_BATCHES - 1) / PIPE_BATCHES
                    : PIPE_MIN_BATCH;

    sj.ctx = ctx;
    sj.gpu = &gpu;
    sj.dev = &dev;
    sj.xyz = a->xyz;
    sj.d_all = d_all;
    sj.method = method;
    sj.d_tally = d_tally;
    sj.room = room;
    sj.st = st;
    sj.f = &f;
    sj.out = out;
    /* Each pass: the device part of the next batch (if any) beside the
     * finish of the one before (if any). */
    while (done < a->n || sj.fn) {
        uint32_t n = (uint32_t)(a->n - done < batch ? a->n - done : batch);
        int finish = sj.fn != 0;
        if (ctx && ctx->progress &&
            ctx->progress((double)done / (double)a->n, ctx->progress_user)) {
            rc = xg__error(ctx, XG_ECANCEL, "cancelled");
            goto done;
        }
        sj.a0 = (uint32_t)done;
        sj.n = S.ntri ? n : 0;
        sj.ratio = ratio;
        sj.fin.errmsg[0] = '\0';
        if (xg__parallel(finish && sj.n ? 2 : 1, step_worker, &sj) != XG_OK) {
            rc = xg__error(ctx, XG_ENOMEM, "cannot start threads");
            goto done;
        }
        if (finish && !sj.n)
            step_worker(&sj, 1);
        if (finish) {
            free(sj.fhit);
            sj.fhit = NULL;
            sj.fn = 0;
            st->seconds[XG_STAGE_EXACT] += sj.fin_s;
            if ((rc = side_error(ctx, &sj.fin, sj.frc)) != XG_OK)
                goto done;
        }
        if (done >= a->n)
            break;
        rc = sj.rc;
        if (rc == XG_GPU_SPLIT && n > 1) {
            batch = n / 2;      /* more hits than room: smaller */
            continue;
        }
        if (rc == XG_GPU_SPLIT)
            rc = xg__error(ctx, XG_ENOMEM, "the GPU memory budget "
                           "does not hold one point's hits");
        if (rc != XG_OK) {
            free(sj.hit);
            goto done;
        }
        if (S.ntri)
            ratio = 1.1 * (double)sj.nhit / (double)n;
        /* this batch is finished in the next pass */
        sj.fhit = sj.hit;
        sj.fnhit = sj.nhit;
        sj.fa0 = (uint32_t)done;
        sj.fn = n;
        sj.hit = NULL;
        done += n;
    }
    /* counted here, so that xg__pair_end need not read them all */
    xg__inside_finish_stats(&f, st);
done:
    free(sj.fhit);
    xg__dmem_free(&m);
    xg__dmem_free(&mp);
    if (opened)
        xg__gpu_close(&gpu);
    xg__solids_free(&S);
    xg__inside_finish_free(&f);
    return rc;
}
