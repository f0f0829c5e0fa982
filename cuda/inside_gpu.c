/*
 * inside_gpu.c -- the GPU point-in-solid engine (xg__inside_gpu_run,
 * reached through xg__gpu_inside), host side.
 *
 * The host prepares the solids as the cpu engine does
 * (xg__solids_prepare: grouping, the columns), then checks that each is
 * closed (xg__solids_closed) and does not cross itself
 * (xg__solids_crossing); meanwhile all the points go up when they
 * take at most a share of the device memory (else each batch uploads
 * its own): a large set from its own memory, locked in pieces and
 * checked for non-finite coordinates on the device, so that no host core
 * copies it while the solids are prepared; a small one (or one that
 * cannot be locked) through the pinned buffers, checked on the way (this
 * engine's check, not xg__pair_begin's); then the solids go up, once,
 * while the host checks them.  The points then go through in
 * batches that fit the device memory budget, eight at least for a large
 * set; each batch goes through the output protocol (gpu_output.c) with
 * one thread per point (inside_kernels.cu, or the seed's method, the
 * benchmark's: bench/cuda/inside_seed.cu through gpu_bench.h), its hits -- one per (point, solid) the point is in,
 * or whose filter doubted, 8-byte keys (xg__inside_key) -- come back
 * sorted by (point, solid), and the CPU threads decide the doubted pairs
 * (rare: the device has the exact stage in doubles too) exactly, in
 * place, then write the batch's records (and outside
 * records) in order (xg__inside_finish, inside_finish.c), while the
 * device runs ahead on the next batches.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"
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
/* ... from their own memory, locked, from this size up (below it the
 * pinned buffers' copy costs less than locking pages) */
#define LOCK_MIN ((size_t)64 << 20)
/* Batches of at most 1/PIPE_BATCHES of the points (but not below
 * PIPE_MIN_BATCH), so that the host finishes one while the device works
 * on the next. */
#define PIPE_BATCHES 8
#define PIPE_MIN_BATCH ((uint64_t)1 << 21)

/* ---- the device side ---- */

/* The solids into arena m and dev (the resident part of the run), and
 * the kernel's tally (*d_tally). */
static int upload_solids(struct xg_ctx *ctx, struct xg_dmem *m,
                         const struct xg__solids *S, struct xg_inside_dev *dev,
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

static uint64_t resident_bytes(const struct xg__solids *S)
{
    return S->ntri * (9 * 8 + 6 * 8 + 1) + (S->nsolid + 1) * 4 +
           (S->g.ncell + 1) * 4 + (uint64_t)S->g.b_start[S->g.ncell] * 12 +
           S->nrun * sizeof *S->run + 3 * 8 + 4096;
}

/* Whether all the points (pts bytes) stay on the device beside the
 * solids, with room for the hits of a few points at least. */
static int points_stay(const struct xg__solids *S, uint64_t pts,
                       uint64_t budget)
{
    return resident_bytes(S) + pts + 64 * HIT_BYTES <= budget;
}

/* One batch of n points from a0 through the device into hits: *h_hit
 * (sorted; caller frees) and *nhit.  The points are at d_all + 3 a0
 * when all of them went up before the batches (d_all not NULL), else
 * the batch uploads its own; *deferred: how many of the hits the
 * device deferred.  XG_GPU_SPLIT when its hits would not fit room (bytes
 * for the batch's points and hits). */
static int batch_hits(struct xg_ctx *ctx, const struct xg_gpu *gpu,
                      const struct xg_inside_dev *dev, const double *xyz,
                      const double *d_all, uint32_t a0, uint32_t n,
                      int method, unsigned long long *d_tally, uint64_t room,
                      double ratio, uint64_t **h_hit,
                      uint64_t *nhit, uint64_t *deferred,
                      struct xg_stats *st)
{
    const struct xg__gpu_bench *bench = NULL;
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
    if (method == XG__IN_SEED &&
        (rc = xg__gpu_bench_get(ctx, "the seed's GPU point-in-solid method",
                                &bench)) != XG_OK)
        return rc;
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
    /* Room for one hit per point at least: 8 bytes a point of device
     * memory spares the second pass that a batch denser than the one
     * before would cost (a lattice's slabs cross more or less of the
     * solids). */
    xg__gpu_fill_init(&fill, bench ? bench->inside_seed : xg__cuda_inside,
                      &pass, (uint64_t)(ratio > 1.0 ? ratio * n : n) + 1024);
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
    *deferred = tally[2];
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

/* The solids' coordinates checked, the solids prepared, then checked
 * to be closed (tid 0), while the points go up (tid 1), checked as they
 * pass (the coordinates' check is this engine's: inside_ops'
 * gpu_checks_finite), then the solids once they are prepared (while
 * tid 0 checks them), where they fit beside all the points: the bus
 * takes them after the points, and the device can start the first
 * batch as soon as the check is done. */
struct prep_job {
    struct xg_ctx *ctx, up;     /* up: the upload's context */
    const struct xg_set *b;
    const struct xg_opts *opt;
    struct xg__solids *S;
    struct xg_stats *st;
    void *d_pts;
    const double *xyz;
    size_t n;                   /* doubles */
    cudaStream_t s;             /* the run's stream, free meanwhile */
    size_t locked;              /* pieces of xyz locked (gpu_pinned.c) */
    int device, finite_rc, rc, closed_rc, up_rc, a_bad;
    double prep_s, up_s;
    /* the solids' upload (tid 1), when they fit beside the points */
    uint64_t budget;
    struct xg_dmem *m;
    struct xg_inside_dev *dev;
    unsigned long long *d_tally;
    int solids_up;
    pthread_mutex_t mu;         /* prepared, under mu */
    pthread_cond_t cv;
    int prepared;
};

static void prep_worker(void *arg, int tid)
{
    struct prep_job *j = arg;
    double t0 = xg__now();
    int ok;
    if (tid == 0) {
        j->finite_rc = xg__inside_check_finite(j->ctx, j->b, 0);
        if (j->finite_rc == XG_OK)
            j->rc = xg__solids_prepare(j->ctx, j->b, j->opt,
                                       xg__threads(j->ctx), 0, j->S, j->st);
        pthread_mutex_lock(&j->mu);
        j->prepared = 1;
        pthread_cond_signal(&j->cv);
        pthread_mutex_unlock(&j->mu);
        /* the cpu engine checks before it keeps triangles: an open solid
         * is the error, whatever the preparation said; then, as it does,
         * a solid that crosses itself (beside the upload, which reads
         * the prepared solids too) */
        if (j->finite_rc == XG_OK)
            j->closed_rc = xg__solids_closed(j->ctx, j->b,
                                             xg__threads(j->ctx));
        if (j->finite_rc == XG_OK && j->closed_rc == XG_OK &&
            j->rc == XG_OK && !j->opt->solids_checked)
            j->closed_rc = xg__solids_crossing(j->ctx, j->b, j->S,
                                               j->S->g.b_box,
                                               xg__threads(j->ctx),
                                               &j->st->cnt);
        j->prep_s = xg__now() - t0;
        return;
    }
    /* a kept worker thread (thread.c) has whichever device an earlier
     * task left current, and maybe its error: the run's device first,
     * the error cleared (the points' check launches a kernel) */
    cudaGetLastError();
    j->up_rc = XG_CUDA(&j->up, cudaSetDevice(j->device));
    if (j->up_rc != XG_OK)
        return;
    /* Large: from the points' own memory, locked, then checked on the
     * device (no host core copies 24 bytes a point while the solids are
     * prepared); else, or where it cannot be locked, through the pinned
     * buffers, checked on the way. */
    j->up_rc = j->n * sizeof(double) >= LOCK_MIN
                   ? xg__gpu_upload_locked(&j->up, j->d_pts, j->xyz,
                                           j->n * sizeof(double), j->s,
                                           &j->locked)
                   : XG_GPU_UNLOCKED;
    if (j->up_rc == XG_OK)
        j->up_rc = xg__cuda_nonfinite(&j->up, j->d_pts, j->n, &j->a_bad,
                                      j->s);
    else if (j->up_rc == XG_GPU_UNLOCKED)
        j->up_rc = xg__gpu_upload_finite(&j->up, j->d_pts, j->xyz, j->n,
                                         &j->a_bad);
    pthread_mutex_lock(&j->mu);
    while (!j->prepared)
        pthread_cond_wait(&j->cv, &j->mu);
    pthread_mutex_unlock(&j->mu);
    ok = j->up_rc == XG_OK && !j->a_bad && j->finite_rc == XG_OK &&
         j->rc == XG_OK && j->S->ntri;
    if (ok && points_stay(j->S, j->n * sizeof(double), j->budget)) {
        j->up_rc = upload_solids(&j->up, j->m, j->S, j->dev, &j->d_tally);
        j->solids_up = j->up_rc == XG_OK;
    }
    j->up_s = xg__now() - t0;
}

/* The batches: the solids' upload where the preparation could not
 * make it, then the batches' device parts one after another on the
 * calling thread (tid 0, which holds the device and reports progress),
 * each batch's hits handed over in order to the finishes (tid 1), which
 * write the records in batch order.  Neither side waits for the other's
 * step to end, only for a batch to finish that has not come yet: the
 * device runs ahead while the host finishes a dense batch, and the
 * other way round. */
struct pipe_batch {
    uint64_t *hit;              /* sorted keys (NULL: none) */
    uint64_t nhit, deferred;
    uint32_t a0, n;
};

struct pipe_job {
    struct xg_ctx *ctx, fin;    /* fin: the finishes' context */
    /* the device side */
    const struct xg_gpu *gpu;
    struct xg_dmem *m;          /* the solids' arena */
    const struct xg__solids *S;
    struct xg_inside_dev *dev;
    const struct xg_set *a;
    const double *d_all;
    int method, device_work;    /* device_work 0: no triangles */
    int solids_up;              /* the solids up already (prep_job) */
    unsigned long long *d_tally;
    uint64_t room, batch;
    struct xg_stats *st;
    int rc;
    /* the hand-over, under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct pipe_batch *q;
    size_t nq, capq;
    int all_made, stop;         /* stop: a side failed */
    /* the finishes */
    struct xg__inside_finish *f;
    struct xg_contacts *out;
    int frc;
    double fin_s;
    /* the points' pieces still locked, given back after the batches */
    size_t locked;
};

/* Batch k to the finishes: XG_OK, or XG_ENOMEM (the batch freed). */
static int pipe_put(struct pipe_job *j, struct pipe_batch bt)
{
    int rc = XG_OK;
    pthread_mutex_lock(&j->mu);
    if (j->nq == j->capq) {
        size_t cap = j->capq ? 2 * j->capq : 16;
        struct pipe_batch *q = realloc(j->q, cap * sizeof *q);
        if (q) {
            j->q = q;
            j->capq = cap;
        }
    }
    if (j->nq < j->capq)
        j->q[j->nq++] = bt;
    else
        rc = XG_ENOMEM;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (rc != XG_OK)
        free(bt.hit);
    return rc;
}

static void pipe_end(struct pipe_job *j, int failed)
{
    pthread_mutex_lock(&j->mu);
    j->all_made = 1;
    j->stop |= failed;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

static int pipe_stopped(struct pipe_job *j)
{
    int stop;
    pthread_mutex_lock(&j->mu);
    stop = j->stop;
    pthread_mutex_unlock(&j->mu);
    return stop;
}

/* The device side: every batch through the device, in order. */
static int pipe_device(struct pipe_job *j)
{
    struct xg_ctx *ctx = j->ctx;
    const struct xg_set *a = j->a;
    uint64_t done = 0, batch = j->batch;
    double ratio = 0.5, t0 = xg__now();
    int rc;
    if (j->device_work && !j->solids_up) {
        if ((rc = upload_solids(ctx, j->m, j->S, j->dev, &j->d_tally)) !=
            XG_OK)
            return rc;
        j->st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    }
    while (done < a->n) {
        struct pipe_batch bt;
        uint32_t n = (uint32_t)(a->n - done < batch ? a->n - done : batch);
        if (pipe_stopped(j))
            return XG_OK;       /* the finishes' error is the run's */
        if (ctx && ctx->progress &&
            ctx->progress((double)done / (double)a->n, ctx->progress_user))
            return xg__error(ctx, XG_ECANCEL, "cancelled");
        memset(&bt, 0, sizeof bt);
        bt.a0 = (uint32_t)done;
        bt.n = n;
        if (j->device_work) {
            rc = batch_hits(ctx, j->gpu, j->dev, a->xyz, j->d_all, bt.a0, n,
                            j->method, j->d_tally, j->room, ratio, &bt.hit,
                            &bt.nhit, &bt.deferred, j->st);
            if (rc == XG_GPU_SPLIT && n > 1) {
                batch = n / 2;  /* more hits than room: smaller */
                continue;
            }
            if (rc == XG_GPU_SPLIT)
                return xg__error(ctx, XG_ENOMEM, "the GPU memory budget "
                                 "does not hold one point's hits");
            if (rc != XG_OK)
                return rc;
            ratio = 1.1 * (double)bt.nhit / (double)n;
        }
        if (pipe_put(j, bt) != XG_OK)
            return xg__error(ctx, XG_ENOMEM, "out of memory");
        done += n;
    }
    return XG_OK;
}

/* The finishes: batch after batch as the device side hands them over,
 * until all are made or a side stops. */
static void pipe_finish(struct pipe_job *j)
{
    size_t k;
    for (k = 0;; k++) {
        struct pipe_batch bt;
        double t0;
        pthread_mutex_lock(&j->mu);
        while (k >= j->nq && !j->all_made && !j->stop)
            pthread_cond_wait(&j->cv, &j->mu);
        if (k >= j->nq || j->stop) {
            pthread_mutex_unlock(&j->mu);
            return;
        }
        bt = j->q[k];
        j->q[k].hit = NULL;
        pthread_mutex_unlock(&j->mu);
        t0 = xg__now();
        j->frc = xg__inside_finish(&j->fin, j->f, bt.hit, bt.nhit,
                                   bt.deferred, bt.a0, bt.n, j->out);
        free(bt.hit);
        j->fin_s += xg__now() - t0;
        if (j->frc != XG_OK) {
            pthread_mutex_lock(&j->mu);
            j->stop = 1;
            pthread_mutex_unlock(&j->mu);
            return;
        }
    }
}

static void pipe_worker(void *arg, int tid)
{
    struct pipe_job *j = arg;
    if (tid == 1) {
        pipe_finish(j);
        return;
    }
    j->rc = pipe_device(j);
    pipe_end(j, j->rc != XG_OK);
    /* The points' memory unlocked beside the last finishes: unlocking
     * holds the driver (about a millisecond a piece, from one thread or
     * several alike), and beside the batches it stalled their calls;
     * between them, on this thread, it held up the batches more than the
     * finishes gain at the end. */
    xg__gpu_unlock(j->a->xyz, j->a->n * POINT_BYTES, j->locked);
    j->locked = 0;
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
    struct pipe_job pp;
    const double *d_all = NULL;
    uint64_t room = 0, batch, pts = a->n * POINT_BYTES;
    int rc, opened = 0, piped = 0;

    st->engine = XG_ENGINE_GPU;
    st->threads = 1;
    st->a_count = a->n;
    st->b_count = b->n;
    free(out->v);
    memset(out, 0, sizeof *out);
    memset(&f, 0, sizeof f);
    memset(&dev, 0, sizeof dev);
    memset(&S, 0, sizeof S);
    memset(&pp, 0, sizeof pp);
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
    pj.s = gpu.s;
    pj.budget = gpu.budget;
    pj.m = &m;
    pj.dev = &dev;
    /* The points' check first, as xg__pair_begin makes it: here when
     * they do not go up now. */
    if (!pj.d_pts && (rc = xg__inside_check_finite(ctx, a, 1)) != XG_OK)
        goto done;
    if (pj.d_pts) {
        pj.up = *ctx;           /* its device, threads and pinned buffers */
        pj.up.progress = NULL;
        pj.up.errmsg[0] = '\0';
    }
    if (pthread_mutex_init(&pj.mu, NULL) != 0)
        goto no_threads;
    if (pthread_cond_init(&pj.cv, NULL) != 0) {
        pthread_mutex_destroy(&pj.mu);
        goto no_threads;
    }
    rc = xg__parallel(pj.d_pts ? 2 : 1, prep_worker, &pj);
    pthread_cond_destroy(&pj.cv);
    pthread_mutex_destroy(&pj.mu);
    if (rc != XG_OK)
        goto no_threads;
    /* pinned buffers the upload made on first use are the context's */
    if (pj.d_pts) {
        ctx->gpu = pj.up.gpu;
        ctx->gpu_free = pj.up.gpu_free;
    }
    st->seconds[XG_STAGE_PREPARE] += pj.prep_s;
    st->seconds[XG_STAGE_UPLOAD] += pj.up_s;
    /* The points' error first, with the check's message; then the
     * triangles', an open solid's and the preparation's, in the cpu
     * engine's order; then the upload's. */
    if (pj.d_pts && (pj.a_bad || pj.up_rc != XG_OK) &&
        (rc = xg__inside_check_finite(ctx, a, 1)) != XG_OK)
        goto done;
    if ((rc = pj.finite_rc) != XG_OK || (rc = pj.closed_rc) != XG_OK ||
        (rc = pj.rc) != XG_OK ||
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

    /* The solids go up once (with the points, or as the pipe's first
     * step); no triangles: every point is outside. */
    if (S.ntri && a->n) {
        /* the points up already, when the rest still fits beside them */
        if (d_all && !points_stay(&S, pts, gpu.budget)) {
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

    pp.ctx = ctx;
    pp.gpu = &gpu;
    pp.m = &m;
    pp.S = &S;
    pp.dev = &dev;
    pp.a = a;
    pp.d_all = d_all;
    pp.method = method;
    pp.device_work = S.ntri && a->n;
    pp.solids_up = pj.solids_up;
    pp.d_tally = pj.d_tally;
    pp.room = room;
    pp.batch = batch;
    pp.st = st;
    pp.f = &f;
    pp.out = out;
    pp.locked = pj.locked;
    pj.locked = 0;              /* pp's now */
    if (pthread_mutex_init(&pp.mu, NULL) != 0)
        goto no_threads;
    if (pthread_cond_init(&pp.cv, NULL) != 0) {
        pthread_mutex_destroy(&pp.mu);
        goto no_threads;
    }
    piped = 1;
    if (a->n && xg__parallel(2, pipe_worker, &pp) != XG_OK)
        goto no_threads;
    st->seconds[XG_STAGE_EXACT] += pp.fin_s;
    /* the device side's error first: the finishes stop on it */
    if ((rc = pp.rc) != XG_OK ||
        (rc = side_error(ctx, &pp.fin, pp.frc)) != XG_OK)
        goto done;
    /* counted here, so that xg__pair_end need not read them all */
    xg__inside_finish_stats(&f, st);
    goto done;
no_threads:
    rc = xg__error(ctx, XG_ENOMEM, "cannot start threads");
done:
    /* pieces still locked after an error: back before returning */
    if (pj.locked || pp.locked)
        xg__gpu_unlock(a->xyz, a->n * POINT_BYTES,
                       pj.locked ? pj.locked : pp.locked);
    if (piped) {
        size_t k;
        for (k = 0; k < pp.nq; k++)
            free(pp.q[k].hit);
        free(pp.q);
        pthread_cond_destroy(&pp.cv);
        pthread_mutex_destroy(&pp.mu);
    }
    xg__dmem_free(&m);
    xg__dmem_free(&mp);
    if (opened)
        xg__gpu_close(&gpu);
    xg__solids_free(&S);
    xg__inside_finish_free(&f);
    return rc;
}
