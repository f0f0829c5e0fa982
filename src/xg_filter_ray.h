/*
 * xg_filter_ray.h -- point against triangle for point-in-solid
 * (xg_inside): the vertical ray's filter, its signs from the static,
 * expansion and interval stages.  For host and device alike, as every
 * filter (xg_filters.h); the exact stage is inside.c's.
 */
#ifndef XG_FILTER_RAY_H
#define XG_FILTER_RAY_H

#include "xg_filter_orient.h"
#include "xg_expansion.h"

/* ------------------------------------------------------------------ */
/* Point P against triangle ABC, for point-in-solid (xg_inside).
 *
 * The ray leaves P upwards (+z), not from P itself but from the point
 * P' = P + (e, e^2, 0) for an infinitely small e > 0.  When P is on no
 * face, P' lies on the same side of the surface as P; and the vertical
 * line through P' meets no edge and no vertex (it would have to satisfy
 * two equations in e), so the faces it crosses are crossed in their
 * interiors and their parity is P's: odd inside, even outside.
 *
 * Everything follows from exact signs in (x, y) and one in 3D:
 *   s = orient2d(A, B, C), zero for a vertical triangle (one seen edge-on
 *       from above: its plane holds the vertical);
 *   o[k] = orient2d(V_k, V_k+1, P), V = A, B, C, A;
 *   d = orient3d(A, B, C, P), of the sign of s when P is below the plane.
 * Where o[k] = 0, P' decides: orient2d(V, W, P') = (Wx - Vx) e^2 -
 * (Wy - Vy) e, of the sign of Vy - Wy, else of Wx - Vx
 * (xg_ray_edge_shift), from comparisons of input coordinates alone.
 * So the ray crosses ABC when s != 0, P' is inside ABC's shadow and P is
 * below the plane; P is on ABC when s != 0, P is in the closed shadow and
 * d = 0; a vertical triangle is never crossed, and whether P lies on it
 * is decided in its own plane (xg_ray_wall, xg__point_on_tri).
 *
 * One function of the signs for the filter and the exact stage, as for
 * red/blue, so the two cannot disagree on what signs mean. */

#define XG_RAY_MISS  0  /* not crossed, and P not on the triangle       */
#define XG_RAY_CROSS 1  /* the ray crosses it                           */
#define XG_RAY_ON    2  /* P lies on the closed triangle                */
#define XG_RAY_DEFER 3  /* a sign the filter cannot certify             */
#define XG_RAY_WALL  4  /* vertical, P on the line of its shadow: its
                           plane decides (xg_ray_wall)                 */
#define XG_RAY_PLANE 5  /* xg_ray_xy: go on to xg_ray_plane             */

/* The sign of orient2d(V, W, P + (e, e^2)) where orient2d(V, W, P) = 0;
 * zero only when V and W have the same x and y. */
XG_HD int xg_ray_edge_shift(const double *v, const double *w)
{
    if (v[1] != w[1])
        return v[1] > w[1] ? XG_POS : XG_NEG;
    if (v[0] != w[0])
        return w[0] > v[0] ? XG_POS : XG_NEG;
    return XG_ZERO;
}

/* The (x, y) half, from s and o[3] (each a sign or XG_UNSURE):
 * XG_RAY_MISS, XG_RAY_DEFER, XG_RAY_WALL, or XG_RAY_PLANE with *in = 1
 * when P' is strictly inside the shadow (0 when P is on its border and
 * P' outside). */
XG_HD int xg_ray_xy(int s, const int *o, const double *tri, int *in)
{
    int k, unsure = 0;
    *in = 0;
    if (s == XG_UNSURE)
        return XG_RAY_DEFER;
    if (s == XG_ZERO) {
        for (k = 0; k < 3; k++) {
            if (o[k] == XG_POS || o[k] == XG_NEG)
                return XG_RAY_MISS;
            unsure |= o[k] == XG_UNSURE;
        }
        return unsure ? XG_RAY_DEFER : XG_RAY_WALL;
    }
    for (k = 0; k < 3; k++) {
        if (o[k] == -s)
            return XG_RAY_MISS;
        unsure |= o[k] == XG_UNSURE;
    }
    if (unsure)
        return XG_RAY_DEFER;
    *in = 1;
    for (k = 0; k < 3; k++)
        if (o[k] == XG_ZERO &&
            xg_ray_edge_shift(tri + 3 * k, tri + 3 * ((k + 1) % 3)) != s)
            *in = 0;
    return XG_RAY_PLANE;
}

/* The plane half, for P in the closed shadow of a non-vertical triangle:
 * d = orient3d(A, B, C, P) (a sign or XG_UNSURE). */
XG_HD int xg_ray_plane(int s, int d, int in)
{
    if (d == XG_UNSURE)
        return XG_RAY_DEFER;
    if (d == XG_ZERO)
        return XG_RAY_ON;
    return in && d == s ? XG_RAY_CROSS : XG_RAY_MISS;
}

/* The signs the ray filter works from: exact signs or XG_UNSURE, from
 * the interval stage and the exact stage in doubles (xg_expansion.h:
 * exact where the coordinate differences are exact doubles, as at UTM
 * magnitudes).  On lattice data (block centroids and vertices on one
 * grid) a point is often exactly in the vertical plane of an edge or on
 * a face: the host's one-ulp widening never certifies a zero, and the
 * device's directed rounding only where every operation is exact, so
 * without the exact stage the cpu engine sent those pairs, and the GPU
 * engine's device sent them to the host, through the whole exact stage
 * of the triangle again (GMP behind).  The host's C code starts with
 * the static stage, as xg_orient2d_filter and xg_orient3d_filter do,
 * then the exact stage in doubles, and the interval stage last: the
 * interval stage's widening of every operation was half the cpu engine's
 * instructions, and what the static stage leaves on lattice data (exact
 * zeros) only the exact stage settles.  The device starts with its
 * intervals, and the exact stage (out of line) takes the one sign in
 * thousands they leave.  Each stage certifies only exact signs, so the
 * order of the stages changes the cost, never a sign. */
XG_HD int xg_ray_side(const double *a, const double *b, const double *p)
{
    int s;
#ifndef __CUDACC__
    if ((s = xg__orient2d_static(a, b, p)) != XG_UNSURE ||
        (s = xg__orient2d_eft(a, b, p)) != XG_UNSURE)
        return s;
#endif
    s = xg_iv_sign(xg_orient2d_iv(a, b, p));
#ifdef __CUDACC__
    if (s == XG_UNSURE)
        s = xg__orient2d_eft(a, b, p);
#endif
    return s;
}

/* orient3d(a, b, c, p) through the same stages: the side of the plane
 * of abc on which p lies (xg_ray_plane's d), or XG_UNSURE. */
XG_HD int xg_ray_height(const double *a, const double *b, const double *c,
                        const double *p)
{
    int s;
#ifndef __CUDACC__
    if ((s = xg__orient3d_static(a, b, c, p)) != XG_UNSURE ||
        (s = xg__orient3d_eft(a, b, c, p)) != XG_UNSURE)
        return s;
#endif
    s = xg_iv_sign(xg_orient3d_iv(a, b, c, p));
#ifdef __CUDACC__
    if (s == XG_UNSURE)
        s = xg__orient3d_eft(a, b, c, p);
#endif
    return s;
}

/* P on the line of a vertical triangle's shadow (XG_RAY_WALL), so in its
 * plane: XG_RAY_ON when P lies on the closed triangle, XG_RAY_MISS when
 * it does not (a vertical triangle is never crossed), XG_RAY_DEFER where
 * a sign is unsure.  The triangle is seen along x, else along y: its
 * plane is vertical, so one of the two views has a nonzero area (the
 * plane's normal is horizontal and nonzero), and a view with nonzero
 * area maps the plane onto the view's one to one (an affine bijection),
 * so P is on the triangle exactly when its view is on the triangle's
 * view, which three sides decide.  xg__point_on_tri, the exact stage,
 * may see the triangle along another axis: the answer is the same. */
XG_HD_COLD int xg_ray_wall(const double *p, const double *tri)
{
    int drop, k;
    for (drop = 0; drop < 2; drop++) {
        double v[3][2], q[2];
        int turn;
        for (k = 0; k < 3; k++) {
            v[k][0] = tri[3 * k + 1 - drop];
            v[k][1] = tri[3 * k + 2];
        }
        q[0] = p[1 - drop];
        q[1] = p[2];
        turn = xg_ray_side(v[0], v[1], v[2]);
        if (turn == XG_UNSURE)
            return XG_RAY_DEFER;
        if (turn == XG_ZERO)
            continue;
        for (k = 0; k < 3; k++) {
            int o = xg_ray_side(v[k], v[(k + 1) % 3], q);
            if (o == XG_UNSURE)
                return XG_RAY_DEFER;
            if (o == -turn)
                return XG_RAY_MISS;
        }
        return XG_RAY_ON;
    }
    return XG_RAY_DEFER;    /* not vertical after all: the exact stage */
}

/* The filter: XG_RAY_MISS, XG_RAY_CROSS, XG_RAY_ON or XG_RAY_DEFER (an
 * unsure sign).  s is the
 * triangle's exact turn in (x, y), orient2d(A, B, C), computed once per
 * triangle; the caller has checked that P is in the triangle's box in x
 * and y and not above it (xg__ray_box_holds), and below says whether P
 * is strictly below its lowest vertex: then, inside the shadow, P is
 * strictly below the plane (its height there is a mean of the
 * vertices'), and orient3d is not needed.  The sides are taken one at a
 * time, since one on the wrong side settles a miss. */
XG_HD int xg_ray_tri_fast(const double *p, const double *tri, int s,
                          int below)
{
    const double *A = tri, *B = tri + 3, *C = tri + 6;
    int o[3], in, r;
    /* a certain side opposite the turn, or off a vertical triangle's
     * line, is a miss (s = 0 with o = 0 is not: P may be on the wall) */
    o[0] = xg_ray_side(A, B, p);
    if (s == XG_ZERO ? o[0] == XG_POS || o[0] == XG_NEG : o[0] == -s)
        return XG_RAY_MISS;
    o[1] = xg_ray_side(B, C, p);
    if (s == XG_ZERO ? o[1] == XG_POS || o[1] == XG_NEG : o[1] == -s)
        return XG_RAY_MISS;
    o[2] = xg_ray_side(C, A, p);
    r = xg_ray_xy(s, o, tri, &in);
    if (r != XG_RAY_PLANE)
        return r == XG_RAY_WALL ? xg_ray_wall(p, tri) : r;
    if (below)
        return in ? XG_RAY_CROSS : XG_RAY_MISS;
    return xg_ray_plane(s, xg_ray_height(A, B, C, p), in);
}

#endif /* XG_FILTER_RAY_H */
