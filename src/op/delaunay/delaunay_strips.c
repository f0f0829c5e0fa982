/*
 * delaunay_strips.c -- the cpu engine of xg_delaunay (xg__dt_strips):
 * strips triangulated on the threads, each triangle kept by the strip
 * that owns it once it is certified to be a triangle of the whole set
 * (the method: delaunay_strips.h).  Here the run: the plan, the checks
 * that send a set to the seq engine instead, the strips' tasks, their
 * figures and their lists gathered into the output.
 */
#include <stdlib.h>
#include <string.h>
#include "delaunay_strips.h"
#include "xg_thread.h"
#include "xg_ctx.h"

/* More than one point in HULL_SHARE on the hull's boundary (a lattice's
 * sides hold 4 sqrt(n), a uniform set's O(log n)) goes to one build at
 * once, without strips: points in convex position or near it put the
 * unseen points near circles far wider than any strip (see DOUBT_SHARE,
 * delaunay_strips_task.c), found here before any work. */
#define HULL_SHARE 16

/* Whether gid[0 .. n-1] (n >= 1) hold three points not on one line: the
 * first point, the first apart from it, the first off their line; the
 * predicates counted in st. */
static int not_collinear(const struct xg_set *pts, const uint32_t *gid,
                         size_t n, struct xg_stats *st)
{
    size_t i1 = 0, i2 = 0, k;
    const double *p0 = pts->xyz + 3 * (size_t)gid[0];
    struct xg_counters c0;
    memset(&c0, 0, sizeof c0);
    for (k = 1; k < n && !i1; k++) {
        const double *p = pts->xyz + 3 * (size_t)gid[k];
        if (p[0] != p0[0] || p[1] != p0[1])
            i1 = k;
    }
    for (k = i1 + 1; i1 && k < n && !i2; k++)
        if (xg_orient2d(&c0, p0, pts->xyz + 3 * (size_t)gid[i1],
                        pts->xyz + 3 * (size_t)gid[k]) != 0)
            i2 = k;
    xg_counters_add(&st->cnt, &c0);
    return i2 != 0;
}

/* S->hull: every point on the boundary of the hull (delaunay_hull.c),
 * the predicates counted in st.  XG_OK or XG_ENOMEM. */
static int find_hull(struct xg__strips *S, const uint32_t *gid,
                     struct xg_stats *st)
{
    struct xg_counters c0;
    int rc;
    memset(&c0, 0, sizeof c0);
    rc = xg__dt_hull_points(S->pts, gid, S->n, S->nthreads, &c0, &S->hull,
                            &S->nhull);
    xg_counters_add(&st->cnt, &c0);
    return rc;
}

/* The strips' tasks on the threads.  XG_OK; XG_ENOMEM when the threads
 * could not start; a strip's failure with its message. */
static int run_strips(struct xg_ctx *ctx, struct xg__strips *S)
{
    size_t s;
    if (xg__parallel(S->nthreads, xg__strips_worker, S) != XG_OK)
        return XG_ENOMEM;
    if (atomic_load(&S->cancel))
        return xg__error(ctx, XG_ECANCEL, "cancelled");
    for (s = 0; s < S->nstrip; s++)
        if (S->rc[s])
            return xg__error(ctx, S->rc[s], "out of memory in strip %zu", s);
    return XG_OK;
}

/* The strips' figures into st: the threads' counters, points merged,
 * builds (candidates), slow proofs (deferred), triangles (bbox_pairs),
 * strips (grid[0]).  Returns the triangles kept, all strips together. */
static size_t add_stats(const struct xg__strips *S, struct xg_stats *st)
{
    size_t k, s, total = 0;
    for (k = 0; k < (size_t)S->nthreads; k++)
        xg_counters_add(&st->cnt, &S->cnt[k]);
    for (s = 0; s < S->nstrip; s++) {
        total += S->ntri[s];
        st->a_skipped += S->merged[s];
        st->z_differ += S->z_differ[s];
        st->candidates += S->built[s];
        st->deferred += S->slow[s];
    }
    st->bbox_pairs = total;
    st->grid[0] = (int)S->nstrip;
    st->grid[1] = st->grid[2] = 1;
    return total;
}

/* The strips' lists into the output, strip by strip on the threads: one
 * thread copying 12 bytes a triangle (and faulting the pages in) was a
 * serial pass of a tenth of a second at 10^7 points.  Each list is freed
 * once copied. */
static void gather_worker(void *arg, int tid)
{
    struct xg__strips *S = arg;
    size_t lo, hi, s;
    xg__share(S->nstrip, S->nthreads, tid, &lo, &hi);
    for (s = lo; s < hi; s++) {
        memcpy(S->out + S->at[s], S->tri[s], S->ntri[s] * sizeof *S->out);
        free(S->tri[s]);
        S->tri[s] = NULL;
    }
}

/* out: the strips' total triangles, gathered and put in the canonical
 * order (out->v is out's, freed by the caller on failure too).  XG_OK or
 * XG_ENOMEM. */
static int gather(struct xg__strips *S, size_t total,
                  struct xg_triangles *out)
{
    size_t s, k;
    out->v = malloc((total ? total : 1) * sizeof *out->v);
    S->at = malloc((S->nstrip + 1) * sizeof *S->at);
    if (!out->v || !S->at)
        return XG_ENOMEM;
    for (s = 0, k = 0; s < S->nstrip; s++) {
        S->at[s] = k;
        k += S->ntri[s];
    }
    S->out = out->v;
    if (xg__parallel(S->nthreads, gather_worker, S) != XG_OK)
        return XG_ENOMEM;
    out->n = out->cap = total;
    if (xg__dt_canonical(out->v, total, S->pts->n, S->nthreads))
        return XG_ENOMEM;
    return XG_OK;
}

/* Frees every array of S (each may be NULL). */
static void strips_free(struct xg__strips *S)
{
    size_t s;
    if (S->tri)
        for (s = 0; s < S->nstrip; s++)
            free(S->tri[s]);
    free(S->tri);
    free(S->ntri);
    free(S->at);
    if (S->job)
        for (s = 0; s < S->nstrip; s++) {
            xg__dt_job_free(&S->job[s]);
            free(S->gid[s]);
        }
    free(S->job);
    free(S->gid);
    free(S->f);
    free(S->slow);
    free(S->added);
    free(S->hull);
    free(S->cstart);
    free(S->citem);
    free(S->merged);
    free(S->z_differ);
    free(S->built);
    free(S->retried);
    free(S->rc);
    free(S->cnt);
    free(S->edge);
    free(S->start);
    free(S->item);
}

/* The cpu engine (xg_delaunay.h): the plan; the whole set checked for
 * three points off one line; the seq engine instead where the hull holds
 * many points or a strip's margins reached the whole set; else the
 * strips, their figures, and their lists into out.  Every failure sets
 * ctx's message. */
int xg__dt_strips(struct xg_ctx *ctx, const struct xg_set *pts,
                  const uint32_t *gid, size_t n, int nthreads, int nstrips,
                  struct xg_triangles *out, struct xg_stats *st)
{
    struct xg__strips Sv, *S = &Sv;
    size_t total;
    int rc;
    double t0 = xg__now();

    memset(S, 0, sizeof *S);
    atomic_init(&S->next, 0);
    atomic_init(&S->failed, 0);
    atomic_init(&S->cancel, 0);
    S->ctx = ctx;
    S->pts = pts;
    S->n = n;
    S->nthreads = nthreads;
    if ((rc = xg__strips_plan(S, gid, nstrips)) != XG_OK)
        goto out;
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    /* the whole set first, once: all on one line fails here */
    if (!not_collinear(pts, gid, n, st)) {
        rc = xg__error(ctx, XG_EDEGENERATE,
                       "%zu points: a triangulation needs three distinct "
                       "points not all on one line", n);
        goto out;
    }
    t0 = xg__now();
    if ((rc = find_hull(S, gid, st)) != XG_OK)
        goto out;
    if (S->nstrip > 1 && S->nhull > n / HULL_SHARE) {
        /* many points on the hull: circles as wide as the set */
        st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
        rc = xg__dt_seq(ctx, pts, gid, n, out, st);
        goto out;
    }
    if ((rc = xg__strips_grid(S, gid)) != XG_OK)
        goto out;
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    t0 = xg__now();
    if ((rc = run_strips(ctx, S)) != XG_OK)
        goto out;
    if (atomic_load(&S->whole)) {
        /* the strips' work is dropped, so that the counts are the same
         * whatever strips ran before the flag: the seq engine's alone */
        double strips = xg__now() - t0;
        rc = xg__dt_seq(ctx, pts, gid, n, out, st);
        st->seconds[XG_STAGE_INTERSECT] += strips;
        goto out;
    }
    total = add_stats(S, st);
    st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;
    t0 = xg__now();
    if ((rc = gather(S, total, out)) != XG_OK)
        goto out;
    st->seconds[XG_STAGE_UNIQUE] = xg__now() - t0;
out:
    if (rc == XG_ENOMEM)
        rc = xg__error(ctx, XG_ENOMEM, "out of memory in the triangulation");
    strips_free(S);
    return rc;
}
