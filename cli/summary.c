/*
 * summary.c -- the summary the exactgeo tool prints after a run (unless
 * -q): each input in its operation's words, engine, contacts by the kinds
 * of its operation (struct xg_op.kinds), times, output.
 */
#include <stdio.h>
#include "summary.h"

/* "  A: path, layer 'x': N features, M segments (K of zero length,
 * skipped)" (no brackets when the core skips none of them), for
 * triangles what became of the polygons, for closed surfaces how many
 * features -skip-invalid dropped. */
/* ", 2 GPUs, 6 regions" after the engine's threads: the devices the gpu
 * engine ran on, and the regions a run was cut into (nothing for one
 * region on the CPU, so that those lines stay as they were). */
static void gpus_regions(const struct xg_stats *st)
{
    if (st->gpus > 0)
        printf(", %d GPU%s", st->gpus, st->gpus == 1 ? "" : "s");
    if (st->regions > 1)
        printf(", %d regions", st->regions);
}

static void input_line(const struct xgo_job *job, int i,
                       const struct xg_stats *st,
                       const struct xgo_report *rep)
{
    const struct xg_op_input *in = &job->op->in[i];
    printf("  %c: %s, layer '%s': %llu features, ", "AB"[i],
           i ? job->b.path : job->a.path, i ? rep->b_layer : rep->a_layer,
           (unsigned long long)(i ? rep->b_features : rep->a_features));
    if (i && job->b.group)
        printf("%llu groups by %s, ", (unsigned long long)rep->b_groups,
               job->b.group);
    printf("%llu %s", (unsigned long long)(i ? st->b_count : st->a_count),
           in->elements);
    if (*in->skipped)
        printf(" (%llu %s, skipped)",
               (unsigned long long)(i ? st->b_skipped : st->a_skipped),
               in->skipped);
    /* the triangle reader triangulates polygons and skips bad ones */
    if (in->elem == XG_ELEM_TRIANGLE)
        printf("; %llu polygons triangulated, %llu non-planar and %llu "
               "degenerate polygons skipped",
               (unsigned long long)rep->triangulated,
               (unsigned long long)rep->nonplanar,
               (unsigned long long)rep->bad_polygons);
    if (in->closed)
        printf("; %llu %s not closed and %llu crossing themselves, "
               "skipped", (unsigned long long)rep->not_closed,
               job->b.group ? "groups" : "features",
               (unsigned long long)rep->crossing);
    putchar('\n');
}

/* A run in regions (mpi/): how many, on how many processes, and what
 * each did (its seconds are its own; the line above sums the regions'
 * work). */
static void partition(const struct xgo_report *rep)
{
    int r;
    printf("  regions %d, ranks %d\n", rep->regions, rep->ranks);
    for (r = 0; r < rep->ranks; r++) {
        const struct xgo_rank *k = &rep->per_rank[r];
        printf("    rank %d: %u region%s, %llu features read, %llu contacts; "
               "seconds: read %.3f, compute %.3f, gather %.3f, write %.3f\n",
               r, (unsigned)k->regions, k->regions == 1 ? "" : "s",
               (unsigned long long)k->features,
               (unsigned long long)k->contacts, k->read_seconds,
               k->compute_seconds, k->gather_seconds, k->write_seconds);
    }
}

/* An operation that gives triangles (delaunay): its one input, the
 * points merged, the triangles, the check's findings (--verify). */
static void summary_triangles(const char *dst, const struct xgo_job *job,
                              const struct xg_stats *st,
                              const struct xgo_report *rep, double core)
{
    const struct xg_op_input *in = &job->op->in[0];
    printf("exactgeo %s\n", job->op->name);
    printf("  A: %s, layer '%s': %llu features, %llu %s%s (%llu %s, merged "
           "into the lowest FID's; %llu of them with another z)\n",
           job->a.path, rep->a_layer, (unsigned long long)rep->a_features,
           (unsigned long long)st->a_count, rep->has_z ? "" : "2D ",
           in->elements, (unsigned long long)st->a_skipped, in->skipped,
           (unsigned long long)st->z_differ);
    if (rep->null_geoms)
        printf("  features without geometry, skipped: %llu\n",
               (unsigned long long)rep->null_geoms);
    printf("  engine %s, %d thread%s", xg_engine_name(st->engine),
           st->threads, st->threads == 1 ? "" : "s");
    gpus_regions(st);
    printf("\n");
    printf("  triangles: %llu%s\n", (unsigned long long)rep->triangles,
           job->tin ? ", as one TIN" : "");
    if (rep->verified)
        printf("  verify: %llu points, %llu triangles, %llu hull vertices; "
               "0 bad: the triangles tile the hull once and are Delaunay\n",
               (unsigned long long)rep->verify.points,
               (unsigned long long)rep->verify.triangles,
               (unsigned long long)rep->verify.hull_vertices);
    printf("  seconds: read %.3f, compute %.3f, ", rep->read_seconds, core);
    if (rep->verified)
        printf("verify %.3f, ", rep->verify_seconds);
    printf("write %.3f, close %.3f\n", rep->write_seconds, rep->close_seconds);
    printf("  output: %s, layer '%s', %llu features\n", dst, rep->layer,
           (unsigned long long)rep->written);
}

void summary_print(const char *dst, const struct xgo_job *job,
                   const struct xg_stats *st, const struct xgo_report *rep)
{
    int dim = job->op->dim, k;
    const char *sep;
    uint64_t total = 0;
    double core = 0;
    for (k = 0; k < XG_KIND_COUNT; k++)
        total += st->contacts[k];
    for (k = 0; k < XG_STAGE_COUNT; k++)
        if (k != XG_STAGE_EXACT)
            core += st->seconds[k];
    if (job->op->output == XG_OUTPUT_TRIANGLES) {
        summary_triangles(dst, job, st, rep, core);
        return;
    }
    printf("exactgeo %s\n", job->op->name);
    input_line(job, 0, st, rep);
    input_line(job, 1, st, rep);
    if (rep->null_geoms)
        printf("  features without geometry, skipped: %llu\n",
               (unsigned long long)rep->null_geoms);
    printf("  engine %s, %d thread%s", xg_engine_name(st->engine),
           st->threads, st->threads == 1 ? "" : "s");
    gpus_regions(st);
    printf(", grid %dx%dx%d\n", st->grid[0], st->grid[1], st->grid[2]);
    printf("  contacts: %llu (", (unsigned long long)total);
    for (k = 0, sep = ""; k < XG_KIND_COUNT; k++)
        if ((job->op->kinds >> k) & 1u) {
            printf("%s%llu %s", sep, (unsigned long long)st->contacts[k],
                   xg_kind_name(k, dim));
            sep = ", ";
        }
    printf(")\n");
    printf("  seconds: read %.3f, compute %.3f, write %.3f, close %.3f\n",
           rep->read_seconds, core, rep->write_seconds, rep->close_seconds);
    if (rep->ranks > 0)
        partition(rep);
    printf("  output: %s, layer '%s'", dst, rep->layer);
    if (rep->lines_layer[0])
        printf(" and '%s' (lines)", rep->lines_layer);
    printf(", %llu features\n", (unsigned long long)rep->written);
}
