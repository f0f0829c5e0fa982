/*
 * xgo_internal.h -- shared inside ogr_driver/ (xgo__ names).
 */
#ifndef XGO_INTERNAL_H
#define XGO_INTERNAL_H

#include <stdio.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include "xgo.h"

/* A monotonic clock in seconds (progress.c). */
double xgo__now(void);

/* The core's progress (xg_progress_fn) relayed to GDAL's: user is a
 * struct xgo_relay; a NULL pf never cancels. */
struct xgo_relay {
    GDALProgressFunc pf;
    void *pa;
};
int xgo__relay(double fraction, void *user);

/* Formats a one-line message into err (may be NULL / 0 bytes) and
 * returns code, so that callers can write `return xgo__fail(...)`. */
int xgo__fail(char *err, size_t errlen, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Writes s to f as a JSON string, quoted and escaped (stats.c). */
void xgo__json_str(FILE *f, const char *s);

/* A warning through CPLError unless quiet. */
void xgo__warn(int quiet, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* An opened input layer and, when attributes are copied, the attributes
 * of every feature read (geometry dropped), with the index of its first
 * element.  Owns ds and the features; xgo__src_close frees all. */
struct xgo_src {
    const char *path;         /* job's string, not owned */
    const char *where;        /* job's filter or NULL, not owned */
    const double *spat;       /* job's box (xmin ymin xmax ymax) or NULL */
    char name[256];           /* layer name */
    GDALDatasetH ds;
    OGRLayerH lyr;
    int ncopy;                /* fields copied */
    int *copy_idx;            /* their indices in lyr, ncopy */
    OGRFeatureH *feat;        /* attributes per feature read (ncopy > 0) */
    size_t *first;            /* per feature: its first element index */
    size_t nfeat, cap;
    uint64_t nread;           /* features read */
    uint64_t nogeom;          /* of them: without geometry (NULL, empty) */
    uint64_t barren;          /* with a geometry that gave no element:
                                 lines and rings of one vertex, polygons
                                 all skipped */
    uint64_t invalid;         /* dropped by -skip-invalid: surfaces not
                                 closed */
    /* A run in regions (mpi/) reads in two ways, set after
     * xgo__src_open; a feature without an id (FID) is an error in both.
     * With visit, the plan's pass: every feature read as a single run
     * reads it (its checks, warnings and counts), then visit is called
     * with its elements (those of set from first on, none for a feature
     * without geometry), which it may drop (set->n = first); a non-zero
     * return stops the read with that code, its message in err.  With
     * next, a region's read: the features come from next(next_arg), not
     * from the layer's own order: NULL at the end, or after a failure,
     * its code in *rc and its message in err; none at all is no error. */
    int (*visit)(void *arg, int64_t fid, struct xg_set *set, size_t first,
                 char *err, size_t errlen);
    void *visit_arg;
    OGRFeatureH (*next)(void *arg, int *rc, char *err, size_t errlen);
    void *next_arg;
};

/* Opens in->path and its layer, sets the filters (attribute, box),
 * resolves the copied fields.  which is "A" or "B" for messages. */
int xgo__src_open(struct xgo_src *s, const struct xgo_input *in,
                  const char *which, char *err, size_t errlen);
void xgo__src_close(struct xgo_src *s);

/* Describes what the filters of s are, for "no feature matches ..."
 * ("the filter 'x'", "the box 1 2 3 4", or both) into buf. */
void xgo__src_filters(const struct xgo_src *s, char *buf, size_t len);

/* The feature owning element i (copied attributes; NULL when none). */
OGRFeatureH xgo__src_feature_of(const struct xgo_src *s, size_t i);

/* Reads input i (0: A, 1: B) of job->op from s into out, with the reader
 * of its element kind (read.c): segments of 3D lines, triangles of 3D
 * surfaces, segments of 2D lines and rings (z = 0). */
int xgo__read(struct xgo_src *s, const struct xgo_job *job, int i,
              struct xg_set *out, struct xgo_report *rep,
              GDALProgressFunc pf, void *pa, char *err, size_t errlen);
/* The error for input i of op that leaves the core nothing to work on
 * (job.c): s's counts say what was read (nread features, of which nogeom
 * without geometry, barren giving no element, invalid not closed), n the
 * elements read, none usable. */
int xgo__no_usable(const struct xg_op *op, int i, const struct xgo_src *s,
                   uint64_t n, char *err, size_t errlen);
/* Closes dst at the end of a run (job->close_dst): timed into
 * rep->close_seconds, then progress sp (may be NULL) to 1; after a
 * failure (rc) quietly, keeping rc and err. */
int xgo__close_dst(GDALDatasetH dst, int rc, struct xgo_report *rep,
                   void *sp, char *err, size_t errlen);
/* What a feature of input i that gave no element was, for messages
 * ("of one vertex", "with every polygon skipped"). */
const char *xgo__read_barren(const struct xg_op *op, int i);

/* The layer's CRS, NULL when none (GeoPackage's "undefined" CRSs
 * included).  Not owned. */
OGRSpatialReferenceH xgo__layer_srs(OGRLayerH lyr);

/* Both layers in the same CRS (or both without); *srs receives A's (not
 * owned; NULL when none). */
int xgo__srs_check(const struct xgo_src *a, const struct xgo_src *b,
                   OGRSpatialReferenceH *srs, char *err, size_t errlen);

/* Writes the contacts (see xgo_job_run). */
struct xgo_write {
    const struct xgo_job *job;
    int dim;                  /* job->op->dim */
    GDALDatasetH dst;
    const char *layer_name;
    char **lco;
    OGRSpatialReferenceH srs;
    const struct xgo_src *a, *b;
    const struct xg_set *aset; /* A's elements */
    const int64_t *bfid, *bsub; /* B's ids per element */
    const struct xg_contacts *c;
    /* The attributes to copy of A's (which 0) or B's (1) element i: NULL
     * for xgo__src_feature_of (the features the reader kept); a
     * partitioned run fetches them by FID.  NULL: an error (*err). */
    OGRFeatureH (*attrs)(void *arg, int which, size_t i, char *err,
                         size_t errlen);
    void *attrs_arg;
};
int xgo__write(const struct xgo_write *w, struct xgo_report *rep,
               GDALProgressFunc pf, void *pa, char *err, size_t errlen);

/* The output layer name of dst (write.c): the existing one (to append
 * to; it must have srs, or none like it), else a new one of type gt with
 * the creation options lco (CSV: the geometry as WKT unless lco says).
 * *created says which; *lyr is dst's. */
int xgo__layer_open(GDALDatasetH dst, const char *name,
                    OGRSpatialReferenceH srs, OGRwkbGeometryType gt,
                    char **lco, OGRLayerH *lyr, int *created, char *err,
                    size_t errlen);
/* Removes lyr from dst when this run created it (after a failure where
 * no transaction took it back). */
void xgo__layer_drop(GDALDatasetH dst, OGRLayerH lyr, int created);

/* GDAL's last error message, or fallback when it has none (src.c). */
const char *xgo__gdal_msg(const char *fallback);

/* The bookkeeping after feature i of n was written, *written of them now
 * (write.c), one for both writers: counts it, then XG_EIO when the job's
 * testing fail_after is reached, XG_ECANCEL when pf (every 4096
 * features) says stop, else XG_OK. */
int xgo__write_step(const struct xgo_job *job, GDALDatasetH dst, size_t i,
                    size_t n, uint64_t *written, GDALProgressFunc pf,
                    void *pa, char *err, size_t errlen);
/* The end of a writer's transaction (tx: one was started): commits when
 * rc is XG_OK, else rolls back; returns rc, or XG_EIO when the commit
 * failed. */
int xgo__write_end(GDALDatasetH dst, int tx, int rc, char *err,
                   size_t errlen);

/* Writes triangles (xg_op.output XG_OUTPUT_TRIANGLES; see xgo_job_run):
 * one Polygon per triangle of t, its ring t's vertices of pts then the
 * first again, PolygonZ when has_z, fields v0, v1, v2 (the points'
 * fids) and, when some point has sub > 0, v0_part, v1_part, v2_part. */
struct xgo_write_tri {
    const struct xgo_job *job;
    GDALDatasetH dst;
    const char *layer_name;
    char **lco;
    OGRSpatialReferenceH srs;
    const struct xg_set *pts;
    const struct xg_triangles *t;
    int has_z;
};
int xgo__write_tri(const struct xgo_write_tri *w, struct xgo_report *rep,
                   GDALProgressFunc pf, void *pa, char *err, size_t errlen);

#endif /* XGO_INTERNAL_H */
