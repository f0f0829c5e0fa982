/*
 * regions_run.c -- the partitioned run of xg_segtri, xg_redblue and
 * xg_inside (exactgeo.h, xg_opts.regions; xg_ctx_set_gpus): the inputs'
 * hull cut into regions (region.c), each region's elements selected by
 * its reach, the operation's single-region engine run on them, the
 * contacts the region owns kept and their indices mapped back, and the
 * regions' lists merged in (a, b) order (the selection is
 * regions_select.c's).  There is no de-duplication to do: the ownership
 * rule is a contact's own point, so each contact is kept by exactly one
 * region, whatever the grid or subset of its run.
 *
 * Who runs what: one worker per device for the gpu engine over several
 * devices, else one worker (the regions one after the other, each with
 * every thread).  Workers take the next region from a shared counter, so
 * a fast device takes more; every region's answer lands in its own slot
 * and the merge reads the slots in region order, so the output does not
 * depend on which worker ran which region, nor when.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xg_thread.h"
#include "xg_ctx.h"
#include "xg_mem.h"
#include "xg_sets.h"
#include "xg_gpu.h"
#include "xg_pair.h"
#include "xg_regions.h"

/* What one worker holds: its context, and its first failure (a worker
 * stops at its first, and takes regions in ascending order, so that is
 * its lowest). */
struct worker {
    struct xg_ctx *ctx;
    struct xg_opts opt;         /* the regions' options on its device */
    int fail_region, rc;
    char msg[sizeof ((struct xg_ctx *)0)->errmsg];
};

struct runner {
    const struct xg__region_op *rop;
    const struct xg_set *a, *b;
    struct xg_region *reg;             /* per region: its plan */
    int nreg, nworkers;
    struct xg__picks pa, pb;
    struct xg_contacts *out;          /* per region */
    struct xg_stats *st;              /* per region */
    struct worker *w;
    atomic_int next, done, stop;
    int cancelled;
    xg_progress_fn progress;          /* the caller's, called by worker 0 */
    void *progress_user;
};

/* Set s's elements idx[0 .. n-1] as a set of their own. */
static int subset(const struct xg_set *s, const uint32_t *idx, size_t n,
                  struct xg_set *out)
{
    size_t per = (size_t)xg_elem_doubles(s->elem), i;
    memset(out, 0, sizeof *out);
    out->elem = s->elem;
    out->xyz = xg__big_alloc((n ? n : 1) * per * sizeof(double));
    out->fid = malloc((n ? n : 1) * sizeof *out->fid);
    out->sub = malloc((n ? n : 1) * sizeof *out->sub);
    if (!out->xyz || !out->fid || !out->sub) {
        xg_set_free(out);
        return XG_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        memcpy(out->xyz + per * i, s->xyz + per * idx[i],
               per * sizeof(double));
        out->fid[i] = s->fid[idx[i]];
        out->sub[i] = s->sub[idx[i]];
    }
    out->n = out->cap = n;
    return XG_OK;
}

/* Region k on ctx: its elements, the op's engine, the contacts it owns,
 * their indices in the whole sets. */
static int run_region(struct runner *R, const struct worker *me, int k)
{
    const uint32_t *ia = R->pa.idx + R->pa.start[k],
                   *ib = R->pb.idx + R->pb.start[k];
    struct xg_set a, b;
    struct xg_contacts *out = &R->out[k];
    size_t i;
    int rc;
    if (subset(R->a, ia, R->pa.start[k + 1] - R->pa.start[k], &a) != XG_OK)
        return xg__error(me->ctx, XG_ENOMEM, "out of memory");
    if (subset(R->b, ib, R->pb.start[k + 1] - R->pb.start[k], &b) != XG_OK) {
        xg_set_free(&a);
        return xg__error(me->ctx, XG_ENOMEM, "out of memory");
    }
    rc = R->rop->run(me->ctx, &a, &b, &me->opt, out, &R->st[k]);
    xg_set_free(&a);
    xg_set_free(&b);
    if (rc != XG_OK)
        return rc;
    xg_contacts_keep_owned(out, &R->reg[k]);
    /* ascending maps: the region's (a, b) order is the whole run's */
    for (i = 0; i < out->n; i++) {
        out->v[i].a = ia[out->v[i].a];
        if (out->v[i].b != UINT32_MAX)      /* inside's outside record */
            out->v[i].b = ib[out->v[i].b];
    }
    return XG_OK;
}

/* Worker w: takes the next region until none is left or the run
 * stops; a failure stops the run with its region and message in w's
 * slot; worker 0 reports progress on the caller's thread. */
static void region_worker(void *arg, int w)
{
    struct runner *R = arg;
    struct worker *me = &R->w[w];
    while (!atomic_load(&R->stop)) {
        int k = atomic_fetch_add(&R->next, 1), done, rc;
        if (k >= R->nreg)
            break;
        if ((rc = run_region(R, me, k)) != XG_OK) {
            me->fail_region = k;
            me->rc = rc;
            memcpy(me->msg, me->ctx->errmsg, sizeof me->msg);
            atomic_store(&R->stop, 1);
            break;
        }
        done = atomic_fetch_add(&R->done, 1) + 1;
        /* the caller's callback, on the caller's thread only */
        if (w == 0 && R->progress &&
            R->progress((double)done / R->nreg, R->progress_user)) {
            R->cancelled = 1;
            atomic_store(&R->stop, 1);
        }
    }
}

/* The workers' contexts: worker 0 runs on the caller's (its progress
 * taken out: the runner reports it), the others on new ones bound to
 * their device.  The threads are shared among the workers. */
static int workers_open(struct xg_ctx *ctx, struct runner *R,
                        const struct xg_opts *opt)
{
    int w, v, threads = xg__threads(ctx) / R->nworkers;
    R->progress = ctx->progress;
    R->progress_user = ctx->progress_user;
    for (w = 0; w < R->nworkers; w++) {
        struct xg_ctx *c = w == 0 ? ctx : xg_ctx_new();
        int same = 0;
        R->w[w].fail_region = INT_MAX;
        R->w[w].opt = *opt;
        /* a device listed twice shares its memory among its workers */
        for (v = 0; v < R->nworkers; v++)
            same += ctx->gpus[v] == ctx->gpus[w];
        if (R->nworkers > 1)
            R->w[w].opt.gpu_mem_cap /= (size_t)same;
        if (!c)
            return XG_ENOMEM;
        R->w[w].ctx = c;
        if (w > 0) {
            c->gpus[0] = ctx->gpus[w];
            c->nthreads = threads > 0 ? threads : 1;
        }
    }
    ctx->progress = NULL;
    ctx->progress_user = NULL;
    return XG_OK;
}

/* The workers' contexts freed (worker 0's is the caller's), ctx's
 * progress and thread count as they were. */
static void workers_close(struct xg_ctx *ctx, struct runner *R,
                          int nthreads)
{
    int w;
    for (w = 1; w < R->nworkers; w++)
        xg_ctx_free(R->w[w].ctx);
    ctx->progress = R->progress;
    ctx->progress_user = R->progress_user;
    ctx->nthreads = nthreads;
}

/* xg_stats_add_work (exactgeo.h). */
void xg_stats_add_work(struct xg_stats *dst, const struct xg_stats *src,
                       int workers)
{
    int j;
    dst->grid_refs_a += src->grid_refs_a;
    dst->grid_refs_b += src->grid_refs_b;
    dst->candidates += src->candidates;
    dst->bbox_pairs += src->bbox_pairs;
    dst->deferred += src->deferred;
    xg_counters_add(&dst->cnt, &src->cnt);
    for (j = 0; j < XG_STAGE_COUNT; j++)
        dst->seconds[j] += src->seconds[j] / workers;
}

/* The regions' stats into st (whose whole-run counts are set): the
 * largest grid, the skipped elements once each, the work. */
static void stats_add(struct runner *R, struct xg_stats *st)
{
    int k, j;
    for (k = 0; k < R->nreg; k++) {
        const struct xg_stats *s = &R->st[k];
        for (j = 0; j < 3; j++)
            if (s->grid[j] > st->grid[j])
                st->grid[j] = s->grid[j];
        st->a_skipped += s->a_skipped;
        st->b_skipped += s->b_skipped;
        xg_stats_add_work(st, s, R->nworkers);
    }
    /* a degenerate element in several regions was counted by each */
    st->a_skipped -= R->pa.extra;
    st->b_skipped -= R->pb.extra;
}

/* R set for a partitioned run of rop over a and b in nreg regions on
 * engine: its per-region slots and its workers (one per device for the
 * gpu engine over several, else one); XG_OK or XG_ENOMEM (what was
 * allocated is runner_close's to free either way). */
static int runner_open(struct runner *R, const struct xg_ctx *ctx,
                       const struct xg__region_op *rop,
                       const struct xg_set *a, const struct xg_set *b,
                       int nreg, int engine)
{
    memset(R, 0, sizeof *R);
    R->rop = rop;
    R->a = a;
    R->b = b;
    R->nreg = nreg;
    R->nworkers = engine == XG_ENGINE_GPU ? ctx->ngpus : 1;
    atomic_init(&R->next, 0);
    atomic_init(&R->done, 0);
    atomic_init(&R->stop, 0);
    R->reg = malloc((size_t)nreg * sizeof *R->reg);
    R->out = calloc((size_t)nreg, sizeof *R->out);
    R->st = calloc((size_t)nreg, sizeof *R->st);
    R->w = calloc((size_t)R->nworkers, sizeof *R->w);
    return R->reg && R->out && R->st && R->w ? XG_OK : XG_ENOMEM;
}

/* Frees what R holds (runner_open's, the picks, the regions' contacts). */
static void runner_close(struct runner *R)
{
    if (R->out) {
        int k;
        for (k = 0; k < R->nreg; k++)
            xg_contacts_free(&R->out[k]);
    }
    free(R->out);
    free(R->st);
    free(R->w);
    xg__picks_free(&R->pa);
    xg__picks_free(&R->pb);
    free(R->reg);
}

/* The regions' runs on R's workers, ctx's threads shared among them;
 * then the run's answer: rc (XG_ENOMEM when the workers could not
 * start), else the lowest region's failure, whichever worker ran it
 * (every region below it was taken, and ran to its end), else a cancel,
 * each with its message in ctx. */
static int run_regions(struct xg_ctx *ctx, struct runner *R,
                       const struct xg_opts *ropt, const struct xg_set *b,
                       int nthreads)
{
    int ctx_threads = ctx->nthreads, wf = -1, w, rc = XG_OK;
    if (workers_open(ctx, R, ropt) != XG_OK) {
        workers_close(ctx, R, ctx_threads);
        return xg__error(ctx, XG_ENOMEM, "out of memory");
    }
    if (R->nworkers > 1)
        ctx->nthreads = R->w[1].ctx->nthreads;
    if (xg__parallel(R->nworkers, region_worker, R) != XG_OK)
        rc = XG_ENOMEM;
    workers_close(ctx, R, ctx_threads);
    for (w = 0; w < R->nworkers; w++)
        if (R->w[w].rc != XG_OK &&
            (wf < 0 || R->w[w].fail_region < R->w[wf].fail_region))
            wf = w;
    if (rc != XG_OK)
        return xg__error(ctx, rc, "out of memory");
    if (wf >= 0) {
        rc = xg__error(ctx, R->w[wf].rc, "%s", R->w[wf].msg);
        /* the whole run's message: a region names its first open
         * solid, the whole run B's first */
        if (rc == XG_EFORMAT && R->rop->recheck &&
            R->rop->recheck(ctx, b, nthreads) != XG_EFORMAT)
            xg__error(ctx, rc, "%s", R->w[wf].msg);
        return rc;
    }
    if (R->cancelled)
        return xg__error(ctx, XG_ECANCEL, "cancelled");
    return XG_OK;
}

/* The gather: the regions' contacts merged into out in (a, b) order,
 * and st's kinds counted from them.  XG_OK, or XG_ENOMEM with its
 * message. */
static int gather(struct xg_ctx *ctx, struct runner *R,
                  struct xg_contacts *out, struct xg_stats *st)
{
    const struct xg_contacts **lists;
    size_t i;
    int k, rc;
    if (!(lists = malloc((size_t)R->nreg * sizeof *lists)))
        return xg__error(ctx, XG_ENOMEM, "out of memory while merging the "
                                         "regions");
    for (k = 0; k < R->nreg; k++)
        lists[k] = &R->out[k];
    rc = xg__contacts_merge(lists, (size_t)R->nreg, out);
    free(lists);
    if (rc != XG_OK)
        return xg__error(ctx, rc, "out of memory while merging the regions");
    memset(st->contacts, 0, sizeof st->contacts);
    for (i = 0; i < out->n; i++)
        st->contacts[out->v[i].kind]++;
    return XG_OK;
}

/* xg__regions_run (xg_regions.h): select, run the regions, gather,
 * each step timed into st and times. */
int xg__regions_run(struct xg_ctx *ctx, const struct xg__region_op *rop,
                    const struct xg_set *a, const struct xg_set *b,
                    const struct xg_opts *opt, int nreg,
                    struct xg_contacts *out, struct xg_stats *st,
                    struct xg__regions_times *times)
{
    struct runner R;
    struct xg_opts ropt;
    struct xg__regions_times tm = {0, 0, 0};
    double t0, t1;
    int engine, rc, nthreads;

    if (times)
        *times = tm;
    rc = xg__pair_begin(ctx, rop->ops, a, b, opt, out, st, &engine);
    if (rc != XG_OK)
        return rc;
    if (nreg < 1 || nreg > XG_REGIONS_MAX)
        return xg__pair_end(ctx, xg__error(ctx, XG_EINVAL, "%d regions: a "
                                           "run takes 1 to %d", nreg,
                                           XG_REGIONS_MAX),
                            out, st);
    t0 = xg__now();
    nthreads = engine == XG_ENGINE_SEQ ? 1 : xg__threads(ctx);
    ropt = *opt;
    ropt.regions = 1;
    ropt.engine = engine;
    st->regions = nreg;
    rc = runner_open(&R, ctx, rop, a, b, nreg, engine);
    st->gpus = engine == XG_ENGINE_GPU ? R.nworkers : 0;
    if (rc != XG_OK ||
        xg__regions_select(rop, a, b, nreg, nthreads, R.reg, &R.pa, &R.pb,
                           &st->cnt) != XG_OK) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory while selecting the "
                                       "regions' elements");
        goto out;
    }
    t1 = xg__now();
    st->seconds[XG_STAGE_PREPARE] = tm.select = t1 - t0;
    rc = run_regions(ctx, &R, &ropt, b, nthreads);
    t0 = xg__now();
    tm.compute = t0 - t1;
    if (rc != XG_OK)
        goto out;
    stats_add(&R, st);
    if ((rc = gather(ctx, &R, out, st)) != XG_OK)
        goto out;
    t1 = xg__now();
    st->seconds[XG_STAGE_UNIQUE] += tm.gather = t1 - t0;
out:
    if (times)
        *times = tm;
    runner_close(&R);
    return xg__pair_end(ctx, rc, out, st);
}

/* xg__regions_entry (xg_regions.h): the memory check, then regions
 * when asked or when the gpu engine has several devices. */
int xg__regions_entry(struct xg_ctx *ctx, const struct xg__region_op *rop,
                      const struct xg_set *a, const struct xg_set *b,
                      const struct xg_opts *opt, struct xg_contacts *out,
                      struct xg_stats *st)
{
    struct xg_stats local;
    struct xg_opts defaults;
    int n, rc;
    if (!st)
        st = &local;
    if (!opt) {
        memset(&defaults, 0, sizeof defaults);
        opt = &defaults;
    }
    if (ctx && a && b &&
        (rc = xg__memory_check(ctx, rop->op, a->n, b->n,
                               opt->outside ? a->n : 0)) != XG_OK) {
        memset(st, 0, sizeof *st);
        if (out)
            xg_contacts_free(out);
        return rc;
    }
    n = opt->regions;
    /* several devices for the gpu engine: regions even when not asked */
    if (n <= 1 && ctx && ctx->ngpus > 1 &&
        (opt->engine == XG_ENGINE_GPU ||
         (opt->engine == XG_ENGINE_AUTO && xg__gpu_usable(ctx))))
        n = XG_REGIONS_PER_GPU * ctx->ngpus;
    if (n <= 1)
        return rop->run(ctx, a, b, opt, out, st);
    return xg__regions_run(ctx, rop, a, b, opt, n, out, st, NULL);
}
