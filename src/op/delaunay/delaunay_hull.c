/*
 * delaunay_hull.c -- every point on the boundary of the convex hull of a
 * point set (corners and the points along its edges), for the cpu engine:
 * with them in every strip, a strip's hull is the whole set's.
 *
 * Akl-Toussaint first: the points extreme in eight directions span a
 * polygon, and a point strictly left of all its edges is strictly inside
 * the hull (its winding number about the point is positive, which no
 * point outside the polygon's hull nor on its boundary has), whatever
 * rounding chose the eight; the rest go through Andrew's monotone chain,
 * popping only on a strict right turn so that collinear boundary points
 * stay.  The audit (delaunay_check.c) keeps its own hull on purpose.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_delaunay.h"
#include "xg_thread.h"

/* One call's state, owned by xg__dt_hull_points: the eight extremes'
 * polygon, the threads' extremes and the points each thread kept. */
struct hull_job {
    const struct xg_set *pts;
    const uint32_t *gid;
    size_t n;
    int nthreads;
    const double *poly[8];
    double (*best)[8];   /* per thread: the extremes in each direction */
    const double *(*arg)[8];
    uint32_t **keep;     /* per thread */
    size_t *nkeep;
    int oom;
};

#define XY(g) (J->pts->xyz + 3 * (size_t)(g))

/* Strictly left of all eight edges, by the filter alone (a doubt keeps
 * the point: it only costs the chain a point); xg_orient2d_filter, whose
 * static stage settles nearly every point for a tenth of the interval
 * filter's cost (this pass looks at every point of the set). */
static int strictly_inside(const struct hull_job *J, const double *p)
{
    int k, edges = 0;
    for (k = 0; k < 8; k++) {
        const double *u = J->poly[k], *v = J->poly[(k + 1) % 8];
        if (u[0] == v[0] && u[1] == v[1])
            continue;   /* one corner extreme in two directions */
        edges++;
        if (xg_orient2d_filter(u, v, p) != XG_POS)
            return 0;
    }
    return edges >= 3;
}

/* directions: +x, +x+y, +y, -x+y, -x, -x-y, -y, +x-y (CCW) */
static const double dir[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                 {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

/* Thread tid's share of the points: its extreme point in each direction
 * into J->best[tid], J->arg[tid] (the first of equals). */
static void extreme_worker(void *arg, int tid)
{
    struct hull_job *J = arg;
    size_t lo, hi, k;
    int d;
    xg__share(J->n, J->nthreads, tid, &lo, &hi);
    for (d = 0; d < 8; d++) {
        J->best[tid][d] = -1.0 / 0.0;
        J->arg[tid][d] = NULL;
    }
    for (k = lo; k < hi; k++) {
        const double *p = XY(J->gid[k]);
        for (d = 0; d < 8; d++) {
            double v = dir[d][0] * p[0] + dir[d][1] * p[1];
            if (v > J->best[tid][d]) {
                J->best[tid][d] = v;
                J->arg[tid][d] = p;
            }
        }
    }
}

/* Thread tid's share of the points not proven strictly inside the
 * polygon into J->keep[tid] (J's; J->oom set when it cannot allocate). */
static void filter_worker(void *arg, int tid)
{
    struct hull_job *J = arg;
    size_t lo, hi, k, m = 0;
    uint32_t *keep;
    xg__share(J->n, J->nthreads, tid, &lo, &hi);
    keep = malloc((hi - lo + 1) * sizeof *keep);
    if (!keep) {
        J->oom = 1;
        return;
    }
    for (k = lo; k < hi; k++)
        if (!strictly_inside(J, XY(J->gid[k])))
            keep[m++] = J->gid[k];
    J->keep[tid] = keep;
    J->nkeep[tid] = m;
}

/* A point that may be on the hull: its (x, y), fid and set index. */
struct cand {
    double x, y;
    int64_t fid;
    uint32_t g;
};

/* qsort's order of candidates by (x, y). */
static int cmp_xy(const void *a, const void *b)
{
    const struct cand *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return 0;
}

/* (x, y), then the merge rule's order: the first of a run of copies is
 * the one xg_delaunay keeps */
static int cmp_keep(const void *a, const void *b)
{
    const struct cand *p = a, *q = b;
    int c = cmp_xy(a, b);
    if (c)
        return c;
    if (p->fid != q->fid)
        return p->fid < q->fid ? -1 : 1;
    return (p->g > q->g) - (p->g < q->g);
}

/* qsort's order of uint32_t. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* J->poly: the points extreme in the eight directions, from the threads'
 * extremes (the first thread's of equals).  XG_OK or XG_ENOMEM (J's
 * arrays for the caller to free). */
static int extremes(struct hull_job *J)
{
    double best[8];
    int d, t;
    J->best = malloc((size_t)J->nthreads * sizeof *J->best);
    J->arg = malloc((size_t)J->nthreads * sizeof *J->arg);
    if (!J->best || !J->arg ||
        xg__parallel(J->nthreads, extreme_worker, J) != XG_OK)
        return XG_ENOMEM;
    for (d = 0; d < 8; d++) {
        best[d] = -1.0 / 0.0;
        J->poly[d] = XY(J->gid[0]);
        for (t = 0; t < J->nthreads; t++)
            if (J->best[t][d] > best[d]) {
                best[d] = J->best[t][d];
                J->poly[d] = J->arg[t][d];
            }
    }
    return XG_OK;
}

/* The points the polygon does not prove inside, as candidates sorted by
 * (x, y), one per (x, y) (the copy xg_delaunay keeps), into *cand (the
 * caller frees it) and *m.  XG_OK or XG_ENOMEM. */
static int candidates(struct hull_job *J, struct cand **cand, size_t *m)
{
    size_t k, i, nc = 0;
    int t;
    struct cand *c;
    if (xg__parallel(J->nthreads, filter_worker, J) != XG_OK || J->oom)
        return XG_ENOMEM;
    for (t = 0; t < J->nthreads; t++)
        nc += J->nkeep[t];
    *cand = c = malloc((nc + 1) * sizeof *c);
    if (!c)
        return XG_ENOMEM;
    for (t = 0, nc = 0; t < J->nthreads; t++)
        for (k = 0; k < J->nkeep[t]; k++, nc++) {
            const double *p = XY(J->keep[t][k]);
            c[nc].x = p[0];
            c[nc].y = p[1];
            c[nc].fid = J->pts->fid[J->keep[t][k]];
            c[nc].g = J->keep[t][k];
        }
    qsort(c, nc, sizeof *c, cmp_keep);
    /* repeated (x, y): one copy */
    for (i = 0, k = 0; i < nc; i++)
        if (k == 0 || cmp_xy(&c[k - 1], &c[i]) != 0)
            c[k++] = c[i];
    *m = k;
    return XG_OK;
}

/* Andrew's monotone chain over cand[0 .. m-1] (sorted by (x, y)), popping
 * only on a strict right turn so that collinear boundary points stay:
 * chain[0 .. h-1] indices into cand, the boundary once round (chain
 * holds 2 m + 2).  Returns h. */
static size_t monotone_chain(const struct hull_job *J, struct xg_counters *cnt,
                             const struct cand *cand, size_t m,
                             uint32_t *chain)
{
    size_t h = 0, i, lower;
    for (i = 0; i < m; i++) {
        while (h >= 2 && xg_orient2d(cnt, XY(cand[chain[h - 2]].g),
                                     XY(cand[chain[h - 1]].g),
                                     XY(cand[i].g)) < 0)
            h--;
        chain[h++] = (uint32_t)i;
    }
    lower = h;
    for (i = m - 1; i-- > 0;) {
        while (h > lower && xg_orient2d(cnt, XY(cand[chain[h - 2]].g),
                                        XY(cand[chain[h - 1]].g),
                                        XY(cand[i].g)) < 0)
            h--;
        chain[h++] = (uint32_t)i;
    }
    /* chain[0 .. h-2] is the boundary (chain[h-1] repeats chain[0]) */
    return h > 1 ? h - 1 : h;
}

/* The chain's points as a set, sorted by (x, y), as set indices into
 * *out (the caller frees it) and *nout.  XG_OK or XG_ENOMEM. */
static int boundary_set(const struct cand *cand, const uint32_t *chain,
                        size_t h, uint32_t **out, size_t *nout)
{
    size_t i, k;
    uint32_t *g = malloc((h + 1) * sizeof *g);
    if (!g)
        return XG_ENOMEM;
    /* chain indices into the sorted candidates: sorting them sorts the
     * points; the first and last runs overlap in the corners */
    for (i = 0; i < h; i++)
        g[i] = chain[i];
    qsort(g, h, sizeof *g, cmp_u32);
    for (i = 0, k = 0; i < h; i++)
        if (k == 0 || g[k - 1] != g[i])
            g[k++] = g[i];
    for (i = 0; i < k; i++)
        g[i] = cand[g[i]].g;
    *out = g;
    *nout = k;
    return XG_OK;
}

/* The points on the hull's boundary (xg_delaunay.h): the eight extremes'
 * polygon, the points it does not prove inside, their chain, the chain
 * as a set.  *out is the caller's (NULL on failure). */
int xg__dt_hull_points(const struct xg_set *pts, const uint32_t *gid,
                       size_t n, int nthreads, struct xg_counters *cnt,
                       uint32_t **out, size_t *nout)
{
    struct hull_job Js, *J = &Js;
    size_t m = 0;
    struct cand *cand = NULL;
    uint32_t *chain = NULL;
    int rc;

    memset(J, 0, sizeof *J);
    J->pts = pts;
    J->gid = gid;
    J->n = n;
    J->nthreads = nthreads < 1 ? 1 : nthreads;
    *out = NULL;
    *nout = 0;
    J->keep = calloc((size_t)J->nthreads, sizeof *J->keep);
    J->nkeep = calloc((size_t)J->nthreads, sizeof *J->nkeep);
    rc = !J->keep || !J->nkeep ? XG_ENOMEM : extremes(J);
    if (rc == XG_OK)
        rc = candidates(J, &cand, &m);
    if (rc == XG_OK) {
        chain = malloc((2 * m + 2) * sizeof *chain);
        rc = chain ? XG_OK : XG_ENOMEM;
    }
    if (rc == XG_OK) {
        size_t h = monotone_chain(J, cnt, cand, m, chain);
        rc = boundary_set(cand, chain, h, out, nout);
    }
    if (J->keep) {
        int t;
        for (t = 0; t < J->nthreads; t++)
            free(J->keep[t]);
    }
    free(J->keep);
    free(J->nkeep);
    free(J->best);
    free(J->arg);
    free(cand);
    free(chain);
    return rc;
}
