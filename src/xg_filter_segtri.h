/*
 * xg_filter_segtri.h -- the fast pass of segment against triangle (3D),
 * the crossing point it certifies (also red/blue's, in 2D), the GPU's
 * screen of degenerate triangles, and the GPU count pass's estimate in
 * single precision.  For host and device alike, as every filter
 * (xg_filters.h); the exact stage is segtri.c's.
 */
#ifndef XG_FILTER_SEGTRI_H
#define XG_FILTER_SEGTRI_H

#include "xg_filter_orient.h"

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
#define XG_SEGTRI_CROSS  4      /* xg_segtri_plane: go on to the edges */

/* The first half: the sides of the plane on which D and E lie, sd and se
 * enclosing sD and sE.  XG_SEGTRI_MISS (both strictly on one side),
 * XG_SEGTRI_DEFER (an uncertain sign or an endpoint in the plane) or
 * XG_SEGTRI_CROSS (strictly on opposite sides: xg_segtri_edges decides).
 * Split out so that the GPU can settle the common miss for many pairs
 * before it spends the edge tests on the few that cross. */
XG_HD int xg_segtri_plane(const double *seg, const double *tri,
                          struct xg_iv *sd, struct xg_iv *se)
{
    const double *D = seg, *E = seg + 3;
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    struct xg_iv ab[3], ac[3], n[3], da[3], ea[3];
    int sgn_d, sgn_e;

    xg__iv_diff3(B, A, ab);
    xg__iv_diff3(C, A, ac);
    xg__iv_cross(ab, ac, n);
    xg__iv_diff3(D, A, da);
    xg__iv_diff3(E, A, ea);
    *sd = xg_iv_neg(xg__iv_dot(da, n));
    *se = xg_iv_neg(xg__iv_dot(ea, n));
    sgn_d = xg_iv_sign(*sd);
    sgn_e = xg_iv_sign(*se);
    if (sgn_d == XG_UNSURE || sgn_e == XG_UNSURE)
        return XG_SEGTRI_DEFER;
    if (sgn_d == sgn_e && sgn_d != XG_ZERO)
        return XG_SEGTRI_MISS;
    if (sgn_d == XG_ZERO || sgn_e == XG_ZERO)
        return XG_SEGTRI_DEFER;
    return XG_SEGTRI_CROSS;
}

/* The enclosure of the crossing's parameter t = sD / (sD - sE), from
 * those of sD and sE (xg_segtri_plane). */
XG_HD struct xg_iv xg_segtri_t(struct xg_iv sd, struct xg_iv se)
{
    return xg_iv_div(sd, xg_iv_sub(sd, se));
}

/* The second half, for a segment crossing the plane (sd, se from
 * xg_segtri_plane): the sides of DE's line on which the three edges
 * pass. */
XG_HD int xg_segtri_edges(const double *seg, const double *tri,
                          struct xg_iv sd, struct xg_iv se, struct xg_iv *t)
{
    const double *D = seg, *E = seg + 3;
    const double *A = tri, *B = tri + 3, *C = tri + 6;
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
    *t = xg_segtri_t(sd, se);
    return zero ? XG_SEGTRI_TOUCH : XG_SEGTRI_PROPER;
}

/* The whole fast pass (the answers above): the plane half, then the
 * edges for a segment that crosses the plane. */
XG_HD int xg_segtri_fast(const double *seg, const double *tri, struct xg_iv *t)
{
    struct xg_iv sd, se;
    int r = xg_segtri_plane(seg, tri, &sd, &se);
    return r == XG_SEGTRI_CROSS ? xg_segtri_edges(seg, tri, sd, se, t) : r;
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
/* Non-zero when the intervals certify that the triangle (9 doubles) is
 * not degenerate: its orientation is nonzero in one of the three axis
 * projections (xg__project's), so that the exact xg__tri_is_degenerate
 * finds a nonzero sign too.  0 when they cannot tell: the exact test
 * decides.  The GPU engine screens its triangles with it. */
XG_HD int xg_tri_proper_iv(const double *t)
{
    int drop;
    for (drop = 0; drop < 3; drop++) {
        int u = drop == 0 ? 1 : 0, w = drop == 2 ? 1 : 2, sg;
        double p[2], q[2], r[2];
        p[0] = t[u];
        p[1] = t[w];
        q[0] = t[3 + u];
        q[1] = t[3 + w];
        r[0] = t[6 + u];
        r[1] = t[6 + w];
        sg = xg_iv_sign(xg_orient2d_iv(p, q, r));
        if (sg == XG_POS || sg == XG_NEG)
            return 1;
    }
    return 0;
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

#endif /* XG_FILTER_SEGTRI_H */
