/*
 * pair_engine.c -- the CPU engines shared by every pair problem
 * (segment-triangle in 3D, red/blue segments in 2D).
 *
 * seq is the paper's sequential baseline: iterate the grid's cells, test
 * each pair's boxes, evaluate the predicates.  A pair met in several
 * cells is evaluated only in the cell that holds the lowest corner of the
 * intersection of the two boxes (the ownership rule), so no contact
 * appears twice and no de-duplication pass is needed.  cpu runs on
 * several threads, which take tasks as they go: when A's elements are
 * segments, each segment walks the cells it passes through (pair_walk.c)
 * instead of every cell of its box, and each pair goes to one cell of
 * the walk (xg__segwalk_owns), so box pairs far from the segment are never
 * evaluated; otherwise it runs seq's loop with the cells cut into tasks
 * of bounded work.  Every pair that meets is evaluated once either way,
 * by the same fast and exact stages, so the engines differ only in speed
 * (and in how many box pairs they evaluate).
 * What a pair is (its boxes, its fast and exact stages) comes from a
 * struct xg__pair_ops; where its contacts go (a list in (a, b) order, or
 * a reduction into per-element state) from a struct xg__pair_sink.  The
 * boxes and the grid are pair_prepare.c's; the checks before a run and
 * the counts after, pair_begin.c's.
 *
 * Cancellation: the progress callback runs on the calling thread only
 * (thread 0 of the workers), at 0 before any work, then as thread 0
 * takes tasks (about every 1% of them), and at 1 when the work is done.
 * A non-zero answer sets the run's stop flag, which every worker reads before each task; the run
 * returns XG_ECANCEL whichever call asked for it, the last one included,
 * so a cancel can never be lost to a fast finish.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_grid.h"
#include "xg_mem.h"
#include "xg_sets.h"
#include "xg_pair.h"
#include "xg_boxes.h"
#include "xg_thread.h"

/* Most pairs in one task; larger cells are cut along A. */
#define TASK_WORK ((uint64_t)1 << 15)
#define TASK_GRAB 4

struct task {
    uint32_t cell, a_lo, a_hi;
};

/* The contacts of one walk task (a run of A's segments), in the store
 * of the thread that took it: contacts from..from+n-1 of that stream. */
struct slice {
    size_t from, n;
    int tid;
};

struct worker {
    struct xg_contacts out;     /* emit: this thread's contacts (the walk:
                                   the current segment's) */
    struct xg__cstore store;    /* the walk: this thread's tasks' contacts */
    struct xg_counters cnt;
    uint64_t bbox_pairs, deferred, kinds[XG_KIND_COUNT];
    int rc;
    char pad[64];
};

struct run {
    struct xg_ctx *ctx;
    const struct xg_grid *g;
    const struct xg__pair_ops *ops;
    const struct xg__pair_sink *sink;   /* NULL: emit contacts */
    const double *a, *b;
    size_t na, nb;
    struct task *tasks;
    size_t ntasks;
    size_t walk;                /* > 0: walk A's segments, this many a task */
    struct slice *slices;       /* the walk: per task */
    atomic_size_t next;
    atomic_int stop;            /* cancel asked, or a worker failed */
    struct worker *w;
    int nthreads;
};

/* Called by thread 0 only, when done of the run's tasks are taken. */
static void report_progress(struct run *r, size_t done)
{
    if (r->ntasks &&
        xg__cancelled_at(r->ctx, (double)done / (double)r->ntasks))
        atomic_store(&r->stop, 1);
}

/* Evaluates pair (i, j), whose boxes meet, and emits or reduces its
 * contact.  Returns XG_OK or the sink's error. */
static int evaluate(struct run *r, struct worker *w, int tid, uint32_t i,
                    const double *ea, uint32_t j)
{
    const struct xg__pair_ops *ops = r->ops;
    const struct xg__pair_sink *sink = r->sink;
    size_t sb = (size_t)xg_elem_doubles(ops->b_elem);
    struct xg_contact ct;
    int hit;
    w->bbox_pairs++;
    hit = ops->fast(&w->cnt, ea, r->b + sb * j, &ct);
    if (hit < 0) {
        w->deferred++;
        hit = ops->exact(&w->cnt, ea, r->b + sb * j, &ct);
    }
    if (!hit)
        return XG_OK;
    ct.a = i;
    ct.b = j;
    ct.pad = 0;
    if (ct.kind != XG_KIND_OVERLAP)
        ct.q[0] = ct.q[1] = ct.q[2] = 0.0;
    w->kinds[ct.kind]++;
    return sink ? sink->reduce(sink->user, tid, &ct)
                : xg__contacts_push(&w->out, &ct);
}

/* The paper's loop over one task: the cell's A against its B, each pair
 * in the cell that owns it. */
static int cell_task(struct run *r, struct worker *w, int tid,
                     const struct task *tk)
{
    const struct xg_grid *g = r->g;
    size_t sa = (size_t)xg_elem_doubles(r->ops->a_elem);
    uint32_t c = tk->cell, ia, ib;
    uint32_t b_lo = g->b_start[c], b_hi = g->b_start[c + 1];
    for (ia = tk->a_lo; ia < tk->a_hi; ia++) {
        uint32_t i = g->a_items[ia];
        const double *abox = g->a_box + 6 * (size_t)i;
        const int32_t *acell = g->a_cell + 6 * (size_t)i;
        const double *ea = r->a + sa * i;
        for (ib = b_lo; ib < b_hi; ib++) {
            uint32_t j = g->b_items[ib];
            int rc;
            if (!xg__boxes_meet(abox, g->b_box + 6 * (size_t)j) ||
                !xg__grid_owns(g, c, acell, g->b_cell + 6 * (size_t)j))
                continue;
            if ((rc = evaluate(r, w, tid, i, ea, j)) != XG_OK)
                return rc;
        }
    }
    return XG_OK;
}

/* Where the compiler has it, a hint to fetch p's cache line now. */
#ifdef __GNUC__
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* Pairs of a walk that passed the boxes' tests, evaluated PENDING at a
 * time: their B elements were asked for when they joined, so the cache
 * misses on them (most of the walk's time) overlap instead of queueing
 * one behind the other. */
#define PENDING 32

/* A cell's elements go through the boxes' test KEEP at a time. */
#define KEEP 64

/* Evaluates the n pending pairs of segment i, in order; the first
 * error stops them. */
static int evaluate_pending(struct run *r, struct worker *w, int tid,
                            uint32_t i, const double *ea,
                            const uint32_t *pend, int n)
{
    int k, rc;
    for (k = 0; k < n; k++)
        if ((rc = evaluate(r, w, tid, i, ea, pend[k])) != XG_OK)
            return rc;
    return XG_OK;
}

/* The cpu engine's loop over one segment of A: the cells it passes
 * through (pair_walk.c), each pair in the one cell of the walk that the
 * walk's rule gives it. */
static int walk_cells(struct run *r, struct worker *w, int tid, uint32_t i)
{
    const struct xg_grid *g = r->g;
    const double *abox = g->a_box + 6 * (size_t)i, *b_box = g->b_box;
    const double *ea = r->a + 6 * (size_t)i;
    const uint32_t *items = g->b_items;
    const size_t sb = (size_t)xg_elem_doubles(r->ops->b_elem);
    struct xg__segwalk wk;
    int32_t lay[2][6], xyz[3];
    uint32_t pend[PENDING], keep[KEEP];
    int s, cur = 0, np = 0, rc;

    xg__segwalk_init(&wk, g, ea, g->a_cell + 6 * (size_t)i, r->ops->dim);
    if (wk.bc[0] > wk.bc[3])
        return XG_OK;
    for (s = wk.bc[wk.m]; s <= wk.bc[3 + wk.m]; s++, cur ^= 1) {
        const int32_t *c = lay[cur];
        const int32_t *prev = s > wk.bc[wk.m] ? lay[cur ^ 1] : NULL;
        xg__segwalk_layer(&wk, s, lay[cur]);
        for (xyz[2] = c[2]; xyz[2] <= c[5]; xyz[2]++)
            for (xyz[1] = c[1]; xyz[1] <= c[4]; xyz[1]++)
                for (xyz[0] = c[0]; xyz[0] <= c[3]; xyz[0]++) {
                    uint32_t cell = xg__cell_index(g->n, xyz[0], xyz[1],
                                                   xyz[2]), ib, e, q, nk;
                    uint32_t b_lo = g->b_start[cell],
                             b_hi = g->b_start[cell + 1];
                    for (ib = b_lo; ib < b_hi; ib = e) {
                        e = b_hi - ib > KEEP ? ib + KEEP : b_hi;
                        /* The boxes' test first, with no branch: it
                         * turns away most of a cell's elements (5 of 6
                         * on the world map) and, as a branch, would
                         * guess wrong at every sixth. */
                        for (q = ib, nk = 0; q < e; q++) {
                            uint32_t j = items[q];
                            keep[nk] = j;
                            nk += (uint32_t)xg__boxes_meet(
                                abox, b_box + 6 * (size_t)j);
                        }
                        for (q = 0; q < nk; q++) {
                            uint32_t j = keep[q];
                            const double *eb = r->b + sb * j;
                            if (!xg__segwalk_owns(wk.m, c, prev,
                                                  g->b_cell + 6 * (size_t)j,
                                                  xyz) ||
                                !xg__segwalk_may_meet(&wk,
                                                      b_box + 6 * (size_t)j))
                                continue;
                            PREFETCH(eb);
                            PREFETCH(eb + sb - 1);
                            pend[np++] = j;
                            if (np == PENDING) {
                                rc = evaluate_pending(r, w, tid, i, ea, pend,
                                                      np);
                                if (rc != XG_OK)
                                    return rc;
                                np = 0;
                            }
                        }
                    }
                }
    }
    return evaluate_pending(r, w, tid, i, ea, pend, np);
}

/* One segment's walk, its contacts (found in the walk's order) sorted by
 * b and appended to the thread's store: the tasks cover A in order, so
 * the stores' slices in task order are the contacts in (a, b) order, with
 * no sort or merge of the whole. */
static int walk_segment(struct run *r, struct worker *w, int tid,
                        uint32_t i)
{
    int rc;
    w->out.n = 0;
    if ((rc = walk_cells(r, w, tid, i)) != XG_OK || r->sink || !w->out.n)
        return rc;
    xg__contacts_sort(&w->out);
    return xg__cstore_append(&w->store, w->out.v, w->out.n);
}

/* A worker of the run: takes TASK_GRAB tasks at a time until none is
 * left or the run stops, thread 0 reporting progress; a failure stops
 * the run, in w->rc.  seq's and the cells' contacts end sorted. */
static void intersect_worker(void *arg, int tid)
{
    struct run *r = arg;
    struct worker *w = &r->w[tid];
    size_t next_report = r->ntasks / 100 + 1;  /* 0 was reported */

    for (;;) {
        size_t t0 = atomic_fetch_add(&r->next, TASK_GRAB), ti;
        if (t0 >= r->ntasks)
            break;
        if (tid == 0 && t0 >= next_report) {
            report_progress(r, t0);
            next_report = t0 + r->ntasks / 100 + 1;
        }
        for (ti = t0; ti < t0 + TASK_GRAB && ti < r->ntasks; ti++) {
            int rc = XG_OK;
            if (atomic_load_explicit(&r->stop, memory_order_relaxed))
                goto stopped;
            if (r->walk) {
                size_t i = ti * r->walk, e = i + r->walk;
                r->slices[ti].tid = tid;
                r->slices[ti].from = w->store.n;
                for (; i < e && i < r->na && rc == XG_OK; i++)
                    rc = walk_segment(r, w, tid, (uint32_t)i);
                r->slices[ti].n = w->store.n - r->slices[ti].from;
            } else {
                rc = cell_task(r, w, tid, &r->tasks[ti]);
            }
            if (rc != XG_OK) {
                w->rc = rc;
                atomic_store(&r->stop, 1);
                return;
            }
        }
    }
stopped:
    if (!r->walk)
        xg__contacts_sort(&w->out);
}

/* Tasks: every cell holding both sets, cut along A so that no task has
 * more than about TASK_WORK pairs; the walk's are runs of A's segments,
 * and need no pass over the cells. */
static int make_tasks(struct run *r)
{
    const struct xg_grid *g = r->g;
    size_t c, n = 0, cap = 0;
    struct task *v = NULL;
    for (c = 0; c < g->ncell && !r->walk; c++) {
        uint32_t a0 = g->a_start[c], a1 = g->a_start[c + 1];
        uint64_t nb = g->b_start[c + 1] - g->b_start[c], step;
        if (a0 == a1 || nb == 0)
            continue;
        step = TASK_WORK / nb;
        if (step < 1)
            step = 1;
        while (a0 < a1) {
            uint32_t e = (uint64_t)(a1 - a0) > step ? a0 + (uint32_t)step : a1;
            /* the test first: one call per doubling, not per task */
            if (n == cap && xg__grow((void **)&v, &cap, n, sizeof *v)) {
                free(v);
                return XG_ENOMEM;
            }
            v[n].cell = (uint32_t)c;
            v[n].a_lo = a0;
            v[n].a_hi = e;
            n++;
            a0 = e;
        }
    }
    r->tasks = v;
    r->ntasks = r->walk ? (r->na + r->walk - 1) / r->walk : n;
    return XG_OK;
}

/* Merges the threads' sorted lists into out, in (a, b) order. */
static int merge(struct run *r, struct xg_contacts *out)
{
    const struct xg_contacts **lists;
    int t, rc;
    if (!(lists = malloc((size_t)r->nthreads * sizeof *lists)))
        return XG_ENOMEM;
    for (t = 0; t < r->nthreads; t++)
        lists[t] = &r->w[t].out;
    rc = xg__contacts_merge(lists, (size_t)r->nthreads, out);
    free(lists);
    return rc;
}

/* The walk's contacts into out: each task's slice copied once to its
 * place, the threads sharing the copying by output position. */
struct gather {
    struct run *r;
    size_t *at, total;          /* at: each task's first output index */
    struct xg_contact *v;
};

/* The slices whose output starts in this thread's share of the
 * output, copied there. */
static void gather_worker(void *arg, int tid)
{
    struct gather *gt = arg;
    struct run *r = gt->r;
    size_t lo, hi, t;
    xg__share(gt->total, r->nthreads, tid, &lo, &hi);
    for (t = 0; t < r->ntasks; t++)
        if (gt->at[t] >= lo && gt->at[t] < hi && r->slices[t].n)
            xg__cstore_copy(&r->w[r->slices[t].tid].store,
                            r->slices[t].from, r->slices[t].n,
                            gt->v + gt->at[t]);
}

/* The walk's contacts into out (its array replaced): each task's first
 * output index, then the copies on threads.  XG_OK or XG_ENOMEM. */
static int gather(struct run *r, struct xg_contacts *out)
{
    struct gather gt;
    size_t t;
    int rc;
    gt.r = r;
    gt.total = 0;
    if (!(gt.at = malloc((r->ntasks ? r->ntasks : 1) * sizeof *gt.at)))
        return XG_ENOMEM;
    for (t = 0; t < r->ntasks; t++) {
        gt.at[t] = gt.total;
        gt.total += r->slices[t].n;
    }
    gt.v = xg__big_alloc((gt.total ? gt.total : 1) * sizeof *gt.v);
    rc = gt.v ? xg__parallel(r->nthreads, gather_worker, &gt) : XG_ENOMEM;
    free(gt.at);
    if (rc != XG_OK) {
        free(gt.v);
        return XG_ENOMEM;
    }
    out->v = gt.v;
    out->n = gt.total;
    out->cap = gt.total ? gt.total : 1;
    return XG_OK;
}

/* r zeroed, then set for a run of ops over a (na) and b (nb). */
static void run_init(struct run *r, struct xg_ctx *ctx,
                     const struct xg__pair_ops *ops, const double *a,
                     size_t na, const double *b, size_t nb, int nthreads)
{
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->ops = ops;
    r->a = a;
    r->b = b;
    r->na = na;
    r->nb = nb;
    r->nthreads = nthreads;
}

/* xg__pair_run (xg_pair.h): prepare, tasks, the workers, the
 * stats, then the contacts merged or gathered in (a, b) order. */
int xg__pair_run(struct xg_ctx *ctx, const struct xg__pair_ops *ops,
                 const double *a, size_t na, const double *b, size_t nb,
                 const struct xg_opts *opt, int nthreads,
                 const struct xg__pair_sink *sink, struct xg_contacts *out,
                 struct xg_stats *st)
{
    struct run r;
    struct xg_grid g;
    double t0 = xg__now(), t1;
    int rc, t, k;

    run_init(&r, ctx, ops, a, na, b, nb, nthreads);
    r.sink = sink;
    r.w = calloc((size_t)nthreads, sizeof(struct worker));
    if (!r.w)
        return xg__error(ctx, XG_ENOMEM, "out of memory while preparing");
    rc = xg__pair_prepare(ctx, ops, a, na, b, nb, opt, nthreads, &g, st);
    if (rc != XG_OK)
        goto out;
    r.g = &g;
    /* The cpu engine walks each segment of A through the cells it passes
     * (pair_walk.c): a pair whose A is a segment can only meet where the
     * segment is.  seq keeps the paper's loop over the cells. */
    if (ops->a_elem == XG_ELEM_SEGMENT && st->engine == XG_ENGINE_CPU) {
        r.walk = na / ((size_t)nthreads * 64);
        if (r.walk < 1)
            r.walk = 1;
    }
    rc = make_tasks(&r);
    if (rc == XG_OK && r.walk &&
        !(r.slices = calloc(r.ntasks ? r.ntasks : 1, sizeof *r.slices)))
        rc = XG_ENOMEM;
    st->candidates = g.candidates;
    t1 = xg__now();
    st->seconds[XG_STAGE_PREPARE] = t1 - t0;
    if (rc != XG_OK) {
        xg__grid_free(&g);
        goto out;
    }

    /* Progress 0 was reported by xg__pair_begin, 1 comes in
     * xg__pair_end; thread 0 reports in between. */
    if (xg__parallel(nthreads, intersect_worker, &r) != XG_OK)
        rc = XG_ENOMEM;     /* no worker ran: not an empty answer */
    t0 = xg__now();
    st->seconds[XG_STAGE_INTERSECT] = t0 - t1;
    xg__grid_free(&g);
    for (t = 0; t < nthreads; t++) {
        if (r.w[t].rc != XG_OK)
            rc = r.w[t].rc;
        st->bbox_pairs += r.w[t].bbox_pairs;
        st->deferred += r.w[t].deferred;
        for (k = 0; k < XG_KIND_COUNT; k++)
            st->contacts[k] += r.w[t].kinds[k];
        xg_counters_add(&st->cnt, &r.w[t].cnt);
    }
    /* GMP time, measured where GMP runs (cnt.exact_seconds), as the wall
     * time it takes with the work shared among the threads. */
    st->seconds[XG_STAGE_EXACT] = st->cnt.exact_seconds / nthreads;
    if (rc == XG_OK && atomic_load(&r.stop))
        rc = xg__error(ctx, XG_ECANCEL, "cancelled");
    if (rc == XG_OK && !sink)
        rc = r.walk ? gather(&r, out) : merge(&r, out);
    st->seconds[XG_STAGE_UNIQUE] = xg__now() - t0;
    if (rc == XG_ENOMEM)
        xg__error(ctx, rc, "out of memory while intersecting");
    else if (rc != XG_OK && rc != XG_ECANCEL)
        xg__error(ctx, rc, "the contacts' reduction failed: %s",
                  xg_strerror(rc));
out:
    if (r.w)
        for (t = 0; t < nthreads; t++) {
            xg_contacts_free(&r.w[t].out);
            xg__cstore_free(&r.w[t].store);
        }
    free(r.w);
    free(r.tasks);
    free(r.slices);
    return rc;
}

