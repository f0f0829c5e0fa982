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
#include "xg_filters.h"
#include "xg_thread.h"

struct strips {
    const struct xg_set *pts;
    size_t n, nstrip;
    double *edge;           /* nstrip + 1 x boundaries, edge[0] = xmin */
    uint32_t *start;        /* nstrip + 1: the strip's points are */
    uint32_t *item;         /* item[start[s] .. start[s+1]-1] */
    double box[4];          /* xmin, ymin, xmax, ymax of all points */
    int nthreads;
    /* results per strip */
    uint32_t (**tri)[3];
    size_t *ntri;
    uint64_t *merged, *z_differ, *tries, *built, *retried;
    struct xg_counters *cnt; /* per thread */
    int *rc;
    atomic_size_t next;     /* the next strip to take */
    atomic_int failed;
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

/* Whether the closed disk of circle (a, b, c) misses the points with x
 * <= lo (left) or x >= lo (right) within the y range; 1 only when proven. */
static int disk_clear(const double *a, const double *b, const double *c,
                      double lo, int left, const double box[4])
{
    struct xg_iv bx = xg_iv_diff(b[0], a[0]), by = xg_iv_diff(b[1], a[1]);
    struct xg_iv cx = xg_iv_diff(c[0], a[0]), cy = xg_iv_diff(c[1], a[1]);
    struct xg_iv b2 = xg_iv_add(xg_iv_sqr(bx), xg_iv_sqr(by));
    struct xg_iv c2 = xg_iv_add(xg_iv_sqr(cx), xg_iv_sqr(cy));
    struct xg_iv d = xg_iv_mul(xg_iv_point(2.0), xg__iv_det2(bx, by, cx, cy));
    struct xg_iv ux, uy, r2, h2, ccx, ccy;
    double h;
    if (xg_iv_sign(d) != XG_POS)
        return 0;
    ux = xg_iv_div(xg_iv_sub(xg_iv_mul(cy, b2), xg_iv_mul(by, c2)), d);
    uy = xg_iv_div(xg_iv_sub(xg_iv_mul(bx, c2), xg_iv_mul(cx, b2)), d);
    r2 = xg_iv_add(xg_iv_sqr(ux), xg_iv_sqr(uy));
    ccx = xg_iv_add(xg_iv_point(a[0]), ux);
    ccy = xg_iv_add(xg_iv_point(a[1]), uy);
    /* the half-width of the disk within the band ymin <= y <= ymax */
    if (ccy.hi < box[1])
        h2 = xg_iv_sub(r2, xg_iv_sqr(xg_iv_sub(xg_iv_point(box[1]), ccy)));
    else if (ccy.lo > box[3])
        h2 = xg_iv_sub(r2, xg_iv_sqr(xg_iv_sub(ccy, xg_iv_point(box[3]))));
    else
        h2 = r2;
    if (!(h2.hi == h2.hi) || h2.hi == INFINITY)
        return 0;
    if (h2.hi < 0)
        return 1;                       /* the disk misses the band */
    h = nextafter(nextafter(sqrt(h2.hi), INFINITY), INFINITY);
    if (left)
        return xg_iv_sub(ccx, xg_iv_point(h)).lo > lo;
    return xg_iv_add(ccx, xg_iv_point(h)).hi < lo;
}

/* Whether no point with x <= lo (left) or >= lo (right) in the box lies
 * beyond or on the line of ghost edge (a, b, G): all four corners of the
 * closed box strictly on the inner side. */
static int ghost_clear(struct xg_counters *cnt, const double *a,
                       const double *b, double lo, int left,
                       const double box[4])
{
    double xs[2], corner[2];
    int i, j;
    xs[0] = left ? box[0] : lo;
    xs[1] = left ? lo : box[2];
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            corner[0] = xs[i];
            corner[1] = box[1 + 2 * j];
            if (xg_orient2d(cnt, a, b, corner) >= 0)
                return 0;
        }
    return 1;
}

/* One try of strip s with margins of f strips: 1 done, 0 retry, < 0 an
 * error (negated code). */
static int strip_try(struct strips *S, size_t s, double f,
                     struct xg_counters *cnt)
{
    double lo = at(S, (double)s - f), hi = at(S, (double)s + 1 + f);
    double core_lo = s == 0 ? -INFINITY : S->edge[s];
    double core_hi = s + 1 == S->nstrip ? INFINITY : S->edge[s + 1];
    int need_left = lo > S->box[0], need_right = hi <= S->box[2];
    size_t j, j0, j1, m = 0, t, k;
    uint32_t *gid;
    struct xg__dt_job job;
    int rc, ok = 1;

    /* the strips the margins reach */
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
    if (S->start[s] == S->start[s + 1]) {
        free(gid);
        return 1;                       /* no points of its own */
    }
    memset(&job, 0, sizeof job);
    job.pts = S->pts;
    job.gid = gid;
    job.n = m;
    job.want_merges = 1;
    job.want_dt = 1;
    rc = xg__dt_build(&job);
    S->built[s]++;
    if (rc == XG_EDEGENERATE) {
        /* all on one line here: look wider (the whole set is checked
         * before the strips start) */
        xg_counters_add(cnt, &job.cnt);
        xg__dt_job_free(&job);
        free(gid);
        return 0;
    }
    if (rc != XG_OK) {
        xg__dt_job_free(&job);
        free(gid);
        return -rc;
    }
    /* prove every triangle at a vertex of the strip's own points */
    for (t = 0; t < job.dt.ntri && ok; t++) {
        const uint32_t *v = job.dt.v[t];
        int g = -1, core = 0;
        for (k = 0; k < 3; k++) {
            if (v[k] == XG_DT_GHOST)
                g = (int)k;
            else {
                double x = job.dt_xy[2 * (size_t)v[k]];
                core |= x >= core_lo && x < core_hi;
            }
        }
        if (!core)
            continue;
        if (g >= 0) {
            const double *a = job.dt_xy + 2 * (size_t)v[(g + 1) % 3];
            const double *b = job.dt_xy + 2 * (size_t)v[(g + 2) % 3];
            ok = (!need_left || ghost_clear(&job.cnt, a, b, lo, 1, S->box)) &&
                 (!need_right || ghost_clear(&job.cnt, a, b, hi, 0, S->box));
        } else {
            const double *a = job.dt_xy + 2 * (size_t)v[0];
            const double *b = job.dt_xy + 2 * (size_t)v[1];
            const double *c = job.dt_xy + 2 * (size_t)v[2];
            ok = (!need_left || disk_clear(a, b, c, lo, 1, S->box)) &&
                 (!need_right || disk_clear(a, b, c, hi, 0, S->box));
        }
    }
    xg_counters_add(cnt, &job.cnt);
    if (!ok) {
        S->retried[s]++;
        xg__dt_job_free(&job);
        free(gid);
        return 0;
    }
    /* the strip's triangles: those whose smallest index is its own */
    {
        size_t nt = 0;
        uint32_t (*out)[3] = malloc((job.ntri ? job.ntri : 1) * sizeof *out);
        if (!out) {
            xg__dt_job_free(&job);
            free(gid);
            return -XG_ENOMEM;
        }
        for (t = 0; t < job.ntri; t++) {
            const uint32_t *v = job.tri[t];
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
        for (k = 0; k < m; k++) {
            double x = X(gid[k]);
            if (x >= core_lo && x < core_hi) {
                S->merged[s] += job.merged[k];
                S->z_differ[s] += job.z_differ[k];
            }
        }
    }
    xg__dt_job_free(&job);
    free(gid);
    return 1;
}

static void strip_worker(void *arg, int tid)
{
    struct strips *S = arg;
    for (;;) {
        size_t s;
        double f = 0.25;
        int r;
        s = atomic_fetch_add(&S->next, 1);
        if (s >= S->nstrip || atomic_load(&S->failed))
            return;
        while ((r = strip_try(S, s, f, &S->cnt[tid])) == 0)
            f *= 2;
        if (r < 0) {
            S->rc[s] = -r;
            atomic_store(&S->failed, 1);
        }
    }
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
    uint32_t *fill = NULL;

    memset(S, 0, sizeof *S);
    atomic_init(&S->next, 0);
    atomic_init(&S->failed, 0);
    S->pts = pts;
    S->n = n;
    S->nthreads = nthreads;
    S->box[0] = S->box[2] = pts->xyz[3 * (size_t)gid[0]];
    S->box[1] = S->box[3] = pts->xyz[3 * (size_t)gid[0] + 1];
    for (k = 1; k < n; k++) {
        const double *p = pts->xyz + 3 * (size_t)gid[k];
        S->box[0] = p[0] < S->box[0] ? p[0] : S->box[0];
        S->box[1] = p[1] < S->box[1] ? p[1] : S->box[1];
        S->box[2] = p[0] > S->box[2] ? p[0] : S->box[2];
        S->box[3] = p[1] > S->box[3] ? p[1] : S->box[3];
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
    S->start = calloc(S->nstrip + 1, sizeof *S->start);
    S->item = malloc(n * sizeof *S->item);
    fill = malloc(S->nstrip * sizeof *fill);
    S->tri = calloc(S->nstrip, sizeof *S->tri);
    S->ntri = calloc(S->nstrip, sizeof *S->ntri);
    S->merged = calloc(S->nstrip, sizeof *S->merged);
    S->z_differ = calloc(S->nstrip, sizeof *S->z_differ);
    S->built = calloc(S->nstrip, sizeof *S->built);
    S->retried = calloc(S->nstrip, sizeof *S->retried);
    S->tries = NULL;
    S->rc = calloc(S->nstrip, sizeof *S->rc);
    S->cnt = calloc((size_t)nthreads, sizeof *S->cnt);
    if (!S->start || !S->item || !fill || !S->tri || !S->ntri ||
        !S->merged || !S->z_differ || !S->built || !S->retried || !S->rc ||
        !S->cnt)
        goto out;
    for (k = 0; k < n; k++)
        S->start[strip_of(S, X(gid[k])) + 1]++;
    for (s = 0; s < S->nstrip; s++)
        S->start[s + 1] += S->start[s];
    memcpy(fill, S->start, S->nstrip * sizeof *fill);
    for (k = 0; k < n; k++)
        S->item[fill[strip_of(S, X(gid[k]))]++] = gid[k];
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
    if (xg__parallel(nthreads, strip_worker, S) != XG_OK)
        goto out;
    for (s = 0; s < S->nstrip; s++)
        if (S->rc[s]) {
            rc = xg__error(ctx, S->rc[s], "out of memory in strip %zu", s);
            goto out;
        }
    for (k = 0; k < (size_t)nthreads; k++)
        xg_counters_add(&st->cnt, &S->cnt[k]);
    for (s = 0; s < S->nstrip; s++) {
        total += S->ntri[s];
        st->a_skipped += S->merged[s];
        st->z_differ += S->z_differ[s];
        st->candidates += S->built[s];
        st->deferred += S->retried[s];
    }
    st->bbox_pairs = total;
    st->grid[0] = (int)S->nstrip;
    st->grid[1] = st->grid[2] = 1;
    st->seconds[XG_STAGE_INTERSECT] = xg__now() - t0;

    t0 = xg__now();
    out->v = malloc((total ? total : 1) * sizeof *out->v);
    if (!out->v)
        goto out;
    for (s = 0, k = 0; s < S->nstrip; s++) {
        memcpy(out->v + k, S->tri[s], S->ntri[s] * sizeof *out->v);
        k += S->ntri[s];
    }
    out->n = out->cap = total;
    if (xg__dt_canonical(out->v, total, pts->n))
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
    free(S->merged);
    free(S->z_differ);
    free(S->built);
    free(S->retried);
    free(S->rc);
    free(S->cnt);
    free(S->edge);
    free(S->start);
    free(S->item);
    free(fill);
    return rc;
}
