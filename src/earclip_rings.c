/*
 * earclip_rings.c -- steps 3, 5 and 6 of xg_triangulate (earclip.c): the
 * rings form a polygon that is valid in the OGC sense, with every point
 * where two rings meet a vertex of both (edges split there), and the
 * touch points grouped.  Each check is complete for what it refuses.
 */
#include <math.h>
#include <stdlib.h>
#include "xg_earclip.h"
#include "xg_interval.h"

/* Do the closed segments ab and cd meet?  (a != b, c != d.)  The 2D
 * red/blue pair test decides it; no point is built unless they do, which
 * for a simple ring never happens. */
static int closed_meet(const struct xg__poly *P, size_t a, size_t b, size_t c,
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
static int folds(const struct xg__poly *P, size_t a, size_t b, size_t c)
{
    const double *A = P->p[a], *B = P->p[b], *C = P->p[c];
    int k;
    if (orient(P, a, b, c) != XG_ZERO)
        return 0;
    k = A[0] != B[0] ? 0 : 1;  /* the line is not perpendicular to axis k */
    return (A[k] > B[k]) == (C[k] > B[k]);
}

/* Point q strictly inside ring r (q on no edge of r: checked before).
 * Returns 1 inside, 0 outside, -1 when q lies on the ring after all. */
static int inside_ring(const struct xg__poly *P, size_t r, size_t q)
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
static int on_open_edge(const struct xg__poly *P, size_t a, size_t b, size_t q)
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

/* qsort order of insertions: by edge, then along it (t increasing). */
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
int xg__earclip_split_edges(struct xg__poly *P)
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

/* Step 3b, after step 3a (xg__earclip_split_edges).  XG_OK when no ring
 * touches itself, no adjacent edges fold back, and edges of different
 * rings meet only at vertices of both: no proper crossing.  Else
 * XG_EDEGENERATE.  Two edges of different rings with an end at one point
 * meet only there or are the same segment: were they collinear on the
 * same side, the nearer far end would lie inside the other edge, which
 * step 3a has cut there.  An overlap between rings is thus a shared
 * segment, two shared points, which step 5 refuses as a cycle. */
int xg__earclip_check_edges(const struct xg__poly *P)
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

struct xyv {
    double x, y;
    size_t v;
};

/* qsort order of vertices by (x, y), ties by index: equal points end up
 * side by side, in a fixed order. */
static int xyv_cmp(const void *s, const void *t)
{
    const struct xyv *a = s, *b = t;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* Union-find: the root of x's set in up, halving the path on the way. */
static size_t find(size_t *up, size_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* Does group g hold a vertex of ring r? */
static int group_has(const struct xg__poly *P, size_t g, size_t r)
{
    size_t i;
    for (i = P->gs[g]; i < P->gs[g + 1]; i++)
        if (P->rid[P->gv[i]] == r)
            return 1;
    return 0;
}

/* Step 5, after xg__earclip_check_edges: the touch points, where vertices of
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
int xg__earclip_check_touches(struct xg__poly *P)
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
        P->grp[i] = XG__NO_GROUP;
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
int xg__earclip_check_nesting(const struct xg__poly *P)
{
    size_t r, s, q;
    for (r = 1; r < P->nring; r++)
        for (s = 0; s < P->nring; s++) {
            if (s == r)
                continue;
            for (q = P->start[r]; q < P->start[r + 1]; q++)
                if (P->grp[q] == XG__NO_GROUP || !group_has(P, P->grp[q], s))
                    break;
            if (q == P->start[r + 1] ||
                inside_ring(P, s, q) != (s == 0))
                return XG_EDEGENERATE;
        }
    return XG_OK;
}
