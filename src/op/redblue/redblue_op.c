/*
 * redblue_op.c -- the operation redblue: segment x segment contacts in 2D
 * (map overlay).  Its row of the operation table (exactgeo_ops.h): what
 * it takes and gives, the texts the front ends print, its counters and
 * options.  The table lists it by its line in src/op/list.h.
 */
#include <stddef.h>
#include "xg_ops.h"

const struct xg_op xg__op_redblue = {
    .name = "redblue",
    .title = "Segment x segment contacts (2D map overlay, exact)",
    .summary = "contacts of 2D segments of A and B (lines, polygon rings)",
    .contract = "Every contact between the closed 2D segments of A and of "
                "B, exactly",
    .dim = 2,
    .kinds = XG_OP_CONTACTS,
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
    .counters = XG_OP_PAIR_COUNTERS,
    .options = XG_OPT_COPY | XG_OPT_GRID | XG_OPT_REGIONS,
    .layer = "contacts",
    .records = "contacts",
    .output_geometry = "a Point per proper or touch contact, a two-point "
                       "LineString per overlapping stretch",
    .parts = "a_seg and b_seg count over a feature's parts and rings"};
