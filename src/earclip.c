/*
 * earclip.c -- exact triangulation of a planar polygon with holes by ear
 * clipping (xg_triangulate).
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
#include "xg_internal.h"

/* Working state.  Vertices are the kept ones and the copies that step 3
 * inserts, numbered 0 .. nv-1, ring r holding start[r] .. start[r+1]-1. */
struct poly {
    struct xg_counters *cnt;
    size_t nv, nring;
    double (*p)[2];     /* projected coordinates                        */
    uint32_t *idx;      /* index of each kept vertex in the input xyz   */
    size_t *start;      /* nring + 1                                    */
    size_t *next;       /* the following vertex in its ring             */
    size_t *rid;        /* the ring of each vertex                      */
    /* Touch points (step 5): vertices of several rings at one point.
     * Group g holds the vertices gv[gs[g] .. gs[g+1]-1]; grp[v] is v's
     * group, NONE when v shares its point with no other vertex. */
    size_t ngrp;
    size_t *grp, *gv, *gs;
};

#define NONE SIZE_MAX

static int orient(const struct poly *P, size_t a, size_t b, size_t c)
{
    return xg_orient2d(P->cnt, P->p[a], P->p[b], P->p[c]);
}

static int same3(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Vertices a and b are at one point (the projection is injective on the
 * plane, so equal 2D coordinates are equal 3D ones). */
static int same2(const struct poly *P, size_t a, size_t b)
{
    return P->p[a][0] == P->p[b][0] && P->p[a][1] == P->p[b][1];
}

static int boxes_apart(const double *a, const double *b, const double *c,
                       const double *d)
{
    int k;
    for (k = 0; k < 2; k++) {
        double lo1 = fmin(a[k], b[k]), hi1 = fmax(a[k], b[k]);
        double lo2 = fmin(c[k], d[k]), hi2 = fmax(c[k], d[k]);
        if (hi1 < lo2 || hi2 < lo1)
            return 1;
    }
    return 0;
}

/* Do the closed segments ab and cd meet?  (a != b, c != d.)  The 2D
 * red/blue pair test decides it; no point is built unless they do, which
 * for a simple ring never happens. */
static int closed_meet(const struct poly *P, size_t a, size_t b, size_t c,
                       size_t d)
{
    double s[6] = {P->p[a][0], P->p[a][1], 0.0, P->p[b][0], P->p[b][1], 0.0};
    double t[6] = {P->p[c][0], P->p[c][1], 0.0, P->p[d][0], P->p[d][1], 0.0};
    struct xg_contact ct;
    if (boxes_apart(P->p[a], P->p[b], P->p[c], P->p[d]))
        return 0;
    return xg_redblue_pair(P->cnt, s, t, &ct);
}

/* Edges ab and bc fold back onto each other: collinear, a and c on the
 * same side of b.  (a != b, c != b.) */
static int folds(const struct poly *P, size_t a, size_t b, size_t c)
{
    const double *A = P->p[a], *B = P->p[b], *C = P->p[c];
    int k;
    if (orient(P, a, b, c) != XG_ZERO)
        return 0;
    k = A[0] != B[0] ? 0 : 1;  /* the line is not perpendicular to axis k */
    return (A[k] > B[k]) == (C[k] > B[k]);
}

/* Does the open segment MV meet the closed segment ab?  (a != b.) */
static int open_meets(const struct poly *P, size_t m, size_t v, size_t a,
                      size_t b)
{
    const double *M = P->p[m], *V = P->p[v];
    int o1, o2;
    if (boxes_apart(M, V, P->p[a], P->p[b]))
        return 0;
    o1 = orient(P, m, v, a);
    o2 = orient(P, m, v, b);
    if (o1 == XG_ZERO && o2 == XG_ZERO) {
        int k = M[0] != V[0] ? 0 : 1;
        double lo1 = fmin(M[k], V[k]), hi1 = fmax(M[k], V[k]);
        double lo2 = fmin(P->p[a][k], P->p[b][k]);
        double hi2 = fmax(P->p[a][k], P->p[b][k]);
        return lo2 < hi1 && lo1 < hi2;
    }
    if (o1 == o2)
        return 0;
    /* The lines cross at one point, on ab; it is inside MV exactly when
     * M and V lie strictly on opposite sides of ab. */
    return orient(P, a, b, m) * orient(P, a, b, v) < 0;
}

/* Point q strictly inside ring r (q on no edge of r: checked before).
 * Returns 1 inside, 0 outside, -1 when q lies on the ring after all. */
static int inside_ring(const struct poly *P, size_t r, size_t q)
{
    const double *Q = P->p[q];
    size_t a;
    int in = 0;
    for (a = P->start[r]; a < P->start[r + 1]; a++) {
        size_t b = P->next[a];
        int up = P->p[b][1] > P->p[a][1], s;
        if ((P->p[a][1] > Q[1]) == (P->p[b][1] > Q[1]))
            continue;
        s = orient(P, a, b, q);
        if (s == XG_ZERO)
            return -1;
        if ((up && s > 0) || (!up && s < 0))
            in = !in;       /* ab crosses the ray from q towards +x */
    }
    return in;
}

/* Is vertex q in the open edge ab (a != b)? */
static int on_open_edge(const struct poly *P, size_t a, size_t b, size_t q)
{
    const double *A = P->p[a], *B = P->p[b], *Q = P->p[q];
    int k;
    for (k = 0; k < 2; k++)
        if (Q[k] < fmin(A[k], B[k]) || Q[k] > fmax(A[k], B[k]))
            return 0;
    if (orient(P, a, b, q) != XG_ZERO)
        return 0;
    k = A[0] != B[0] ? 0 : 1;
    return fmin(A[k], B[k]) < Q[k] && Q[k] < fmax(A[k], B[k]);
}

struct ins {
    size_t edge;        /* the edge's first vertex                      */
    double t;           /* position along it, increasing (exact: +-x)   */
    size_t q;           /* the vertex of another ring lying on it       */
};

static int ins_cmp(const void *x, const void *y)
{
    const struct ins *a = x, *b = y;
    if (a->edge != b->edge)
        return a->edge < b->edge ? -1 : 1;
    return (a->t > b->t) - (a->t < b->t);
}

/* Step 3a.  A vertex q of one ring lying inside an edge of another ring
 * becomes a vertex of that ring too (an input vertex, no new point), so
 * that every contact between rings left is at vertices of both.  Valid
 * input puts q inside one edge at most: two edges through the inside of
 * either at one point cross, overlap or make a ring touch itself, so
 * that gives XG_EDEGENERATE at once.  Replaces P's vertex arrays. */
static int split_edges(struct poly *P)
{
    size_t nv = P->nv, q, a, i, r, nins = 0, w;
    struct ins *ins = malloc((nv + 1) * sizeof *ins);
    double (*p)[2] = NULL;
    uint32_t *idx = NULL;
    size_t *next = NULL, *rid = NULL;
    int rc = XG_ENOMEM;

    if (!ins)
        return XG_ENOMEM;
    for (q = 0; q < nv && P->nring > 1; q++) {
        int found = 0;
        for (a = 0; a < nv; a++) {
            const double *A = P->p[a], *B = P->p[P->next[a]];
            int k = A[0] != B[0] ? 0 : 1;
            if (P->rid[a] == P->rid[q] || !on_open_edge(P, a, P->next[a], q))
                continue;
            if (found++) {
                rc = XG_EDEGENERATE;
                goto done;
            }
            ins[nins].edge = a;
            ins[nins].t = A[k] < B[k] ? P->p[q][k] : -P->p[q][k];
            ins[nins++].q = q;
        }
    }
    rc = XG_OK;
    if (nins == 0)
        goto done;
    qsort(ins, nins, sizeof *ins, ins_cmp);
    rc = XG_ENOMEM;
    p = malloc((nv + nins + 1) * sizeof *p);
    idx = malloc((nv + nins + 1) * sizeof *idx);
    next = malloc((nv + nins + 1) * sizeof *next);
    rid = malloc((nv + nins + 1) * sizeof *rid);
    if (!p || !idx || !next || !rid)
        goto done;
    for (r = 0, w = 0, i = 0; r < P->nring; r++) {
        size_t first = w;
        for (a = P->start[r]; a < P->start[r + 1]; a++) {
            size_t at = a;
            for (;;) {          /* a, then the vertices on edge a in order */
                p[w][0] = P->p[at][0];
                p[w][1] = P->p[at][1];
                idx[w] = P->idx[at];
                rid[w] = r;
                next[w] = w + 1;
                w++;
                /* two rings touching edge a at one point: one copy */
                while (i < nins && ins[i].edge == a && same2(P, ins[i].q, at))
                    i++;
                if (i == nins || ins[i].edge != a)
                    break;
                at = ins[i++].q;
            }
        }
        next[w - 1] = first;
        P->start[r] = first;
    }
    P->start[P->nring] = P->nv = w;
    free(P->p);
    free(P->idx);
    free(P->next);
    free(P->rid);
    P->p = p;
    P->idx = idx;
    P->next = next;
    P->rid = rid;
    p = NULL;
    idx = NULL;
    next = rid = NULL;
    rc = XG_OK;
done:
    free(ins);
    free(p);
    free(idx);
    free(next);
    free(rid);
    return rc;
}

/* Step 3b, after split_edges.  XG_OK when no ring touches itself, no
 * adjacent edges fold back, and edges of different rings meet only at
 * vertices of both: no proper crossing.  Else XG_EDEGENERATE.  Two edges
 * of different rings with an end at one point meet only there or are the
 * same segment: were they collinear on the same side, the nearer far end
 * would lie inside the other edge, which split_edges has cut there.  An
 * overlap between rings is thus a shared segment, two shared points,
 * which step 5 refuses as a cycle. */
static int check_edges(const struct poly *P)
{
    size_t k, l;
    for (k = 0; k < P->nv; k++)
        for (l = k + 1; l < P->nv; l++) {
            size_t nk = P->next[k], nl = P->next[l];
            int bad;
            if (nk == l)
                bad = folds(P, k, l, nl);
            else if (nl == k)
                bad = folds(P, l, k, nk);
            else if (P->rid[k] != P->rid[l] &&
                     (same2(P, k, l) || same2(P, k, nl) ||
                      same2(P, nk, l) || same2(P, nk, nl)))
                bad = 0;        /* a touch point, for step 5 */
            else
                bad = closed_meet(P, k, nk, l, nl);
            if (bad)
                return XG_EDEGENERATE;
        }
    return XG_OK;
}

/* Does direction v -> d leave vertex v (previous u, next w on a
 * counter-clockwise ring) into the polygon's interior, strictly? */
static int in_cone(const struct poly *P, size_t u, size_t v, size_t w,
                   size_t d)
{
    if (orient(P, u, v, w) > 0)
        return orient(P, u, v, d) > 0 && orient(P, v, w, d) > 0;
    return orient(P, u, v, d) > 0 || orient(P, v, w, d) > 0;
}

struct xyv {
    double x, y;
    size_t v;
};

static int xyv_cmp(const void *s, const void *t)
{
    const struct xyv *a = s, *b = t;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

static size_t find(size_t *up, size_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* Does group g hold a vertex of ring r? */
static int group_has(const struct poly *P, size_t g, size_t r)
{
    size_t i;
    for (i = P->gs[g]; i < P->gs[g + 1]; i++)
        if (P->rid[P->gv[i]] == r)
            return 1;
    return 0;
}

/* Step 5, after check_edges: the touch points, where vertices of
 * several rings lie at one point (grouped by sorting on (x, y)), and the
 * connectivity of the interior.  In the graph of rings and touch points,
 * a ring linked to each point it passes through (once: no ring touches
 * itself), a cycle ring, point, ring, ..., point, back to the first ring
 * closes a loop of ring boundaries that cuts a piece of the interior off;
 * without a cycle (a forest) the interior stays connected, as OGC wants.
 * Found with union-find.  A forest also means two rings share one point
 * at most, so they cannot cross there: a closed ring that met another
 * only at one point and crossed it there would have points on both sides
 * of it, joined by the rest of the ring, which would have to meet it
 * again.  Which side each ring lies on is step 6's question.  Fills P's
 * groups. */
static int check_touches(struct poly *P)
{
    size_t nv = P->nv, i, j, g, ngv = 0, *up = NULL;
    struct xyv *s = malloc(nv * sizeof *s);
    int rc;

    if (!s)
        return XG_ENOMEM;
    for (i = 0; i < nv; i++) {
        s[i].x = P->p[i][0];
        s[i].y = P->p[i][1];
        s[i].v = i;
        P->grp[i] = NONE;
    }
    qsort(s, nv, sizeof *s, xyv_cmp);
    P->ngrp = 0;
    for (i = 0; i < nv; i = j) {
        for (j = i + 1; j < nv && s[j].x == s[i].x && s[j].y == s[i].y; j++)
            ;
        if (j - i < 2)
            continue;
        P->gs[P->ngrp] = ngv;
        for (g = i; g < j; g++) {
            P->gv[ngv++] = s[g].v;
            P->grp[s[g].v] = P->ngrp;
        }
        P->ngrp++;
    }
    P->gs[P->ngrp] = ngv;

    rc = XG_ENOMEM;
    if (!(up = malloc((P->nring + P->ngrp) * sizeof *up)))
        goto done;
    for (i = 0; i < P->nring + P->ngrp; i++)
        up[i] = i;
    rc = XG_EDEGENERATE;
    for (g = 0; g < P->ngrp; g++)
        for (i = P->gs[g]; i < P->gs[g + 1]; i++) {
            size_t x = find(up, P->rid[P->gv[i]]), y = find(up, P->nring + g);
            if (x == y)
                goto done;      /* a cycle: the interior is cut in two */
            up[x] = y;
        }
    rc = XG_OK;
done:
    free(up);
    free(s);
    return rc;
}

/* Step 6.  Every hole inside the outer ring and outside the other holes.
 * Each test uses a vertex of the hole that is not on the other ring:
 * after step 5 two rings share at most one point, and after step 3 every
 * point of a ring on another ring is a vertex of both, so such a vertex
 * exists and the crossing number decides. */
static int check_nesting(const struct poly *P)
{
    size_t r, s, q;
    for (r = 1; r < P->nring; r++)
        for (s = 0; s < P->nring; s++) {
            if (s == r)
                continue;
            for (q = P->start[r]; q < P->start[r + 1]; q++)
                if (P->grp[q] == NONE || !group_has(P, P->grp[q], s))
                    break;
            if (q == P->start[r + 1] ||
                inside_ring(P, s, q) != (s == 0))
                return XG_EDEGENERATE;
        }
    return XG_OK;
}

/* Sign of the orientation of simple ring r: the turn at its least
 * vertex in (x, y) order, which is strictly convex. */
static int ring_orientation(const struct poly *P, size_t r)
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

static void reverse_ring(struct poly *P, size_t r)
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

/* The rightmost vertex of ring r, the highest among ties. */
static size_t rightmost(const struct poly *P, size_t r)
{
    size_t a, best = P->start[r];
    for (a = best + 1; a < P->start[r + 1]; a++)
        if (P->p[a][0] > P->p[best][0] ||
            (P->p[a][0] == P->p[best][0] && P->p[a][1] > P->p[best][1]))
            best = a;
    return best;
}

/* Holes in bridging order; qsort needs the context, so it is sorted by
 * insertion (h is small next to the O(n^2) elsewhere). */
static void order_holes(const struct poly *P, size_t *hole, size_t nh)
{
    size_t i, j;
    for (i = 0; i < nh; i++)
        hole[i] = i + 1;
    for (i = 1; i < nh; i++) {
        size_t h = hole[i], mh = rightmost(P, h);
        for (j = i; j > 0; j--) {
            size_t g = hole[j - 1], mg = rightmost(P, g);
            int before = P->p[mh][0] > P->p[mg][0] ||
                         (P->p[mh][0] == P->p[mg][0] &&
                          P->p[mh][1] > P->p[mg][1]);
            if (!before)
                break;
            hole[j] = g;
        }
        hole[j] = h;
    }
}

struct cand {
    double key;         /* search order only, never a decision */
    size_t pos;
};

static int cand_cmp(const void *x, const void *y)
{
    const struct cand *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Is the bridge from hole vertex m to the vertex at position k of the
 * composite ring (ring[0..len)) valid?  Rings not merged yet have
 * merged[r] == 0.  With touch points, m's point may lie on other unmerged
 * holes too; a bridge running into one of them (or into m's own hole)
 * leaves it at another point of its boundary, which the edge tests see,
 * because that point cannot be v: join_holes merges whole touch
 * components, so no unmerged ring touches the composite ring. */
static int bridge_ok(const struct poly *P, const size_t *ring, size_t len,
                     size_t k, size_t m, const unsigned char *merged)
{
    size_t v = ring[k], j, a, r;
    if (!in_cone(P, ring[(k + len - 1) % len], v, ring[(k + 1) % len], m))
        return 0;
    for (j = 0; j < len; j++)
        if (open_meets(P, m, v, ring[j], ring[(j + 1) % len]))
            return 0;
    for (r = 1; r < P->nring; r++)
        for (a = P->start[r]; a < P->start[r + 1] && !merged[r]; a++)
            if (open_meets(P, m, v, a, P->next[a]))
                return 0;
    return 1;
}

/* Splices the ring of vertex m (not merged) into the composite ring at
 * an occurrence of m's point, the one into whose polygon side m's ring
 * leaves (there is exactly one: the touch sectors are disjoint).  The
 * ring then runs ..., ring[k], next(m), ..., m, ring[k+1], ...: no
 * bridge, so no new occurrences besides the ring's own vertices. */
static int splice(const struct poly *P, size_t *ring, size_t *len, size_t m)
{
    size_t n = *len, k, a, r = P->rid[m];
    size_t hn = P->start[r + 1] - P->start[r];
    for (k = 0; k < n; k++)
        if (same2(P, ring[k], m) &&
            in_cone(P, ring[(k + n - 1) % n], ring[k], ring[(k + 1) % n],
                    P->next[m]))
            break;
    if (k == n)
        return XG_EDEGENERATE;      /* cannot happen for checked input */
    memmove(ring + k + 1 + hn, ring + k + 1, (n - k - 1) * sizeof *ring);
    for (a = 0; a < hn; a++)
        ring[k + 1 + a] = P->start[r] + (m - P->start[r] + 1 + a) % hn;
    *len = n + hn;
    return XG_OK;
}

/* Merges, by splices at touch points, every ring that touches ring r0
 * (merged), and so on: r0's whole touch component.  In a forest each of
 * those rings meets the merged ones at one point only when spliced. */
static int merge_touching(const struct poly *P, size_t *ring, size_t *len,
                          size_t r0, size_t *stack, unsigned char *merged)
{
    size_t top = 0, a, i;
    int rc;
    stack[top++] = r0;
    while (top > 0) {
        size_t r = stack[--top];
        for (a = P->start[r]; a < P->start[r + 1]; a++) {
            size_t g = P->grp[a];
            if (g == NONE)
                continue;
            for (i = P->gs[g]; i < P->gs[g + 1]; i++) {
                size_t b = P->gv[i], s = P->rid[b];
                if (merged[s])
                    continue;
                if ((rc = splice(P, ring, len, b)) != XG_OK)
                    return rc;
                merged[s] = 1;
                stack[top++] = s;
            }
        }
    }
    return XG_OK;
}

/* Step 7: fills ring (room for nv + 2 * holes) and sets *len.  The outer
 * ring's touch component first; then each hole not merged yet, by
 * decreasing rightmost vertex, gets a bridge, and its touch component
 * follows it.  So each touch component but the outer ring's has exactly
 * one bridge, and bridges and touch points never close a loop. */
static int join_holes(const struct poly *P, size_t *ring, size_t *len,
                      struct cand *cand, size_t *hole, size_t *stack,
                      unsigned char *merged)
{
    size_t nh = P->nring - 1, i, n = P->start[1], a;
    int rc;
    for (a = 0; a < n; a++)
        ring[a] = a;
    memset(merged, 0, P->nring);
    merged[0] = 1;
    if ((rc = merge_touching(P, ring, &n, 0, stack, merged)) != XG_OK)
        return rc;
    order_holes(P, hole, nh);
    for (i = 0; i < nh; i++) {
        size_t h = hole[i], m = rightmost(P, h), k, c, hn;
        const double *M = P->p[m];
        if (merged[h])
            continue;
        for (k = 0; k < n; k++) {
            double dx = P->p[ring[k]][0] - M[0], dy = P->p[ring[k]][1] - M[1];
            cand[k].key = dx * dx + dy * dy;
            cand[k].pos = k;
        }
        qsort(cand, n, sizeof *cand, cand_cmp);
        for (c = 0; c < n; c++)
            if (bridge_ok(P, ring, n, cand[c].pos, m, merged))
                break;
        if (c == n)
            return XG_EDEGENERATE;  /* cannot happen for checked input */
        k = cand[c].pos;
        /* ring[0..k], m and the hole around back to m, ring[k], rest */
        hn = P->start[h + 1] - P->start[h];
        memmove(ring + k + hn + 3, ring + k + 1, (n - k - 1) * sizeof *ring);
        for (a = 0; a <= hn; a++) {
            size_t off = (size_t)(m - P->start[h]) + a;
            ring[k + 1 + a] = P->start[h] + off % hn;
        }
        ring[k + hn + 2] = ring[k];
        n += hn + 2;
        merged[h] = 1;
        if ((rc = merge_touching(P, ring, &n, h, stack, merged)) != XG_OK)
            return rc;
    }
    *len = n;
    return XG_OK;
}

/* Ear test at position v of the linked ring (prv, nxt over positions). */
static int is_ear(const struct poly *P, const size_t *ring, const size_t *prv,
                  const size_t *nxt, size_t v)
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
static int clip_ears(const struct poly *P, const size_t *ring, size_t len,
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
static int load(struct poly *P, const double *xyz, const size_t *ring_start)
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
    struct poly P = {0};
    size_t n, i, r, len = 0, room, *ring = NULL, *prv = NULL, *nxt = NULL;
    size_t *hole = NULL, *stack = NULL;
    unsigned char *merged = NULL;
    struct cand *cand = NULL;
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
        (rc = split_edges(&P)) != XG_OK ||
        (rc = check_edges(&P)) != XG_OK)
        goto done;

    /* P.nv <= 2 n now (split_edges adds a vertex at most once) */
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
            rc = XG_EDEGENERATE;    /* excluded by check_edges */
            goto done;
        }
        if ((r == 0) != (s > 0)) {
            reverse_ring(&P, r);
            if (r == 0)
                flip = 1;           /* give triangles the input's turn */
        }
    }
    if ((rc = check_touches(&P)) != XG_OK ||
        (rc = check_nesting(&P)) != XG_OK ||
        (rc = join_holes(&P, ring, &len, cand, hole, stack, merged)) != XG_OK)
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
