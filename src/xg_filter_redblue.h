/*
 * xg_filter_redblue.h -- the fast pass of a red segment against a blue
 * one (2D), and the classification of a contact from the four sides that
 * the fast and the exact stage (redblue.c) share.  For host and device
 * alike, as every filter (xg_filters.h).
 */
#ifndef XG_FILTER_REDBLUE_H
#define XG_FILTER_REDBLUE_H

#include "xg_filter_orient.h"

/* ------------------------------------------------------------------ */
/* 2D segments P0P1 (red) and Q0Q1 (blue).
 *
 * The four sides oq0 = orient2d(P0,P1,Q0), oq1 = orient2d(P0,P1,Q1),
 * op0 = orient2d(Q0,Q1,P0), op1 = orient2d(Q0,Q1,P1).  The contact
 * follows from their signs alone (xg_redblue_classify), one function for
 * the fast stage (signs its intervals certify) and the exact stage (exact
 * signs), so the two cannot disagree on what a set of signs means. */

#define XG_REDBLUE_MISS    0
#define XG_REDBLUE_PROPER  1
#define XG_REDBLUE_DEFER   3
#define XG_REDBLUE_TOUCH   4
#define XG_REDBLUE_OVERLAP 5

/* out = (x, y) of p, -0 as +0, as the constructions give it. */
XG_HD void xg__rb_point(double *out, const double *p)
{
    out[0] = p[0] + 0.0;    /* -0 becomes +0, as constructed points */
    out[1] = p[1] + 0.0;
}

/* Collinear segments.  Along an axis on which P0 and P1 differ, the
 * common line is a bijection onto that coordinate, so comparing that
 * coordinate of endpoints (exact doubles) orders them along the line.
 * The shared part, if any, runs between two endpoints of the inputs: no
 * construction.  The stretch is given in A's direction (p nearer P0). */
XG_HD int xg__rb_collinear(const double *p0, const double *p1,
                           const double *q0, const double *q1, double p[2],
                           double q[2])
{
    int ax = p0[0] != p1[0] ? 0 : 1;
    int up = p0[ax] < p1[ax];           /* A runs toward larger values */
    const double *alo = up ? p0 : p1, *ahi = up ? p1 : p0;
    const double *blo = q0[ax] < q1[ax] ? q0 : q1;
    const double *bhi = q0[ax] < q1[ax] ? q1 : q0;
    const double *lo = blo[ax] > alo[ax] ? blo : alo;
    const double *hi = bhi[ax] < ahi[ax] ? bhi : ahi;

    if (lo[ax] > hi[ax])
        return XG_REDBLUE_MISS;
    if (lo[ax] == hi[ax]) {
        xg__rb_point(p, lo);
        return XG_REDBLUE_TOUCH;
    }
    xg__rb_point(p, up ? lo : hi);
    xg__rb_point(q, up ? hi : lo);
    return XG_REDBLUE_OVERLAP;
}

/* The contact from the four signs (XG_NEG, XG_ZERO, XG_POS).  op0 and op1
 * are read only when oq0, oq1 neither put Q on one side of P's line nor
 * make the segments collinear, so a caller may leave them XG_UNSURE then.
 * Answers XG_REDBLUE_MISS, XG_REDBLUE_PROPER (the caller constructs the
 * point), XG_REDBLUE_TOUCH (the point in p) or XG_REDBLUE_OVERLAP (the
 * stretch p..q). */
XG_HD int xg_redblue_classify(int oq0, int oq1, int op0, int op1,
                              const double *p0, const double *p1,
                              const double *q0, const double *q1,
                              double p[2], double q[2])
{
    if (oq0 == oq1 && oq0 != XG_ZERO)
        return XG_REDBLUE_MISS;
    if (oq0 == XG_ZERO && oq1 == XG_ZERO)
        return xg__rb_collinear(p0, p1, q0, q1, p, q);
    if (op0 == op1 && op0 != XG_ZERO)
        return XG_REDBLUE_MISS;
    /* Not collinear and each segment meets the other's line: one point.
     * A zero side puts that endpoint on the other line, and the lines
     * meet only once, so the endpoint is the point. */
    if (oq0 != XG_ZERO && oq1 != XG_ZERO && op0 != XG_ZERO &&
        op1 != XG_ZERO)
        return XG_REDBLUE_PROPER;
    xg__rb_point(p, oq0 == XG_ZERO ? q0 : oq1 == XG_ZERO ? q1
                    : op0 == XG_ZERO ? p0 : p1);
    return XG_REDBLUE_TOUCH;
}

/* The fast pass: each side through xg_orient2d_iv, so a certified sign is
 * xg_orient2d's.  An exact zero is certified only by a point interval
 * [0, 0], which the GPU's directed rounding gives when every operation is
 * exact (shared vertices, shared edges) and the host's widened intervals
 * never give.  Answers xg_redblue_classify's codes when all the signs it
 * needs are certain, else XG_REDBLUE_DEFER.  For PROPER, *t encloses the
 * crossing parameter t = op0 / (op0 - op1) along P0 -> P1:
 * orient2d(Q0,Q1,P(t)) is affine in t. */
XG_HD int xg_redblue_fast(const double *p0, const double *p1,
                          const double *q0, const double *q1,
                          struct xg_iv *t, double p[2], double q[2])
{
    struct xg_iv oq0 = xg_orient2d_iv(p0, p1, q0);
    struct xg_iv oq1 = xg_orient2d_iv(p0, p1, q1);
    struct xg_iv op0, op1;
    int s0 = xg_iv_sign(oq0), s1 = xg_iv_sign(oq1), s2, s3, r;
    /* Both Q strictly on one side: the common miss, settled first. */
    if (s0 == s1 && (s0 == XG_POS || s0 == XG_NEG))
        return XG_REDBLUE_MISS;
    if (s0 == XG_ZERO && s1 == XG_ZERO)
        return xg_redblue_classify(s0, s1, XG_UNSURE, XG_UNSURE, p0, p1, q0,
                                   q1, p, q);
    op0 = xg_orient2d_iv(q0, q1, p0);
    op1 = xg_orient2d_iv(q0, q1, p1);
    s2 = xg_iv_sign(op0);
    s3 = xg_iv_sign(op1);
    if (s2 == s3 && (s2 == XG_POS || s2 == XG_NEG))
        return XG_REDBLUE_MISS;
    if (s0 == XG_UNSURE || s1 == XG_UNSURE || s2 == XG_UNSURE ||
        s3 == XG_UNSURE)
        return XG_REDBLUE_DEFER;
    r = xg_redblue_classify(s0, s1, s2, s3, p0, p1, q0, q1, p, q);
    if (r == XG_REDBLUE_PROPER)
        *t = xg_iv_div(op0, xg_iv_sub(op0, op1));
    return r;
}

#endif /* XG_FILTER_REDBLUE_H */
