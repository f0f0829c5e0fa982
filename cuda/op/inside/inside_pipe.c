/*
 * inside_pipe.c -- the host's work beside the device's in the GPU
 * point-in-solid engine (inside_run.h says how the two sides meet):
 * the preparation of the solids beside the points' upload
 * (xg__inside_prep_worker), then the finishes of the batches beside the
 * device's work on the next ones (xg__inside_pipe_run: the batch's
 * stages for the GPU engines' pipeline, host/xg_pipe.c).
 */
#include <stdlib.h>
#include <string.h>
#include "inside_run.h"

/* All the points go up from their own memory, locked, from this size
 * up (below it the pinned buffers' copy costs less than locking pages). */
#define LOCK_MIN ((size_t)64 << 20)

/* The preparation beside the upload (contract in inside_run.h). */
void xg__inside_prep_worker(void *arg, int tid)
{
    struct xg_inside_prep *j = arg;
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
    if (ok && xg__inside_points_stay(j->S, j->n * sizeof(double), j->budget)) {
        j->up_rc = xg__inside_upload_solids(&j->up, j->m, j->S, j->dev,
                                            &j->d_tally);
        j->solids_up = j->up_rc == XG_OK;
    }
    j->up_s = xg__now() - t0;
}

/* ---- the batches: xg_pipe.h's stages over a struct xg_inside_pipe ---- */

/* Whether batch k exists: the next points, batch of them at most. */
static int next(void *user, size_t k, double *done)
{
    struct xg_inside_pipe *j = user;
    uint64_t left = j->a->n - j->done;
    (void)k;
    if (j->done >= j->a->n)
        return 0;
    memset(&j->b, 0, sizeof j->b);      /* its arena as XG_DMEM_INIT */
    j->b.a0 = (uint32_t)j->done;
    j->b.n = (uint32_t)(left < j->batch ? left : j->batch);
    *done = (double)j->done / (double)j->a->n;
    return 1;
}

/* The batch's points on the device (none to do without triangles). */
static int upload(void *user, size_t k)
{
    struct xg_inside_pipe *j = user;
    (void)k;
    return j->device_work ? xg__inside_batch_up(j->ctx, j->a->xyz, j->d_all,
                                                &j->b, j->st)
                          : XG_OK;
}

/* The filling pass; a batch whose hits would not fit is made again with
 * half the points, and the batches after it too. */
static int launch(void *user, size_t k)
{
    struct xg_inside_pipe *j = user;
    int rc;
    (void)k;
    if (!j->device_work)
        return XG_OK;
    rc = xg__inside_batch_fill(j->ctx, j->gpu, j->dev, j->fill_fn,
                               j->d_tally, j->room, j->ratio, &j->b, j->st);
    if (rc == XG_GPU_SPLIT && j->b.n > 1) {
        j->batch = j->b.n / 2;  /* more hits than room: smaller */
        return XG_PIPE_AGAIN;
    }
    if (rc == XG_GPU_SPLIT)
        return xg__error(j->ctx, XG_ENOMEM, "the GPU memory budget "
                         "does not hold one point's hits");
    return rc;
}

/* The batch's hits down into item (a struct xg_inside_batch), and the
 * next batch's first room from their density. */
static int download(void *user, size_t k, void *item)
{
    struct xg_inside_pipe *j = user;
    struct xg_inside_batch *bt = item;
    (void)k;
    bt->a0 = j->b.a0;
    bt->n = j->b.n;
    if (j->device_work) {
        int rc;
        if ((rc = xg__inside_batch_down(j->ctx, j->gpu, &j->b, &bt->hit,
                                        &bt->nhit, j->st)) != XG_OK)
            return rc;
        bt->deferred = j->b.deferred;
        j->ratio = 1.1 * (double)bt->nhit / (double)bt->n;
    }
    j->done += bt->n;
    return XG_OK;
}

/* The batch's device memory back. */
static void release(void *user, size_t k)
{
    struct xg_inside_pipe *j = user;
    (void)k;
    xg__dmem_free(&j->b.m);
}

/* The points' memory unlocked beside the last finishes: unlocking holds
 * the driver (about a millisecond a piece, from one thread or several
 * alike), and beside the batches it stalled their calls; between them,
 * on this thread, it held up the batches more than the finishes gain at
 * the end. */
static void device_end(void *user)
{
    struct xg_inside_pipe *j = user;
    xg__gpu_unlock(j->a->xyz, j->a->n * XG_IN_POINT_BYTES, j->locked);
    j->locked = 0;
}

/* The batch's records, in batch order (xg__inside_finish); its hits
 * freed. */
static int finish(void *user, size_t k, void *item, struct xg_ctx *err)
{
    struct xg_inside_pipe *j = user;
    struct xg_inside_batch *bt = item;
    double t0 = xg__now();
    int rc;
    (void)k;
    rc = xg__inside_finish(err, j->f, bt->hit, bt->nhit, bt->deferred,
                           bt->a0, bt->n, j->out);
    free(bt->hit);
    j->fin_s += xg__now() - t0;
    return rc;
}

/* A batch never finished: its hits freed. */
static void drop_hits(void *user, void *item)
{
    struct xg_inside_batch *bt = item;
    (void)user;
    free(bt->hit);
}

/* The batches of pp (contract in inside_run.h). */
int xg__inside_pipe_run(struct xg_inside_pipe *pp)
{
    static const struct xg_pipe_ops ops = {next,    upload,  launch,
                                           download, release, device_end,
                                           finish,  drop_hits};
    struct xg_pipe p;
    memset(&p, 0, sizeof p);
    p.ops = &ops;
    p.user = pp;
    p.item_size = sizeof(struct xg_inside_batch);
    p.depth = 0;                /* the device runs ahead */
    p.progress = 1;
    pp->ratio = 0.5;
    return xg__pipe_run(pp->ctx, &p);
}
