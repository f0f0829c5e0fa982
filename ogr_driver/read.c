/*
 * read.c -- OGR geometries to the core's arrays.
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
 * One reader per element kind and dimension (the table `readers` below):
 * an operation's inputs find theirs through their element kinds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include "xgo_internal.h"

struct reader {
    struct xgo_src *s;
    const struct xgo_job *job;
    int dim;                  /* 3: Z required; 2: z set to 0, unless
                                 keep_z */
    int keep_z;               /* 2D, but a Z there is kept (and noted in
                                 rep->has_z) */
    int zkind;                /* keep_z: -1 before the first point, then
                                 whether it had Z (1) or not (0): every
                                 other point must be the same */
    GIntBig zfid;             /* the feature of that first point */
    GIntBig fid;
    int64_t sub;              /* next element index within the feature */
    size_t vtx;               /* vertices seen in the feature */
    int input;                /* 0: A, 1: B */
    int closed;               /* each feature must be a closed surface
                                 (with groups: each group) */
    struct xgo_groups *groups; /* -bgroup: the features by group, else
                                 NULL */
    int quiet;                /* no warnings: the job's */
    struct xg_set *set;       /* the elements read */
    struct xgo_report *rep;
    double *buf;              /* points of one curve, xyz */
    size_t bufcap;
    double *poly;             /* vertices of one polygon, xyz */
    size_t *ring;             /* ring starts */
    size_t polycap, ringcap;
    char *err;
    size_t errlen;
};

typedef int (*geom_fn)(struct reader *r, OGRGeometryH g);

#define FAIL(r, code, ...)                                                 \
    xgo__fail((r)->err, (r)->errlen, (code), __VA_ARGS__)

static int bad(struct reader *r, const char *what)
{
    return FAIL(r, XG_EFORMAT, "%s, layer '%s', feature %lld: %s",
                r->s->path, r->s->name, (long long)r->fid, what);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    size_t c = *cap ? *cap : 64;
    void *q;
    if (need <= *cap)
        return 0;
    while (c < need)
        c *= 2;
    q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* The axis (0: x, 1: y) of a NaN that an empty Point of g hides, or -1.
 * OGR marks a point empty as soon as its x or y is NaN (OGRPoint::setX,
 * setY) and keeps the coordinates, so that a CSV's or VRT's "nan" comes
 * as POINT EMPTY.  WKB and GeoPackage store an empty point as x and y
 * both NaN (a POINT EMPTY from WKT holds zeros): a NaN beside a number
 * is a NaN coordinate, not an empty point.  Collections are searched
 * part by part. */
static int hidden_nan(OGRGeometryH g)
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
        int axis = hidden_nan(OGR_G_GetGeometryRef(g, i));
        if (axis >= 0)
            return axis;
    }
    return -1;
}

/* Whether g is an empty Point stored as NaN coordinates (see
 * hidden_nan), for the warning that skips it. */
static int nan_empty_point(OGRGeometryH g)
{
    return g && wkbFlatten(OGR_G_GetGeometryType(g)) == wkbPoint &&
           OGR_G_IsEmpty(g) && isnan(OGR_G_GetX(g, 0));
}

/* The error for vertex vtx of feature fid of s, a coordinate on axis
 * that is NaN (k 0..2) or infinite: the one message of both, wherever
 * it is found. */
static int nonfinite(const struct xgo_src *s, GIntBig fid, size_t vtx,
                     int axis, int nan, char *err, size_t errlen)
{
    return xgo__fail(err, errlen, XG_EFORMAT, "%s, layer '%s', feature "
                     "%lld: vertex %zu: %c coordinate is %s", s->path,
                     s->name, (long long)fid, vtx, "xyz"[axis],
                     nan ? "NaN" : "infinite");
}

/* The vertices of a curve into r->buf, checked finite.  *n receives the
 * count. */
static int points(struct reader *r, OGRGeometryH g, size_t *n)
{
    int np = OGR_G_GetPointCount(g);
    size_t i;
    if (np < 0)
        np = 0;
    if (grow((void **)&r->buf, &r->bufcap, 3 * (size_t)np + 3,
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
                return nonfinite(r->s, r->fid, r->vtx + i, k, isnan(p[k]),
                                 r->err, r->errlen);
    }
    r->vtx += (size_t)np;
    *n = (size_t)np;
    return XG_OK;
}

static int need_z(struct reader *r, OGRGeometryH g)
{
    if (r->dim == 3 && !OGR_G_Is3D(g))
    {
        char what[128];
        snprintf(what, sizeof what, "geometry has no Z; %s needs 3D input",
                 r->job->op->name);
        return bad(r, what);
    }
    return XG_OK;
}

static int wrong_type(struct reader *r, OGRGeometryH g, const char *expected)
{
    char what[256];
    snprintf(what, sizeof what, "geometry is %s; expected %s",
             OGRGeometryTypeToName(OGR_G_GetGeometryType(g)), expected);
    return bad(r, what);
}

/* Segments of a curve; close it when `ring` and not closed already. */
static int line_segs(struct reader *r, OGRGeometryH g, int ring)
{
    size_t n, i;
    int rc = points(r, g, &n);
    if (rc)
        return rc;
    if (ring && n > 1 && memcmp(r->buf, r->buf + 3 * (n - 1),
                                3 * sizeof(double)) != 0) {
        memcpy(r->buf + 3 * n, r->buf, 3 * sizeof(double));
        n++;
    }
    for (i = 0; i + 1 < n; i++)
        if (xg_set_push_segment(r->set, r->buf + 3 * i, r->buf + 3 * i + 3, r->fid,
                         r->sub++))
            return FAIL(r, XG_ELIMIT, "%s: too many segments (limit %u)",
                        r->s->path, (unsigned)UINT32_MAX);
    return XG_OK;
}

static int segs3d_geom(struct reader *r, OGRGeometryH g)
{
    static const char expected[] = "LineString or MultiLineString with Z";
    int rc = need_z(r, g), i, n;
    if (rc)
        return rc;
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbLineString:
        return line_segs(r, g, 0);
    case wkbMultiLineString:
        n = OGR_G_GetGeometryCount(g);
        for (i = 0; i < n && !rc; i++)
            rc = line_segs(r, OGR_G_GetGeometryRef(g, i), 0);
        return rc;
    default:
        return wrong_type(r, g, expected);
    }
}

static int segs2d_geom(struct reader *r, OGRGeometryH g)
{
    int rc = XG_OK, i, n = OGR_G_GetGeometryCount(g);
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbLineString:
        return line_segs(r, g, 0);
    case wkbPolygon:
    case wkbTriangle:
        for (i = 0; i < n && !rc; i++)
            rc = line_segs(r, OGR_G_GetGeometryRef(g, i), 1);
        return rc;
    case wkbMultiLineString:
    case wkbMultiPolygon:
    case wkbTIN:
    case wkbPolyhedralSurface:
        for (i = 0; i < n && !rc; i++)
            rc = segs2d_geom(r, OGR_G_GetGeometryRef(g, i));
        return rc;
    default:
        return wrong_type(r, g, "a line or polygon geometry");
    }
}

/* A point, sub = its index in the MultiPoint (0 for a Point). */
static int point(struct reader *r, OGRGeometryH g, int64_t sub)
{
    size_t n;
    int rc = points(r, g, &n), axis;
    if (rc == XG_OK && n == 0 && (axis = hidden_nan(g)) >= 0)
        return nonfinite(r->s, r->fid, r->vtx, axis, 1, r->err, r->errlen);
    if (rc || n == 0)         /* an empty point in a MultiPoint: nothing */
        return rc;
    if (xg_set_push_point(r->set, r->buf, r->fid, sub))
        return FAIL(r, XG_ELIMIT, "%s: too many points (limit %u)",
                    r->s->path, (unsigned)UINT32_MAX);
    return XG_OK;
}

static int points3d_geom(struct reader *r, OGRGeometryH g)
{
    int rc = need_z(r, g), i, n;
    if (rc)
        return rc;
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbPoint:
        return point(r, g, 0);
    case wkbMultiPoint:
        n = OGR_G_GetGeometryCount(g);
        for (i = 0; i < n && !rc; i++)
            rc = point(r, OGR_G_GetGeometryRef(g, i), i);
        return rc;
    default:
        return wrong_type(r, g, "Point or MultiPoint with Z");
    }
}

/* Points of the plane with their z, where a layer mixes points with Z
 * and points without: refused, naming the first point of the other kind
 * than the layer's first point (it is found as soon as it is read, and
 * the message names both).  A z of 0 for the points without Z would put
 * them at sea level: a spike in a TIN of a terrain. */
static int z_mix(struct reader *r, OGRGeometryH g)
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
    return bad(r, what);
}

/* Points of the plane: z kept where the geometry has Z (0 without: then
 * no point of the layer has one, z_mix). */
static int points2d_geom(struct reader *r, OGRGeometryH g)
{
    int rc = z_mix(r, g), i, n;
    if (rc)
        return rc;
    if (OGR_G_Is3D(g))
        r->rep->has_z = 1;
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbPoint:
        return point(r, g, 0);
    case wkbMultiPoint:
        n = OGR_G_GetGeometryCount(g);
        for (i = 0; i < n && !rc; i++)
            rc = point(r, OGR_G_GetGeometryRef(g, i), i);
        return rc;
    default:
        return wrong_type(r, g, "Point or MultiPoint");
    }
}

static int push_tri(struct reader *r, const double *a, const double *b,
                    const double *c)
{
    if (xg_set_push_triangle(r->set, a, b, c, r->fid, r->sub++))
        return FAIL(r, XG_ELIMIT, "%s: too many triangles (limit %u)",
                    r->s->path, (unsigned)UINT32_MAX);
    return XG_OK;
}

/* Polygon `part` of the feature: as it is when a triangle, else through
 * xg_triangulate.  A non-planar or degenerate polygon is skipped with a
 * warning. */
static int polygon(struct reader *r, OGRGeometryH g, int part)
{
    int nr = OGR_G_GetGeometryCount(g), i, rc;
    size_t total = 0, n, j, k, ntri = 0;
    uint32_t *tri = NULL;
    struct xg_counters cnt = {0};
    const char *why = NULL;

    if (nr <= 0)
        return XG_OK;
    if (grow((void **)&r->ring, &r->ringcap, (size_t)nr + 1, sizeof(size_t)))
        return FAIL(r, XG_ENOMEM, "out of memory");
    for (i = 0; i < nr; i++) {
        if ((rc = points(r, OGR_G_GetGeometryRef(g, i), &n)))
            return rc;
        /* the closing vertex is not repeated for xg_triangulate */
        if (n > 1 && memcmp(r->buf, r->buf + 3 * (n - 1),
                            3 * sizeof(double)) == 0)
            n--;
        if (nr == 1 && n == 3)    /* a triangle: taken as it is */
            return push_tri(r, r->buf, r->buf + 3, r->buf + 6);
        if (grow((void **)&r->poly, &r->polycap, 3 * (total + n),
                 sizeof(double)))
            return FAIL(r, XG_ENOMEM, "out of memory");
        /* repeated consecutive vertices change nothing: drop them */
        r->ring[i] = total;
        for (j = 0; j < n; j++) {
            const double *p = r->buf + 3 * j;
            if (total > r->ring[i] &&
                memcmp(p, r->poly + 3 * (total - 1), 3 * sizeof(double)) == 0)
                continue;
            memcpy(r->poly + 3 * total++, p, 3 * sizeof(double));
        }
        while (total - r->ring[i] > 1 &&
               memcmp(r->poly + 3 * r->ring[i], r->poly + 3 * (total - 1),
                      3 * sizeof(double)) == 0)
            total--;
        if (total - r->ring[i] < 3)
            why = "has a ring of fewer than three distinct vertices";
    }
    r->ring[nr] = total;
    if (!why) {
        rc = xg_triangulate(&cnt, r->poly, r->ring, (size_t)nr, &tri, &ntri);
        if (rc == XG_ENOMEM)
            return FAIL(r, XG_ENOMEM, "out of memory");
        if (rc == XG_ENONPLANAR) {
            why = "is not planar";
            r->rep->nonplanar++;
        } else if (rc != XG_OK) {
            why = "is degenerate or not a valid polygon (rings crossing, "
                  "overlapping, nested or cutting the interior)";
        }
    }
    if (why) {
        if (rc != XG_ENONPLANAR)
            r->rep->bad_polygons++;
        xgo__warn(r->quiet,
                  "%s, layer '%s', feature %lld: polygon %d %s; skipped",
                  r->s->path, r->s->name, (long long)r->fid, part, why);
        return XG_OK;
    }
    r->rep->triangulated++;
    rc = XG_OK;
    for (k = 0; k < ntri && !rc; k++)
        rc = push_tri(r, r->poly + 3 * (size_t)tri[3 * k],
                      r->poly + 3 * (size_t)tri[3 * k + 1],
                      r->poly + 3 * (size_t)tri[3 * k + 2]);
    free(tri);
    return rc;
}

static int triangle(struct reader *r, OGRGeometryH g)
{
    size_t n;
    int rc;
    if (OGR_G_GetGeometryCount(g) < 1)
        return XG_OK;
    if ((rc = points(r, OGR_G_GetGeometryRef(g, 0), &n)))
        return rc;
    if (n < 3)
        return bad(r, "triangle with fewer than three vertices");
    return push_tri(r, r->buf, r->buf + 3, r->buf + 6);
}

static int tris_part(struct reader *r, OGRGeometryH g, int part)
{
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbTriangle:
        return triangle(r, g);
    case wkbPolygon:
        return polygon(r, g, part);
    default:
        return wrong_type(r, g, "Polygon or Triangle parts");
    }
}

static int tris_geom(struct reader *r, OGRGeometryH g)
{
    int rc = need_z(r, g), i, n;
    if (rc)
        return rc;
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbTriangle:
    case wkbPolygon:
        return tris_part(r, g, 0);
    case wkbMultiPolygon:
    case wkbTIN:
    case wkbPolyhedralSurface:
        n = OGR_G_GetGeometryCount(g);
        for (i = 0; i < n && !rc; i++)
            rc = tris_part(r, OGR_G_GetGeometryRef(g, i), i);
        return rc;
    default:
        return wrong_type(r, g, "Polygon, MultiPolygon, Triangle, TIN or "
                                "PolyhedralSurface with Z");
    }
}

/* The n triangles at tri, of `who` ("feature 3", or a group of
 * -bgroup), are not a solid, for the reason what: an error naming it,
 * or with -skip-invalid a warning, *drop set and *count counted. */
static int not_solid(struct reader *r, const char *who, const char *what,
                     uint64_t *count, int *drop)
{
    if (!r->job->skip_invalid)
        return FAIL(r, XG_EFORMAT, "%s, layer '%s', %s: %s", r->s->path,
                    r->s->name, who, what);
    xgo__warn(r->quiet, "%s, layer '%s', %s: %s; skipped", r->s->path,
              r->s->name, who, what);
    *drop = 1;
    r->s->invalid++;
    (*count)++;
    return XG_OK;
}

/* The closed surface of the n triangles at tri must not cross itself
 * (xg_self_crossing; unless the user vouches for it, --solids-checked):
 * not_solid naming a crossing pair of its triangles, by sub (their
 * b_tri), or by their index among the n where sub is NULL (a group's
 * triangles are numbered so). */
static int crossing_check(struct reader *r, const double *tri, size_t n,
                          const int64_t *sub, const char *who, int *drop)
{
    struct xg_ctx *ctx;
    size_t pair[2];
    int found = 0, rc;
    char what[256];
    /* a region reads only what the plan's pass has read and checked
     * already (mpi/plan.c) */
    if (r->job->opts.solids_checked || r->s->next)
        return XG_OK;
    if (!(ctx = xg_ctx_new()))
        return FAIL(r, XG_ENOMEM, "out of memory");
    xg_ctx_set_threads(ctx, r->job->threads);
    rc = xg_self_crossing(ctx, tri, n, pair, &found);
    xg_ctx_free(ctx);
    if (rc != XG_OK)
        return FAIL(r, rc, "out of memory");
    if (!found)
        return XG_OK;
    snprintf(what, sizeof what, "surface crosses itself: its triangles "
             "%lld and %lld meet other than at an edge or a vertex they "
             "share (give parts that overlap as separate features)",
             (long long)(sub ? sub[pair[0]] : (int64_t)pair[0]),
             (long long)(sub ? sub[pair[1]] : (int64_t)pair[1]));
    return not_solid(r, who, what, &r->rep->crossing, drop);
}

/* Whether the n triangles at tri (b_tri numbers at sub, or NULL: their
 * index), of `who`, form a closed surface that does not cross itself:
 * XG_OK; else an error naming it, or with -skip-invalid a warning and
 * *drop set (counted).  A wireframe's lone triangles (one or two per
 * feature, a polygon of a 3DFACE) get a hint: group them with -bgroup
 * (bgroup= in a connection string). */
static int surface_closed(struct reader *r, const double *tri, size_t n,
                          const int64_t *sub, const char *who, int *drop)
{
    const struct xgo_input *in = r->input ? &r->job->b : &r->job->a;
    int tool = !in->layer_opt || in->layer_opt[0] == '-';
    uint64_t open = 0;
    char what[512];
    *drop = 0;
    if (n == 0)
        return XG_OK;
    if (xg_open_edges(tri, n, &open) != XG_OK)
        return FAIL(r, XG_ENOMEM, "out of memory");
    if (open == 0)
        return crossing_check(r, tri, n, sub, who, drop);
    snprintf(what, sizeof what, "surface is not closed: %llu open edge%s "
             "(edges used by an odd number of its triangles)%s%s%s",
             (unsigned long long)open, open == 1 ? "" : "s",
             n <= 2 && !in->group ? "; a wireframe of one triangle per "
                                    "feature? group them into solids by a "
                                    "field: " : "",
             n <= 2 && !in->group ? (tool ? "-bgroup " : "bgroup=") : "",
             n <= 2 && !in->group ? "FIELD" : "");
    return not_solid(r, who, what, &r->rep->not_closed, drop);
}

/* The feature just read (elements first .. set->n - 1) must be a
 * closed surface (surface_closed); dropped when -skip-invalid skips it.
 * A feature whose polygons were skipped (not planar, degenerate) is
 * usually open and ends here too. */
static int closed_check(struct reader *r, size_t first)
{
    struct xg_set *set = r->set;
    char who[64];
    int drop, rc;
    snprintf(who, sizeof who, "feature %lld", (long long)r->fid);
    rc = surface_closed(r, set->xyz + 9 * first, set->n - first,
                        set->sub + first, who, &drop);
    if (rc == XG_OK && drop)
        set->n = first;
    return rc;
}

/* A group of -bgroup must be a closed surface (xgo_group_check). */
static int group_closed(void *arg, const double *tri, size_t n,
                        const char *key, GIntBig fid, size_t nfeat,
                        int *drop)
{
    struct reader *r = arg;
    const struct xgo_input *in = r->input ? &r->job->b : &r->job->a;
    char who[512];
    snprintf(who, sizeof who, "group %s = '%s' (%zu feature%s, the lowest "
             "FID %lld)", in->group, key, nfeat, nfeat == 1 ? "" : "s",
             (long long)fid);
    return surface_closed(r, tri, n, NULL, who, drop);
}

/* Keeps the attributes of f (its geometry dropped) for copying. */
static int keep(struct reader *r, OGRFeatureH f, size_t first)
{
    struct xgo_src *s = r->s;
    if (s->nfeat == s->cap) {
        size_t c = s->cap ? 2 * s->cap : 256;
        OGRFeatureH *nf = realloc(s->feat, c * sizeof *nf);
        size_t *nfirst;
        if (!nf)
            return FAIL(r, XG_ENOMEM, "out of memory");
        s->feat = nf;
        nfirst = realloc(s->first, c * sizeof *nfirst);
        if (!nfirst)
            return FAIL(r, XG_ENOMEM, "out of memory");
        s->first = nfirst;
        s->cap = c;
    }
    OGR_F_SetGeometryDirectly(f, NULL);
    s->feat[s->nfeat] = f;
    s->first[s->nfeat++] = first;
    return XG_OK;
}

/* One feature with a geometry into r->set. */
static int feature(struct reader *r, geom_fn fn, OGRGeometryH g)
{
    size_t first = r->set->n;
    int rc;
    if ((rc = fn(r, g)) == XG_OK && r->set->n == first)
        r->s->barren++;
    else if (rc == XG_OK && r->closed && !r->groups)
        rc = closed_check(r, first);
    r->s->nread++;
    return rc;
}

/* Feature fid of s, whose geometry g is NULL or empty: skipped with a
 * warning and counted (s->nread, s->nogeom, rep->null_geoms), unless an
 * empty point hides a NaN coordinate (hidden_nan), which is refused as
 * the reader refuses any NaN. */
static int nogeom(struct xgo_src *s, const struct xgo_job *job,
                  struct xgo_report *rep, GIntBig fid, OGRGeometryH g,
                  char *err, size_t errlen)
{
    int axis = g ? hidden_nan(g) : -1;
    if (axis >= 0)
        return nonfinite(s, fid, 0, axis, 1, err, errlen);
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

/* The field of layer defn d named as one of names (any case), or NULL. */
static const char *field_like(OGRFeatureDefnH d, const char *const *names)
{
    int i, k, n = OGR_FD_GetFieldCount(d);
    for (k = 0; names[k]; k++)
        for (i = 0; i < n; i++) {
            const char *f = OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(d, i));
            if (EQUAL(f, names[k]))
                return f;
        }
    return NULL;
}

/* For a layer without geometry read by the CSV driver, the open options
 * that give it one, as "; for a CSV of coordinates, open it with -oo
 * X_POSSIBLE_NAMES=x ..." in the front end's spelling (the tool's -oo,
 * -aoo, -boo; a connection string's aoo=, boo=: told by layer_opt, "-al"
 * or "al"); "" for other drivers.  Points come from coordinate columns
 * (their own names where they look like coordinates, else x, y, z),
 * lines and surfaces from a column of WKT. */
static void csv_hint(const struct reader *r, char *buf, size_t len)
{
    static const char *const xs[] = {"x", "easting", "east", "lon",
                                     "long", "longitude", "lng", NULL};
    static const char *const ys[] = {"y", "northing", "north", "lat",
                                     "latitude", NULL};
    static const char *const zs[] = {"z", "elevation", "elev", "height",
                                     "rl", "altitude", "alt", NULL};
    static const char *const gs[] = {"wkt", "geom", "geometry", "the_geom",
                                     "shape", NULL};
    const struct xgo_input *in = r->input ? &r->job->b : &r->job->a;
    const char *opt = in->layer_opt ? in->layer_opt : "-al";
    int tool = opt[0] == '-', k, n;
    GDALDriverH drv = GDALGetDatasetDriver(r->s->ds);
    OGRFeatureDefnH d = OGR_L_GetLayerDefn(r->s->lyr);
    const char *col[3], *what[3], *key;
    char name[8];
    size_t at;
    buf[0] = '\0';
    if (!drv || !EQUAL(GDALGetDriverShortName(drv), "CSV"))
        return;
    if (r->job->op->in[r->input].elem == XG_ELEM_POINT) {
        col[0] = field_like(d, xs);
        col[1] = field_like(d, ys);
        col[2] = field_like(d, zs);
        if (!col[0] || !col[1])
            col[0] = "x", col[1] = "y", col[2] = "z";
        what[0] = "X_POSSIBLE_NAMES", what[1] = "Y_POSSIBLE_NAMES";
        what[2] = "Z_POSSIBLE_NAMES";
        n = col[2] ? 3 : 2;
    } else {
        col[0] = field_like(d, gs);
        if (!col[0])
            col[0] = "COLUMN";
        what[0] = "GEOM_POSSIBLE_NAMES";
        n = 1;
    }
    /* the tool's -oo is both inputs', enough when there is one */
    snprintf(name, sizeof name, "%s%coo", tool ? "-" : "",
             r->input ? 'b' : 'a');
    key = tool && r->job->op->ninputs == 1 ? "-oo" : name;
    at = (size_t)snprintf(buf, len, "; for a CSV of %s, open it with",
                          n > 1 ? "coordinates" : "WKT geometries");
    for (k = 0; k < n && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s=%s",
                               tool || k == 0 ? " " : ";", key,
                               tool ? " " : "=", what[k], col[k]);
}

static int read_all(struct reader *r, geom_fn fn, GDALProgressFunc pf,
                    void *pa)
{
    struct xgo_src *s = r->s;
    OGRwkbGeometryType lt = OGR_L_GetGeomType(s->lyr);
    GIntBig total = s->next ? 0 : OGR_L_GetFeatureCount(s->lyr, FALSE),
            ord = 0;
    OGRFeatureH f;
    int rc = XG_OK;

    if (lt == wkbNone) {
        char hint[512];
        csv_hint(r, hint, sizeof hint);
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
    while (rc == XG_OK &&
           (f = s->next ? s->next(s->next_arg, &rc, r->err, r->errlen)
                        : OGR_L_GetNextFeature(s->lyr)) != NULL) {
        OGRGeometryH g = OGR_F_GetGeometryRef(f);
        size_t first = r->set->n;
        r->fid = OGR_F_GetFID(f);
        if (r->fid == OGRNullFID && (s->visit || s->next))
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
            rc = nogeom(s, r->job, r->rep, r->fid, g, r->err, r->errlen);
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
        ord++;
        if (rc == XG_OK && pf && total > 0 && ord % 1024 == 0 &&
            !pf((double)ord / (double)total, NULL, pa))
            rc = FAIL(r, XG_ECANCEL, "cancelled");
    }
    if (rc == XG_OK && CPLGetLastErrorType() == CE_Failure)
        rc = FAIL(r, XG_EIO, "%s, layer '%s': reading failed after %lld "
                             "features: %s", s->path, s->name,
                  (long long)ord, CPLGetLastErrorMsg());
    if (rc == XG_OK && r->groups) {
        rc = xgo__group_finish(r->groups, s, r->set,
                               r->closed ? group_closed : NULL, r, r->err,
                               r->errlen);
        r->rep->b_groups += r->groups->ngroups;
    }
    if (rc == XG_OK && ord == 0 && !s->next) {
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
    return rc;
}

/* The readers, by element kind and dimension: what each takes (words for
 * front ends, xgo_input_geometry) and what a feature that gave no element
 * was (for "no usable ..." messages). */
static const struct {
    int elem, dim;
    int keep_z;               /* 2D, z kept where there is one */
    geom_fn fn;
    const char *geometry;
    const char *barren;
} readers[] = {
    {XG_ELEM_SEGMENT, 3, 0, segs3d_geom, "line", "of one vertex"},
    {XG_ELEM_SEGMENT, 2, 0, segs2d_geom, "line polygon", "of one vertex"},
    {XG_ELEM_TRIANGLE, 3, 0, tris_geom, "polygon",
     "with every polygon skipped"},
    {XG_ELEM_POINT, 3, 0, points3d_geom, "point", "of empty points only"},
    {XG_ELEM_POINT, 2, 1, points2d_geom, "point", "of empty points only"},
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

const char *xgo_input_geometry(const struct xg_op *op, int i)
{
    int k = reader_of(op, i);
    return k < 0 ? NULL : readers[k].geometry;
}

const char *xgo__read_barren(const struct xg_op *op, int i)
{
    int k = reader_of(op, i);
    return k < 0 ? "" : readers[k].barren;
}

int xgo__read(struct xgo_src *s, const struct xgo_job *job, int i,
              struct xg_set *out, struct xgo_report *rep,
              GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    struct reader r;
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
    rc = read_all(&r, readers[k].fn, pf, pa);
    xgo__cap_end(&cap);
    xgo__groups_free(&groups);
    return rc;
}

struct xg_opts xgo__core_opts(const struct xgo_job *job)
{
    struct xg_opts o = job->opts;
    int i;
    for (i = 0; i < job->op->ninputs; i++)
        if (job->op->in[i].closed)
            o.solids_checked = 1;
    return o;
}
