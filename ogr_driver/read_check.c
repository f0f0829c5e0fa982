/*
 * read_check.c -- the checks every reader makes of a geometry: its
 * coordinates finite (a NaN or an infinity is refused naming the vertex,
 * also where OGR hides a NaN in an empty point), its Z where the
 * operation needs 3D, its type; and the features without geometry,
 * skipped with a warning.
 */
#include <math.h>
#include "xgo_read.h"

/* The error XG_EFORMAT naming the current feature of r, what saying
 * why. */
int xgo__read_bad(struct xgo_reader *r, const char *what)
{
    return FAIL(r, XG_EFORMAT, "%s, layer '%s', feature %lld: %s",
                r->s->path, r->s->name, (long long)r->fid, what);
}

/* The axis (0: x, 1: y) of a NaN that an empty Point of g hides, or -1.
 * OGR marks a point empty as soon as its x or y is NaN (OGRPoint::setX,
 * setY) and keeps the coordinates, so that a CSV's or VRT's "nan" comes
 * as POINT EMPTY.  WKB and GeoPackage store an empty point as x and y
 * both NaN (a POINT EMPTY from WKT holds zeros): a NaN beside a number
 * is a NaN coordinate, not an empty point.  Collections are searched
 * part by part. */
int xgo__read_hidden_nan(OGRGeometryH g)
{
    int i, n;
    if (wkbFlatten(OGR_G_GetGeometryType(g)) == wkbPoint) {
        double x = OGR_G_GetX(g, 0), y = OGR_G_GetY(g, 0);
        if (!OGR_G_IsEmpty(g) || isnan(x) == isnan(y))
            return -1;
        return isnan(x) ? 0 : 1;
    }
    n = OGR_G_GetGeometryCount(g);
    for (i = 0; i < n; i++) {
        int axis = xgo__read_hidden_nan(OGR_G_GetGeometryRef(g, i));
        if (axis >= 0)
            return axis;
    }
    return -1;
}

/* Whether g is an empty Point stored as NaN coordinates (see
 * xgo__read_hidden_nan), for the warning that skips it. */
static int nan_empty_point(OGRGeometryH g)
{
    return g && wkbFlatten(OGR_G_GetGeometryType(g)) == wkbPoint &&
           OGR_G_IsEmpty(g) && isnan(OGR_G_GetX(g, 0));
}

/* The error for vertex vtx of feature fid of s, a coordinate on axis
 * that is NaN (k 0..2) or infinite: the one message of both, wherever
 * it is found.  Returns XG_EFORMAT. */
int xgo__read_nonfinite(const struct xgo_src *s, GIntBig fid, size_t vtx,
                        int axis, int nan, char *err, size_t errlen)
{
    return xgo__fail(err, errlen, XG_EFORMAT, "%s, layer '%s', feature "
                     "%lld: vertex %zu: %c coordinate is %s", s->path,
                     s->name, (long long)fid, vtx, "xyz"[axis],
                     nan ? "NaN" : "infinite");
}

/* The vertices of a curve into r->buf, checked finite (z set to 0 in 2D
 * unless r->keep_z; room left for one more, to close a ring).  *n
 * receives the count; r->vtx counts them for messages. */
int xgo__read_vertices(struct xgo_reader *r, OGRGeometryH g, size_t *n)
{
    int np = OGR_G_GetPointCount(g);
    size_t i;
    if (np < 0)
        np = 0;
    if (xg__grow_array((void **)&r->buf, &r->bufcap, 3 * (size_t)np + 3,
                       sizeof(double)))
        return FAIL(r, XG_ENOMEM, "out of memory");
    if (np)
        OGR_G_GetPoints(g, r->buf, 3 * sizeof(double), r->buf + 1,
                        3 * sizeof(double), r->buf + 2, 3 * sizeof(double));
    for (i = 0; i < (size_t)np; i++) {
        double *p = r->buf + 3 * i;
        int k;
        if (r->dim == 2 && !r->keep_z)
            p[2] = 0.0;
        for (k = 0; k < 3; k++)
            if (!isfinite(p[k]))
                return xgo__read_nonfinite(r->s, r->fid, r->vtx + i, k,
                                           isnan(p[k]), r->err, r->errlen);
    }
    r->vtx += (size_t)np;
    *n = (size_t)np;
    return XG_OK;
}

/* XG_OK unless r reads 3D and g has no Z: then the error naming the
 * operation that needs it. */
int xgo__read_need_z(struct xgo_reader *r, OGRGeometryH g)
{
    if (r->dim == 3 && !OGR_G_Is3D(g))
    {
        char what[128];
        snprintf(what, sizeof what, "geometry has no Z; %s needs 3D input",
                 r->job->op->name);
        return xgo__read_bad(r, what);
    }
    return XG_OK;
}

/* The error for a geometry g of a type the reader does not take,
 * expected naming those it takes. */
int xgo__read_wrong_type(struct xgo_reader *r, OGRGeometryH g,
                         const char *expected)
{
    char what[256];
    snprintf(what, sizeof what, "geometry is %s; expected %s",
             OGRGeometryTypeToName(OGR_G_GetGeometryType(g)), expected);
    return xgo__read_bad(r, what);
}

/* Feature fid of s, whose geometry g is NULL or empty: skipped with a
 * warning and counted (s->nread, s->nogeom, rep->null_geoms), unless an
 * empty point hides a NaN coordinate (xgo__read_hidden_nan), which is
 * refused as the reader refuses any NaN. */
int xgo__read_nogeom(struct xgo_src *s, const struct xgo_job *job,
                     struct xgo_report *rep, GIntBig fid, OGRGeometryH g,
                     char *err, size_t errlen)
{
    int axis = g ? xgo__read_hidden_nan(g) : -1;
    if (axis >= 0)
        return xgo__read_nonfinite(s, fid, 0, axis, 1, err, errlen);
    rep->null_geoms++;
    s->nogeom++;
    s->nread++;
    if (nan_empty_point(g))
        xgo__warn(job->quiet, "%s, layer '%s', feature %lld: empty point "
                  "(its x and y are NaN, as GeoPackage and WKB store POINT "
                  "EMPTY; GDAL writes a point whose x or y is NaN so); "
                  "skipped", s->path, s->name, (long long)fid);
    else
        xgo__warn(job->quiet, "%s, layer '%s', feature %lld: no geometry; "
                  "skipped", s->path, s->name, (long long)fid);
    return XG_OK;
}
