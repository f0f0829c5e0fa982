/*
 * boxmeet.c -- a test operation (built with ./configure --enable-test-ops
 * only): two meshes in, segments out.  It exists to show what a new
 * operation of that kind adds (docs/operations.md, "What a new
 * operation adds") and to run that path through every front end
 * (tests/boxmeet_t.sh); it is not a product.
 *
 * For each pair of a triangle of A and a triangle of B whose closed
 * boxes (x, y, z) meet, one segment: the diagonal of the boxes' common
 * box, from its lowest corner (the larger of the two minima on each
 * axis) to its highest (the smaller of the two maxima).  Only
 * comparisons of input coordinates: exact, whatever the engine or the
 * threads.  The lowest corner lies in both boxes, so a region that owns
 * it (its (x, y)) reads both triangles: a run in regions gives the
 * single run's segments.  Degenerate (collinear) triangles are skipped,
 * as segtri and inside skip them.
 */
#include <stddef.h>
#include "xg_pair.h"
#include "xg_regions.h"
#include "xg_boxes.h"
#include "xg_engine.h"
#include "xg_ops.h"

/* The pair's segment into c: 1 when the boxes of triangles ta and tb
 * meet (then c->kind is XG_KIND_OVERLAP, a stretch from c->p to c->q),
 * else 0.  Exact: it only compares and copies coordinates; the fast and
 * the exact pass of the pair engine are this one function. */
static int pair(struct xg_counters *cnt, const double *ta, const double *tb,
                struct xg_contact *c)
{
    double a[6], b[6];
    int k;
    cnt->predicates++;
    xg__tri_box(ta, a);
    xg__tri_box(tb, b);
    if (!xg__boxes_meet(a, b))
        return 0;
    for (k = 0; k < 3; k++) {
        c->p[k] = a[k] > b[k] ? a[k] : b[k];
        c->q[k] = a[3 + k] < b[3 + k] ? a[3 + k] : b[3 + k];
    }
    c->kind = XG_KIND_OVERLAP;
    return 1;
}

/* Triangles both sides, boxes in 3D; no GPU settle (no GPU engine). */
static const struct xg__pair_ops boxmeet_ops = {
    XG_ELEM_TRIANGLE, XG_ELEM_TRIANGLE, 3, xg__tri_box_kept, xg__tri_box_kept,
    pair, pair, NULL, 0,
};

/* The whole run, one region (opt, st not NULL): the pair engine, as
 * segtri's and redblue's; the gpu engine where one is registered (none
 * is: the registry's message then). */
static int boxmeet_one(struct xg_ctx *ctx, const struct xg_set *a,
                       const struct xg_set *b, const struct xg_opts *opt,
                       struct xg_contacts *out, struct xg_stats *st)
{
    int engine, rc;
    rc = xg__pair_begin(ctx, &boxmeet_ops, a, b, opt, out, st, &engine);
    if (rc != XG_OK)
        return rc;
    if (engine == XG_ENGINE_GPU)
        rc = xg__engine_pair(ctx, &xg__op_boxmeet, XG_ENGINE_GPU, a, b, opt,
                             NULL, out, st);
    else
        rc = xg__pair_run(ctx, &boxmeet_ops, a->xyz, a->n, b->xyz, b->n, opt,
                          st->threads, NULL, out, st);
    return xg__pair_end(ctx, rc, out, st);
}

static const struct xg__region_op boxmeet_region = {&boxmeet_ops, 0,
                                                    boxmeet_one, NULL,
                                                    &xg__op_boxmeet};

/* The row's entry point (xg_op_run_fn): the run in regions when opt
 * asks for them, else boxmeet_one.  out is reset; the caller frees it. */
static int boxmeet(struct xg_ctx *ctx, const struct xg_set *a,
                   const struct xg_set *b, const struct xg_opts *opt,
                   struct xg_contacts *out, struct xg_stats *st)
{
    return xg__regions_entry(ctx, &boxmeet_region, a, b, opt, out, st);
}

/* Its row (exactgeo.h, struct xg_op), registered by its line in
 * src/op/list.h.  The memory per element is not measured
 * (bench/bench_memory knows no test operation): segtri's per triangle,
 * doubled. */
const struct xg_op xg__op_boxmeet = {
    .name = "boxmeet",
    .title = "Triangle box overlaps (3D, exact; a test operation)",
    .summary = "where the boxes of triangles of A and of B meet (a test "
               "operation)",
    .contract = "For every triangle of A and triangle of B whose closed "
                "boxes meet, the diagonal of their common box, exactly",
    .dim = 3,
    .kinds = 0,
    .in = {{XG_ELEM_TRIANGLE, "Mesh A",
            "Triangle, Polygon, MultiPolygon, TIN, PolyhedralSurface with "
            "Z", "triangles", "degenerate", "a_tri", "triangles",
            "degenerate_triangles", 0, 272},
           {XG_ELEM_TRIANGLE, "Mesh B",
            "Triangle, Polygon, MultiPolygon, TIN, PolyhedralSurface with "
            "Z", "triangles", "degenerate", "b_tri", "b_triangles",
            "degenerate_b_triangles", 0, 272}},
    .run = boxmeet,
    .ninputs = 2,
    .shape = XG_SHAPE_LINES,
    .counters = XG_OP_PAIR_COUNTERS,
    .options = XG_OPT_COPY | XG_OPT_GRID | XG_OPT_REGIONS,
    .layer = "segments",
    .records = "segments",
    .output_geometry = "a two-point LineStringZ per pair of triangles whose "
                       "boxes meet",
    .parts = "a_tri and b_tri count over a feature's parts"};
