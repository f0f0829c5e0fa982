/*
 * read_points.c -- points (XG_ELEM_POINT).  inside's A: Point /
 * MultiPoint with Z (sub: the point's index within its MultiPoint, 0 for
 * a Point).  delaunay: Point / MultiPoint with or without Z (2D points
 * whose z is kept when there is one, 0 otherwise; the report notes
 * whether any had Z, so that the output carries it); sub as for inside's
 * points.
 */
#include <math.h>
#include "xgo_read.h"

/* Point p of the current feature into r->set, sub its index in the
 * MultiPoint (0 for a Point): both routes' one way in. */
static int push(struct xgo_reader *r, const double p[3], int64_t sub)
{
    if (xg_set_push_point(r->set, p, r->fid, sub))
        return FAIL(r, XG_ELIMIT, "%s: too many points (limit %u)",
                    r->s->path, (unsigned)UINT32_MAX);
    return XG_OK;
}

/* A point, sub = its index in the MultiPoint (0 for a Point). */
static int point(struct xgo_reader *r, OGRGeometryH g, int64_t sub)
{
    size_t n;
    int rc = xgo__read_vertices(r, g, &n), axis;
    if (rc == XG_OK && n == 0 && (axis = xgo__read_hidden_nan(g)) >= 0)
        return xgo__read_nonfinite(r->s, r->fid, r->vtx, axis, 1, r->err,
                                   r->errlen);
    if (rc || n == 0)         /* an empty point in a MultiPoint: nothing */
        return rc;
    return push(r, r->buf, sub);
}

/* The points of g, a Point or a MultiPoint (each part's sub its index);
 * another type is refused, expected naming what the reader takes. */
static int points_of(struct xgo_reader *r, OGRGeometryH g,
                     const char *expected)
{
    int rc = XG_OK, i, n;
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbPoint:
        return point(r, g, 0);
    case wkbMultiPoint:
        n = OGR_G_GetGeometryCount(g);
        for (i = 0; i < n && !rc; i++)
            rc = point(r, OGR_G_GetGeometryRef(g, i), i);
        return rc;
    default:
        return xgo__read_wrong_type(r, g, expected);
    }
}

/* Points of a Point or MultiPoint with Z (xgo_geom_fn). */
int xgo__read_points3d(struct xgo_reader *r, OGRGeometryH g)
{
    int rc = xgo__read_need_z(r, g);
    if (rc)
        return rc;
    return points_of(r, g, "Point or MultiPoint with Z");
}

/* Points of the plane with their z, where a layer mixes points with Z
 * and points without: refused, naming the first point of the other kind
 * than the layer's first point (it is found as soon as it is read, and
 * the message names both).  A z of 0 for the points without Z would put
 * them at sea level: a spike in a TIN of a terrain. */
static int z_mix(struct xgo_reader *r, OGRGeometryH g)
{
    int z = OGR_G_Is3D(g) != 0;
    char what[256];
    if (r->zkind < 0) {
        r->zkind = z;
        r->zfid = r->fid;
    }
    if (z == r->zkind)
        return XG_OK;
    snprintf(what, sizeof what, "point %s Z, but feature %lld has %s: %s "
             "would put a z of 0 on the points without; give every point a "
             "z, or drop every z (ogr2ogr -dim XY)", z ? "with" : "without",
             (long long)r->zfid, r->zkind ? "Z" : "none", r->job->op->name);
    return xgo__read_bad(r, what);
}

/* Points of the plane: z kept where the geometry has Z (0 without: then
 * no point of the layer has one, z_mix). */
int xgo__read_points2d(struct xgo_reader *r, OGRGeometryH g)
{
    int rc = z_mix(r, g);
    if (rc)
        return rc;
    if (OGR_G_Is3D(g))
        r->rep->has_z = 1;
    return points_of(r, g, "Point or MultiPoint");
}

/* The points of blob w (len bytes), a Point or a MultiPoint whose every
 * point is plain (not empty, finite, with Z when need_z, all of one
 * dimension), into r->set as points_of reads them; *z receives whether
 * they have Z.  Any other blob leaves r->set as it was, *taken = 0. */
static int points_wkb(struct xgo_reader *r, const unsigned char *w,
                      size_t len, int need_z, int *z, int *taken)
{
    struct xgo_wkb c;
    size_t first = r->set->n;
    uint32_t t, pt, n = 1, i;
    int pz, rc = XG_OK;
    c.p = w;
    c.end = w + len;
    *taken = 0;
    if (xgo__wkb_head(&c, &t, z) || (t != 1 && t != 4) || (need_z && !*z))
        return XG_OK;
    if (t == 4 && (xgo__wkb_count(&c, &n) || n == 0))
        return XG_OK;
    for (i = 0; i < n && rc == XG_OK; i++) {
        double p[3] = {0.0, 0.0, 0.0};
        if (t == 4 && (xgo__wkb_head(&c, &pt, &pz) || pt != 1 || pz != *z))
            break;
        if (xgo__wkb_doubles(&c, p, 2 + (size_t)*z) || !isfinite(p[0]) ||
            !isfinite(p[1]) || !isfinite(p[2]))
            break;
        rc = push(r, p, t == 4 ? (int64_t)i : 0);
    }
    if (rc == XG_OK && i == n && c.p == c.end)
        *taken = 1;
    else
        r->set->n = first;
    return rc;
}

/* Points of a Point or MultiPoint with Z, on WKB (xgo_wkb_fn): as
 * xgo__read_points3d, the plain cases only. */
int xgo__read_points3d_wkb(struct xgo_reader *r, const unsigned char *w,
                           size_t len, int *taken)
{
    int z;
    return points_wkb(r, w, len, 1, &z, taken);
}

/* Points of the plane on WKB (xgo_wkb_fn): as xgo__read_points2d, the
 * plain cases only; a point of the other kind than the layer's first
 * (z_mix) is left to it, which names both. */
int xgo__read_points2d_wkb(struct xgo_reader *r, const unsigned char *w,
                           size_t len, int *taken)
{
    size_t first = r->set->n;
    int z, rc = points_wkb(r, w, len, 0, &z, taken);
    if (rc || !*taken)
        return rc;
    if (r->zkind >= 0 && z != r->zkind) {
        r->set->n = first;
        *taken = 0;
        return XG_OK;
    }
    if (r->zkind < 0) {
        r->zkind = z;
        r->zfid = r->fid;
    }
    if (z)
        r->rep->has_z = 1;
    return XG_OK;
}
