/*
 * delaunay_check.c -- xg_delaunay_check: an exact audit of any
 * triangulation of a point set (ours or a peer's), built from nothing the
 * engines use but the predicates: the points sorted by (x, y), the convex
 * hull by Andrew's monotone chain, the edges sorted by their ends.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "xg_delaunay.h"
#include "xg_ctx.h"

/* A double's bits as an unsigned key in the double's order. */
static uint64_t order_key(double d)
{
    uint64_t u;
    if (d == 0)
        d = 0.0;   /* -0 sorts with +0: the same coordinate */
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : u | (1ull << 63);
}

/* One audit's state: the points grouped by (x, y), the triangles and
 * their directed edges, what the edges found on the boundary.  Every
 * array is the audit's, freed by check_free. */
struct check {
    const struct xg_set *pts;
    size_t n;
    uint32_t *sorted;    /* set indices by (x, y) */
    uint32_t *group;     /* per set index: its distinct point's number */
    size_t ngroup;
    uint32_t *rep;       /* per group: one set index */
    const uint32_t (*t)[3];
    size_t nt, ne;       /* triangles, edge slots (3 nt) */
    struct xg_counters cnt;
    uint8_t *used;       /* per set index: a vertex of a valid triangle */
    uint64_t *ekey;      /* slot 3 i + k: the directed edge v[k] -> v[k+1]
                            as a << 32 | b, UINT64_MAX for a bad triangle */
    uint32_t *eval;      /* the slots, sorted along with ekey */
    uint64_t *bkey;      /* edges without a twin: group pairs */
    size_t nb;
};

#define XY(i) (C->pts->xyz + 3 * (size_t)(i))

/* Whether p and q have the same (x, y). */
static int same_xy(const double *p, const double *q)
{
    return p[0] == q[0] && p[1] == q[1];
}

/* C->sorted: the set indices by (x, y) (two stable radix passes, y then
 * x); C->group, C->rep and ngroup: the distinct points.  XG_OK or
 * XG_ENOMEM (the arrays for check_free). */
static int sort_points(struct check *C)
{
    uint64_t *key = malloc(C->n * sizeof *key);
    size_t i;
    int rc = XG_ENOMEM;
    C->sorted = malloc(C->n * sizeof *C->sorted);
    C->group = malloc(C->n * sizeof *C->group);
    C->rep = malloc(C->n * sizeof *C->rep);
    if (!key || !C->sorted || !C->group || !C->rep)
        goto out;
    for (i = 0; i < C->n; i++) {
        C->sorted[i] = (uint32_t)i;
        key[i] = order_key(XY(i)[1]);
    }
    if (xg__radix_sort64(key, C->sorted, C->n, 64))
        goto out;
    for (i = 0; i < C->n; i++)
        key[i] = order_key(XY(C->sorted[i])[0]);
    if (xg__radix_sort64(key, C->sorted, C->n, 64))
        goto out;
    C->ngroup = 0;
    for (i = 0; i < C->n; i++) {
        if (i == 0 || !same_xy(XY(C->sorted[i]), XY(C->sorted[i - 1])))
            C->rep[C->ngroup++] = C->sorted[i];
        C->group[C->sorted[i]] = (uint32_t)(C->ngroup - 1);
    }
    rc = XG_OK;
out:
    free(key);
    return rc;
}

/* The hull's directed edges (CCW) as group pairs g_a << 32 | g_b, sorted,
 * into *out (the caller frees it) and *nout; collinear points on the
 * hull's edges are hull vertices.  C->rep in (x, y) order.  XG_OK or
 * XG_ENOMEM. */
static int hull_edges(struct check *C, struct xg_counters *cnt, uint64_t **out,
                      size_t *nout)
{
    size_t m = C->ngroup, k = 0, i, lower;
    uint32_t *h = malloc((2 * m + 2) * sizeof *h), *dummy;
    uint64_t *e;
    int rc;
    if (!h)
        return XG_ENOMEM;
    /* lower chain left to right, then upper right to left; pop on a
     * strict right turn only, so collinear points stay */
    for (i = 0; i < m; i++) {
        while (k >= 2 && xg_orient2d(cnt, XY(C->rep[h[k - 2]]),
                                     XY(C->rep[h[k - 1]]),
                                     XY(C->rep[i])) < 0)
            k--;
        h[k++] = (uint32_t)i;
    }
    lower = k;
    for (i = m - 1; i-- > 0;) {
        while (k > lower && xg_orient2d(cnt, XY(C->rep[h[k - 2]]),
                                        XY(C->rep[h[k - 1]]),
                                        XY(C->rep[i])) < 0)
            k--;
        h[k++] = (uint32_t)i;
    }
    /* h[0 .. k-1] with h[k-1] == h[0]: k - 1 edges */
    e = malloc((k ? k : 1) * sizeof *e);
    dummy = malloc((k ? k : 1) * sizeof *dummy);
    if (!e || !dummy) {
        free(h);
        free(e);
        free(dummy);
        return XG_ENOMEM;
    }
    for (i = 0; i + 1 < k; i++)
        e[i] = (uint64_t)h[i] << 32 | h[i + 1];
    *nout = k ? k - 1 : 0;
    rc = xg__radix_sort64(e, dummy, *nout, 64);
    free(dummy);
    free(h);
    if (rc != XG_OK) {
        free(e);
        return rc;
    }
    *out = e;
    return XG_OK;
}

/* The index of k in key[0 .. n-1] (sorted ascending), SIZE_MAX when
 * absent. */
static size_t find_key(const uint64_t *key, size_t n, uint64_t k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && key[lo] == k ? lo : SIZE_MAX;
}

/* Each triangle's indices (in range, distinct: else bad_index) and turn
 * (counter-clockwise: else not_ccw) into rep; C->used, and C->ekey and
 * eval, a slot per directed edge.  XG_OK or XG_ENOMEM. */
static int check_triangles(struct check *C, struct xg_delaunay_report *rep)
{
    size_t i, ne = C->ne;
    C->used = calloc(C->n ? C->n : 1, 1);
    C->ekey = malloc((ne ? ne : 1) * sizeof *C->ekey);
    C->eval = malloc((ne ? ne : 1) * sizeof *C->eval);
    if (!C->used || !C->ekey || !C->eval)
        return XG_ENOMEM;
    for (i = 0; i < C->nt; i++) {
        const uint32_t *v = C->t[i];
        int k, bad = 0;
        for (k = 0; k < 3; k++)
            bad |= v[k] >= C->n;
        bad |= v[0] == v[1] || v[1] == v[2] || v[0] == v[2];
        if (bad) {
            rep->bad_index++;
            C->ekey[3 * i] = C->ekey[3 * i + 1] = C->ekey[3 * i + 2] =
                UINT64_MAX;
        } else {
            if (xg_orient2d(&C->cnt, XY(v[0]), XY(v[1]), XY(v[2])) <= 0)
                rep->not_ccw++;
            for (k = 0; k < 3; k++) {
                C->used[v[k]] = 1;
                C->ekey[3 * i + k] = (uint64_t)v[k] << 32 | v[(k + 1) % 3];
            }
        }
        for (k = 0; k < 3; k++)
            C->eval[3 * i + k] = (uint32_t)(3 * i + (size_t)k);
    }
    return XG_OK;
}

/* rep->missing: the distinct points that are not exactly one vertex
 * (none of its copies used, or several).  XG_OK or XG_ENOMEM. */
static int count_missing(const struct check *C,
                         struct xg_delaunay_report *rep)
{
    size_t i;
    uint32_t *uses = calloc(C->ngroup ? C->ngroup : 1, sizeof *uses);
    if (!uses)
        return XG_ENOMEM;
    for (i = 0; i < C->n; i++)
        uses[C->group[i]] += C->used[i];
    for (i = 0; i < C->ngroup; i++)
        rep->missing += uses[i] == 0 ? 1 : uses[i] - 1;
    free(uses);
    return XG_OK;
}

/* The edges sorted: a directed edge twice is a bad edge; one without its
 * twin goes to C->bkey (as a group pair) for the boundary; an interior
 * edge is checked once, exactly (not_delaunay) and by the perturbation's
 * rule (not_canonical).  C->ekey, eval from check_triangles.  XG_OK or
 * XG_ENOMEM. */
static int check_edges(struct check *C, struct xg_delaunay_report *rep)
{
    const uint64_t *ekey = C->ekey;
    size_t i, ne = C->ne;
    if (xg__radix_sort64(C->ekey, C->eval, ne, 64))
        return XG_ENOMEM;
    C->bkey = malloc((ne ? ne : 1) * sizeof *C->bkey);
    if (!C->bkey)
        return XG_ENOMEM;
    for (i = 0; i < ne && ekey[i] != UINT64_MAX; i++) {
        uint32_t a = (uint32_t)(ekey[i] >> 32), b = (uint32_t)ekey[i];
        size_t j;
        if (i + 1 < ne && ekey[i + 1] == ekey[i]) {
            rep->bad_edges++;   /* the same directed edge twice */
            continue;
        }
        j = find_key(ekey, ne, (uint64_t)b << 32 | a);
        if (j == SIZE_MAX) {
            C->bkey[C->nb++] = (uint64_t)C->group[a] << 32 | C->group[b];
            continue;
        }
        if (a < b) {
            /* interior edge once: c opposite a->b, d opposite b->a */
            uint32_t ti = C->eval[i] / 3, ki = C->eval[i] % 3;
            uint32_t tj = C->eval[j] / 3, kj = C->eval[j] % 3;
            uint32_t c = C->t[ti][(ki + 2) % 3], d = C->t[tj][(kj + 2) % 3];
            int s = xg_incircle(&C->cnt, XY(a), XY(b), XY(c), XY(d));
            if (s > 0)
                rep->not_delaunay++;
            else if (s == 0 && xg__dt_incircle(&C->cnt, XY(a), XY(b), XY(c),
                                               XY(d)) > 0)
                rep->not_canonical++;
        }
    }
    assert(C->nb <= ne);
    return XG_OK;
}

/* The boundary edges (C->bkey) against the hull's: each one on one side
 * only is a bad edge; rep->hull_vertices.  Needs two distinct points.
 * XG_OK or XG_ENOMEM. */
static int check_boundary(struct check *C, struct xg_delaunay_report *rep)
{
    size_t x = 0, y = 0, nb = C->nb, nhull = 0;
    uint64_t *hull = NULL, *bkey = C->bkey;
    uint32_t *dummy = malloc((nb ? nb : 1) * sizeof *dummy);
    if (!dummy || hull_edges(C, &C->cnt, &hull, &nhull)) {
        free(dummy);
        return XG_ENOMEM;
    }
    if (xg__radix_sort64(bkey, dummy, nb, 64)) {
        free(dummy);
        free(hull);
        return XG_ENOMEM;
    }
    free(dummy);
    while (x < nb || y < nhull) {
        if (x < nb && y < nhull && bkey[x] == hull[y]) {
            x++;
            y++;
        } else if (y >= nhull || (x < nb && bkey[x] < hull[y])) {
            rep->bad_edges++;
            x++;
        } else {
            rep->bad_edges++;
            y++;
        }
    }
    rep->hull_vertices = nhull;
    free(hull);
    return XG_OK;
}

/* Frees C's arrays. */
static void check_free(struct check *C)
{
    free(C->sorted);
    free(C->group);
    free(C->rep);
    free(C->used);
    free(C->ekey);
    free(C->eval);
    free(C->bkey);
}

/* The audit (exactgeo.h): the points grouped, each triangle's indices
 * and turn, every distinct point one vertex, the edges paired and the
 * interior ones Delaunay, the boundary the hull, the count 2 points -
 * hull vertices - 2.  rep is the caller's; XG_EINVAL, XG_ELIMIT or
 * XG_ENOMEM with ctx's message. */
int xg_delaunay_check(struct xg_ctx *ctx, const struct xg_set *pts,
                      const uint32_t (*t)[3], size_t nt,
                      struct xg_delaunay_report *rep)
{
    struct check Cs, *C = &Cs;
    int rc = XG_ENOMEM;

    memset(C, 0, sizeof *C);
    if (!ctx || !pts || !rep || (nt && !t))
        return ctx ? xg__error(ctx, XG_EINVAL, "NULL argument") : XG_EINVAL;
    memset(rep, 0, sizeof *rep);
    if (pts->n && pts->elem != XG_ELEM_POINT)
        return xg__error(ctx, XG_EINVAL, "not a point set");
    if (nt > UINT32_MAX / 3)
        return xg__error(ctx, XG_ELIMIT, "too many triangles");
    C->pts = pts;
    C->n = pts->n;
    C->t = t;
    C->nt = nt;
    C->ne = 3 * nt;
    rep->triangles = nt;
    if (sort_points(C))
        goto out;
    rep->points = C->ngroup;
    if (check_triangles(C, rep) || count_missing(C, rep) ||
        check_edges(C, rep))
        goto out;
    /* the boundary is the hull */
    if (C->ngroup >= 2 && check_boundary(C, rep))
        goto out;
    {
        long long want = 2 * (long long)rep->points -
                         (long long)rep->hull_vertices - 2;
        long long d = (long long)nt - want;
        rep->count_off = (uint64_t)(d < 0 ? -d : d);
    }
    rc = XG_OK;
out:
    check_free(C);
    if (rc != XG_OK)
        return xg__error(ctx, rc, "out of memory while checking");
    return XG_OK;
}
