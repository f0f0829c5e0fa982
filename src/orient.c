/*
 * orient.c -- the public orientation predicates: interval filter first,
 * then an exact stage in doubles (expansions, xg_expansion.h) where the
 * coordinate differences are exact, GMP last.
 */
#include <math.h>
#include "xg_internal.h"
#include "xg_expansion.h"

/*
 * The exact sign of orient2d when its four coordinate differences are
 * exact doubles, as they are for any two coordinates within a factor of
 * two of each other (Sterbenz): UTM eastings, shared map vertices.  Then
 * det = acx*bcy - acy*bcx, and each product is exactly p + e, so det is
 * the sum of four doubles, made exact as an expansion.  XG_UNSURE when a
 * difference is inexact or outside the range where all this is exact.
 */
static int orient2d_eft(const double a[2], const double b[2],
                        const double c[2])
{
    double d[4], x[4], p1, e1, p2, e2;
    const double lo = 0x1p-480, hi = 0x1p+500;
    int i, n;

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
    xg__two_prod(d[0], d[3], &p1, &e1);
    xg__two_prod(d[1], d[2], &p2, &e2);
    n = xg__exp_grow(x, 0, e1);
    n = xg__exp_grow(x, n, p1);
    n = xg__exp_grow(x, n, -e2);
    n = xg__exp_grow(x, n, -p2);
    return xg__expansion_sign(x, n);
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
static int orient3d_eft(const double a[3], const double b[3],
                        const double c[3], const double d[3])
{
    static const int k1[3] = {1, 2, 0}, k2[3] = {2, 0, 1};
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
        /* ad[i] * (bd[k1] cd[k2] - bd[k2] cd[k1]) */
        double m[4], p, e;
        int j;
        if (ad[i] == 0.0)
            continue;
        xg__two_prod(bd[k1[i]], cd[k2[i]], &m[1], &m[0]);
        xg__two_prod(bd[k2[i]], cd[k1[i]], &m[3], &m[2]);
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

int xg_orient2d_filter(const double a[2], const double b[2], const double c[2])
{
    return xg_iv_sign(xg_orient2d_iv(a, b, c));
}

int xg_orient3d_filter(const double a[3], const double b[3], const double c[3],
                       const double d[3])
{
    return xg_iv_sign(xg_orient3d_iv(a, b, c, d));
}

int xg_orient2d(struct xg_counters *cnt, const double a[2], const double b[2],
                const double c[2])
{
    int s = xg_orient2d_filter(a, b, c);
    if (cnt)
        cnt->predicates++;
    if (s != XG_UNSURE)
        return s;
    if (cnt)
        cnt->filter_failures++;
    s = orient2d_eft(a, b, c);
    if (s != XG_UNSURE)
        return s;
    if (cnt) {
        double t0 = xg__now();
        cnt->exact_evals++;
        s = xg_orient2d_exact(a, b, c);
        cnt->exact_seconds += xg__now() - t0;
        return s;
    }
    return xg_orient2d_exact(a, b, c);
}

int xg_orient3d(struct xg_counters *cnt, const double a[3], const double b[3],
                const double c[3], const double d[3])
{
    int s = xg_orient3d_filter(a, b, c, d);
    if (cnt)
        cnt->predicates++;
    if (s != XG_UNSURE)
        return s;
    if (cnt)
        cnt->filter_failures++;
    s = orient3d_eft(a, b, c, d);
    if (s != XG_UNSURE)
        return s;
    if (cnt) {
        double t0 = xg__now();
        cnt->exact_evals++;
        s = xg_orient3d_exact(a, b, c, d);
        cnt->exact_seconds += xg__now() - t0;
        return s;
    }
    return xg_orient3d_exact(a, b, c, d);
}

void xg_counters_add(struct xg_counters *sum, const struct xg_counters *c)
{
    sum->predicates += c->predicates;
    sum->filter_failures += c->filter_failures;
    sum->exact_evals += c->exact_evals;
    sum->constructions += c->constructions;
    sum->construct_ld += c->construct_ld;
    sum->construct_dd += c->construct_dd;
    sum->construct_exact += c->construct_exact;
    sum->exact_seconds += c->exact_seconds;
}
