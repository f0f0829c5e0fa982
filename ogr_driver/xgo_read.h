/*
 * xgo_read.h -- shared by the reader's files (read*.c): the state of one
 * read and the steps the readers of every element kind share.
 *
 *   read.c         the read of one layer: feature by feature, the table
 *                  of readers by element kind, the attributes kept
 *   read_check.c   the checks of every geometry: finite coordinates, Z,
 *                  its type; features without geometry
 *   read_lines.c   segments: 3D lines, 2D lines and polygon rings
 *   read_points.c  points: 3D, and 2D keeping a Z where there is one
 *   read_tris.c    triangles: triangles taken as they are, polygons
 *                  triangulated
 *   read_solid.c   closed surfaces (inside's B): a feature's or a group's
 *   read_csv.c     the advice for a CSV layer without geometry
 *   read_arrow.c   the Arrow route: the layer's Arrow stream, the plain
 *                  features through the readers of WKB, the others
 *                  fetched by id and read as today's route reads them
 *   read_wkb.c     the steps of the readers of WKB: a bounds-checked
 *                  cursor over one blob, and the one checked parse of a
 *                  line's or a surface's blob (its parts and curves)
 */
#ifndef XGO_READ_H
#define XGO_READ_H

#include <stdint.h>
#include <stdlib.h>
#include "xg_grow.h" /* the readers' buffers grow by the house's rule */
#include "xgo_internal.h"

/* A WKB blob's geometry as the readers of lines and surfaces see it
 * (xgo__wkb_shape): its type and Z, its parts (the geometry its own one
 * part where it is no collection), each part's curves (a LineString's
 * one, a Polygon's or Triangle's rings), each curve's vertices where they
 * lie in the blob (2 or 3 doubles each, unaligned).  The reader's, grown
 * from blob to blob. */
struct xgo_wkb_curve {
    const unsigned char *p;
    uint32_t n;
};
struct xgo_wkb_part {
    uint32_t type;            /* 2 LineString, 3 Polygon, 17 Triangle */
    size_t first, n;          /* its curves: curve[first .. first+n-1] */
};
struct xgo_wkb_shape {
    uint32_t type;            /* the blob's: a part's, or 5 MultiLineString,
                                 6 MultiPolygon, 15 PolyhedralSurface,
                                 16 TIN */
    int z;
    struct xgo_wkb_part *part;
    struct xgo_wkb_curve *curve;
    size_t npart, partcap, ncurve, curvecap;
};

/* One read of one input layer (xgo__read): the job's settings, where the
 * elements go, and the current feature. */
struct xgo_reader {
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
    struct xgo_wkb_shape wkb; /* the blob read last (the Arrow route) */
    char *err;
    size_t errlen;
};

/* A reader of one element kind: the elements of geometry g (not NULL,
 * not empty) of the current feature into r->set, numbered from r->sub.
 * XG_OK, or an error code with r->err set. */
typedef int (*xgo_geom_fn)(struct xgo_reader *r, OGRGeometryH g);

/* A reader of one element kind on WKB (the Arrow route, read_arrow.c):
 * the elements of the current feature, whose geometry is the blob w of
 * len bytes, into r->set, numbered from 0, where w is a plain case the
 * reader takes as its xgo_geom_fn would (*taken = 1); anything else
 * (empty, not finite, another type or dimension, an encoding it does not
 * parse, a blob it does not understand to its last byte) leaves r as it
 * was with *taken = 0, for the xgo_geom_fn to read (and name) through
 * OGR.  XG_OK, or an error code with r->err set. */
typedef int (*xgo_wkb_fn)(struct xgo_reader *r, const unsigned char *w,
                          size_t len, int *taken);

#define FAIL(r, code, ...)                                                 \
    xgo__fail((r)->err, (r)->errlen, (code), __VA_ARGS__)

/* ---- read.c ---- */

/* Feature f, the ord-th of the read (0-based: its id where the layer has
 * none), read as today's route reads every feature: checked and counted
 * through fn, its attributes kept (s->ncopy), recorded by group
 * (-bgroup), passed to s->visit.  Takes f (destroyed, or kept by s). */
int xgo__read_one(struct xgo_reader *r, xgo_geom_fn fn, OGRFeatureH f,
                  GIntBig ord);
/* Tells pf (may be NULL) the progress after ord features of total,
 * every 1024 features; XG_ECANCEL (r->err set) when it cancels. */
int xgo__read_progress(struct xgo_reader *r, GIntBig ord, GIntBig total,
                       GDALProgressFunc pf, void *pa);

/* ---- read_arrow.c ---- */

/* Whether the read r may take the Arrow route: a plain read (no region,
 * no attributes kept, no groups, nothing visited), a layer whose driver
 * has a fast Arrow stream, and the config option XG_READ_ARROW not NO. */
int xgo__read_arrow_fits(const struct xgo_reader *r);
/* Reads every feature of r->s through its Arrow stream (WKB): the plain
 * ones through wfn, the others fetched by id (OGR_L_GetFeature) and read
 * through xgo__read_one with fn, in the layer's order, the box of -spat
 * applied as OGR applies it; *ord counts the features read, pf hears the
 * progress.  *declined = 1 (nothing read) where the layer gives no stream
 * the route understands: the caller reads it today's way. */
int xgo__read_arrow(struct xgo_reader *r, xgo_geom_fn fn, xgo_wkb_fn wfn,
                    GIntBig total, GIntBig *ord, GDALProgressFunc pf,
                    void *pa, int *declined);

/* ---- read_wkb.c ---- */

/* A cursor over one WKB blob: p the next byte, end past the last. */
struct xgo_wkb {
    const unsigned char *p, *end;
};
/* The header of the next geometry: its type without the Z flags into
 * *type (1 Point, 4 MultiPoint, ...) and whether it has Z into *z.
 * 0, or -1 for what the readers of WKB leave to OGR: big-endian, M,
 * a truncated blob, a type past the ISO range. */
int xgo__wkb_head(struct xgo_wkb *c, uint32_t *type, int *z);
/* The next 32-bit count into *n: 0, or -1 when truncated. */
int xgo__wkb_count(struct xgo_wkb *c, uint32_t *n);
/* The next n doubles into v: 0, or -1 when truncated. */
int xgo__wkb_doubles(struct xgo_wkb *c, double *v, size_t n);
/* The shape of blob w (len bytes) into sh: 1 where it is one the readers
 * of lines and surfaces may take, a LineString, Polygon or Triangle, or a
 * MultiLineString, MultiPolygon, PolyhedralSurface or TIN of them, with
 * or without Z (the parts as their collection), no count 0, the first
 * `axes` coordinates (2: x y; 3: and z where there is one) of every
 * vertex finite, and nothing past its end; 0 where it is not (the reader
 * leaves it to OGR); -1 out of memory.  Which parts a reader takes in
 * which collection is the reader's to check. */
int xgo__wkb_shape(struct xgo_wkb_shape *sh, const unsigned char *w,
                   size_t len, int axes);
/* The vertices of curve cv of sh into r->buf as xgo__read_vertices
 * leaves a curve's (xyz, room for one more; z 0 where r reads the plane
 * or sh has none), their count into *n, r->vtx counting them.  XG_OK, or
 * XG_ENOMEM with r->err set. */
int xgo__wkb_vertices(struct xgo_reader *r, const struct xgo_wkb_shape *sh,
                      const struct xgo_wkb_curve *cv, size_t *n);

/* ---- read_check.c ---- */

/* The error XG_EFORMAT for the current feature of r, what saying why:
 * "PATH, layer 'L', feature F: what". */
int xgo__read_bad(struct xgo_reader *r, const char *what);

/* The axis (0: x, 1: y) of a NaN that an empty Point of g (a Point or a
 * collection, searched part by part) hides, or -1. */
int xgo__read_hidden_nan(OGRGeometryH g);

/* The error XG_EFORMAT for vertex vtx of feature fid of s, a coordinate
 * on axis (0..2) that is NaN (nan) or infinite: the one message of both,
 * wherever it is found.  Returns XG_EFORMAT. */
int xgo__read_nonfinite(const struct xgo_src *s, GIntBig fid, size_t vtx,
                        int axis, int nan, char *err, size_t errlen);

/* The vertices of curve g into r->buf (xyz, room for one more), each
 * coordinate checked finite (z set to 0 in 2D unless r->keep_z); *n
 * receives their count, r->vtx counts them. */
int xgo__read_vertices(struct xgo_reader *r, OGRGeometryH g, size_t *n);

/* XG_OK unless r reads 3D and g has no Z: then the error naming the
 * operation that needs it. */
int xgo__read_need_z(struct xgo_reader *r, OGRGeometryH g);

/* The error for a geometry g of a type the reader does not take,
 * naming the types it expected. */
int xgo__read_wrong_type(struct xgo_reader *r, OGRGeometryH g,
                         const char *expected);

/* Feature fid of s, whose geometry g is NULL or empty: skipped with a
 * warning and counted (s->nread, s->nogeom, rep->null_geoms), unless an
 * empty point hides a NaN coordinate, refused as any NaN is. */
int xgo__read_nogeom(struct xgo_src *s, const struct xgo_job *job,
                     struct xgo_report *rep, GIntBig fid, OGRGeometryH g,
                     char *err, size_t errlen);

/* ---- the readers by element kind (xgo_geom_fn) ---- */

/* Segments of a LineString or MultiLineString with Z (read_lines.c). */
int xgo__read_segs3d(struct xgo_reader *r, OGRGeometryH g);
/* Segments of lines and polygon rings in the plane, rings closed
 * (read_lines.c). */
int xgo__read_segs2d(struct xgo_reader *r, OGRGeometryH g);
/* Points of a Point or MultiPoint with Z (read_points.c). */
int xgo__read_points3d(struct xgo_reader *r, OGRGeometryH g);
/* Points of the plane, their z kept where the layer's points have one
 * (read_points.c). */
int xgo__read_points2d(struct xgo_reader *r, OGRGeometryH g);
/* The same two readers on WKB (xgo_wkb_fn, read_points.c). */
int xgo__read_points3d_wkb(struct xgo_reader *r, const unsigned char *w,
                           size_t len, int *taken);
int xgo__read_points2d_wkb(struct xgo_reader *r, const unsigned char *w,
                           size_t len, int *taken);
/* The same two readers on WKB (xgo_wkb_fn, read_lines.c). */
int xgo__read_segs3d_wkb(struct xgo_reader *r, const unsigned char *w,
                         size_t len, int *taken);
int xgo__read_segs2d_wkb(struct xgo_reader *r, const unsigned char *w,
                         size_t len, int *taken);
/* Triangles of a Triangle, Polygon, MultiPolygon, TIN or
 * PolyhedralSurface with Z (read_tris.c). */
int xgo__read_tris(struct xgo_reader *r, OGRGeometryH g);
/* The same reader on WKB (xgo_wkb_fn, read_tris.c): features whose every
 * part is a triangle; a polygon to triangulate is left to OGR. */
int xgo__read_tris_wkb(struct xgo_reader *r, const unsigned char *w,
                       size_t len, int *taken);

/* ---- read_solid.c ---- */

/* The feature just read (its elements first .. r->set->n - 1) must be
 * a closed surface that does not cross itself: XG_OK; else an error
 * naming it, or with -skip-invalid a warning and its elements dropped
 * (r->set->n = first). */
int xgo__read_closed(struct xgo_reader *r, size_t first);

/* A group of -bgroup must be a closed surface (an xgo_group_check; arg
 * is the struct xgo_reader). */
int xgo__read_group_closed(void *arg, const double *tri, size_t n,
                           const char *key, GIntBig fid, size_t nfeat,
                           int *drop);

/* ---- read_csv.c ---- */

/* For a layer without geometry read by the CSV driver, the open options
 * that give it one, as "; for a CSV of ..., open it with ..." into buf
 * (len bytes); "" for other drivers. */
void xgo__read_csv_hint(const struct xgo_reader *r, char *buf, size_t len);

#endif /* XGO_READ_H */
