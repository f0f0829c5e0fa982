/*
 * refine.c -- the middle stage of a construction, between the double
 * filter (xg_lerp_fast) and GMP: the same enclosure of t = sa / (sa - sb)
 * in long double intervals.
 *
 * Why: a crossing point D + t (E - D) can be certified only when the
 * enclosure of t (E - D) is narrower than the rounding cell of the result.
 * A drill-hole segment 500 m long crossing a surface at z = 300 m needs t
 * to about 1e-17, more than any double enclosure gives; without this stage
 * nearly every such point went to GMP.  The x87 format carries 64 bits,
 * 11 more than a double, which certifies all but a few percent of them.
 *
 * Enclosure: each operation is rounded to nearest, then widened by
 * |r| * 2 LDBL_EPSILON, which is at least two ulps of r, so the widened
 * bounds contain the exact result.  The argument needs no underflow or
 * overflow: products of up to four double differences stay within
 * 2^(+-4300), far inside the x87 and binary128 exponent ranges, which the
 * #if below demands.  Where long double is no wider than double the stage
 * is compiled out and GMP takes its cases.
 *
 * Certification: with P in [lo, hi] (long doubles, bounds widened once
 * more after the final addition), round-to-nearest to double is monotone,
 * so (double)lo == (double)hi proves that double is the correctly rounded
 * point.
 */
#include <float.h>
#include <math.h>
#include "xg_internal.h"

#if LDBL_MANT_DIG >= 64 && LDBL_MAX_EXP >= 16384

struct ivl {
    long double lo, hi;
};

static struct ivl widen(long double r)
{
    long double w = fabsl(r) * (2 * LDBL_EPSILON);
    struct ivl v;
    v.lo = r - w;
    v.hi = r + w;
    return v;
}

static struct ivl diff(double a, double b)
{
    return widen((long double)a - (long double)b);
}

static struct ivl add(struct ivl a, struct ivl b)
{
    struct ivl r;
    r.lo = widen(a.lo + b.lo).lo;
    r.hi = widen(a.hi + b.hi).hi;
    return r;
}

static struct ivl sub(struct ivl a, struct ivl b)
{
    struct ivl r;
    r.lo = widen(a.lo - b.hi).lo;
    r.hi = widen(a.hi - b.lo).hi;
    return r;
}

static long double min4(long double a, long double b, long double c,
                        long double d)
{
    long double m = a < b ? a : b, n = c < d ? c : d;
    return m < n ? m : n;
}

static long double max4(long double a, long double b, long double c,
                        long double d)
{
    long double m = a > b ? a : b, n = c > d ? c : d;
    return m > n ? m : n;
}

static struct ivl mul(struct ivl a, struct ivl b)
{
    long double p1 = a.lo * b.lo, p2 = a.lo * b.hi;
    long double p3 = a.hi * b.lo, p4 = a.hi * b.hi;
    struct ivl r;
    r.lo = widen(min4(p1, p2, p3, p4)).lo;
    r.hi = widen(max4(p1, p2, p3, p4)).hi;
    return r;
}

/* b must not contain zero (checked by the caller). */
static struct ivl quot(struct ivl a, struct ivl b)
{
    long double p1 = a.lo / b.lo, p2 = a.lo / b.hi;
    long double p3 = a.hi / b.lo, p4 = a.hi / b.hi;
    struct ivl r;
    r.lo = widen(min4(p1, p2, p3, p4)).lo;
    r.hi = widen(max4(p1, p2, p3, p4)).hi;
    return r;
}

/* The formula of xg_orient2d_iv, term for term. */
static struct ivl orient2d(const double *a, const double *b, const double *c)
{
    return sub(mul(diff(a[0], c[0]), diff(b[1], c[1])),
               mul(diff(a[1], c[1]), diff(b[0], c[0])));
}

static struct ivl dot3(const struct ivl *u, const struct ivl *v)
{
    return add(add(mul(u[0], v[0]), mul(u[1], v[1])), mul(u[2], v[2]));
}

static int lerp(const double *D, const double *E, struct ivl sa, struct ivl sb,
                int dim, double *out)
{
    struct ivl den = sub(sa, sb), t;
    int k;
    if (!(den.lo > 0.0L || den.hi < 0.0L))
        return 0;
    t = quot(sa, den);
    for (k = 0; k < dim; k++) {
        struct ivl d = mul(t, diff(E[k], D[k]));
        long double lo = widen((long double)D[k] + d.lo).lo;
        long double hi = widen((long double)D[k] + d.hi).hi;
        double rlo = (double)lo, rhi = (double)hi;
        if (!(rlo == rhi))
            return 0;
        out[k] = rlo + 0.0;
    }
    return 1;
}

/* orient3d(A,B,C,X) = -(X-A) . n with n = (B-A) x (C-A), as in
 * xg_segtri_fast: the triangle's short edges enter the cross product, so
 * there is little cancellation, where det[A-X; B-X; C-X] would multiply
 * three long rows and cancel most of their digits. */
int xg__plane_point_ld(const double *tri, const double *D, const double *E,
                       double out[3])
{
    struct ivl ab[3], ac[3], n[3], da[3], ea[3], sd, se;
    int k;
    for (k = 0; k < 3; k++) {
        ab[k] = diff(tri[3 + k], tri[k]);
        ac[k] = diff(tri[6 + k], tri[k]);
        da[k] = diff(D[k], tri[k]);
        ea[k] = diff(E[k], tri[k]);
    }
    n[0] = sub(mul(ab[1], ac[2]), mul(ab[2], ac[1]));
    n[1] = sub(mul(ab[2], ac[0]), mul(ab[0], ac[2]));
    n[2] = sub(mul(ab[0], ac[1]), mul(ab[1], ac[0]));
    sd = dot3(da, n);
    se = dot3(ea, n);
    /* t = sD / (sD - sE) is the same with both negated. */
    return lerp(D, E, sd, se, 3, out);
}

int xg__line_point_ld(const double *p, const double *q, const double *D,
                      const double *E, int dim, double *out)
{
    return lerp(D, E, orient2d(p, q, D), orient2d(p, q, E), dim, out);
}

#else /* long double is no wider than double: GMP decides */

int xg__plane_point_ld(const double *tri, const double *D, const double *E,
                       double out[3])
{
    (void)tri; (void)D; (void)E; (void)out;
    return 0;
}

int xg__line_point_ld(const double *p, const double *q, const double *D,
                      const double *E, int dim, double *out)
{
    (void)p; (void)q; (void)D; (void)E; (void)dim; (void)out;
    return 0;
}

#endif
