/*
 * xg_pipe.c -- the GPU engines' one overlapped pipeline (xg_pipe.h): the
 * device side makes the batches on the calling thread (tid 0 of
 * xg__parallel, which holds the device), the finishes take them in
 * batch order on tid 1.  The two sides meet in a queue of the batches'
 * outputs under one mutex.
 *
 * A finish is claimed under the mutex by whichever thread is free to
 * run it (busy says one runs): tid 1 as batches come, or the device
 * side itself while it waits for room under the depth limit.  That
 * keeps the limit from deadlocking when xg__parallel could not get a
 * worker for tid 1 (it then runs tid 1 on the calling thread after
 * tid 0), and makes depth 1 a plain loop with no second thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "xg_ctx.h"
#include "xg_mem.h"
#include "xg_thread.h"
#include "xg_pipe.h"

/* One run's state, shared by the two sides. */
struct pipe_run {
    const struct xg_pipe *p;
    struct xg_ctx *ctx;
    struct xg_ctx fin;          /* the finishes' messages */
    int nthreads;               /* 1: the calling thread finishes too */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* under mu */
    unsigned char *q;           /* batch k's output at q + k item_size */
    size_t capq;
    size_t made, finished;      /* batches handed over, finished */
    int busy;                   /* a finish runs */
    int all_made, stop;         /* stop: a side failed */
    int frc;                    /* the finishes' first failure */
    /* the device side's own */
    unsigned char *item;        /* the batch being made */
    unsigned char *cur;         /* the batch being finished (busy) */
    int rc;
};

/* The oldest batch not finished, finished on this thread: called with
 * mu held, no finish running and one batch at least waiting; returns
 * with mu held.  A failure stops the pipeline. */
static void finish_one(struct pipe_run *r)
{
    size_t k = r->finished, sz = r->p->item_size;
    int rc;
    r->busy = 1;
    if (sz)
        memcpy(r->cur, r->q + k * sz, sz);
    pthread_mutex_unlock(&r->mu);
    rc = r->p->ops->finish(r->p->user, k, r->cur, &r->fin);
    pthread_mutex_lock(&r->mu);
    r->busy = 0;
    r->finished++;
    if (rc != XG_OK && r->frc == XG_OK) {
        r->frc = rc;
        r->stop = 1;
    }
    pthread_cond_broadcast(&r->cv);
}

/* The finishes: batch after batch as the device side hands them over,
 * until all are made and finished, or a side stops. */
static void finishes(struct pipe_run *r)
{
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->stop &&
               (r->busy || (r->finished == r->made && !r->all_made)))
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->stop || r->finished == r->made)
            break;
        finish_one(r);
    }
    pthread_mutex_unlock(&r->mu);
}

/* Whether the device side may make another batch: it waits while depth
 * batches are in flight, finishing the oldest itself when no other
 * thread is on it.  0 when a side has stopped. */
static int room(struct pipe_run *r)
{
    size_t depth = r->p->depth;
    int go;
    pthread_mutex_lock(&r->mu);
    while (!r->stop && depth && r->made - r->finished >= depth) {
        if (!r->busy)
            finish_one(r);
        else
            pthread_cond_wait(&r->cv, &r->mu);
    }
    go = !r->stop;
    pthread_mutex_unlock(&r->mu);
    return go;
}

/* The batch just made (r->item) to the finishes: XG_OK, or XG_ENOMEM
 * (its output dropped). */
static int hand_over(struct pipe_run *r)
{
    size_t sz = r->p->item_size;
    int rc = XG_OK;
    pthread_mutex_lock(&r->mu);
    if (sz)
        rc = xg__grow((void **)&r->q, &r->capq, r->made, sz);
    if (rc == XG_OK) {
        if (sz)
            memcpy(r->q + r->made * sz, r->item, sz);
        r->made++;
    }
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (rc != XG_OK && r->p->ops->drop)
        r->p->ops->drop(r->p->user, r->item);
    return rc;
}

/* The device side: every batch through its device stages, in order,
 * until next says none is left or a side fails. */
static int device_side(struct pipe_run *r)
{
    const struct xg_pipe_ops *o = r->p->ops;
    void *user = r->p->user;
    size_t k = 0;
    for (;;) {
        double done = 0.0;
        int rc;
        if (!room(r))
            return XG_OK;       /* the finishes' error is the run's */
        if (!o->next(user, k, &done))
            return XG_OK;
        if (r->p->progress && xg__cancelled_at(r->ctx, done))
            return xg__error(r->ctx, XG_ECANCEL, "cancelled");
        if (r->p->item_size)
            memset(r->item, 0, r->p->item_size);
        rc = o->upload ? o->upload(user, k) : XG_OK;
        if (rc == XG_OK && o->launch)
            rc = o->launch(user, k);
        if (rc == XG_OK && o->download)
            rc = o->download(user, k, r->item);
        if (o->release)
            o->release(user, k);
        if (rc == XG_PIPE_AGAIN)
            continue;           /* batch k cut smaller: made again */
        if (rc != XG_OK)
            return rc;
        if (hand_over(r) != XG_OK)
            return xg__error(r->ctx, XG_ENOMEM, "out of memory");
        k++;
    }
}

/* xg__parallel's worker: tid 0 the device side (then the finishes,
 * when it is alone), tid 1 the finishes. */
static void pipe_worker(void *arg, int tid)
{
    struct pipe_run *r = arg;
    if (tid == 1) {
        finishes(r);
        return;
    }
    r->rc = device_side(r);
    pthread_mutex_lock(&r->mu);
    r->all_made = 1;
    r->stop |= r->rc != XG_OK;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (r->p->ops->device_end)
        r->p->ops->device_end(r->p->user);
    if (r->nthreads == 1)
        finishes(r);
}

/* The batches of p, overlapped (contract in xg_pipe.h): the state set
 * up, the two sides run, the outputs not finished dropped. */
int xg__pipe_run(struct xg_ctx *ctx, const struct xg_pipe *p)
{
    struct pipe_run r;
    size_t k, sz = p->item_size;
    int rc;

    memset(&r, 0, sizeof r);
    r.p = p;
    r.ctx = ctx;
    r.fin.nthreads = ctx ? ctx->nthreads : 0;
    r.nthreads = p->depth == 1 ? 1 : 2;
    if (sz && (!(r.item = malloc(sz)) || !(r.cur = malloc(sz)))) {
        free(r.item);
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    }
    if (pthread_mutex_init(&r.mu, NULL) != 0) {
        rc = xg__error(ctx, XG_ENOMEM, "cannot start threads");
        goto out;
    }
    if (pthread_cond_init(&r.cv, NULL) != 0) {
        pthread_mutex_destroy(&r.mu);
        rc = xg__error(ctx, XG_ENOMEM, "cannot start threads");
        goto out;
    }
    rc = xg__parallel(r.nthreads, pipe_worker, &r);
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    if (rc != XG_OK)
        rc = xg__error(ctx, XG_ENOMEM, "cannot start threads");
    else if ((rc = r.rc) == XG_OK && (rc = r.frc) != XG_OK)
        rc = xg__error(ctx, rc, "%s", r.fin.errmsg);
    for (k = r.finished; k < r.made && p->ops->drop; k++)
        p->ops->drop(p->user, sz ? r.q + k * sz : NULL);
out:
    free(r.q);
    free(r.item);
    free(r.cur);
    return rc;
}
