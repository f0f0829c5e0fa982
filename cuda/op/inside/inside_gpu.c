/*
 * inside_gpu.c -- the GPU point-in-solid engine (xg__inside_gpu_run,
 * reached through xg__gpu_inside), host side: the run's stages, their
 * order and the order of their errors.
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
 * while the host checks them (inside_pipe.c).  The points then go
 * through in batches that fit the device memory budget, eight at least
 * for a large set; each batch goes through the device (inside_batch.c:
 * one thread per point, inside_kernels.cu, its hits sorted by (point,
 * solid)), and the CPU threads decide the doubted pairs (rare: the
 * device has the exact stage in doubles too) exactly, in place, then
 * write the batch's records (and outside records) in order
 * (xg__inside_finish, host/inside_finish.c), while the device runs ahead on
 * the next batches (inside_pipe.c).
 */
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"
#include "inside_run.h"

#define MAX_BATCH ((uint64_t)1 << 28)   /* points; 2^32 hits at most */
/* All points go up while the host prepares the solids when they take at
 * most 1/EARLY_SHARE of the device budget. */
#define EARLY_SHARE 2
/* Batches of at most 1/PIPE_BATCHES of the points (but not below
 * PIPE_MIN_BATCH), so that the host finishes one while the device works
 * on the next. */
#define PIPE_BATCHES 8
#define PIPE_MIN_BATCH ((uint64_t)1 << 21)

/* One run's state: what the stages below share. */
struct in_run {
    struct xg_ctx *ctx;
    const struct xg_set *a, *b;
    const struct xg_opts *opt;
    int method;
    xg_gpu_fill_fn fill_fn;     /* the batches' filling pass */
    struct xg_contacts *out;
    struct xg_stats *st;
    struct xg__solids S;
    struct xg_gpu gpu;
    struct xg_dmem m, mp;       /* the solids' arena, the points' */
    struct xg_inside_dev dev;
    struct xg__inside_finish f;
    struct xg_inside_prep pj;
    struct xg_inside_pipe pp;
    const double *d_all;        /* all the points on the device, or NULL */
    uint64_t room, batch, pts;  /* pts: the points' bytes */
    int opened;
};

/* The context's error from a side's own: rc, with its message. */
static int side_error(struct xg_ctx *ctx, const struct xg_ctx *side, int rc)
{
    return rc == XG_OK ? rc : xg__error(ctx, rc, "%s", side->errmsg);
}

/* The error of a run whose threads (or their locks) could not start. */
static int no_threads(struct xg_ctx *ctx)
{
    return xg__error(ctx, XG_ENOMEM, "cannot start threads");
}

/* The filling pass of method: ours, or the seed's where a program linked
 * the benchmark's strategies (gpu_bench.h), else XG_ENOTSUP. */
static int fill_of(struct xg_ctx *ctx, int method, xg_gpu_fill_fn *fn)
{
    const struct xg__gpu_bench *bench;
    int rc;
    *fn = xg__cuda_inside;
    if (method != XG__IN_SEED)
        return XG_OK;
    if ((rc = xg__gpu_bench_get(ctx, "the seed's GPU point-in-solid method",
                                &bench)) != XG_OK)
        return rc;
    *fn = bench->inside_seed;
    return XG_OK;
}

/* The device first, so that the points can go up while the host
 * prepares the solids, when they take at most an EARLY_SHARE of the
 * budget (else, or without the room, each batch uploads its own). */
static int open_device(struct in_run *R)
{
    int rc;
    if (!R->a->n || !R->b->n)
        return XG_OK;
    if ((rc = xg__gpu_open(R->ctx, R->opt, &R->gpu)) != XG_OK)
        return rc;
    R->opened = 1;
    if (R->ctx && R->pts <= R->gpu.budget / EARLY_SHARE &&
        xg__dmem_alloc(R->ctx, &R->mp, &R->pj.d_pts, R->pts) != XG_OK) {
        cudaGetLastError();
        R->pj.d_pts = NULL;
    }
    return XG_OK;
}

/* The preparation stage: the solids prepared and checked beside the
 * points' upload (xg__inside_prep_worker), their times to st. */
static int prepare(struct in_run *R)
{
    struct xg_inside_prep *pj = &R->pj;
    struct xg_ctx *ctx = R->ctx;
    int rc;
    pj->ctx = ctx;
    pj->b = R->b;
    pj->opt = R->opt;
    pj->S = &R->S;
    pj->st = R->st;
    pj->xyz = R->a->xyz;
    pj->n = 3 * R->a->n;
    pj->device = R->gpu.device;
    pj->s = R->gpu.s;
    pj->budget = R->gpu.budget;
    pj->m = &R->m;
    pj->dev = &R->dev;
    /* The points' check first, as xg__pair_begin makes it: here when
     * they do not go up now. */
    if (!pj->d_pts && (rc = xg__inside_check_finite(ctx, R->a, 1)) != XG_OK)
        return rc;
    if (pj->d_pts) {
        pj->up = *ctx;          /* its device, threads and pinned buffers */
        pj->up.progress = NULL;
        pj->up.errmsg[0] = '\0';
    }
    if (pthread_mutex_init(&pj->mu, NULL) != 0)
        return no_threads(ctx);
    if (pthread_cond_init(&pj->cv, NULL) != 0) {
        pthread_mutex_destroy(&pj->mu);
        return no_threads(ctx);
    }
    rc = xg__parallel(pj->d_pts ? 2 : 1, xg__inside_prep_worker, pj);
    pthread_cond_destroy(&pj->cv);
    pthread_mutex_destroy(&pj->mu);
    if (rc != XG_OK)
        return no_threads(ctx);
    /* pinned buffers the upload made on first use are the context's */
    if (pj->d_pts) {
        ctx->gpu = pj->up.gpu;
        ctx->gpu_free = pj->up.gpu_free;
    }
    R->st->seconds[XG_STAGE_PREPARE] += pj->prep_s;
    R->st->seconds[XG_STAGE_UPLOAD] += pj->up_s;
    return XG_OK;
}

/* The preparation's outcome: the points' error first, with the check's
 * message; then the triangles', an open solid's and the preparation's,
 * in the cpu engine's order; then the upload's; then the engine's
 * limits; and the finishes set up. */
static int prepared(struct in_run *R)
{
    struct xg_inside_prep *pj = &R->pj;
    struct xg_ctx *ctx = R->ctx;
    int rc;
    if (pj->d_pts && (pj->a_bad || pj->up_rc != XG_OK) &&
        (rc = xg__inside_check_finite(ctx, R->a, 1)) != XG_OK)
        return rc;
    if ((rc = pj->finite_rc) != XG_OK || (rc = pj->closed_rc) != XG_OK ||
        (rc = pj->rc) != XG_OK ||
        (rc = side_error(ctx, &pj->up, pj->up_rc)) != XG_OK)
        return rc;
    if (R->S.nsolid >= XG__IN_MAX_SOLIDS)
        return xg__error(ctx, XG_ELIMIT, "the gpu engine takes fewer than "
                         "2^30 solids (%zu)", (size_t)R->S.nsolid);
    R->d_all = pj->d_pts;
    if (xg__inside_finish_init(&R->f, &R->S, R->a->xyz, R->a->n, R->method,
                               R->opt->outside, xg__threads(ctx)) != XG_OK)
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    return XG_OK;
}

/* The batches' size: what the budget holds beside the solids (and all
 * the points, when they stay up), at most MAX_BATCH, and PIPE_BATCHES
 * of them at least for a large set.  No triangles: every point is
 * outside, in batches of MAX_BATCH. */
static int plan_batches(struct in_run *R)
{
    const struct xg__solids *S = &R->S;
    uint64_t n = R->a->n, batch, part = (n + PIPE_BATCHES - 1) / PIPE_BATCHES;
    if (S->ntri && n) {
        /* the points up already, when the rest still fits beside them */
        if (R->d_all && !xg__inside_points_stay(S, R->pts, R->gpu.budget)) {
            xg__dmem_free(&R->mp);
            R->d_all = NULL;
        }
        if (xg__inside_resident_bytes(S) +
                64 * (XG_IN_POINT_BYTES + XG_IN_HIT_BYTES) > R->gpu.budget)
            return xg__error(R->ctx, XG_ENOMEM, "the GPU memory budget "
                             "(%llu bytes) does not hold the solids",
                             (unsigned long long)R->gpu.budget);
        R->room = R->gpu.budget - xg__inside_resident_bytes(S) -
                  (R->d_all ? R->pts : 0);
    }
    batch = !S->ntri ? MAX_BATCH
            : R->d_all ? R->room / XG_IN_HIT_BYTES
                       : R->room / (XG_IN_POINT_BYTES + XG_IN_HIT_BYTES);
    if (batch > MAX_BATCH)
        batch = MAX_BATCH;
    /* PIPE_BATCHES at least, so that the host finishes one while the
     * device works on the next */
    if (S->ntri && batch > PIPE_MIN_BATCH && batch > part)
        batch = part > PIPE_MIN_BATCH ? part : PIPE_MIN_BATCH;
    R->batch = batch;
    return XG_OK;
}

/* The batches stage: the solids' upload where the preparation could
 * not make it, then the device's part of each batch beside the finishes
 * of the one before (xg__inside_pipe_run); the finishes' time to st's
 * exact stage, the records' counts to st. */
static int run_batches(struct in_run *R)
{
    struct xg_inside_pipe *pp = &R->pp;
    struct xg_ctx *ctx = R->ctx;
    int rc;
    pp->ctx = ctx;
    pp->gpu = &R->gpu;
    pp->dev = &R->dev;
    pp->a = R->a;
    pp->d_all = R->d_all;
    pp->fill_fn = R->fill_fn;
    pp->device_work = R->S.ntri && R->a->n;
    pp->d_tally = R->pj.d_tally;
    pp->room = R->room;
    pp->batch = R->batch;
    pp->st = R->st;
    pp->f = &R->f;
    pp->out = R->out;
    pp->locked = R->pj.locked;
    R->pj.locked = 0;           /* pp's now */
    if (!R->a->n)
        return XG_OK;
    if (pp->device_work && !R->pj.solids_up) {
        double t0 = xg__now();
        if ((rc = xg__inside_upload_solids(ctx, &R->m, &R->S, &R->dev,
                                           &pp->d_tally)) != XG_OK)
            return rc;
        R->st->seconds[XG_STAGE_UPLOAD] += xg__now() - t0;
    }
    rc = xg__inside_pipe_run(pp);
    R->st->seconds[XG_STAGE_EXACT] += pp->fin_s;
    if (rc != XG_OK)
        return rc;
    /* counted here, so that xg__pair_end need not read them all */
    xg__inside_finish_stats(&R->f, R->st);
    return XG_OK;
}

/* Everything the run holds given back, after an error too: the points'
 * pieces still locked first, then the device arrays, the device, the
 * solids and the finishes (the pipeline gave back the batches' hits). */
static void release(struct in_run *R)
{
    if (R->pj.locked || R->pp.locked)
        xg__gpu_unlock(R->a->xyz, R->a->n * XG_IN_POINT_BYTES,
                       R->pj.locked ? R->pj.locked : R->pp.locked);
    xg__dmem_free(&R->m);
    xg__dmem_free(&R->mp);
    if (R->opened)
        xg__gpu_close(&R->gpu);
    xg__solids_free(&R->S);
    xg__inside_finish_free(&R->f);
}

/* The stages in order; everything the run holds is given back either
 * way (release). */
int xg__inside_gpu_run(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       int method, struct xg_contacts *out,
                       struct xg_stats *st)
{
    struct in_run R;
    int rc;

    xg__gpu_run_begin(a, b, out, st);
    memset(&R, 0, sizeof R);            /* the arenas as XG_DMEM_INIT */
    R.ctx = ctx;
    R.a = a;
    R.b = b;
    R.opt = opt;
    R.method = method;
    R.out = out;
    R.st = st;
    R.pts = a->n * XG_IN_POINT_BYTES;
    if ((rc = fill_of(ctx, method, &R.fill_fn)) == XG_OK &&
        (rc = open_device(&R)) == XG_OK && (rc = prepare(&R)) == XG_OK &&
        (rc = prepared(&R)) == XG_OK && (rc = plan_batches(&R)) == XG_OK)
        rc = run_batches(&R);
    release(&R);
    return rc;
}
