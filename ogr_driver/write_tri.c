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
#include <sqlite3.h>
#include "xgo_internal.h"
#include "gpkg_direct.h"

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
    double c[12];
    int k;
    for (k = 0; k < 4; k++)
        memcpy(c + 3 * k, w->pts->xyz + 3 * (size_t)v[k % 3], 3 * sizeof *c);
    /* the four points in one call: one allocation, not one per point */
    OGR_G_SetPoints(ring, 4, c, 3 * sizeof *c, c + 1, 3 * sizeof *c,
                    w->has_z ? c + 2 : NULL, 3 * sizeof *c);
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

/* The writer's pipeline (xgo__batch_write): the triangles and their
 * layer's fields and definition. */
struct pipe_arg {
    const struct xgo_write_tri *w;
    const struct xgo_tri_out *o;
    OGRFeatureDefnH defn;
};

/* xgo_batch.make: triangle i's feature (any thread). */
static OGRFeatureH make_tri(void *arg, size_t i)
{
    const struct pipe_arg *a = arg;
    return xgo__triangle_feature(a->w, a->o, a->defn, i);
}

/* xgo_batch.row: triangle i's row for the direct writer d, as its
 * feature would give it (any thread): the ring v0, v1, v2, v0 and the
 * fields. */
static void row_tri(void *arg, size_t i, const struct xgo_gpkg_direct *d,
                    struct xgo_gpkg_row *row)
{
    const struct pipe_arg *a = arg;
    const struct xgo_write_tri *w = a->w;
    const struct xg_set *pts = w->pts;
    const uint32_t *v = w->t->v[i];
    double c[12];
    int k;
    for (k = 0; k < 4; k++)
        memcpy(c + 3 * k, pts->xyz + 3 * (size_t)v[k % 3], 3 * sizeof *c);
    xgo__gpkg_row_ring(d, row, c, 4, w->has_z);
    for (k = 0; k < a->o->nf; k++) {
        row->v[a->o->idx[k]].type = SQLITE_INTEGER;
        row->v[a->o->idx[k]].i = k < 3 ? pts->fid[v[k]] : pts->sub[v[k - 3]];
    }
}

/* xgo_batch.put: writes triangle i's feature f into o's layer (f
 * stays the pipeline's); XG_OK, or XG_EIO naming the triangle's three point
 * features. */
static int put_tri(void *arg, size_t i, OGRFeatureH f, char *err,
                   size_t errlen)
{
    const struct pipe_arg *a = arg;
    const struct xgo_write_tri *w = a->w;
    const struct xg_set *pts = w->pts;
    const uint32_t *v = w->t->v[i];
    int rc = XG_OK;
    if (!f)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    CPLErrorReset();
    if (OGR_L_CreateFeature(a->o->lyr, f) != OGRERR_NONE)
        rc = xgo__fail(err, errlen, XG_EIO,
                       "%s, layer '%s': cannot write the triangle of "
                       "features %lld, %lld, %lld: %s",
                       GDALGetDescription(w->dst), OGR_L_GetName(a->o->lyr),
                       (long long)pts->fid[v[0]], (long long)pts->fid[v[1]],
                       (long long)pts->fid[v[2]],
                       xgo__gdal_msg("driver error"));
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

    rep->lines_layer[0] = '\0';
    tx = GDALDatasetStartTransaction(w->dst, FALSE) == OGRERR_NONE;
    rc = xgo__tri_open(w, &o, err, errlen);
    if (rc == XG_OK)
        snprintf(rep->layer, sizeof rep->layer, "%s", OGR_L_GetName(o.lyr));
    if (rc == XG_OK && tin && (rc = write_tin(w, o.lyr, err, errlen)) == XG_OK)
        rep->written = 1;
    if (rc == XG_OK && !tin) {
        struct pipe_arg a = {w, &o, OGR_L_GetLayerDefn(o.lyr)};
        struct xgo_batch b = {w->t->n, make_tri, put_tri, &a, row_tri};
        struct xgo_batch_run r = {w->job, w->dst, &rep->written, pf, pa,
                                  o.lyr, &tx};
        rc = xgo__batch_write(&b, &r, err, errlen);
    }
    return xgo__write_close(w->dst, tx, rc, &o.lyr, &o.created, 1, pf, pa,
                            err, errlen);
}
