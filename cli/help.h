/* help.h -- the exactgeo tool's --help text and refused options. */
#ifndef XG_CLI_HELP_H
#define XG_CLI_HELP_H

#include <stddef.h>
#include <stdio.h>
#include "exactgeo.h"

/* Prints the --help text: usage and summary of every operation of the
 * table, then the options (each with the operations that take it, where
 * not all do), the output fields and kinds of each. */
void help_print(FILE *f);

/* Prints `exactgeo OP --help` for op: its usage, what it computes, the
 * geometries each input takes, the options it takes, its output (layer,
 * fields, geometry, kinds). */
void help_print_op(FILE *f, const struct xg_op *op);

/* The positional arguments of op, for usage lines and messages: "DST
 * A_SRC B_SRC", or for an operation of one input "DST POINTS_SRC" (its
 * elements, in capitals). */
void help_args(const struct xg_op *op, char *buf, size_t len);

/* For an ogr2ogr option the tool does not take (-sql, -t_srs, ...):
 * returns 1 with what to do instead, for op, in buf; 0 for others. */
int help_refused(const struct xg_op *op, const char *opt, char *buf,
                 size_t len);

#endif
