/*
 * list.h -- the operations, one line each, in the order --help lists
 * them: the one registration line a new operation adds.  Whoever
 * includes it defines XG_OP_ROW(name) first: xg_ops.h declares each row
 * (xg__op_NAME, defined in src/op/NAME/NAME_op.c), ops.c lists them in
 * the operation table.
 */
XG_OP_ROW(segtri)
XG_OP_ROW(redblue)
XG_OP_ROW(inside)
XG_OP_ROW(delaunay)
#ifdef XG_TEST_OPS
XG_OP_ROW(boxmeet) /* test builds only: tests/op/boxmeet.c */
#endif
