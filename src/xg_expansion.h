/*
 * xg_expansion.h -- exact sums and products of doubles as expansions
 * (Shewchuk's arithmetic): the middle stages of the predicates, between
 * the interval filter and GMP (orient.c), and, on the device, behind the
 * ray filter's intervals (xg_filters.h).  For host and device alike.
 *
 * An expansion is an array of doubles whose exact sum is the value, the
 * components non-overlapping and in increasing magnitude, zeros allowed;
 * its sign is that of its largest nonzero component.  Every step is exact
 * as long as nothing overflows and no product's error term underflows:
 * the callers bound their operands' magnitudes first and answer
 * XG_UNSURE (on to GMP) outside the bounds.  Compiled with
 * -ffp-contract=off: the error terms are exact only if each operation
 * rounds once (-fmad=false for nvcc).
 */
#ifndef XG_EXPANSION_H
#define XG_EXPANSION_H

#include "xg_interval.h"    /* XG_HD, the signs */

/* s + e = a + b exactly (Knuth's two-sum). */
XG_HD void xg__two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

/* p + e = a * b exactly (the FMA gives the product's rounding error). */
XG_HD void xg__two_prod(double a, double b, double *p, double *e)
{
    *p = a * b;
    *e = fma(a, b, -*p);
}

/* a - b when that difference is an exact double (*d), else non-zero. */
XG_HD int xg__diff_inexact(double a, double b, double *d)
{
    double e;
    xg__two_sum(a, -b, d, &e);
    return e != 0.0;
}

/* Adds b to the expansion x[0..n-1]: n + 1 components, zeros dropped,
 * so the result has at most n + 1 (returned). */
XG_HD int xg__exp_grow(double *x, int n, double b)
{
    int i, m = 0;
    double q = b, h;
    for (i = 0; i < n; i++) {
        xg__two_sum(q, x[i], &q, &h);
        if (h != 0.0)
            x[m++] = h;
    }
    if (q != 0.0 || m == 0)
        x[m++] = q;
    return m;
}

/* h = e * b exactly, e = e[0..m-1] (m >= 1): at most 2 m components
 * (returned), zeros dropped, non-overlapping and in increasing magnitude
 * like e (Shewchuk's scale_expansion_zeroelim, with two-sums where he
 * has fast two-sums: the same results, without the ordering to prove).
 * h may not be e. */
XG_HD int xg__exp_scale(const double *e, int m, double b, double *h)
{
    double q, hh, p1, p0, sum;
    int i, n = 0;
    xg__two_prod(e[0], b, &q, &hh);
    if (hh != 0.0)
        h[n++] = hh;
    for (i = 1; i < m; i++) {
        xg__two_prod(e[i], b, &p1, &p0);
        xg__two_sum(q, p0, &sum, &hh);
        if (hh != 0.0)
            h[n++] = hh;
        xg__two_sum(p1, sum, &q, &hh);
        if (hh != 0.0)
            h[n++] = hh;
    }
    if (q != 0.0 || n == 0)
        h[n++] = q;
    return n;
}

/* x = a d - b c exactly, as an expansion of at most 4 components
 * (returned): the two products' two-products, summed.  Exact when
 * neither product overflows nor has an error term that underflows. */
XG_HD int xg__exp_det2(double a, double b, double c, double d, double *x)
{
    double p1, e1, p2, e2;
    int n;
    xg__two_prod(a, d, &p1, &e1);
    xg__two_prod(b, c, &p2, &e2);
    n = xg__exp_grow(x, 0, e1);
    n = xg__exp_grow(x, n, p1);
    n = xg__exp_grow(x, n, -e2);
    return xg__exp_grow(x, n, -p2);
}

/* The sign of the expansion x[0..n-1]: XG_POS, XG_NEG or XG_ZERO. */
XG_HD int xg__expansion_sign(const double *x, int n)
{
    int i;
    for (i = n - 1; i >= 0; i--)
        if (x[i] != 0.0)
            return x[i] > 0.0 ? XG_POS : XG_NEG;
    return XG_ZERO;
}

/*
 * The exact sign of orient2d when its four coordinate differences are
 * exact doubles, as they are for any two coordinates within a factor of
 * two of each other (Sterbenz): UTM eastings, shared map vertices.  Then
 * det = acx*bcy - acy*bcx, and each product is exactly p + e, so det is
 * the sum of four doubles, made exact as an expansion.  XG_UNSURE when a
 * difference is inexact or outside the range where all this is exact.
 */
XG_HD_COLD int xg__orient2d_eft(const double a[2], const double b[2],
                                const double c[2])
{
    double d[4], x[4];
    const double lo = 0x1p-480, hi = 0x1p+500;
    int i;

    if (xg__diff_inexact(a[0], c[0], &d[0]) ||
        xg__diff_inexact(a[1], c[1], &d[1]) ||
        xg__diff_inexact(b[0], c[0], &d[2]) ||
        xg__diff_inexact(b[1], c[1], &d[3]))
        return XG_UNSURE;
    /* Nonzero differences in [2^-480, 2^500]: a product is then zero only
     * when a factor is, stays below 2^1000, and has an FMA error term that
     * is representable (its bits lie above 2^-1074). */
    for (i = 0; i < 4; i++)
        if (d[i] != 0.0 && !(fabs(d[i]) >= lo && fabs(d[i]) <= hi))
            return XG_UNSURE;
    return xg__expansion_sign(x, xg__exp_det2(d[0], d[1], d[2], d[3], x));
}

/*
 * The exact sign of orient3d when its nine coordinate differences are
 * exact doubles (lattice data, coplanar points at UTM magnitudes: the
 * cases the filter cannot settle are mostly these).  det = ad . (bd x
 * cd): each 2x2 minor is exactly p1 + e1 - p2 - e2, each of its four
 * terms times an ad component is again two doubles, so det is the sum of
 * 24 doubles, made exact as an expansion.  Differences bounded to
 * [2^-200, 2^200] keep every product below 2^600 and every error term
 * above 2^-1000, so nothing overflows or underflows.  XG_UNSURE outside
 * that.
 */
XG_HD_COLD int xg__orient3d_eft(const double a[3], const double b[3],
                                const double c[3], const double d[3])
{
    double ad[3], bd[3], cd[3], x[24];
    const double lo = 0x1p-200, hi = 0x1p+200;
    int i, n = 0;

    for (i = 0; i < 3; i++)
        if (xg__diff_inexact(a[i], d[i], &ad[i]) ||
            xg__diff_inexact(b[i], d[i], &bd[i]) ||
            xg__diff_inexact(c[i], d[i], &cd[i]))
            return XG_UNSURE;
    for (i = 0; i < 3; i++)
        if ((ad[i] != 0.0 && !(fabs(ad[i]) >= lo && fabs(ad[i]) <= hi)) ||
            (bd[i] != 0.0 && !(fabs(bd[i]) >= lo && fabs(bd[i]) <= hi)) ||
            (cd[i] != 0.0 && !(fabs(cd[i]) >= lo && fabs(cd[i]) <= hi)))
            return XG_UNSURE;
    for (i = 0; i < 3; i++) {
        /* ad[i] * (bd[k1] cd[k2] - bd[k2] cd[k1]), k1 = i + 1 and
         * k2 = i + 2 (mod 3) */
        double m[4], p, e;
        int j, k1 = (i + 1) % 3, k2 = (i + 2) % 3;
        if (ad[i] == 0.0)
            continue;
        xg__two_prod(bd[k1], cd[k2], &m[1], &m[0]);
        xg__two_prod(bd[k2], cd[k1], &m[3], &m[2]);
        m[2] = -m[2];
        m[3] = -m[3];
        for (j = 0; j < 4; j++) {
            xg__two_prod(ad[i], m[j], &p, &e);
            n = xg__exp_grow(x, n, e);
            n = xg__exp_grow(x, n, p);
        }
    }
    return xg__expansion_sign(x, n);
}

#endif /* XG_EXPANSION_H */
