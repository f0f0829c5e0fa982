/*
 * shape_lines.c -- the row of shape XG_SHAPE_LINES (xgo_shape.h):
 * records of one (A element, B element) pair each, a segment from p to
 * q, held as struct xg_contacts (the test operation boxmeet, tests/op/).
 * One layer of two-point lines (LineStringZ in 3D) with write.c's fields
 * (a_fid, A's index field, b_fid, B's index field; kind only where the
 * operation has kinds; the copies where it takes -acopy, -bcopy).  The
 * run, the words of the inputs and of the fields are the contacts' row's
 * (shape_contacts.c); the writer, the driver's features and the counts
 * of records are here.
 */
#include <stdio.h>
#include <cpl_error.h>
#include "xgo_internal.h"

/* The layer's geometry type: two-point lines, with Z in 3D. */
static OGRwkbGeometryType line_type(const struct xgo_write *w)
{
    return w->dim == 3 ? wkbLineString25D : wkbLineString;
}

/* Record x of w as a feature on defn (o's layer's) without its copied
 * attributes: write.c's ids and the line p..q.  Reads no input layer
 * (any thread); the caller owns it. */
static OGRFeatureH line_base(const struct xgo_write *w,
                             const struct xgo_out *o, OGRFeatureDefnH defn,
                             const struct xg_contact *x)
{
    OGRFeatureH f = OGR_F_Create(defn);
    xgo__contact_ids(w, o, f, x);
    OGR_F_SetGeometryDirectly(f, xgo__stretch_geometry(w->dim, x->p, x->q));
    return f;
}

/* Record x of w as a feature on defn (o's layer's): line_base and the
 * copied attributes; the caller owns it.  NULL, with the message in
 * err, when its attributes cannot be had. */
static OGRFeatureH line_feature(const struct xgo_write *w,
                                const struct xgo_out *o, OGRFeatureDefnH defn,
                                const struct xg_contact *x, char *err,
                                size_t errlen)
{
    OGRFeatureH f = line_base(w, o, defn, x);
    if (xgo__contact_attrs(w, o, f, x, err, errlen) != XG_OK) {
        OGR_F_Destroy(f);
        return NULL;
    }
    return f;
}

/* The writer's pipeline (xgo__batch_write): the records, their layer
 * and its definition. */
struct pipe_arg {
    const struct xgo_write *w;
    const struct xgo_out *o;
    OGRFeatureDefnH defn;
};

/* xgo_batch.make: record i without its copied attributes (any
 * thread). */
static OGRFeatureH make_line(void *arg, size_t i)
{
    const struct pipe_arg *a = arg;
    return line_base(a->w, a->o, a->defn, &a->w->c->v[i]);
}

/* xgo_batch.put: the copied attributes of record i into f, then f
 * written into o's layer: XG_OK, or XG_EIO with the message in err
 * naming the pair's features.  f stays the pipeline's (xgo_batch.put). */
static int put_line(void *arg, size_t i, OGRFeatureH f, char *err,
                    size_t errlen)
{
    const struct pipe_arg *a = arg;
    const struct xgo_write *w = a->w;
    const struct xg_contact *x = &w->c->v[i];
    int rc = XG_OK;
    if (!f)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    if (xgo__contact_attrs(w, a->o, f, x, err, errlen) != XG_OK)
        return XG_EIO;
    CPLErrorReset();
    if (OGR_L_CreateFeature(a->o->lyr, f) != OGRERR_NONE)
        rc = xgo__fail(err, errlen, XG_EIO,
                       "%s, layer '%s': cannot write the record of A "
                       "feature %lld and B feature %lld: %s",
                       GDALGetDescription(w->dst), OGR_L_GetName(a->o->lyr),
                       (long long)w->aset->fid[x->a],
                       (long long)w->bfid[x->b],
                       xgo__gdal_msg("driver error"));
    return rc;
}

/* xgo_shape.write_pairs: every record of w a line of one layer,
 * w->layer_name of w->dst, in one transaction where dst has them (else
 * a layer this run created is dropped on failure); rep's layer and
 * written; progress pf(pa) (may be NULL). */
static int write_lines(const struct xgo_write *w, struct xgo_report *rep,
                       GDALProgressFunc pf, void *pa, char *err,
                       size_t errlen)
{
    struct xgo_out o;
    int rc, tx;

    rep->lines_layer[0] = '\0';
    tx = GDALDatasetStartTransaction(w->dst, FALSE) == OGRERR_NONE;
    rc = xgo__out_open(w, &o, w->layer_name, line_type(w), err, errlen);
    /* the name the driver gave (a single-file Shapefile: its file's) */
    if (rc == XG_OK)
        snprintf(rep->layer, sizeof rep->layer, "%s", OGR_L_GetName(o.lyr));
    if (rc == XG_OK) {
        struct pipe_arg a = {w, &o, OGR_L_GetLayerDefn(o.lyr)};
        struct xgo_batch b = {w->c->n, make_line, put_line, &a, NULL};
        /* copied attributes are fetched on the writer's thread: OGR's
         * route then */
        struct xgo_batch_run r = {w->job, w->dst, &rep->written, pf, pa,
                                  o.amap || o.bmap ? NULL : o.lyr, &tx};
        rc = xgo__batch_write(&b, &r, err, errlen);
    }
    rc = xgo__write_close(w->dst, tx, rc, &o.lyr, &o.created, 1, pf, pa, err,
                          errlen);
    xgo__out_free(&o);
    return rc;
}

/* xgo_shape.write: write_lines on m's records. */
static int write_records(const struct xgo_run_made *m, GDALDatasetH dst,
                         const char *layer_name, char **lco,
                         struct xgo_report *rep, GDALProgressFunc pf,
                         void *pa, char *err, size_t errlen)
{
    struct xgo_write w = xgo__contacts_view(m, dst, layer_name, lco);
    return write_lines(&w, rep, pf, pa, err, errlen);
}

/* xgo_shape.define: the layer as write makes it. */
static int define(struct xgo_run_made *m, GDALDatasetH mem,
                  const char *layer_name, OGRLayerH *lyr, size_t *nfeat,
                  char *err, size_t errlen)
{
    struct xgo_contacts_res *r = m->res;
    struct xgo_write w = xgo__contacts_view(m, mem, layer_name, NULL);
    int rc = xgo__out_open(&w, &r->out, layer_name, line_type(&w), err,
                           errlen);
    *lyr = r->out.lyr;
    r->out.lyr = NULL;        /* mem goes: only the fields' indices stay */
    *nfeat = r->c.n;
    return rc;
}

/* xgo_shape.extent: both ends of every segment. */
static void extent(const struct xgo_run_made *m, struct xgo_extent *e)
{
    const struct xgo_contacts_res *r = m->res;
    size_t i;
    for (i = 0; i < r->c.n; i++) {
        xgo__extent_add(e, r->c.v[i].p[0], r->c.v[i].p[1]);
        xgo__extent_add(e, r->c.v[i].q[0], r->c.v[i].q[1]);
    }
}

/* xgo_shape.feature: record i, as write writes it. */
static OGRFeatureH feature(const struct xgo_run_made *m, OGRFeatureDefnH defn,
                           size_t i, char *err, size_t errlen)
{
    const struct xgo_contacts_res *r = m->res;
    struct xgo_write w = xgo__contacts_view(m, NULL, NULL, NULL);
    return line_feature(&w, &r->out, defn, &r->c.v[i], err, errlen);
}

/* The records of a run: the engines count them by kind. */
static unsigned long long total(const struct xg_stats *st)
{
    unsigned long long n = 0;
    int k;
    for (k = 0; k < XG_KIND_COUNT; k++)
        n += st->contacts[k];
    return n;
}

/* xgo_shape.summary_records: "  segments: 12". */
static void summary_records(FILE *f, const struct xgo_job *job,
                            const struct xg_stats *st,
                            const struct xgo_report *rep)
{
    (void)job;
    (void)rep;
    fprintf(f, "  segments: %llu\n", total(st));
}

/* xgo_shape.stats_records: "segments", their count. */
static void stats_records(FILE *f, const struct xgo_job *job,
                          const struct xg_stats *st,
                          const struct xgo_report *rep)
{
    (void)job;
    (void)rep;
    fprintf(f, "  \"segments\": %llu,\n", total(st));
}

/* xgo_shape.json_output: write.c's fields, lines only. */
static void json_output(FILE *f, const struct xg_op *op)
{
    xgo__contacts_json_fields(f, op);
    fprintf(f, ", \"output\": [\"line\"]");
}

const struct xgo_shape xgo__shape_lines = {
    .run = xgo__contacts_run,
    .free_res = xgo__contacts_free,
    .write = write_records,
    .write_pairs = write_lines,
    .keeps_xyz = 0,
    .define = define,
    .extent = extent,
    .feature = feature,
    .summary_input = xgo__contacts_summary_input,
    .summary_records = summary_records,
    .stats_records = stats_records,
    .json_output = json_output,
    .help_fields = xgo__contacts_help_fields,
    .help_line = xgo__contacts_help_line,
    .join_on = xgo__contacts_join_on,
    .fids = xgo__contacts_fids};
