/*
 * delaunay_bounds.h -- the cpu engine's proofs that a triangle's closed
 * circumdisk misses the points a strip did not see (delaunay_strips.c):
 * an interval enclosure of the circle (xg__dt_circle_iv), the disk against
 * a half-plane within the points' y band (xg__dt_disk_clear), and a cheap
 * test in plain doubles with an error bound (xg__dt_quick_clear).  Each
 * answers 1 only when the exact disk misses; 0 is a doubt.  Here rather
 * than static in the engine so that tests/delaunay_t checks them against
 * GMP; inline for the engine's loop.
 */
#ifndef XG_DELAUNAY_BOUNDS_H
#define XG_DELAUNAY_BOUNDS_H

#include <math.h>
#include "xg_filter_orient.h"

/* Encloses the circle through a, b, c (counter-clockwise): centre
 * intervals and an upper bound of the radius.  0 when the interval
 * cannot tell the three apart from a line. */
static inline int xg__dt_circle_iv(const double *a, const double *b,
                                   const double *c, struct xg_iv *ccx,
                                   struct xg_iv *ccy, struct xg_iv *r2,
                                   double *r_up)
{
    struct xg_iv bx = xg_iv_diff(b[0], a[0]), by = xg_iv_diff(b[1], a[1]);
    struct xg_iv cx = xg_iv_diff(c[0], a[0]), cy = xg_iv_diff(c[1], a[1]);
    struct xg_iv b2 = xg_iv_add(xg_iv_sqr(bx), xg_iv_sqr(by));
    struct xg_iv c2 = xg_iv_add(xg_iv_sqr(cx), xg_iv_sqr(cy));
    struct xg_iv d = xg_iv_mul(xg_iv_point(2.0), xg__iv_det2(bx, by, cx, cy));
    struct xg_iv ux, uy;
    if (xg_iv_sign(d) != XG_POS)
        return 0;
    ux = xg_iv_div(xg_iv_sub(xg_iv_mul(cy, b2), xg_iv_mul(by, c2)), d);
    uy = xg_iv_div(xg_iv_sub(xg_iv_mul(bx, c2), xg_iv_mul(cx, b2)), d);
    *r2 = xg_iv_add(xg_iv_sqr(ux), xg_iv_sqr(uy));
    *ccx = xg_iv_add(xg_iv_point(a[0]), ux);
    *ccy = xg_iv_add(xg_iv_point(a[1]), uy);
    if (!(r2->hi < INFINITY) || ccx->lo != ccx->lo || ccy->lo != ccy->lo)
        return 0;
    /* xg__next_up is nextafter(x, +inf) for these x >= 0, inline: libm's
     * was a call per bound, a fifth of the proofs' time */
    *r_up = xg__next_up(xg__next_up(sqrt(r2->hi)));
    return 1;
}

/* The fast proof: the closed disk misses the points with x < lo (left)
 * or x >= lo (right) within the y range of all points. */
static inline int xg__dt_disk_clear(struct xg_iv ccx, struct xg_iv ccy,
                                    struct xg_iv r2, double lo, int left,
                                    const double box[4])
{
    struct xg_iv h2;
    double h;
    /* the half-width of the disk within the band ymin <= y <= ymax */
    if (ccy.hi < box[1])
        h2 = xg_iv_sub(r2, xg_iv_sqr(xg_iv_sub(xg_iv_point(box[1]), ccy)));
    else if (ccy.lo > box[3])
        h2 = xg_iv_sub(r2, xg_iv_sqr(xg_iv_sub(ccy, xg_iv_point(box[3]))));
    else
        h2 = r2;
    if (h2.hi < 0)
        return 1;                       /* the disk misses the band */
    h = xg__next_up(xg__next_up(sqrt(h2.hi)));
    if (left)
        return xg_iv_sub(ccx, xg_iv_point(h)).lo > lo;
    return xg_iv_add(ccx, xg_iv_point(h)).hi < lo;
}

/* The cheap proof, before the interval one: every point of the closed
 * circumdisk is within its diameter 2R of each vertex, so the disk misses
 * x <= lo when the vertex of largest x lies more than 2R right of lo
 * (and x >= hi likewise).  R^2 = |ab|^2 |ac|^2 |bc|^2 / (4 cross^2) in
 * plain doubles: with every coordinate difference 0 or within [2^-100,
 * 2^100] nothing underflows or overflows (products within 2^-200 ..
 * 2^201, the three squared lengths' product below 2^606), each squared
 * length is within 4u of its value (u = 2^-53, all terms positive), and
 * with cross > 2^-20 (|t1| + |t2|) the cross product is within 3u 2^20 +
 * u < 4e-10 of its (Shewchuk's orient2d bound); R^2 is then within 1e-9,
 * and the slack of 2^-20 on each side of the comparison covers it and the
 * comparison's own rounding.  It settles the triangles away from the
 * margins' outer edges (most of them) for a tenth of xg__dt_circle_iv's
 * interval arithmetic, which took a fifth of the cpu engine's work. */
static inline int xg__dt_in_range100(double d)
{
    double m = fabs(d);
    return m == 0.0 || (m >= 0x1p-100 && m <= 0x1p100);
}

/* Non-zero when the bound above proves that the circumdisk of abc
 * (counter-clockwise) misses x <= lo (when need_left) and x >= hi (when
 * need_right); 0 when it cannot (out of range, a thin triangle, too
 * near): xg__dt_circle_iv decides then. */
static inline int xg__dt_quick_clear(const double *a, const double *b,
                                     const double *c, double lo, double hi,
                                     int need_left, int need_right)
{
    double bx = b[0] - a[0], by = b[1] - a[1], cx = c[0] - a[0];
    double cy = c[1] - a[1], dx = c[0] - b[0], dy = c[1] - b[1];
    double t1, t2, cross, ab2, ac2, bc2, d2, g;
    if (!(xg__dt_in_range100(bx) && xg__dt_in_range100(by) &&
          xg__dt_in_range100(cx) && xg__dt_in_range100(cy) &&
          xg__dt_in_range100(dx) && xg__dt_in_range100(dy)))
        return 0;
    t1 = bx * cy;
    t2 = by * cx;
    cross = t1 - t2;
    if (!(cross > 0x1p-20 * (fabs(t1) + fabs(t2))))
        return 0;
    ab2 = bx * bx + by * by;
    ac2 = cx * cx + cy * cy;
    bc2 = dx * dx + dy * dy;
    /* (2R)^2, rounded values, and the slack */
    d2 = ab2 * ac2 * bc2 / (cross * cross) * (1 + 0x1p-20);
    if (need_left) {
        double xm = a[0] > b[0] ? a[0] : b[0];
        xm = xm > c[0] ? xm : c[0];
        g = xm - lo;
        if (!(g > 0 && g * g * (1 - 0x1p-20) > d2))
            return 0;
    }
    if (need_right) {
        double xm = a[0] < b[0] ? a[0] : b[0];
        xm = xm < c[0] ? xm : c[0];
        g = hi - xm;
        if (!(g > 0 && g * g * (1 - 0x1p-20) > d2))
            return 0;
    }
    return 1;
}

#endif
