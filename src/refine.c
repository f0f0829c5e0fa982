/*
 * refine.c -- the host's middle stage of a construction, between the
 * double filter (xg_lerp_fast) and the double-double intervals of
 * xg_dd.h: the crossing point D + t (E - D), t = sD / (sD - sE), in
 * double-double arithmetic with an error bound instead of an interval.
 *
 * Why: a drill-hole segment 500 m long crossing a surface at z = 300 m
 * needs t to about 1e-17, more than any double enclosure gives, so nearly
 * every proper contact comes here.  An interval of every operation (the
 * long double stage this replaced, or xg_dd.h) pays for two bounds and
 * their widening at each step; here each quantity is one double-double
 * value hi + lo, and one bound on its error is worked out alongside, a
 * few operations per step.  Products are split exactly by Dekker's
 * two-product (no FMA: hosts without it emulate fma() in software).
 *
 * Range, checked (else 0, and the next stage decides): every input
 * coordinate is 0 or of magnitude in [2^-64, 2^64].  So each is an
 * integer multiple of 2^-116, and so is each difference a - b, taken
 * exactly as the two-sum h + l (|l| <= u |h|, u = 2^-53); whatever exact
 * steps (two-sum, two-product) or rounded sums and products build from
 * them lies on the grid of its degree, 2^-232 for the normal and
 * orient2d, 2^-348 for sD and sE, so is 0 or at least that grid.  Every
 * two-product below then multiplies numbers whose product is 0 or above
 * 2^-900 (t0 = sD / (sD - sE) is above 2^-548, the differences are
 * below 2^65 and the sides below 2^200), where Dekker's product is exact
 * and no split overflows, and no rounded product underflows but t's low
 * part and its products, which the bound's floor (2^-980) covers.
 *
 * The bound (every rounded operation errs by at most u times its result):
 *  - a 2x2 determinant xy - zw of differences: hi parts' two-products
 *    p1 + e1, p2 + e2, cross terms c = xh yl + xl yh rounded (xl yl,
 *    below u^2 |xh yh|, dropped), s + f = p1 - p2 exactly, lo = ((e1 -
 *    e2) + (c1 - c2)) + f: errs by at most 15.02 u^2 P, P = |xh yh| +
 *    |zh wh|, with |lo| <= 4.01 u P;
 *  - sD = (A - D) . n, n = (B - A) x (C - A) its three determinants:
 *    two-products of the hi parts, cross terms ah nl + al nh rounded (al
 *    nl dropped), the hi parts summed by two-sums, the eight small terms
 *    (at most 8.04 u P in all) summed in order: errs by at most
 *    (29.1 + 7.01 * 8.04) u^2 P < 86 u^2 P, P = sum |ah_k| P_k, with
 *    |lo| <= 8.05 u P;
 *  - so each side's value errs by at most 128 u^2 P = 2^-99 P (P
 *    computed in double: the factor 128 / 86 covers its roundings);
 *    orient2d, one determinant, is well inside that too;
 *  - the sides' signs must be certified opposite (|lo| + err < |hi|,
 *    exact by monotonicity since |hi| is a double), and n, the side of
 *    the smaller |hi|, is renormalized by a fast two-sum (exact: |lo| <
 *    |hi|), so that t0 below leaves a small remainder;
 *  - M = n - o in double-double errs by at most 17.2 u^2 (P_n + P_o)
 *    more: eM = 1.25 (e_n + e_o); with |M.lo| + eM < |M.hi| / 4
 *    (checked) it is renormalized too, and |M| and the exact |M*|
 *    exceed |M.hi| / 2;
 *  - t = n / M: t0 = n.hi / M.hi (|t0| <= 1), r = n - t0 M (n.hi -
 *    fl(t0 M.hi) is exact by Sterbenz, the rest rounded: eR = u times the
 *    sum of the four rounded results' magnitudes), t1 = r / M.hi; t* =
 *    n* / M* is within et = u |t1| + 2 (eR + |r| |M.lo| / |M.hi| + e_n +
 *    2 |n| eM / |M.hi|) / |M.hi| of t0 + t1;
 *  - a coordinate, B + t d from the endpoint B of n (d = O - B = dh +
 *    dl by a two-sum): t0 dh = Q + q a two-product, g = t1 dh + t0 dl
 *    rounded (t1 dl dropped), S + s = B + Q a two-sum, lo = (s + q) + g:
 *    X* = B + t* d is within |dh| ((1 + u) et + u (4.01 |t1| + 5.01 u))
 *    + 2.01 u^2 |S| of S + lo.
 * That bound is computed in double from non-negative terms, some forty
 * roundings of at most u each: multiplied by 1 + 2^-40 it covers them.
 *
 * Certification: X* lies within e of S + lo.  With E = e + 2^-52 |lo|,
 * lo + E rounded is at least lo + e and lo - E rounded at most lo - e;
 * round-to-nearest is monotone, so when S + (lo - E) and S + (lo + E)
 * round to the same double, so does X*: that double is the point.  Ties
 * (X* halfway between doubles) and points within the floor of 0 never
 * pass (e > 0); they go on to the next stage.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "xg_exact.h"
#include "xg_dd.h"
#include "xg_interval.h"

#if FLT_EVAL_METHOD == 0 /* double operations round to double */

#define U 0x1p-53

/* A side of the segment: exact value within err of hi + lo. */
struct side {
    double hi, lo, err;
};

/* Knuth's two-sum, xg_dd.h's: s + e = a + b exactly. */
XG_HD void two_sum(double a, double b, double *s, double *e)
{
    struct xg_dd r = xg__dd_sum(a, b);
    *s = r.hi;
    *e = r.lo;
}

/* The same for |a| >= |b| (Dekker): s + e = a + b exactly. */
XG_HD void fast_two_sum(double a, double b, double *s, double *e)
{
    double x = a + b;
    *s = x;
    *e = b - (x - a);
}

/* A double with Veltkamp's split: v = h + l, each half 26 bits or fewer,
 * split once where a value enters several products. */
struct sp {
    double v, h, l;
};

/* a with its Veltkamp split (the range checked, at the top of this
 * file, keeps 2^27 a finite). */
XG_HD struct sp split(double a)
{
    double c = 134217729.0 * a;     /* 2^27 + 1 */
    struct sp r;
    r.v = a;
    r.h = c - (c - a);
    r.l = a - r.h;
    return r;
}

/* Dekker's product: p + e = a * b exactly (the header's ranges). */
XG_HD void two_prod(struct sp a, struct sp b, double *p, double *e)
{
    double x = a.v * b.v;
    *p = x;
    *e = ((a.h * b.h - x) + a.h * b.l + a.l * b.h) + a.l * b.l;
}

/* A difference a - b = h + l exactly (two-sum), h split. */
struct diff {
    struct sp h;
    double l;
};

/* a - b as struct diff: exact, its high part split for the products. */
XG_HD struct diff diff(double a, double b)
{
    struct diff r;
    double h;
    two_sum(a, -b, &h, &r.l);
    r.h = split(h);
    return r;
}

/* The inputs' magnitudes, on their bit patterns (which order
 * non-negative doubles as integers, NaN above inf): the largest, and the
 * least that is not 0 (minus 1, so that 0 wraps to the top). */
struct range {
    uint64_t high, low;
};

/* Widens r by the n doubles at v; r starts as {0, UINT64_MAX}. */
XG_HD void range_add(struct range *r, const double *v, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, v + i, sizeof b);
        b &= ~(UINT64_C(1) << 63);
        r->high = b > r->high ? b : r->high;
        b -= 1;
        r->low = b < r->low ? b : r->low;
    }
}

/* 1 when every input is 0 or of magnitude in [2^-64, 2^64]: the bit
 * patterns 0x3bf0000000000000 and 0x43f0000000000000. */
XG_HD int range_ok(const struct range *r)
{
    return r->high <= UINT64_C(0x43f0000000000000) &&
           r->low >= UINT64_C(0x3bf0000000000000) - 1;
}

/* x y - z w of differences; *perm = |xh yh| + |zh wh|. */
XG_HD void det2(struct diff x, struct diff y, struct diff z, struct diff w,
                double *hi, double *lo, double *perm)
{
    double p1, e1, p2, e2, s, f, c1, c2;
    two_prod(x.h, y.h, &p1, &e1);
    two_prod(z.h, w.h, &p2, &e2);
    c1 = x.h.v * y.l + x.l * y.h.v;
    c2 = z.h.v * w.l + z.l * w.h.v;
    two_sum(p1, -p2, &s, &f);
    *hi = s;
    *lo = ((e1 - e2) + (c1 - c2)) + f;
    *perm = fabs(p1) + fabs(p2);
}

/* a . n, a three differences, n = nh + nl with perms np. */
XG_HD struct side dot3(const struct diff *a, const struct sp *nh,
                       const double *nl, const double *np)
{
    double p[3], e[3], c[3], s1, f1, s, f2;
    struct side r;
    int k;
    for (k = 0; k < 3; k++) {
        two_prod(a[k].h, nh[k], &p[k], &e[k]);
        c[k] = a[k].h.v * nl[k] + a[k].l * nh[k].v;
    }
    two_sum(p[0], p[1], &s1, &f1);
    two_sum(s1, p[2], &s, &f2);
    r.hi = s;
    r.lo = ((((((e[0] + e[1]) + e[2]) + c[0]) + c[1]) + c[2]) + f1) + f2;
    r.err = 0x1p-99 * (fabs(a[0].h.v) * np[0] + fabs(a[1].h.v) * np[1] +
                       fabs(a[2].h.v) * np[2]);
    return r;
}

/* D + t (E - D), t = sd / (sd - se), dim coordinates; 1 when all are
 * certified (out holds them, -0 as +0). */
static int lerp(const double *D, const double *E, struct side sd,
                struct side se, int dim, double *out)
{
    const double *B = D, *O = E;
    struct side n = sd, o = se;
    struct sp st0;
    double mh, ml, f, em, t0, P, p, a, b, c, r, t1, inv, et, A, v[3];
    int k;
    /* strictly opposite signs, certified (|lo| + err < |hi|: exact by
     * monotonicity, |hi| being a double), as the other stages demand */
    if (!(fabs(sd.hi) > fabs(sd.lo) + sd.err &&
          fabs(se.hi) > fabs(se.lo) + se.err &&
          (sd.hi > 0.0) != (se.hi > 0.0)))
        return 0;
    if (fabs(sd.hi) > fabs(se.hi)) {
        /* from E: t' = se / (se - sd) = 1 - t */
        B = E;
        O = D;
        n = se;
        o = sd;
    }
    /* normalized (|lo| <= u |hi|), so that t0 = n.hi / M.hi leaves a
     * small remainder and M.hi stands for M in t1 = r / M.hi; the sums of
     * hi parts can cancel, their lo parts not */
    fast_two_sum(n.hi, n.lo, &n.hi, &n.lo);
    two_sum(n.hi, -o.hi, &mh, &f);
    ml = (n.lo - o.lo) + f;
    em = 1.25 * (n.err + o.err);
    if (!(fabs(ml) + em < 0.25 * fabs(mh)))
        return 0;
    fast_two_sum(mh, ml, &mh, &ml);
    t0 = n.hi / mh;
    st0 = split(t0);
    two_prod(st0, split(mh), &P, &p);
    a = (n.hi - P) - p;             /* n.hi - P exact (Sterbenz) */
    b = t0 * ml;
    c = n.lo - b;
    r = a + c;
    t1 = r / mh;
    inv = 1.0 / fabs(mh);
    et = U * fabs(t1) +
         2.0 * inv * (U * (fabs(a) + fabs(b) + fabs(c) + fabs(r)) +
                      fabs(r) * fabs(ml) * inv + n.err +
                      2.0 * (fabs(n.hi) + fabs(n.lo)) * em * inv);
    A = (et + U * (5.0 * fabs(t1) + 6.0 * U)) * (1.0 + 0x1p-40);
    for (k = 0; k < dim; k++) {
        double dh, dl, Q, q, g, S, s, lo, e, y0, y1;
        two_sum(O[k], -B[k], &dh, &dl);
        if (dh == 0.0) {            /* O[k] == B[k]: exact */
            v[k] = B[k] + 0.0;
            continue;
        }
        two_prod(st0, split(dh), &Q, &q);
        g = t1 * dh + t0 * dl;
        two_sum(B[k], Q, &S, &s);
        lo = (s + q) + g;
        e = fabs(dh) * A + (0x1p-104 * fabs(S) + 0x1p-980);
        e += 0x1p-52 * fabs(lo);
        y0 = S + (lo - e);
        y1 = S + (lo + e);
        if (!(y0 == y1))
            return 0;
        v[k] = y0 + 0.0;
    }
    for (k = 0; k < dim; k++)
        out[k] = v[k];
    return 1;
}

/* sD = (A - D) . n, n = (B - A) x (C - A), as xg_segtri_fast: the
 * triangle's short edges enter the cross product, so there is little
 * cancellation, where det[A-X; B-X; C-X] would multiply three long rows
 * and cancel most of their digits. */
int xg__plane_point_ddb(const double *tri, const double *D, const double *E,
                        double out[3])
{
    struct diff ab[3], ac[3], da[3], ea[3];
    struct sp nh[3];
    double n[3], nl[3], np[3];
    struct range rg = {0, UINT64_MAX};
    int k;
    range_add(&rg, tri, 9);
    range_add(&rg, D, 3);
    range_add(&rg, E, 3);
    if (!range_ok(&rg))
        return 0;
    for (k = 0; k < 3; k++) {
        ab[k] = diff(tri[3 + k], tri[k]);
        ac[k] = diff(tri[6 + k], tri[k]);
        da[k] = diff(tri[k], D[k]);
        ea[k] = diff(tri[k], E[k]);
    }
    det2(ab[1], ac[2], ab[2], ac[1], &n[0], &nl[0], &np[0]);
    det2(ab[2], ac[0], ab[0], ac[2], &n[1], &nl[1], &np[1]);
    det2(ab[0], ac[1], ab[1], ac[0], &n[2], &nl[2], &np[2]);
    for (k = 0; k < 3; k++)
        nh[k] = split(n[k]);
    return lerp(D, E, dot3(da, nh, nl, np), dot3(ea, nh, nl, np), 3, out);
}

/* sD = orient2d(p, q, D) = (p - D) x (q - D). */
int xg__line_point_ddb(const double *p, const double *q, const double *D,
                       const double *E, int dim, double *out)
{
    struct diff pd[2], qd[2], pe[2], qe[2];
    struct range rg = {0, UINT64_MAX};
    struct side sd, se;
    int k;
    range_add(&rg, p, 2);
    range_add(&rg, q, 2);
    range_add(&rg, D, dim);
    range_add(&rg, E, dim);
    if (!range_ok(&rg))
        return 0;
    for (k = 0; k < 2; k++) {
        pd[k] = diff(p[k], D[k]);
        qd[k] = diff(q[k], D[k]);
        pe[k] = diff(p[k], E[k]);
        qe[k] = diff(q[k], E[k]);
    }
    det2(pd[0], qd[1], pd[1], qd[0], &sd.hi, &sd.lo, &sd.err);
    det2(pe[0], qe[1], pe[1], qe[0], &se.hi, &se.lo, &se.err);
    sd.err *= 0x1p-99;
    se.err *= 0x1p-99;
    return lerp(D, E, sd, se, dim, out);
}

#else /* double operations carry excess precision: the next stage decides */

int xg__plane_point_ddb(const double *tri, const double *D, const double *E,
                        double out[3])
{
    (void)tri; (void)D; (void)E; (void)out;
    return 0;
}

int xg__line_point_ddb(const double *p, const double *q, const double *D,
                       const double *E, int dim, double *out)
{
    (void)p; (void)q; (void)D; (void)E; (void)dim; (void)out;
    return 0;
}

#endif
