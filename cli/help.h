/* help.h -- the exactgeo tool's --help text and refused options. */
#ifndef XG_CLI_HELP_H
#define XG_CLI_HELP_H

#include <stddef.h>
#include <stdio.h>
#include "exactgeo.h"

/* Prints the --help text: usage and summary of every operation of the
 * table, then the options. */
void help_print(FILE *f);

/* The positional arguments of op, for usage lines and messages: "DST
 * A_SRC B_SRC", or for an operation of one input "DST POINTS_SRC" (its
 * elements, in capitals). */
void help_args(const struct xg_op *op, char *buf, size_t len);

/* For an ogr2ogr option the tool does not take (-sql, -t_srs, ...), what
 * to do instead; NULL for others. */
const char *help_refused(const char *opt);

#endif
