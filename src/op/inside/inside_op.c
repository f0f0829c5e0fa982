/*
 * inside_op.c -- the operation inside: points in closed solids in 3D
 * (block models in ore bodies).  Its row of the operation table
 * (exactgeo_ops.h): what it takes and gives, the texts the front ends
 * print, its counters and options.  The table lists it by its line in
 * src/op/list.h.
 */
#include <stddef.h>
#include "xg_ops.h"

const struct xg_op xg__op_inside = {
    .name = "inside",
    .title = "Points in closed solids (3D, exact)",
    .summary = "closed 3D solids B (ore bodies) holding each 3D point of A "
               "(blocks)",
    .contract = "Every point of A with each closed solid of B that holds "
                "it, inside or on its boundary, exactly",
    .dim = 3,
    .kinds = XG_OP_PLACES,
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
    .counters = XG_OP_PAIR_COUNTERS,
    .options = XG_OPT_COPY | XG_OPT_GRID | XG_OPT_REGIONS | XG_OPT_OUTSIDE |
               XG_OPT_SKIP_INVALID | XG_OPT_GROUP | XG_OPT_SOLIDS_CHECKED,
    .layer = "contacts",
    .records = "records",
    .output_geometry = "a PointZ per record: the point of A (one per point "
                       "and solid holding it)",
    .parts = "a_part is the point's index in its MultiPoint; a B feature "
             "of several parts is one solid"};
