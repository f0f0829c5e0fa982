/*
 * earclip.c -- exact triangulation of a planar polygon with holes by ear
 * clipping (xg_triangulate).
 * Steps 3, 5 and 6 live in earclip_rings.c, step 7 in earclip_bridge.c,
 * the rest here; xg_earclip.h holds what they share.
 *
 * Steps, each decided with exact predicates only (xg_orient3d, xg_orient2d
 * and comparisons of doubles, which are exact):
 *   1. drop repeated consecutive vertices (the first copy is kept);
 *   2. find three non-collinear vertices and require every vertex to be
 *      exactly coplanar with them; project along the axis that keeps the
 *      plane's area (xg__projection_axis), an affine bijection, so 2D
 *      answers are the 3D answers;
 *   3. split every edge at the vertices of other rings lying inside it
 *      (input vertices: no new point), then check that no ring touches
 *      itself and that rings meet only at vertices of both;
 *   4. orient the outer ring counter-clockwise and the holes clockwise;
 *   5. group the touch points (vertices of several rings at one point)
 *      and require the graph of rings and touch points to be a forest;
 *   6. check that every hole lies inside the outer ring and outside the
 *      other holes;
 *   7. merge the rings into one: the outer ring's touch component by
 *      splicing each hole in at its touch point, then each other hole by
 *      a bridge to the merged ring (holes taken by decreasing rightmost
 *      vertex, the classic order that guarantees a bridge exists, every
 *      bridge checked exactly for visibility) followed by its own touch
 *      component, spliced;
 *   8. clip ears off the resulting weakly simple ring.
 *
 * Accepted: the polygons that are valid in the OGC simple-features sense,
 * where rings may touch each other at isolated points, at a vertex of
 * both or at a vertex of one inside an edge of the other.  Refused with
 * XG_EDEGENERATE, and steps 3 to 6 are complete for these: a ring that
 * touches or crosses itself (so a self-touching outer ring, the "inverted
 * hole", too), adjacent edges folding back onto each other, rings that
 * cross, rings sharing a stretch of an edge (two shared points), a hole
 * outside the outer ring or inside another hole, and rings touching in a
 * cycle (a hole touching the outer ring twice, two holes touching twice,
 * three holes in a ring...), whose interior is not connected.  Vertices
 * that are collinear with their neighbours are kept, and no triangle with
 * zero area is produced, so the result is conforming with neighbouring
 * faces that share those vertices.  With n vertices left after step 1, s
 * points where step 3 split edges (one vertex per point), h holes and
 * touch points where m_1, m_2, ... rings meet, there are exactly
 * n + s - 2 + 2 * (h - t) triangles, t = sum (m_i - 1): each merge at a
 * touch point saves a bridge's two triangles.  A split point appears in
 * the triangles as the index of the other ring's vertex there.
 *
 * Why ear clipping is exact here: after step 7 the ring is weakly simple,
 * touching itself only at bridge ends, along the two copies of each bridge
 * and at touch points, and it runs once around a region whose interior
 * less the bridges is connected and simply connected (one bridge per touch
 * component and a forest of touches: no loop of cuts).  At a touch point
 * each occurrence in the ring owns its own sector of the region, and the
 * sectors are disjoint.  An ear p, v, n (counter-clockwise, strictly
 * convex at v) may be cut exactly when no vertex of the ring lies in the
 * open triangle or on the open diagonal pn: an edge reaching those places
 * without such a vertex would have to cross an edge properly, pass through
 * a vertex, or enter the triangle at p, v or n from another occurrence of
 * that point; at v the triangle lies in this occurrence's sector, and an
 * edge from p or n into the open triangle must end in it or cross pv, vn.
 * Nor can pn be an edge: the triangle would then be a piece of the region
 * on its own.  Cutting the ear keeps the region connected (the rest meets
 * the triangle along the open diagonal).  Every non-degenerate
 * triangulation of such a region has at least two such ears, so the
 * clipping never stalls on valid input; when it does, the input was not
 * valid and the answer is XG_EDEGENERATE.
 *
 * Cost: O(n^2) predicates for step 3 (with exact bounding-box rejects),
 * O(n log n) for step 5, O(n h) for step 6, O(n^2) per hole for step 7 in
 * the worst case, and O(n^2) typical, O(n^3) worst case, for step 8.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "xg_earclip.h"
#include "xg_exact.h"
#include "xg_interval.h"

/* Non-zero when the points a and b (x, y, z) are equal bit for bit
 * but for the sign of zero: a repeated vertex. */
static int same3(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Sign of the orientation of simple ring r: the turn at its least
 * vertex in (x, y) order, which is strictly convex. */
static int ring_orientation(const struct xg__poly *P, size_t r)
{
    size_t a, lo = P->start[r], prev = P->start[r + 1] - 1, lo_prev = prev;
    for (a = P->start[r]; a < P->start[r + 1]; prev = a, a++)
        if (P->p[a][0] < P->p[lo][0] ||
            (P->p[a][0] == P->p[lo][0] && P->p[a][1] < P->p[lo][1])) {
            lo = a;
            lo_prev = prev;
        }
    return orient(P, lo_prev, lo, P->next[lo]);
}

/* Reverses the vertex order of ring r in place (points and input
 * indexes together), which turns its orientation. */
static void reverse_ring(struct xg__poly *P, size_t r)
{
    size_t i = P->start[r], j = P->start[r + 1] - 1;
    for (; i < j; i++, j--) {
        double x = P->p[i][0], y = P->p[i][1];
        uint32_t t = P->idx[i];
        P->p[i][0] = P->p[j][0];
        P->p[i][1] = P->p[j][1];
        P->p[j][0] = x;
        P->p[j][1] = y;
        P->idx[i] = P->idx[j];
        P->idx[j] = t;
    }
}

/* Ear test at position v of the linked ring (prv, nxt over positions). */
static int is_ear(const struct xg__poly *P, const size_t *ring,
                  const size_t *prv, const size_t *nxt, size_t v)
{
    size_t a = ring[prv[v]], b = ring[v], c = ring[nxt[v]], w;
    double lo[2], hi[2];
    int k;
    if (orient(P, a, b, c) <= 0)
        return 0;
    for (k = 0; k < 2; k++) {
        lo[k] = fmin(P->p[a][k], fmin(P->p[b][k], P->p[c][k]));
        hi[k] = fmax(P->p[a][k], fmax(P->p[b][k], P->p[c][k]));
    }
    for (w = nxt[nxt[v]]; w != prv[v]; w = nxt[w]) {
        size_t q = ring[w];
        const double *Q = P->p[q];
        if (Q[0] < lo[0] || Q[0] > hi[0] || Q[1] < lo[1] || Q[1] > hi[1])
            continue;
        if (orient(P, a, b, q) > 0 && orient(P, b, c, q) > 0 &&
            orient(P, c, a, q) >= 0)
            return 0;
    }
    return 1;
}

/* Step 8: writes len - 2 triangles to out (input indices). */
static int clip_ears(const struct xg__poly *P, const size_t *ring, size_t len,
                     size_t *prv, size_t *nxt, int flip, uint32_t *out)
{
    size_t i, v = 0, left = len, fails = 0, t = 0;
    for (i = 0; i < len; i++) {
        prv[i] = (i + len - 1) % len;
        nxt[i] = (i + 1) % len;
    }
    for (;;) {
        int last = left == 3;
        if (last ? orient(P, ring[prv[v]], ring[v], ring[nxt[v]]) > 0
                 : is_ear(P, ring, prv, nxt, v)) {
            uint32_t a = P->idx[ring[prv[v]]], b = P->idx[ring[v]];
            uint32_t c = P->idx[ring[nxt[v]]];
            out[3 * t] = flip ? c : a;
            out[3 * t + 1] = b;
            out[3 * t + 2] = flip ? a : c;
            t++;
            if (last)
                return XG_OK;
            nxt[prv[v]] = nxt[v];
            prv[nxt[v]] = prv[v];
            v = nxt[v];
            left--;
            fails = 0;
        } else {
            if (last || ++fails > left)
                return XG_EDEGENERATE;  /* the ring was not simple */
            v = nxt[v];
        }
    }
}

/* Steps 1 and 2.  Fills P (p, idx, start, next, rid) from the input. */
static int load(struct xg__poly *P, const double *xyz,
                const size_t *ring_start)
{
    size_t r, i, nv = 0, a = 0, b = 0, c;
    double tri[9];
    int drop = -1, o;

    for (r = 0; r < P->nring; r++) {
        size_t first = nv;
        P->start[r] = nv;
        for (i = ring_start[r]; i < ring_start[r + 1]; i++)
            if (nv == first || !same3(xyz + 3 * i, xyz + 3 * P->idx[nv - 1]))
                P->idx[nv++] = (uint32_t)i;
        while (nv - first > 1 &&
               same3(xyz + 3 * P->idx[nv - 1], xyz + 3 * P->idx[first]))
            nv--;
        if (nv - first < 3)
            return XG_EDEGENERATE;
    }
    P->start[P->nring] = P->nv = nv;

    /* Three non-collinear vertices a, b, c, and the axis to drop. */
    for (b = 1; b < nv && same3(xyz + 3 * P->idx[a], xyz + 3 * P->idx[b]); b++)
        ;
    for (c = b + 1; c < nv && drop < 0; c++) {
        memcpy(tri, xyz + 3 * P->idx[a], 3 * sizeof(double));
        memcpy(tri + 3, xyz + 3 * P->idx[b], 3 * sizeof(double));
        memcpy(tri + 6, xyz + 3 * P->idx[c], 3 * sizeof(double));
        drop = xg__projection_axis(P->cnt, tri, &o);
    }
    if (drop < 0)
        return XG_EDEGENERATE;
    for (i = 0; i < nv; i++)
        if (xg_orient3d(P->cnt, tri, tri + 3, tri + 6, xyz + 3 * P->idx[i]) !=
            XG_ZERO)
            return XG_ENONPLANAR;

    for (r = 0; r < P->nring; r++)
        for (i = P->start[r]; i < P->start[r + 1]; i++) {
            xg__project(xyz + 3 * P->idx[i], drop, P->p[i]);
            P->next[i] = i + 1 < P->start[r + 1] ? i + 1 : P->start[r];
            P->rid[i] = r;
        }
    return XG_OK;
}

int xg_triangulate(struct xg_counters *cnt, const double *xyz,
                   const size_t *ring_start, size_t nrings, uint32_t **tri,
                   size_t *ntri)
{
    struct xg__poly P = {0};
    size_t n, i, r, len = 0, room, *ring = NULL, *prv = NULL, *nxt = NULL;
    size_t *hole = NULL, *stack = NULL;
    unsigned char *merged = NULL;
    struct xg__bridge_cand *cand = NULL;
    uint32_t *out = NULL;
    int rc, flip = 0;

    if (!tri || !ntri)
        return XG_EINVAL;
    *tri = NULL;
    *ntri = 0;
    if (!xyz || !ring_start || nrings == 0)
        return XG_EINVAL;
    for (r = 0; r < nrings; r++)
        if (ring_start[r + 1] < ring_start[r])
            return XG_EINVAL;
    n = ring_start[nrings];
    if (n > UINT32_MAX || nrings > SIZE_MAX / 4)
        return XG_ELIMIT;
    for (i = ring_start[0]; i < n; i++)
        if (!isfinite(xyz[3 * i]) || !isfinite(xyz[3 * i + 1]) ||
            !isfinite(xyz[3 * i + 2]))
            return XG_EINVAL;

    P.cnt = cnt;
    P.nring = nrings;
    P.p = malloc((n + 1) * sizeof *P.p);
    P.idx = malloc((n + 1) * sizeof *P.idx);
    P.start = malloc((nrings + 1) * sizeof *P.start);
    P.next = malloc((n + 1) * sizeof *P.next);
    P.rid = malloc((n + 1) * sizeof *P.rid);
    rc = XG_ENOMEM;
    if (!P.p || !P.idx || !P.start || !P.next || !P.rid)
        goto done;
    if ((rc = load(&P, xyz, ring_start)) != XG_OK ||
        (rc = xg__earclip_split_edges(&P)) != XG_OK ||
        (rc = xg__earclip_check_edges(&P)) != XG_OK)
        goto done;

    /* P.nv <= 2 n now (xg__earclip_split_edges adds a vertex at most once) */
    room = P.nv + 2 * nrings;
    P.grp = malloc((P.nv + 1) * sizeof *P.grp);
    P.gv = malloc((P.nv + 1) * sizeof *P.gv);
    P.gs = malloc((P.nv + 1) * sizeof *P.gs);
    ring = malloc(room * sizeof *ring);
    prv = malloc(room * sizeof *prv);
    nxt = malloc(room * sizeof *nxt);
    cand = malloc(room * sizeof *cand);
    hole = malloc(nrings * sizeof *hole);
    stack = malloc(nrings * sizeof *stack);
    merged = malloc(nrings);
    rc = XG_ENOMEM;
    if (!P.grp || !P.gv || !P.gs || !ring || !prv || !nxt || !cand ||
        !hole || !stack || !merged)
        goto done;

    for (r = 0; r < nrings; r++) {
        int s = ring_orientation(&P, r);
        if (s == XG_ZERO) {
            rc = XG_EDEGENERATE;    /* excluded by xg__earclip_check_edges */
            goto done;
        }
        if ((r == 0) != (s > 0)) {
            reverse_ring(&P, r);
            if (r == 0)
                flip = 1;           /* give triangles the input's turn */
        }
    }
    if ((rc = xg__earclip_check_touches(&P)) != XG_OK ||
        (rc = xg__earclip_check_nesting(&P)) != XG_OK ||
        (rc = xg__earclip_join_holes(&P, ring, &len, cand, hole, stack,
                                     merged)) != XG_OK)
        goto done;
    rc = XG_ENOMEM;
    if (!(out = malloc(3 * (len - 2) * sizeof *out)))
        goto done;
    if ((rc = clip_ears(&P, ring, len, prv, nxt, flip, out)) != XG_OK)
        goto done;
    *tri = out;
    *ntri = len - 2;
    out = NULL;
done:
    free(out);
    free(P.p);
    free(P.idx);
    free(P.start);
    free(P.next);
    free(P.rid);
    free(P.grp);
    free(P.gv);
    free(P.gs);
    free(ring);
    free(prv);
    free(nxt);
    free(cand);
    free(hole);
    free(stack);
    free(merged);
    return rc;
}
