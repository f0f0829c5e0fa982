/*
 * regions_run.c -- the partitioned run of xg_segtri, xg_redblue and
 * xg_inside (exactgeo.h, xg_opts.regions; xg_ctx_set_gpus): the inputs'
 * hull cut into regions (region.c), each region's elements selected by
 * its reach, the operation's single-region engine run on them, the
 * contacts the region owns kept and their indices mapped back, and the
 * regions' lists merged in (a, b) order.  There is no de-duplication to
 * do: the ownership rule is a contact's own point, so each contact is
 * kept by exactly one region, whatever the grid or subset of its run.
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
#include "xg_inside.h"
#include "xg_thread.h"

/* ---- selection: each set's elements per region ---- */

/* The regions' elements of one set: region k's are idx[start[k] ..
 * start[k+1]-1], ascending, so that a region's run sees them in the
 * whole set's order (and its (a, b) order maps to the whole run's). */
struct picks {
    size_t *start;
    uint32_t *idx;
};

struct select_job {
    const struct xg__region_op *rop;
    const struct xg_set *s;
    int side;                   /* 0: A, 1: B */
    const struct xg_region *reg;
    const double (*reach)[4];
    int nreg, nthreads, pass;   /* 0: hull; 1: count; 2: fill */
    /* B of an operation on solids: each triangle's solid and the
     * solids' boxes (6 doubles each) */
    const uint32_t *solid_of;
    const double *solid_box;
    size_t *at;                 /* per thread and region: count, then
                                   where the next goes */
    uint8_t *none;              /* per element: goes to no region (the
                                   counting pass's finding, which the
                                   fill pass reads rather than redo) */
    uint64_t *skipped;          /* per thread */
    struct xg_counters *cnt;    /* per thread */
    double *hull;               /* per thread: xmin, ymin, xmax, ymax */
    uint32_t *idx;
};

/* Element i of J's set. */
static const double *elem_at(const struct select_job *J, size_t i)
{
    return J->s->xyz + (size_t)xg_elem_doubles(J->s->elem) * i;
}

/* Element i's box (6 doubles; x and y are what the selection reads): the
 * hull of its coordinates, or its solid's box for a triangle of a solid
 * (a solid is taken whole, collinear triangles too: a region's run must
 * see the whole surface).  No degenerate test: that is select_box's. */
static void raw_box(const struct select_job *J, size_t i, double box[6])
{
    const double *e = elem_at(J, i);
    if (J->solid_box)
        memcpy(box, J->solid_box + 6 * (size_t)J->solid_of[i],
               6 * sizeof *box);
    else if (J->s->elem == XG_ELEM_POINT) {
        memcpy(box, e, 3 * sizeof *box);
        memcpy(box + 3, e, 3 * sizeof *box);
    } else if (J->s->elem == XG_ELEM_SEGMENT)
        xg__seg_box(e, box);
    else
        xg__tri_box(e, box);
}

/* Whether element i goes to no region (1) or to those its box meets
 * (0): the op's box function decides whether the engines skip it
 * (*degenerate, counted in a_skipped / b_skipped); a triangle of a solid
 * goes with its solid all the same. */
static int select_box(const struct select_job *J, struct xg_counters *cnt,
                      size_t i, int *degenerate)
{
    const struct xg__pair_ops *ops = J->rop->ops;
    double box[6];
    *degenerate = J->side ? ops->b_box(cnt, elem_at(J, i), box)
                          : ops->a_box(cnt, elem_at(J, i), box);
    return J->solid_box ? 0 : *degenerate;
}

/* Whether element (box) goes to region k: its box meets k's reach, or,
 * for A of an operation on solids, k owns its point. */
static int goes_to(const struct select_job *J, const double box[6], int k)
{
    const double *r = J->reach[k];
    if (J->rop->solids && J->side == 0)
        return xg_region_owns(&J->reg[k], box);
    return box[0] <= r[2] && box[3] >= r[0] && box[1] <= r[3] &&
           box[4] >= r[1];
}

/* Pass 0: the set's hull (any hull gives the same answer, so degenerate
 * elements may widen it); 1: each element's degenerate test (once) and
 * the count of each region's elements; 2: their indices. */
static void select_worker(void *arg, int tid)
{
    struct select_job *J = arg;
    size_t lo, hi, i, *at = J->at + (size_t)tid * (size_t)J->nreg;
    double *h = J->hull + 4 * tid;
    int k, degenerate;
    xg__share(J->s->n, J->nthreads, tid, &lo, &hi);
    for (i = lo; i < hi; i++) {
        double box[6];
        if (J->pass == 1) {
            J->none[i] = (uint8_t)select_box(J, &J->cnt[tid], i,
                                             &degenerate);
            J->skipped[tid] += degenerate != 0;
        }
        if (J->pass > 0 && J->none[i])
            continue;
        raw_box(J, i, box);
        if (J->pass == 0) {
            for (k = 0; k < 2; k++) {
                if (box[k] < h[k])
                    h[k] = box[k];
                if (box[3 + k] > h[2 + k])
                    h[2 + k] = box[3 + k];
            }
            continue;
        }
        for (k = 0; k < J->nreg; k++)
            if (goes_to(J, box, k)) {
                if (J->pass == 1)
                    at[k]++;
                else
                    J->idx[at[k]++] = (uint32_t)i;
            }
    }
}

/* Each triangle's solid (xg__solids_group) and each solid's box, the
 * hull of its triangles' (collinear ones too). */
static int solid_boxes(const struct xg_set *b, uint32_t **solid_of,
                       double **solid_box)
{
    uint32_t *order = NULL, *start = NULL;
    size_t nsolid = 0, s, j;
    int k;
    *solid_of = malloc((b->n ? b->n : 1) * sizeof **solid_of);
    order = malloc((b->n ? b->n : 1) * sizeof *order);
    if (!*solid_of || !order ||
        (b->n && xg__solids_group(b, order, &start, &nsolid) != XG_OK)) {
        free(order);
        return XG_ENOMEM;
    }
    if (!(*solid_box = malloc((nsolid ? nsolid : 1) * 6 * sizeof(double)))) {
        free(order);
        free(start);
        return XG_ENOMEM;
    }
    for (s = 0; s < nsolid; s++) {
        double *sb = *solid_box + 6 * s;
        for (j = start[s]; j < start[s + 1]; j++) {
            double tb[6];
            xg__tri_box(b->xyz + 9 * (size_t)order[j], tb);
            for (k = 0; k < 3; k++) {
                if (j == start[s] || tb[k] < sb[k])
                    sb[k] = tb[k];
                if (j == start[s] || tb[3 + k] > sb[3 + k])
                    sb[3 + k] = tb[3 + k];
            }
            (*solid_of)[order[j]] = (uint32_t)s;
        }
    }
    free(order);
    free(start);
    return XG_OK;
}

/* Runs one pass of J over its set on its threads. */
static int select_pass(struct select_job *J, int pass)
{
    J->pass = pass;
    return xg__parallel(J->nthreads, select_worker, J);
}

/* The picks of one set once the regions are known: count, offsets in
 * region then thread order (so that each region's list ascends), fill.
 * Adds the set's degenerate elements to *skipped and the predicates to
 * cnt. */
static int select_set(struct select_job *J, struct picks *p,
                      uint64_t *skipped, struct xg_counters *cnt)
{
    size_t nreg = (size_t)J->nreg, k, t, sum = 0;
    memset(J->at, 0, (size_t)J->nthreads * nreg * sizeof *J->at);
    memset(J->skipped, 0, (size_t)J->nthreads * sizeof *J->skipped);
    memset(J->cnt, 0, (size_t)J->nthreads * sizeof *J->cnt);
    free(J->none);
    if (!(J->none = malloc(J->s->n ? J->s->n : 1)) ||
        select_pass(J, 1) != XG_OK)
        return XG_ENOMEM;
    p->start = malloc((nreg + 1) * sizeof *p->start);
    if (!p->start)
        return XG_ENOMEM;
    for (k = 0; k < nreg; k++) {
        p->start[k] = sum;
        for (t = 0; t < (size_t)J->nthreads; t++) {
            size_t n = J->at[t * nreg + k];
            J->at[t * nreg + k] = sum;
            sum += n;
        }
    }
    p->start[nreg] = sum;
    for (t = 0; t < (size_t)J->nthreads; t++) {
        *skipped += J->skipped[t];
        xg_counters_add(cnt, &J->cnt[t]);
    }
    if (!(p->idx = xg__big_alloc((sum ? sum : 1) * sizeof *p->idx)))
        return XG_ENOMEM;
    J->idx = p->idx;
    return select_pass(J, 2);
}

/* ---- the regions' runs ---- */

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
    const struct xg_region *reg;
    int nreg, nworkers;
    struct picks pa, pb;
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

/* The regions' stats into st (whose whole-run counts are set). */
static void stats_add(struct runner *R, struct xg_stats *st)
{
    int k, j;
    for (k = 0; k < R->nreg; k++) {
        const struct xg_stats *s = &R->st[k];
        for (j = 0; j < 3; j++)
            if (s->grid[j] > st->grid[j])
                st->grid[j] = s->grid[j];
        st->grid_refs_a += s->grid_refs_a;
        st->grid_refs_b += s->grid_refs_b;
        st->candidates += s->candidates;
        st->bbox_pairs += s->bbox_pairs;
        st->deferred += s->deferred;
        xg_counters_add(&st->cnt, &s->cnt);
        for (j = 0; j < XG_STAGE_COUNT; j++)
            st->seconds[j] += s->seconds[j] / R->nworkers;
    }
}

/* The (x, y) hull of both sets (their elements' boxes, degenerate ones
 * left out); the point 0 when there is none. */
static int hull_of(struct select_job *J, const struct xg_set *a,
                   const uint32_t *solid_of, const double *solid_box,
                   const struct xg_set *b, double lo[2], double hi[2])
{
    int side, t, k;
    for (k = 0; k < 2; k++) {
        lo[k] = HUGE_VAL;
        hi[k] = -HUGE_VAL;
    }
    for (side = 0; side < 2; side++) {
        J->s = side ? b : a;
        J->side = side;
        J->solid_of = side ? solid_of : NULL;
        J->solid_box = side ? solid_box : NULL;
        for (t = 0; t < J->nthreads; t++)
            for (k = 0; k < 2; k++) {
                J->hull[4 * t + k] = HUGE_VAL;
                J->hull[4 * t + 2 + k] = -HUGE_VAL;
            }
        if (select_pass(J, 0) != XG_OK)
            return XG_ENOMEM;
        for (t = 0; t < J->nthreads; t++)
            for (k = 0; k < 2; k++) {
                if (J->hull[4 * t + k] < lo[k])
                    lo[k] = J->hull[4 * t + k];
                if (J->hull[4 * t + 2 + k] > hi[k])
                    hi[k] = J->hull[4 * t + 2 + k];
            }
    }
    if (!(lo[0] <= hi[0] && lo[1] <= hi[1]))
        lo[0] = lo[1] = hi[0] = hi[1] = 0.0;
    return XG_OK;
}

int xg__regions_run(struct xg_ctx *ctx, const struct xg__region_op *rop,
                    const struct xg_set *a, const struct xg_set *b,
                    const struct xg_opts *opt, int nreg,
                    struct xg_contacts *out, struct xg_stats *st,
                    struct xg__regions_times *times)
{
    struct runner R;
    struct select_job J;
    struct xg_opts ropt;
    struct xg_region *reg = NULL;
    double (*reach)[4] = NULL, lo[2], hi[2], t0, t1;
    uint32_t *solid_of = NULL;
    double *solid_box = NULL;
    const struct xg_contacts **lists = NULL;
    int engine, rc, k, nthreads, ctx_threads = ctx->nthreads;

    memset(&R, 0, sizeof R);
    memset(&J, 0, sizeof J);
    if (times)
        memset(times, 0, sizeof *times);
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
    R.rop = rop;
    R.a = a;
    R.b = b;
    ropt = *opt;
    ropt.regions = 1;
    ropt.engine = engine;
    R.nreg = nreg;
    R.nworkers = engine == XG_ENGINE_GPU ? ctx->ngpus : 1;
    st->regions = nreg;
    st->gpus = engine == XG_ENGINE_GPU ? R.nworkers : 0;
    atomic_init(&R.next, 0);
    atomic_init(&R.done, 0);
    atomic_init(&R.stop, 0);

    /* selection: the solids' boxes, the hull, the plan, the picks */
    J.rop = rop;
    J.nthreads = nthreads;
    J.nreg = nreg;
    reg = malloc((size_t)nreg * sizeof *reg);
    reach = malloc((size_t)nreg * sizeof *reach);
    J.at = calloc((size_t)nthreads * (size_t)nreg, sizeof *J.at);
    J.skipped = calloc((size_t)nthreads, sizeof *J.skipped);
    J.cnt = calloc((size_t)nthreads, sizeof *J.cnt);
    J.hull = malloc((size_t)nthreads * 4 * sizeof *J.hull);
    R.out = calloc((size_t)nreg, sizeof *R.out);
    R.st = calloc((size_t)nreg, sizeof *R.st);
    R.w = calloc((size_t)R.nworkers, sizeof *R.w);
    lists = malloc((size_t)nreg * sizeof *lists);
    if (!reg || !reach || !J.at || !J.skipped || !J.cnt || !J.hull ||
        !R.out || !R.st || !R.w || !lists ||
        (rop->solids && solid_boxes(b, &solid_of, &solid_box) != XG_OK) ||
        hull_of(&J, a, solid_of, solid_box, b, lo, hi) != XG_OK) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory while selecting the "
                                       "regions' elements");
        goto out;
    }
    xg_regions_plan(lo, hi, nreg, reg);
    for (k = 0; k < nreg; k++)
        xg_region_reach(&reg[k], reach[k]);
    J.reg = reg;
    J.reach = (const double(*)[4])reach;
    J.s = a;
    J.side = 0;
    J.solid_of = NULL;
    J.solid_box = NULL;
    if (select_set(&J, &R.pa, &st->a_skipped, &st->cnt) != XG_OK) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory while selecting the "
                                       "regions' elements");
        goto out;
    }
    J.s = b;
    J.side = 1;
    J.solid_of = solid_of;
    J.solid_box = solid_box;
    if (select_set(&J, &R.pb, &st->b_skipped, &st->cnt) != XG_OK) {
        rc = xg__error(ctx, XG_ENOMEM, "out of memory while selecting the "
                                       "regions' elements");
        goto out;
    }
    R.reg = reg;
    t1 = xg__now();
    st->seconds[XG_STAGE_PREPARE] = t1 - t0;
    if (times)
        times->select = t1 - t0;

    /* the regions' runs */
    if (workers_open(ctx, &R, &ropt) != XG_OK) {
        workers_close(ctx, &R, ctx_threads);
        rc = xg__error(ctx, XG_ENOMEM, "out of memory");
        goto out;
    }
    if (R.nworkers > 1)
        ctx->nthreads = R.w[1].ctx->nthreads;
    if (xg__parallel(R.nworkers, region_worker, &R) != XG_OK)
        rc = XG_ENOMEM;
    workers_close(ctx, &R, ctx_threads);
    t0 = xg__now();
    if (times)
        times->compute = t0 - t1;
    {
        /* the lowest region that failed, whichever worker ran it: every
         * region below it was taken, and ran to its end */
        int wf = -1, w;
        for (w = 0; w < R.nworkers; w++)
            if (R.w[w].rc != XG_OK &&
                (wf < 0 || R.w[w].fail_region < R.w[wf].fail_region))
                wf = w;
        if (rc != XG_OK) {
            rc = xg__error(ctx, rc, "out of memory");
        } else if (wf >= 0) {
            rc = xg__error(ctx, R.w[wf].rc, "%s", R.w[wf].msg);
            /* the whole run's message: a region names its first open
             * solid, the whole run B's first */
            if (rc == XG_EFORMAT && rop->recheck &&
                rop->recheck(ctx, b, nthreads) != XG_EFORMAT)
                xg__error(ctx, rc, "%s", R.w[wf].msg);
        } else if (R.cancelled) {
            rc = xg__error(ctx, XG_ECANCEL, "cancelled");
        }
    }
    if (rc != XG_OK)
        goto out;
    stats_add(&R, st);

    /* the gather */
    for (k = 0; k < nreg; k++)
        lists[k] = &R.out[k];
    if ((rc = xg__contacts_merge(lists, (size_t)nreg, out)) != XG_OK) {
        rc = xg__error(ctx, rc, "out of memory while merging the regions");
        goto out;
    }
    memset(st->contacts, 0, sizeof st->contacts);
    {
        size_t i;
        for (i = 0; i < out->n; i++)
            st->contacts[out->v[i].kind]++;
    }
    t1 = xg__now();
    st->seconds[XG_STAGE_UNIQUE] += t1 - t0;
    if (times)
        times->gather = t1 - t0;
out:
    if (R.out)
        for (k = 0; k < nreg; k++)
            xg_contacts_free(&R.out[k]);
    free(R.out);
    free(R.st);
    free(R.w);
    free(R.pa.start);
    free(R.pa.idx);
    free(R.pb.start);
    free(R.pb.idx);
    free(lists);
    free(reg);
    free(reach);
    free(J.at);
    free(J.skipped);
    free(J.cnt);
    free(J.hull);
    free(J.none);
    free(solid_of);
    free(solid_box);
    return xg__pair_end(ctx, rc, out, st);
}

int xg__regions_entry(struct xg_ctx *ctx, const struct xg__region_op *rop,
                      const struct xg_set *a, const struct xg_set *b,
                      const struct xg_opts *opt, struct xg_contacts *out,
                      struct xg_stats *st)
{
    struct xg_stats local;
    struct xg_opts defaults;
    int n;
    if (!st)
        st = &local;
    if (!opt) {
        memset(&defaults, 0, sizeof defaults);
        opt = &defaults;
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
