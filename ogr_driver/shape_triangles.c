/*
 * shape_triangles.c -- the row of shape XG_SHAPE_TRIANGLES (xgo_shape.h):
 * triangles over the points of the operation's one input (delaunay),
 * written as a polygon each or as one TIN.  Its writer is write_tri.c;
 * here are the run that makes them, the driver's features made from
 * them, and what the front ends print of them.
 */
#include <stdlib.h>
#include "xgo_internal.h"

/* What a run made (xgo_run_made.res): the triangles, and the fields of
 * the driver's layer (define). */
struct res {
    struct xg_triangles t;
    struct xgo_tri_out out;
};

/* The writer's view of m (write_tri.c), on dst's layer layer_name. */
static struct xgo_write_tri view(const struct xgo_run_made *m,
                                 GDALDatasetH dst, const char *layer_name,
                                 char **lco)
{
    const struct res *r = m->res;
    struct xgo_write_tri w = {m->job, dst, layer_name, lco, m->srs,
                              &m->set[0], &r->t, m->has_z};
    return w;
}

/* xgo_shape.run: the operation's run (xg_op.run_tri) on A's points; an
 * input without three distinct points off a line named as the input's
 * fault; a warning for merged points of another z. */
static int run(struct xg_ctx *ctx, struct xgo_run_made *m,
               struct xg_stats *st, struct xgo_report *rep, char *err,
               size_t errlen)
{
    const struct xgo_job *job = m->job;
    const struct xgo_src *a = m->a;
    const char *why;
    struct res *r;
    int rc;
    m->res = r = calloc(1, sizeof *r);
    if (!r)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    rc = job->op->run_tri(ctx, &m->set[0], &job->opts, &r->t, st);
    why = *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx) : xg_strerror(rc);
    if (rc == XG_EDEGENERATE)
        return xgo__fail(err, errlen, rc, "%s, layer '%s': %s", a->path,
                         a->name, why);
    if (rc)
        return xgo__fail(err, errlen, rc, "%s: %s", job->op->name, why);
    if (st->z_differ)
        xgo__warn(job->quiet, "%s, layer '%s': %llu point%s at the (x, y) "
                  "of another but with another z; merged, the z of the "
                  "lowest FID kept", a->path, a->name,
                  (unsigned long long)st->z_differ,
                  st->z_differ == 1 ? "" : "s");
    rep->triangles = r->t.n;
    if (job->test_break && r->t.n) {    /* testing: a wrong triangle */
        uint32_t v = r->t.v[0][1];
        r->t.v[0][1] = r->t.v[0][2];
        r->t.v[0][2] = v;
    }
    m->records = &r->t;
    m->n = r->t.n;
    return XG_OK;
}

/* xgo_shape.free_res. */
static void res_free(void *res)
{
    struct res *r = res;
    if (!r)
        return;
    xg_triangles_free(&r->t);
    free(r);
}

/* xgo_shape.write: write_tri.c's writer. */
static int write_records(const struct xgo_run_made *m, GDALDatasetH dst,
                         const char *layer_name, char **lco,
                         struct xgo_report *rep, GDALProgressFunc pf,
                         void *pa, char *err, size_t errlen)
{
    struct xgo_write_tri w = view(m, dst, layer_name, lco);
    return xgo__write_tri(&w, rep, pf, pa, err, errlen);
}

/* xgo_shape.define: a polygon per triangle, or one TIN (job->tin). */
static int define(struct xgo_run_made *m, GDALDatasetH mem,
                  const char *layer_name, OGRLayerH *lyr, size_t *nfeat,
                  char *err, size_t errlen)
{
    struct res *r = m->res;
    struct xgo_write_tri w = view(m, mem, layer_name, NULL);
    int rc = xgo__tri_open(&w, &r->out, err, errlen);
    *lyr = r->out.lyr;
    r->out.lyr = NULL;        /* mem goes: only the fields' indices stay */
    *nfeat = m->job->tin ? 1 : r->t.n;
    return rc;
}

/* xgo_shape.extent: the triangles' vertices. */
static void extent(const struct xgo_run_made *m, struct xgo_extent *e)
{
    const struct res *r = m->res;
    size_t i;
    int j;
    for (i = 0; i < r->t.n; i++)
        for (j = 0; j < 3; j++) {
            const double *p = m->set[0].xyz + 3 * (size_t)r->t.v[i][j];
            xgo__extent_add(e, p[0], p[1]);
        }
}

/* xgo_shape.feature: triangle i, or the one TIN, as write_tri.c writes
 * it. */
static OGRFeatureH feature(const struct xgo_run_made *m, OGRFeatureDefnH defn,
                           size_t i, char *err, size_t errlen)
{
    const struct res *r = m->res;
    struct xgo_write_tri w = view(m, NULL, NULL, NULL);
    OGRFeatureH f;
    if (!m->job->tin)
        return xgo__triangle_feature(&w, &r->out, defn, i);
    if (!(f = xgo__tin_feature(&w, defn)))
        snprintf(err, errlen, "cannot build the TIN");
    return f;
}

/* xgo_shape.summary_input: the one input, its points merged: "  A: path,
 * layer 'x': N features, M points (K at the (x, y) of another, merged
 * into the lowest FID's; Z of them with another z)", "2D points" when
 * they had no Z. */
static void summary_input(FILE *f, const struct xgo_job *job, int i,
                          const struct xg_stats *st,
                          const struct xgo_report *rep)
{
    const struct xg_op_input *in = &job->op->in[i];
    fprintf(f, "  A: %s, layer '%s': %llu features, %llu %s%s (%llu %s, "
               "merged into the lowest FID's; %llu of them with another "
               "z)\n",
            job->a.path, rep->a_layer, (unsigned long long)rep->a_features,
            (unsigned long long)st->a_count, rep->has_z ? "" : "2D ",
            in->elements, (unsigned long long)st->a_skipped, in->skipped,
            (unsigned long long)st->z_differ);
}

/* xgo_shape.summary_records: "  triangles: 6232", ", as one TIN". */
static void summary_records(FILE *f, const struct xgo_job *job,
                            const struct xg_stats *st,
                            const struct xgo_report *rep)
{
    (void)st;
    fprintf(f, "  triangles: %llu%s\n", (unsigned long long)rep->triangles,
            job->tin ? ", as one TIN" : "");
}

/* xgo_shape.stats_records: the points merged of another z, the
 * triangles made (--tin writes them as one feature). */
static void stats_records(FILE *f, const struct xgo_job *job,
                          const struct xg_stats *st,
                          const struct xgo_report *rep)
{
    (void)job;
    fprintf(f, "  \"z_differ\": %llu,\n  \"triangles\": %llu,\n",
            (unsigned long long)st->z_differ,
            (unsigned long long)rep->triangles);
}

/* xgo_shape.json_output: write_tri.c's fields, the vertices' FIDs (and
 * their parts, when MultiPoints of several points occur), one polygon
 * each. */
static void json_output(FILE *f, const struct xg_op *op)
{
    (void)op;
    fprintf(f, ", \"fields\": [\"" XGO_FIELD_V0 "\", \"" XGO_FIELD_V1
               "\", \"" XGO_FIELD_V2 "\"], \"output\": [\"polygon\"]");
}

/* xgo_shape.help_fields: write_tri.c's fields. */
static void help_fields(FILE *f, const struct xg_op *op)
{
    (void)op;
    fputs(", in ascending\n  order of its points:\n"
          "  v0, v1, v2       the FIDs of its three points (of (x, y) "
          "repeated,\n"
          "                   the lowest FID's point is the one used)\n"
          "  v0_part, ...     the point's index in its MultiPoint; only "
          "when some\n"
          "                   feature holds several points\n", f);
}

/* xgo_shape.help_line. */
static void help_line(FILE *f, const struct xg_op *op)
{
    (void)op;
    fputs("v0, v1, v2 (the FIDs of its points; v0_part, ... for\n"
          "            MultiPoints)\n", f);
}

/* xgo_shape.join_on: the vertices' feature ids. */
static void join_on(char *buf, size_t len, const struct xg_op *op)
{
    (void)op;
    snprintf(buf, len, "v0, v1, v2, the FIDs of each triangle's points");
}

/* xgo_shape.fids: where the points' feature ids are. */
static void fids(char *buf, size_t len, const struct xg_op *op)
{
    (void)op;
    snprintf(buf, len, "v0, v1, v2 hold the points' feature ids");
}

const struct xgo_shape xgo__shape_triangles = {
    .run = run,
    .free_res = res_free,
    .write = write_records,
    .keeps_xyz = 1,
    .define = define,
    .extent = extent,
    .feature = feature,
    .summary_input = summary_input,
    .summary_records = summary_records,
    .stats_records = stats_records,
    .json_output = json_output,
    .help_fields = help_fields,
    .help_line = help_line,
    .join_on = join_on,
    .fids = fids};
