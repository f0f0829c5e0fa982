/*
 * triangulate.c -- exact triangulation of a planar polygon with holes.
 *
 * Steps, each decided with exact predicates only (xg_orient3d, xg_orient2d
 * and comparisons of doubles, which are exact):
 *   1. drop repeated consecutive vertices (the first copy is kept);
 *   2. find three non-collinear vertices and require every vertex to be
 *      exactly coplanar with them; project along the axis that keeps the
 *      plane's area (xg__projection_axis), an affine bijection, so 2D
 *      answers are the 3D answers;
 *   3. check that the rings are simple and disjoint, that every hole
 *      lies inside the outer ring and outside the other holes;
 *   4. orient the outer ring counter-clockwise and the holes clockwise;
 *   5. join each hole to the outer ring by a bridge (holes taken by
 *      decreasing rightmost vertex, the classic order that guarantees
 *      a bridge exists), every bridge checked exactly for visibility;
 *   6. clip ears off the resulting weakly simple ring.
 *
 * Step 3 is complete for the stored rings: any two non-adjacent edges
 * that meet (cross, touch or overlap), adjacent edges that fold back
 * onto each other, a hole outside the outer ring or inside another hole
 * all give XG_EDEGENERATE.  So valid OGC polygons whose rings touch at a
 * point (a hole touching the shell, a self-touching ring) are refused
 * too rather than triangulated.  Vertices that are collinear with their
 * neighbours are kept, and no triangle with zero area is produced, so
 * the result is conforming with neighbouring faces that share those
 * vertices and has exactly n - 2 + 2 * holes triangles, n counting the
 * vertices left after step 1.
 *
 * Why ear clipping is exact here: after step 5 the ring is weakly simple
 * (it touches itself only at bridge ends and along the two copies of each
 * bridge).  An ear p, v, n (counter-clockwise, strictly convex at v) may
 * be cut exactly when no vertex of the ring lies in the open triangle or
 * on the open diagonal pn: any edge reaching those places without such a
 * vertex would have to cross an edge properly or pass through a vertex,
 * which a weakly simple ring does not do.  Every non-degenerate
 * triangulation has at least two such ears, so the clipping never stalls
 * on valid input; when it does, the input was not simple and the answer
 * is XG_EDEGENERATE.
 *
 * Cost: O(n^2) predicates for step 3 (with exact bounding-box rejects),
 * O(n^2) per hole for step 5 in the worst case, and O(n^2) typical,
 * O(n^3) worst case, for step 6.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "xg_internal.h"

/* Working state.  Vertices are the kept ones, numbered 0 .. nv-1, ring r
 * holding start[r] .. start[r+1]-1. */
struct poly {
    struct xg_counters *cnt;
    size_t nv, nring;
    double (*p)[2];     /* projected coordinates                        */
    uint32_t *idx;      /* index of each kept vertex in the input xyz   */
    size_t *start;      /* nring + 1                                    */
    size_t *next;       /* the following vertex in its ring             */
};

static int orient(const struct poly *P, size_t a, size_t b, size_t c)
{
    return xg_orient2d(P->cnt, P->p[a], P->p[b], P->p[c]);
}

static int same3(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
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

/* Step 3.  XG_OK or XG_EDEGENERATE. */
static int check_simple(const struct poly *P)
{
    size_t k, l, r, s;
    for (k = 0; k < P->nv; k++)
        for (l = k + 1; l < P->nv; l++) {
            size_t nk = P->next[k], nl = P->next[l];
            int bad;
            if (nk == l)
                bad = folds(P, k, l, nl);
            else if (nl == k)
                bad = folds(P, l, k, nk);
            else
                bad = closed_meet(P, k, nk, l, nl);
            if (bad)
                return XG_EDEGENERATE;
        }
    for (r = 1; r < P->nring; r++) {
        if (inside_ring(P, 0, P->start[r]) != 1)
            return XG_EDEGENERATE;
        for (s = 1; s < P->nring; s++)
            if (s != r && inside_ring(P, s, P->start[r]) != 0)
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

/* Does direction v -> d leave vertex v (previous u, next w on a
 * counter-clockwise ring) into the polygon's interior, strictly? */
static int in_cone(const struct poly *P, size_t u, size_t v, size_t w,
                   size_t d)
{
    if (orient(P, u, v, w) > 0)
        return orient(P, u, v, d) > 0 && orient(P, v, w, d) > 0;
    return orient(P, u, v, d) > 0 || orient(P, v, w, d) > 0;
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
 * composite ring (ring[0..len)) valid?  Holes not merged yet are
 * hole[from..nh). */
static int bridge_ok(const struct poly *P, const size_t *ring, size_t len,
                     size_t k, size_t m, const size_t *hole, size_t from,
                     size_t nh)
{
    size_t v = ring[k], j, a;
    if (!in_cone(P, ring[(k + len - 1) % len], v, ring[(k + 1) % len], m))
        return 0;
    for (j = 0; j < len; j++)
        if (open_meets(P, m, v, ring[j], ring[(j + 1) % len]))
            return 0;
    for (j = from; j < nh; j++)
        for (a = P->start[hole[j]]; a < P->start[hole[j] + 1]; a++)
            if (open_meets(P, m, v, a, P->next[a]))
                return 0;
    return 1;
}

/* Step 5: fills ring (room for nv + 2 * holes) and sets *len. */
static int join_holes(const struct poly *P, size_t *ring, size_t *len,
                      struct cand *cand, size_t *hole)
{
    size_t nh = P->nring - 1, i, n = P->start[1], a;
    for (a = 0; a < n; a++)
        ring[a] = a;
    order_holes(P, hole, nh);
    for (i = 0; i < nh; i++) {
        size_t h = hole[i], m = rightmost(P, h), k, c, hn;
        const double *M = P->p[m];
        for (k = 0; k < n; k++) {
            double dx = P->p[ring[k]][0] - M[0], dy = P->p[ring[k]][1] - M[1];
            cand[k].key = dx * dx + dy * dy;
            cand[k].pos = k;
        }
        qsort(cand, n, sizeof *cand, cand_cmp);
        for (c = 0; c < n; c++)
            if (bridge_ok(P, ring, n, cand[c].pos, m, hole, i, nh))
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

/* Step 6: writes len - 2 triangles to out (input indices). */
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

/* Steps 1 and 2.  Fills P (p, idx, start, next) from the input. */
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
        }
    return XG_OK;
}

int xg_triangulate(struct xg_counters *cnt, const double *xyz,
                   const size_t *ring_start, size_t nrings, uint32_t **tri,
                   size_t *ntri)
{
    struct poly P = {0};
    size_t n, i, r, len = 0, room, *ring = NULL, *prv = NULL, *nxt = NULL;
    size_t *hole = NULL;
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
    room = n + 2 * nrings;
    P.p = malloc((n + 1) * sizeof *P.p);
    P.idx = malloc((n + 1) * sizeof *P.idx);
    P.start = malloc((nrings + 1) * sizeof *P.start);
    P.next = malloc((n + 1) * sizeof *P.next);
    ring = malloc(room * sizeof *ring);
    prv = malloc(room * sizeof *prv);
    nxt = malloc(room * sizeof *nxt);
    cand = malloc(room * sizeof *cand);
    hole = malloc(nrings * sizeof *hole);
    rc = XG_ENOMEM;
    if (!P.p || !P.idx || !P.start || !P.next || !ring || !prv || !nxt ||
        !cand || !hole)
        goto done;

    if ((rc = load(&P, xyz, ring_start)) != XG_OK ||
        (rc = check_simple(&P)) != XG_OK)
        goto done;
    for (r = 0; r < nrings; r++) {
        int s = ring_orientation(&P, r);
        if (s == XG_ZERO) {
            rc = XG_EDEGENERATE;    /* excluded by check_simple */
            goto done;
        }
        if ((r == 0) != (s > 0)) {
            reverse_ring(&P, r);
            if (r == 0)
                flip = 1;           /* give triangles the input's turn */
        }
    }
    if ((rc = join_holes(&P, ring, &len, cand, hole)) != XG_OK)
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
    free(ring);
    free(prv);
    free(nxt);
    free(cand);
    free(hole);
    return rc;
}
