/*
 * xg_filters.h -- the interval filters of every predicate, written once
 * and compiled for the host (C) and the GPU (CUDA).  Each answers a sign
 * or XG_UNSURE; the exact stage lives in exact.c.  Because host and device
 * evaluate the same formula with enclosing intervals, a sign either one
 * certifies is the exact sign: they can differ only in what they leave
 * unsure, never in an answer.
 */
#ifndef XG_FILTERS_H
#define XG_FILTERS_H

#include "xg_interval.h"
#include "xg_expansion.h"

/* The 2x2 determinant ux vy - uy vx. */
XG_HD struct xg_iv xg__iv_det2(struct xg_iv ux, struct xg_iv uy,
                               struct xg_iv vx, struct xg_iv vy)
{
    return xg_iv_sub(xg_iv_mul(ux, vy), xg_iv_mul(uy, vx));
}

/* orient2d(a, b, c) = det[a-c; b-c], positive when a, b, c turn
 * counter-clockwise. */
XG_HD struct xg_iv xg_orient2d_iv(const double a[2], const double b[2],
                                  const double c[2])
{
    struct xg_iv acx = xg_iv_diff(a[0], c[0]), acy = xg_iv_diff(a[1], c[1]);
    struct xg_iv bcx = xg_iv_diff(b[0], c[0]), bcy = xg_iv_diff(b[1], c[1]);
    return xg__iv_det2(acx, acy, bcx, bcy);
}

/* incircle(a, b, c, d): with the differences to d, u' = u - d, the
 * lifted determinant
 *
 *   | a'x  a'y  a'x^2 + a'y^2 |
 *   | b'x  b'y  b'x^2 + b'y^2 |
 *   | c'x  c'y  c'x^2 + c'y^2 |
 *
 * expanded along its last column (Shewchuk's incircle): positive when d
 * lies inside the circle through a, b, c taken counter-clockwise,
 * negative outside, zero on it.  The lifts go through xg_iv_sqr, which
 * knows a square is not negative, not through a product of an interval
 * with itself. */
XG_HD struct xg_iv xg_incircle_iv(const double a[2], const double b[2],
                                  const double c[2], const double d[2])
{
    struct xg_iv adx = xg_iv_diff(a[0], d[0]), ady = xg_iv_diff(a[1], d[1]);
    struct xg_iv bdx = xg_iv_diff(b[0], d[0]), bdy = xg_iv_diff(b[1], d[1]);
    struct xg_iv cdx = xg_iv_diff(c[0], d[0]), cdy = xg_iv_diff(c[1], d[1]);
    struct xg_iv alift = xg_iv_add(xg_iv_sqr(adx), xg_iv_sqr(ady));
    struct xg_iv blift = xg_iv_add(xg_iv_sqr(bdx), xg_iv_sqr(bdy));
    struct xg_iv clift = xg_iv_add(xg_iv_sqr(cdx), xg_iv_sqr(cdy));
    return xg_iv_add(
        xg_iv_add(xg_iv_mul(alift, xg__iv_det2(bdx, bdy, cdx, cdy)),
                  xg_iv_mul(blift, xg__iv_det2(cdx, cdy, adx, ady))),
        xg_iv_mul(clift, xg__iv_det2(adx, ady, bdx, bdy)));
}

/* Delaunay's tie-break (exactgeo.h, xg_delaunay): when incircle(a, b,
 * c, d) is exactly zero, each point's lifted height x^2 + y^2 is raised
 * by eps^k, k its rank in descending lexicographic (x, y) order, eps > 0
 * infinitesimal.  The determinant is linear in each height, with
 * derivatives
 *
 *   d/dza = orient2d(b, c, d)     d/dzb = -orient2d(a, c, d)
 *   d/dzc = orient2d(a, b, d)     d/dzd = -orient2d(a, b, c)
 *
 * (tests/delaunay_t checks them by exact finite differences), so the
 * perturbed sign is the sign of the derivative of the lexicographically
 * largest point whose derivative is not zero.  Raising a height pushes a
 * point out of circles, which is why d's derivative is -orient2d(a, b,
 * c).  Distinct points never leave all four zero unless all four are
 * collinear.  xg__lex_greater(p, q): p after q in (x, y) order. */
XG_HD int xg__lex_greater(const double *p, const double *q)
{
    return p[0] > q[0] || (p[0] == q[0] && p[1] > q[1]);
}

/* The points a, b, c, d as indices 0..3, sorted by descending (x, y). */
XG_HD void xg__lex_desc4(const double *a, const double *b, const double *c,
                         const double *d, int order[4])
{
    const double *p[4];
    int i, j;
    p[0] = a; p[1] = b; p[2] = c; p[3] = d;
    for (i = 0; i < 4; i++)
        order[i] = i;
    for (i = 1; i < 4; i++)
        for (j = i; j > 0 && xg__lex_greater(p[order[j]], p[order[j - 1]]);
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* Derivative i (0..3 for a, b, c, d) as s * orient2d(q[0], q[1], q[2]):
 * fills q and returns s (+1 or -1).  The caller walks the points in
 * xg__lex_desc4 order and evaluates each orient2d with its own predicate
 * (exact on the host, the filter on the device) until one is not zero. */
XG_HD int xg__tie_term(const double *const p[4], int i, const double *q[3])
{
    q[0] = p[i == 0 ? 1 : 0];
    q[1] = p[i <= 1 ? 2 : 1];
    q[2] = p[i <= 2 ? 3 : 2];
    return i % 2 == 0 ? 1 : -1;
}

/* Cross product of interval vectors. */
XG_HD void xg__iv_cross(const struct xg_iv u[3], const struct xg_iv v[3],
                        struct xg_iv w[3])
{
    w[0] = xg_iv_sub(xg_iv_mul(u[1], v[2]), xg_iv_mul(u[2], v[1]));
    w[1] = xg_iv_sub(xg_iv_mul(u[2], v[0]), xg_iv_mul(u[0], v[2]));
    w[2] = xg_iv_sub(xg_iv_mul(u[0], v[1]), xg_iv_mul(u[1], v[0]));
}

XG_HD struct xg_iv xg__iv_dot(const struct xg_iv u[3], const struct xg_iv v[3])
{
    return xg_iv_add(xg_iv_add(xg_iv_mul(u[0], v[0]), xg_iv_mul(u[1], v[1])),
                     xg_iv_mul(u[2], v[2]));
}

XG_HD void xg__iv_diff3(const double a[3], const double b[3], struct xg_iv d[3])
{
    d[0] = xg_iv_diff(a[0], b[0]);
    d[1] = xg_iv_diff(a[1], b[1]);
    d[2] = xg_iv_diff(a[2], b[2]);
}

/* orient3d(a, b, c, d) = det[a-d; b-d; c-d] = (a-d) . ((b-d) x (c-d)). */
XG_HD struct xg_iv xg_orient3d_iv(const double a[3], const double b[3],
                                  const double c[3], const double d[3])
{
    struct xg_iv ad[3], bd[3], cd[3], w[3];
    xg__iv_diff3(a, d, ad);
    xg__iv_diff3(b, d, bd);
    xg__iv_diff3(c, d, cd);
    xg__iv_cross(bd, cd, w);
    return xg__iv_dot(ad, w);
}

#ifndef __CUDACC__
/*
 * The static stage of the host's filters: the determinant in plain
 * doubles and Shewchuk's a priori bound on its rounding error ("Adaptive
 * precision floating-point arithmetic and fast robust geometric
 * predicates", 1997: ccwerrboundA = (3 + 16 eps) eps, o3derrboundA = (7 +
 * 56 eps) eps, iccerrboundA = (10 + 96 eps) eps, eps = 2^-53, times the
 * permanent; the bounds cover the rounding of the coordinate differences
 * and of the bound's own evaluation, in the order written).  A sign is
 * certified when |det| exceeds the bound; XG_ZERO only where proved
 * exact (below).
 * Shewchuk's analysis assumes no underflow or overflow, so the stage
 * answers only when every coordinate difference is 0 (then exact: x - y
 * = 0 only for x = y, underflow being gradual) or of magnitude in
 * [2^-200, 2^200]: a product of up to four is then a normal double below
 * 2^800 and a sum of a few stays far from 2^1024.  NaN fails the range
 * test.  It costs a tenth of the interval filter, which it leaves only
 * the doubts (orient.c; the cpu segtri pass, segtri.c; the ray filter's
 * sides and height, below).
 *
 * orient3d's stage also proves zeros, where the bound cannot: when every
 * term of the determinant's expansion over the six permutations holds a
 * zero coordinate difference, each term is exactly zero, and so is the
 * determinant.  A computed difference x - y is zero only when x = y
 * (underflow is gradual), so a zero seen is an exact zero, and nothing
 * else is assumed (xg__det3_zero_pattern).  Axis-parallel data makes
 * such patterns: a vertical drill hole through a mesh vertex (D - E and
 * A - E both zero in x and y) or a horizontal one above a row of mesh
 * edges (all of y zero); the bound is tried first, so a sure sign costs
 * nothing more.
 */
#define XG_EPS 0x1p-53

/* Non-zero when the 3 x 3 matrix whose entry (i, j) is zero where
 * nz[i][j] is 0 has a zero in every term of its Leibniz expansion: its
 * determinant is zero whatever the other entries are. */
static inline int xg__det3_zero_pattern(const int nz[3][3])
{
    return !((nz[0][0] && ((nz[1][1] && nz[2][2]) || (nz[1][2] && nz[2][1]))) ||
             (nz[0][1] && ((nz[1][0] && nz[2][2]) || (nz[1][2] && nz[2][0]))) ||
             (nz[0][2] && ((nz[1][0] && nz[2][1]) || (nz[1][1] && nz[2][0]))));
}

/* 0 or of magnitude in [2^-200, 2^200], tested on the bits, whose order
 * is the order of magnitudes: with u the bits less the sign, u - L (mod
 * 2^64) is at most H - L exactly when L <= u <= H.  No branch, so that
 * the nine tests of orient3d's stage combine with & into one. */
static inline int xg__static_in_range(double d)
{
    const uint64_t L = (uint64_t)(1023 - 200) << 52;     /* 2^-200 */
    const uint64_t H = (uint64_t)(1023 + 200) << 52;     /* 2^200 */
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    u &= ~((uint64_t)1 << 63);
    return (u - L <= H - L) | (u == 0);
}

/* orient2d(a, b, c) = det[a-c; b-c], Shewchuk's orient2d. */
static inline int xg__orient2d_static(const double a[2], const double b[2],
                                      const double c[2])
{
    double acx = a[0] - c[0], bcx = b[0] - c[0];
    double acy = a[1] - c[1], bcy = b[1] - c[1];
    double l, r, det, bound;
    if (!(xg__static_in_range(acx) & xg__static_in_range(bcx) &
          xg__static_in_range(acy) & xg__static_in_range(bcy)))
        return XG_UNSURE;
    l = acx * bcy;
    r = acy * bcx;
    /* Both products zero: each has a zero factor (nonzero differences in
     * range make a nonzero product), a zero difference is exact, so the
     * determinant is exactly zero.  A shared vertex (c = a or c = b) and
     * axis-parallel collinear points, the red/blue maps' common contacts,
     * are settled here and not in the interval and expansion stages. */
    if (l == 0.0 && r == 0.0)
        return XG_ZERO;
    det = l - r;
    bound = (3.0 + 16.0 * XG_EPS) * XG_EPS * (fabs(l) + fabs(r));
    if (det > bound)
        return XG_POS;
    if (-det > bound)
        return XG_NEG;
    return XG_UNSURE;
}

/* orient3d(a, b, c, d) = det[a-d; b-d; c-d], Shewchuk's orient3d. */
static inline int xg__orient3d_static(const double a[3], const double b[3],
                                      const double c[3], const double d[3])
{
    double adx = a[0] - d[0], bdx = b[0] - d[0], cdx = c[0] - d[0];
    double ady = a[1] - d[1], bdy = b[1] - d[1], cdy = c[1] - d[1];
    double adz = a[2] - d[2], bdz = b[2] - d[2], cdz = c[2] - d[2];
    double bdxcdy, cdxbdy, cdxady, adxcdy, adxbdy, bdxady, det, perm;
    if (!(xg__static_in_range(adx) & xg__static_in_range(bdx) &
          xg__static_in_range(cdx) & xg__static_in_range(ady) &
          xg__static_in_range(bdy) & xg__static_in_range(cdy) &
          xg__static_in_range(adz) & xg__static_in_range(bdz) &
          xg__static_in_range(cdz)))
        return XG_UNSURE;
    bdxcdy = bdx * cdy;
    cdxbdy = cdx * bdy;
    cdxady = cdx * ady;
    adxcdy = adx * cdy;
    adxbdy = adx * bdy;
    bdxady = bdx * ady;
    det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) +
          cdz * (adxbdy - bdxady);
    perm = (fabs(bdxcdy) + fabs(cdxbdy)) * fabs(adz) +
           (fabs(cdxady) + fabs(adxcdy)) * fabs(bdz) +
           (fabs(adxbdy) + fabs(bdxady)) * fabs(cdz);
    perm *= (7.0 + 56.0 * XG_EPS) * XG_EPS;
    if (det > perm)
        return XG_POS;
    if (-det > perm)
        return XG_NEG;
    {
        const int nz[3][3] = {{adx != 0.0, ady != 0.0, adz != 0.0},
                              {bdx != 0.0, bdy != 0.0, bdz != 0.0},
                              {cdx != 0.0, cdy != 0.0, cdz != 0.0}};
        return xg__det3_zero_pattern(nz) ? XG_ZERO : XG_UNSURE;
    }
}
#endif

/* ------------------------------------------------------------------ */
/* Segment DE against triangle ABC, the fast pass.
 *
 * With n = (B-A) x (C-A):  orient3d(A,B,C,X) = det[A-X; B-X; C-X]
 *   = det[A-X; B-A; C-A] = -(X-A) . n,
 * so the two side tests share n.  With u = D-E and a = A-E, b = B-E,
 * c = C-E:  orient3d(A,B,D,E) = det[a; b; u] = u . (a x b), and likewise
 * for (B,C,D,E) and (C,A,D,E).  These are the determinants themselves,
 * rearranged, so their signs are exactly xg_orient3d's.
 *
 * Answers XG_SEGTRI_MISS, XG_SEGTRI_PROPER, XG_SEGTRI_TOUCH (the segment
 * crosses the plane through an edge or a vertex) or XG_SEGTRI_DEFER: an
 * uncertain sign, or an endpoint in the plane, both left to the exact
 * stage.  For PROPER and TOUCH, *t encloses the crossing parameter
 * t = sD / (sD - sE) along D -> E. */

#define XG_SEGTRI_MISS   0
#define XG_SEGTRI_PROPER 1
#define XG_SEGTRI_TOUCH  2
#define XG_SEGTRI_DEFER  3
#define XG_SEGTRI_CROSS  4      /* xg_segtri_plane: go on to the edges */

/* The first half: the sides of the plane on which D and E lie, sd and se
 * enclosing sD and sE.  XG_SEGTRI_MISS (both strictly on one side),
 * XG_SEGTRI_DEFER (an uncertain sign or an endpoint in the plane) or
 * XG_SEGTRI_CROSS (strictly on opposite sides: xg_segtri_edges decides).
 * Split out so that the GPU can settle the common miss for many pairs
 * before it spends the edge tests on the few that cross. */
XG_HD int xg_segtri_plane(const double *seg, const double *tri,
                          struct xg_iv *sd, struct xg_iv *se)
{
    const double *D = seg, *E = seg + 3;
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    struct xg_iv ab[3], ac[3], n[3], da[3], ea[3];
    int sgn_d, sgn_e;

    xg__iv_diff3(B, A, ab);
    xg__iv_diff3(C, A, ac);
    xg__iv_cross(ab, ac, n);
    xg__iv_diff3(D, A, da);
    xg__iv_diff3(E, A, ea);
    *sd = xg_iv_neg(xg__iv_dot(da, n));
    *se = xg_iv_neg(xg__iv_dot(ea, n));
    sgn_d = xg_iv_sign(*sd);
    sgn_e = xg_iv_sign(*se);
    if (sgn_d == XG_UNSURE || sgn_e == XG_UNSURE)
        return XG_SEGTRI_DEFER;
    if (sgn_d == sgn_e && sgn_d != XG_ZERO)
        return XG_SEGTRI_MISS;
    if (sgn_d == XG_ZERO || sgn_e == XG_ZERO)
        return XG_SEGTRI_DEFER;
    return XG_SEGTRI_CROSS;
}

/* The enclosure of the crossing's parameter t = sD / (sD - sE), from
 * those of sD and sE (xg_segtri_plane). */
XG_HD struct xg_iv xg_segtri_t(struct xg_iv sd, struct xg_iv se)
{
    return xg_iv_div(sd, xg_iv_sub(sd, se));
}

/* The second half, for a segment crossing the plane (sd, se from
 * xg_segtri_plane): the sides of DE's line on which the three edges
 * pass. */
XG_HD int xg_segtri_edges(const double *seg, const double *tri,
                          struct xg_iv sd, struct xg_iv se, struct xg_iv *t)
{
    const double *D = seg, *E = seg + 3;
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    struct xg_iv u[3], a[3], b[3], c[3], w[3], o;
    int s[3], i, pos = 0, neg = 0, zero = 0;
    xg__iv_diff3(D, E, u);
    xg__iv_diff3(A, E, a);
    xg__iv_diff3(B, E, b);
    xg__iv_diff3(C, E, c);
    xg__iv_cross(a, b, w);
    o = xg__iv_dot(u, w);
    s[0] = xg_iv_sign(o);
    xg__iv_cross(b, c, w);
    o = xg__iv_dot(u, w);
    s[1] = xg_iv_sign(o);
    xg__iv_cross(c, a, w);
    o = xg__iv_dot(u, w);
    s[2] = xg_iv_sign(o);
    for (i = 0; i < 3; i++) {
        if (s[i] == XG_UNSURE)
            return XG_SEGTRI_DEFER;
        pos += s[i] == XG_POS;
        neg += s[i] == XG_NEG;
        zero += s[i] == XG_ZERO;
    }
    if (pos && neg)
        return XG_SEGTRI_MISS;
    if (zero == 3)          /* impossible for a true triangle */
        return XG_SEGTRI_DEFER;
    *t = xg_segtri_t(sd, se);
    return zero ? XG_SEGTRI_TOUCH : XG_SEGTRI_PROPER;
}

XG_HD int xg_segtri_fast(const double *seg, const double *tri, struct xg_iv *t)
{
    struct xg_iv sd, se;
    int r = xg_segtri_plane(seg, tri, &sd, &se);
    return r == XG_SEGTRI_CROSS ? xg_segtri_edges(seg, tri, sd, se, t) : r;
}

/* The point D + t (E - D) rounded to the nearest double, coordinate by
 * coordinate, when the enclosure of t certifies it.  Round-to-nearest is
 * monotone, so if D + lo and D + hi (each rounded to nearest) agree, the
 * exact point rounds to that same double.  Returns 1 when all three are
 * certified, 0 when the caller must round exactly. */
XG_HD int xg_lerp_fast(const double *D, const double *E, struct xg_iv t,
                       int dim, double *out)
{
    int k;
    for (k = 0; k < dim; k++) {
        struct xg_iv d = xg_iv_mul(t, xg_iv_diff(E[k], D[k]));
#ifdef __CUDA_ARCH__
        double lo = __dadd_rn(D[k], d.lo), hi = __dadd_rn(D[k], d.hi);
#else
        double lo = D[k] + d.lo, hi = D[k] + d.hi;
#endif
        if (!(lo == hi))
            return 0;
        out[k] = lo + 0.0;      /* -0 becomes +0, as the exact path gives */
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* 2D segments P0P1 (red) and Q0Q1 (blue).
 *
 * The four sides oq0 = orient2d(P0,P1,Q0), oq1 = orient2d(P0,P1,Q1),
 * op0 = orient2d(Q0,Q1,P0), op1 = orient2d(Q0,Q1,P1).  The contact
 * follows from their signs alone (xg_redblue_classify), one function for
 * the fast stage (signs its intervals certify) and the exact stage (exact
 * signs), so the two cannot disagree on what a set of signs means. */

#define XG_REDBLUE_MISS    0
#define XG_REDBLUE_PROPER  1
#define XG_REDBLUE_DEFER   3
#define XG_REDBLUE_TOUCH   4
#define XG_REDBLUE_OVERLAP 5

XG_HD void xg__rb_point(double *out, const double *p)
{
    out[0] = p[0] + 0.0;    /* -0 becomes +0, as constructed points */
    out[1] = p[1] + 0.0;
}

/* Collinear segments.  Along an axis on which P0 and P1 differ, the
 * common line is a bijection onto that coordinate, so comparing that
 * coordinate of endpoints (exact doubles) orders them along the line.
 * The shared part, if any, runs between two endpoints of the inputs: no
 * construction.  The stretch is given in A's direction (p nearer P0). */
XG_HD int xg__rb_collinear(const double *p0, const double *p1,
                           const double *q0, const double *q1, double p[2],
                           double q[2])
{
    int ax = p0[0] != p1[0] ? 0 : 1;
    int up = p0[ax] < p1[ax];           /* A runs toward larger values */
    const double *alo = up ? p0 : p1, *ahi = up ? p1 : p0;
    const double *blo = q0[ax] < q1[ax] ? q0 : q1;
    const double *bhi = q0[ax] < q1[ax] ? q1 : q0;
    const double *lo = blo[ax] > alo[ax] ? blo : alo;
    const double *hi = bhi[ax] < ahi[ax] ? bhi : ahi;

    if (lo[ax] > hi[ax])
        return XG_REDBLUE_MISS;
    if (lo[ax] == hi[ax]) {
        xg__rb_point(p, lo);
        return XG_REDBLUE_TOUCH;
    }
    xg__rb_point(p, up ? lo : hi);
    xg__rb_point(q, up ? hi : lo);
    return XG_REDBLUE_OVERLAP;
}

/* The contact from the four signs (XG_NEG, XG_ZERO, XG_POS).  op0 and op1
 * are read only when oq0, oq1 neither put Q on one side of P's line nor
 * make the segments collinear, so a caller may leave them XG_UNSURE then.
 * Answers XG_REDBLUE_MISS, XG_REDBLUE_PROPER (the caller constructs the
 * point), XG_REDBLUE_TOUCH (the point in p) or XG_REDBLUE_OVERLAP (the
 * stretch p..q). */
XG_HD int xg_redblue_classify(int oq0, int oq1, int op0, int op1,
                              const double *p0, const double *p1,
                              const double *q0, const double *q1,
                              double p[2], double q[2])
{
    if (oq0 == oq1 && oq0 != XG_ZERO)
        return XG_REDBLUE_MISS;
    if (oq0 == XG_ZERO && oq1 == XG_ZERO)
        return xg__rb_collinear(p0, p1, q0, q1, p, q);
    if (op0 == op1 && op0 != XG_ZERO)
        return XG_REDBLUE_MISS;
    /* Not collinear and each segment meets the other's line: one point.
     * A zero side puts that endpoint on the other line, and the lines
     * meet only once, so the endpoint is the point. */
    if (oq0 != XG_ZERO && oq1 != XG_ZERO && op0 != XG_ZERO &&
        op1 != XG_ZERO)
        return XG_REDBLUE_PROPER;
    xg__rb_point(p, oq0 == XG_ZERO ? q0 : oq1 == XG_ZERO ? q1
                    : op0 == XG_ZERO ? p0 : p1);
    return XG_REDBLUE_TOUCH;
}

/* The fast pass: each side through xg_orient2d_iv, so a certified sign is
 * xg_orient2d's.  An exact zero is certified only by a point interval
 * [0, 0], which the GPU's directed rounding gives when every operation is
 * exact (shared vertices, shared edges) and the host's widened intervals
 * never give.  Answers xg_redblue_classify's codes when all the signs it
 * needs are certain, else XG_REDBLUE_DEFER.  For PROPER, *t encloses the
 * crossing parameter t = op0 / (op0 - op1) along P0 -> P1:
 * orient2d(Q0,Q1,P(t)) is affine in t. */
XG_HD int xg_redblue_fast(const double *p0, const double *p1,
                          const double *q0, const double *q1,
                          struct xg_iv *t, double p[2], double q[2])
{
    struct xg_iv oq0 = xg_orient2d_iv(p0, p1, q0);
    struct xg_iv oq1 = xg_orient2d_iv(p0, p1, q1);
    struct xg_iv op0, op1;
    int s0 = xg_iv_sign(oq0), s1 = xg_iv_sign(oq1), s2, s3, r;
    /* Both Q strictly on one side: the common miss, settled first. */
    if (s0 == s1 && (s0 == XG_POS || s0 == XG_NEG))
        return XG_REDBLUE_MISS;
    if (s0 == XG_ZERO && s1 == XG_ZERO)
        return xg_redblue_classify(s0, s1, XG_UNSURE, XG_UNSURE, p0, p1, q0,
                                   q1, p, q);
    op0 = xg_orient2d_iv(q0, q1, p0);
    op1 = xg_orient2d_iv(q0, q1, p1);
    s2 = xg_iv_sign(op0);
    s3 = xg_iv_sign(op1);
    if (s2 == s3 && (s2 == XG_POS || s2 == XG_NEG))
        return XG_REDBLUE_MISS;
    if (s0 == XG_UNSURE || s1 == XG_UNSURE || s2 == XG_UNSURE ||
        s3 == XG_UNSURE)
        return XG_REDBLUE_DEFER;
    r = xg_redblue_classify(s0, s1, s2, s3, p0, p1, q0, q1, p, q);
    if (r == XG_REDBLUE_PROPER)
        *t = xg_iv_div(op0, xg_iv_sub(op0, op1));
    return r;
}

/* ------------------------------------------------------------------ */
/* Non-zero when the intervals certify that the triangle (9 doubles) is
 * not degenerate: its orientation is nonzero in one of the three axis
 * projections (xg__project's), so that the exact xg__tri_is_degenerate
 * finds a nonzero sign too.  0 when they cannot tell: the exact test
 * decides.  The GPU engine screens its triangles with it. */
XG_HD int xg_tri_proper_iv(const double *t)
{
    int drop;
    for (drop = 0; drop < 3; drop++) {
        int u = drop == 0 ? 1 : 0, w = drop == 2 ? 1 : 2, sg;
        double p[2], q[2], r[2];
        p[0] = t[u];
        p[1] = t[w];
        q[0] = t[3 + u];
        q[1] = t[3 + w];
        r[0] = t[6 + u];
        r[1] = t[6 + w];
        sg = xg_iv_sign(xg_orient2d_iv(p, q, r));
        if (sg == XG_POS || sg == XG_NEG)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The GPU count pass's estimate, in single precision on coordinates
 * already shifted to a local origin (in double, then rounded to float).
 * It decides nothing: it answers 0 only when the pair clearly misses
 * (both endpoints well on one side of the plane, or both well off it on
 * opposite sides and the segment well outside one edge's side while
 * well away from the other two), 1 otherwise, so that the number of 1s is an
 * estimate from above of the pairs the interval pass reports (hits and
 * deferrals).  The margin, 2^-10 of the magnitude of each determinant's
 * terms, is far above float rounding for any triangle that is not tiny
 * next to its distance from the origin; the engine detects and repairs
 * an estimate that falls short, so the margin costs memory, never
 * correctness. */
XG_HD int xg_segtri_maybe_f(const float *seg, const float *tri)
{
    const float *D = seg, *E = seg + 3;
    const float *A = tri, *B = tri + 3, *C = tri + 6;
    float ab[3], ac[3], n[3], na[3], da[3], ea[3], u[3];
    float sd = 0.0f, se = 0.0f, md = 0.0f, me = 0.0f;
    const float tol = 1.0f / 1024.0f;
    int k, pos = 0, neg = 0;

    for (k = 0; k < 3; k++) {
        ab[k] = B[k] - A[k];
        ac[k] = C[k] - A[k];
        da[k] = D[k] - A[k];
        ea[k] = E[k] - A[k];
        u[k] = D[k] - E[k];
    }
    for (k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        n[k] = ab[i] * ac[j] - ab[j] * ac[i];
        na[k] = fabsf(ab[i] * ac[j]) + fabsf(ab[j] * ac[i]);
    }
    for (k = 0; k < 3; k++) {
        sd += da[k] * n[k];
        se += ea[k] * n[k];
        md += fabsf(da[k]) * na[k];
        me += fabsf(ea[k]) * na[k];
    }
    if ((sd > tol * md && se > tol * me) || (sd < -tol * md && se < -tol * me))
        return 0;
    /* An endpoint near the plane: the interval pass may defer it. */
    if (!(fabsf(sd) > tol * md) || !(fabsf(se) > tol * me))
        return 1;
    for (k = 0; k < 3; k++) {
        const float *P = tri + 3 * k, *Q = tri + 3 * ((k + 1) % 3);
        float a[3], b[3], o = 0.0f, m = 0.0f;
        int i;
        for (i = 0; i < 3; i++) {
            a[i] = P[i] - E[i];
            b[i] = Q[i] - E[i];
        }
        for (i = 0; i < 3; i++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            float w = a[i1] * b[i2] - a[i2] * b[i1];
            o += u[i] * w;
            m += fabsf(u[i]) * (fabsf(a[i1] * b[i2]) + fabsf(a[i2] * b[i1]));
        }
        pos += o > tol * m;
        neg += o < -tol * m;
    }
    /* An edge test near zero: the interval pass may defer the pair
     * before it looks at the other two. */
    return pos + neg < 3 || !(pos && neg);
}


/* ------------------------------------------------------------------ */
/* Point P against triangle ABC, for point-in-solid (xg_inside).
 *
 * The ray leaves P upwards (+z), not from P itself but from the point
 * P' = P + (e, e^2, 0) for an infinitely small e > 0.  When P is on no
 * face, P' lies on the same side of the surface as P; and the vertical
 * line through P' meets no edge and no vertex (it would have to satisfy
 * two equations in e), so the faces it crosses are crossed in their
 * interiors and their parity is P's: odd inside, even outside.
 *
 * Everything follows from exact signs in (x, y) and one in 3D:
 *   s = orient2d(A, B, C), zero for a vertical triangle (one seen edge-on
 *       from above: its plane holds the vertical);
 *   o[k] = orient2d(V_k, V_k+1, P), V = A, B, C, A;
 *   d = orient3d(A, B, C, P), of the sign of s when P is below the plane.
 * Where o[k] = 0, P' decides: orient2d(V, W, P') = (Wx - Vx) e^2 -
 * (Wy - Vy) e, of the sign of Vy - Wy, else of Wx - Vx
 * (xg_ray_edge_shift), from comparisons of input coordinates alone.
 * So the ray crosses ABC when s != 0, P' is inside ABC's shadow and P is
 * below the plane; P is on ABC when s != 0, P is in the closed shadow and
 * d = 0; a vertical triangle is never crossed, and whether P lies on it
 * is decided in its own plane (xg_ray_wall, xg__point_on_tri).
 *
 * One function of the signs for the filter and the exact stage, as for
 * red/blue, so the two cannot disagree on what signs mean. */

#define XG_RAY_MISS  0  /* not crossed, and P not on the triangle       */
#define XG_RAY_CROSS 1  /* the ray crosses it                           */
#define XG_RAY_ON    2  /* P lies on the closed triangle                */
#define XG_RAY_DEFER 3  /* a sign the filter cannot certify             */
#define XG_RAY_WALL  4  /* vertical, P on the line of its shadow: its
                           plane decides (xg_ray_wall)                 */
#define XG_RAY_PLANE 5  /* xg_ray_xy: go on to xg_ray_plane             */

/* The sign of orient2d(V, W, P + (e, e^2)) where orient2d(V, W, P) = 0;
 * zero only when V and W have the same x and y. */
XG_HD int xg_ray_edge_shift(const double *v, const double *w)
{
    if (v[1] != w[1])
        return v[1] > w[1] ? XG_POS : XG_NEG;
    if (v[0] != w[0])
        return w[0] > v[0] ? XG_POS : XG_NEG;
    return XG_ZERO;
}

/* The (x, y) half, from s and o[3] (each a sign or XG_UNSURE):
 * XG_RAY_MISS, XG_RAY_DEFER, XG_RAY_WALL, or XG_RAY_PLANE with *in = 1
 * when P' is strictly inside the shadow (0 when P is on its border and
 * P' outside). */
XG_HD int xg_ray_xy(int s, const int *o, const double *tri, int *in)
{
    int k, unsure = 0;
    *in = 0;
    if (s == XG_UNSURE)
        return XG_RAY_DEFER;
    if (s == XG_ZERO) {
        for (k = 0; k < 3; k++) {
            if (o[k] == XG_POS || o[k] == XG_NEG)
                return XG_RAY_MISS;
            unsure |= o[k] == XG_UNSURE;
        }
        return unsure ? XG_RAY_DEFER : XG_RAY_WALL;
    }
    for (k = 0; k < 3; k++) {
        if (o[k] == -s)
            return XG_RAY_MISS;
        unsure |= o[k] == XG_UNSURE;
    }
    if (unsure)
        return XG_RAY_DEFER;
    *in = 1;
    for (k = 0; k < 3; k++)
        if (o[k] == XG_ZERO &&
            xg_ray_edge_shift(tri + 3 * k, tri + 3 * ((k + 1) % 3)) != s)
            *in = 0;
    return XG_RAY_PLANE;
}

/* The plane half, for P in the closed shadow of a non-vertical triangle:
 * d = orient3d(A, B, C, P) (a sign or XG_UNSURE). */
XG_HD int xg_ray_plane(int s, int d, int in)
{
    if (d == XG_UNSURE)
        return XG_RAY_DEFER;
    if (d == XG_ZERO)
        return XG_RAY_ON;
    return in && d == s ? XG_RAY_CROSS : XG_RAY_MISS;
}

/* The signs the ray filter works from: exact signs or XG_UNSURE, from
 * the interval stage and the exact stage in doubles (xg_expansion.h:
 * exact where the coordinate differences are exact doubles, as at UTM
 * magnitudes).  On lattice data (block centroids and vertices on one
 * grid) a point is often exactly in the vertical plane of an edge or on
 * a face: the host's one-ulp widening never certifies a zero, and the
 * device's directed rounding only where every operation is exact, so
 * without the exact stage the cpu engine sent those pairs, and the GPU
 * engine's device sent them to the host, through the whole exact stage
 * of the triangle again (GMP behind).  The host's C code starts with
 * the static stage, as xg_orient2d_filter and xg_orient3d_filter do,
 * then the exact stage in doubles, and the interval stage last: the
 * interval stage's widening of every operation was half the cpu engine's
 * instructions, and what the static stage leaves on lattice data (exact
 * zeros) only the exact stage settles.  The device starts with its
 * intervals, and the exact stage (out of line) takes the one sign in
 * thousands they leave.  Each stage certifies only exact signs, so the
 * order of the stages changes the cost, never a sign. */
XG_HD int xg_ray_side(const double *a, const double *b, const double *p)
{
    int s;
#ifndef __CUDACC__
    if ((s = xg__orient2d_static(a, b, p)) != XG_UNSURE ||
        (s = xg__orient2d_eft(a, b, p)) != XG_UNSURE)
        return s;
#endif
    s = xg_iv_sign(xg_orient2d_iv(a, b, p));
#ifdef __CUDACC__
    if (s == XG_UNSURE)
        s = xg__orient2d_eft(a, b, p);
#endif
    return s;
}

XG_HD int xg_ray_height(const double *a, const double *b, const double *c,
                        const double *p)
{
    int s;
#ifndef __CUDACC__
    if ((s = xg__orient3d_static(a, b, c, p)) != XG_UNSURE ||
        (s = xg__orient3d_eft(a, b, c, p)) != XG_UNSURE)
        return s;
#endif
    s = xg_iv_sign(xg_orient3d_iv(a, b, c, p));
#ifdef __CUDACC__
    if (s == XG_UNSURE)
        s = xg__orient3d_eft(a, b, c, p);
#endif
    return s;
}

/* P on the line of a vertical triangle's shadow (XG_RAY_WALL), so in its
 * plane: XG_RAY_ON when P lies on the closed triangle, XG_RAY_MISS when
 * it does not (a vertical triangle is never crossed), XG_RAY_DEFER where
 * a sign is unsure.  The triangle is seen along x, else along y: its
 * plane is vertical, so one of the two views has a nonzero area (the
 * plane's normal is horizontal and nonzero), and a view with nonzero
 * area maps the plane onto the view's one to one (an affine bijection),
 * so P is on the triangle exactly when its view is on the triangle's
 * view, which three sides decide.  xg__point_on_tri, the exact stage,
 * may see the triangle along another axis: the answer is the same. */
XG_HD_COLD int xg_ray_wall(const double *p, const double *tri)
{
    int drop, k;
    for (drop = 0; drop < 2; drop++) {
        double v[3][2], q[2];
        int turn;
        for (k = 0; k < 3; k++) {
            v[k][0] = tri[3 * k + 1 - drop];
            v[k][1] = tri[3 * k + 2];
        }
        q[0] = p[1 - drop];
        q[1] = p[2];
        turn = xg_ray_side(v[0], v[1], v[2]);
        if (turn == XG_UNSURE)
            return XG_RAY_DEFER;
        if (turn == XG_ZERO)
            continue;
        for (k = 0; k < 3; k++) {
            int o = xg_ray_side(v[k], v[(k + 1) % 3], q);
            if (o == XG_UNSURE)
                return XG_RAY_DEFER;
            if (o == -turn)
                return XG_RAY_MISS;
        }
        return XG_RAY_ON;
    }
    return XG_RAY_DEFER;    /* not vertical after all: the exact stage */
}

/* The filter: XG_RAY_MISS, XG_RAY_CROSS, XG_RAY_ON or XG_RAY_DEFER (an
 * unsure sign).  s is the
 * triangle's exact turn in (x, y), orient2d(A, B, C), computed once per
 * triangle; the caller has checked that P is in the triangle's box in x
 * and y and not above it (xg__ray_box_holds), and below says whether P
 * is strictly below its lowest vertex: then, inside the shadow, P is
 * strictly below the plane (its height there is a mean of the
 * vertices'), and orient3d is not needed.  The sides are taken one at a
 * time, since one on the wrong side settles a miss. */
XG_HD int xg_ray_tri_fast(const double *p, const double *tri, int s,
                          int below)
{
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    int o[3], in, r;
    /* a certain side opposite the turn, or off a vertical triangle's
     * line, is a miss (s = 0 with o = 0 is not: P may be on the wall) */
    o[0] = xg_ray_side(A, B, p);
    if (s == XG_ZERO ? o[0] == XG_POS || o[0] == XG_NEG : o[0] == -s)
        return XG_RAY_MISS;
    o[1] = xg_ray_side(B, C, p);
    if (s == XG_ZERO ? o[1] == XG_POS || o[1] == XG_NEG : o[1] == -s)
        return XG_RAY_MISS;
    o[2] = xg_ray_side(C, A, p);
    r = xg_ray_xy(s, o, tri, &in);
    if (r != XG_RAY_PLANE)
        return r == XG_RAY_WALL ? xg_ray_wall(p, tri) : r;
    if (below)
        return in ? XG_RAY_CROSS : XG_RAY_MISS;
    return xg_ray_plane(s, xg_ray_height(A, B, C, p), in);
}

#endif /* XG_FILTERS_H */
