/*
 * shape_contacts.c -- the row of shape XG_SHAPE_CONTACTS (xgo_shape.h):
 * records of one (A element, B element) pair each, a point or a stretch,
 * of the kinds in the operation's entry (segtri, redblue, inside).  Its
 * writer is write.c; here are the run that makes them, the driver's
 * features made from them, and what the front ends print of them.  The
 * row of lines (shape_lines.c), records of the same struct, shares the
 * run and the words of the inputs and fields (xgo__contacts_*).
 */
#include <stdlib.h>
#include <string.h>
#include "xgo_internal.h"

/* The writer's view of m (xgo_internal.h). */
struct xgo_write xgo__contacts_view(const struct xgo_run_made *m,
                                    GDALDatasetH dst, const char *layer_name,
                                    char **lco)
{
    const struct xgo_contacts_res *r = m->res;
    struct xgo_write w = {m->job, m->job->op->dim, dst, layer_name, lco,
                          m->srs, m->a, m->b, &m->set[0], m->set[1].fid,
                          m->set[1].sub, &r->c, NULL, NULL};
    return w;
}

/* xgo_shape.run of contacts and lines: the operation's run (xg_op.run)
 * on A and B (xgo_internal.h). */
int xgo__contacts_run(struct xg_ctx *ctx, struct xgo_run_made *m,
                      struct xg_stats *st, struct xgo_report *rep, char *err,
                      size_t errlen)
{
    const struct xg_op *op = m->job->op;
    struct xg_opts o = xgo__core_opts(m->job);
    struct xgo_contacts_res *r;
    int rc;
    (void)rep;
    m->res = r = calloc(1, sizeof *r);
    if (!r)
        return xgo__fail(err, errlen, XG_ENOMEM, "out of memory");
    if ((rc = op->run(ctx, &m->set[0], &m->set[1], &o, &r->c, st)) != XG_OK)
        return xgo__fail(err, errlen, rc, "%s: %s", op->name,
                         *xg_ctx_errmsg(ctx) ? xg_ctx_errmsg(ctx)
                                             : xg_strerror(rc));
    m->records = &r->c;
    m->n = r->c.n;
    return XG_OK;
}

/* xgo_shape.free_res of contacts and lines (xgo_internal.h). */
void xgo__contacts_free(void *res)
{
    struct xgo_contacts_res *r = res;
    if (!r)
        return;
    xg_contacts_free(&r->c);
    xgo__out_free(&r->out);
    free(r);
}

/* xgo_shape.write: write.c's writer. */
static int write_records(const struct xgo_run_made *m, GDALDatasetH dst,
                 const char *layer_name, char **lco, struct xgo_report *rep,
                 GDALProgressFunc pf, void *pa, char *err, size_t errlen)
{
    struct xgo_write w = xgo__contacts_view(m, dst, layer_name, lco);
    return xgo__write(&w, rep, pf, pa, err, errlen);
}

/* xgo_shape.define: one layer of the contacts' type for every record
 * (the driver has no second layer for the lines). */
static int define(struct xgo_run_made *m, GDALDatasetH mem,
                  const char *layer_name, OGRLayerH *lyr, size_t *nfeat,
                  char *err, size_t errlen)
{
    struct xgo_contacts_res *r = m->res;
    struct xgo_write w = xgo__contacts_view(m, mem, layer_name, NULL);
    int rc = xgo__out_open(&w, &r->out, layer_name, xgo__contact_type(&w, 0),
                           err, errlen);
    *lyr = r->out.lyr;
    r->out.lyr = NULL;        /* mem goes: only the fields' indices stay */
    *nfeat = r->c.n;
    return rc;
}

/* xgo_shape.extent: the contacts' points, and the ends of stretches. */
static void extent(const struct xgo_run_made *m, struct xgo_extent *e)
{
    const struct xgo_contacts_res *r = m->res;
    size_t i;
    for (i = 0; i < r->c.n; i++) {
        const struct xg_contact *x = &r->c.v[i];
        xgo__extent_add(e, x->p[0], x->p[1]);
        if (x->kind == XG_KIND_OVERLAP)
            xgo__extent_add(e, x->q[0], x->q[1]);
    }
}

/* xgo_shape.feature: contact i, as write.c writes it. */
static OGRFeatureH feature(const struct xgo_run_made *m, OGRFeatureDefnH defn,
                           size_t i, char *err, size_t errlen)
{
    const struct xgo_contacts_res *r = m->res;
    struct xgo_write w = xgo__contacts_view(m, NULL, NULL, NULL);
    return xgo__contact_feature(&w, &r->out, defn, &r->c.v[i], err, errlen);
}

/* xgo_shape.summary_input of contacts and lines: "  A: path, layer
 * 'x': N features, M segments (K of zero length, skipped)" (no brackets
 * when the core skips none of them), for triangles what became of the
 * polygons, for closed surfaces how many features -skip-invalid
 * dropped. */
void xgo__contacts_summary_input(FILE *f, const struct xgo_job *job, int i,
                                 const struct xg_stats *st,
                                 const struct xgo_report *rep)
{
    const struct xg_op_input *in = &job->op->in[i];
    fprintf(f, "  %c: %s, layer '%s': %llu features, ", "AB"[i],
            i ? job->b.path : job->a.path, i ? rep->b_layer : rep->a_layer,
            (unsigned long long)(i ? rep->b_features : rep->a_features));
    if (i && job->b.group)
        fprintf(f, "%llu groups by %s, ", (unsigned long long)rep->b_groups,
                job->b.group);
    fprintf(f, "%llu %s",
            (unsigned long long)(i ? st->b_count : st->a_count),
            in->elements);
    if (*in->skipped)
        fprintf(f, " (%llu %s, skipped)",
                (unsigned long long)(i ? st->b_skipped : st->a_skipped),
                in->skipped);
    /* the triangle reader triangulates polygons and skips bad ones:
     * this input's own */
    if (in->elem == XG_ELEM_TRIANGLE)
        fprintf(f, "; %llu polygons triangulated, %llu non-planar and %llu "
                   "degenerate polygons skipped",
                (unsigned long long)rep->triangulated[i],
                (unsigned long long)rep->nonplanar[i],
                (unsigned long long)rep->bad_polygons[i]);
    if (in->closed)
        fprintf(f, "; %llu %s not closed and %llu crossing themselves, "
                   "skipped", (unsigned long long)rep->not_closed,
                job->b.group ? "groups" : "features",
                (unsigned long long)rep->crossing);
    fputc('\n', f);
}

/* xgo_shape.summary_records: "  contacts: 96 (83 proper, 12 touch, 1
 * coplanar)", the kinds of the operation (xg_op.kinds). */
static void summary_records(FILE *f, const struct xgo_job *job,
                            const struct xg_stats *st,
                            const struct xgo_report *rep)
{
    const struct xg_op *op = job->op;
    const char *sep = "";
    uint64_t total = 0;
    int k;
    (void)rep;
    for (k = 0; k < XG_KIND_COUNT; k++)
        total += st->contacts[k];
    fprintf(f, "  contacts: %llu (", (unsigned long long)total);
    for (k = 0; k < XG_KIND_COUNT; k++)
        if ((op->kinds >> k) & 1u) {
            fprintf(f, "%s%llu %s", sep, (unsigned long long)st->contacts[k],
                    xg_kind_name(k, op->dim));
            sep = ", ";
        }
    fprintf(f, ")\n");
}

/* xgo_shape.stats_records: "contacts" by the operation's kinds, with
 * their total. */
static void stats_records(FILE *f, const struct xgo_job *job,
                          const struct xg_stats *st,
                          const struct xgo_report *rep)
{
    const struct xg_op *op = job->op;
    uint64_t total = 0;
    int k;
    (void)rep;
    fprintf(f, "  \"contacts\": {");
    for (k = 0; k < XG_KIND_COUNT; k++) {
        if (!((op->kinds >> k) & 1u))
            continue;
        fprintf(f, "\"%s\": %llu, ", xg_kind_name(k, op->dim),
                (unsigned long long)st->contacts[k]);
        total += st->contacts[k];
    }
    fprintf(f, "\"total\": %llu},\n", (unsigned long long)total);
}

/* ", \"name\"" for an input's index field; nothing when it has none. */
static void sub_field(FILE *f, const char *name)
{
    if (!name)
        return;
    fprintf(f, ", ");
    xgo__json_str(f, name);
}

/* The output's fixed fields in the table's JSON, as write.c makes them
 * (xgo_internal.h). */
void xgo__contacts_json_fields(FILE *f, const struct xg_op *op)
{
    fprintf(f, ", \"fields\": [\"" XGO_FIELD_A_FID "\"");
    sub_field(f, op->in[0].sub_field);
    fprintf(f, ", \"" XGO_FIELD_B_FID "\"");
    sub_field(f, op->in[1].sub_field);
    fprintf(f, "%s]", op->kinds ? ", \"" XGO_FIELD_KIND "\"" : "");
}

/* xgo_shape.json_output: the output's fixed fields, as write.c makes
 * them, and its geometries: lines only for overlaps. */
static void json_output(FILE *f, const struct xg_op *op)
{
    xgo__contacts_json_fields(f, op);
    fprintf(f, ", \"output\": [\"point\"%s]",
            (op->kinds >> XG_KIND_OVERLAP) & 1u ? ", \"line\"" : "");
}

/* "segment" of "segments": an input's element, singular. */
static void singular(const char *plural, char *buf, size_t len)
{
    size_t n = strlen(plural);
    snprintf(buf, len, "%.*s", (int)(n && plural[n - 1] == 's' ? n - 1 : n),
             plural);
}

/* xgo_shape.help_fields of contacts and lines: write.c's fields, per
 * input its id and index fields, then the kind and the copies where the
 * operation has them. */
void xgo__contacts_help_fields(FILE *f, const struct xg_op *op)
{
    char one[64];
    int i;
    fputs(", in (A, B) order:\n", f);
    for (i = 0; i < op->ninputs; i++) {
        fprintf(f, "  %c_fid            %c's feature id%s\n", "ab"[i],
                "AB"[i], i && ((op->kinds >> XG_KIND_OUTSIDE) & 1u)
                             ? "; NULL on outside records" : "");
        if (op->in[i].sub_field) {
            singular(op->in[i].elements, one, sizeof one);
            fprintf(f, "  %-16s the %s's index in its feature, from 0\n",
                    op->in[i].sub_field, one);
        }
    }
    if (op->kinds)
        fputs("  kind             what the record is (below)\n", f);
    if (op->options & XG_OPT_COPY)
        fputs("  a_*, b_*         the fields copied with -acopy, -bcopy\n",
              f);
}

/* xgo_shape.help_line of contacts and lines: "a_fid, a_seg, b_fid,
 * b_tri, kind, a_*, b_*", the kind and the copies where the operation
 * has them. */
void xgo__contacts_help_line(FILE *f, const struct xg_op *op)
{
    fprintf(f, "a_fid%s%s, b_fid%s%s%s%s\n",
            op->in[0].sub_field ? ", " : "",
            op->in[0].sub_field ? op->in[0].sub_field : "",
            op->in[1].sub_field ? ", " : "",
            op->in[1].sub_field ? op->in[1].sub_field : "",
            op->kinds ? ", kind" : "",
            op->options & XG_OPT_COPY ? ", a_*, b_*" : "");
}

/* xgo_shape.join_on of contacts and lines: the inputs' feature ids. */
void xgo__contacts_join_on(char *buf, size_t len, const struct xg_op *op)
{
    snprintf(buf, len, "a_fid%s", op->ninputs > 1 ? " and b_fid" : "");
}

/* xgo_shape.fids of contacts and lines: where the inputs' feature ids
 * are. */
void xgo__contacts_fids(char *buf, size_t len, const struct xg_op *op)
{
    int two = op->ninputs > 1;
    snprintf(buf, len, "%s the input%s feature ids",
             two ? "a_fid and b_fid hold" : "a_fid holds", two ? "s'" : "'s");
}

const struct xgo_shape xgo__shape_contacts = {
    .run = xgo__contacts_run,
    .free_res = xgo__contacts_free,
    .write = write_records,
    .write_pairs = xgo__write,
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
