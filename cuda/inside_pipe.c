/*
 * inside_pipe.c -- the host's work beside the device's in the GPU
 * point-in-solid engine (inside_run.h says how the two sides meet):
 * the preparation of the solids beside the points' upload
 * (xg__inside_prep_worker), then the finishes of the batches beside the
 * device's work on the next ones (xg__inside_pipe_worker).
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

/* ---- the batches ---- */

/* Batch k to the finishes: XG_OK, or XG_ENOMEM (the batch freed). */
static int pipe_put(struct xg_inside_pipe *j, struct xg_inside_batch bt)
{
    int rc;
    pthread_mutex_lock(&j->mu);
    rc = xg__grow((void **)&j->q, &j->capq, j->nq, sizeof *j->q);
    if (rc == XG_OK)
        j->q[j->nq++] = bt;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (rc != XG_OK)
        free(bt.hit);
    return rc;
}

/* The device side is done (failed: with an error): the finishes stop
 * at the end of the queue, or at once after a failure. */
static void pipe_end(struct xg_inside_pipe *j, int failed)
{
    pthread_mutex_lock(&j->mu);
    j->all_made = 1;
    j->stop |= failed;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

/* Whether a side has failed (the device side then stops too). */
static int pipe_stopped(struct xg_inside_pipe *j)
{
    int stop;
    pthread_mutex_lock(&j->mu);
    stop = j->stop;
    pthread_mutex_unlock(&j->mu);
    return stop;
}

/* The device side: every batch through the device, in order. */
static int pipe_device(struct xg_inside_pipe *j)
{
    struct xg_ctx *ctx = j->ctx;
    const struct xg_set *a = j->a;
    uint64_t done = 0, batch = j->batch;
    double ratio = 0.5, t0 = xg__now();
    int rc;
    if (j->device_work && !j->solids_up) {
        if ((rc = xg__inside_upload_solids(ctx, j->m, j->S, j->dev,
                                           &j->d_tally)) != XG_OK)
            return rc;
        j->st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    }
    while (done < a->n) {
        struct xg_inside_batch bt;
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
            rc = xg__inside_batch_hits(ctx, j->gpu, j->dev, a->xyz, j->d_all,
                                       bt.a0, n, j->fill_fn, j->d_tally,
                                       j->room, ratio, &bt.hit, &bt.nhit,
                                       &bt.deferred, j->st);
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
static void pipe_finish(struct xg_inside_pipe *j)
{
    size_t k;
    for (k = 0;; k++) {
        struct xg_inside_batch bt;
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

/* The batches and their finishes (contract in inside_run.h). */
void xg__inside_pipe_worker(void *arg, int tid)
{
    struct xg_inside_pipe *j = arg;
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
    xg__gpu_unlock(j->a->xyz, j->a->n * XG_IN_POINT_BYTES, j->locked);
    j->locked = 0;
}

