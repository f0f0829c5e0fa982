/*
 * orient.c -- the public orientation predicates: interval filter first,
 * GMP on filter failure; orient2d has a stage between the two.
 */
#include <math.h>
#include "xg_internal.h"

/* s + e = a + b exactly (Knuth's two-sum; no overflow assumed). */
static void two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

/* Adds b to the expansion x[0..n-1] (non-overlapping, increasing
 * magnitude), giving n+1 components with the same properties. */
static void grow(double *x, int n, double b)
{
    int i;
    for (i = 0; i < n; i++)
        two_sum(b, x[i], &b, &x[i]);
    x[n] = b;
}

/*
 * The exact sign of orient2d when its four coordinate differences are
 * exact doubles, as they are for any two coordinates within a factor of
 * two of each other (Sterbenz): UTM eastings, shared map vertices.  Then
 * det = acx*bcy - acy*bcx, and each product is exactly p + e with e from
 * an FMA, so det is the sum of four doubles, made exact by two-sums; its
 * sign is that of its largest nonzero component.  XG_UNSURE when a
 * difference is inexact or outside the range where all this is exact.
 */
static int orient2d_eft(const double a[2], const double b[2],
                        const double c[2])
{
    double d[4], x[4], p1, e1, p2, e2, t;
    const double lo = 0x1p-480, hi = 0x1p+500;
    int i;

    two_sum(a[0], -c[0], &d[0], &t);
    if (t != 0.0)
        return XG_UNSURE;
    two_sum(a[1], -c[1], &d[1], &t);
    if (t != 0.0)
        return XG_UNSURE;
    two_sum(b[0], -c[0], &d[2], &t);
    if (t != 0.0)
        return XG_UNSURE;
    two_sum(b[1], -c[1], &d[3], &t);
    if (t != 0.0)
        return XG_UNSURE;
    /* Nonzero differences in [2^-480, 2^500]: a product is then zero only
     * when a factor is, stays below 2^1000, and has an FMA error term that
     * is representable (its bits lie above 2^-1074). */
    for (i = 0; i < 4; i++)
        if (d[i] != 0.0 && !(fabs(d[i]) >= lo && fabs(d[i]) <= hi))
            return XG_UNSURE;
    p1 = d[0] * d[3];
    p2 = d[1] * d[2];
    e1 = fma(d[0], d[3], -p1);
    e2 = fma(d[1], d[2], -p2);
    x[0] = e1;
    x[1] = p1;
    grow(x, 2, -e2);
    grow(x, 3, -p2);
    for (i = 3; i >= 0; i--)
        if (x[i] != 0.0)
            return x[i] > 0.0 ? XG_POS : XG_NEG;
    return XG_ZERO;
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
    if (cnt) {
        double t0 = xg__now();
        cnt->filter_failures++;
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
