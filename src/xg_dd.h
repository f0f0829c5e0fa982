/*
 * xg_dd.h -- double-double enclosures of crossing points, written once
 * for the host and the GPU: the construction stage after the double
 * filter (xg_lerp_fast) and before GMP.
 *
 * Why: a drill-hole segment hundreds of metres long crossing a surface
 * at z of a few hundred metres needs its parameter t to about 1e-17 to
 * round z; a double enclosure cannot give that, and the GPU has no long
 * double.  Two doubles carry 106 bits, enough for all but the points
 * that lie within about 2^-100 of a rounding boundary.
 *
 * A value is the unevaluated sum hi + lo, and every value here comes out
 * of a two-sum, so hi is the value rounded to nearest.  An interval is a
 * pair of such values.  Each bound is built from steps that are exact
 * (two-sum; the FMA two-product, whose error term is exact unless the
 * product underflows or overflows, which is checked) or rounded toward
 * the safe side (xg__add_rd, xg__mul_ru, ... of xg_interval.h), so the
 * lower bound never exceeds the exact value and the upper bound never
 * falls below it.
 *
 * Certification: round-to-nearest is monotone, so when the rounded lower
 * and upper bounds of a coordinate are the same double, the exact
 * coordinate rounds to it too.
 *
 * The formulas are those of the other stages (xg_segtri_fast's normal
 * form for the plane, orient2d for the line, t = sa / (sa - sb)); the
 * input differences are exact here, so the only widening is that of the
 * products and sums.
 */
#ifndef XG_DD_H
#define XG_DD_H

#include "xg_interval.h"

struct xg_dd {
    double hi, lo;
};

struct xg_ddiv {
    struct xg_dd lo, hi;
};

/* a + b exactly (Knuth's two-sum: any magnitudes, no overflow). */
XG_HD struct xg_dd xg__dd_sum(double a, double b)
{
    struct xg_dd r;
    double av, bv;
#ifdef __CUDA_ARCH__
    r.hi = __dadd_rn(a, b);
    bv = __dsub_rn(r.hi, a);
    av = __dsub_rn(r.hi, bv);
    r.lo = __dadd_rn(__dsub_rn(a, av), __dsub_rn(b, bv));
#else
    r.hi = a + b;
    bv = r.hi - a;
    av = r.hi - bv;
    r.lo = (a - av) + (b - bv);
#endif
    return r;
}

/* -a, exactly. */
XG_HD struct xg_dd xg__dd_neg(struct xg_dd a)
{
    a.hi = -a.hi;
    a.lo = -a.lo;
    return a;
}

/* A lower bound of a + b. */
XG_HD struct xg_dd xg__dd_add_dn(struct xg_dd a, struct xg_dd b)
{
    struct xg_dd s = xg__dd_sum(a.hi, b.hi);
    return xg__dd_sum(s.hi, xg__add_rd(xg__add_rd(s.lo, a.lo), b.lo));
}

/* An upper bound of a + b: -(lower bound of -a - b). */
XG_HD struct xg_dd xg__dd_add_up(struct xg_dd a, struct xg_dd b)
{
    return xg__dd_neg(xg__dd_add_dn(xg__dd_neg(a), xg__dd_neg(b)));
}

/* A lower bound of a * b.  a.hi * b.hi is split exactly into p + e by an
 * FMA; that needs the product away from underflow (e's bits must lie
 * above 2^-1074) and overflow, else *ok is cleared.  The three small
 * cross terms are rounded down. */
XG_HD struct xg_dd xg__dd_mul_dn(struct xg_dd a, struct xg_dd b, int *ok)
{
    double p, e, t;
#ifdef __CUDA_ARCH__
    p = __dmul_rn(a.hi, b.hi);
    e = __fma_rn(a.hi, b.hi, -p);
#else
    p = a.hi * b.hi;
    e = fma(a.hi, b.hi, -p);
#endif
    if (!(fabs(p) >= 0x1p-960 && fabs(p) <= 0x1p+1000) &&
        !(a.hi == 0.0 || b.hi == 0.0))
        *ok = 0;
    t = xg__add_rd(xg__add_rd(xg__add_rd(e, xg__mul_rd(a.hi, b.lo)),
                              xg__mul_rd(a.lo, b.hi)),
                   xg__mul_rd(a.lo, b.lo));
    return xg__dd_sum(p, t);
}

/* An upper bound of a * b: -(lower bound of -a * b); clears *ok as
 * xg__dd_mul_dn does. */
XG_HD struct xg_dd xg__dd_mul_up(struct xg_dd a, struct xg_dd b, int *ok)
{
    return xg__dd_neg(xg__dd_mul_dn(xg__dd_neg(a), b, ok));
}

/* A lower bound of a / b for b > 0: with q = a.hi / b.hi (any rounding),
 * a / b = q + (a - q b) / b, the remainder bounded below in double-double
 * and divided by b's upper or lower double bound as its sign requires.
 * Clears *ok when b's lower double bound is not positive. */
XG_HD struct xg_dd xg__dd_div_dn(struct xg_dd a, struct xg_dd b, int *ok)
{
    struct xg_dd q = {0.0, 0.0}, r;
    double rl, bu = xg__add_ru(b.hi, b.lo), bd = xg__add_rd(b.hi, b.lo);
    if (!(bd > 0.0)) {
        *ok = 0;
        return q;
    }
#ifdef __CUDA_ARCH__
    q.hi = __ddiv_rn(a.hi, b.hi);
#else
    q.hi = a.hi / b.hi;
#endif
    r = xg__dd_add_dn(a, xg__dd_neg(xg__dd_mul_up(q, b, ok)));
    rl = xg__add_rd(r.hi, r.lo);
    return xg__dd_sum(q.hi, xg__div_rd(rl, rl >= 0.0 ? bu : bd));
}

/* An upper bound of a / b for b > 0: -(lower bound of -a / b); clears
 * *ok as xg__dd_div_dn does. */
XG_HD struct xg_dd xg__dd_div_up(struct xg_dd a, struct xg_dd b, int *ok)
{
    return xg__dd_neg(xg__dd_div_dn(xg__dd_neg(a), b, ok));
}

/* Exact values: both bounds are the number. */
XG_HD struct xg_ddiv xg__ddiv_exact(struct xg_dd a)
{
    struct xg_ddiv r;
    r.lo = r.hi = a;
    return r;
}

/* -a: the bounds negated and swapped. */
XG_HD struct xg_ddiv xg__ddiv_neg(struct xg_ddiv a)
{
    struct xg_ddiv r;
    r.lo = xg__dd_neg(a.hi);
    r.hi = xg__dd_neg(a.lo);
    return r;
}

/* a + b: the lower bounds added down, the upper ones up. */
XG_HD struct xg_ddiv xg__ddiv_add(struct xg_ddiv a, struct xg_ddiv b)
{
    struct xg_ddiv r;
    r.lo = xg__dd_add_dn(a.lo, b.lo);
    r.hi = xg__dd_add_up(a.hi, b.hi);
    return r;
}

/* a - b, as a + (-b). */
XG_HD struct xg_ddiv xg__ddiv_sub(struct xg_ddiv a, struct xg_ddiv b)
{
    return xg__ddiv_add(a, xg__ddiv_neg(b));
}

/* a * b for an exact b: the bounds of a that give the extremes depend
 * only on b's sign (hi carries it). */
XG_HD struct xg_ddiv xg__ddiv_scale(struct xg_ddiv a, struct xg_dd b, int *ok)
{
    struct xg_ddiv r;
    if (b.hi >= 0.0) {
        r.lo = xg__dd_mul_dn(a.lo, b, ok);
        r.hi = xg__dd_mul_up(a.hi, b, ok);
    } else {
        r.lo = xg__dd_mul_dn(a.hi, b, ok);
        r.hi = xg__dd_mul_up(a.lo, b, ok);
    }
    return r;
}

/* ad - bc of exact values. */
XG_HD struct xg_ddiv xg__ddiv_det2(struct xg_dd a, struct xg_dd d,
                                   struct xg_dd b, struct xg_dd c, int *ok)
{
    struct xg_ddiv x = xg__ddiv_scale(xg__ddiv_exact(a), d, ok);
    struct xg_ddiv y = xg__ddiv_scale(xg__ddiv_exact(b), c, ok);
    return xg__ddiv_sub(x, y);
}

/* The point D + t (E - D), t = sa / (sa - sb), for sa and sb of strictly
 * opposite signs; 1 when every one of its dim coordinates is certified
 * (out holds them, -0 as +0), else 0. */
XG_HD int xg__dd_lerp(const double *D, const double *E, struct xg_ddiv sa,
                      struct xg_ddiv sb, int dim, double *out)
{
    struct xg_ddiv t;
    double v[3];
    int ok = 1, k;
    if (sa.hi.hi < 0.0 && sb.lo.hi > 0.0) {
        /* t is the same with both negated */
        sa = xg__ddiv_neg(sa);
        sb = xg__ddiv_neg(sb);
    }
    if (!(sa.lo.hi > 0.0 && sb.hi.hi < 0.0) || !(sa.hi.hi < HUGE_VAL) ||
        !(sb.lo.hi > -HUGE_VAL))
        return 0;
    /* sa > 0 > sb: t rises with sa and with sb. */
    t.lo = xg__dd_div_dn(sa.lo, xg__dd_add_up(sa.lo, xg__dd_neg(sb.lo)), &ok);
    t.hi = xg__dd_div_up(sa.hi, xg__dd_add_dn(sa.hi, xg__dd_neg(sb.hi)), &ok);
    for (k = 0; k < dim; k++) {
        struct xg_ddiv d = xg__ddiv_scale(t, xg__dd_sum(E[k], -D[k]), &ok);
        struct xg_dd dk = {D[k], 0.0};
        struct xg_dd lo = xg__dd_add_dn(dk, d.lo), hi = xg__dd_add_up(dk, d.hi);
        if (!(lo.hi == hi.hi) || !(fabs(lo.hi) < HUGE_VAL))
            return 0;
        v[k] = lo.hi + 0.0;
    }
    if (!ok)
        return 0;
    for (k = 0; k < dim; k++)
        out[k] = v[k];
    return 1;
}

/* The crossing of DE with the plane of tri (D, E strictly on opposite
 * sides), with the formula of xg__plane_point_ddb (refine.c):
 * sD = -(D - A) . n, n = (B-A) x (C-A). */
XG_HD int xg_plane_point_dd(const double *tri, const double *D,
                            const double *E, double out[3])
{
    struct xg_dd ab[3], ac[3], da[3], ea[3];
    struct xg_ddiv n[3], sd, se;
    int ok = 1, k;
    for (k = 0; k < 3; k++) {
        ab[k] = xg__dd_sum(tri[3 + k], -tri[k]);
        ac[k] = xg__dd_sum(tri[6 + k], -tri[k]);
        da[k] = xg__dd_sum(tri[k], -D[k]);     /* A - D: sD = (A-D) . n */
        ea[k] = xg__dd_sum(tri[k], -E[k]);
    }
    n[0] = xg__ddiv_det2(ab[1], ac[2], ab[2], ac[1], &ok);
    n[1] = xg__ddiv_det2(ab[2], ac[0], ab[0], ac[2], &ok);
    n[2] = xg__ddiv_det2(ab[0], ac[1], ab[1], ac[0], &ok);
    sd = xg__ddiv_scale(n[0], da[0], &ok);
    se = xg__ddiv_scale(n[0], ea[0], &ok);
    for (k = 1; k < 3; k++) {
        sd = xg__ddiv_add(sd, xg__ddiv_scale(n[k], da[k], &ok));
        se = xg__ddiv_add(se, xg__ddiv_scale(n[k], ea[k], &ok));
    }
    return ok && xg__dd_lerp(D, E, sd, se, 3, out);
}

/* The crossing of DE with the line pq (D, E strictly on opposite sides),
 * with the formula of xg__line_point_ddb (refine.c):
 * sD = orient2d(p, q, D) = (p-D) x (q-D). */
XG_HD int xg_line_point_dd(const double *p, const double *q, const double *D,
                           const double *E, int dim, double *out)
{
    struct xg_ddiv sd, se;
    int ok = 1;
    sd = xg__ddiv_det2(xg__dd_sum(p[0], -D[0]), xg__dd_sum(q[1], -D[1]),
                       xg__dd_sum(p[1], -D[1]), xg__dd_sum(q[0], -D[0]), &ok);
    se = xg__ddiv_det2(xg__dd_sum(p[0], -E[0]), xg__dd_sum(q[1], -E[1]),
                       xg__dd_sum(p[1], -E[1]), xg__dd_sum(q[0], -E[0]), &ok);
    return ok && xg__dd_lerp(D, E, sd, se, dim, out);
}

#endif /* XG_DD_H */
