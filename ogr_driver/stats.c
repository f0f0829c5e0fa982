/*
 * stats.c -- the figures of a run as one JSON object (--stats).  The
 * contacts by kind list the kinds of the operation (struct xg_op.kinds).
 * An operation of one input has no "b" nor B counts; one that gives
 * triangles has "triangles", "z_differ" and "verify" (the check's
 * findings, or null without --verify) instead of "contacts".  A run in
 * regions (mpi/) adds "ranks", "regions" and "per_rank".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "xgo_internal.h"

void xgo__json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void input(FILE *f, const char *key, const struct xgo_input *in,
                  const char *layer, uint64_t features, const char *more)
{
    fprintf(f, "  \"%s\": {\"path\": ", key);
    xgo__json_str(f, in->path);
    fprintf(f, ", \"layer\": ");
    xgo__json_str(f, layer);
    fprintf(f, ", \"where\": ");
    if (in->where)
        xgo__json_str(f, in->where);
    else
        fprintf(f, "null");
    fprintf(f, ", \"features\": %llu%s},\n", (unsigned long long)features,
            more);
}

/* A partitioned run (mpi/): its ranks and regions, and what each rank
 * did. */
static void partition(FILE *f, const struct xgo_report *rep)
{
    int r;
    fprintf(f, "  \"ranks\": %d,\n  \"regions\": %d,\n  \"per_rank\": [",
            rep->ranks, rep->regions);
    for (r = 0; r < rep->ranks; r++) {
        const struct xgo_rank *k = &rep->per_rank[r];
        fprintf(f, "%s\n    {\"rank\": %d, \"regions\": %u, \"features\": "
                   "%llu, \"contacts\": %llu, \"seconds\": {\"read\": %.6f, "
                   "\"compute\": %.6f, \"gather\": %.6f, \"write\": %.6f}}",
                r ? "," : "", r, (unsigned)k->regions,
                (unsigned long long)k->features,
                (unsigned long long)k->contacts, k->read_seconds,
                k->compute_seconds, k->gather_seconds, k->write_seconds);
    }
    fprintf(f, "\n  ],\n");
}

int xgo_stats_write_json(const char *path, const struct xgo_job *job,
                         const struct xg_stats *st,
                         const struct xgo_report *rep, char *err,
                         size_t errlen)
{
    FILE *f;
    const struct xg_op *op = job->op;
    const struct xg_counters *c = &st->cnt;
    double core = 0.0;
    int k;
    uint64_t total = 0;

    if (!op)
        return xgo__fail(err, errlen, XG_EINVAL, "%s: no operation", path);
    if (!(f = fopen(path, "w")))
        return xgo__fail(err, errlen, XG_EIO, "%s: cannot create: %s", path,
                         strerror(errno));
    errno = 0;    /* a failing write below sets it */
    fprintf(f, "{\n  \"operation\": ");
    xgo__json_str(f, op->name);
    fprintf(f, ",\n  \"engine\": ");
    xgo__json_str(f, xg_engine_name(st->engine));
    fprintf(f, ",\n  \"threads\": %d,\n  \"gpus\": %d,\n  \"grid\": [%d, "
            "%d, %d],\n", st->threads, st->gpus, st->grid[0], st->grid[1],
            st->grid[2]);
    if (rep->ranks > 0)
        partition(f, rep);
    input(f, "a", &job->a, rep->a_layer, rep->a_features, "");
    if (op->ninputs > 1)
        input(f, "b", &job->b, rep->b_layer, rep->b_features, "");
    fprintf(f, "  \"%s\": %llu,\n", op->in[0].count_key,
            (unsigned long long)st->a_count);
    if (op->ninputs > 1)
        fprintf(f, "  \"%s\": %llu,\n", op->in[1].count_key,
                (unsigned long long)st->b_count);
    fprintf(f, "  \"skipped\": {\"%s\": %llu, ", op->in[0].skip_key,
            (unsigned long long)st->a_skipped);
    if (op->ninputs > 1)
        fprintf(f, "\"%s\": %llu, ", op->in[1].skip_key,
                (unsigned long long)st->b_skipped);
    fprintf(f, "\"no_geometry_features\": %llu, "
               "\"nonplanar_polygons\": %llu, \"bad_polygons\": %llu",
            (unsigned long long)rep->null_geoms,
            (unsigned long long)rep->nonplanar,
            (unsigned long long)rep->bad_polygons);
    /* only where an input must be closed (-skip-invalid): the other
     * operations' figures stay as they were */
    if (op->in[0].closed || op->in[1].closed)
        fprintf(f, ", \"not_closed_features\": %llu, "
                   "\"self_crossing_features\": %llu",
                (unsigned long long)rep->not_closed,
                (unsigned long long)rep->crossing);
    fprintf(f, "},\n");
    fprintf(f, "  \"triangulated_polygons\": %llu,\n",
            (unsigned long long)rep->triangulated);
    /* the core's three work counts; their meaning for triangles
     * (exactgeo.h, xg_delaunay): triangulations built (cpu: strips,
     * retries counted), triangles built in them, triangles whose circle
     * needed another pass */
    fprintf(f, op->output == XG_OUTPUT_TRIANGLES
                   ? "  \"triangulations\": %llu,\n  \"triangles_built\": "
                     "%llu,\n  \"deferred_triangles\": %llu,\n"
                   : "  \"candidate_pairs\": %llu,\n  \"bbox_pairs\": %llu,\n"
                     "  \"deferred_pairs\": %llu,\n",
            (unsigned long long)st->candidates,
            (unsigned long long)st->bbox_pairs,
            (unsigned long long)st->deferred);
    fprintf(f, "  \"predicates\": %llu,\n"
               "  \"predicate_filter_failures\": %llu,\n"
               "  \"exact_evaluations\": %llu,\n  \"constructions\": %llu,\n"
               "  \"constructions_long_double\": %llu,\n"
               "  \"constructions_double_double\": %llu,\n"
               "  \"constructions_exact\": %llu,\n",
            (unsigned long long)c->predicates,
            (unsigned long long)c->filter_failures,
            (unsigned long long)c->exact_evals,
            (unsigned long long)c->constructions,
            (unsigned long long)c->construct_ld,
            (unsigned long long)c->construct_dd,
            (unsigned long long)c->construct_exact);
    if (op->output == XG_OUTPUT_TRIANGLES) {
        const struct xg_delaunay_report *v = &rep->verify;
        fprintf(f, "  \"z_differ\": %llu,\n  \"triangles\": %llu,\n",
                (unsigned long long)st->z_differ,
                (unsigned long long)rep->triangles);
        if (rep->verified)
            fprintf(f, "  \"verify\": {\"points\": %llu, \"triangles\": %llu, "
                       "\"hull_vertices\": %llu, \"bad_index\": %llu, "
                       "\"not_ccw\": %llu, \"bad_edges\": %llu, "
                       "\"missing\": %llu, \"count_off\": %llu, "
                       "\"not_delaunay\": %llu, \"not_canonical\": %llu},\n",
                    (unsigned long long)v->points,
                    (unsigned long long)v->triangles,
                    (unsigned long long)v->hull_vertices,
                    (unsigned long long)v->bad_index,
                    (unsigned long long)v->not_ccw,
                    (unsigned long long)v->bad_edges,
                    (unsigned long long)v->missing,
                    (unsigned long long)v->count_off,
                    (unsigned long long)v->not_delaunay,
                    (unsigned long long)v->not_canonical);
        else
            fprintf(f, "  \"verify\": null,\n");
        fprintf(f, "  \"features_written\": %llu,\n",
                (unsigned long long)rep->written);
    } else {
        fprintf(f, "  \"contacts\": {");
        for (k = 0; k < XG_KIND_COUNT; k++) {
            if (!((op->kinds >> k) & 1u))
                continue;
            fprintf(f, "\"%s\": %llu, ", xg_kind_name(k, op->dim),
                    (unsigned long long)st->contacts[k]);
            total += st->contacts[k];
        }
        fprintf(f, "\"total\": %llu},\n  \"features_written\": %llu,\n",
                (unsigned long long)total, (unsigned long long)rep->written);
    }
    fprintf(f, "  \"output\": {\"layer\": ");
    xgo__json_str(f, rep->layer);
    fprintf(f, ", \"lines_layer\": ");
    if (rep->lines_layer[0])
        xgo__json_str(f, rep->lines_layer);
    else
        fprintf(f, "null");
    fprintf(f, "},\n");
    fprintf(f, "  \"seconds\": {\"read\": %.6f, ", rep->read_seconds);
    for (k = 0; k < XG_STAGE_COUNT; k++) {
        fprintf(f, "\"%s\": %.6f, ", xg_stage_name(k), st->seconds[k]);
        if (k != XG_STAGE_EXACT)  /* inside intersect for the CPU engines */
            core += st->seconds[k];
    }
    if (op->check)
        fprintf(f, "\"verify\": %.6f, ", rep->verify_seconds);
    fprintf(f, "\"write\": %.6f, \"close\": %.6f, \"total\": %.6f}\n}\n",
            rep->write_seconds, rep->close_seconds,
            rep->read_seconds + core + rep->verify_seconds +
                rep->write_seconds + rep->close_seconds);
    /* a failed write shows at fflush (or earlier, in ferror) */
    if (fflush(f) != 0 || ferror(f)) {
        int e = errno ? errno : EIO;
        fclose(f);
        return xgo__fail(err, errlen, XG_EIO, "%s: write failed: %s", path,
                         strerror(e));
    }
    if (fclose(f) != 0)
        return xgo__fail(err, errlen, XG_EIO, "%s: write failed: %s", path,
                         strerror(errno));
    return XG_OK;
}
