/*
 * xgo_internal.h -- shared inside ogr_driver/ (xgo__ names).
 */
#ifndef XGO_INTERNAL_H
#define XGO_INTERNAL_H

#include <stdio.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include "xgo.h"
#include "xgo_shape.h"

/* A monotonic clock in seconds (progress.c). */
double xgo__now(void);

/* The core's progress (xg_progress_fn) relayed to GDAL's: user is a
 * struct xgo_relay; a NULL pf never cancels. */
struct xgo_relay {
    GDALProgressFunc pf;
    void *pa;
};
int xgo__relay(double fraction, void *user);

/* ---- The job's progress bar (bar.c), cut into stages by their estimated
 * work (bar_costs.c).  The stages, in the order a run goes through them;
 * a stage that does not run (no B, no close, no index of ours) is left
 * unplanned. */
enum xgo_bar_stage {
    XGO_BAR_READ_A,
    XGO_BAR_READ_B,
    XGO_BAR_CORE,
    XGO_BAR_WRITE,            /* or the records kept, for the driver   */
    XGO_BAR_CLOSE,            /* GDALClose of the output: no progress
                                 inside; the bar moves at its end      */
    XGO_BAR_INDEX,            /* exactgeo's GeoPackage index after it
                                 (gpkg_rtree.h)                        */
    XGO_BAR_STAGES
};
struct xgo_bar {
    GDALProgressFunc pf;      /* the job's; NULL: no bar, never cancels */
    void *pa;
    double est[XGO_BAR_STAGES]; /* each stage's estimate (ns); -1: does
                                 not run                                */
    int stage;                /* the current one, -1 before the first  */
    double at, span;          /* its part of the bar                   */
    double shown;             /* the last value told (never less after) */
    GDALDatasetH dst;         /* the output, for its stages' estimates
                                 (xgo__bar_output): NULL, the records
                                 kept for the driver                   */
    char **lco;               /* its layer creation options, not owned */
    int close_dst;            /* the job closes it                     */
    double weight;            /* of a record of the operation in the
                                 output's stages (bar_costs.c), 1 until
                                 xgo__bar_estimate sets it             */
};
/* A bar on pf(pa) (pf may be NULL), nothing planned. */
void xgo__bar_init(struct xgo_bar *b, GDALProgressFunc pf, void *pa);
/* Sets (or makes better) stage's estimate: est >= 0 nanoseconds of
 * work, or -1 when it does not run.  Stages begun keep their slice. */
void xgo__bar_plan(struct xgo_bar *b, int stage, double est);
/* Begins stage (after the one before it): its slice is, of what is left
 * of the bar, its estimate's part of the estimates of it and the stages
 * after it (each at least a floor, so that the last stage keeps a slice
 * of its own). */
void xgo__bar_begin(struct xgo_bar *b, int stage);
/* GDAL's progress function of the current stage (arg: the bar): f of
 * the stage onto its slice, never back, never 1.0 (xgo__bar_done's);
 * the message is the stage's name ("writing", "indexing").  FALSE when
 * the job's callback cancels. */
int CPL_STDCALL xgo__bar_fn(double f, const char *msg, void *arg);
/* The bar at 1.0: the run is over, its output complete.  0 when the
 * job's callback cancels then. */
int xgo__bar_done(struct xgo_bar *b);

/* The output the bar's last stages write (bar_costs.c): dst (NULL: the
 * records kept for the driver, no write), its layer creation options
 * lco (not copied), close_dst: the job closes it. */
void xgo__bar_output(struct xgo_bar *b, GDALDatasetH dst, char **lco,
                     int close_dst);
/* Every stage's estimate from bar_costs.c's table and the counts known:
 * the features of A and B (feat[i] < 0: no fast count), their elements
 * once read (elem[i] < 0: not yet: guessed from the features), the
 * records once made (records < 0: not yet: guessed from the
 * elements). */
void xgo__bar_estimate(struct xgo_bar *b, const struct xg_op *op,
                       const double feat[2], const double elem[2],
                       double records);
/* The output's stages alone (write, close, index) for records. */
void xgo__bar_estimate_output(struct xgo_bar *b, double records);

/* Formats a one-line message into err (may be NULL / 0 bytes) and
 * returns code, so that callers can write `return xgo__fail(...)`. */
int xgo__fail(char *err, size_t errlen, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The inputs' open options (open_options.c): adds "NAME=VALUE" to
 * job->open_given[k] (0: oo, 1: aoo, 2: boo), a copy, replacing one of
 * the same NAME there (GDAL's names are case-insensitive), then merges
 * each input's list (job->open_lists[i], job->{a,b}.open_options: its
 * own, then oo's of other names).  XG_EINVAL for a value without NAME=,
 * XG_ENOMEM.  xgo__open_options_free frees them all and clears the
 * inputs' lists that pointed there. */
int xgo__open_option_set(struct xgo_job *job, int k, const char *value,
                         char *err, size_t errlen);
void xgo__open_options_free(struct xgo_job *job);

/* Writes s to f as a JSON string, quoted and escaped (stats.c). */
void xgo__json_str(FILE *f, const char *s);

/* A warning through CPLError unless quiet (warn.c).  Between
 * xgo__cap_begin and xgo__cap_end, capped like GDAL's own. */
void xgo__warn(int quiet, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The cap on repeated warnings (warn.c), the one for every warning: from
 * xgo__cap_begin to xgo__cap_end, the messages GDAL would pass to the
 * error handler of this thread (the reader's xgo__warn, GDAL's own
 * warnings and errors; not debug messages, which pass at once) go to c
 * instead.  xgo__cap_end passes them on, in their order, but of each
 * kind (the message with every number masked: the same warning about
 * another feature) the first XGO_CAP_SHOWN only, then one line "... and
 * N more like it"; the last error is left as it was.  Messages of kinds
 * past the first XGO_CAP_KINDS share one count ("... and N more of other
 * kinds").  c lives from begin to end (a local); not nested across
 * threads. */
#define XGO_CAP_SHOWN 10
#define XGO_CAP_KINDS 64
struct xgo_cap_msg {
    int cls, no;              /* CPLErr, CPLErrorNum */
    char *text;
    int kind;                 /* its index in kind[], -1: other */
    int last;                 /* the XGO_CAP_SHOWN-th of its kind */
};
struct xgo_cap {
    int on;
    size_t nkinds;
    struct {
        char *key;            /* the message, numbers masked */
        uint64_t n;           /* seen */
    } kind[XGO_CAP_KINDS];
    uint64_t other;           /* seen of the kinds past the table */
    struct xgo_cap_msg *q;    /* the ones to pass on, in order */
    size_t nq, qcap;
};
void xgo__cap_begin(struct xgo_cap *c);
void xgo__cap_end(struct xgo_cap *c);

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
                                 closed or crossing themselves */
    int group_idx;            /* the field grouping the features (the
                                 input's group, -bgroup), -1: none */
    GIntBig count;            /* the layer's feature count, once asked
                                 (xgo__src_count); counted: asked      */
    int counted;
    /* The plan of a run in regions (xgp.h), set after xgo__src_open:
     * every feature read as a single run reads it (its checks, warnings
     * and counts), then visit is called with its elements (those of set
     * from first on, none for a feature without geometry), which it may
     * drop (set->n = first); a non-zero return stops the read with that
     * code, its message in err.  A feature without an id (FID) is an
     * error there. */
    int (*visit)(void *arg, int64_t fid, struct xg_set *set, size_t first,
                 char *err, size_t errlen);
    void *visit_arg;
};

/* Opens in->path and its layer, sets the filters (attribute, box),
 * resolves the copied fields.  which is "A" or "B" for messages. */
int xgo__src_open(struct xgo_src *s, const struct xgo_input *in,
                  const char *which, char *err, size_t errlen);
void xgo__src_close(struct xgo_src *s);
/* The features of s's layer as OGR_L_GetFeatureCount(lyr, FALSE) gives
 * them (-1: no fast count), asked once: the bar's estimate and the
 * reader's progress share the answer (a GeoPackage without a stored
 * count runs SELECT COUNT(*) for each). */
GIntBig xgo__src_count(struct xgo_src *s);

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
/* The features of an input grouped by a field (group.c, -bgroup): one
 * record per feature that gave elements, as the reader reads them. */
struct xgo_group_feat {
    char *key;                /* its value of the field, a copy */
    GIntBig fid;
    size_t first, end;        /* its elements in the set */
    size_t kept;              /* its attributes' index in xgo_src.feat
                                 (when attributes are copied) */
};
struct xgo_groups {
    int field;                /* the field's index in the layer */
    struct xgo_group_feat *v;
    size_t n, cap;
    size_t ngroups;           /* after xgo__group_finish: the groups */
};
/* Records feature f (fid, elements first .. end - 1, attributes at kept
 * in s->feat).  A NULL value is an error naming the feature. */
int xgo__group_add(struct xgo_groups *g, const struct xgo_src *s,
                   OGRFeatureH f, GIntBig fid, size_t first, size_t end,
                   size_t kept, char *err, size_t errlen);
/* Whether a group (its ntri elements at xyz, its value key, its id fid,
 * nfeat features) is kept: XG_OK, *drop set to leave it out; another
 * code fails the read (err set by the callee). */
typedef int (*xgo_group_check)(void *arg, const double *xyz, size_t n,
                               const char *key, GIntBig fid, size_t nfeat,
                               int *drop);
/* Rewrites set (and s's kept attributes) by group: each group's elements
 * together, groups in ascending id (the lowest FID of their features),
 * fid the group's id, sub the element's index in the group (features in
 * ascending FID); check (may be NULL) decides on each group; one set of
 * attributes per group kept, its lowest feature's.  B is held twice
 * meanwhile. */
int xgo__group_finish(struct xgo_groups *g, struct xgo_src *s,
                      struct xg_set *set, xgo_group_check check, void *arg,
                      char *err, size_t errlen);
void xgo__groups_free(struct xgo_groups *g);
/* The options the core runs with: the job's, but where an input must be
 * solids the reader has checked each one already (xgo__read: closed, and
 * not crossing itself unless the user vouched), naming its file, layer
 * and feature, and -skip-invalid has dropped those that failed: the
 * core's own crossing check (xg_opts.solids_checked), for the library's
 * callers, would do the same work again. */
struct xg_opts xgo__core_opts(const struct xgo_job *job);
/* The error for input i of op that leaves the core nothing to work on
 * (job.c): s's counts say what was read (nread features, of which nogeom
 * without geometry, barren giving no element, invalid not closed or
 * crossing themselves), n the
 * elements read, none usable. */
int xgo__no_usable(const struct xg_op *op, int i, const struct xgo_src *s,
                   uint64_t n, char *err, size_t errlen);
/* Opens job's inputs into a and b (B where job->op has one), checks
 * that they share a CRS and takes it (*srs, not owned; A's alone
 * otherwise): xgo_run_open's, and the partitioned run's plan's
 * (part_plan.c).  The caller closes a and b, whatever the outcome. */
int xgo__open_inputs(const struct xgo_job *job, struct xgo_src *a,
                     struct xgo_src *b, OGRSpatialReferenceH *srs,
                     char *err, size_t errlen);
/* An input of op whose every element the core skipped (st's counts:
 * a single run's, or a partitioned run's sums): xgo__no_usable's error
 * for the first such input (a: input 0, b: input 1), else XG_OK. */
int xgo__all_skipped(const struct xg_op *op, const struct xg_stats *st,
                     const struct xgo_src *a, const struct xgo_src *b,
                     char *err, size_t errlen);
/* Closes dst at the end of a run (job->close_dst): timed into
 * rep->close_seconds, on bar's close and index stages (bar may be
 * NULL), then bar at 1.0; after a failure (rc) quietly, keeping rc and
 * err. */
int xgo__close_dst(GDALDatasetH dst, int rc, struct xgo_report *rep,
                   struct xgo_bar *bar, char *err, size_t errlen);
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

/* Writes the contacts (the writer of shape XG_SHAPE_CONTACTS; see
 * xgo_job_run). */
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

/* An output layer of contacts and the indices of its fields (write.c):
 * the fixed fields a_fid, A's index field, b_fid, B's index field, kind
 * (-1 where the operation has none), and per input the map from its
 * fields to the copies (NULL: none copied). */
enum { XGO_F_AFID, XGO_F_ASUB, XGO_F_BFID, XGO_F_BSUB, XGO_F_KIND,
       XGO_F_FIXED };
struct xgo_out {
    OGRLayerH lyr;
    int created;              /* the layer is new (else appended to)  */
    int fix[XGO_F_FIXED];
    int *amap, *bmap;         /* owned: xgo__out_free                 */
};
/* Opens layer name of w->dst for w's contacts, as xgo__write does
 * (xgo__layer_open, geometry type gt), and its fields. */
int xgo__out_open(const struct xgo_write *w, struct xgo_out *o,
                  const char *name, OGRwkbGeometryType gt, char *err,
                  size_t errlen);
/* The geometry type of w's layer of contacts: points (a point-only
 * operation, or split: a driver of one type per layer, where the lines
 * go to a layer of their own), else any type, with Z in 3D. */
OGRwkbGeometryType xgo__contact_type(const struct xgo_write *w, int split);
/* The feature of contact x of w, on defn (the layer's of o), as
 * xgo__write writes it; the caller owns it.  NULL, with the message in
 * err, when its attributes cannot be had (w->attrs). */
OGRFeatureH xgo__contact_feature(const struct xgo_write *w,
                                 const struct xgo_out *o,
                                 OGRFeatureDefnH defn,
                                 const struct xg_contact *x, char *err,
                                 size_t errlen);
/* The fixed fields of contact x of w (ids, indices, kind where the
 * layer has one) into f, a feature of o's layer.  Reads no input layer:
 * any thread may call it.  With xgo__contact_attrs, the one filler of
 * xgo__contact_feature and of the lines' writer (shape_lines.c). */
void xgo__contact_ids(const struct xgo_write *w, const struct xgo_out *o,
                      OGRFeatureH f, const struct xg_contact *x);
/* The copied attributes of contact x's A and B features into f (its
 * geometry kept): XG_OK, or XG_EIO with the message in err when they
 * cannot be had (w->attrs).  Reads the inputs (by FID through w->attrs):
 * one thread only, the writer's, in record order. */
int xgo__contact_attrs(const struct xgo_write *w, const struct xgo_out *o,
                       OGRFeatureH f, const struct xg_contact *x, char *err,
                       size_t errlen);
/* A two-point line from p to q, with Z when dim is 3; the caller owns
 * it. */
OGRGeometryH xgo__stretch_geometry(int dim, const double *p, const double *q);
void xgo__out_free(struct xgo_out *o);

/* What the rows of contacts and of lines (records of struct
 * xg_contacts, pairs of A and B) share, in shape_contacts.c: what a run
 * made (xgo_run_made.res: the records, and the fields of the driver's
 * layer, define), the writer's view of it on dst's layer layer_name, and
 * the rows' functions that are the same for both (xgo_shape.h says what
 * each does). */
struct xgo_contacts_res {
    struct xg_contacts c;
    struct xgo_out out;
};
struct xgo_write xgo__contacts_view(const struct xgo_run_made *m,
                                    GDALDatasetH dst, const char *layer_name,
                                    char **lco);
int xgo__contacts_run(struct xg_ctx *ctx, struct xgo_run_made *m,
                      struct xg_stats *st, struct xgo_report *rep, char *err,
                      size_t errlen);
void xgo__contacts_free(void *res);
void xgo__contacts_summary_input(FILE *f, const struct xgo_job *job, int i,
                                 const struct xg_stats *st,
                                 const struct xgo_report *rep);
/* ", \"fields\": [...]": the fixed fields, the kind where op has kinds. */
void xgo__contacts_json_fields(FILE *f, const struct xg_op *op);
void xgo__contacts_help_fields(FILE *f, const struct xg_op *op);
void xgo__contacts_help_line(FILE *f, const struct xg_op *op);
void xgo__contacts_join_on(char *buf, size_t len, const struct xg_op *op);
void xgo__contacts_fids(char *buf, size_t len, const struct xg_op *op);

/* The output layer name of dst (write.c): the existing one (to append
 * to; it must have srs, or none like it), else a new one of type gt with
 * the creation options lco (CSV: the geometry as WKT unless lco says).
 * *created says which; *lyr is dst's. */
int xgo__layer_open(GDALDatasetH dst, const char *name,
                    OGRSpatialReferenceH srs, OGRwkbGeometryType gt,
                    char **lco, OGRLayerH *lyr, int *created, char *err,
                    size_t errlen);

/* GDAL's last error message, or fallback when it has none (src.c). */
const char *xgo__gdal_msg(const char *fallback);

/* The bookkeeping after feature i of n was written, *written of them now
 * (write.c), one for both writers: counts it, then XG_EIO when the job's
 * testing fail_after is reached, XG_ECANCEL when pf (every 4096
 * features) says stop, else XG_OK. */
int xgo__write_step(const struct xgo_job *job, GDALDatasetH dst, size_t i,
                    size_t n, uint64_t *written, GDALProgressFunc pf,
                    void *pa, char *err, size_t errlen);
/* The features of one writer, for xgo__batch_write: n records; make
 * builds record i's feature (geometry and the fields that need no input
 * layer; called on any thread, several at once, so it may read only
 * what does not change during the write; the caller of put owns the
 * result, NULL only when out of memory); put, called on the writer's
 * thread in record order, finishes it (copied attributes) and writes it,
 * owns f from then (destroys it), and returns XG_OK or the failure with
 * its message in err.  arg goes to both. */
struct xgo_gpkg_direct;
struct xgo_gpkg_row;
struct xgo_batch {
    size_t n;
    OGRFeatureH (*make)(void *arg, size_t i);
    /* writes f (NULL: make ran out of memory); f stays the pipeline's,
     * which destroys it on the thread that made it */
    int (*put)(void *arg, size_t i, OGRFeatureH f, char *err, size_t errlen);
    void *arg;
    /* may be NULL: record i's row for the direct writer d made straight
     * from the record, the row of make's feature (gpkg_direct.h); any
     * thread */
    void (*row)(void *arg, size_t i, const struct xgo_gpkg_direct *d,
                struct xgo_gpkg_row *row);
};
/* Where a batch write counts and reports (xgo__write_step's), and
 * where it may write directly: lyr, when every record goes to that one
 * layer and put adds nothing to make's feature (no copied attributes),
 * with tx the writer's transaction flag (gpkg_direct.h: committed and
 * cleared when the direct writer takes the layer); lyr NULL: OGR's
 * route, put for every record. */
struct xgo_batch_run {
    const struct xgo_job *job;
    GDALDatasetH dst;
    uint64_t *written;
    GDALProgressFunc pf;
    void *pa;
    OGRLayerH lyr;
    int *tx;
};
/* Writes b's records in order (write_batch.c): worker threads (job's
 * threads less the caller, at most 7; none with one thread) make the
 * features of the batches ahead while the calling thread puts them, each
 * followed by xgo__write_step; stops at the first failure, with what
 * was made and not written destroyed.  XG_OK or that failure. */
int xgo__batch_write(const struct xgo_batch *b, const struct xgo_batch_run *r,
                     char *err, size_t errlen);
/* The close of every writer, one for all, after its features (tx: it
 * started a transaction): commits when rc is XG_OK, else rolls back;
 * when that failed with no transaction to take them back, the nlyr
 * layers lyr that this run made (created[i]) are dropped, in that order;
 * on success pf is told the whole is done.  Returns rc, or XG_EIO when
 * the commit failed. */
int xgo__write_close(GDALDatasetH dst, int tx, int rc, const OGRLayerH *lyr,
                     const int *created, int nlyr, GDALProgressFunc pf,
                     void *pa, char *err, size_t errlen);

/* Writes triangles (the writer of shape XG_SHAPE_TRIANGLES; see
 * xgo_job_run):
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

/* An output layer of triangles (write_tri.c) and the indices of its nf
 * fields (v0, v1, v2, then the parts when nf is 6; nf 0 for the TIN). */
struct xgo_tri_out {
    OGRLayerH lyr;
    int created;
    int nf, idx[6];
};
/* Opens w's layer as xgo__write_tri does, and its fields. */
int xgo__tri_open(const struct xgo_write_tri *w, struct xgo_tri_out *o,
                  char *err, size_t errlen);
/* The feature of triangle i of w->t on defn (the layer's of o), as
 * xgo__write_tri writes it; the caller owns it. */
OGRFeatureH xgo__triangle_feature(const struct xgo_write_tri *w,
                                  const struct xgo_tri_out *o,
                                  OGRFeatureDefnH defn, size_t i);
/* The one feature of job->tin: a TIN of every triangle of w->t, no
 * fields, on defn; the caller owns it.  NULL when OGR refuses a
 * triangle. */
OGRFeatureH xgo__tin_feature(const struct xgo_write_tri *w,
                             OGRFeatureDefnH defn);

/* ---- A run kept as the core's records (kept.c), for the EXACTGEO
 * driver: its layer makes each feature when it is read, the same
 * feature the writers above would write, rather than holding them all.
 * What it holds is the records (64 bytes a contact, 12 a triangle), the
 * elements' ids (16 bytes an element; delaunay's points whole, 40), and
 * the copied attributes of the inputs' features (what the reader keeps
 * for a run of the tool too); docs/memory.md.  Thread-safe once made:
 * any thread may make features of it at the same time. */
struct xgo_kept;

/* Takes over what m names (its inputs, their sets and its records,
 * each left zeroed: its owner's free does nothing), closes the inputs'
 * datasets, frees the elements' coordinates where the shape's features
 * need their ids only, and makes the layer's definition (named
 * layer_name, as the shape's writer makes it); rep's written (the
 * features) and layer.  m is a single run's (xgo__run_keep) or a run in
 * regions' records made into one (xgp__keep_records).  *out: free with
 * xgo__kept_free.  XG_OK or an error, with nothing kept. */
int xgo__kept_new(struct xgo_kept **out, const struct xgo_job *job,
                  struct xgo_run_made *m, const char *layer_name,
                  struct xgo_report *rep, char *err, size_t errlen);
/* The number of features; their definition (borrowed); their extent
 * (0: none, no features). */
size_t xgo__kept_count(const struct xgo_kept *k);
OGRFeatureDefnH xgo__kept_defn(const struct xgo_kept *k);
int xgo__kept_extent(const struct xgo_kept *k, OGREnvelope *env);
/* Feature i (FID i, i < count), made now; the caller owns it.  NULL past
 * the end, or (with a CPLError) when it cannot be made. */
OGRFeatureH xgo__kept_feature(struct xgo_kept *k, size_t i);
void xgo__kept_free(struct xgo_kept *k);

/* The stage that xgo_job_run's xgo_run_write is for the driver
 * (job.c): r's records kept in *keep (free with xgo__kept_free) under
 * layer_name; rep's written and layer; the write's progress to 1. */
int xgo__run_keep(struct xgo_run *r, const char *layer_name,
                  struct xgo_kept **keep);

/* Runs job as xgo_job_run does, with no output dataset: its records are
 * kept in *out (free with xgo__kept_free) under the layer name
 * layer_name; job->report, when set, says what was read, and written is
 * the number of features.  A job in regions (job->regions, where its
 * operation runs in regions) runs them in this process, one after
 * another (xgp__run_keep with xgp_comm_local): the same features, in
 * the same order, as its single run. */
int xgo__job_keep(const struct xgo_job *job, const char *layer_name,
                  struct xgo_kept **out, struct xg_stats *st, char *err,
                  size_t errlen);

#endif /* XGO_INTERNAL_H */
