/*
 * segtri.c -- exact contact between a closed segment DE and a closed
 * triangle ABC.
 *
 * Semantics (docs/semantics.md):
 *   proper   D and E strictly on opposite sides of the plane and the
 *            crossing point strictly inside the triangle;
 *   touch    exactly one shared point otherwise;
 *   coplanar the segment lies in the plane and shares a stretch of
 *            positive length with the triangle.
 * The fast pass (xg_segtri_fast in xg_filters.h) settles the common cases
 * with intervals; everything it defers is decided here with exact signs.
 */
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_exact.h"
#include "xg_segtri.h"
#include "xg_pair.h"
#include "xg_dd.h"
#include "xg_interval.h"
#include "xg_filter_orient.h"
#include "xg_filter_segtri.h"

/* Every triangle of B passes here once (a million for a mine's meshes),
 * so the common case goes first: a sign the filter certifies in the
 * projection where the approximate normal is largest proves the triangle
 * is not degenerate (orient2d(B, C, A) there is that normal component,
 * (B - A) x (C - A)), for a third of the exact search's cost; that
 * search (xg__projection_axis) decides the rest. */
int xg__tri_is_degenerate(struct xg_counters *cnt, const double *tri)
{
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    double ab[3], ac[3], n[3], a2[2], b2[2], c2[2];
    int orient, u = 1, w = 2;   /* the kept axes; drop x first */
    ab[0] = B[0] - A[0], ab[1] = B[1] - A[1], ab[2] = B[2] - A[2];
    ac[0] = C[0] - A[0], ac[1] = C[1] - A[1], ac[2] = C[2] - A[2];
    n[0] = fabs(ab[1] * ac[2] - ab[2] * ac[1]);
    n[1] = fabs(ab[2] * ac[0] - ab[0] * ac[2]);
    n[2] = fabs(ab[0] * ac[1] - ab[1] * ac[0]);
    if (n[1] > n[0] && n[1] >= n[2])
        u = 0;                  /* drop y */
    else if (n[2] > n[0] && n[2] > n[1])
        u = 0, w = 1;           /* drop z */
    a2[0] = A[u], a2[1] = A[w];
    b2[0] = B[u], b2[1] = B[w];
    c2[0] = C[u], c2[1] = C[w];
    orient = xg_orient2d_filter(b2, c2, a2);
    if (orient == XG_POS || orient == XG_NEG)
        return 0;
    return xg__projection_axis(cnt, tri, &orient) < 0;
}

/* P coplanar with the triangle: is it in the closed triangle? */
static int point_in_triangle(struct xg_counters *cnt, const double *P,
                             const double *tri, int drop, int orient)
{
    double p[2], v[3][2];
    int i, s;
    xg__project(P, drop, p);
    for (i = 0; i < 3; i++)
        xg__project(tri + 3 * i, drop, v[i]);
    for (i = 0; i < 3; i++) {
        s = xg_orient2d(cnt, v[i], v[(i + 1) % 3], p);
        if (s != XG_ZERO && s != orient)
            return 0;
    }
    return 1;
}

void xg__plane_point_exact(const double *seg, const double *tri,
                           double out[3])
{
    double v[15];
    mpz_t z[15], sd, se, td;
    int i;
    for (i = 0; i < 9; i++)
        v[i] = tri[i];
    for (i = 0; i < 6; i++)
        v[9 + i] = seg[i];
    xg__mpz_init_scaled(z, v, 15);
    mpz_inits(sd, se, td, NULL);
    xg__orient3d_mpz(sd, (mpz_t const *)z, (mpz_t const *)z + 3,
                     (mpz_t const *)z + 6, (mpz_t const *)z + 9);
    xg__orient3d_mpz(se, (mpz_t const *)z, (mpz_t const *)z + 3,
                     (mpz_t const *)z + 6, (mpz_t const *)z + 12);
    mpz_sub(td, sd, se);
    xg__lerp_exact(seg, seg + 3, sd, td, 3, out);
    mpz_clears(sd, se, td, NULL);
    for (i = 0; i < 15; i++)
        mpz_clear(z[i]);
}

/* The crossing of DE with the triangle's plane, D and E strictly on
 * opposite sides: D + t (E - D) with t = sD / (sD - sE), rounded. */
static void plane_point(struct xg_counters *cnt, const double *seg,
                        const double *tri, double out[3])
{
    const double *D = seg, *E = seg + 3;
    double t0;

    /* The double stage was tried by the fast pass (or is hopeless for a
     * pair that needed exact signs): go on with double-double, a value
     * and an error bound (refine.c), then its intervals (xg_dd.h), then
     * GMP. */
    cnt->constructions++;
    if (xg__plane_point_ddb(tri, D, E, out)) {
        cnt->construct_ld++;
        return;
    }
    if (xg_plane_point_dd(tri, D, E, out)) {
        cnt->construct_dd++;
        return;
    }

    cnt->construct_exact++;
    t0 = xg__now();
    xg__plane_point_exact(seg, tri, out);
    cnt->exact_seconds += xg__now() - t0;
}

/* A parameter along DE as an exact fraction with a positive denominator. */
struct frac {
    mpz_t n, d;
};

/* Sign of x - y, compared exactly by cross products (the denominators
 * are positive). */
static int frac_cmp(const struct frac *x, const struct frac *y)
{
    mpz_t l, r;
    int c;
    mpz_inits(l, r, NULL);
    mpz_mul(l, x->n, y->d);
    mpz_mul(r, y->n, x->d);
    c = mpz_cmp(l, r);
    mpz_clears(l, r, NULL);
    return c;
}

/*
 * DE in the triangle's plane.  In the projection that keeps the
 * triangle's area (an affine bijection of the plane, so parameters along
 * DE are preserved), clip t in [0,1] by the three closed half-planes:
 * along DE, orient2d(Vi, Vi+1, P(t)) = (1-t) oD + t oE is affine in t.
 * Returns 0 (miss), 1 (one point, in c->p) or 2 (a stretch, c->p..c->q).
 */
static int coplanar(struct xg_counters *cnt, const double *seg,
                    const double *tri, int drop, int orient, double *p,
                    double *q)
{
    double v[10];
    mpz_t z[10], od, oe;
    double t0;
    struct frac lo, hi, cut;
    int i, result = 0, empty = 0;

    xg__project(seg, drop, v);
    xg__project(seg + 3, drop, v + 2);
    for (i = 0; i < 3; i++)
        xg__project(tri + 3 * i, drop, v + 4 + 2 * i);
    xg__mpz_init_scaled(z, v, 10);
    cnt->exact_evals++;
    t0 = xg__now();
    mpz_inits(od, oe, lo.n, lo.d, hi.n, hi.d, cut.n, cut.d, NULL);
    mpz_set_ui(lo.n, 0);
    mpz_set_ui(lo.d, 1);
    mpz_set_ui(hi.n, 1);
    mpz_set_ui(hi.d, 1);
    for (i = 0; i < 3 && !empty; i++) {
        mpz_t const *vi = (mpz_t const *)z + 4 + 2 * i;
        mpz_t const *vj = (mpz_t const *)z + 4 + 2 * ((i + 1) % 3);
        xg__orient2d_mpz(od, vi, vj, (mpz_t const *)z);
        xg__orient2d_mpz(oe, vi, vj, (mpz_t const *)z + 2);
        if (orient < 0) {             /* make "inside" mean >= 0 */
            mpz_neg(od, od);
            mpz_neg(oe, oe);
        }
        if (mpz_sgn(od) < 0 && mpz_sgn(oe) < 0) {
            empty = 1;
        } else if (mpz_sgn(od) < 0) { /* entering: t >= od / (od - oe) */
            mpz_neg(cut.n, od);
            mpz_sub(cut.d, oe, od);
            if (frac_cmp(&cut, &lo) > 0) {
                mpz_swap(lo.n, cut.n);
                mpz_swap(lo.d, cut.d);
            }
        } else if (mpz_sgn(oe) < 0) { /* leaving: t <= od / (od - oe) */
            mpz_set(cut.n, od);
            mpz_sub(cut.d, od, oe);
            if (frac_cmp(&cut, &hi) < 0) {
                mpz_swap(hi.n, cut.n);
                mpz_swap(hi.d, cut.d);
            }
        }
    }
    if (!empty) {
        int c = frac_cmp(&lo, &hi);
        if (c <= 0) {
            xg__lerp_exact(seg, seg + 3, lo.n, lo.d, 3, p);
            cnt->constructions++;
            cnt->construct_exact++;
            result = 1;
            if (c < 0) {
                xg__lerp_exact(seg, seg + 3, hi.n, hi.d, 3, q);
                cnt->constructions++;
                cnt->construct_exact++;
                result = 2;
            }
        }
    }
    mpz_clears(od, oe, lo.n, lo.d, hi.n, hi.d, cut.n, cut.d, NULL);
    for (i = 0; i < 10; i++)
        mpz_clear(z[i]);
    cnt->exact_seconds += xg__now() - t0;
    return result;
}

/*
 * DE in the triangle's plane: whether it meets the closed triangle, by
 * signs alone, for a caller that wants no point (xg__segtri_meets).  Two
 * closed convex figures of the plane are disjoint exactly when a line
 * through an edge of one has the other strictly on its far side (the
 * Minkowski difference's edges are the figures' edges): here DE strictly
 * outside one edge of the triangle, or the three vertices strictly on one
 * side of DE's line.  The same projection as coplanar(), the same exact
 * orient2d, no GMP clip: a flat mesh's neighbours all come here.
 */
static int coplanar_meets(struct xg_counters *cnt, const double *seg,
                          const double *tri, int drop, int orient)
{
    double d[2], e[2], v[3][2];
    int i, side[3];
    xg__project(seg, drop, d);
    xg__project(seg + 3, drop, e);
    for (i = 0; i < 3; i++)
        xg__project(tri + 3 * i, drop, v[i]);
    for (i = 0; i < 3; i++)
        if (xg_orient2d(cnt, v[i], v[(i + 1) % 3], d) == -orient &&
            xg_orient2d(cnt, v[i], v[(i + 1) % 3], e) == -orient)
            return 0;
    for (i = 0; i < 3; i++)
        side[i] = xg_orient2d(cnt, d, e, v[i]);
    return !(side[0] != XG_ZERO && side[0] == side[1] && side[1] == side[2]);
}

/* The crossing of a segment that passes strictly from one side of the
 * plane to the other, when two of the edges' signs s (orient3d(A, B, D,
 * E), (B, C, D, E), (C, A, D, E)) are zero: the vertex the two edges
 * share, else NULL.  Why: a zero sign puts the line DE and the edge's
 * line in one plane, which is not the triangle's (D is off it), so the
 * crossing, in both planes, lies on the edge's line; on two edges' lines
 * it is their common vertex (the triangle is not degenerate).  The exact
 * point is then a double and needs no construction. */
static const double *touch_vertex(const int s[3], const double *tri)
{
    if (s[0] == XG_ZERO && s[1] == XG_ZERO)
        return tri + 3;
    if (s[1] == XG_ZERO && s[2] == XG_ZERO)
        return tri + 6;
    if (s[2] == XG_ZERO && s[0] == XG_ZERO)
        return tri;
    return NULL;
}

/* out = P, with -0 made +0 so that a point prints and compares one way
 * whatever sign its zero arrived with. */
static void set_point(double out[3], const double *P)
{
    out[0] = P[0] + 0.0;        /* -0 becomes +0 */
    out[1] = P[1] + 0.0;
    out[2] = P[2] + 0.0;
}

int xg__segtri_exact(struct xg_counters *cnt, const double *seg,
                     const double *tri, struct xg_contact *c)
{
    const double *D = seg, *E = seg + 3;
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    int sd = xg_orient3d(cnt, A, B, C, D);
    int se = xg_orient3d(cnt, A, B, C, E);

    if (sd == se && sd != XG_ZERO)
        return 0;
    if (sd != XG_ZERO && se != XG_ZERO) {
        int s[3], i, pos = 0, neg = 0, zero = 0;
        s[0] = xg_orient3d(cnt, A, B, D, E);
        s[1] = xg_orient3d(cnt, B, C, D, E);
        s[2] = xg_orient3d(cnt, C, A, D, E);
        for (i = 0; i < 3; i++) {
            pos += s[i] == XG_POS;
            neg += s[i] == XG_NEG;
            zero += s[i] == XG_ZERO;
        }
        if (pos && neg)
            return 0;
        if (!c)
            return 1;
        c->kind = zero ? XG_KIND_TOUCH : XG_KIND_PROPER;
        if (zero >= 2)
            set_point(c->p, touch_vertex(s, tri));
        else
            plane_point(cnt, seg, tri, c->p);
        return 1;
    }
    {
        int orient, drop = xg__projection_axis(cnt, tri, &orient);
        if (drop < 0)
            return 0;               /* collinear triangle: caller skips */
        if (sd != XG_ZERO || se != XG_ZERO) {
            const double *P = sd == XG_ZERO ? D : E;
            if (!point_in_triangle(cnt, P, tri, drop, orient))
                return 0;
            if (!c)
                return 1;
            c->kind = XG_KIND_TOUCH;
            set_point(c->p, P);
            return 1;
        }
        if (!c)
            return coplanar_meets(cnt, seg, tri, drop, orient);
        switch (coplanar(cnt, seg, tri, drop, orient, c->p, c->q)) {
        case 1:
            c->kind = XG_KIND_TOUCH;
            return 1;
        case 2:
            c->kind = XG_KIND_OVERLAP;
            return 1;
        default:
            return 0;
        }
    }
}

void xg__segtri_construct(struct xg_counters *cnt, const double *seg,
                          const double *tri, double out[3])
{
    plane_point(cnt, seg, tri, out);
}

/* The five signs of xg_segtri_fast through the static stage first
 * (xg__orient3d_static, a tenth of the intervals' cost): XG_SEGTRI_MISS,
 * XG_SEGTRI_PROPER or XG_SEGTRI_TOUCH where its signs certify it, else
 * XG_SEGTRI_DEFER, and the intervals decide as before.  sD =
 * orient3d(A, B, C, D), sE likewise, and the edges' signs s[] =
 * orient3d(A, B, D, E), (B, C, D, E), (C, A, D, E), as in xg_segtri_fast
 * and xg__segtri_exact, which read them the same way: a crossing with
 * edges on both sides of DE misses, one with a zero edge touches.  The
 * static stage proves the zeros of axis-parallel segments through mesh
 * edges and vertices (xg_filters.h), which then never reach the exact
 * stage.  An endpoint in the plane is left to it. */
static int static_pass(const double *seg, const double *tri, int s[3])
{
    const double *D = seg, *E = seg + 3;
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    int sd, se, i, pos = 0, neg = 0, zero = 0;
    if ((sd = xg__orient3d_static(A, B, C, D)) == XG_UNSURE ||
        (se = xg__orient3d_static(A, B, C, E)) == XG_UNSURE ||
        sd == XG_ZERO || se == XG_ZERO)
        return XG_SEGTRI_DEFER;
    if (sd == se)
        return XG_SEGTRI_MISS;  /* both strictly on one side */
    s[0] = xg__orient3d_static(A, B, D, E);
    s[1] = xg__orient3d_static(B, C, D, E);
    if ((s[0] == XG_POS && s[1] == XG_NEG) ||
        (s[0] == XG_NEG && s[1] == XG_POS))
        return XG_SEGTRI_MISS;  /* two edges on opposite sides */
    s[2] = xg__orient3d_static(C, A, D, E);
    for (i = 0; i < 3; i++) {
        pos += s[i] == XG_POS;
        neg += s[i] == XG_NEG;
        zero += s[i] == XG_ZERO;
    }
    if (pos && neg)
        return XG_SEGTRI_MISS;
    if (pos + neg + zero < 3 || zero == 3)  /* unsure; 3 zeros: never */
        return XG_SEGTRI_DEFER;
    return zero ? XG_SEGTRI_TOUCH : XG_SEGTRI_PROPER;
}

int xg__segtri_fast_hit(struct xg_counters *cnt, const double *seg,
                        const double *tri, struct xg_contact *c)
{
    struct xg_iv t, sd, se;
    int r, s[3];
    const double *v;
    cnt->predicates++;          /* the pair's fused filter: one */
    r = static_pass(seg, tri, s);
    if (r == XG_SEGTRI_TOUCH && (v = touch_vertex(s, tri)) != NULL) {
        c->kind = XG_KIND_TOUCH;
        set_point(c->p, v);
        return 1;
    }
    if (r == XG_SEGTRI_PROPER || r == XG_SEGTRI_TOUCH) {
        /* t's enclosure as xg_segtri_fast makes it; wide (the whole
         * line) where the intervals doubt sD or sE: then xg_lerp_fast
         * fails and plane_point rounds */
        (void)xg_segtri_plane(seg, tri, &sd, &se);
        t = xg_segtri_t(sd, se);
    } else if (r == XG_SEGTRI_DEFER) {
        r = xg_segtri_fast(seg, tri, &t);
    }
    switch (r) {
    case XG_SEGTRI_MISS:
        return 0;
    case XG_SEGTRI_PROPER:
        c->kind = XG_KIND_PROPER;
        break;
    case XG_SEGTRI_TOUCH:
        c->kind = XG_KIND_TOUCH;
        break;
    default:
        return -1;
    }
    cnt->constructions++;
    if (!xg_lerp_fast(seg, seg + 3, t, 3, c->p)) {
        cnt->constructions--;       /* plane_point counts it */
        plane_point(cnt, seg, tri, c->p);
    }
    return 1;
}

int xg__segtri_meets(struct xg_counters *cnt, const double *seg,
                     const double *tri)
{
    struct xg_iv t;
    int s[3], r;
    cnt->predicates++;          /* the pair's fused filter: one */
    if ((r = static_pass(seg, tri, s)) == XG_SEGTRI_DEFER)
        r = xg_segtri_fast(seg, tri, &t);
    if (r != XG_SEGTRI_DEFER)
        return r != XG_SEGTRI_MISS;
    return xg__segtri_exact(cnt, seg, tri, NULL);
}

int xg_segtri_pair(struct xg_counters *cnt, const double seg[6],
                   const double tri[9], struct xg_contact *c)
{
    return xg__pair_decide(xg__segtri_ops, cnt, seg, tri, c);
}
