/*
 * summary.c -- the summary the exactgeo tool prints after a run (unless
 * -q): each input in its operation's words, engine, the records, times,
 * output.  What differs by the shape of the operation's records (the
 * inputs' lines, the records' line) is its row's (xgo_shape.h).
 */
#include <stdio.h>
#include "summary.h"
#include "xgo_shape.h"

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

/* The check's line (--verify; a check with findings failed the run):
 * "  verify: 3153 points, 6232 triangles, 72 hull vertices; 0 bad: the
 * triangles tile the hull once and are Delaunay", its figures (the
 * counts that are no finding) in order. */
static void verify_line(const struct xg_check_report *v)
{
    const char *sep = "";
    int k;
    printf("  verify: ");
    for (k = 0; k < v->n; k++)
        if (!v->v[k].finding) {
            printf("%s%llu %s", sep, (unsigned long long)v->v[k].n,
                   v->v[k].label);
            sep = ", ";
        }
    printf("; 0 bad: %s\n", v->ok);
}

void summary_print(const char *dst, const struct xgo_job *job,
                   const struct xg_stats *st, const struct xgo_report *rep)
{
    const struct xg_op *op = job->op;
    const struct xgo_shape *sh = xgo_shape_of(op);
    double core = 0;
    int k;
    for (k = 0; k < XG_STAGE_COUNT; k++)
        if (k != XG_STAGE_EXACT)
            core += st->seconds[k];
    printf("exactgeo %s\n", op->name);
    for (k = 0; k < op->ninputs; k++)
        sh->summary_input(stdout, job, k, st, rep);
    if (rep->null_geoms)
        printf("  features without geometry, skipped: %llu\n",
               (unsigned long long)rep->null_geoms);
    printf("  engine %s, %d thread%s", xg_engine_name(st->engine),
           st->threads, st->threads == 1 ? "" : "s");
    gpus_regions(st);
    if (op->options & XG_OPT_GRID)
        printf(", grid %dx%dx%d", st->grid[0], st->grid[1], st->grid[2]);
    printf("\n");
    sh->summary_records(stdout, job, st, rep);
    if (rep->verified)
        verify_line(&rep->verify);
    printf("  seconds: read %.3f, compute %.3f, ", rep->read_seconds, core);
    if (rep->verified)
        printf("verify %.3f, ", rep->verify_seconds);
    printf("write %.3f, close %.3f\n", rep->write_seconds, rep->close_seconds);
    if (rep->ranks > 0)
        partition(rep);
    printf("  output: %s, layer '%s'", dst, rep->layer);
    if (rep->lines_layer[0])
        printf(" and '%s' (lines)", rep->lines_layer);
    printf(", %llu features\n", (unsigned long long)rep->written);
}
