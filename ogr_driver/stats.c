/*
 * stats.c -- the figures of a run as one JSON object (--stats).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "xgo_internal.h"

static void jstr(FILE *f, const char *s)
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
    jstr(f, in->path);
    fprintf(f, ", \"layer\": ");
    jstr(f, layer);
    fprintf(f, ", \"where\": ");
    if (in->where)
        jstr(f, in->where);
    else
        fprintf(f, "null");
    fprintf(f, ", \"features\": %llu%s},\n", (unsigned long long)features,
            more);
}

int xgo_stats_write_json(const char *path, const struct xgo_job *job,
                         const struct xg_stats *st,
                         const struct xgo_report *rep, char *err,
                         size_t errlen)
{
    FILE *f = fopen(path, "w");
    const int dim = job->op && strcmp(job->op, "redblue") == 0 ? 2 : 3;
    const struct xg_counters *c = &st->cnt;
    double core = 0.0;
    int k;
    uint64_t total = 0;

    if (!f)
        return xgo__fail(err, errlen, XG_EIO, "%s: cannot create: %s", path,
                         strerror(errno));
    errno = 0;    /* a failing write below sets it */
    fprintf(f, "{\n  \"operation\": ");
    jstr(f, job->op);
    fprintf(f, ",\n  \"engine\": ");
    jstr(f, xg_engine_name(st->engine));
    fprintf(f, ",\n  \"threads\": %d,\n  \"grid\": [%d, %d, %d],\n",
            st->threads, st->grid[0], st->grid[1], st->grid[2]);
    input(f, "a", &job->a, rep->a_layer, rep->a_features, "");
    input(f, "b", &job->b, rep->b_layer, rep->b_features, "");
    fprintf(f, "  \"segments\": %llu,\n  \"%s\": %llu,\n",
            (unsigned long long)st->a_count,
            dim == 3 ? "triangles" : "b_segments",
            (unsigned long long)st->b_count);
    fprintf(f, "  \"skipped\": {\"zero_length_segments\": %llu, "
               "\"%s\": %llu, \"no_geometry_features\": %llu, "
               "\"nonplanar_polygons\": %llu, \"bad_polygons\": %llu},\n",
            (unsigned long long)st->a_skipped,
            dim == 3 ? "degenerate_triangles" : "zero_length_b_segments",
            (unsigned long long)st->b_skipped,
            (unsigned long long)rep->null_geoms,
            (unsigned long long)rep->nonplanar,
            (unsigned long long)rep->bad_polygons);
    fprintf(f, "  \"triangulated_polygons\": %llu,\n",
            (unsigned long long)rep->triangulated);
    fprintf(f, "  \"candidate_pairs\": %llu,\n  \"bbox_pairs\": %llu,\n"
               "  \"deferred_pairs\": %llu,\n  \"predicates\": %llu,\n"
               "  \"predicate_filter_failures\": %llu,\n"
               "  \"exact_evaluations\": %llu,\n  \"constructions\": %llu,\n"
               "  \"constructions_long_double\": %llu,\n"
               "  \"constructions_double_double\": %llu,\n"
               "  \"constructions_exact\": %llu,\n",
            (unsigned long long)st->candidates,
            (unsigned long long)st->bbox_pairs,
            (unsigned long long)st->deferred,
            (unsigned long long)c->predicates,
            (unsigned long long)c->filter_failures,
            (unsigned long long)c->exact_evals,
            (unsigned long long)c->constructions,
            (unsigned long long)c->construct_ld,
            (unsigned long long)c->construct_dd,
            (unsigned long long)c->construct_exact);
    fprintf(f, "  \"contacts\": {");
    for (k = 0; k < XG_KIND_COUNT; k++) {
        fprintf(f, "\"%s\": %llu, ", xg_kind_name(k, dim),
                (unsigned long long)st->contacts[k]);
        total += st->contacts[k];
    }
    fprintf(f, "\"total\": %llu},\n  \"features_written\": %llu,\n",
            (unsigned long long)total, (unsigned long long)rep->written);
    fprintf(f, "  \"output\": {\"layer\": ");
    jstr(f, rep->layer);
    fprintf(f, ", \"lines_layer\": ");
    if (rep->lines_layer[0])
        jstr(f, rep->lines_layer);
    else
        fprintf(f, "null");
    fprintf(f, "},\n");
    fprintf(f, "  \"seconds\": {\"read\": %.6f, ", rep->read_seconds);
    for (k = 0; k < XG_STAGE_COUNT; k++) {
        fprintf(f, "\"%s\": %.6f, ", xg_stage_name(k), st->seconds[k]);
        if (k != XG_STAGE_EXACT)  /* inside intersect for the CPU engines */
            core += st->seconds[k];
    }
    fprintf(f, "\"write\": %.6f, \"close\": %.6f, \"total\": %.6f}\n}\n",
            rep->write_seconds, rep->close_seconds,
            rep->read_seconds + core + rep->write_seconds +
                rep->close_seconds);
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
