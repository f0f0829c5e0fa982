/*
 * write_tri.c -- triangles to OGR features (xg_op.output
 * XG_OUTPUT_TRIANGLES: delaunay).
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

/* The whole triangulation as one TIN feature (job->tin). */
static int write_tin(const struct xgo_write_tri *w, OGRLayerH lyr,
                     char *err, size_t errlen)
{
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(lyr));
    OGRGeometryH tin = OGR_G_CreateGeometry(w->has_z ? wkbTINZ : wkbTIN);
    size_t i;
    int rc = XG_OK;
    for (i = 0; i < w->t->n; i++) {
        OGRGeometryH tri = OGR_G_CreateGeometry(w->has_z ? wkbTriangleZ
                                                         : wkbTriangle);
        add_ring(w, tri, w->t->v[i]);
        if (OGR_G_AddGeometryDirectly(tin, tri) != OGRERR_NONE) {
            rc = xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot "
                           "build the TIN (triangle %zu)",
                           GDALGetDescription(w->dst), OGR_L_GetName(lyr), i);
            break;
        }
    }
    OGR_F_SetGeometryDirectly(f, tin);
    CPLErrorReset();
    if (rc == XG_OK && OGR_L_CreateFeature(lyr, f) != OGRERR_NONE)
        rc = xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot write "
                       "the TIN of %zu triangles: %s",
                       GDALGetDescription(w->dst), OGR_L_GetName(lyr),
                       w->t->n, xgo__gdal_msg("driver error"));
    OGR_F_Destroy(f);
    return rc;
}

static int write_one(const struct xgo_write_tri *w, OGRLayerH lyr,
                     const int idx[6], int nf, const uint32_t v[3],
                     char *err, size_t errlen)
{
    const struct xg_set *pts = w->pts;
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(lyr));
    OGRGeometryH poly = OGR_G_CreateGeometry(w->has_z ? wkbPolygon25D
                                                      : wkbPolygon);
    int k, rc = XG_OK;
    add_ring(w, poly, v);
    OGR_F_SetGeometryDirectly(f, poly);
    for (k = 0; k < nf; k++)
        OGR_F_SetFieldInteger64(f, idx[k], k < 3 ? pts->fid[v[k]]
                                                 : pts->sub[v[k - 3]]);
    CPLErrorReset();
    if (OGR_L_CreateFeature(lyr, f) != OGRERR_NONE)
        rc = xgo__fail(err, errlen, XG_EIO,
                       "%s, layer '%s': cannot write the triangle of "
                       "features %lld, %lld, %lld: %s",
                       GDALGetDescription(w->dst), OGR_L_GetName(lyr),
                       (long long)pts->fid[v[0]], (long long)pts->fid[v[1]],
                       (long long)pts->fid[v[2]],
                       xgo__gdal_msg("driver error"));
    OGR_F_Destroy(f);
    return rc;
}

int xgo__write_tri(const struct xgo_write_tri *w, struct xgo_report *rep,
                   GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    OGRLayerH lyr = NULL;
    int created = 0, idx[6], nf = has_parts(w->pts) ? 6 : 3, rc, tx;
    int tin = w->job->tin;
    size_t i;
    OGRwkbGeometryType gt = tin ? (w->has_z ? wkbTINZ : wkbTIN)
                                : (w->has_z ? wkbPolygon25D : wkbPolygon);

    rep->lines_layer[0] = '\0';
    tx = GDALDatasetStartTransaction(w->dst, FALSE) == OGRERR_NONE;
    rc = xgo__layer_open(w->dst, w->layer_name, w->srs, gt, w->lco, &lyr,
                         &created, err, errlen);
    if (rc == XG_OK) {
        snprintf(rep->layer, sizeof rep->layer, "%s", OGR_L_GetName(lyr));
        if (!tin)
            rc = fields(w, lyr, created, nf, idx, err, errlen);
    }
    if (rc == XG_OK && tin && (rc = write_tin(w, lyr, err, errlen)) == XG_OK)
        rep->written = 1;
    for (i = 0; rc == XG_OK && !tin && i < w->t->n; i++) {
        rc = write_one(w, lyr, idx, nf, w->t->v[i], err, errlen);
        if (rc == XG_OK)
            rc = xgo__write_step(w->job, w->dst, i, w->t->n, &rep->written,
                                 pf, pa, err, errlen);
    }
    rc = xgo__write_end(w->dst, tx, rc, err, errlen);
    if (rc != XG_OK && !tx)
        xgo__layer_drop(w->dst, lyr, created);
    if (rc == XG_OK && pf)
        pf(1.0, NULL, pa);
    return rc;
}
