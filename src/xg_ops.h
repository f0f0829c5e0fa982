/*
 * xg_ops.h -- the rows of the operation table (ops.c), by name, for what
 * is keyed by operation inside the library: the engines registered per
 * (operation, kind) (xg_engine.h) and each operation's own dispatch.
 * Front ends reach the same rows through xg_op_find and xg_op_at.
 */
#ifndef XG_OPS_H
#define XG_OPS_H

#include "exactgeo.h"

extern const struct xg_op xg__op_segtri;
extern const struct xg_op xg__op_redblue;
extern const struct xg_op xg__op_inside;
extern const struct xg_op xg__op_delaunay;
#ifdef XG_TEST_OPS
extern const struct xg_op xg__op_boxmeet; /* test builds: tests/op/ */
#endif

#endif /* XG_OPS_H */
