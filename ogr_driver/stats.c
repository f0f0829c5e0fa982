/*
 * stats.c -- the figures of a run as one JSON object (--stats).  The
 * keys come from the operation's entry: its inputs' counts (an
 * operation of one input has no "b" nor B counts), its work counters
 * (xg_op.counters), its records' section by their shape (xgo_shape.h:
 * "contacts" by the operation's kinds; "z_differ" and "triangles"), and
 * where it has a check, "verify" (the check's counts, or null without
 * --verify).  A run in regions (mpi/) adds "ranks", "regions" and
 * "per_rank".
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

/* "  \"a\": {...}," for an input: its path, layer, filter, features. */
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

/* The run's setting: operation, engine, threads, GPUs, grid. */
static void setting(FILE *f, const struct xg_op *op,
                    const struct xg_stats *st)
{
    fprintf(f, "{\n  \"operation\": ");
    xgo__json_str(f, op->name);
    fprintf(f, ",\n  \"engine\": ");
    xgo__json_str(f, xg_engine_name(st->engine));
    fprintf(f, ",\n  \"threads\": %d,\n  \"gpus\": %d,\n  \"grid\": [%d, "
            "%d, %d],\n", st->threads, st->gpus, st->grid[0], st->grid[1],
            st->grid[2]);
}

/* The inputs: each one's source, its elements' count, and what the
 * reader and the core skipped of them. */
static void inputs(FILE *f, const struct xgo_job *job,
                   const struct xg_stats *st, const struct xgo_report *rep)
{
    const struct xg_op *op = job->op;
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
    /* the polygons' counts over both inputs: the keys of an operation
     * with one input of triangles mean what they always did (the
     * summary gives each input's own) */
    fprintf(f, "\"no_geometry_features\": %llu, "
               "\"nonplanar_polygons\": %llu, \"bad_polygons\": %llu",
            (unsigned long long)rep->null_geoms,
            (unsigned long long)(rep->nonplanar[0] + rep->nonplanar[1]),
            (unsigned long long)(rep->bad_polygons[0] +
                                 rep->bad_polygons[1]));
    /* only where an input must be closed (-skip-invalid): the other
     * operations' figures stay as they were */
    if (op->in[0].closed || op->in[1].closed)
        fprintf(f, ", \"not_closed_features\": %llu, "
                   "\"self_crossing_features\": %llu",
                (unsigned long long)rep->not_closed,
                (unsigned long long)rep->crossing);
    fprintf(f, "},\n");
    fprintf(f, "  \"triangulated_polygons\": %llu,\n",
            (unsigned long long)(rep->triangulated[0] + rep->triangulated[1]));
}

/* The core's work: the operation's named counters (their meaning is
 * its engines'), then the predicates and constructions. */
static void work(FILE *f, const struct xg_op *op, const struct xg_stats *st)
{
    const struct xg_counters *c = &st->cnt;
    int k;
    for (k = 0; k < XG_OP_COUNTERS && op->counters[k].key; k++) {
        uint64_t v;
        memcpy(&v, (const char *)st + op->counters[k].offset, sizeof v);
        fprintf(f, "  \"%s\": %llu,\n", op->counters[k].key,
                (unsigned long long)v);
    }
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
}

/* "verify": the check's counts by their keys, or null when it did not
 * run (--verify not given). */
static void verified(FILE *f, const struct xgo_report *rep)
{
    int k;
    if (!rep->verified) {
        fprintf(f, "  \"verify\": null,\n");
        return;
    }
    fprintf(f, "  \"verify\": {");
    for (k = 0; k < rep->verify.n; k++)
        fprintf(f, "%s\"%s\": %llu", k ? ", " : "", rep->verify.v[k].key,
                (unsigned long long)rep->verify.v[k].n);
    fprintf(f, "},\n");
}

/* The output layers, and the seconds of each stage. */
static void output(FILE *f, const struct xg_op *op,
                   const struct xg_stats *st, const struct xgo_report *rep)
{
    double core = 0.0;
    int k;
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
}

int xgo_stats_write_json(const char *path, const struct xgo_job *job,
                         const struct xg_stats *st,
                         const struct xgo_report *rep, char *err,
                         size_t errlen)
{
    FILE *f;
    const struct xg_op *op = job->op;

    if (!op)
        return xgo__fail(err, errlen, XG_EINVAL, "%s: no operation", path);
    if (!(f = fopen(path, "w")))
        return xgo__fail(err, errlen, XG_EIO, "%s: cannot create: %s", path,
                         strerror(errno));
    errno = 0;    /* a failing write below sets it */
    setting(f, op, st);
    if (rep->ranks > 0)
        partition(f, rep);
    inputs(f, job, st, rep);
    work(f, op, st);
    xgo_shape_of(op)->stats_records(f, job, st, rep);
    if (op->check)
        verified(f, rep);
    fprintf(f, "  \"features_written\": %llu,\n",
            (unsigned long long)rep->written);
    output(f, op, st, rep);
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
