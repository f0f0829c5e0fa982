/*
 * write_tri.c -- triangles to OGR features: the writer of shape
 * XG_SHAPE_TRIANGLES (shape_triangles.c; delaunay).
 *
 * One Polygon per triangle, in the core's order (ascending vertex
 * indices): its ring v0, v1, v2, v0, counter-clockwise in (x, y), with
 * the input points' own coordinates (PolygonZ, z carried, when the
 * points had Z).  Fields v0, v1, v2: the FIDs of the three points; when
 * some feature gave more than one point (a MultiPoint of several),
 * v0_part, v1_part, v2_part too: each point's index within its feature,
 * so that (v0, v0_part) names the point.  With job->tin, one feature
 * instead: a TIN (TIN Z) of the same triangles in the same order, each a
 * Triangle whose ring is v0, v1, v2, v0, and no fields.  Written in one
 * transaction where the driver has them; a layer this run created goes
 * on failure.
 */
#include <stdio.h>
#include <string.h>
#include <cpl_error.h>
#include "xgo_internal.h"

static const char *const vfield[3] = {XGO_FIELD_V0, XGO_FIELD_V1,
                                      XGO_FIELD_V2};

/* Some point is not the first of its feature: FIDs alone do not name
 * the points. */
static int has_parts(const struct xg_set *pts)
{
    size_t i;
    for (i = 0; i < pts->n; i++)
        if (pts->sub[i] != 0)
            return 1;
    return 0;
}

/* The indices of the fixed fields in lyr (idx[0..2] v0..v2, idx[3..5]
 * the parts when nf is 6): created when created, else looked up. */
static int fields(const struct xgo_write_tri *w, OGRLayerH lyr, int created,
                  int nf, int idx[6], char *err, size_t errlen)
{
    OGRFeatureDefnH d = OGR_L_GetLayerDefn(lyr);
    int k;
    for (k = 0; k < nf; k++) {
        char name[32];
        snprintf(name, sizeof name, "%s%s", vfield[k % 3],
                 k < 3 ? "" : XGO_FIELD_PART_SUFFIX);
        if (created) {
            OGRFieldDefnH fd = OGR_Fld_Create(name, OFTInteger64);
            OGRErr e;
            CPLErrorReset();
            e = OGR_L_CreateField(lyr, fd, TRUE);
            OGR_Fld_Destroy(fd);
            if (e != OGRERR_NONE)
                return xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': "
                                 "cannot create field '%s': %s",
                                 GDALGetDescription(w->dst),
                                 OGR_L_GetName(lyr), name,
                                 xgo__gdal_msg("driver error"));
            idx[k] = OGR_FD_GetFieldCount(d) - 1;
        } else if ((idx[k] = OGR_FD_GetFieldIndex(d, name)) < 0) {
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s, layer '%s': has no field '%s'; cannot "
                             "append", GDALGetDescription(w->dst),
                             OGR_L_GetName(lyr), name);
        }
    }
    return XG_OK;
}

/* The ring v0, v1, v2, v0 of triangle v, added to g (a Polygon or a
 * Triangle). */
static void add_ring(const struct xgo_write_tri *w, OGRGeometryH g,
                     const uint32_t v[3])
{
    OGRGeometryH ring = OGR_G_CreateGeometry(wkbLinearRing);
    int k;
    for (k = 0; k < 4; k++) {
        const double *p = w->pts->xyz + 3 * (size_t)v[k % 3];
        if (w->has_z)
            OGR_G_AddPoint(ring, p[0], p[1], p[2]);
        else
            OGR_G_AddPoint_2D(ring, p[0], p[1]);
    }
    OGR_G_AddGeometryDirectly(g, ring);
}

OGRFeatureH xgo__tin_feature(const struct xgo_write_tri *w,
                             OGRFeatureDefnH defn)
{
    OGRFeatureH f = OGR_F_Create(defn);
    OGRGeometryH tin = OGR_G_CreateGeometry(w->has_z ? wkbTINZ : wkbTIN);
    size_t i;
    for (i = 0; i < w->t->n; i++) {
        OGRGeometryH tri = OGR_G_CreateGeometry(w->has_z ? wkbTriangleZ
                                                         : wkbTriangle);
        add_ring(w, tri, w->t->v[i]);
        if (OGR_G_AddGeometryDirectly(tin, tri) != OGRERR_NONE) {
            OGR_G_DestroyGeometry(tin);
            OGR_F_Destroy(f);
            return NULL;
        }
    }
    OGR_F_SetGeometryDirectly(f, tin);
    return f;
}

/* The whole triangulation as one TIN feature (job->tin). */
static int write_tin(const struct xgo_write_tri *w, OGRLayerH lyr,
                     char *err, size_t errlen)
{
    OGRFeatureH f = xgo__tin_feature(w, OGR_L_GetLayerDefn(lyr));
    int rc = XG_OK;
    if (!f)
        return xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot "
                         "build the TIN of %zu triangles",
                         GDALGetDescription(w->dst), OGR_L_GetName(lyr),
                         w->t->n);
    CPLErrorReset();
    if (OGR_L_CreateFeature(lyr, f) != OGRERR_NONE)
        rc = xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot write "
                       "the TIN of %zu triangles: %s",
                       GDALGetDescription(w->dst), OGR_L_GetName(lyr),
                       w->t->n, xgo__gdal_msg("driver error"));
    OGR_F_Destroy(f);
    return rc;
}

OGRFeatureH xgo__triangle_feature(const struct xgo_write_tri *w,
                                  const struct xgo_tri_out *o,
                                  OGRFeatureDefnH defn, size_t i)
{
    const struct xg_set *pts = w->pts;
    const uint32_t *v = w->t->v[i];
    OGRFeatureH f = OGR_F_Create(defn);
    OGRGeometryH poly = OGR_G_CreateGeometry(w->has_z ? wkbPolygon25D
                                                      : wkbPolygon);
    int k;
    add_ring(w, poly, v);
    OGR_F_SetGeometryDirectly(f, poly);
    for (k = 0; k < o->nf; k++)
        OGR_F_SetFieldInteger64(f, o->idx[k], k < 3 ? pts->fid[v[k]]
                                                    : pts->sub[v[k - 3]]);
    return f;
}

/* Writes triangle i of w->t as one feature of o's layer; XG_OK, or
 * XG_EIO naming the triangle's three point features. */
static int write_one(const struct xgo_write_tri *w,
                     const struct xgo_tri_out *o, size_t i, char *err,
                     size_t errlen)
{
    const struct xg_set *pts = w->pts;
    const uint32_t *v = w->t->v[i];
    OGRFeatureH f = xgo__triangle_feature(w, o, OGR_L_GetLayerDefn(o->lyr),
                                          i);
    int rc = XG_OK;
    CPLErrorReset();
    if (OGR_L_CreateFeature(o->lyr, f) != OGRERR_NONE)
        rc = xgo__fail(err, errlen, XG_EIO,
                       "%s, layer '%s': cannot write the triangle of "
                       "features %lld, %lld, %lld: %s",
                       GDALGetDescription(w->dst), OGR_L_GetName(o->lyr),
                       (long long)pts->fid[v[0]], (long long)pts->fid[v[1]],
                       (long long)pts->fid[v[2]],
                       xgo__gdal_msg("driver error"));
    OGR_F_Destroy(f);
    return rc;
}

int xgo__tri_open(const struct xgo_write_tri *w, struct xgo_tri_out *o,
                  char *err, size_t errlen)
{
    int tin = w->job->tin, rc;
    OGRwkbGeometryType gt = tin ? (w->has_z ? wkbTINZ : wkbTIN)
                                : (w->has_z ? wkbPolygon25D : wkbPolygon);
    memset(o, 0, sizeof *o);
    o->nf = tin ? 0 : has_parts(w->pts) ? 6 : 3;
    rc = xgo__layer_open(w->dst, w->layer_name, w->srs, gt, w->lco, &o->lyr,
                         &o->created, err, errlen);
    if (rc == XG_OK && o->nf)
        rc = fields(w, o->lyr, o->created, o->nf, o->idx, err, errlen);
    return rc;
}

int xgo__write_tri(const struct xgo_write_tri *w, struct xgo_report *rep,
                   GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    struct xgo_tri_out o;
    int rc, tx;
    int tin = w->job->tin;
    size_t i;

    rep->lines_layer[0] = '\0';
    tx = GDALDatasetStartTransaction(w->dst, FALSE) == OGRERR_NONE;
    rc = xgo__tri_open(w, &o, err, errlen);
    if (rc == XG_OK)
        snprintf(rep->layer, sizeof rep->layer, "%s", OGR_L_GetName(o.lyr));
    if (rc == XG_OK && tin && (rc = write_tin(w, o.lyr, err, errlen)) == XG_OK)
        rep->written = 1;
    for (i = 0; rc == XG_OK && !tin && i < w->t->n; i++) {
        rc = write_one(w, &o, i, err, errlen);
        if (rc == XG_OK)
            rc = xgo__write_step(w->job, w->dst, i, w->t->n, &rep->written,
                                 pf, pa, err, errlen);
    }
    return xgo__write_close(w->dst, tx, rc, &o.lyr, &o.created, 1, pf, pa,
                            err, errlen);
}
