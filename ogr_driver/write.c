/*
 * write.c -- contacts to OGR features: the writer of shape
 * XG_SHAPE_CONTACTS (shape_contacts.c; segtri, redblue, inside).
 *
 * Fields: a_fid, a_seg, b_fid, b_tri (the operation's sub_field names:
 * b_seg for redblue, a_part for inside; none where the entry has NULL,
 * as inside's B), kind, then the copied attributes of A ("a_" + name) and
 * of B ("b_" + name).  Geometry: a point (proper, touch; inside's
 * records: the input point) or a two-point line (coplanar, overlap), with
 * Z for segtri and inside.  A record of no B element (inside's outside
 * points, b == UINT32_MAX) has b_fid and B's copies NULL.  One layer of
 * mixed geometry type, of points only for an operation without
 * stretches (inside), except on drivers that cannot mix (Shapefile):
 * lines then go to "<layer>_lines", created only when there are some.
 * CSV gets the geometry as a WKT column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "xgo_internal.h"
#include "gpkg_rtree.h"

enum { F_AFID = XGO_F_AFID, F_ASEG = XGO_F_ASUB, F_BFID = XGO_F_BFID,
       F_BSUB = XGO_F_BSUB, F_KIND = XGO_F_KIND, F_FIXED = XGO_F_FIXED };

struct ctx {
    const struct xgo_write *w;
    char *err;
    size_t errlen;
    const char *fixed[F_FIXED];
};

/* Sets up c for writing w: where messages go, and the fixed fields the
 * operation's row names (NULL where it has none: sub, kind). */
static void ctx_init(struct ctx *c, const struct xgo_write *w, char *err,
                     size_t errlen)
{
    const struct xg_op *op = w->job->op;
    c->w = w;
    c->err = err;
    c->errlen = errlen;
    c->fixed[F_AFID] = XGO_FIELD_A_FID;
    c->fixed[F_ASEG] = op->in[0].sub_field;
    c->fixed[F_BFID] = XGO_FIELD_B_FID;
    c->fixed[F_BSUB] = op->in[1].sub_field;
    /* records without kinds (a lines shape's, xg_op.kinds 0) have no
     * kind field */
    c->fixed[F_KIND] = op->kinds ? XGO_FIELD_KIND : NULL;
}

/* Writes "DST, layer 'lname': fmt(arg): GDAL's message" into c's err
 * and returns code. */
static int fail(struct ctx *c, int code, const char *fmt, const char *arg,
                const char *lname)
{
    char what[512];
    snprintf(what, sizeof what, fmt, arg);
    return xgo__fail(c->err, c->errlen, code, "%s, layer '%s': %s: %s",
                     GDALGetDescription(c->w->dst), lname, what,
                     xgo__gdal_msg("driver error"));
}

/* The output name of copied field k of src ("a_" / "b_" + name). */
static void copy_name(const struct xgo_src *s, int k, char prefix, char *buf,
                      size_t len)
{
    OGRFeatureDefnH d = OGR_L_GetLayerDefn(s->lyr);
    snprintf(buf, len, "%c_%s", prefix,
             OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(d, s->copy_idx[k])));
}

/* Index of name in the layer; Shapefile truncates names to 10 bytes. */
static int field_index(OGRLayerH lyr, const char *name)
{
    OGRFeatureDefnH d = OGR_L_GetLayerDefn(lyr);
    int i = OGR_FD_GetFieldIndex(d, name);
    if (i < 0 && strlen(name) > 10) {
        char t[11];
        memcpy(t, name, 10);
        t[10] = '\0';
        i = OGR_FD_GetFieldIndex(d, t);
    }
    return i;
}

/* Creates field name in o's layer, typed as like (a copied input field:
 * type, subtype, width, precision) or, when like is NULL, as type and
 * width (0: the driver's default); *idx gets its index.  XG_OK or
 * XG_EIO. */
static int add_field(struct ctx *c, struct xgo_out *o, const char *name,
                     OGRFieldDefnH like, OGRFieldType type, int width,
                     int *idx)
{
    OGRFieldDefnH fd = like ? NULL : OGR_Fld_Create(name, type);
    OGRErr e;
    if (like) {
        fd = OGR_Fld_Create(name, OGR_Fld_GetType(like));
        OGR_Fld_SetSubType(fd, OGR_Fld_GetSubType(like));
        OGR_Fld_SetWidth(fd, OGR_Fld_GetWidth(like));
        OGR_Fld_SetPrecision(fd, OGR_Fld_GetPrecision(like));
    } else if (width) {
        OGR_Fld_SetWidth(fd, width);
    }
    CPLErrorReset();
    e = OGR_L_CreateField(o->lyr, fd, TRUE);
    OGR_Fld_Destroy(fd);
    if (e != OGRERR_NONE)
        return fail(c, XG_EIO, "cannot create field '%s'", name,
                    OGR_L_GetName(o->lyr));
    *idx = OGR_FD_GetFieldCount(OGR_L_GetLayerDefn(o->lyr)) - 1;
    return XG_OK;
}

/* Fields of o: created when o->created, else looked up (append). */
static int fields(struct ctx *c, struct xgo_out *o)
{
    const struct xgo_src *src[2] = {c->w->a, c->w->b};
    int i, k, rc;
    static const OGRFieldType type[F_FIXED] = {OFTInteger64, OFTInteger64,
                                               OFTInteger64, OFTInteger64,
                                               OFTString};
    for (i = 0; i < F_FIXED; i++) {
        if (!c->fixed[i])         /* the operation has no such field */
            rc = (o->fix[i] = -1, XG_OK);
        else if (o->created)
            rc = add_field(c, o, c->fixed[i], NULL, type[i],
                           i == F_KIND ? 8 : 0, &o->fix[i]);
        else if ((o->fix[i] = field_index(o->lyr, c->fixed[i])) < 0)
            rc = xgo__fail(c->err, c->errlen, XG_EINVAL,
                           "%s, layer '%s': has no field '%s'; cannot append",
                           GDALGetDescription(c->w->dst),
                           OGR_L_GetName(o->lyr), c->fixed[i]);
        else
            rc = XG_OK;
        if (rc)
            return rc;
    }
    for (i = 0; i < 2; i++) {
        const struct xgo_src *s = src[i];
        OGRFeatureDefnH sd;
        int nsrc, *map;
        if (!s || !s->ncopy)
            continue;
        sd = OGR_L_GetLayerDefn(s->lyr);
        nsrc = OGR_FD_GetFieldCount(sd);
        map = malloc((size_t)nsrc * sizeof *map);
        if (!map)
            return xgo__fail(c->err, c->errlen, XG_ENOMEM, "out of memory");
        if (i == 0)
            o->amap = map;
        else
            o->bmap = map;
        for (k = 0; k < nsrc; k++)
            map[k] = -1;
        for (k = 0; k < s->ncopy; k++) {
            char name[300];
            int j, idx;
            copy_name(s, k, "ab"[i], name, sizeof name);
            for (j = 0; j < F_FIXED; j++)
                if (c->fixed[j] && strcmp(name, c->fixed[j]) == 0)
                    return xgo__fail(c->err, c->errlen, XG_EINVAL,
                                     "%s, layer '%s': copied field '%s' "
                                     "would be named '%s', like a fixed "
                                     "output field; leave it out",
                                     s->path, s->name, name + 2, name);
            if (o->created) {
                rc = add_field(c, o, name,
                               OGR_FD_GetFieldDefn(sd, s->copy_idx[k]), 0, 0,
                               &idx);
                if (rc)
                    return rc;
            } else if ((idx = field_index(o->lyr, name)) < 0) {
                return xgo__fail(c->err, c->errlen, XG_EINVAL,
                                 "%s, layer '%s': has no field '%s'; cannot "
                                 "append", GDALGetDescription(c->w->dst),
                                 OGR_L_GetName(o->lyr), name);
            }
            map[s->copy_idx[k]] = idx;
        }
    }
    return XG_OK;
}

int xgo__layer_open(GDALDatasetH dst, const char *name,
                    OGRSpatialReferenceH srs, OGRwkbGeometryType gt,
                    char **lco_in, OGRLayerH *lyr, int *created, char *err,
                    size_t errlen)
{
    *created = 0;
    *lyr = GDALDatasetGetLayerByName(dst, name);
    if (*lyr) {
        OGRSpatialReferenceH have = xgo__layer_srs(*lyr);
        if ((have == NULL) != (srs == NULL) || (have && !OSRIsSame(have, srs)))
            return xgo__fail(err, errlen, XG_EINVAL,
                             "%s, layer '%s': exists in another CRS than "
                             "the inputs'; cannot append",
                             GDALGetDescription(dst), name);
    } else {
        GDALDriverH drv = GDALGetDatasetDriver(dst);
        char **lco = xgo__rtree_layer_lco(dst, name, lco_in);
        /* CSV drops the geometry unless asked: write it as WKT, as
         * ogr2ogr -lco GEOMETRY=AS_WKT does */
        if (drv && EQUAL(GDALGetDriverShortName(drv), "CSV") &&
            !CSLFetchNameValue(lco, "GEOMETRY"))
            lco = CSLSetNameValue(lco, "GEOMETRY", "AS_WKT");
        CPLErrorReset();
        *lyr = GDALDatasetCreateLayer(dst, name, srs, gt, lco);
        CSLDestroy(lco);
        if (!*lyr)
            return xgo__fail(err, errlen, XG_EIO, "%s, layer '%s': cannot "
                             "create the layer: %s", GDALGetDescription(dst),
                             name, xgo__gdal_msg("driver error"));
        *created = 1;
    }
    return XG_OK;
}

int xgo__out_open(const struct xgo_write *w, struct xgo_out *o,
                  const char *name, OGRwkbGeometryType gt, char *err,
                  size_t errlen)
{
    struct ctx c;
    int rc;
    ctx_init(&c, w, err, errlen);
    memset(o, 0, sizeof *o);
    rc = xgo__layer_open(w->dst, name, w->srs, gt, w->lco, &o->lyr,
                         &o->created, err, errlen);
    return rc ? rc : fields(&c, o);
}

OGRwkbGeometryType xgo__contact_type(const struct xgo_write *w, int split)
{
    /* an operation without stretches (inside) writes points only: say
     * so in the layer's type */
    int only_pts = !((w->job->op->kinds >> XG_KIND_OVERLAP) & 1u);
    if (split || only_pts)
        return w->dim == 3 ? wkbPoint25D : wkbPoint;
    return w->dim == 3 ? OGR_GT_SetZ(wkbUnknown) : wkbUnknown;
}

/* The attributes to copy of element i of A (which 0) or B (1): from the
 * features the reader kept, or through w->attrs; NULL (the message in
 * err) when they cannot be had. */
static OGRFeatureH attrs_of(const struct xgo_write *w, int which, size_t i,
                            char *err, size_t errlen)
{
    if (w->attrs)
        return w->attrs(w->attrs_arg, which, i, err, errlen);
    return xgo__src_feature_of(which ? w->b : w->a, i);
}

void xgo__contact_ids(const struct xgo_write *w, const struct xgo_out *o,
                      OGRFeatureH f, const struct xg_contact *x)
{
    int has_b = x->b != UINT32_MAX;

    OGR_F_SetFieldInteger64(f, o->fix[F_AFID], w->aset->fid[x->a]);
    if (o->fix[F_ASEG] >= 0)
        OGR_F_SetFieldInteger64(f, o->fix[F_ASEG], w->aset->sub[x->a]);
    if (has_b)
        OGR_F_SetFieldInteger64(f, o->fix[F_BFID], w->bfid[x->b]);
    else
        OGR_F_SetFieldNull(f, o->fix[F_BFID]);
    if (o->fix[F_BSUB] >= 0) {
        if (has_b)
            OGR_F_SetFieldInteger64(f, o->fix[F_BSUB], w->bsub[x->b]);
        else
            OGR_F_SetFieldNull(f, o->fix[F_BSUB]);
    }
    if (o->fix[F_KIND] >= 0)
        OGR_F_SetFieldString(f, o->fix[F_KIND], xg_kind_name(x->kind, w->dim));
}

int xgo__contact_attrs(const struct xgo_write *w, const struct xgo_out *o,
                       OGRFeatureH f, const struct xg_contact *x, char *err,
                       size_t errlen)
{
    int rc = XG_OK, k;
    OGRGeometryH g;

    if (!o->amap && !(o->bmap && x->b != UINT32_MAX))
        return XG_OK;
    /* OGR_F_SetFromWithMap copies the source's geometry too: keep ours */
    g = OGR_F_StealGeometry(f);
    /* A's then B's, one fetched at a time: w->attrs may reuse its
     * feature */
    for (k = 0; rc == XG_OK && k < 2; k++) {
        int *map = k ? o->bmap : o->amap;
        OGRFeatureH src;
        if (!map || (k && x->b == UINT32_MAX))
            continue;
        if ((src = attrs_of(w, k, k ? x->b : x->a, err, errlen)))
            OGR_F_SetFromWithMap(f, src, TRUE, map);
        else
            rc = XG_EIO;
    }
    OGR_F_SetGeometryDirectly(f, g);
    return rc;
}

OGRGeometryH xgo__stretch_geometry(int dim, const double *p, const double *q)
{
    OGRGeometryH g = OGR_G_CreateGeometry(dim == 3 ? wkbLineString25D
                                                   : wkbLineString);
    double v[6] = {p[0], p[1], dim == 3 ? p[2] : 0, q[0], q[1],
                   dim == 3 ? q[2] : 0};
    /* both points in one call: one allocation, not one per point */
    OGR_G_SetPoints(g, 2, v, 3 * sizeof *v, v + 1, 3 * sizeof *v,
                    dim == 3 ? v + 2 : NULL, 3 * sizeof *v);
    return g;
}

/* Contact x as a feature on defn (o's layer's) without the copied
 * attributes: the ids and kind, and the geometry (a point, or the
 * stretch p..q of an overlap).  Touches no input layer, so any thread
 * may call it; the caller owns the result. */
static OGRFeatureH contact_base(const struct xgo_write *w,
                                const struct xgo_out *o, OGRFeatureDefnH defn,
                                const struct xg_contact *x)
{
    OGRFeatureH f = OGR_F_Create(defn);
    OGRGeometryH g;

    xgo__contact_ids(w, o, f, x);
    if (x->kind == XG_KIND_OVERLAP) {
        g = xgo__stretch_geometry(w->dim, x->p, x->q);
    } else {
        g = OGR_G_CreateGeometry(w->dim == 3 ? wkbPoint25D : wkbPoint);
        if (w->dim == 3)
            OGR_G_SetPoint(g, 0, x->p[0], x->p[1], x->p[2]);
        else
            OGR_G_SetPoint_2D(g, 0, x->p[0], x->p[1]);
    }
    OGR_F_SetGeometryDirectly(f, g);
    return f;
}

OGRFeatureH xgo__contact_feature(const struct xgo_write *w,
                                 const struct xgo_out *o,
                                 OGRFeatureDefnH defn,
                                 const struct xg_contact *x, char *err,
                                 size_t errlen)
{
    OGRFeatureH f = contact_base(w, o, defn, x);

    if (xgo__contact_attrs(w, o, f, x, err, errlen) != XG_OK) {
        OGR_F_Destroy(f);
        return NULL;
    }
    return f;
}

/* The writer's pipeline (xgo__batch_write) over the contacts: its
 * layers, their definitions, whether overlaps go to the lines layer. */
struct pipe_arg {
    struct ctx *c;
    struct xgo_out *pts, *lines;
    OGRFeatureDefnH dpts, dlines;
    int split;
};

/* The layer record i goes to. */
static struct xgo_out *out_of(const struct pipe_arg *a, size_t i)
{
    return a->split && a->c->w->c->v[i].kind == XG_KIND_OVERLAP ? a->lines
                                                                : a->pts;
}

/* xgo_batch.make: contact i without its copied attributes (any
 * thread). */
static OGRFeatureH make_contact(void *arg, size_t i)
{
    const struct pipe_arg *a = arg;
    const struct xgo_out *o = out_of(a, i);
    return contact_base(a->c->w, o, o == a->lines ? a->dlines : a->dpts,
                        &a->c->w->c->v[i]);
}

/* xgo_batch.put: the copied attributes of contact i into f, then f
 * written as one feature of its layer; XG_OK, or XG_EIO naming its A
 * and B features.  f stays the pipeline's (xgo_batch.put). */
static int put_contact(void *arg, size_t i, OGRFeatureH f, char *err,
                       size_t errlen)
{
    const struct pipe_arg *a = arg;
    const struct xgo_write *w = a->c->w;
    const struct xg_contact *x = &w->c->v[i];
    struct xgo_out *o = out_of(a, i);
    int rc = XG_OK, has_b = x->b != UINT32_MAX;

    if (!f)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    if (xgo__contact_attrs(w, o, f, x, err, errlen) != XG_OK)
        return XG_EIO;
    CPLErrorReset();
    if (OGR_L_CreateFeature(o->lyr, f) != OGRERR_NONE) {
        char bpart[64] = " (in no B feature)";
        if (has_b)
            snprintf(bpart, sizeof bpart, " and B feature %lld",
                     (long long)w->bfid[x->b]);
        rc = xgo__fail(err, errlen, XG_EIO,
                       "%s, layer '%s': cannot write the contact of A "
                       "feature %lld%s: %s", GDALGetDescription(w->dst),
                       OGR_L_GetName(o->lyr), (long long)w->aset->fid[x->a],
                       bpart, xgo__gdal_msg("driver error"));
    }
    return rc;
}

/* Frees o's field maps; its layer is the dataset's.  o may be freed
 * twice (the maps are left NULL). */
void xgo__out_free(struct xgo_out *o)
{
    free(o->amap);
    free(o->bmap);
    o->amap = o->bmap = NULL;
}

int xgo__write_step(const struct xgo_job *job, GDALDatasetH dst, size_t i,
                    size_t n, uint64_t *written, GDALProgressFunc pf,
                    void *pa, char *err, size_t errlen)
{
    ++*written;
    if (job->fail_after > 0 && *written >= (uint64_t)job->fail_after)
        return xgo__fail(err, errlen, XG_EIO,
                         "%s: failure injected after %llu features "
                         "(testing)", GDALGetDescription(dst),
                         (unsigned long long)*written);
    if (pf && (i & 4095) == 4095 &&
        !pf((double)(i + 1) / (double)n, NULL, pa))
        return xgo__fail(err, errlen, XG_ECANCEL, "cancelled");
    return XG_OK;
}

/* The end of a writer's transaction (tx: one was started): commits when
 * rc is XG_OK, else rolls back; returns rc, or XG_EIO when the commit
 * failed. */
static int write_end(GDALDatasetH dst, int tx, int rc, char *err,
                     size_t errlen)
{
    if (!tx)
        return rc;
    if (rc == XG_OK && GDALDatasetCommitTransaction(dst) != OGRERR_NONE)
        return xgo__fail(err, errlen, XG_EIO, "%s: commit failed: %s",
                         GDALGetDescription(dst),
                         xgo__gdal_msg("driver error"));
    if (rc != XG_OK)
        GDALDatasetRollbackTransaction(dst);
    return rc;
}

/* Removes lyr from dst when this run created it (after a failure where
 * no transaction took it back). */
static void layer_drop(GDALDatasetH dst, OGRLayerH lyr, int created)
{
    int i, n;
    if (!created || !lyr)
        return;
    n = GDALDatasetGetLayerCount(dst);
    for (i = 0; i < n; i++)
        if (GDALDatasetGetLayer(dst, i) == lyr) {
            GDALDatasetDeleteLayer(dst, i);
            return;
        }
}

/* Contract in xgo_internal.h: one close for the three writers (contacts,
 * lines, triangles). */
int xgo__write_close(GDALDatasetH dst, int tx, int rc, const OGRLayerH *lyr,
                     const int *created, int nlyr, GDALProgressFunc pf,
                     void *pa, char *err, size_t errlen)
{
    int i;
    rc = write_end(dst, tx, rc, err, errlen);
    /* a rolled-back transaction took the new layers with it */
    if (rc != XG_OK && !tx)
        for (i = 0; i < nlyr; i++)
            layer_drop(dst, lyr[i], created[i]);
    if (rc == XG_OK && pf)
        pf(1.0, NULL, pa);
    return rc;
}

int xgo__write(const struct xgo_write *w, struct xgo_report *rep,
               GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    struct ctx c;
    GDALDriverH drv = GDALGetDatasetDriver(w->dst);
    int split = drv && EQUAL(GDALGetDriverShortName(drv), "ESRI Shapefile");
    struct xgo_out pts = {0}, lines = {0};
    OGRLayerH lyr[2];
    int created[2];
    size_t i, nlines = 0;
    int rc, tx;

    ctx_init(&c, w, err, errlen);
    for (i = 0; i < w->c->n; i++)
        nlines += w->c->v[i].kind == XG_KIND_OVERLAP;
    rep->lines_layer[0] = '\0';
    tx = GDALDatasetStartTransaction(w->dst, FALSE) == OGRERR_NONE;
    rc = xgo__out_open(w, &pts, w->layer_name, xgo__contact_type(w, split),
                       err, errlen);
    /* the name the driver gave (a single-file Shapefile: its file's) */
    if (rc == XG_OK)
        snprintf(rep->layer, sizeof rep->layer, "%s", OGR_L_GetName(pts.lyr));
    if (rc == XG_OK && split && nlines) {
        snprintf(rep->lines_layer, sizeof rep->lines_layer, "%s_lines",
                 OGR_L_GetName(pts.lyr));
        /* same options, same fields: its warnings (laundered field names,
         * unknown options) were given for the first layer already; a
         * failure is still reported, with GDAL's message, by fail() */
        CPLPushErrorHandler(CPLQuietErrorHandler);
        rc = xgo__out_open(w, &lines, rep->lines_layer,
                           w->dim == 3 ? wkbLineString25D : wkbLineString,
                           err, errlen);
        CPLPopErrorHandler();
    }
    if (rc == XG_OK) {
        struct pipe_arg a = {&c, &pts, &lines, OGR_L_GetLayerDefn(pts.lyr),
                             lines.lyr ? OGR_L_GetLayerDefn(lines.lyr) : NULL,
                             split};
        struct xgo_batch b = {w->c->n, make_contact, put_contact, &a, NULL};
        /* one layer, no copied attributes (fetched on the writer's
         * thread): the direct writer may take it */
        struct xgo_batch_run r = {w->job, w->dst, &rep->written, pf, pa,
                                  split || pts.amap || pts.bmap ? NULL
                                                                : pts.lyr,
                                  &tx};
        rc = xgo__batch_write(&b, &r, err, errlen);
    }
    lyr[0] = lines.lyr;
    lyr[1] = pts.lyr;
    created[0] = lines.created;
    created[1] = pts.created;
    rc = xgo__write_close(w->dst, tx, rc, lyr, created, 2, pf, pa, err, errlen);
    xgo__out_free(&pts);
    xgo__out_free(&lines);
    return rc;
}
