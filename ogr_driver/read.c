/*
 * read.c -- OGR geometries to the core's arrays: the read of one input
 * layer, feature by feature, with the reader of its element kind and
 * dimension (the table `readers` below: an operation's inputs find theirs
 * through their element kinds).
 *
 * A (segtri): LineString / MultiLineString with Z; each consecutive vertex
 * pair is a segment, numbered over the parts in order (zero-length ones
 * included: the core skips and counts them).
 * B (segtri): Triangle, Polygon, MultiPolygon, TIN, PolyhedralSurface with
 * Z; a triangle (or a polygon whose only ring has three vertices) is taken
 * as it is, larger planar polygons go through xg_triangulate; the
 * triangles of one feature are numbered over its parts in order.
 * redblue: lines and polygon rings, z ignored (set to 0).
 * inside: A, Point / MultiPoint with Z (sub: the point's index within its
 * MultiPoint, 0 for a Point); B, triangles as segtri's B, each feature
 * then checked to be a closed surface (xg_op_input.closed).
 * delaunay: Point / MultiPoint with or without Z (2D points whose z is
 * kept when there is one, 0 otherwise; the report notes whether any had
 * Z, so that the output carries it); sub as for inside's points.
 * The readers and the checks live in read_*.c (xgo_read.h lists them).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include "xgo_read.h"

/* Keeps the attributes of f (its geometry dropped) for copying, with
 * first, the index of its first element: s owns f from then on
 * (xgo__src_close destroys it), not when out of memory. */
static int keep(struct xgo_reader *r, OGRFeatureH f, size_t first)
{
    struct xgo_src *s = r->s;
    /* two arrays of one capacity: each grown from a copy of it, by the
     * one rule, so both reach the same; s->cap moves when both did (a
     * feat grown alone is only room to spare) */
    size_t cf = s->cap, cl = s->cap;
    if (xg__grow_array((void **)&s->feat, &cf, s->nfeat + 1,
                       sizeof *s->feat) ||
        xg__grow_array((void **)&s->first, &cl, s->nfeat + 1,
                       sizeof *s->first))
        return FAIL(r, XG_ENOMEM, "out of memory");
    assert(cf == cl);
    s->cap = cf;
    OGR_F_SetGeometryDirectly(f, NULL);
    s->feat[s->nfeat] = f;
    s->first[s->nfeat++] = first;
    return XG_OK;
}

/* One feature with a geometry g into r->set, through fn; counted
 * (s->nread, and s->barren when it gave no element) and, where the input
 * must be solids and is not grouped, checked closed (xgo__read_closed;
 * groups are checked whole at the end of the read). */
static int feature(struct xgo_reader *r, xgo_geom_fn fn, OGRGeometryH g)
{
    size_t first = r->set->n;
    int rc;
    if ((rc = fn(r, g)) == XG_OK && r->set->n == first)
        r->s->barren++;
    else if (rc == XG_OK && r->closed && !r->groups)
        rc = xgo__read_closed(r, first);
    r->s->nread++;
    return rc;
}

/* Feature f, the ord-th of the read (0-based: its id where the layer
 * has none), read as today's route reads every feature: checked,
 * counted, its attributes kept (s->ncopy), recorded by group (-bgroup)
 * and passed to s->visit (xgo_read.h).  Takes f (destroyed, or kept by
 * s). */
int xgo__read_one(struct xgo_reader *r, xgo_geom_fn fn, OGRFeatureH f,
                  GIntBig ord)
{
    struct xgo_src *s = r->s;
    OGRGeometryH g = OGR_F_GetGeometryRef(f);
    size_t first = r->set->n;
    int rc = XG_OK;
    r->fid = OGR_F_GetFID(f);
    if (r->fid == OGRNullFID && s->visit)
        rc = FAIL(r, XG_EFORMAT, "%s, layer '%s': a feature without "
                  "an id (FID): a run in regions names features by "
                  "their ids; convert the layer (ogr2ogr -f GPKG) "
                  "first", s->path, s->name);
    if (r->fid == OGRNullFID)
        r->fid = ord;
    r->sub = 0;
    r->vtx = 0;
    if (rc != XG_OK) {
    } else if (!g || OGR_G_IsEmpty(g)) {
        rc = xgo__read_nogeom(s, r->job, r->rep, r->fid, g, r->err,
                              r->errlen);
    } else {
        rc = feature(r, fn, g);
        if (rc == XG_OK && r->groups && r->set->n > first)
            rc = xgo__group_add(r->groups, s, f, r->fid, first,
                                r->set->n, s->nfeat, r->err, r->errlen);
    }
    if (rc == XG_OK && s->visit)
        rc = s->visit(s->visit_arg, r->fid, r->set, first, r->err,
                      r->errlen);
    if (rc == XG_OK && s->ncopy > 0)
        rc = keep(r, f, first);
    else
        OGR_F_Destroy(f);
    return rc;
}

/* The progress after ord features of total (xgo_read.h): told every
 * 1024 features; XG_ECANCEL when pf cancels. */
int xgo__read_progress(struct xgo_reader *r, GIntBig ord, GIntBig total,
                       GDALProgressFunc pf, void *pa)
{
    if (pf && total > 0 && ord % 1024 == 0 &&
        !pf((double)ord / (double)total, NULL, pa))
        return FAIL(r, XG_ECANCEL, "cancelled");
    return XG_OK;
}

/* Today's route: every feature of r->s from OGR_L_GetNextFeature,
 * through xgo__read_one; *ord receives the count of features read. */
static int read_features(struct xgo_reader *r, xgo_geom_fn fn,
                         GIntBig total, GIntBig *ord, GDALProgressFunc pf,
                         void *pa)
{
    struct xgo_src *s = r->s;
    OGRFeatureH f;
    int rc = XG_OK;
    while (rc == XG_OK &&
           (f = OGR_L_GetNextFeature(s->lyr)) != NULL) {
        rc = xgo__read_one(r, fn, f, *ord);
        ++*ord;
        if (rc == XG_OK)
            rc = xgo__read_progress(r, *ord, total, pf, pa);
    }
    if (rc == XG_OK && CPLGetLastErrorType() == CE_Failure)
        rc = FAIL(r, XG_EIO, "%s, layer '%s': reading failed after %lld "
                             "features: %s", s->path, s->name,
                  (long long)*ord, CPLGetLastErrorMsg());
    return rc;
}

/* Reads every feature of r->s (in the layer's order) into r->set through fn, the reader of the
 * input's element kind, or through wfn, its reader of WKB, on the Arrow
 * route where it applies (read_arrow.c; wfn NULL: none): each feature
 * checked and counted, its attributes kept (s->ncopy), recorded by group
 * (-bgroup) and passed to s->visit; then the groups finished and
 * checked, and a read of no feature refused.  pf (may be NULL) hears the
 * progress and may cancel.  Frees r's buffers; the elements stay in
 * r->set, the caller's. */
static int read_all(struct xgo_reader *r, xgo_geom_fn fn, xgo_wkb_fn wfn,
                    GDALProgressFunc pf, void *pa)
{
    struct xgo_src *s = r->s;
    OGRwkbGeometryType lt = OGR_L_GetGeomType(s->lyr);
    GIntBig total = xgo__src_count(s),
            ord = 0;
    int rc = XG_OK, declined = 1;

    if (lt == wkbNone) {
        char hint[512];
        xgo__read_csv_hint(r, hint, sizeof hint);
        return FAIL(r, XG_EFORMAT, "%s, layer '%s': has no geometry%s",
                    s->path, s->name, hint);
    }
    if (r->dim == 3 && lt != wkbUnknown && !OGR_GT_HasZ(lt))
        return FAIL(r, XG_EFORMAT,
                    "%s, layer '%s': geometry type %s has no Z; %s "
                    "needs 3D input", s->path, s->name,
                    OGRGeometryTypeToName(lt), r->job->op->name);
    OGR_L_ResetReading(s->lyr);
    CPLErrorReset();
    s->nread = 0;
    /* points, mostly one a feature: the set sized once to the count (no
     * copy as it grows, no slack; not for the plan of a run in regions,
     * which drops each feature's elements); a failure here is the push's
     * to say */
    if (total > 0 && !s->visit &&
        r->job->op->in[r->input].elem == XG_ELEM_POINT)
        (void)xg_set_reserve(r->set, XG_ELEM_POINT,
                             r->set->n + (size_t)total);
    if (wfn && xgo__read_arrow_fits(r))
        rc = xgo__read_arrow(r, fn, wfn, total, &ord, pf, pa, &declined);
    if (declined)
        rc = read_features(r, fn, total, &ord, pf, pa);
    if (rc == XG_OK && r->groups) {
        rc = xgo__group_finish(r->groups, s, r->set,
                               r->closed ? xgo__read_group_closed : NULL,
                               r, r->err, r->errlen);
        r->rep->b_groups += r->groups->ngroups;
    }
    if (rc == XG_OK && ord == 0) {
        char what[512];
        xgo__src_filters(s, what, sizeof what);
        if (*what)
            rc = FAIL(r, XG_EINVAL, "%s, layer '%s': no feature matches "
                                    "%s", s->path, s->name, what);
        else
            rc = FAIL(r, XG_EINVAL, "%s, layer '%s': layer is empty",
                      s->path, s->name);
    }
    if (rc == XG_OK && pf && !pf(1.0, NULL, pa))
        rc = FAIL(r, XG_ECANCEL, "cancelled");
    free(r->buf);
    free(r->poly);
    free(r->ring);
    free(r->wkb.part);
    free(r->wkb.curve);
    return rc;
}

/* The readers, by element kind and dimension: what each takes (words for
 * front ends, xgo_input_geometry) and what a feature that gave no element
 * was (for "no usable ..." messages). */
static const struct {
    int elem, dim;
    int keep_z;               /* 2D, z kept where there is one */
    xgo_geom_fn fn;
    xgo_wkb_fn wfn;           /* the same reader on WKB (the Arrow
                                 route), or NULL: none */
    const char *geometry;
    const char *barren;
} readers[] = {
    {XG_ELEM_SEGMENT, 3, 0, xgo__read_segs3d, xgo__read_segs3d_wkb, "line",
     "of one vertex"},
    {XG_ELEM_SEGMENT, 2, 0, xgo__read_segs2d, xgo__read_segs2d_wkb,
     "line polygon", "of one vertex"},
    {XG_ELEM_TRIANGLE, 3, 0, xgo__read_tris, xgo__read_tris_wkb, "polygon",
     "with every polygon skipped"},
    {XG_ELEM_POINT, 3, 0, xgo__read_points3d, xgo__read_points3d_wkb,
     "point", "of empty points only"},
    {XG_ELEM_POINT, 2, 1, xgo__read_points2d, xgo__read_points2d_wkb,
     "point", "of empty points only"},
};

/* The index in readers of input i's reader, or -1. */
static int reader_of(const struct xg_op *op, int i)
{
    size_t k;
    for (k = 0; op && k < sizeof readers / sizeof readers[0]; k++)
        if (readers[k].elem == op->in[i].elem && readers[k].dim == op->dim)
            return (int)k;
    return -1;
}

/* The geometries input i's reader takes, as words (xgo.h). */
const char *xgo_input_geometry(const struct xg_op *op, int i)
{
    int k = reader_of(op, i);
    return k < 0 ? NULL : readers[k].geometry;
}

/* What a feature of input i that gave no element was (xgo_internal.h). */
const char *xgo__read_barren(const struct xg_op *op, int i)
{
    int k = reader_of(op, i);
    return k < 0 ? "" : readers[k].barren;
}

/* Reads input i of job->op from s into out with its reader
 * (xgo_internal.h): the state of the read set up, GDAL's warnings capped
 * meanwhile, the groups freed after. */
int xgo__read(struct xgo_src *s, const struct xgo_job *job, int i,
              struct xg_set *out, struct xgo_report *rep,
              GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    struct xgo_reader r;
    struct xgo_cap cap;
    struct xgo_groups groups;
    int k = reader_of(job->op, i), rc;
    if (k < 0)
        return xgo__fail(err, errlen, XG_ENOTSUP, "%s: no reader for %s "
                         "input (%d-D %ss) in this build", job->op->name,
                         i == 0 ? "the A" : "the B", job->op->dim,
                         xg_elem_name(job->op->in[i].elem));
    memset(&r, 0, sizeof r);
    r.s = s;
    r.job = job;
    r.dim = readers[k].dim;
    r.keep_z = readers[k].keep_z;
    r.zkind = -1;
    r.rep = rep;
    r.err = err;
    r.errlen = errlen;
    r.set = out;
    r.input = i;
    r.closed = job->op->in[i].closed;
    r.quiet = job->quiet;
    memset(&groups, 0, sizeof groups);
    if ((i ? job->b.group : job->a.group) && s->group_idx >= 0) {
        groups.field = s->group_idx;
        r.groups = &groups;
    }
    xgo__cap_begin(&cap);
    rc = read_all(&r, readers[k].fn, readers[k].wfn, pf, pa);
    xgo__cap_end(&cap);
    xgo__groups_free(&groups);
    return rc;
}

/* The options the core runs with (xgo_internal.h): the job's, with
 * solids_checked where an input must be solids, which the reader has
 * checked. */
struct xg_opts xgo__core_opts(const struct xgo_job *job)
{
    struct xg_opts o = job->opts;
    int i;
    for (i = 0; i < job->op->ninputs; i++)
        if (job->op->in[i].closed)
            o.solids_checked = 1;
    return o;
}
