/*
 * ops.c -- the operation table (exactgeo.h): the one place that names
 * each operation and says what it takes and gives.  A new operation is a
 * new entry here plus its own files (its engine, its reader where its
 * element kinds need one).  Operations of two inputs give contacts (run);
 * delaunay takes one input and gives triangles (run_tri, check).
 */
#include <string.h>
#include "xg_internal.h"

#define CONTACTS ((1u << XG_KIND_PROPER) | (1u << XG_KIND_TOUCH) | \
                  (1u << XG_KIND_OVERLAP))
#define PLACES ((1u << XG_KIND_INSIDE) | (1u << XG_KIND_BOUNDARY) | \
                (1u << XG_KIND_OUTSIDE))

static const struct xg_op ops[] = {
    {"segtri", "Segment x triangle contacts (3D, exact)",
     "contacts of 3D lines A (drill holes) with 3D surfaces B (meshes)",
     "Every contact between the closed 3D segments of A and the closed "
     "triangles of B, exactly",
     3, CONTACTS,
     {{XG_ELEM_SEGMENT, "Segments", "LineString Z: drill holes", "segments",
       "of zero length", "a_seg", "segments", "zero_length_segments", 0, 640},
      {XG_ELEM_TRIANGLE, "Triangles",
       "Polygon Z, TIN, PolyhedralSurface: meshes", "triangles", "degenerate",
       "b_tri", "triangles", "degenerate_triangles", 0, 136}},
     xg_segtri, 2, XG_OUTPUT_CONTACTS, NULL, NULL},
    {"redblue", "Segment x segment contacts (2D map overlay, exact)",
     "contacts of 2D segments of A and B (lines, polygon rings)",
     "Every contact between the closed 2D segments of A and of B, exactly",
     2, CONTACTS,
     {{XG_ELEM_SEGMENT, "Red segments", "lines or polygon rings", "segments",
       "of zero length", "a_seg", "segments", "zero_length_segments", 0, 456},
      {XG_ELEM_SEGMENT, "Blue segments", "lines or polygon rings",
       "segments", "of zero length", "b_seg", "b_segments",
       "zero_length_b_segments", 0, 456}},
     xg_redblue, 2, XG_OUTPUT_CONTACTS, NULL, NULL},
    {"inside", "Points in closed solids (3D, exact)",
     "closed 3D solids B (ore bodies) holding each 3D point of A (blocks)",
     "Every point of A with each closed solid of B that holds it, inside "
     "or on its boundary, exactly",
     3, PLACES,
     {{XG_ELEM_POINT, "Points", "Point Z, MultiPoint Z: block centroids, "
       "samples", "points", "", "a_part", "points", "skipped_points", 0, 24},
      {XG_ELEM_TRIANGLE, "Solids",
       "closed PolyhedralSurface Z, TIN Z or Polygon Z surfaces: one solid "
       "per feature", "triangles", "degenerate", NULL, "triangles",
       "degenerate_triangles", 1, 368}},
     xg_inside, 2, XG_OUTPUT_CONTACTS, NULL, NULL},
    /* one input; triangles, not contacts: no kinds, no B, no index
     * field of its own (the writer names the vertices v0, v1, v2) */
    {"delaunay", "Delaunay triangulation (2D, exact)",
     "Delaunay triangulation of the (x, y) of points A (survey points)",
     "The Delaunay triangulation of the distinct (x, y) of the points of "
     "A, exactly, cocircular points decided by one symbolic rule",
     2, 0,
     {{XG_ELEM_POINT, "Points", "Point, MultiPoint, with or without Z: "
       "survey points", "points", "at the (x, y) of another",
       NULL, "points", "duplicate_points", 0, 176},
      {0}},
     NULL, 1, XG_OUTPUT_TRIANGLES, xg_delaunay, xg_delaunay_check},
};

size_t xg_op_count(void)
{
    return sizeof ops / sizeof ops[0];
}

const struct xg_op *xg_op_at(size_t i)
{
    return i < xg_op_count() ? &ops[i] : NULL;
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
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}
