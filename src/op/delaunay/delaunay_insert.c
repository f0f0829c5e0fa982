/*
 * delaunay_insert.c -- one point into a Delaunay triangulation: where it
 * lies (a visibility walk), the split of the triangle or edge it lies in,
 * the flips that make the triangulation Delaunay again; and the exact
 * conflict tests that decide the flips, which every engine shares
 * (xg_delaunay.h).  Here beside the flips so that the hottest call of a
 * build stays in one file.
 */
#include <assert.h>
#include "delaunay_builder.h"
#include "xg_filter_orient.h"
#include "xg_mem.h"

/* The perturbed in-circle sign (xg_delaunay.h): the exact sign, and on a
 * tie the first non-zero term of the perturbation, its points in
 * descending (x, y) order.  XG_ZERO only for points that are not
 * distinct or a, b, c collinear. */
int xg__dt_incircle(struct xg_counters *cnt, const double *a,
                    const double *b, const double *c, const double *p)
{
    const double *pt[4], *q[3];
    int order[4], i, s = xg_incircle(cnt, a, b, c, p);
    if (s != XG_ZERO)
        return s;
    pt[0] = a; pt[1] = b; pt[2] = c; pt[3] = p;
    xg__lex_desc4(a, b, c, p, order);
    for (i = 0; i < 4; i++) {
        int sg = xg__tie_term(pt, order[i], q);
        int o = xg_orient2d(cnt, q[0], q[1], q[2]);
        if (o != XG_ZERO)
            return sg * o;
    }
    return XG_ZERO;
}

/* Whether p lies strictly between a and b, the three collinear and a, b
 * distinct. */
static int strictly_between(const double *a, const double *b, const double *p)
{
    int ax = a[0] != b[0];  /* compare along x unless the line is vertical */
    double lo = ax ? a[0] : a[1], hi = ax ? b[0] : b[1];
    double t = ax ? p[0] : p[1];
    if (lo > hi) {
        double s = lo;
        lo = hi;
        hi = s;
    }
    return lo < t && t < hi;
}

/* Whether p conflicts with the ghost (a, b, G) (xg_delaunay.h): beyond
 * the hull edge a -> b, or on it strictly between a and b. */
int xg__dt_ghost_conflict(struct xg_counters *cnt, const double *a,
                          const double *b, const double *p)
{
    int o = xg_orient2d(cnt, a, b, p);
    return o > 0 || (o == 0 && strictly_between(a, b, p));
}

#define TRI(u) ((u) >> 2)
#define IDX(u) ((u)&3)

/* Makes triangles t and u neighbours across t's edge i and u's edge j. */
static void link2(struct xg__dt *dt, uint32_t t, int i, uint32_t u, int j)
{
    dt->adj[t][i] = 4 * u + (uint32_t)j;
    dt->adj[u][j] = 4 * t + (uint32_t)i;
}

/* Sets adj[t][i] to the outside neighbour ref (4 u + j) and its back link. */
static void link_ref(struct xg__dt *dt, uint32_t t, int i, uint32_t ref)
{
    dt->adj[t][i] = ref;
    dt->adj[TRI(ref)][IDX(ref)] = 4 * t + (uint32_t)i;
}

/* Sets triangle t's vertices to a, b, c (its links left as they are). */
static void set_tri(struct xg__dt *dt, uint32_t t, uint32_t a, uint32_t b,
                    uint32_t c)
{
    dt->v[t][0] = a;
    dt->v[t][1] = b;
    dt->v[t][2] = c;
}

/* Pushes triangle t on the flip stack, growing it.  XG_OK or XG_ENOMEM. */
static int push(struct xg__dt_builder *B, uint32_t t)
{
    if (B->nstack == B->capstack &&
        xg__grow((void **)&B->stack, &B->capstack, B->nstack + 1,
                 sizeof *B->stack))
        return XG_ENOMEM;
    B->stack[B->nstack++] = t;
    return XG_OK;
}

#define P(k) (B->xy + 2 * (size_t)(k))

/* Whether p conflicts with triangle u (a ghost or not). */
static int conflicts(struct xg__dt_builder *B, uint32_t u, const double *p)
{
    const uint32_t *v = B->dt->v[u];
    int g;
    for (g = 0; g < 3; g++)
        if (v[g] == XG_DT_GHOST)
            return xg__dt_ghost_conflict(B->cnt, P(v[(g + 1) % 3]),
                                         P(v[(g + 2) % 3]), p);
    return xg__dt_incircle(B->cnt, P(v[0]), P(v[1]), P(v[2]), p) > 0;
}

/* Flips until every triangle on the stack (vertex 0 the new point pk) is
 * locally Delaunay with its far neighbour; the stack ends empty.  XG_OK
 * or XG_ENOMEM. */
static int legalize(struct xg__dt_builder *B, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    const double *p = P(pk);
    while (B->nstack) {
        uint32_t t = B->stack[--B->nstack];
        uint32_t ref = dt->adj[t][0], u = TRI(ref);
        int j = (int)IDX(ref), j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        uint32_t x = dt->v[t][1], y = dt->v[t][2], w = dt->v[u][j];
        uint32_t A1, A2, B1, B2;
        /* a hull edge seen from inside never flips */
        if (w == XG_DT_GHOST && x != XG_DT_GHOST && y != XG_DT_GHOST)
            continue;
        if (!conflicts(B, u, p))
            continue;
        A1 = dt->adj[t][1];
        A2 = dt->adj[t][2];
        B1 = dt->adj[u][j1];
        B2 = dt->adj[u][j2];
        /* (p, x, y) + (w, y, x) -> (p, x, w) + (p, w, y) */
        set_tri(dt, t, pk, x, w);
        set_tri(dt, u, pk, w, y);
        link_ref(dt, t, 0, B1);
        link2(dt, t, 1, u, 2);
        link_ref(dt, t, 2, A2);
        link_ref(dt, u, 0, B2);
        link_ref(dt, u, 1, A1);
        if (push(B, t) || push(B, u))
            return XG_ENOMEM;
    }
    return XG_OK;
}

/* A new triangle slot at the end of dt (dt->cap has room). */
static uint32_t new_tri(struct xg__dt *dt)
{
    assert(dt->ntri < dt->cap);
    return (uint32_t)dt->ntri++;
}

/* The triangle (0, p1, p2) and its ghosts (delaunay_builder.h). */
void xg__dt_first(struct xg__dt_builder *B, uint32_t p1, uint32_t p2)
{
    struct xg__dt *dt = B->dt;
    assert(dt->cap >= 4);
    set_tri(dt, 0, 0, p1, p2);
    set_tri(dt, 1, p1, 0, XG_DT_GHOST);
    set_tri(dt, 2, p2, p1, XG_DT_GHOST);
    set_tri(dt, 3, 0, p2, XG_DT_GHOST);
    dt->ntri = 4;
    link2(dt, 0, 0, 2, 2);
    link2(dt, 0, 1, 3, 2);
    link2(dt, 0, 2, 1, 2);
    link2(dt, 1, 0, 3, 1);
    link2(dt, 1, 1, 2, 0);
    link2(dt, 2, 1, 3, 0);
    B->last = 0;
}

/* The walk from B->last (delaunay_builder.h): across the first edge that
 * has p strictly outside, the edges tried in a turning order so that the
 * walk cannot cycle. */
void xg__dt_locate(struct xg__dt_builder *B, const double *p, uint32_t *tout,
                   int *where)
{
    struct xg__dt *dt = B->dt;
    uint32_t t = B->last;
    unsigned spin = 0;
    int g, came = -1;   /* the edge the walk came in by: p is strictly
                           inside it, no need to ask again */
    /* start from a real triangle: a slot remembered may have become a
     * ghost by a later flip */
    for (g = 0; g < 3; g++)
        if (dt->v[t][g] == XG_DT_GHOST)
            t = TRI(dt->adj[t][g]);
    for (;;) {
        const uint32_t *v = dt->v[t];
        int k, zero = -1, nzero = 0, moved = 0;
        if (v[0] == XG_DT_GHOST || v[1] == XG_DT_GHOST ||
            v[2] == XG_DT_GHOST) {
            *tout = t;
            *where = 3;
            return;
        }
        spin++;
        for (k = 0; k < 3; k++) {
            int e = (int)((k + spin) % 3), o;
            if (e == came)
                continue;
            o = xg_orient2d(B->cnt, P(v[(e + 1) % 3]), P(v[(e + 2) % 3]), p);
            if (o < 0) {
                came = (int)IDX(dt->adj[t][e]);
                t = TRI(dt->adj[t][e]);
                moved = 1;
                break;
            }
            if (o == 0) {
                nzero++;
                zero = e;
            }
        }
        if (moved)
            continue;
        *tout = t;
        if (nzero == 0)
            *where = 3;
        else if (nzero == 1)
            *where = zero;
        else {
            /* two edges through p: p is their common vertex, the one not
             * opposite either, i.e. the vertex whose two edges vanish */
            int i;
            for (i = 0; i < 3; i++) {
                int o1 = xg_orient2d(B->cnt, P(v[i]), P(v[(i + 1) % 3]), p);
                int o2 = xg_orient2d(B->cnt, P(v[(i + 2) % 3]), P(v[i]), p);
                if (o1 == 0 && o2 == 0)
                    break;
            }
            *where = 4 + i;
        }
        return;
    }
}

/* Splits t around pk, 1 -> 3 (t's vertex 0 where the caller rotated it:
 * for a ghost, G last), the three pushed for the flips.  XG_OK or
 * XG_ENOMEM. */
static int split3(struct xg__dt_builder *B, uint32_t t, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    uint32_t a = dt->v[t][0], b = dt->v[t][1], c = dt->v[t][2];
    uint32_t na = dt->adj[t][0], nb = dt->adj[t][1], nc = dt->adj[t][2];
    uint32_t t1 = new_tri(dt), t2 = new_tri(dt);
    set_tri(dt, t, pk, b, c);
    set_tri(dt, t1, pk, c, a);
    set_tri(dt, t2, pk, a, b);
    link_ref(dt, t, 0, na);
    link_ref(dt, t1, 0, nb);
    link_ref(dt, t2, 0, nc);
    link2(dt, t, 1, t1, 2);
    link2(dt, t, 2, t2, 1);
    link2(dt, t1, 1, t2, 2);
    if (push(B, t) || push(B, t1) || push(B, t2))
        return XG_ENOMEM;
    return XG_OK;
}

/* pk on the edge of real triangle t opposite its vertex e: the two
 * triangles of that edge split 2 -> 4, the four pushed for the flips.
 * XG_OK or XG_ENOMEM. */
static int split4(struct xg__dt_builder *B, uint32_t t, int e, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    uint32_t c = dt->v[t][e], a = dt->v[t][(e + 1) % 3],
             b = dt->v[t][(e + 2) % 3];
    uint32_t ref = dt->adj[t][e], n = TRI(ref);
    int j = (int)IDX(ref);
    uint32_t d = dt->v[n][j];
    uint32_t Ebc = dt->adj[t][(e + 1) % 3], Eca = dt->adj[t][(e + 2) % 3];
    uint32_t Ead = dt->adj[n][(j + 1) % 3], Edb = dt->adj[n][(j + 2) % 3];
    uint32_t t1 = new_tri(dt), t3 = new_tri(dt);
    set_tri(dt, t, pk, b, c);
    set_tri(dt, t1, pk, c, a);
    set_tri(dt, n, pk, a, d);
    set_tri(dt, t3, pk, d, b);
    link_ref(dt, t, 0, Ebc);
    link_ref(dt, t1, 0, Eca);
    link_ref(dt, n, 0, Ead);
    link_ref(dt, t3, 0, Edb);
    link2(dt, t, 1, t1, 2);
    link2(dt, t, 2, t3, 1);
    link2(dt, t1, 1, n, 2);
    link2(dt, n, 1, t3, 2);
    if (push(B, t) || push(B, t1) || push(B, n) || push(B, t3))
        return XG_ENOMEM;
    return XG_OK;
}

/* Rotates t so that its vertex i comes first (adjacency follows). */
static void rotate_to(struct xg__dt *dt, uint32_t t, int i)
{
    uint32_t v[3], a[3];
    int k;
    if (i == 0)
        return;
    for (k = 0; k < 3; k++) {
        v[k] = dt->v[t][(k + i) % 3];
        a[k] = dt->adj[t][(k + i) % 3];
    }
    for (k = 0; k < 3; k++) {
        dt->v[t][k] = v[k];
        link_ref(dt, t, k, a[k]);
    }
}

/* B->last: a real triangle at pk, found from t0 (pk its vertex 0), for
 * the next walk; left as it was when four steps find none. */
static void remember(struct xg__dt_builder *B, uint32_t t0, uint32_t pk)
{
    struct xg__dt *dt = B->dt;
    uint32_t t = t0;
    int guard = 0;
    /* walk around pk until a real triangle; pk is vertex 0 of t0 */
    while (xg__dt_is_ghost(dt, t) && guard++ < 4) {
        int i;
        for (i = 0; i < 3 && dt->v[t][i] != pk; i++)
            ;
        t = TRI(dt->adj[t][(i + 1) % 3]);
    }
    if (!xg__dt_is_ghost(dt, t))
        B->last = t;
}

/* The split, the flips, the next walk's start (delaunay_builder.h). */
int xg__dt_insert(struct xg__dt_builder *B, uint32_t t, int where,
                  uint32_t k)
{
    struct xg__dt *dt = B->dt;
    int rc;
    assert(where >= 0 && where <= 3 && B->nstack == 0);
    if (where == 3) {
        /* inside a real triangle, or beyond a ghost's edge: rotate a
         * ghost (a, b, G) to have G last, so that split3 makes (p, a, b)
         * the real one */
        int g;
        for (g = 0; g < 3 && dt->v[t][g] != XG_DT_GHOST; g++)
            ;
        if (g < 3)
            rotate_to(dt, t, (g + 1) % 3);
        rc = split3(B, t, k);
    } else
        rc = split4(B, t, where, k);
    if (rc != XG_OK || (rc = legalize(B, k)) != XG_OK)
        return rc;
    remember(B, t, k);
    return XG_OK;
}
