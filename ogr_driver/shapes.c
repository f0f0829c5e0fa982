/*
 * shapes.c -- the table of result shapes (xgo_shape.h): one row per
 * enum xg_shape value, each in its own file.
 */
#include "xgo_shape.h"

static const struct xgo_shape *const shapes[XG_SHAPE_COUNT] = {
    [XG_SHAPE_CONTACTS] = &xgo__shape_contacts,
    [XG_SHAPE_TRIANGLES] = &xgo__shape_triangles,
    [XG_SHAPE_LINES] = &xgo__shape_lines,
};

const struct xgo_shape *xgo_shape_of(const struct xg_op *op)
{
    if (!op || op->shape < 0 || op->shape >= XG_SHAPE_COUNT)
        return NULL;
    return shapes[op->shape];
}
