/*
 * pipe_t.c -- the GPU engines' overlapped pipeline (cuda/host/xg_pipe.c)
 * driven by CPU callbacks, without a GPU.  A run makes "points"
 * 0..npts-1 in batches, as the point-in-solid engine does: a batch that
 * holds a dense point is cut in half (XG_PIPE_AGAIN) until it fits.
 * Checked, under a mutex in every callback: each batch's stages in order
 * (launch after upload, download after launch, release after them,
 * finish after download), the device stages of one batch at a time, the
 * finishes one at a time and in batch order, at most depth batches in
 * flight; the outcome (every point finished once, in order); and the
 * error path: a failure at each stage and at each batch position, a
 * cancel, zero and one batch, each with every output finished or dropped
 * exactly once and every batch released once.  No assertion on timing:
 * the callbacks sleep a little, varied by batch, to shuffle the sides.
 * TAP.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_pipe.h"
#include "tap.h"

#define MAXB 64
#define MAXP 256

enum { S_UPLOAD, S_LAUNCH, S_DOWNLOAD, S_FINISH, S_NONE };

/* A batch's output: its points, in a buffer of its own. */
struct out {
    uint32_t a0, n;
    uint32_t *pts;
};

struct run {
    pthread_mutex_t mu;
    struct xg_ctx *ctx;                 /* the device stages' messages */
    /* the work */
    uint32_t npts, done, batch, dense;  /* dense: points per batch at most
                                           past point npts / 2 */
    int fail_stage, fail_at, cancel_at, ncalls;
    /* what happened, under mu */
    int up[MAXB], launched[MAXB], down[MAXB], released[MAXB];
    int finished[MAXB], dropped, ended;
    int in_device, in_finish, in_flight, max_flight;
    size_t depth;
    int bad;                            /* order broken */
    uint32_t got[MAXP];                 /* finished points, in order */
    uint32_t a0[MAXB];                  /* each batch's first point */
    uint32_t ngot;
    long alloc, freed;
    int again;                          /* batches cut */
};

/* A pause of 0 to 80 us in a device stage, 60 us in a finish but 1 ms
 * in every fourth, so that either side is at times the slower. */
static void nap(size_t k, int stage)
{
    long us = stage == S_FINISH ? (k % 4 == 1 ? 1000 : 60)
                                : (long)((k * 7 + (size_t)stage * 3) % 5) * 20;
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static void lock(struct run *r) { pthread_mutex_lock(&r->mu); }
static void unlock(struct run *r) { pthread_mutex_unlock(&r->mu); }

/* The injected failure of stage at batch k, when it is this one. */
static int fail(struct run *r, size_t k, int stage, struct xg_ctx *err)
{
    if (r->fail_stage != stage || (size_t)r->fail_at != k)
        return XG_OK;
    return xg__error(err, XG_EINVAL, "failed at stage %d of batch %zu",
                     stage, k);
}

static int next(void *user, size_t k, double *done)
{
    struct run *r = user;
    (void)k;
    *done = r->npts ? (double)r->done / r->npts : 0.0;
    return r->done < r->npts;
}

static int upload(void *user, size_t k)
{
    struct run *r = user;
    if (k >= MAXB) {            /* more batches than the test plans */
        r->bad++;
        return XG_EINVAL;
    }
    lock(r);
    if (r->in_device++ || r->up[k] != r->released[k])
        r->bad++;
    if (!r->up[k]++) {          /* a cut batch is the same one again */
        if ((size_t)++r->in_flight > r->depth && r->depth)
            r->bad++;
        if (r->in_flight > r->max_flight)
            r->max_flight = r->in_flight;
    }
    unlock(r);
    nap(k, S_UPLOAD);
    return fail(r, k, S_UPLOAD, r->ctx);
}

static int launch(void *user, size_t k)
{
    struct run *r = user;
    uint32_t n = r->npts - r->done < r->batch ? r->npts - r->done : r->batch;
    lock(r);
    if (r->launched[k] >= r->up[k] || r->down[k])
        r->bad++;
    r->launched[k]++;
    unlock(r);
    nap(k, S_LAUNCH);
    if (r->done + n > r->npts / 2 && n > r->dense) {
        r->batch = n / 2;       /* too dense: smaller */
        r->again++;
        return XG_PIPE_AGAIN;
    }
    return fail(r, k, S_LAUNCH, r->ctx);
}

static int download(void *user, size_t k, void *item)
{
    struct run *r = user;
    struct out *o = item;
    uint32_t i, n = r->npts - r->done < r->batch ? r->npts - r->done : r->batch;
    int rc;
    lock(r);
    if (r->launched[k] != r->up[k] || r->down[k]++ || o->pts || o->n)
        r->bad++;
    unlock(r);
    nap(k, S_DOWNLOAD);
    if ((rc = fail(r, k, S_DOWNLOAD, r->ctx)) != XG_OK)
        return rc;
    if (!(o->pts = malloc(n * sizeof *o->pts)))
        return XG_ENOMEM;
    lock(r);
    r->alloc++;
    unlock(r);
    for (i = 0; i < n; i++)
        o->pts[i] = r->done + i;
    o->a0 = r->a0[k] = r->done;
    o->n = n;
    r->done += n;
    return XG_OK;
}

static void release(void *user, size_t k)
{
    struct run *r = user;
    lock(r);
    if (r->released[k]++ != r->up[k] - 1 || r->launched[k] > r->up[k])
        r->bad++;
    r->in_device--;
    unlock(r);
}

static void device_end(void *user)
{
    struct run *r = user;
    lock(r);
    r->ended++;
    unlock(r);
}

static int finish(void *user, size_t k, void *item, struct xg_ctx *err)
{
    struct run *r = user;
    struct out *o = item;
    uint32_t i;
    int rc;
    lock(r);
    if (r->in_finish++ || !r->down[k] || r->finished[k] ||
        (k && !r->finished[k - 1]))
        r->bad++;
    unlock(r);
    nap(k, S_FINISH);
    rc = fail(r, k, S_FINISH, err);
    lock(r);
    for (i = 0; rc == XG_OK && i < o->n; i++)
        r->got[r->ngot++] = o->pts[i];
    r->finished[k] = 1;
    r->in_flight--;
    r->in_finish--;
    r->freed++;
    unlock(r);
    free(o->pts);
    return rc;
}

static void drop(void *user, void *item)
{
    struct run *r = user;
    struct out *o = item;
    lock(r);
    r->dropped++;
    r->freed++;
    unlock(r);
    free(o->pts);
}

static const struct xg_pipe_ops ops = {next,    upload,     launch,
                                       download, release,   device_end,
                                       finish,  drop};

static int cancel_fn(double fraction, void *user)
{
    struct run *r = user;
    (void)fraction;
    return ++r->ncalls > r->cancel_at && r->cancel_at >= 0;
}

/* One run of npts points in batches of batch, depth in flight at most,
 * with the failure given (S_NONE: none) or a cancel at the given
 * progress call (-1: none); *rc its result, ctx its message. */
static void run(struct run *r, struct xg_ctx *ctx, uint32_t npts,
                uint32_t batch, size_t depth, int fail_stage, int fail_at,
                int cancel_at, int *rc)
{
    struct xg_pipe p;
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    r->ctx = ctx;
    r->npts = npts;
    r->batch = batch;
    r->dense = batch / 4 ? batch / 4 : 1;
    r->depth = depth;
    r->fail_stage = fail_stage;
    r->fail_at = fail_at;
    r->cancel_at = cancel_at;
    memset(&p, 0, sizeof p);
    p.ops = &ops;
    p.user = r;
    p.item_size = sizeof(struct out);
    p.depth = depth;
    p.progress = 1;
    xg_ctx_set_progress(ctx, cancel_fn, r);
    *rc = xg__pipe_run(ctx, &p);
    pthread_mutex_destroy(&r->mu);
}

/* What every run must show: order kept, nothing leaked, every batch
 * released once, every output finished or dropped once. */
static int sound(const struct run *r)
{
    int k, fin = 0, ok_ = !r->bad && r->ended == 1 && r->alloc == r->freed;
    for (k = 0; k < MAXB; k++) {
        ok_ &= r->released[k] == r->up[k];
        fin += r->finished[k];
    }
    return ok_ && r->alloc == fin + r->dropped;
}

/* Every point finished once, in order. */
static int complete(const struct run *r)
{
    uint32_t i;
    if (r->ngot != r->npts)
        return 0;
    for (i = 0; i < r->ngot; i++)
        if (r->got[i] != i)
            return 0;
    return 1;
}

int main(void)
{
    static const size_t depths[] = {0, 1, 2, 3};
    struct xg_ctx *ctx = xg_ctx_new();
    struct run r;
    size_t d;
    int rc, stage, at;

    for (d = 0; d < 4; d++) {
        size_t D = depths[d];
        int bad;
        run(&r, ctx, 200, 16, D, S_NONE, -1, -1, &rc);
        ok(rc == XG_OK && sound(&r) && complete(&r) && r.again > 0 &&
               (!D || (size_t)r.max_flight <= D),
           "depth %zu: 200 points finished in order, dense batches cut "
           "(%d), at most %d in flight", D, r.again, r.max_flight);
        run(&r, ctx, 0, 16, D, S_NONE, -1, -1, &rc);
        ok(rc == XG_OK && sound(&r) && r.up[0] == 0 && r.ngot == 0,
           "depth %zu: zero batches", D);
        run(&r, ctx, 3, 16, D, S_NONE, -1, -1, &rc);
        ok(rc == XG_OK && sound(&r) && complete(&r) && r.finished[0] &&
               !r.up[1],
           "depth %zu: one batch", D);
        /* a failure at each stage, at each batch position */
        bad = 0;
        for (stage = S_UPLOAD; stage <= S_FINISH; stage++)
            for (at = 0; at < 12; at++) {
                int k;
                run(&r, ctx, 120, 10, D, stage, at, -1, &rc);
                bad += rc != XG_EINVAL || !sound(&r) ||
                       !strstr(xg_ctx_errmsg(ctx), "failed at stage");
                /* nothing made after a device failure, nothing finished
                 * after a finish's */
                for (k = at + 1; k < MAXB; k++)
                    bad += (stage != S_FINISH && r.up[k]) || r.finished[k];
                if (stage == S_FINISH)
                    bad += r.finished[at] != 1 || r.ngot != r.a0[at];
            }
        ok(!bad, "depth %zu: a failure at each stage and batch stops the "
           "pipeline, its code and message returned, outputs drained", D);
        /* beyond the last batch: no failure */
        run(&r, ctx, 120, 10, D, S_FINISH, 40, -1, &rc);
        ok(rc == XG_OK && complete(&r), "depth %zu: no failure past the "
           "last batch", D);
        bad = 0;
        for (at = 0; at < 8; at++) {
            run(&r, ctx, 120, 10, D, S_NONE, -1, at, &rc);
            bad += rc != XG_ECANCEL || !sound(&r) || r.ncalls != at + 1 ||
                   strcmp(xg_ctx_errmsg(ctx), "cancelled") != 0;
        }
        ok(!bad, "depth %zu: a cancel at each batch stops the run with "
           "XG_ECANCEL", D);
    }
    xg_ctx_free(ctx);
    tap_done();
    return tap_exit();
}
