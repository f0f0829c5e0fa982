/*
 * orient.c -- the public predicates (orient2d, orient3d, incircle):
 * interval filter first, then an exact stage in doubles (expansions,
 * xg_expansion.h) where the coordinate differences are exact, GMP last.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "exactgeo.h"
#include "xg_ctx.h"
#include "xg_filter_orient.h"
#include "xg_expansion.h"

/* incircle exactly when its six differences to d are exact doubles in
 * [2^-200, 2^200] (or 0), multiples of one power of two 2^q and each
 * below 2^10 2^q, as on lattices: the plain evaluation scaled by 2^-q is
 * then on integers below 2^44 (lifts below 2^21, minors below 2^21, three
 * products of both), all exact in doubles, so its sign is the exact sign,
 * zero included, for a tenth of the expansions' cost.  Scaling by a
 * power of two is exact in that range.  XG_UNSURE otherwise. */
static int incircle_small(const double a[2], const double b[2],
                          const double c[2], const double d[2])
{
    const double *p[3] = {a, b, c};
    double u[3][2], t[3][2], mx = 0.0, det = 0.0, scale;
    uint64_t bits;
    int i, k, e;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 2; k++) {
            if (xg__diff_inexact(p[i][k], d[k], &u[i][k]) ||
                (u[i][k] != 0.0 && !(fabs(u[i][k]) >= 0x1p-200 &&
                                     fabs(u[i][k]) <= 0x1p+200)))
                return XG_UNSURE;
            mx = fabs(u[i][k]) > mx ? fabs(u[i][k]) : mx;
        }
    if (mx == 0.0)
        return XG_ZERO;
    /* mx < 2^e from its exponent bits (mx is normal), and scale = 2^(10 -
     * e) made from bits: frexp and ldexp were library calls, half the
     * cost of this stage */
    memcpy(&bits, &mx, sizeof bits);
    e = (int)((bits >> 52) & 0x7ff) - 1022;
    bits = (uint64_t)(1023 + 10 - e) << 52;
    memcpy(&scale, &bits, sizeof scale);
    for (i = 0; i < 3; i++)
        for (k = 0; k < 2; k++) {
            t[i][k] = u[i][k] * scale;          /* |t| < 2^10, exact */
            if (t[i][k] != (double)(int)t[i][k])
                return XG_UNSURE;
        }
    for (i = 0; i < 3; i++) {
        const double *v = t[(i + 1) % 3], *w = t[(i + 2) % 3];
        det += (t[i][0] * t[i][0] + t[i][1] * t[i][1]) *
               (v[0] * w[1] - v[1] * w[0]);
    }
    return det > 0 ? XG_POS : det < 0 ? XG_NEG : XG_ZERO;
}

/*
 * The exact sign of incircle when its six coordinate differences to d
 * are exact doubles (lattices, cocircular points at UTM magnitudes: the
 * cases the filter cannot settle are mostly these).  det = sum over the
 * rotations (u, v, w) of (a, b, c) of (u'x^2 + u'y^2) (v'x w'y - v'y
 * w'x), u' = u - d: each minor is exactly four doubles (two two-products),
 * scaled twice by u'x and twice by u'y into at most 2 x 16 doubles, so
 * det is the sum of at most 96, made exact as an expansion.  Every
 * component is a multiple of the product of the quanta of the four
 * differences it came from; nonzero differences in [2^-200, 2^200] have
 * quanta of at least 2^-252, so every two-product's error term is a
 * multiple of 2^-1008 and representable, and every partial sum stays
 * below 2^805: nothing underflows or overflows.  XG_UNSURE outside that.
 */
static int incircle_eft(const double a[2], const double b[2],
                        const double c[2], const double d[2])
{
    const double *p[3] = {a, b, c};
    double u[3][2], m[4], s8[8], s16[16], x[96];
    const double lo = 0x1p-200, hi = 0x1p+200;
    int i, j, k, n = 0, nm, n8, n16;

    if ((i = incircle_small(a, b, c, d)) != XG_UNSURE)
        return i;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 2; k++)
            if (xg__diff_inexact(p[i][k], d[k], &u[i][k]) ||
                (u[i][k] != 0.0 &&
                 !(fabs(u[i][k]) >= lo && fabs(u[i][k]) <= hi)))
                return XG_UNSURE;
    for (i = 0; i < 3; i++) {
        const double *v = u[(i + 1) % 3], *w = u[(i + 2) % 3];
        /* the minor v'x w'y - v'y w'x */
        nm = xg__exp_det2(v[0], v[1], w[0], w[1], m);
        /* times u'x^2, then times u'y^2 */
        for (k = 0; k < 2; k++) {
            if (u[i][k] == 0.0)
                continue;
            n8 = xg__exp_scale(m, nm, u[i][k], s8);
            n16 = xg__exp_scale(s8, n8, u[i][k], s16);
            for (j = 0; j < n16; j++)
                n = xg__exp_grow(x, n, s16[j]);
        }
    }
    return xg__expansion_sign(x, n);
}

/* The counting every predicate shares (struct xg_counters): a call
 * whose filter answered s, then the time of its GMP stage, if it has
 * one.  gmp_done's last argument is evaluated before its clock is read. */
static int counted(struct xg_counters *cnt, int s)
{
    if (cnt) {
        cnt->predicates++;
        cnt->filter_failures += s == XG_UNSURE;
    }
    return s;
}

/* Counts one GMP evaluation in cnt (may be NULL) and returns the clock
 * for gmp_done (0 without counters: no time is spent reading it). */
static double gmp_start(struct xg_counters *cnt)
{
    if (!cnt)
        return 0.0;
    cnt->exact_evals++;
    return xg__now();
}

/* Adds the time since t0 to cnt's GMP time (cnt may be NULL); returns
 * s, the exact stage's sign. */
static int gmp_done(struct xg_counters *cnt, double t0, int s)
{
    if (cnt)
        cnt->exact_seconds += xg__now() - t0;
    return s;
}

/* The static stages (xg_filters.h explains; orient2d's and orient3d's
 * are there, shared with the cpu segtri pass and the ray filter). */
static int incircle_static(const double a[2], const double b[2],
                           const double c[2], const double d[2])
{
    double adx = a[0] - d[0], bdx = b[0] - d[0], cdx = c[0] - d[0];
    double ady = a[1] - d[1], bdy = b[1] - d[1], cdy = c[1] - d[1];
    double bc1, bc2, ca1, ca2, ab1, ab2, al, bl, cl, det, perm;
    if (!(xg__static_in_range(adx) && xg__static_in_range(bdx) &&
          xg__static_in_range(cdx) && xg__static_in_range(ady) &&
          xg__static_in_range(bdy) && xg__static_in_range(cdy)))
        return XG_UNSURE;
    bc1 = bdx * cdy;
    bc2 = cdx * bdy;
    ca1 = cdx * ady;
    ca2 = adx * cdy;
    ab1 = adx * bdy;
    ab2 = bdx * ady;
    al = adx * adx + ady * ady;
    bl = bdx * bdx + bdy * bdy;
    cl = cdx * cdx + cdy * cdy;
    det = al * (bc1 - bc2) + bl * (ca1 - ca2) + cl * (ab1 - ab2);
    perm = (fabs(bc1) + fabs(bc2)) * al + (fabs(ca1) + fabs(ca2)) * bl +
           (fabs(ab1) + fabs(ab2)) * cl;
    perm *= (10.0 + 96.0 * XG_EPS) * XG_EPS;
    if (det > perm)
        return XG_POS;
    if (-det > perm)
        return XG_NEG;
    return XG_UNSURE;
}

/* The filters: the static stage, then the interval one where it doubts
 * (a certified sign is the exact sign either way). */
int xg_orient2d_filter(const double a[2], const double b[2], const double c[2])
{
    int s = xg__orient2d_static(a, b, c);
    return s != XG_UNSURE ? s : xg_iv_sign(xg_orient2d_iv(a, b, c));
}

int xg_orient3d_filter(const double a[3], const double b[3], const double c[3],
                       const double d[3])
{
    int s = xg__orient3d_static(a, b, c, d);
    return s != XG_UNSURE ? s : xg_iv_sign(xg_orient3d_iv(a, b, c, d));
}

int xg_orient2d(struct xg_counters *cnt, const double a[2], const double b[2],
                const double c[2])
{
    int s = counted(cnt, xg_orient2d_filter(a, b, c));
    double t0;
    if (s == XG_UNSURE)
        s = xg__orient2d_eft(a, b, c);
    if (s != XG_UNSURE)
        return s;
    t0 = gmp_start(cnt);
    return gmp_done(cnt, t0, xg_orient2d_exact(a, b, c));
}

int xg_orient3d(struct xg_counters *cnt, const double a[3], const double b[3],
                const double c[3], const double d[3])
{
    int s = counted(cnt, xg_orient3d_filter(a, b, c, d));
    double t0;
    if (s == XG_UNSURE)
        s = xg__orient3d_eft(a, b, c, d);
    if (s != XG_UNSURE)
        return s;
    t0 = gmp_start(cnt);
    return gmp_done(cnt, t0, xg_orient3d_exact(a, b, c, d));
}

int xg_incircle_filter(const double a[2], const double b[2],
                       const double c[2], const double d[2])
{
    int s = incircle_static(a, b, c, d);
    if (s != XG_UNSURE)
        return s;
    /* An exactly cocircular quadruple of a lattice (a sixth of a
     * Delaunay engine's incircles there) leaves the interval filter
     * unsure or, for a point interval, zero: answering unsure at once
     * saves it 900 instructions, and the stage in doubles says zero. */
    if (incircle_small(a, b, c, d) == XG_ZERO)
        return XG_UNSURE;
    return xg_iv_sign(xg_incircle_iv(a, b, c, d));
}

int xg_incircle(struct xg_counters *cnt, const double a[2], const double b[2],
                const double c[2], const double d[2])
{
    int s = incircle_static(a, b, c, d), z;
    double t0;
    if (s == XG_UNSURE && (z = incircle_small(a, b, c, d)) == XG_ZERO) {
        /* xg_incircle_filter's path, with the exact zero it found kept
         * rather than found again by incircle_eft (a tenth of a lattice
         * triangulation's work) */
        counted(cnt, XG_UNSURE);
        return XG_ZERO;
    }
    if (s == XG_UNSURE)
        s = xg_iv_sign(xg_incircle_iv(a, b, c, d));
    s = counted(cnt, s);        /* the filter's answer, as above */
    if (s == XG_UNSURE)
        s = incircle_eft(a, b, c, d);
    if (s != XG_UNSURE)
        return s;
    t0 = gmp_start(cnt);
    return gmp_done(cnt, t0, xg_incircle_exact(a, b, c, d));
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
