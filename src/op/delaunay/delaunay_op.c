/*
 * delaunay_op.c -- the operation delaunay: the Delaunay triangulation of
 * survey points in 2D.  Its row of the operation table (exactgeo_ops.h):
 * what it takes and gives, the texts the front ends print, its counters
 * and options.  The table lists it by its line in src/op/list.h.
 */
#include <stddef.h>
#include <string.h>
#include "xg_ops.h"

/* delaunay's check (xg_op_check_fn): xg_delaunay_check on the points a
 * and the triangles records (a struct xg_triangles), its report as named
 * counts: the first three figures, the rest findings.  The counts are
 * in the order --stats and the error message list them. */
static int delaunay_verify(struct xg_ctx *ctx, const struct xg_set *a,
                           const struct xg_set *b, const void *records,
                           struct xg_check_report *rep)
{
#define F(field, label, finding)                                           \
    {#field, label, finding, offsetof(struct xg_delaunay_report, field)}
    static const struct {
        const char *key, *label;
        int finding;
        size_t at;
    } count[] = {F(points, "points", 0),
                 F(triangles, "triangles", 0),
                 F(hull_vertices, "hull vertices", 0),
                 F(bad_index, "bad vertex indices", 1),
                 F(not_ccw, "not counter-clockwise", 1),
                 F(bad_edges, "bad edges", 1),
                 F(missing, "points missing or repeated", 1),
                 F(count_off, "off the Euler count", 1),
                 F(not_delaunay, "not Delaunay", 1),
                 F(not_canonical, "not canonical (cocircular)", 1)};
#undef F
    _Static_assert(sizeof count / sizeof count[0] <= XG_CHECK_MAX,
                   "the report holds every count");
    const struct xg_triangles *t = records;
    struct xg_delaunay_report d;
    int rc, k;
    (void)b;
    memset(rep, 0, sizeof *rep);
    rc = xg_delaunay_check(ctx, a, (const uint32_t(*)[3])t->v, t->n, &d);
    if (rc != XG_OK)
        return rc;
    rep->ok = "the triangles tile the hull once and are Delaunay";
    rep->wrong = "the triangulation is wrong";
    for (k = 0; k < (int)(sizeof count / sizeof count[0]); k++) {
        struct xg_check_count *c = &rep->v[rep->n++];
        c->key = count[k].key;
        c->label = count[k].label;
        c->finding = count[k].finding;
        memcpy(&c->n, (const char *)&d + count[k].at, sizeof c->n);
    }
    return XG_OK;
}

/* One input; triangles, not contacts: no kinds, no B, no index field of
 * its own (the writer names the vertices v0, v1, v2).  Its engines count
 * triangulations (cpu: strips, retries counted), the triangles built in
 * them and the triangles whose circle needed another pass where the pair
 * engines count pairs (exactgeo.h, xg_delaunay). */
const struct xg_op xg__op_delaunay = {
    .name = "delaunay",
    .title = "Delaunay triangulation (2D, exact)",
    .summary = "Delaunay triangulation of the (x, y) of points A (survey "
               "points)",
    .contract = "The Delaunay triangulation of the distinct (x, y) of the "
                "points of A, exactly, cocircular points decided by one "
                "symbolic rule",
    .dim = 2,
    .kinds = 0,
    .in = {{XG_ELEM_POINT, "Points",
            "Point, MultiPoint, with or without Z: survey points", "points",
            "at the (x, y) of another", NULL, "points", "duplicate_points",
            0, 176},
           {0}},
    .ninputs = 1,
    .shape = XG_SHAPE_TRIANGLES,
    .run_tri = xg_delaunay,
    .check = delaunay_verify,
    .counters = {XG_OP_COUNTER("triangulations", candidates),
                 XG_OP_COUNTER("triangles_built", bbox_pairs),
                 XG_OP_COUNTER("deferred_triangles", deferred)},
    .options = XG_OPT_VERIFY | XG_OPT_TIN,
    .layer = "triangles",
    .records = "triangles",
    .output_geometry = "a Polygon (PolygonZ when the points have Z) per "
                       "triangle, or with --tin one TIN",
    .parts = "each point of a MultiPoint is a point of its own; v0_part, "
             "v1_part, v2_part give its index when some feature has "
             "several"};
