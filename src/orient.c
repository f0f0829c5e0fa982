/*
 * orient.c -- the public orientation predicates: interval filter first,
 * GMP on filter failure.
 */
#include "xg_internal.h"

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
    if (cnt) {
        double t0 = xg__now();
        cnt->filter_failures++;
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
    sum->construct_exact += c->construct_exact;
    sum->exact_seconds += c->exact_seconds;
}
