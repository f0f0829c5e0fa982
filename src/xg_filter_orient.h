/*
 * xg_filter_orient.h -- the interval filters of orient2d, orient3d and
 * incircle, with Delaunay's tie-break on incircle's zeros and, for the
 * host only, the static stage that runs before the intervals (orient.c,
 * segtri.c, the ray filter).  Compiled for the host (C) and the GPU
 * (CUDA): one formula for both (xg_filters.h says why).  The segtri,
 * red/blue and ray filters build on these (xg_filter_segtri.h,
 * xg_filter_redblue.h, xg_filter_ray.h).
 */
#ifndef XG_FILTER_ORIENT_H
#define XG_FILTER_ORIENT_H

#include "xg_interval.h"

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

/* Dot product of interval vectors. */
XG_HD struct xg_iv xg__iv_dot(const struct xg_iv u[3], const struct xg_iv v[3])
{
    return xg_iv_add(xg_iv_add(xg_iv_mul(u[0], v[0]), xg_iv_mul(u[1], v[1])),
                     xg_iv_mul(u[2], v[2]));
}

/* d = a - b, each coordinate an enclosure of the exact difference. */
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

#endif /* XG_FILTER_ORIENT_H */
