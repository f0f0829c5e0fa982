/*
 * delaunay_strips_task.c -- one strip's task in the cpu engine of
 * xg_delaunay (delaunay_strips.h): its points and margins triangulated,
 * every local triangle at one of its own points proven a triangle of the
 * whole set (the unseen points found in conflict taken in, round after
 * round), then the triangles it owns kept; or, where that costs more than
 * starting again, a rebuild with margins twice as wide.
 */
#include <stdlib.h>
#include <string.h>
#include "delaunay_strips.h"
#include "delaunay_bounds.h"
#include "xg_ctx.h"

/* A strip whose slow proofs' filter doubted more than one incircle per
 * DOUBT_SHARE points it holds gives the whole set to one build (the seq
 * engine's): points in convex position or near it (on a circle, a ring
 * round a survey) put the unseen points near circles far wider than any
 * strip, and rounds of NEAR_TAKE points each, with margins doubled up to
 * the whole set in every strip, cost a quadratic number of incircles,
 * nearly all of them doubted and decided exactly (10^4 points on a
 * circle: 45 s against seq's 0.014 s).  The benchmark's uniform, lattice
 * and clustered sets stay far below it: under one doubt in 200 points
 * held at 10^6 and 8 or 64 strips, none on the 10^7 lattice (whose exact
 * zeros the filter settles: its slow proofs test up to 16 points per
 * point held in one strip, so the number tested is no sign). */
#define DOUBT_SHARE 4

/* A point's x, y and set index, to sort the points taken in by x. */
struct xsort {
    double x, y;
    uint32_t g;
};

/* qsort's order of struct xsort: by x, then y. */
static int cmp_xsort(const void *a, const void *b)
{
    const struct xsort *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y > q->y) - (p->y < q->y);
}

/* qsort's order of uint32_t. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The x range of strip s's own points: [*core_lo, *core_hi), open to
 * infinity at the ends of the set. */
static void core_of(const struct xg__strips *S, size_t s, double *core_lo,
                    double *core_hi)
{
    *core_lo = s == 0 ? -INFINITY : S->edge[s];
    *core_hi = s + 1 == S->nstrip ? INFINITY : S->edge[s + 1];
}

/* Triangulates strip s with margins of f strips into S->job[s] (its
 * points into S->gid[s]; both S's, any earlier ones freed): 1 done, 0
 * all on one line there (try wider), < 0 an error (negated code). */
static int strip_build(struct xg__strips *S, size_t s, double f,
                       struct xg_counters *cnt)
{
    double lo = xg__strips_at(S, (double)s - f);
    double hi = xg__strips_at(S, (double)s + 1 + f);
    struct xg__dt_job *job = &S->job[s];
    size_t j, j0, j1, m = 0, k;
    uint32_t *gid;
    int rc;

    xg__dt_job_free(job);
    free(S->gid[s]);
    S->gid[s] = NULL;
    S->f[s] = f;
    j0 = f >= (double)s ? 0 : (size_t)floor((double)s - f);
    j1 = (size_t)ceil((double)s + 1 + f);
    if (j1 > S->nstrip)
        j1 = S->nstrip;
    gid = malloc(((size_t)S->start[j1] - S->start[j0] + 1) * sizeof *gid);
    if (!gid)
        return -XG_ENOMEM;
    for (j = j0; j < j1; j++)
        for (k = S->start[j]; k < S->start[j + 1]; k++) {
            double x = xg__strips_x(S, S->item[k]);
            if (j == s || (x >= lo && x < hi))
                gid[m++] = S->item[k];
        }
    S->gid[s] = gid;
    memset(job, 0, sizeof *job);
    job->pts = S->pts;
    job->gid = gid;
    job->n = m;
    job->want_merges = 1;
    job->want_dt = 1;
    rc = xg__dt_build(job);
    S->built[s]++;
    xg_counters_add(cnt, &job->cnt);
    memset(&job->cnt, 0, sizeof job->cnt);
    if (rc == XG_EDEGENERATE) {
        /* too few points or all on one line here: look wider (the whole
         * set was checked before the strips started) */
        xg__dt_job_free(job);
        return 0;
    }
    if (rc != XG_OK) {
        xg__dt_job_free(job);
        return -rc;
    }
    return 1;
}

/* Builds strip s with margins of f strips, doubling f while it is all on
 * one line: 1 done, < 0 an error (negated code). */
static int strip_build_wide(struct xg__strips *S, size_t s, double f,
                            struct xg_counters *cnt)
{
    int r;
    while ((r = strip_build(S, s, f, cnt)) == 0)
        f *= 2;
    return r;
}

/* One strip's proof rounds (strip_finish): what its task sees, what it
 * took in, and the triangles the last round proved.  The arrays are the
 * round's, freed by strip_finish. */
struct proof {
    struct xg__strips *S;
    size_t s;
    struct xg__dt_job *job;
    struct xg_counters *cnt;
    double lo, hi;              /* the x the task saw: [lo, hi) */
    double core_lo, core_hi;    /* the strip's own points' */
    int need_left, need_right;  /* unseen points left of lo, right of hi */
    struct xg__strips_added ad;   /* taken in so far, sorted */
    struct xg__strips_added more; /* found in conflict this round */
    uint32_t (*prev)[3];        /* the slots as the last round saw them */
    size_t nprev, doubted;
};

/* The ghost (a, b, G) of R's triangulation, a and b its local vertices:
 * proven, or its conflicts pushed to R->more.  1 or -XG_ENOMEM. */
static int prove_ghost(struct proof *R, uint32_t a, uint32_t b)
{
    const double *xy = R->job->dt_xy;
    const double *pa = xy + 2 * (size_t)a, *pb = xy + 2 * (size_t)b;
    if (xg__strips_ghost_clear(R->S, R->cnt, pa, pb, R->lo, R->hi,
                               R->need_left, R->need_right))
        return 1;
    if (xg__strips_ghost_conflicts(R->S, R->cnt, pa, pb, R->lo, R->hi,
                                   &R->ad, &R->more))
        return -XG_ENOMEM;
    return 1;
}

/* The real triangle v of R's triangulation: proven by the cheap or the
 * interval proof (delaunay_bounds.h), or by the slow one, which pushes
 * its conflicts to R->more.  1 go on; 0 the task should see more (a
 * circle it cannot bound, or circles far wider than the strip: then
 * S->whole is set); -XG_ENOMEM. */
static int prove_real(struct proof *R, const uint32_t *v)
{
    struct xg__strips *S = R->S;
    const double *a = R->job->dt_xy + 2 * (size_t)v[0];
    const double *b = R->job->dt_xy + 2 * (size_t)v[1];
    const double *c = R->job->dt_xy + 2 * (size_t)v[2];
    struct xg_iv ccx, ccy, r2;
    double r_up;
    if (xg__dt_quick_clear(a, b, c, R->lo, R->hi, R->need_left,
                           R->need_right))
        return 1;
    if (!xg__dt_circle_iv(a, b, c, &ccx, &ccy, &r2, &r_up))
        return 0;                       /* cannot bound the circle */
    if ((!R->need_left ||
         xg__dt_disk_clear(ccx, ccy, r2, R->lo, 1, S->box)) &&
        (!R->need_right ||
         xg__dt_disk_clear(ccx, ccy, r2, R->hi, 0, S->box)))
        return 1;
    S->slow[R->s]++;
    if (xg__strips_grid_conflicts(S, R->cnt, a, b, c, ccx, ccy, r_up, R->lo,
                                  R->hi, &R->ad, &R->more, &R->doubted))
        return -XG_ENOMEM;
    if (R->doubted > R->job->n / DOUBT_SHARE ||
        atomic_load_explicit(&S->whole, memory_order_relaxed)) {
        /* circles far wider than the strip: the whole set */
        atomic_store(&S->whole, 1);
        return 0;
    }
    return 1;
}

/* One round: every local triangle at a vertex of the strip's own points
 * that changed since the last round, proven or its conflicts pushed to
 * R->more (emptied first).  1, 0 or -XG_ENOMEM as prove_real. */
static int prove_round(struct proof *R)
{
    const struct xg__dt *dt = &R->job->dt;
    size_t t, k;
    R->more.n = 0;
    for (t = 0; t < dt->ntri && (R->need_left || R->need_right); t++) {
        const uint32_t *v = dt->v[t];
        int g = -1, core = 0, r;
        /* a triangle proven in an earlier round outlives the points
         * taken in since (none is in its circle): only slots that
         * changed are looked at again */
        if (t < R->nprev && !memcmp(R->prev[t], v, sizeof R->prev[t]))
            continue;
        for (k = 0; k < 3; k++) {
            if (v[k] == XG_DT_GHOST)
                g = (int)k;
            else {
                double x = R->job->dt_xy[2 * (size_t)v[k]];
                core |= x >= R->core_lo && x < R->core_hi;
            }
        }
        if (!core)
            continue;
        r = g >= 0 ? prove_ghost(R, v[(g + 1) % 3], v[(g + 2) % 3])
                   : prove_real(R, v);
        if (r <= 0)
            return r;
    }
    return 1;
}

/* R->more's points, once each, into the triangulation in x order (so
 * that each walk starts near its point), after a snapshot of the slots
 * for the next round, and into R->ad.  1 done, 0 too many points taken
 * in (cheaper to start wider), -XG_ENOMEM. */
static int take_in(struct proof *R)
{
    struct xg__strips_added *more = &R->more, *ad = &R->ad;
    struct xg__dt_job *job = R->job;
    struct xsort *xs;
    size_t t, k;
    qsort(more->v, more->n, sizeof *more->v, cmp_u32);
    for (t = 0, k = 0; t < more->n; t++)
        if (k == 0 || more->v[k - 1] != more->v[t])
            more->v[k++] = more->v[t];
    more->n = k;
    if (ad->n + more->n > job->n)
        return 0;
    xs = malloc(more->n * sizeof *xs);
    if (!xs)
        return -XG_ENOMEM;
    for (t = 0; t < more->n; t++) {
        xs[t].x = xg__strips_x(R->S, more->v[t]);
        xs[t].y = R->S->pts->xyz[3 * (size_t)more->v[t] + 1];
        xs[t].g = more->v[t];
    }
    qsort(xs, more->n, sizeof *xs, cmp_xsort);
    for (t = 0; t < more->n; t++)
        more->v[t] = xs[t].g;
    free(xs);
    free(R->prev);
    R->nprev = job->dt.ntri;
    R->prev = malloc((R->nprev ? R->nprev : 1) * sizeof *R->prev);
    if (!R->prev)
        return -XG_ENOMEM;
    memcpy(R->prev, job->dt.v, R->nprev * sizeof *R->prev);
    if (xg__dt_insert_more(job, more->v, more->n))
        return -XG_ENOMEM;
    R->S->added[R->s] += more->n;
    for (t = 0; t < more->n; t++)
        if (xg__strips_push(ad, more->v[t]))
            return -XG_ENOMEM;
    qsort(ad->v, ad->n, sizeof *ad->v, cmp_u32);
    return 1;
}

/* The proven triangulation's triangles whose smallest set index is one
 * of the strip's own points into S->tri[s] (S's), the merges of its own
 * points counted; the strip's job and points freed.  1 or -XG_ENOMEM. */
static int keep_owned(struct proof *R)
{
    struct xg__strips *S = R->S;
    struct xg__dt_job *job = R->job;
    size_t s = R->s, t, k, nt = 0;
    uint32_t (*out)[3] = malloc((job->ntri ? job->ntri : 1) * sizeof *out);
    if (!out)
        return -XG_ENOMEM;
    for (t = 0; t < job->ntri; t++) {
        const uint32_t *v = job->tri[t];
        uint32_t mn = v[0] < v[1] ? v[0] : v[1];
        double x;
        mn = mn < v[2] ? mn : v[2];
        x = xg__strips_x(S, mn);
        if (x >= R->core_lo && x < R->core_hi) {
            memcpy(out[nt], v, sizeof out[0]);
            nt++;
        }
    }
    S->tri[s] = out;
    S->ntri[s] = nt;
    for (k = 0; k < job->n; k++) {
        double x = xg__strips_x(S, S->gid[s][k]);
        if (x >= R->core_lo && x < R->core_hi) {
            S->merged[s] += job->merged[k];
            S->z_differ[s] += job->z_differ[k];
        }
    }
    xg__dt_job_free(job);
    free(S->gid[s]);
    S->gid[s] = NULL;
    return 1;
}

/* Proves every local triangle at a vertex of strip s's own points,
 * taking in the unseen points found in conflict until none is, then keeps
 * the triangles whose smallest index is its own: 1 done, 0 retry with
 * wider margins (counted in S->retried), < 0 an error (negated code).
 * S->job[s] built by strip_build. */
static int strip_finish(struct xg__strips *S, size_t s,
                        struct xg_counters *cnt)
{
    struct proof R;
    int rc;
    memset(&R, 0, sizeof R);
    R.S = S;
    R.s = s;
    R.job = &S->job[s];
    R.cnt = cnt;
    R.lo = xg__strips_at(S, (double)s - S->f[s]);
    R.hi = xg__strips_at(S, (double)s + 1 + S->f[s]);
    R.need_left = R.lo > S->box[0];
    R.need_right = R.hi <= S->box[2];
    core_of(S, s, &R.core_lo, &R.core_hi);
    for (;;) {
        if ((rc = prove_round(&R)) <= 0)
            break;
        if (R.more.n == 0) {
            rc = keep_owned(&R);
            break;
        }
        if ((rc = take_in(&R)) <= 0)
            break;
    }
    if (rc == 0)
        S->retried[s]++;
    free(R.ad.v);
    free(R.more.v);
    free(R.prev);
    return rc;
}

/* Records strip s's failure (r < 0, a negated code) and stops the
 * others from taking more strips. */
static void fail(struct xg__strips *S, size_t s, int r)
{
    S->rc[s] = -r;
    atomic_store(&S->failed, 1);
}

/* Each strip: built with its first margins, proven and kept, or rebuilt
 * with margins twice as wide (delaunay_strips.h).  arg: the run's struct
 * xg__strips; tid's counters are S->cnt[tid]. */
void xg__strips_worker(void *arg, int tid)
{
    struct xg__strips *S = arg;
    for (;;) {
        size_t s = atomic_fetch_add(&S->next, 1);
        int r;
        /* the strips are most of the engine's time: 0.1 to 0.8 of its
         * progress, told on the caller's thread only, at each strip it
         * takes and once past the last (so at least once, however the
         * threads share the strips) */
        if (tid == 0 && S->ctx &&
            xg__cancelled_at(S->ctx,
                             0.1 + 0.7 * (double)(s < S->nstrip ? s
                                                                : S->nstrip) /
                                       (double)S->nstrip))
            atomic_store(&S->cancel, 1);
        if (s >= S->nstrip || atomic_load(&S->failed) ||
            atomic_load(&S->whole) || atomic_load(&S->cancel))
            return;
        if (S->start[s] == S->start[s + 1])
            continue;                   /* no points of its own */
        r = strip_build_wide(S, s, S->margin, &S->cnt[tid]);
        while (r > 0 && (r = strip_finish(S, s, &S->cnt[tid])) == 0) {
            double f = 2 * S->f[s];
            if (atomic_load(&S->whole) ||
                (xg__strips_at(S, (double)s - f) == -INFINITY &&
                 xg__strips_at(S, (double)s + 1 + f) == INFINITY)) {
                /* this strip would triangulate the whole set: one build
                 * of it, the seq engine's, serves all strips */
                atomic_store(&S->whole, 1);
                return;
            }
            r = strip_build_wide(S, s, f, &S->cnt[tid]);
        }
        if (r < 0)
            fail(S, s, r);
    }
}
