/*
 * xg_filters.h -- the interval filters of every predicate, written once
 * and compiled for the host (C) and the GPU (CUDA).  Each answers a sign
 * or XG_UNSURE; the exact stage lives in exact.c.  Because host and device
 * evaluate the same formula with enclosing intervals, a sign either one
 * certifies is the exact sign: they can differ only in what they leave
 * unsure, never in an answer.
 */
#ifndef XG_FILTERS_H
#define XG_FILTERS_H

#include "xg_interval.h"

/* orient2d(a, b, c) = det[a-c; b-c], positive when a, b, c turn
 * counter-clockwise. */
XG_HD struct xg_iv xg_orient2d_iv(const double a[2], const double b[2],
                                  const double c[2])
{
    struct xg_iv acx = xg_iv_diff(a[0], c[0]), acy = xg_iv_diff(a[1], c[1]);
    struct xg_iv bcx = xg_iv_diff(b[0], c[0]), bcy = xg_iv_diff(b[1], c[1]);
    return xg_iv_sub(xg_iv_mul(acx, bcy), xg_iv_mul(acy, bcx));
}

/* Cross product of interval vectors. */
XG_HD void xg__iv_cross(const struct xg_iv u[3], const struct xg_iv v[3],
                        struct xg_iv w[3])
{
    w[0] = xg_iv_sub(xg_iv_mul(u[1], v[2]), xg_iv_mul(u[2], v[1]));
    w[1] = xg_iv_sub(xg_iv_mul(u[2], v[0]), xg_iv_mul(u[0], v[2]));
    w[2] = xg_iv_sub(xg_iv_mul(u[0], v[1]), xg_iv_mul(u[1], v[0]));
}

XG_HD struct xg_iv xg__iv_dot(const struct xg_iv u[3], const struct xg_iv v[3])
{
    return xg_iv_add(xg_iv_add(xg_iv_mul(u[0], v[0]), xg_iv_mul(u[1], v[1])),
                     xg_iv_mul(u[2], v[2]));
}

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

/* ------------------------------------------------------------------ */
/* Segment DE against triangle ABC, the fast pass.
 *
 * With n = (B-A) x (C-A):  orient3d(A,B,C,X) = det[A-X; B-X; C-X]
 *   = det[A-X; B-A; C-A] = -(X-A) . n,
 * so the two side tests share n.  With u = D-E and a = A-E, b = B-E,
 * c = C-E:  orient3d(A,B,D,E) = det[a; b; u] = u . (a x b), and likewise
 * for (B,C,D,E) and (C,A,D,E).  These are the determinants themselves,
 * rearranged, so their signs are exactly xg_orient3d's.
 *
 * Answers XG_SEGTRI_MISS, XG_SEGTRI_PROPER, XG_SEGTRI_TOUCH (the segment
 * crosses the plane through an edge or a vertex) or XG_SEGTRI_DEFER: an
 * uncertain sign, or an endpoint in the plane, both left to the exact
 * stage.  For PROPER and TOUCH, *t encloses the crossing parameter
 * t = sD / (sD - sE) along D -> E. */

#define XG_SEGTRI_MISS   0
#define XG_SEGTRI_PROPER 1
#define XG_SEGTRI_TOUCH  2
#define XG_SEGTRI_DEFER  3

XG_HD int xg_segtri_fast(const double *seg, const double *tri, struct xg_iv *t)
{
    const double *D = seg, *E = seg + 3;
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    struct xg_iv ab[3], ac[3], n[3], da[3], ea[3], sd, se;
    int sgn_d, sgn_e;

    xg__iv_diff3(B, A, ab);
    xg__iv_diff3(C, A, ac);
    xg__iv_cross(ab, ac, n);
    xg__iv_diff3(D, A, da);
    xg__iv_diff3(E, A, ea);
    sd = xg_iv_neg(xg__iv_dot(da, n));
    se = xg_iv_neg(xg__iv_dot(ea, n));
    sgn_d = xg_iv_sign(sd);
    sgn_e = xg_iv_sign(se);
    if (sgn_d == XG_UNSURE || sgn_e == XG_UNSURE)
        return XG_SEGTRI_DEFER;
    if (sgn_d == sgn_e && sgn_d != XG_ZERO)
        return XG_SEGTRI_MISS;
    if (sgn_d == XG_ZERO || sgn_e == XG_ZERO)
        return XG_SEGTRI_DEFER;

    {
        struct xg_iv u[3], a[3], b[3], c[3], w[3], o;
        int s[3], i, pos = 0, neg = 0, zero = 0;
        xg__iv_diff3(D, E, u);
        xg__iv_diff3(A, E, a);
        xg__iv_diff3(B, E, b);
        xg__iv_diff3(C, E, c);
        xg__iv_cross(a, b, w);
        o = xg__iv_dot(u, w);
        s[0] = xg_iv_sign(o);
        xg__iv_cross(b, c, w);
        o = xg__iv_dot(u, w);
        s[1] = xg_iv_sign(o);
        xg__iv_cross(c, a, w);
        o = xg__iv_dot(u, w);
        s[2] = xg_iv_sign(o);
        for (i = 0; i < 3; i++) {
            if (s[i] == XG_UNSURE)
                return XG_SEGTRI_DEFER;
            pos += s[i] == XG_POS;
            neg += s[i] == XG_NEG;
            zero += s[i] == XG_ZERO;
        }
        if (pos && neg)
            return XG_SEGTRI_MISS;
        if (zero == 3)          /* impossible for a true triangle */
            return XG_SEGTRI_DEFER;
        *t = xg_iv_div(sd, xg_iv_sub(sd, se));
        return zero ? XG_SEGTRI_TOUCH : XG_SEGTRI_PROPER;
    }
}

/* The point D + t (E - D) rounded to the nearest double, coordinate by
 * coordinate, when the enclosure of t certifies it.  Round-to-nearest is
 * monotone, so if D + lo and D + hi (each rounded to nearest) agree, the
 * exact point rounds to that same double.  Returns 1 when all three are
 * certified, 0 when the caller must round exactly. */
XG_HD int xg_lerp_fast(const double *D, const double *E, struct xg_iv t,
                       int dim, double *out)
{
    int k;
    for (k = 0; k < dim; k++) {
        struct xg_iv d = xg_iv_mul(t, xg_iv_diff(E[k], D[k]));
#ifdef __CUDA_ARCH__
        double lo = __dadd_rn(D[k], d.lo), hi = __dadd_rn(D[k], d.hi);
#else
        double lo = D[k] + d.lo, hi = D[k] + d.hi;
#endif
        if (!(lo == hi))
            return 0;
        out[k] = lo + 0.0;      /* -0 becomes +0, as the exact path gives */
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* 2D segments P0P1 (red) and Q0Q1 (blue), the fast pass.
 *
 * The four sides oq0 = orient2d(P0,P1,Q0), oq1 = orient2d(P0,P1,Q1),
 * op0 = orient2d(Q0,Q1,P0), op1 = orient2d(Q0,Q1,P1), each through
 * xg_orient2d_iv, so a certified sign is xg_orient2d's.  Answers
 * XG_REDBLUE_MISS (one pair of sides certainly the same and nonzero),
 * XG_REDBLUE_PROPER (all four certain and nonzero, each pair opposite)
 * or XG_REDBLUE_DEFER: an uncertain sign, which includes every exact
 * zero (touches, collinear pairs), left to the exact stage.  For PROPER,
 * *t encloses the crossing parameter t = op0 / (op0 - op1) along
 * P0 -> P1: orient2d(Q0,Q1,P(t)) is affine in t. */

#define XG_REDBLUE_MISS   0
#define XG_REDBLUE_PROPER 1
#define XG_REDBLUE_DEFER  3

XG_HD int xg_redblue_fast(const double *p0, const double *p1,
                          const double *q0, const double *q1,
                          struct xg_iv *t)
{
    struct xg_iv oq0 = xg_orient2d_iv(p0, p1, q0);
    struct xg_iv oq1 = xg_orient2d_iv(p0, p1, q1);
    struct xg_iv op0, op1;
    /* Both Q strictly on one side: the common miss, settled first. */
    if ((oq0.lo > 0.0 && oq1.lo > 0.0) || (oq0.hi < 0.0 && oq1.hi < 0.0))
        return XG_REDBLUE_MISS;
    op0 = xg_orient2d_iv(q0, q1, p0);
    op1 = xg_orient2d_iv(q0, q1, p1);
    if ((op0.lo > 0.0 && op1.lo > 0.0) || (op0.hi < 0.0 && op1.hi < 0.0))
        return XG_REDBLUE_MISS;
    /* Not a miss: certain and nonzero means the signs are opposite. */
    if (!(oq0.lo > 0.0 || oq0.hi < 0.0) || !(oq1.lo > 0.0 || oq1.hi < 0.0) ||
        !(op0.lo > 0.0 || op0.hi < 0.0) || !(op1.lo > 0.0 || op1.hi < 0.0))
        return XG_REDBLUE_DEFER;
    *t = xg_iv_div(op0, xg_iv_sub(op0, op1));
    return XG_REDBLUE_PROPER;
}

/* ------------------------------------------------------------------ */
/* The GPU count pass's estimate, in single precision on coordinates
 * already shifted to a local origin (in double, then rounded to float).
 * It decides nothing: it answers 0 only when the pair clearly misses
 * (both endpoints well on one side of the plane, or both well off it on
 * opposite sides and the segment well outside one edge's side while
 * well away from the other two), 1 otherwise, so that the number of 1s is an
 * estimate from above of the pairs the interval pass reports (hits and
 * deferrals).  The margin, 2^-10 of the magnitude of each determinant's
 * terms, is far above float rounding for any triangle that is not tiny
 * next to its distance from the origin; the engine detects and repairs
 * an estimate that falls short, so the margin costs memory, never
 * correctness. */
XG_HD int xg_segtri_maybe_f(const float *seg, const float *tri)
{
    const float *D = seg, *E = seg + 3;
    const float *A = tri, *B = tri + 3, *C = tri + 6;
    float ab[3], ac[3], n[3], na[3], da[3], ea[3], u[3];
    float sd = 0.0f, se = 0.0f, md = 0.0f, me = 0.0f;
    const float tol = 1.0f / 1024.0f;
    int k, pos = 0, neg = 0;

    for (k = 0; k < 3; k++) {
        ab[k] = B[k] - A[k];
        ac[k] = C[k] - A[k];
        da[k] = D[k] - A[k];
        ea[k] = E[k] - A[k];
        u[k] = D[k] - E[k];
    }
    for (k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        n[k] = ab[i] * ac[j] - ab[j] * ac[i];
        na[k] = fabsf(ab[i] * ac[j]) + fabsf(ab[j] * ac[i]);
    }
    for (k = 0; k < 3; k++) {
        sd += da[k] * n[k];
        se += ea[k] * n[k];
        md += fabsf(da[k]) * na[k];
        me += fabsf(ea[k]) * na[k];
    }
    if ((sd > tol * md && se > tol * me) || (sd < -tol * md && se < -tol * me))
        return 0;
    /* An endpoint near the plane: the interval pass may defer it. */
    if (!(fabsf(sd) > tol * md) || !(fabsf(se) > tol * me))
        return 1;
    for (k = 0; k < 3; k++) {
        const float *P = tri + 3 * k, *Q = tri + 3 * ((k + 1) % 3);
        float a[3], b[3], o = 0.0f, m = 0.0f;
        int i;
        for (i = 0; i < 3; i++) {
            a[i] = P[i] - E[i];
            b[i] = Q[i] - E[i];
        }
        for (i = 0; i < 3; i++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            float w = a[i1] * b[i2] - a[i2] * b[i1];
            o += u[i] * w;
            m += fabsf(u[i]) * (fabsf(a[i1] * b[i2]) + fabsf(a[i2] * b[i1]));
        }
        pos += o > tol * m;
        neg += o < -tol * m;
    }
    /* An edge test near zero: the interval pass may defer the pair
     * before it looks at the other two. */
    return pos + neg < 3 || !(pos && neg);
}

#endif /* XG_FILTERS_H */
