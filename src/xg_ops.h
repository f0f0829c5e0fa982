/*
 * xg_ops.h -- the rows of the operation table, by name, for what is keyed
 * by operation inside the library: the engines registered per
 * (operation, kind) (xg_engine.h) and each operation's own dispatch; and
 * what the rows (src/op/NAME/NAME_op.c) share.  Front ends reach the
 * same rows through xg_op_find and xg_op_at.
 */
#ifndef XG_OPS_H
#define XG_OPS_H

#include <stddef.h>
#include "exactgeo.h"

#define XG_OP_ROW(name) extern const struct xg_op xg__op_##name;
#include "op/list.h"
#undef XG_OP_ROW

/* The kinds of record a contact operation gives (struct xg_op, kinds):
 * contacts of two inputs; the places of points in solids. */
#define XG_OP_CONTACTS ((1u << XG_KIND_PROPER) | (1u << XG_KIND_TOUCH) | \
                        (1u << XG_KIND_OVERLAP))
#define XG_OP_PLACES ((1u << XG_KIND_INSIDE) | (1u << XG_KIND_BOUNDARY) | \
                      (1u << XG_KIND_OUTSIDE))

/* A work count of struct xg_stats under its --stats key. */
#define XG_OP_COUNTER(key, field) {key, offsetof(struct xg_stats, field)}
/* What the pair engines count (exactgeo.h, struct xg_stats). */
#define XG_OP_PAIR_COUNTERS                                                \
    {XG_OP_COUNTER("candidate_pairs", candidates),                         \
     XG_OP_COUNTER("bbox_pairs", bbox_pairs),                              \
     XG_OP_COUNTER("deferred_pairs", deferred)}

#endif /* XG_OPS_H */
