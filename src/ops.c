/*
 * ops.c -- the operation table (exactgeo_ops.h): the one place that names
 * each operation and says what it takes and gives.  A new operation is a
 * new row here (xg__op_NAME, declared in xg_ops.h), its line in ops[],
 * plus its own files (its engine, its reader where its element kinds
 * need one); its shape (enum xg_shape) says how the front ends write,
 * summarise and count its records.  Operations of two inputs give
 * contacts (run); delaunay takes one input and gives triangles (run_tri,
 * check).
 */
#include <stddef.h>
#include <string.h>
#include "xg_ops.h"

#define CONTACTS ((1u << XG_KIND_PROPER) | (1u << XG_KIND_TOUCH) | \
                  (1u << XG_KIND_OVERLAP))
#define PLACES ((1u << XG_KIND_INSIDE) | (1u << XG_KIND_BOUNDARY) | \
                (1u << XG_KIND_OUTSIDE))

/* A work count of struct xg_stats under its --stats key. */
#define COUNTER(key, field) {key, offsetof(struct xg_stats, field)}
/* What the pair engines count (exactgeo.h, struct xg_stats). */
#define PAIR_COUNTERS                                                      \
    {COUNTER("candidate_pairs", candidates),                               \
     COUNTER("bbox_pairs", bbox_pairs), COUNTER("deferred_pairs", deferred)}

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

/* Designated initializers: a new field is one line per entry (and a
 * zero where an entry leaves it out).  The texts are what the front ends
 * print: help, advice for refused options, QGIS labels. */
const struct xg_op xg__op_segtri = {
    .name = "segtri",
    .title = "Segment x triangle contacts (3D, exact)",
    .summary = "contacts of 3D lines A (drill holes) with 3D surfaces B "
               "(meshes)",
    .contract = "Every contact between the closed 3D segments of A and the "
                "closed triangles of B, exactly",
    .dim = 3,
    .kinds = CONTACTS,
    .in = {{XG_ELEM_SEGMENT, "Segments",
            "LineString, MultiLineString with Z: drill holes", "segments",
            "of zero length", "a_seg", "segments", "zero_length_segments", 0,
            640},
           {XG_ELEM_TRIANGLE, "Triangles",
            "Triangle, Polygon, MultiPolygon, TIN, PolyhedralSurface with "
            "Z: meshes", "triangles", "degenerate", "b_tri", "triangles",
            "degenerate_triangles", 0, 136}},
    .run = xg_segtri,
    .ninputs = 2,
    .shape = XG_SHAPE_CONTACTS,
    .counters = PAIR_COUNTERS,
    .options = XG_OPT_COPY | XG_OPT_GRID | XG_OPT_REGIONS | XG_OPT_GROUP,
    .layer = "contacts",
    .records = "contacts",
    .output_geometry = "a PointZ per proper or touch contact, a two-point "
                       "LineStringZ per coplanar stretch",
    .parts = "a_seg and b_tri count over a feature's parts"};

const struct xg_op xg__op_redblue = {
    .name = "redblue",
    .title = "Segment x segment contacts (2D map overlay, exact)",
    .summary = "contacts of 2D segments of A and B (lines, polygon rings)",
    .contract = "Every contact between the closed 2D segments of A and of "
                "B, exactly",
    .dim = 2,
    .kinds = CONTACTS,
    .in = {{XG_ELEM_SEGMENT, "Red segments",
            "lines or polygon rings (LineString, Polygon, their Multi "
            "kinds; z ignored)", "segments", "of zero length", "a_seg",
            "segments", "zero_length_segments", 0, 456},
           {XG_ELEM_SEGMENT, "Blue segments",
            "lines or polygon rings (LineString, Polygon, their Multi "
            "kinds; z ignored)", "segments", "of zero length", "b_seg",
            "b_segments", "zero_length_b_segments", 0, 456}},
    .run = xg_redblue,
    .ninputs = 2,
    .shape = XG_SHAPE_CONTACTS,
    .counters = PAIR_COUNTERS,
    .options = XG_OPT_COPY | XG_OPT_GRID | XG_OPT_REGIONS,
    .layer = "contacts",
    .records = "contacts",
    .output_geometry = "a Point per proper or touch contact, a two-point "
                       "LineString per overlapping stretch",
    .parts = "a_seg and b_seg count over a feature's parts and rings"};

const struct xg_op xg__op_inside = {
    .name = "inside",
    .title = "Points in closed solids (3D, exact)",
    .summary = "closed 3D solids B (ore bodies) holding each 3D point of A "
               "(blocks)",
    .contract = "Every point of A with each closed solid of B that holds "
                "it, inside or on its boundary, exactly",
    .dim = 3,
    .kinds = PLACES,
    .in = {{XG_ELEM_POINT, "Points",
            "Point, MultiPoint with Z: block centroids, samples", "points",
            "", "a_part", "points", "skipped_points", 0, 24},
           {XG_ELEM_TRIANGLE, "Solids",
            "one closed surface per feature: PolyhedralSurface, TIN, "
            "Polygon, MultiPolygon with Z", "triangles", "degenerate", NULL,
            "triangles", "degenerate_triangles", 1, 368}},
    .run = xg_inside,
    .ninputs = 2,
    .shape = XG_SHAPE_CONTACTS,
    .counters = PAIR_COUNTERS,
    .options = XG_OPT_COPY | XG_OPT_GRID | XG_OPT_REGIONS | XG_OPT_OUTSIDE |
               XG_OPT_SKIP_INVALID | XG_OPT_GROUP | XG_OPT_SOLIDS_CHECKED,
    .layer = "contacts",
    .records = "records",
    .output_geometry = "a PointZ per record: the point of A (one per point "
                       "and solid holding it)",
    .parts = "a_part is the point's index in its MultiPoint; a B feature "
             "of several parts is one solid"};

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
    .counters = {COUNTER("triangulations", candidates),
                 COUNTER("triangles_built", bbox_pairs),
                 COUNTER("deferred_triangles", deferred)},
    .options = XG_OPT_VERIFY | XG_OPT_TIN,
    .layer = "triangles",
    .records = "triangles",
    .output_geometry = "a Polygon (PolygonZ when the points have Z) per "
                       "triangle, or with --tin one TIN",
    .parts = "each point of a MultiPoint is a point of its own; v0_part, "
             "v1_part, v2_part give its index when some feature has "
             "several"};

/* The table, in the order --help lists the operations: one line per
 * operation. */
static const struct xg_op *const ops[] = {&xg__op_segtri, &xg__op_redblue,
                                          &xg__op_inside, &xg__op_delaunay,
#ifdef XG_TEST_OPS
                                          &xg__op_boxmeet, /* tests/op/ */
#endif
};

size_t xg_op_count(void)
{
    return sizeof ops / sizeof ops[0];
}

const struct xg_op *xg_op_at(size_t i)
{
    return i < xg_op_count() ? ops[i] : NULL;
}

uint64_t xg_op_memory(const struct xg_op *op, size_t na, size_t nb)
{
    if (!op)
        return 0;
    return (uint64_t)op->in[0].bytes * na + (uint64_t)op->in[1].bytes * nb;
}

const struct xg_op *xg_op_find(const char *name)
{
    size_t i;
    for (i = 0; name && i < xg_op_count(); i++)
        if (strcmp(ops[i]->name, name) == 0)
            return ops[i];
    return NULL;
}
