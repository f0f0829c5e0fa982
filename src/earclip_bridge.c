/*
 * earclip_bridge.c -- step 7 of xg_triangulate (earclip.c): the holes
 * merged into the outer ring, making one weakly simple ring for the ear
 * clipper: each touch component spliced in at its touch points, each
 * other hole joined by a bridge checked exactly for visibility.
 */
#include <stdlib.h>
#include <string.h>
#include "xg_earclip.h"
#include "xg_interval.h"

/* Does direction v -> d leave vertex v (previous u, next w on a
 * counter-clockwise ring) into the polygon's interior, strictly? */
static int in_cone(const struct xg__poly *P, size_t u, size_t v, size_t w,
                   size_t d)
{
    if (orient(P, u, v, w) > 0)
        return orient(P, u, v, d) > 0 && orient(P, v, w, d) > 0;
    return orient(P, u, v, d) > 0 || orient(P, v, w, d) > 0;
}

/* Does the open segment MV meet the closed segment ab?  (a != b.) */
static int open_meets(const struct xg__poly *P, size_t m, size_t v, size_t a,
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

/* The rightmost vertex of ring r, the highest among ties. */
static size_t rightmost(const struct xg__poly *P, size_t r)
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
static void order_holes(const struct xg__poly *P, size_t *hole, size_t nh)
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

/* qsort order of bridge candidates: nearest first (key), ties by ring
 * position, so that the order, and the bridge chosen, are fixed. */
static int cand_cmp(const void *x, const void *y)
{
    const struct xg__bridge_cand *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Is the bridge from hole vertex m to the vertex at position k of the
 * composite ring (ring[0..len)) valid?  Rings not merged yet have
 * merged[r] == 0.  With touch points, m's point may lie on other unmerged
 * holes too; a bridge running into one of them (or into m's own hole)
 * leaves it at another point of its boundary, which the edge tests see,
 * because that point cannot be v: xg__earclip_join_holes merges whole touch
 * components, so no unmerged ring touches the composite ring. */
static int bridge_ok(const struct xg__poly *P, const size_t *ring, size_t len,
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
static int splice(const struct xg__poly *P, size_t *ring, size_t *len,
                  size_t m)
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
static int merge_touching(const struct xg__poly *P, size_t *ring, size_t *len,
                          size_t r0, size_t *stack, unsigned char *merged)
{
    size_t top = 0, a, i;
    int rc;
    stack[top++] = r0;
    while (top > 0) {
        size_t r = stack[--top];
        for (a = P->start[r]; a < P->start[r + 1]; a++) {
            size_t g = P->grp[a];
            if (g == XG__NO_GROUP)
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
int xg__earclip_join_holes(const struct xg__poly *P, size_t *ring,
                           size_t *len, struct xg__bridge_cand *cand,
                           size_t *hole, size_t *stack,
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
