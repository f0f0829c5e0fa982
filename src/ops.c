/*
 * ops.c -- the operation table (exactgeo_ops.h), which every front end
 * reads.  Each operation lives in its own folder, src/op/NAME/ (its row
 * xg__op_NAME in NAME_op.c, its engines, its header), and is listed by
 * one line of src/op/list.h; its shape (enum xg_shape) says how the
 * front ends write, summarise and count its records.  Operations of two
 * inputs give contacts (run); delaunay takes one input and gives
 * triangles (run_tri, check).
 */
#include <stddef.h>
#include <string.h>
#include "xg_ops.h"

/* The table, in the order of src/op/list.h. */
static const struct xg_op *const ops[] = {
#define XG_OP_ROW(name) &xg__op_##name,
#include "op/list.h"
#undef XG_OP_ROW
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
