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
#include "xg_filters.h"
#include "xg_thread.h"

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

struct cand {
    double x, y;
    int64_t fid;
    uint32_t g;
};

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

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int xg__dt_hull_points(const struct xg_set *pts, const uint32_t *gid,
                       size_t n, int nthreads, struct xg_counters *cnt,
                       uint32_t **out, size_t *nout)
{
    struct hull_job Js, *J = &Js;
    double best[8];
    size_t k, m = 0, h = 0, i, lower;
    struct cand *cand = NULL;
    uint32_t *chain = NULL;
    int d, t, rc = XG_ENOMEM;

    memset(J, 0, sizeof *J);
    J->pts = pts;
    J->gid = gid;
    J->n = n;
    J->nthreads = nthreads < 1 ? 1 : nthreads;
    *out = NULL;
    *nout = 0;
    J->keep = calloc((size_t)J->nthreads, sizeof *J->keep);
    J->nkeep = calloc((size_t)J->nthreads, sizeof *J->nkeep);
    J->best = malloc((size_t)J->nthreads * sizeof *J->best);
    J->arg = malloc((size_t)J->nthreads * sizeof *J->arg);
    if (!J->keep || !J->nkeep || !J->best || !J->arg ||
        xg__parallel(J->nthreads, extreme_worker, J) != XG_OK)
        goto out;
    for (d = 0; d < 8; d++) {
        best[d] = -1.0 / 0.0;
        J->poly[d] = XY(gid[0]);
        for (t = 0; t < J->nthreads; t++)
            if (J->best[t][d] > best[d]) {
                best[d] = J->best[t][d];
                J->poly[d] = J->arg[t][d];
            }
    }
    if (xg__parallel(J->nthreads, filter_worker, J) != XG_OK || J->oom)
        goto out;
    for (t = 0; t < J->nthreads; t++)
        m += J->nkeep[t];
    cand = malloc((m + 1) * sizeof *cand);
    chain = malloc((2 * m + 2) * sizeof *chain);
    if (!cand || !chain)
        goto out;
    for (t = 0, m = 0; t < J->nthreads; t++)
        for (k = 0; k < J->nkeep[t]; k++, m++) {
            const double *p = XY(J->keep[t][k]);
            cand[m].x = p[0];
            cand[m].y = p[1];
            cand[m].fid = pts->fid[J->keep[t][k]];
            cand[m].g = J->keep[t][k];
        }
    qsort(cand, m, sizeof *cand, cmp_keep);
    /* repeated (x, y): one copy */
    for (i = 0, k = 0; i < m; i++)
        if (k == 0 || cmp_xy(&cand[k - 1], &cand[i]) != 0)
            cand[k++] = cand[i];
    m = k;
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
    /* chain[0 .. h-2] is the boundary (chain[h-1] repeats chain[0]); as a
     * set, sorted by (x, y) */
    if (h > 1)
        h--;
    {
        uint32_t *g = malloc((h + 1) * sizeof *g);
        if (!g)
            goto out;
        /* chain indices into the sorted candidates: sorting them sorts
         * the points; the first and last runs overlap in the corners */
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
    }
    rc = XG_OK;
out:
    if (J->keep)
        for (t = 0; t < J->nthreads; t++)
            free(J->keep[t]);
    free(J->keep);
    free(J->nkeep);
    free(J->best);
    free(J->arg);
    free(cand);
    free(chain);
    return rc;
}
