/*
 * delaunay_strips.c -- the cpu engine of xg_delaunay: strips triangulated
 * on the threads, each triangle kept by the strip that owns it once it is
 * certified to be a triangle of the whole set.
 *
 * The points are cut into vertical strips at x quantiles.  A strip's
 * task triangulates its own points and those of a margin on each side
 * (the builder of delaunay_build.c).  A local triangle is a triangle of
 * the whole triangulation when no point the task did not see can be in
 * its closed circle (for a ghost, beyond or on its hull edge): the unseen
 * points lie in two boxes, [xmin, lo] x [ymin, ymax] and [hi, xmax] x
 * [ymin, ymax], and an interval bound of the circle that clears both
 * boxes proves it (a doubt only costs a retry).  When every local
 * triangle at a vertex of the strip's own points is proven, those
 * vertices' stars are the whole triangulation's, so the strip writes the
 * triangles whose smallest set index is one of its points: each triangle
 * of the whole once.  Otherwise the task retries with margins twice as
 * wide, up to the whole set.  The triangulation being unique, the result
 * is the seq engine's whatever the strips, threads or timing.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xg_delaunay.h"
#include "delaunay_bounds.h"
#include "xg_thread.h"

struct strips {
    const struct xg_set *pts;
    size_t n, nstrip;
    double *edge;           /* nstrip + 1 x boundaries, edge[0] = xmin */
    uint32_t *start;        /* nstrip + 1: the strip's points are */
    uint32_t *item;         /* item[start[s] .. start[s+1]-1] */
    double box[4];          /* xmin, ymin, xmax, ymax of all points */
    double margin;          /* first margins, in strips */
    int nthreads;
    /* results per strip */
    uint32_t (**tri)[3];
    size_t *ntri;
    uint64_t *merged, *z_differ, *built, *retried, *slow, *added;
    struct xg_counters *cnt; /* per thread */
    struct xg__dt_job *job;  /* per strip: its triangulation, between */
    uint32_t **gid;          /* the phases, and the points it took     */
    double *f;               /* per strip: its margins, in strips      */
    uint32_t *hull;          /* every point on the hull's boundary, by x */
    size_t nhull;
    /* a grid of all points for the slow proof: nx x ny cells over box,
     * cell (i, j) = i ny + j holding citem[cstart[.] .. cstart[. + 1]-1] */
    size_t nx, ny;
    double inv_cw, inv_ch;
    uint32_t *cstart, *citem;
    int *rc;
    size_t *at;              /* per strip: where its list goes in out */
    uint32_t (*out)[3];
    atomic_size_t next;     /* the next strip to take */
    atomic_int failed;
    atomic_int whole;       /* a strip's margins reached the whole set */
};

#define X(g) (S->pts->xyz[3 * (size_t)(g)])

/* The x at strip coordinate s (strip k spans k .. k+1). */
static double at(const struct strips *S, double s)
{
    size_t k;
    if (s <= 0)
        return -INFINITY;
    if (s >= (double)S->nstrip)
        return INFINITY;
    k = (size_t)s;
    return S->edge[k] + (s - (double)k) * (S->edge[k + 1] - S->edge[k]);
}

static size_t cell_x(const struct strips *S, double x)
{
    double f = (x - S->box[0]) * S->inv_cw;
    size_t c = f > 0 ? (size_t)f : 0;
    return c < S->nx ? c : S->nx - 1;
}

static size_t cell_y(const struct strips *S, double y)
{
    double f = (y - S->box[1]) * S->inv_ch;
    size_t c = f > 0 ? (size_t)f : 0;
    return c < S->ny ? c : S->ny - 1;
}

static size_t cell_of(const struct strips *S, uint32_t g);

/* The slow proof stops after NEAR_CAP conflicts of one triangle and
 * takes in the NEAR_TAKE nearest: correctness needs only that a triangle
 * with a conflict is not kept, and the rounds repeat until none has. */
#define NEAR_CAP 64
#define NEAR_TAKE 8
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
/* More than one point in HULL_SHARE on the hull's boundary (a lattice's
 * sides hold 4 sqrt(n), a uniform set's O(log n)) goes to one build at
 * once, without strips: the same pathology, found before any work. */
#define HULL_SHARE 16

/* Points a strip took in after its build: sorted set indices. */
struct added {
    uint32_t *v;
    size_t n, cap;
};

static int was_added(const struct added *ad, uint32_t g)
{
    size_t lo = 0, hi = ad->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ad->v[mid] < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ad->n && ad->v[lo] == g;
}

/* A point the strip has not seen: outside [lo, hi) and not taken in. */
static int unseen(const struct strips *S, const struct added *ad, uint32_t g,
                  double lo, double hi)
{
    double x = X(g);
    return (x < lo || x >= hi) && !was_added(ad, g);
}

static int push_u32(struct added *v, uint32_t g)
{
    if (v->n == v->cap &&
        xg__grow((void **)&v->v, &v->cap, v->n + 1, sizeof *v->v))
        return XG_ENOMEM;
    v->v[v->n++] = g;
    return XG_OK;
}

/* The slow proof, where the fast one doubts (circles along the hull, far
 * larger than the strip): the unseen points that the grid of all points
 * finds near the disk, each tried exactly; those in conflict go to more.
 * A column's y range is narrowed by the disk over that column, widened by
 * a column each side against rounding in the cell numbers (which are
 * monotone in x and y, so the column and row ranges are themselves
 * safe). */
static int grid_conflicts(const struct strips *S, struct xg_counters *cnt,
                          const double *a, const double *b, const double *c,
                          struct xg_iv ccx, struct xg_iv ccy, double r_up,
                          double lo, double hi, const struct added *ad,
                          struct added *more, size_t *doubted)
{
    size_t c0 = cell_x(S, ccx.lo - r_up), c1 = cell_x(S, ccx.hi + r_up);
    size_t cm = cell_x(S, (a[0] + b[0] + c[0]) / 3), step;
    double cw = (S->box[2] - S->box[0]) / (double)S->nx;
    double mx = (a[0] + b[0] + c[0]) / 3, my = (a[1] + b[1] + c[1]) / 3;
    struct near {
        double d2;
        uint32_t g;
    } found[NEAR_CAP];
    int nfound = 0, i;
    if (cm < c0)
        cm = c0;
    if (cm > c1)
        cm = c1;
    /* columns outward from the triangle's, so that a circle holding many
     * unseen points yields the nearest first and the scan stops early */
    for (step = 0; step <= (c1 - c0) && nfound < NEAR_CAP; step++) {
        int side;
        for (side = 0; side < 2 && nfound < NEAR_CAP; side++) {
            size_t col, r0, r1, k, end;
            double x0, x1, dx, half2, half;
            if (side == 0) {
                if (cm < c0 + step)
                    continue;
                col = cm - step;
            } else {
                if (step == 0 || cm + step > c1)
                    continue;
                col = cm + step;
            }
            x0 = S->box[0] + ((double)col - 1) * cw;
            x1 = S->box[0] + ((double)col + 2) * cw;
            if (x0 >= lo && x1 < hi)
                continue;               /* all seen */
            dx = ccx.lo > x1 ? ccx.lo - x1 : x0 > ccx.hi ? x0 - ccx.hi : 0;
            half2 = r_up * r_up * (1 + 0x1p-40) - dx * dx * (1 - 0x1p-40);
            if (half2 < 0)
                continue;
            half = sqrt(half2) * (1 + 0x1p-40);
            r0 = cell_y(S, ccy.lo - half);
            r1 = cell_y(S, ccy.hi + half);
            end = S->cstart[col * S->ny + r1 + 1];
            for (k = S->cstart[col * S->ny + r0];
                 k < end && nfound < NEAR_CAP; k++) {
                uint32_t g = S->citem[k];
                const double *p = S->pts->xyz + 3 * (size_t)g;
                if (!unseen(S, ad, g, lo, hi) ||
                    (p[0] == a[0] && p[1] == a[1]) ||
                    (p[0] == b[0] && p[1] == b[1]) ||
                    (p[0] == c[0] && p[1] == c[1]))
                    continue;
                uint64_t failures = cnt->filter_failures;
                int sign = xg__dt_incircle(cnt, a, b, c, p);
                *doubted += cnt->filter_failures != failures;
                if (sign > 0) {
                    found[nfound].d2 = (p[0] - mx) * (p[0] - mx) +
                                       (p[1] - my) * (p[1] - my);
                    found[nfound].g = g;
                    nfound++;
                }
            }
        }
    }
    /* the nearest few go in: they are the ones the whole triangulation
     * joins to this part; more would only widen the next conflicts */
    for (i = 0; i < nfound && i < NEAR_TAKE; i++) {
        int m = i, q;
        struct near t;
        for (q = i + 1; q < nfound; q++)
            if (found[q].d2 < found[m].d2 ||
                (found[q].d2 == found[m].d2 && found[q].g < found[m].g))
                m = q;
        t = found[i];
        found[i] = found[m];
        found[m] = t;
        /* with every copy of its (x, y), all in its cell: the merge rule
         * of insert_more then keeps the copy seq keeps */
        {
            const double *p = S->pts->xyz + 3 * (size_t)found[i].g;
            size_t cell = cell_of(S, found[i].g), k;
            for (k = S->cstart[cell]; k < S->cstart[cell + 1]; k++) {
                const double *q = S->pts->xyz + 3 * (size_t)S->citem[k];
                if (q[0] == p[0] && q[1] == p[1] &&
                    push_u32(more, S->citem[k]))
                    return XG_ENOMEM;
            }
        }
    }
    return XG_OK;
}

/* The unseen hull points in conflict with ghost (a, b, G): were any point
 * beyond the edge or on it, a point on the hull's boundary would be too
 * (a linear function peaks at a hull vertex; a point on the edge's line
 * is on the boundary).  Only the nearest in x on each side go in (those
 * of the largest x left of the strip, of the smallest right of it): any
 * conflict taken in is progress, the rounds repeat until none is left,
 * and the nearest are the ones the whole triangulation joins to the
 * strip.  Taking all of them took a whole side of the hull into every
 * strip below a slanted hull edge (a lattice's partly filled last row:
 * 1406 points into each of half the strips at 10^7 points), each making
 * slivers for the slow proof. */
static int ghost_conflicts(const struct strips *S, struct xg_counters *cnt,
                           const double *a, const double *b, double lo,
                           double hi, const struct added *ad,
                           struct added *more)
{
    double best[2] = {-INFINITY, INFINITY};
    int pass;
    for (pass = 0; pass < 2; pass++) {
        size_t i;
        for (i = 0; i < S->nhull; i++) {
            uint32_t g = S->hull[i];
            double x = X(g);
            if (x >= lo) {
                /* sorted by x: jump to the first at or past hi */
                size_t lo_i = i, hi_i = S->nhull;
                while (lo_i < hi_i) {
                    size_t mid = (lo_i + hi_i) / 2;
                    if (X(S->hull[mid]) < hi)
                        lo_i = mid + 1;
                    else
                        hi_i = mid;
                }
                if (lo_i >= S->nhull)
                    break;
                i = lo_i;
                g = S->hull[i];
                x = X(g);
            }
            if (pass == 1 && x != best[0] && x != best[1])
                continue;
            if (!unseen(S, ad, g, lo, hi) ||
                !xg__dt_ghost_conflict(cnt, a, b,
                                       S->pts->xyz + 3 * (size_t)g))
                continue;
            if (pass == 0) {
                if (x < lo && x > best[0])
                    best[0] = x;
                if (x >= hi && x < best[1])
                    best[1] = x;
            } else if (push_u32(more, g))
                return XG_ENOMEM;
        }
        if (best[0] == -INFINITY && best[1] == INFINITY)
            break;                      /* no conflict */
    }
    return XG_OK;
}

/* The fast proof of a ghost (a, b, G), seen from strip [lo, hi): no
 * unseen point is beyond the edge a -> b or strictly between a and b on
 * it.  The unseen points lie in the boxes [xmin, lo] x [ymin, ymax] and
 * [hi, xmax] x [ymin, ymax]; orient2d(a, b, .) is affine, so it is at
 * most 0 over a box when it is at most 0 at the box's four corners (exact
 * predicates on the corners, which need not be points of the set).  A
 * point on the edge's line strictly between a and b has its x between
 * theirs, inside [lo, hi) when a and b are, so it is seen.  Along the
 * hull of a lattice, whose edges lie on the box's sides, this proves
 * every ghost; ghost_conflicts then scans the hull points only for the
 * others (a strip at an end of the set has a whole side of the hull in
 * it: scanning every hull point for each of its ghosts took time linear
 * in the set on one thread). */
static int ghost_clear(const struct strips *S, struct xg_counters *cnt,
                       const double *a, const double *b, double lo,
                       double hi, int need_left, int need_right)
{
    const double *box = S->box;
    int side;
    if (!(a[0] >= lo && a[0] < hi && b[0] >= lo && b[0] < hi))
        return 0;
    for (side = 0; side < 2; side++) {
        double x0 = side ? hi : box[0], x1 = side ? box[2] : lo;
        double c[4][2];
        int k;
        if (!(side ? need_right : need_left))
            continue;
        c[0][0] = x0; c[0][1] = box[1];
        c[1][0] = x1; c[1][1] = box[1];
        c[2][0] = x0; c[2][1] = box[3];
        c[3][0] = x1; c[3][1] = box[3];
        for (k = 0; k < 4; k++)
            if (xg_orient2d(cnt, a, b, c[k]) > 0)
                return 0;
    }
    return 1;
}

struct xsort {
    double x, y;
    uint32_t g;
};

static int cmp_xsort(const void *a, const void *b)
{
    const struct xsort *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y > q->y) - (p->y < q->y);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void core_of(const struct strips *S, size_t s, double *core_lo,
                    double *core_hi)
{
    *core_lo = s == 0 ? -INFINITY : S->edge[s];
    *core_hi = s + 1 == S->nstrip ? INFINITY : S->edge[s + 1];
}

/* Triangulates strip s with margins of f strips into S->job[s]: 1 done,
 * 0 all on one line there (try wider), < 0 an error (negated code). */
static int strip_build(struct strips *S, size_t s, double f,
                       struct xg_counters *cnt)
{
    double lo = at(S, (double)s - f), hi = at(S, (double)s + 1 + f);
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
            double x = X(S->item[k]);
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

/* Builds strip s, widening while it is all on one line. */
static int strip_build_wide(struct strips *S, size_t s, double f,
                            struct xg_counters *cnt)
{
    int r;
    while ((r = strip_build(S, s, f, cnt)) == 0)
        f *= 2;
    return r;
}

/* Proves every local triangle at a vertex of strip s's own points,
 * taking in the unseen points found in conflict until none is, then keeps
 * the triangles whose smallest index is its own: 1 done, 0 too many
 * points taken in (retry with wider margins), < 0 an error. */
static int strip_finish(struct strips *S, size_t s, struct xg_counters *cnt)
{
    struct xg__dt_job *job = &S->job[s];
    double f = S->f[s], core_lo, core_hi;
    double lo = at(S, (double)s - f), hi = at(S, (double)s + 1 + f);
    int need_left = lo > S->box[0], need_right = hi <= S->box[2];
    size_t t, k, nt = 0;
    struct xg_iv ccx, ccy, r2;
    double r_up;
    uint32_t (*out)[3];
    struct added ad = {0}, more = {0};
    uint32_t (*prev)[3] = NULL;
    size_t nprev = 0, doubted = 0;
    int rc = 1;

    core_of(S, s, &core_lo, &core_hi);
    for (;;) {
        more.n = 0;
        for (t = 0; t < job->dt.ntri && (need_left || need_right); t++) {
            const uint32_t *v = job->dt.v[t];
            int g = -1, core = 0;
            /* a triangle proven in an earlier round outlives the points
             * taken in since (none is in its circle): only slots that
             * changed are looked at again */
            if (t < nprev && !memcmp(prev[t], v, sizeof prev[t]))
                continue;
            for (k = 0; k < 3; k++) {
                if (v[k] == XG_DT_GHOST)
                    g = (int)k;
                else {
                    double x = job->dt_xy[2 * (size_t)v[k]];
                    core |= x >= core_lo && x < core_hi;
                }
            }
            if (!core)
                continue;
            if (g >= 0) {
                if (ghost_clear(S, cnt,
                                job->dt_xy + 2 * (size_t)v[(g + 1) % 3],
                                job->dt_xy + 2 * (size_t)v[(g + 2) % 3], lo,
                                hi, need_left, need_right))
                    continue;
                if (ghost_conflicts(S, cnt,
                                    job->dt_xy + 2 * (size_t)v[(g + 1) % 3],
                                    job->dt_xy + 2 * (size_t)v[(g + 2) % 3],
                                    lo, hi, &ad, &more))
                    goto oom;
                continue;
            }
            {
                const double *a = job->dt_xy + 2 * (size_t)v[0];
                const double *b = job->dt_xy + 2 * (size_t)v[1];
                const double *c = job->dt_xy + 2 * (size_t)v[2];
                int ok;
                if (xg__dt_quick_clear(a, b, c, lo, hi, need_left, need_right))
                    continue;
                ok = xg__dt_circle_iv(a, b, c, &ccx, &ccy, &r2, &r_up);
                if (!ok) {
                    /* cannot bound the circle: see everything */
                    rc = 0;
                    goto done;
                }
                if ((!need_left ||
                     xg__dt_disk_clear(ccx, ccy, r2, lo, 1, S->box)) &&
                    (!need_right ||
                     xg__dt_disk_clear(ccx, ccy, r2, hi, 0, S->box)))
                    continue;
                S->slow[s]++;
                if (grid_conflicts(S, cnt, a, b, c, ccx, ccy, r_up, lo, hi,
                                   &ad, &more, &doubted))
                    goto oom;
                if (doubted > job->n / DOUBT_SHARE ||
                    atomic_load_explicit(&S->whole, memory_order_relaxed)) {
                    /* circles far wider than the strip: the whole set */
                    atomic_store(&S->whole, 1);
                    rc = 0;
                    goto done;
                }
            }
        }
        if (more.n == 0)
            break;
        /* take them in, once each */
        qsort(more.v, more.n, sizeof *more.v, cmp_u32);
        for (t = 0, k = 0; t < more.n; t++)
            if (k == 0 || more.v[k - 1] != more.v[t])
                more.v[k++] = more.v[t];
        more.n = k;
        if (ad.n + more.n > job->n) {
            rc = 0;                     /* cheaper to start wider */
            goto done;
        }
        /* in x order, so that each walk starts near its point */
        {
            struct xsort *xs = malloc(more.n * sizeof *xs);
            if (!xs)
                goto oom;
            for (t = 0; t < more.n; t++) {
                xs[t].x = X(more.v[t]);
                xs[t].y = S->pts->xyz[3 * (size_t)more.v[t] + 1];
                xs[t].g = more.v[t];
            }
            qsort(xs, more.n, sizeof *xs, cmp_xsort);
            for (t = 0; t < more.n; t++)
                more.v[t] = xs[t].g;
            free(xs);
        }
        free(prev);
        nprev = job->dt.ntri;
        prev = malloc((nprev ? nprev : 1) * sizeof *prev);
        if (!prev)
            goto oom;
        memcpy(prev, job->dt.v, nprev * sizeof *prev);
        if (xg__dt_insert_more(job, more.v, more.n))
            goto oom;
        S->added[s] += more.n;
        for (t = 0; t < more.n; t++)
            if (push_u32(&ad, more.v[t]))
                goto oom;
        qsort(ad.v, ad.n, sizeof *ad.v, cmp_u32);
    }
    out = malloc((job->ntri ? job->ntri : 1) * sizeof *out);
    if (!out)
        goto oom;
    for (t = 0; t < job->ntri; t++) {
        const uint32_t *v = job->tri[t];
        uint32_t mn = v[0] < v[1] ? v[0] : v[1];
        double x;
        mn = mn < v[2] ? mn : v[2];
        x = X(mn);
        if (x >= core_lo && x < core_hi) {
            memcpy(out[nt], v, sizeof out[0]);
            nt++;
        }
    }
    S->tri[s] = out;
    S->ntri[s] = nt;
    for (k = 0; k < job->n; k++) {
        double x = X(S->gid[s][k]);
        if (x >= core_lo && x < core_hi) {
            S->merged[s] += job->merged[k];
            S->z_differ[s] += job->z_differ[k];
        }
    }
    xg__dt_job_free(job);
    free(S->gid[s]);
    S->gid[s] = NULL;
done:
    if (rc == 0)
        S->retried[s]++;
    free(ad.v);
    free(more.v);
    free(prev);
    return rc;
oom:
    free(ad.v);
    free(more.v);
    free(prev);
    return -XG_ENOMEM;
}

/* The strips' lists into the output, strip by strip on the threads: one
 * thread copying 12 bytes a triangle (and faulting the pages in) was a
 * serial pass of a tenth of a second at 10^7 points. */
static void gather_worker(void *arg, int tid)
{
    struct strips *S = arg;
    size_t lo, hi, s;
    xg__share(S->nstrip, S->nthreads, tid, &lo, &hi);
    for (s = lo; s < hi; s++) {
        memcpy(S->out + S->at[s], S->tri[s], S->ntri[s] * sizeof *S->out);
        free(S->tri[s]);
        S->tri[s] = NULL;
    }
}

static void fail(struct strips *S, size_t s, int r)
{
    S->rc[s] = -r;
    atomic_store(&S->failed, 1);
}

/* Each strip: built with its first margins, proven and kept, or rebuilt
 * with margins twice as wide. */
static void strip_worker(void *arg, int tid)
{
    struct strips *S = arg;
    for (;;) {
        size_t s = atomic_fetch_add(&S->next, 1);
        int r;
        if (s >= S->nstrip || atomic_load(&S->failed) ||
            atomic_load(&S->whole))
            return;
        if (S->start[s] == S->start[s + 1])
            continue;                   /* no points of its own */
        r = strip_build_wide(S, s, S->margin, &S->cnt[tid]);
        while (r > 0 && (r = strip_finish(S, s, &S->cnt[tid])) == 0) {
            double f = 2 * S->f[s];
            if (atomic_load(&S->whole) ||
                (at(S, (double)s - f) == -INFINITY &&
                 at(S, (double)s + 1 + f) == INFINITY)) {
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

/* The passes over all points, on the threads. */
struct pass {
    struct strips *S;
    const uint32_t *gid;
    size_t n;
    int nthreads;
    double (*box)[4];          /* per thread */
    uint32_t *strip;           /* per point: its strip */
    size_t *count;             /* per thread x strip */
    _Atomic uint32_t *cell;    /* the grid: counts, then cursors */
};

static void box_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    double *b = P->box[tid];
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    b[0] = b[1] = INFINITY;
    b[2] = b[3] = -INFINITY;
    for (k = lo; k < hi; k++) {
        const double *p = P->S->pts->xyz + 3 * (size_t)P->gid[k];
        b[0] = p[0] < b[0] ? p[0] : b[0];
        b[1] = p[1] < b[1] ? p[1] : b[1];
        b[2] = p[0] > b[2] ? p[0] : b[2];
        b[3] = p[1] > b[3] ? p[1] : b[3];
    }
}

static size_t strip_of(const struct strips *S, double x);

/* Strip numbers and per-thread counts; then each thread writes its share
 * in order after the shares before it: the same lists on any threads. */
static void strip_count_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k, *c = P->count + (size_t)tid * P->S->nstrip;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        uint32_t s = (uint32_t)strip_of(P->S, P->S->pts->xyz[3 * (size_t)P->gid[k]]);
        P->strip[k] = s;
        c[s]++;
    }
}

static void strip_fill_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k, *c = P->count + (size_t)tid * P->S->nstrip;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++)
        P->S->item[c[P->strip[k]]++] = P->gid[k];
}

static size_t cell_of(const struct strips *S, uint32_t g)
{
    const double *p = S->pts->xyz + 3 * (size_t)g;
    return cell_x(S, p[0]) * S->ny + cell_y(S, p[1]);
}

static void cell_count_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++)
        atomic_fetch_add_explicit(&P->cell[cell_of(P->S, P->gid[k])], 1,
                                  memory_order_relaxed);
}

/* A cell's points in whatever order the threads wrote them; then
 * cell_sort_worker puts each cell in ascending order. */
static void cell_fill_worker(void *arg, int tid)
{
    struct pass *P = arg;
    size_t lo, hi, k;
    xg__share(P->n, P->nthreads, tid, &lo, &hi);
    for (k = lo; k < hi; k++) {
        uint32_t at = atomic_fetch_add_explicit(
            &P->cell[cell_of(P->S, P->gid[k])], 1, memory_order_relaxed);
        P->S->citem[at] = P->gid[k];
    }
}

/* Each cell's points in ascending order (insertion: about two a cell).
 * The slow proof stops a cell's scan after NEAR_CAP conflicts, so the
 * order decides which points it takes in: in the threads' order the
 * work, and --stats' predicate count, changed from run to run (the
 * triangulation never did). */
static void cell_sort_worker(void *arg, int tid)
{
    struct pass *P = arg;
    const struct strips *S = P->S;
    size_t lo, hi, c;
    xg__share(S->nx * S->ny, P->nthreads, tid, &lo, &hi);
    for (c = lo; c < hi; c++) {
        uint32_t *v = S->citem + S->cstart[c];
        size_t n = S->cstart[c + 1] - S->cstart[c], i, j;
        for (i = 1; i < n; i++) {
            uint32_t g = v[i];
            for (j = i; j > 0 && v[j - 1] > g; j--)
                v[j] = v[j - 1];
            v[j] = g;
        }
    }
}

/* The grid of all points for the slow proof, about two per cell. */
static int grid_build(struct strips *S, struct pass *P)
{
    size_t side = (size_t)sqrt((double)P->n / 2) + 1, c, sum = 0;
    S->nx = S->ny = side;
    S->inv_cw = S->box[2] > S->box[0] ? (double)side / (S->box[2] - S->box[0])
                                      : 0;
    S->inv_ch = S->box[3] > S->box[1] ? (double)side / (S->box[3] - S->box[1])
                                      : 0;
    S->cstart = malloc((side * side + 1) * sizeof *S->cstart);
    S->citem = malloc(P->n * sizeof *S->citem);
    P->cell = calloc(side * side, sizeof *P->cell);
    if (!S->cstart || !S->citem || !P->cell)
        return XG_ENOMEM;
    if (xg__parallel(P->nthreads, cell_count_worker, P) != XG_OK)
        return XG_ENOMEM;
    for (c = 0; c < side * side; c++) {
        uint32_t k = atomic_load_explicit(&P->cell[c], memory_order_relaxed);
        S->cstart[c] = (uint32_t)sum;
        atomic_store_explicit(&P->cell[c], (uint32_t)sum,
                              memory_order_relaxed);
        sum += k;
    }
    S->cstart[side * side] = (uint32_t)sum;
    if (xg__parallel(P->nthreads, cell_fill_worker, P) != XG_OK)
        return XG_ENOMEM;
    return xg__parallel(P->nthreads, cell_sort_worker, P);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Cuts at x quantiles of a sample; a strip holds the x in [edge[s],
 * edge[s+1]), the last one its right end too. */
static int plan(struct strips *S, const uint32_t *gid, size_t want)
{
    size_t ns = want * 64, i, s, step;
    double *sample;
    step = S->n / ns ? S->n / ns : 1;
    ns = (S->n + step - 1) / step;
    sample = malloc(ns * sizeof *sample);
    S->edge = malloc((want + 1) * sizeof *S->edge);
    if (!sample || !S->edge) {
        free(sample);
        return XG_ENOMEM;
    }
    for (i = 0; i < ns; i++)
        sample[i] = X(gid[i * step]);
    qsort(sample, ns, sizeof *sample, cmp_double);
    S->edge[0] = S->box[0];
    S->nstrip = 1;
    for (s = 1; s < want; s++) {
        double x = sample[ns * s / want];
        if (x > S->edge[S->nstrip - 1])
            S->edge[S->nstrip++] = x;
    }
    S->edge[S->nstrip] = nextafter(S->box[2], INFINITY);
    free(sample);
    return XG_OK;
}

static size_t strip_of(const struct strips *S, double x)
{
    size_t lo = 0, hi = S->nstrip;   /* edge[lo] <= x < edge[hi] */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (S->edge[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int xg__dt_strips(struct xg_ctx *ctx, const struct xg_set *pts,
                  const uint32_t *gid, size_t n, int nthreads, int nstrips,
                  struct xg_triangles *out, struct xg_stats *st)
{
    struct strips Sv, *S = &Sv;
    size_t k, s, total = 0, want;
    int rc = XG_ENOMEM;
    double t0 = xg__now();
    struct pass P;

    memset(&P, 0, sizeof P);
    memset(S, 0, sizeof *S);
    atomic_init(&S->next, 0);
    atomic_init(&S->failed, 0);
    S->pts = pts;
    S->n = n;
    S->nthreads = nthreads;
    memset(&P, 0, sizeof P);
    P.S = S;
    P.gid = gid;
    P.n = n;
    P.nthreads = nthreads;
    P.box = malloc((size_t)nthreads * sizeof *P.box);
    if (!P.box || xg__parallel(nthreads, box_worker, &P) != XG_OK)
        goto out;
    S->box[0] = S->box[1] = INFINITY;
    S->box[2] = S->box[3] = -INFINITY;
    for (k = 0; k < (size_t)nthreads; k++) {
        S->box[0] = P.box[k][0] < S->box[0] ? P.box[k][0] : S->box[0];
        S->box[1] = P.box[k][1] < S->box[1] ? P.box[k][1] : S->box[1];
        S->box[2] = P.box[k][2] > S->box[2] ? P.box[k][2] : S->box[2];
        S->box[3] = P.box[k][3] > S->box[3] ? P.box[k][3] : S->box[3];
    }
    /* about 4 strips per thread, none smaller than 4096 points */
    want = (size_t)nthreads * 4;
    if (want > n / 4096)
        want = n / 4096;
    if (nstrips > 0)
        want = (size_t)nstrips;
    if (want < 1)
        want = 1;
    if (plan(S, gid, want))
        goto out;
    /* first margins: about three mean point spacings, between a
     * twentieth and a quarter of a strip (the proof takes in what they
     * miss).  Six cost more in building the margins than the slow proofs
     * three leave: callgrind, 2.5e5 points in 16 strips, uniform 3.01G
     * -> 2.81G instructions, lattice and clustered alike. */
    {
        double w = (S->box[2] - S->box[0]) / (double)S->nstrip;
        double area = (S->box[2] - S->box[0]) * (S->box[3] - S->box[1]);
        double gap = sqrt(area / (double)n);
        S->margin = w > 0 ? 3 * gap / w : 0.25;
        S->margin = S->margin < 0.05 ? 0.05 : S->margin > 0.25 ? 0.25
                                                                : S->margin;
        if (!(S->margin == S->margin))
            S->margin = 0.25;
    }
    S->start = calloc(S->nstrip + 1, sizeof *S->start);
    S->item = malloc(n * sizeof *S->item);
    S->tri = calloc(S->nstrip, sizeof *S->tri);
    S->ntri = calloc(S->nstrip, sizeof *S->ntri);
    S->merged = calloc(S->nstrip, sizeof *S->merged);
    S->z_differ = calloc(S->nstrip, sizeof *S->z_differ);
    S->built = calloc(S->nstrip, sizeof *S->built);
    S->retried = calloc(S->nstrip, sizeof *S->retried);
    S->job = calloc(S->nstrip, sizeof *S->job);
    S->gid = calloc(S->nstrip, sizeof *S->gid);
    S->f = calloc(S->nstrip, sizeof *S->f);
    S->slow = calloc(S->nstrip, sizeof *S->slow);
    S->added = calloc(S->nstrip, sizeof *S->added);
    S->rc = calloc(S->nstrip, sizeof *S->rc);
    S->cnt = calloc((size_t)nthreads, sizeof *S->cnt);
    if (!S->start || !S->item || !S->tri || !S->ntri ||
        !S->merged || !S->z_differ || !S->built || !S->retried || !S->rc ||
        !S->cnt || !S->job || !S->gid || !S->f || !S->slow || !S->added)
        goto out;
    P.strip = malloc(n * sizeof *P.strip);
    P.count = calloc((size_t)nthreads * S->nstrip, sizeof *P.count);
    if (!P.strip || !P.count ||
        xg__parallel(nthreads, strip_count_worker, &P) != XG_OK)
        goto out;
    {
        /* strip by strip, thread by thread: counts become cursors */
        size_t sum = 0;
        int t;
        for (s = 0; s < S->nstrip; s++) {
            S->start[s] = (uint32_t)sum;
            for (t = 0; t < nthreads; t++) {
                size_t c = P.count[(size_t)t * S->nstrip + s];
                P.count[(size_t)t * S->nstrip + s] = sum;
                sum += c;
            }
        }
        S->start[S->nstrip] = (uint32_t)sum;
    }
    if (xg__parallel(nthreads, strip_fill_worker, &P) != XG_OK)
        goto out;
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;

    /* the whole set first, once: all on one line fails here */
    {
        size_t i1 = 0, i2 = 0;
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
        if (!i2) {
            rc = xg__error(ctx, XG_EDEGENERATE,
                           "%zu points: a triangulation needs three distinct "
                           "points not all on one line", n);
            goto out;
        }
    }

    t0 = xg__now();
    {
        struct xg_counters c0;
        memset(&c0, 0, sizeof c0);
        rc = xg__dt_hull_points(pts, gid, n, nthreads, &c0, &S->hull,
                                &S->nhull);
        xg_counters_add(&st->cnt, &c0);
        if (rc != XG_OK)
            goto out;
        if (S->nstrip > 1 && S->nhull > n / HULL_SHARE) {
            /* many points on the hull: circles as wide as the set */
            st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
            rc = xg__dt_seq(ctx, pts, gid, n, out, st);
            goto out;
        }
        if ((rc = grid_build(S, &P)) != XG_OK)
            goto out;
        rc = XG_ENOMEM;
    }
    st->seconds[XG_STAGE_PREPARE] += xg__now() - t0;
    t0 = xg__now();
    if (xg__parallel(nthreads, strip_worker, S) != XG_OK)
        goto out;
    for (s = 0; s < S->nstrip; s++)
        if (S->rc[s]) {
            rc = xg__error(ctx, S->rc[s], "out of memory in strip %zu", s);
            goto out;
        }
    if (atomic_load(&S->whole)) {
        /* the strips' work is dropped, so that the counts are the same
         * whatever strips ran before the flag: the seq engine's alone */
        double strips = xg__now() - t0;
        rc = xg__dt_seq(ctx, pts, gid, n, out, st);
        st->seconds[XG_STAGE_INTERSECT] += strips;
        goto out;
    }
    for (k = 0; k < (size_t)nthreads; k++)
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
    st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;

    t0 = xg__now();
    out->v = malloc((total ? total : 1) * sizeof *out->v);
    S->at = malloc((S->nstrip + 1) * sizeof *S->at);
    if (!out->v || !S->at)
        goto out;
    for (s = 0, k = 0; s < S->nstrip; s++) {
        S->at[s] = k;
        k += S->ntri[s];
    }
    S->out = out->v;
    if (xg__parallel(nthreads, gather_worker, S) != XG_OK)
        goto out;
    out->n = out->cap = total;
    if (xg__dt_canonical(out->v, total, pts->n, nthreads))
        goto out;
    st->seconds[XG_STAGE_UNIQUE] = xg__now() - t0;
    rc = XG_OK;
out:
    if (rc == XG_ENOMEM)
        rc = xg__error(ctx, XG_ENOMEM, "out of memory in the triangulation");
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
    free(P.box);
    free(P.strip);
    free(P.count);
    free(P.cell);
    free(S->merged);
    free(S->z_differ);
    free(S->built);
    free(S->retried);
    free(S->rc);
    free(S->cnt);
    free(S->edge);
    free(S->start);
    free(S->item);
    return rc;
}
