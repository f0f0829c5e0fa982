/*
 * selfx_pair.c -- whether two triangles of a surface cross (selfx.c): meet
 * other than along what they share as a mesh, a vertex or an edge.  One
 * pair is decided exactly by segtri's classification of an edge against
 * a triangle (xg__segtri_meets) and the exact orientations.
 */
#include <string.h>
#include "xg_selfx.h"
#include "xg_exact.h"
#include "op/segtri/xg_segtri.h"
#include "xg_interval.h"
#include "xg_filter_ray.h"

/* Non-zero when the closed edge from vertex k to vertex k + 1 of t meets
 * the closed triangle u. */
static int edge_meets(struct xg_counters *cnt, const double *t, int k,
                      const double *u)
{
    double seg[6];
    memcpy(seg, t + 3 * k, 3 * sizeof *seg);
    memcpy(seg + 3, t + 3 * ((k + 1) % 3), 3 * sizeof *seg);
    return xg__segtri_meets(cnt, seg, u);
}

/* The side of t's plane p lies on where the stages in doubles settle it,
 * XG_UNSURE where they all doubt: the ray test's orient3d
 * (xg_ray_height), whose static stage and exact stage in doubles come
 * before the intervals, as suits a mesh's neighbours, often exactly
 * coplanar (a zero the intervals never prove). */
static int side_fast(const double *t, const double *p)
{
    return xg_ray_height(t, t + 3, t + 6, p);
}

/* The side of t's plane p lies on, exactly: side_fast, then orient3d's
 * stages where it doubts. */
static int side(struct xg_counters *cnt, const double *t, const double *p)
{
    int s = side_fast(t, p);
    return s != XG_UNSURE ? s : xg_orient3d(cnt, t, t + 3, t + 6, p);
}

/* Non-zero when p (in the plane of triangle t, not its vertex k) lies in
 * the closed angle of t at its vertex k: in the projection that keeps
 * t's area (drop, orient: xg__projection_axis's), p on the inner side of
 * neither edge at k, or on it. */
static int in_angle(struct xg_counters *cnt, const double *t, int k,
                    int drop, int orient, const double *p)
{
    double v2[2], b2[2], c2[2], p2[2];
    int s;
    xg__project(t + 3 * k, drop, v2);
    xg__project(t + 3 * ((k + 1) % 3), drop, b2);
    xg__project(t + 3 * ((k + 2) % 3), drop, c2);
    xg__project(p, drop, p2);
    s = xg_orient2d(cnt, v2, b2, p2);
    if (s == -orient)
        return 0;
    s = xg_orient2d(cnt, v2, p2, c2);
    return s != -orient;
}

/* Non-zero when p, in t's plane, lies in its angle at vertex k. */
static int in_angle_of(struct xg_counters *cnt, const double *t, int k,
                       const double *p)
{
    int orient, drop = xg__projection_axis(cnt, t, &orient);
    return in_angle(cnt, t, k, drop, orient, p);
}

/* Non-zero when the vertices of u but the one at skip (-1: none) lie
 * strictly on one side of t's plane, as the filters certify it: then u
 * meets t's plane at most in that vertex, and t at most there.  A doubt
 * says 0, and the edges decide. */
static int plane_apart(const double *t, const double *u, int skip)
{
    int s = XG_UNSURE, k;
    for (k = 0; k < 3; k++) {
        int sk;
        if (k == skip)
            continue;
        sk = side_fast(t, u + 3 * k);
        if ((sk != XG_POS && sk != XG_NEG) || (s != XG_UNSURE && sk != s))
            return 0;
        s = sk;
    }
    return 1;
}

/* t and u share the edge of t's vertices other than k and u's other
 * than l: they cross when they lie in one plane with their third
 * vertices on the same side of that edge (one folded over the other).
 * Off one plane, the planes meet in the edge's line, which each triangle
 * meets in the edge alone. */
static int folded(struct xg_counters *cnt, const double *t, int k,
                  const double *u, int l)
{
    const double *P = t + 3 * ((k + 1) % 3), *Q = t + 3 * ((k + 2) % 3);
    double p2[2], q2[2], c2[2], f2[2];
    int drop, orient;
    if (side(cnt, t, u + 3 * l) != XG_ZERO)
        return 0;
    /* every figure of the plane projects along this axis one to one */
    drop = xg__projection_axis(cnt, t, &orient);
    xg__project(P, drop, p2);
    xg__project(Q, drop, q2);
    xg__project(t + 3 * k, drop, c2);
    xg__project(u + 3 * l, drop, f2);
    return xg_orient2d(cnt, p2, q2, c2) == xg_orient2d(cnt, p2, q2, f2);
}

/* t and u share their vertices t[i] = u[j] = V, and no other.  Their
 * meeting is convex and holds V: anything more is a segment from V.
 * Where u's other two vertices lie strictly on one side of t's plane (or
 * the other way round), u meets that plane in V alone: no crossing.
 * Where one of them, W, lies in t's plane and the other off it, u meets
 * that plane in the segment VW, which goes into t exactly when W lies in
 * t's angle at V.  Where both do, the two lie in one plane, and meet
 * beyond V exactly when their angles at V share a ray: one of the four
 * sides lies in the other's angle (the angles are below 180 degrees).
 * Else each crosses the other's plane, and the far end of their meeting
 * lies on the edge opposite V of one of them, which then meets the other
 * (segtri's test); that edge misses V, so the converse holds too. */
static int vertex_pair(struct xg_counters *cnt, const double *t, int i,
                       const double *u, int j)
{
    const double *e = u + 3 * ((j + 1) % 3), *f = u + 3 * ((j + 2) % 3);
    const double *b = t + 3 * ((i + 1) % 3), *c = t + 3 * ((i + 2) % 3);
    int se = side(cnt, t, e), sf = side(cnt, t, f), sb, sc;
    if (se == sf && se != XG_ZERO)
        return 0;
    if (se == XG_ZERO && sf == XG_ZERO) {
        int orient, drop = xg__projection_axis(cnt, t, &orient), ou;
        double v2[2], e2[2], f2[2];
        xg__project(t + 3 * i, drop, v2);
        xg__project(e, drop, e2);
        xg__project(f, drop, f2);
        ou = xg_orient2d(cnt, v2, e2, f2);
        return in_angle(cnt, t, i, drop, orient, e) ||
               in_angle(cnt, t, i, drop, orient, f) ||
               in_angle(cnt, u, j, drop, ou, b) ||
               in_angle(cnt, u, j, drop, ou, c);
    }
    if (se == XG_ZERO || sf == XG_ZERO)
        return in_angle_of(cnt, t, i, se == XG_ZERO ? e : f);
    sb = side(cnt, u, b);
    sc = side(cnt, u, c);
    if (sb == sc && sb != XG_ZERO)
        return 0;
    if (sb == XG_ZERO || sc == XG_ZERO)
        return in_angle_of(cnt, u, j, sb == XG_ZERO ? b : c);
    return edge_meets(cnt, t, (i + 1) % 3, u) ||
           edge_meets(cnt, u, (j + 1) % 3, t);
}

/* xg__tri_pair_cross (xg_selfx.h): by the vertices the two share,
 * none, one (vertex_pair), two (folded) or three (the same face). */
int xg__tri_pair_cross(struct xg_counters *cnt, const double *t,
                       const double *u)
{
    int mt[3] = {-1, -1, -1}, mu[3] = {-1, -1, -1}, shared = 0, i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (mu[j] < 0 && xg__same_point(t + 3 * i, u + 3 * j)) {
                mt[i] = j;
                mu[j] = i;
                shared++;
                break;
            }
    switch (shared) {
    case 3:                     /* the same face twice */
        return 1;
    case 2:
        for (i = 0; mt[i] >= 0; i++)
            ;
        for (j = 0; mu[j] >= 0; j++)
            ;
        return folded(cnt, t, i, u, j);
    case 1:
        for (i = 0; mt[i] < 0; i++)
            ;
        return vertex_pair(cnt, t, i, u, mt[i]);
    default:
        /* Two closed triangles meet exactly when an edge of one meets
         * the other: their meeting is convex, and its boundary points
         * lie on an edge of one of them. */
        if (plane_apart(t, u, -1) || plane_apart(u, t, -1))
            return 0;
        for (i = 0; i < 3; i++)
            if (edge_meets(cnt, t, i, u) || edge_meets(cnt, u, i, t))
                return 1;
        return 0;
    }
}
