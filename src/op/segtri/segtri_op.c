/*
 * segtri_op.c -- the operation segtri: segment x triangle contacts in 3D
 * (drill holes x meshes).  Its row of the operation table
 * (exactgeo_ops.h): what it takes and gives, the texts the front ends
 * print, its counters and options.  The table lists it by its line in
 * src/op/list.h.
 */
#include <stddef.h>
#include "xg_ops.h"

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
    .kinds = XG_OP_CONTACTS,
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
    .counters = XG_OP_PAIR_COUNTERS,
    .options = XG_OPT_COPY | XG_OPT_GRID | XG_OPT_REGIONS | XG_OPT_GROUP,
    .layer = "contacts",
    .records = "contacts",
    .output_geometry = "a PointZ per proper or touch contact, a two-point "
                       "LineStringZ per coplanar stretch",
    .parts = "a_seg and b_tri count over a feature's parts"};
